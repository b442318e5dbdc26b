"""collins24 TRAIN rows (named alternatives, over seeds): S1 (affine), S2 (ReLU; cosine
report-only), S4 (linear attention), Figs. 3-4 (σ, L, n ablations and the U^d_S panels).

Beyond the registry test (which runs each declared check and each declared alternative as a
negative control): every TRAIN row carries the contract details, and a check rerun with an
alternative as the prediction (``fault_alternative``) fails on *exactly* the rows that name it.
Trained runs come from the config-keyed cache (shared with the report).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest

from numerics.testing import assert_fails, assert_passed
from sims import collins24 as S
from sims.collins24.appC_signal import LEMB5_ALTERNATIVES
from sims.collins24.fig3_4 import FIG34_ACG_ALTERNATIVES, FIG34_ALTERNATIVES
from sims.collins24.sec3_linear import THM36_ALTERNATIVES
from sims.collins24.sec3_optimum import THM34_ALTERNATIVES, THM34_RELU_ALTERNATIVES
from theory.collins24.settings import PRESETS
from theory.common.protocols import Evidence

PAPER, FIG34 = PRESETS["paper"], PRESETS["fig3_4"]

#: The tolerance of a made-up failing TRAIN row (any positive value: the row fails by its error).
FAILING_ROW_TOLERANCE = 0.05


def assert_alternatives_fail(
    check: Callable[..., list[Evidence]],
    declared_run: Any = None,
    *,
    setting: Any = None,
    objects: tuple[Any, ...] = (),
    **kw: Any,
) -> list[Evidence]:
    """The check passes; with each named alternative as the prediction, every TRAIN row that
    names it fails (and the TRAIN contract details are present).  ``declared_run`` reuses the
    registry's run of the check at its defaults.  A settings-first check runs at ``setting``;
    its alternatives are the declared ``objects`` (every name a row gives must be one of them)."""
    path = f"{check.__module__}:{check.__name__}"
    if setting is not None:
        check = functools.partial(check, setting)
    if declared_run is not None and not kw:
        ok, error = declared_run(path)  # at its declared setting
        assert error is None, error
    else:
        ok = check(**kw)
    assert_passed(ok)
    train = [e for e in ok if e.kind == "TRAIN"]
    assert train, "no TRAIN row"
    for e in train:
        d = e.details
        assert d["start_units"] >= 3 and d["alternatives"] and d["seeds"], e.describe()
        assert d["seeds_passed"] == d["seeds"], e.describe()
    names = sorted({a["name"] for e in train for a in e.details["alternatives"]})
    by_name = {a.name: a for a in objects}
    if objects:
        assert set(names) <= set(by_name), sorted(set(names) - set(by_name))
    for name in names:
        rows = {e.name for e in train if any(a["name"] == name for a in e.details["alternatives"])}
        planted = by_name.get(name, name)
        bad = [e for e in check(fault_alternative=planted, **kw) if e.name in rows]
        assert len(bad) == len(rows), name
        assert_fails(bad)
        assert not any(e.passed for e in bad), f"{name}: " + "\n".join(e.describe() for e in bad)
    return ok


#: The trained checks whose TRAIN rows name alternatives: (test id, result, the check, the
#: setting it runs at, its declared alternatives, whether the registry's run of it
#: (``declared_run``) is reused).
# fmt: off
ALTERNATIVE_CHECKS = [
    pytest.param(check, setting, objects, reuse, id=name,
                 marks=pytest.mark.result(f"collins24:{result}"))
    for name, result, check, setting, objects, reuse in (
        ("s1-affine", "thm3.4", S.check_thm3_4_train, PAPER, THM34_ALTERNATIVES, True),
        ("s2-relu", "thm3.4", S.check_thm3_4_train_relu, PAPER, THM34_RELU_ALTERNATIVES, False),
        ("s4-linear", "thm3.6", S.check_thm3_6_train, FIG34, THM36_ALTERNATIVES, True),
        ("fig34", "fig3-4", S.check_fig3_4_train, FIG34, FIG34_ALTERNATIVES, True),
        ("fig34-acg", "fig3-4", S.check_fig3_4_train_acg, FIG34, FIG34_ACG_ALTERNATIVES, False),
    )
]
# fmt: on


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.parametrize(("check", "setting", "objects", "reuse"), ALTERNATIVE_CHECKS)
def test_trained_check_passes_and_its_alternatives_fail(
    check: Callable[..., list[Evidence]],
    setting: Any,
    objects: tuple[Any, ...],
    reuse: bool,
    declared_run,
) -> None:
    """S1 (affine) and S2 (ReLU) against the quadrature / MC optimum, S4 (linear attention) at
    its exact optimum and floor, Figs. 3-4 (norms ordered in σ, L, n; the U^d_S panels): the
    trained check passes at its setting, and each named alternative planted as the prediction
    fails exactly the rows that name it."""
    assert_alternatives_fail(
        check, declared_run if reuse else None, setting=setting, objects=objects
    )


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.result("collins24:thm3.4")
def test_s2_cosine_is_report_only() -> None:
    """Spec §3.2: nothing is asserted for the cosine class (INFO rows carry the values)."""
    ev = S.check_thm3_4_train_cos(PRESETS["paper"])
    assert ev and all(e.kind == "INFO" for e in ev)
    assert all(e.observed > 0 for e in ev)


@pytest.mark.thorough
@pytest.mark.slow
@pytest.mark.train
@pytest.mark.result("collins24:lemB.5")
def test_lemb5_trained_on_ellipsoid_and_alternatives_fail() -> None:
    assert_alternatives_fail(
        S.check_lemb_5_mc_ellipsoid,
        setting=PRESETS["fig3_4"],
        objects=LEMB5_ALTERNATIVES,
        quick=False,
    )


def test_an_unconverged_drawn_run_is_skipped_with_the_batch_that_would_fit_it() -> None:
    """A drawn run whose derived averaging window W exceeds the budget: its TRAIN row (even a
    failing one) is ``skipped`` with W, the batch that fits it (batch · W / budget) and the
    seconds; the numbers are fields."""
    from sims.collins24 import evidence as E

    failing = Evidence(
        name="w",
        kind="TRAIN",
        predicted=1.0,
        observed=1.5,
        tolerance=FAILING_ROW_TOLERANCE,
        error=10.0,
        passed=False,
    )
    info = {
        "window": 4 * E.MAX_AVERAGE,
        "omega_drift_over_window": 0.153,
        "drift_limit": 0.01,
        "average_steps": E.MAX_AVERAGE,
    }
    row = E.unconverged(failing, info, batch=256)
    assert row.status == "skipped" and row.passed
    assert (
        row.details["needed_batch"] == 4 * 256 and row.details["needed_window"] == 4 * E.MAX_AVERAGE
    )
    assert row.details["why"].startswith(
        "not converged within the budget: omega-hat's drift over the last averaging window 0.153 "
        f"vs criterion 0.01 after {E.MAX_AVERAGE} steps; the derived window is"
    )


def test_a_preset_run_that_never_settles_is_skipped_with_its_numbers() -> None:
    """``settled``: a row of a planned run that reached its step bound with its invariant still
    drifting (even a failing row) is ``skipped`` with the drift, the threshold and the steps; a
    settled run's row is left as it is."""
    import numpy as np

    from sims.collins24.evidence import settled
    from sims.config import TrainConfig
    from sims.train import TrainResult

    failing = Evidence(
        name="w",
        kind="TRAIN",
        predicted=1.0,
        observed=1.5,
        tolerance=FAILING_ROW_TOLERANCE,
        error=10.0,
        passed=False,
    )
    stop = {
        "converged": False,
        "drift": 0.0175,
        "threshold": 0.01,
        "tol": 0.05,
        "invariant": "whitened",
        "window": 2200,
        "planned_steps": 1000,
        "extra_steps": 4000,
        "max_steps": 4000,
    }

    def run(record: dict) -> TrainResult:
        return TrainResult(
            params={},
            steps=np.zeros(0, dtype=int),
            losses=np.zeros(0),
            final_loss=0.0,
            seed=0,
            config=TrainConfig(),
            wall_time=0.0,
            extra={"stop": record},
        )

    row = settled(failing, run(stop))
    assert row.status == "skipped" and row.passed
    assert row.details["drift"] == 0.0175 and row.details["steps"] == 5000
    assert row.details["why"].startswith(
        "not converged within the budget: the drift of whitened over the last 2200-step window "
        "0.0175 vs criterion 0.01 after 5000 steps; the step bound (4000 steps beyond the "
        "planned 1000) was reached"
    )
    assert settled(failing, run({**stop, "converged": True})) is failing


