"""
Your own hypothesis property against a closed form
==================================================

A property test of your own, built from the public pieces: a Hypothesis strategy that draws valid
settings (:mod:`theory.strategies`), a closed form (:func:`theory.common.baselines.gd_risk`, the
exact finite-N risk of one preconditioned GD step, [zwb24] eq. (5.1) at β₀ = 0), an independent
Monte Carlo route that samples prompts and applies the predictor literally
(:func:`numerics.sampling.sample_prompts`, :func:`numerics.montecarlo.mc_mean`), and an agreement
helper (:func:`numerics.testing.mc_agreement`: within z = 5 standard errors, with a power check
se ≤ 2 % of the scale, so a noisy estimate fails rather than passing vacuously).

The same test as a pytest file: ``docs/examples/test_user_example.py`` (part of the default
test run). A negative control at the end shows the comparison can fail.
"""

# %%
# The independent route and the property
# --------------------------------------
import matplotlib.pyplot as plt
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics.montecarlo import mc_mean
from numerics.sampling import sample_prompts
from numerics.testing import assert_fails, assert_passed, mc_agreement
from theory.common.baselines import gd_risk, setting_kwargs
from theory.settings import LinearRegressionICL
from theory.strategies import linear_regression_settings


def gd_step_risk_mc(setting: LinearRegressionICL, Gamma: np.ndarray, *, n: int, seed: int):
    """Sample prompts, predict ŷ = x_qᵀ Γ (1/N) Xᵀy, average the squared error (never calls a
    closed-form risk)."""

    def draw(rng: np.random.Generator, b: int) -> np.ndarray:
        p = sample_prompts(setting, b, rng=rng)  # X (b, N, d), y (b, N), xq (b, d), yq (b,)
        g = np.einsum("bn,bnd->bd", p.y, p.X) / setting.N
        return (np.einsum("bd,ed,be->b", g, Gamma, p.xq) - p.yq) ** 2

    return mc_mean(draw, n, rng=np.random.default_rng(seed))


def scale(s: LinearRegressionICL) -> float:
    """E y_q², the risk of predicting 0: the natural scale of a risk."""
    second = s.task_cov + np.outer(s.task_mean, s.task_mean)
    return float(np.trace(s.Sigma_x @ second)) + s.noise_var


seen = []


@settings(max_examples=6, deadline=None, database=None)
@given(
    setting=linear_regression_settings().filter(lambda s: scale(s) > 0.1),
    seed=st.integers(0, 2**32 - 1),
)
def test_gd_risk_matches_sampled_prompts(setting: LinearRegressionICL, seed: int) -> None:
    Gamma = np.eye(setting.d) / (1.0 + np.trace(setting.Sigma_x))  # a stable step
    predicted = float(gd_risk(Gamma, **setting_kwargs(setting)))
    estimate = gd_step_risk_mc(setting, Gamma, n=40_000, seed=seed)
    row = mc_agreement("gd_risk vs sampled prompts", predicted, estimate, scale=scale(setting))
    seen.append((setting, row))
    assert_passed(row)


test_gd_risk_matches_sampled_prompts()  # Hypothesis draws the settings; raises on a failure
print(f"{len(seen)} drawn settings passed")
for s, row in seen:
    print(
        f"  d={s.d} N={s.N} σ²={s.noise_var:.3g}: closed form {row.predicted:.4f}, "
        f"MC {row.observed:.4f} ± {row.se:.2g}"
    )

# %%
# A negative control: the comparison can fail
# -------------------------------------------
# Drop the finite-N term of the closed form (evaluate it at N → ∞) and the same comparison must
# reject it at a small N.
s = LinearRegressionICL.isotropic(d=3, N=4, noise_var=0.25)
Gamma = np.eye(3) / 4.0
estimate = gd_step_risk_mc(s, Gamma, n=200_000, seed=1)
right = float(gd_risk(Gamma, **setting_kwargs(s)))
wrong = float(gd_risk(Gamma, **{**setting_kwargs(s), "N": 10**9}))
assert_passed(mc_agreement("right formula", right, estimate, scale=scale(s)))
assert_fails(mc_agreement("finite-N term dropped", wrong, estimate, scale=scale(s)))
print(f"MC {estimate.mean:.4f}: right {right:.4f} passes, N → ∞ form {wrong:.4f} is rejected")

# %%
# Closed form against Monte Carlo over the drawn settings
# -------------------------------------------------------
pred = np.array([r.predicted for _, r in seen])
obs = np.array([r.observed for _, r in seen])
se = np.array([r.se for _, r in seen])
fig, ax = plt.subplots(figsize=(5, 4.5))
ax.errorbar(pred, obs, yerr=5 * se, fmt="o", label="drawn settings (±5 se)")
ax.errorbar(
    [right],
    [estimate.mean],
    yerr=[5 * estimate.se],
    fmt="s",
    color="C2",
    label="control setting: right formula",
)
ax.plot([wrong], [estimate.mean], "x", color="C3", ms=9, label="control: finite-N term dropped")
lim = [0, 1.1 * max(pred.max(), obs.max(), right)]
ax.plot(lim, lim, "k--", lw=1)
ax.set_xlabel("closed form gd_risk")
ax.set_ylabel("Monte Carlo risk")
ax.set_title("one GD step: closed form vs sampled prompts")
ax.legend(fontsize=8)
fig.tight_layout()
plt.show()
