"""[collins24] the numbers behind the figures that need no training (one ``compute_<suffix>`` per
figure ``sims.figures.collins24.fig_<suffix>``, which only draws them): Theorem 3.4's ω*
against Λ, Theorem 3.5's transfer curves, and Fig. 1's attention weights and error against n.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from numerics.collins24.api import fig1_errors
from numerics.collins24.quadrature import ARGMIN_RTOL, optimal_scale_affine, window_terms
from numerics.testing import loglog_slope
from theory.collins24 import (
    affine_optimum_asymptote,
    signal_functional,
    thm34_bracket,
    transfer_risk,
)

__all__ = ["compute_optimum_omega_lambda", "compute_transfer_curves", "compute_1b", "compute_1c"]


def compute_optimum_omega_lambda(
    *,
    quick: bool = True,
    seed: int = 0,
    d: int = 3,
    n: int = 2000,
    lams: ArrayLike | None = None,
) -> dict[str, Any]:
    """Theorem 3.4: quadrature ω* over Λ (affine; L = 1, σ² = n/Λ), its log-log slope, the [derived]
    asymptote and the bracket's exponents (and the paper's 2/(d+4)).  ``lams`` is the Λ grid
    (default: the figure's, 5 points of [500, 8e5] quick, 9 full); the check
    :func:`numerics.collins24.sec3_optimum.check_thm3_4_rate` passes its own."""
    grid = np.geomspace(500, 8e5, 5 if quick else 9) if lams is None else np.asarray(lams, float)
    ws = np.array([optimal_scale_affine(d, n, 1.0, n / lam)[0] for lam in grid])
    lo, hi = thm34_bracket(d, "affine")
    return {
        "d": d,
        "n": n,
        "lams": grid,
        "omegas": ws,
        "slope": loglog_slope(grid, ws),
        "asymptote": np.array([affine_optimum_asymptote(lam, d) for lam in grid]),
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
    pretrained: Sequence[float] = (0.03, 0.1, 1.0),
    Lps: ArrayLike | None = None,
    rtol: float = ARGMIN_RTOL,
    envelope_rtol: float = ARGMIN_RTOL,
    fault_pretrain_shift: float | None = None,
) -> dict[str, Any]:
    """Theorem 3.5: the envelope 𝓛*(L′) and, per pretraining L, ω_L and the exact transfer curve
    L′²S(ω_L) + σ²N(ω_L) (quadrature) over the test grid ``Lps`` (default: the figure's, 10
    points of [0.01, 3] quick, 25 full).  ``rtol`` / ``envelope_rtol`` are the argmin tolerances
    of ω_L and of the envelope; ``fault_pretrain_shift`` multiplies ω_L (a mis-set scale: the
    negative control of :func:`numerics.collins24.sec3_optimum.check_thm3_5_quad`, which
    calls this on its own grid)."""
    grid = np.geomspace(0.01, 3.0, 10 if quick else 25) if Lps is None else np.asarray(Lps, float)
    f = 1.0 if fault_pretrain_shift is None else float(fault_pretrain_shift)
    env = np.array(
        [optimal_scale_affine(d, n, float(Lp), sigma2, rtol=envelope_rtol)[1] for Lp in grid]
    )
    curves = {}
    for L in pretrained:
        w = f * optimal_scale_affine(d, n, L, sigma2, rtol=rtol)[0]
        wt = window_terms(w, n, d)
        S = signal_functional(wt.A, d)
        curves[L] = (w, np.array([transfer_risk(float(Lp), S, wt.N, sigma2) for Lp in grid]))
    return {"d": d, "n": n, "sigma2": sigma2, "Lps": grid, "envelope": env, "curves": curves}


def compute_1b(
    *,
    quick: bool = True,
    seed: int = 0,
    d: int = 2,
    n: int = 20,
    sigmas: Sequence[float] = (1.0, 0.1, 0.01),
) -> dict[str, Any]:
    """Fig. 1 (middle row), population version: relative softmax weight e^{ω*(cos Δθ − 1)} of the
    affine optima ω* (quadrature, L = 1) at σ ∈ ``sigmas``, and linear attention's cos Δθ.  The
    window's adaptation (ω* decreasing in σ) is judged by
    :func:`numerics.collins24.sec3_optimum.check_thm3_4_order`, which calls this at its
    own d, n and σ ∈ {1, .3, .1}."""
    th = np.linspace(-np.pi, np.pi, 400)
    soft = {}
    for s in sigmas:
        w = optimal_scale_affine(d, n, 1.0, s * s)[0]
        k = np.exp(w * (np.cos(th) - 1))
        soft[s] = (w, k / k.max())
    return {"d": d, "n": n, "theta": th, "softmax": soft, "linear": np.cos(th)}


def compute_1c(
    *,
    quick: bool = True,
    seed: int = 0,
    sigma2: float = 0.01,
    nus: Sequence[float] = (0.0, 1.5, 6.0),
    ns: ArrayLike | None = None,
    reps: int | None = None,
    reps_at: Mapping[tuple[float, int], int] | None = None,
    rng: np.random.Generator | None = None,
) -> dict[str, Any]:
    """Fig. 1 (bottom row), population version: MC ICL error of the optimal softmax unit and of
    the best linear attention against n for the hills cos(νθ − b), ν ∈ ``nus``
    (:func:`numerics.collins24.api.fig1_errors`; ``rows[ν]`` = one (softmax, linear, ω*) per
    n, drawn from ``rng`` ν-major).  Defaults are the figure's (n ∈ {5, 10, 20, 50} quick, up to
    200 full; 4000 / 20 000 reps; ``default_rng(seed)``); ``reps_at[(ν, n)]`` overrides the reps
    at one point.  The check :func:`sims.collins24.sec3_linear.check_fig1_order` calls this
    on its own grid and stream."""
    rng = np.random.default_rng(seed) if rng is None else rng
    grid = np.array(([5, 10, 20, 50] if quick else [5, 10, 20, 50, 100, 200]) if ns is None else ns)
    reps = (4000 if quick else 20_000) if reps is None else reps
    at = {} if reps_at is None else reps_at
    rows = {
        nu: [fig1_errors(nu, int(n), sigma2, rng, reps=at.get((nu, int(n)), reps)) for n in grid]
        for nu in nus
    }
    return {"ns": grid, "rows": rows}
