"""Raise before skip (issue 31): a Monte Carlo row drawn short of its power (se ≤ 2 % of its
scale) raises its own sample on the same stream, up to 4× (``raised_from`` in its details),
and only past that is ``skipped`` with the sample it would need."""

from __future__ import annotations

import numpy as np
import pytest

from numerics.collins24.predictors import powered_samples
from numerics.collins24.sec3_1_window import check_sec3_1_mc_msa
from theory.collins24.settings import Setting


@pytest.mark.mc
@pytest.mark.result("collins24:sec3.1")
def test_msa_rows_raise_their_conditional_sample_then_skip() -> None:
    """§3.1's modified-softmax risk is a mean over the prompts whose window holds a point
    (K ≥ 1).  At d = 6, n = 3 the window of ω = 2 holds one in 7.5 % of prompts: from 20 000
    prompts its 1 470 samples miss the power and are raised within 4×, and the row passes;
    at ω = 4 (1.4 %) even 4× is short: skipped, naming the samples it needs."""
    rows = {
        e.name.split("|")[0]: e
        for e in check_sec3_1_mc_msa(Setting(d=6, n=3, L=1.0, sigma2=0.1))
        if e.kind == "MC"
    }
    ok, short = rows["L_MSA(omega=2 "], rows["L_MSA(omega=4 "]
    assert ok.status == "pass" and ok.details["se_over_scale"] <= 0.02, ok.describe()
    assert ok.details["raised_from"] < ok.details["n"]
    assert short.status == "skipped", short.describe()
    assert short.details["raised_from"] < short.details["n"] < short.details["needed_n"]
    assert "raised from" in short.details["why"]


def test_powered_samples_keeps_a_powered_first_draw() -> None:
    """A first draw that has its power is the plain estimate of that draw (rows at the declared
    settings stay identical); an underpowered one draws on the same stream."""
    from numerics.montecarlo import estimate_from_samples

    def draw(r: np.random.Generator, b: int) -> tuple[np.ndarray]:
        return (r.standard_normal(b),)

    (e,) = powered_samples(draw, 10_000, np.random.default_rng(1), 0.05)
    assert e == estimate_from_samples(np.random.default_rng(1).standard_normal(10_000))
    assert e.requested == 0
    (r,) = powered_samples(draw, 1_000, np.random.default_rng(1), 0.02)
    assert r.requested == 1_000 and 1_000 < r.n <= 4_000
    same_stream = np.random.default_rng(1).standard_normal(r.n).mean()
    assert r.mean == pytest.approx(same_stream, rel=1e-12, abs=1e-15)  # summation order only
