"""[czz24] §2 Eq. (2.2): the masked multi-head linear transformer and its exact effective predictor.

A layer maps ``H ∈ R^{d_hid×m}`` (``m = n + q`` columns: ``n`` context tokens, then ``q`` queries)
to ``W_1 (H + Concat_k[V_k M K_kᵀ Q_k])`` with ``V_k = W_{V_k}H``, ``K_k = W_{K_k}H``,
``Q_k = W_{Q_k}H`` and the mask ``M = diag(1_n, 0_q)`` (Eqs. (2.2)–(2.3)).  Every function here
takes numpy arrays (float64) or SymPy matrices and uses only ``@``, ``.T`` and slicing, so the same
text serves the symbolic and the numeric checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import sympy as sp

from theory.czz24.domains import checked
from theory.settings.domains import Domain

__all__ = [
    "LayerWeights",
    "LinTFWeights",
    "apply_layer",
    "forward",
    "predict",
    "layer_operator",
    "effective_predictor",
]


@dataclass(frozen=True, eq=False, slots=True)
class LayerWeights:
    """One layer of Eq. (2.2): ``h`` heads of width ``d_hid/h`` and the merged ``W_1``.

    ``WQ[k], WK[k], WV[k]`` are ``(d_hid/h) × d_hid``; ``W1`` is ``d_hid × d_hid``.
    ``head_rows[k]`` is the first row of head ``k`` in the concatenation (default ``k·d_hid/h``).

    Source: [czz24] Eq. (2.2).  The construction of Prop. 4.1 has ``h = d`` heads:

    >>> from theory.czz24 import alg1_layer
    >>> W_E, layer = alg1_layer(3, 10)
    >>> layer.n_heads, layer.W1.shape
    (3, (9, 9))
    """

    WQ: Sequence[Any]
    WK: Sequence[Any]
    WV: Sequence[Any]
    W1: Any
    head_rows: tuple[int, ...] = field(default=())

    @property
    def n_heads(self) -> int:
        return len(self.WQ)

    def row_offset(self, k: int) -> int:
        if self.head_rows:
            return self.head_rows[k]
        return k * int(self.WV[k].shape[0])


@dataclass(frozen=True, eq=False, slots=True)
class LinTFWeights:
    """A full model ``ŷ = W_Oᵀ TF_L ∘ … ∘ TF_1 (W_E E)`` ([czz24] Eq. (2.2)).

    ``W_E`` is ``d_hid × (d+1)``, ``W_O`` a ``d_hid`` vector, ``attn_scale`` multiplies every
    attention term.  Props. 4.1 + 4.2 build one with ``1 + k`` layers and read-out ``−e_{d+1}``:

    >>> from theory.czz24 import pregd_transformer
    >>> model = pregd_transformer(2, 10, 0.1, 3)
    >>> len(model.layers), model.W_O.tolist()
    (4, [0.0, 0.0, -1.0, 0.0, 0.0, 0.0])
    """

    W_E: Any  # d_hid × (d+1) read-in
    layers: tuple[LayerWeights, ...]  # TF_1 … TF_L
    W_O: Any  # d_hid read-out vector (column d_hid × 1, or 1-D numpy)
    attn_scale: Any = 1  # factor on every attention term (the trained models use 1/n)


# the domains of the weight objects live with their classes (``domains`` cannot import this
# module: every section imports ``domains.checked``)
_EX_LAYER = LayerWeights(
    WQ=[np.diag([1.0, 0.5, -0.3, 0.0, 0.2, 0.7])],
    WK=[np.eye(6) * 0.4],
    WV=[np.diag([0.0, 0.0, -0.03, 0.1, 0.0, 0.0])],
    W1=np.eye(6),
)
#: Domains of ``layer`` and ``weights`` (examples: one head, d = 2, d_hid = 3d = 6).
WEIGHT_DOMAINS = {
    "layer": Domain("object", _EX_LAYER, cls=LayerWeights),
    "weights": Domain(
        "object",
        LinTFWeights(
            W_E=np.vstack([np.eye(3), np.eye(3) * 0.5]),
            layers=(_EX_LAYER,),
            W_O=np.array([0.0, 0.0, -1.0, 0.0, 0.0, 0.0]),
        ),
        cls=LinTFWeights,
    ),
}


def _zeros_like(H: Any, rows: int, cols: int) -> Any:
    if isinstance(H, np.ndarray):
        # at least float: an integer H with a fractional attn_scale or weight would truncate
        return np.zeros((rows, cols), dtype=np.result_type(H.dtype, float))
    return sp.zeros(rows, cols)


def _eye_like(H: Any, d: int) -> Any:
    return np.eye(d) if isinstance(H, np.ndarray) else sp.eye(d)


@checked(domains=WEIGHT_DOMAINS)
def apply_layer(
    H: Any,
    layer: LayerWeights,
    n: int,
    *,
    attn_scale: Any = 1,
    head_mask: Sequence[bool] | None = None,
) -> Any:
    r"""One layer of Eq. (2.2) on the token matrix ``H`` (``d_hid × m``), context = first ``n``
    columns.

    Source: [czz24] Eq. (2.2); mask Eq. (2.3).

    .. math:: H' = W_1\Bigl(H + \mathrm{Concat}_k\bigl[V_k M K_k^\top Q_k\bigr]\Bigr),
        \qquad V_k M K_k^\top Q_k = \sum_{a\le n} v_a k_a^\top Q_k.

    ``head_mask[k] = False`` zeroes head ``k``'s output slice (Sec. 3 head masking).

    Examples
    --------
    >>> L = LayerWeights(WQ=[np.eye(1)], WK=[np.eye(1)], WV=[np.eye(1)], W1=np.eye(1))
    >>> apply_layer(np.array([[1.0, 2.0]]), L, 1).tolist()   # [1 + 1·1·1, 2 + 1·1·2]
    [[2.0, 4.0]]
    """
    n = int(n)
    m = H.shape[1]
    if n > m:
        raise ValueError(f"n (context columns) must be ≤ m = {m} columns, got {n}")
    out = _zeros_like(H, H.shape[0], m)
    for k in range(layer.n_heads):
        if head_mask is not None and not head_mask[k]:
            continue
        Hc = H[:, :n]
        V, K, Q = layer.WV[k] @ Hc, layer.WK[k] @ Hc, layer.WQ[k] @ H
        head = (V @ K.T) @ Q
        r0 = layer.row_offset(k)
        out[r0 : r0 + head.shape[0], :] = out[r0 : r0 + head.shape[0], :] + attn_scale * head
    return layer.W1 @ (H + out)


@checked(domains=WEIGHT_DOMAINS)
def forward(
    weights: LinTFWeights,
    E: Any,
    n: int,
    *,
    head_masks: Sequence[Sequence[bool] | None] | None = None,
) -> list[Any]:
    """The hidden states ``[H^(0), H^(1), …, H^(L)]`` for the token matrix ``E`` ((d+1) × m).

    Source: [czz24] Eq. (2.2).  Columns of ``E`` are tokens ``(x; y)``: the ``n`` context ones,
    then the queries (label slot 0); every ``H^(ℓ)`` is ``d_hid × m``.  After the first layer of
    the Prop. 4.1 construction, rows ``1..d`` hold Alg. 1's ``x̃ = R̂x`` for every token:

    >>> from theory.czz24 import pregd_transformer, pregd_coefficient, forward, predict
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])        # n = 3 context rows, d = 2
    >>> y, xq = np.array([1.0, -0.5, 0.5]), np.array([1.0, 2.0])   # labels, one query
    >>> E = np.vstack([np.vstack([X, xq]).T, np.append(y, 0.0)])   # (d+1) × m, query label 0
    >>> model = pregd_transformer(2, 3, 0.5, 2)                    # Alg. 1, then 2 GD layers
    >>> from theory.czz24 import alg1
    >>> states = forward(model, E, 3)
    >>> len(states), states[1].shape
    (4, (6, 4))
    >>> np.allclose(states[1][:2].T, alg1(X, y, np.vstack([X, xq])))
    True
    """
    H = weights.W_E @ E
    states = [H]
    for i, layer in enumerate(weights.layers):
        hm = None if head_masks is None else head_masks[i]
        H = apply_layer(H, layer, n, attn_scale=weights.attn_scale, head_mask=hm)
        states.append(H)
    return states


@checked(domains=WEIGHT_DOMAINS)
def predict(weights: LinTFWeights, E: Any, n: int, **kw: Any) -> Any:
    """``ŷ = W_Oᵀ H^(L)`` at every column (1 × m); queries are columns ``n, …, m − 1``.

    Source: [czz24] Eq. (2.2).  Props. 4.1 + 4.2: the (1 + k)-layer construction predicts
    ``⟨ŵ_pre^k, x_q⟩``, k pre-GD steps (Eq. (4.3)):

    >>> from theory.czz24 import pregd_transformer, pregd_coefficient, forward, predict
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])        # n = 3 context rows, d = 2
    >>> y, xq = np.array([1.0, -0.5, 0.5]), np.array([1.0, 2.0])   # labels, one query
    >>> E = np.vstack([np.vstack([X, xq]).T, np.append(y, 0.0)])   # (d+1) × m, query label 0
    >>> model = pregd_transformer(2, 3, 0.5, 2)                    # Alg. 1, then 2 GD layers
    >>> yhat = predict(model, E, 3)
    >>> bool(np.isclose(yhat[3], pregd_coefficient(X, y, 0.5, 2) @ xq))
    True
    """
    H = forward(weights, E, n, **kw)[-1]
    W_O = weights.W_O
    if isinstance(W_O, np.ndarray):
        return W_O.reshape(-1) @ H
    return W_O.T @ H


@checked(domains=WEIGHT_DOMAINS)
def layer_operator(
    layer: LayerWeights, C: Any, *, attn_scale: Any = 1, head_mask: Sequence[bool] | None = None
) -> Any:
    r"""The context-dependent linear map of one layer on every column [derived].

    .. math:: A = W_1\Bigl(I + \sum_k P_k W_{V_k} \hat C W_{K_k}^\top W_{Q_k}\Bigr),
        \qquad \hat C = \sum_{a\le n} h_a h_a^\top,

    so ``H' = A H`` column by column (the mask makes keys and values context-only).

    Source: [czz24] Eqs. (2.2)–(2.3), [derived].  ``C`` is ``d_hid × d_hid``; returns
    ``d_hid × d_hid``.

    >>> from theory.czz24 import gd_layer, layer_operator, apply_layer
    >>> H = np.arange(24.0).reshape(6, 4) / 10                     # d_hid = 6, m = 4, n = 3
    >>> layer = gd_layer(2, 0.5, 3)
    >>> A = layer_operator(layer, H[:, :3] @ H[:, :3].T)
    >>> np.allclose(A @ H, apply_layer(H, layer, 3))
    True
    """
    d_hid = layer.W1.shape[0]
    S = _zeros_like(C, d_hid, d_hid)
    for k in range(layer.n_heads):
        if head_mask is not None and not head_mask[k]:
            continue
        blk = layer.WV[k] @ C @ layer.WK[k].T @ layer.WQ[k]
        r0 = layer.row_offset(k)
        S[r0 : r0 + blk.shape[0], :] = S[r0 : r0 + blk.shape[0], :] + attn_scale * blk
    return layer.W1 @ (_eye_like(C, d_hid) + S)


@checked(domains=WEIGHT_DOMAINS)
def effective_predictor(
    weights: LinTFWeights,
    X: Any,
    y: Any,
    *,
    head_masks: Sequence[Sequence[bool] | None] | None = None,
) -> Any:
    r"""The exact effective coefficient ``ŵ_eff(context)`` of a masked linear transformer [derived].

    Source: [czz24] Eq. (2.2) with the mask of Eq. (2.3).

    .. math:: \hat y_{n+j} = \langle \hat w_{\rm eff}, x_{n+j}\rangle, \qquad
        \hat w_{\rm eff} = \bigl[W_O^\top A_L \cdots A_1 W_E\bigr]_{1:d},

    where ``A_ℓ`` is :func:`layer_operator` at the context second moment ``Ĉ_ℓ`` of layer ℓ, and
    the context columns evolve by the same maps (``Ĉ_{ℓ+1} = A_ℓ Ĉ_ℓ A_ℓᵀ``).  The query slot of
    ``y`` is 0, so only the first ``d`` columns of ``W_E`` act on a query.

    Parameters
    ----------
    weights : the model;  X : context covariates ``n × d``;  y : context labels (n,)

    Returns
    -------
    ``(d,)`` float64 array (an exact SymPy model, e.g. ``pregd_transformer(..., exact=True)``, is
    evaluated in float64).

    Notes
    -----
    Exact for linear attention only (a softmax model is not linear in the query).  It removes the
    query and its noise from Monte Carlo: ``E_ICL = E_context ‖Σ^{1/2}(ŵ_eff − w*)‖²``.

    Examples
    --------
    The Props. 4.1 + 4.2 construction's coefficient is pre-GD's (Eq. (4.3)):

    >>> from theory.czz24 import pregd_transformer, pregd_coefficient, effective_predictor
    >>> X, y = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.array([1.0, -0.5, 0.5])
    >>> w_eff = effective_predictor(pregd_transformer(2, 3, 0.5, 2), X, y)
    >>> np.allclose(w_eff, pregd_coefficient(X, y, 0.5, 2))
    True
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float).reshape(-1)
    n, d = X.shape
    if y.shape[0] != n:
        raise ValueError(f"y must have n = {n} entries, got {y.shape[0]}")
    Hc = np.asarray(weights.W_E, dtype=float) @ np.vstack([X.T, y[None, :]])  # d_hid × n
    P = np.asarray(weights.W_E, dtype=float)[:, :d]  # query map (label slot 0)
    scale = float(weights.attn_scale)
    for i, layer in enumerate(weights.layers):
        hm = None if head_masks is None else head_masks[i]
        A = layer_operator(_float_layer(layer), Hc @ Hc.T, attn_scale=scale, head_mask=hm)
        Hc, P = A @ Hc, A @ P
    return np.asarray(weights.W_O, dtype=float).reshape(-1) @ P


def _float_layer(layer: LayerWeights) -> LayerWeights:
    """The layer with float64 matrices (an exact SymPy model evaluated numerically); every other
    field (the heads' rows) as it is."""

    def f(M: Any) -> np.ndarray:
        return np.asarray(M, dtype=float)

    return replace(
        layer,
        WQ=[f(M) for M in layer.WQ],
        WK=[f(M) for M in layer.WK],
        WV=[f(M) for M in layer.WV],
        W1=f(layer.W1),
    )
