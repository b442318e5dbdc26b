"""[zfb24] literal predictors: the LSA read-out of eq. (6) and the preconditioned one-step GD of
eq. (12), plus the merged weights on the invariant set.
"""

from __future__ import annotations

import numpy as np

__all__ = ["lsa_predict", "predictor_predict", "weights_from_P"]


def lsa_predict(
    X: np.ndarray, y: np.ndarray, xq: np.ndarray, W_KQ: np.ndarray, W_PV: np.ndarray
) -> np.ndarray:
    """The LSA read-out of eq. (6), literally, from the embedding (4) with ``ρ = n``:
    ``ŷ = [W^{PV} E (Eᵀ W^{KQ} E)/ρ]_{d+1, n+1}`` for ``E = [[X, x_q],[y, 0]]`` (query included).

    Source: [zfb24] eqs. (4)–(6).

    Parameters
    ----------
    X : (b, n, d) context covariates; y : (b, n) labels; xq : (b, d) queries;
    W_KQ, W_PV : (d+1, d+1) merged weights

    Returns
    -------
    (b,) predictions.

    Examples
    --------
    On the invariant set it is the preconditioned GD step of :func:`predictor_predict`:

    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.standard_normal((3, 5, 2)), rng.standard_normal((3, 5))
    >>> xq = rng.standard_normal((3, 2))
    >>> U = np.array([[0.4, 0.1], [0.0, 0.3]])
    >>> y_lsa = lsa_predict(X, y, xq, *weights_from_P(U, 2.0))
    >>> bool(np.allclose(y_lsa, predictor_predict(2.0 * U, X, y, xq)))
    True
    """
    b, n, d = X.shape
    E = np.empty((b, d + 1, n + 1))
    E[:, :d, :n] = X.transpose(0, 2, 1)
    E[:, :d, n] = xq
    E[:, d, :n] = y
    E[:, d, n] = 0.0
    Z = E @ E.transpose(0, 2, 1) / n  # (b, d+1, d+1)
    zq = E[:, :, n]
    return np.einsum("i,bij,jk,bk->b", W_PV[d], Z, W_KQ, zq)


def predictor_predict(P: np.ndarray, X: np.ndarray, y: np.ndarray, xq: np.ndarray) -> np.ndarray:
    """Preconditioned one-step GD from 0 (eq. 12): ``ŷ = ĝᵀ P x_q`` with ``ĝ = (1/M) Σ yᵢ xᵢ``.

    This is the LSA read-out on u₁₂ = u₂₁ = 0 with P = u₋₁U₁₁; for symmetric P (the
    trained Γ⁻¹) it equals eq. (12)'s ``x_qᵀ P ĝ``.

    Parameters
    ----------
    P : (d, d); X : (b, M, d); y : (b, M); xq : (b, d)

    Returns
    -------
    (b,) predictions.

    Examples
    --------
    x = (1, 2), y = (2, 4), x_q = 3, P = 1: ĝ = (2 + 8)/2 = 5, ŷ = 15.

    >>> X, y, xq = np.array([[[1.0], [2.0]]]), np.array([[2.0, 4.0]]), np.array([[3.0]])
    >>> predictor_predict(np.eye(1), X, y, xq)
    array([15.])
    """
    g = np.einsum("bn,bnd->bd", y, X) / X.shape[1]
    return np.einsum("bd,de,be->b", g, P, xq)


def weights_from_P(U11: np.ndarray, u: float) -> tuple[np.ndarray, np.ndarray]:
    """Merged weights on the invariant set: ``W^{KQ} = [[U₁₁,0],[0,0]]``, ``W^{PV} = u e eᵀ``.

    Source: [zfb24] eq. (11) and Lemma 9 (u₁₂ = u₂₁ = 0).

    Returns
    -------
    (W^{KQ}, W^{PV}), each (d+1, d+1).

    Examples
    --------
    >>> K, R = weights_from_P(np.eye(1), 2.0)
    >>> K.tolist(), R.tolist()
    ([[1.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 2.0]])
    """
    d = U11.shape[0]
    K = np.zeros((d + 1, d + 1))
    K[:d, :d] = U11
    R = np.zeros((d + 1, d + 1))
    R[d, d] = u
    return K, R
