"""Checks the mutation triage of issue 35 asked for in [zfb24]'s §5 flow module (session 13):
the backend choice for mixed SymPy/numpy inputs and exact values at generic points."""

from __future__ import annotations

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
