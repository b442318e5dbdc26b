"""[collins24] checks of §3 Theorems 3.4 and 3.5: ω* against Λ (monotonicity, our reference
values, Λ-collapse, slope in the paper's bracket), Λ = nL²/σ² at a generic point (L ≠ 1, through
the quadrature optimum) and the exact transfer curve."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from numerics.collins24.api import optimal_scale
from numerics.collins24.figures import (
    compute_1b,
    compute_optimum_omega_lambda,
    compute_transfer_curves,
)
from numerics.collins24.quadrature import ARGMIN_RTOL, optimal_scale_affine
from numerics.collins24.tolerances import (
    DOUBLE_RTOL,
    ENVELOPE_RTOL,
    ORDER_GAP,
    SLOPE_BAND,
    STRICT_GAP,
)
from numerics.testing import (
    close_agreement,
    derived_agreement,
    float_agreement,
    loglog_slope,
    ordering,
    rate_agreement,
    skipped,
)
from theory.collins24 import Lambda, thm34_bracket
from theory.collins24.settings import Setting
from theory.common.protocols import Estimate, Evidence

__all__ = [
    "check_thm3_4_paper",
    "check_thm3_4_order",
    "check_thm3_4_optim_collapse",
    "check_thm3_4_rate",
    "check_thm3_5_quad",
    "check_thm3_4_float_lambda_generic",
]

#: argmin search tolerance (relative) for the transfer envelope.
TRANSFER_ARGMIN_RTOL = 1e-08
#: relative spread of omega* at equal Lambda: 5 % (finite-n corrections).
COLLAPSE_ATOL = 0.05
#: The prompt lengths of the Λ-collapse (σ² = n/Λ): ``COLLAPSE_NS[True]`` at d = 3 (the
#: reference grid), ``COLLAPSE_NS[False]`` (×16) at any other d, where the window's orthogonal
#: spread moves ω* by O(Λ/(nω*)) (see :func:`check_thm3_4_optim_collapse`).
COLLAPSE_NS = {True: (2000, 8000, 32000), False: (32000, 128000, 512000)}
#: a fitted slope must clear the bracket end by 0.02 (the fit's band).
SLOPE_GAP = 0.02

#: Where the spec's computed values are derived (the paper prints none of them).
DERIVED_IN = "docs/papers/collins24.md#derived-values"
#: Spec 003 R6 item 1 [COMPUTED]: affine, d = 5, n = 20, L = 1.
REFERENCE_SIGMA = {1.0: "0.984", 0.3: "3.347", 0.1: "5.695", 0.01: "6.681"}
#: Spec 003 R6 item 1 n ablation (σ = 0.01, L = 1).
REFERENCE_N = {5: "3.975", 10: "5.218", 50: "9.206"}
#: The spec's tolerance for its reference values: 1 % (N6).
REFERENCE_RTOL = 0.01
#: The ReLU slope (MC optimum) must be this many of its standard errors from a bracket end for
#: the inclusion to be resolved at a setting; closer, the row is ``skipped`` with the numbers.
SLOPE_Z = 5.0


def check_thm3_4_paper(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_sigma_scale: float | None = None
) -> list[Evidence]:
    """ω* (quadrature + Brent) at our reference settings within 1 %, and 𝓛* = 0.01795 at
    σ = 0.01: values we computed (the paper prints none), derived on
    ``docs/papers/collins24.md#derived-values`` (DERIVED rows).  ``fault_sigma_scale``
    multiplies σ (e.g. 2: the σ vs σ² mix-up a user can make).  Declared fixed at the paper's
    setting (d = 5, n = 20, L = 1): the reference values are computed for it."""
    d, n0, L = setting.d, setting.n, setting.L
    f = 1.0 if fault_sigma_scale is None else float(fault_sigma_scale)
    out = []
    for s, value in REFERENCE_SIGMA.items():
        w, _ = optimal_scale_affine(d, n0, L, (f * s) ** 2)
        out.append(
            derived_agreement(
                f"omega* (d={d}, n={n0}, L={L:g}, sigma={s})",
                w,
                value,
                derived_in=DERIVED_IN,
                spec="spec 003 R6 item 1 [COMPUTED]",
                atol=0.0,
                rtol=REFERENCE_RTOL,
            )
        )
    if not quick:
        for n, value in REFERENCE_N.items():
            w, _ = optimal_scale_affine(d, n, L, (f * 0.01) ** 2)
            out.append(
                derived_agreement(
                    f"omega* (d={d}, n={n}, sigma=0.01)",
                    w,
                    value,
                    derived_in=DERIVED_IN,
                    spec="spec 003 R6 item 1 [COMPUTED]",
                    atol=0.0,
                    rtol=REFERENCE_RTOL,
                )
            )
    _, loss = optimal_scale_affine(d, n0, L, (f * 0.01) ** 2)
    out.append(
        derived_agreement(
            f"L* (d={d}, n={n0}, L={L:g}, sigma=0.01)",
            loss,
            "0.01795",
            derived_in=DERIVED_IN,
            spec="spec 003 R8 table [COMPUTED]",
        )
    )
    return out


def check_thm3_4_order(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """ω* strictly increases in L, decreases in σ and increases in n (affine, quadrature), at the
    setting's d and n (the grids in L, σ and n are the check's)."""
    d, n = setting.d, setting.n
    out = []
    Ls = (0.03, 0.1, 0.3, 1.0)
    wL = [optimal_scale_affine(d, n, L, 0.01**2)[0] for L in Ls]
    sig = (1.0, 0.3, 0.1)
    fig = compute_1b(d=d, n=n, sigmas=sig)  # Fig. 1's windows: their ω* at this d, n and σ grid
    ws = [fig["softmax"][s][0] for s in sig]
    ns = (5, 10, 20, 50)
    wn = [optimal_scale_affine(d, m, 1.0, 0.1**2)[0] for m in ns]
    for name, vals, grid in (
        ("L (increasing)", wL, Ls),
        ("1/sigma (sigma = 1, .3, .1)", ws, sig),
        ("n (increasing)", wn, ns),
    ):
        gaps = np.diff(vals)
        out.append(
            ordering(
                f"omega* monotone in {name}: smallest relative step",
                0.0,
                float(np.min(gaps / np.asarray(vals[:-1]))),
                margin=ORDER_GAP,
                details={"grid": list(grid), "omega*": list(vals)},
            )
        )
    return out


def check_thm3_4_optim_collapse(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_lambda_power: float | None = None
) -> list[Evidence]:
    """Λ-collapse in the noise-dominated regime: at Λ = 2e5 and the setting's d, ω* over
    (n, σ = √(n/Λ)) spreads ≤ 5 % (affine, quadrature); n ∈ {2000, 8000, 32000} at d = 3 (our
    reference case), n ∈ {32000, 128000, 512000} at any other d (:data:`COLLAPSE_NS`).

    Why the grid depends on d [derived]: the collapse holds as n → ∞ at fixed Λ.  Its leading
    finite-n term is the window's orthogonal spread, part of the signal A(ω):
    (L²/3d)·Σπ_i²s_i(2 − s_i) ≈ (L²/3d)·N(ω)·O(1/ω) ∝ ω^{(d−3)/2}/n, beside the noise
    σ²N(ω) ∝ Λ⁻¹ω^{(d−1)/2} at fixed Λ.  At d = 3 it is constant in ω and leaves ω* where it
    is; at any other d it moves ω* by O(L²/(σ²ω*)) = O(Λ/(nω*)), which is ≥ 1 at n = 2000
    (σ² = 0.01 < L²/ω*: not noise-dominated).  Measured (quadrature): at d = 2, 4, 5, 6, 8 the
    spread over n ∈ {2000, 8000, 32000} is 5.9, 4.0, 5.7, 6.2, 5.6 % and falls as 1/n (d = 2:
    ω* = 54.83, 52.30, 51.68, 51.53, 51.50 at n = 2000 … 512000); over the ×16 grid it is
    0.23-0.38 %; at d = 3 it is 0.30 % already at n = 2000.
    ``fault_lambda_power`` picks σ² = n^p/Λ (p ≠ 1 does not hold Λ fixed)."""
    d = setting.d
    p = 1.0 if fault_lambda_power is None else float(fault_lambda_power)
    Lam = 2e5
    ns = COLLAPSE_NS[d == 3]
    ws = np.array([optimal_scale_affine(d, m, 1.0, m**p / Lam)[0] for m in ns])
    spread = float((ws.max() - ws.min()) / ws.mean())
    return [
        close_agreement(
            f"Lambda-collapse: (max - min)/mean of omega* at Lambda = 2e5, d = {d}",
            spread,
            0.0,
            kind="OPTIM",
            atol=COLLAPSE_ATOL,
            details={"n": list(ns), "omega*": ws},
        )
    ]


#: Λ grid of the pre-asymptotic diagnosis: the check's range and one decade on either side.
PRE_LAMBDAS = (500.0, 5e3, 5e4, 5e5)
#: A prompt length where the affine window terms are in their n → ∞ regime over ``PRE_LAMBDAS``
#: (at n = 2000 the local slope falls below 2/(d+3) past Λ ≈ 5e4: the 1-NN end is near).
PRE_LARGE_N = 200_000


def _pre_asymptotic(
    d: int, n: int, reps: int, lams: Any, wr: list[float], seed: int
) -> dict[str, Any]:
    """Diagnosis of a ReLU slope at a bracket end (derived): is it a finite-Λ effect?

    Theorem 3.4's exponents are Λ → ∞ statements.  Two independent numbers at the same ``d``: (i)
    the affine quadrature's local slopes d log ω*/d log Λ per decade of ``PRE_LAMBDAS``, at the
    check's n and at ``PRE_LARGE_N`` (where they fall monotonically towards the affine limit
    2/(d+3): the excess over it at the check's range is the pre-asymptotic part of a slope fitted
    there), and (ii) the ReLU MC slope over the next range [5e3, 5e5] (same reps, a stream of its
    own).  Returns the numbers and the sentence for the row's ``why``."""
    ws = {
        m: [float(optimal_scale_affine(d, m, 1.0, m / lam)[0]) for lam in PRE_LAMBDAS]
        for m in (n, PRE_LARGE_N)
    }
    local = {
        m: [round(float(v), 4) for v in np.diff(np.log(w)) / np.diff(np.log(PRE_LAMBDAS))]
        for m, w in ws.items()
    }
    rng = np.random.default_rng([seed, d, 5])
    hi: list[float] = []
    for lam in (PRE_LAMBDAS[1], PRE_LAMBDAS[3]):
        w, _ = optimal_scale(
            d, n, 1.0, n / lam, "relu", rng=rng, reps=reps, omegas=np.geomspace(1.5, 100.0, 16)
        )
        assert isinstance(w, Estimate)
        hi.append(w.mean)
    upper = float(np.log(hi[1] / hi[0]) / np.log(PRE_LAMBDAS[3] / PRE_LAMBDAS[1]))
    aff_range = loglog_slope(np.asarray(PRE_LAMBDAS[:3]), ws[n][:3])
    limit = 2 / (d + 3)
    two_beta = float(thm34_bracket(d, "relu")[1])
    why = (
        f"Diagnosis: a finite-Lambda (pre-asymptotic) excess, not a training or exponent "
        f"effect (no training here; the bracket is a Lambda -> inf statement): the affine "
        f"quadrature at the same d fitted over the same range gives {aff_range:.4f}, "
        f"{aff_range - limit:+.4f} above its limit 2/(d+3) = {limit:.4f}; its local slopes per "
        f"decade of Lambda {list(PRE_LAMBDAS)} fall towards that limit ({local[PRE_LARGE_N]} "
        f"at n = {PRE_LARGE_N}; {local[n]} at n = {n}, where the 1-NN end pulls them below "
        f"past 5e4), and the ReLU slope over the next range [5e3, 5e5] is {upper:.4f}, inside "
        f"the bracket (its excess over 2 beta = {two_beta:.4f} at the check's range: "
        f"{loglog_slope(lams, wr) - two_beta:+.4f})"
    )
    return {
        "why": why,
        "affine_slope_same_range": aff_range,
        "affine_limit": limit,
        "affine_local_slopes": local[n],
        "affine_local_slopes_large_n": local[PRE_LARGE_N],
        "relu_slope_upper_range": upper,
        "relu_omega_check_range": [float(v) for v in wr],
        "relu_omega_upper_range": hi,
    }


