"""Checks the mutation triage of issue 35 asked for in [zfb24]'s §5 flow module (session 13):
the backend choice for mixed SymPy/numpy inputs and exact values at generic points."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
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


def test_reduced_loss_grad_fn_uses_the_given_gamma() -> None:
    """Lemma 15's gradients with a replaced Γ: d = 1, λ = 2, Γ = 5 (not Γ(λ, N=4) = 3),
    U₁₁ = ½, u₋₁ = 3/2: A = ΓλUλ = 10, ∂_U = u²A − uλ² = 45/2 − 6 = 33/2 and
    ∂_u = uAU − λ²U = 15/2 − 2 = 11/2 (by hand)."""
    gU, gu = T.reduced_loss_grad_fn([[0.5]], 1.5, [[2.0]], 4, Gamma=[[5.0]])
    assert gU.tolist() == [[16.5]]
    assert gu == 5.5


def test_reduced_loss_grad_fn_integer_lambda_does_not_overflow() -> None:
    """Λ = λI₂ with integer λ = 2³², N = 3 (Γ = 2λI), U₁₁ = 2⁻³³I = Γ⁻¹, u₋₁ = 2:
    A = ΓΛUΛ = λ²I, ∂_U = u²A − uΛ² = 2λ²I = 2⁶⁵I and ∂_u = tr(uAUᵀ − Λ²Uᵀ) = 2·λ²·2⁻³³ = 2³²
    (by hand, exact in float64).  Integer arithmetic would wrap Λ² = 2⁶⁴I to 0 (∂_U = 2⁶⁶I)."""
    lam_int = [[LAM_BIG, 0], [0, LAM_BIG]]
    gU, gu = T.reduced_loss_grad_fn(np.eye(2) / 2**33, 2.0, lam_int, 3)
    np.testing.assert_array_equal(gU, 2.0**65 * np.eye(2))
    assert gu == 2.0**32


def test_reduced_loss_grad_fn_returns_float64_for_exact_entries() -> None:
    """The numpy twin returns a float64 ∂_U (its documented type) for exact-entries U₁₁ or Γ,
    equal to the float64 inputs' value bit for bit."""
    L = np.array([[2.0, 1.0], [1.0, 3.0]])
    U_frac = [[Fraction(x, 3) for x in row] for row in ([1, -2], [3, 1])]
    U_float = np.array([[1, -2], [3, 1]], dtype=float) / 3
    G_frac = [[Fraction(5), Fraction(1)], [Fraction(1), Fraction(4)]]
    G_float = np.array([[5.0, 1.0], [1.0, 4.0]])
    for U, G, G_ref in ((U_frac, None, None), (U_float, G_frac, G_float)):
        gU, gu = T.reduced_loss_grad_fn(U, 1.5, L, 4, Gamma=G)
        assert gU.dtype == np.float64
        want_U, want_u = T.reduced_loss_grad_fn(U_float, 1.5, L, 4, Gamma=G_ref)
        np.testing.assert_array_equal(gU, want_U)
        assert gu == want_u


def test_excess_identity_converts_exact_u11_to_float64_first() -> None:
    """Corollary 16's ½‖Γ^{1/2}(u₋₁Λ^{1/2}U₁₁Λ^{1/2} − ΛΓ⁻¹)‖_F² at Λ = [[2, 1], [1, 3]], N = 4,
    U₁₁ = [[1, −2], [3, 1]]/3, u₋₁ = 7/10: an exact-entries U₁₁ gives the float64 array's value
    bit for bit, and it is ℓ̃ − min ℓ̃ = 143699/15840 (exact SymPy route: ℓ̃ of eq. (28) minus
    L* − ½trΛ)."""
    L = np.array([[2.0, 1.0], [1.0, 3.0]])
    U_frac = [[Fraction(x, 3) for x in row] for row in ([1, -2], [3, 1])]
    U_float = np.array([[1, -2], [3, 1]], dtype=float) / 3
    got = T.excess_identity(U_frac, 0.7, L, 4)
    assert got == T.excess_identity(U_float, 0.7, L, 4)
    Ls, Us = sp.Matrix([[2, 1], [1, 3]]), sp.Matrix([[1, -2], [3, 1]]) / 3
    exact = T.reduced_loss(Us, R(7, 10), Ls, 4) - T.optimal_loss(Ls, 4) + Ls.trace() / 2
    assert sp.simplify(exact - R(143699, 15840)) == 0
    assert abs(got - 143699 / 15840) <= FLOAT_RTOL * got


