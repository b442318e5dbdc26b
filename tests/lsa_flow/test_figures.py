"""zfb24 figures build (Figure 1 proxies, rates, ODE trajectory) and carry their curves."""

from __future__ import annotations

import pytest
from matplotlib.figure import Figure

from sims.figures import lsa_flow as F


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
