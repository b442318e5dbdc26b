"""Mutation triage of issue 35 for ``theory/common/baselines/ridge.py`` (session 12, helper c1).

Ridge, the Bayes posterior mean, their conditional risks and the OLS risk at generic points
(non-diagonal Σ_x and Ψ, β* ≠ 0, N ≠ d), each pinned against an independent route computed in
exact rational arithmetic here: the *dual* (kernel) forms ``Xᵀ(XXᵀ + λI)⁻¹`` and the Gaussian
conditioning formula ``Ψ − ΨXᵀ(XΨXᵀ + σ²I)⁻¹XΨ``, which invert an N×N matrix instead of the d×d
one the library inverts.  Also: the numeric-rank cut of the SVD route, its overflow handling,
batching, and every refusal's message in full.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import sympy as sp

from numerics.testing import FLOAT_RTOL
from theory.common.baselines import (
    bayes_conditional_risk,
    bayes_posterior_mean,
    ols_risk,
    ols_risk_expr,
    ridge_conditional_risk,
    ridge_predictor,
)

R = sp.Rational
EPS = float(np.finfo(float).eps)

# a generic point: N = 3, d = 2, nothing diagonal, nothing at 0 or 1
X3 = sp.Matrix([[1, 2], [3, -1], [R(1, 2), 1]])
Y3 = sp.Matrix([1, 2, -1])
S3 = sp.Matrix([[R(3, 2), R(1, 5)], [R(1, 5), R(4, 5)]])
MU3 = sp.Matrix([R(3, 10), R(-3, 5)])
PSI3 = sp.Matrix([[R(9, 10), R(1, 10)], [R(1, 10), R(2, 5)]])
S2 = R(3, 10)
LAM = R(7, 10)

# a second design for the batch (N = 3, d = 2)
X3b = sp.Matrix([[-1, R(1, 2)], [2, 2], [R(3, 2), -2]])
Y3b = sp.Matrix([R(1, 2), -1, 3])


def _f(M: Any) -> np.ndarray:
    return np.array(M.tolist(), dtype=float)


def _at(expr, scalars: dict, mats: dict):
    """A matrix-symbol expression at explicit values: scalars first, then the matrices (and
    ``Identity``) as explicit matrices, evaluated."""
    e = sp.sympify(expr).subs(scalars)
    e = e.xreplace({k: sp.ImmutableMatrix(v) for k, v in mats.items()})
    e = e.replace(
        lambda t: isinstance(t, sp.Identity), lambda t: sp.ImmutableMatrix(sp.eye(t.rows))
    )
    return e.doit()


def _ridge_dual(X: sp.Matrix, y: sp.Matrix, lam) -> sp.Matrix:
    """``Xᵀ(XXᵀ + λI_N)⁻¹ y`` (push-through of ``(XᵀX + λI_d)⁻¹Xᵀy``; λ > 0)."""
    return X.T * (X * X.T + lam * sp.eye(X.rows)).inv() * y


def _bayes_mean_cond(X, y, mu, Psi, s2) -> sp.Matrix:
    """Gaussian conditioning: ``β* + ΨXᵀ(XΨXᵀ + σ²I_N)⁻¹(y − Xβ*)``."""
    return mu + Psi * X.T * (X * Psi * X.T + s2 * sp.eye(X.rows)).inv() * (y - X * mu)


def _bayes_risk_cond(X, S, Psi, s2):
    """``σ² + tr(Σ_x Cov(β | X, y))``, ``Cov = Ψ − ΨXᵀ(XΨXᵀ + σ²I_N)⁻¹XΨ``."""
    cov = Psi - Psi * X.T * (X * Psi * X.T + s2 * sp.eye(X.rows)).inv() * X * Psi
    return s2 + (S * cov).trace()


def _ridge_risk_dual(X, lam, S, mu, Psi, s2):
    """``β̂ − β = (MX − I)β + Mε`` with ``M = Xᵀ(XXᵀ + λI_N)⁻¹`` (λ > 0), β ~ (β*, Ψ), ε ~ (0, σ²I):
    ``σ² + tr(Σ_x (MX − I)(Ψ + β*β*ᵀ)(MX − I)ᵀ) + σ² tr(Σ_x M Mᵀ)``."""
    M = X.T * (X * X.T + lam * sp.eye(X.rows)).inv()
    E = M * X - sp.eye(X.cols)
    return s2 + (S * E * (Psi + mu * mu.T) * E.T).trace() + s2 * (S * M * M.T).trace()


# ----------------------------------------------------------------------------- ridge predictor
def test_ridge_predictor_at_a_generic_point_numeric_batched_and_symbolic() -> None:
    want = _ridge_dual(X3, Y3, LAM)
    got = ridge_predictor(_f(X3), _f(Y3)[:, 0], float(LAM))
    assert got.shape == (2,) and got.dtype == np.float64
    np.testing.assert_allclose(got, _f(want)[:, 0], rtol=FLOAT_RTOL)
    # batched over a leading axis: each slice is its own design
    wantb = _ridge_dual(X3b, Y3b, LAM)
    Xb = np.stack([_f(X3), _f(X3b)])
    yb = np.stack([_f(Y3)[:, 0], _f(Y3b)[:, 0]])
    gotb = ridge_predictor(Xb, yb, float(LAM))
    assert gotb.shape == (2, 2)
    np.testing.assert_allclose(gotb, np.stack([_f(want)[:, 0], _f(wantb)[:, 0]]), rtol=FLOAT_RTOL)
    # the SymPy route (exact entries) is exact
    sym = ridge_predictor(X3, Y3, LAM)
    assert sp.simplify(sym - want) == sp.zeros(2, 1)


def test_ridge_predictor_with_matrix_symbols_is_the_inverse_expression() -> None:
    Xs, ys, lam = sp.MatrixSymbol("X", 3, 2), sp.MatrixSymbol("y", 3, 1), sp.Symbol("lam")
    expr = ridge_predictor(Xs, ys, lam)
    val = sp.Matrix(_at(expr, {lam: LAM}, {Xs: X3, ys: Y3}))
    assert sp.simplify(val - _ridge_dual(X3, Y3, LAM)) == sp.zeros(2, 1)


def test_ridge_predictor_ols_on_python_integers_beyond_int64() -> None:
    """Python ints are reals: entries ≥ 2⁶³ must be read as floats (no object/int64 arithmetic).
    OLS of y = 2x (λ = 0) has β̂ = 2, and (4·10⁹)² overflows int64."""
    big = 10**20
    assert ridge_predictor([[big], [big]], [big, 3 * big], 0) == pytest.approx(
        [2.0], rel=FLOAT_RTOL
    )
    g = 4 * 10**9
    assert ridge_predictor([[g], [2 * g]], [2 * g, 4 * g], 0) == pytest.approx(
        [2.0], rel=FLOAT_RTOL
    )


def test_ridge_predictor_messages() -> None:
    with pytest.raises(
        ValueError, match=r"^X must be a finite real \(\.\.\., N, d\) array, got shape \(2,\)$"
    ):
        ridge_predictor([1.0, 2.0], [1.0, 2.0], 1.0)
    with pytest.raises(
        ValueError, match=r"^X must be a finite real \(\.\.\., N, d\) array, got shape \(2, 1\)$"
    ):
        ridge_predictor([[1.0], [np.nan]], [1.0, 2.0], 1.0)
    with pytest.raises(
        ValueError, match=r"^y must be finite with shape \(2,\) \(X is \(2, 1\)\), got \(3,\)$"
    ):
        ridge_predictor([[1.0], [2.0]], [1.0, 2.0, 3.0], 1.0)
    with pytest.raises(
        ValueError, match=r"^y must be finite with shape \(2,\) \(X is \(2, 1\)\), got \(2,\)$"
    ):
        ridge_predictor([[1.0], [2.0]], [1.0, np.inf], 1.0)
    with pytest.raises(ValueError, match=r"^y \(responses\) is required for the numeric route$"):
        ridge_predictor([[1.0], [2.0]], None, 1.0)
    with pytest.raises(
        ValueError,
        match=r"^X\^T X \+ lam I is singular at lam = 0\.0 \(OLS needs rank\(X\) = d\)$",
    ):
        ridge_predictor([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]], [1.0, 2.0, 3.0], 0.0)
    with pytest.raises(ValueError, match=r"^lam \(ridge penalty\) must be ≥ 0, got -0\.5$"):
        ridge_predictor([[1.0], [2.0]], [1.0, 2.0], -0.5)


def test_batched_design_message_names_the_full_label_shape() -> None:
    """A batch of designs ``(B, N, d)`` needs labels ``(B, N)``: the message names that shape."""
    X = np.ones((2, 3, 1))
    with pytest.raises(
        ValueError,
        match=r"^y must be finite with shape \(2, 3\) \(X is \(2, 3, 1\)\), got \(2, 2\)$",
    ):
        ridge_predictor(X, np.ones((2, 2)), 1.0)


def test_ridge_predictor_two_batch_axes() -> None:
    """Designs batched over two leading axes ``(2, 3, N, d)``: every slice is its own ridge."""
    rng = np.random.default_rng(7)
    X = rng.standard_normal((2, 3, 4, 2))
    y = rng.standard_normal((2, 3, 4))
    got = ridge_predictor(X, y, 0.7)
    assert got.shape == (2, 3, 2)
    for i in range(2):
        for j in range(3):
            Xi, yi = X[i, j], y[i, j]
            want = Xi.T @ np.linalg.solve(Xi @ Xi.T + 0.7 * np.eye(4), yi)  # dual form
            np.testing.assert_allclose(got[i, j], want, rtol=FLOAT_RTOL)


@pytest.mark.parametrize("which", ["X", "y", "lam"])
def test_ridge_predictor_one_symbolic_argument_takes_the_sympy_route(which: str) -> None:
    """Any one SymPy argument among numbers gives a SymPy result, exact at the symbol's value."""
    a = sp.Symbol("a")
    X: Any = X3.tolist()
    y: Any = [Y3[i, 0] for i in range(Y3.rows)]
    lam: Any = LAM
    if which == "X":
        X = sp.Matrix([[1, 2], [3, -1], [R(1, 2), a]])
        val = {a: 1}
    elif which == "y":
        y = sp.Matrix([1, a, -1])
        val = {a: 2}
    else:
        lam = a
        val = {a: LAM}
    X = X if which == "X" else [[float(v) for v in r] for r in X]
    y = y if which == "y" else [float(v) for v in y]
    lam = lam if which == "lam" else float(lam)
    got = ridge_predictor(X, y, lam)
    assert isinstance(got, sp.MatrixBase) and a in got.free_symbols
    want = _f(_ridge_dual(X3, Y3, LAM))[:, 0]
    np.testing.assert_allclose(_f(got.subs(val)), want[:, None], rtol=FLOAT_RTOL)


def test_symbolic_route_refuses_numpy_arrays_by_name() -> None:
    """On the SymPy route (a symbolic λ) a NumPy X or y is refused, naming the argument."""
    lam = sp.Symbol("lam")
    with pytest.raises(
        ValueError, match=r"^X must be a SymPy Matrix or MatrixSymbol when symbolic, got array\("
    ):
        ridge_predictor(np.ones((2, 1)), [1.0, 2.0], lam)
    with pytest.raises(
        ValueError, match=r"^y must be a SymPy Matrix or MatrixSymbol when symbolic, got array\("
    ):
        ridge_predictor([[1.0], [2.0]], np.ones(2), lam)


# ------------------------------------------------------------------------- Bayes posterior mean
def test_bayes_posterior_mean_at_a_generic_point_numeric_batched_and_symbolic() -> None:
    want = _bayes_mean_cond(X3, Y3, MU3, PSI3, S2)
    got = bayes_posterior_mean(_f(X3), _f(Y3)[:, 0], _f(MU3)[:, 0], _f(PSI3), float(S2))
    assert got.shape == (2,)
    np.testing.assert_allclose(got, _f(want)[:, 0], rtol=FLOAT_RTOL)
    wantb = _bayes_mean_cond(X3b, Y3b, MU3, PSI3, S2)
    Xb = np.stack([_f(X3), _f(X3b)])
    yb = np.stack([_f(Y3)[:, 0], _f(Y3b)[:, 0]])
    gotb = bayes_posterior_mean(Xb, yb, _f(MU3)[:, 0], _f(PSI3), float(S2))
    np.testing.assert_allclose(gotb, np.stack([_f(want)[:, 0], _f(wantb)[:, 0]]), rtol=FLOAT_RTOL)
    sym = bayes_posterior_mean(X3, Y3, MU3, PSI3, S2)
    assert sp.simplify(sym - want) == sp.zeros(2, 1)
    # a singular Ψ (rank 1) is allowed: the posterior mean moves only along Ψ's range
    Psi1 = sp.Matrix([[R(4, 5), R(2, 5)], [R(2, 5), R(1, 5)]])
    want1 = _bayes_mean_cond(X3, Y3, MU3, Psi1, S2)
    got1 = bayes_posterior_mean(_f(X3), _f(Y3)[:, 0], _f(MU3)[:, 0], _f(Psi1), float(S2))
    np.testing.assert_allclose(got1, _f(want1)[:, 0], rtol=FLOAT_RTOL)


