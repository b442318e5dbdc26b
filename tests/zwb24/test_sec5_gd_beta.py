"""zwb24 §5 (GD-β): the batched eigen form of R*, Lemma 5.1's width messages, and the symbolic
per-direction columns' lengths (mutation triage, issue 35); Lemma 5.1's weights for a uint8 β, a
complex Γ and a wrong-size SymPy Γ, R* of large integer and of Rational eigenvalues, and the
symbolic R*'s simplified form (session 11)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

import theory.zwb24 as T
from numerics.testing import FLOAT_RTOL, ROUTES_RTOL, SYMBOLIC_RTOL


@pytest.mark.float
@pytest.mark.result("zwb24:thm5.2")
def test_optimal_risk_eig_batched_is_row_by_row() -> None:
    """``lams`` batched over leading axes (documented): a (3, 2) and a (2, 3, 2) stack of
    eigenvalue lists give, entry by entry, R* of each list alone; the sum over directions is over
    the last axis (a sum over the stack's first axis, or ``c`` without its kept axis, would mix
    the rows).  Shapes 3 ≠ 2 so no axis is mistaken for another."""
    lams = np.array([[0.5, 0.8], [1.3, 0.2], [0.05, 2.4]])
    s2, N = 0.25, 7
    r = T.optimal_risk_eig(lams, s2, N)
    assert isinstance(r, np.ndarray) and r.shape == (3,)
    rows = [T.optimal_risk_eig(row, s2, N) for row in lams]
    assert all(isinstance(x, float) for x in rows)
    np.testing.assert_allclose(r, rows, rtol=ROUTES_RTOL, atol=0)
    stack = np.stack([lams, lams[::-1] * 1.7])
    r2 = T.optimal_risk_eig(stack, s2, N)
    assert r2.shape == (2, 3)
    np.testing.assert_allclose(
        r2[1], [T.optimal_risk_eig(x, s2, N) for x in stack[1]], rtol=ROUTES_RTOL
    )


@pytest.mark.float
@pytest.mark.result("zwb24:thm5.2")
def test_optimal_risk_eig_checks_omega_row_by_row() -> None:
    """Ω must be invertible in every row of a batch: one row with Σλ_i + σ² = 0 among rows
    where it is positive is rejected with the exact message (not a NaN in that row)."""
    with pytest.raises(ValueError) as err:
        T.optimal_risk_eig(np.array([[0.0, 0.0], [1.0, 0.5]]), 0.0, 5)
    assert str(err.value) == (
        "sum(lams) + sigma2 must be > 0 (zwb24 Thm 5.2: Omega invertible), got sum(lams)=0, "
        "sigma2=0"
    )


@pytest.mark.float
@pytest.mark.result("zwb24:lem5.1")
@pytest.mark.parametrize(
    ("width", "message"), [("v", "v must be ≥ 1, got 0"), ("m", "m must be ≥ 1, got 0")]
)
def test_lemma51_value_and_mlp_widths_are_validated_by_name(width: str, message: str) -> None:
    """A value width v or MLP width m below 1 is rejected, naming the width (exact message)."""
    with pytest.raises(ValueError) as err:
        T.lemma51_weights([[0.5, 0.0], [0.0, 1.0]], [1.0, 2.0], **{width: 0})
    assert str(err.value) == message
    w = T.lemma51_weights([[0.5, 0.0], [0.0, 1.0]], [1.0, 2.0], **{width: 1})
    assert w["W_V" if width == "v" else "W_1"].shape == (1, 3)


@pytest.mark.symbolic
@pytest.mark.result("zwb24:thm4.1")
def test_symbolic_eigen_columns_of_unequal_length_are_rejected() -> None:
    """The symbolic eigen forms pair the columns direction by direction (``per_direction``);
    @checked cannot compare a symbolic list's length, so λ of length 2 with μ̄ of length 3 must
    raise, not drop μ̄'s third coordinate (the numeric call is rejected by @checked)."""
    lam = sp.Symbol("lambda", positive=True)
    with pytest.raises(ValueError, match="zip"):
        T.gap_upper_bound_eig([lam, 0.5], [0.8, -0.5, 0.3], 0.25, 7)
    with pytest.raises(ValueError, match="mu_coords has size 3 along d but lams has size 2"):
        T.gap_upper_bound_eig([0.7, 0.5], [0.8, -0.5, 0.3], 0.25, 7)
    U = T.gap_upper_bound_eig([lam, 0.5], [0.8, -0.5], 0.25, 7)
    assert np.isclose(
        float(U.subs(lam, 0.7)), T.gap_upper_bound_eig([0.7, 0.5], [0.8, -0.5], 0.25, 7)
    )


