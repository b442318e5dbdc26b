"""[hpcy25] §4.2 checks: Stage I/II (4.3)–(4.5), the manifold (4.6)–(4.8) (EXACT and MC), the
multi-head = pair identity (4.9)–(4.11), Theorem 4.2(i)–(ii), and the single head (4.12)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import sympy as sp

import theory.hpcy25 as th
from numerics.hpcy25.bands import SAME_FORMULA_RTOL, band, printed
from numerics.hpcy25.mc import ltilde_landscape_mc, single_head_curve, tf_dgd_errors
from numerics.hpcy25.predictors import sample_covariates, tf_weights
from numerics.sampling import check_rng
from numerics.testing import exact_agreement, float_agreement, informational, rate_agreement
from numerics.verdicts import skipped
from theory.common.protocols import Evidence
from theory.hpcy25.settings import Setting

#: the Taylor-decomposed update and the gradient step are the same float64 quantity summed in
#: another order (terms up to ~1e4 cancel)
REORDERED_FLOAT_RTOL = 1e-10
#: absolute floor for entries that vanish (float64 round-off of O(1) terms)
REORDERED_FLOAT_ATOL = 1e-14
#: absolute floor for attention weights near 0 in the same comparison
WEIGHT_ZERO_ATOL = 1e-14
#: (4.6)'s MC row: the true optimum within 3 % of m*(ω) (our reference MC: 0.4-2 % above it at
#: the paper's setting)
EQ4_6_BAND = 0.03
#: a numerical minimiser's argmin vs the closed form: the optimiser stops near 1e-9
OPTIMISER_TOL = 1e-9
#: the minimum value is second order in the argmin error (1e-9)
OPTIMUM_VALUE_RTOL = 1e-10

__all__ = [
    "check_eq4_3_symbolic",
    "check_eq4_5_symbolic",
    "check_eq4_6_symbolic",
    "check_eq4_6_paper",
    "check_eq4_6_mc",
    "exact_step_shift",
    "check_eq4_10_float",
    "check_thm4_2i_mc",
    "check_thm4_2ii_symbolic",
    "check_eq4_12_symbolic",
    "check_eq4_12_mc",
]

#: The label of this module's random streams: its registered path before the sections
#: (kept fixed so the streams do not move).
_STREAM = "numerics.softmax_multihead.checks_sec4_2"  # stream label: fixed

_w, _m = sp.Symbol("omega", positive=True), sp.Symbol("m", real=True)
_d, _L = sp.Symbol("d", positive=True), sp.Symbol("L", positive=True)
_s2 = sp.Symbol("sigma2", nonnegative=True)
_eta = sp.Symbol("eta", real=True)
_xi = sp.Symbol("xi", positive=True)


def check_eq4_3_symbolic(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Stage I: the Taylor decomposition of one GD step on ``L̃`` (zero-sum, sign-matching and
    high-order terms) reproduces ``−lr ∇L̃`` at ``setting``'s ``(d, L, σ²)``; the
    low-order stationary point is ``⟨ω, μ⟩ = 1/κ`` (the sign-matching term vanishes there; in the
    symbols)."""
    d, L, sigma2 = float(setting.d), float(setting.L), setting.sigma2
    ev: list[Evidence] = []
    rng = check_rng(seed, f"{_STREAM}:check_eq4_3_symbolic")
    cL = (1 + sigma2) / L
    kap = 1 + d * cL
    lr = 0.01
    for _ in range(3 if quick else 20):
        H = int(rng.integers(2, 6))
        w = rng.uniform(-0.4, 0.4, H)
        m = rng.uniform(-3, 3, H)
        s = w @ m
        g_w, g_m = th.ltilde_grad(w, m, d, L, sigma2)
        dm = (
            -2 * lr * cL * m.sum() * np.ones(H)
            + 2 * lr * (1 - kap * s) * w
            - 2 * lr * cL * sum(d**k / math.factorial(k) * (w**k @ m) * w**k for k in range(2, 60))
        )
        dw = 2 * lr * (1 - kap * s) * m - 2 * lr * d * cL * m * sum(
            d**k / math.factorial(k) * (w ** (k + 1) @ m) * w**k for k in range(1, 60)
        )
        ev.append(
            float_agreement(
                f"Taylor-decomposed mu update = -lr grad_mu (H={H})",
                dm,
                -lr * g_m,
                rtol=REORDERED_FLOAT_RTOL,
                atol=REORDERED_FLOAT_ATOL,
            )
        )
        ev.append(
            float_agreement(
                f"Taylor-decomposed omega update = -lr grad_omega (H={H})",
                dw,
                -lr * g_w,
                rtol=REORDERED_FLOAT_RTOL,
                atol=REORDERED_FLOAT_ATOL,
            )
        )
    # the low-order stationarity (4.3): sign-matching coefficient 1 − κ⟨ω,μ⟩ vanishes at 1/κ
    ev.append(
        exact_agreement(
            "(4.3) solve 1 - kappa s = 0 gives s = L/(L + d(1+σ²))",
            sp.solve(1 - th.kappa(_d, _L, _s2) * sp.Symbol("s"), sp.Symbol("s"))[0],
            _L / (_L + _d * (1 + _s2)),
        )
    )
    return ev


