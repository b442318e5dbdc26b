"""Hypothesis strategy for [zwb24] (slug ltb) settings, §3 Assumption 3.1."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from theory.settings import LinearRegressionICL
from theory.strategies.common import pd_matrices, psd_matrices

__all__ = ["zwb24_settings"]


@st.composite
def zwb24_settings(draw: st.DrawFn, *, d: int | None = None, singular: bool = True
                   ) -> LinearRegressionICL:
    """A validated :class:`~theory.settings.LinearRegressionICL` of zwb24 Assumption 3.1: PSD
    ``Sigma_x = H`` (possibly singular), PSD ``task_cov = Psi``, ``task_mean = beta*``,
    ``noise_var = sigma2 ≥ 0.01`` (so ``tr(H Psi) + sigma2 > 0``) and ``N ≥ 1``."""
    d = draw(st.integers(1, 4)) if d is None else d
    rank = draw(st.integers(1, d)) if singular else d
    H = draw(psd_matrices(d, rank=rank)) if singular else draw(pd_matrices(d))
    Psi = draw(psd_matrices(d))
    bs = np.array(draw(st.lists(st.floats(-3, 3, allow_nan=False), min_size=d, max_size=d)))
    s2 = draw(st.floats(0.01, 2.0, allow_nan=False))
    N = draw(st.integers(1, 50))
    return LinearRegressionICL.from_arrays(Sigma_x=H, N=N, task_mean=bs, task_cov=Psi,
                                           noise_var=s2)
