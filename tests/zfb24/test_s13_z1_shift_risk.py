"""Checks the mutation triage of issue 35 asked for in [zfb24] §4.2 (session 13, helper z1):
the exact shifted risk :func:`shift_risk` with one SymPy argument among plain numbers (the backend
dispatch reads all five), at a non-symmetric P and a non-identity task covariance Ω, and its
numeric path in float64 whatever the float width of the input.

Expected values: the derivation of docs/papers/zfb24.md (read-out ŷ = ĝᵀPx_q, ĝ = (1/M)Σyᵢxᵢ),
evaluated in exact Fraction arithmetic in its split form: with D = PᵀΛ' − I and C = PS_qPᵀ,
``R = tr(DᵀS_qDΩ) + [tr(Λ'CΛ'Ω) + tr(CΛ')tr(Λ'Ω)]/M``.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction as F

import numpy as np
import pytest
import sympy as sp

from numerics.testing import FLOAT_RTOL
from theory.zfb24 import shift_risk, shift_risk_fn

# d = 2, generic: non-symmetric P, correlated Λ', S_q and Ω, M = 5
_P = [[1, 2], [-1, 3]]
_LP = [[2, 1], [1, 3]]
_SQ = [[2, -1], [-1, 3]]
_OM = [[1, 1], [1, 2]]
_M = 5


def _fr(A: list) -> np.ndarray:
    return np.array([[F(x) for x in row] for row in A], dtype=object)


def _risk_exact(P: list, Lp: list, Sq: list, M: int, Om: list) -> F:
    P_, L_, S_, O_ = _fr(P), _fr(Lp), _fr(Sq), _fr(Om)
    D = P_.T @ L_ - _fr([[1, 0], [0, 1]])
    C = P_ @ S_ @ P_.T
    bias = np.trace(D.T @ S_ @ D @ O_)
    var = np.trace(L_ @ C @ L_ @ O_) + np.trace(C @ L_) * np.trace(L_ @ O_)
    return bias + var / M


_WANT = _risk_exact(_P, _LP, _SQ, _M, _OM)


@pytest.mark.parametrize("which", ["P", "Lambda_test", "S_q", "M", "Omega"])
def test_shift_risk_one_sympy_argument_is_exact(which: str) -> None:
    """One SymPy argument among integer numpy arrays (and an int M): an exact SymPy result."""
    args = {
        "P": np.array(_P),
        "Lambda_test": np.array(_LP),
        "S_q": np.array(_SQ),
        "M": _M,
        "Omega": np.array(_OM),
    }
    args[which] = sp.Integer(_M) if which == "M" else sp.Matrix(args[which])
    got = shift_risk(**args)
    assert isinstance(got, sp.Basic)
    assert got == sp.Rational(_WANT.numerator, _WANT.denominator)


def test_shift_risk_of_float32_input_is_float64() -> None:
    """float32 P, Λ', S_q, Ω (e.g. a float32 model's P): computed in float64, not float32.
    Defect fixed in session 13: P S_q Pᵀ was formed in float32 (relative error ~1e-8)."""
    vals = [
        np.array([[0.61, 0.13], [-0.27, 0.43]], dtype=np.float32),
        np.array([[1.1, 0.3], [0.3, 1.7]], dtype=np.float32),
        np.array([[0.9, -0.2], [-0.2, 1.3]], dtype=np.float32),
        np.array([[0.7, 0.1], [0.1, 0.5]], dtype=np.float32),
    ]
    P, Lp, Sq, Om = vals
    P_, L_, S_, O_ = ([[F(float(x)) for x in r] for r in A] for A in vals)
    want = float(_risk_exact(P_, L_, S_, 7, O_))
    for f in (shift_risk, shift_risk_fn):
        got = f(P, Lp, Sq, 7, Om)
        assert isinstance(got, float)
        assert got == pytest.approx(want, rel=FLOAT_RTOL)


@pytest.mark.parametrize("which", ["P", "Lambda_test", "S_q", "Omega"])
def test_shift_risk_fn_of_decimal_entries_is_float64(which: str) -> None:
    """The numpy twin converts exact Decimal entries (which do not mix with floats in an object
    array) to float64 in every matrix argument."""
    args: dict = {
        "P": np.array(_P, dtype=float),
        "Lambda_test": np.array(_LP, dtype=float),
        "S_q": np.array(_SQ, dtype=float),
        "M": _M,
        "Omega": np.array(_OM, dtype=float),
    }
    args[which] = [[Decimal(x) for x in row] for row in args[which].astype(int).tolist()]
    got = shift_risk_fn(**args)
    assert isinstance(got, float)
    assert got == pytest.approx(float(_WANT), rel=FLOAT_RTOL)
