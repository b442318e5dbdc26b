"""collins24 figures (spec 003 §4): ω* against Λ with the bracket and the fitted slope (Theorem 3.4
as a figure), the transfer curves of Theorem 3.5 (Fig. 5's message), ‖M‖ over training with the
population optima drawn as lines (Figs. 3-4: σ, L and n ablations and the U^d_S panels),
Fig. 1's attention weights, and Fig. 5's pretrain/test matrix.

Theory: solid lines; simulations: markers; rates on log-log axes with the fitted slope in the
legend.  Built with ``matplotlib.figure.Figure`` (never pyplot); never imports checks.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from numerics.softmax_window.anisotropic import optimal_diag_M
from numerics.softmax_window.api import fig1_errors, spline_argmin
from numerics.softmax_window.predictors import softmax_predict
from numerics.softmax_window.quadrature import optimal_scale_affine, window_terms
from numerics.softmax_window.sampling import sample_prompts
from numerics.testing import loglog_slope
from sims.experiments.softmax_window import L_RUNS, PRESETS, SIGMAS, trained
from theory.settings.softmax_window import SoftmaxWindowSetting
from theory.softmax_window import (
    affine_optimum_asymptote,
    rho_metric,
    signal_functional,
    thm34_bracket,
    transfer_risk,
)

__all__ = ["fig_omega_lambda", "fig_transfer", "fig_training_norm", "fig_weights",
           "fig_lowrank_rho", "fig_error_vs_n", "fig_pretrain_matrix"]



def fig_omega_lambda(*, quick: bool = True, seed: int = 0) -> Figure:
    """Theorem 3.4 as a figure: quadrature ω* vs Λ (d = 3, n = 2000, affine), the R0.8 asymptote,
    and the reconstructed bracket's exponents as guide lines through the middle point."""
    fig = Figure(figsize=(6, 4.5))
    ax = fig.subplots()
    d, n = 3, 2000
    lams = np.geomspace(500, 8e5, 5 if quick else 9)
    ws = np.array([optimal_scale_affine(d, n, 1.0, n / lam)[0] for lam in lams])
    ax.loglog(lams, ws, "o", label=f"quadrature omega*, slope {loglog_slope(lams, ws):.3f}")
    ax.loglog(lams, [affine_optimum_asymptote(lam, d) for lam in lams], "-",
              label="asymptote, slope 2/(d+3) = 0.333")
    lo, hi = thm34_bracket(d, "affine")
    mid = len(lams) // 2
    for e, style in ((float(lo), ":"), (float(hi), "--"), (2 / (d + 4), "-.")):
        ax.loglog(lams, ws[mid] * (lams / lams[mid]) ** e, style, lw=1,
                  label=f"Lambda^{e:.3f}" + (" (paper's 2/(d+4))" if style == "-." else
                                              " (bracket)"))
    ax.set(xlabel="Lambda = n L^2 / sigma^2", ylabel="omega*",
           title="Theorem 3.4: omega* vs Lambda (affine, d = 3, n = 2000)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def fig_transfer(*, quick: bool = True, seed: int = 0) -> Figure:
    """Theorem 3.5 / Fig. 5: 𝓛_test(L′) of units pretrained at L ∈ {0.03, 0.1, 1} (σ = 0.01,
    d = 5, n = 20), each tangent to the envelope 𝓛*(L′) at L′ = L (quadrature)."""
    fig = Figure(figsize=(6, 4.5))
    ax = fig.subplots()
    d, n, s2 = 5, 20, 1e-4
    Lps = np.geomspace(0.01, 3.0, 10 if quick else 25)
    env = [optimal_scale_affine(d, n, float(Lp), s2)[1] for Lp in Lps]
    ax.loglog(Lps, env, "k-", lw=2, label="envelope L*(L')")
    for L in (0.03, 0.1, 1.0):
        w = optimal_scale_affine(d, n, L, s2)[0]
        wt = window_terms(w, n, d)
        ax.loglog(Lps, [transfer_risk(float(Lp), signal_functional(wt.A, d), wt.N, s2) for Lp in Lps], "-",
                  label=f"pretrained L = {L} (omega = {w:.2f})")
    ax.set(xlabel="test Lipschitz constant L'", ylabel="ICL risk",
           title="Theorem 3.5: transfer across L (d=5, n=20, sigma=0.01)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def fig_training_norm(*, quick: bool = True, seed: int = 0) -> Figure:
    """Figs. 3-4 (affine, d = 5): ‖M‖₂ over training (trained units, markers) for several σ
    (L = 1, n = 20), several L and several n (σ = 0.01), and on the non-isotropic sphere U^d_S for
    several L, with the population optima drawn as horizontal lines: ω* by quadrature
    (‖ωI‖₂ = ω) and, for U^d_S, ‖diag(m*)‖₂ of the MC optimum over diagonal M."""
    fig = Figure(figsize=(11, 8))
    axes = fig.subplots(2, 2).ravel()
    s2 = 1e-4
    ns = (5, 10, 20) if quick else (5, 10, 20, 50, 100, 200)
    panels = [
        ("sigma (L = 1, n = 20)", [(s, f"s1_sigma{s:g}", optimal_scale_affine(5, 20, 1.0, s * s)[0])
                                   for s in SIGMAS]),
        ("L (sigma = 0.01, n = 20)", [(L, p, optimal_scale_affine(5, 20, L, s2)[0])
                                      for L, p in (L_RUNS[1:] if quick else L_RUNS)]),
        ("n (sigma = 0.01, L = 1)", [(n, "s1_sigma0.01" if n == 20 else f"f34_n{n}",
                                     optimal_scale_affine(5, n, 1.0, s2)[0]) for n in ns]),
    ]
    rng = np.random.default_rng(seed + 17)
    acg = []
    for L in ((0.01, 0.1) if quick else (0.01, 0.1, 1.0)):
        st = PRESETS[f"f34_acg_L{L:g}"][0].setting
        acg.append((L, f"f34_acg_L{L:g}", float(np.max(
            optimal_diag_M(st, 20_000 if quick else 80_000, rng).m))))
    panels.append(("L on U^d_S (sigma = 0.01, n = 20)", acg))
    for ax, (label, runs) in zip(axes, panels, strict=True):
        for v, preset, w in runs:
            tr = trained(preset, seed=seed).extra["M_trace"]
            line = ax.plot(tr[:, 0], tr[:, 1], ".", ms=2, label=f"trained, {label.split()[0]} = "
                           f"{v:g}")[0]
            ax.axhline(w, color=line.get_color(), lw=1)
        ax.set(xlabel="step", ylabel="||M||_2", title=f"Figs. 3-4: ||M|| vs {label}")
        ax.legend(fontsize=7)
    fig.suptitle("lines: population optima (quadrature; U^d_S: MC over diagonal M)")
    fig.tight_layout()
    return fig


def fig_weights(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 1 (middle row), population version: attention weight against the angular offset from
    the query for the affine optima at σ ∈ {1, .1, .01} (softmax ∝ e^{ω cos Δθ}, its width adapts)
    and linear attention (∝ cos Δθ, one shape for every task), d = 2."""
    fig = Figure(figsize=(6, 4.5))
    ax = fig.subplots()
    th = np.linspace(-np.pi, np.pi, 400)
    for s in (1.0, 0.1, 0.01):
        w = optimal_scale_affine(2, 20, 1.0, s * s)[0]
        k = np.exp(w * (np.cos(th) - 1))
        ax.plot(th, k / k.max(), "-", label=f"softmax, omega* = {w:.2f} (sigma = {s:g})")
    ax.plot(th, np.cos(th), "--", label="linear attention (any M = mI)")
    ax.set(xlabel="angle to the query", ylabel="relative weight",
           title="Fig. 1: softmax window adapts, linear attention does not (d = 2, n = 20)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def fig_lowrank_rho(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 9 at the S5 size (d = 6, k = 2, n = 20, σ = 0, Assumption 4.3): ρ(M, B) =
    ‖B⊥ᵀMB⊥‖₂/σ_min(BᵀMB) of the trained untied unit over training (log scale)."""
    fig = Figure(figsize=(6, 4.5))
    ax = fig.subplots()
    r = trained("s5_lowrank", seed=seed)
    d, k = 6, 2
    B = np.eye(d)[:, :k]
    steps = r.extra["M_trace"][:, 0]
    rho = [rho_metric(0.5 * (M + M.T), B) for M in r.extra["M_snapshots"]]
    ax.semilogy(steps, rho, ".", ms=3, label="trained softmax unit")
    ax.axhline(0.05, color="k", lw=1, label="S5 pass level 0.05")
    ax.set(xlabel="step", ylabel="rho(M, B)", title="Fig. 9 / Theorem 4.4: attention learns the "
           "projection (d=6, k=2)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def fig_error_vs_n(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 1 (bottom row), population version: ICL error of the optimal softmax unit (blue) and
    of the best linear attention (orange) against n for the hills f = cos(νθ − b), ν ∈ {0, 1.5,
    6}, σ² = 0.01 (MC, ±2 se), replacing the paper's 15k-step units per point."""
    fig = Figure(figsize=(11, 3.6))
    axes = fig.subplots(1, 3)
    rng = np.random.default_rng(seed)
    ns = np.array([5, 10, 20, 50] if quick else [5, 10, 20, 50, 100, 200])
    for ax, nu in zip(axes, (0.0, 1.5, 6.0), strict=True):
        rows = [fig1_errors(nu, int(n), 0.01, rng, reps=4000 if quick else 20_000) for n in ns]
        for k, (lab, col) in enumerate((("softmax", "tab:blue"), ("linear", "tab:orange"))):
            m = np.array([(r[0] if k == 0 else r[1]).mean for r in rows])
            e = np.array([2 * (r[0] if k == 0 else r[1]).se for r in rows])
            ax.errorbar(ns, m, yerr=e, fmt="o-", color=col, ms=3, label=lab)
        ax.set(xscale="log", yscale="log", xlabel="n", title=f"nu = {nu:g}")
    axes[0].set_ylabel("ICL error")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def fig_pretrain_matrix(*, quick: bool = True, seed: int = 0, reps: int = 0) -> Figure:
    """Fig. 5 (left panels) as a matrix: the MC risk of units pretrained on affine, 2-ReLU and
    cosine tasks (σ = 0.01, L = 1, d = 5, n = 20) and of S3's mismatched L = 0.03 unit, on each
    test class, divided by that class's best M = ωI (spline of the MC risk over ω, same prompts)."""
    rng = np.random.default_rng(seed + 41)
    reps = reps or (8_000 if quick else 40_000)
    units = {"affine": "s1_sigma0.01", "2-ReLU": "s2_relu_sigma0.01",
             "cosine": "s2_cos_sigma0.01", "affine L = 0.03": "s3_L0.03"}
    Ms = {k: trained(p, seed=seed).extra["M_avg"] for k, p in units.items()}
    omegas = np.geomspace(0.5, 60.0, 24)
    tests = ("affine", "relu", "cos")
    ratio = np.zeros((len(units), len(tests)))
    for j, task in enumerate(tests):
        p = sample_prompts(SoftmaxWindowSetting.isotropic(d=5, n=20, L=1.0, sigma2=1e-4,
                                                          task=task), reps, rng)
        curve = np.array([np.mean((softmax_predict(p.X, p.y, p.xq, float(w)) - p.fq) ** 2)
                          for w in omegas])
        best = spline_argmin(omegas, curve)[1]
        for i, M in enumerate(Ms.values()):
            ratio[i, j] = np.mean((softmax_predict(p.X, p.y, p.xq, M) - p.fq) ** 2) / best
    fig = Figure(figsize=(6, 4.5))
    ax = fig.subplots()
    im = ax.imshow(ratio, cmap="viridis", vmin=1.0)
    for i in range(ratio.shape[0]):
        for j in range(ratio.shape[1]):
            ax.text(j, i, f"{ratio[i, j]:.3f}", ha="center", va="center", color="w", fontsize=8)
    ax.set_xticks(range(len(tests)), ["affine", "2-ReLU", "cosine"])
    ax.set_yticks(range(len(units)), list(units))
    ax.set(xlabel="test class", ylabel="pretrained on",
           title="Fig. 5: risk / best omega I (d=5, n=20, sigma=0.01)")
    fig.colorbar(im, ax=ax)
    fig.tight_layout()
    return fig
