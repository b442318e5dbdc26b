"""Mutation triage of issue 35 (session 13, helper z5): [zfb24]'s Γ (Theorem 4 / Lemma 10), its
label-noise extension Γ_s and Assumption 3's initial state at a generic (non-diagonal) point,
pinned against exact hand arithmetic; exact (Fraction) input gives float64, one SymPy argument
gives the exact SymPy matrix, round-off asymmetry in Λ is repaired."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from numerics.testing import FLOAT_RTOL
from theory.zfb24.sec3_training import (
    gamma,
    gamma_fn,
    gamma_noisy,
    gamma_noisy_fn,
    initial_state,
)

L_INT = np.array([[2, 1, 0], [1, 3, 1], [0, 1, 4]])  # symmetric positive definite, tr Λ = 9
N = 5
# Γ = (1 + 1/N)Λ + (tr Λ/N) I = (6/5)Λ + (9/5) I, by hand:
G_HAND = [
    [Fraction(6, 5) * int(v) + (Fraction(9, 5) if i == j else 0) for j, v in enumerate(row)]
    for i, row in enumerate(L_INT)
]
S2 = Fraction(1, 3)
GS_HAND = [
    [v + (S2 / N if i == j else 0) for j, v in enumerate(row)] for i, row in enumerate(G_HAND)
]
L_FR = [[Fraction(int(v)) for v in row] for row in L_INT]


def _f(A: list[list[Fraction]]) -> np.ndarray:
    return np.array([[float(v) for v in row] for row in A])


def _sp(A: list[list[Fraction]]) -> sp.Matrix:
    return sp.Matrix([[sp.Rational(v.numerator, v.denominator) for v in row] for row in A])


def test_gamma_pinned_float64_for_integer_and_fraction_input() -> None:
    want = _f(G_HAND)
    for L in (L_INT, L_INT.astype(float), L_FR):
        for fn in (gamma, gamma_fn):
            got = fn(L, N)
            assert isinstance(got, np.ndarray) and got.dtype == np.float64, (fn, got.dtype)
            np.testing.assert_allclose(got, want, rtol=FLOAT_RTOL)


def test_gamma_noisy_pinned_float64_for_integer_and_fraction_input() -> None:
    want = _f(GS_HAND)
    for L in (L_INT, L_INT.astype(float), L_FR):
        for fn in (gamma_noisy, gamma_noisy_fn):
            got = fn(L, N, 1 / 3)
            assert isinstance(got, np.ndarray) and got.dtype == np.float64, (fn, got.dtype)
            np.testing.assert_allclose(got, want, rtol=FLOAT_RTOL)


def test_gamma_one_sympy_argument_is_exact() -> None:
    """Λ or N SymPy (either one): the exact Γ and Γ_s (s² = 1/3 exact on the SymPy route)."""
    s2 = sp.Rational(1, 3)
    for L, n in ((sp.Matrix(L_INT), N), (L_INT, sp.Integer(N)), (sp.Matrix(L_INT), sp.Integer(N))):
        got = gamma(L, n)
        assert isinstance(got, sp.MatrixBase), type(got)
        assert got == _sp(G_HAND)
        got_s = gamma_noisy(L, n, s2)
        assert isinstance(got_s, sp.MatrixBase), type(got_s)
        assert got_s == _sp(GS_HAND)


def test_gamma_repairs_round_off_asymmetry() -> None:
    """A Λ asymmetric by round-off (accepted by the validator) is symmetrised: Γ and Γ_s come out
    exactly symmetric."""
    La = L_INT.astype(float)
    La[0, 1] += 1e-14
    for G in (gamma(La, N), gamma_noisy(La, N, 0.5)):
        assert np.array_equal(G, G.T)
        np.testing.assert_allclose(G, G.T, rtol=0.0, atol=0.0)


def test_initial_state_pinned_at_a_generic_theta() -> None:
    """Θ = Θ₀/√‖Θ₀Θ₀ᵀ‖_F with Θ₀ = [[1, 2], [0, 1]]: Θ₀Θ₀ᵀ = [[5, 2], [2, 1]], ‖·‖_F = √34, so
    U₁₁(0) = σ[[5, 2], [2, 1]]/√34 and u₋₁(0) = σ."""
    T0 = np.array([[1.0, 2.0], [0.0, 1.0]])
    sigma = 0.7
    U0, u0 = initial_state(T0 / 34**0.25, sigma)
    np.testing.assert_allclose(
        U0, sigma * np.array([[5.0, 2.0], [2.0, 1.0]]) / math.sqrt(34), rtol=FLOAT_RTOL
    )
    assert u0 == sigma and type(u0) is float


def test_initial_state_exact_theta_and_norm_message() -> None:
    """An exact rational Θ = [[3/5, 4/5], [0, 0]] (ΘΘᵀ = diag(1, 0)) gives float64 U₁₁(0) = σ
    diag(1, 0); ‖ΘΘᵀ‖_F ≠ 1 is refused with the value, within 1e-10 accepted."""
    Th = [[Fraction(3, 5), Fraction(4, 5)], [Fraction(0), Fraction(0)]]
    U0, u0 = initial_state(Th, 2)
    assert U0.dtype == np.float64 and U0.tolist() == [[2.0, 0.0], [0.0, 0.0]]
    assert u0 == 2.0 and type(u0) is float
    with pytest.raises(ValueError, match=r"^‖ΘΘᵀ‖_F must be 1 \(Assumption 3\), got 1\.41421$"):
        initial_state(np.eye(2), 0.3)
    with pytest.raises(ValueError, match=r"^‖ΘΘᵀ‖_F must be 1 \(Assumption 3\), got 0\.5$"):
        initial_state(np.diag([0.5**0.5, 0.0]), 0.3)
    ok, _ = initial_state(np.diag([(1 + 5e-11) ** 0.5, 0.0]), 1.0)
    assert ok[0, 0] == pytest.approx(1 + 5e-11, rel=FLOAT_RTOL)
    with pytest.raises(ValueError, match=r"^‖ΘΘᵀ‖_F must be 1 \(Assumption 3\), got 1$"):
        initial_state(np.diag([(1 + 3e-10) ** 0.5, 0.0]), 1.0)


def _risk_by_hand(P: list, Lp: list, Sq: list, M: int) -> Fraction:
    """The [derived] shift risk with Ω = I, by exact sums: tr[(Λ'P − I)S_q(Λ'P − I)ᵀ]
    + [tr(Λ'AΛ') + tr(AΛ')tr Λ']/M, A = P S_q Pᵀ."""

    def mm(A: list, B: list) -> list:
        return [[sum(A[i][k] * B[k][j] for k in range(2)) for j in range(2)] for i in range(2)]

    def tr(A: list) -> Fraction:
        return A[0][0] + A[1][1]

    def t(A: list) -> list:
        return [[A[j][i] for j in range(2)] for i in range(2)]

    B = mm(Lp, P)
    B = [[B[i][j] - (1 if i == j else 0) for j in range(2)] for i in range(2)]
    A = mm(mm(P, Sq), t(P))
    return tr(mm(mm(B, Sq), t(B))) + (tr(mm(mm(Lp, A), Lp)) + tr(mm(A, Lp)) * tr(Lp)) / M


def test_shift_risk_takes_lambda_test_as_given() -> None:
    """Λ' is taken as given (``as_Lambda(..., spd=False)``): with a round-off asymmetry of 1e-10
    (accepted by the PSD validator) and a non-symmetric P, the risk is the formula at that Λ', not
    at its symmetric part (the two differ by ~1e-11 relative, above FLOAT_RTOL)."""
    from theory.zfb24 import shift_risk

    P = np.array([[0.6, 0.3], [-0.1, 0.8]])
    Lp = np.array([[2.0, 0.5 + 1e-10], [0.5, 1.0]])
    Sq = np.array([[1.5, 0.2], [0.2, 0.7]])
    Fr = [[[Fraction(float(v)) for v in row] for row in A] for A in (P, Lp, Sq)]
    want = _risk_by_hand(Fr[0], Fr[1], Fr[2], 5)
    Ls = [[(Fr[1][i][j] + Fr[1][j][i]) / 2 for j in range(2)] for i in range(2)]
    sym = _risk_by_hand(Fr[0], Ls, Fr[2], 5)
    assert abs(sym - want) > 10 * FLOAT_RTOL * abs(want)  # the asymmetry matters here
    assert shift_risk(P, Lp, Sq, 5) == pytest.approx(float(want), rel=FLOAT_RTOL)