def check_eq4_5_symbolic(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """(4.5): ``L̃ ≥`` bound for sign-matched ``(ω, μ)``; equality on homogeneous zero-sum inputs;
    strict inequality when homogeneity fails (the "only if"); at ``setting``'s ``(d, L, σ²)``."""
    d, L, sigma2 = float(setting.d), float(setting.L), setting.sigma2
    ev: list[Evidence] = []
    rng = check_rng(seed, f"{_STREAM}:check_eq4_5_symbolic")
    gaps = []
    for _ in range(200 if quick else 2000):
        H = int(rng.integers(2, 7))
        w = rng.uniform(-0.5, 0.5, H)
        m = np.sign(w) * rng.uniform(0, 4, H)  # sign matching
        s, l1 = w @ m, np.abs(m).sum()
        gaps.append(
            th.ltilde(list(w), list(m), d, L, sigma2) - th.lower_bound_45(s, l1, d, L, sigma2)
        )
    ev.append(
        band(
            "(4.5) min over random sign-matched inputs of Ltilde - bound ≥ 0",
            min(gaps),
            -1e-12,
            None,
            details={"n": len(gaps)},
        )
    )
    for H in (2, 3, 4, 6):
        npos = H // 2
        omega = rng.uniform(0.05, 0.4)
        mpos = rng.dirichlet(np.ones(npos)) * 2.0
        mneg = -rng.dirichlet(np.ones(H - npos)) * 2.0
        w = np.r_[np.full(npos, omega), np.full(H - npos, -omega)]
        m = np.r_[mpos, mneg]
        ev.append(
            float_agreement(
                f"(4.5) equality on a homogeneous zero-sum input (H={H})",
                th.ltilde(list(w), list(m), d, L, sigma2),
                th.lower_bound_45(w @ m, np.abs(m).sum(), d, L, sigma2),
                rtol=SAME_FORMULA_RTOL,
            )
        )
    w = np.array([0.3, 0.1, -0.2])
    m = np.array([1.0, 1.0, -2.0])
    gap = th.ltilde(list(w), list(m), d, L, sigma2) - th.lower_bound_45(w @ m, 4.0, d, L, sigma2)
    ev.append(band("(4.4) non-homogeneous zero-sum input: strict inequality", gap, 1e-6, None))
    return ev


def check_eq4_6_symbolic(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """(4.6)–(4.8): ``m*`` solves ``∂_m L̃_red = 0``; ``L̃_red(ω, m*) = L̃*``; ``η = 2ω m*``; the
    (4.8) series (in the symbols); flat directions (any split of the aggregate) at ``setting``'s
    ``(d, L, σ²)``.  Our reference numbers: :func:`check_eq4_6_paper`."""
    d, L, sigma2 = setting.d, setting.L, setting.sigma2
    ev: list[Evidence] = []
    Fr = th.ltilde_reduced(_w, _m, _d, _L, _s2)
    mstar = th.m_star(_w, _d, _L, _s2)
    ev.append(
        exact_agreement("d/dm Ltilde_red at m*(omega) = 0", sp.diff(Fr, _m).subs(_m, mstar), 0)
    )
    ev.append(
        exact_agreement(
            "Ltilde_red(omega, m*) = Ltilde*(omega)",
            Fr.subs(_m, mstar),
            th.ltilde_star(_w, _d, _L, _s2),
        )
    )
    ev.append(
        exact_agreement(
            "eta(omega) = 2 omega m*(omega)", 2 * _w * mstar, th.eta_of_omega(_w, _d, _L, _s2)
        )
    )
    ser = sp.series(_w * mstar, _w, 0, 8).removeO()
    ev.append(
        exact_agreement(
            "(4.8) series of omega m*(omega) to O(omega^8)", ser, th.eta_series(_w, _d, _L, _s2)
        )
    )
    # flat directions: a 4-head point on M(omega) equals the reduced two-head value
    rng = check_rng(seed, f"{_STREAM}:check_eq4_6_symbolic")
    for _ in range(2 if quick else 10):
        om, mm, a = rng.uniform(0.05, 0.3), rng.uniform(0.5, 4), rng.uniform(-1, 2)
        ev.append(
            float_agreement(
                "split of the aggregate among + heads is flat (4 heads vs reduced)",
                th.ltilde([om, om, -om, rng.uniform(-1, 1)], [a, mm - a, -mm, 0.0], d, L, sigma2),
                th.ltilde_reduced(om, mm, d, L, sigma2),
                rtol=SAME_FORMULA_RTOL,
            )
        )
    return ev


def check_eq4_6_paper(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """(4.6)–(4.8): our derived ``m*(ω)`` and ``η(ω)`` at ω ∈ {0.1267, 0.13, 0.195}, for the
    paper's setting ``d = 5, L = 40, σ² = 0.1`` (``setting``: declared fixed there)."""
    d, L, sigma2 = setting.d, setting.L, setting.sigma2
    ev: list[Evidence] = []
    for om, ms, et in (
        (0.1267, 3.4689, 0.87901),
        (0.13, 3.3807, 0.87899),
        (0.195, 2.2525, 0.87848),
    ):
        ev.append(printed(f"m*({om}) vs reference", th.m_star(om, d, L, sigma2), ms, 4))
        ev.append(printed(f"eta({om}) vs reference", th.eta_of_omega(om, d, L, sigma2), et, 5))
    return ev


def exact_step_shift(omega: float, d: float, L: float, sigma2: float) -> float:
    """Leading finite-L shift of the TRUE loss's optimal step on ``M(ω)`` from (4.6)'s [derived]:
    ``κ η_ex(ω) − 1 = ω²(d+2)(κL+4)/(κL²) + O(ω⁴)``, where ``η_ex(ω) = 2ω m_ex(ω)`` and
    ``m_ex(ω) = argmin_m Loss`` of the ± pair ``(ω, m), (−ω, −m)`` (the exact population risk
    that Prop. 4.1's ``L̃`` approximates), at isotropic ``x``, ``β ~ N(0, I/d)``, noise σ².  L̃'s
    own step ``η(ω) = 2ω m*(ω)`` has no ω² term ((4.8): ``1/κ + O(ω⁴)``), so this is also
    ``m_ex(ω)/m*(ω) − 1`` to O(ω⁴): an O(ω²/L) term, the size of Prop. 4.1's O(1/L) error on the
    manifold's optimum.  The skip criterion of :func:`check_eq4_6_mc`'s band.

    Source: [hpcy25] (4.6)–(4.8), Prop. 4.1; [derived] (docs/papers/hpcy25.md, "Derived
    formulas"): expand ``p^± = softmax(±ωXx_q)`` to third order in ω (the cumulants of the
    scores ``s_i = x_iᵀx_q``), split ``x_i`` along ``x_q``, and take the Gaussian moments of the
    centred scores (χ²_{L−1} and spherical moments); ``m_ex = E[x_qᵀXᵀu]/(E‖Xᵀu‖² + dσ²E‖u‖²)``,
    ``u = p⁺ − p⁻``.  At ω → 0 both optima are ``1/κ`` ((D.24)), and the shift vanishes as
    ``L → ∞``: 1.7 % at ω = 0.3 at the paper's setting, 9 % at ω = 0.13 with L = 2.

    >>> round(exact_step_shift(0.3, 5, 40, 0.1), 6), round(exact_step_shift(0.13, 5, 2, 0.1), 4)
    (0.017135, 0.0907)
    """
    k = float(th.kappa(d, L, sigma2))
    return float(omega**2 * (d + 2) * (k * L + 4) / (k * L**2))


def check_eq4_6_mc(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_theory_L: int | None = None,
) -> list[Evidence]:
    """(4.6) against the true loss: the MC-exact optimal aggregate
    ``m = E[y_q k]/E[k²]``, ``k = Σ_i (p_i^+ − p_i^−) y_i``, is within 3 % of ``m*(ω)`` for ω ≤ 0.3.
    ``fault_theory_L`` evaluates ``m*`` at another prompt length (negative control).  At
    ``setting``'s ``(d, L, σ²)``.

    The 3 % band is set at the paper's setting (d = 5, L = 40, σ² = 0.1), where the true optimum
    lies 0.4-2 % above ``m*`` (our reference MC).  ``L̃`` approximates the loss only up to
    Prop. 4.1's O(1/L) error, whose leading shift of the optimum is :func:`exact_step_shift`
    [derived] (ω²(d+2)(κL+4)/(κL²): 1.7 % at ω = 0.3 there); where that shift exceeds the band,
    the band is not the proposition's claim at this setting and its row is skipped, with the
    numbers (e.g. L = 2: 9 % at ω = 0.13, 48 % at ω = 0.3)."""
    d, L, sigma2 = setting.d, setting.L, setting.sigma2
    rng = check_rng(seed, f"{_STREAM}:check_eq4_6_mc")
    omegas = (0.05, 0.13, 0.3)
    mus = np.array([0.0, 1.0, 2.0])
    mc, _ = ltilde_landscape_mc(
        omegas, mus, d=d, L=L, sigma2=sigma2, n=40_000 if quick else 400_000, rng=rng
    )
    ev = []
    for i, om in enumerate(omegas):
        a0, a1, a2 = np.linalg.solve(np.vander(mus, 3, increasing=True), mc[i])  # exact quadratic
        m_opt = -a1 / (2 * a2)
        ms = th.m_star(om, d, L if fault_theory_L is None else fault_theory_L, sigma2)
        row = band(
            f"MC-exact optimal m / m*(omega) - 1 at omega={om} (band: within 3 %)",
            m_opt / ms - 1,
            -EQ4_6_BAND,
            EQ4_6_BAND,
            details={"m_opt": m_opt, "m_star": ms},
        )
        shift = exact_step_shift(om, d, L, sigma2)
        if shift > EQ4_6_BAND:
            row = skipped(
                row,
                why=f"the O(1/L) shift of the true optimum that Prop. 4.1 allows, "
                f"ω²(d+2)(κL+4)/(κL²) = {100 * shift:.3g} % at ω = {om}, (d, L, σ²) = "
                f"({d}, {L}, {sigma2:g}), exceeds the band {100 * EQ4_6_BAND:g} % (set at d = 5, "
                "L = 40, where it is at most 1.7 %)",
                leading_shift=shift,
            )
        ev.append(row)
    return ev


def check_eq4_10_float(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """(4.9): any H ≥ 2 model on ``M(ω)`` (homogeneous, zero-sum) predicts exactly like the
    two-head model ``(ω, m), (−ω, −m)`` with ``m = Σ_{H+} μ_h``; (4.10)–(4.11): and that pair is the
    debiased-GD predictor with step ``2ω m`` to first order (checked by
    :func:`check_thm4_2i_mc`).  At ``setting``'s ``(d, L, ω)``."""
    d, L, omega = setting.d, setting.L, setting.omega
    rng = check_rng(seed, f"{_STREAM}:check_eq4_10_float")
    X, xq = sample_covariates(rng, 2000, L, d)
    ev = []
    for H in (3, 4, 6):
        npos = max(1, H // 2 - (H == 6))
        a = rng.dirichlet(np.ones(npos)) * 2.5
        b = rng.dirichlet(np.ones(H - npos - 1)) * 2.5
        om = np.r_[np.full(npos, omega), np.full(H - npos - 1, -omega), 0.0]
        mu = np.r_[a, -b, 0.0]
        w_h = tf_weights(X, xq, om, mu)
        w_2 = tf_weights(X, xq, [omega, -omega], [2.5, -2.5])
        full = float_agreement(
            f"H={H} model on M(omega) = two-head model (weights)",
            w_h,
            w_2,
            rtol=SAME_FORMULA_RTOL,
            atol=WEIGHT_ZERO_ATOL,
        )
        # every one of the 2000×L weights is compared; results.json shows the first prompt's
        # (the full arrays made this row 3.5 MB of the report)
        ev.append(
            dataclasses.replace(
                full,
                predicted=w_2[0],
                observed=w_h[0],
                details={
                    "compared": f"all {w_h.size} weights ({w_h.shape[0]} prompts × L = {L})",
                    "shown": "prompt 0",
                    "max_abs_diff": float(np.max(np.abs(w_h - w_2))),
                },
            )
        )
    return ev


def check_thm4_2i_mc(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_dgd_eta: float | None = None,
) -> list[Evidence]:
    """Thm 4.2(i): TF on ``Θ(ω)`` with ``2ω Σ_{H+} μ_h = η`` → ``DGD_η`` as ω → 0; the mean
    absolute difference has log-log slope 2 in ω [derived] (≥ 1 is the paper's bound); at ω =
    0.0125 it
    is ≤ 1e-3.  ``fault_dgd_eta`` (default ``None``: η) is the step of the DGD
    compared with; any other value is the negative control.  At ``setting``'s ``(η, d, L, σ²)``."""
    eta, d, L, sigma2 = setting.eta, setting.d, setting.L, setting.sigma2
    rng = check_rng(seed, f"{_STREAM}:check_thm4_2i_mc")
    omegas = (0.1, 0.05, 0.025, 0.0125)
    err = tf_dgd_errors(
        omegas,
        eta=eta,
        d=d,
        L=L,
        sigma2=sigma2,
        n=20_000 if quick else 200_000,
        rng=rng,
        dgd_eta=fault_dgd_eta,
    )
    return [
        rate_agreement("mean |TF - DGD| ~ omega^2 [D]", omegas, err.tolist(), 2.0),
        band("mean |TF - DGD| at omega = 0.0125 ≤ 1e-3", float(err[-1]), None, 1e-3),
        band(
            "mean |TF - DGD| decreases monotonically in omega", float(np.diff(err).max()), None, 0.0
        ),
        informational(
            "mean |TF - DGD| reference values (0.00571, 0.00144, 3.6e-4, 9.1e-5)",
            [0.00571, 0.00144, 3.6e-4, 9.1e-5],
            err.tolist(),
        ),
    ]


def check_thm4_2ii_symbolic(
    setting: Setting, *, quick: bool = True, seed: int = 0
) -> list[Evidence]:
    """Thm 4.2(ii): ``A₂`` eigen-split (in the symbols) and PSD; the minimiser over ``Θ(ω)``
    (aggregates μ₊, μ₋, μ₀) is ``(m*, −m*, 0)``; ``L̃*(ω)`` increasing (at ``setting``'s
    ``(d, L, σ²)``); ``lim 2ω m* = 1/κ``; ``inf L̃ = σ² + D'/(L + D')`` (in the symbols)."""
    d, L, sigma2 = float(setting.d), float(setting.L), setting.sigma2
    ev: list[Evidence] = []
    am, ap = th.A2_eigenvalues(_w, _d, _L, _s2)
    u, v = sp.Matrix([1, -1]), sp.Matrix([1, 1])
    ev.append(
        exact_agreement(
            "(D.19) A2 = a_- (1,-1)(1,-1)^T + a_+ (1,1)(1,1)^T",
            th.A2_matrix(_w, _d, _L, _s2).applyfunc(lambda e: e.rewrite(sp.exp)),
            (am * u * u.T + ap * v * v.T).applyfunc(lambda e: e.rewrite(sp.exp)),
        )
    )
    grid = np.linspace(1e-3, 1.0, 200 if quick else 2000)
    a_m, a_p = th.A2_eigenvalues(grid, d, L, sigma2)
    ev.append(
        band(
            "a_- and a_+ ≥ 0 on omega ∈ (0, 1] (A2 PSD)",
            float(min(a_m.min(), a_p.min())),
            0.0,
            None,
        )
    )
    for om in (0.05, 0.13, 0.3):
        # aggregated heads (+, -, 0) with kernels omega, -omega, 0: minimise the quadratic exactly
        w = np.array([om, -om, 0.0])
        cL = (1 + sigma2) / L
        A = np.outer(w, w) + cL * np.exp(d * np.outer(w, w))
        mu_opt = np.linalg.solve(A, w)
        ms = th.m_star(om, d, L, sigma2)
        ev.append(
            float_agreement(
                f"argmin over Theta({om}) = (m*, -m*, 0)",
                mu_opt,
                [ms, -ms, 0.0],
                rtol=OPTIMISER_TOL,
                atol=OPTIMISER_TOL,
            )
        )
        ev.append(
            float_agreement(
                f"min over Theta({om}) = Ltilde*({om})",
                th.ltilde(list(w), list(mu_opt), d, L, sigma2),
                th.ltilde_star(om, d, L, sigma2),
                rtol=OPTIMUM_VALUE_RTOL,
            )
        )
    vals = th.ltilde_star(grid, d, L, sigma2)
    ev.append(
        band(
            "Ltilde*(omega) strictly increasing (min successive difference > 0)",
            float(np.diff(vals).min()),
            0.0,
            None,
        )
    )
    x = sp.Symbol("x", positive=True)
    ev.append(
        exact_agreement(
            "d/dx sinh(x)/x = (x cosh x - sinh x)/x^2",
            sp.diff(sp.sinh(x) / x, x),
            (x * sp.cosh(x) - sp.sinh(x)) / x**2,
        )
    )
    ev.append(
        exact_agreement(
            "(D.24) lim_{omega→0} 2 omega m*(omega) = 1/kappa",
            sp.limit(2 * _w * th.m_star(_w, _d, _L, _s2), _w, 0),
            1 / th.kappa(_d, _L, _s2),
        )
    )
    Dp = _d * (1 + _s2)
    ev.append(
        exact_agreement(
            "(D.23) inf Ltilde = σ² + D'/(L+D')",
            sp.limit(th.ltilde_star(_w, _d, _L, _s2), _w, 0),
            _s2 + Dp / (_L + Dp),
        )
    )
    return ev


def check_eq4_12_symbolic(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """(4.12): ``(1/√d, √d/(1 + e(1+σ²)d/L))`` is the stationary point of ``L̃₁`` with the stated
    minimum; multi-head ``inf L̃`` is strictly lower; reference values.  In the symbols ``d, L, σ²``
    and at the values printed for the paper's setting: no setting is read."""
    ev: list[Evidence] = []
    mu = sp.Symbol("mu", real=True)
    F = th.single_head_ltilde(_w, mu, _d, _L, _s2)
    w0, m0, v0 = th.single_head_optimum(_d, _L, _s2)
    for var in (_w, mu):
        ev.append(
            exact_agreement(
                f"dLtilde_1/d{var} = 0 at the single-head optimum",
                sp.diff(F, var).subs({_w: w0, mu: m0}),
                0,
            )
        )
    ev.append(exact_agreement("Ltilde_1 at the optimum", F.subs({_w: w0, mu: m0}), v0))
    ev.append(
        exact_agreement(
            "single head pays a factor e: min Ltilde_1 - inf Ltilde",
            v0 - th.ltilde_inf(_d, _L, _s2),
            1 / (1 + _d * (1 + _s2) / _L) - 1 / (1 + sp.E * (1 + _s2) * _d / _L),
        )
    )
    for val, ref, dig in zip(
        th.single_head_optimum(5, 40, 0.1), (0.4472, 1.6277, 0.37207), (4, 4, 5), strict=True
    ):
        ev.append(printed("single-head optimum vs reference", val, ref, dig))
    # NW reading: ω xᵀq + ‖x − q‖²/(2h²) is constant (= ωd) on the sphere ‖x‖² = ‖q‖² = d
    xq, nx, nq = sp.symbols("xq nx nq", real=True)  # xᵀq, ‖x‖², ‖q‖²
    h = th.nw_bandwidth(_w)
    ev.append(
        exact_agreement(
            "NW: omega x^T q + |x-q|^2/(2h^2) on the sphere = omega d",
            (_w * xq + (nx + nq - 2 * xq) / (2 * h**2)).subs({nx: _d, nq: _d}),
            _w * _d,
        )
    )
    ev.append(
        exact_agreement(
            "NW bandwidth at the single-head optimum = d^{1/4}",
            th.nw_bandwidth(w0),
            _d ** sp.Rational(1, 4),
        )
    )
    ev.append(
        band(
            "min Ltilde_1 - inf Ltilde > 0 at d=5, L=40, σ²=0.1",
            th.single_head_optimum(5, 40, 0.1)[2] - th.ltilde_inf(5, 40, 0.1),
            0.1,
            None,
        )
    )
    return ev


def check_eq4_12_mc(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """(4.12): the EXACT single-head risk (MC, μ optimised) is minimised at
    ω ∈ [0.45, 0.6] with risk in [0.40, 0.41]; ``1/√d`` is only the L̃ optimum.  The ranges are
    our reference for the paper's setting (d = 5, L = 40, σ² = 0.1): declared fixed there."""
    d, L, sigma2 = setting.d, setting.L, setting.sigma2
    rng = check_rng(seed, f"{_STREAM}:check_eq4_12_mc")
    omegas = np.linspace(0.3, 0.8, 21)
    risk, mopt = single_head_curve(
        omegas, d=d, L=L, sigma2=sigma2, n=20_000 if quick else 200_000, rng=rng
    )
    i = int(np.argmin(risk))
    return [
        band(
            "argmin_omega exact single-head risk in [0.45, 0.6]",
            omegas[i],
            0.45,
            0.6,
            details={"mu_opt": float(mopt[i])},
        ),
        band("min exact single-head risk in [0.40, 0.41]", risk[i], 0.40, 0.41),
        informational(
            "Ltilde single-head optimum omega* = 1/sqrt(d) vs exact argmin",
            th.single_head_optimum(d, L, sigma2)[0],
            float(omegas[i]),
        ),
    ]