def test_bayes_posterior_mean_with_matrix_symbols() -> None:
    Xs, ys = sp.MatrixSymbol("X", 3, 2), sp.MatrixSymbol("y", 3, 1)
    ms, Ps, s2 = sp.MatrixSymbol("m", 2, 1), sp.MatrixSymbol("P", 2, 2), sp.Symbol("s2")
    expr = bayes_posterior_mean(Xs, ys, ms, Ps, s2)
    val = sp.Matrix(_at(expr, {s2: S2}, {Xs: X3, ys: Y3, ms: MU3, Ps: PSI3}))
    assert sp.simplify(val - _bayes_mean_cond(X3, Y3, MU3, PSI3, S2)) == sp.zeros(2, 1)


# ------------------------------------------------------------------------- Bayes conditional risk
def test_bayes_conditional_risk_at_a_generic_point_numeric_batched_and_symbolic() -> None:
    want = _bayes_risk_cond(X3, S3, PSI3, S2)
    got = bayes_conditional_risk(_f(X3), _f(S3), _f(PSI3), float(S2))
    assert isinstance(got, np.float64)
    assert float(got) == pytest.approx(float(want), rel=FLOAT_RTOL)
    wantb = _bayes_risk_cond(X3b, S3, PSI3, S2)
    gotb = bayes_conditional_risk(np.stack([_f(X3), _f(X3b)]), _f(S3), _f(PSI3), float(S2))
    assert gotb.shape == (2,)
    np.testing.assert_allclose(gotb, [float(want), float(wantb)], rtol=FLOAT_RTOL)
    sym = bayes_conditional_risk(X3, S3, PSI3, S2)
    assert sp.simplify(sym - want) == 0
    Xs, Ss, Ps, s2 = (
        sp.MatrixSymbol("X", 3, 2),
        sp.MatrixSymbol("S", 2, 2),
        sp.MatrixSymbol("P", 2, 2),
        sp.Symbol("s2"),
    )
    expr = bayes_conditional_risk(Xs, Ss, Ps, s2)
    assert sp.simplify(_at(expr, {s2: S2}, {Xs: X3, Ss: S3, Ps: PSI3}) - want) == 0


