"""[czz24] numerics (slug sparse_multihead): samplers, literal predictors, Monte Carlo risks and the
checks of every result.  Public API: :func:`excess_risk` (MC ``E‖ŵ − w*‖²`` for Σ = I)."""

from __future__ import annotations

from numerics.sparse_multihead import (
    checks_baselines,
    checks_bayes,
    checks_concentration,
    checks_constructions,
    checks_data,
    checks_decomposition,
    checks_figures,
    checks_pregd,
    checks_theorems,
)
from numerics.sparse_multihead.risk import (
    METHODS,
    DivergedContextsError,
    excess_risk,
    excess_risk_samples,
    tuned_risks,
)

__all__ = ["excess_risk", "excess_risk_samples", "tuned_risks", "METHODS",
           "DivergedContextsError", "checks_baselines", "checks_bayes", "checks_concentration",
           "checks_constructions", "checks_data", "checks_decomposition", "checks_figures",
           "checks_pregd",
           "checks_theorems"]
