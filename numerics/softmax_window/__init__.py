"""[collins24] numerics: routes and checks of the softmax_window slice.

Routes (no checks): :mod:`.quadrature` (the exact R0.3 quadrature of A(ω), N(ω); the 1-NN limit by
scipy's incomplete beta), :mod:`.sampling` (sphere covariates, task classes, prompts),
:mod:`.predictors` (literal softmax / linear / hard-window predictors, Monte Carlo risks),
:mod:`.api` (the public :func:`optimal_scale`).  Checks, one module per paper section
(``checks_<key>``, the keys of :data:`theory.softmax_window.SECTIONS`): :mod:`.checks_reductions`
(§2, App. B), :mod:`.checks_optimum` (§3 Theorems 3.4, 3.5), :mod:`.checks_linear` (Theorem 3.6,
Remark 2.2), :mod:`.checks_window` (§3.1, Lemma D.2), :mod:`.checks_appg` (App. G),
:mod:`.checks_signal` (App. B-C), :mod:`.checks_lowrank` (§4).
"""

from __future__ import annotations

import importlib
from typing import Any

from numerics.softmax_window.api import mc_risk_curve, optimal_scale, spline_argmin
from numerics.softmax_window.quadrature import (
    WindowTerms,
    a_infinity,
    affine_risk_quad,
    noise_term,
    optimal_scale_affine,
    t_cdf,
    window_terms,
)
from theory.common.aliases import alias_modules

__all__ = [
    "optimal_scale",
    "mc_risk_curve",
    "spline_argmin",
    "WindowTerms",
    "window_terms",
    "affine_risk_quad",
    "noise_term",
    "optimal_scale_affine",
    "a_infinity",
    "t_cdf",
]


#: The generic-point checks, each in its section's module; their old module name
#: (``checks_generic``, in :data:`MOVED`) resolves to this package, which finds them here.
GENERIC_CHECKS: dict[str, str] = {
    "check_thm3_4_float_lambda_generic": "numerics.softmax_window.checks_optimum",
    "check_thm3_6_float_floor_attained": "numerics.softmax_window.checks_linear",
    "check_thm4_4_float_scale_bound_generic": "numerics.softmax_window.checks_lowrank",
    "check_risk_affine_float_forms_generic": "numerics.softmax_window.checks_reductions",
}


def __getattr__(name: str) -> Any:
    """The generic-point checks by their old location (imported on first use)."""
    if name in GENERIC_CHECKS:
        return getattr(importlib.import_module(GENERIC_CHECKS[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Old module name -> the section module it moved to (the old names import the same objects).
MOVED: dict[str, str] = {
    "numerics.softmax_window.checks_msa": "numerics.softmax_window.checks_window",
    "numerics.softmax_window.checks_risk": "numerics.softmax_window.checks_reductions",
    "numerics.softmax_window.checks_generic": "numerics.softmax_window",
}
alias_modules(MOVED)
