"""The agreement helpers of numerics.testing pass on agreement and fail on a planted fault.

Each helper family gets a positive case and a negative control.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from numerics import testing as T
from numerics.montecarlo import mc_mean
from numerics.ode import integrate
from theory.common.protocols import Claim, Estimate

#: Tolerances of the demonstrations below: each exercises a helper's contract on hand-made numbers
#: (values well inside / outside it), not a comparison of our formulas.
DEMO_ATOL = 0.1
#: margin of the ordering demonstration (1 < 2 by 1, 1.9 < 2 by only 0.1)
DEMO_MARGIN = 0.5
#: TRAIN band at which a 0.4 % error passes and a 2 % alternative is 2.5 bands away
DEMO_TRAIN_RTOL = 0.008
#: a band too wide: it also admits the 2 % alternative, so the check must refuse to pass
DEMO_WIDE_TRAIN_RTOL = 0.05
#: the tolerance of a made-up failing row (any positive value: it fails by its error)
DEMO_FAILING_ROW_TOL = 0.05
#: RATE band of the claim-agreement demonstration (slopes −0.49 vs −0.5 pass, −0.17 vs −1/6 pass)
DEMO_RATE_ATOL = 0.05


def _chi2_draw(rng: np.random.Generator, b: int) -> np.ndarray:
    return rng.standard_normal(b) ** 2  # E = 1


def test_exact() -> None:
    x = sp.Symbol("x")
    T.assert_passed(T.exact_agreement("square", (x + 1) ** 2, x**2 + 2 * x + 1))
    T.assert_fails(
        T.exact_agreement("square (fault: wrong cross term)", (x + 1) ** 2, x**2 + x + 1)
    )
    A = sp.Matrix([[x, 1], [0, x]])
    T.assert_passed(T.exact_agreement("matrix", A * A, sp.Matrix([[x**2, 2 * x], [0, x**2]])))
    T.assert_fails(T.exact_agreement("matrix fault", A * A, sp.Matrix([[x**2, x], [0, x**2]])))


def test_float() -> None:
    T.assert_passed(T.float_agreement("e", np.exp(1.0), 2.718281828459045))
    T.assert_fails(T.float_agreement("e fault", np.exp(1.0) * (1 + 1e-10), np.e))
    T.assert_fails(T.float_agreement("nan", float("nan"), 1.0))


def test_solver_units() -> None:
    tr = integrate(lambda t, y: -y, [1.0], (0.0, 2.0))
    T.assert_passed(T.solver_agreement("exp decay", tr.final, [np.exp(-2.0)]))
    # negative control: the wrong rate (exp(-2.0001)) is far outside 10 solver units
    T.assert_fails(T.solver_agreement("exp decay, fault", tr.final, [np.exp(-2.0001)]))


def test_mc_z_and_power() -> None:
    est = mc_mean(_chi2_draw, 200_000, rng=np.random.default_rng(1))
    T.assert_passed(T.mc_agreement("E chi2_1", 1.0, est))
    # fault: a wrong expectation (1.05) is ≫ 5 se away (se ≈ 0.0032)
    T.assert_fails(T.mc_agreement("E chi2_1 fault", 1.05, est))
    # power: a tiny sample passes the z-test but cannot pass the se ≤ 2 % check: it is skipped
    # (not resolvable with that sample), never a pass
    small = mc_mean(_chi2_draw, 50, rng=np.random.default_rng(2))
    ev = T.mc_agreement("E chi2_1 tiny sample", 1.0, small)
    assert not ev.details["power_ok"] and ev.status == "skipped" and ev.details["needed_n"] > 50


def test_mc_scale_must_be_positive() -> None:
    with pytest.raises(ValueError, match="scale"):
        T.mc_agreement("zero", 0.0, Estimate(0.0, 0.1, 10))


def test_rate() -> None:
    N = [10.0, 20.0, 40.0, 80.0, 160.0]
    inv = [3.0 / n for n in N]
    T.assert_passed(T.rate_agreement("1/N", N, inv, -1.0))
    T.assert_fails(T.rate_agreement("1/N vs slope -2 (fault)", N, inv, -2.0))
    T.assert_fails(T.rate_agreement("negative values", N, [-v for v in inv], -1.0))


def test_train_needs_convergence_power_and_alternatives() -> None:
    target = np.eye(3)
    alts = {"1.2x": 1.2 * target}
    T.assert_passed(
        T.train_agreement("P", target * 1.01, target, np.zeros((3, 3)), alternatives=alts)
    )
    T.assert_fails(
        T.train_agreement("P far", target * 1.2, target, np.zeros((3, 3)), alternatives=alts)
    )
    # started next to the target: the check could not have failed, so it must not pass
    T.assert_fails(
        T.train_agreement("P no power", target * 1.01, target, target * 1.1, alternatives=alts)
    )
    # no named alternative: nothing was told apart
    T.assert_fails(
        T.train_agreement(
            "P no alternatives", target * 1.01, target, np.zeros((3, 3)), alternatives={}
        )
    )


def test_train_contract_violations() -> None:
    good = T.train_discrimination(
        "P",
        np.eye(2) * 1.01,
        np.eye(2),
        np.zeros((2, 2)),
        alternatives={"2I": 2 * np.eye(2)},
        seeds=[0],
        seeds_passed=[0],
    )
    assert T.passed(good) and T.train_contract_violations(good) == []
    bare = T.close_agreement("x", 1.0, 1.0, kind="MC", atol=DEMO_ATOL)
    assert T.train_contract_violations(bare) == []  # not a TRAIN row
    import dataclasses

    no_alts = dataclasses.replace(good, details={"start_units": 20.0, "seeds": [0]})
    assert {"details['alternatives'] missing", "details['seeds_passed'] missing"} <= set(
        T.train_contract_violations(no_alts)
    )
    near = dataclasses.replace(good, details={**good.details, "start_units": 1.0})
    assert any("start_units" in v for v in T.train_contract_violations(near))


def test_ordering_and_info() -> None:
    T.assert_passed(T.ordering("a < b", 1.0, 2.0, margin=DEMO_MARGIN))
    T.assert_fails(T.ordering("a < b fault", 1.9, 2.0, margin=DEMO_MARGIN))
    info = T.informational("heuristic", -0.5, -1 / 6)
    assert info.passed and info.informational


def test_assert_helpers_reject_empty_and_passing_controls() -> None:
    with pytest.raises(AssertionError, match="no evidence"):
        T.assert_passed([])
    with pytest.raises(AssertionError, match="negative control passed"):
        T.assert_fails(T.float_agreement("ok", 1.0, 1.0))
    with pytest.raises(AssertionError, match="FAIL"):
        T.assert_passed(T.float_agreement("bad", 1.0, 2.0))


def test_docs_testing_lists_every_kind_with_its_meaning() -> None:
    """docs/testing.md's kinds table is KIND_MEANINGS verbatim (the report legend prints it too)."""
    from pathlib import Path

    from theory.common.protocols import KIND_MEANINGS

    doc = (Path(__file__).resolve().parents[2] / "docs" / "testing.md").read_text(encoding="utf-8")
    for kind, meaning in KIND_MEANINGS.items():
        assert f"| {kind} | {meaning} |" in doc, f"docs/testing.md: kind {kind} missing or stale"


