"""zwb24 figures (spec 002 §4): Table 1's message at CPU scale, the gap vs ‖β*‖ and N, the rates
of Lemma 6.1 / Corollary 6.2, and GD-β flow trajectories.

Each figure draws what its ``compute_*`` function returns (:mod:`numerics.zwb24.figures`;
:func:`sims.zwb24.rawfit.compute_mlp_gap_table1` for the trained curves).  Theory: solid lines;
ODE: dashed; simulations: markers with ±2·se bars; rates on log-log axes with the fitted slope in
the legend.  Built with ``matplotlib.figure.Figure`` (never pyplot).
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from numerics.testing import loglog_slope
from numerics.zwb24.figures import (
    compute_flow_trajectory,
    compute_mlp_gap_scaling,
    compute_rates_sum_min,
)
from sims.zwb24.rawfit import compute_mlp_gap_table1

__all__ = ["fig_mlp_gap_scaling", "fig_rates_sum_min", "fig_flow_trajectory", "fig_mlp_gap_table1"]


def fig_mlp_gap_scaling(*, quick: bool = True, seed: int = 0) -> Figure:
    """Thm 4.1: ``inf_LSA − R*`` (BFGS), ``L``, ``U`` and the GD-0 gap vs ‖β*‖ (N = 20) and vs N
    (‖β*‖ = 2), ``H = Ψ = I_2``, σ = 0.5, log-log with fitted slopes."""
    c = compute_mlp_gap_scaling(quick=quick, seed=seed)
    fig = Figure(figsize=(10, 4))
    ax1, ax2 = fig.subplots(1, 2)
    mus, g = c["mus"], c["gap_mu"]
    ax1.loglog(mus, g, "o", label=f"gap (BFGS), slope {loglog_slope(mus, g):.2f}")
    for name, v in c["bounds_mu"].items():
        ok = v > 0
        ax1.loglog(mus[ok], v[ok], "-", label=name)
    ax1.set(xlabel="|beta*|", ylabel="gap", title="gap vs |beta*| (N = 20)")
    ax1.legend(fontsize=8)
    Ns, gN = c["Ns"], c["gap_N"]
    ax2.loglog(
        Ns, gN, "o", label=f"gap (BFGS), slope (last 3) {loglog_slope(Ns[-3:], gN[-3:]):.2f}"
    )
    for name, v in c["bounds_N"].items():
        ok = v > 0
        ax2.loglog(Ns[ok], v[ok], "-", label=name)
    ax2.set(xlabel="N", ylabel="gap", title="gap vs N (|beta*| = 2); theory slope -1")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    return fig


def fig_rates_sum_min(*, quick: bool = True, seed: int = 0) -> Figure:
    """Lemma 6.1 / Cor 6.2: ``R* − σ²`` and ``Σ min(λ_i, σ²/N)`` (and the Cor 6.2 band) vs N for a
    power-law spectrum ``λ_i ∝ i^{-2}``, ``tr = σ²/2``, d = 4000; the Bayes excess risk (MC) vs
    the optimal GD-β and ``Σ min`` at d = 20."""
    c = compute_rates_sum_min(quick=quick, seed=seed)
    fig = Figure(figsize=(11, 4))
    ax, ax2 = fig.subplots(1, 2)
    Ns, ex, sm = c["Ns"], c["excess"], c["sum_min"]
    big = Ns > 300
    ax.loglog(
        Ns, ex, "-", label=f"R* - sigma^2, slope (N>300) {loglog_slope(Ns[big], ex[big]):.2f}"
    )
    ax.loglog(
        Ns,
        sm,
        "--",
        label=f"sum min(lambda_i, sigma^2/N), slope {loglog_slope(Ns[big], sm[big]):.2f}",
    )
    ax.fill_between(
        Ns, c["lo"], c["hi"], alpha=0.15, label="Cor 6.2 band [1/4, 2(1+kappa)] x sum min"
    )
    ax.set(xlabel="N", ylabel="excess risk", title="Cor 6.2, d=4000, alpha=2 (slope -1/2)")
    ax.legend(fontsize=7)
    N2 = c["Ns_bayes"]
    ax2.errorbar(
        N2, c["bayes_mean"], yerr=2 * c["bayes_se"], fmt="o", label="R_Bayes - sigma^2 (MC over X)"
    )
    ax2.loglog(N2, c["excess_bayes_setting"], "-", label="R* - sigma^2 (optimal GD-beta = LTB)")
    ax2.loglog(N2, c["sum_min_bayes_setting"], "--", label="sum min(lambda_i, sigma^2/N)")
    ax2.set(
        xlabel="N",
        ylabel="excess risk",
        xscale="log",
        yscale="log",
        title="Lemma 6.1, d=20, lambda_i ~ i^-1.5, tr = sigma^2",
    )
    ax2.legend(fontsize=7)
    fig.tight_layout()
    return fig


def fig_flow_trajectory(*, quick: bool = True, seed: int = 0) -> Figure:
    """Thm 6.3: GD-β gradient flow (ODE, LSODA at the verification tolerances) from a random
    init: ``log E(t)``, ``‖β(t) − β*‖`` with the derived β-rate bound, ``‖Γ(t) − Γ*‖_F``."""
    c = compute_flow_trajectory(quick=quick, seed=seed)
    t = c["t"]
    fig = Figure(figsize=(6, 4))
    ax = fig.subplots()
    ax.semilogy(t, np.maximum(c["E"], 1e-300), "--", label="E(t) = R - R* (ODE)")
    ax.semilogy(t, c["beta_err"], "--", label="|beta(t) - beta*| (ODE)")
    ax.semilogy(t, np.sqrt(c["beta_bound"]), "-", label="beta-rate bound (derived)")
    ax.semilogy(t, c["gamma_err"], "--", label="|Gamma(t) - Gamma*|_F (ODE)")
    ax.set(
        xlabel="t",
        ylim=(1e-14, None),
        title=f"GD-beta flow, d={c['d']}, N={c['N']}, sigma^2={c['s2']}",
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def fig_mlp_gap_table1(*, quick: bool = True, seed: int = 0) -> Figure:
    """Table 1 at CPU scale (spec C17): test risk of the trained LTB and LSA along training, with
    horizontal lines at R*, inf_LSA and the LSA floor L + R*; plus the β* = 0 control."""
    c = compute_mlp_gap_table1(quick=quick, seed=seed)
    fig = Figure(figsize=(10, 4))
    axes = fig.subplots(1, 2)
    for ax, key in zip(axes, ("shared", "zero"), strict=True):
        r, curves = c[key]["levels"], c[key]["curves"]
        for name, style in (("ltb", "o-"), ("lsa", "s-")):
            st, mean, se = curves[name]
            ax.errorbar(
                st, mean, yerr=2 * np.asarray(se), fmt=style, ms=3, label=f"trained {name.upper()}"
            )
        ax.axhline(r["R_star"], color="k", lw=1, label=f"R* = {r['R_star']:.4f}")
        ax.axhline(r["inf_lsa"], color="C1", lw=1, ls="--", label=f"inf_LSA = {r['inf_lsa']:.4f}")
        if key == "shared":
            ax.axhline(r["floor"], color="C3", lw=1, ls=":", label=f"LSA floor = {r['floor']:.4f}")
        ax.set_yscale("log")
        ax.set(
            xlabel="step",
            ylabel="test risk",
            title=f"|beta*| = {c[key]['beta_norm']:g} (d=2, N=10, sigma=0.5)",
        )
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


# The figures' former names (same objects).
fig_gap_scaling = fig_mlp_gap_scaling
fig_rates = fig_rates_sum_min
fig_flow = fig_flow_trajectory
fig_table1_training = fig_mlp_gap_table1
