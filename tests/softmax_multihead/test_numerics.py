"""hpcy25 Monte Carlo and ODE routes, each with a negative control."""

from __future__ import annotations

import pytest

from numerics.softmax_multihead import (
    checks_appa,
    checks_appb,
    checks_appd,
    checks_sec4_1,
    checks_sec4_2,
    checks_sec5,
)
from numerics.testing import assert_discrepancy, assert_fails, assert_passed


@pytest.fixture(scope="module")
def dgd_mc():
    return checks_appd.check_eqd_29_mc()


@pytest.fixture(scope="module")
def ltilde_mc():
    return checks_sec4_1.check_prop4_1_mc()


# -------------------------------------------------------------------------- MC: risks
@pytest.mark.mc
@pytest.mark.result("hpcy25:eqD.29")
@pytest.mark.result("hpcy25:thm4.2iii")
def test_dgd_gd_ridge_risks_mc(dgd_mc) -> None:
    assert_passed(dgd_mc)


@pytest.mark.mc
@pytest.mark.result("hpcy25:eqD.29")
def test_dgd_mc_negative_control_wrong_prior_scale(dgd_mc) -> None:
    """β ~ N(0, I) instead of N(0, I/d) in the sampled prompts must fail."""
    assert_passed(dgd_mc)
    assert_fails(checks_appd.check_eqd_29_mc(fault_task_var=1.0))


@pytest.mark.mc
@pytest.mark.result("hpcy25:eqD.29")
def test_dgd_risk_vs_foundation_fast_mc() -> None:
    """Independent route: the foundation's sufficient-statistic MC (debias=True) vs R_D."""
    import numpy as np

    import theory.softmax_multihead as th
    from numerics.testing import mc_agreement

    fast = pytest.importorskip("numerics.mc_fast")
    for d, L, eta in ((5, 40, 0.897), (5, 10, 0.5)):
        est = fast.gd_family_risk_mc(Sigma_x=np.eye(d), task_mean=np.zeros(d),
                                     task_cov=np.eye(d) / d, noise_var=0.1, N=L,
                                     Gamma=eta * np.eye(d), debias=True, n=20_000,
                                     rng=np.random.default_rng(1))
        assert_passed(mc_agreement(f"R_D vs mc_fast (debias) at d={d}, L={L}",
                                   th.dgd_risk(eta, d, L, 0.1), est))
        if L == 10:  # control: the vanilla-GD formula is not the debiased risk
            assert_fails(mc_agreement("R_V (fault) vs mc_fast (debias)",
                                      th.gd_risk(eta, d, L, 0.1), est))


@pytest.mark.mc
@pytest.mark.result("hpcy25:eqD.29")
def test_dgd_mc_negative_control_wrong_step(dgd_mc) -> None:
    """MC at η = 0.8 against the closed form at η = 0.897 must fail: sampled with the wrong step."""
    assert_passed(dgd_mc)
    assert_fails(checks_appd.check_eqd_29_mc(fault_mc_eta=0.8))


@pytest.mark.mc
@pytest.mark.result("hpcy25:thm4.2iii")
def test_finite_sample_bayes_risk() -> None:
    assert_passed(checks_appd.check_thm4_2iii_mc())
    # ridge λ = dσ² is not Bayes for β ~ N(0, I)
    assert_fails(checks_appd.check_thm4_2iii_mc(fault_task_var=1.0))


# ------------------------------------------------------------------ MC: Prop 4.1 (Fig 6)
@pytest.mark.mc
@pytest.mark.result("hpcy25:prop4.1")
def test_ltilde_vs_true_loss_mc(ltilde_mc) -> None:
    assert_passed(ltilde_mc)


@pytest.mark.mc
@pytest.mark.result("hpcy25:prop4.1")
def test_ltilde_mc_negative_control_no_factor_d(ltilde_mc) -> None:
    """exp(ωωᵀ) without the factor d in L̃ must fail the landscape check."""
    assert_passed(ltilde_mc)
    assert_fails(checks_sec4_1.check_prop4_1_mc(fault_kernel_scale=1.0))


@pytest.mark.mc
@pytest.mark.result("hpcy25:prop4.1")
def test_ltilde_mc_negative_control_wrong_prior(ltilde_mc) -> None:
    assert_fails(checks_sec4_1.check_prop4_1_mc(fault_task_var=1.0))


@pytest.mark.mc
@pytest.mark.result("hpcy25:prop4.1")
def test_stein_identity() -> None:
    assert_passed(checks_sec4_1.check_prop4_1_mc_stein())
    # the first-order form without the |p|^2 term must fail
    assert_fails(checks_sec4_1.check_prop4_1_mc_stein(fault_first_order=True))


@pytest.mark.mc
@pytest.mark.result("hpcy25:eq4.6")
def test_manifold_optimal_m_mc() -> None:
    assert_passed(checks_sec4_2.check_eq4_6_mc())
    assert_fails(checks_sec4_2.check_eq4_6_mc(fault_theory_L=30))


@pytest.mark.mc
@pytest.mark.slow
@pytest.mark.result("hpcy25:prop4.1")
def test_ltilde_gap_scales_like_one_over_L() -> None:
    assert_passed(checks_sec4_1.check_prop4_1_mc_gap())
    assert_fails(checks_sec4_1.check_prop4_1_mc_gap(fault_kernel_scale=1.0))