def test_bayes_conditional_risk_messages() -> None:
    with pytest.raises(
        ValueError, match=r"^X must be a finite real \(\.\.\., N, d\) array, got shape \(3,\)$"
    ):
        bayes_conditional_risk([1.0, 2.0, 3.0], [[1.0]], [[1.0]], 0.5)
    with pytest.raises(
        ValueError,
        match=r"^noise_var \(sigma\^2\) must be > 0 \(the Bayes posterior mean formula needs "
        r"sigma\^2 > 0\), got 0\.0$",
    ):
        bayes_conditional_risk(_f(X3), _f(S3), _f(PSI3), 0.0)
    with pytest.raises(
        ValueError,
        match=r"^noise_var \(sigma\^2\) must be > 0 \(the Bayes posterior mean formula needs "
        r"sigma\^2 > 0\), got -0\.5$",
    ):
        bayes_posterior_mean(_f(X3), _f(Y3)[:, 0], _f(MU3)[:, 0], _f(PSI3), -0.5)


# ------------------------------------------------------------------------- ridge conditional risk
def test_ridge_conditional_risk_at_a_generic_point_numeric_batched_and_symbolic() -> None:
    want = _ridge_risk_dual(X3, LAM, S3, MU3, PSI3, S2)
    args = (_f(S3), _f(MU3)[:, 0], _f(PSI3), float(S2))
    got = ridge_conditional_risk(_f(X3), float(LAM), *args)
    assert isinstance(got, np.float64)
    assert float(got) == pytest.approx(float(want), rel=FLOAT_RTOL)
    wantb = _ridge_risk_dual(X3b, LAM, S3, MU3, PSI3, S2)
    gotb = ridge_conditional_risk(np.stack([_f(X3), _f(X3b)]), float(LAM), *args)
    assert gotb.shape == (2,)
    np.testing.assert_allclose(gotb, [float(want), float(wantb)], rtol=FLOAT_RTOL)
    sym = ridge_conditional_risk(X3, LAM, S3, MU3, PSI3, S2)
    assert sp.simplify(sym - want) == 0
    # noise_var = 0 is allowed (σ² ≥ 0): bias only
    want0 = _ridge_risk_dual(X3, LAM, S3, MU3, PSI3, 0)
    got0 = ridge_conditional_risk(_f(X3), float(LAM), _f(S3), _f(MU3)[:, 0], _f(PSI3), 0.0)
    assert float(got0) == pytest.approx(float(want0), rel=FLOAT_RTOL)


