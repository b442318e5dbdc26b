"""[hpcy25] §3 Observations 1-4 (Figs. 3-5) on trained models, in invariant coordinates
(docs/testing.md): the KQ/OV patterns, the ± head pair on the manifold (4.6) at ⟨ω, μ⟩ = 1/κ (4.3),
the risks of H = 1-4 heads, the dynamics over training and the claims over seeds; at the presets and
at any setting ``d, L, sigma2, H`` (:func:`setting_rows`).

Trained models come from :func:`sims.hpcy25.train.trained` (config-keyed cache).
Everything a theorem predicts is read off the trained parameters: the effective circuits
``KQ^h = W_K^{h⊤}W_Q^h/√D`` and ``OV^h = W_O^h W_V^h``, the head scales ``ω_h = mean diag K11^h``
and ``μ_h = OV^h_{D}``, the effective step ``η̂ = 2ω̄m`` and risks on fresh prompts.  Acceptance
bands are docs/papers/hpcy25.md's ("Training recipe"), cited in each record.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np

import theory.hpcy25 as th
from numerics.hpcy25.bands import band
from numerics.testing import (
    Z_MC,
    informational,
    over_seeds,
)
from sims.hpcy25 import evidence as ev_
from sims.hpcy25 import sec3_training as tr_
from sims.hpcy25.sec3_heads import inject_offpattern_head, judge_heads
from sims.hpcy25.sec3_obs1_setting import OBS1_PATH, obs1_at_setting, setting_rows
from sims.hpcy25.sec5_extensions import compute_4a
from sims.hpcy25.train import RECIPES, trained
from theory.common.protocols import Evidence
from theory.hpcy25.settings import Setting

__all__ = [
    "check_obs1_train",
    "obs1_train",
    "check_obs3_train",
    "check_obs4_train",
    "check_obs2_train_seeds",
    "seed_outcomes",
    "setting_rows",
    "obs1_at_setting",
]

_PATH = OBS1_PATH  # the label of check_obs1_train's random streams


def seed_outcomes(
    preset: str,
    H: int,
    seeds: tuple[int, ...],
    *,
    claim: str,
    rows_of: Callable[[int], list[Evidence]] | None = None,
) -> Evidence:
    """A claim over seeds (Obs. 4: "consistent across seeds").  ``rows_of(seed)`` are one seed's
    rows (default: :func:`check_obs1_train` on that seed), folded by
    :func:`numerics.testing.over_seeds`; ``observed`` = the seeds whose rows all pass (reach the
    prediction); ``paper`` = all seeds; ``ours`` = the seeds not in a named trap (``trap``, judged
    independently).  pass: every seed reaches the prediction; ``untested``: the others all end in
    a named trap -- the paper's consistency is a claim about 500k-step GPU training, and the row
    gives the trap fraction at our CPU scale (``reached``) and the paper's scale (``needed``), so
    a trap at a few thousand CPU steps is not reported as a paper error; fail: a seed neither
    reaches the prediction nor ends in a named trap."""

    def obs1_rows(s_: int) -> list[Evidence]:
        return obs1_train(H=H, seed=s_, preset=preset)

    merged = over_seeds(rows_of or obs1_rows, seeds)
    reached = [s_ for s_ in seeds if all(s_ in e.details["seeds_passed"] for e in merged)]
    traps = {str(s_): t for s_ in seeds if (t := ev_.trap(preset, H, s_)) is not None}
    # TRAIN contract: the folded TRAIN rows' start distances and named alternatives
    train = [e for e in merged if e.kind == "TRAIN"]
    starts = [p["start_units"] for e in train for p in e.details["per_seed"]]
    alts = [
        {**a, "name": f"{e.name}: {a['name']}"} for e in train for a in e.details["alternatives"]
    ]
    return ev_.seed_claim_row(
        preset,
        H,
        seeds,
        reached,
        traps,
        claim=claim,
        details={"start_units": min(starts), "alternatives": alts},
    )


def check_obs1_train(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_double_softmax: bool | None = None,
    fault_prediction: ev_.Alternative | None = None,
    fault_offpattern_head: float | None = None,
) -> list[Evidence]:
    """Obs. 1–2 and the manifold position on a model with ``setting.H`` heads trained at
    ``setting``'s ``(d, L, σ²)`` (:func:`obs1_train`: at the paper's setting the preset ``h{H}``
    trains; elsewhere the derived recipe).  ``fault_prediction`` is a declared
    :class:`~sims.hpcy25.evidence.Alternative` passed as the prediction (negative control)."""
    s = setting
    return obs1_train(
        quick=quick,
        seed=seed,
        H=s.H,
        d=s.d,
        L=s.L,
        sigma2=s.sigma2,
        fault_double_softmax=fault_double_softmax,
        fault_prediction=ev_.fault_name(fault_prediction),
        fault_offpattern_head=fault_offpattern_head,
    )


def obs1_train(
    *,
    quick: bool = True,
    seed: int = 0,
    H: int = 2,
    preset: str = "",
    d: int = 5,
    L: int = 40,
    sigma2: float = 0.1,
    fault_double_softmax: bool | None = None,
    fault_prediction: str | None = None,
    fault_offpattern_head: float | None = None,
) -> list[Evidence]:
    """Obs. 1–2 and the manifold position on a trained H-head model (reference torch recipe pass
    list): diag_ratio ≥ 0.97 and ov_ratio ≥ 0.98 on the heads that contribute to the prediction (a
    dummy head, Obs. 1, is one whose removal moves the prediction by at most the row's tolerance:
    :mod:`.heads`), sign matching; for H ≥ 2 also zero-sum
    ``|Σμ| ≤ 0.1 max|μ|``, active ``|ω_h|`` spread ≤ 15 %, ``|2ω̄m − 1/κ| ≤ 0.05``; TRAIN rows that
    tell the prediction from its neighbours (``manifold_rows``): the invariant ``⟨ω, μ⟩`` vs
    ``1/κ`` (4.3) and ``m`` vs ``m*(ω̄)`` (4.6); risk in [0.240, 0.27] and ≥ 0.1 below H = 1.
    ``quick=False`` trains three seeds (``seed, seed+1, seed+2``): every row is folded over the
    seeds not in a named trap (:func:`.evidence.fold_seeds`) and a claim
    row counts the seeds in each named trap.
    ``fault_prediction`` names an alternative to pass as the prediction (negative control);
    ``preset`` (a full-tier option of the seed studies) trains another preset of the same
    setting;
    ``fault_offpattern_head`` makes the head of least |μ| an off-pattern head that contributes
    (:func:`.heads.inject_offpattern_head`, x-part of OV this times max|μ|; negative control).

    ``d, L, sigma2``: at the presets' (5, 40, 0.1) ``h{H}`` trains as before; else
    :func:`obs1_at_setting` (a setting where 1/κ is within 2 units of its nearest alternative is
    reported not separable before any training: :func:`setting_rows`)."""
    tr_.validate_obs1(d, L, sigma2, H)
    double_softmax = bool(fault_double_softmax)  # FAULT: train with a second softmax
    seeds = ev_.seeds(quick, seed)
    if not tr_.at_preset(tr_.OBS1_DEFAULTS, d=d, L=L, sigma2=sigma2):
        return obs1_at_setting(
            d=d,
            L=L,
            sigma2=sigma2,
            H=H,
            seeds=seeds,
            preset=preset,
            double_softmax=double_softmax,
            fault_prediction=fault_prediction,
            fault_offpattern_head=fault_offpattern_head,
        )
    preset = preset or ev_.PRESET[H]
    at = Setting(d=d, L=L, sigma2=sigma2, H=H)

    def rows_of(s_: int) -> list[Evidence]:
        return _obs1_rows(at, s_, preset, double_softmax, fault_prediction, fault_offpattern_head)

    def trap_of_seed(s_: int) -> str | None:
        return None if double_softmax else ev_.trap(preset, H, s_)

    ev = ev_.fold_seeds(rows_of, seeds, trap_of_seed)
    if len(seeds) > 1 and not double_softmax and fault_offpattern_head is None:
        ev.append(seed_outcomes(preset, H, seeds, claim="Obs 1-2 (+/- pattern on the manifold)"))
    return ev


def _obs1_rows(
    setting: Setting,
    seed: int,
    preset: str,
    double_softmax: bool,
    fault_prediction: str | None,
    fault_offpattern_head: float | None = None,
) -> list[Evidence]:
    """One seed's rows of :func:`check_obs1_train` at ``setting`` (the preset's), trained by the
    preset's recipe; every row ``skipped`` with its numbers where the run did not converge within
    its step bound."""
    exp_over: dict[str, Any] = {"double_softmax": True} if double_softmax else {}
    res = trained(setting, RECIPES[preset], seed=seed, **exp_over)
    return tr_.preset_converged_or_skipped(
        _obs1_judged(
            res, setting.H, seed, preset, double_softmax, fault_prediction, fault_offpattern_head
        ),
        res,
    )


def _obs1_judged(
    res: Any,
    H: int,
    seed: int,
    preset: str,
    double_softmax: bool,
    fault_prediction: str | None,
    fault_offpattern_head: float | None,
) -> list[Evidence]:
    exp = res.extra["experiment"]
    exp_over: dict[str, Any] = {"double_softmax": True} if double_softmax else {}
    params = res.params
    if fault_offpattern_head is None:  # Obs. 1's metrics of the Fig. 3 circuits
        KQ, OV = ev_.compute_3(seed=seed, Hs=(H,), presets={H: preset}, overrides=exp_over)[H]
        m = ev_.circuit_metrics(KQ, OV, exp.d)
    else:  # FAULT: an off-pattern head that contributes
        params = inject_offpattern_head(exp, params, fault_offpattern_head)
        m = ev_.pattern_metrics(exp, params)
    m = judge_heads(m, exp, params, rtol=ev_.rtol_inner(preset), seed=seed, path=_PATH)
    tag = f"H={H}" + (" [double softmax]" if double_softmax else "")
    ev = [
        *ev_.pattern_rows(tag, m),
    ]
    ev.append(ev_.plateau(tag, res.losses))
    risk = ev_.risk(preset, seed, None, tuple(exp_over.items()))
    if H == 1:
        ev.append(informational("H=1 risk (reference 0.413)", 0.413, risk.mean))
        return ev
    wbar, mass, eta = ev_.eta_hat(m)
    kinv = th.eta_star(exp.d, exp.L, exp.sigma2)
    init = ev_.pattern_metrics(exp, res.extra["init_params"])
    r1 = ev_.risk("h1", seed)
    return ev + [
        band(
            f"{tag}: |sum mu| ≤ 0.1 max|mu| (Obs 2: zero-sum OV)",
            abs(m["mu"].sum()) / np.abs(m["mu"]).max(),
            None,
            0.1,
        ),
        ev_.spread_row(tag, m),
        band(
            f"{tag}: |2 omega_bar m - 1/kappa| ≤ 0.05 (manifold position)",
            abs(eta - kinv),
            None,
            0.05,
            details={"omega_bar": wbar, "m": mass},
        ),
        *ev_.manifold_rows(tag, exp, m, init, preset=preset, fault_prediction=fault_prediction),
        band(
            f"{tag}: ICL risk in [0.240, 0.27] (torch training recipe)",
            risk.mean,
            0.240,
            0.27,
            details={"se": risk.se, "R_D*": th.dgd_risk_star(exp.d, exp.L, exp.sigma2)},
        ),
        band(
            f"{tag}: H=1 risk - H={H} risk ≥ 0.1 (multi-head beats one head)",
            r1.mean - risk.mean,
            0.1,
            None,
            details={"H1": r1.mean, "H": risk.mean},
        ),
    ]


def check_obs3_train(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Obs. 3 (the trained presets ``h1`` … ``h4`` of the paper's setting ``setting``, Fig. 4(a);
    declared fixed there): H = 2, 3, 4 perform alike (within ±0.01 + MC noise of each other) and
    sit on the DGD risk ``R_D(η̂; L)``; H = 1 is worst; the learned risk is within the proven
    factor of Bayes (``≤ sup_ξ R_DGD∞/R_B∞ = 2.53`` at σ² = 0.1 times ``R_B∞``)."""
    presets = tuple(ev_.PRESET[H] for H in (1, 2, 3, 4))
    runs = [  # the runs the risks are read from, by the presets' recipes
        trained(dataclasses.replace(setting, H=H), RECIPES[ev_.PRESET[H]], seed=seed)
        for H in (1, 2, 3, 4)
    ]
    at_L = compute_4a(
        seed=seed, Lps=(tr_.OBS1_DEFAULTS["L"],), presets=presets, n=ev_.RISK_PROMPTS, ridge_n=0
    )["risks"]
    risks, ev = {H: at_L[ev_.PRESET[H]][0] for H in (1, 2, 3, 4)}, []
    for H in (3, 4):
        se = math.hypot(risks[H].se, risks[2].se)
        ev.append(
            band(
                f"Obs 3: |risk(H={H}) - risk(H=2)| ≤ 0.01 + 5 se",
                abs(risks[H].mean - risks[2].mean),
                None,
                0.01 + Z_MC * se,
            )
        )
    for H in (2, 3, 4):
        ev.append(
            band(f"Obs 3: risk(H=1) - risk(H={H}) ≥ 0.1", risks[1].mean - risks[H].mean, 0.1, None)
        )
        ev.append(
            band(
                f"Obs 3: risk(H={H}) / R_B∞(1/8) ≤ 2.53 (Thm 4.2(iii) factor)",
                risks[H].mean / th.bayes_risk_limit(0.125, 0.1),
                1.0,
                2.53,
            )
        )
    for res in runs:  # a run that did not converge within its step bound: skipped, with numbers
        ev = tr_.preset_converged_or_skipped(ev, res)
    return ev