@pytest.mark.result("collins24:fig3-4")
@pytest.mark.result("collins24:fig9")
def test_fixed_figure_checks_train_at_the_setting_given(monkeypatch: pytest.MonkeyPatch) -> None:
    """The U^d_S panels (Figs. 3-4) and Fig. 9's classes build their units from the Setting they
    are given: at their declared setting these are the presets the figures draw (one cached run
    each, no second training), and at another setting another unit (d, n, σ² carried over)."""
    import types

    import sims.collins24.fig3_4 as F34
    from sims.collins24.fig3_4 import acg_unit, compute_3_4
    from sims.collins24.results import S5
    from sims.collins24.sec4_lowrank import lowrank_unit
    from sims.collins24.train import PRESETS as UNITS

    for task, Ls in (("affine", (0.01, 0.1, 1.0)), ("relu", (0.03, 0.1, 1.0)), ("cos", (1.0,))):
        for L in Ls:
            name = f"f34_acg_L{L:g}" if task == "affine" else f"f34_acg_{task}_L{L:g}"
            assert repr(acg_unit(FIG34, task, L)) == repr(UNITS[name])
    assert repr(lowrank_unit(S5)) == repr(UNITS["s5_lowrank"])
    assert repr(lowrank_unit(S5, offset=2.0, model="linear")) == repr(UNITS["f9_offset_linear"])
    assert repr(lowrank_unit(S5, link="cos4")) == repr(UNITS["f9_cos4_softmax"])
    elsewhere = PRESETS["d3_sigma0.3"]  # d = 3, n = 20, σ² = 0.09
    st, recipe = acg_unit(elsewhere, "relu", 0.1)
    got = (st.d, st.n, st.sigma2, st.L, st.tasks.kind, st.covariates.kind)
    assert got == (3, 20, 0.09, 0.1, "relu", "acg")
    assert recipe == UNITS["f34_acg_L0.1"][1]
    with pytest.raises(ValueError, match="sigma2=None"):
        acg_unit(PAPER, "affine", 0.1)  # S1's sweep: no one noise level
    fake = types.SimpleNamespace(extra={"M_trace": None})
    monkeypatch.setattr(F34, "trained", lambda setting, recipe, seed: fake)  # no training
    monkeypatch.setattr(F34, "optimal_scale_affine", lambda *a: (1.0,))  # no quadrature
    runs = compute_3_4(panels=("sigma", "L", "n"), sigmas=(0.01,), ns=(20,))["runs"]
    assert [u for _, u, _ in runs["L"][1]] == [UNITS[p] for p in ("s3_L0.03", "s3_L0.1")] + [
        UNITS["s1_sigma0.01"]
    ]
    assert [label for label, _ in runs.values()] == [
        "sigma (L = 1, n = 20)",
        "L (sigma = 0.01, n = 20)",
        "n (sigma = 0.01, L = 1)",
    ]
