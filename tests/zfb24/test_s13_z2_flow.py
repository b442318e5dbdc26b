"""Checks the mutation triage of issue 35 asked for in [zfb24]'s §5 flow module (session 13):
the backend choice for mixed SymPy/numpy inputs and exact values at generic points."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy as sp

import theory.zfb24 as T
from numerics.testing import FLOAT_RTOL

R = sp.Rational
# A generic non-symmetric U₁₁ with exact entries: ‖U‖_F² = 1/4 + 1/9 + 1/16 + 4/9 = 125/144.
U_EXACT = sp.Matrix([[R(1, 2), R(1, 3)], [R(-1, 4), R(2, 3)]])


def test_balancedness_symbolic_u_with_numeric_u11() -> None:
    """Lemma 17's u₋₁² − ‖U₁₁‖_F² with a SymPy u₋₁ and a numpy U₁₁ is SymPy in u₋₁:
    ‖[[½, ¼], [−¾, 3/2]]‖_F² = 1/4 + 1/16 + 9/16 + 9/4 = 25/8 (binary fractions, exact)."""
    u = sp.Symbol("u", real=True)
    got = T.balancedness(np.array([[0.5, 0.25], [-0.75, 1.5]]), u)
    assert isinstance(got, sp.Expr)
    assert sp.expand(got - (u**2 - R(25, 8))) == 0


def test_balancedness_symbolic_u11_with_float_u() -> None:
    """A SymPy U₁₁ and a float u₋₁ = 3/2 give a SymPy value 9/4 − 125/144 = 199/144."""
    got = T.balancedness(U_EXACT, 1.5)
    assert isinstance(got, sp.Basic)
    assert abs(got - R(199, 144)) <= FLOAT_RTOL


def test_balancedness_exact() -> None:
    """Exact entries stay exact: u₋₁ = 3/2 gives 199/144 exactly."""
    assert T.balancedness(U_EXACT, R(3, 2)) == R(199, 144)


# --------------------------------------------------------------------- numpy twins: dtypes
# Λ with exact integer entries, Γ = (3/2)Λ + (9/2)I at N = 2, and a generic P with thirds.
L_INT = [[2, 1, 0], [1, 3, 1], [0, 1, 4]]
P_THIRDS = [[1, -2, 0], [3, 1, -1], [0, 2, 1]]


def test_loss_of_P_fn_converts_exact_entries_to_float64_first() -> None:
    """The numpy twin reads an exact-entries P (Fractions) as its float64 value: the same float,
    bit for bit, as for the float64 array.  L(P) = 101 exactly (Lemma 15 / eq. (28) in exact
    arithmetic: ½[tr(ΓΛPΛPᵀ) − 2tr(Λ²Pᵀ) + trΛ])."""
    P_frac = [[Fraction(x, 3) for x in row] for row in P_THIRDS]
    P_float = np.array(P_THIRDS, dtype=float) / 3
    got = T.loss_of_P_fn(P_frac, L_INT, 2)
    assert got == T.loss_of_P_fn(P_float, L_INT, 2)
    L, P = sp.Matrix(L_INT), sp.Matrix(P_THIRDS) / 3
    G = R(3, 2) * L + R(9, 2) * sp.eye(3)
    exact = ((G * L * P * L * P.T).trace() - 2 * (L * L * P.T).trace() + L.trace()) / 2
    assert exact == 101
    assert abs(got - 101) <= FLOAT_RTOL * 101


LAM_BIG = 2**32  # Λ = 2³²·I: Λ² = 2⁶⁴·I overflows int64 (wraps to 0) but is exact in float64


def test_loss_of_P_fn_integer_lambda_does_not_overflow() -> None:
    """Λ = λI₂ with integer λ = 2³² (a valid SPD covariance), N = 3: Γ = λ(N+3)/N·I = 2λI, the
    minimiser P = Γ⁻¹ = 2⁻³³I and L* = ½[trΛ − tr(Λ²Γ⁻¹)] = ½[2λ − λ] = λ/2 = 2³¹ (Corollary 16),
    exact in float64.  Integer arithmetic on Λ would wrap Λ² to 0 and give 3λ/2."""
    lam_int = [[LAM_BIG, 0], [0, LAM_BIG]]
    assert T.loss_of_P_fn(np.eye(2) / 2**33, lam_int, 3) == 2**31
