"""zwb24 figures: Table 1's message at CPU scale, the gap vs ‖β*‖ and N, the rates of Lemma 6.1 /
Corollary 6.2, and GD-β flow trajectories.

Each figure draws what its ``compute_*`` function returns (:mod:`numerics.zwb24.figures`;
:func:`sims.zwb24.table1.compute_mlp_gap_table1` for the trained curves).  Theory: solid lines;
ODE: dashed; simulations: markers with ±2·se bars; rates on log-log axes with the fitted slope in
the legend (slopes only there).  Labels in mathtext; the setting drawn is stated in the title.
Built with ``matplotlib.figure.Figure`` (never pyplot).  :func:`fig_flow_trajectory` also draws at
a researcher's Setting (``figure zwb24:thm6.3 --set``).
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from numerics.testing import loglog_slope
from numerics.zwb24.figures import (
    GAP_D,
    GAP_SIGMA2,
    compute_flow_trajectory,
    compute_mlp_gap_scaling,
    compute_rates_sum_min,
)
from sims.zwb24.table1 import compute_mlp_gap_table1
from theory.zwb24.settings import Setting

__all__ = ["fig_mlp_gap_scaling", "fig_rates_sum_min", "fig_flow_trajectory", "fig_mlp_gap_table1"]


#: How the Theorem 4.1 curves of :func:`numerics.zwb24.figures.compute_mlp_gap_scaling` read.
GAP_LABELS = {
    "L": r"lower bound $L$ (Theorem 4.1)",
    "U": r"upper bound $U$ (Theorem 4.1)",
    "GD0 gap": r"gap of GD-0 ($\beta = 0$)",
}


def fig_mlp_gap_scaling(*, quick: bool = True, seed: int = 0) -> Figure:
    """Thm 4.1: ``inf_LSA − R*`` (BFGS), ``L``, ``U`` and the GD-0 gap vs ‖β*‖ (N = 20) and vs N
    (‖β*‖ = 2), ``H = Ψ = I_2``, σ² = 0.25, log-log with fitted slopes."""
    c = compute_mlp_gap_scaling(quick=quick, seed=seed)
    fig = Figure(figsize=(10, 4.2))
    ax1, ax2 = fig.subplots(1, 2)
    gap = r"$\inf_{\mathrm{LSA}} - R^*$"
    mus, g = c["mus"], c["gap_mu"]
    ax1.loglog(mus, g, "o", label=f"gap (BFGS), slope {loglog_slope(mus, g):.2f}")
    for name, v in c["bounds_mu"].items():
        ok = v > 0
        ax1.loglog(mus[ok], v[ok], "-", label=GAP_LABELS.get(name, name))
    ax1.set(
        xlabel=r"task-mean norm $\|\beta^*\|$", ylabel=gap, title=r"gap vs $\|\beta^*\|$ ($N = 20$)"
    )
    ax1.legend(fontsize=8)
    Ns, gN = c["Ns"], c["gap_N"]
    ax2.loglog(
        Ns, gN, "o", label=f"gap (BFGS), slope (last 3) {loglog_slope(Ns[-3:], gN[-3:]):.2f}"
    )
    for name, v in c["bounds_N"].items():
        ok = v > 0
        ax2.loglog(Ns[ok], v[ok], "-", label=GAP_LABELS.get(name, name))
    ax2.set(
        xlabel=r"prompt length $N$",
        ylabel=gap,
        title=r"gap vs $N$ ($\|\beta^*\| = 2$); theory slope $-1$",
    )
    ax2.legend(fontsize=8)
    fig.suptitle(
        rf"zwb24 Theorem 4.1: the LSA gap at $d = {GAP_D}$, $H = \Psi = I$, "
        rf"$\sigma^2 = {GAP_SIGMA2:g}$",
        fontsize=10,
    )
    fig.tight_layout()
    return fig


def fig_rates_sum_min(*, quick: bool = True, seed: int = 0) -> Figure:
    """Lemma 6.1 / Cor 6.2: ``R* − σ²`` and ``Σ min(λ_i, σ²/N)`` (and the Cor 6.2 band) vs N for a
    power-law spectrum ``λ_i ∝ i^{-2}``, ``tr = σ²/2``, d = 4000; the Bayes excess risk (MC) vs
    the optimal GD-β and ``Σ min`` at d = 20."""
    c = compute_rates_sum_min(quick=quick, seed=seed)
    fig = Figure(figsize=(11, 4.2))
    ax, ax2 = fig.subplots(1, 2)
    Ns, ex, sm = c["Ns"], c["excess"], c["sum_min"]
    big = Ns > 300
    summin = r"$\sum_i \min(\lambda_i, \sigma^2/N)$"
    ax.loglog(
        Ns,
        ex,
        "-",
        label=rf"$R^* - \sigma^2$, slope ($N > 300$) {loglog_slope(Ns[big], ex[big]):.2f}",
    )
    ax.loglog(Ns, sm, "--", label=f"{summin}, slope {loglog_slope(Ns[big], sm[big]):.2f}")
    ax.fill_between(
        Ns,
        c["lo"],
        c["hi"],
        alpha=0.15,
        label=r"Corollary 6.2 band $[\frac{1}{4}, 2(1+\kappa)] \times$ " + summin,
    )
    ax.set(
        xlabel=r"prompt length $N$",
        ylabel=r"excess risk $R^* - \sigma^2$",
        title=r"Corollary 6.2: $d = 4000$, $\lambda_i \propto i^{-2}$ (slope $-1/2$)",
    )
    ax.legend(fontsize=7)
    N2 = c["Ns_bayes"]
    ax2.errorbar(
        N2,
        c["bayes_mean"],
        yerr=2 * c["bayes_se"],
        fmt="o",
        label=r"$R_{\mathrm{Bayes}} - \sigma^2$ (Monte Carlo over $X$, $\pm 2$ se)",
    )
    ax2.loglog(
        N2, c["excess_bayes_setting"], "-", label=r"$R^* - \sigma^2$ (optimal GD-$\beta$ = LTB)"
    )
    ax2.loglog(N2, c["sum_min_bayes_setting"], "--", label=summin)
    ax2.set(
        xlabel=r"prompt length $N$",
        ylabel=r"excess risk over $\sigma^2$",
        xscale="log",
        yscale="log",
        title=r"Lemma 6.1: $d = 20$, $\lambda_i \propto i^{-1.5}$, $\mathrm{tr} = \sigma^2$",
    )
    ax2.legend(fontsize=7)
    fig.suptitle("zwb24 rates of the optimal in-context risk", fontsize=10)
    fig.tight_layout()
    return fig


def fig_flow_trajectory(
    *, quick: bool = True, seed: int = 0, setting: Setting | None = None
) -> Figure:
    """Thm 6.3: GD-β gradient flow (ODE, LSODA at the verification tolerances) from a random
    init: ``log E(t)``, ``‖β(t) − β*‖`` with the derived β-rate bound, ``‖Γ(t) − Γ*‖_F``; at the
    figure's d = 3, N = 8, σ² = 0.25, or at a researcher's ``setting`` (its d, N, σ²; H, Ψ, β*
    drawn from the seed as in the default)."""
    kw = {} if setting is None else {"d": setting.d, "N": setting.N, "s2": setting.sigma2}
    c = compute_flow_trajectory(quick=quick, seed=seed, **kw)
    t = c["t"]
    fig = Figure(figsize=(6.5, 4.5))
    ax = fig.subplots()
    ax.semilogy(t, np.maximum(c["E"], 1e-300), "--", label=r"$E(t) = R - R^*$ (ODE)")
    ax.semilogy(t, c["beta_err"], "--", label=r"$\|\beta(t) - \beta^*\|$ (ODE)")
    ax.semilogy(t, np.sqrt(c["beta_bound"]), "-", label=r"$\beta$-rate bound (derived)")
    ax.semilogy(t, c["gamma_err"], "--", label=r"$\|\Gamma(t) - \Gamma^*\|_F$ (ODE)")
    ax.set(
        xlabel=r"flow time $t$",
        ylabel="distance to the optimum",
        ylim=(1e-14, None),
        title=(
            rf"Theorem 6.3: GD-$\beta$ flow, $d = {c['d']}$, $N = {c['N']}$, "
            rf"$\sigma^2 = {c['s2']:g}$ (seed {seed})"
        ),
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def fig_mlp_gap_table1(*, quick: bool = True, seed: int = 0) -> Figure:
    """Table 1 at CPU scale: test risk of the trained LTB and LSA along training, with horizontal
    lines at R*, inf_LSA and the LSA floor L + R*; plus the β* = 0 control."""
    c = compute_mlp_gap_table1(quick=quick, seed=seed)
    fig = Figure(figsize=(10, 4.2))
    axes = fig.subplots(1, 2)
    for ax, key in zip(axes, ("shared", "zero"), strict=True):
        r, curves = c[key]["levels"], c[key]["curves"]
        for name, style in (("ltb", "o-"), ("lsa", "s-")):
            st, mean, se = curves[name]
            ax.errorbar(
                st, mean, yerr=2 * np.asarray(se), fmt=style, ms=3, label=f"trained {name.upper()}"
            )
        ax.axhline(r["R_star"], color="k", lw=1, label=rf"$R^* = {r['R_star']:.4f}$")
        ax.axhline(
            r["inf_lsa"],
            color="C1",
            lw=1,
            ls="--",
            label=rf"$\inf_{{\mathrm{{LSA}}}} = {r['inf_lsa']:.4f}$",
        )
        if key == "shared":
            ax.axhline(
                r["floor"],
                color="C3",
                lw=1,
                ls=":",
                label=rf"LSA floor $L + R^* = {r['floor']:.4f}$",
            )
        ax.set_yscale("log")
        ax.set(
            xlabel="training step",
            ylabel="test risk",
            title=rf"$\|\beta^*\| = {c[key]['beta_norm']:g}$",
        )
        ax.legend(fontsize=7)
    fig.suptitle(
        r"zwb24 Table 1 at CPU scale: $d = 2$, $N = 10$, $\sigma = 0.5$, $H = \Psi = I$",
        fontsize=10,
    )
    fig.tight_layout()
    return fig


# The figures' former names (same objects).
fig_gap_scaling = fig_mlp_gap_scaling
fig_rates = fig_rates_sum_min
fig_flow = fig_flow_trajectory
fig_table1_training = fig_mlp_gap_table1
