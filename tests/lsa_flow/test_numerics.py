"""zfb24 numerics: ODE vs closed forms (SOLVER), Monte Carlo vs closed forms (MC), rates, and the
negative controls (wrong Γ, symmetrised/transposed ODE term, Λ⁻¹ in place of Γ⁻¹)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings

import numerics.lsa_flow as NL
import theory.lsa_flow as T
from numerics.lsa_flow import (
    checks_flow,
    checks_model,
    checks_random_cov,
    checks_risk,
    checks_shifts,
    checks_thm4,
    lambda_as_gamma,
    wrong_gamma,
)
from numerics.testing import assert_fails, assert_passed, solver_agreement
from theory.strategies import zfb24_settings


def lambda_inverse(L: np.ndarray, N: int) -> np.ndarray:
    """Negative control: run the naive Λ⁻¹ predictor in place of the trained Γ⁻¹."""
    return np.linalg.inv(L)


# --------------------------------------------------------------------------- ODE (SOLVER)
@pytest.fixture(scope="module")
def flow_ode():
    return checks_flow.check_lem10_ode()


@pytest.mark.ode
@pytest.mark.result("zfb24:lem10")
@pytest.mark.result("zfb24:lem17")
def test_flow_ode_laws(flow_ode) -> None:
    assert_passed(flow_ode)


@pytest.mark.ode
@pytest.mark.result("zfb24:lem17")
def test_flow_ode_negative_control_transposed_term(flow_ode) -> None:
    assert_passed(flow_ode)
    assert_fails(checks_flow.check_lem10_ode(fault_variant="transposed"))  # balancedness breaks


@pytest.mark.ode
@pytest.mark.result("zfb24:thm4")
def test_flow_ode_negative_control_wrong_gamma(flow_ode) -> None:
    assert_passed(flow_ode)
    assert_fails(checks_flow.check_lem10_ode(fault_gamma_fn=wrong_gamma))  # limit with N+2 for N+1


@pytest.mark.ode
@pytest.mark.result("zfb24:flow_reductions")
def test_flow_reductions_and_symmetrised_negative_control() -> None:
    assert_passed(checks_flow.check_flow_reductions_ode())
    assert_fails(checks_flow.check_flow_reductions_ode(fault_variant="symmetrised"))


@pytest.mark.ode
@pytest.mark.result("zfb24:cor16")
def test_minima_and_wrong_gamma_negative_control() -> None:
    assert_passed(checks_flow.check_cor16_ode())
    assert_fails(checks_flow.check_cor16_ode(fault_gamma_fn=wrong_gamma))


@pytest.fixture(scope="module")
def thm4_ode():
    return checks_thm4.check_thm4_ode()


@pytest.mark.ode
@pytest.mark.result("zfb24:thm4")
def test_thm4_ode(thm4_ode) -> None:
    assert_passed(thm4_ode)


@pytest.mark.ode
@pytest.mark.result("zfb24:thm4")
def test_thm4_ode_negative_control_lambda_inverse(thm4_ode) -> None:
    assert_passed(thm4_ode)
    assert_fails(checks_thm4.check_thm4_ode(fault_gamma_fn=lambda_as_gamma))  # Λ⁻¹ in place of Γ⁻¹


@pytest.mark.ode
@pytest.mark.result("zfb24:thm4")
def test_thm4_beyond_condition_is_informational() -> None:
    ev = checks_thm4.check_thm4_ode_beyond_condition()
    assert ev and all(e.informational for e in ev)


@pytest.mark.ode
@pytest.mark.result("zfb24:thm4")
@settings(max_examples=3)
@given(zfb24_settings(d=2))
@example(
    T.Assumption3Setting(Lambda=np.diag([0.5, 2.0]), N=4, sigma_init=0.3, Theta=np.eye(2) / 2**0.25)
)
def test_thm4_limit_for_drawn_settings(s: T.Assumption3Setting) -> None:
    """Theorem 4 limit in solver units and balancedness for Hypothesis-drawn settings (d = 2)."""
    L, N, sigma, Th = s.Lambda_array, s.N, s.sigma_init, s.Theta_array
    U0, u0 = T.initial_state(Th, sigma)
    tr = NL.integrate_flow(L, N, U0, u0, 4000.0, solver=NL.STIFF)
    Uf, uf = NL.unpack(tr.final, 2)
    Ue, ue = T.limit_params_fn(L, N)
    assert_passed(
        [
            solver_agreement("limit", NL.pack(Uf, uf), NL.pack(Ue, ue)),
            solver_agreement("balance", uf**2, float(np.sum(Uf**2))),
        ]
    )


@pytest.mark.float
@pytest.mark.result("zfb24:eq12")
def test_eq12_identity_at_any_length() -> None:
    assert_passed(checks_model.check_eq12_float())


# ------------------------------------------------------------------------------------ MC
@pytest.mark.mc
@pytest.mark.result("zfb24:lem15")
def test_reduced_loss_mc_and_wrong_gamma_negative_control() -> None:
    assert_passed(checks_flow.check_lem15_mc())
    assert_fails(checks_flow.check_lem15_mc(fault_gamma_fn=lambda_as_gamma))


@pytest.mark.mc
@pytest.mark.result("zfb24:cor16")
def test_lstar_mc_and_lambda_inverse_negative_control() -> None:
    assert_passed(checks_flow.check_cor16_mc())
    assert_fails(checks_flow.check_cor16_mc(fault_p_fn=lambda_inverse))


@pytest.mark.mc
@pytest.mark.result("zfb24:thm5")
def test_thm5_mc_and_negative_controls() -> None:
    assert_passed(checks_risk.check_thm5_mc())
    assert_fails(checks_risk.check_thm5_mc(fault_p_fn=lambda_inverse))


@pytest.mark.mc
@pytest.mark.result("zfb24:cor6")
def test_cor6_mc_and_lambda_inverse_negative_control() -> None:
    assert_passed(checks_risk.check_cor6_mc())
    assert_fails(checks_risk.check_cor6_mc(fault_p_fn=lambda_inverse))


@pytest.mark.mc
@pytest.mark.slow
@pytest.mark.result("zfb24:cor6")
def test_rates() -> None:
    assert_passed(checks_risk.check_cor6_rate())


@pytest.mark.mc
@pytest.mark.result("zfb24:shifts")
def test_shifts_mc_and_lambda_inverse_negative_control() -> None:
    assert_passed(checks_shifts.check_shifts_mc())
    assert_fails(checks_shifts.check_shifts_mc(fault_p_fn=lambda_inverse))


@pytest.mark.mc
@pytest.mark.result("zfb24:shifts")
def test_covariate_scaling() -> None:
    assert_passed(checks_shifts.check_shifts_mc_covariate_scaling())


@pytest.mark.mc
@pytest.mark.result("zfb24:fn2")
def test_footnote2_plain_gd() -> None:
    assert_passed(checks_shifts.check_fn2_mc())


@pytest.mark.mc
@pytest.mark.result("zfb24:thm8")
def test_rdm_moments_mc() -> None:
    assert_passed(checks_random_cov.check_thm8_mc_moments())


@pytest.mark.ode
@pytest.mark.result("zfb24:thm8")
def test_rdm_ode() -> None:
    assert_passed(checks_random_cov.check_thm8_ode())


@pytest.mark.mc
@pytest.mark.result("zfb24:thm8")
def test_rdm_loss_mc() -> None:
    assert_passed(checks_random_cov.check_thm8_mc_loss())


@pytest.mark.mc
@pytest.mark.result("zfb24:rdm_risk")
def test_rdm_risk_mc_and_negative_control() -> None:
    assert_passed(checks_random_cov.check_rdm_risk_mc())
    # test covariances drawn from Gamma(4, 1/4) (mean 1, lighter tails) while r uses Exp(1) moments
    assert_fails(checks_random_cov.check_rdm_risk_mc(fault_gamma_k=4.0))


@pytest.mark.mc
@pytest.mark.result("zfb24:label_noise")
def test_label_noise_extension() -> None:
    assert_passed(checks_flow.check_label_noise_mc())


@pytest.mark.mc
@pytest.mark.result("zfb24:fig1")
def test_figure1_proxies() -> None:
    assert_passed(checks_random_cov.check_fig1_mc())