def test_ridge_conditional_risk_with_matrix_symbols() -> None:
    Xs, Ss, ms, Ps = (
        sp.MatrixSymbol("X", 3, 2),
        sp.MatrixSymbol("S", 2, 2),
        sp.MatrixSymbol("m", 2, 1),
        sp.MatrixSymbol("P", 2, 2),
    )
    lam, s2 = sp.Symbol("lam"), sp.Symbol("s2")
    expr = ridge_conditional_risk(Xs, lam, Ss, ms, Ps, s2)
    val = _at(expr, {lam: LAM, s2: S2}, {Xs: X3, Ss: S3, ms: MU3, Ps: PSI3})
    assert sp.simplify(val - _ridge_risk_dual(X3, LAM, S3, MU3, PSI3, S2)) == 0


def test_ridge_conditional_risk_wide_and_rank_deficient_designs() -> None:
    """N < d (the SVD gives N singular values, padded with zeros to d) and a rank-1 N > d design
    (two proportional rows: a round-off singular value), both at λ > 0, against the dual form."""
    Xw = sp.Matrix([[1, R(1, 2), -2], [R(3, 2), -1, R(1, 2)]])  # N = 2, d = 3
    Sw = sp.Matrix([[2, R(1, 2), 0], [R(1, 2), 1, R(1, 5)], [0, R(1, 5), R(3, 2)]])
    muw = sp.Matrix([R(1, 2), -1, R(1, 4)])
    Pw = sp.Matrix([[1, R(1, 5), R(1, 10)], [R(1, 5), R(1, 2), 0], [R(1, 10), 0, R(7, 10)]])
    want = _ridge_risk_dual(Xw, LAM, Sw, muw, Pw, S2)
    got = ridge_conditional_risk(_f(Xw), float(LAM), _f(Sw), _f(muw)[:, 0], _f(Pw), float(S2))
    assert float(got) == pytest.approx(float(want), rel=FLOAT_RTOL)
    Xr = sp.Matrix([[1, 2], [3, 6], [R(1, 2), 1]])  # rank 1
    lam = R(1, 1000)
    want = _ridge_risk_dual(Xr, lam, S3, MU3, PSI3, S2)
    got = ridge_conditional_risk(_f(Xr), float(lam), _f(S3), _f(MU3)[:, 0], _f(PSI3), float(S2))
    assert float(got) == pytest.approx(float(want), rel=FLOAT_RTOL)


@pytest.mark.parametrize("k", [2.5, 3.0])
def test_ridge_conditional_risk_numerical_rank_is_matrix_rank(k: float) -> None:
    """A singular value s₂ = k·eps next to s₁ = 1 (N = 3, d = 2, exact in a diagonal design) is
    round-off by ``np.linalg.matrix_rank``'s rule (s ≤ s_max·max(N, d)·eps = 3 eps), so OLS
    (λ = 0) refuses it as singular; at λ = 1e-300 (≫ s₂²) the direction is fully shrunk, and the
    risk is the one of the exactly rank-1 design."""
    X = np.array([[1.0, 0.0], [0.0, k * EPS], [0.0, 0.0]])
    assert np.linalg.matrix_rank(X) == 1
    args = ([[1.5, 0.2], [0.2, 0.8]], [0.3, -0.6], [[0.9, 0.1], [0.1, 0.4]], 0.3)
    with pytest.raises(
        ValueError,
        match=r"^X\^T X \+ lam I is singular at lam = 0\.0 \(OLS needs rank\(X\) = d\)$",
    ):
        ridge_conditional_risk(X, 0.0, *args)
    # rank-1 design at a tiny λ: shrink 0 on e₁ (up to 1e-300), 1 on e₂; variance 1 on e₁
    # R = σ² + Σ_22 (Ψ + β*β*ᵀ)_22 + σ² Σ_11
    want = 0.3 + 0.8 * (0.4 + 0.36) + 0.3 * 1.5
    got = ridge_conditional_risk(X, 1e-300, *args)
    assert float(got) == pytest.approx(want, rel=FLOAT_RTOL)


