"""zfb24 figures (spec 004 §4): Figure 1's theory content at CPU scale (P1 + P2), the R(M, N)
rates, and the Lemma 10 flow trajectory.

Theory: solid lines; ODE: dashed; simulations (trained models, Monte Carlo): markers with ±2·se
bars; rates on log-log axes with the fitted slope in the legend.  ``matplotlib.figure.Figure`` only.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from numerics.zfb24.figures import compute_fig_1, compute_flow_trajectory, compute_risk_rates
from sims.zfb24.train import blocks, final_weights, setting_of, trained

__all__ = ["fig_1", "fig_risk_rates", "fig_flow_trajectory"]


def fig_1(*, quick: bool = True, seed: int = 0) -> Figure:
    """Figure 1 (normalised error ÷ d vs test length M): fixed Λ = I and random Λ = c·diag(Exp(1)),
    c ∈ {1, 4, 9}.  d = 20 theory: zero estimator, least squares (closed form / MC), LSA trained on
    random (δ_R) and fixed (δ_F) covariance at N = 40, LSA limit; overlaid: a d = 5, N = 20 LSA
    trained on random covariance (markers, MC on fresh prompts) and its r(δ_learned, c, M).
    Numbers: :func:`numerics.zfb24.figures.compute_fig_1` on the trained model's P."""
    r5 = trained("fig1_random_cov", seed=seed)
    data = compute_fig_1(blocks(*final_weights(r5))["P"], setting_of(r5).N, quick=quick, seed=seed)
    d5, N5, delta5 = data["d_trained"], data["N_trained"], data["delta_learned"]
    Ms, Mm = data["Ms"], data["mc_Ms"]
    fig = Figure(figsize=(14, 3.8))
    axes = fig.subplots(1, 4)
    for ax, p in zip(axes, data["panels"], strict=True):
        c = p["c"]
        ymax = 1.0 if c is None else c
        title = (
            "Test on Fixed Covariance"
            if c is None
            else f"Test on Random Covariance, Scale = {c:.1f}"
        )
        ax.axhline(ymax, color="gray", ls="--", label="zero estimator")
        ax.plot(
            *p["least_squares"], color="C0", label="least squares" + ("" if c is None else " (MC)")
        )
        ax.plot(Ms, p["delta_R"], color="C1", label="LSA random-trained (δ_R)")
        ax.plot(Ms, p["delta_F"], color="C2", label="LSA fixed-trained (δ_F)")
        ax.axhline(
            p["limit"], color="k", ls="--", label="LSA limit (4/9)" if c is None else "LSA limit"
        )
        ax.plot(
            Ms,
            p["learned"],
            color="C3",
            ls=":",
            label=(f"r_I(δ_learned), d={d5}" if c is None else f"r(δ_learned), d={d5}"),
        )
        ests = p["mc"]
        ax.errorbar(
            Mm,
            [e.mean for e in ests],
            yerr=[2 * e.se for e in ests],
            fmt="o",
            color="C3",
            ms=4,
            label=f"trained LSA d={d5}, N={N5} (MC)",
        )
        ax.set_ylim(0, ymax * (1.05 if c != 9.0 else 0.95))
        if c is not None and c > 1:
            ax.text(
                50,
                0.5 * ymax,
                f"LSA curves off-axis:\nlimit {p['limit']:.1f},\n"
                f"trained d=5 at M=80: {ests[-1].mean:.1f}",
                fontsize=7,
                ha="center",
            )
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("in-context examples M")
    axes[0].set_ylabel("squared error / d")
    axes[0].legend(fontsize=6)
    fig.suptitle(
        f"zfb24 Figure 1 (theory, d={data['d']}, N={data['N']}) with a trained d={d5} LSA "
        f"(δ = {delta5:.3f})",
        fontsize=10,
    )
    fig.tight_layout()
    return fig


