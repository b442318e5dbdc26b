"""collins24 App. G formulas called directly (fast tier), at generic points with pinned values:
the G.3 bounds and scale, and E g_p(r) against independent routes where it is small.  (The
declared checks assert the same through ``declared_run``, whose one run per session reaches a
formula from the first test only: these tests reach each formula themselves.)"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import mpmath as mp
import pytest

from numerics.collins24.tolerances import DOUBLE_RTOL
from theory import collins24 as T


def test_g2_bounds_values_at_a_generic_point() -> None:
    """Lemma G.3, first case, as printed: (m^d e^{−αm−1/2}, m^{d+1} e^{−αm−1/2}); at d = 7,
    α = 1.3, m = 4: (4⁷ e^{−5.7}, 4⁸ e^{−5.7}) = (16384 e^{−5.7}, 65536 e^{−5.7}) (by hand)."""
    lo, hi = T.g2_bounds(7, 1.3, 4)
    e = math.exp(-5.7)
    assert lo == pytest.approx(16384 * e, rel=DOUBLE_RTOL, abs=0)
    assert hi == pytest.approx(65536 * e, rel=DOUBLE_RTOL, abs=0)
    gam = T.gamma_sum(7, 1.3, 4)  # 4 is below the case split (7 + √7)/1.3 ≈ 7.4
    assert lo <= gam and gam / lo == pytest.approx(
        sum(i**7 * math.exp(-1.3 * i) for i in range(1, 5)) / (16384 * e), rel=DOUBLE_RTOL
    )


def test_g3_scale_exact_at_alpha_other_than_one() -> None:
    """Γ(d+1)/α^{d+1} = ∫₀^∞ t^d e^{−αt} dt, exact rationals by hand: 8!/(3/2)⁹ = 40320·512/19683
    and 5!/(13/10)⁶."""
    assert T.g3_scale(8, 1.5) == pytest.approx(
        float(Fraction(40320 * 512, 19683)), rel=DOUBLE_RTOL, abs=0
    )
    assert T.g3_scale(5, 1.3) == pytest.approx(
        float(120 / Fraction(13, 10) ** 6), rel=DOUBLE_RTOL, abs=0
    )


def test_gp_mean_d5_large_r_incomplete_gamma() -> None:
    """d = 5, p = 2: s(2−s) is a polynomial, c'_5 = 3/4, and ∫₀² s^k e^{−2rs} ds =
    k!/(2r)^{k+1} up to e^{−4r}: E g_2(r) = n·(3/4)·(1/r³ − 3/(4r⁴)) (by hand; e^{−4·10⁶} is far
    below double precision).  The quadrature before session 11 stopped on mpmath's absolute
    tolerance here: 1.06e-18 for 7.5e-19."""
    r = 10**6
    exact = 2 * Fraction(3, 4) * (Fraction(1, r**3) - Fraction(3, 4 * r**4))
    assert T.gp_mean(2.0, float(r), 5, 2) == pytest.approx(float(exact), rel=DOUBLE_RTOL, abs=0)


@pytest.mark.parametrize("r", [0.7, 40.0])
def test_gp_mean_d2_bessel(r: float) -> None:
    """d = 2, p = 0: x_iᵀx = cos θ with θ uniform on [0, π], so E g_0(r) =
    n (1/π)∫₀^π e^{−2r(1−cos θ)} dθ = n e^{−2r} I₀(2r) (mpmath Bessel).  The density's endpoint
    singularity (1 − t²)^{−1/2} cost the old quadrature 3e-10 relative."""
    expected = float(3 * mp.exp(-2 * r) * mp.besseli(0, 2 * r))
    assert T.gp_mean(0.0, r, 2, 3) == pytest.approx(expected, rel=DOUBLE_RTOL, abs=0)


def test_gp_mean_generic_against_the_t_integral() -> None:
    """A generic point (p = 1.3, r = 2.5, d = 6, n = 4) against 40-digit quadrature in
    t = x_iᵀx itself: n ∫₋₁¹ c'_d (1 − t²)^{(d−3)/2} (2 − 2t)^{p/2} e^{−2r(1−t)} dt."""
    p, r, d, n = 1.3, 2.5, 6, 4
    with mp.workdps(40):
        c = mp.gamma(mp.mpf(d) / 2) / (mp.sqrt(mp.pi) * mp.gamma(mp.mpf(d - 1) / 2))

        def f(t: Any) -> Any:
            return (
                (1 - t * t) ** (mp.mpf(d - 3) / 2)
                * (2 - 2 * t) ** (mp.mpf(p) / 2)
                * mp.exp(-2 * r * (1 - t))
            )

        expected = float(n * c * mp.quad(f, [-1, 0, 1]))
    assert T.gp_mean(p, r, d, n) == pytest.approx(expected, rel=DOUBLE_RTOL, abs=0)