@pytest.mark.symbolic
@pytest.mark.result("zwb24:thm5.2")
def test_a_sympy_task_covariance_alone_takes_the_symbolic_branch() -> None:
    """Ψ (Ψ̄) a SymPy matrix with a symbol x (H, σ², N numbers): Γ*, R*, Ω and Γ̄* come back
    symbolic and equal the numeric values at x = 0.37 (a generic point)."""
    x = sp.Symbol("x")
    H, s2, N = [[1.0, 0.3], [0.3, 2.0]], 0.25, 7
    Psi = sp.Matrix([[0.5, x], [x, 0.8]])
    Pn = [[0.5, 0.37], [0.37, 0.8]]
    G = T.optimal_gamma(H, Psi, s2, N)
    assert isinstance(G, sp.MatrixBase) and x in G.free_symbols
    np.testing.assert_allclose(
        np.array(G.subs(x, 0.37).evalf(), dtype=float),
        T.optimal_gamma(H, Pn, s2, N),
        rtol=SYMBOLIC_RTOL,
    )
    R = T.optimal_risk(H, Psi, s2, N)
    assert isinstance(R, sp.Basic) and x in R.free_symbols
    assert float(R.subs(x, 0.37)) == pytest.approx(T.optimal_risk(H, Pn, s2, N), rel=1e-9)
    for f in (T.omega, T.optimal_gamma_whitened):  # Ψ̄ alone symbolic
        M = f(Psi, s2, N)
        assert isinstance(M, sp.MatrixBase) and x in M.free_symbols, f.__name__
        got = np.array(M.subs(x, 0.37).evalf(), dtype=float)
        np.testing.assert_allclose(got, f(Pn, s2, N), rtol=SYMBOLIC_RTOL, err_msg=f.__name__)


@pytest.mark.float
@pytest.mark.result("zwb24:thm5.2")
def test_optimal_gamma_without_the_finite_sample_factor_is_the_declared_fault() -> None:
    """``finite_sample_factor=False`` (the negative controls' wrong Γ) is Theorem 5.2's Γ* with
    (N+1)/N replaced by 1 and nothing else: for H, Ψ ≻ 0, ``(H + (c/N)Ψ⁻¹)⁻¹`` with
    ``c = tr(HΨ) + σ²``, at a generic point (σ² ≠ 0, N ≠ 1)."""
    H = np.array([[1.0, 0.3], [0.3, 2.0]])
    Psi = np.array([[0.5, 0.1], [0.1, 0.8]])
    s2, N = 0.3, 7
    c = np.trace(H @ Psi) + s2
    want = np.linalg.inv(H + (c / N) * np.linalg.inv(Psi))
    got = T.optimal_gamma(H, Psi, s2, N, finite_sample_factor=False)
    np.testing.assert_allclose(got, want, rtol=FLOAT_RTOL)
    right = np.linalg.inv((N + 1) / N * H + (c / N) * np.linalg.inv(Psi))
    np.testing.assert_allclose(T.optimal_gamma(H, Psi, s2, N), right, rtol=FLOAT_RTOL)


@pytest.mark.float
@pytest.mark.result("zwb24:lem5.1")
def test_lemma51_weights_of_an_unsigned_integer_beta() -> None:
    """β given as a ``uint8`` array (a finite real vector, accepted by @checked): the weights are
    Lemma 5.1's matrices in floats, ``W_P W_V`` with last row ``(−βᵀ, 1)`` and ``W_2 W_1`` with
    last row ``(βᵀ, 0)``, ``W_Kᵀ W_Q = diag(Γᵀ, 0)``; negating β in ``uint8`` would wrap
    −3 to 253."""
    beta = np.array([3, 5], dtype=np.uint8)
    Gamma = [[0.5, 0.2], [-0.1, 0.4]]
    w = T.lemma51_weights(Gamma, beta)
    assert all(x.dtype == np.float64 for x in w.values())
    np.testing.assert_array_equal((w["W_P"] @ w["W_V"])[2], [-3.0, -5.0, 1.0])
    np.testing.assert_array_equal((w["W_2"] @ w["W_1"])[2], [3.0, 5.0, 0.0])
    np.testing.assert_array_equal((w["W_K"].T @ w["W_Q"])[:2, :2], np.array(Gamma).T)


