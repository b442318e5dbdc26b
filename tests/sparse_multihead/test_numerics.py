"""czz24 numerics: data model, pre-GD, the corrected D.1 (and its printed version as a pinned
discrepancy), r̂ moments and rates, theorem orderings / slopes, baselines, the Bayes floor."""

from __future__ import annotations

import numpy as np
import pytest

from numerics.sparse_multihead import (
    DivergedContextsError,
    checks_baselines,
    checks_bayes,
    checks_concentration,
    checks_data,
    checks_decomposition,
    checks_figures,
    checks_pregd,
    checks_theorems,
    excess_risk,
)
from numerics.testing import assert_discrepancy, assert_fails, assert_passed


@pytest.mark.mc
@pytest.mark.result("czz24:sec2")
def test_sec2_sampler_and_negative_control() -> None:
    assert_passed(checks_data.check_sec2_mc())
    assert_passed(checks_data.check_sec2_float())
    # the experimental prior's moment s/d used for the theory prior
    assert_fails(checks_data.check_sec2_mc(fault_second_moment=lambda d, s, prior: s / d))


@pytest.mark.float
@pytest.mark.result("czz24:eq4.3")
def test_pregd_closed_form_and_negative_control() -> None:
    assert_passed(checks_pregd.check_eq4_3_float())
    assert_fails(checks_pregd.check_eq4_3_float(fault_steps_offset=1))  # off by one step


@pytest.mark.float
@pytest.mark.result("czz24:eq4.3")
def test_pregd_limits_equivariances_and_negative_control() -> None:
    assert_passed(checks_pregd.check_eq4_3_float_limits())
    assert_passed(checks_pregd.check_eq4_3_float_equivariance())
    assert_fails(checks_pregd.check_eq4_3_float_equivariance(fault_label_exponent=1.0))


@pytest.mark.ode
@pytest.mark.result("czz24:eq4.3")
def test_pregd_flow_ode() -> None:
    assert_passed(checks_pregd.check_eq4_3_ode())


@pytest.mark.mc
@pytest.mark.result("czz24:eq4.3")
def test_population_limit_mc_and_negative_control() -> None:
    assert_passed(checks_pregd.check_eq4_3_mc())
    assert_fails(checks_pregd.check_eq4_3_mc(fault_cov_scale=1.3))


@pytest.mark.float
@pytest.mark.result("czz24:eqD.1")
def test_corrected_d1_and_uncorrected_negative_control() -> None:
    assert_passed(checks_decomposition.check_eqd_1_float())
    assert_fails(checks_decomposition.check_eqd_1_float(fault_variant="paper"))


@pytest.mark.float
@pytest.mark.result("czz24:eqD.1")
def test_printed_d1_d3_are_pinned_discrepancies() -> None:
    assert_discrepancy(checks_decomposition.check_eqd_1_paper())


@pytest.mark.mc
@pytest.mark.result("czz24:lemD.1")
def test_rhat_moments_and_negative_control() -> None:
    assert_passed(checks_concentration.check_lemd_1_mc())
    assert_fails(checks_concentration.check_lemd_1_mc(fault_cross_term=0.0))  # r_j² term dropped


@pytest.mark.mc
@pytest.mark.result("czz24:lemD.1")
def test_rhat_rate() -> None:
    assert_passed(checks_concentration.check_lemd_1_rate())


@pytest.mark.mc
@pytest.mark.result("czz24:lemD.1")
def test_lemma_d2_beta_scaling_and_negative_control() -> None:
    assert_passed(checks_concentration.check_lemd_1_rate_d2())
    assert_fails(checks_concentration.check_lemd_1_rate_d2(fault_beta_ratio=1.0))


@pytest.mark.mc
@pytest.mark.result("czz24:lemD.7")
def test_noise_term_and_negative_control() -> None:
    assert_passed(checks_concentration.check_lemd_7_mc())
    assert_passed(checks_concentration.check_lemd_7_rate())
    assert_fails(checks_concentration.check_lemd_7_mc(fault_sigma2_scale=1.2))


@pytest.mark.mc
@pytest.mark.result("czz24:lemD.7")
def test_auxiliary_lemmas_d3_d4_d6() -> None:
    assert_passed(checks_concentration.check_lemd_7_rate_aux())
    assert_passed(checks_concentration.check_lemd_7_float())


@pytest.mark.mc
@pytest.mark.result("czz24:thm5.3")
def test_thm53_orderings_and_negative_control() -> None:
    assert_passed(checks_theorems.check_thm5_3_order())
    assert_fails(checks_theorems.check_thm5_3_order(fault_swap_pregd=True))


@pytest.mark.mc
@pytest.mark.result("czz24:thm5.3")
def test_thm53_rate_and_negative_control() -> None:
    assert_passed(checks_theorems.check_thm5_3_rate())
    # the one-term rate σ²d/n of the linear methods does not fit pre-GD*
    assert_fails(checks_theorems.check_thm5_3_rate(fault_rate_fn=lambda n, d, s, s2: s2 * d / n))


@pytest.mark.mc
@pytest.mark.result("czz24:thm5.1")
def test_thm51_slow_rate() -> None:
    assert_passed(checks_theorems.check_thm5_1_rate())


