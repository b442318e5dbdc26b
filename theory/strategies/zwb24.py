"""Hypothesis strategies for [zwb24] (slug ltb) settings, §3 Assumption 3.1, and the settings of
its trained families: Thm 6.3 and Table 1."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from theory.settings import LinearRegressionICL
from theory.strategies.common import pd_matrices, psd_matrices

__all__ = ["zwb24_settings", "thm63_train_settings", "table1_train_settings"]


@st.composite
def zwb24_settings(
    draw: st.DrawFn, *, d: int | None = None, singular: bool = True
) -> LinearRegressionICL:
    """A validated :class:`~theory.settings.LinearRegressionICL` of zwb24 Assumption 3.1: PSD
    ``Sigma_x = H`` (possibly singular), PSD ``task_cov = Psi``, ``task_mean = beta*``,
    ``noise_var = sigma2 ≥ 0.01`` (so ``tr(H Psi) + sigma2 > 0``) and ``N ≥ 1``.

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run); ``tr(HΨ) + σ² >
    0``, as the closed forms need:

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(zwb24_settings(d=2))
    ... def test_positive(s):
    ...     assert np.trace(s.Sigma_x @ s.task_cov) + s.noise_var >= 0.01
    >>> test_positive()
    """
    d = draw(st.integers(1, 4)) if d is None else d
    rank = draw(st.integers(1, d)) if singular else d
    H = draw(psd_matrices(d, rank=rank)) if singular else draw(pd_matrices(d))
    Psi = draw(psd_matrices(d))
    bs = np.array(draw(st.lists(st.floats(-3, 3, allow_nan=False), min_size=d, max_size=d)))
    s2 = draw(st.floats(0.01, 2.0, allow_nan=False))
    N = draw(st.integers(1, 50))
    return LinearRegressionICL.from_arrays(Sigma_x=H, N=N, task_mean=bs, task_cov=Psi, noise_var=s2)


def _train_settings(
    d_max: int, N_max: int, *, d_min: int = 1, N_min: int = 2, beta_min: float = 0.0
) -> st.SearchStrategy[dict]:
    return st.fixed_dictionaries(
        {
            "d": st.integers(d_min, d_max),
            "N": st.integers(N_min, N_max),
            "sigma2": st.floats(0.0, 1.0, allow_nan=False, allow_infinity=False),
            "beta_norm": st.floats(beta_min, 4.0, allow_nan=False, allow_infinity=False),
        }
    )


def thm63_train_settings() -> st.SearchStrategy[dict]:
    """Settings of ``sims.zwb24.sec6_flow:check_thm6_3_train`` from [zwb24] Assumption 3.1 and Thm
    6.3 (H ≻ 0 by construction): d ∈ [1, 6], N ∈ [2, 10] (N ≥ 2: the N − 1 neighbour exists; N ≤ 10:
    the budget -- beyond it Γ*'s N ± 1 neighbours come closer than 1.5 % and are skipped with their
    numbers), σ² ∈ [0, 1], ‖β*‖ ∈ [0, 4] (‖β*‖ → 0 makes β* = 0's solution coincide with the
    prediction: not separable, discarded and counted).

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run):

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(thm63_train_settings())
    ... def test_ranges(s):
    ...     assert 1 <= s["d"] <= 6 and 2 <= s["N"] <= 10 and 0 <= s["beta_norm"] <= 4
    >>> test_ranges()
    """
    return _train_settings(6, 10)


def table1_train_settings() -> st.SearchStrategy[dict]:
    """Settings of ``sims.zwb24.table1:check_table1_train`` from [zwb24] Assumption 3.1 (H = Ψ
    = I, β* = ‖β*‖·1/√d): d ∈ [1, 6], N ∈ [2, 10], σ² ∈ [0, 1], ‖β*‖ ∈ [0, 4] -- the ranges of
    :func:`thm63_train_settings`. N ≥ 2 is the check's (the N − 1 neighbours need N − 1 ≥ 1;
    Assumption 3.1 itself allows N ≥ 1); d ≤ 6, N ≤ 10 are the budget's (beyond N ≈ 10 the N ± 1
    neighbours come closer than 1.5 % and rows are skipped with their numbers). Small ‖β*‖ (a and b
    near 0) and small N at d = 1 (inf_LSA near the LSA floor) are not separable: discarded and
    counted. Drawn settings train to convergence (:func:`sims.zwb24.train.trained` with a
    ``RawFitRecipe``; the preset's Adam schedule does not converge away from the preset).

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run):

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(table1_train_settings())
    ... def test_ranges(s):
    ...     assert 2 <= s["N"] <= 10 and 0 <= s["sigma2"] <= 1
    >>> test_ranges()
    """
    return _train_settings(6, 10)
