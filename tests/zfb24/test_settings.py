"""[zfb24] trained checks at drawn settings: the validators refuse out-of-hypothesis
values before any training, the off-by-one faults fail at a drawn separable setting (not only at
the preset), and the moment-statistics route is what its rows say."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import Phase, given, settings

from numerics.zfb24 import faults
from sims.properties import classify
from sims.verify import declared, run_check, run_check_safely
from theory.strategies.zfb24 import thm4_train_settings, thm8_train_settings

THM4 = "sims.zfb24.sec4_1_convergence:check_thm4_train_population_gd"
EQ12 = "sims.zfb24.sec3_model:check_eq12_train"
THM8 = "sims.zfb24.sec4_3_random_cov:check_thm8_train_sgd"


def _at(path: str, drawn: dict):
    """The Setting a property runs the check at: its declared preset with the drawn fields."""
    return dataclasses.replace(declared(path).at, **drawn)


def _draws(strategy, n: int) -> list[dict]:
    """The first ``n`` derandomised draws of a property's strategy (as the property draws them)."""
    out: list[dict] = []

    @settings(
        max_examples=n, derandomize=True, database=None, deadline=None, phases=[Phase.generate]
    )
    @given(strategy)
    def collect(s: dict) -> None:
        out.append(s)

    collect()
    return out


def _first_separable(path: str, strategy, n: int = 12) -> dict:
    """The first drawn setting where the unfaulted check passes (separable within the budget)."""
    for s in _draws(strategy, n):
        rows, error = run_check_safely(path, setting=_at(path, s))
        assert error is None, error
        verdict = classify(rows)
        if verdict == "not_separable":
            continue
        assert verdict == "pass", (s, [e.describe() for e in rows if not e.passed])
        return s
    pytest.fail(f"no separable setting among the first {n} draws of {path}")


@pytest.mark.result("zfb24:thm4")
@pytest.mark.parametrize("fault", ["gamma_n_plus_1", "gamma_n_minus_1"])
@pytest.mark.parametrize("path", [THM4, EQ12])
def test_off_by_one_fails_at_a_drawn_separable_setting(path: str, fault: str) -> None:
    """The declared off-by-one negative controls (Γ with N → N±1 as the prediction) fail at a drawn
    separable setting of the property, not only at the preset."""
    s = _first_separable(path, thm4_train_settings())
    rows = run_check(path, setting=_at(path, s), fault_gamma_fn=getattr(faults, fault))
    bad = [e for e in rows if e.kind == "TRAIN" and not e.passed]
    assert bad, f"{fault} at {s} was not rejected"


@pytest.mark.result("zfb24:thm8")
@pytest.mark.parametrize("fault", ["δ(N−1) (off by one)", "δ(N+1) (off by one)"])
def test_thm8_off_by_one_fails_at_a_drawn_separable_setting(fault: str) -> None:
    s = _first_separable(THM8, thm8_train_settings())
    rows = run_check(THM8, setting=_at(THM8, s), fault_alternative=fault)
    assert [e for e in rows if e.kind == "TRAIN" and not e.passed], f"{fault} at {s} accepted"


@pytest.mark.result("zfb24:thm8")
def test_unconverged_moment_run_is_skipped_with_its_numbers(monkeypatch) -> None:
    """The moment-statistics route's stopping rule (P's drift over a window below a fraction of
    the tolerance, within MAX_STEPS): a run that reaches its bound unconverged makes the rows
    ``skipped`` with the drift, threshold, steps and bound -- never judged, never ``fail``."""
    from sims.zfb24 import moments as MT

    s = _first_separable(THM8, thm8_train_settings())
    # one window: P still far from settled (the bound is part of the recipe, so of the cache key)
    monkeypatch.setattr(MT, "MAX_STEPS", MT.DRIFT_WINDOW)
    rows = run_check(THM8, setting=_at(THM8, s))
    assert rows and all((e.status, e.kind) == ("skipped", "TRAIN") for e in rows)
    d = rows[0].details
    assert d["steps"] == d["step_bound"] == MT.DRIFT_WINDOW and d["drift"] > d["drift_threshold"]
    assert d["not_converged"] == 1 and d["criterion"] == d["drift_threshold"]
    assert d["why"].startswith("not converged within the budget: P's relative change over 100")


@pytest.mark.result("zfb24:thm4")
@pytest.mark.parametrize(
    ("sets", "words"),
    [
        (["sigma_init=1.2", "d=3", "N=6", "spectrum=0.5,1,2"], "σ²‖Γ‖_op√d"),
        (["d=3", "N=6", "spectrum=0.5,1"], "spectrum"),
        (["d=3", "N=6", "spectrum=0.5,-1,2"], "spectrum[1] must be > 0 (zfb24 §3.3: Λ ≻ 0)"),
        (["N=1"], "N ≥ 2"),
    ],
)
def test_out_of_hypothesis_setting_exits_2_before_training(
    sets: list[str], words: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """In process (``sims.cli.main``; the console entry is exercised by the report tests): exit 2
    naming the assumption, and nothing trained or read through zfb24's trainer (it raises here)."""
    import sims.zfb24.train as TR
    from sims import cli

    def no_training(*a: object, **k: object) -> None:
        raise AssertionError("trained before the setting was validated")

    monkeypatch.setattr(TR, "cached", no_training)
    argv = ["check", "zfb24:thm4"]
    for s in sets:
        argv += ["--set", s]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert words in err, err[-500:]
    # the trap itself springs on a valid setting (else "before training" would be unchecked)
    with pytest.raises(AssertionError, match="trained before"):
        run_check(THM4, setting=_at(THM4, {"d": 2, "N": 6, "spectrum": (0.7, 1.3)}))


@pytest.mark.result("zfb24:thm4")
def test_moment_route_rows_record_training_and_tightened_tolerance() -> None:
    """At d = 3, N = 6, Λ = diag(0.5, 1, 2): Γ⁻¹'s off-by-one neighbours are
    < 15 % away, so the P row is tightened to put the nearest SEPARATION_UNITS away, and the row
    records step size, batch and steps of the derived training."""
    from sims.zfb24.evidence import SEPARATION_UNITS
    from theory import zfb24 as T

    rows = run_check(THM4, setting=_at(THM4, {"d": 3, "N": 6, "spectrum": (0.5, 1.0, 2.0)}))
    assert classify(rows) == "pass"
    P = rows[0]
    L = np.diag([0.5, 1.0, 2.0])
    Gi = np.linalg.inv(T.gamma_fn(L, 6))
    near = min(np.linalg.norm(a - Gi) for a in faults.inverse_alternatives(L, 6).values())
    assert P.tolerance == pytest.approx(near / np.linalg.norm(Gi) / SEPARATION_UNITS)
    for key in ("batch", "steps", "lr_min", "lr_max", "route"):
        assert key in P.details
    assert P.details["converged"]
