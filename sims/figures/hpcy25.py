"""hpcy25 figures, CPU-sized: Fig. 1/3 (trained KQ/OV heatmaps, H = 1, 2, 4), Fig. 4(a)(b) (risk vs
test length), Fig. 6 (true vs approximate loss landscape), Fig. 8 (softmax vs linear length
generalisation), Fig. 22 (two-head ODE phases).

Grammar: theory solid lines, ODE dashed, simulations markers with ±2·se bars.
Each ``fig_*`` only draws a :class:`matplotlib.figure.Figure` (never pyplot); its numbers come from
``compute_<id>`` in the lowest layer that makes them: :mod:`numerics.hpcy25.figures`
(Figs. 4(b), 6, 22) or the trained section modules of :mod:`sims.hpcy25`
(Fig. 3: ``evidence``; Figs. 4(a), 8: ``extensions``).
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

import theory.hpcy25 as th
from numerics.hpcy25.figures import FIG_SETTING, compute_4b, compute_6, compute_22
from sims.hpcy25.evidence import compute_3
from sims.hpcy25.sec5_extensions import compute_4a, compute_8

__all__ = ["fig_3", "fig_4a", "fig_4b", "fig_6", "fig_8", "fig_22"]

_D, _L, _S2 = FIG_SETTING["d"], FIG_SETTING["L"], FIG_SETTING["sigma2"]
#: The figures' setting as a title states it (mathtext).
_SETTING = rf"$d = {_D}$, $\sigma^2 = {_S2:g}$"


def fig_3(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 1 / Fig. 3: heatmaps of trained ``KQ^h`` and the OV row (as a column), H = 1, 2, 4."""
    fig = Figure(figsize=(13, 8), layout="constrained")
    circ = compute_3(quick=quick, seed=seed)
    grid = fig.add_gridspec(len(circ), 8, width_ratios=[4, 1] * 4)
    for r, (H, (KQ, OV)) in enumerate(circ.items()):
        for h in range(H):
            ax = fig.add_subplot(grid[r, 2 * h])
            v = np.abs(KQ[h]).max()
            im = ax.imshow(KQ[h], cmap="RdBu_r", vmin=-v, vmax=v)
            ax.set_title(f"H={H} head {h + 1}: KQ", fontsize=8)
            ax.set_xticks([])
            ax.set_yticks([])
            fig.colorbar(im, ax=ax, fraction=0.046)
            ax2 = fig.add_subplot(grid[r, 2 * h + 1])
            w = np.abs(OV[h, 0]).max()
            ax2.imshow(OV[h, 0][:, None], cmap="RdBu_r", vmin=-w, vmax=w)
            ax2.set_title(f"OV ({OV[h, 0, -1]:+.2f})", fontsize=8)
            ax2.set_xticks([])
            ax2.set_yticks([])
    fig.suptitle("hpcy25 Fig. 1/3: trained KQ (diag ±ω) and OV (last entry ±μ); d=5, L=40")
    return fig


#: The figure's former name (Fig. 1 / Fig. 3 of the paper is :func:`fig_3`).
fig_patterns = fig_3