def _obs4_rows(setting: Setting, seed: int) -> list[Evidence]:
    """One seed's Obs-4 rows on the run of ``setting`` by the preset ``h{H}``'s recipe (``skipped``
    with its numbers where it did not converge within its step bound)."""
    H = setting.H
    res = trained(setting, RECIPES[ev_.PRESET[H]], seed=seed)
    tr = res.extra["trace"]
    rows = [r for r in tr if "omega_0" in r]
    om = np.array([[r[f"omega_{h}"] for h in range(H)] for r in rows])
    mu = np.array([[r[f"mu_{h}"] for h in range(H)] for r in rows])
    early = (2 * len(rows)) // 5
    act = np.abs(mu[-1]) >= 0.05 * np.abs(mu[-1]).max()
    peak = np.abs(om[:, act]).mean(axis=1)
    tag = f"H={H}: "  # over seeds: fold_seeds (details seeds, seeds_passed, reported_seed)
    rows = [
        band(
            tag + "Obs 4: signs of omega_h mu_h at 40% of training = final (active heads)",
            float(
                np.mean(
                    np.sign(om[early, act] * mu[early, act]) == np.sign(om[-1, act] * mu[-1, act])
                )
            ),
            1.0,
            1.0,
        ),
        band(
            tag + "Obs 4: |omega| rises then decays (peak / final mean |omega_h|)",
            float(peak.max() / peak[-1]),
            1.1,
            None,
        ),
        band(
            tag + "Obs 4: |mu| grows (final / value at 40 % of training, sum |mu_h|)",
            float(np.abs(mu[-1]).sum() / np.abs(mu[early]).sum()),
            1.0,
            None,
        ),
    ]
    return tr_.preset_converged_or_skipped(rows, res)


