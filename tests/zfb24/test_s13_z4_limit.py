"""Session 13 triage (z4): Theorem 4's limit (11) — W_PV_star's shape and the ``Gamma=`` override
of limit_params.  Expected values are worked by hand in exact arithmetic (comments)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

import theory.zfb24 as T
from numerics.testing import FLOAT_RTOL

# Λ = diag(1/2, 2), N = 4: tr Λ = 5/2, Γ = (5/4)Λ + (5/8)I = diag(5/4, 25/8),
# Γ⁻¹ = diag(4/5, 8/25), ‖Γ⁻¹‖_F² = 16/25 + 64/625 = 464/625, so u₋₁(∞) = 464^{1/4}/5.
L_HALF_TWO = sp.diag(sp.Rational(1, 2), 2)
U_INF = sp.Rational(464, 625) ** sp.Rational(1, 4)

# A Γ given by hand (not Γ(Λ, N)): Γ = [[2, 1], [1, 3]], det 5, Γ⁻¹ = [[3, -1], [-1, 2]]/5,
# ‖Γ⁻¹‖_F² = (9 + 1 + 1 + 4)/25 = 3/5, so u = (3/5)^{1/4} and U₁₁ = Γ⁻¹/u.
GAMMA_GIVEN = sp.Matrix([[2, 1], [1, 3]])
GI_GIVEN = sp.Matrix([[3, -1], [-1, 2]]) / 5
U_GIVEN = sp.Rational(3, 5) ** sp.Rational(1, 4)


def test_W_PV_star_is_d_plus_1_square_with_one_entry_symbolic() -> None:
    W = T.W_PV_star(L_HALF_TWO, 4)
    assert W.shape == (3, 3)
    expected = sp.zeros(3, 3)
    expected[2, 2] = U_INF
    assert sp.simplify(W - expected) == sp.zeros(3, 3)


def test_W_PV_star_is_d_plus_1_square_with_one_entry_numeric() -> None:
    W = np.asarray(T.W_PV_star(np.diag([0.5, 2.0]), 4))
    assert W.shape == (3, 3)
    expected = np.zeros((3, 3))
    expected[2, 2] = float(U_INF)
    np.testing.assert_allclose(W, expected, rtol=FLOAT_RTOL, atol=0)


def test_limit_params_uses_the_given_Gamma_symbolic() -> None:
    U, u = T.limit_params(L_HALF_TWO, 4, Gamma=GAMMA_GIVEN)
    assert sp.simplify(u - U_GIVEN) == 0
    assert sp.simplify(sp.Matrix(U) - GI_GIVEN / U_GIVEN) == sp.zeros(2, 2)


def test_limit_params_uses_the_given_Gamma_numeric() -> None:
    G = np.array([[2.0, 1.0], [1.0, 3.0]])
    U, u = T.limit_params(np.diag([0.5, 2.0]), 4, Gamma=G)
    assert float(u) == pytest.approx(float(U_GIVEN), rel=FLOAT_RTOL)
    expected = np.array(GI_GIVEN / U_GIVEN, dtype=float)
    np.testing.assert_allclose(np.asarray(U, dtype=float), expected, rtol=FLOAT_RTOL, atol=0)
    U2, u2 = T.limit_params_fn(np.diag([0.5, 2.0]), 4, G)
    assert u2 == pytest.approx(float(U_GIVEN), rel=FLOAT_RTOL)
    np.testing.assert_allclose(U2, expected, rtol=FLOAT_RTOL, atol=0)


def test_limit_params_fn_takes_exact_fraction_entries() -> None:
    """Fraction entries (the domain's high-precision references) are read as float64: the
    Λ route against u₋₁(∞) = (464/625)^{1/4} and the Γ route against (3/5)^{1/4} (above)."""
    lam = [[Fraction(1, 2), Fraction(0)], [Fraction(0), Fraction(2)]]
    U, u = T.limit_params_fn(lam, 4)
    assert u == pytest.approx(float(U_INF), rel=FLOAT_RTOL)
    np.testing.assert_allclose(
        U, np.diag([0.8, 0.32]) / float(U_INF), rtol=FLOAT_RTOL, atol=0
    )  # Γ⁻¹ = diag(4/5, 8/25)
    gam = [[Fraction(2), Fraction(1)], [Fraction(1), Fraction(3)]]
    U2, u2 = T.limit_params_fn(lam, 4, gam)
    assert u2 == pytest.approx(float(U_GIVEN), rel=FLOAT_RTOL)
    expected = np.array(GI_GIVEN / U_GIVEN, dtype=float)
    np.testing.assert_allclose(U2, expected, rtol=FLOAT_RTOL, atol=0)