def test_ridge_conditional_risk_overflow_is_a_value_error_without_warnings() -> None:
    """X = [[1e-160]] at λ = 0: s² = 1e-320 is representable but the variance 1/s² overflows;
    the refusal names the smallest singular value, and no floating-point warning escapes."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(
            ValueError,
            match=r"^the ridge conditional risk at lam = 0\.0 is not finite in float64: X is "
            r"numerically singular \(smallest singular value 1e-160; OLS \(lam = 0\) needs "
            r"rank\(X\) = d with \(X\^T X\)\^-1 representable\)$",
        ):
            ridge_conditional_risk([[1e-160]], 0.0, [[1.0]], [0.0], [[1.0]], 1.0)


def test_ridge_conditional_risk_messages() -> None:
    args = (_f(S3), _f(MU3)[:, 0], _f(PSI3))
    with pytest.raises(ValueError, match=r"^lam \(ridge penalty\) must be ≥ 0, got -0\.5$"):
        ridge_conditional_risk(_f(X3), -0.5, *args, 0.3)
    with pytest.raises(ValueError, match=r"^noise_var \(sigma\^2\) must be ≥ 0, got -0\.25$"):
        ridge_conditional_risk(_f(X3), 0.5, *args, -0.25)
    with pytest.raises(
        ValueError, match=r"^X must be a finite real \(\.\.\., N, d\) array, got shape \(1, 2\)$"
    ):
        ridge_conditional_risk([[np.inf, 1.0]], 0.5, *args, 0.3)
    # λ = 0 on a rank-deficient design: singular, not a NaN risk
    with pytest.raises(
        ValueError,
        match=r"^X\^T X \+ lam I is singular at lam = 0\.0 \(OLS needs rank\(X\) = d\)$",
    ):
        ridge_conditional_risk([[1.0, 0.0], [2.0, 0.0], [3.0, 0.0]], 0.0, *args, 0.3)


def _floats(M: Any) -> list:
    return [[float(v) for v in r] for r in M.tolist()]


_A = sp.Symbol("a")
# (function, argument names, exact values, the reference, the symbolic stand-ins: one entry is a)
_ROUTES = {
    "bayes_posterior_mean": (
        bayes_posterior_mean,
        ("X", "y", "task_mean", "task_cov", "noise_var"),
        (X3, Y3, MU3, PSI3, S2),
        _bayes_mean_cond,
    ),
    "bayes_conditional_risk": (
        bayes_conditional_risk,
        ("X", "Sigma_x", "task_cov", "noise_var"),
        (X3, S3, PSI3, S2),
        _bayes_risk_cond,
    ),
    "ridge_conditional_risk": (
        ridge_conditional_risk,
        ("X", "lam", "Sigma_x", "task_mean", "task_cov", "noise_var"),
        (X3, LAM, S3, MU3, PSI3, S2),
        _ridge_risk_dual,
    ),
}
_CASES = [(f, i) for f, v in _ROUTES.items() for i in range(len(v[1]))]


def _symbolic_at(v):
    """``v`` with one entry replaced by the symbol a (a scalar: a itself), and a's value."""
    if isinstance(v, sp.MatrixBase):
        w = sp.Matrix(v)
        w[w.rows - 1, 0] = _A
        return w, v[v.rows - 1, 0]
    return _A, v


@pytest.mark.parametrize(("fn", "i"), _CASES, ids=[f"{f}-{i}" for f, i in _CASES])
def test_one_symbolic_argument_takes_the_sympy_route(fn: str, i: int) -> None:
    """Any one SymPy argument among plain numbers (lists, floats) gives a SymPy result that is
    exact at the symbol's value (a symmetric matrix keeps its symmetry only off the substitution,
    so the symbol sits in its last row, first column: value checked there)."""
    f, _, vals, ref = _ROUTES[fn]
    args: list = [_floats(v) if isinstance(v, sp.MatrixBase) else float(v) for v in vals]
    args[i], at = _symbolic_at(vals[i])
    got = f(*args)
    assert _A in sp.sympify(got).free_symbols
    want = ref(*vals)
    if isinstance(want, sp.MatrixBase):
        np.testing.assert_allclose(_f(got.subs(_A, at)), _f(want), rtol=FLOAT_RTOL)
    else:
        assert float(got.subs(_A, at)) == pytest.approx(float(want), rel=FLOAT_RTOL)


