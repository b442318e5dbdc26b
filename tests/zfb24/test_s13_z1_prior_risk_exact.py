"""Checks the mutation triage of issue 35 asked for in [zfb24] §4.1 (session 13, helper z1):
:func:`prior_risk_fn`, the numpy twin of the prior-averaged risk, takes exact entries (Fraction,
SymPy Rational: both pass ``@checked``) for Λ and for an explicit Γ and converts them to float64.

Expected values come from the per-coordinate form of the risk for diagonal Λ and Γ, in exact
Fraction arithmetic: with T = trΛ and Γ = diag(g),
``R = (1/M)[Σ λᵢ³/gᵢ² + T Σ λᵢ²/gᵢ²] + (1/N²) Σ λᵢ(λᵢ + T)²/gᵢ²``
([derived] from [zfb24] Theorem 5, the display of :func:`theory.zfb24.prior_risk`).
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
import sympy as sp

from numerics.testing import FLOAT_RTOL
from theory.zfb24 import prior_risk_fn

_LAM = [F(1, 2), F(3, 2), F(5, 2)]
_N, _M = 7, 5


def _diag(v: list, kind: str) -> object:
    """A diagonal matrix with exact entries, as nested Fractions or a SymPy Matrix."""
    rows = [[x if i == j else F(0) for j in range(len(v))] for i, x in enumerate(v)]
    if kind == "fraction":
        return rows
    return sp.Matrix([[sp.Rational(x.numerator, x.denominator) for x in r] for r in rows])


def _risk_by_coordinate(lam: list[F], g: list[F], N: int, M: int) -> F:
    T = sum(lam, F(0))
    var, bias = F(0), F(0)
    for x, gi in zip(lam, g, strict=True):
        var += (x**3 + T * x**2) / gi**2 / M
        bias += x * (x + T) ** 2 / gi**2 / N**2
    return var + bias


@pytest.mark.parametrize("kind", ["fraction", "sympy"])
def test_prior_risk_fn_exact_lambda_trained_gamma(kind: str) -> None:
    """Exact Λ entries, Γ built inside: gᵢ = (1 + 1/N)λᵢ + trΛ/N (Γ of §3)."""
    T = sum(_LAM, F(0))
    g = [(1 + F(1, _N)) * x + T / _N for x in _LAM]
    want = float(_risk_by_coordinate(_LAM, g, _N, _M))
    got = prior_risk_fn(_diag(_LAM, kind), _N, _M)
    assert isinstance(got, float)
    assert got == pytest.approx(want, rel=FLOAT_RTOL)


@pytest.mark.parametrize("kind", ["fraction", "sympy"])
def test_prior_risk_fn_exact_gamma_entries(kind: str) -> None:
    """Float Λ with an explicit Γ (not the trained one) given by exact entries."""
    g = [F(3, 4), F(2), F(7, 3)]
    want = float(_risk_by_coordinate(_LAM, g, _N, _M))
    got = prior_risk_fn(np.diag([float(x) for x in _LAM]), _N, _M, _diag(g, kind))
    assert isinstance(got, float)
    assert got == pytest.approx(want, rel=FLOAT_RTOL)
