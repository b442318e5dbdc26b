"""Hypothesis strategy for [hpcy25] settings, §2 and Prop. 4.1."""

from __future__ import annotations

from hypothesis import strategies as st

from theory.hpcy25.settings import PROP4_1_MIN_L, HpcySetting, prop4_1_min_L
from theory.strategies.common import dims, prompt_lengths, variances

__all__ = [
    "hpcy25_settings",
    "hpcy25_trained_settings",
    "hpcy25_vgd_settings",
    "hpcy25_trained_settings_two_heads",
    "hpcy25_obs1_regime_settings",
    "hpcy25_vgd_regime_settings",
    "hpcy25_vgd_heads_settings",
    "PROP4_1_MIN_L",
    "prop4_1_min_L",
    "HEADS",
]


def _floats(lo: float, hi: float) -> st.SearchStrategy[float]:
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


@st.composite
def hpcy25_settings(
    draw: st.DrawFn, *, H: int | None = None, small_omega: bool = True
) -> HpcySetting:
    """A validated :class:`~theory.hpcy25.settings.HpcySetting`: ``d`` (1–6), ``L``
    (2–64), ``sigma2`` ∈ [0, 4], ``H`` heads (1–4) and a head configuration ``omega`` (|ω_h| ≤ 0.5
    if ``small_omega``, the regime of Prop. 4.1; else ≤ 2) and ``mu`` (|μ_h| ≤ 6).

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run); two heads, each
    in Prop. 4.1's small-ω regime:

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(hpcy25_settings(H=2))
    ... def test_two_heads(s):
    ...     assert s.H == 2 and max(abs(w) for w in s.omega) <= 0.5 and 2 <= s.L <= 64
    >>> test_two_heads()
    """
    H = draw(st.integers(1, 4)) if H is None else H
    bound = 0.5 if small_omega else 2.0
    return HpcySetting(
        d=draw(dims),
        L=draw(prompt_lengths),
        sigma2=draw(variances),
        omega=tuple(draw(st.lists(_floats(-bound, bound), min_size=H, max_size=H))),
        mu=tuple(draw(st.lists(_floats(-6.0, 6.0), min_size=H, max_size=H))),
    )


#: The hypothesis domain of the trained hpcy25 properties: d ≤ 8, L ≤ 64, σ² ∈ [0, 1],
#: H ∈ {2, 3, 4} (the multi-head claims; §2 needs d ≥ 1, L ≥ 2).  σ² is drawn on a grid of 0.05
#: so that a replayed ``--set sigma2=...`` is short and a drawn setting keys one cached model.
_SIGMA2_GRID = 20


def _trained(min_L: int, heads: tuple[int, ...] = (2, 3, 4)) -> st.SearchStrategy[dict]:
    return st.fixed_dictionaries(
        {
            "d": st.integers(1, 8),
            "L": st.integers(min_L, 64),
            "sigma2": st.integers(0, _SIGMA2_GRID).map(lambda k: k / _SIGMA2_GRID),
            "H": st.sampled_from(heads),
        }
    )


#: The head counts of the trained properties (the multi-head claims of Obs. 1-2 and (4.3)).
HEADS: tuple[int, ...] = (2, 3, 4)


@st.composite
def _in_prop4_1_regime(draw: st.DrawFn, heads: tuple[int, ...]) -> dict:
    d = draw(st.integers(1, 8))
    s2 = draw(st.integers(0, _SIGMA2_GRID).map(lambda k: k / _SIGMA2_GRID))
    lo = prop4_1_min_L(d, s2)
    return {"d": d, "L": draw(st.integers(lo, 64)), "sigma2": s2, "H": draw(st.sampled_from(heads))}


def hpcy25_trained_settings() -> st.SearchStrategy[dict]:
    """Settings ``{d, L, sigma2, H}`` of the trained Obs. 1 / manifold check (hpcy25:obs1):
    ``d`` 1–8, ``L`` 2–64, ``σ²`` ∈ [0, 1] (grid 0.05), ``H`` ∈ {2, 3, 4}.

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run); σ² is a multiple
    of 0.05:

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(hpcy25_trained_settings())
    ... def test_grid(s):
    ...     assert 1 <= s["d"] <= 8 and s["H"] in (2, 3, 4) and round(20 * s["sigma2"], 9) % 1 == 0
    >>> test_grid()
    """
    return _trained(2)


