"""Invariant coordinates of trained models.

Trained factorised weights are defined only up to gauge symmetries (a rescaling between factors,
a permutation of heads, a sign).  Checks and figures compare what a theorem predicts: effective
products, canonicalised heads, distances to a solution manifold.  These functions read parameters
(numpy arrays, e.g. ``TrainResult.params``) and return plain numpy values; they contain no
prediction, so a check can put them beside any closed form.

One section per paper, in registry order; shared helpers first.  Each section extends
``__all__`` with its own names (``__all__ += [...]``), so the sections can be edited apart.
"""

from __future__ import annotations

import numpy as np

__all__ = ["relative_distance"]


def relative_distance(a: np.ndarray, b: np.ndarray) -> float:
    """``‖a − b‖_F / ‖b‖_F`` (``‖a‖_F`` if ``b = 0``): the TRAIN distance (docs/testing.md).

    >>> relative_distance(np.array([1.0, 1.0]), np.array([1.0, 0.0]))
    1.0
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    nb = float(np.linalg.norm(b))
    return float(np.linalg.norm(a - b)) / (nb if nb > 0 else 1.0)


# ---- zfb24 (lsa_flow) -------------------------------------------------------------------------


# ---- hpcy25 ---------------------------------------------------------------------------------


# ---- zwb24 (ltb) ------------------------------------------------------------------------------