def fig_risk_rates(*, quick: bool = True, seed: int = 0) -> Figure:
    """R(M, N) (Λ = diag(0.5, 1, 1.5, 2)) against M with the Corollary 6 bounds and MC markers, and
    the floor R(∞, N) against N, with fitted log-log slopes (−1 in M, −2 in N); the numbers are
    :func:`numerics.zfb24.figures.compute_risk_rates`."""
    r = compute_risk_rates(quick=quick, seed=seed)
    fig = Figure(figsize=(10, 4))
    ax1, ax2 = fig.subplots(1, 2)
    Ms = r["Ms"]
    for (N, cv), col in zip(r["curves"].items(), ("C0", "C1", "C2"), strict=True):
        ax1.loglog(Ms, cv["R"], color=col, label=f"R(M, N={N}), slope(M≤N/4) {cv['slope']:.2f}")
        ax1.loglog(Ms, cv["bound"], color=col, ls=":", lw=0.8)
    ests = r["mc"]
    ax1.errorbar(
        r["mc_Ms"],
        [e.mean for e in ests],
        yerr=[2 * e.se for e in ests],
        fmt="o",
        color="C0",
        label=f"MC, N={r['mc_N']}",
    )
    ax1.set_xlabel("test length M")
    ax1.set_ylabel("E(ŷ − y)², w ~ N(0, I)")
    ax1.legend(fontsize=7, title="dotted: Corollary 6 bound", title_fontsize=7)
    Ns = r["Ns"]
    ax2.loglog(Ns, r["floor"], color="C0", label=f"R(∞, N), slope {r['floor_slope']:.3f}")
    ax2.loglog(Ns, r["eta"], color="C1", ls=":", label="η (Corollary 6)")
    ax2.set_xlabel("training length N")
    ax2.legend(fontsize=7)
    fig.suptitle("zfb24 rates: O(1/M) + O(1/N²)", fontsize=10)
    fig.tight_layout()
    return fig


def fig_flow_trajectory(*, quick: bool = True, seed: int = 0) -> Figure:
    """Lemma 10 from Assumption 3 (spec reference: Λ = diag(0.5, 1, 1.5, 2), N = 16, σ = 0.3,
    random Θ): U₁₁ entries, u₋₁ with u_min and its limit, the balancedness error, and ℓ̃ − min
    against the PL envelope e^{−μt}(ℓ̃(0) − min); the numbers are
    :func:`numerics.zfb24.figures.compute_flow_trajectory`."""
    r = compute_flow_trajectory(quick=quick, seed=seed)
    ts, Us, us, Ue = r["ts"], r["U11"], r["u"], r["U11_limit"]
    fig = Figure(figsize=(12, 3.6))
    a, b, c, e = fig.subplots(1, 4)
    for i in range(4):
        for j in range(4):
            a.plot(ts, Us[:, i, j], ls="--", lw=0.8, color=f"C{i}" if i == j else "gray")
        a.axhline(Ue[i, i], color=f"C{i}", lw=0.5)
    a.set_title("U₁₁(t) entries (dashed) and limits", fontsize=9)
    b.plot(ts, us, ls="--", label="u₋₁(t) (ODE)")
    b.axhline(r["u_limit"], color="k", label="‖Γ⁻¹‖_F^½")
    b.axhline(r["u_min"], color="r", ls=":", label="u_min (Lemma 19)")
    b.legend(fontsize=7)
    c.semilogy(ts, np.maximum(r["balance"], 1e-18), ls="--")
    c.set_title("|u₋₁² − ‖U₁₁‖_F²| (Lemma 17)", fontsize=9)
    ell, mu = r["excess_loss"], r["mu"]
    e.semilogy(ts, np.maximum(ell, 1e-16), ls="--", label="ℓ̃ − min ℓ̃ (ODE)")
    e.semilogy(ts, ell[0] * np.exp(-mu * ts), color="k", label=f"PL envelope, μ = {mu:.2e}")
    e.legend(fontsize=7)
    for ax in (a, b, c, e):
        ax.set_xlabel("t")
    fig.suptitle("zfb24 Lemma 10 gradient flow from Assumption 3", fontsize=10)
    fig.tight_layout()
    return fig


# Old names of the figures (the same functions).
fig_figure1 = fig_1
fig_rates = fig_risk_rates
fig_ode_trajectory = fig_flow_trajectory
