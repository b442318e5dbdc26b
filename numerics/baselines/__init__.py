"""Check functions for the foundation's baselines (:mod:`theory.common.gaussian`,
:mod:`theory.common.baselines`): closed form vs raw-prompt Monte Carlo, exact symbolic identities,
float64 twins vs 50-digit references, and the proportional limit vs large Wishart draws.

Every check takes :class:`theory.common.settings.GaussianSetting` first; the results are declared
in :mod:`sims.common.results`.  The Monte Carlo routes sample with
:func:`numerics.sampling.sample_prompts` (or raw Gaussian matrices) and apply the *predictor*
(transcribed literally in :mod:`numerics.baselines.cases`); they never call a theory risk.
Fault injection for the negative controls goes through the ``*_fn`` parameters (a wrong identity
or a wrong risk formula must make the same check fail).
"""

from __future__ import annotations

from numerics.baselines.cases import (
    CASES,
    case_setting,
    dgd_predict,
    gd_beta_predict,
)
from numerics.baselines.gaussian import (
    check_isserlis_exact,
    check_isserlis_mc,
    check_sample_cov,
    check_sample_cov_exact,
    check_wishart_exact,
    check_wishart_mc,
    isserlis_mc,
)
from numerics.baselines.gd import (
    check_dgd_mc,
    check_gd_beta_mc,
    check_gd_family_exact,
    check_gd_family_float,
    check_gd_mc,
)
from numerics.baselines.mp import (
    check_mp_exact,
    check_mp_float,
    check_mp_wishart,
    check_mp_wishart_generic,
    check_wishart_sampler,
    wishart_eigenvalues,
)
from numerics.baselines.ridge import (
    bayes_risk_mc,
    check_bayes_risk_mc,
    check_ols_float,
    check_ols_mc,
    check_ridge_bayes,
    check_ridge_ordering,
)

__all__ = [
    "CASES",
    "case_setting",
    "gd_beta_predict",
    "dgd_predict",
    "bayes_risk_mc",
    "check_isserlis_mc",
    "check_isserlis_exact",
    "check_wishart_mc",
    "check_wishart_exact",
    "check_sample_cov",
    "check_sample_cov_exact",
    "isserlis_mc",
    "check_gd_mc",
    "check_gd_beta_mc",
    "check_dgd_mc",
    "check_gd_family_exact",
    "check_gd_family_float",
    "check_ridge_bayes",
    "check_bayes_risk_mc",
    "check_ridge_ordering",
    "check_ols_mc",
    "check_ols_float",
    "check_mp_exact",
    "check_mp_float",
    "check_mp_wishart",
    "check_mp_wishart_generic",
    "check_wishart_sampler",
    "wishart_eigenvalues",
]
