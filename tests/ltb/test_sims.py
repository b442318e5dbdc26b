"""zwb24 torch models: forward passes vs the effective form, Lemma 5.1, training (C1, C2, C17, C18).

Trained runs come from ``sims.experiments.ltb.trained`` (config-keyed cache), so each configuration
is trained once per run and shared with the report.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.testing import assert_fails, assert_passed
from sims.checks import ltb as S


@pytest.mark.float
@pytest.mark.result("zwb24:asm3.1")
def test_token_matrix_and_mask_and_negative_control() -> None:
    assert_passed(S.check_asm3_1_torch_mask())
    assert_fails(S.check_asm3_1_torch_mask(fault_unmasked_query=True))  # query column in Z M Z^T


@pytest.mark.float
@pytest.mark.result("zwb24:eq3.3")
def test_effective_form() -> None:
    assert_passed(S.check_eq3_3_torch())


@pytest.mark.float
@pytest.mark.result("zwb24:eq3.3")
def test_effective_form_negative_control_no_mlp_residual() -> None:
    assert_fails(S.check_eq3_3_torch(fault_no_mlp_residual=True))


@pytest.mark.float
@pytest.mark.result("zwb24:eq3.3")
def test_effective_form_negative_control_query_in_mask() -> None:
    assert_fails(S.check_eq3_3_torch(fault_unmasked_query=True))


@pytest.mark.float
@pytest.mark.result("zwb24:lem5.1")
def test_lemma51_construction() -> None:
    assert_passed(S.check_lem5_1_torch())


@pytest.mark.float
@pytest.mark.result("zwb24:eq3.3")
@pytest.mark.result("zwb24:lem5.1")
@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1))
@example(seed=0)
def test_effective_form_and_construction_property(seed: int) -> None:
    """Hypothesis-drawn raw matrices and sizes (spec C1, C2: d ∈ [1,5], N ∈ [1,12], k ∈ [d,d+2],
    m ∈ [1,4]); the seed is the drawn argument, so failures replay exactly."""
    assert_passed(S.check_eq3_3_torch(seed=seed, cases=1))
    assert_passed(S.check_lem5_1_torch(seed=seed, cases=1))


@pytest.fixture(scope="module")
def table1() -> list:
    return S.check_table1_train()


@pytest.mark.train
@pytest.mark.slow
@pytest.mark.result("zwb24:table1")
def test_table1_ltb_reaches_R_star_lsa_stalls(table1: list) -> None:
    assert_passed(table1)


@pytest.mark.train
@pytest.mark.slow
@pytest.mark.result("zwb24:table1")
def test_table1_negative_control_without_mlp(table1: list) -> None:
    assert_passed(table1)
    assert_fails(S.check_table1_train(fault_no_mlp=True))  # the LSA in the LTB's place misses R*


@pytest.mark.train
@pytest.mark.slow
@pytest.mark.result("zwb24:table1")
def test_table1_zero_mean_control() -> None:
    assert_passed(S.check_table1_train_zero_mean())


@pytest.mark.train
@pytest.mark.slow
@pytest.mark.result("zwb24:thm6.3")
def test_gd_beta_training_reaches_optimum() -> None:
    assert_passed(S.check_thm6_3_train())


@pytest.mark.train
@pytest.mark.thorough
@pytest.mark.result("zwb24:table1")
@pytest.mark.parametrize("seed", [1, 2])
def test_table1_more_seeds(seed: int) -> None:
    assert_passed(S.check_table1_train(seed=seed))
    # beta* = 0: some seeds stop at a spurious local minimum of the exact risk (see the check's
    # docstring); what holds for every seed is "stationary point, never below R*"
    assert_passed(S.check_table1_train_zero_mean(seed=seed, allow_local_min=True))
    assert_passed(S.check_thm6_3_train(seed=seed))
