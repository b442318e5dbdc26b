"""hpcy25 figures render (quick mode) from the shared presets / cache."""

from __future__ import annotations

import pytest

import sims.figures.softmax_multihead as F


@pytest.mark.slow
@pytest.mark.parametrize(
    "name,rid",
    [
        ("fig_3", "hpcy25:obs1"),
        ("fig_4a", "hpcy25:obs3"),
        ("fig_4b", "hpcy25:eqD.29"),
        ("fig_6", "hpcy25:prop4.1"),
        ("fig_8", "hpcy25:sec5.1"),
        ("fig_22", "hpcy25:appB"),
    ],
)
def test_figure_renders(name: str, rid: str, tmp_path) -> None:
    fig = getattr(F, name)(quick=True, seed=0)
    assert fig.axes and any(ax.has_data() for ax in fig.axes)
    fig.savefig(tmp_path / f"{name}.png", dpi=50)
    assert (tmp_path / f"{name}.png").stat().st_size > 1000


for _rid in (
    "hpcy25:obs1",
    "hpcy25:obs3",
    "hpcy25:eqD.29",
    "hpcy25:prop4.1",
    "hpcy25:sec5.1",
    "hpcy25:appB",
):
    test_figure_renders = pytest.mark.result(_rid)(test_figure_renders)


def test_the_former_figure_name_is_the_same_function() -> None:
    assert F.fig_patterns is F.fig_3 and "fig_patterns" not in F.__all__
