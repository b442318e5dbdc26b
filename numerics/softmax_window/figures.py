"""[collins24] the numbers behind the figures that need no training (one ``compute_<suffix>`` per
figure ``sims.figures.softmax_window.fig_<suffix>``, which only draws them): Theorem 3.4's ω*
against Λ, Theorem 3.5's transfer curves, and Fig. 1's attention weights and error against n.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from numerics.softmax_window.api import fig1_errors
from numerics.softmax_window.quadrature import optimal_scale_affine, window_terms
from numerics.testing import loglog_slope
from theory.softmax_window import (
    affine_optimum_asymptote,
    signal_functional,
    thm34_bracket,
    transfer_risk,
)

__all__ = ["compute_optimum_omega_lambda", "compute_transfer_curves", "compute_1b", "compute_1c"]


def compute_optimum_omega_lambda(
    *, quick: bool = True, seed: int = 0, d: int = 3, n: int = 2000
) -> dict[str, Any]:
    """Theorem 3.4: quadrature ω* over Λ (affine), its log-log slope, the R0.8 asymptote and the
    bracket's exponents (and the paper's 2/(d+4))."""
    lams = np.geomspace(500, 8e5, 5 if quick else 9)
    ws = np.array([optimal_scale_affine(d, n, 1.0, n / lam)[0] for lam in lams])
    lo, hi = thm34_bracket(d, "affine")
    return {
        "d": d,
        "n": n,
        "lams": lams,
        "omegas": ws,
        "slope": loglog_slope(lams, ws),
        "asymptote": np.array([affine_optimum_asymptote(lam, d) for lam in lams]),
        "bracket": (float(lo), float(hi)),
        "paper_exponent": 2 / (d + 4),
    }


def compute_transfer_curves(
    *,
    quick: bool = True,
    seed: int = 0,
    d: int = 5,
    n: int = 20,
    sigma2: float = 1e-4,
    pretrained: tuple[float, ...] = (0.03, 0.1, 1.0),
) -> dict[str, Any]:
    """Theorem 3.5: the envelope 𝓛*(L′) and, per pretraining L, ω_L and the exact transfer curve
    L′²S(ω_L) + σ²N(ω_L) (quadrature)."""
    Lps = np.geomspace(0.01, 3.0, 10 if quick else 25)
    env = np.array([optimal_scale_affine(d, n, float(Lp), sigma2)[1] for Lp in Lps])
    curves = {}
    for L in pretrained:
        w = optimal_scale_affine(d, n, L, sigma2)[0]
        wt = window_terms(w, n, d)
        S = signal_functional(wt.A, d)
        curves[L] = (w, np.array([transfer_risk(float(Lp), S, wt.N, sigma2) for Lp in Lps]))
    return {"d": d, "n": n, "sigma2": sigma2, "Lps": Lps, "envelope": env, "curves": curves}


def compute_1b(*, quick: bool = True, seed: int = 0, d: int = 2, n: int = 20) -> dict[str, Any]:
    """Fig. 1 (middle row), population version: relative softmax weight e^{ω*(cos Δθ − 1)} of the
    affine optima at σ ∈ {1, .1, .01}, and linear attention's cos Δθ."""
    th = np.linspace(-np.pi, np.pi, 400)
    soft = {}
    for s in (1.0, 0.1, 0.01):
        w = optimal_scale_affine(d, n, 1.0, s * s)[0]
        k = np.exp(w * (np.cos(th) - 1))
        soft[s] = (w, k / k.max())
    return {"d": d, "n": n, "theta": th, "softmax": soft, "linear": np.cos(th)}


def compute_1c(*, quick: bool = True, seed: int = 0, sigma2: float = 0.01) -> dict[str, Any]:
    """Fig. 1 (bottom row), population version: MC ICL error of the optimal softmax unit and of
    the best linear attention against n for the hills cos(νθ − b), ν ∈ {0, 1.5, 6}."""
    rng = np.random.default_rng(seed)
    ns = np.array([5, 10, 20, 50] if quick else [5, 10, 20, 50, 100, 200])
    rows = {
        nu: [fig1_errors(nu, int(n), sigma2, rng, reps=4000 if quick else 20_000) for n in ns]
        for nu in (0.0, 1.5, 6.0)
    }
    return {"ns": ns, "rows": rows}
