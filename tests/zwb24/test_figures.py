"""zwb24 figures draw (quick tier) with the expected axes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from scipy import stats

from sims.figures import zwb24 as F
from theory.zwb24.settings import PRESETS


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


def _slope(x: object, y: object) -> float:
    """The log-log slope :func:`numerics.testing.rate_agreement` reports."""
    fit: Any = stats.linregress(np.log(np.asarray(x, float)), np.log(np.asarray(y, float)))
    return float(fit.slope)


@pytest.mark.result("zwb24:thm4.1")
def test_thm4_1_rate_judges_the_figures_gaps(spy) -> None:
    from numerics.zwb24 import sec4_mlp_gap as C

    calls = spy(C, "compute_mlp_gap_scaling")
    rows = C.check_thm4_1_rate(PRESETS["gd_beta"])
    ((kwargs, data),) = calls
    assert kwargs["Ns"] == (40, 80, 160) and kwargs["mus"] == (0.5, 1.0, 2.0, 4.0)
    assert rows[0].observed == _slope(kwargs["Ns"], data["gap_N"])
    assert (rows[2].details["smaller"], rows[2].details["larger"]) == tuple(data["gap_mu"][:2])


@pytest.mark.result("zwb24:thm6.3")
def test_thm6_3_ode_judges_the_figures_flow(spy) -> None:
    from numerics.zwb24 import sec6_flow as C

    calls = spy(C, "compute_flow_trajectory")
    C.check_thm6_3_ode(PRESETS["flow"])
    assert [k["singular_H"] for k, _ in calls] == [False, True]
    assert [k["t_end"] for k, _ in calls] == [400.0, 2000.0]


@pytest.mark.result("zwb24:cor6.2")
def test_cor6_2_rate_judges_the_figures_excess(spy) -> None:
    from numerics.zwb24 import sec6_rates as C

    calls = spy(C, "compute_rates_sum_min")
    rows = C.check_cor6_2_rate(PRESETS["model"])
    ((kwargs, data),) = calls
    assert kwargs["Ns"].tolist() == [700, 1000, 1400] and kwargs["bayes_Ns"] == ()
    assert rows[2].name.startswith("R* - s2 vs N")
    assert rows[2].observed == _slope(kwargs["Ns"], data["excess"])
    assert rows[3].observed == _slope(kwargs["Ns"], data["sum_min"])
