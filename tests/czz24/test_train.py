"""czz24's one trainer: ``trained(setting, recipe, *, seed)`` and its stopping rule.

A run that meets its rule at the planned steps is the run without the rule (same parameters, bit
for bit: the rule reads a monitor stream of its own); a run that reaches its step bound records
its numbers and the checks' rows on it are ``skipped`` with them, never ``fail``; bad recipes
and settings are refused before any work."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from numerics.testing import ordering
from sims.czz24.evidence import if_converged
from sims.czz24.train import (
    FIG1B_H4,
    PRESETS,
    S1_PRE,
    S1_RTOL,
    Recipe,
    Stop,
    pruned_recipe,
    trained,
)
from theory.czz24.settings import PRESETS as SETTINGS

SMOKE_SETTING, SMOKE = PRESETS["smoke"]
#: A stopping rule met at once (its threshold, 10, is above any relative drift of a risk) and one
#: never met (a threshold of 1e-13 relative, below float64 round-off of a window mean).
MET = Stop(tol=100.0, max_steps=80, window=10)  # tolerance of a rule that is always met
NEVER = Stop(tol=1e-12, max_steps=40, window=10)  # tolerance of a rule that is never met


def _smoke(stop: Stop | None) -> Recipe:
    return dataclasses.replace(SMOKE, steps=20, log_every=5, stop=stop)


@pytest.mark.train
def test_a_run_converged_at_its_planned_steps_is_the_run_without_the_rule() -> None:
    plain = trained(SMOKE_SETTING, _smoke(None), seed=3)
    ruled = trained(SMOKE_SETTING, _smoke(MET), seed=3)
    st = ruled.extra["stop"]
    assert st["converged"] and st["steps"] == 20 and st["drift"] < st["threshold"]
    for k, v in plain.params.items():
        np.testing.assert_array_equal(ruled.params[k], v)
    np.testing.assert_array_equal(ruled.steps, plain.steps)  # the recipe's own loss log
    np.testing.assert_array_equal(ruled.losses, plain.losses)
    assert ruled.extra["test_excess"] == plain.extra["test_excess"]


@pytest.mark.train
def test_a_run_at_its_step_bound_is_skipped_with_its_numbers() -> None:
    res = trained(SMOKE_SETTING, _smoke(NEVER), seed=3)
    st = res.extra["stop"]
    assert not st["converged"] and st["steps"] == 40 and st["max_steps"] == 40
    assert st["drift"] >= st["threshold"] == pytest.approx(1e-13)
    assert res.config.steps == 40 and res.steps[-1] == 39
    row = ordering("a row on the run", 0.1, 0.2, margin=0.0)
    assert row.passed
    out = if_converged(row, res)
    assert out.status == "skipped"
    for key in ("drift", "drift_threshold", "steps", "step_bound", "window"):
        assert key in out.details, key
    assert "did not converge within its step bound" in out.details["why"]
    # a converged run leaves the row as it is
    ok = trained(SMOKE_SETTING, _smoke(MET), seed=3)
    assert if_converged(row, ok) is row


def test_recipes_and_settings_are_refused_before_any_work() -> None:
    with pytest.raises(ValueError, match="lr_decay"):
        Recipe(lr_decay=0.5, stop=MET)
    with pytest.raises(ValueError, match="prune and base"):
        Recipe(prune=((True,),))
    with pytest.raises(ValueError, match="entries per layer"):
        pruned_recipe(FIG1B_H4, ((True,),))
    with pytest.raises(ValueError, match="Sigma_diag=None"):
        trained(SETTINGS["lemD1"], S1_PRE)
    with pytest.raises(ValueError, match="stop tol"):
        Stop(tol=0.0, max_steps=10)


def test_the_s1_recipes_stop_on_their_train_rows_tolerance() -> None:
    """The S1 runs' rule reads the tolerance of the TRAIN row that judges them (one number)."""
    from sims.czz24.sec4_2_pregd import S1_RECIPES

    for m, rc in S1_RECIPES.items():
        assert rc.stop is not None and rc.stop.tol == S1_RTOL[m]
        assert rc.stop.max_steps > rc.steps
