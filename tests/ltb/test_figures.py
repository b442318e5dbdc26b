"""zwb24 figures draw (quick tier) with the expected axes."""

from __future__ import annotations

import pytest

from sims.figures import ltb as F


@pytest.mark.slow
@pytest.mark.result("zwb24:table1")
def test_fig_mlp_gap_table1() -> None:
    fig = F.fig_mlp_gap_table1()
    assert len(fig.axes) == 2 and all(ax.get_yscale() == "log" for ax in fig.axes)


@pytest.mark.result("zwb24:thm6.3")
def test_fig_flow_trajectory() -> None:
    fig = F.fig_flow_trajectory()
    assert len(fig.axes[0].get_lines()) == 4


@pytest.mark.result("zwb24:cor6.2")
def test_fig_rates_sum_min() -> None:
    fig = F.fig_rates_sum_min()
    assert fig.axes[0].get_xscale() == "log"


def test_old_figure_names_are_the_same_objects() -> None:
    assert F.fig_gap_scaling is F.fig_mlp_gap_scaling and F.fig_rates is F.fig_rates_sum_min
    assert F.fig_flow is F.fig_flow_trajectory and F.fig_table1_training is F.fig_mlp_gap_table1
