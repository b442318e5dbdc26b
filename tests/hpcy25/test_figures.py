"""hpcy25 figures render (quick mode) from the shared presets / cache."""

from __future__ import annotations

import pytest

import sims.figures.hpcy25 as F
from theory.hpcy25.settings import PRESETS

#: One pytest-xdist worker for this module: Figs. 3 and 8 share a trained model,
#: which two workers would otherwise train at once (a cold run's ICL_VERIFY_CACHE_LOG).
pytestmark = pytest.mark.xdist_group("hpcy25-figures")


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


@pytest.mark.result("hpcy25:obs1")
def test_obs1_judges_fig3s_circuits(spy) -> None:
    """check_obs1_train's pattern rows are Obs. 1's metrics of the circuits compute_3 returns (the
    Fig. 3 numbers), at the check's own preset and fault overrides."""
    from sims.hpcy25 import evidence as ev_
    from sims.hpcy25 import sec3_observations as O

    calls = spy(ev_, "compute_3")
    rows = O.check_obs1_train(PRESETS["paper"], seed=0)
    ((kwargs, data),) = calls
    assert kwargs["Hs"] == (2,) and kwargs["presets"] == {2: ev_.PRESET[2]}
    KQ, OV = data[2]
    m = ev_.circuit_metrics(KQ, OV, O.tr_.OBS1_DEFAULTS["d"])
    diag = next(e for e in rows if "diag_ratio" in e.name)
    assert diag.observed == float(m["diag_ratio"][m["active"]].min())


@pytest.mark.result("hpcy25:obs3")
def test_obs3_judges_fig4as_risks(spy) -> None:
    """check_obs3_train's risks are compute_4a's (the Fig. 4(a) numbers) at the training length,
    H = 1..4, on the risk estimate's prompts, without the ridge curve."""
    from sims.hpcy25 import evidence as ev_
    from sims.hpcy25 import sec3_observations as O

    calls = spy(O, "compute_4a")
    rows = O.check_obs3_train(PRESETS["paper"], seed=0)
    ((kwargs, data),) = calls
    assert kwargs["Lps"] == (40,) and kwargs["ridge_n"] == 0 and kwargs["n"] == ev_.RISK_PROMPTS
    r = {H: data["risks"][ev_.PRESET[H]][0].mean for H in (1, 2, 3, 4)}
    assert rows[0].observed == abs(r[3] - r[2]) and rows[1].observed == abs(r[4] - r[2])
