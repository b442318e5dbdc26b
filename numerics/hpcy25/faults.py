"""Planted faults of the hpcy25 checks (negative controls), declared by
``sims/hpcy25/results.py`` as the objects themselves.

Each is a one-token transcription slip of the formula a check guards; none is used outside the
controls.
"""

from __future__ import annotations

from typing import Any

__all__ = ["gap_bound_without_one", "limit_denominator_without_one", "reduced_rhs_s_squared"]


def gap_bound_without_one(xi: Any, sigma2: Any) -> Any:
    """``ξ/(1 + ξσ²)`` in place of the proven bound ``ξ/(1 + ξ(1+σ²))`` on ``R_DGD∞ − R_B∞`` (the
    ``1 +`` inside the bracket dropped; still an upper bound, only looser).  Fault of
    ``check_thm4_2iii_float_values``."""
    return xi / (1 + xi * sigma2)


def limit_denominator_without_one(xi: Any, sigma2: Any) -> Any:
    """``σ² + ξ(1+σ²)/(1 + ξσ²)`` in place of (D.33)'s ``σ² + ξ(1+σ²)/(1 + ξ(1+σ²))`` (the ``1 +``
    of the denominator's bracket dropped).  Fault of ``check_thm4_2iii_float_values``."""
    return sigma2 + xi * (1 + sigma2) / (1 + xi * sigma2)


def reduced_rhs_s_squared(t_: Any, y: Any, d: Any, L: Any, sigma2: Any, s: Any = 1.0) -> Any:
    """The reduced flow (B.4) with the time scale squared (``s**2`` for ``s``): invisible at
    ``s = 1``.  Fault of ``check_appb_ode``."""
    from theory.hpcy25 import reduced_rhs_fn

    return reduced_rhs_fn(t_, y, d, L, sigma2, s**2)
