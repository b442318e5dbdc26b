"""collins24 App. B-C: value row (B.1), Σ⁻¹ form (B.5), signal shapes (C.2, C.6, C.8, C.9), each
with a negative control through a ``fault_*`` switch."""

from __future__ import annotations

import pytest

from numerics.softmax_window import checks_signal as C
from numerics.testing import assert_fails, assert_passed


@pytest.mark.mc
@pytest.mark.result("collins24:lemB.1")
def test_lemb1_value_row_and_negative_control() -> None:
    assert_passed(C.check_lemb_1_mc())
    assert_fails(C.check_lemb_1_mc(fault_fixed_direction=True))


@pytest.mark.mc
@pytest.mark.result("collins24:lemB.5")
def test_lemb5_perturbations_never_win() -> None:
    assert_passed(C.check_lemb_5_mc())


@pytest.mark.mc
@pytest.mark.result("collins24:lemB.5")
def test_lemb5_sigma_equivalence_and_negative_control() -> None:
    assert_passed(C.check_lemb_5_mc_sigma())
    assert_fails(C.check_lemb_5_mc_sigma(fault_identity_on_ellipsoid=True))


@pytest.mark.result("collins24:corC.6")
def test_corc6_shapes_and_negative_control() -> None:
    assert_passed(C.check_corc_6_quad())
    assert_fails(C.check_corc_6_quad(fault_orth_exponent=1.5))  # the paper's d/2 - 1 at d = 5


@pytest.mark.mc
@pytest.mark.result("collins24:lemC.8")
def test_lemc8_relu_slope_and_negative_control() -> None:
    assert_passed(C.check_lemc_8_mc())
    assert_fails(C.check_lemc_8_mc(fault_linear_task=True))


@pytest.mark.mc
@pytest.mark.result("collins24:lemC.9")
def test_lemc9_ratio_and_negative_control() -> None:
    assert_passed(C.check_lemc_9_mc())
    assert_fails(C.check_lemc_9_mc(fault_ratio=1.0))
