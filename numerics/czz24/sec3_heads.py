"""[czz24] §3 Eq. (3.1) route: a masked linear transformer's weights as theory objects and the exact
ΔE(i, j) of head masking through the effective predictor.  Duck-typed on the torch model
(attributes ``W_E, W_O, WQ, WK, WV, W1, heads, attn_scale``), so it never imports ``sims``."""

from __future__ import annotations

from typing import Any

import numpy as np

from numerics.czz24.sampling import sample_sparse_prompts
from theory.czz24.sec2_model import (
    LayerWeights,
    LinTFWeights,
    effective_predictor,
)
from theory.czz24.settings import SparseRegressionICL

__all__ = ["to_weights", "head_deltas", "exact_risks"]


def _np(t: Any) -> np.ndarray:
    return t.detach().double().numpy() if hasattr(t, "detach") else np.asarray(t, dtype=float)


def to_weights(model: Any) -> LinTFWeights:
    """The torch model's parameters as :class:`theory.czz24.LinTFWeights`."""
    layers = []
    for i in range(len(model.heads)):
        WQ, WK, WV = (_np(p[i]) for p in (model.WQ, model.WK, model.WV))
        layers.append(LayerWeights(WQ=list(WQ), WK=list(WK), WV=list(WV), W1=_np(model.W1[i])))
    return LinTFWeights(
        W_E=_np(model.W_E), layers=tuple(layers), W_O=_np(model.W_O), attn_scale=model.attn_scale
    )


def exact_risks(
    W: LinTFWeights, st: SparseRegressionICL, trials: int, seed: int, head_masks: Any = None
) -> np.ndarray:
    """Per-context ``‖Σ^{1/2}(ŵ_eff − w*)‖²`` on ``trials`` contexts drawn with ``seed``; (trials,).

    Exact in the query (the effective predictor of [czz24] Eq. (2.2)).  On the Props. 4.1 + 4.2
    construction it is the error of one pre-GD step on the same contexts:

    >>> from theory.czz24 import pregd_transformer
    >>> st = SparseRegressionICL.isotropic(d=2, s=1, n=8, sigma2=0.25)
    >>> W = pregd_transformer(2, 8, 0.5, 1)          # Alg. 1 (2 heads), then one GD layer (1 head)
    >>> from numerics.czz24.predictors import pregd_path
    >>> p = sample_sparse_prompts(st, 20, rng=np.random.default_rng(0))
    >>> ref = np.sum((pregd_path(p.X, p.y, 0.5, 1)[1] - p.w) ** 2, axis=1)
    >>> bool(np.allclose(exact_risks(W, st, 20, 0), ref))
    True
    """
    p = sample_sparse_prompts(st, trials, rng=np.random.default_rng(seed))
    wh = np.stack(
        [effective_predictor.raw(W, p.X[i], p.y[i], head_masks=head_masks) for i in range(trials)]
    )
    diff = wh - p.w
    return np.einsum("bi,ij,bj->b", diff, st.Sigma_x_array, diff)


def head_deltas(
    W: LinTFWeights, heads: tuple[int, ...], st: SparseRegressionICL, trials: int, seed: int
) -> np.ndarray:
    """ΔE(i, j) of Eq. (3.1) (layers × max heads, NaN where a layer has fewer heads).

    ``heads`` is the head count per layer.  Masking the single GD head leaves ``ŷ = 0``, whose
    risk is ``‖w*‖² = 1`` under the sign prior, so ``ΔE(2, 1) = 1 − E``:

    >>> from theory.czz24 import pregd_transformer
    >>> st = SparseRegressionICL.isotropic(d=2, s=1, n=8, sigma2=0.25)
    >>> W = pregd_transformer(2, 8, 0.5, 1)          # Alg. 1 (2 heads), then one GD layer (1 head)
    >>> D = head_deltas(W, (2, 1), st, 20, 0)
    >>> risk = exact_risks(W, st, 20, 0).mean()
    >>> D.shape, bool(np.isnan(D[1, 1])), bool(np.isclose(D[1, 0], 1 - risk))
    ((2, 2), True, True)
    """
    base = float(np.mean(exact_risks(W, st, trials, seed)))
    D = np.full((len(heads), max(heads)), np.nan)
    for i, h in enumerate(heads):
        for j in range(h):
            masks = [[True] * hh for hh in heads]
            masks[i][j] = False
            D[i, j] = float(np.mean(exact_risks(W, st, trials, seed, masks))) - base
    return D