def test_close_agreement_requires_a_known_kind() -> None:
    import pytest

    with pytest.raises(TypeError):
        T.close_agreement("no kind", 1.0, 1.0, atol=DEMO_ATOL)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="kind must be one of"):
        T.close_agreement("bad kind", 1.0, 1.0, kind="CLOSE", atol=DEMO_ATOL)
    T.assert_passed(T.optim_agreement("optimiser", 1.0 + 1e-12, 1.0))
    T.assert_fails(T.optim_agreement("optimiser fault", 1.0 + 1e-6, 1.0))
    printed = Claim(where="Table 9", quote="| 0.10523 |", provenance="printed")
    T.assert_passed(T.paper_agreement("printed", 0.105234, "0.10523", claim=printed))
    T.assert_fails(T.paper_agreement("printed fault", 0.10524, "0.10523", claim=printed))
    cite = "docs/papers/hpcy25.md#derived-values"
    T.assert_passed(T.derived_agreement("derived", 0.105234, "0.105234", derived_in=cite))
    T.assert_fails(T.derived_agreement("derived fault", 0.10524, "0.105234", derived_in=cite))
    for kind in ("PAPER", "DERIVED"):  # those rows carry their claim or their docs page
        with pytest.raises(ValueError, match="refused"):
            T.close_agreement("bare", 1.0, 1.0, kind=kind, atol=DEMO_ATOL)


