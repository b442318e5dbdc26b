"""Checks the mutation triage of issue 35 asked for in [zfb24] §4.1–§4.2 (session 13, helper z1):
the risk formulas give float64 for numbers and exact SymPy values for SymPy input, honour an
explicit Γ, and convert exact Decimal vectors, at a generic diagonal point (Λ = diag(1/2, 3/2, 5/2),
N = 7, M = 5).

Expected values: for diagonal Λ and Γ = diag(g) the matrix traces are sums over coordinates;
with T = trΛ and, for the trained Γ, gᵢ = (1 + 1/N)λᵢ + T/N ([zfb24] §3), in exact Fraction
arithmetic:

* prior risk ([derived], :func:`prior_risk`): ``(1/M)Σ(λᵢ³ + Tλᵢ²)/gᵢ² + (1/N²)Σλᵢ(λᵢ+T)²/gᵢ²``;
* Theorem 5's excess: ``(1/M)ΣΣᵢᵢλᵢ/gᵢ² + (1/N²)Σaᵢ²λᵢ(λᵢ+T)²/gᵢ²``;
* the noiseless risk of w: ``(1/M)[Σwᵢ²λᵢ³/gᵢ² + (Σλᵢ²/gᵢ²)(Σwᵢ²λᵢ)] + (1/N²)Σwᵢ²λᵢ(λᵢ+T)²/gᵢ²``;
* covariate scaling by c (P = Γ⁻¹ on Λ' = S_q = c²Λ, Ω = I):
  ``Σ(c²λᵢ/gᵢ − 1)²c²λᵢ + (1/M)[Σc⁶λᵢ³/gᵢ² + c²T Σc⁴λᵢ²/gᵢ²]``.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction as F

import numpy as np
import pytest
import sympy as sp

from numerics.testing import FLOAT_RTOL
from theory.zfb24 import covariate_scaling_risk, noiseless_risk, prior_risk, theorem5_excess

_LAM = [F(1, 2), F(3, 2), F(5, 2)]
_T = sum(_LAM, F(0))
_N, _M = 7, 5
_G = [(1 + F(1, _N)) * x + _T / _N for x in _LAM]
_W = [F(1), F(-2), F(3)]


def _np(v: list) -> np.ndarray:
    return np.diag([float(x) for x in v])


def _sp(v: list) -> sp.Matrix:
    return sp.diag(*[sp.Rational(x.numerator, x.denominator) for x in v])


def _rat(x: F) -> sp.Expr:
    return sp.Rational(x.numerator, x.denominator)


def _prior(g: list[F], M: float) -> F:
    var, bias = F(0), F(0)
    for x, gi in zip(_LAM, g, strict=True):
        var += (x**3 + _T * x**2) / gi**2
        bias += x * (x + _T) ** 2 / gi**2 / _N**2
    return bias if M == math.inf else var / int(M) + bias


def _excess(sig_diag: list[F], a: list[F]) -> F:
    out = F(0)
    for s, ai, x, gi in zip(sig_diag, a, _LAM, _G, strict=True):
        out += s * x / gi**2 / _M + ai**2 * x * (x + _T) ** 2 / gi**2 / _N**2
    return out


def _noiseless(w: list[F]) -> F:
    s3 = sum((wi**2 * x**3 / gi**2 for wi, x, gi in zip(w, _LAM, _G, strict=True)), F(0))
    s2 = sum((x**2 / gi**2 for x, gi in zip(_LAM, _G, strict=True)), F(0))
    wl = sum((wi**2 * x for wi, x in zip(w, _LAM, strict=True)), F(0))
    bias = sum(
        (wi**2 * x * (x + _T) ** 2 / gi**2 for wi, x, gi in zip(w, _LAM, _G, strict=True)), F(0)
    )
    return (s3 + s2 * wl) / _M + bias / _N**2


def _scaling(c: F) -> F:
    bias = sum(((c**2 * x / gi - 1) ** 2 * c**2 * x for x, gi in zip(_LAM, _G, strict=True)), F(0))
    a3 = sum((c**6 * x**3 / gi**2 for x, gi in zip(_LAM, _G, strict=True)), F(0))
    a2 = sum((c**4 * x**2 / gi**2 for x, gi in zip(_LAM, _G, strict=True)), F(0))
    return bias + (a3 + c**2 * _T * a2) / _M


# ---------------------------------------------------------------------------- prior risk
@pytest.mark.parametrize("M", [_M, math.inf])
def test_prior_risk_numbers_in_float64_out(M: float) -> None:
    got = prior_risk(_np(_LAM), _N, M)
    assert isinstance(got, float)
    assert got == pytest.approx(float(_prior(_G, M)), rel=FLOAT_RTOL)


def test_prior_risk_sympy_in_exact_out() -> None:
    got = prior_risk(_sp(_LAM), _N, _M)
    assert got == _rat(_prior(_G, _M))


def test_prior_risk_explicit_gamma_is_used() -> None:
    """A Γ other than the trained one (both backends): R at P = Γ⁻¹."""
    g = [F(3, 4), F(2), F(7, 3)]
    want = _prior(g, _M)
    got = prior_risk(_np(_LAM), _N, _M, Gamma=_np(g))
    assert isinstance(got, float)
    assert got == pytest.approx(float(want), rel=FLOAT_RTOL)
    assert prior_risk(_sp(_LAM), _N, _M, Gamma=_sp(g)) == _rat(want)


# ------------------------------------------------------------------------------ Theorem 5
def test_theorem5_excess_sympy_in_exact_out() -> None:
    sig = [F(2), F(1, 3), F(5, 4)]
    a = [F(1), F(-1, 2), F(2)]
    got = theorem5_excess(_sp(_LAM), _N, _M, _sp(sig), sp.Matrix([_rat(x) for x in a]))
    assert got == _rat(_excess(sig, a))


def test_theorem5_excess_decimal_vector_is_float64() -> None:
    sig = [F(2), F(1, 3), F(5, 4)]
    a = [F(1), F(-1, 2), F(2)]
    a_dec = [Decimal(1), Decimal("-0.5"), Decimal(2)]
    got = theorem5_excess(_np(_LAM), _N, _M, _np(sig), a_dec)
    assert isinstance(got, float)
    assert got == pytest.approx(float(_excess(sig, a)), rel=FLOAT_RTOL)


# ------------------------------------------------------------------------- noiseless risk
def test_noiseless_risk_sympy_in_exact_out() -> None:
    got = noiseless_risk(sp.Matrix([_rat(x) for x in _W]), _sp(_LAM), _N, _M)
    assert got == _rat(_noiseless(_W))


def test_noiseless_risk_decimal_vector_is_float64() -> None:
    got = noiseless_risk([Decimal(int(x)) for x in _W], _np(_LAM), _N, _M)
    assert isinstance(got, float)
    assert got == pytest.approx(float(_noiseless(_W)), rel=FLOAT_RTOL)


# ---------------------------------------------------------------------- covariate scaling
def test_covariate_scaling_risk_numbers_in_float64_out() -> None:
    got = covariate_scaling_risk(_np(_LAM), _N, _M, 1.5)
    assert isinstance(got, float)
    assert got == pytest.approx(float(_scaling(F(3, 2))), rel=FLOAT_RTOL)


def test_covariate_scaling_risk_sympy_in_exact_out() -> None:
    got = covariate_scaling_risk(_sp(_LAM), _N, _M, sp.Rational(3, 2))
    assert got == _rat(_scaling(F(3, 2)))


def test_theorem5_excess_of_long_double_sigma_is_float64() -> None:
    """Numbers in, float64 out (R3) even for an extended-precision Σ."""
    sig = [F(2), F(1, 3), F(5, 4)]
    a = [F(1), F(-1, 2), F(2)]
    S = np.diag([np.longdouble(x.numerator) / x.denominator for x in sig])
    got = theorem5_excess(_np(_LAM), _N, _M, S, [float(x) for x in a])
    assert type(got) in (float, np.float64)
    assert got == pytest.approx(float(_excess(sig, a)), rel=FLOAT_RTOL)