# ---------------------------------------------------------------- MC: Thm 4.2(i), (4.9)
@pytest.mark.mc
@pytest.mark.result("hpcy25:thm4.2i")
@pytest.mark.result("hpcy25:eq4.10")
def test_tf_converges_to_dgd_slope_two() -> None:
    assert_passed(checks_sec4_2.check_thm4_2i_mc())


@pytest.mark.mc
@pytest.mark.result("hpcy25:thm4.2i")
def test_tf_dgd_negative_control_wrong_step() -> None:
    """Comparing the pair (2ωμ = 0.879) with DGD at η = 0.8 must fail (the gap does not vanish)."""
    assert_fails(checks_sec4_2.check_thm4_2i_mc(fault_dgd_eta=0.8))


@pytest.mark.result("hpcy25:eq4.10")
def test_multihead_on_manifold_equals_pair() -> None:
    assert_passed(checks_sec4_2.check_eq4_10_float())


# ----------------------------------------------------------------- MC: single head, §5
@pytest.mark.mc
@pytest.mark.result("hpcy25:eq4.12")
def test_single_head_exact_optimum_mc() -> None:
    assert_passed(checks_sec4_2.check_eq4_12_mc())


@pytest.mark.mc
@pytest.mark.result("hpcy25:sec5.1")
def test_length_generalisation_mc() -> None:
    assert_passed(checks_sec5.check_sec5_1_mc())


@pytest.mark.mc
@pytest.mark.result("hpcy25:sec5.1")
def test_length_generalisation_negative_control_renormalised_linear() -> None:
    """Linear attention rescaled by 1/L' at test time does not follow R_lin: must fail."""
    assert_fails(checks_sec5.check_sec5_1_mc(fault_renormalise_linear=True))


@pytest.mark.mc
@pytest.mark.result("hpcy25:eq5.2")
def test_emulation_slope_two() -> None:
    assert_passed(checks_sec5.check_eq5_2_rate())


@pytest.mark.mc
@pytest.mark.result("hpcy25:eq5.6")
def test_noniso_mc() -> None:
    assert_passed(checks_sec5.check_eq5_6_mc())


@pytest.mark.mc
@pytest.mark.result("hpcy25:def5.1")
def test_multitask_mc_and_table2() -> None:
    assert_passed(checks_sec5.check_def5_1_mc())


@pytest.mark.mc
@pytest.mark.result("hpcy25:def5.1")
def test_multitask_negative_control_wrong_L() -> None:
    assert_fails(checks_sec5.check_def5_1_mc(L=40))


@pytest.mark.mc
@pytest.mark.result("hpcy25:appA.4")
def test_softmax_norm_concentration() -> None:
    assert_passed(checks_appa.check_appa_4_mc())


@pytest.mark.mc
@pytest.mark.result("hpcy25:appA.4")
def test_softmax_norm_negative_control_wrong_dimension() -> None:
    """References computed for d = 4 while sampling d = 5 must fail."""
    assert_fails(checks_appa.check_appa_4_mc(fault_theory_d=4))


# --------------------------------------------------------------------------- ODE (App B)
@pytest.mark.ode
@pytest.mark.result("hpcy25:appB")
def test_flow_structure() -> None:
    assert_passed(checks_appb.check_appb_ode())


@pytest.mark.ode
@pytest.mark.result("hpcy25:appB-phases")
@pytest.mark.result("hpcy25:obs4")
def test_flow_phases() -> None:
    assert_passed(checks_appb.check_appb_phases_ode())


@pytest.mark.ode
@pytest.mark.result("hpcy25:appB-phases")
def test_flow_phases_negative_control_wrong_noise() -> None:
    """The snapshot table at σ² = 0.01 instead of 0.1 must fail."""
    assert_fails(checks_appb.check_appb_phases_ode(sigma2=0.01))


@pytest.mark.ode
@pytest.mark.result("hpcy25:appB-phases")
def test_flow_late_phase_and_documented_discrepancy() -> None:
    """The paper heuristic's ω ~ t^{-1/2} is a pinned discrepancy: the fitted ODE slope agrees
    with our derived −1/6 (RATE band) and not with −1/2."""
    ev = checks_appb.check_appb_phases_ode_late()
    assert_discrepancy(ev)
    assert [e.name for e in ev if e.discrepancy] == [
        "Phase III rate of omega: paper heuristic t^{-1/2} vs fitted ODE slope on [1e4, 1e6]"]


@pytest.mark.result("hpcy25:thm4.2iii")
def test_printed_bayes_limit_digits_discrepancy() -> None:
    """Spec R9's printed R_B∞(0.05, 0.1) = 0.10524 disagrees with the 50-digit MP route
    (0.1052342): a pinned discrepancy; the two other printed values agree."""
    ev = checks_appd.check_thm4_2iii_symbolic()
    assert_discrepancy(ev)
    assert [e.name for e in ev if e.discrepancy] == [
        "R_B∞(xi=0.05, σ²=0.1): printed 0.10524 vs the 50-digit MP route and the float64 display"]


@pytest.mark.ode
@pytest.mark.result("hpcy25:appB-phases")
def test_lambert_peak() -> None:
    assert_passed(checks_appb.check_appb_phases_ode_peak())


@pytest.mark.ode
@pytest.mark.result("hpcy25:eq4.3")
@pytest.mark.result("hpcy25:obs2")
def test_stage_patterns_on_ltilde() -> None:
    assert_passed(checks_appb.check_obs2_ode())