def test_train_discrimination_tells_the_prediction_from_its_neighbours() -> None:
    target = np.diag([1.0, 2.0, 3.0])
    near_alt = target * 1.02  # e.g. the formula off by one in N: 2 % away
    far_alt = target * 1.5  # e.g. Λ⁻¹
    start = np.zeros((3, 3))
    trained = target * 1.004
    ok = T.train_discrimination(
        "P → Γ⁻¹",
        trained,
        target,
        start,
        rtol=DEMO_TRAIN_RTOL,
        alternatives={"N+1": near_alt, "Λ⁻¹": far_alt},
        seeds=[0],
        seeds_passed=[0],
    )
    T.assert_passed(ok)
    assert ok.details["start_units"] >= T.TRAIN_START_UNITS
    assert all(a["units"] > 1 for a in ok.details["alternatives"])
    # a 5 % band also admits the N+1 alternative: the check must refuse to pass
    T.assert_fails(
        T.train_discrimination(
            "P → Γ⁻¹ (band too wide)",
            trained,
            target,
            start,
            rtol=DEMO_WIDE_TRAIN_RTOL,
            alternatives={"N+1": near_alt},
        )
    )
    # the alternative passed as the prediction fails (trained is 2 units from it at rtol 0.008)
    T.assert_fails(
        T.train_discrimination(
            "N+1 as prediction",
            trained,
            near_alt,
            start,
            rtol=DEMO_TRAIN_RTOL,
            alternatives={"Γ⁻¹": target},
        )
    )
    # a start inside 3 tolerances cannot fail, so the check fails
    T.assert_fails(
        T.train_discrimination(
            "no power",
            trained,
            target,
            target * 1.01,
            rtol=DEMO_TRAIN_RTOL,
            alternatives={"Λ⁻¹": far_alt},
        )
    )
    # no alternative named: nothing is discriminated, so it fails
    T.assert_fails(
        T.train_discrimination(
            "no alternatives", trained, target, start, rtol=DEMO_TRAIN_RTOL, alternatives={}
        )
    )


def test_claim_agreement_has_three_outcomes() -> None:
    reproduced = T.claim_agreement(
        "rate",
        kind="RATE",
        paper=-0.5,
        ours=-1 / 6,
        observed=-0.49,
        atol=DEMO_RATE_ATOL,
        source="[p] App. B",
    )
    refuted = T.claim_agreement(
        "rate",
        kind="RATE",
        paper=-0.5,
        ours=-1 / 6,
        observed=-0.17,
        atol=DEMO_RATE_ATOL,
        source="[p] App. B",
    )
    broken = T.claim_agreement(
        "rate",
        kind="RATE",
        paper=-0.5,
        ours=-1 / 6,
        observed=-1.0,
        atol=DEMO_RATE_ATOL,
        source="[p] App. B",
    )
    assert (reproduced.status, refuted.status, broken.status) == ("pass", "discrepancy", "fail")
    T.assert_passed(reproduced)
    T.assert_discrepancy(refuted)
    T.assert_fails(broken)
    with pytest.raises(AssertionError):
        T.assert_discrepancy(reproduced)
    assert refuted.to_json()["status"] == "discrepancy" and refuted.to_json()["pass"]


def test_over_seeds_folds_rows_and_names_traps() -> None:
    target, alt = np.eye(2), 1.3 * np.eye(2)

    def rows(seed: int) -> list:
        final = target * (1.01 if seed != 1 else 1.3)  # seed 1 ends at the alternative
        return [
            T.train_discrimination(
                "P", final, target, np.zeros((2, 2)), alternatives={"rival": alt}
            )
        ]

    (row,) = T.over_seeds(rows, (0, 2))
    T.assert_passed(row)
    assert row.details["seeds_passed"] == [0, 2] and row.details["traps"] == {}
    (row,) = T.over_seeds(rows, (0, 1, 2))
    T.assert_fails(row)
    assert row.details["seeds_passed"] == [0, 2] and row.details["reported_seed"] == 1
    assert row.details["traps"] == {"1": "rival"}
    with pytest.raises(ValueError, match="seeds"):
        T.over_seeds(rows, ())


def test_close_agreement_refuses_train() -> None:
    with pytest.raises(ValueError, match="train_discrimination"):
        T.close_agreement("P", 1.0, 1.0, kind="TRAIN", atol=DEMO_ATOL)


