"""Planted faults of the zwb24 checks (negative controls), named by the declared checks of
:mod:`theory.ltb.results` through ``Ref("numerics.ltb.faults:<name>")``.

Each is a plausible transcription slip of the formula a check guards; the check rerun with it
must fail.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from theory.ltb import optimal_gamma

__all__ = ["gamma_without_finite_sample_factor", "gamma_infinite_N"]


def gamma_without_finite_sample_factor(H: Any, Psi: Any, sigma2: Any, N: Any) -> Any:
    """Wrong: Thm 5.2's Γ* with Ω's ``(N+1)/N`` replaced by 1 (a one-token slip N+1 -> N)."""
    return optimal_gamma(H, Psi, sigma2, N, finite_sample_factor=False)


def gamma_infinite_N(H: Any, Psi: Any, sigma2: Any, N: Any) -> Any:
    """Wrong: Γ* with every finite-N term dropped (the N -> ∞ limit ``H⁻¹``); large enough for a
    Monte Carlo route at N = 5 to see (the missing ``(N+1)/N`` alone costs ~1 % of R* there,
    below 5 standard errors)."""
    del Psi, sigma2, N
    return np.linalg.pinv(np.asarray(H, dtype=float))