def test_optimal_loss_fn_integer_lambda_does_not_overflow() -> None:
    """Corollary 16 at Λ = λI₂, integer λ = 2³², N = 3 (Γ = 2λI): L* = ½[trΛ − tr(Λ²Γ⁻¹)]
    = ½[2λ − λ] = 2³¹ (by hand, exact in float64); integer Λ² would wrap to 0 and give λ."""
    assert T.optimal_loss_fn([[LAM_BIG, 0], [0, LAM_BIG]], 3) == 2**31


def test_reduced_loss_uses_the_given_gamma() -> None:
    """eq. (28) with a replaced Γ: d = 1, λ = 2, Γ = 5 (not Γ(λ, N=4) = 3), U₁₁ = ½, u₋₁ = 3/2:
    ℓ̃ = ½u²ΓλUλU − uλ²U = 45/8 − 3 = 21/8 (by hand); numeric and exact."""
    assert float(T.reduced_loss([[0.5]], 1.5, [[2.0]], 4, Gamma=[[5.0]])) == 21 / 8
    got = T.reduced_loss(sp.Matrix([[R(1, 2)]]), R(3, 2), sp.Matrix([[2]]), 4, Gamma=[[5]])
    assert got == R(21, 8)


def test_reduced_loss_fn_integer_lambda_and_given_gamma() -> None:
    """eq. (28) by hand.  (i) Λ = λI₂, integer λ = 2³², N = 3 (Γ = 2λI), U₁₁ = 2⁻³³I = Γ⁻¹,
    u₋₁ = 1: ℓ̃ = 2[½·2λ³·2⁻⁶⁶ − λ²·2⁻³³] = 2[2³⁰ − 2³¹] = −2³¹ = L* − ½trΛ (exact in
    float64; integer Λ² would wrap to 0).  (ii) d = 1, λ = 2, a given Γ = 5 (not Γ(λ, 4) = 3),
    U₁₁ = ½, u₋₁ = 3/2: ℓ̃ = ½u²ΓλUλU − uλ²U = 45/8 − 3 = 21/8."""
    assert T.reduced_loss_fn(np.eye(2) / 2**33, 1.0, [[LAM_BIG, 0], [0, LAM_BIG]], 3) == -(2**31)
    assert T.reduced_loss_fn([[0.5]], 1.5, [[2.0]], 4, Gamma=[[5.0]]) == 21 / 8


def test_reduced_loss_fn_converts_exact_entries_to_float64_first() -> None:
    """An exact-entries U₁₁ (at N = 5) or Γ (Fractions) gives the float64 arrays' value of ℓ̃,
    bit for bit, at Λ = [[2, 1], [1, 3]], U₁₁ = [[1, −2], [3, 1]]/3, u₋₁ = 3/2."""
    L = np.array([[2.0, 1.0], [1.0, 3.0]])
    U_frac = [[Fraction(x, 3) for x in row] for row in ([1, -2], [3, 1])]
    U_float = np.array([[1, -2], [3, 1]], dtype=float) / 3
    assert T.reduced_loss_fn(U_frac, 1.5, L, 5) == T.reduced_loss_fn(U_float, 1.5, L, 5)
    G_frac = [[Fraction(5, 3), Fraction(1, 3)], [Fraction(1, 3), Fraction(4, 3)]]
    G_float = np.array([[5.0, 1.0], [1.0, 4.0]]) / 3
    got = T.reduced_loss_fn(U_float, 1.5, L, 5, Gamma=G_frac)
    assert got == T.reduced_loss_fn(U_float, 1.5, L, 5, Gamma=G_float)


