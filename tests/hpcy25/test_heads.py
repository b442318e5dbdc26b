"""Which heads the Obs-1 pattern rows judge (``sims.hpcy25.sec3_heads``): dummy heads
by their share of the prediction, with the off-pattern-head fault as the negative control."""

from __future__ import annotations

import math

import numpy as np
import pytest

from numerics.testing import Z_MC
from sims.hpcy25 import evidence as ev_
from sims.hpcy25.evidence import RTOL_INNER  # the Obs-1 invariant row's tolerance
from sims.hpcy25.sec3_heads import (
    OFFPATTERN_MU_FRACTION,
    head_shares,
    inject_offpattern_head,
    judge_heads,
    judged_heads,
    pattern_residual,
    pattern_trap,
)
from sims.hpcy25.train import HpcyExperiment

_PATH = "tests.hpcy25.test_heads"


def _ideal(omega: list[float], mu: list[float], *, d: int = 3, L: int = 16) -> tuple:
    """Parameters with KQ^h = ω_h on the x-block and OV^h = (0, μ_h) exactly (W_K = I,
    W_Q^h = ω_h √D P_x, W_V = I, W_O^h = μ_h e_D)."""
    H, D = len(omega), d + 1
    exp = HpcyExperiment(d=d, L=L, sigma2=0.3, H=H)
    px = np.diag([1.0] * d + [0.0])
    W_Q = np.stack([w * math.sqrt(D) * px for w in omega])
    W_K = np.stack([np.eye(D)] * H)
    W_V = np.stack([np.eye(D)] * H)
    W_O = np.zeros((1, H * D))
    for h, m in enumerate(mu):
        W_O[0, h * D + d] = m
    return exp, {"W_Q": W_Q, "W_K": W_K, "W_V": W_V, "W_O": W_O}


def test_judged_heads_threshold_is_one_tolerance_unit_upper_end() -> None:
    """Dummy iff share² + Z_MC·se ≤ rtol²; the standard error counts (a head at the bound with a
    non-zero se contributes)."""
    share2 = np.array([0.5, RTOL_INNER**2 / 2, RTOL_INNER**2 / 2, RTOL_INNER**2])
    se = np.array([0.01, 0.0, RTOL_INNER**2 / (2 * Z_MC) * 1.01, 0.0])
    got = judged_heads({"share2": share2, "share2_se": se}, RTOL_INNER)
    assert got.tolist() == [True, False, True, False]


def test_zero_head_is_dummy_and_shares_are_the_ablation() -> None:
    """A ± pair and a head with OV = 0: that head's share and ablation are exactly 0 (dummy); each
    pair head's ablation ΔR equals share²·E[ŷ²] − 2E[ŷ_h(ŷ − y)], near share²·E[ŷ²] at the pair's
    optimal scale (here not exactly optimal, so only the order is asserted)."""
    exp, params = _ideal([0.25, -0.25, 0.1], [1.2, -1.2, 0.0])
    sh = head_shares(exp, params, seed=0, path=_PATH)
    assert sh["share2"][2] == 0.0 and sh["dR"][2] == 0.0
    assert judged_heads(sh, RTOL_INNER).tolist() == [True, True, False]
    assert np.all(sh["share2"][:2] > 0.1) and np.all(sh["dR"][:2] > 0)


def test_offpattern_head_fault_contributes_and_fails_the_pattern_rows() -> None:
    """Negative control: the fault makes the least-|μ| head off-pattern (μ at 1 % of the largest,
    x-part 0.3 max|μ|).  A 5 % |μ| cut would not judge it (its ov_ratio row passes with that
    mask); by its share it contributes, and the ov_ratio row fails."""
    exp, params = _ideal([0.25, -0.25, 0.1], [1.2, -1.2, 0.0])
    bad = inject_offpattern_head(exp, params, 0.3)
    m5 = ev_.pattern_metrics(exp, bad)
    assert np.isclose(abs(m5["mu"][2]), OFFPATTERN_MU_FRACTION * 1.2)
    assert m5["active"].tolist() == [True, True, False]  # the 5 % cut hides it
    ov_row_5 = ev_.pattern_rows("x", m5)[1]
    assert ov_row_5.passed
    m = judge_heads(m5, exp, bad, rtol=RTOL_INNER, seed=0, path=_PATH)
    assert m["active"].tolist() == [True, True, True]
    assert m["share"][2] > 0.1
    ov_row = ev_.pattern_rows("x", m)[1]
    assert "ov_ratio" in ov_row.name and not ov_row.passed


@pytest.mark.parametrize("size", [0.3, 1.0])
def test_inject_sets_exactly_the_head_circuit(size: float) -> None:
    """The fault changes only the chosen head's OV, to the stated row."""
    exp, params = _ideal([0.25, -0.25, 0.1], [1.2, -1.5, 0.05])
    _, ov0 = ev_.circuits(exp, params)
    _, ov1 = ev_.circuits(exp, inject_offpattern_head(exp, params, size))
    assert np.allclose(ov1[:2], ov0[:2])
    want = np.zeros(exp.d + 1)
    want[0], want[exp.d] = size * 1.5, OFFPATTERN_MU_FRACTION * 1.5
    assert np.allclose(ov1[2, 0], want)


def test_pattern_model_of_an_ideal_model_is_itself() -> None:
    """A model exactly in the pattern: its pattern model's predictions are its own (residual 0,
    the two optimal scales equal to rounding), so it is not in the pattern trap."""
    exp, params = _ideal([0.25, -0.25, 0.1], [1.2, -1.2, 0.3])
    m = ev_.pattern_metrics(exp, params)
    pr = pattern_residual(exp, params, m["omega"], m["mu"], seed=0, path=_PATH)
    assert pr["residual"] < 1e-20 and abs(pr["dscale"]) < 1e-12
    m = judge_heads(m, exp, params, rtol=RTOL_INNER, seed=0, path=_PATH)
    assert pattern_trap(exp, params, m, rtol=RTOL_INNER, seed=0, path=_PATH) is None


def test_offpattern_head_is_in_the_pattern_trap() -> None:
    """Negative control of the (4.3) rows' pattern trap: an injected off-pattern head that
    contributes moves the trained model's optimal scale away from its pattern model's by more
    than a quarter unit (resolved: |dscale| ≫ 5 se), and the trap names the head."""
    exp, params = _ideal([0.25, -0.25, 0.1], [1.2, -1.2, 0.0])
    bad = inject_offpattern_head(exp, params, 0.3)
    m = judge_heads(ev_.pattern_metrics(exp, bad), exp, bad, rtol=RTOL_INNER, seed=0, path=_PATH)
    pr = pattern_residual(exp, bad, m["omega"], m["mu"], seed=0, path=_PATH)
    assert abs(pr["dscale"]) > RTOL_INNER / 4 + Z_MC * pr["dscale_se"]
    trap = pattern_trap(exp, bad, m, rtol=RTOL_INNER, seed=0, path=_PATH)
    assert trap is not None and "head 2" in trap and "ov_ratio 0.033" in trap
