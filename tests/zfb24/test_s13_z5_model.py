"""Mutation triage of issue 35 (session 13, helper z5): [zfb24]'s LSA read-out (§2, eqs. (3)-(6))
and Lemma 9's quadratic form at a generic point, pinned against exact hand arithmetic
(Fractions, explicit sums), with exact (Fraction) and integer inputs giving float64 and one SymPy
argument, whichever it is, giving an exact SymPy result."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import numpy as np
import pytest
import sympy as sp

from numerics.testing import FLOAT_RTOL
from theory.zfb24.sec3_model import (
    U_from_weights,
    lsa_output,
    prediction_eq6,
    prediction_quadratic,
    vec,
)

# d = 2, N = 3: E = [[x_1 x_2 x_3 x_q], [y_1 y_2 y_3 0]] (integers), ρ = 3; generic weights.
E_INT = np.array([[1, 2, 0, 1], [0, 1, 3, -1], [2, -1, 1, 0]])
K_INT = np.array([[1, 2, -1], [0, 3, 1], [2, -2, 1]])
R_INT = np.array([[2, 0, 1], [1, 1, 0], [-1, 3, 2]])
RHO = 3
D, N1 = E_INT.shape
d = D - 1


def _fr(A: np.ndarray) -> list[list[Fraction]]:
    return [[Fraction(int(v)) for v in row] for row in A]


def _matmul(A: list[list[Fraction]], B: list[list[Fraction]]) -> list[list[Fraction]]:
    return [
        [sum((A[i][k] * B[k][j] for k in range(len(B))), Fraction(0)) for j in range(len(B[0]))]
        for i in range(len(A))
    ]


def _T(A: list[list[Fraction]]) -> list[list[Fraction]]:
    return [list(r) for r in zip(*A, strict=True)]


E_F, K_F, R_F = _fr(E_INT), _fr(K_INT), _fr(R_INT)
Z_F = [[v / RHO for v in row] for row in _matmul(E_F, _T(E_F))]  # E Eᵀ/ρ
XQ = [E_F[i][N1 - 1] for i in range(d)]


def _lsa_by_hand() -> list[list[Fraction]]:
    """Eq. (3)/(5): f(E) = E + W^{PV} E (Eᵀ W^{KQ} E)/ρ, by explicit sums."""
    inner = _matmul(_matmul(_T(E_F), K_F), E_F)
    upd = _matmul(_matmul(R_F, E_F), inner)
    return [[E_F[i][j] + upd[i][j] / RHO for j in range(N1)] for i in range(D)]


def _yhat_by_hand() -> Fraction:
    """Eq. (6): ŷ = Σ_{a,b,c} w^{PV}_{d+1,a} Z_{ab} K_{bc} (x_q)_c, c ≤ d."""
    return sum(
        (
            R_F[d][a] * Z_F[a][b] * K_F[b][c] * XQ[c]
            for a in range(D)
            for b in range(D)
            for c in range(d)
        ),
        Fraction(0),
    )


U_F = [[K_F[i][j] for j in range(d)] + [R_F[d][i]] for i in range(D)]  # Lemma 9's U by hand


def _quad_by_hand(U: list[list[Fraction]]) -> Fraction:
    """uᵀ(½ X⊗Z)u with u = Vec(U) column-major equals x_qᵀ (UᵀZU)[:d, d] (X's only entries are
    x_q in column and row d; UᵀZU is symmetric)."""
    M = _matmul(_matmul(_T(U), Z_F), U)
    return sum((XQ[i] * M[i][d] for i in range(d)), Fraction(0))


YHAT = _yhat_by_hand()


def test_by_hand_values_are_generic() -> None:
    """The fixtures are generic: ŷ ≠ 0, the row-major Vec gives another value, ρ ≠ 1."""
    assert YHAT == _quad_by_hand(U_F) and YHAT != 0
    assert _quad_by_hand(_T(U_F)) != YHAT


def test_u_from_weights_pinned_exact_and_mixed() -> None:
    """U = [W^{KQ}[:, :d], (last row of W^{PV})ᵀ]: pinned; integer and Fraction inputs give float64;
    one SymPy argument, either one, gives the exact SymPy U."""
    want = [[float(v) for v in row] for row in U_F]
    for K, R in (
        (K_INT, R_INT),
        (K_INT.astype(float), R_INT.astype(float)),
        (_fr(K_INT), R_INT.astype(float)),
        (K_INT.astype(float), _fr(R_INT)),
    ):
        got = U_from_weights(K, R)
        assert isinstance(got, np.ndarray) and got.dtype == np.float64, got.dtype
        assert got.tolist() == want
    for K, R in ((sp.Matrix(K_INT), R_INT), (K_INT, sp.Matrix(R_INT))):
        got = U_from_weights(K, R)
        assert isinstance(got, sp.MatrixBase), type(got)
        assert got == sp.Matrix(U_F)


def test_vec_order_message_whole() -> None:
    with pytest.raises(ValueError, match=r"^order must be one of \('column', 'row'\), got 'diag'$"):
        vec([[1.0, 2.0], [3.0, 4.0]], order="diag")


def test_vec_pinned_numeric_exact_and_symbolic() -> None:
    """Vec stacks the columns (default) or the rows, as float64 for integer and Fraction input,
    as an exact SymPy column for SymPy input."""
    U = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    col, row = [1, 4, 7, 2, 5, 8, 3, 6, 9], [1, 2, 3, 4, 5, 6, 7, 8, 9]
    for Uin in (np.array(U), [[Fraction(v) for v in r] for r in U]):
        got = vec(Uin)
        assert got.dtype == np.float64 and got.shape == (9,) and got.tolist() == col
        got_r = vec(Uin, order="row")
        assert got_r.dtype == np.float64 and got_r.tolist() == row
    a = sp.symbols("a0:9")
    S = sp.Matrix(3, 3, a)
    assert vec(S) == sp.Matrix([a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]])
    assert vec(S, order="row") == sp.Matrix(a)
    assert vec(S).shape == (9, 1)


def test_prediction_quadratic_pinned_both_orders() -> None:
    """Lemma 9: uᵀHu pinned to the hand value (column Vec); the row Vec gives the hand value of
    Uᵀ."""
    U = np.array(U_F, dtype=float)
    got = prediction_quadratic(U, E_INT, RHO)
    assert isinstance(got, float)
    assert got == pytest.approx(float(YHAT), rel=FLOAT_RTOL)
    got_row = prediction_quadratic(U, E_INT, RHO, order="row")
    assert got_row == pytest.approx(float(_quad_by_hand(_T(U_F))), rel=FLOAT_RTOL)


def test_prediction_quadratic_one_sympy_argument_is_sympy() -> None:
    """One SymPy argument (U, E or ρ) gives a SymPy ŷ, both Vec orders (equal to the hand value up
    to rounding: the other arguments' u or H are float64); all three SymPy give the exact one."""
    U = np.array([[int(v) for v in row] for row in U_F])
    want = sp.Rational(YHAT.numerator, YHAT.denominator)
    Rt = _quad_by_hand(_T(U_F))
    want_row = sp.Rational(Rt.numerator, Rt.denominator)
    for args in (
        (sp.Matrix(U), E_INT, RHO),
        (U, sp.Matrix(E_INT), RHO),
        (U, E_INT, sp.Integer(RHO)),
    ):
        for order, w in (("column", want), ("row", want_row)):
            got = prediction_quadratic(*args, order=order)
            assert isinstance(got, sp.Basic), (args, type(got))
            assert float(cast(Any, got)) == pytest.approx(float(w), rel=FLOAT_RTOL)
    exact = (sp.Matrix(U), sp.Matrix(E_INT), sp.Integer(RHO))
    assert prediction_quadratic(*exact) == want
    assert prediction_quadratic(*exact, order="row") == want_row


def test_prediction_eq6_pinned_and_one_sympy_argument() -> None:
    """Eq. (6) at a generic point: float for numbers, the exact rational for one SymPy argument
    (whichever of E, W^{KQ}, W^{PV}, ρ)."""
    got = prediction_eq6(E_INT.astype(float), K_INT, R_INT, RHO)
    assert isinstance(got, float)
    assert got == pytest.approx(float(YHAT), rel=FLOAT_RTOL)
    want = sp.Rational(YHAT.numerator, YHAT.denominator)
    args = [E_INT, K_INT, R_INT, RHO]
    for i in range(4):
        a = list(args)
        a[i] = sp.Integer(RHO) if i == 3 else sp.Matrix(a[i])
        got = prediction_eq6(*a)
        assert isinstance(got, sp.Basic) and got == want, (i, got)


def test_lsa_output_pinned_and_one_sympy_argument() -> None:
    """Eq. (3)/(5): the whole output matrix pinned to the hand sums; its corner is ŷ; one SymPy
    argument gives the exact SymPy matrix."""
    want = _lsa_by_hand()
    assert want[d][N1 - 1] == YHAT
    got = lsa_output(E_INT.astype(float), K_INT, R_INT, RHO)
    np.testing.assert_allclose(got, np.array(want, dtype=float), rtol=FLOAT_RTOL)
    args = [E_INT, K_INT, R_INT, RHO]
    for i in range(4):
        a = list(args)
        a[i] = sp.Integer(RHO) if i == 3 else sp.Matrix(a[i])
        got = lsa_output(*a)
        assert isinstance(got, sp.MatrixBase), (i, type(got))
        assert got == sp.Matrix(want), i
