"""[czz24] numerics (slug sparse_multihead): samplers, literal predictors, Monte Carlo risks and the
checks of every result, one ``checks_<section>.py`` per key of
:data:`theory.sparse_multihead.SECTIONS`.  Public API: :func:`excess_risk` (MC ``E‖ŵ − w*‖²`` for
Σ = I).

Modules that moved to their section still import under their old names, as the same objects
(:data:`MOVED`); the checks of the former generic-point and figure modules are re-exported here.
"""

from __future__ import annotations

from numerics.sparse_multihead import (
    checks_baselines,
    checks_bayes,
    checks_bounds,
    checks_concentration,
    checks_constructions,
    checks_data,
    checks_decomposition,
    checks_fig1b,
    checks_fig2c,
    checks_pregd,
)
from numerics.sparse_multihead.risk import (
    METHODS,
    DivergedContextsError,
    excess_risk,
    excess_risk_samples,
    tuned_risks,
)
from theory.common.aliases import alias_modules

# the checks of the former generic-point and figure modules (their old names resolve here)
GENERIC = checks_bounds.GENERIC
check_thm5_1_float_bound = checks_bounds.check_thm5_1_float_bound
check_thm5_2_float_bound = checks_bounds.check_thm5_2_float_bound
check_rem5_2_float_generic = checks_bounds.check_rem5_2_float_generic
check_thm5_3_float_generic = checks_bounds.check_thm5_3_float_generic
check_lemd_1_float_rates = checks_concentration.check_lemd_1_float_rates
check_eq4_3_float_generic = checks_pregd.check_eq4_3_float_generic
check_fig1b_paper = checks_fig1b.check_fig1b_paper
check_fig1b_mc = checks_fig1b.check_fig1b_mc
FIG1B_OLS_PRINTED = checks_fig1b.FIG1B_OLS_PRINTED
FIG1B_MC_PRINTED = checks_fig1b.FIG1B_MC_PRINTED
check_fig2c_order = checks_fig2c.check_fig2c_order
check_fig2c_mc = checks_fig2c.check_fig2c_mc
FIG2C_ETA = checks_fig2c.FIG2C_ETA

#: Old module name -> its section module (the generic-point and figure checks went to their
#: sections; their old names resolve to this package, which re-exports those checks).
MOVED: dict[str, str] = {
    "numerics.sparse_multihead.checks_theorems": "numerics.sparse_multihead.checks_bounds",
    "numerics.sparse_multihead.checks_generic": "numerics.sparse_multihead",
    "numerics.sparse_multihead.checks_figures": "numerics.sparse_multihead",
}
alias_modules(MOVED)

__all__ = [
    "excess_risk",
    "excess_risk_samples",
    "tuned_risks",
    "METHODS",
    "DivergedContextsError",
    "checks_baselines",
    "checks_bayes",
    "checks_bounds",
    "checks_concentration",
    "checks_constructions",
    "checks_data",
    "checks_decomposition",
    "checks_fig1b",
    "checks_fig2c",
    "checks_pregd",
    "GENERIC",
    "check_thm5_1_float_bound",
    "check_thm5_2_float_bound",
    "check_lemd_1_float_rates",
    "check_rem5_2_float_generic",
    "check_eq4_3_float_generic",
    "check_thm5_3_float_generic",
    "check_fig1b_paper",
    "check_fig1b_mc",
    "check_fig2c_order",
    "check_fig2c_mc",
    "FIG1B_OLS_PRINTED",
    "FIG1B_MC_PRINTED",
    "FIG2C_ETA",
]
