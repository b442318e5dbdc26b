"""collins24 numerics: quadrature vs sphere MC, limits, asymptotics (with the paper's exponent as a
discrepancy), Theorems 3.4-3.6, Remark 2.2, §3.1, Lemma D.2, App. G -- each with its negative
control through a ``fault_*`` switch of the production check."""

from __future__ import annotations

import numpy as np
import pytest

from numerics.softmax_window import checks_linear as CL
from numerics.softmax_window import checks_optimum as CO
from numerics.softmax_window import checks_risk as CR
from numerics.softmax_window import checks_window as CW
from numerics.softmax_window import optimal_scale
from numerics.testing import assert_discrepancy, assert_fails, assert_passed
from theory.common.protocols import Estimate


@pytest.mark.mc
@pytest.mark.result("collins24:risk-affine")
def test_risk_affine_quadrature_vs_sphere_mc() -> None:
    assert_passed(CR.check_risk_affine_mc())


@pytest.mark.mc
@pytest.mark.result("collins24:risk-affine")
def test_risk_affine_negative_control_query_attends_to_itself() -> None:
    assert_fails(CR.check_risk_affine_mc(fault_query_attends=True))


@pytest.mark.result("collins24:risk-affine")
def test_scale_invariance_and_negative_control() -> None:
    assert_passed(CR.check_risk_affine_quad_scale())
    assert_fails(CR.check_risk_affine_quad_scale(fault_sigma_power=2.0))


@pytest.mark.result("collins24:limits")
def test_limits_quad_and_negative_control() -> None:
    assert_passed(CR.check_limits_quad())
    assert_fails(CR.check_limits_quad(fault_n0=1 / 21))  # the query counted as a context point


@pytest.mark.mc
@pytest.mark.result("collins24:limits")
def test_limits_mc() -> None:
    assert_passed(CR.check_limits_mc())


@pytest.mark.result("collins24:asymptotics")
def test_asymptotics_and_negative_control_paper_exponent() -> None:
    assert_passed(CR.check_asymptotics_quad())
    assert_fails(CR.check_asymptotics_quad(fault_noise_exponent=1.5))  # the paper's d/2 at d = 3


@pytest.mark.result("collins24:asymptotics")
def test_paper_exponents_are_discrepancies() -> None:
    """G1: the paper's omega^{d/2} noise and 2/(d+4) optimum exponent; our quadrature agrees with
    (d-1)/2 and 2/(d+3) and contradicts them (pinned, so it cannot silently flip)."""
    ev = CR.check_asymptotics_rate()
    assert_discrepancy(ev)
    assert sum(e.discrepancy for e in ev) == 2


@pytest.mark.result("collins24:thm3.4")
def test_thm34_reference_values_and_negative_control() -> None:
    assert_passed(CO.check_thm3_4_paper())
    assert_fails(CO.check_thm3_4_paper(fault_sigma_scale=2.0))


@pytest.mark.result("collins24:thm3.4")
def test_thm34_monotone() -> None:
    assert_passed(CO.check_thm3_4_order())


@pytest.mark.result("collins24:thm3.4")
def test_thm34_lambda_collapse_and_negative_control() -> None:
    assert_passed(CO.check_thm3_4_optim_collapse())
    assert_fails(CO.check_thm3_4_optim_collapse(fault_lambda_power=0.5))


@pytest.mark.mc
@pytest.mark.result("collins24:thm3.4")
def test_thm34_slope_inside_bracket() -> None:
    assert_passed(CO.check_thm3_4_rate())


@pytest.mark.result("collins24:thm3.5")
def test_thm35_transfer_and_negative_control() -> None:
    assert_passed(CO.check_thm3_5_quad())
    assert_fails(CO.check_thm3_5_quad(fault_pretrain_shift=1.5))


@pytest.mark.mc
@pytest.mark.result("collins24:thm3.6")
def test_thm36_closed_form_vs_mc() -> None:
    assert_passed(CL.check_thm3_6_mc())


