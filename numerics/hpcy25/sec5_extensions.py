"""[hpcy25] §5 checks: softmax emulates linear attention (5.2), length generalisation (§5.1),
Table 1 (§5.2), non-isotropic covariates (§5.3), multi-task ICL (§5.4)."""

from __future__ import annotations

import math
import re

import numpy as np
import sympy as sp

import theory.hpcy25 as th
from numerics.hpcy25.bands import SAME_FORMULA_RTOL, band
from numerics.hpcy25.mc import (
    risk_mc,
)
from numerics.hpcy25.predictors import (
    dgd_weights,
    gd_weights,
    sample_covariates,
    softmax,
)
from numerics.montecarlo import mc_means
from numerics.sampling import check_rng
from numerics.testing import (
    MC_POWER,
    derived_agreement,
    exact_agreement,
    float_agreement,
    mc_agreement,
    paper_agreement,
    rate_agreement,
)
from theory.common.protocols import Evidence
from theory.hpcy25.claims import CLAIMS
from theory.hpcy25.settings import Setting

#: Where spec 001's computed values (implied c, R14's values and Table 2 sums) are derived.
DERIVED_IN = "docs/papers/hpcy25.md#derived-values"
#: Table 1 prints omega, mu and 2c omega mu to 3 significant digits: relative rounding up to ~2e-3
TABLE1_PRINTED_RTOL = 2e-3
#: a float64 gradient (d x d sums of O(1) terms) at its closed-form zero
GRAD_ZERO_ATOL = 1e-9
#: absolute floor for the off-diagonal zeros of the same comparison
OFFDIAG_ZERO_ATOL = 1e-15
#: np.linalg.inv of a KMS matrix (condition number <= ~1e2 here) vs its tridiagonal closed form
MATRIX_INVERSE_RTOL = 1e-10
#: absolute floor for the zeros off the tridiagonal band
MATRIX_INVERSE_ATOL = 1e-12
#: spec R14 gives 4 decimals: half a unit of the 4th
SPEC_R14_PRINTED_ATOL = 5e-5
#: Table 2 sums are compared to 1e-3, the precision spec 001 V-R14 states for them
TABLE2_PRINTED_ATOL = 1e-3
#: BFGS (default gtol 1e-5) argmin vs the closed form
BFGS_ARGMIN_RTOL = 1e-6
#: the minimum value is second order in the argmin error
BFGS_MIN_VALUE_RTOL = 1e-9

__all__ = [
    "check_eq5_2_rate",
    "check_sec5_1_mc",
    "TABLE1_C",
    "check_table1_paper",
    "check_eq5_6_mc",
    "kms_hypothesis",
    "check_def5_1_values",
    "check_def5_1_mc",
]

#: The label of this module's random streams: its registered path before the sections
#: (kept fixed so the streams do not move).
_STREAM = "numerics.softmax_multihead.checks_sec5"  # stream label: fixed


