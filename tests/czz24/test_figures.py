"""czz24 figures draw (quick tier) with the expected axes."""

from __future__ import annotations

import numpy as np
import pytest

from sims.figures import czz24 as F
from theory.czz24.settings import PRESETS

#: One pytest-xdist worker for this module: Fig. 1b and the head plot share the pruning model,
#: which two workers would otherwise train at once (a cold run's ICL_VERIFY_CACHE_LOG).
pytestmark = pytest.mark.xdist_group("czz24-figures")


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


@pytest.mark.result("czz24:fig2c")
def test_fig2c_checks_judge_the_figures_errors(spy) -> None:
    from numerics.czz24 import fig2c as C

    calls = spy(C, "compute_2c")
    rows = C.check_fig2c_mc(PRESETS["fig2c"])
    C.check_fig2c_order(PRESETS["fig2c"], fault_no_preprocess=True)
    (kw_mc, mc), (kw_order, _) = calls
    assert kw_mc["sigmas"] == (0.0,) and kw_mc["trials"] == 6000
    assert rows[0].observed == float(np.mean(mc["curves"][0.0]["gd"]["errors"][:, 0]))
    assert kw_order["fault_no_preprocess"] is True and kw_order["trials"] == 1000


@pytest.mark.result("czz24:thm5.1")
def test_thm5_1_rate_judges_the_figures_risks(spy) -> None:
    from numerics.czz24 import sec5_bounds as C

    calls = spy(C, "compute_bounds_rates")
    rows = C.check_thm5_1_rate(PRESETS["s1"])
    ((kwargs, data),) = calls
    assert kwargs["ns"].tolist() == [64, 128, 256]
    assert rows[0].observed == float(np.max(data["pre_gd"] / data["bounds"]["Thm 5.1"]["shape"]))


@pytest.mark.train
@pytest.mark.result("czz24:fig1b")
def test_fig1b_check_judges_the_figures_trained_curves(spy) -> None:
    from sims.czz24 import fig1b as C

    calls = spy(C, "compute_1b")
    rows = C.check_fig1b_train(PRESETS["paper"], fault_leak_task=0.5)
    ((kwargs, data),) = calls
    assert kwargs["fault_leak_task"] == 0.5 and kwargs["ns_tf"] == C.FIG1B_NS["quick"]
    curve = data["trained"][0]
    assert rows[0].details["trained"] == float(np.mean(curve["errors"][0]))
    assert rows[0].details["bayes"] == float(np.mean(curve["bayes_errors"][0]))


@pytest.mark.train
@pytest.mark.result("czz24:eq3.1")
def test_eq3_1_checks_judge_the_figures_deltas_and_probes(
    spy,
) -> None:
    from sims.czz24 import sec3_heads as C

    c1c = spy(C, "compute_1c")
    rows = C.check_eq3_1_train(PRESETS["s2"])
    ((kwargs, data),) = c1c
    assert kwargs["recipe"].heads == (8, 1, 1) and kwargs["setting"] == PRESETS["s2"]
    assert np.array_equal(rows[1].details["delta"], data["delta"], equal_nan=True)
    probe = spy(C, "compute_heads_probe")
    rows = C.check_eq3_1_train_probe(PRESETS["paper"], fault_shuffle_targets=True)
    ((kwargs, data),) = probe
    assert kwargs["perm"] is not None and kwargs["q"] == 4
    ys = [float(np.mean(e)) for e in data["models"][0]["errors"]["trained"]["y"]]
    assert rows[3].observed["y_probe_excess"] == ys
