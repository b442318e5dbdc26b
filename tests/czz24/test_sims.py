"""czz24 trained models at the full configuration (thorough tier, ``quick=False``): S1 over three
seeds, S2 with both head counts.  The quick runs of every torch check and their negative controls
are declared in sims/czz24/results.py and run by tests/test_registry.py."""

from __future__ import annotations

import pytest

from numerics.testing import assert_passed
from sims import czz24 as C
from theory.czz24.settings import PRESETS


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.thorough
@pytest.mark.result("czz24:s2")
def test_s2_trained_both_head_counts() -> None:
    assert_passed(C.check_s2_train(PRESETS["s2"], quick=False))


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.thorough
@pytest.mark.result("czz24:s1")
def test_s1_trained_three_seeds() -> None:
    assert_passed(C.check_s1_train(PRESETS["s1"], quick=False))


@pytest.mark.result("czz24:s2")
def test_s2_absolute_bound_skipped_where_a_sane_model_exceeds_it() -> None:
    """S2's bound risk < 0.2·E‖w‖² (spec 000 V-sims S2, calibrated at n = 32, σ = 0.5: ridge*
    0.083, 3 × ridge* = 0.25 < 0.4) is judged there (and fails a model at 0.6); at n = 12 (ridge*
    0.32, measured trained risk 0.42 = 1.3 × ridge*) a sane model exceeds it: skipped, with the
    numbers, never failed."""
    from sims.czz24.fig1b import s2_absolute_row

    def row(risk: float, ridge: float):
        return s2_absolute_row("m", risk, 0.02, signal=2.0, ridge=ridge, bayes=0.05, details={})

    assert row(0.095, 0.083).status == "pass"
    assert row(0.6, 0.083).status == "fail"
    skip = row(0.42, 0.322)
    assert skip.status == "skipped"
    assert "3 × ridge* = 0.966" in skip.details["why"] and skip.details["bound"] == 0.4


@pytest.mark.result("czz24:s2")
def test_s2_check_reaches_training_at_n_below_d_plus_1(monkeypatch) -> None:
    """n ≤ d is a valid setting: the check's references use the recipe adapted to it (token
    prompts where compressed ones need n ≥ d + 1), so it reaches training instead of erroring
    (it raised "train_prompts = 'compressed' needs n ≥ d + 1" before any model was built)."""
    import dataclasses

    from sims.czz24 import fig1b

    class Reached(Exception):
        pass

    def stop(setting, name, seed):
        assert fig1b.s2_recipe(setting, name).train_prompts == "tokens"
        raise Reached

    monkeypatch.setattr(fig1b, "_s2_model", stop)
    with pytest.raises(Reached):
        fig1b.check_s2_train(dataclasses.replace(PRESETS["s2"], n=8), quick=True)
