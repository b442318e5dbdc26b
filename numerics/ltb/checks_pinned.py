"""Pinned values of the zwb24 bounds at generic points (issue 20): each bound that the other checks
test only as "holds" gets its value compared with an independent computation (the expression
written out again here, from quantities built by construction), and an attained one its
attainment.

Generic points: no parameter at 0 or 1 where it is a factor (H, Ψ non-identity and non-diagonal,
N = 7, σ² = 0.37, t = 0.8, λ_i spread on both sides of σ²/N), so every factor and exponent shows.
The planted faults (``numerics.ltb.faults``) are one-token slips of the guarded formulas.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from numerics.ltb.optim import inf_lsa
from numerics.testing import FLOAT_RTOL, OPTIM_RTOL, close_agreement, ordering
from theory.common.protocols import Evidence
from theory.ltb import (
    beta_rate_bound,
    cor62_bounds,
    gap_exact_d1_noiseless,
    gap_lower_bound,
    gap_lower_bound_simplified,
    lsa_risk_floor,
    optimal_risk,
    optimal_risk_eig,
    sum_min,
    whiten,
)

__all__ = ["check_thm4_1_float_pinned", "check_cor6_2_float_pinned",
           "check_thm6_3_rate_pinned"]

#: Relative tolerance of a closed form against the same expression written out again (float64).
PINNED_RTOL = 1e3 * FLOAT_RTOL

_V = np.linalg.qr(np.array([[1.0, 0.4, -0.3], [0.2, 1.1, 0.5], [-0.6, 0.3, 0.9]]))[0]
#: A generic feature covariance (eigenvalues 0.45, 1.3, 2.2 in a non-axis basis).
H_GENERIC = _V @ np.diag([0.45, 1.3, 2.2]) @ _V.T
#: A generic task covariance (non-diagonal, not commuting with H).
PSI_GENERIC = np.array([[0.6, 0.15, -0.1], [0.15, 0.45, 0.05], [-0.1, 0.05, 0.8]])
BETA_GENERIC = np.array([1.3, -0.7, 0.4])
SIGMA2_GENERIC, N_GENERIC = 0.37, 7


def check_thm4_1_float_pinned(*, quick: bool = True, seed: int = 0,
                              fault_floor_fn: Callable[..., Any] | None = None,
                              fault_simplified_fn: Callable[..., Any] | None = None
                              ) -> list[Evidence]:
    """Thm 4.1 (ii) [derived floor] pinned: its value at a generic d = 3 point against
    ``σ² + 2(β*ᵀHβ* + Σ_ij H_ij Ψ_ji)/(N+2)`` written out here; ``L = floor − R*`` against the
    floor minus the eigen form of R*; and its attainment where the spec says it is attained
    (d = 1, σ = 0, at generic h = 1.7, ψ = 0.6, β* = 1.3, N = 7: BFGS inf_LSA equals the floor
    and ``inf_LSA − R*`` equals the exact gap ``2‖β*‖²_H/(N+2)``).  The simplified lower bound
    ``2(‖β*‖²_H − (r+1) tr HΨ − rσ²)/(N+2)`` is pinned at the generic point (r = 3) and at a
    rank-2 Ψ (r = 2, built so), and stays ≤ L there.  ``fault_floor_fn`` /
    ``fault_simplified_fn``: the function used in place of :func:`theory.ltb.lsa_risk_floor` /
    :func:`theory.ltb.gap_lower_bound_simplified` (negative controls)."""
    del quick
    floor = lsa_risk_floor if fault_floor_fn is None else fault_floor_fn
    simplified = (gap_lower_bound_simplified if fault_simplified_fn is None
                  else fault_simplified_fn)
    H, Psi, bs, s2, N = H_GENERIC, PSI_GENERIC, BETA_GENERIC, SIGMA2_GENERIC, N_GENERIC
    by_hand = s2 + 2 * (float(np.einsum("i,ij,j->", bs, H, bs))
                        + float(np.einsum("ij,ji->", H, Psi))) / (N + 2)
    val = float(floor(H, Psi, bs, s2, N))
    Hh = _V @ np.diag(np.sqrt([0.45, 1.3, 2.2])) @ _V.T
    r_eig = float(optimal_risk_eig(np.linalg.eigvalsh(Hh @ Psi @ Hh), s2, N))
    out = [close_agreement("LSA floor value at a generic point (d=3, N=7, sigma2=0.37) == "
                           "written-out formula", val, by_hand, kind="FLOAT",
                           atol=0.0, rtol=PINNED_RTOL),
           close_agreement("L = floor - R* at the generic point == floor - R* (eigen form)",
                           float(gap_lower_bound(H, Psi, bs, s2, N)), val - r_eig, kind="FLOAT",
                           atol=0.0, rtol=PINNED_RTOL)]
    bHb, trHP = float(np.einsum("i,ij,j->", bs, H, bs)), float(np.einsum("ij,ji->", H, Psi))
    psi2 = 0.6 * np.outer(_V[:, 0], _V[:, 0]) + 0.3 * np.outer(_V[:, 2], _V[:, 2])
    trHP2 = float(np.einsum("ij,ji->", H, psi2))
    for tag, P_, tr_, r in (("full-rank Psi, r = 3", Psi, trHP, 3),
                            ("rank-2 Psi, r = 2", psi2, trHP2, 2)):
        simp = float(simplified(H, P_, bs, s2, N))
        out.append(close_agreement(f"simplified lower bound at the generic point ({tag}) == "
                                   "2(|b*|_H^2 - (r+1) tr HPsi - r s2)/(N+2)", simp,
                                   2 * (bHb - (r + 1) * tr_ - r * s2) / (N + 2), kind="FLOAT",
                                   atol=0.0, rtol=PINNED_RTOL))
        out.append(ordering(f"simplified lower bound <= L at the generic point ({tag})", simp,
                            float(gap_lower_bound(H, P_, bs, s2, N)),
                            margin=PINNED_RTOL * abs(simp)))
    h, psi, b1, n1 = np.array([[1.7]]), np.array([[0.6]]), np.array([1.3]), 7
    P, mu = whiten(h, psi, b1)
    lsa = inf_lsa(P, mu, 0.0, n1, rng=np.random.default_rng(seed)).value
    at = float(floor(h, psi, b1, 0.0, n1))
    out.append(close_agreement("LSA floor attained (d=1, sigma=0, h=1.7, psi=0.6, |beta*|=1.3, "
                               "N=7): BFGS inf_LSA == floor", lsa, at, kind="FLOAT", atol=0.0,
                               rtol=OPTIM_RTOL))
    out.append(close_agreement("exact d=1 noiseless gap at the generic point == inf_LSA - R*",
                               float(gap_exact_d1_noiseless(float(b1 @ h @ b1), n1)),
                               lsa - float(optimal_risk(h, psi, 0.0, n1)), kind="FLOAT",
                               atol=0.0, rtol=OPTIM_RTOL))
    return out


def check_cor6_2_float_pinned(*, quick: bool = True, seed: int = 0,
                               fault_bounds_fn: Callable[..., Any] | None = None
                               ) -> list[Evidence]:
    """Corollary 6.2 [derived constants] pinned: ``Σ min(λ_i, σ²/N)`` and the bounds
    ``(Σmin/4, 2(1 + Σλ/σ²) Σmin)`` at generic λ = (0.7, 0.23, 1.9, 0.02), σ² = 0.37, N = 7
    (σ²/N = 0.0529: both branches of the min taken) against the sums written out here.
    ``fault_bounds_fn``: the bounds function used in place of :func:`theory.ltb.cor62_bounds`."""
    del quick, seed
    bounds = cor62_bounds if fault_bounds_fn is None else fault_bounds_fn
    lams, s2, N = (0.7, 0.23, 1.9, 0.02), SIGMA2_GENERIC, N_GENERIC
    sm = 0.0
    for lam in lams:
        sm += lam if lam < s2 / N else s2 / N
    kappa = sum(lams) / s2
    lo, hi = bounds(lams, s2, N)
    return [
        close_agreement("sum_i min(lambda_i, sigma2/N) at generic lambda == written-out sum",
                        float(sum_min(lams, s2, N)), sm, kind="FLOAT", atol=0.0,
                        rtol=PINNED_RTOL),
        close_agreement("Cor 6.2 lower bound value == (1/4) sum min", float(lo), sm / 4,
                        kind="FLOAT", atol=0.0, rtol=PINNED_RTOL),
        close_agreement("Cor 6.2 upper bound value == 2(1 + kappa) sum min, kappa = sum "
                        "lambda/sigma2", float(hi), 2 * (1 + kappa) * sm, kind="FLOAT", atol=0.0,
                        rtol=PINNED_RTOL),
    ]


def check_thm6_3_rate_pinned(*, quick: bool = True, seed: int = 0,
                             fault_rate_fn: Callable[..., Any] | None = None
                             ) -> list[Evidence]:
    """Thm 6.3 β-rate bound [derived] pinned: ``exp(−4λ⁺_min t/(N+1)) ‖P_H(β₀ − β*)‖²`` at a
    generic singular H (eigenvalues 0, 0.45, 2.2 in a non-axis basis, so λ⁺_min = 0.45 and P_H
    are known by construction), t = 0.8, N = 7, against the expression written out here.
    ``fault_rate_fn``: the function used in place of :func:`theory.ltb.beta_rate_bound`."""
    del quick, seed
    rate = beta_rate_bound if fault_rate_fn is None else fault_rate_fn
    H = _V @ np.diag([0.0, 0.45, 2.2]) @ _V.T
    PH = _V[:, 1:] @ _V[:, 1:].T
    b0, bs, t, N = np.array([0.9, -1.2, 0.3]), BETA_GENERIC, 0.8, N_GENERIC
    e = PH @ (b0 - bs)
    by_hand = float(np.exp(-4 * 0.45 * t / (N + 1)) * (e @ e))
    return [close_agreement("beta-rate bound value at a generic singular H (t=0.8, N=7) == "
                            "written-out formula", float(rate(t, b0, H, bs, N)), by_hand,
                            kind="FLOAT", atol=0.0, rtol=PINNED_RTOL)]
