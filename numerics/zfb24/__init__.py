"""[zfb24] numerics: independent routes for the closed forms of :mod:`theory.zfb24`.

Routes (no checks): :mod:`.sampling` (prompt samplers), :mod:`.predictors` (the literal LSA
read-out of eq. (6) and the preconditioned one-step predictor of eq. (12)), :mod:`.ode` (Lemma 10
and eq. (52) with the verification solver), :mod:`.montecarlo` (Figure 1 estimators),
:mod:`.faults` (wrong Γ's for negative controls) and :mod:`.evidence` (shared evidence helpers).

Checks, one module per paper section (keys of :data:`theory.zfb24.SECTIONS`, the same file
names on every floor), named ``check_<result>_<route>[_<qualifier>]``: :mod:`.sec3_model` (§3.2,
Lemma 9, eq. (12)), :mod:`.sec4_1_convergence` (Theorem 4), :mod:`.sec4_1_risk` (Theorem 5,
Corollary 6), :mod:`.sec4_2_shifts` (§4.2), :mod:`.sec4_3_random_cov` (§4.3, Theorem 8),
:mod:`.fig1` (Figure 1, the [derived] r(δ, c, M)), :mod:`.sec5_flow` (§5 / Appendix A).  Fault
switches are keyword-only ``fault_*=None`` parameters.

The route names are re-exported here.
"""

from __future__ import annotations

from numerics.zfb24.faults import (
    GAMMA_ALTERNATIVES,
    GammaFn,
    delta_alternatives,
    gamma_factor_dropped,
    gamma_n_minus_1,
    gamma_n_plus_1,
    gamma_or_fault,
    lambda_as_gamma,
    swap_alternative,
    wrong_gamma,
)
from numerics.zfb24.montecarlo import least_squares_risk_mc, random_cov_test_risk
from numerics.zfb24.ode import STIFF, integrate_flow, integrate_rdm_flow, pack, unpack
from numerics.zfb24.predictors import lsa_predict, predictor_predict, weights_from_P
from numerics.zfb24.sampling import (
    SPEC_LAMBDA,
    random_spd,
    random_theta,
    sample_linear,
    sample_quadratic_task,
    sample_random_cov,
    spec_Lambda,
)

__all__ = [
    "SPEC_LAMBDA",
    "spec_Lambda",
    "random_spd",
    "random_theta",
    "sample_linear",
    "sample_quadratic_task",
    "sample_random_cov",
    "lsa_predict",
    "predictor_predict",
    "weights_from_P",
    "STIFF",
    "pack",
    "unpack",
    "integrate_flow",
    "integrate_rdm_flow",
    "least_squares_risk_mc",
    "random_cov_test_risk",
    "GammaFn",
    "wrong_gamma",
    "lambda_as_gamma",
    "gamma_n_plus_1",
    "gamma_n_minus_1",
    "gamma_factor_dropped",
    "GAMMA_ALTERNATIVES",
    "gamma_or_fault",
    "delta_alternatives",
    "swap_alternative",
]
