"""Checks the mutation triage of issue 35 asked for in [hpcy25]'s settings (session 12):
:func:`pair_hypothesis` accepts exactly ``H ≥ 2`` (the boundary ``H = 2``, the paper's own
two-head model, included) and refuses ``H = 1`` with a message naming the value and the
assumption."""

from __future__ import annotations

import pytest

from theory.hpcy25.settings import Setting, pair_hypothesis


@pytest.mark.parametrize("H", [2, 3, 5])
def test_pair_hypothesis_accepts_every_H_from_two(H: int) -> None:
    # [hpcy25] Obs. 2 / (4.6): a ± head pair needs two heads, so H = 2 is already in the domain
    assert pair_hypothesis(Setting(H=H)) is None


def test_pair_hypothesis_refuses_one_head_with_the_whole_message() -> None:
    with pytest.raises(
        ValueError,
        match=r"^H = 1: a ± head pair \(hpcy25 Obs\. 2, \(4\.3\), \(4\.6\)\) needs H ≥ 2 heads$",
    ):
        pair_hypothesis(Setting(H=1))
