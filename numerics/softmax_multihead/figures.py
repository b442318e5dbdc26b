"""[hpcy25] the numbers of the figures that do not train (drawn by
:mod:`sims.figures.softmax_multihead`): Fig. 4(b) (estimators at fixed parameters vs test
length), Fig. 6 (true vs approximate loss landscape), Fig. 22 (two-head ODE phases), and the ridge
(Bayes) curve of Fig. 4(a).  Each ``compute_*`` returns a dict of arrays; no checks here."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

import theory.softmax_multihead as th
from numerics.softmax_multihead.flows import STIFF, reduced_flow
from numerics.softmax_multihead.mc import ltilde_landscape_mc, risk_mc
from numerics.softmax_multihead.predictors import dgd_weights, gd_weights, ridge_weights, tf_weights

__all__ = ["FIG_SETTING", "compute_ridge_curve", "compute_4b", "compute_6", "compute_22"]

#: The setting of the figures (spec 001 §1.1: d = 5, L = 40, σ² = 0.1).
FIG_SETTING: dict[str, Any] = {"d": 5, "L": 40, "sigma2": 0.1}
_D, _L, _S2 = FIG_SETTING["d"], FIG_SETTING["L"], FIG_SETTING["sigma2"]


def compute_ridge_curve(Lps: list[int], *, n: int, seed: int) -> np.ndarray:
    """Ridge (Bayes, λ = dσ²) risk by Monte Carlo at each test length in ``Lps`` (Fig. 4(a))."""
    rng = np.random.default_rng(seed)
    return np.array(
        [
            risk_mc(
                [lambda X, q: ridge_weights(X, q, _D * _S2)], d=_D, L=Lp, sigma2=_S2, n=n, rng=rng
            )[0].mean
            for Lp in Lps
        ]
    )


def compute_4b(*, quick: bool = True, seed: int = 0) -> dict[str, Any]:
    """Fig. 4(b): MC risks vs ``L'`` of the two-head TF (0.13, 3.45), the single-head TF
    (1/√5, 1.6277), GD and DGD with η = 0.897 and ridge (columns in that order), and the GD/DGD
    closed forms on a fine grid."""
    rng = np.random.default_rng(seed)
    Lps = [10, 20, 40, 60, 80, 100]
    n = 4000 if quick else 50_000
    w1, m1 = 1 / np.sqrt(_D), 1.6277
    mc = np.array(
        [
            [
                e.mean
                for e in risk_mc(
                    [
                        lambda X, q: tf_weights(X, q, [0.13, -0.13], [3.45, -3.45]),
                        lambda X, q: tf_weights(X, q, [w1], [m1]),
                        lambda X, q: gd_weights(X, q, 0.897),
                        lambda X, q: dgd_weights(X, q, 0.897),
                        lambda X, q: ridge_weights(X, q, _D * _S2),
                    ],
                    d=_D,
                    L=Lp,
                    sigma2=_S2,
                    n=n,
                    rng=rng,
                )
            ]
            for Lp in Lps
        ]
    )
    xs = np.arange(5, 101)
    return {
        "Lps": Lps,
        "mc": mc,
        "xs": xs,
        "gd": th.gd_risk(0.897, _D, xs, _S2),
        "dgd": th.dgd_risk(0.897, _D, xs, _S2),
    }


def compute_6(
    *,
    quick: bool = True,
    seed: int = 0,
    omegas: ArrayLike | None = None,
    mus: ArrayLike | None = None,
    n: int | None = None,
    rng: np.random.Generator | None = None,
    d: int = _D,
    L: int = _L,
    sigma2: float = _S2,
    task_var: float | None = None,
    kernel_scale: float | None = None,
) -> dict[str, Any]:
    """Fig. 6: the true two-head loss (MC mean ``mc`` and standard error ``se``) and ``L̃`` on
    ω ∈ [0, 0.2] × μ ∈ [0, 6], and the valley ``μ = m*(ω)``.  Defaults are the figure's (10 × 10
    points and 5000 prompts quick, 20 × 20 and 10 000 full, ``default_rng(seed)``, spec 001 §1.1's
    setting); :func:`numerics.softmax_multihead.checks_approx_loss.check_prop4_1_mc` passes its own
    grid, sample size and stream, and its faults: ``task_var`` (the β prior of the sampled
    prompts) and ``kernel_scale`` (of ``L̃``, :func:`theory.softmax_multihead.ltilde_fn`)."""
    om = np.linspace(0, 0.2, 10 if quick else 20) if omegas is None else np.asarray(omegas)
    mu = np.linspace(0, 6, 10 if quick else 20) if mus is None else np.asarray(mus)
    mc, se = ltilde_landscape_mc(
        om,
        mu,
        d=d,
        L=L,
        sigma2=sigma2,
        n=(5000 if quick else 10_000) if n is None else n,
        rng=np.random.default_rng(seed) if rng is None else rng,
        task_var=task_var,
    )
    W, M = np.meshgrid(om, mu, indexing="ij")
    ws = om[1:]
    return {
        "omegas": om,
        "mus": mu,
        "mc": mc,
        "se": se,
        "ltilde": th.ltilde_fn([W, -W], [M, -M], d, L, sigma2, kernel_scale),
        "valley_omega": ws,
        "valley_mu": th.m_star(ws, d, L, sigma2),
    }


def compute_22(
    *,
    quick: bool = True,
    seed: int = 0,
    T: float | None = None,
    eps: float = 1e-3,
    d: float = _D,
    L: float = _L,
    sigma2: float = _S2,
    t: ArrayLike | None = None,
    te: ArrayLike | None = None,
    tt: ArrayLike | None = None,
) -> dict[str, Any]:
    """Fig. 22: the two-head ODE (B.4) from ε (s = 1) on [0, ``T``] (``flow``, the dense
    trajectory) on a log grid (``t``, ``y``), the early grid (``te``, ``ye``) and the linear grid
    (``tt``, ``yy``), with the late laws, the Phase-I exponential, L̃ along the flow and m*(ω).
    Defaults are the figure's (T = 1e5 quick, 1e6 full; 600 log-spaced points of [0.1, T], 400
    points of [0, 12], 600 of [0, 30]; ε = 1e-3, spec 001 §1.1's setting);
    :func:`numerics.softmax_multihead.checks_flow.check_appb_phases_ode` passes its own."""
    T = (1e5 if quick else 1e6) if T is None else T
    tr = reduced_flow(T, eps=eps, d=d, L=L, sigma2=sigma2, solver=STIFF)
    tg = np.logspace(-1, np.log10(T), 600) if t is None else np.asarray(t, float)
    tl = tg[tg > 100]
    eg = np.linspace(0, 12, 400) if te is None else np.asarray(te, float)
    lg = np.linspace(0, 30, 600) if tt is None else np.asarray(tt, float)
    yy = tr(lg)
    ok = yy[:, 0] > 1e-3
    return {
        "flow": tr,
        "t": tg,
        "y": tr(tg),
        "tl": tl,
        "late_mu": th.late_mu_law(tl, d, L, sigma2),
        "heuristic_omega": th.heuristic_late_omega(tl, d, L, sigma2),
        "te": eg,
        "ye": tr(eg),
        "phase1": th.phase1_omega(eg[eg < 3], eps),
        "tt": lg,
        "yy": yy,
        "ltilde": th.ltilde_reduced(yy[:, 0], yy[:, 1], d, L, sigma2),
        "ltilde_inf": th.ltilde_inf(d, L, sigma2),
        "eta_star": th.eta_star(d, L, sigma2),
        "ok": ok,
        "m_star": th.m_star(yy[ok, 0], d, L, sigma2),
    }
