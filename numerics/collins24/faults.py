"""[collins24] planted one-token faults of theory formulas, named by the declared negative
controls (the functions themselves, in ``sims/collins24/results.py``).

Each is the guarded formula with exactly one token changed; the check that takes it must fail.
"""

from __future__ import annotations

import math
from typing import Any

from theory.collins24 import signal_functional, t_density_constant

__all__ = [
    "lambda_linear_in_L",
    "la_floor_over_4",
    "thm44_bound_cu_linear",
    "affine_split_L_linear",
    "g3_scale_alpha_power_d_plus_2",
    "gp_asymptote_minus_p",
]


def lambda_linear_in_L(n: Any, L: Any, sigma2: Any) -> Any:
    """Λ = nL/σ² (the square on L dropped) in place of Theorem 3.4's nL²/σ²."""
    return n * L / sigma2


def la_floor_over_4(L: Any) -> Any:
    """L²/4 (3 → 4) in place of Theorem 3.6's floor L²/3: a lower floor."""
    return L**2 / 4.0


def thm44_bound_cu_linear(case: str, c_u: float = 1.0) -> float:
    """C_b/c_u (the square on c_u dropped) in place of Theorem 4.4's C_b/c_u²."""
    return (2.0 if case == "sigma0" else 1.0) / c_u


def affine_split_L_linear(A: Any, N: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """(L/3d) A + σ²N (the square on L dropped) in place of the affine split (L²/3d) A + σ²N."""
    return L * signal_functional(A, d) + sigma2 * N


def g3_scale_alpha_power_d_plus_2(d: int, alpha: float) -> float:
    """Γ(d+1)/α^{d+2} (d + 1 → d + 2) in place of Lemma G.3's scale Γ(d+1)/α^{d+1}."""
    return math.gamma(d + 1) / alpha ** (d + 2)


def gp_asymptote_minus_p(p: float, r: float, d: int, n: int) -> float:
    """The Laplace asymptote of E g_p(r) with k = (d−1−p)/2 (+p → −p) in place of (d−1+p)/2."""
    k = (d - 1 - p) / 2
    return n * math.gamma(k) * t_density_constant(d) * 2 ** ((d - 3 + p) / 2) * (2 * r) ** (-k)