_MATRIX_CASES = [
    (f, i) for f, v in _ROUTES.items() for i in range(len(v[1])) if isinstance(v[2][i], sp.Matrix)
]


@pytest.mark.parametrize(("fn", "i"), _MATRIX_CASES, ids=[f"{f}-{i}" for f, i in _MATRIX_CASES])
def test_symbolic_route_names_a_numpy_matrix_argument(fn: str, i: int) -> None:
    """On the SymPy route (a symbolic σ²) a NumPy matrix argument is refused by its name."""
    f, names, vals, _ = _ROUTES[fn]
    args: list = [_floats(v) if isinstance(v, sp.MatrixBase) else float(v) for v in vals]
    args[-1] = _A
    args[i] = _f(vals[i])
    with pytest.raises(
        ValueError,
        match=rf"^{names[i]} must be a SymPy Matrix or MatrixSymbol when symbolic, got array\(",
    ):
        f(*args)


_XL, _YL = _floats(X3), [1.0, 2.0, -1.0]
_SL, _ML, _PL = _floats(S3), [0.3, -0.6], _floats(PSI3)
_SHAPE_CASES = [
    (
        lambda: bayes_posterior_mean(_XL, _YL, [0.3, -0.6, 1.0], _PL, 0.3),
        r"^task_mean must have shape \(2,\), got shape \(3,\)$",
    ),
    (
        lambda: bayes_posterior_mean(_XL, _YL, [np.nan, 1.0], _PL, 0.3),
        r"^task_mean must have finite entries, got \[nan, 1\.0\]$",
    ),
    (
        lambda: bayes_posterior_mean(_XL, _YL, _ML, np.eye(3), 0.3),
        r"^task_cov must have shape \(2, 2\), got shape \(3, 3\)$",
    ),
    (
        lambda: bayes_conditional_risk(_XL, np.eye(3), _PL, 0.3),
        r"^Sigma_x must have shape \(2, 2\), got shape \(3, 3\)$",
    ),
    (
        lambda: bayes_conditional_risk(_XL, _SL, np.eye(3), 0.3),
        r"^task_cov must have shape \(2, 2\), got shape \(3, 3\)$",
    ),
    (
        lambda: ridge_conditional_risk(_XL, 0.5, np.eye(3), _ML, _PL, 0.3),
        r"^Sigma_x must have shape \(2, 2\), got shape \(3, 3\)$",
    ),
    (
        lambda: ridge_conditional_risk(_XL, 0.5, _SL, [1.0, 2.0, 3.0], _PL, 0.3),
        r"^task_mean must have shape \(2,\), got shape \(3,\)$",
    ),
    (
        lambda: ridge_conditional_risk(_XL, 0.5, _SL, _ML, np.eye(3), 0.3),
        r"^task_cov must have shape \(2, 2\), got shape \(3, 3\)$",
    ),
]


