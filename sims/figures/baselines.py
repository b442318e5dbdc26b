"""Figures of the foundation's baselines: closed-form risks (lines) vs Monte Carlo (markers).

* :func:`fig_baseline_risks` -- ICL risk against the prompt length ``N`` for one-step GD (von
  Oswald, ``Γ = I``), debiased GD (``P = I, η = 1``) and OLS: the exact finite-N closed forms of
  :mod:`theory.common.baselines` as solid lines, Monte Carlo estimates (fast sufficient-statistic
  engine for GD/DGD, raw prompts for OLS and the Bayes posterior mean) as markers with ±2·se bars,
  and the Marchenko–Pastur limit of the Bayes risk at ``ξ = d/N`` as a dashed line.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from numerics.baselines.figures import compute_baseline_risks

__all__ = ["fig_baseline_risks", "compute_baseline_risks"]


def plot_baseline_risks(ax, data: dict[str, np.ndarray]) -> list:
    """Theory solid, Monte Carlo markers ±2 se, the Marchenko–Pastur limit dashed."""
    N = data["N"]
    artists = []
    for key, label, color in (
        ("gd", r"one-step GD ($\Gamma = I$)", "tab:blue"),
        ("dgd", "debiased GD", "tab:orange"),
        ("ols", "OLS", "tab:green"),
    ):
        artists += ax.plot(N, data[key], "-", color=color, label=f"{label}: closed form")
        artists.append(
            ax.errorbar(
                N,
                data[f"{key}_mc"],
                yerr=2 * data[f"{key}_se"],
                fmt="o",
                ms=4,
                color=color,
                label=f"{label}: Monte Carlo ±2 se",
            )
        )
    artists.append(
        ax.errorbar(
            N,
            data["bayes_mc"],
            yerr=2 * data["bayes_se"],
            fmt="s",
            ms=4,
            color="k",
            label="Bayes posterior mean: Monte Carlo ±2 se",
        )
    )
    artists += ax.plot(
        N, data["bayes_mp"], "--", color="k", label=r"Bayes: Marchenko–Pastur limit at $\xi = d/N$"
    )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(r"prompt length $N$")
    ax.set_ylabel(r"ICL risk (noise $\sigma^2$ included)")
    ax.legend(fontsize=7)
    return artists


def fig_baseline_risks(*, quick: bool = True, seed: int = 0) -> Figure:
    data = compute_baseline_risks(quick=quick, seed=seed)
    fig = Figure(figsize=(6.5, 4.5))
    ax = fig.add_subplot(1, 1, 1)
    plot_baseline_risks(ax, data)
    own = compute_baseline_risks.__kwdefaults__ or {}
    ax.set_title(
        rf"Baselines: closed-form finite-$N$ risks vs Monte Carlo ($d = {own['d']}$, "
        rf"$\sigma^2 = {own['noise_var']:g}$)"
    )
    return fig
