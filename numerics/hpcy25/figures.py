"""[hpcy25] the numbers of the figures that do not train (drawn by
:mod:`sims.figures.hpcy25`): Fig. 4(b) (estimators at fixed parameters vs test
length), Fig. 6 (true vs approximate loss landscape), Fig. 22 (two-head ODE phases), and the ridge
(Bayes) curve of Fig. 4(a).  Each ``compute_*`` returns a dict of arrays; no checks here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

import theory.hpcy25 as th
from numerics.hpcy25.flows import STIFF, reduced_flow
from numerics.hpcy25.mc import ltilde_landscape_mc, risk_mc
from numerics.hpcy25.predictors import dgd_weights, gd_weights, ridge_weights, tf_weights
from numerics.montecarlo import Target

__all__ = [
    "FIG_SETTING",
    "FIG4B_ESTIMATORS",
    "compute_ridge_curve",
    "compute_4b",
    "compute_6",
    "compute_22",
]

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


#: Fig. 4(b)'s estimators, in the figure's column order.
FIG4B_ESTIMATORS = ("two-head TF", "single-head TF", "GD", "DGD", "ridge")


def compute_4b(
    *,
    quick: bool = True,
    seed: int = 0,
    Lps: Sequence[int] = (10, 20, 40, 60, 80, 100),
    d: int = _D,
    sigma2: float = _S2,
    eta: float = 0.897,
    estimators: Sequence[str] = FIG4B_ESTIMATORS,
    n: int | None = None,
    rng: np.random.Generator | None = None,
    task_var: float | None = None,
    closed_forms: bool = True,
    target_se: Target = None,
) -> dict[str, Any]:
    """Fig. 4(b): MC risks vs ``L'`` (``estimates[i][j]``: test length ``Lps[i]``, estimator
    ``estimators[j]``, one risk_mc pass on common prompts per length; ``mc`` their means) of the
    two-head TF (0.13, 3.45), the single-head TF (1/√5, 1.6277), GD and DGD with step ``eta`` and
    ridge (λ = dσ²), and the GD/DGD closed forms on a fine grid (``closed_forms``).  Defaults are
    the figure's (d = 5, σ² = 0.1, η = 0.897, 4000 prompts quick, ``default_rng(seed)``);
    :func:`numerics.hpcy25.appD_optimality.check_eqd_29_mc` passes its own lengths,
    estimators, prompts and stream, its fault ``task_var`` (the β prior of the sampled
    prompts) and its power target ``target_se`` (:func:`~numerics.montecarlo.mc_means`: a
    length short of it draws on, up to ``MAX_RAISE`` times ``n``)."""
    rng = np.random.default_rng(seed) if rng is None else rng
    n = (4000 if quick else 50_000) if n is None else n
    w1, m1 = 1 / np.sqrt(_D), 1.6277
    fns = {
        "two-head TF": lambda X, q: tf_weights(X, q, [0.13, -0.13], [3.45, -3.45]),
        "single-head TF": lambda X, q: tf_weights(X, q, [w1], [m1]),
        "GD": lambda X, q: gd_weights(X, q, eta),
        "DGD": lambda X, q: dgd_weights(X, q, eta),
        "ridge": lambda X, q: ridge_weights(X, q, d * sigma2),
    }
    est = [
        risk_mc(
            [fns[k] for k in estimators],
            d=d,
            L=Lp,
            sigma2=sigma2,
            n=n,
            rng=rng,
            task_var=task_var,
            target_se=target_se,
        )
        for Lp in Lps
    ]
    out: dict[str, Any] = {
        "Lps": list(Lps),
        "estimators": list(estimators),
        "estimates": est,
        "mc": np.array([[e.mean for e in row] for row in est]),
    }
    if closed_forms:
        xs = np.arange(5, 101)
        out |= {
            "xs": xs,
            "gd": th.gd_risk(eta, d, xs, sigma2),
            "dgd": th.dgd_risk(eta, d, xs, sigma2),
        }
    return out


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
    points and 5000 prompts quick, 20 × 20 and 10 000 full, ``default_rng(seed)``
    setting); :func:`numerics.hpcy25.sec4_1_approx_loss.check_prop4_1_mc` passes its own
    grid, sample size and stream, and its faults: ``task_var`` (the β prior of the sampled
    prompts) and ``kernel_scale`` (of ``L̃``, :func:`theory.hpcy25.ltilde_fn`)."""
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
    points of [0, 12], 600 of [0, 30]; ε = 1e-3, our setting);
    :func:`numerics.hpcy25.appB_flow.check_appb_phases_ode` passes its own."""
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
