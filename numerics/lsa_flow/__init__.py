"""[zfb24] numerics: independent routes for the closed forms of :mod:`theory.lsa_flow`.

Routes (no checks): :mod:`.sampling` (prompt samplers), :mod:`.predictors` (the literal LSA
read-out of eq. (6) and the preconditioned one-step predictor of eq. (12)), :mod:`.ode` (Lemma 10
and eq. (52) with the verification solver), :mod:`.montecarlo` (Figure 1 estimators),
:mod:`.faults` (wrong Γ's for negative controls) and :mod:`.evidence` (shared evidence helpers).

Checks, one module per paper section (keys of :data:`theory.lsa_flow.SECTIONS`), named
``check_<result>_<route>[_<qualifier>]``: :mod:`.checks_model` (§2, Lemma 9, eq. (12)),
:mod:`.checks_flow` (§5 / Appendix A), :mod:`.checks_convergence` (Theorem 4),
:mod:`.checks_risk` (§4.1), :mod:`.checks_shifts` (§4.2), :mod:`.checks_random_cov` (§4.3,
Theorem 8), :mod:`.checks_figure1` (Figure 1, the [derived] r(δ, c, M)).  Fault switches are
keyword-only ``fault_*=None`` parameters.  The old module names
``numerics.lsa_flow.checks_{thm4,fig1}`` import these modules (:data:`MOVED`).

The route names are re-exported here.
"""

from __future__ import annotations

from numerics.lsa_flow.faults import (
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
from numerics.lsa_flow.montecarlo import least_squares_risk_mc, random_cov_test_risk
from numerics.lsa_flow.ode import STIFF, integrate_flow, integrate_rdm_flow, pack, unpack
from numerics.lsa_flow.predictors import lsa_predict, predictor_predict, weights_from_P
from numerics.lsa_flow.sampling import (
    SPEC_LAMBDA,
    random_spd,
    random_theta,
    sample_linear,
    sample_quadratic_task,
    sample_random_cov,
    spec_Lambda,
)
from theory.common.aliases import alias_modules

#: Old module name -> its section module.
MOVED: dict[str, str] = {
    "numerics.lsa_flow.checks_thm4": "numerics.lsa_flow.checks_convergence",
    "numerics.lsa_flow.checks_fig1": "numerics.lsa_flow.checks_figure1",
}
alias_modules(MOVED)

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