def fig_4a(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 4(a): ICL risk vs test length L' for trained H = 1, 2, 4 (trained at L = 40) over the
    closed-form DGD (η = 1/κ), GD (η_V*) and Bayes (ridge MC; R_B∞(d/L') dotted) curves."""
    data = compute_4a(quick=quick, seed=seed)
    Lps = data["Lps"]
    fig = Figure(figsize=(6, 4.5), layout="constrained")
    ax = fig.add_subplot()
    xs = np.arange(5, 101)
    ax.plot(xs, th.dgd_risk(th.eta_star(_D, _L, _S2), _D, xs, _S2), "-", label="DGD, η=1/κ")
    ax.plot(xs, th.gd_risk(th.gd_eta_star(_D, _L, _S2), _D, xs, _S2), "-", label="GD, η=η_V*")
    ax.plot(xs, th.bayes_risk_limit(_D / xs, _S2), ":", label=r"$R_{B\infty}(d/L')$")
    ax.plot(Lps, data["ridge"], "k^", ms=4, label="ridge (MC)")
    for H, mk in ((1, "o"), (2, "s"), (4, "D")):
        ests = data["risks"][f"h{H}"]
        ax.errorbar(
            Lps,
            [e.mean for e in ests],
            yerr=[2 * e.se for e in ests],
            fmt=mk,
            ms=4,
            capsize=2,
            label=f"trained H={H}",
        )
    ax.set_xlabel("test prompt length $L'$")
    ax.set_ylabel(r"ICL risk (incl. $\sigma^2$)")
    ax.set_ylim(0, 1.0)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(fontsize=7)
    ax.set_title(f"hpcy25 Fig. 4(a): trained at $L = {_L}$, {_SETTING}")
    return fig


def fig_4b(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 4(b): estimator comparison vs L': two-head TF (0.13, 3.45), single-head TF
    (1/√5, 1.6277), GD and DGD with η = 0.897 (closed forms + MC), ridge (MC)."""
    data = compute_4b(quick=quick, seed=seed)
    Lps, mc, xs = data["Lps"], data["mc"], data["xs"]
    fig = Figure(figsize=(6, 4.5), layout="constrained")
    ax = fig.add_subplot()
    ax.plot(xs, data["gd"], "-", color="C2", label="GD (closed form)")
    ax.plot(xs, data["dgd"], "-", color="C3", label="DGD (closed form)")
    for j, (lab, mk, c) in enumerate(
        (
            ("two-head TF", "s", "C0"),
            ("single-head TF", "o", "C1"),
            ("GD", "x", "C2"),
            ("DGD", "+", "C3"),
            ("ridge", "^", "k"),
        )
    ):
        ax.plot(Lps, mc[:, j], mk, color=c, label=f"{lab} (MC)")
    ax.set_xlabel("test prompt length $L'$")
    ax.set_ylabel("ICL risk")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(fontsize=7)
    ax.set_title(f"hpcy25 Fig. 4(b): estimators at fixed parameters\n{_SETTING}")
    return fig


def fig_6(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 6: true two-head loss (MC) vs ``L̃`` on ω ∈ [0, 0.2], μ ∈ [0, 6], their difference, and
    the valley ``μ = m*(ω)``."""
    data = compute_6(quick=quick, seed=seed)
    omegas, mus, mc, lt = data["omegas"], data["mus"], data["mc"], data["ltilde"]
    fig = Figure(figsize=(13, 4), layout="constrained")
    ext = (mus[0], mus[-1], omegas[0], omegas[-1])
    for k, (Z, title, cm, lim) in enumerate(
        (
            (mc, "true loss (MC)", "viridis", None),
            (lt, r"$\tilde L$", "viridis", None),
            (mc - lt, r"true $-\ \tilde L$", "RdBu_r", 0.12),
        )
    ):
        ax = fig.add_subplot(1, 3, k + 1)
        vmin, vmax = (-lim, lim) if lim else (0, 1.5)
        im = ax.imshow(Z, origin="lower", aspect="auto", extent=ext, cmap=cm, vmin=vmin, vmax=vmax)
        ax.plot(
            data["valley_mu"],
            data["valley_omega"],
            "w--" if k < 2 else "k--",
            lw=1,
            label=r"$m^*(\omega)$",
        )
        ax.set_xlim(mus[0], mus[-1])
        ax.set_xlabel(r"$\mu$")
        ax.set_ylabel(r"$\omega$")
        ax.set_title(title)
        fig.colorbar(im, ax=ax)
    fig.suptitle("hpcy25 Fig. 6: loss landscape of the symmetric pair (d=5, L=40, σ²=0.1)")
    return fig


def fig_8(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 8: length generalisation, trained softmax (H = 1, 2) vs trained linear attention (fixed
    1/40), with the closed forms ``R_D(1/κ; L')`` and ``R_lin(L')`` (minimum at L + (D'+1)/2)."""
    data = compute_8(quick=quick, seed=seed)
    Lps = data["Lps"]
    fig = Figure(figsize=(6, 4.5), layout="constrained")
    ax = fig.add_subplot()
    xs = np.arange(5, 101)
    ax.plot(
        xs,
        th.softmax_length_risk(xs, th.eta_star(_D, _L, _S2), _D, _S2),
        "-",
        label="softmax ≈ DGD, η=1/κ",
    )
    ax.plot(xs, th.linear_length_risk(xs, _L, _D, _S2), "-", label="linear, 1/L fixed")
    ax.axvline(th.linear_length_argmin(_L, _D, _S2), color="gray", lw=0.5)
    for pre, mk, lab in (
        ("h1", "o", "softmax H=1"),
        ("h2", "s", "softmax H=2"),
        ("linear", "^", "linear attention"),
    ):
        ests = data["risks"][pre]
        ax.errorbar(
            Lps,
            [e.mean for e in ests],
            yerr=[2 * e.se for e in ests],
            fmt=mk,
            ms=4,
            capsize=2,
            label=f"trained {lab}",
        )
    ax.set_ylim(0, 1.5)
    ax.set_xlabel("test prompt length $L'$")
    ax.set_ylabel("ICL risk")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(fontsize=7)
    ax.set_title(f"hpcy25 Fig. 8: softmax vs linear attention\ntrained at $L = {_L}$, {_SETTING}")
    return fig


def fig_22(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 22: the two-head ODE (B.4) from ε = 1e-3 (s = 1): (a) full trajectories, log time, with
    the late law μ ~ t^{1/6} and the paper heuristic's ω ~ t^{-1/2}; (b) early phase with ε e^{2st};
    (c) L̃ and μ/ω; (d) ωμ, μ and m*(ω)."""
    f = compute_22(quick=quick, seed=seed)
    t, y, tl, te, ye, tt, yy, ok = (f[k] for k in ("t", "y", "tl", "te", "ye", "tt", "yy", "ok"))
    fig = Figure(figsize=(12, 8), layout="constrained")
    ax = fig.add_subplot(2, 2, 1)
    ax.loglog(t, y[:, 0], "--", label=r"$\omega$ (ODE)")
    ax.loglog(t, y[:, 1], "--", label=r"$\mu$ (ODE)")
    ax.loglog(tl, f["late_mu"], "-", lw=0.8, label=r"law $\mu\sim t^{1/6}$")
    ax.loglog(
        tl,
        f["heuristic_omega"],
        ":",
        lw=0.8,
        label=r"paper heuristic $\omega\sim t^{-1/2}$",
    )
    ax.set_ylim(1e-3, 20)
    ax.set_xlabel("$t$")
    ax.set_ylabel(r"$\omega$, $\mu$")
    ax.legend(fontsize=7)
    ax.set_title("(a) trajectories")
    ax = fig.add_subplot(2, 2, 2)
    ax.plot(te, ye[:, 0], "--", label=r"$\omega$")
    ax.plot(te, ye[:, 1], "--", label=r"$\mu$")
    ax.plot(te[te < 3], f["phase1"], "-", lw=0.8, label=r"$\epsilon e^{2t}$")
    ax.axvspan(0, 2.75, alpha=0.1, color="C0")
    ax.axvspan(2.75, 3.85, alpha=0.1, color="C1")
    ax.set_ylim(0, 1.2)
    ax.set_xlabel("$t$")
    ax.set_ylabel(r"$\omega$, $\mu$")
    ax.legend(fontsize=7)
    ax.set_title("(b) phases I (exponential) and II (peak)")
    ax = fig.add_subplot(2, 2, 3)
    ax.plot(tt, f["ltilde"], "--", label=r"$\tilde L$")
    ax.axhline(f["ltilde_inf"], color="k", lw=0.6, label=r"$1+\sigma^2-1/\kappa$")
    ax.plot(tt, yy[:, 1] / np.maximum(yy[:, 0], 1e-12) / 10, "--", label=r"$(\mu/\omega)/10$")
    ax.set_xlabel("$t$")
    ax.set_ylabel(r"$\tilde L$, $(\mu/\omega)/10$")
    ax.legend(fontsize=7)
    ax.set_title(r"(c) loss (Lyapunov) and $\mu/\omega$")
    ax = fig.add_subplot(2, 2, 4)
    ax.plot(tt, 2 * yy[:, 0] * yy[:, 1], "--", label=r"$2\omega\mu$")
    ax.axhline(f["eta_star"], color="k", lw=0.6, label=r"$1/\kappa$")
    ax.plot(tt, yy[:, 1], "--", label=r"$\mu$")
    ax.plot(tt[ok], f["m_star"], "-", lw=0.8, label=r"$m^*(\omega)$")
    ax.set_ylim(0, 3)
    ax.set_xlabel("$t$")
    ax.set_ylabel(r"$2\omega\mu$, $\mu$")
    ax.legend(fontsize=7)
    ax.set_title(r"(d) $\mu$ tracks $m^*(\omega)$")
    fig.suptitle(
        rf"hpcy25 Fig. 22: two-head gradient flow (B.4), {_SETTING}, $L = {_L}$, "
        r"$\epsilon = 10^{-3}$, $s = 1$"
    )
    return fig
