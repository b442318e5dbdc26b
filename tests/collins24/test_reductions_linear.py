"""collins24 §2 reductions and §3 linear attention: pinned values at generic points, closed-form
1-NN limits, exact-entry inputs and the bodies' own input guards (issue 35's mutation triage)."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

import mpmath as mp
import numpy as np
import pytest
import sympy as sp

from numerics.collins24.quadrature import a_infinity
from numerics.testing import FLOAT_RTOL
from theory import collins24 as T


@pytest.mark.symbolic
@pytest.mark.result("collins24:lemB.1")
def test_affine_signal_rho_pinned_at_a_generic_point() -> None:
    """ρ(τ) = E[b²] + E[l²] xᵀE[vvᵀ]y = L²/3 + (L²/3)τ/d (b, l ~ U[−L, L], v ~ U^d): at
    τ = 1/2, d = 4, L = 3 by hand 3·(1 + 1/8) = 27/8, and ρ scales as L² (c = 2: ×4)."""
    half = sp.Rational(1, 2)
    assert T.affine_signal_rho(half, 4, sp.Integer(3)) == sp.Rational(27, 8)
    assert T.affine_signal_rho(0.5, 4, 3.0) == pytest.approx(3.375, rel=FLOAT_RTOL, abs=0.0)
    assert T.affine_signal_rho(half, 4, sp.Integer(6)) == 4 * sp.Rational(27, 8)


@pytest.mark.result("collins24:sec3.1")
@pytest.mark.parametrize(
    ("d", "expected"),
    [
        # c'_d = 1/∫_{−1}^{1}(1 − t²)^{(d−3)/2} dt: d = 4, ∫√(1 − t²) = π/2; d = 5, ∫(1 − t²) = 4/3;
        # d = 7, ∫(1 − t²)² = 16/15 (by hand)
        (4, 2 / math.pi),
        (5, 0.75),
        (7, 0.9375),
    ],
)
def test_t_density_constant_pinned_and_correctly_rounded(d: int, expected: float) -> None:
    """The density constant of t = x_iᵀx, c'_d = Γ(d/2)/(√π Γ((d−1)/2)), is the normaliser of
    (1 − t²)^{(d−3)/2}; its float is the correctly rounded value (mpmath at 30 digits), a float."""
    out = T.t_density_constant(d)
    assert type(out) is float
    assert out == expected


@pytest.mark.result("collins24:sec3.1")
def test_t_density_constant_past_float64_gamma() -> None:
    """At d = 400, Γ(d/2) = Γ(200) overflows float64, yet c'_d ~ √(d/(2π)) is about 7.96: against
    the independent log-gamma route exp(lgamma(d/2) − lgamma((d−1)/2) − ½ log π)."""
    d = 400
    ref = math.exp(math.lgamma(d / 2) - math.lgamma((d - 1) / 2) - 0.5 * math.log(math.pi))
    assert T.t_density_constant(d) == pytest.approx(ref, rel=FLOAT_RTOL, abs=0.0)


@pytest.mark.result("collins24:limits")
@pytest.mark.parametrize(
    ("t", "message"),
    [(1.5, r"^t must be ≤ 1, got 1\.5$"), (-1.5, r"^t must be ≥ -1, got -1\.5$")],
)
def test_t_cdf_mp_body_refuses_a_cosine_outside_the_interval(t: float, message: str) -> None:
    """t = x_iᵀx is a cosine in [−1, 1]: past either end the export's domain check refuses it,
    and so does the body's own guard on the unchecked ``.raw`` (it would otherwise feed
    1 − t² < 0 to the incomplete beta)."""
    with pytest.raises(ValueError, match=rf"^t must be a cosine .*\[−1, 1\].*, got {t}$"):
        T.t_cdf_mp(t, 5)
    with pytest.raises(ValueError, match=message):
        T.t_cdf_mp.raw(t, 5)


@pytest.mark.result("collins24:limits")
@pytest.mark.parametrize(
    ("n", "d", "expected"),
    [
        # d = 3: t is uniform on [−1, 1] (Archimedes), F_3 = (1 + t)/2, 2∫F^n = 4/(n + 1)
        (200, 3, 4 / 201),
        # d = 2: t = cos θ, θ ~ U[0, π], F_2 = 1 − θ/π; 2∫F^n = 2π∫_0^1 u^n sin(πu) du, which at
        # n = 2 is 2π(π² − 4)/π³ = 2 − 8/π² (two integrations by parts)
        (2, 2, 2 - 8 / math.pi**2),
    ],
)
def test_a_infinity_mp_closed_forms(n: int, d: int, expected: float) -> None:
    """Remark 2.1(ii)'s 1-NN limit A(∞) = 2∫_{−1}^{1} F_d(t)^n dt in the two dimensions where F_d
    is elementary (the quadrature's subintervals must tile [−1, 1] exactly)."""
    assert T.a_infinity_mp(n, d) == pytest.approx(expected, rel=FLOAT_RTOL, abs=0.0)


def _a_infinity_circle(n: int) -> float:
    """A(∞) at d = 2 by a series, independent of the incomplete beta: θ ~ U[0, π], F_2 = 1 − θ/π,
    so 2∫F^n dt = 2π∫_0^1 u^n sin(πu) du = 2π Σ_k (−1)^k π^{2k+1}/((2k+1)! (n + 2k + 2))."""
    with mp.workdps(50):
        terms = (
            (-1) ** k * mp.pi ** (2 * k + 1) / (mp.factorial(2 * k + 1) * (n + 2 * k + 2))
            for k in range(60)
        )
        return float(2 * mp.pi * mp.fsum(terms))


@pytest.mark.result("collins24:limits")
@pytest.mark.parametrize("n", [2, 10**7, 10**9])
def test_a_infinity_mp_on_the_circle_at_large_n(n: int) -> None:
    """At d = 2 the mass of F_2^n sits within ~(π/n)² of t = 1: the default working precision
    must resolve it (at 20 digits the value was off by 1.2e-11 at n = 1e7, 2.2e-7 at n = 1e9);
    against the series route to FLOAT_RTOL (n = 2: the closed form 2 − 8/π² as well)."""
    ref = _a_infinity_circle(n)
    if n == 2:
        assert ref == pytest.approx(2 - 8 / math.pi**2, rel=FLOAT_RTOL, abs=0.0)
    assert T.a_infinity_mp(n, 2) == pytest.approx(ref, rel=FLOAT_RTOL, abs=0.0)


@pytest.mark.result("collins24:limits")
def test_a_infinity_mp_resolves_the_step_at_high_dimension() -> None:
    """At d = 1000, n = 1e7, F_d^n steps from 0 to 1 around t ≈ √(2 ln n / d) ≈ 0.18, inside
    the quadrature's [0, 0.9]: against a 40-digit reference written here (F_d from the
    incomplete beta, breakpoints every 0.05) to FLOAT_RTOL; mpmath's default number of tanh-sinh
    levels left the value off by 7e-12."""
    d, n = 1000, 10**7
    with mp.workdps(40):
        a, b = mp.mpf(d - 1) / 2, mp.mpf(1) / 2

        def cdf(t: Any) -> Any:
            half = mp.betainc(a, b, 0, 1 - t * t, regularized=True) / 2
            return 1 - half if t >= 0 else half

        points = [-1] + [mp.mpf(k) / 20 for k in range(20)] + [1]
        val: Any = mp.quad(lambda t: cdf(t) ** n, points)
        ref = float(2 * val)
    assert T.a_infinity_mp(n, d) == pytest.approx(ref, rel=FLOAT_RTOL, abs=0.0)


@pytest.mark.result("collins24:limits")
def test_a_infinity_mp_at_high_dimension_matches_scipy() -> None:
    """At d = 300 the density of t = x_iᵀx sits within ~0.06 of 0 and F_d^n (n = 1000) steps
    near t ≈ 0.2: the mpmath route (breakpoint at 0) against the independent scipy betainc +
    QUADPACK route to FLOAT_RTOL."""
    assert T.a_infinity_mp(1000, 300) == pytest.approx(
        a_infinity(1000, 300), rel=FLOAT_RTOL, abs=0.0
    )


@pytest.mark.result("collins24:rem2.2")
@pytest.mark.parametrize("exact", ["X", "y", "x"])
@pytest.mark.parametrize("kind", ["fraction", "sympy"])
def test_small_omega_prediction_of_exact_entries_is_float64(exact: str, kind: str) -> None:
    """Exact (Fraction / SymPy Rational) entries are finite reals, so the export takes them; the
    prediction is still a float64 array.  By hand: x_1ᵀx = 1/4 + 1/2 = 3/4,
    x_2ᵀx = 3/2 − 1/12 = 17/12, ȳ = 1/2, y − ȳ = (1, −1), so
    ŷ = 1/2 + (0.3/2)(3/4 − 17/12) = 1/2 − 0.15·2/3 = 0.4."""
    q = Fraction if kind == "fraction" else sp.Rational
    args = {
        "X": [[[q(1, 2), q(2)], [q(3), q(-1, 3)]]],
        "y": [[q(3, 2), q(-1, 2)]],
        "x": [[q(1, 2), q(1, 4)]],
    }
    as_float = {k: np.array(v, dtype=float) for k, v in args.items()}
    call = {k: (args[k] if k == exact else as_float[k]) for k in args}
    out = T.small_omega_prediction(call["X"], call["y"], call["x"], 0.3)
    assert out.dtype == np.float64 and out.shape == (1,)
    assert float(out[0]) == pytest.approx(0.4, rel=FLOAT_RTOL, abs=0.0)


@pytest.mark.result("collins24:rem2.2")
@pytest.mark.parametrize("ndim", [2, 4])
def test_small_omega_prediction_refuses_a_context_of_the_wrong_rank(ndim: int) -> None:
    """X must be (B, n, d): a rank-2 (B, n) or rank-4 (B, n, d, 1) context whose leading axes
    match y (B, n) and x (B, d) is still the function's shape error, naming the three shapes."""
    y, x = np.zeros((2, 3)), np.zeros((2, 4))
    X = np.zeros((2, 3)) if ndim == 2 else np.zeros((2, 3, 4, 1))
    with pytest.raises(
        ValueError,
        match=r"^small_omega_prediction needs X \(B, n, d\), y \(B, n\), x \(B, d\); got "
        + re.escape(f"{X.shape}, {y.shape}, {x.shape}")
        + "$",
    ):
        T.small_omega_prediction(X, y, x, 0.1)
