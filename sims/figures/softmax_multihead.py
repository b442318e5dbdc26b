"""hpcy25 figures, CPU-sized: Fig. 1/3 (trained KQ/OV heatmaps, H = 1, 2, 4), Fig. 4(a)(b) (risk vs
test length), Fig. 6 (true vs approximate loss landscape), Fig. 8 (softmax vs linear length
generalisation), Fig. 22 (two-head ODE phases).

Grammar (STYLE R17): theory solid lines, ODE dashed, simulations markers with ±2·se bars.
Each ``fig_*`` builds a :class:`matplotlib.figure.Figure` (never pyplot) from the same presets and
MC routes the checks use.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

import theory.softmax_multihead as th
from numerics.softmax_multihead.flows import STIFF, reduced_flow
from numerics.softmax_multihead.mc import ltilde_landscape_mc, risk_mc
from numerics.softmax_multihead.predictors import dgd_weights, gd_weights, ridge_weights, tf_weights
from sims.experiments.softmax_multihead import circuits, model_risk, trained

__all__ = ["fig_3", "fig_4a", "fig_4b", "fig_6", "fig_8", "fig_22"]

_D, _L, _S2 = 5, 40, 0.1


def fig_3(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 1 / Fig. 3: heatmaps of trained ``KQ^h`` and the OV row (as a column), H = 1, 2, 4."""
    fig = Figure(figsize=(13, 8), layout="constrained")
    rows = (1, 2, 4)
    grid = fig.add_gridspec(len(rows), 8, width_ratios=[4, 1] * 4)
    for r, H in enumerate(rows):
        res = trained(f"h{H}", seed=seed)
        KQ, OV = circuits(res.extra["experiment"], res.params)
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


