"""A user's own property test, built on icl-verify's public pieces (docs/your-own-checks.md).

Claim under test: the exact finite-N risk of one preconditioned GD step
(``theory.common.baselines.gd_risk``, [zwb24] §2.1) equals the risk measured on sampled prompts,
for *any* Gaussian linear-regression setting Hypothesis can draw -- and a wrong formula (the risk
without its finite-N term) is caught by the same comparison.

Run it with ``python -m pytest docs/examples`` (it is also part of the default test run).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics.montecarlo import mc_mean
from numerics.sampling import sample_prompts
from numerics.testing import assert_fails, assert_passed, mc_agreement
from theory.common.baselines import gd_risk, setting_kwargs
from theory.settings import LinearRegressionICL
from theory.strategies import linear_regression_settings


def gd_step_risk_mc(setting: LinearRegressionICL, Gamma: np.ndarray, *, n: int, seed: int):
    """Independent route: sample prompts, apply ŷ = (1/N) yᵀ X Γᵀ x_q literally, average the
    squared error. It never calls a theory risk function."""

    def draw(rng: np.random.Generator, b: int) -> np.ndarray:
        p = sample_prompts(setting, b, rng=rng)
        g = np.einsum("bn,bnd->bd", p.y, p.X) / setting.N  # (1/N) Xᵀy, one GD step from 0
        yhat = np.einsum("bd,ed,be->b", g, Gamma, p.xq)  # x_qᵀ Γ g
        return (yhat - p.yq) ** 2

    return mc_mean(draw, n, rng=np.random.default_rng(seed))


def zero_predictor_risk(s: LinearRegressionICL) -> float:
    """E y_q² = tr(Σ_x(Ψ + β*β*ᵀ)) + σ²: the natural scale of a risk (predicting 0)."""
    second = s.task_cov + np.outer(s.task_mean, s.task_mean)
    return float(np.trace(s.Sigma_x @ second)) + s.noise_var


@pytest.mark.mc
@settings(max_examples=5, deadline=None)  # each example costs an MC sample: keep it small
@given(setting=linear_regression_settings().filter(lambda s: zero_predictor_risk(s) > 0.1),
       seed=st.integers(0, 2**32 - 1))
def test_gd_risk_closed_form_matches_sampled_prompts(setting: LinearRegressionICL, seed: int):
    Gamma = np.eye(setting.d) / (1.0 + np.trace(setting.Sigma_x))  # a stable step
    predicted = float(gd_risk(Gamma, **setting_kwargs(setting)))
    estimate = gd_step_risk_mc(setting, Gamma, n=40_000, seed=seed)
    # z = 5 around the closed form, and the power check se <= 2% of the scale (a noisy estimate
    # fails instead of passing vacuously).
    assert_passed(mc_agreement("gd_risk vs sampled prompts", predicted, estimate,
                               scale=zero_predictor_risk(setting)))


@pytest.mark.mc
def test_the_comparison_can_fail() -> None:
    """Negative control: the infinite-N risk (finite-N term dropped) must fail the same check at a
    small N, next to the correct formula passing."""
    s = LinearRegressionICL.isotropic(d=3, N=4, noise_var=0.25)
    Gamma = np.eye(3) / 4.0
    estimate = gd_step_risk_mc(s, Gamma, n=200_000, seed=1)
    right = float(gd_risk(Gamma, **setting_kwargs(s)))
    big_N = {**setting_kwargs(s), "N": 10**9}
    wrong = float(gd_risk(Gamma * 10**9 / 10**9, **big_N))  # same Γ, N → ∞: finite-N term gone
    assert_passed(mc_agreement("right formula", right, estimate, scale=3.25))
    assert_fails(mc_agreement("finite-N term dropped", wrong, estimate, scale=3.25))
