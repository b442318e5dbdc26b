"""[collins24] §2 and App. B.1: the ICL loss on the sphere, its rotation reduction, the exact
affine-class split 𝓛 = (L²/3d)·A(ω) + σ²·N(ω), and Remark 2.1's extremes (ω = 0, ω → ∞).

Everything here is exact.  The ω-dependent expectations A(ω) and N(ω) themselves are 1-D
integrals evaluated in numerics (:mod:`numerics.collins24.quadrature`: theory may not import
scipy); their limits at ω = 0 and ω = ∞ are closed forms, given here (mpmath for the incomplete
beta of the 1-NN limit).
"""

from __future__ import annotations

from typing import Any

import mpmath as mp
import sympy as sp

from theory.collins24.domains import checked
from theory.common.backend import check_scalar, dual

__all__ = [
    "Lambda",
    "affine_risk_split",
    "affine_signal_rho",
    "zero_scale_terms",
    "affine_risk_at_zero",
    "constant_task_risk",
    "t_density_constant",
    "t_cdf_mp",
    "a_infinity_mp",
    "nearest_neighbour_risk",
    "risk_scale",
    "signal_functional",
]


#: Symbols of the scalar builders (one SymPy expression each, evaluated by :func:`dual`).
_ND = sp.symbols("n d", positive=True)
#: Working digits of the mpmath evaluations (float64 results correctly rounded).
_DPS = 30
#: Most tanh-sinh levels of the 1-NN quadrature (mpmath stops earlier once converged; a level
#: doubles the nodes: d = 1000, n = 1e8 converges at level 10 in ~3 s).
_QUAD_LEVELS = 12


@checked
def Lambda(n: Any, L: Any, sigma2: Any) -> Any:
    """Signal-to-noise budget of Theorem 3.4.

    Source: [collins24] Theorem 3.4.

    .. math:: Λ = n L^2 / σ^2

    >>> Lambda(20, 1.0, 0.01)
    2000.0
    """
    return n * L**2 / sigma2


