"""zwb24 figures (spec 002 §4): Table 1's message at CPU scale, the gap vs ‖β*‖ and N, the rates
of Lemma 6.1 / Corollary 6.2, and GD-β flow trajectories.

Theory: solid lines; ODE: dashed; simulations: markers with ±2·se bars; rates on log-log axes with
the fitted slope in the legend.  Built with ``matplotlib.figure.Figure`` (never pyplot).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure
from scipy import stats

from numerics.ltb.flow import flow_trajectory
from numerics.ltb.optim import gap_grid, table1_levels
from numerics.ltb.sampling import power_law_spectrum, random_setting
from sims.experiments.ltb import PRESETS, trained
from theory import ltb as T

__all__ = ["fig_gap_scaling", "fig_rates", "fig_flow", "fig_table1_training"]


def _slope(x: Any, y: Any) -> float:
    fit: Any = stats.linregress(np.log(x), np.log(y))  # scipy's stub types it as a bare tuple
    return float(fit.slope)


def fig_gap_scaling(*, quick: bool = True, seed: int = 0) -> Figure:
    """Thm 4.1: ``inf_LSA − R*`` (BFGS), ``L``, ``U`` and the GD-0 gap vs ‖β*‖ (N = 20) and vs N
    (‖β*‖ = 2), ``H = Ψ = I_2``, σ = 0.5, log-log with fitted slopes."""
    fig = Figure(figsize=(10, 4))
    ax1, ax2 = fig.subplots(1, 2)
    s2, d = 0.25, 2
    I = np.eye(d)
    mus = np.array([0.5, 1, 2, 4] if quick else [0.25, 0.5, 1, 2, 4, 8])
    r = 0 if quick else 2
    g = gap_grid((20,), tuple(mus), seed=seed, restarts=r)[0]
    bounds = {name: [fn(I, I, m * np.ones(d) / np.sqrt(d), s2, 20) for m in mus]
              for name, fn in (("L", T.gap_lower_bound), ("U", T.gap_upper_bound),
                               ("GD0 gap", T.gd0_gap))}
    ax1.loglog(mus, g, "o", label=f"gap (BFGS), slope {_slope(mus, g):.2f}")
    for name, v in bounds.items():
        v = np.asarray(v)
        ok = v > 0
        ax1.loglog(mus[ok], v[ok], "-", label=name)
    ax1.set(xlabel="|beta*|", ylabel="gap", title="gap vs |beta*| (N = 20)")
    ax1.legend(fontsize=8)
    Ns = np.array([5, 10, 20, 40, 80] if quick else [5, 10, 20, 40, 80, 160, 320])
    gN = gap_grid(tuple(int(n) for n in Ns), (2.0,), seed=seed, restarts=r)[:, 0]
    ax2.loglog(Ns, gN, "o", label=f"gap (BFGS), slope (last 3) {_slope(Ns[-3:], gN[-3:]):.2f}")
    for name, fn in (("L", T.gap_lower_bound), ("U", T.gap_upper_bound), ("GD0 gap", T.gd0_gap)):
        v = np.array([fn(I, I, 2 * np.ones(d) / np.sqrt(d), s2, int(n)) for n in Ns])
        ok = v > 0
        ax2.loglog(Ns[ok], v[ok], "-", label=name)
    ax2.set(xlabel="N", ylabel="gap", title="gap vs N (|beta*| = 2); theory slope -1")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    return fig


def fig_rates(*, quick: bool = True, seed: int = 0) -> Figure:
    """Lemma 6.1 / Cor 6.2: ``R* − σ²`` and ``Σ min(λ_i, σ²/N)`` (and the Cor 6.2 band) vs N for a
    power-law spectrum ``λ_i ∝ i^{-2}``, ``tr = σ²/2``, d = 4000."""
    fig = Figure(figsize=(11, 4))
    ax, ax2 = fig.subplots(1, 2)
    s2 = 1.0
    lam = power_law_spectrum(4000, 2.0, s2 / 2)
    Ns = np.unique(np.geomspace(10, 3000 if quick else 30000, 25).astype(int))
    ex = np.array([T.optimal_risk_eig(lam, s2, int(n)) - s2 for n in Ns])
    sm = np.array([T.sum_min(lam, s2, int(n)) for n in Ns])
    lo, hi = np.array([T.cor62_bounds(lam, s2, int(n)) for n in Ns]).T
    big = Ns > 300
    ax.loglog(Ns, ex, "-", label=f"R* - sigma^2, slope (N>300) {_slope(Ns[big], ex[big]):.2f}")
    ax.loglog(Ns, sm, "--",
              label=f"sum min(lambda_i, sigma^2/N), slope {_slope(Ns[big], sm[big]):.2f}")
    ax.fill_between(Ns, lo, hi, alpha=0.15, label="Cor 6.2 band [1/4, 2(1+kappa)] x sum min")
    ax.set(xlabel="N", ylabel="excess risk", title="Cor 6.2, d=4000, alpha=2 (slope -1/2)")
    ax.legend(fontsize=7)
    # Lemma 6.1: Bayes (MC over X of the exact conditional risk) vs optimal GD-beta vs sum min
    from numerics.montecarlo import mc_mean
    from theory.common.baselines import bayes_conditional_risk

    rng = np.random.default_rng(seed)
    dd = 20
    lam2 = power_law_spectrum(dd, 1.5, s2)
    N2 = np.array([5, 10, 20, 40, 80, 160, 320])
    rb = []
    for n in N2:
        def draw(r: np.random.Generator, B: int, n: int = int(n)) -> np.ndarray:
            X = r.standard_normal((B, n, dd)) * np.sqrt(lam2)
            return np.asarray(bayes_conditional_risk(X, np.diag(lam2), np.eye(dd), s2)) - s2
        rb.append(mc_mean(draw, 1000 if quick else 10000, rng=rng))
    ax2.errorbar(N2, [e.mean for e in rb], yerr=[2 * e.se for e in rb], fmt="o",
                 label="R_Bayes - sigma^2 (MC over X)")
    ax2.loglog(N2, [T.optimal_risk_eig(lam2, s2, int(n)) - s2 for n in N2], "-",
               label="R* - sigma^2 (optimal GD-beta = LTB)")
    ax2.loglog(N2, [T.sum_min(lam2, s2, int(n)) for n in N2], "--",
               label="sum min(lambda_i, sigma^2/N)")
    ax2.set(xlabel="N", ylabel="excess risk", xscale="log", yscale="log",
            title="Lemma 6.1, d=20, lambda_i ~ i^-1.5, tr = sigma^2")
    ax2.legend(fontsize=7)
    fig.tight_layout()
    return fig


def fig_flow(*, quick: bool = True, seed: int = 0) -> Figure:
    """Thm 6.3: GD-β gradient flow (ODE, LSODA at the verification tolerances) from a random
    init: ``log E(t)``, ``‖β(t) − β*‖`` with the derived β-rate bound, ``‖Γ(t) − Γ*‖_F``."""
    rng = np.random.default_rng(seed)
    d, N, s2 = 3, 8, 0.25
    H, Psi, bs = random_setting(rng, d, H_eigs=(0.5, 2.5))
    G0, b0 = 0.3 * rng.standard_normal((d, d)), rng.standard_normal(d)
    tr = flow_trajectory(H, Psi, bs, s2, N, G0, b0, 200.0 if quick else 400.0)
    Gs = T.optimal_gamma(H, Psi, s2, N)
    E = np.array([T.excess_risk(y[:d * d].reshape(d, d), y[d * d:], H, Psi, bs, s2, N)
                  for y in tr.y])
    eb = np.linalg.norm(tr.y[:, d * d:] - bs, axis=1)
    eG = np.linalg.norm(tr.y[:, :d * d] - Gs.ravel(), axis=1)
    fig = Figure(figsize=(6, 4))
    ax = fig.subplots()
    ax.semilogy(tr.t, np.maximum(E, 1e-300), "--", label="E(t) = R - R* (ODE)")
    ax.semilogy(tr.t, eb, "--", label="|beta(t) - beta*| (ODE)")
    ax.semilogy(tr.t, np.sqrt(T.beta_rate_bound(tr.t, b0, H, bs, N)), "-",
                label="beta-rate bound (derived)")
    ax.semilogy(tr.t, eG, "--", label="|Gamma(t) - Gamma*|_F (ODE)")
    ax.set(xlabel="t", ylim=(1e-14, None), title=f"GD-beta flow, d={d}, N={N}, sigma^2={s2}")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def fig_table1_training(*, quick: bool = True, seed: int = 0) -> Figure:
    """Table 1 at CPU scale (spec C17): test risk of the trained LTB and LSA along training, with
    horizontal lines at R*, inf_LSA and the LSA floor L + R*; plus the β* = 0 control."""
    fig = Figure(figsize=(10, 4))
    axes = fig.subplots(1, 2)
    for ax, key in zip(axes, ("shared", "zero"), strict=True):
        suffix = "" if key == "shared" else "_zero"
        setting = PRESETS["c17_ltb" + suffix][0].setting
        r = table1_levels(setting, rng=np.random.default_rng(seed))
        for name, style in (("ltb", "o-"), ("lsa", "s-")):
            st, mean, se = trained(f"c17_{name}{suffix}", seed=seed).extra["curve"]
            ax.errorbar(st, mean, yerr=2 * np.asarray(se), fmt=style, ms=3,
                        label=f"trained {name.upper()}")
        ax.axhline(r["R_star"], color="k", lw=1, label=f"R* = {r['R_star']:.4f}")
        ax.axhline(r["inf_lsa"], color="C1", lw=1, ls="--", label=f"inf_LSA = {r['inf_lsa']:.4f}")
        if key == "shared":
            ax.axhline(r["floor"], color="C3", lw=1, ls=":", label=f"LSA floor = {r['floor']:.4f}")
        ax.set_yscale("log")
        ax.set(xlabel="step", ylabel="test risk",
               title=f"|beta*| = {float(np.linalg.norm(setting.task_mean)):g} (d=2, N=10, "
                     "sigma=0.5)")
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig
