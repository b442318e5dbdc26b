"""The generic Monte Carlo engine numerics.montecarlo (mc_mean / mc_means / estimate_from_samples).

* the standard error is right: ``se·√n`` estimates the known standard deviation, within the
  sampling error of a sample standard deviation (Z_MC of its own standard error);
* chunked accumulation equals the one-shot formula on the same draws (FLOAT tolerance), also for
  values with a huge offset (no catastrophic cancellation);
* the estimate covers a known mean (MC tolerance with the power check);
* reproducible from an explicit generator; bad input and NaN/inf raise ValueError.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from numerics.montecarlo import estimate_from_samples, mc_mean, mc_means
from numerics.testing import FLOAT_RTOL, Z_MC, assert_fails, assert_passed, mc_agreement
from theory.common.protocols import Estimate

#: Values at offset 1e8 keep only ~8 significant digits of their N(0, 1) part (ulp(1e8) ≈ 1.5e-8),
#: so chunked and one-shot summation can differ at that level, not at FLOAT_RTOL.
OFFSET_RTOL = 1e-6


def _sd_band(sd: float, kurtosis: float, n: int) -> float:
    """Z_MC standard errors of the sample sd: Var(s) ≈ σ²(κ − 1)/(4n) (delta method)."""
    return Z_MC * sd * math.sqrt((kurtosis - 1.0) / (4.0 * n))


@pytest.mark.mc
@pytest.mark.parametrize(
    ("name", "draw", "mean", "sd", "kurtosis"),
    [
        ("N(1, 2²)", lambda rng, b: 1.0 + 2.0 * rng.standard_normal(b), 1.0, 2.0, 3.0),
        ("Exp(1)", lambda rng, b: rng.standard_exponential(b), 1.0, 1.0, 9.0),
        ("χ²₃", lambda rng, b: rng.chisquare(3, b), 3.0, math.sqrt(6.0), 3.0 + 12.0 / 3.0),
    ],
)
def test_se_matches_known_variance(name, draw, mean: float, sd: float, kurtosis: float) -> None:
    n = 200_000
    est = mc_mean(draw, n, rng=np.random.default_rng(1), batch=7_777)  # ragged last chunk
    assert est.n == n
    sd_hat = est.se * math.sqrt(n)
    assert abs(sd_hat - sd) <= _sd_band(sd, kurtosis, n), (name, sd_hat, sd)
    assert_passed(mc_agreement(f"mean of {name}", mean, est))


@pytest.mark.mc
def test_negative_control_se_check_detects_a_wrong_variance() -> None:
    """The same sd check rejects the N(1, 2²) draws when the claimed sd is 2.05 (2.5 % off)."""
    n = 200_000
    est = mc_mean(
        lambda rng, b: 1.0 + 2.0 * rng.standard_normal(b),
        n,
        rng=np.random.default_rng(1),
        batch=7_777,
    )
    assert abs(est.se * math.sqrt(n) - 2.05) > _sd_band(2.05, 3.0, n)
    assert_fails(mc_agreement("mean with a wrong expected value", 1.05, est))


@pytest.mark.parametrize("offset", [0.0, 1e8])
@pytest.mark.parametrize("batch", [1, 333, 10_000])
def test_chunked_sums_equal_one_shot_formula(offset: float, batch: int) -> None:
    """Same draws, same numbers: chunked shifted sums vs numpy mean / std (ddof=1)."""
    n = 3_001

    def draw(rng: np.random.Generator, b: int) -> np.ndarray:
        return offset + rng.standard_normal(b)

    est = mc_mean(draw, n, rng=np.random.default_rng(3), batch=batch)
    # replay the identical chunk sequence
    rng, vals, done = np.random.default_rng(3), [], 0
    while done < n:
        b = min(batch, n - done)
        vals.append(draw(rng, b))
        done += b
    v = np.concatenate(vals)
    ref_se = float(np.std(v - offset, ddof=1) / math.sqrt(n))
    assert math.isclose(est.mean, float(np.mean(v)), rel_tol=FLOAT_RTOL, abs_tol=FLOAT_RTOL)
    # with offset 1e8 the values carry only ~8 significant digits of the N(0,1) part
    assert math.isclose(est.se, ref_se, rel_tol=OFFSET_RTOL if offset else FLOAT_RTOL)
    one_shot = estimate_from_samples(v - offset)  # the helper on the centred values
    tol = OFFSET_RTOL if offset else FLOAT_RTOL
    assert math.isclose(est.mean - offset, one_shot.mean, rel_tol=tol, abs_tol=tol)


def test_mc_means_columns_are_independent_estimates() -> None:
    def draw(rng: np.random.Generator, b: int) -> np.ndarray:
        z = rng.standard_normal(b)
        return np.stack([z, 3.0 * z + 1.0, z**2], axis=1)

    e0, e1, e2 = mc_means(draw, 50_000, rng=np.random.default_rng(4), batch=4_096)
    assert math.isclose(e1.mean, 3.0 * e0.mean + 1.0, rel_tol=FLOAT_RTOL)
    assert math.isclose(e1.se, 3.0 * e0.se, rel_tol=FLOAT_RTOL)
    assert_passed(mc_agreement("E z² = 1", 1.0, e2))


def test_reproducible_from_seed() -> None:
    def draw(rng: np.random.Generator, b: int) -> np.ndarray:
        return rng.standard_normal(b) ** 2

    a = mc_mean(draw, 10_000, rng=np.random.default_rng(9), batch=1_000)
    b = mc_mean(draw, 10_000, rng=np.random.default_rng(9), batch=1_000)
    c = mc_mean(draw, 10_000, rng=np.random.default_rng(10), batch=1_000)
    assert a == b
    assert a != c


def _ok(rng: np.random.Generator, b: int) -> np.ndarray:
    return rng.standard_normal(b)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(n=1), "n"),
        (dict(n=2.5), "n"),
        (dict(batch=0), "batch"),
        (dict(rng=123), "rng"),
        (dict(rng=np.random.RandomState(0)), "rng"),
        (dict(draw=lambda rng, b: rng.standard_normal((b + 1,))), "shape"),
        (dict(draw=lambda rng, b: rng.standard_normal((b, 2, 2))), "shape"),
    ],
)
def test_bad_input_raises_value_error(kwargs: dict, match: str) -> None:
    kw = dict(draw=_ok, n=100, rng=np.random.default_rng(0)) | kwargs
    with pytest.raises(ValueError, match=match):
        mc_mean(kw.pop("draw"), kw.pop("n"), **kw)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nan_or_inf_draws_are_detected(bad: float) -> None:
    def draw(rng: np.random.Generator, b: int) -> np.ndarray:
        v = rng.standard_normal(b)
        v[-1] = bad
        return v

    with pytest.raises(ValueError, match="NaN or inf"):
        mc_mean(draw, 1_000, rng=np.random.default_rng(0), batch=300)
    with pytest.raises(ValueError, match="NaN or inf"):
        estimate_from_samples(np.array([1.0, bad, 2.0]))


def test_estimate_record_rejects_nonfinite_or_negative_se() -> None:
    with pytest.raises(ValueError):
        Estimate(float("nan"), 0.1, 10)
    with pytest.raises(ValueError):
        Estimate(1.0, -0.1, 10)


# ------------------------------------------------------------------ power: raise, then skip
def test_raise_draws_on_the_same_stream_until_the_target_se() -> None:
    from numerics.montecarlo import MAX_RAISE

    def draw(rng: np.random.Generator, b: int) -> np.ndarray:
        return 10.0 * rng.standard_normal(b)

    plain = mc_mean(draw, 1000, rng=np.random.default_rng(3))
    raised = mc_mean(draw, 1000, rng=np.random.default_rng(3), target_se=0.2)
    assert plain.se > 0.2 and plain.requested == 0
    assert raised.se <= 0.2 and raised.requested == 1000 and 1000 < raised.n <= MAX_RAISE * 1000
    # already powered: the same draws, bit for bit, and no raise recorded
    same = mc_mean(draw, 1000, rng=np.random.default_rng(3), target_se=1.0)
    assert (same.mean, same.se, same.n, same.requested) == (plain.mean, plain.se, 1000, 0)
    # the cap holds: a target out of reach stops at MAX_RAISE times the sample
    capped = mc_mean(draw, 1000, rng=np.random.default_rng(3), target_se=1e-3)
    assert capped.n == MAX_RAISE * 1000


def test_an_unpowered_agreement_is_skipped_with_the_sample_it_needs() -> None:
    from numerics.testing import mc_agreement
    from theory.common.protocols import Estimate

    weak = Estimate(1.02, 0.05, 4000, 1000)  # se/scale 5 % > 2 %, agrees within 5 se
    row = mc_agreement("weak", 1.0, weak)
    assert row.status == "skipped" and row.passed
    assert row.details["needed_n"] == 25_000 and row.details["raised_from"] == 1000
    assert "needs about n = 25000" in row.details["why"]
    wrong = Estimate(2.0, 0.05, 4000)  # disagrees even with the wide tolerance: a fail
    assert mc_agreement("wrong", 1.0, wrong).status == "fail"
    good = Estimate(1.001, 0.001, 4000)
    assert mc_agreement("good", 1.0, good).status == "pass"


def test_a_timed_estimate_gives_the_seconds_its_powered_sample_needs() -> None:
    """The engine records the wall time of its draws; a power skip extrapolates it (se ∝ 1/√n,
    time ∝ n): 4000 samples in 2 s at se/scale 5 % need 25 000 samples, about 12.5 s.  The time
    is left out of equality, so two runs of one seed give equal estimates."""
    est = mc_mean(lambda r, b: r.standard_normal(b), 1000, rng=np.random.default_rng(0))
    again = mc_mean(lambda r, b: r.standard_normal(b), 1000, rng=np.random.default_rng(0))
    assert est.seconds > 0 and est == again
    weak = Estimate(1.02, 0.05, 4000, 0, 2.0)
    row = mc_agreement("weak", 1.0, weak)
    assert row.status == "skipped" and row.details["needed_seconds"] == pytest.approx(12.5)
    assert row.details["why"].endswith("needs about n = 25000 (about 12 s)")
    untimed = mc_agreement("untimed", 1.0, Estimate(1.02, 0.05, 4000))
    assert "needed_seconds" not in untimed.details and " s)" not in untimed.details["why"]


def test_a_target_known_only_after_sampling_raises_on_the_running_means() -> None:
    """``target_se`` as a function of the current means (2 % of a column's own mean): a column
    of mean 10 and sd 10 needs about 2500 draws, so 1000 are raised (up to 4×); a column whose
    target is 0 asks for nothing, and a powered run keeps its draws bit for bit."""

    def draw(rng: np.random.Generator, b: int) -> np.ndarray:
        z = rng.standard_normal((b, 2))
        return np.column_stack([10.0 + 10.0 * z[:, 0], z[:, 1]])

    plain = mc_means(draw, 1000, rng=np.random.default_rng(5))
    raised = mc_means(
        draw, 1000, rng=np.random.default_rng(5), target_se=lambda m: [0.02 * abs(m[0]), 0.0]
    )
    assert plain[0].se > 0.2 and plain[0].requested == 0
    assert raised[0].requested == 1000 and 2000 < raised[0].n <= 4000
    assert raised[0].se <= 0.02 * abs(raised[0].mean) * 1.05
    loose = mc_means(draw, 1000, rng=np.random.default_rng(5), target_se=lambda m: [abs(m[0]), 0.0])
    assert loose == plain