def test_optimal_loss_uses_the_given_gamma() -> None:
    """Corollary 16's L* = ½[trΛ − tr(Λ²Γ⁻¹)] with a replaced Γ: d = 1, λ = 2, Γ = 5 (not
    Γ(λ, N=4) = 3): ½[2 − 4/5] = 3/5 (by hand); numeric and exact."""
    assert float(T.optimal_loss([[2.0]], 4, Gamma=[[5.0]])) == 0.6
    assert T.optimal_loss(sp.Matrix([[2]]), 4, Gamma=[[5]]) == R(3, 5)


# ------------------------------------------------- defects fixed in session 13 (helper z2)
def test_flow_rhs_fn_integer_inputs_give_float64_without_overflow() -> None:
    """Defect (fixed): ``flow_rhs_fn`` did integer arithmetic on integer arrays, returning an
    int64 U̇₁₁ (documented float64) and wrapping Λ² silently.  Lemma 10 by hand at Λ = λI₂,
    λ = 2³², Γ = 2λI (= Γ(Λ, N=3)), U₁₁ = 2⁻³³I, u₋₁ = 2: A = ΓΛUΛ = λ²I,
    U̇₁₁ = −u²A + uΛ² = −2λ²I = −2⁶⁵I and u̇₋₁ = −tr(uAUᵀ − Λ²Uᵀ) = −2·λ²·2⁻³³ = −2³²."""
    lam = np.array([[LAM_BIG, 0], [0, LAM_BIG]])
    dU, du = T.flow_rhs_fn(np.eye(2) / 2**33, 2, lam, 2 * lam)
    assert dU.dtype == np.float64
    np.testing.assert_array_equal(dU, -(2.0**65) * np.eye(2))
    assert du == -(2.0**32)
    # small integers: d = 1, λ = 2, Γ = 5, U₁₁ = 1, u₋₁ = 1: U̇ = −20 + 4, u̇ = −(20 − 4)
    dU, du = T.flow_rhs_fn(np.array([[1]]), 1, np.array([[2]]), np.array([[5]]))
    assert dU.dtype == np.float64
    assert dU.tolist() == [[-16.0]]
    assert du == -16.0


def test_reduced_loss_grad_fn_exact_u_gives_float64() -> None:
    """Defect (fixed): an exact u₋₁ (Fraction, SymPy Rational) made ∂_U an object array; the
    numpy twin now reads u₋₁ as a float: the float64 value of u₋₁ = 3/2, bit for bit."""
    L = np.array([[2.0, 1.0], [1.0, 3.0]])
    U = np.array([[1.0, -2.0], [3.0, 1.0]]) / 3
    want_U, want_u = T.reduced_loss_grad_fn(U, 1.5, L, 4)
    for u in (Fraction(3, 2), R(3, 2)):
        gU, gu = T.reduced_loss_grad_fn(U, u, L, 4)
        assert gU.dtype == np.float64
        np.testing.assert_array_equal(gU, want_U)
        assert gu == want_u


_VARIANT_MSG = (
    r"^variant must be one of \('paper', 'symmetrised', 'transposed'\), got 'symetrised'$"
)


def test_flow_rhs_fn_refuses_an_unknown_variant() -> None:
    """Defect (fixed): ``flow_rhs_fn`` (and so ``numerics.zfb24.ode.integrate_flow``, which
    validates through it) ran a misspelt variant silently as "paper"; it now refuses it with
    :func:`flow_rhs`'s message."""
    with pytest.raises(ValueError, match=_VARIANT_MSG):
        T.flow_rhs_fn(np.eye(2), 1.0, np.eye(2), 3 * np.eye(2), variant="symetrised")


def test_flow_rhs_names_the_variant_and_the_choices() -> None:
    """Lemma 10's flow refuses a misspelt variant with a message naming the parameter, the
    choices and the value, whole."""
    with pytest.raises(ValueError, match=_VARIANT_MSG):
        T.flow_rhs(np.eye(2), 1.0, np.eye(2), 3, variant="symetrised")