@pytest.mark.mc
@pytest.mark.result("collins24:thm3.6")
def test_thm36_floor_and_negative_control_no_intercept() -> None:
    assert_passed(CL.check_thm3_6_mc_floor())
    assert_fails(CL.check_thm3_6_mc_floor(fault_no_intercept=True))


@pytest.mark.symbolic
@pytest.mark.result("collins24:thm3.6")
def test_thm36_moments_symbolic_and_negative_control() -> None:
    assert_passed(CL.check_thm3_6_symbolic())
    assert_fails(CL.check_thm3_6_symbolic(fault_drop_pairs=True))


@pytest.mark.result("collins24:rem2.2")
def test_rem22_slope_two_and_negative_control() -> None:
    assert_passed(CL.check_rem2_2_rate())
    assert_fails(CL.check_rem2_2_rate(fault_drop_mean=True))


@pytest.mark.mc
@pytest.mark.result("collins24:sec3.1")
def test_sec31_window_mass_and_negative_control() -> None:
    assert_passed(CW.check_sec3_1_mc())
    assert_fails(CW.check_sec3_1_mc(fault_radius_power=1.0))


@pytest.mark.result("collins24:sec3.1")
def test_sec31_noise_slope_is_a_discrepancy() -> None:
    """The sketch's E[1/K] ~ omega^{d/2}/n: the binomial with the exact cap mass gives (d-1)/2."""
    assert_discrepancy(CW.check_sec3_1_rate())


@pytest.mark.result("collins24:lemD.2")
def test_lemd2_noise_increasing() -> None:
    assert_passed(CW.check_lemd_2_quad())


@pytest.mark.result("collins24:lemD.2")
def test_lemi3_and_negative_control_reversed_order() -> None:
    assert_passed(CW.check_lemd_2_float_i3())
    assert_fails(CW.check_lemd_2_float_i3(fault_reverse_order=True))


@pytest.mark.result("collins24:appG")
def test_appg_bounds_and_negative_control() -> None:
    assert_passed(CW.check_appg_float())
    assert_fails(CW.check_appg_float(fault_lower_scale=10.0))


@pytest.mark.mc
@pytest.mark.result("collins24:appG")
def test_appg_cap_measure_mc() -> None:
    assert_passed(CW.check_appg_mc())


@pytest.mark.result("collins24:risk-affine")
@pytest.mark.result("collins24:thm3.4")
def test_public_optimal_scale_api() -> None:
    w, loss = optimal_scale(5, 20, 1.0, 0.01**2)
    assert isinstance(w, float) and isinstance(loss, float)
    assert abs(w / 6.681 - 1) < CO.REFERENCE_RTOL  # spec 003 R6 [COMPUTED]
    w_r, l_r = optimal_scale(5, 20, 1.0, 1.0, "relu", rng=np.random.default_rng(0), reps=20_000)
    assert isinstance(w_r, Estimate) and isinstance(l_r, Estimate) and w_r.se > 0
    assert abs(w_r.mean - 0.59) <= 0.03 * 0.59 + 5 * w_r.se  # spec S2 target ±3 %
    w_c, _ = optimal_scale(5, 20, 1.0, 0.01**2, "cos", rng=np.random.default_rng(1), reps=20_000)
    assert isinstance(w_c, Estimate)
    assert abs(w_c.mean - 7.33) <= 0.03 * 7.33 + 5 * w_c.se  # spec S2 cosine target (report-only)
    with pytest.raises(ValueError, match="rng"):
        optimal_scale(5, 20, 1.0, 1.0, "cos")
    with pytest.raises(ValueError, match="sigma2"):
        optimal_scale(5, 20, 1.0, -1.0)
    with pytest.raises(ValueError, match="task"):
        optimal_scale(5, 20, 1.0, 1.0, "quadratic")
