"""zfb24 figures: Figure 1's theory content at CPU scale, the R(M, N) rates, and the Lemma 10
flow trajectory.

Theory: solid lines; ODE: dashed; simulations (trained models, Monte Carlo): markers with ±2·se
bars; rates on log-log axes with the fitted slope in the legend (slopes only there).  Labels in
mathtext; the setting drawn is stated in the title.  ``matplotlib.figure.Figure`` only.
:func:`fig_flow_trajectory` also draws at a researcher's Setting (``figure zfb24:lem10 --set``).
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from numerics.zfb24.figures import compute_fig_1, compute_flow_trajectory, compute_risk_rates
from numerics.zfb24.sampling import spec_Lambda
from sims.zfb24.train import blocks, final_weights, setting_of, trained
from theory.zfb24.settings import Setting

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
            r"test on fixed covariance $\Lambda = I$"
            if c is None
            else rf"test on random covariance, scale $c = {c:g}$"
        )
        ax.axhline(ymax, color="gray", ls="--", label="zero estimator")
        ax.plot(
            *p["least_squares"], color="C0", label="least squares" + ("" if c is None else " (MC)")
        )
        ax.plot(Ms, p["delta_R"], color="C1", label=r"LSA random-trained ($\delta_R$)")
        ax.plot(Ms, p["delta_F"], color="C2", label=r"LSA fixed-trained ($\delta_F$)")
        ax.axhline(
            p["limit"], color="k", ls="--", label="LSA limit (4/9)" if c is None else "LSA limit"
        )
        ax.plot(
            Ms,
            p["learned"],
            color="C3",
            ls=":",
            label=(
                rf"$r_I(\delta_{{\mathrm{{learned}}}})$, $d={d5}$"
                if c is None
                else rf"$r(\delta_{{\mathrm{{learned}}}}, c, M)$, $d={d5}$"
            ),
        )
        ests = p["mc"]
        ax.errorbar(
            Mm,
            [e.mean for e in ests],
            yerr=[2 * e.se for e in ests],
            fmt="o",
            color="C3",
            ms=4,
            label=rf"trained LSA $d={d5}$, $N={N5}$ (MC)",
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
        ax.set_xlabel(r"in-context examples $M$")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    fig.supylabel(r"squared error $/\, d$", fontsize=10)
    axes[0].legend(fontsize=6)
    fig.suptitle(
        rf"zfb24 Figure 1: theory at $d={data['d']}$, $N={data['N']}$, with an LSA trained at "
        rf"$d={d5}$, $N={N5}$ ($\delta = {delta5:.3f}$)",
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
        ax1.loglog(
            Ms,
            cv["R"],
            color=col,
            label=rf"$R(M, N={N})$, slope ($M \leq N/4$) {cv['slope']:.2f}",
        )
        ax1.loglog(Ms, cv["bound"], color=col, ls=":", lw=0.8)
    ests = r["mc"]
    ax1.errorbar(
        r["mc_Ms"],
        [e.mean for e in ests],
        yerr=[2 * e.se for e in ests],
        fmt="o",
        color="C0",
        label=rf"Monte Carlo, $N={r['mc_N']}$",
    )
    ax1.set_xlabel(r"test prompt length $M$")
    ax1.set_ylabel(r"risk $R(M, N) = \mathbb{E}(\hat y - y)^2$, $w \sim N(0, I)$")
    ax1.legend(fontsize=7, title="dotted: Corollary 6 bound", title_fontsize=7)
    Ns = r["Ns"]
    ax2.loglog(Ns, r["floor"], color="C0", label=rf"$R(\infty, N)$, slope {r['floor_slope']:.3f}")
    ax2.loglog(Ns, r["eta"], color="C1", ls=":", label=r"$\eta$ (Corollary 6)")
    ax2.set_xlabel(r"training prompt length $N$")
    ax2.set_ylabel(r"risk floor $R(\infty, N)$")
    ax2.legend(fontsize=7)
    spec = ", ".join(f"{v:g}" for v in np.diag(spec_Lambda()))
    fig.suptitle(
        rf"zfb24 rates $O(1/M) + O(1/N^2)$ at $\Lambda = \mathrm{{diag}}({spec})$",
        fontsize=10,
    )
    fig.tight_layout()
    return fig


def fig_flow_trajectory(
    *, quick: bool = True, seed: int = 0, setting: Setting | None = None
) -> Figure:
    """Lemma 10 from Assumption 3 (default: Λ = diag(0.5, 1, 1.5, 2), N = 16, σ = 0.3, random
    Θ; or a researcher's ``setting``: Λ = diag(spectrum), N, σ = sigma_init): U₁₁ entries, u₋₁
    with u_min and its limit, the balancedness error, and ℓ̃ − min against the PL envelope
    e^{−μt}(ℓ̃(0) − min); the numbers are :func:`numerics.zfb24.figures.compute_flow_trajectory`."""
    kw: dict = {}
    if setting is not None:
        if setting.spectrum is None:
            raise ValueError(
                "spectrum=none: the Lemma 10 figure draws Λ = diag(spectrum); give a spectrum "
                "(e.g. --set spectrum=0.5,1,1.5,2)"
            )
        kw = {"Lambda": np.diag(setting.spectrum), "N": setting.N, "sigma_init": setting.sigma_init}
    r = compute_flow_trajectory(quick=quick, seed=seed, **kw)
    ts, Us, us, Ue = r["ts"], r["U11"], r["u"], r["U11_limit"]
    d = Us.shape[1]
    lam = np.diag(spec_Lambda()) if setting is None else np.asarray(setting.spectrum)
    own = compute_flow_trajectory.__kwdefaults__ or {}
    N = kw.get("N", own["N"])
    s0 = kw.get("sigma_init", own["sigma_init"])
    fig = Figure(figsize=(13, 3.8))
    a, b, c, e = fig.subplots(1, 4)
    for i in range(d):
        for j in range(d):
            a.plot(ts, Us[:, i, j], ls="--", lw=0.8, color=f"C{i}" if i == j else "gray")
        a.axhline(Ue[i, i], color=f"C{i}", lw=0.5)
    a.set_title(r"$U_{11}(t)$ entries (dashed) and limits", fontsize=9)
    a.set_ylabel(r"entry of $U_{11}(t)$")
    b.plot(ts, us, ls="--", label=r"$u_{-1}(t)$ (ODE)")
    b.axhline(r["u_limit"], color="k", label=r"limit $\|\Gamma^{-1}\|_F^{1/2}$")
    b.axhline(r["u_min"], color="r", ls=":", label=r"$u_{\min}$ (Lemma 19)")
    b.set_ylabel(r"$u_{-1}(t)$")
    b.legend(fontsize=7)
    c.semilogy(ts, np.maximum(r["balance"], 1e-18), ls="--")
    c.set_title(r"balancedness (Lemma 17)", fontsize=9)
    c.set_ylabel(r"$|u_{-1}^2 - \|U_{11}\|_F^2|$")
    ell, mu = r["excess_loss"], r["mu"]
    e.semilogy(ts, np.maximum(ell, 1e-16), ls="--", label=r"$\tilde\ell - \min \tilde\ell$ (ODE)")
    e.semilogy(ts, ell[0] * np.exp(-mu * ts), color="k", label=rf"PL envelope, $\mu = {mu:.2e}$")
    e.set_ylabel(r"excess loss $\tilde\ell - \min \tilde\ell$")
    e.legend(fontsize=7)
    for ax in (a, b, c, e):
        ax.set_xlabel(r"flow time $t$")
    spec = ", ".join(f"{v:g}" for v in lam)
    fig.suptitle(
        rf"zfb24 Lemma 10 gradient flow from Assumption 3: $\Lambda = \mathrm{{diag}}({spec})$, "
        rf"$N = {N}$, $\sigma = {s0:g}$, random $\Theta$ (seed {seed})",
        fontsize=10,
    )
    fig.tight_layout()
    return fig


# Old names of the figures (the same functions).
fig_figure1 = fig_1
fig_rates = fig_risk_rates
fig_ode_trajectory = fig_flow_trajectory
