"""[hpcy25] §5 on trained models: length generalisation of softmax vs linear attention (§5.1,
Fig. 8), the non-isotropic preconditioner P vs P_D* and Γ* (§5.3, (5.3)-(5.6)) and multi-task
ICL (§5.4, Defs. 5.1-5.2, Table 2)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

import theory.hpcy25 as th
from numerics.hpcy25.bands import band
from numerics.hpcy25.figures import compute_ridge_curve
from numerics.testing import Z_MC, informational, swap_alternative, train_discrimination
from sims.hpcy25 import evidence as ev_
from sims.hpcy25.sec3_convergence import preset_converged_or_skipped
from sims.hpcy25.train import (
    MT_SUPPORTS,
    RECIPES,
    circuits,
    experiment_of,
    kms_covariance,
    model_risk,
    trained,
)
from theory.common.protocols import Evidence
from theory.hpcy25.settings import Setting

__all__ = [
    "check_sec5_1_train",
    "check_eq5_6_train",
    "check_def5_1_train",
    "RTOL_NONISO_SCALE",
    "compute_4a",
    "compute_8",
]


# ------------------------------------------------------------------------------ R11 (d)
#: Prompts per risk estimate of :func:`check_sec5_1_train` (those of
#: :func:`sims.hpcy25.train.model_risk` by default).
RISK_PROMPTS = ev_.RISK_PROMPTS


def check_sec5_1_train(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """§5 trained: the trained two-head softmax model's risk strictly decreases over
    L' ∈ {20, 40, 80, 160}; the trained linear-attention model (fixed 1/40) has risk at L' = 80 at
    least 0.3 above its risk at L' = 40; both vs their closed forms (informational).  Trains
    ``setting`` (two heads) and the linear-attention model at its data model by the recipes of the
    presets ``h2`` and ``linear`` (declared fixed at the paper's setting: Fig. 8's lengths and its
    0.3 gap are for d = 5, L = 40, σ² = 0.1); ``skipped`` with the numbers where a run did not
    converge within its step bound."""
    ev: list[Evidence] = []
    sm = trained(setting, RECIPES["h2"], seed=seed)
    lin = trained(experiment_of(setting, H=1, model="linear"), RECIPES["linear"], seed=seed)
    Lps = (20, 40, 80, 160)
    # the figure's risks at this check's lengths, on 20 000 prompts each
    rs = compute_8(seed=seed, Lps=Lps, presets=("h2",), n=RISK_PROMPTS)["risks"]["h2"]
    for i in range(len(Lps) - 1):
        gap = rs[i].mean - rs[i + 1].mean
        ev.append(
            band(
                f"softmax risk decreases from L'={Lps[i]} to {Lps[i + 1]} (beyond 5 se)",
                gap,
                Z_MC * math.hypot(rs[i].se, rs[i + 1].se),
                None,
            )
        )
    rl = dict(
        zip(
            (40, 80),
            compute_8(seed=seed, Lps=(40, 80), presets=("linear",), n=RISK_PROMPTS)["risks"][
                "linear"
            ],
            strict=True,
        )
    )
    ev.append(
        band(
            "linear attention: risk(L'=80) - risk(L'=40) ≥ 0.3",
            rl[80].mean - rl[40].mean,
            0.3,
            None,
        )
    )
    m = ev_.pattern_metrics(sm.extra["experiment"], sm.params)
    eta = ev_.eta_hat(m)[2]
    ev.append(
        informational(
            "softmax trained risk vs R_D(eta_hat; L')",
            [th.softmax_length_risk(Lp, eta, 5, 0.1) for Lp in Lps],
            [r.mean for r in rs],
        )
    )
    ev.append(
        informational(
            "linear trained risk vs R_lin(L') at L' = 40, 80",
            [th.linear_length_risk(Lp, 40, 5, 0.1) for Lp in (40, 80)],
            [rl[40].mean, rl[80].mean],
        )
    )
    return preset_converged_or_skipped(preset_converged_or_skipped(ev, sm), lin)


# ------------------------------------------------------------------------------ R13 (d)
#: TRAIN tolerance of the scale ``tr P`` of the non-isotropic P: at most half the distance from
#: tr P_D* to tr Γ* (3.25 % at the preset's L = 20), so Γ* is ≥ 2 units from the prediction and
#: can be told apart; the trained pairs sit −0.3 … +1.2 % from tr P_D* (seeds 0, 2, 3, 4).
RTOL_NONISO_SCALE = 0.015


def check_eq5_6_train(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_prediction: ev_.Alternative | None = None,
) -> list[Evidence]:
    """§5 trained: KMS ρ = 0.5, H = 2, L = 20: a ± head pair; ``P = Σ_h μ_h sym(K11^h)`` within 5 %
    (relative Frobenius, train_discrimination) of the debiased optimum ``P_D*`` and outside 5 % of
    ``Σ^{-1}`` (the finite-L term dropped); its scale ``tr P`` within 1.5 % of ``tr P_D*`` and
    outside 1.5 % of ``tr Γ*`` (the vanilla-GD optimum (5.6), 3.25 % away: 2.17 units) and of
    ``tr Σ^{-1}``.  ``Γ*⁻¹ − P_D*⁻¹ = Σ/L``: the two optima differ almost only in scale (their
    shapes ``P/tr P`` by 0.44 %, below the trained pair's 0.7–2 % shape error), so the scale is the
    coordinate that tells them apart.  The preset trains at L = 20, not the paper's 40, because at
    L = 40 Γ* is only 1.95 % from P_D* in scale while the trained pair's finite-ω bias reaches
    1.3 %.  ``quick=False`` folds the rows over three seeds (:func:`numerics.testing.over_seeds`;
    a seed in the named single-head trap is reported, not folded).  ``fault_prediction`` passes a
    declared :class:`~sims.hpcy25.evidence.Alternative` (``NONISO_ALTERNATIVES``) as the
    prediction of every row that lists it (negative control).  Trains ``setting`` by the recipe
    of the preset ``noniso`` (declared fixed at ``PRESETS["noniso_train"]`` = (5, 20, 0.1,
    ρ = 0.5): the scale row tells P_D* from Γ* only where they are ≥ 2 units apart); a seed whose
    run did not converge within its step bound has its rows ``skipped`` with the numbers."""
    exp = ev_.noniso_P(setting, seed)[0]
    S = kms_covariance(exp.d, exp.rho)
    PD, G, Sinv = (
        th.pd_star(S, exp.L, exp.sigma2),
        th.gamma_star(S, exp.L, exp.sigma2),
        np.linalg.inv(S),
    )
    g_name, s_name = ev_.GAMMA_STAR.name, ev_.SIGMA_INVERSE.name
    fault = ev_.fault_name(fault_prediction)
    if fault is not None and fault not in (g_name, s_name):
        raise ValueError(f"fault_prediction must be one of {[g_name, s_name]}, got {fault!r}")
    pred, alts = swap_alternative(
        PD, {s_name: Sinv}, fault, prediction_name="P_D* (5.3)", strict=False
    )
    tr_pred, tr_alts = swap_alternative(
        float(np.trace(PD)),
        {g_name: float(np.trace(G)), s_name: float(np.trace(Sinv))},
        fault,
        prediction_name="tr P_D* (5.3)",
        strict=False,
    )
    nPD = float(np.linalg.norm(PD))

    def rows_of(s_: int) -> list[Evidence]:
        _, P, P0, mu = ev_.noniso_P(setting, s_)
        rows = [
            band("noniso: mu_1 mu_2 < 0 (± head pair)", float(mu[0] * mu[1]), None, 0.0),
            train_discrimination(
                "noniso: P = sum_h mu_h sym(K11^h) vs P_D* (5.3)-(5.6) debiased",
                P,
                pred,
                P0,
                alternatives=alts,
                details={
                    "P": P.tolist(),
                    "L": exp.L,
                    "Gamma* (5.6): relative Frobenius distance to trained P, to P_D*": [
                        float(np.linalg.norm(P - G)) / nPD,
                        float(np.linalg.norm(G - PD)) / nPD,
                    ],
                },
            ),
            train_discrimination(
                "noniso: scale tr P vs tr P_D* (debiased), not tr Gamma* (vanilla GD)",
                float(np.trace(P)),
                tr_pred,
                float(np.trace(P0)),
                alternatives=tr_alts,
                rtol=RTOL_NONISO_SCALE,
                details={"L": exp.L},
            ),
        ]
        return preset_converged_or_skipped(rows, trained(setting, RECIPES["noniso"], seed=s_))

    return ev_.fold_seeds(rows_of, ev_.seeds(quick, seed), lambda s_: ev_.noniso_trap(setting, s_))


# ------------------------------------------------------------------------------ R14 (d)
def check_def5_1_train(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """§5.4's multi-task data at ``setting`` (declared fixed at ``PRESETS["multitask"]``
    = (6, 48, 0.1, H = 4): the supports S_1, S_2 and the bands are the authors' d = 6 runs),
    trained by the preset ``multitask``'s recipe: :func:`def5_1_train_rows`."""
    return def5_1_train_rows("multitask", seed=seed, setting=setting)


def def5_1_train_rows(
    preset: str, *, seed: int = 0, setting: Setting | None = None
) -> list[Evidence]:
    """Robust criteria (mode labels are seed-dependent): per task k,
    ``|Σ_h μ_{h,k}| ≤ 0.05 Σ_h |μ_{h,k}|``; ``P_k = Σ_h μ_{h,k} diag(K11^h)``
    has diagonal entries in
    [0.8, 1.05] on ``S_k`` and ≤ 0.1 off ``S_k``; cross-task OV entries ≤ 0.1; risk vs the per-task
    optimum (informational: our reference 0.444 vs 0.412 per task).  ``setting``: the data
    model's (default: the preset's); ``skipped`` with the numbers where the run did not converge
    within its step bound."""
    res = (
        trained(preset, seed=seed)
        if setting is None
        else trained(experiment_of(setting, multitask=True), RECIPES[preset], seed=seed)
    )
    exp = res.extra["experiment"]
    KQ, OV = circuits(exp, res.params)
    d, n = exp.d, exp.n_out
    ev: list[Evidence] = []
    diagK = np.diagonal(KQ[:, :d, :d], axis1=1, axis2=2)  # (H, d)
    for k, S in enumerate(MT_SUPPORTS):
        mu = OV[:, k, d + k]
        ev.append(
            band(
                f"task {k + 1}: |sum_h mu_hk| ≤ 0.05 sum_h |mu_hk|",
                abs(mu.sum()) / np.abs(mu).sum(),
                None,
                0.05,
            )
        )
        Pk = mu @ diagK
        on = np.array([j in S for j in range(d)])
        ev.append(
            band(
                f"task {k + 1}: P_k diagonal on S_k in [0.8, 1.05]",
                float(Pk[on].min()),
                0.8,
                1.05,
                details={"P_k": Pk.tolist()},
            )
        )
        ev.append(
            band(f"task {k + 1}: P_k diagonal on S_k ≤ 1.05", float(Pk[on].max()), None, 1.05)
        )
        ev.append(
            band(f"task {k + 1}: |P_k| off S_k ≤ 0.1", float(np.abs(Pk[~on]).max()), None, 0.1)
        )
        ev.append(
            band(
                f"task {k + 1}: cross-task OV entries ≤ 0.1",
                float(np.abs(OV[:, k, [d + j for j in range(n) if j != k]]).max()),
                None,
                0.1,
            )
        )
    risk = model_risk(exp, res.params, seed=seed)
    ev.append(
        informational(
            "multitask risk (sum over tasks) vs 2 x per-task optimum 0.4122",
            2 * th.mt_task_risk(exp.L, 4, exp.sigma2),
            risk.mean,
        )
    )
    return preset_converged_or_skipped(ev, res)


def _test_length_risks(presets: tuple[str, ...], Lps: list[int], *, n: int, seed: int) -> dict:
    """Risks (``Estimate``) of the trained ``presets`` (trained at L = 40) at each test length."""
    return {pre: [ev_.risk(pre, seed, Lp, (), n) for Lp in Lps] for pre in presets}


def compute_4a(
    *,
    quick: bool = True,
    seed: int = 0,
    Lps: Sequence[int] | None = None,
    presets: tuple[str, ...] = ("h1", "h2", "h4"),
    n: int | None = None,
    ridge_n: int | None = None,
) -> dict[str, Any]:
    """Fig. 4(a) numbers: the trained ``presets``' ICL risk (mean, se; H = 1, 2, 4 by default) at
    test lengths ``L'`` (trained at L = 40) on ``n`` prompts each, and the ridge (Bayes) MC curve
    on ``ridge_n`` prompts per length
    (:func:`numerics.hpcy25.figures.compute_ridge_curve`; ``ridge_n=0`` skips it).
    Defaults are the figure's (L' ∈ {10, 20, 40, 60, 80, 100}, 5000 and 2000 prompts quick)."""
    if Lps is None:
        Lps = [10, 20, 40, 60, 80, 100] if quick else list(range(10, 101, 5))
    Lps = list(Lps)
    ridge_n = (2000 if quick else 20_000) if ridge_n is None else ridge_n
    return {
        "Lps": Lps,
        "ridge": compute_ridge_curve(Lps, n=ridge_n, seed=seed) if ridge_n else None,
        "risks": _test_length_risks(
            presets, Lps, n=(5000 if quick else 20_000) if n is None else n, seed=seed
        ),
    }


def compute_8(
    *,
    quick: bool = True,
    seed: int = 0,
    Lps: Sequence[int] | None = None,
    presets: tuple[str, ...] = ("h1", "h2", "linear"),
    n: int | None = None,
) -> dict[str, Any]:
    """Fig. 8 numbers (§5.1): the trained ``presets``' ICL risk (mean, se; softmax H = 1, 2 and
    linear attention by default) at test lengths ``Lps`` (trained at L = 40) on ``n`` prompts each.
    Defaults are the figure's (L' ∈ {10, 20, 40, 60, 80, 100} and 5000 prompts quick); the check
    :func:`check_sec5_1_train` passes its own lengths and sample size."""
    if Lps is None:
        Lps = [10, 20, 40, 60, 80, 100] if quick else list(range(10, 101, 10))
    Lps = list(Lps)
    return {
        "Lps": Lps,
        "risks": _test_length_risks(
            presets, Lps, n=(5000 if quick else 20_000) if n is None else n, seed=seed
        ),
    }
