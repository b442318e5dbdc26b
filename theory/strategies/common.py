"""Shared Hypothesis strategies: dimensions, lengths, variances, PSD matrices, linear settings."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from theory.settings import GaussianCovariates, GaussianTaskPrior, LinearRegressionICL

__all__ = [
    "dims",
    "prompt_lengths",
    "variances",
    "psd_matrices",
    "pd_matrices",
    "designs",
    "linear_regression_settings",
]

dims = st.integers(1, 6)
prompt_lengths = st.integers(2, 64)
variances = st.floats(0.0, 4.0, allow_nan=False, allow_infinity=False)


@st.composite
def psd_matrices(
    draw: st.DrawFn, d: int, *, rank: int | None = None, scale: float = 2.0
) -> np.ndarray:
    """A d×d PSD matrix ``A Aᵀ / k`` with ``A`` of ``rank`` (default d) columns, bounded entries."""
    k = d if rank is None else rank
    entries = draw(
        st.lists(
            st.floats(-scale, scale, allow_nan=False, allow_infinity=False),
            min_size=d * k,
            max_size=d * k,
        )
    )
    A = np.array(entries, dtype=float).reshape(d, k)
    return A @ A.T / max(k, 1)


@st.composite
def designs(draw: st.DrawFn, d: int, N: int, *, scale: float = 2.0, grid: int = 64) -> np.ndarray:
    """An N×d design X with entries on the grid ``k/grid`` in ``[−scale, scale]``.

    The theory's designs are real matrices of any rank; float64 represents those whose ``XᵀX``
    neither underflows nor overflows.  A grid (rather than any float) keeps the draws there: a
    non-zero entry is at least ``1/grid``, so ``np.linalg.matrix_rank`` and exact arithmetic agree
    on the rank, while zeros, equal rows and rank deficiency (what the theory covers) are still
    drawn.  (Any float in ``[−2, 2]`` admits e.g. ``X = [[5.8e-280]]``: full rank by
    ``matrix_rank``, yet ``XᵀX`` underflows to 0.)
    """
    k = int(round(scale * grid))
    entries = draw(st.lists(st.integers(-k, k), min_size=N * d, max_size=N * d))
    return np.array(entries, dtype=float).reshape(N, d) / grid


@st.composite
def pd_matrices(draw: st.DrawFn, d: int, *, ridge: float = 0.1) -> np.ndarray:
    """A d×d positive-definite matrix: PSD + ``ridge·I``."""
    return draw(psd_matrices(d)) + ridge * np.eye(d)


@st.composite
def linear_regression_settings(
    draw: st.DrawFn, *, d: int | None = None, task_mean: bool = True, singular: bool = True
) -> LinearRegressionICL:
    """A :class:`LinearRegressionICL` with general PSD covariances, task mean and noise."""
    d = draw(dims) if d is None else d
    rank = draw(st.integers(1, d)) if singular else d
    Sigma = draw(psd_matrices(d, rank=rank)) if singular else draw(pd_matrices(d))
    Psi = draw(psd_matrices(d))
    mean = (
        np.array(draw(st.lists(st.floats(-2, 2, allow_nan=False), min_size=d, max_size=d)))
        if task_mean
        else np.zeros(d)
    )
    return LinearRegressionICL(
        covariates=GaussianCovariates(Sigma_x=Sigma),
        prior=GaussianTaskPrior(task_mean=mean, task_cov=Psi),
        noise_var=draw(variances),
        N=draw(prompt_lengths),
        M=draw(st.none() | prompt_lengths),
    )
