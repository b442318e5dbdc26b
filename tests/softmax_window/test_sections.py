"""collins24 §3.1's modified softmax (exact risk, argmin exponent), App. G.2-G.5 (γ(d, α, m),
E g_p(r)) and Theorem 3.6's moments by SymPy (R8 (a)), each with its negative control through a
``fault_*`` parameter of the production check; known discrepancies are pinned."""

from __future__ import annotations

import pytest

from numerics.softmax_window.checks_appg import (
    check_appg_float_gamma,
    check_appg_mc_gp,
    check_appg_rate_gp,
)
from numerics.softmax_window.checks_linear import check_thm3_6_symbolic_moments
from numerics.softmax_window.checks_msa import check_sec3_1_mc_msa, check_sec3_1_rate_msa
from numerics.testing import assert_discrepancy, assert_fails, assert_passed


@pytest.mark.mc
@pytest.mark.result("collins24:sec3.1")
def test_msa_exact_risk_vs_hard_window_mc_and_negative_control() -> None:
    assert_passed(check_sec3_1_mc_msa())
    assert_fails(check_sec3_1_mc_msa(fault_drop_bias=True))


@pytest.mark.float
@pytest.mark.result("collins24:sec3.1")
def test_msa_argmin_exponent_is_a_discrepancy_and_negative_control() -> None:
    ev = check_sec3_1_rate_msa()
    assert_discrepancy(ev)  # observed 1/3 = 2/(d+3), the sketch says 2/(d+2) (pinned)
    assert_fails(check_sec3_1_rate_msa(fault_drop_bias=True))


@pytest.mark.float
@pytest.mark.result("collins24:appG")
def test_g2_g3_gamma_sum_and_negative_control() -> None:
    ev = check_appg_float_gamma()
    assert_discrepancy(ev)  # G.2's upper bound as read fails at m = 1 (pinned)
    assert_fails(check_appg_float_gamma(fault_lower_scale=3.0))


@pytest.mark.mc
@pytest.mark.result("collins24:appG")
def test_gp_expectation_vs_mc_and_negative_control() -> None:
    assert_passed(check_appg_mc_gp())
    assert_fails(check_appg_mc_gp(fault_rate_factor=1.2))


@pytest.mark.float
@pytest.mark.result("collins24:appG")
def test_gp_exponent_discrepancy_and_negative_control() -> None:
    ev = check_appg_rate_gp()
    assert_discrepancy(ev)  # paper -(d+p)/2, observed -(d-1+p)/2 (pinned)
    assert_fails(check_appg_rate_gp(fault_exponent=-1.5))


@pytest.mark.mc
@pytest.mark.symbolic
@pytest.mark.result("collins24:thm3.6")
def test_la_moments_by_sympy_vs_mc_and_negative_control() -> None:
    assert_passed(check_thm3_6_symbolic_moments())
    assert_fails(check_thm3_6_symbolic_moments(fault_gaussian_fourth=True))
