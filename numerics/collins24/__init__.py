"""[collins24] numerics: routes and checks.

Routes (no checks): :mod:`.quadrature` (the exact [derived] quadrature of A(ω), N(ω); the 1-NN limit
by scipy's incomplete beta), :mod:`.sampling` (sphere covariates, task classes, prompts),
:mod:`.predictors` (literal softmax / linear / hard-window predictors, Monte Carlo risks),
:mod:`.api` (the public :func:`optimal_scale`).  Checks, one module per paper section
(the keys of :data:`theory.collins24.SECTIONS`, the same file name on every floor):
:mod:`.sec2_reductions` (§2, App. B), :mod:`.appD_asymptotics`... see SECTIONS.
"""

from __future__ import annotations

from numerics.collins24.api import mc_risk_curve, optimal_scale, spline_argmin
from numerics.collins24.quadrature import (
    WindowTerms,
    a_infinity,
    affine_risk_quad,
    noise_term,
    optimal_scale_affine,
    t_cdf,
    window_terms,
)

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
