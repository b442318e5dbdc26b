"""[czz24] §4.1 Alg. 1, Prop. 4.1 / C.1 and Prop. 4.2 / C.2: explicit transformer weights.

* :func:`alg1` -- the preprocessing ``x̃_k = R̂ x_k``, ``R̂ = diag(r̂)``, ``r̂ = Xᵀy/n`` (Eq. 4.1);
* :func:`alg1_layer` -- one layer with ``d`` heads of width 3 (``d_hid = 3d``) and ``W_E`` that
  implements Alg. 1 exactly (Prop. 4.1, weights of App. C.1 as we read them);
* :func:`gd_layer` -- a single-head layer doing one GD step on the preprocessed context
  (Prop. 4.2, Eq. C.7), read out as ``ŷ = −H_{d+1, n+1}``;
* :func:`pregd_transformer` -- the (1 + k)-layer model of Alg. 1 followed by k GD layers;
* :func:`alg1_kronecker_matrix` -- the head-count argument [derived]: Alg. 1 as a bilinear
  map of the context moment has Kronecker rank ``d``, so one layer needs ``h ≥ d`` heads.

``exact=True`` builds SymPy matrices with exact entries (``1/n`` rational, ``η`` any SymPy
expression); otherwise float64 numpy arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.common.backend import ops_for
from theory.czz24.domains import checked
from theory.czz24.sec2_model import LayerWeights, LinTFWeights
from theory.settings import check_int

__all__ = [
    "alg1",
    "rhat",
    "alg1_layer",
    "gd_layer",
    "pregd_transformer",
    "READOUT_SIGN",
    "alg1_kronecker_matrix",
    "alg1_min_heads",
    "alg1_best_rank_error",
]

#: Prop. 4.2 read-out sign: the prediction is ``−H_{d+1, n+1}`` (spec §6 item 5).
READOUT_SIGN = -1


@checked
def rhat(X: Any, y: Any) -> Any:
    r"""Empirical correlations ``r̂ = Xᵀy/n`` (Eq. 4.1), ``X`` n×d, ``y`` (n,) or n×1.

    >>> rhat(np.array([[1.0, 2.0], [3.0, 0.0]]), np.array([1.0, 1.0])).tolist()
    [2.0, 1.0]
    """
    xp = ops_for(X, y)
    Xm, yv = xp.mat(X), xp.vec(y)
    if yv.shape[0] != Xm.shape[0]:
        raise ValueError(
            f"y must have one label per row of X (n = {Xm.shape[0]}), got "
            f"{yv.shape[0]} labels ([czz24] Eq. 4.1)"
        )
    return Xm.T @ yv / Xm.shape[0]


@checked
def alg1(X_ctx: Any, y_ctx: Any, X_all: Any) -> Any:
    r"""Alg. 1 preprocessing: every token (context and query) rescaled by the *context's* ``R̂``.

    Source: [czz24] Alg. 1, Eq. (4.1).

    .. math:: \tilde x_k = \hat R x_k,\quad \hat R = \mathrm{diag}(\hat r),\quad
        \hat r = \tfrac1n \textstyle\sum_{i\le n} x_i y_i .

    Returns ``X_all · diag(r̂)`` (rows are tokens).

    >>> alg1(np.eye(2), np.array([2.0, 4.0]), np.array([[1.0, 1.0]])).tolist()
    [[1.0, 2.0]]
    """
    r = rhat(X_ctx, y_ctx)
    if isinstance(r, np.ndarray):
        return np.asarray(X_all, dtype=float) * r[None, :]
    Xa = sp.Matrix(X_all)
    return Xa @ sp.diag(*list(r))


def _unit(D: int, k: int, exact: bool) -> Any:
    """Row vector ``e_k`` of length ``D`` (1-based ``k``)."""
    v = sp.zeros(1, D) if exact else np.zeros((1, D))
    v[0, k - 1] = 1
    return v


def _stack(rows: list[Any], exact: bool) -> Any:
    return sp.Matrix.vstack(*rows) if exact else np.vstack(rows)


@checked
def alg1_layer(
    d: int, n: Any, *, exact: bool = False, n_heads: int | None = None
) -> tuple[Any, LayerWeights]:
    r"""Prop. 4.1 / C.1: ``(W_E, TF_1)`` with ``h = d`` heads, ``d_hid = 3d``, implementing Alg. 1.

    Source: [czz24] Prop. 4.1, App. C.1 (Eqs. C.1–C.5).

    Weights (1-based rows, ``e_k^{(D)}`` the unit row vector):

    * ``W_E`` (3d × (d+1)): row ``3i−2 = e_i``, row ``3i−1 = e_{d+1}``, row ``3i = 0``;
    * head ``i``: ``W_{K_i} = (1/n)[0; 0; e_{3i−1}]``, ``W_{Q_i} = W_{V_i} = [0; 0; e_{3i−2}]``;
    * ``W_1``: row ``k = e_{3k}`` (k ≤ d), row ``d+1 = e_2``, rows ``d+2..3d`` zero.

    Then rows ``1..d`` of ``H^(1)`` are ``x̃`` for every token and row ``d+1`` is ``(y, 0)``.

    ``n_heads < d`` keeps only heads ``1..n_heads`` (a negative control: the remaining
    coordinates come out 0 instead of ``r̂_j x_j``).

    Returns ``(W_E, layer)``: ``W_E`` 3d × (d+1) and a :class:`~theory.czz24.LayerWeights`.

    >>> from theory.czz24 import alg1_layer, apply_layer, alg1
    >>> X, y = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.array([1.0, -0.5, 1.0])
    >>> W_E, layer = alg1_layer(2, 3)
    >>> W_E.shape, layer.n_heads
    ((6, 3), 2)
    >>> H1 = apply_layer(W_E @ np.vstack([X.T, y]), layer, 3)   # context columns only
    >>> np.allclose(H1[:2].T, alg1(X, y, X)), np.allclose(H1[2], y)
    (True, True)
    """
    d = int(d)
    h = d if n_heads is None else check_int("n_heads", n_heads, minimum=0)
    if h > d:
        raise ValueError(f"n_heads must be ≤ d = {d} (Prop. 4.1 uses d heads), got {h}")
    D = 3 * d
    inv_n = (sp.Integer(1) / n) if exact else 1.0 / float(n)
    W_E = _stack(
        [
            r
            for i in range(1, d + 1)
            for r in (
                _unit(d + 1, i, exact),
                _unit(d + 1, d + 1, exact),
                sp.zeros(1, d + 1) if exact else np.zeros((1, d + 1)),
            )
        ],
        exact,
    )
    z = sp.zeros(1, D) if exact else np.zeros((1, D))
    WQ, WK, WV = [], [], []
    for i in range(1, h + 1):
        sel_x = _stack([z, z, _unit(D, 3 * i - 2, exact)], exact)
        WQ.append(sel_x)
        WV.append(sel_x)
        WK.append(_stack([z, z, _unit(D, 3 * i - 1, exact)], exact) * inv_n)
    rows = [_unit(D, 3 * k, exact) for k in range(1, d + 1)] + [_unit(D, 2, exact)]
    rows += [z] * (D - d - 1)
    W1 = _stack(rows, exact)
    return W_E, LayerWeights(WQ=WQ, WK=WK, WV=WV, W1=W1, head_rows=tuple(3 * i for i in range(h)))


@checked
def gd_layer(d: int, eta: Any, n: Any, *, exact: bool = False) -> LayerWeights:
    r"""Prop. 4.2 / C.2: one single-head layer = one GD step on the preprocessed context.

    Source: [czz24] Prop. 4.2, Eq. (C.7).

    .. math:: W_V = -\tfrac{\eta}{n} e_{d+1}e_{d+1}^\top,\quad W_K = W_Q =
        \begin{pmatrix} I_d & 0\\ 0 & 0\end{pmatrix},\quad W_1 = I_{3d}
        \qquad (\text{all } 3d\times 3d).

    Row ``d+1`` holds residuals ``y_i − ⟨w̃^ℓ, x̃_i⟩`` (context) and ``−⟨w̃^ℓ, x̃⟩`` (queries), so
    the prediction after the layer is ``−H_{d+1, n+1}`` (:data:`READOUT_SIGN`).

    ``exact=True`` returns SymPy matrices (``η/n`` exact).

    >>> float(gd_layer(2, 0.5, 10).WV[0][2, 2])   # −η/n
    -0.05
    >>> gd_layer(2, sp.Rational(1, 2), 10, exact=True).WV[0][2, 2]
    -1/20
    """
    d = int(d)
    D = 3 * d
    if exact:
        WV = sp.zeros(D, D)
        WV[d, d] = -sp.sympify(eta) / n
        WK = sp.diag(*([1] * d + [0] * (D - d)))
        W1 = sp.eye(D)
    else:
        WV = np.zeros((D, D))
        WV[d, d] = -float(eta) / float(n)
        WK = np.diag([1.0] * d + [0.0] * (D - d))
        W1 = np.eye(D)
    return LayerWeights(WQ=[WK], WK=[WK], WV=[WV], W1=W1)


@checked
def pregd_transformer(
    d: int,
    n: Any,
    eta: Any,
    k: int,
    *,
    exact: bool = False,
    readout_sign: int = READOUT_SIGN,
    n_heads: int | None = None,
) -> LinTFWeights:
    """The (1 + k)-layer model of Props. 4.1 + 4.2: Alg. 1, then ``k`` GD layers with step ``η``;
    read-out ``W_O = readout_sign · e_{d+1}`` (the paper's sign is −1).

    Source: [czz24] Props. 4.1 and 4.2 (App. C.1, C.2).  Its prediction is that of ``k`` pre-GD
    steps, Eq. (4.3):

    >>> from theory.czz24 import pregd_transformer, effective_predictor, pregd_coefficient
    >>> X, y = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.array([1.0, -0.5, 1.0])
    >>> model = pregd_transformer(2, 3, 0.5, 4)
    >>> len(model.layers)
    5
    >>> np.allclose(effective_predictor(model, X, y), pregd_coefficient(X, y, 0.5, 4))
    True
    """
    k = int(k)
    W_E, first = alg1_layer(d, n, exact=exact, n_heads=n_heads)
    layers = (first,) + tuple(gd_layer(d, eta, n, exact=exact) for _ in range(k))
    D = 3 * d
    W_O = sp.zeros(D, 1) if exact else np.zeros(D)
    W_O[d] = readout_sign
    return LinTFWeights(W_E=W_E, layers=layers, W_O=W_O)


@checked
def alg1_kronecker_matrix(d: int) -> sp.Matrix:
    r"""Alg. 1 as a bilinear map of ``(Ĉ, z)``, unfolded to ``[(o, i), (j, c)]`` [derived].

    Source: [czz24] Prop. 4.1 (head count), [derived].

    A head's output at a query is ``A_k Ĉ B_k z`` (``Ĉ`` the context moment, ``z = (x; 0)``), i.e.
    the tensor ``Σ_k A_k[o,i] B_k[j,c]``: each head is one rank-1 term of the unfolding
    ``M[(o,i),(j,c)]``.  Alg. 1's output ``x̃_o = Ĉ_{o,d+1} z_o`` is
    ``M = Σ_o e_{(o,o)} e_{(d+1,o)}ᵀ``.  The residual is linear in ``z`` alone and cannot help.

    Returns a ``d(d+1) × (d+1)d`` SymPy matrix of rank ``d``:

    >>> M = alg1_kronecker_matrix(2)
    >>> M.shape, M.rank()
    ((6, 6), 2)
    """
    d = int(d)
    D = d + 1
    M = sp.zeros(d * D, D * d)
    for o in range(d):
        M[o * D + o, d * d + o] = 1
    return M


@checked
def alg1_min_heads(d: int) -> int:
    """The least number of heads of one linear-attention layer that implements Alg. 1 exactly
    [derived]: the rank of :func:`alg1_kronecker_matrix` (= d).

    >>> alg1_min_heads(4)
    4
    """
    return int(alg1_kronecker_matrix(d).rank())


@checked
def alg1_best_rank_error(d: int, h: int) -> float:
    """Eckart–Young: least relative Frobenius error of an ``h``-term (h-head) approximation of the
    Alg. 1 tensor [derived]: ``sqrt(max(d − h, 0)/d)`` (all d singular values equal 1).

    >>> alg1_best_rank_error(4, 2)
    0.7071067811865476
    """
    sv = np.linalg.svd(np.asarray(alg1_kronecker_matrix(d), dtype=float), compute_uv=False)
    h = int(h)
    return float(np.sqrt(np.sum(sv[h:] ** 2) / np.sum(sv**2)))
