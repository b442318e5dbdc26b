"""Hypothesis strategy for [hpcy25] (slug softmax_multihead) settings, §2 and Prop. 4.1."""

from __future__ import annotations

from hypothesis import strategies as st

from theory.softmax_multihead.setting import HpcySetting
from theory.strategies.common import dims, prompt_lengths, variances

__all__ = ["hpcy25_settings"]


def _floats(lo: float, hi: float) -> st.SearchStrategy[float]:
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


@st.composite
def hpcy25_settings(draw: st.DrawFn, *, H: int | None = None, small_omega: bool = True
                    ) -> HpcySetting:
    """A validated :class:`~theory.softmax_multihead.setting.HpcySetting`: ``d`` (1–6), ``L``
    (2–64), ``sigma2`` ∈ [0, 4], ``H`` heads (1–4) and a head configuration ``omega`` (|ω_h| ≤ 0.5
    if ``small_omega``, the regime of Prop. 4.1; else ≤ 2) and ``mu`` (|μ_h| ≤ 6)."""
    H = draw(st.integers(1, 4)) if H is None else H
    bound = 0.5 if small_omega else 2.0
    return HpcySetting(
        d=draw(dims),
        L=draw(prompt_lengths),
        sigma2=draw(variances),
        omega=tuple(draw(st.lists(_floats(-bound, bound), min_size=H, max_size=H))),
        mu=tuple(draw(st.lists(_floats(-6.0, 6.0), min_size=H, max_size=H))),
    )