@pytest.mark.float
@pytest.mark.result("zwb24:lem5.1")
def test_lemma51_weights_refuse_a_complex_gamma() -> None:
    """@checked lets complex (complex-step) input through, but Lemma 5.1's weights are real
    arrays: a complex Γ must raise, not lose its imaginary part in the float ``W_Q``."""
    with pytest.raises(TypeError, match="complex"):
        T.lemma51_weights([[0.5 + 0.25j, 0.2], [-0.1, 0.4]], [3.0, 5.0])


@pytest.mark.float
@pytest.mark.result("zwb24:thm5.2")
def test_optimal_risk_eig_of_large_integer_eigenvalues() -> None:
    """Integer eigenvalues λ = (3u, 2u), u = 2^61 (int64 each, but Σλ = 5u ≥ 2^63): the sums are
    taken in floats, so R* = σ² + u (12/19 + 14/27) (by hand: c = 5u + σ², term λ(λ+c)/((N+1)λ+c)
    at N = 10); an int64 sum would wrap to a negative c and be rejected."""
    u = 2**61
    want = 0.25 + u * (12 / 19 + 14 / 27)
    assert T.optimal_risk_eig([3 * u, 2 * u], 0.25, 10) == pytest.approx(want, rel=FLOAT_RTOL)
    got = T.optimal_risk_eig(np.array([3 * u, 2 * u], dtype=np.int64), 0.25, 10)
    assert got == pytest.approx(want, rel=FLOAT_RTOL)


@pytest.mark.float
@pytest.mark.result("zwb24:thm5.2")
def test_optimal_risk_eig_of_a_numpy_array_of_rationals_is_a_float() -> None:
    """A numpy (object) array of exact SymPy Rationals is a numpy array, not a list of SymPy
    expressions: the numeric branch, a float.  λ = (1/2, 1/3), σ² = 1/4, N = 10: c = 13/12 and
    R* = 1/4 + 19/158 + 17/171 (by hand)."""
    lams = np.array([sp.Rational(1, 2), sp.Rational(1, 3)], dtype=object)
    r = T.optimal_risk_eig(lams, 0.25, 10)
    assert isinstance(r, float)
    assert r == pytest.approx(1 / 4 + 19 / 158 + 17 / 171, rel=FLOAT_RTOL)


@pytest.mark.symbolic
@pytest.mark.result("zwb24:thm5.2")
def test_symbolic_optimal_risk_is_returned_simplified() -> None:
    """Exact H, Ψ (generic, non-commuting) with symbols N, σ²: R* comes back as one simplified
    fraction (``sp.simplify`` leaves it unchanged), not the raw trace of a matrix inverse, and
    equals the eigen form σ² + Σ λ(λ+c)/((N+1)λ+c) over the exact eigenvalues of HΨ."""
    N, s2 = sp.symbols("N sigma2", positive=True)
    H = sp.Matrix([[2, 1], [1, 3]]) / 3
    Psi = sp.Matrix([[1, 0], [0, 2]]) / 2
    R = T.optimal_risk(H, Psi, s2, N)
    assert sp.simplify(R) == R
    A = H * Psi
    c = A.trace() + s2
    eig = sum(m * lam * (lam + c) / ((N + 1) * lam + c) for lam, m in A.eigenvals().items())
    assert sp.simplify(R - s2 - eig) == 0


@pytest.mark.symbolic
@pytest.mark.result("zwb24:lem5.1")
def test_lemma51_weights_reject_a_sympy_gamma_of_the_wrong_size() -> None:
    """A SymPy Γ passes @checked unchecked (its size is not compared with β's); a 3×3 Γ with a
    length-2 β is rejected by Lemma 5.1's own shape check, naming Γ, the shape it needs and the
    one it got."""
    with pytest.raises(ValueError, match=r"^Gamma must have shape \(2, 2\), got \(3, 3\)$"):
        T.lemma51_weights(sp.eye(3) / 2, [3.0, 5.0])