@pytest.mark.parametrize(("call", "msg"), _SHAPE_CASES, ids=[str(i) for i in range(8)])
def test_data_model_arguments_are_checked_against_the_design_dimension(call, msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        call()


def test_symbolic_zero_task_mean_is_the_zero_vector() -> None:
    """On the SymPy route the scalar 0 stands for β* = 0 (a ZeroMatrix of X's width)."""
    z = sp.zeros(2, 1)
    got = bayes_posterior_mean(X3, Y3, 0, PSI3, S2)
    assert sp.simplify(got - _bayes_mean_cond(X3, Y3, z, PSI3, S2)) == z
    got = ridge_conditional_risk(X3, LAM, S3, 0, PSI3, S2)
    assert sp.simplify(got - _ridge_risk_dual(X3, LAM, S3, z, PSI3, S2)) == 0


# ----------------------------------------------------------------------------------------- OLS
@pytest.mark.parametrize(
    ("d", "N", "s2", "want"),
    [
        (3, 11, 0.35, 0.5),  # 0.35·(1 + 3/7)
        (2, 7, 0.9, 1.35),  # 0.9·(1 + 2/4)
        (1, 3, 0.5, 1.0),  # N = d + 2, the smallest N: 0.5·(1 + 1/1)
        (4, 9, 0.0, 0.0),  # σ² = 0 allowed
    ],
)
def test_ols_risk_pinned(d: int, N: int, s2: float, want: float) -> None:
    got = ols_risk(d, N, s2)
    assert isinstance(got, np.float64)
    assert float(got) == pytest.approx(want, rel=FLOAT_RTOL)


def test_ols_risk_symbolic_and_expr() -> None:
    a, b, c = sp.symbols("a b c", positive=True)
    assert sp.simplify(ols_risk(a, b, c) - c * (1 + a / (b - a - 1))) == 0
    assert sp.simplify(ols_risk(3, b, R(1, 2)) - R(1, 2) * (1 + 3 / (b - 4))) == 0
    from theory.common.symbols import N, d, sigma2

    assert ols_risk_expr().subs({d: 2, N: 8, sigma2: R(1, 2)}) == R(7, 10)


@pytest.mark.parametrize(
    ("args", "msg"),
    [
        (
            (3, 4, 1.0),
            r"^N must be > d \+ 1 = 4 for a finite OLS risk \(inverse-Wishart mean\), got N = 4$",
        ),
        (
            (1, 1, 1.0),
            r"^N must be > d \+ 1 = 2 for a finite OLS risk \(inverse-Wishart mean\), got N = 1$",
        ),
        ((0, 5, 1.0), r"^d must be ≥ 1, got 0$"),
        ((1, 0, 1.0), r"^N must be ≥ 1, got 0$"),
        ((2.5, 9, 1.0), r"^d must be an integer, got 2\.5$"),
        ((2, 9.5, 1.0), r"^N must be an integer, got 9\.5$"),
        ((2, 9, -0.5), r"^noise_var \(sigma\^2\) must be ≥ 0, got -0\.5$"),
    ],
)
def test_ols_risk_messages(args: tuple, msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        ols_risk(*args)


# ---------------------------------------------------------------- session 13 (mutation triage)
@pytest.mark.parametrize("i", [0, 1, 2])
def test_ols_risk_one_sympy_argument_takes_the_sympy_route(i: int) -> None:
    """Exactly one SymPy argument, the others plain Python numbers: the SymPy route, whichever
    argument it is (a check of only some of the three would send the others to the numeric
    route, which refuses a Symbol)."""
    syms = sp.symbols("a b c", positive=True)
    args: list[Any] = [3, 10, 0.5]
    args[i] = syms[i]
    got = ols_risk(*args)
    d_, N_, s2_ = args
    assert isinstance(got, sp.Basic)
    assert sp.simplify(got - s2_ * (1 + sp.sympify(d_) / (N_ - d_ - 1))) == 0


def test_ridge_conditional_risk_numerical_rank_does_not_depend_on_the_batch_size() -> None:
    """The round-off cut of the SVD route is s_max·max(N, d)·eps of each design: a batch of 40
    copies of a 2×2 design with s₂ = 8 eps (above 2 eps, so a real direction) must give the
    design's own risk.  At λ = s₂² that direction is half shrunk: bias Σ_22 Ψ0_22 / 4 there,
    where a cut that grew with the batch (40 eps) would shrink it fully (Σ_22 Ψ0_22)."""
    s_small = 8 * EPS
    X = np.array([[1.0, 0.0], [0.0, s_small]])
    lam = s_small**2
    S, mu, Psi = [[1.5, 0.0], [0.0, 0.8]], [0.3, -0.6], [[0.9, 0.0], [0.0, 0.4]]
    # noiseless: R = Σ_11 Ψ0_11 (λ/(1 + λ))² + Σ_22 Ψ0_22 (1/2)², Ψ0 = Ψ + β*β*ᵀ
    want = 1.5 * (0.9 + 0.09) * (lam / (1 + lam)) ** 2 + 0.8 * (0.4 + 0.36) * 0.25
    one = ridge_conditional_risk(X, lam, S, mu, Psi, 0.0)
    many = ridge_conditional_risk(np.broadcast_to(X, (40, 2, 2)), lam, S, mu, Psi, 0.0)
    assert float(one) == pytest.approx(want, rel=FLOAT_RTOL)
    assert many.shape == (40,)
    np.testing.assert_allclose(many, want, rtol=FLOAT_RTOL)
