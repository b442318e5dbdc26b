"""[collins24] checks at generic points (issue "Checks that can see every factor"): Λ = nL²/σ² at
L ≠ 1 through the quadrature optimum, Theorem 3.6's floor L²/3 approached (two-sided, at L ≠ 1),
and Theorem 4.4's scale bound C_b/c_u² at c_u ≠ 1.  Each takes the theory formula it guards as a
parameter, so a declared negative control plants a one-token change of it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy as sp

from numerics.softmax_window.quadrature import optimal_scale_affine
from numerics.testing import close_agreement, float_agreement, ordering
from theory.common.protocols import Evidence
from theory.softmax_window import (
    Lambda,
    affine_risk_at_zero,
    affine_risk_split,
    la_coefficients,
    la_floor,
    la_optimum,
    la_risk,
    msa_risk,
    noise_asymptote,
    noise_constant,
    signal_bound_c2,
    thm44_scale_bound,
    window_mean_s,
)

__all__ = [
    "check_thm3_4_float_lambda_generic",
    "check_thm3_6_float_floor_attained",
    "check_thm4_4_float_scale_bound_generic",
    "check_risk_affine_float_forms_generic",
]

#: Two evaluations of the same closed form in double precision.
DOUBLE_RTOL = 1e-12
#: ω* found to 1e-9 relative by the argmin search: two optima at equal L²/σ² agree to 1e-6.
ARGMIN_AGREE_RTOL = 1e-6
#: Argmin search tolerance (relative) for the optima compared above.
ARGMIN_RTOL = 1e-9
#: An ordering between O(1) quantities holds by more than round-off.
STRICT_GAP = 1e-12
#: n·(L_LA*(n) − L²/3) at n = 10⁷ against its n → ∞ limit (SymPy): the next order is O(1/n).
GAP_RATE_RTOL = 1e-4


def check_thm3_4_float_lambda_generic(
    *,
    quick: bool = True,
    seed: int = 0,
    d: int = 3,
    n: int = 37,
    L: float = 0.7,
    sigma2: float = 0.3,
    fault_lambda_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """Λ = nL²/σ² at a generic point (L = 0.7, σ² = 0.3, n = 37, d = 3).

    * value: Λ against nL²/σ² written out here (FLOAT);
    * route through the risk: at fixed n the affine risk depends on (L, σ²) only through L²/σ²
      up to the factor L² (scale invariance), so the problem (n, 1, n/Λ) with Λ from the formula
      has the same ω* as (n, L, σ²) (quadrature argmin; OPTIM).  A Λ with the wrong power of L
      picks a different σ² and a different ω*.

    ``fault_lambda_fn`` replaces :func:`theory.softmax_window.Lambda`."""
    lam_fn = Lambda if fault_lambda_fn is None else fault_lambda_fn
    lam = float(lam_fn(n, L, sigma2))
    w_gen, _ = optimal_scale_affine(d, n, L, sigma2, rtol=ARGMIN_RTOL)
    w_one, _ = optimal_scale_affine(d, n, 1.0, n / lam, rtol=ARGMIN_RTOL)
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


def check_thm3_6_float_floor_attained(
    *,
    quick: bool = True,
    seed: int = 0,
    d: int = 5,
    L: float = 0.7,
    sigma2: float = 0.3,
    fault_floor_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """Theorem 3.6's floor L²/3 is the infimum of linear attention's risk, approached as n → ∞
    (two-sided, at L = 0.7, σ² = 0.3, d = 5):

    * the exact optimum L_LA*(n) = c − b²/a (from the derived moments, not from the floor) lies
      above the floor at n ∈ {10, 10³, 10⁶} (ORDER) and decreases towards it;
    * lim_{n→∞} L_LA*(n) (SymPy, exact rationals) equals the floor (FLOAT, exact);
    * the gap closes at rate 1/n: n·(L_LA*(n) − floor) at n = 10⁷ equals its limit (SymPy).

    ``fault_floor_fn`` replaces :func:`theory.softmax_window.la_floor`."""
    floor_fn = la_floor if fault_floor_fn is None else fault_floor_fn
    floor = float(floor_fn(L))
    out: list[Evidence] = []
    for n in (10, 1000, 10**6):
        star = float(la_optimum(d, n, L, sigma2)[1])
        out.append(
            ordering(
                f"L_LA*(n={n}) >= L^2/3 (d={d}, L={L:g}, sigma2={sigma2:g})",
                floor,
                star,
                margin=0.0,
                details={"gap": star - floor},
            )
        )
    nn = sp.Symbol("n", positive=True)
    Ls, s2 = sp.Rational(7, 10), sp.Rational(3, 10)
    a, b, c = la_coefficients(sp.Integer(d), nn, Ls, s2)
    lim = sp.limit(c - b**2 / a, nn, sp.oo)
    out.append(
        float_agreement(
            f"lim_(n->inf) L_LA*(n) = floor (SymPy, d={d}, L=7/10)",
            float(floor_fn(Ls)),
            float(lim),
            rtol=DOUBLE_RTOL,
        )
    )
    rate = sp.limit(nn * (c - b**2 / a - lim), nn, sp.oo)
    n6 = 10**7
    gap = float(la_optimum(d, n6, L, sigma2)[1]) - floor
    out.append(
        close_agreement(
            f"n (L_LA*(n) - floor) at n = 1e7 vs its limit {float(rate):.6g}",
            n6 * gap,
            float(rate),
            kind="FLOAT",
            atol=0.0,
            rtol=GAP_RATE_RTOL,
        )
    )
    return out


def check_thm4_4_float_scale_bound_generic(
    *,
    quick: bool = True,
    seed: int = 0,
    c_u: float = 0.7,
    fault_bound_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """Theorem 4.4's constraint ‖BᵀMB‖₂ ≤ C_b/c_u² at c_u = 0.7 (C_b = 2 for σ = 0, 1 for
    n = 2), against the printed expression written out here: the bound scales as c_u^{-2}
    (ratio of the bounds at c_u and 2c_u is 4).  ``fault_bound_fn`` replaces
    :func:`theory.softmax_window.thm44_scale_bound`."""
    fn = thm44_scale_bound if fault_bound_fn is None else fault_bound_fn
    out = []
    for case, cb in (("sigma0", 2.0), ("n2", 1.0)):
        out.append(
            float_agreement(
                f"Thm 4.4 bound C_b/c_u^2 ({case}, c_u={c_u:g})",
                float(fn(case, c_u)),
                cb / (c_u * c_u),
                rtol=DOUBLE_RTOL,
            )
        )
    out.append(
        float_agreement(
            f"Thm 4.4 bound ratio at c_u = {c_u:g} and {2 * c_u:g} = 4",
            float(fn("sigma0", c_u)) / float(fn("sigma0", 2 * c_u)),
            4.0,
            rtol=DOUBLE_RTOL,
        )
    )
    out.append(ordering("Thm 4.4 bound positive", 0.0, float(fn("sigma0", c_u)), margin=STRICT_GAP))
    return out


def check_risk_affine_float_forms_generic(
    *,
    quick: bool = True,
    seed: int = 0,
    d: int = 5,
    n: int = 13,
    L: float = 0.7,
    sigma2: float = 0.3,
    fault_split_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """The closed forms that the default checks otherwise meet only at L = 1, against their
    printed expressions written out here, at L = 0.7, σ² = 0.3, d = 5, n = 13 (and generic
    A = 0.8, N = 0.11, E(1/K) = 0.21, ω = 40):

    * App. B.1 / Lemma C.4: (L²/3d)A + σ²N; Remark 2.1: (L²/3d)(1 + 1/n) + σ²/n at ω = 0;
    * Lemma C.2: 4L²; §3.1 [derived]: (L²/d)[m₁² + (2m₁ − m₁²)E(1/K)] + σ²E(1/K);
    * Theorem 3.6: 𝓛_LA(m*I) = c − b²/a (the value at the optimum, at L ≠ 1);
    * R0.8 at d = 5 (exponent 2 ≠ 1): c_d ω^{(d−1)/2}/n.

    ``fault_split_fn`` replaces :func:`theory.softmax_window.affine_risk_split`."""
    split = affine_risk_split if fault_split_fn is None else fault_split_fn
    A, N, ik, w = 0.8, 0.11, 0.21, 40.0
    m1 = float(window_mean_s(w, d))  # checked against scipy quadrature in check_sec3_1_mc_msa
    s = L * L
    m_star, la_star = la_optimum(d, n, L, sigma2)
    return [
        float_agreement(
            "affine split (L^2/3d) A + sigma^2 N (L=0.7)",
            float(split(A, N, d, L, sigma2)),
            s / (3 * d) * A + sigma2 * N,
            rtol=DOUBLE_RTOL,
        ),
        float_agreement(
            "label-average risk (L^2/3d)(1 + 1/n) + sigma^2/n (L=0.7)",
            float(affine_risk_at_zero(d, n, L, sigma2)),
            s / (3 * d) * (1 + 1 / n) + sigma2 / n,
            rtol=DOUBLE_RTOL,
        ),
        float_agreement(
            "Lemma C.2 bound 4 L^2 (L=0.7)", float(signal_bound_c2(L)), 4 * s, rtol=DOUBLE_RTOL
        ),
        float_agreement(
            "L_MSA (L^2/d)[m1^2 + (2m1 - m1^2) E(1/K)] + sigma^2 E(1/K) (L=0.7)",
            float(msa_risk(w, d, L, sigma2, ik)),
            s / d * (m1 * m1 + (2 * m1 - m1 * m1) * ik) + sigma2 * ik,
            rtol=DOUBLE_RTOL,
        ),
        float_agreement(
            "L_LA(m* I) = c - b^2/a (L=0.7)",
            float(la_risk(m_star, d, n, L, sigma2)),
            float(la_star),
            rtol=DOUBLE_RTOL,
        ),
        float_agreement(
            "noise asymptote c_d omega^((d-1)/2)/n at d = 5 (exponent 2)",
            float(noise_asymptote(w, n, d)),
            float(noise_constant(d)) * w**2 / n,
            rtol=DOUBLE_RTOL,
        ),
        float_agreement(
            "noise asymptote with the exponent given (1.5): c_d omega^1.5/n",
            float(noise_asymptote(w, n, d, exponent=1.5)),
            float(noise_constant(d)) * w**1.5 / n,
            rtol=DOUBLE_RTOL,
        ),
    ]