def check_eq5_2_rate(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """(5.2): a softmax pair ``(cW_KQ, W_OV/(2c)), (−cW_KQ, −W_OV/(2c))`` equals the linear head
    ``W_OV[(1/L)Σ z_i z_iᵀ − z̄z̄ᵀ]W_KQ z_q`` up to O(c²) (slope 2 in c) [derived], on prompts of the
    setting's ``(d, L, σ²)``."""
    d, L, sigma2 = setting.d, setting.L, setting.sigma2
    rng = check_rng(seed, f"{_STREAM}:check_eq5_2_rate")
    D = d + 1
    n = 2000
    X, xq = sample_covariates(rng, n, L, d)
    beta = rng.standard_normal((n, d)) / math.sqrt(d)
    y = np.einsum("bld,bd->bl", X, beta) + math.sqrt(sigma2) * rng.standard_normal((n, L))
    Zc = np.concatenate([X, y[:, :, None]], axis=2)  # (n, L, D) context tokens
    zq = np.concatenate([xq, np.zeros((n, 1))], axis=1)  # (n, D)
    W_KQ = rng.standard_normal((D, D)) / math.sqrt(D)
    w_ov = rng.standard_normal(D)
    zbar = Zc.mean(axis=1)
    s = np.einsum("bld,de,be->bl", Zc, W_KQ, zq)  # z_iᵀ W_KQ z_q
    lin = np.einsum("d,bld,bl->b", w_ov, Zc, s) / L - np.einsum(
        "d,bd,be,ef,bf->b", w_ov, zbar, zbar, W_KQ, zq
    )
    cs = (0.1, 0.05, 0.025, 0.0125)
    errs = []
    for c in cs:
        pair = (softmax(c * s) - softmax(-c * s)) / (2 * c)
        out = np.einsum("d,bld,bl->b", w_ov, Zc, pair)
        errs.append(np.abs(out - lin).mean())
    return [
        rate_agreement("softmax pair - (linear - W_OV zbar zbar^T W_KQ z_q) ~ c^2", cs, errs, 2.0)
    ]


def check_sec5_1_mc(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_renormalise_linear: bool | None = None,
) -> list[Evidence]:
    """§5.1 length generalisation: the softmax model ≈ DGD with fixed η = 1/κ(L) has risk
    ``R_D(η; L')``; linear attention (fixed 1/L normaliser, η = η_V*(L)) has ``R_lin(L')``,
    minimised at ``L' = L + (D'+1)/2``.  Closed forms vs MC at L' ∈ {10, 20, 40, 80, 100}; the
    symbolic argmin; monotone decrease of ``R_D(η; L')`` for η ≤ 1, L' ≥ 5.
    ``fault_renormalise_linear=True`` (linear attention rescaled by 1/L' at test time) is the
    negative control: ``R_lin`` assumes the fixed training normaliser.  ``(d, L, σ²)`` are the
    setting's (L the training length); the test lengths L' are the section's sweep."""
    d, L, sigma2 = setting.d, setting.L, setting.sigma2
    rng = check_rng(seed, f"{_STREAM}:check_sec5_1_mc")
    n = 20_000 if quick else 200_000
    eta = th.eta_star(d, L, sigma2)
    etaV = th.gd_eta_star(d, L, sigma2)
    ev: list[Evidence] = []
    for Lp in (10, 20, 40, 80, 100):
        rS, rL = th.softmax_length_risk(Lp, eta, d, sigma2), th.linear_length_risk(Lp, L, d, sigma2)
        eS, eL = risk_mc(
            [
                lambda X, q: dgd_weights(X, q, eta),
                lambda X, q: gd_weights(X, q, etaV, L0=None if fault_renormalise_linear else L),
            ],
            d=d,
            L=Lp,
            sigma2=sigma2,
            n=n,
            rng=rng,
            target_se=[MC_POWER * abs(float(rS)), MC_POWER * abs(float(rL))],
        )
        ev.append(mc_agreement(f"softmax (DGD, eta=1/kappa) risk at L'={Lp}", rS, eS))
        ev.append(mc_agreement(f"linear attention (1/L fixed) risk at L'={Lp}", rL, eL))
    Lp_s, L_s, d_s, s2 = sp.symbols("Lp L d sigma2", positive=True)
    sol = sp.solve(sp.diff(th.linear_length_risk(Lp_s, L_s, d_s, s2), Lp_s), Lp_s)
    ev.append(
        exact_agreement(
            "argmin_L' R_lin = L + (D'+1)/2", sol[0], th.linear_length_argmin(L_s, d_s, s2)
        )
    )
    E, LP = np.meshgrid(np.linspace(0.01, 1.0, 100), np.arange(5, 1000))
    R = th.softmax_length_risk(LP, E, d, sigma2)
    ev.append(
        band(
            "R_D(eta; L') decreasing in L' (eta ≤ 1, L' ≥ 5): max successive diff < 0",
            float(np.diff(R, axis=0).max()),
            None,
            0.0,
        )
    )
    return ev


TABLE1_C = (1.0, 1.0, 0.5, 0.8, 1.0, 1.0, 1.6, 2.0)


def _printed_cells(key: str) -> list[str]:
    """The numbers of a printed table line, as the paper prints them (the quote of
    ``CLAIMS[key]``, checked against the paper's text by ``tests/test_claims.py``).

    >>> _printed_cells("table2-head2")
    ['0.0779', '0.0000', '0.0870', '6.9204', '2.3371']
    """
    return re.findall(r"-?\d+\.\d+", CLAIMS[key].quote)


def check_table1_paper(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_table1_c: tuple[float, ...] | None = None,
) -> list[Evidence]:
    """Table 1: our transcription of the printed ω and μ rows (PAPER); ``2cωμ`` recomputed from
    them with the implied ``c`` against the printed third row (PAPER, relative 2e-3: ω and μ carry
    4 significant digits); the implied ``c = (2cωμ)/(2ωμ)`` against our values
    (DERIVED, derived on ``docs/papers/hpcy25.md#derived-values``);
    ``2cωμ ∈ [0.85, 1.05]`` for every column (the same DGD step across activations); the softmax
    column is the manifold ``η ≈ 1/κ``.  ``fault_table1_c`` replaces our implied
    coefficients (negative control).  The numbers are printed for the paper's trained models
    (d = 5, L = 40, σ² = 0.1): no setting is read."""
    ev: list[Evidence] = []
    table_c = TABLE1_C if fault_table1_c is None else tuple(fault_table1_c)
    for i, row in ((0, "omega"), (1, "mu")):
        ev.append(
            paper_agreement(
                f"Table 1 {row} row: our transcription (TABLE1) vs printed",
                [col[i] for col in th.TABLE1],
                _printed_cells(f"table1-{row}"),
                claim=CLAIMS[f"table1-{row}"],
            )
        )
    ev.append(
        derived_agreement(
            "implied c per Table 1 column (docs/papers/hpcy25.md §Derived values)",
            th.table1_implied_c(),
            [f"{c:g}" for c in table_c],
            derived_in=DERIVED_IN,
            spec="spec 001 R12, §6 item 10",
            atol=0.0,
            rtol=TABLE1_PRINTED_RTOL,
        )
    )
    printed_step = _printed_cells("table1-2c-omega-mu")
    for j, (w, m, _) in enumerate(th.TABLE1):
        ev.append(
            paper_agreement(
                f"column {j + 1}: 2 c omega mu recomputed vs printed {printed_step[j]}",
                th.table1_effective_step(w, m, table_c[j]),
                printed_step[j],
                claim=CLAIMS["table1-2c-omega-mu"],
                atol=0.0,
                rtol=TABLE1_PRINTED_RTOL,
            )
        )
        ev.append(
            band(
                f"column {j + 1}: 2 c omega mu (recomputed from omega, mu, implied c) "
                "in [0.85, 1.05]",
                th.table1_effective_step(w, m, table_c[j]),
                0.85,
                1.05,
            )
        )
    ev.append(
        band(
            "softmax column: |2 omega mu - 1/kappa| ≤ 0.05 (on the manifold)",
            abs(2 * th.TABLE1[0][0] * th.TABLE1[0][1] - th.eta_star(5, 40, 0.1)),
            None,
            0.05,
        )
    )
    return ev


def kms_hypothesis(setting: Setting) -> None:
    """§5.3's KMS covariance ``Σ_ij = ρ^|i−j|`` correlates coordinates: ``d ≥ 2`` (its tridiagonal
    inverse, :func:`theory.hpcy25.kms_inverse`, is stated for d ≥ 2).

    >>> kms_hypothesis(Setting(d=1))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: d = 1: ... needs d ≥ 2 ...
    """
    if setting.d < 2:
        raise ValueError(
            f"d = {setting.d}: hpcy25 §5.3's KMS covariance Σ_ij = ρ^|i-j| (and its tridiagonal "
            "inverse) needs d ≥ 2 coordinates"
        )


def _generic_preconditioner(d: int) -> np.ndarray:
    """A fixed non-symmetric ``d × d`` preconditioner, neither ``Γ*`` nor ``ηI``: ``0.7 I`` plus
    ``0.1(j − i)/d`` above the diagonal and ``−0.05 (i + 1)/d`` below it."""
    i, j = np.indices((d, d))
    return (
        0.7 * np.eye(d)
        + np.where(j > i, 0.1 * (j - i) / d, 0.0)
        - np.where(j < i, 0.05 * (i + 1) / d, 0.0)
    )


def check_eq5_6_mc(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_transpose: bool = False
) -> list[Evidence]:
    """§5.3 at the setting's ``(d, L, σ², ρ)``: Lemma E.4's ``R(Γ)`` and the debiased ``R_D(P)``
    at a generic non-symmetric preconditioner against the shared layer's one-step GD / DGD risks
    (``Ψ = I/d``; derived separately, for general ``Σ, Ψ``); ``Γ* = M^{-1}`` and ``P_D*`` are
    stationary (central differences; the risks are quadratic, so these are exact) and minimal
    (random perturbations); isotropic reduction; KMS inverse; the closed-form risks vs MC under
    KMS covariates.  ``fault_transpose`` evaluates both risks at the transposed preconditioner
    (negative control: the generic rows must tell ``Γ`` from ``Γᵀ``)."""
    from theory.common import baselines

    kms_hypothesis(setting)
    d, L, sigma2, rho = setting.d, setting.L, setting.sigma2, setting.rho
    rng = check_rng(seed, f"{_STREAM}:check_eq5_6_mc")
    S = th.kms_covariance(d, rho)
    ev: list[Evidence] = []
    Gg = _generic_preconditioner(d)
    Gt = Gg.T if fault_transpose else Gg
    for name, ours, shared in (
        (
            "R(Gamma) (Lemma E.4)",
            th.precond_gd_risk(Gt, S, L, sigma2),
            baselines.gd_risk(Gg, S, np.zeros(d), np.eye(d) / d, sigma2, L),
        ),
        (
            "R_D(P) (debiased)",
            th.precond_dgd_risk(Gt, S, L, sigma2),
            baselines.dgd_risk(Gg, 1.0, S, np.eye(d) / d, sigma2, L),
        ),
    ):
        ev.append(
            float_agreement(
                f"{name} at a generic non-symmetric preconditioner = the shared layer's risk "
                "(Psi = I/d)",
                ours,
                shared,
                rtol=SAME_FORMULA_RTOL,
            )
        )
    for name, risk, opt in (
        ("R(Gamma)", th.precond_gd_risk, th.gamma_star(S, L, sigma2)),
        ("R_D(P)", th.precond_dgd_risk, th.pd_star(S, L, sigma2)),
    ):
        h = 1e-3
        grad = np.zeros((d, d))
        for i in range(d):
            for j in range(d):
                E = np.zeros((d, d))
                E[i, j] = h
                grad[i, j] = (risk(opt + E, S, L, sigma2) - risk(opt - E, S, L, sigma2)) / (2 * h)
        ev.append(
            float_agreement(
                f"grad {name} = 0 at its optimum (KMS rho={rho})",
                grad,
                np.zeros((d, d)),
                rtol=0.0,
                atol=GRAD_ZERO_ATOL,
            )
        )
        base = risk(opt, S, L, sigma2)
        incs = [
            risk(opt + 0.1 * rng.standard_normal((d, d)), S, L, sigma2) - base for _ in range(50)
        ]
        ev.append(
            band(
                f"{name} increases away from its optimum (min over 50 perturbations)",
                min(incs),
                0.0,
                None,
            )
        )
    ev.append(
        float_agreement(
            "Gamma*(I) = eta_V* I",
            th.gamma_star(np.eye(d), L, sigma2),
            th.gd_eta_star(d, L, sigma2) * np.eye(d),
            rtol=SAME_FORMULA_RTOL,
            atol=OFFDIAG_ZERO_ATOL,
        )
    )
    ev.append(
        float_agreement(
            "P_D*(I) = (1/kappa) I",
            th.pd_star(np.eye(d), L, sigma2),
            th.eta_star(d, L, sigma2) * np.eye(d),
            rtol=SAME_FORMULA_RTOL,
            atol=OFFDIAG_ZERO_ATOL,
        )
    )
    ev.append(
        float_agreement(
            "KMS tridiagonal inverse",
            th.kms_inverse(d, rho),
            np.linalg.inv(S),
            rtol=MATRIX_INVERSE_RTOL,
            atol=MATRIX_INVERSE_ATOL,
        )
    )
    G, P = th.gamma_star(S, L, sigma2), th.pd_star(S, L, sigma2)
    rG, rP = th.precond_gd_risk(G, S, L, sigma2), th.precond_dgd_risk(P, S, L, sigma2)
    eG, eP = risk_mc(
        [lambda X, q: gd_weights(X, q, 1.0, Gamma=G), lambda X, q: dgd_weights(X, q, 1.0, P=P)],
        d=d,
        L=L,
        sigma2=sigma2,
        n=20_000 if quick else 200_000,
        rng=rng,
        Sigma=S,
        target_se=[MC_POWER * abs(float(rG)), MC_POWER * abs(float(rP))],
    )
    ev.append(mc_agreement("R(Gamma*) vs MC (KMS)", rG, eG))
    ev.append(mc_agreement("R_D(P_D*) vs MC (KMS)", rP, eP))
    return ev


#: §5.4's two tasks: supports of |S_k| = 4 of the d = 6 coordinates (``PRESETS["multitask"]``).
MT_SUPPORTS = ((0, 1, 2, 3), (2, 3, 4, 5))
MT_DIM = 6


def multitask_hypothesis(setting: Setting) -> None:
    """§5.4's multi-task model has d = 6 (two tasks on 4 of the 6 coordinates, Table 2).

    >>> multitask_hypothesis(Setting(d=5))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: d = 5: ... d = 6 ...
    """
    if setting.d != MT_DIM:
        raise ValueError(
            f"d = {setting.d}: hpcy25 §5.4's multi-task model (Table 2) has d = {MT_DIM} "
            f"coordinates, tasks on supports {MT_SUPPORTS}"
        )


def check_def5_1_values(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_theory_L: int | None = None
) -> list[Evidence]:
    """§5.4: reference values of ``η_k``, ``p_j``, the per-task risk and the Table 2 sums (DERIVED,
    derived on ``docs/papers/hpcy25.md#derived-values``); our transcription
    of Table 2 against the printed lines (PAPER).  Numbers printed for the code's multi-task
    setting (L = 48, σ² = 0.1): declared fixed there.  ``fault_theory_L`` evaluates the formulas
    at another prompt length (negative control)."""
    L = setting.L if fault_theory_L is None else fault_theory_L
    sigma2 = setting.sigma2
    ev: list[Evidence] = []
    for name, val, ref in (
        ("eta_k", th.mt_task_eta(L, 4, sigma2), "0.9160"),
        ("p_G2", th.mt_shared_p(2, 2, 4, L, sigma2), "0.9160"),
        ("p_G1", th.mt_shared_p(1, 2, 4, L, sigma2), "0.8451"),
        ("per-task risk", th.mt_task_risk(L, 4, sigma2), "0.4122"),
    ):
        ev.append(
            derived_agreement(
                f"{name} (docs/papers/hpcy25.md §Derived values)",
                val,
                ref,
                derived_in=DERIVED_IN,
                spec="spec 001 R14",
                atol=SPEC_R14_PRINTED_ATOL,
            )
        )
    for h in (1, 2, 3):
        ev.append(
            paper_agreement(
                f"Table 2 Head {h}: our transcription (TABLE2) vs printed",
                th.TABLE2[h - 1],
                _printed_cells(f"table2-head{h}"),
                claim=CLAIMS[f"table2-head{h}"],
            )
        )
    sums = th.table2_sums()
    for key, ref in (
        ("sum_mu1", "0.055"),
        ("sum_mu2", "0.003"),
        ("task1_G3", "0.0086"),
        ("task2_G1", "0.0089"),
        ("task1_G1", "0.906"),
        ("task1_G2", "0.915"),
        ("task2_G2", "0.907"),
        ("task2_G3", "0.927"),
    ):
        ev.append(
            derived_agreement(
                f"Table 2 {key} (to 1e-3)",
                sums[key],
                ref,
                derived_in=DERIVED_IN,
                spec="spec 001 R14",
                atol=TABLE2_PRINTED_ATOL,
            )
        )
    return ev


#: Prompts of §5.4's per-task MC (quick, full): its mode's sample, raised up to MAX_RAISE times
#: where the estimate misses se ≤ 2 % of the predicted risk.
DEF5_1_MC_PROMPTS = {True: 20_000, False: 200_000}


def check_def5_1_mc(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """§5.4 at the setting's ``(L, σ²)`` (``d = 6``: :func:`multitask_hypothesis`): the per-task
    step ``η_k``, the shared diagonal preconditioner ``p_j`` and the per-task risk against the
    minimisers of the foundation's general DGD risk; MC of the per-task restricted DGD in the
    code's scaling (β_k ~ N(0, I_|S|), noise |S|σ², noiseless query)."""
    multitask_hypothesis(setting)
    L, sigma2 = setting.L, setting.sigma2
    ev: list[Evidence] = []
    # independent route: minimise the foundation's exact general DGD risk
    # (theory.common.baselines.dgd_risk, derived separately) over a shared diagonal preconditioner
    # (sum of the two task risks, code scaling, noiseless query) and over a per-task step
    from scipy.optimize import minimize

    from theory.common.baselines import dgd_risk as general_dgd_risk

    def task_risk(P: np.ndarray, S: tuple[int, ...], dim: int) -> float:
        Psi = np.diag([1.0 if j in S else 0.0 for j in range(dim)])
        return (
            float(general_dgd_risk(P, 1.0, np.eye(dim), Psi, len(S) * sigma2, L)) - len(S) * sigma2
        )  # remove the query noise: the code's query labels are noiseless

    supports = MT_SUPPORTS
    res = minimize(
        lambda p: sum(task_risk(np.diag(p), S, 6) for S in supports),
        np.full(6, 0.9),
        method="BFGS",
        options={"gtol": 1e-12},
    )
    pj = [th.mt_shared_p(sum(j in S for S in supports), 2, 4, L, sigma2) for j in range(6)]
    ev.append(
        float_agreement(
            "shared diagonal preconditioner p_j = argmin of the general DGD risk (Mode II)",
            res.x,
            pj,
            rtol=BFGS_ARGMIN_RTOL,
        )
    )
    res1 = minimize(
        lambda e: task_risk(e[0] * np.eye(4), (0, 1, 2, 3), 4),
        [0.9],
        method="BFGS",
        options={"gtol": 1e-12},
    )
    ev.append(
        float_agreement(
            "per-task eta_k = argmin of the general DGD risk (Mode III)",
            res1.x[0],
            th.mt_task_eta(L, 4, sigma2),
            rtol=BFGS_ARGMIN_RTOL,
        )
    )
    ev.append(
        float_agreement(
            "per-task risk = min of the general DGD risk",
            res1.fun,
            th.mt_task_risk(L, 4, sigma2),
            rtol=BFGS_MIN_VALUE_RTOL,
        )
    )
    rng = check_rng(seed, f"{_STREAM}:check_def5_1_mc")
    s = 4
    eta = th.mt_task_eta(L, s, sigma2)

    def draw(r: np.random.Generator, b: int) -> np.ndarray:
        X, xq = sample_covariates(r, b, L, s)  # the task's support coordinates
        w = dgd_weights(X, xq, eta)
        res = xq - np.einsum("bl,bld->bd", w, X)
        return np.einsum("bd,bd->b", res, res) + s * sigma2 * np.einsum("bl,bl->b", w, w)

    pred = th.mt_task_risk(L, s, sigma2)
    (e,) = mc_means(draw, DEF5_1_MC_PROMPTS[quick], rng=rng, target_se=MC_POWER * abs(float(pred)))
    ev.append(mc_agreement("per-task restricted DGD risk (code scaling) vs MC", pred, e))
    return ev
