"""Gaussian / Wishart moment identities (theory.common.gaussian): exact, MC, properties,
negative controls."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from numerics import baselines as nb
from numerics.references import exact_rational
from numerics.testing import FLOAT_RTOL, assert_passed, float_agreement
from theory.common.gaussian import (
    isserlis_fourth_moment,
    sample_cov_second_moment,
    wishart_fourth_moment,
)
from theory.strategies import dims, psd_matrices


def _tr(M):
    return np.trace(M) if isinstance(M, np.ndarray) else M.trace()


def _square(d: int):
    return st.lists(
        st.floats(-2, 2, allow_nan=False, allow_infinity=False), min_size=d * d, max_size=d * d
    ).map(lambda v: np.array(v).reshape(d, d))


# --------------------------------------------------------------------------------- EXACT
@pytest.mark.symbolic
@pytest.mark.result("base:wishart")
def test_wishart_symmetric_a_form():
    """At symmetric A (d = 2, symbolic entries, symbolic N) the identity is spec 002 §2.0's
    N(N+1)ΣAΣ + N tr(AΣ)Σ; MatrixSymbol input returns an unevaluated expression."""
    N = sp.Symbol("N", integer=True, positive=True)
    a11, a12, a22, s11, s12, s22 = sp.symbols("a11 a12 a22 s11 s12 s22", real=True)
    A = sp.Matrix([[a11, a12], [a12, a22]])
    S = sp.Matrix([[s11, s12], [s12, s22]])
    printed = N * (N + 1) * S * A * S + N * (A * S).trace() * S
    assert sp.expand(wishart_fourth_moment(A, S, N) - printed) == sp.zeros(2, 2)
    d = sp.Symbol("d", integer=True, positive=True)
    expr = wishart_fourth_moment(sp.MatrixSymbol("A", d, d), sp.MatrixSymbol("S", d, d), N)
    assert isinstance(expr, sp.MatrixExpr) and expr.shape == (d, d)


# ------------------------------------------------------------------------------------ MC
@pytest.mark.mc
@pytest.mark.result("base:isserlis")
def test_isserlis_mc_rank_deficient():
    """The declared check runs at the general Σ; here a rank-deficient Σ."""
    assert_passed(nb.isserlis_mc("rank-deficient"))


# ----------------------------------------------------------------------- properties (cheap)
@pytest.mark.float
@pytest.mark.result("base:isserlis")
@given(st.data())
def test_isserlis_properties(data):
    """Symmetric in A ↔ Aᵀ, linear in A, homogeneous of degree 2 in Σ; equals Wishart at N = 1."""
    d = data.draw(dims)
    S = data.draw(psd_matrices(d))
    A, B = data.draw(_square(d)), data.draw(_square(d))
    c = data.draw(st.floats(0.1, 3.0))
    M = isserlis_fourth_moment(A, S)
    scale = FLOAT_RTOL * (1 + np.abs(M).max() + np.abs(isserlis_fourth_moment(B, S)).max())
    assert_passed(
        [
            float_agreement("A <-> A^T", isserlis_fourth_moment(A.T, S), M, atol=scale),
            float_agreement(
                "linearity",
                isserlis_fourth_moment(A + 2 * B, S),
                M + 2 * isserlis_fourth_moment(B, S),
                atol=10 * scale,
            ),
            float_agreement(
                "homogeneity", isserlis_fourth_moment(A, c * S), c**2 * M, atol=10 * c**2 * scale
            ),
            float_agreement("Wishart N=1", wishart_fourth_moment(A, S, 1), M, atol=scale),
        ]
    )


@pytest.mark.float
@pytest.mark.result("base:wishart")
@given(st.data())
def test_wishart_float_vs_exact_rational(data):
    """float64 evaluation vs the same identity at exact rational inputs (rtol FLOAT_RTOL)."""
    d = data.draw(st.integers(1, 3))
    S, A = data.draw(psd_matrices(d)), data.draw(_square(d))
    N = data.draw(st.integers(1, 50))
    val = wishart_fourth_moment(A, S, N)
    exact = exact_rational(wishart_fourth_moment, A, S, N, ints=(2,))
    assert_passed(
        float_agreement(
            "wishart float vs exact", val, exact, atol=FLOAT_RTOL * (1 + np.abs(exact).max())
        )
    )


@pytest.mark.float
@pytest.mark.result("base:sample-cov")
@given(st.data())
def test_sample_cov_properties(data):
    """E[Λ̂²] − Σ² = (Σ² + trΣ Σ)/N is PSD and → 0 like 1/N."""
    d = data.draw(dims)
    S = data.draw(psd_matrices(d))
    N = data.draw(st.integers(1, 1000))
    excess = sample_cov_second_moment(S, N) - S @ S
    assert np.linalg.eigvalsh(excess).min() >= -FLOAT_RTOL * (1 + np.abs(excess).max())
    assert_passed(
        float_agreement(
            "N * excess",
            N * excess,
            S @ S + np.trace(S) * S,
            atol=FLOAT_RTOL * N * (1 + np.abs(S @ S).max() + np.trace(S) ** 2),
        )
    )


# ---------------------------------------------------------------------------- bad input
@pytest.mark.result("base:isserlis")
def test_bad_input_raises():
    with pytest.raises(ValueError, match="Sigma"):
        isserlis_fourth_moment(np.eye(2), [[1.0, 2.0], [2.0, 1.0]])  # not PSD
    with pytest.raises(ValueError, match="A"):
        isserlis_fourth_moment(np.eye(3), np.eye(2))  # shape mismatch
    with pytest.raises(ValueError, match="N"):
        wishart_fourth_moment(np.eye(2), np.eye(2), 0)
    with pytest.raises(ValueError, match="N"):
        sample_cov_second_moment(np.eye(2), 2.5)
    with pytest.raises(ValueError, match="Sigma"):
        isserlis_fourth_moment(np.eye(2), [[np.nan, 0.0], [0.0, 1.0]])
