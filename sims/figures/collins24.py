"""collins24 figures (spec 003 §4): each ``fig_<suffix>`` draws the numbers of its
``compute_<suffix>`` (numerics when no training is needed, the section's sims/checks module when
it trains).  Paper figures are named by their id (``fig_1b``, ``fig_1c``, ``fig_3_4``, ``fig_5``,
``fig_9``), the others by section and topic (``fig_optimum_omega_lambda``,
``fig_transfer_curves``).

Theory: solid lines; simulations: markers; rates on log-log axes with the fitted slope in the
legend.  Built with ``matplotlib.figure.Figure`` (never pyplot).
"""

from __future__ import annotations

from matplotlib.figure import Figure

from numerics.collins24.figures import (
    compute_1b,
    compute_1c,
    compute_optimum_omega_lambda,
    compute_transfer_curves,
)
from sims.collins24.fig3_4 import compute_3_4
from sims.collins24.sec3_transfer import compute_5
from sims.collins24.sec4_lowrank import compute_9

__all__ = [
    "fig_optimum_omega_lambda",
    "fig_transfer_curves",
    "fig_3_4",
    "fig_1b",
    "fig_9",
    "fig_1c",
    "fig_5",
]


def fig_optimum_omega_lambda(*, quick: bool = True, seed: int = 0) -> Figure:
    """Theorem 3.4 as a figure: quadrature ω* vs Λ (d = 3, n = 2000, affine), the R0.8 asymptote,
    and the reconstructed bracket's exponents as guide lines through the middle point."""
    c = compute_optimum_omega_lambda(quick=quick, seed=seed)
    lams, ws, d, n = c["lams"], c["omegas"], c["d"], c["n"]
    fig = Figure(figsize=(6, 4.5))
    ax = fig.subplots()
    ax.loglog(lams, ws, "o", label=f"quadrature omega*, slope {c['slope']:.3f}")
    ax.loglog(lams, c["asymptote"], "-", label="asymptote, slope 2/(d+3) = 0.333")
    lo, hi = c["bracket"]
    mid = len(lams) // 2
    for e, style in ((lo, ":"), (hi, "--"), (c["paper_exponent"], "-.")):
        ax.loglog(
            lams,
            ws[mid] * (lams / lams[mid]) ** e,
            style,
            lw=1,
            label=f"Lambda^{e:.3f}" + (" (paper's 2/(d+4))" if style == "-." else " (bracket)"),
        )
    ax.set(
        xlabel="Lambda = n L^2 / sigma^2",
        ylabel="omega*",
        title=f"Theorem 3.4: omega* vs Lambda (affine, d = {d}, n = {n})",
    )
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def fig_transfer_curves(*, quick: bool = True, seed: int = 0) -> Figure:
    """Theorem 3.5 / Fig. 5: 𝓛_test(L′) of units pretrained at L ∈ {0.03, 0.1, 1} (σ = 0.01,
    d = 5, n = 20), each tangent to the envelope 𝓛*(L′) at L′ = L (quadrature)."""
    c = compute_transfer_curves(quick=quick, seed=seed)
    fig = Figure(figsize=(6, 4.5))
    ax = fig.subplots()
    ax.loglog(c["Lps"], c["envelope"], "k-", lw=2, label="envelope L*(L')")
    for L, (w, curve) in c["curves"].items():
        ax.loglog(c["Lps"], curve, "-", label=f"pretrained L = {L} (omega = {w:.2f})")
    ax.set(
        xlabel="test Lipschitz constant L'",
        ylabel="ICL risk",
        title="Theorem 3.5: transfer across L (d=5, n=20, sigma=0.01)",
    )
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def fig_3_4(*, quick: bool = True, seed: int = 0) -> Figure:
    """Figs. 3-4 (affine, d = 5): ‖M‖₂ over training (trained units, markers) for several σ
    (L = 1, n = 20), several L and several n (σ = 0.01), and on the non-isotropic sphere U^d_S for
    several L, with the population optima drawn as horizontal lines: ω* by quadrature
    (‖ωI‖₂ = ω) and, for U^d_S, ‖diag(m*)‖₂ of the MC optimum over diagonal M."""
    c = compute_3_4(quick=quick, seed=seed)
    fig = Figure(figsize=(11, 8))
    axes = fig.subplots(2, 2).ravel()
    for ax, (label, runs) in zip(axes, c["panels"], strict=True):
        for v, tr, w in runs:
            line = ax.plot(
                tr[:, 0], tr[:, 1], ".", ms=2, label=f"trained, {label.split()[0]} = {v:g}"
            )[0]
            ax.axhline(w, color=line.get_color(), lw=1)
        ax.set(xlabel="step", ylabel="||M||_2", title=f"Figs. 3-4: ||M|| vs {label}")
        ax.legend(fontsize=7)
    fig.suptitle("lines: population optima (quadrature; U^d_S: MC over diagonal M)")
    fig.tight_layout()
    return fig