def _ridge_curve(Lps: list[int], *, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array(
        [
            risk_mc(
                [lambda X, q: ridge_weights(X, q, _D * _S2)], d=_D, L=Lp, sigma2=_S2, n=n, rng=rng
            )[0].mean
            for Lp in Lps
        ]
    )


def fig_4a(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 4(a): ICL risk vs test length L' for trained H = 1, 2, 4 (trained at L = 40) over the
    closed-form DGD (η = 1/κ), GD (η_V*) and Bayes (ridge MC; R_B∞(d/L') dotted) curves."""
    Lps = [10, 20, 40, 60, 80, 100] if quick else list(range(10, 101, 5))
    fig = Figure(figsize=(6, 4.5), layout="constrained")
    ax = fig.add_subplot()
    xs = np.arange(5, 101)
    ax.plot(xs, th.dgd_risk(th.eta_star(_D, _L, _S2), _D, xs, _S2), "-", label="DGD, η=1/κ")
    ax.plot(xs, th.gd_risk(th.gd_eta_star(_D, _L, _S2), _D, xs, _S2), "-", label="GD, η=η_V*")
    ax.plot(xs, th.bayes_risk_limit(_D / xs, _S2), ":", label=r"$R_{B\infty}(d/L')$")
    ax.plot(
        Lps,
        _ridge_curve(Lps, n=2000 if quick else 20_000, seed=seed),
        "k^",
        ms=4,
        label="ridge (MC)",
    )
    for H, mk in ((1, "o"), (2, "s"), (4, "D")):
        res = trained(f"h{H}", seed=seed)
        ests = [
            model_risk(
                res.extra["experiment"], res.params, L=Lp, n=5000 if quick else 20_000, seed=seed
            )
            for Lp in Lps
        ]
        ax.errorbar(
            Lps,
            [e.mean for e in ests],
            yerr=[2 * e.se for e in ests],
            fmt=mk,
            ms=4,
            capsize=2,
            label=f"trained H={H}",
        )
    ax.set_xlabel("test prompt length L'")
    ax.set_ylabel("ICL risk (incl. σ²)")
    ax.set_ylim(0, 1.0)
    ax.legend(fontsize=7)
    ax.set_title("hpcy25 Fig. 4(a)")
    return fig


def fig_4b(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 4(b): estimator comparison vs L': two-head TF (0.13, 3.45), single-head TF
    (1/√5, 1.6277), GD and DGD with η = 0.897 (closed forms + MC), ridge (MC)."""
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
    fig = Figure(figsize=(6, 4.5), layout="constrained")
    ax = fig.add_subplot()
    xs = np.arange(5, 101)
    ax.plot(xs, th.gd_risk(0.897, _D, xs, _S2), "-", color="C2", label="GD (closed form)")
    ax.plot(xs, th.dgd_risk(0.897, _D, xs, _S2), "-", color="C3", label="DGD (closed form)")
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
    ax.set_xlabel("L'")
    ax.set_ylabel("risk")
    ax.legend(fontsize=7)
    ax.set_title("hpcy25 Fig. 4(b): estimators at fixed parameters")
    return fig


def fig_6(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 6: true two-head loss (MC) vs ``L̃`` on ω ∈ [0, 0.2], μ ∈ [0, 6], their difference, and
    the valley ``μ = m*(ω)``."""
    omegas = np.linspace(0, 0.2, 10 if quick else 20)
    mus = np.linspace(0, 6, 10 if quick else 20)
    mc, _ = ltilde_landscape_mc(
        omegas,
        mus,
        d=_D,
        L=_L,
        sigma2=_S2,
        n=5000 if quick else 10_000,
        rng=np.random.default_rng(seed),
    )
    W, M = np.meshgrid(omegas, mus, indexing="ij")
    lt = th.ltilde_fn([W, -W], [M, -M], _D, _L, _S2)
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
        ws = omegas[1:]
        ax.plot(
            th.m_star(ws, _D, _L, _S2), ws, "w--" if k < 2 else "k--", lw=1, label=r"$m^*(\omega)$"
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
    Lps = [10, 20, 40, 60, 80, 100] if quick else list(range(10, 101, 10))
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
        res = trained(pre, seed=seed)
        ests = [
            model_risk(
                res.extra["experiment"], res.params, L=Lp, n=5000 if quick else 20_000, seed=seed
            )
            for Lp in Lps
        ]
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
    ax.set_xlabel("test prompt length L' (trained at L=40)")
    ax.set_ylabel("ICL risk")
    ax.legend(fontsize=7)
    ax.set_title("hpcy25 Fig. 8: softmax vs linear attention")
    return fig


def fig_22(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 22: the two-head ODE (B.4) from ε = 1e-3 (s = 1): (a) full trajectories, log time, with
    the late law μ ~ t^{1/6} and the paper heuristic's ω ~ t^{-1/2}; (b) early phase with ε e^{2st};
    (c) L̃ and μ/ω; (d) ωμ, μ and m*(ω)."""
    tr = reduced_flow(1e5 if quick else 1e6, solver=STIFF)
    fig = Figure(figsize=(12, 8), layout="constrained")
    t = np.logspace(-1, 5 if quick else 6, 600)
    y = tr(t)
    ax = fig.add_subplot(2, 2, 1)
    ax.loglog(t, y[:, 0], "--", label=r"$\omega$ (ODE)")
    ax.loglog(t, y[:, 1], "--", label=r"$\mu$ (ODE)")
    tl = t[t > 100]
    ax.loglog(tl, th.late_mu_law(tl, _D, _L, _S2), "-", lw=0.8, label=r"law $\mu\sim t^{1/6}$")
    ax.loglog(
        tl,
        th.heuristic_late_omega(tl, _D, _L, _S2),
        ":",
        lw=0.8,
        label=r"paper heuristic $\omega\sim t^{-1/2}$",
    )
    ax.set_ylim(1e-3, 20)
    ax.set_xlabel("t")
    ax.legend(fontsize=7)
    ax.set_title("(a) trajectories")
    te = np.linspace(0, 12, 400)
    ye = tr(te)
    ax = fig.add_subplot(2, 2, 2)
    ax.plot(te, ye[:, 0], "--", label=r"$\omega$")
    ax.plot(te, ye[:, 1], "--", label=r"$\mu$")
    ax.plot(te[te < 3], th.phase1_omega(te[te < 3], 1e-3), "-", lw=0.8, label=r"$\epsilon e^{2t}$")
    ax.axvspan(0, 2.75, alpha=0.1, color="C0")
    ax.axvspan(2.75, 3.85, alpha=0.1, color="C1")
    ax.set_ylim(0, 1.2)
    ax.legend(fontsize=7)
    ax.set_title("(b) phases I (exponential) and II (peak)")
    ax = fig.add_subplot(2, 2, 3)
    tt = np.linspace(0, 30, 600)
    yy = tr(tt)
    ax.plot(tt, th.ltilde_reduced(yy[:, 0], yy[:, 1], _D, _L, _S2), "--", label=r"$\tilde L$")
    ax.axhline(th.ltilde_inf(_D, _L, _S2), color="k", lw=0.6, label=r"$1+\sigma^2-1/\kappa$")
    ax.plot(tt, yy[:, 1] / np.maximum(yy[:, 0], 1e-12) / 10, "--", label=r"$(\mu/\omega)/10$")
    ax.legend(fontsize=7)
    ax.set_title("(c) loss (Lyapunov) and μ/ω")
    ax = fig.add_subplot(2, 2, 4)
    ax.plot(tt, 2 * yy[:, 0] * yy[:, 1], "--", label=r"$2\omega\mu$")
    ax.axhline(th.eta_star(_D, _L, _S2), color="k", lw=0.6, label=r"$1/\kappa$")
    ax.plot(tt, yy[:, 1], "--", label=r"$\mu$")
    ok = yy[:, 0] > 1e-3
    ax.plot(tt[ok], th.m_star(yy[ok, 0], _D, _L, _S2), "-", lw=0.8, label=r"$m^*(\omega)$")
    ax.set_ylim(0, 3)
    ax.legend(fontsize=7)
    ax.set_title("(d) μ tracks m*(ω)")
    fig.suptitle("hpcy25 Fig. 22: two-head gradient flow (B.4), ε=1e-3, s=1")
    return fig
