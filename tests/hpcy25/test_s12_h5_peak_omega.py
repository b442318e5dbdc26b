"""peak_omega_lambert's return types (issue 35 triage, session 12).

Floats in -> a Python float (not an mpmath.mpf); SymPy in -> a SymPy expression (never forced to
float).  The expected value is an independent route: the root of the defining relation of Lambert
W, ``w e^w = L/(1+σ²)``, found by mpmath.findroot at 50 digits, then ``ω = √(w/d)``
([hpcy25] App. B Phase II).
"""

from __future__ import annotations

from typing import Any

import mpmath
import pytest
import sympy as sp

import theory.hpcy25 as th
from numerics.testing import FLOAT_RTOL

pytestmark = pytest.mark.symbolic


def _omega_by_root(d: int, L: int, s2: Any) -> float:
    """``√(w/d)`` with ``w e^w = L/(1+σ²)`` solved by Newton at 50 digits (no Lambert W call)."""
    with mpmath.workdps(50):
        x = mpmath.mpf(L) / (1 + s2)
        w = mpmath.findroot(lambda u: u * mpmath.exp(u) - x, mpmath.log(x))
        return float(mpmath.sqrt(w / d))


def test_peak_omega_lambert_float_in_python_float_out() -> None:
    """Floats in -> a built-in float equal to the Lambert-W root (not an mpmath.mpf)."""
    v = th.peak_omega_lambert(7, 30, 0.35)
    assert type(v) is float
    ref = _omega_by_root(7, 30, mpmath.mpf("0.35"))
    assert v == pytest.approx(ref, rel=FLOAT_RTOL)


def test_peak_omega_lambert_sympy_in_expression_out() -> None:
    """Exact SymPy in -> a SymPy expression (kept exact, not a float), equal to the root."""
    expr = th.peak_omega_lambert(sp.Integer(7), sp.Integer(30), sp.Rational(7, 20))
    assert isinstance(expr, sp.Expr)
    assert expr.has(sp.LambertW)
    ref = _omega_by_root(7, 30, mpmath.mpf(7) / 20)
    assert float(sp.N(expr, 50)) == pytest.approx(ref, rel=FLOAT_RTOL)
    d, L, s2 = sp.symbols("d L sigma2", positive=True)
    sym = th.peak_omega_lambert(d, L, s2)
    assert isinstance(sym, sp.Expr)
    assert sym.free_symbols == {d, L, s2}