def check_obs4_train(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Obs. 4 (the trained preset ``h{H}`` of the paper's setting, ``H = setting.H``; declared
    fixed there: its rows read fractions of that preset's schedule): the ± pattern appears early
    and persists (sign of ω_hμ_h at 40 % of training equals the final one on active heads; in our
    compressed 3000-step schedule the pair forms around 30 %), |ω| rises then decays (peak ≥ 1.1×
    final), |μ| grows (final ≥ its value at 40 % of training).  ``quick=False``: the rows are
    folded over the three seeds not in a named trap, and the paper's "consistent across seeds" is
    a claim over the three seeds (:func:`seed_outcomes`: a seed reaches it if its Obs-4 rows and
    its Obs-1/2 pattern rows all pass; seeds in a named trap make it ``untested`` at the paper's
    scale)."""
    H = setting.H
    preset = ev_.PRESET[H]
    seeds = ev_.seeds(quick, seed)
    ev = ev_.fold_seeds(
        lambda s_: _obs4_rows(setting, s_), seeds, lambda s_: ev_.trap(preset, H, s_)
    )
    if len(seeds) > 1:
        ev.append(
            seed_outcomes(
                preset,
                H,
                seeds,
                claim="Obs 4 dynamics and pattern",
                rows_of=lambda s_: _obs4_rows(setting, s_) + obs1_train(H=H, seed=s_),
            )
        )
    return ev


def check_obs2_train_seeds(
    *,
    quick: bool = True,
    seed: int = 0,
    H: int = 2,
    preset: str = "",
    seeds: tuple[int, ...] = (0, 1, 2, 3),
) -> list[Evidence]:
    """Across init seeds (thorough tier): every :func:`check_obs1_train` row, folded over the seeds
    that do not end in a named trap, must pass on each of them (the claim is not weakened); a seed
    in the single-head trap (all active heads of one sign, risk within 0.03 of the trained H = 1
    risk) is shown with that evidence, and the claim row over seeds (:func:`seed_outcomes`) is
    ``untested`` (the paper says the dynamics are consistent across seeds, after 500k GPU steps;
    at our CPU scale H = 2 seed 1 and H = 3 seed 2 are trapped).  ``preset`` defaults to the quick
    preset ``h{H}`` (``"h3_spec"``: our reference recipe)."""
    preset = preset or ev_.PRESET[H]
    traps = {s_: t for s_ in seeds if (t := ev_.trap(preset, H, s_)) is not None}
    ev = ev_.fold_seeds(lambda s_: obs1_train(H=H, seed=s_, preset=preset), seeds, traps.get)
    ev += [
        band(
            f"seed {s_}: {t}: |risk(H={H}) - risk(H=1)| ≤ 0.03",
            abs(ev_.risk(preset, s_).mean - ev_.risk("h1", s_).mean),
            None,
            0.03,
        )
        for s_, t in traps.items()
    ]
    ev.append(seed_outcomes(preset, H, tuple(seeds), claim="Obs 1-2 (+/- pattern on the manifold)"))
    return ev
