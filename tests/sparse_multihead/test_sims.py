"""czz24 torch: the effective-predictor extraction vs a random model's forward pass (R12), the
constructed weights in torch, the torch sampler, trained S1 / S2 models and head importance."""

from __future__ import annotations

import pytest

from numerics.testing import assert_fails, assert_passed
from sims.checks import sparse_multihead as C
from sims.checks import sparse_multihead_fig1b as F1
from sims.checks import sparse_multihead_probe as P


@pytest.mark.float
@pytest.mark.result("czz24:eq2.2")
def test_effective_predictor_vs_forward_and_negative_control() -> None:
    assert_passed(C.check_eq2_2_torch())
    assert_fails(C.check_eq2_2_torch(fault_attn_scale=1.0))  # the 1/n of the scores dropped


@pytest.mark.float
@pytest.mark.result("czz24:prop4.1")
def test_prop41_in_torch() -> None:
    assert_passed(C.check_prop4_1_torch())


@pytest.mark.float
@pytest.mark.result("czz24:prop4.2")
def test_prop42_in_torch_and_negative_control() -> None:
    assert_passed(C.check_prop4_2_torch())
    assert_fails(C.check_prop4_2_torch(fault_readout_sign=+1))


@pytest.mark.mc
@pytest.mark.result("czz24:sec2")
def test_torch_sampler() -> None:
    assert_passed(C.check_sec2_torch())


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.result("czz24:s1")
def test_s1_trained_and_negative_control() -> None:
    assert_passed(C.check_s1_train())
    # the other method's optimum passed as the prediction
    assert_fails(C.check_s1_train(fault_swap_prediction=True))


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.result("czz24:s2")
def test_s2_trained() -> None:
    assert_passed(C.check_s2_train())


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.result("czz24:eq3.1")
def test_head_importance_of_trained_model() -> None:
    assert_passed(C.check_eq3_1_train())


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.result("czz24:fig1b")
def test_fig1b_trained_above_bayes_floor_and_negative_control() -> None:
    assert_passed(F1.check_fig1b_train())
    # a model that sees its task w* must break the Bayes floor
    assert_fails(F1.check_fig1b_train(fault_leak_task=1.0))


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.result("czz24:eq3.1")
def test_pruning_and_negative_control() -> None:
    assert_passed(F1.check_eq3_1_train_pruning())
    # torch zeroes the least important head while the mask keeps the most important one
    assert_fails(F1.check_eq3_1_train_pruning(fault_prune_rule="argmin"))


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.result("czz24:eq3.1")
def test_probing_and_negative_control() -> None:
    assert_passed(P.check_eq3_1_train_probe())
    # probes fitted to targets shuffled across prompts carry no in-context information
    assert_fails(P.check_eq3_1_train_probe(fault_shuffle_targets=True))


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.thorough
@pytest.mark.result("czz24:s2")
def test_s2_trained_both_head_counts() -> None:
    assert_passed(C.check_s2_train(quick=False))


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.thorough
@pytest.mark.result("czz24:s1")
def test_s1_trained_three_seeds() -> None:
    assert_passed(C.check_s1_train(quick=False))