@pytest.mark.mc
@pytest.mark.result("czz24:thm5.2")
def test_thm52_slow_rate() -> None:
    assert_passed(checks_theorems.check_thm5_2_rate())


@pytest.mark.symbolic
@pytest.mark.result("czz24:rem5.2")
def test_rem52_symbolic_and_negative_control() -> None:
    assert_passed(checks_theorems.check_rem5_2_symbolic())
    assert_fails(checks_theorems.check_rem5_2_symbolic(
        fault_ratio_fn=lambda n, d, s: s / d + s / n))


@pytest.mark.mc
@pytest.mark.result("czz24:rem5.2")
def test_rem52_orderings_and_flips_and_negative_control() -> None:
    assert_passed(checks_theorems.check_rem5_2_order())
    assert_fails(checks_theorems.check_rem5_2_order(fault_swap_pregd=True))


@pytest.mark.mc
@pytest.mark.result("czz24:thm5.3-lower")
def test_ols_exact_mc_and_negative_control() -> None:
    assert_passed(checks_baselines.check_thm5_3_lower_mc())
    # σ²d/(n − d), σ²n/(d − n): the inverse-Wishart mean off by one
    assert_fails(checks_baselines.check_thm5_3_lower_mc(
        fault_ols_fn=lambda d, n, s2, w2: s2 * d / (n - d) if n > d else w2 * (1 - n / d)
        + s2 * n / (d - n)))


@pytest.mark.float
@pytest.mark.result("czz24:thm5.3-lower")
def test_ols_api_values_and_divergence_guard() -> None:
    assert_passed(checks_baselines.check_thm5_3_lower_float())
    with pytest.raises(DivergedContextsError, match="fraction"):
        excess_risk("pre_gd", d=16, s=2, n=16, sigma2=0.25, eta=30.0, steps=20, trials=50, seed=0)
    with pytest.raises(ValueError, match="method"):
        excess_risk("newton", d=4, s=1, n=8, sigma2=0.1, trials=10, seed=0)


@pytest.mark.mc
@pytest.mark.result("czz24:thm5.3-lower")
def test_lower_bound_shapes() -> None:
    assert_passed(checks_baselines.check_thm5_3_lower_order())


@pytest.mark.float
@pytest.mark.result("czz24:bayes")
def test_bayes_reduces_to_ridge_and_negative_control() -> None:
    assert_passed(checks_bayes.check_bayes_float())
    assert_fails(checks_bayes.check_bayes_float(fault_tau2=2.0))


@pytest.mark.mc
@pytest.mark.result("czz24:bayes")
def test_bayes_floor_mc() -> None:
    assert_passed(checks_bayes.check_bayes_mc())


@pytest.mark.mc
@pytest.mark.result("czz24:thm5.3-lower")
def test_excess_risk_api_estimate() -> None:
    e = excess_risk("ridge", d=8, s=2, n=40, sigma2=0.25, lam=0.05, trials=400, seed=3)
    assert e.se > 0 and np.isfinite(e.mean) and e.n == 400


@pytest.mark.float
@pytest.mark.result("czz24:fig1b")
def test_fig1b_ols_row_matches_the_printed_values() -> None:
    assert_passed(checks_figures.check_fig1b_paper())


@pytest.mark.mc
@pytest.mark.result("czz24:fig1b")
def test_fig1b_mc_and_negative_control() -> None:
    assert_passed(checks_figures.check_fig1b_mc())
    assert_fails(checks_figures.check_fig1b_mc(fault_sigma2=0.5))


@pytest.mark.mc
@pytest.mark.result("czz24:fig2c")
def test_fig2c_and_negative_controls() -> None:
    assert_passed(checks_figures.check_fig2c_order())
    assert_passed(checks_figures.check_fig2c_mc())
    assert_fails(checks_figures.check_fig2c_order(fault_no_preprocess=True))
    assert_fails(checks_figures.check_fig2c_mc(fault_signal=4.4))


@pytest.mark.mc
@pytest.mark.result("czz24:thm5.3")
def test_sufficient_statistic_route_equals_the_raw_route() -> None:
    """tuned_risks_gram (Σ̂, r̂ per context; the full tier's d = 64 rows) reproduces tuned_risks
    (the raw-context predictors) on the same contexts: same tuned (η, t), λ and risks."""
    from numerics.sparse_multihead.risk import tuned_risks, tuned_risks_gram

    kw = {"d": 32, "s": 2, "n": 128, "sigma2": 0.25, "trials": 100, "seed": 0, "steps": 100}
    a, b = tuned_risks(**kw), tuned_risks_gram(**kw, chunk=100)
    assert (a.pre_gd_arg, a.gd_arg, a.ridge_arg) == (b.pre_gd_arg, b.gd_arg, b.ridge_arg)
    assert a.ols is not None and b.ols is not None
    for x, y in ((a.pre_gd, b.pre_gd), (a.gd, b.gd), (a.ridge, b.ridge), (a.ols, b.ols)):
        assert np.isclose(x.mean, y.mean, rtol=1e-10) and np.isclose(x.se, y.se, rtol=1e-8)
