"""zfb24 figures build (Figure 1 proxies, rates, ODE trajectory) and carry their curves."""

from __future__ import annotations

import pytest
from matplotlib.figure import Figure

from sims.figures import zfb24 as F


@pytest.mark.result("zfb24:lem10")
def test_fig_flow_trajectory() -> None:
    fig = F.fig_flow_trajectory()
    assert isinstance(fig, Figure) and len(fig.axes) == 4
    assert all(ax.lines for ax in fig.axes)


@pytest.mark.result("zfb24:cor6")
def test_fig_risk_rates() -> None:
    fig = F.fig_risk_rates()
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    # the fitted floor slope is printed in the legend and is ≈ −2
    label = fig.axes[1].get_legend_handles_labels()[1][0]
    assert abs(float(label.rsplit(" ", 1)[1]) + 2) < 0.15


@pytest.mark.train
@pytest.mark.slow
@pytest.mark.result("zfb24:fig1")
def test_fig_1() -> None:
    fig = F.fig_1()
    assert isinstance(fig, Figure) and len(fig.axes) == 4
    assert all(ax.lines for ax in fig.axes)


@pytest.mark.result("zfb24:fig1")
def test_fig1_check_judges_the_figures_least_squares(spy) -> None:
    from numerics.zfb24 import fig1 as C
    from theory.zfb24.settings import PRESETS

    calls = spy(C, "compute_fig_1")
    rows = C.check_fig1_mc(PRESETS["fig1"])
    ((kwargs, data),) = calls
    assert kwargs["ls_fixed_Ms"] == (5, 15) and kwargs["ls_Ms"] == (25,)
    fixed, random_c1 = data["panels"]
    assert [r.observed for r in rows[:2]] == [e.mean for e in fixed["least_squares_mc"]]
    assert rows[2].observed == random_c1["least_squares_mc"][0].mean


@pytest.mark.result("zfb24:lem10")
def test_lem10_check_passes_its_fault_to_the_figures_flow(
    spy,
) -> None:
    from numerics.zfb24 import sec5_flow as C
    from theory.zfb24.settings import PRESETS

    calls = spy(C, "compute_flow_trajectory")
    C.check_lem10_ode(PRESETS["d3_N8"], fault_variant="transposed")
    ((kwargs, data),) = calls
    assert kwargs["variant"] == "transposed" and len(data["t"]) == 241
