"""czz24 figures draw (quick tier) with the expected axes."""

from __future__ import annotations

import pytest

from sims.figures import sparse_multihead as F


@pytest.mark.result("czz24:fig1b")
def test_fig1b() -> None:
    fig = F.fig_fig1b()
    assert fig.axes[0].get_ylim() == (0.0, 5.0)


@pytest.mark.result("czz24:fig2c")
def test_fig2c() -> None:
    assert len(F.fig_fig2c().axes) == 3


@pytest.mark.result("czz24:thm5.3")
def test_fig_bounds() -> None:
    fig = F.fig_bounds()
    assert fig.axes[0].get_xscale() == "log"


@pytest.mark.slow
@pytest.mark.result("czz24:eq3.1")
def test_fig_heads() -> None:
    assert len(F.fig_heads().axes) == 2


@pytest.mark.slow
@pytest.mark.result("czz24:eq3.1")
def test_fig_probe() -> None:
    fig = F.fig_probe()
    assert fig.axes[0].get_ylim() == (0.0, 5.0)
    assert fig.axes[1].get_xscale() == "log"
