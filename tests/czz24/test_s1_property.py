"""czz24:s1 at drawn settings: the declared negative control (the other method's
optimum passed as the prediction) fails at a drawn separable setting, not only at the preset, and
an out-of-hypothesis setting is refused before any training."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings

from sims.czz24.sec4_2_pregd import check_s1_train, s1_hypotheses
from theory.czz24.settings import PRESETS, Setting
from theory.strategies.czz24 import czz24_s1_settings

S1 = PRESETS["s1"]


@settings(
    max_examples=1,
    derandomize=True,
    database=None,
    deadline=None,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),  # pyright: ignore[reportArgumentType]
)
@given(czz24_s1_settings())
def test_s1_swapped_prediction_fails_at_a_drawn_separable_setting(setting: dict) -> None:
    rows = check_s1_train(dataclasses.replace(S1, **setting))
    assume(all(r.passed for r in rows) and not any(r.status == "skipped" for r in rows))
    faulted = check_s1_train(dataclasses.replace(S1, **setting), fault_swap_prediction=True)
    train = [r for r in faulted if r.kind == "TRAIN"]
    assert len(train) == 2 and not any(r.passed for r in train), [r.describe() for r in train]


@pytest.mark.parametrize("bad", [{"d": 3, "s": 4}, {"n": 0}, {"sigma2": -0.1}, {"d": 2.5}])
def test_s1_setting_out_of_the_settings_domain_is_refused(bad: dict) -> None:
    setting = {"d": 4, "s": 2, "n": 12, "sigma2": 0.3, **bad}
    with pytest.raises(ValueError):
        Setting(**setting)


@pytest.mark.parametrize(
    ("bad", "match"),
    [
        ({"prior": "gauss"}, "prior must be 'sign'"),
        ({"Sigma_diag": (1.0, 2.0, 1.0, 1.0)}, "Σ = I"),
        ({"zeta": 0.2}, "Σ = I"),
        ({"Sigma_diag": None}, "Σ = I"),
    ],
)
def test_s1_setting_out_of_hypothesis_is_refused(bad: dict, match: str) -> None:
    setting = dataclasses.replace(S1, d=4, s=2, n=12, sigma2=0.3, **bad)
    with pytest.raises(ValueError, match=match):
        s1_hypotheses(setting)
    with pytest.raises(ValueError, match=match):
        check_s1_train(setting)
