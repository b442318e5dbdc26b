"""Hypothesis strategy for [czz24] settings, §2 data models."""

from __future__ import annotations

from hypothesis import strategies as st

from theory.czz24.settings import SPARSE_PRIORS, SparseRegressionICL

__all__ = ["czz24_settings", "czz24_s1_settings"]


@st.composite
def czz24_settings(
    draw: st.DrawFn, *, max_d: int = 8, max_n: int = 20, diagonal: bool | None = None
) -> SparseRegressionICL:
    """A validated :class:`~theory.settings.SparseRegressionICL`: ``d ∈ [1, max_d]``,
    ``s ∈ [1, d]``, ``n ∈ [1, max_n]``, ``q ∈ [1, 4]``, ``σ ∈ [0, 1]``, either prior, Σ diagonal
    with entries in [0.25, 4] or (``diagonal=False`` allowed) ``Σ = I + ζ𝟙𝟙ᵀ``, ζ ∈ [0, 0.4].

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run); the support fits
    the dimension and Σ is diagonal when asked:

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(czz24_settings(max_d=4, diagonal=True))
    ... def test_sparse(s):
    ...     assert 1 <= s.s <= s.d <= 4 and s.zeta == 0 and 0 <= s.sigma2 <= 1
    >>> test_sparse()
    """
    d = draw(st.integers(1, max_d))
    s = draw(st.integers(1, d))
    n = draw(st.integers(1, max_n))
    q = draw(st.integers(1, 4))
    sigma = draw(st.floats(0.0, 1.0, allow_nan=False))
    prior = draw(st.sampled_from(SPARSE_PRIORS))
    equi = draw(st.booleans()) if diagonal is None else not diagonal
    if equi:
        zeta = draw(st.floats(0.0, 0.4, allow_nan=False))
        return SparseRegressionICL(d=d, s=s, n=n, q=q, sigma2=sigma**2, prior=prior, zeta=zeta)
    diag = draw(st.lists(st.floats(0.25, 4.0, allow_nan=False), min_size=d, max_size=d))
    return SparseRegressionICL(
        d=d, s=s, n=n, q=q, sigma2=sigma**2, prior=prior, Sigma_diag=tuple(diag)
    )


def czz24_s1_settings() -> st.SearchStrategy[dict[str, int | float]]:
    """czz24:s1 settings ([czz24] §2 and Thm 5.3's data model: Σ = I, s-sparse ±1/√s tasks,
    ``1 ≤ s ≤ d``): ``d ∈ [2, 6]``, ``s ∈ [1, d]``, ``n ∈ [4, 32]`` (the prompt length),
    ``σ² ∈ [0.01, 1]`` (two decimals, so a replay line is short).

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run):

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(czz24_s1_settings())
    ... def test_s1(s):
    ...     assert 1 <= s["s"] <= s["d"] <= 6 and round(100 * s["sigma2"], 9) % 1 == 0
    >>> test_s1()
    """

    @st.composite
    def draw_setting(draw: st.DrawFn) -> dict[str, int | float]:
        d = draw(st.integers(2, 6))
        s = draw(st.integers(1, d))
        n = draw(st.integers(4, 32))
        sigma2 = draw(st.integers(1, 100)) / 100
        return {"d": d, "s": s, "n": n, "sigma2": sigma2}

    return draw_setting()
