"""collins24 figures: each ``fig_<suffix>`` draws the numbers of its
``compute_<suffix>`` (numerics when no training is needed, the section's sims/checks module when
it trains).  Paper figures are named by their id (``fig_1b``, ``fig_1c``, ``fig_3_4``, ``fig_5``,
``fig_9``), the others by section and topic (``fig_optimum_omega_lambda``,
``fig_transfer_curves``).

Theory: solid lines; simulations: markers; rates on log-log axes with the fitted slope in the
legend (slopes only there).  Labels in mathtext; the setting drawn is stated in the title.  Built
with ``matplotlib.figure.Figure`` (never pyplot).  :func:`fig_optimum_omega_lambda` and
:func:`fig_transfer_curves` also draw at a researcher's Setting (``figure collins24:thm3.5 --set``).
"""

from __future__ import annotations

import numpy as np
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
from theory.collins24.settings import Setting

__all__ = [
    "fig_optimum_omega_lambda",
    "fig_transfer_curves",
    "fig_3_4",
    "fig_1b",
    "fig_9",
    "fig_1c",
    "fig_5",
]


def fig_optimum_omega_lambda(
    *, quick: bool = True, seed: int = 0, setting: Setting | None = None
) -> Figure:
    """Theorem 3.4 as a figure: quadrature ω* vs Λ (default d = 3, n = 2000, affine; or a
    researcher's ``setting``: its d and n), the asymptote, and the reconstructed bracket's
    exponents as guide lines through the middle point."""
    kw = {} if setting is None else {"d": setting.d, "n": setting.n}
    c = compute_optimum_omega_lambda(quick=quick, seed=seed, **kw)
    lams, ws, d, n = c["lams"], c["omegas"], c["d"], c["n"]
    fig = Figure(figsize=(6.5, 4.8))
    ax = fig.subplots()
    ax.loglog(lams, ws, "o", label=rf"quadrature $\omega^*$, slope {c['slope']:.3f}")
    ax.loglog(lams, c["asymptote"], "-", label=rf"asymptote, slope $2/(d+3) = {2 / (d + 3):.3f}$")
    lo, hi = c["bracket"]
    mid = len(lams) // 2
    for e, style in ((lo, ":"), (hi, "--"), (c["paper_exponent"], "-.")):
        ax.loglog(
            lams,
            ws[mid] * (lams / lams[mid]) ** e,
            style,
            lw=1,
            label=rf"$\Lambda^{{{e:.3f}}}$"
            + (" (the paper's $2/(d+4)$)" if style == "-." else " (bracket)"),
        )
    ax.set(
        xlabel=r"$\Lambda = n L^2 / \sigma^2$",
        ylabel=r"optimal window scale $\omega^*$",
        title=rf"Theorem 3.4: $\omega^*$ vs $\Lambda$ (affine, $d = {d}$, $n = {n}$)",
    )
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def fig_transfer_curves(
    *, quick: bool = True, seed: int = 0, setting: Setting | None = None
) -> Figure:
    """Theorem 3.5 / Fig. 5: 𝓛_test(L′) of units pretrained at L ∈ {0.03, 0.1, 1} (default
    σ = 0.01, d = 5, n = 20; or a researcher's ``setting``: its d, n and σ², the default σ² when
    it gives none), each tangent to the envelope 𝓛*(L′) at L′ = L (quadrature)."""
    kw: dict = {}
    if setting is not None:
        kw = {"d": setting.d, "n": setting.n}
        if setting.sigma2 is not None:
            kw["sigma2"] = setting.sigma2
    c = compute_transfer_curves(quick=quick, seed=seed, **kw)
    fig = Figure(figsize=(6.5, 4.8))
    ax = fig.subplots()
    ax.loglog(c["Lps"], c["envelope"], "k-", lw=2, label=r"envelope $\mathcal{L}^*(L')$")
    for L, (w, curve) in c["curves"].items():
        ax.loglog(c["Lps"], curve, "-", label=rf"pretrained at $L = {L:g}$ ($\omega = {w:.2f}$)")
    ax.set(
        xlabel=r"test Lipschitz constant $L'$",
        ylabel=r"ICL risk $\mathcal{L}_{\mathrm{test}}(L')$",
        title=(
            rf"Theorem 3.5: transfer across $L$ ($d = {c['d']}$, $n = {c['n']}$, "
            rf"$\sigma^2 = {c['sigma2']:g}$)"
        ),
    )
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


#: How a panel's swept quantity of :func:`sims.collins24.fig3_4.compute_3_4` reads (mathtext).
_PANEL_SYMBOLS = {"sigma": r"\sigma", "L": "L", "n": "n"}


def _panel_symbol(label: str) -> str:
    word = label.split()[0]
    return _PANEL_SYMBOLS.get(word, word)


def _panel_text(label: str) -> str:
    """``"L on U^d_S (sigma = 0.01, n = 20)"`` in mathtext."""
    import re

    out = label.replace("U^d_S", "$U^d_S$")
    return re.sub(r"\bsigma\b", r"$\\sigma$", out)