def check_thm3_4_rate(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Slope d log ω*/d log Λ inside the paper's bracket (affine: [α, 2(d+2)/(d(d+4))]; ReLU:
    [β − 0.03, 2β + 0.03]) -- the reconstructed exponents (G2) get inclusion checks only.
    The affine slope uses the quadrature (n = 2000, Λ ∈ [500, 8e5]); the ReLU slope MC with common
    random numbers (d = 3, n = 2000, Λ ∈ [500, 5e4]; our reference runs found 0.43 … 0.36).  At a
    ``d`` where the quick ReLU slope lies within ``SLOPE_Z`` MC standard errors of a bracket end
    (d = 6: 1.8 se above 2β + 0.03), that row is ``skipped`` with the reps it would need and the
    diagnosis of :func:`_pre_asymptotic` (at d = 6 a finite-Λ excess: the affine quadrature's slope
    over the same range exceeds its limit by a similar amount, and the ReLU slope over the next
    range lies inside the bracket)."""
    d = setting.d
    out = []
    n = 2000
    c = compute_optimum_omega_lambda(
        d=d, n=n, lams=np.geomspace(500, 8e5, 4 if quick else 7)
    )  # the figure's numbers on this check's grid
    lams, ws, s = c["lams"], [float(w) for w in c["omegas"]], float(c["slope"])
    lo, hi = c["bracket"]
    out.append(ordering("affine slope > alpha = 1/(d+4)", float(lo), s, margin=SLOPE_GAP))
    out.append(ordering("affine slope < 2(d+2)/(d(d+4))", s, float(hi), margin=SLOPE_GAP))
    rng = np.random.default_rng(seed)
    reps = 2_000 if quick else 8_000
    n2 = 2000
    lams2 = np.array([500.0, 5e4]) if quick else np.geomspace(500, 5e4, 5)
    wr, ests = [], []
    for lam in lams2:
        w, _ = optimal_scale(
            d, n2, 1.0, n2 / lam, "relu", rng=rng, reps=reps, omegas=np.geomspace(1.5, 100.0, 16)
        )
        assert isinstance(w, Estimate)
        wr.append(w.mean)
        ests.append(w)
    sr = loglog_slope(lams2, wr)
    blo, bhi = thm34_bracket(d, "relu")
    se = (
        float(np.sqrt(sum((e.se / e.mean) ** 2 for e in ests)))
        / float(np.log(lams2[-1] / lams2[0]))
        if len(ests) == 2
        else 0.0
    )
    for ev, gap in (
        (
            ordering(
                "ReLU slope > beta - 0.03",
                float(blo) - 0.03,
                sr,
                margin=ORDER_GAP,
                details={"Lambda": lams2, "omega*": wr},
            ),
            sr - float(blo) + 0.03,
        ),
        (
            ordering("ReLU slope < 2 beta + 0.03", sr, float(bhi) + 0.03, margin=ORDER_GAP),
            float(bhi) + 0.03 - sr,
        ),
    ):
        if se and abs(gap) < SLOPE_Z * se:  # the MC slope cannot resolve this end at this d
            need = reps * (SLOPE_Z * se / max(abs(gap), 1e-12)) ** 2
            pre = _pre_asymptotic(d, n2, reps, lams2, wr, seed)
            ev = skipped(
                ev,
                why=f"not separable at this setting (d = {d}): slope {sr:.4f} is "
                f"{abs(gap) / se:.2f} MC standard errors ({se:.4f}) from the bracket end; "
                f"needs {SLOPE_Z:g} se, about {need:.3g} MC reps per Lambda. " + pre.pop("why"),
                slope=sr,
                slope_se=se,
                needed_reps=need,
                **pre,
            )
        out.append(ev)
    out.append(
        rate_agreement(
            "affine omega* slope vs 2/(d+3) (inside the bracket)",
            list(lams),
            ws,
            2 / (d + 3),
            band=SLOPE_BAND,
        )
    )
    return out


def _transfer(
    d: int,
    n: int,
    s2: float,
    L: float,
    Lps: tuple[float, ...],
    envelope_rtol: float,
    fault_pretrain_shift: float | None,
) -> dict[str, Any]:
    """:func:`numerics.collins24.figures.compute_transfer_curves` of the unit pretrained at
    ``L`` (ω_L to ``TRANSFER_ARGMIN_RTOL``) on the test grid ``Lps``."""
    return compute_transfer_curves(
        d=d,
        n=n,
        sigma2=s2,
        pretrained=(L,),
        Lps=Lps,
        rtol=TRANSFER_ARGMIN_RTOL,
        envelope_rtol=envelope_rtol,
        fault_pretrain_shift=fault_pretrain_shift,
    )


def check_thm3_5_quad(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_pretrain_shift: float | None = None,
) -> list[Evidence]:
    """[derived]: for pretraining L ∈ {0.03, 0.1, 1} at σ = 0.01, 𝓛_test(L′) = L′²S(ω_L) +
    σ²N(ω_L) stays above the envelope 𝓛*(L′) (gap > 0 off L′ = L) and touches it at L′ = L
    (relative 1e-6), at the setting's d and n.  ``fault_pretrain_shift`` multiplies the
    pretrained ω_L (a mis-set scale)."""
    d, n = setting.d, setting.n
    s2 = 1e-4
    out = []
    for L in (0.1, 1.0) if quick else (0.03, 0.1, 1.0):
        # the figure's transfer curve and envelope at L' = L (argmins to TRANSFER_ARGMIN_RTOL), and
        # L' = 0.3 L, 3 L (the envelope to the quadrature's default tolerance)
        at = _transfer(d, n, s2, L, (L,), TRANSFER_ARGMIN_RTOL, fault_pretrain_shift)
        off = _transfer(d, n, s2, L, (0.3 * L, 3 * L), ARGMIN_RTOL, fault_pretrain_shift)
        at_L, env_L = float(at["curves"][L][1][0]), float(at["envelope"][0])
        out.append(
            close_agreement(
                f"transfer curve touches the envelope at L' = L = {L}",
                at_L,
                env_L,
                kind="OPTIM",
                atol=0.0,
                rtol=ENVELOPE_RTOL,
            )
        )
        for Lp, curve, env in zip(off["Lps"], off["curves"][L][1], off["envelope"], strict=True):
            out.append(
                ordering(
                    f"transfer gap > 0 at L' = {Lp:g} (pretrained L = {L})",
                    0.0,
                    float(curve - env),
                    margin=STRICT_GAP,
                )
            )
    return out


#: ω* found to 1e-9 relative by the argmin search: two optima at equal L²/σ² agree to 1e-6.
ARGMIN_AGREE_RTOL = 1e-6
#: Argmin search tolerance (relative) for the optima compared above.
FINE_ARGMIN_RTOL = 1e-9


def check_thm3_4_float_lambda_generic(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_lambda_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """Λ = nL²/σ² at a generic point (declared fixed at L = 0.7, σ² = 0.3, n = 37, d = 3).

    * value: Λ against nL²/σ² written out here (FLOAT);
    * route through the risk: at fixed n the affine risk depends on (L, σ²) only through L²/σ²
      up to the factor L² (scale invariance), so the problem (n, 1, n/Λ) with Λ from the formula
      has the same ω* as (n, L, σ²) (quadrature argmin; OPTIM).  A Λ with the wrong power of L
      picks a different σ² and a different ω*.

    ``fault_lambda_fn`` replaces :func:`theory.collins24.Lambda`."""
    d, n, L, sigma2 = setting.d, setting.n, setting.L, setting.sigma2
    if sigma2 is None:
        raise ValueError("check_thm3_4_float_lambda_generic needs one sigma2 (a generic point)")
    lam_fn = Lambda if fault_lambda_fn is None else fault_lambda_fn
    lam = float(lam_fn(n, L, sigma2))
    w_gen, _ = optimal_scale_affine(d, n, L, sigma2, rtol=FINE_ARGMIN_RTOL)
    w_one, _ = optimal_scale_affine(d, n, 1.0, n / lam, rtol=FINE_ARGMIN_RTOL)
    return [
        float_agreement(
            f"Lambda(n={n}, L={L:g}, sigma2={sigma2:g}) = n L^2/sigma^2",
            lam,
            n * L * L / sigma2,
            rtol=DOUBLE_RTOL,
        ),
        close_agreement(
            f"omega*(n={n}, L={L:g}, sigma2={sigma2:g}) = omega*(n, L=1, "
            f"sigma2 = n/Lambda) (d={d})",
            w_one,
            w_gen,
            kind="OPTIM",
            atol=0.0,
            rtol=ARGMIN_AGREE_RTOL,
            details={"Lambda": lam},
        ),
    ]
