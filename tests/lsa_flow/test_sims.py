"""zfb24 trained models (torch, float64, CPU) vs the theory in invariant coordinates (TRAIN).

Each configuration is trained once per run (sims.cache.cached, shared with the report) through the
check functions of sims.checks.lsa_flow; the negative controls rerun the same checks with a fault.
"""

from __future__ import annotations

import numpy as np
import pytest

import sims.checks.lsa_flow as SC
from numerics.lsa_flow import lambda_as_gamma
from numerics.testing import assert_fails, assert_passed
from sims.experiments.lsa_flow import PRESETS, final_weights, train_lsa

pytestmark = [pytest.mark.train, pytest.mark.slow]


@pytest.mark.result("zfb24:eq6")
def test_torch_model_is_eq6() -> None:
    assert_passed(SC.check_eq6_torch())


@pytest.fixture(scope="module")
def sgd_evidence():
    return SC.check_thm4_train_sgd()


@pytest.mark.result("zfb24:thm4")
def test_thm4_sgd(sgd_evidence) -> None:
    assert_passed(sgd_evidence)
    r = SC.trained_sgd(0)
    # all (d+1)² entries of both matrices are parameters, and u12, u21 got nonzero gradients
    K, R = final_weights(r)
    assert K.shape == (5, 5) and R.shape == (5, 5)
    assert r.extra["g_u12_max"] > 0 and r.extra["g_u21_max"] > 0


@pytest.mark.result("zfb24:thm4")
def test_thm4_sgd_negative_control_lambda_inverse(sgd_evidence) -> None:
    assert_passed(sgd_evidence)
    assert_fails(SC.check_thm4_train_sgd(fault_gamma_fn=lambda_as_gamma))  # Λ⁻¹ in place of Γ⁻¹


@pytest.fixture(scope="module")
def gd_evidence():
    return SC.check_thm4_train_population_gd()


@pytest.mark.result("zfb24:thm4")
@pytest.mark.result("zfb24:lem17")
def test_thm4_population_gd(gd_evidence) -> None:
    assert_passed(gd_evidence)


@pytest.mark.result("zfb24:thm4")
def test_thm4_population_gd_negative_control(gd_evidence) -> None:
    assert_passed(gd_evidence)
    assert_fails(SC.check_thm4_train_population_gd(fault_gamma_fn=lambda_as_gamma))


@pytest.mark.result("zfb24:lem10")
def test_flow_vs_gd_at_matched_time() -> None:
    assert_passed(SC.check_lem10_train_flow_vs_gd())
    assert_fails(SC.check_lem10_train_flow_vs_gd(fault_gamma_fn=lambda_as_gamma))


@pytest.fixture(scope="module")
def eq12_evidence():
    return SC.check_eq12_train()


@pytest.mark.result("zfb24:eq12")
def test_eq12_trained_at_other_lengths(eq12_evidence) -> None:
    assert_passed(eq12_evidence)


@pytest.mark.result("zfb24:eq12")
def test_eq12_trained_negative_control(eq12_evidence) -> None:
    assert_passed(eq12_evidence)
    assert_fails(SC.check_eq12_train(fault_gamma_fn=lambda_as_gamma))


@pytest.mark.result("zfb24:shifts")
def test_shifts_with_the_trained_model() -> None:
    ev = SC.check_shifts_train()
    assert_passed(ev)
    # negative control: Λ⁻¹ in place of Γ⁻¹ as the reference limit
    assert_fails(SC.check_shifts_train(fault_gamma_fn=lambda_as_gamma))


@pytest.fixture(scope="module")
def thm8_evidence():
    return SC.check_thm8_train_sgd()


@pytest.mark.result("zfb24:thm8")
def test_thm8_random_cov_sgd(thm8_evidence) -> None:
    assert_passed(thm8_evidence)


@pytest.mark.result("zfb24:thm8")
def test_thm8_negative_control_fixed_trained_delta(thm8_evidence) -> None:
    assert_passed(thm8_evidence)
    d, N = 5, 20
    assert_fails(
        SC.check_thm8_train_sgd(fault_delta=N / (N + d + 1))
    )  # δ_F of fixed-identity training


@pytest.mark.thorough
@pytest.mark.result("zfb24:thm4")
@pytest.mark.parametrize("seed", [1, 2])
def test_thm4_sgd_more_seeds(seed: int) -> None:
    assert_passed(SC.check_thm4_train_sgd(seed=seed))
    assert_passed(SC.check_thm4_train_population_gd(seed=seed))
    assert_passed(SC.check_eq12_train(seed=seed))


@pytest.mark.thorough
@pytest.mark.result("zfb24:thm8")
@pytest.mark.parametrize("seed", [1, 2])
def test_thm8_more_seeds(seed: int) -> None:
    assert_passed(SC.check_thm8_train_sgd(seed=seed))


@pytest.mark.result("zfb24:thm4")
def test_training_is_deterministic() -> None:
    """Same seed → identical trained weights (explicit generators only)."""
    import dataclasses

    s, cfg = PRESETS["smoke"]
    a, b = train_lsa(s, cfg), train_lsa(s, cfg)
    np.testing.assert_array_equal(a.params["W_KQ"], b.params["W_KQ"])
    np.testing.assert_array_equal(a.params["W_PV"], b.params["W_PV"])
    c = train_lsa(s, dataclasses.replace(cfg, seed=1))
    assert not np.array_equal(a.params["W_KQ"], c.params["W_KQ"])
