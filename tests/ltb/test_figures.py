"""zwb24 figures draw (quick tier) with the expected axes."""

from __future__ import annotations

import pytest

from sims.figures import ltb as F


@pytest.mark.slow
@pytest.mark.result("zwb24:table1")
def test_fig_table1_training() -> None:
    fig = F.fig_table1_training()
    assert len(fig.axes) == 2 and all(ax.get_yscale() == "log" for ax in fig.axes)


@pytest.mark.result("zwb24:thm6.3")
def test_fig_flow() -> None:
    fig = F.fig_flow()
    assert len(fig.axes[0].get_lines()) == 4


@pytest.mark.result("zwb24:cor6.2")
def test_fig_rates() -> None:
    fig = F.fig_rates()
    assert fig.axes[0].get_xscale() == "log"
