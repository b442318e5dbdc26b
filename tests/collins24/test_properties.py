"""collins24 trained claims at any setting: validators name the assumption, the rows
at a drawn setting pass, a named alternative planted as the prediction fails there (the
property-level negative control, not only at the preset), and an unresolvable setting is a
``skipped`` row with its numbers.
"""

from __future__ import annotations

import pytest

from sims.collins24.evidence import (
    EQ9_HALF,
    LABEL_AVERAGE,
    Alternative,
    affine_alternatives,
    optimum_at,
    setting_rows,
    validate_fig34_setting,
    validate_thm34_setting,
)
from sims.collins24.results import thm34_hypotheses
from sims.properties import classify
from sims.verify import run_check
from theory.collins24.settings import Setting

#: A separable setting drawn from ``theory.strategies.collins24:thm34_train_settings``'s
#: ranges (d = 3, n = 12, Λ = 120; every alternative ≥ 10 tolerances from ω*).
DRAWN = {"d": 3, "n": 12, "L": 1.0, "sigma2": 0.1}
#: Alternatives that the presets' controls plant (the Figs. 3-4 objects; n/2 at this setting).
PLANTED = (LABEL_AVERAGE, EQ9_HALF, optimum_at("n", 6))


@pytest.mark.parametrize(
    ("bad", "symbol"),
    [
        ({"d": 1}, "d must be ≥ 2"),
        ({"n": 1}, "n must be ≥ 2"),
        ({"L": 0.0}, "L must"),
        ({"sigma2": 0.0}, "sigma2 must"),
        ({"d": 9}, "d=9"),
    ],
)
def test_validators_name_the_assumption(bad: dict, symbol: str) -> None:
    setting = {**DRAWN, **bad}
    for validate in (validate_thm34_setting, validate_fig34_setting):
        with pytest.raises(ValueError, match=symbol):
            validate(**setting)
    with pytest.raises(ValueError, match=symbol):  # Theorem 3.4's Setting and hypotheses
        thm34_hypotheses(Setting(**setting))


@pytest.mark.train
def test_drawn_setting_passes_and_records_its_schedule() -> None:
    rows = run_check("sims.collins24.fig3_4:check_fig3_4_train", setting=Setting(**DRAWN))
    assert classify(rows) == "pass", [r.name for r in rows if not r.passed]
    (row,) = rows
    assert row.details["setting"] == DRAWN
    assert {"step_size", "batch", "steps", "omega_drift_over_window"} <= set(row.details)
    assert row.details["start_units"] >= 3


@pytest.mark.train
@pytest.mark.parametrize("alternative", PLANTED)
def test_planted_alternative_fails_at_a_drawn_setting(alternative: Alternative) -> None:
    rows = run_check(
        "sims.collins24.fig3_4:check_fig3_4_train",
        setting=Setting(**DRAWN),
        fault_alternative=alternative,
    )
    assert any(r.status == "fail" for r in rows), alternative.name


def test_unresolvable_alternative_is_skipped_with_numbers() -> None:
    """An alternative 0.5 % from ω* at n = 24 > 16: needs tolerance 0.25 %, beyond the batch cap:
    ``skipped`` with the numbers, before any training."""

    def close(w: float) -> dict[str, float]:
        return {**affine_alternatives(3, 24, 1.0, 0.1)(w), "planted 0.5 % neighbour": 1.005 * w}

    (row,) = setting_rows("close", d=3, n=24, L=1.0, sigma2=0.1, alternatives=close)
    assert row.status == "skipped"
    why = row.details["why"]
    assert "not separable at this setting" in why and "prompts per step" in why and " s" in why
    assert row.details["needed_tolerance"] == pytest.approx(0.0025)


@pytest.mark.train
def test_close_alternative_at_short_prompt_is_resolved_by_tightening() -> None:
    """d = 6, n = 16 ≤ 16, Λ = 3600: the §3.1 surrogate is 3.5 % from ω* (0.7 units at 5 %), so
    the row is tightened to 1.76 % with 256 (0.05/0.0176)² ≈ 2112 prompts per step (not
    skipped), and passes outside the surrogate."""
    (row,) = run_check(
        "sims.collins24.sec3_optimum:check_thm3_4_train",
        setting=Setting(d=6, n=16, L=1.5, sigma2=0.01),
    )
    assert row.status == "pass" and "tightened" in row.details
    assert row.details["batch"] > 2000
    assert row.tolerance == pytest.approx(0.0353 / 2, rel=0.01)  # the relative tolerance


@pytest.mark.parametrize(
    "rid",
    [
        "collins24:thm3.5",
        "collins24:thm3.6",
        "collins24:lemB.5",
        "collins24:rem2.2",
        "collins24:lemD.2",
    ],
)
def test_one_context_point_is_refused_before_any_work(rid: str, capsys) -> None:
    """n = 1: the softmax gives its one context point weight 1 at every ω, so these results'
    optimum, strict orderings, increasing N and O(ω²) remainder do not exist; each refuses
    (exit 2, naming n and the assumption) instead of failing rows (they failed 1-5 rows each)."""
    from sims import cli

    assert cli.main(["check", rid, "--set", "n=1"]) == 2
    assert "n=1: needs n >= 2 context examples" in capsys.readouterr().err
