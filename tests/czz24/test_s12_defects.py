"""Defects the mutation triage of issue 35 found in [czz24]'s floor (session 12); each test fails
on the code before its fix."""

from __future__ import annotations

import warnings

import mpmath as mp
import numpy as np
import pytest
import sympy as sp

from numerics.testing import FLOAT_RTOL
from theory.czz24 import (
    LayerWeights,
    apply_layer,
    error_decomposition,
    excess_from_parts,
    layer_operator,
    phi,
    sorted_importance,
)


def _phi_mp(lam: float, eta: float, t: int) -> float:
    """φ_t(λ) = (1 − (1 − ηλ)^t)/λ at 60 digits ([czz24] Eq. 4.3, spectral form)."""
    with mp.workdps(60):
        lam_m, eta_m = mp.mpf(lam), mp.mpf(eta)
        return float((1 - (1 - eta_m * lam_m) ** t) / lam_m)


@pytest.mark.parametrize(
    ("lam", "eta", "t"),
    [(1e-20, 0.1, 3), (3.7e-13, 0.23, 7), (2.9e-9, 0.41, 12), (0.37, 0.21, 7), (6.5, 0.4, 5)],
)
def test_phi_small_eigenvalue_has_no_cancellation(lam: float, eta: float, t: int) -> None:
    """φ_t(λ) → ηt as λ → 0: the direct form 1 − (1−ηλ)^t cancels (it returned 0.0 at
    λ = 1e-20, η = 0.1, t = 3, not 0.3); pinned against 60-digit arithmetic, scalar and array."""
    want = _phi_mp(lam, eta, t)
    assert float(phi(lam, eta, t)) == pytest.approx(want, rel=FLOAT_RTOL)
    got = phi(np.array([lam, 2 * lam]), eta, t)
    assert got == pytest.approx([want, _phi_mp(2 * lam, eta, t)], rel=FLOAT_RTOL)


def test_apply_layer_integer_tokens_are_not_truncated() -> None:
    """An integer token matrix with attention scale 1/2: ``H + ½·(v kᵀ) q`` is fractional
    (Eq. 2.2 by hand: [[1, 3]] + ½·1·1·[[1, 3]] = [[1.5, 4.5]]); the head sum was accumulated in
    H's integer dtype and truncated to [[1, 4]]."""
    L = LayerWeights(WQ=[np.eye(1)], WK=[np.eye(1)], WV=[np.eye(1)], W1=np.eye(1))
    H = np.array([[1, 3]])
    assert apply_layer(H, L, 1, attn_scale=0.5).tolist() == [[1.5, 4.5]]
    # the same layer as an operator on an integer context covariance C = H_c H_cᵀ = [[1]]
    assert layer_operator(L, np.array([[1]]), attn_scale=0.5).tolist() == [[1.5]]


@pytest.mark.parametrize("shape", [(2,), (2, 2, 2, 2)])
def test_sorted_importance_refuses_wrong_rank(shape: tuple[int, ...]) -> None:
    """App. B sorts the heads of each layer: a 1-D or 4-D array is not models × layers × heads
    (the 4-D one was sorted along its third axis, the 1-D one raised numpy's AxisError)."""
    with pytest.raises(ValueError, match=r"Ws must be models × layers × heads .*got shape"):
        sorted_importance(np.full(shape, 0.5))


def test_excess_from_parts_accepts_lists() -> None:
    """The parts validated as arrays are the ones used: lists (the documented "vector") give
    the same numbers as arrays (they raised TypeError at ``r * parts['bias']``)."""
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    parts = error_decomposition(X, np.array([1.0, 0.0]), np.array([0.1, -0.2, 0.05]), 0.5, 3)
    Sigma = np.array([[2.0, 0.3], [0.3, 1.0]])
    as_lists = {k: np.asarray(v).tolist() for k, v in parts.items()}
    assert excess_from_parts(as_lists, Sigma) == excess_from_parts(parts, Sigma)


def test_error_decomposition_names_a_wrong_shape() -> None:
    """w* as a SymPy column (d×1) broadcast ``Xw* + ε`` to n×n and failed deep inside with a
    message about 9 labels; the shapes are now checked where they are given."""
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    with pytest.raises(ValueError, match=r"w\* must be a vector of length d = 2 .*\(2, 1\)"):
        error_decomposition(X, sp.Matrix([1, 0]), np.array([0.1, -0.2, 0.05]), 0.5, 3)
    with pytest.raises(ValueError, match=r"ε one of length n = 3 .*\(2,\)"):
        error_decomposition(X, np.array([1.0, 0.0]), np.array([0.1, -0.2]), 0.5, 3)


def test_phi_divergent_step_overflows_silently() -> None:
    """ηλ > 2 diverges: (1 − ηλ)^t overflows at large t, and φ is ±inf without a warning
    (η = 1, λ = 1000, t = 400: (1 − (−999)^400)/1000 = −inf; t = 401: +inf); small λ and
    λ = 0 in the same call keep their finite values (0.3·... by hand: ηt = 401)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float(phi(1e3, 1.0, 400)) == -np.inf
        got = phi(np.array([1e3, 0.0, 1e-20]), 1.0, 401)
    assert got[0] == np.inf
    assert got[1:] == pytest.approx([401.0, 401.0], rel=FLOAT_RTOL)


def test_apply_layer_complex_tokens_keep_their_imaginary_part() -> None:
    """A complex token matrix (accepted by the domain) keeps its dtype: by hand, H = [[1+i, 3]],
    one head with unit weights, n = 1, scale ½: v = k = 1+i, head = (1+i)²·H = 2i·H, so
    H' = H + i·H = [[2i, 3+3i]]."""
    L = LayerWeights(WQ=[np.eye(1)], WK=[np.eye(1)], WV=[np.eye(1)], W1=np.eye(1))
    got = apply_layer(np.array([[1 + 1j, 3]]), L, 1, attn_scale=0.5)
    assert got.dtype == np.complex128
    assert got.tolist() == [[2j, 3 + 3j]]


def test_phi_at_eta_lambda_one_is_exact_and_silent() -> None:
    """ηλ = 1 exactly: (1 − ηλ)^t = 0, so φ_t(λ) = 1/λ for t ≥ 1 (λ = 2, η = ½: 0.5), and
    φ_0 = 0; no log1p(−1) is taken on the way (no warning)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert phi(np.array([2.0, 2.0]), 0.5, 3).tolist() == [0.5, 0.5]
        assert float(phi(2.0, 0.5, 0)) == 0.0
