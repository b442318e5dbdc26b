"""czz24 §4.2 closed forms at generic points and on the inputs their docstrings admit: exact
(Fraction) entries, a label column n×1, a square context (n = d), and the refusals of
``minnorm_interpolator`` (mutation triage, session 11)."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from numerics.testing import FLOAT_RTOL, ROUTES_ATOL
from theory.czz24 import (
    alg1,
    alg1_kronecker_matrix,
    alg1_layer,
    gd_coefficient,
    gd_population,
    minnorm_interpolator,
    one_step_prediction,
    phi,
    pregd_flow,
    pregd_gram,
    pregd_limit,
    pregd_population,
    pregd_transformer,
    rhat,
)

#: a generic n ≥ d context (n = 3, d = 2) and its labels, as floats and as exact Fractions
X3 = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
Y3 = np.array([1.0, -0.5, 1.0])
X3_EXACT = [[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)], [Fraction(1), Fraction(1)]]
Y3_EXACT = [Fraction(1), Fraction(-1, 2), Fraction(1)]
#: OLS of (X3, Y3) by hand: XᵀX = [[2, 1], [1, 2]], Xᵀy = (2, 1/2), so ŵ = (7/6, −1/3)
OLS3 = np.array([7.0 / 6.0, -1.0 / 3.0])

#: a generic n < d context (n = 2, d = 3) with positive weights ω
X2 = np.array([[1.0, 2.0, 0.0], [0.5, -1.0, 2.0]])
Y2 = np.array([1.0, 2.0])
OM = np.array([0.5, 2.0, 1.5])


def _minnorm_by_kkt(X: np.ndarray, y: np.ndarray, om: np.ndarray) -> np.ndarray:
    """min Σ w_j²/ω_j s.t. Xw = y by its KKT system [[2Ω⁻¹, Xᵀ], [X, 0]] (an independent route)."""
    n, d = X.shape
    K = np.block([[2.0 * np.diag(1.0 / om), X.T], [X, np.zeros((n, n))]])
    return np.linalg.solve(K, np.concatenate([np.zeros(d), y]))[:d]


@pytest.mark.result("czz24:thm5.2")
def test_gd_population_matches_population_gd_steps_at_generic_sigma() -> None:
    # t steps of population GD from 0, w ← w + ηΣ(w* − w), at Σ_jj ∉ {0, 1}: the closed form
    # w*_j[1 − (1 − ηΣ_jj)^t] (a mutant η/Σ_jj would agree only at Σ_jj = 1)
    w_star, S, eta, t = np.array([1.0, -2.0, 0.5]), np.array([0.5, 2.0, 1.5]), 0.3, 3
    w = np.zeros(3)
    for _ in range(t):
        w = w + eta * S * (w_star - w)
    got = gd_population(w_star, S, eta, t)
    np.testing.assert_allclose(got, w, rtol=FLOAT_RTOL)
    # by hand at Σ_11 = 1/2: 1 − 0.85³ = 0.385875
    assert got[0] == pytest.approx(0.385875, rel=FLOAT_RTOL)


@pytest.mark.result("czz24:thm5.2")
def test_gd_population_of_exact_entries_is_float64() -> None:
    # a task vector or a diagonal of Σ with exact (Fraction) entries is computed in float64, as
    # the module documents: a float64 array (not an object array), the float values
    w_star, S = np.array([1.0, -2.0, 0.5]), np.array([0.5, 2.0, 1.5])
    want = gd_population(w_star, S, 0.3, 3)
    w_ex = [Fraction(1), Fraction(-2), Fraction(1, 2)]
    S_ex = [Fraction(1, 2), Fraction(2), Fraction(3, 2)]
    for w, s in ((w_ex, S), (w_star, S_ex), (w_ex, S_ex)):
        got = gd_population(w, s, 0.3, 3)
        assert got.dtype == np.float64
        np.testing.assert_allclose(got, want, rtol=FLOAT_RTOL)


@pytest.mark.result("czz24:eq4.3")
def test_minnorm_interpolator_of_a_square_context_is_the_solution() -> None:
    # n = d is in the domain (n ≤ d): X invertible, so every weighting gives X⁻¹y; by hand
    # X = [[2, 1], [1, 1]] (det 1), X⁻¹ = [[1, −1], [−1, 2]], y = (3, 2) → (1, 1)
    X, y = np.array([[2.0, 1.0], [1.0, 1.0]]), np.array([3.0, 2.0])
    for weights in (None, np.array([1.0, 3.0])):
        np.testing.assert_allclose(minnorm_interpolator(X, y, weights), [1.0, 1.0], rtol=FLOAT_RTOL)


@pytest.mark.result("czz24:eq4.3")
def test_minnorm_interpolator_at_a_generic_weighting() -> None:
    np.testing.assert_allclose(
        minnorm_interpolator(X2, Y2, OM), _minnorm_by_kkt(X2, Y2, OM), rtol=FLOAT_RTOL
    )


@pytest.mark.result("czz24:eq4.3")
def test_minnorm_interpolator_of_exact_labels_weights_or_a_label_column() -> None:
    # exact (Fraction) labels or weights are computed in float64; a label column n×1 (as a SymPy
    # or numpy column vector gives) is flattened: the (d,) interpolator
    want = _minnorm_by_kkt(X2, Y2, OM)
    y_ex, om_ex = [Fraction(1), Fraction(2)], [Fraction(1, 2), Fraction(2), Fraction(3, 2)]
    for y, om in ((y_ex, OM), (Y2, om_ex), (Y2[:, None], OM)):
        got = minnorm_interpolator(X2, y, om)
        assert got.dtype == np.float64
        assert got.shape == (3,)
        np.testing.assert_allclose(got, want, rtol=FLOAT_RTOL)


@pytest.mark.result("czz24:eq4.3")
@pytest.mark.parametrize(
    ("X", "y", "shapes"),
    [
        (X3, Y3, r"got X \(3, 2\) and y \(3,\)"),  # n > d: not an interpolation problem
        (X2, np.ones(3), r"got X \(2, 3\) and y \(3,\)"),  # n ≤ d, one label too many
        (np.ones(3), np.ones(1), r"got X \(3,\) and y \(1,\)"),  # X not a matrix
    ],
)
def test_minnorm_interpolator_refuses_non_interpolation_shapes(
    X: np.ndarray, y: np.ndarray, shapes: str
) -> None:
    with pytest.raises(ValueError, match=r"X must be n × d with n ≤ d and y of length n") as exc:
        minnorm_interpolator.raw(X, y)
    assert exc.match(shapes)


@pytest.mark.result("czz24:eq4.3")
def test_pregd_limit_n_ge_d_of_exact_entries_or_a_label_column_is_ols() -> None:
    # n ≥ d: the limit is OLS (7/6, −1/3) by hand; exact (Fraction) X or y are computed in
    # float64, and a label column n×1 gives the (d,) coefficient
    for X, y in ((X3, Y3), (X3_EXACT, Y3), (X3, Y3_EXACT), (X3, Y3[:, None])):
        got = pregd_limit(X, y)
        assert got.dtype == np.float64
        assert got.shape == (2,)
        np.testing.assert_allclose(got, OLS3, rtol=FLOAT_RTOL)


@pytest.mark.result("czz24:thm5.2")
def test_gd_coefficient_of_an_exact_design_is_float64_gd() -> None:
    # raw GD from 0 (App. E, Eq. (E.3)) by its t steps w ← w + η(Xᵀy/n − Σ̂w), at a generic
    # context; an exact (Fraction) design gives the same float64 coefficient
    X, y, eta, t = X3, Y3, 0.4, 5
    w = np.zeros(2)
    for _ in range(t):
        w = w + eta * (X.T @ y / 3 - X.T @ X @ w / 3)
    for design in (X, X3_EXACT):
        got = gd_coefficient(design, y, eta, t)
        assert got.dtype == np.float64
        np.testing.assert_allclose(got, w, rtol=FLOAT_RTOL)


@pytest.mark.result("czz24:eq4.3")
def test_pregd_flow_at_an_exact_zero_eigenvalue_is_silent() -> None:
    # X = I_2, y = (2, 0): Ĝ = diag(1/2, 0) has an exact 0 eigenvalue, where the filter is
    # τ (no 0/0 evaluated, so no RuntimeWarning); w̃_1(τ) = 2(1 − e^{−τ/2}) = 1 at τ = 2 ln 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = pregd_flow(np.eye(2), [2.0, 0.0], 2 * np.log(2))
    np.testing.assert_allclose(got, [1.0, 0.0], rtol=FLOAT_RTOL, atol=ROUTES_ATOL)


@pytest.mark.result("czz24:eq4.3")
def test_one_step_prediction_of_a_query_column() -> None:
    # ŷ¹ = η Σ_j r̂_j³ x_j; by hand r̂ = Xᵀy/2 = (2, 1), x = (1/2, −1), η = 1/2: (8·½ − 1)/2 = 3/2.
    # An exact query given as a SymPy column (d×1) is the same query
    X, y = np.array([[1.0, 2.0], [3.0, 0.0]]), np.array([1.0, 1.0])
    for xq in ([0.5, -1.0], sp.Matrix([sp.Rational(1, 2), -1])):
        assert one_step_prediction(X, y, xq, 0.5) == pytest.approx(1.5, rel=FLOAT_RTOL)


def _phi_by_sum(lam: np.ndarray, eta: float, t: int) -> np.ndarray:
    """φ_t(λ) = η Σ_{k<t} (1 − ηλ)^k (the geometric sum; an independent route)."""
    return eta * np.sum([(1.0 - eta * lam) ** k for k in range(t)], axis=0)


@pytest.mark.result("czz24:eq4.3")
def test_phi_of_an_eigenvalue_array_with_zeros_is_silent_and_pinned() -> None:
    # an eigenvalue array with an exact 0 and a subnormal 1e-310 (both φ = ηt = 2.4 to within
    # C(t,2)η²λ) beside λ = 0.37: (1 − 0.704³)/0.37 = 1.7596928; no 0/0 is evaluated
    lam = np.array([0.0, 0.37, 1e-310])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = phi(lam, 0.8, 3)
    np.testing.assert_allclose(got, [2.4, 1.7596928, 2.4], rtol=FLOAT_RTOL)


@pytest.mark.result("czz24:eq4.3")
def test_phi_of_float32_eigenvalues_is_float64() -> None:
    # float32 eigenvalues (e.g. of a float32 model) are computed in float64, not in float32
    lam32 = np.array([0.37, 1.2, 2.9], dtype=np.float32)
    got = phi(lam32, 0.8, 7)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, _phi_by_sum(lam32.astype(float), 0.8, 7), rtol=FLOAT_RTOL)


@pytest.mark.result("czz24:heads-alg1")
@pytest.mark.parametrize("d", [2, 3])
def test_alg1_kronecker_matrix_is_the_alg1_bilinear_map(d: int) -> None:
    # the unfolding M[(o, i), (j, c)] (rows o·D + i, columns j·d + c, D = d + 1) contracted with a
    # generic exact context moment Ĉ (D × D) and query z gives Alg. 1's x̃_o = Ĉ_{o, d+1} z_o
    D = d + 1
    M = alg1_kronecker_matrix(d)
    assert M.shape == (d * D, D * d)
    C = sp.Matrix(D, D, lambda i, j: sp.Rational(3 * i + 7 * j + 2, 5 + i))
    z = [sp.Rational(2 * c + 3, 7 - c) for c in range(d)]
    got = [
        sum(
            M[o * D + i, j * d + c] * C[i, j] * z[c]
            for i in range(D)
            for j in range(D)
            for c in range(d)
        )
        for o in range(d)
    ]
    assert got == [C[o, d] * z[o] for o in range(d)]


@pytest.mark.result("czz24:alg1")
def test_alg1_of_exact_tokens_is_float64() -> None:
    # r̂ = Xᵀy/2 = (2, 1) by hand; exact (Fraction) tokens (1/2, −3) → (1, −3) in float64
    X, y = np.array([[1.0, 2.0], [3.0, 0.0]]), np.array([1.0, 1.0])
    got = alg1(X, y, [[Fraction(1, 2), Fraction(-3)]])
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, [[1.0, -3.0]], rtol=FLOAT_RTOL)


@pytest.mark.result("czz24:prop4.2")
def test_pregd_transformer_passes_n_heads_and_builds_an_exact_readout() -> None:
    # n_heads reaches the Alg. 1 layer (a negative control keeps heads 1..n_heads), and an exact
    # model's read-out is the SymPy column −e_{d+1} (d = 3: 9 hidden rows)
    assert pregd_transformer(3, 5, 0.4, 2).layers[0].n_heads == 3
    assert pregd_transformer(3, 5, 0.4, 2, n_heads=2).layers[0].n_heads == 2
    W_O = pregd_transformer(3, 5, sp.Rational(2, 5), 1, exact=True).W_O
    assert isinstance(W_O, sp.MatrixBase)
    assert W_O == sp.Matrix([0, 0, 0, -1, 0, 0, 0, 0, 0])


@pytest.mark.result("czz24:prop4.1")
def test_alg1_layer_refuses_more_heads_than_d_and_keys_carry_1_over_n() -> None:
    with pytest.raises(
        ValueError, match=r"n_heads must be ≤ d = 2 \(Prop. 4.1 uses d heads\), got 3"
    ):
        alg1_layer(2, 4, n_heads=3)
    # exact=True: W_E is the SymPy matrix of App. C.1 (rows 3i−2 = e_i, 3i−1 = e_{d+1}, 3i = 0)
    W_E = alg1_layer(2, 3, exact=True)[0]
    assert isinstance(W_E, sp.MatrixBase)
    assert W_E == sp.Matrix([[1, 0, 0], [0, 0, 1], [0, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]])
    # W_{K_1} = (1/n)[0; 0; e_2]: 1/3 as a float64 entry, and the exact 1/3 when exact=True
    WK = alg1_layer(2, 3)[1].WK[0]
    assert WK.dtype == np.float64
    assert WK[2, 1] == pytest.approx(1.0 / 3.0, rel=FLOAT_RTOL)
    WK_exact = alg1_layer(2, 3, exact=True)[1].WK[0]
    assert isinstance(WK_exact[2, 1], sp.Rational)
    assert WK_exact[2, 1] == sp.Rational(1, 3)


@pytest.mark.result("czz24:eq4.3")
def test_pregd_gram_of_an_exact_design_is_float64() -> None:
    # X3, Y3 by hand: r̂ = Xᵀy/3 = (2/3, 1/6), Σ̂ = [[2, 1], [1, 2]]/3, Ĝ = R̂Σ̂R̂; an exact
    # (Fraction) design gives the same float64 Ĝ, b̃ = r̂²
    r = np.array([2.0 / 3.0, 1.0 / 6.0])
    G_want = r[:, None] * (np.array([[2.0, 1.0], [1.0, 2.0]]) / 3.0) * r[None, :]
    G, b, _ = pregd_gram(X3_EXACT, Y3)
    assert G.dtype == np.float64
    np.testing.assert_allclose(G, G_want, rtol=FLOAT_RTOL)
    np.testing.assert_allclose(b, r**2, rtol=FLOAT_RTOL)


@pytest.mark.result("czz24:eq4.3")
def test_pregd_population_of_exact_entries_is_float64() -> None:
    # by hand at w* = (1, −2), Σ = (1/2, 2), η = 0.3, t = 2: r = Σw* = (1/2, −4),
    # ηr²Σ = (0.0375, 9.6): w*_j[1 − (1 − ηr²Σ)^t] = (0.07359375, 145.92); Fraction → float64
    want = np.array([1.0 - 0.9625**2, -2.0 * (1.0 - 8.6**2)])
    w_ex, S_ex = [Fraction(1), Fraction(-2)], [Fraction(1, 2), Fraction(2)]
    for w, s in ((w_ex, [0.5, 2.0]), ([1.0, -2.0], S_ex)):
        got = pregd_population(w, s, 0.3, 2)
        assert got.dtype == np.float64
        np.testing.assert_allclose(got, want, rtol=FLOAT_RTOL)


@pytest.mark.result("czz24:alg1")
def test_rhat_refusal_names_the_context_length() -> None:
    with pytest.raises(ValueError, match=r"one label per row of X \(n = 3\), got 2 labels"):
        rhat.raw(X3, np.ones(2))