def fig_3_4(*, quick: bool = True, seed: int = 0) -> Figure:
    """Figs. 3-4 (affine, d = 5): ‖M‖₂ over training (trained units, markers) for several σ
    (L = 1, n = 20), several L and several n (σ = 0.01), and on the non-isotropic sphere U^d_S for
    several L, with the population optima drawn as horizontal lines: ω* by quadrature
    (‖ωI‖₂ = ω) and, for U^d_S, ‖diag(m*)‖₂ of the MC optimum over diagonal M."""
    c = compute_3_4(quick=quick, seed=seed)
    fig = Figure(figsize=(11, 8))
    axes = fig.subplots(2, 2).ravel()
    for ax, (label, runs) in zip(axes, c["panels"], strict=True):
        sym = _panel_symbol(label)
        for v, tr, w in runs:
            line = ax.plot(tr[:, 0], tr[:, 1], ".", ms=2, label=rf"trained, ${sym} = {v:g}$")[0]
            ax.axhline(w, color=line.get_color(), lw=1)
        ax.set(
            xlabel="training step",
            ylabel=r"$\|M\|_2$",
            title=rf"$\|M\|_2$ over training, several ${sym}$ ({_panel_text(label)})",
        )
        ax.legend(fontsize=7)
    fig.suptitle(
        r"collins24 Figs. 3-4 (affine, $d = 5$): trained units (markers); lines: population "
        r"optima (quadrature; $U^d_S$: Monte Carlo over diagonal $M$)",
        fontsize=10,
    )
    fig.tight_layout()
    return fig


def fig_1b(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 1 (middle row), population version: attention weight against the angular offset from
    the query for the affine optima at σ ∈ {1, .1, .01} (softmax ∝ e^{ω cos Δθ}, its width adapts)
    and linear attention (∝ cos Δθ, one shape for every task), d = 2."""
    c = compute_1b(quick=quick, seed=seed)
    fig = Figure(figsize=(6.5, 4.8))
    ax = fig.subplots()
    for s, (w, k) in c["softmax"].items():
        ax.plot(c["theta"], k, "-", label=rf"softmax, $\omega^* = {w:.2f}$ ($\sigma = {s:g}$)")
    ax.plot(c["theta"], c["linear"], "--", label=r"linear attention (any $M = mI$)")
    ax.set(
        xlabel=r"angle to the query $\Delta\theta$",
        ylabel="relative attention weight",
        title=(
            "Fig. 1: the softmax window adapts, linear attention does not "
            rf"($d = {c['d']}$, $n = {c['n']}$)"
        ),
    )
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def fig_9(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 9 at the S5 size (d = 6, k = 2, n = 20, σ = 0, Assumption 4.3): ρ(M, B) =
    ‖B⊥ᵀMB⊥‖₂/σ_min(BᵀMB) of the trained untied unit over training (log scale)."""
    c = compute_9(quick=quick, seed=seed)
    fig = Figure(figsize=(6.5, 4.8))
    ax = fig.subplots()
    ax.semilogy(c["steps"], c["rho"], ".", ms=3, label="trained softmax unit")
    ax.axhline(c["pass_level"], color="k", lw=1, label=f"pass level {c['pass_level']:g}")
    ax.set(
        xlabel="training step",
        ylabel=r"$\rho(M, B) = \|B_\perp^\top M B_\perp\|_2 / \sigma_{\min}(B^\top M B)$",
        title=(
            rf"Fig. 9 / Theorem 4.4: attention learns the projection ($d = {c['d']}$, "
            rf"$k = {c['k']}$)"
        ),
    )
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def fig_1c(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 1 (bottom row), population version: ICL error of the optimal softmax unit (blue) and
    of the best linear attention (orange) against n for the hills f = cos(νθ − b), ν ∈ {0, 1.5,
    6}, σ² = 0.01 (MC, ±2 se), replacing the paper's 15k-step units per point."""
    c = compute_1c(quick=quick, seed=seed)
    fig = Figure(figsize=(11, 3.8))
    axes = fig.subplots(1, 3)
    ns = c["ns"]
    for ax, (nu, rows) in zip(axes, c["rows"].items(), strict=True):
        for k, (lab, col) in enumerate(
            (("optimal softmax unit", "tab:blue"), ("best linear attention", "tab:orange"))
        ):
            m = [r[k].mean for r in rows]
            e = [2 * r[k].se for r in rows]
            ax.errorbar(ns, m, yerr=e, fmt="o-", color=col, ms=3, label=f"{lab} (MC, ±2 se)")
        ax.set(
            xscale="log",
            yscale="log",
            xlabel=r"context length $n$",
            ylabel="ICL error",
            title=rf"hill $f = \cos(\nu\theta - b)$, $\nu = {nu:g}$",
        )
    axes[0].legend(fontsize=7)
    s2 = (compute_1c.__kwdefaults__ or {})["sigma2"]
    fig.suptitle(
        rf"collins24 Fig. 1 (bottom row), $\sigma^2 = {s2:g}$",
        fontsize=10,
    )
    fig.tight_layout()
    return fig


def fig_5(*, quick: bool = True, seed: int = 0, reps: int = 0) -> Figure:
    """Fig. 5 (left panels) as a matrix: the MC risk of units pretrained on affine, 2-ReLU and
    cosine tasks (σ = 0.01, L = 1, d = 5, n = 20) and of S3's mismatched L = 0.03 unit, on each
    test class, divided by that class's best M = ωI (spline of the MC risk over ω, same prompts)."""
    c = compute_5(quick=quick, seed=seed, reps=reps)
    ratio = np.asarray(c["ratio"])
    fig = Figure(figsize=(6.5, 4.8))
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
        title=r"Fig. 5: risk / best $\omega I$ ($d = 5$, $n = 20$, $\sigma = 0.01$)",
    )
    cb = fig.colorbar(im, ax=ax)
    cb.set_label(r"risk $/$ risk of the best $\omega I$")
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