def hpcy25_obs1_regime_settings() -> st.SearchStrategy[dict]:
    """Settings of the Obs. 1 / manifold property (hpcy25:obs1, its declared strategy): ``d`` ≤ 8,
    σ² ∈ [0, 1], ``L`` ≤ 64 in Prop. 4.1's regime (:data:`PROP4_1_MIN_L`), ``H`` ∈ {2, 3, 4}.  At
    H ≥ 3 a drawn run may settle off the pattern within the step bound: continued at the paper's
    recipe (Adam 1e-3, batch 256) for 200 000 steps, four of eight such draws reached the pattern
    and four kept a sharp low-weight head (|ω_h| 6-20× the pair's, 6-12 % of the prediction) that
    breaks Obs. 2's homogeneous KQ (docs/papers/hpcy25.md, "The sharp head").  So a
    drawn H ≥ 3 run is on the pattern (the TRAIN contract), a stable sharp head (its own outcome)
    or unconverged at the budget (``untested``): ``sims.hpcy25.sec3_sharp_head``.

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run); every draw has
    ``L ≥ max(16, 2d(1 + σ²))``:

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(hpcy25_obs1_regime_settings())
    ... def test_regime(s):
    ...     assert max(PROP4_1_MIN_L, 2 * s["d"] * (1 + s["sigma2"])) <= s["L"] <= 64
    >>> test_regime()
    """
    return _in_prop4_1_regime(HEADS)


def hpcy25_trained_settings_two_heads() -> st.SearchStrategy[dict]:
    """:func:`hpcy25_obs1_regime_settings` at ``H = 2`` (kept for comparisons).

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run):

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(hpcy25_trained_settings_two_heads())
    ... def test_pair(s):
    ...     assert s["H"] == 2 and max(PROP4_1_MIN_L, 2 * s["d"] * (1 + s["sigma2"])) <= s["L"]
    >>> test_pair()
    """
    return _in_prop4_1_regime((2,))


def hpcy25_vgd_regime_settings() -> st.SearchStrategy[dict]:
    """:func:`hpcy25_vgd_heads_settings` at ``H = 2`` (the declared strategy of hpcy25:eq4.3 until
    its H ≥ 3 report-tier draws fit the quick report's budget; kept for comparisons,
    docs/papers/hpcy25.md, "(4.3) at H ∈ {2, 3, 4}").

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run):

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(hpcy25_vgd_regime_settings())
    ... def test_pair(s):
    ...     assert s["H"] == 2 and max(PROP4_1_MIN_L, 2 * s["d"] * (1 + s["sigma2"])) <= s["L"]
    >>> test_pair()
    """
    return _in_prop4_1_regime((2,))


def hpcy25_vgd_heads_settings() -> st.SearchStrategy[dict]:
    """Settings of the (4.3)-vs-vanilla-GD property (hpcy25:eq4.3, its declared strategy): ``d``
    ≤ 8, σ² ∈ [0, 1], ``L`` ≤ 64 in Prop. 4.1's regime (:data:`PROP4_1_MIN_L`), ``H`` ∈ {2, 3,
    4} (:data:`HEADS`). An H ≥ 3 run trains until the invariant and the heads' pattern
    statistics have settled (``sims.hpcy25.sec3_convergence.setting_training``); a
    trained model whose head scales ``(ω_h, μ_h)`` do not describe its optimal output scale
    within a quarter unit (a contributing head off Obs. 1's pattern:
    ``sims.hpcy25.sec3_heads.pattern_trap``) has its (4.3) rows in that named trap,
    counted, never passed -- at (5, 17, 0.55, 3) a third head with 3.1 % of the prediction,
    ov_ratio 0.157; a 40 000-step run of it decays that head and sits 0.14 units from the
    prediction at its final heads. Default tier: 41 drawn, 6 pass, 32 not separable, 3 trapped,
    0 fail; report tier 14.3 s of task time against 6.1 s at H = 2 (cold, idle 2-core machine).

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run); every draw is in
    Prop. 4.1's regime with H ∈ :data:`HEADS`:

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(hpcy25_vgd_heads_settings())
    ... def test_regime(s):
    ...     assert s["H"] in HEADS and s["L"] <= 64
    ...     assert max(PROP4_1_MIN_L, 2 * s["d"] * (1 + s["sigma2"])) <= s["L"]
    >>> test_regime()
    """
    return _in_prop4_1_regime(HEADS)


def hpcy25_vgd_settings() -> st.SearchStrategy[dict]:
    """Settings ``{d, L, sigma2, H}`` of the trained (4.3)-vs-vanilla-GD check (hpcy25:eq4.3),
    the same domain as :func:`hpcy25_trained_settings`.

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run); the keys a
    trained check reads:

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(hpcy25_vgd_settings())
    ... def test_keys(s):
    ...     assert sorted(s) == ["H", "L", "d", "sigma2"] and 0 <= s["sigma2"] <= 1
    >>> test_keys()
    """
    return _trained(2)
