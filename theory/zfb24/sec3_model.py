"""[zfb24] §2 and §5 (Lemma 9): the LSA read-out, eqs. (3)–(6), and its quadratic form (24).

The merged weights ``W^{KQ}, W^{PV} ∈ R^{(d+1)×(d+1)}`` act on the embedding ``E`` of eq. (4);
Lemma 9 writes the prediction as ``Vec(U)ᵀ H Vec(U)``.  Numbers in -> float64, SymPy in ->
expressions (:mod:`theory.common.backend`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.common.backend import SP, ops_for
from theory.settings import check_choice
from theory.zfb24.domains import checked

__all__ = [
    "U_from_weights",
    "vec",
    "lemma9_H",
    "prediction_quadratic",
    "prediction_eq6",
    "lsa_output",
]


@checked
def U_from_weights(W_KQ: Any, W_PV: Any) -> Any:
    r"""Lemma 9's ``U = [[U_11, u_12], [u_21ᵀ, u_{-1}]]`` from the merged weights.

    Source: [zfb24] Lemma 9 / eq. (24): U₁₁ = W^{KQ}_{11}, u₁₂ = w^{PV}_{21}, u₂₁ = w^{KQ}_{21},
    u₋₁ = w^{PV}_{22}: the first d columns of W^{KQ} and, as last column, the transposed last row
    of W^{PV}.

    Examples
    --------
    >>> U_from_weights(np.eye(2), 2 * np.eye(2)).tolist()
    [[1.0, 0.0], [0.0, 2.0]]
    """
    if ops_for(W_KQ, W_PV) is SP:
        K: Any = sp.Matrix(W_KQ)  # Any: SymPy's stubs type slices as scalars
        R: Any = sp.Matrix(W_PV)
        d = K.shape[0] - 1
        return K[:, :d].row_join(R[d, :].T)
    K, R = np.asarray(W_KQ, dtype=float), np.asarray(W_PV, dtype=float)
    d = K.shape[0] - 1
    return np.concatenate([K[:, :d], R[d, :][:, None]], axis=1)


@checked
def vec(U: Any, *, order: str = "column") -> Any:
    """``Vec(U)``: column-major (the paper's convention) or ``order="row"`` (a fault).

    Source: [zfb24] Lemma 9 (``Vec`` stacks the columns).

    Parameters
    ----------
    U : (m, n) matrix

    Returns
    -------
    (m·n,) float64 array, or an (m·n)×1 SymPy column.

    Examples
    --------
    >>> vec([[1, 2], [3, 4]]).tolist()          # columns stacked
    [1.0, 3.0, 2.0, 4.0]
    >>> vec([[1, 2], [3, 4]], order="row").tolist()
    [1.0, 2.0, 3.0, 4.0]
    """
    check_choice("order", order, ("column", "row"))
    if ops_for(U) is SP:
        U = sp.Matrix(U)
        return (U.T if order == "column" else U).reshape(U.shape[0] * U.shape[1], 1)
    return np.asarray(U, dtype=float).flatten(order="F" if order == "column" else "C")


@checked
def lemma9_H(E: Any, rho: Any) -> Any:
    r"""``H = ½ X ⊗ (E Eᵀ/ρ)`` with ``X = [[0, x_q], [x_qᵀ, 0]]``.

    Source: [zfb24] Lemma 9, eq. (24).

    .. math:: \hat y = u^\top H u,\quad u = \mathrm{Vec}(U),\quad
              H = \tfrac12 X \otimes \frac{EE^\top}{\rho}

    Parameters
    ----------
    E : (d+1, N+1) embedding of eq. (4) (last column: the query ``[x_q; 0]``); rho : ρ > 0

    Returns
    -------
    ((d+1)², (d+1)²) float64 array, or a SymPy matrix.

    Notes
    -----
    X has eigenvalues ±‖x_q‖ and 0 (multiplicity d−1), so H has exactly rank(E) negative
    eigenvalues [derived]: d+1 when E Eᵀ has full rank (generic E with N ≥ d), N+1 when N < d.
    The paper (§5.1) prints "at least d + 1" for every N; at N < d it has N + 1.  Either way
    the loss is non-convex.

    Examples
    --------
    Generic E (E Eᵀ of full rank) at d = 2: exactly d + 1 = 3 negative eigenvalues.

    >>> E = np.array([[1.0, 0.2, 0.5], [0.3, -1.0, 0.4], [0.7, 0.9, 0.0]])
    >>> H = lemma9_H(E, 2)
    >>> H.shape, int(np.sum(np.linalg.eigvalsh(H) < -1e-12))
    ((9, 9), 3)

    At N = 1 < d = 2, E (3 × 2) has rank N + 1 = 2, and H has 2 negative eigenvalues, not 3:

    >>> E1 = np.array([[1.0, 0.5], [0.3, 0.4], [0.7, 0.0]])
    >>> int(np.sum(np.linalg.eigvalsh(lemma9_H(E1, 1)) < -1e-12))
    2
    """
    xp = ops_for(E, rho)
    E = xp.mat(E)
    D = E.shape[0]
    d = D - 1
    xq = E[:d, E.shape[1] - 1]
    X = xp.zeros(D, D)
    for i in range(d):
        X[i, d] = xq[i]
        X[d, i] = xq[i]
    Z = (E @ E.T) / rho
    return xp.kron(X, Z) / 2


@checked
def prediction_quadratic(U: Any, E: Any, rho: Any, *, order: str = "column") -> Any:
    """``uᵀ H u`` of Lemma 9 (``order="row"`` is the deliberately wrong Vec, a negative control).

    Source: [zfb24] Lemma 9, eq. (24).

    Parameters
    ----------
    U : (d+1, d+1) matrix of Lemma 9 (:func:`U_from_weights`); E : (d+1, N+1) embedding; rho : ρ > 0

    Examples
    --------
    Lemma 9's identity: the quadratic form equals the prediction (6) of the same weights.

    >>> rng = np.random.default_rng(0)
    >>> E = rng.standard_normal((3, 4)); E[2, 3] = 0.0          # d = 2, N = 3, query label 0
    >>> K, R = rng.standard_normal((3, 3)), rng.standard_normal((3, 3))
    >>> q = prediction_quadratic(U_from_weights(K, R), E, 3)
    >>> bool(np.isclose(q, prediction_eq6(E, K, R, 3)))
    True
    """
    u = vec(U, order=order)
    H = lemma9_H(E, rho)
    if ops_for(U, E, rho) is SP:
        return sp.expand((sp.Matrix(u).T * sp.Matrix(H) * sp.Matrix(u))[0, 0])
    return float(u @ H @ u)


@checked
def prediction_eq6(E: Any, W_KQ: Any, W_PV: Any, rho: Any) -> Any:
    r"""The LSA prediction, eq. (6):
    ``ŷ = (w^{PV}_{21}ᵀ, w^{PV}_{22}) (EEᵀ/ρ) [W^{KQ}_{11}; w^{KQ}_{21}ᵀ] x_q``.

    Source: [zfb24] eq. (6) (ρ = number of columns of E minus 1).

    Parameters
    ----------
    E : (d+1, N+1) embedding [[x_1 … x_N x_q], [y_1 … y_N 0]]; W_KQ, W_PV : (d+1, d+1); rho : ρ > 0

    Returns
    -------
    float (SymPy expression for SymPy input).

    Examples
    --------
    With ``W^{KQ}_{11} = I`` and ``w^{PV}_{22} = 1`` the LSA is one step of gradient descent from 0:
    ``ŷ = x_q·(1/ρ)Σ yᵢxᵢ``; here x = (1, 2), y = (2, 4), x_q = 3, ρ = 2: 3·(2 + 8)/2 = 15.

    >>> E = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 0.0]])
    >>> K = np.array([[1.0, 0.0], [0.0, 0.0]]); R = np.array([[0.0, 0.0], [0.0, 1.0]])
    >>> prediction_eq6(E, K, R, 2)
    15.0
    """
    xp = ops_for(E, W_KQ, W_PV, rho)
    E, K, R = xp.mat(E), xp.mat(W_KQ), xp.mat(W_PV)
    D, n1 = E.shape
    d = D - 1
    Z = (E @ E.T) / rho
    if xp is SP:
        return sp.expand((R[d, :] * Z * K[:, :d] * E[:d, n1 - 1])[0, 0])
    return float(R[d, :] @ Z @ K[:, :d] @ E[:d, n1 - 1])


@checked
def lsa_output(E: Any, W_KQ: Any, W_PV: Any, rho: Any) -> Any:
    r"""The full LSA output ``f(E) = E + W^{PV} E (Eᵀ W^{KQ} E)/ρ`` (eq. (3)/(5)).

    ŷ is entry (d+1, N+1).

    Source: [zfb24] eq. (3), (5).

    Parameters
    ----------
    E : (d+1, N+1) embedding; W_KQ, W_PV : (d+1, d+1); rho : ρ > 0

    Returns
    -------
    (d+1, N+1) float64 array (SymPy matrix for SymPy input).

    Examples
    --------
    The bottom-right entry is the prediction of eq. (6) (same data as :func:`prediction_eq6`):

    >>> E = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 0.0]])
    >>> K = np.array([[1.0, 0.0], [0.0, 0.0]]); R = np.array([[0.0, 0.0], [0.0, 1.0]])
    >>> float(lsa_output(E, K, R, 2)[-1, -1])
    15.0
    """
    xp = ops_for(E, W_KQ, W_PV, rho)
    E, K, R = xp.mat(E), xp.mat(W_KQ), xp.mat(W_PV)
    return E + R @ E @ (E.T @ K @ E) / rho
