"""[czz24] §3 Eq. (3.1): head importance from masking, row-sorted averages and the pruning rule.

``W_{i,j} = ΔE(i,j) / Σ_k ΔE(i,k)`` with ``ΔE(i,j) = E_ICL(head j of layer i masked) − E_ICL``
(sort direction descending).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from theory.czz24.domains import checked

__all__ = ["head_importance", "sorted_importance", "pruning_keep"]


@checked
def head_importance(delta: Any) -> np.ndarray:
    r"""Eq. (3.1): rows of ``ΔE`` normalised to sum 1 (rows = layers, columns = heads).

    .. math:: W_{i,j} = \frac{\Delta\mathcal E(i,j)}{\sum_{k=1}^h \Delta\mathcal E(i,k)}.

    >>> head_importance([[1.0, 3.0]]).tolist()
    [[0.25, 0.75]]
    """
    D = np.asarray(delta, dtype=float)
    if D.ndim != 2:
        raise ValueError(f"delta must be layers × heads, got shape {D.shape}")
    tot = D.sum(axis=1, keepdims=True)
    if np.any(tot == 0):
        raise ValueError("a layer's ΔE sums to 0: Eq. (3.1) is undefined for that layer")
    return D / tot


@checked
def sorted_importance(Ws: Any) -> np.ndarray:
    """App. B: sort each row descending, then average over the noise-level models.

    Source: [czz24] App. B (Figs. 5–8).  ``Ws`` is ``models × layers × heads`` (or one
    ``layers × heads`` table); returns ``layers × heads``.

    >>> np.round(sorted_importance([[[0.2, 0.8]], [[0.6, 0.4]]]), 6).tolist()   # (0.8+0.6)/2
    [[0.7, 0.3]]
    """
    A = np.asarray(Ws, dtype=float)
    if A.ndim not in (2, 3):
        raise ValueError(
            f"Ws must be models × layers × heads (or one layers × heads table), got shape "
            f"{A.shape} ([czz24] App. B)"
        )
    if A.ndim == 2:
        A = A[None]
    return np.mean(-np.sort(-A, axis=2), axis=0)


@checked
def pruning_keep(W: Any) -> np.ndarray:
    """Sec. 3 pruning: keep every head of layer 1 and the most important head of each later
    layer (boolean layers × heads).

    Source: [czz24] §3 (pruning experiment, Fig. 2), using the importance ``W`` of Eq. (3.1).

    >>> pruning_keep([[0.3, 0.7], [0.9, 0.1]]).tolist()
    [[True, True], [True, False]]
    """
    W = np.asarray(W, dtype=float)
    keep = np.zeros(W.shape, dtype=bool)
    keep[0] = True
    keep[np.arange(1, W.shape[0]), np.argmax(W[1:], axis=1)] = True
    return keep
