"""hpcy25 trained claims at any setting: validators, the separability plan of a row,
the batch derived from a row's tolerance, and the property-level negative control (a named
alternative passed as the prediction fails at a drawn separable setting)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings

import sims.hpcy25 as C
import sims.hpcy25 as S
import theory.hpcy25 as th
from sims.hpcy25 import evidence as ev_
from sims.hpcy25.evidence import RTOL_INNER, RTOL_VGD
from sims.properties import classify
from sims.registry import all_results
from sims.verify import build_setting
from theory.hpcy25.settings import Setting
from theory.strategies.hpcy25 import hpcy25_trained_settings, hpcy25_vgd_settings

#: a drawn separable setting (in hpcy25_trained_settings' domain) where the Obs-1 rows pass at
#: seed 0 with the derived recipe: 1/kappa = 0.727 is 37.5 % from the L = ∞ value 1
SEPARABLE_OBS1 = {"d": 8, "L": 32, "sigma2": 0.5, "H": 2}


@pytest.mark.result("hpcy25:obs1")
@pytest.mark.parametrize("bad", [{"d": 0}, {"L": 1}, {"sigma2": -0.1}, {"H": 0}, {"d": 2.5}])
def test_obs1_validator_rejects_out_of_hypothesis_values(bad: dict) -> None:
    kw = {**S.OBS1_DEFAULTS, "H": 2, **bad}
    key = next(iter(bad))
    with pytest.raises(ValueError, match=f"^{key} = "):
        S.validate_obs1(**kw)
    with pytest.raises(ValueError, match=f"^{key} must be "):
        Setting(**bad)  # the Setting validates before any training


@pytest.mark.result("hpcy25:eq4.3")
def test_vgd_validator_needs_a_head_pair_before_training() -> None:
    result = next(r for r in all_results() if r.id == "hpcy25:eq4.3")
    with pytest.raises(ValueError, match="H = 1"):
        build_setting(result, ["H=1"])
    assert build_setting(result, ["H=3", "L=30"]) == Setting(H=3, L=30)  # in the hypotheses


def test_at_preset_only_at_the_presets_setting() -> None:
    assert S.at_preset(S.OBS1_DEFAULTS, d=5, L=40, sigma2=0.1)
    assert not S.at_preset(S.OBS1_DEFAULTS, d=5, L=41, sigma2=0.1)
    assert S.at_preset(S.VGD_DEFAULTS, d=5, L=24, sigma2=0.1, H=2)
    assert not S.at_preset(S.VGD_DEFAULTS, d=5, L=24, sigma2=0.1, H=3)


def test_batch_scales_with_the_inverse_square_of_the_tolerance() -> None:
    assert S.setting_batch(0.02) == 128
    assert S.setting_batch(0.01) == 512  # half the tolerance: four times the prompts
    assert S.setting_batch(RTOL_VGD) == 256  # 128 (2/1.6)^2 = 200, rounded up to 64s


def _vgd_alts(d: int, L: int, s2: float) -> tuple[float, dict[str, float]]:
    w1, m1, _ = th.single_head_optimum(d, L, s2)
    return float(th.eta_star(d, L, s2)), {
        "eta_V*": float(th.gd_eta_star(d, L, s2)),
        "1": 1.0,
        "single head": float(w1 * m1),
    }


def test_separability_plan_keep_tighten_skip_with_numbers() -> None:
    # the preset (L = 24): eta_V* is 3.28 % below 1/kappa, 2.05 units at 1.6 %: kept
    assert S.plan_rtol(*_vgd_alts(5, 24, 0.1), RTOL_VGD, 24) == (RTOL_VGD, "keep")
    # L = 16, d = 8, sigma2 = 1: eta_V* is 1/33 = 3.03 % away (< 2 units at 1.6 %) and L <= 16:
    # the row is tightened to half that distance, never skipped
    rtol, plan = S.plan_rtol(*_vgd_alts(8, 16, 1.0), RTOL_VGD, 16)
    assert plan == "tighten" and rtol == pytest.approx(1 / 33 / 2, rel=1e-9)
    # L = 64, d = 1, sigma2 = 0: eta_V* is 1/66 = 1.5 % away, L > 16: skipped
    assert S.plan_rtol(*_vgd_alts(1, 64, 0.0), RTOL_VGD, 64) == (RTOL_VGD, "skip")
    # Obs 1 at the same setting: the L = ∞ value 1 is 1.54 % from 1/kappa (< 2 units at 2 %)
    pred, alts = _vgd_alts(1, 64, 0.0)
    assert S.plan_rtol(pred, {"1": 1.0}, RTOL_INNER, 64)[1] == "skip"


def test_a_skipped_row_says_so_with_its_numbers() -> None:
    pred, alts = _vgd_alts(1, 64, 0.0)
    ev = S.discriminate(
        "row",
        pred,
        pred,
        0.0,
        alternatives=alts,
        rtol=RTOL_VGD,
        L=64,
        plan="skip",
        batch=256,
        steps=3000,
        details={},
    )
    assert ev.status == "skipped" and ev.passed
    assert "not separable at this setting" in ev.details["why"]
    assert ev.details["nearest_units"] == pytest.approx((pred - alts["eta_V*"]) / pred / RTOL_VGD)
    # the tolerance that tells eta_V* apart is half its distance; prompts grow by (rtol/need)^2
    need = (pred - alts["eta_V*"]) / pred / 2
    assert ev.details["needs_tolerance"] == pytest.approx(need)
    assert ev.details["prompts"] == pytest.approx(256 * 3000 * (RTOL_VGD / need) ** 2)


@pytest.mark.parametrize(
    ("check", "H"), [("check_eq4_3_train_vgd", 2), ("check_obs1_train", 3)], ids=["vgd", "obs1"]
)
def test_a_setting_not_separable_on_the_closed_forms_is_skipped_before_training(
    check: str, H: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """d = 1, L = 64, σ² = 0: η_V* is 1/66 = 1.5 % below 1/κ (0.95 units at 1.6 %) and 1 is
    1.56 % above (0.78 units at 2 %): the plan on the closed forms is "skip", so the check returns
    the skipped 1/κ row with its numbers and trains nothing."""
    from sims.hpcy25 import sec3_obs1_setting as obs1_setting
    from sims.hpcy25 import sec4_2_manifold as manifold

    def no_training(*a: object, **k: object) -> None:
        raise AssertionError("trained a setting whose plan is skip")

    from sims.hpcy25 import sec3_training as training

    monkeypatch.setattr(training, "trained", no_training)
    for module in (manifold, obs1_setting):
        assert not hasattr(module, "trained_setting")  # one trainer: sec3_training.train_or_skip
    setting = {"d": 1, "L": 64, "sigma2": 0.0, "H": H}
    (row,) = getattr(C, check)(Setting(**setting))
    assert row.kind == "TRAIN" and row.status == "skipped" and classify([row]) == "not_separable"
    assert row.predicted == pytest.approx(64 / 65) and row.details["trained"] is False
    why = row.details["why"]
    assert why.startswith("not separable at this setting") and "decided before training" in why
    assert "1/kappa" in row.details["decided_on"]
    near = min(a["separation_units"] for a in row.details["alternatives"])
    assert row.details["nearest_units"] == pytest.approx(near) and near < S.SEPARATION_UNITS
    assert row.details["seconds"] > 0 and row.details["prompts"] > 0
    # nothing trained: observed is the run's own initial <omega, mu> (drawn as the run draws it)
    from sims.hpcy25.evidence import init_metrics
    from sims.hpcy25.train import experiment_of

    exp = experiment_of(Setting(**setting))
    recipe = S.setting_training(H, row.details["rtol"], batch_size=128, patterns=True)
    init = init_metrics(exp, recipe, seed=0)
    assert row.observed == pytest.approx(float(init["omega"] @ init["mu"]), rel=1e-12)
    # a fault keeps the plan (a property of the setting): still skipped, the prediction swapped
    (faulted,) = getattr(C, check)(Setting(**setting), fault_prediction=ev_.L_INFINITY)
    assert faulted.status == "skipped" and faulted.predicted == pytest.approx(1.0)


def test_initial_metrics_without_training_are_the_runs_initial_parameters() -> None:
    from sims.hpcy25.evidence import init_metrics, pattern_metrics
    from sims.hpcy25.train import SETTING_RECIPE, experiment_of, run

    exp = experiment_of(Setting(d=3, L=20, sigma2=0.5, H=3))
    recipe = replace(SETTING_RECIPE, steps=1)
    res = run(exp, recipe, seed=7)
    want = pattern_metrics(exp, res.extra["init_params"])
    got = init_metrics(exp, recipe, seed=7)
    np.testing.assert_array_equal(got["omega"], want["omega"])
    np.testing.assert_array_equal(got["mu"], want["mu"])
    assert not np.array_equal(init_metrics(exp, recipe, seed=8)["mu"], want["mu"])  # seeded


@settings(max_examples=30, derandomize=True, database=None)
@given(hpcy25_trained_settings() | hpcy25_vgd_settings())
def test_drawn_settings_meet_the_validators(setting: dict) -> None:
    S.validate_obs1(**setting)
    S.validate_vgd(**setting)
    assert setting["H"] in (2, 3, 4) and setting["d"] <= 8 and setting["L"] <= 64
    assert 0.0 <= setting["sigma2"] <= 1.0


@pytest.mark.train
@pytest.mark.slow
@pytest.mark.result("hpcy25:obs1")
@pytest.mark.parametrize(
    "alternative", ["L = ∞ (finite-L term dropped): 1", "single-head optimum omega_1* mu_1* (4.12)"]
)
def test_property_negative_control_fails_at_a_drawn_separable_setting(alternative: str) -> None:
    """The declared faults fail at every separable setting, not only the preset:
    at a drawn setting where the unfaulted rows pass, the named alternative passed as the
    prediction fails."""
    S.validate_obs1(**SEPARABLE_OBS1)
    at, fault = Setting(**SEPARABLE_OBS1), _alternative(alternative)
    assert classify(C.check_obs1_train(at)) == "pass"
    assert classify(C.check_obs1_train(at, fault_prediction=fault)) == "fail"


def _alternative(name: str) -> ev_.Alternative:
    """The declared alternative of this name."""
    alts = (*ev_.INNER_ALTERNATIVES, *ev_.VGD_ALTERNATIVES)
    return next(a for a in alts if a.name == name)


#: a drawn separable setting of hpcy25_vgd_settings where the (4.3) rows pass at seed 0 with the
#: derived recipe (0.83 units): eta_V* is 1/24.5 = 4.1 % below 1/kappa, 2.45 units at 1.6 %
SEPARABLE_VGD = {"d": 3, "L": 20, "sigma2": 0.5, "H": 2}
#: Tolerance of the hand-made failing TRAIN row (observed 2.0 vs predicted 1.0: 5 units away).
FAILING_VGD_ROW_TOLERANCE = 0.2


def _failing_train_row():
    """A hand-made TRAIN row that fails (5 tolerance units from its prediction)."""
    from theory.common.protocols import Evidence

    return Evidence(
        name="train",
        kind="TRAIN",
        predicted=1.0,
        observed=2.0,
        tolerance=FAILING_VGD_ROW_TOLERANCE,
        error=5.0,
        passed=False,
    )


@pytest.mark.train
@pytest.mark.slow
@pytest.mark.result("hpcy25:eq4.3")
@pytest.mark.parametrize(
    "alternative", ["eta_V* = L/(L+D'+1) (vanilla GD, D.29)", "L = ∞ (finite-L term dropped): 1"]
)
def test_vgd_property_negative_control_fails_at_a_drawn_separable_setting(alternative: str) -> None:
    S.validate_vgd(**SEPARABLE_VGD)
    at, fault = Setting(**SEPARABLE_VGD), _alternative(alternative)
    assert classify(C.check_eq4_3_train_vgd(at)) == "pass"
    assert classify(C.check_eq4_3_train_vgd(at, fault_prediction=fault)) == "fail"


# ------------------------------------------------------------- the finite-ω prediction (derived)
def test_finite_omega_prediction_tends_to_one_over_kappa() -> None:
    """(D.24): the exact-risk optimal step of the ± pair tends to 1/κ as ω → 0; the offset grows
    like ω² ((4.8) series is even in ω): at ω and ω/2 the offsets are in ratio ≈ 4."""
    import numpy as np

    from numerics.hpcy25.mc import pair_step_optimum

    d, L, s2 = 3, 20, 0.45
    k_inv = float(th.eta_star(d, L, s2))
    small = pair_step_optimum(0.02, d=d, L=L, sigma2=s2, n=40_000, rng=np.random.default_rng(1))
    assert abs(small.mean - k_inv) <= 5 * small.se + 1e-3 * k_inv
    big = pair_step_optimum(0.4, d=d, L=L, sigma2=s2, n=80_000, rng=np.random.default_rng(2))
    half = pair_step_optimum(0.2, d=d, L=L, sigma2=s2, n=80_000, rng=np.random.default_rng(3))
    ratio = (big.mean / k_inv - 1) / (half.mean / k_inv - 1)
    assert 2.5 < ratio < 6.0  # ~4 (omega^2), noisy denominator


def test_finite_omega_prediction_is_the_minimiser_of_the_mc_risk_landscape() -> None:
    """An independent route: the plain MC risk of the symmetric pair on a grid of μ
    (``ltilde_landscape_mc``, risk quadratic in μ) has its minimum at ``m_ex = η_ex/(2ω)``."""
    import numpy as np

    from numerics.hpcy25.mc import ltilde_landscape_mc, pair_step_optimum

    d, L, s2, w = 4, 24, 0.3, 0.3
    mus = np.array([0.0, 1.0, 2.0])
    mean, _ = ltilde_landscape_mc(
        [w], mus, d=d, L=L, sigma2=s2, n=60_000, rng=np.random.default_rng(4)
    )
    a0, a1, a2 = np.linalg.solve(np.vander(mus, 3, increasing=True), mean[0])
    m_grid = -a1 / (2 * a2)
    eta = pair_step_optimum(w, d=d, L=L, sigma2=s2, n=60_000, rng=np.random.default_rng(5))
    assert eta.mean / (2 * w) == pytest.approx(m_grid, rel=0.01)
    # and a wrong noise term (σ² dropped) is told apart at this precision
    wrong = pair_step_optimum(w, d=d, L=L, sigma2=0.0, n=60_000, rng=np.random.default_rng(5))
    assert abs(wrong.mean / (2 * w) / m_grid - 1) > 0.03


def test_scale_optimum_of_a_pair_equals_the_pair_step() -> None:
    import numpy as np

    from numerics.hpcy25.mc import pair_step_optimum, scale_step_optimum

    kw = {"d": 3, "L": 20, "sigma2": 0.2, "n": 20_000}
    s_, step = scale_step_optimum([0.25, -0.25], [1.3, -1.3], rng=np.random.default_rng(6), **kw)
    pair = pair_step_optimum(0.25, rng=np.random.default_rng(6), **kw)
    assert step.mean == pytest.approx(pair.mean, rel=1e-12)
    assert s_.mean * 1.3 * 2 * 0.25 == pytest.approx(step.mean, rel=1e-12)
    with pytest.raises(ValueError, match="omega"):
        pair_step_optimum(0.0, rng=np.random.default_rng(0), **kw)


def test_invariant_stop_needs_settled_means_and_a_quiet_iterate() -> None:
    from sims.hpcy25.train import InvariantStop

    stop = InvariantStop(rel_drift=0.005)
    flat = [{"step": s_, "inv": 0.8} for s_ in range(0, 1200, 20)]
    assert stop(flat)
    assert not stop(flat[:40])  # fewer than min_steps / two windows
    drifting = [{"step": s_, "inv": 0.8 + 1e-5 * s_} for s_ in range(0, 1200, 20)]
    assert not stop(drifting)  # the window means differ by 0.5e-2 / 0.8 > 0.5 %
    noisy = [
        {"step": s_, "inv": 0.8 + (0.02 if (s_ // 20) % 2 else -0.02)} for s_ in range(0, 1200, 20)
    ]
    assert not stop(noisy)  # equal means, but the iterate's spread is 2.5 %
    with pytest.raises(ValueError, match="rel_drift"):
        InvariantStop(rel_drift=0.0)


def test_an_unconverged_run_is_skipped_with_its_numbers_a_converged_one_is_judged() -> None:
    """A run whose InvariantStop did not fire by the step bound: its rows are ``skipped`` (counted
    as not separable, never passed or failed) with the drift, the criterion, the steps taken and
    the steps it would need; a run that stopped is judged (a missed prediction still fails)."""
    from types import SimpleNamespace

    from sims.hpcy25.train import InvariantStop
    from sims.properties import classify

    stop = InvariantStop(rel_drift=0.004)
    # drift of the window means ~ 1/steps: 0.8 (1 + 300/s); not settled at 3000 steps
    trace = [{"step": s_, "inv": 0.8 * (1 + 300.0 / (s_ + 1))} for s_ in range(0, 3000, 20)]
    short = S.convergence_shortfall(SimpleNamespace(extra={"trace": trace}), stop, batch=256)
    assert short is not None and short["drift"] > stop.rel_drift and short["steps"] == 2981
    assert short["steps"] < short["steps_needed"] < 1e6  # a finite power-law extrapolation
    assert short["seconds_needed"] == pytest.approx(
        short["steps_needed"] * S.SETTING_SECONDS_PER_STEP * 2
    )
    failing = _failing_train_row()
    rows = S.skip_unconverged([failing], short)
    assert classify(rows) == "not_separable"
    why = rows[0].details["why"]
    assert why.startswith("not converged within the budget: invariant drift") and "steps" in why
    # a run that stopped: no shortfall, its failing row stays a fail
    stopped = SimpleNamespace(extra={"trace": trace, "stopped_at": 2000})
    assert S.convergence_shortfall(stopped, stop, batch=256) is None
    assert classify([failing]) == "fail"


def test_drawn_runs_have_the_plateau_schedule_and_the_skip_rule() -> None:
    """A drawn setting: the plateau schedule (trigger 3x each stop bound, the step bound raised,
    the config's cosine off) and an unconverged run's rows ``skipped``.  H = 2, or rows that do
    not depend on the heads' configuration: the invariant stop; the checks' H = 3 runs: the
    pattern stop and its plateau.  Negative control: a run that stopped keeps a failing row
    failing."""
    from types import SimpleNamespace

    from sims.hpcy25.train import SETTING_RECIPE, PatternPlateau, PatternStop
    from sims.properties import classify

    cfg2 = S.setting_training(2, 0.02, batch_size=256, patterns=True)
    stop, sch = cfg2.stop, cfg2.schedule
    assert stop is not None and sch is not None and cfg2.batch_size == 256
    assert stop.rel_drift == pytest.approx(S.STOP_FRACTION * 0.02)
    assert not isinstance(stop, PatternStop) and not isinstance(sch, PatternPlateau)
    assert sch.trigger == pytest.approx(S.PLATEAU_TRIGGER_UNITS * stop.rel_drift)
    assert (sch.lr, sch.window, sch.min_steps) == (SETTING_RECIPE.lr, stop.window, stop.min_steps)
    assert cfg2.steps == S.PLATEAU_MAX_STEPS and cfg2.lr_decay == 1.0 and cfg2.max_steps == 0
    cfg3 = S.setting_training(3, 0.02, batch_size=256, patterns=True)
    stop3, sch3 = cfg3.stop, cfg3.schedule
    assert isinstance(stop3, PatternStop) and isinstance(sch3, PatternPlateau)
    assert stop3.rel_drift == stop.rel_drift and cfg3.steps == S.PATTERN_MAX_STEPS
    assert dict(stop3.pattern) == pytest.approx(
        {k: S.STOP_FRACTION * t for k, t in S.PATTERN_TOLERANCES.items()}
    )
    assert dict(sch3.pattern) == pytest.approx(
        {k: S.PLATEAU_TRIGGER_UNITS * b for k, b in stop3.pattern}
    )
    cfg4 = S.setting_training(4, 0.02, batch_size=256)  # patterns=False: invariant only
    assert cfg4 == cfg2
    trace = [{"step": s_, "inv": 0.8 * (1 + 3000.0 / (s_ + 1))} for s_ in range(0, 6000, 20)]
    res = SimpleNamespace(extra={"trace": trace})
    failing = _failing_train_row()
    two = S.converged_or_skipped([failing], res, cfg2)
    assert classify(two) == "not_separable" and two[0].details["not_converged"] == 1
    stopped = SimpleNamespace(extra={"trace": trace, "stopped_at": 5000})
    kept = S.converged_or_skipped([failing], stopped, cfg2)
    assert classify(kept) == "fail" and kept[0].details["convergence"] == "converged"


def _pattern_trace(n: int, **moving: Any) -> list[dict[str, float]]:
    """A logged trace (every 20 steps up to ``n``) with a settled invariant and settled pattern
    statistics, except those in ``moving`` (``key=f(step)``)."""
    flat = {"inv": 0.8, "diag": 0.99, "ov": 0.995, "spread": 0.05}
    return [{"step": s_, **flat, **{k: f(s_) for k, f in moving.items()}} for s_ in range(0, n, 20)]


def test_pattern_stop_waits_for_each_pattern_statistic() -> None:
    """The pattern stop fires only when the invariant and each pattern statistic have settled:
    each statistic, moving alone by more than its bound between the two windows (or jittering by
    more than it), keeps the run going; below its bound it does not."""
    from sims.hpcy25.train import PatternStop

    stop = S.pattern_stop(0.02)
    bounds = stop.bounds()
    assert bounds["inv"] == pytest.approx(0.005) and bounds["ov"] == pytest.approx(0.005)
    assert bounds["diag"] == pytest.approx(0.0075) and bounds["spread"] == pytest.approx(0.0375)
    assert stop(_pattern_trace(1200))
    assert not stop(_pattern_trace(900))  # two windows not filled
    for key, b in stop.pattern:
        # a linear trend whose window means differ by 2 bounds, then by half a bound
        assert not stop(_pattern_trace(1200, **{key: lambda s_, b=b: 0.5 + 2 * b * s_ / 500}))
        assert stop(_pattern_trace(1200, **{key: lambda s_, b=b: 0.5 + 0.5 * b * s_ / 500}))
        jitter = {key: lambda s_, b=b: 0.5 + (1.5 * b if (s_ // 20) % 2 else -1.5 * b)}
        assert not stop(_pattern_trace(1200, **jitter))
    with pytest.raises(ValueError, match="pattern key"):
        PatternStop(rel_drift=0.005, pattern=(("risk", 0.01),))
    with pytest.raises(ValueError, match="diag"):
        PatternStop(rel_drift=0.005, pattern=(("diag", 0.0),))


def test_pattern_plateau_triggers_after_the_patterns_settle() -> None:
    """The plateau of a pattern stop triggers once the invariant and every pattern statistic's
    window means agree within 3 bounds: a statistic still rising delays it (the same trace
    triggers the invariant-only plateau at the first filled windows)."""
    from sims.hpcy25.train import SETTING_RECIPE

    cfg = SETTING_RECIPE
    sch = S.setting_training(3, 0.02, batch_size=128, patterns=True).schedule
    plain = S.setting_training(3, 0.02, batch_size=128).schedule
    assert sch is not None and plain is not None
    rising = _pattern_trace(4000, ov=lambda s_: min(0.995, 0.6 + 0.2 * s_ / 1000))
    assert plain.trigger_step(rising) == 1000
    t0 = sch.trigger_step(rising)
    # ov reaches 0.995 at 1975: the window means agree within 3 bounds (0.015) before the
    # last window is all 0.995 (2475), well after the invariant's plateau (1000)
    assert t0 is not None and 1975 < t0 < 2975
    cur = [r["ov"] for r in rising if t0 - 500 < r["step"] <= t0]
    prev = [r["ov"] for r in rising if t0 - 1000 < r["step"] <= t0 - 500]
    assert abs(np.mean(cur) - np.mean(prev)) <= S.PLATEAU_TRIGGER_UNITS * 0.005
    assert sch(t0, rising) == cfg.lr and sch(t0 + 500, rising) < cfg.lr


def test_pattern_snapshot_is_the_obs1_rows_statistics() -> None:
    """The statistics the pattern stop traces are those the Obs-1 rows judge (min diag_ratio and
    ov_ratio over the active heads, the active |omega_h| spread) of the same circuits."""
    import numpy as np
    import torch

    from sims.hpcy25.evidence import circuit_metrics
    from sims.hpcy25.train import pattern_snapshot

    rng = np.random.default_rng(3)
    d, H = 4, 3
    KQ = rng.normal(size=(H, d + 1, d + 1)) * 0.1
    KQ[:, :d, :d] += np.array([0.3, -0.25, 0.2])[:, None, None] * np.eye(d)
    OV = rng.normal(size=(H, 1, d + 1)) * 0.05
    OV[:, 0, d] = [1.2, -1.1, 0.01]  # the third head inactive (below 5 % of max |mu|)
    m = circuit_metrics(KQ, OV, d)
    a = m["active"]
    assert a.tolist() == [True, True, False]
    snap = pattern_snapshot(torch.as_tensor(KQ), torch.as_tensor(OV), d)
    w = np.abs(m["omega"][a])
    assert snap["diag"] == pytest.approx(m["diag_ratio"][a].min(), rel=1e-12)
    assert snap["ov"] == pytest.approx(m["ov_ratio"][a].min(), rel=1e-12)
    assert snap["spread"] == pytest.approx(w.max() / w.min() - 1, rel=1e-12)


def test_an_unconverged_pattern_names_its_statistic() -> None:
    """A run whose invariant settled but whose ov_ratio still rises at the step bound: the
    shortfall names ``ov`` (drift and bound in its own units) and the rows are ``skipped``."""
    from types import SimpleNamespace

    from sims.properties import classify

    stop = S.pattern_stop(0.02)
    trace = _pattern_trace(6000, ov=lambda s_: 0.99 - 3000.0 / (s_ + 1000))
    short = S.convergence_shortfall(SimpleNamespace(extra={"trace": trace}), stop, batch=128)
    assert short is not None and short["statistic"] == "ov"
    assert short["criterion"] == pytest.approx(dict(stop.pattern)["ov"])
    assert short["drift"] > short["criterion"] and short["steps"] == 5981
    rows = S.skip_unconverged([_failing_train_row()], short)
    assert classify(rows) == "not_separable" and "'ov'" in rows[0].details["why"]


def test_limit_row_trained_where_resolvable_else_the_prediction_route() -> None:
    from theory.common.protocols import Estimate

    k_inv, rtol = 0.8, 0.02
    alts = {"1": 1.0}
    near = S.limit_row(
        "t: row",
        0.805,
        k_inv,
        Estimate(0.806, 0.001, 1),
        0.0,
        alternatives=alts,
        rtol=rtol,
        L=40,
        plan="keep",
        batch=128,
        steps=3000,
        wbar=0.2,
        d=5,
        sigma2=0.1,
        seed=0,
        path="x",
        details={},
    )
    assert near.kind == "TRAIN" and near.status == "pass"  # offset 0.75 % <= 1 %
    k3 = float(th.eta_star(3, 20, 0.5))  # 0.8163
    kw = {
        "alternatives": alts,
        "rtol": rtol,
        "L": 20,
        "plan": "keep",
        "batch": 128,
        "steps": 3000,
        "wbar": 0.3,
        "d": 3,
        "sigma2": 0.5,
        "seed": 0,
        "path": "x",
        "details": {},
    }
    far = S.limit_row("t: row", 0.857, k3, Estimate(1.05 * k3, 0.001, 1), 0.0, **kw)
    assert far.kind != "TRAIN" and far.status == "pass"  # 5 % offset: the MC limit route
    assert far.details["omega_r"] == pytest.approx(0.3 * (0.01 / 0.05) ** 0.5 / 2)
    assert far.details["steps_needed"] == pytest.approx(3000 * 5.0**3)
    assert "not emitted" in far.details["trained_limit_row"]
    # the route has power: a 1/kappa 2 % off (0.8 for 0.8163) fails it
    wrong = S.limit_row("t: row", 0.857, 0.8, Estimate(1.05 * 0.8, 0.001, 1), 0.0, **kw)
    assert wrong.status == "fail"


@pytest.mark.result("hpcy25:obs1")
def test_settings_validation_messages_name_the_value_and_the_assumption() -> None:
    """The settings' own messages, compared exactly (d = 0, L = 1)."""
    from theory.hpcy25.settings import HpcySetting

    for make, msg in (
        (lambda: Setting(d=0), r"^d must be ≥ 1 \(hpcy25 §2: the covariate dimension\), got 0$"),
        (
            lambda: Setting(L=1),
            r"^L must be ≥ 2 \(hpcy25 §2: the prompt length \(the softmax over one context token "
            r"is constant\)\), got 1$",
        ),
        (
            lambda: HpcySetting(d=0, L=40, sigma2=0.1, omega=(0.1,), mu=(1.0,)),
            r"^d must be ≥ 1 \(hpcy25 §1.1: dimension d ≥ 1\), got 0$",
        ),
        (
            lambda: HpcySetting(d=5, L=1, sigma2=0.1, omega=(0.1,), mu=(1.0,)),
            r"^L must be ≥ 2 \(hpcy25 §1.1: prompt length L ≥ 2\), got 1$",
        ),
    ):
        with pytest.raises(ValueError, match=msg):
            make()
