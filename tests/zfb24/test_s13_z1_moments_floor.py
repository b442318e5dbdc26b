"""Checks the mutation triage of issue 35 asked for in [zfb24] §4.1–§4.2 (session 13, helper z1):
the quadratic task's Theorem 5 inputs at a generic non-diagonal Λ with the default coefficient,
Theorem 5's risk with an explicit Γ, and the query-shift floor with a non-diagonal S_q.

Expected values by hand in exact arithmetic (see each test).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction as F

import numpy as np
import pytest

from numerics.testing import FLOAT_RTOL
from theory.zfb24 import quadratic_task_moments, query_shift_floor, theorem5_risk


def test_quadratic_task_moments_generic_lambda_default_coef() -> None:
    """Λ = [[2, 1], [1, 3]], w₀ = (1, −2), s² = 1/4, c = ½ (default): Λw₀ = (0, −5), w₀ᵀΛw₀ = 10,
    Λ₁₁ = 2, ℓ = (2, 1); Σ = (Λw₀)(Λw₀)ᵀ + 10Λ + 2c²Λ₁₁²Λ (= 2Λ) + 8c²Λ₁₁ℓℓᵀ (= 4ℓℓᵀ) + Λ/4
    = [[40.5, 20.25], [20.25, 65.75]]; best linear error 2c²Λ₁₁² + s² = 2 + 1/4."""
    S, a, best = quadratic_task_moments(np.array([[2.0, 1.0], [1.0, 3.0]]), [1.0, -2.0], 0.25)
    np.testing.assert_allclose(S, [[40.5, 20.25], [20.25, 65.75]], rtol=FLOAT_RTOL)
    np.testing.assert_allclose(a, [1.0, -2.0], rtol=FLOAT_RTOL)
    assert best == pytest.approx(2.25, rel=FLOAT_RTOL)


@pytest.mark.parametrize("w0", [[1, -2], [Decimal(1), Decimal(-2)]], ids=["int", "decimal"])
def test_quadratic_task_moments_of_exact_w0_is_float64(w0: list) -> None:
    """Integer or Decimal w₀ (same point as above): float64 moments and a float64 ``a``."""
    S, a, best = quadratic_task_moments(np.array([[2.0, 1.0], [1.0, 3.0]]), w0, 0.25)
    assert a.dtype == np.float64 and S.dtype == np.float64
    np.testing.assert_allclose(S, [[40.5, 20.25], [20.25, 65.75]], rtol=FLOAT_RTOL)
    np.testing.assert_allclose(a, [1.0, -2.0], rtol=FLOAT_RTOL)


def test_theorem5_risk_uses_the_given_gamma() -> None:
    """Diagonal Λ = diag(1/2, 3/2), Σ = diag(2, 1/3), a = (1, −1/2), Γ = diag(3/4, 2) (not the
    trained Γ), N = 7, M = 5, best linear error 1/3, T = trΛ = 2:
    R = 1/3 + Σᵢ[Σᵢᵢλᵢ/(M gᵢ²) + aᵢ²λᵢ(λᵢ + T)²/(N² gᵢ²)]."""
    lam, sig, a, g = [F(1, 2), F(3, 2)], [F(2), F(1, 3)], [F(1), F(-1, 2)], [F(3, 4), F(2)]
    T = sum(lam, F(0))
    want = F(1, 3)
    for x, s, ai, gi in zip(lam, sig, a, g, strict=True):
        want += s * x / (5 * gi**2) + ai**2 * x * (x + T) ** 2 / (49 * gi**2)
    diag = [[float(x) for x in v] for v in (lam, sig, a, g)]
    got = theorem5_risk(
        np.diag(diag[0]), 7, 5, np.diag(diag[1]), diag[2], 1 / 3, Gamma=np.diag(diag[3])
    )
    assert got == pytest.approx(float(want), rel=FLOAT_RTOL)


def test_query_shift_floor_non_diagonal_query() -> None:
    """Λ = diag(1/2, 3/2, 5/2), N = 7: K = Λ + TI and Γ are diagonal (kᵢ = λᵢ + T, gᵢ = (1 + 1/N)λᵢ
    + T/N), so tr(KΓ⁻¹S_qΓ⁻¹K)/N² = Σᵢ kᵢ²(S_q)ᵢᵢ/gᵢ²/N²; only S_q's diagonal enters."""
    lam, N = [F(1, 2), F(3, 2), F(5, 2)], 7
    T = sum(lam, F(0))
    Sq = np.array([[1.0, 0.4, -0.2], [0.4, 2.0, 0.3], [-0.2, 0.3, 0.5]])
    want = F(0)
    for i, x in enumerate(lam):
        g = (1 + F(1, N)) * x + T / N
        want += (x + T) ** 2 * F(Sq[i, i]) / g**2 / N**2
    got = query_shift_floor(np.diag([float(x) for x in lam]), N, Sq)
    assert got == pytest.approx(float(want), rel=FLOAT_RTOL)
