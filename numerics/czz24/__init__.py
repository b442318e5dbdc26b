"""[czz24] numerics: samplers, literal predictors, Monte Carlo risks and the checks of every
result, one module per section of :data:`theory.czz24.SECTIONS` (the same name on every floor).
Public API: :func:`excess_risk` (MC ``E‖ŵ − w*‖²`` for Σ = I).
"""

from __future__ import annotations

from numerics.czz24.risk import (
    METHODS,
    DivergedContextsError,
    excess_risk,
    excess_risk_samples,
    tuned_risks,
)

__all__ = [
    "excess_risk",
    "excess_risk_samples",
    "tuned_risks",
    "METHODS",
    "DivergedContextsError",
]
