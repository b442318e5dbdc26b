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
    """A d×d PSD matrix ``A Aᵀ / k`` with ``A`` of ``rank`` (default d) columns, bounded entries.

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run); each draw is
    symmetric, PSD up to round-off and of rank at most ``rank``:

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(psd_matrices(3, rank=1))
    ... def test_psd(A):
    ...     assert A.shape == (3, 3) and np.allclose(A, A.T)
    ...     assert np.linalg.eigvalsh(A).min() > -1e-12 and np.linalg.matrix_rank(A) <= 1
    >>> test_psd()
    """
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

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run); every entry is a
    multiple of ``1/grid`` in ``[−scale, scale]``:

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(designs(2, 5, grid=4))
    ... def test_grid(X):
    ...     assert X.shape == (5, 2) and np.all(X * 4 == np.round(X * 4)) and np.abs(X).max() <= 2
    >>> test_grid()
    """
    k = int(round(scale * grid))
    entries = draw(st.lists(st.integers(-k, k), min_size=N * d, max_size=N * d))
    return np.array(entries, dtype=float).reshape(N, d) / grid


@st.composite
def pd_matrices(draw: st.DrawFn, d: int, *, ridge: float = 0.1) -> np.ndarray:
    """A d×d positive-definite matrix: PSD + ``ridge·I``.

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run); the smallest
    eigenvalue is at least ``ridge``:

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(pd_matrices(2, ridge=0.5))
    ... def test_pd(A):
    ...     assert np.linalg.eigvalsh(A).min() >= 0.5 - 1e-12
    >>> test_pd()
    """
    return draw(psd_matrices(d)) + ridge * np.eye(d)


@st.composite
def linear_regression_settings(
    draw: st.DrawFn, *, d: int | None = None, task_mean: bool = True, singular: bool = True
) -> LinearRegressionICL:
    """A :class:`LinearRegressionICL` with general PSD covariances, task mean and noise.

    ``d`` (default: drawn in 1–6), ``Sigma_x`` PSD of drawn rank (``singular=False``: positive
    definite), ``task_cov`` PSD, ``task_mean`` in ``[−2, 2]^d`` (``task_mean=False``: zero),
    ``noise_var`` ∈ [0, 4], ``N`` in 2–64 and the test length ``M`` (drawn, or ``N``).

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run); the setting has
    the asked dimension and a positive-definite ``Σ_x`` when asked:

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(linear_regression_settings(d=2, singular=False, task_mean=False))
    ... def test_setting(s):
    ...     assert s.d == 2 and np.linalg.eigvalsh(s.Sigma_x).min() > 0
    ...     assert not np.any(s.task_mean) and 2 <= s.N <= 64
    >>> test_setting()
    """
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