def bare_train_check(*, quick: bool = True, seed: int = 0) -> list:
    """A check whose TRAIN row names no alternative and no seeds (breaks the TRAIN contract)."""
    import dataclasses

    ev = T.train_discrimination(
        "P", np.eye(2), np.eye(2), np.zeros((2, 2)), alternatives={"2I": 2 * np.eye(2)}
    )
    return [dataclasses.replace(ev, details={"start_units": ev.details["start_units"]})]


def good_train_check(*, quick: bool = True, seed: int = 0) -> list:
    return [
        T.train_discrimination(
            "P",
            np.eye(2),
            np.eye(2),
            np.zeros((2, 2)),
            alternatives={"2I": 2 * np.eye(2)},
            seeds=[seed],
            seeds_passed=[seed],
        )
    ]


def test_run_check_enforces_the_train_contract() -> None:
    from sims.verify import run_check, run_check_safely

    assert run_check(f"{__name__}:good_train_check")[0].passed
    with pytest.raises(ValueError, match="breaks the contract"):
        run_check(f"{__name__}:bare_train_check")
    rows, err = run_check_safely(f"{__name__}:bare_train_check")
    assert rows == () and err is not None and "alternatives" in err


def test_tightened_to_half_the_distance_still_separates() -> None:
    """A row tightened to exactly half the nearest alternative's distance (the planners'
    ``distance / 2``) is separated although the ratio rounds to 1.9999999999999998; a tolerance
    0.1 % wider (the alternative 1.998 units away) is not (the comparison is round-off only)."""
    from numerics.testing import train_discrimination

    pred, alt = 2.3832357861884885, 2.3832357861884885 * (1 - 0.17843146953945774)
    rtol = abs(alt - pred) / pred / 2
    row = train_discrimination("half", pred, pred, 0.0, alternatives={"alt": alt}, rtol=rtol)
    assert row.details["alternatives"][0]["separation_units"] != 2.0  # the round-off is real
    assert row.passed
    wider = train_discrimination(
        "wider", pred, pred, 0.0, alternatives={"alt": alt}, rtol=rtol * 1.001
    )
    assert not wider.passed


def test_not_converged_is_skipped_with_its_numbers() -> None:
    """A row whose run missed its stop criterion: ``skipped`` (never pass or fail; a failing row
    too), the reason pinned word for word with the numbers, the numbers kept as fields; a row
    already ``skipped`` keeps its own reason."""
    from theory.common.protocols import Evidence

    failing = Evidence(
        name="r",
        kind="TRAIN",
        predicted=1.0,
        observed=2.0,
        tolerance=DEMO_FAILING_ROW_TOL,
        error=20.0,
        passed=False,
    )
    row = T.not_converged(
        failing,
        statistic="drift of x",
        value=0.0234,
        criterion=0.005,
        steps=4000,
        needs="needs about 6.6e+03 steps, 23 s",
        steps_needed=6621.0,
    )
    assert row.status == "skipped" and row.passed
    assert row.details["why"] == (
        "not converged within the budget: drift of x 0.0234 vs criterion 0.005 after 4000 "
        "steps; needs about 6.6e+03 steps, 23 s"
    )
    d = row.details
    assert (d["not_converged"], d["drift"], d["criterion"], d["steps"]) == (1, 0.0234, 0.005, 4000)
    assert d["steps_needed"] == 6621.0
    trapped = T.skipped(failing, why="in a trap")
    kept = T.not_converged(trapped, statistic="s", value=1.0, criterion=0.1, steps=1, needs="n")
    assert kept.details["why"] == "in a trap" and "not_converged" not in kept.details


def test_measured_status_says_not_measured_when_nothing_was_measured() -> None:
    """A re-labelled row keeps its own status as ``measured_status``, except a row that observed
    nothing (czz24's S2 "more heads" row in the quick tier, which does not train h = 1): there it
    says "not measured", never "pass"."""
    from theory.common.protocols import Evidence

    def row(observed: object) -> Evidence:
        return Evidence("h = 8 minus h = 1", "ORDER", "< 0", observed, 0.0, 0.0, True)

    for observed in (None, [], float("nan")):
        ev = T.untested(row(observed), reached="quick tier: h = 8 only", needed="h = 1 too")
        assert ev.details["measured_status"] == "not measured", observed
    measured = T.untested(row(-0.01), reached="CPU", needed="GPU")
    assert measured.details["measured_status"] == "pass"
    failed = T.with_verdict(T.float_agreement("x", 1.0, 2.0), "skipped", why="numbers")
    assert failed.details["measured_status"] == "fail"
