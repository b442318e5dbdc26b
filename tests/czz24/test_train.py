"""czz24's one trainer: ``trained(setting, recipe, *, seed)`` and its stopping rules.

A run that meets its rule at the planned steps is the run without the rule (same parameters, bit
for bit: the rule reads a monitor stream of its own); a run that reaches its step bound records
its numbers and the checks' rows on it are ``skipped`` with them, never ``fail``; the S1 fits
(Newton in log η, L-BFGS per layer) go through the same trainer and rule; bad recipes and
settings are refused before any work."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from numerics.testing import ordering
from sims.czz24.evidence import if_converged
from sims.czz24.fits import fit_free, free_contexts, schedule_errors
from sims.czz24.train import (
    FIG1B_H4,
    FREE_RECIPES,
    PRESETS,
    S1_PRE,
    S1_RTOL,
    FreeRecipe,
    Recipe,
    Stop,
    TiedRecipe,
    pruned_recipe,
    tied_recipe,
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
    for key in ("drift", "criterion", "steps", "step_bound", "window", "needs_tolerance"):
        assert key in out.details, key
    assert out.details["criterion"] == pytest.approx(1e-13) and out.details["steps"] == 40
    assert out.details["why"].startswith("not converged within the budget: relative drift")
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


#: A small S1 setting (Thm 5.3's data model) for the fits' tests.
SMALL_S1 = dataclasses.replace(SETTINGS["s1"], d=4, s=2, n=12, sigma2=0.3)


def test_the_tied_fit_stops_on_its_drift_or_is_skipped_at_its_bound() -> None:
    """Newton in log η through ``trained``: converged within its bound at a small setting (the
    risk's drift over 2 steps below a hundredth of the tolerance, the rule's record), and with
    a bound of 1 step unconverged, its row ``skipped`` with the numbers."""
    rc = tied_recipe("pre", 400, 0.05, "tests.czz24.test_train")
    run = trained(SMALL_S1, rc, seed=1)
    st = run.stop
    assert st["converged"] and run.converged and st["steps"] < st["max_steps"]
    assert st["drift"] < st["threshold"] == pytest.approx(0.01 * 0.05)
    assert run.history[-1] <= run.history[0]  # Newton steps only ever lower the risk
    row_tol = 0.05  # the row tolerance the stop scales; max_steps=1 leaves the run unconverged
    short = dataclasses.replace(rc, stop=Stop(tol=row_tol, max_steps=1, fraction=0.01, window=2))
    bad = trained(SMALL_S1, short, seed=1)
    assert not bad.converged and bad.steps == 1 and bad.stop["drift"] == float("inf")
    out = if_converged(ordering("a row on the fit", 0.1, 0.2, margin=0.0), bad)
    assert out.status == "skipped" and out.details["step_bound"] == 1


def test_the_free_fit_is_one_lbfgs_call_and_is_skipped_at_its_bound() -> None:
    """L-BFGS one iteration at a time (for the rule's window) gives the iterates of one torch
    call of ``max_steps`` iterations, bit for bit; a bound of 2 iterations ends unconverged."""
    import math

    import torch

    from numerics.czz24.optimum import constant_eta_optimum, s1_gram

    rc = dataclasses.replace(FREE_RECIPES["pre"], contexts=300)
    run = fit_free(SMALL_S1, rc, 2)
    fit = free_contexts(SMALL_S1, rc, 2, "fit")
    opt = constant_eta_optimum(fit.X, fit.y, fit.w, preprocess=True)
    G, b, sc = (torch.as_tensor(a) for a in s1_gram(fit.X, fit.y, True))
    w = torch.as_tensor(fit.w)
    phi = (math.log(opt.eta) + torch.tensor(rc.start_spread, dtype=torch.float64)).requires_grad_()
    lb = torch.optim.LBFGS(
        [phi], max_iter=rc.stop.max_steps, line_search_fn="strong_wolfe",
        tolerance_grad=rc.tolerance_grad, tolerance_change=rc.tolerance_change,
    )  # fmt: skip

    def closure() -> torch.Tensor:
        lb.zero_grad()
        loss = schedule_errors(phi, G, b, sc, w).mean()
        loss.backward()
        return loss

    lb.step(closure)  # type: ignore[arg-type]
    assert run.log_eta == tuple(phi.detach().tolist())
    assert run.iterations == lb.state[phi]["n_iter"] < rc.stop.max_steps
    assert run.stop["converged"]
    short = dataclasses.replace(rc, stop=dataclasses.replace(rc.stop, max_steps=2))
    bad = trained(SMALL_S1, short, seed=2)
    # ended by the bound on iterations or on evaluations (torch's 5/4 per iteration)
    assert bad.iterations <= 2 and not bad.stop["converged"]
    out = if_converged(ordering("a row on the fit", 0.1, 0.2, margin=0.0), bad)
    assert out.status == "skipped" and f"after {bad.iterations} steps" in out.details["why"]


def test_the_fits_refuse_a_setting_off_thm_5_3_and_bad_recipes() -> None:
    with pytest.raises(ValueError, match="prior must be 'sign'"):
        trained(SETTINGS["s2"], FREE_RECIPES["pre"])
    with pytest.raises(ValueError, match="method"):
        TiedRecipe(method="adam", contexts=10, stream="x", stop=Stop(tol=0.1, max_steps=5))  # any
    with pytest.raises(ValueError, match="start_spread"):
        FreeRecipe(method="pre", stop=Stop(tol=0.1, max_steps=5), start_spread=(0.1,))  # any