def fig_1b(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 1 (middle row), population version: attention weight against the angular offset from
    the query for the affine optima at σ ∈ {1, .1, .01} (softmax ∝ e^{ω cos Δθ}, its width adapts)
    and linear attention (∝ cos Δθ, one shape for every task), d = 2."""
    c = compute_1b(quick=quick, seed=seed)
    fig = Figure(figsize=(6, 4.5))
    ax = fig.subplots()
    for s, (w, k) in c["softmax"].items():
        ax.plot(c["theta"], k, "-", label=f"softmax, omega* = {w:.2f} (sigma = {s:g})")
    ax.plot(c["theta"], c["linear"], "--", label="linear attention (any M = mI)")
    ax.set(
        xlabel="angle to the query",
        ylabel="relative weight",
        title="Fig. 1: softmax window adapts, linear attention does not (d = 2, n = 20)",
    )
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def fig_9(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 9 at the S5 size (d = 6, k = 2, n = 20, σ = 0, Assumption 4.3): ρ(M, B) =
    ‖B⊥ᵀMB⊥‖₂/σ_min(BᵀMB) of the trained untied unit over training (log scale)."""
    c = compute_9(quick=quick, seed=seed)
    fig = Figure(figsize=(6, 4.5))
    ax = fig.subplots()
    ax.semilogy(c["steps"], c["rho"], ".", ms=3, label="trained softmax unit")
    ax.axhline(c["pass_level"], color="k", lw=1, label=f"S5 pass level {c['pass_level']:g}")
    ax.set(
        xlabel="step",
        ylabel="rho(M, B)",
        title=f"Fig. 9 / Theorem 4.4: attention learns the projection (d={c['d']}, k={c['k']})",
    )
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def fig_1c(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 1 (bottom row), population version: ICL error of the optimal softmax unit (blue) and
    of the best linear attention (orange) against n for the hills f = cos(νθ − b), ν ∈ {0, 1.5,
    6}, σ² = 0.01 (MC, ±2 se), replacing the paper's 15k-step units per point."""
    c = compute_1c(quick=quick, seed=seed)
    fig = Figure(figsize=(11, 3.6))
    axes = fig.subplots(1, 3)
    ns = c["ns"]
    for ax, (nu, rows) in zip(axes, c["rows"].items(), strict=True):
        for k, (lab, col) in enumerate((("softmax", "tab:blue"), ("linear", "tab:orange"))):
            m = [r[k].mean for r in rows]
            e = [2 * r[k].se for r in rows]
            ax.errorbar(ns, m, yerr=e, fmt="o-", color=col, ms=3, label=lab)
        ax.set(xscale="log", yscale="log", xlabel="n", title=f"nu = {nu:g}")
    axes[0].set_ylabel("ICL error")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def fig_5(*, quick: bool = True, seed: int = 0, reps: int = 0) -> Figure:
    """Fig. 5 (left panels) as a matrix: the MC risk of units pretrained on affine, 2-ReLU and
    cosine tasks (σ = 0.01, L = 1, d = 5, n = 20) and of S3's mismatched L = 0.03 unit, on each
    test class, divided by that class's best M = ωI (spline of the MC risk over ω, same prompts)."""
    c = compute_5(quick=quick, seed=seed, reps=reps)
    ratio = c["ratio"]
    fig = Figure(figsize=(6, 4.5))
    ax = fig.subplots()
    im = ax.imshow(ratio, cmap="viridis", vmin=1.0)
    for i in range(ratio.shape[0]):
        for j in range(ratio.shape[1]):
            ax.text(j, i, f"{ratio[i, j]:.3f}", ha="center", va="center", color="w", fontsize=8)
    ax.set_xticks(range(len(c["tests"])), c["tests"])
    ax.set_yticks(range(len(c["units"])), c["units"])
    ax.set(
        xlabel="test class",
        ylabel="pretrained on",
        title="Fig. 5: risk / best omega I (d=5, n=20, sigma=0.01)",
    )
    fig.colorbar(im, ax=ax)
    fig.tight_layout()
    return fig


# The figures' earlier names (not in ``__all__``).
fig_omega_lambda = fig_optimum_omega_lambda
fig_transfer = fig_transfer_curves
fig_training_norm = fig_3_4
fig_weights = fig_1b
fig_lowrank_rho = fig_9
fig_error_vs_n = fig_1c
fig_pretrain_matrix = fig_5