@checked
def affine_risk_split(A: Any, N: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """The exact affine-class risk from its two ω-dependent pieces.

    Source: [collins24] App. B.1 (signal/noise split) and Lemma C.4's decomposition (10);
    [derived].

    .. math:: 𝓛_{aff}(ω) = \\frac{L^2}{3d} A(ω) + σ^2 N(ω),\\quad
              A = E\\lVert Σ_i π_i x_i − x\\rVert^2,\\ N = E Σ_i π_i^2

    The intercept cancels because Σπ_i = 1 and E[l² vvᵀ] = (L²/3)(I/d); A and N depend on
    (ω, n, d) only, so the risk is L²·S(ω) + σ²·N(ω) (scale invariance, [derived]).

    >>> affine_risk_split(1.0, 0.05, 5, 1.0, 0.0)
    0.06666666666666667
    """
    return L**2 / (3 * d) * A + sigma2 * N


@checked
def signal_functional(A: Any, d: Any) -> Any:
    """S(ω) = A(ω)/(3d): the affine class's signal term per unit L² (E[l² vvᵀ] = (L²/3)(I/d)).

    Source: [collins24] App. B.1, Lemma C.4's decomposition (10); [derived].

    >>> signal_functional(1.5, 5)
    0.1
    """
    return A / (3 * d)


@checked
def risk_scale(c: Any) -> Any:
    """Scale invariance [derived]: 𝓛*(cL, cσ) = c²·𝓛*(L, σ), and ω* depends on L/σ only.

    Source: [derived] for [collins24] (exact for the affine and ReLU classes).

    >>> risk_scale(3.0)
    9.0
    """
    return c**2


@checked
def affine_signal_rho(tau: Any, d: Any, L: Any) -> Any:
    """The task kernel of Assumption B.4(2) for the affine class.

    Source: [collins24] Lemma C.3, Assumption B.4.

    .. math:: E_f[f(x)f(y)] = ρ(xᵀy) = \\frac{L^2}{3}\\left(1 + \\frac{xᵀy}{d}\\right)

    >>> affine_signal_rho(1.0, 3, 1.0)
    0.4444444444444444
    """
    return L**2 / 3 * (1 + tau / d)


@checked
def zero_scale_terms(n: Any, d: Any) -> dict[str, Any]:
    """A, N, rad, orth at ω = 0 (uniform weights π_i = 1/n), exactly.

    Source: [collins24] Remark 2.1.

    .. math:: N(0) = 1/n,\\ \\mathrm{rad}(0) = 1 + 1/(nd),\\ \\mathrm{orth}(0) = (1 − 1/d)/n,
              \\ A(0) = 1 + 1/n

    >>> zero_scale_terms(sp.Integer(20), sp.Integer(5))["A"]
    21/20
    """
    nd = (n, d)
    rad = dual(lambda n, d: 1 + 1 / (n * d), _ND, nd)
    orth = dual(lambda n, d: (1 - 1 / d) / n, _ND, nd)
    return {"N": dual(lambda n, d: 1 / n, _ND, nd), "rad": rad, "orth": orth, "A": rad + orth}


@checked
def affine_risk_at_zero(d: Any, n: Any, L: Any, sigma2: Any) -> Any:
    """𝓛_aff(0) = (L²/(3d))(1 + 1/n) + σ²/n (the label average).

    Source: [collins24] Remark 2.1.

    >>> round(affine_risk_at_zero(5, 20, 1.0, 1e-4), 6)
    0.070005
    """
    z = zero_scale_terms(n, d)
    return affine_risk_split(z["A"], z["N"], d, L, sigma2)


@checked
def constant_task_risk(n: Any, sigma2: Any) -> Any:
    """Remark 2.1(i): for constant tasks 𝓛(ω) = σ²N(ω) ≥ σ²/n, equality iff ω = 0 (M* = 0).

    Source: [collins24] Remark 2.1(i); [derived] (Cauchy–Schwarz: Σπ_i² ≥ 1/n).

    >>> constant_task_risk(20, 0.25)
    0.0125
    """
    return sigma2 / n


@checked
def t_density_constant(d: Any) -> Any:
    """c'_d = Γ(d/2)/(√π Γ((d−1)/2)), the constant of the density of t = x_iᵀx on [−1, 1].

    Source: [derived] for [collins24] (rotation reduction; t = 2B − 1, B ~ Beta).

    .. math:: p_d(t) = c'_d (1 − t^2)^{(d−3)/2}

    >>> t_density_constant(sp.Integer(3))
    1/2
    """
    with mp.workdps(_DPS):  # float64 result correctly rounded
        out = dual(
            lambda d: sp.gamma(d / 2) / (sp.sqrt(sp.pi) * sp.gamma((d - 1) / 2)),
            _ND[1:],
            (d,),
            backend="mpmath",
        )
    return out if isinstance(out, sp.Expr) else float(out)


@checked
def t_cdf_mp(t: float, d: int) -> Any:
    """CDF F_d(t) of t = x_iᵀx by the regularised incomplete beta (mpmath).

    Source: [collins24] App. G.1 (cap measure).

    .. math:: F_d(t) = 1 − ½ I_{1−t^2}((d−1)/2, ½)\\ (t ≥ 0),\\quad
              ½ I_{1−t^2}((d−1)/2, ½)\\ (t < 0)

    >>> float(t_cdf_mp(0.0, 5))
    0.5
    """
    if not isinstance(t, mp.mpf):
        check_scalar("t", t, lower=-1.0, upper=1.0)
    half = (
        mp.betainc((d - 1) / mp.mpf(2), mp.mpf(1) / 2, 0, 1 - mp.mpf(t) ** 2, regularized=True) / 2
    )
    return 1 - half if t >= 0 else half


@checked
def a_infinity_mp(n: int, d: int, *, dps: int = _DPS) -> float:
    """The 1-NN limit A(∞) = E[2(1 − t_max)] = 2∫_{−1}^{1} F_d(t)^n dt (mpmath quadrature).

    Source: [collins24] Remark 2.1(ii); derived check value 0.47411 at d = 5, n = 20.

    ``dps`` defaults to :data:`_DPS` (30): at d = 2 the mass of F_d^n sits within ~(π/n)² of
    t = 1, which 20 digits resolve only to a relative 1e-11 at n = 1e7 (2e-7 at n = 1e9).  At
    large d the step of F_d^n (near t ≈ √(2 ln n / d)) needs more tanh-sinh levels than
    mpmath's default 7 at 30 digits (d = 1000, n = 1e8: its error estimate 1e-6, the value off
    by 1.4e-9): up to :data:`_QUAD_LEVELS`, which an easy integrand never reaches.

    >>> round(a_infinity_mp(20, 5), 5)
    0.47411
    """
    with mp.workdps(dps):
        val: Any = mp.quad(
            lambda t: t_cdf_mp(t, d) ** n, [-1, 0, 0.9, 0.99, 1], maxdegree=_QUAD_LEVELS
        )
    return float(2 * val)


@checked
def nearest_neighbour_risk(n: int, d: int, L: float, sigma2: float) -> float:
    """𝓛_aff(∞) = (L²/(3d))·A(∞) + σ² (1-NN: N(∞) = 1).

    Source: [collins24] Remark 2.1(ii).

    >>> round(nearest_neighbour_risk(20, 5, 1.0, 0.0), 5)
    0.03161
    """
    return float(affine_risk_split(a_infinity_mp(n, d), 1.0, d, L, sigma2))
