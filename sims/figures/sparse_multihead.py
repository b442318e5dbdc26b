"""czz24 figures (spec 000 §4): Fig. 1b baselines, Fig. 2c pre-GD vs GD over steps, the bounds vs
the empirical rates of Thms 5.1–5.3, and the head-importance heat map of a trained model.

Theory: solid lines; Monte Carlo: markers with ±2·se bars; the spec's printed values: crosses.
Built with ``matplotlib.figure.Figure`` (never pyplot); never imports checks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from matplotlib.figure import Figure
from scipy import stats

from numerics.montecarlo import estimate_from_samples
from numerics.sparse_multihead.heads import head_deltas, to_weights
from numerics.sparse_multihead.predictors import (
    ALPHA_GRID,
    bayes_fit,
    lasso_fit,
    ridge_fit,
)
from numerics.sparse_multihead.risk import tuned_risks_cached
from numerics.sparse_multihead.sampling import sample_sparse_prompts
from sims.experiments.sparse_multihead import (
    FIG1B_PRESETS,
    PRESETS,
    build_model,
    coefficients,
    load_model,
    trained,
)
from sims.models.sparse_multihead import MaskedLinearTF
from sims.models.sparse_multihead_probe import (
    PPROBE_IDEAL,
    PPROBE_STEPS,
    pprobe_curve,
    probe_errors,
)
from theory.settings import SparseRegressionICL
from theory.sparse_multihead import (
    head_importance,
    ols_excess_risk,
    pregd_gram,
    rhat,
    sorted_importance,
    thm51_bound,
    thm52_bound,
    thm53_rate,
)

__all__ = ["fig_fig1b", "fig_fig2c", "fig_bounds", "fig_heads", "fig_probe", "FIG1B_SPEC",
           "FIG2C_SPEC"]

#: Spec §4 Fig. 1b table (σ = 0.1, d = 16, s = 4, experimental prior): n -> (ridge*, lasso*, Bayes).
FIG1B_SPEC = {2: (3.35, 3.70, 3.26), 4: (2.92, 3.03, 2.44), 6: (2.48, 1.97, 1.09),
              8: (2.05, 1.11, 0.13), 10: (1.46, 0.30, 0.018), 12: (1.02, 0.096, 0.010),
              14: (0.60, 0.035, 0.006), 16: (0.28, 0.016, 0.005), 18: (0.12, 0.013, 0.004),
              20: (0.049, 0.010, 0.003), 22: (0.033, 0.008, 0.003), 24: (0.023, 0.007, 0.002)}
#: Spec §4 Fig. 2c reproduction (n = 10): σ -> {method: (η, risks at 0, 1k, ..., 9k)}.
FIG2C_SPEC = {
    0.0: {"gd": (0.1, (4.00,) + (1.52,) * 9),
          "pre_gd": (1e-3, (3.97, 1.50, 1.29, 1.19, 1.13, 1.09, 1.05, 1.03, 1.01, 0.99))},
    0.2: {"gd": (1e-2, (3.98, 1.57) + (1.56,) * 8),
          "pre_gd": (1e-2, (4.10, 1.06, 1.01, 1.00, 1.00, 1.00, 1.01, 1.01, 1.02, 1.02))},
    0.8: {"gd": (1e-4, (4.05, 3.43, 3.05, 2.81, 2.64, 2.52, 2.44, 2.37, 2.32, 2.29)),
          "pre_gd": (1e-3, (4.09, 1.83, 1.71, 1.68, 1.67, 1.68, 1.69, 1.70, 1.72, 1.74))},
}


def _slope(x: Any, y: Any) -> float:
    fit: Any = stats.linregress(np.log(x), np.log(y))
    return float(fit.slope)


def fig_fig1b(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 1b baselines (σ = 0.1, d = 16, s = 4, experimental prior): exact OLS (solid, spike at
    n = 16 clipped, never Monte Carlo at n ∈ {15, 16, 17}), MC ridge*, lasso*, Bayes, and the small
    trained masked linear TFs (trained at n = 12, evaluated at each n with attention scale 1/n;
    quick: heads (4, 4, 4); --full: L = 4, h ∈ {1, 4, 8}); the spec's table as crosses."""
    fig = Figure(figsize=(6, 4))
    ax = fig.subplots()
    d, s, s2 = 16, 4, 0.01
    ns_exact = [m for m in range(2, 26) if abs(m - d) > 1]
    ax.plot(ns_exact, [min(ols_excess_risk(d, m, s2, float(s)), 5.0) for m in ns_exact], "-",
            color="k", label="OLS exact (clipped at 5)")
    ns = (4, 8, 12, 20) if quick else tuple(FIG1B_SPEC)
    trials = 40 if quick else 300
    curves: dict[str, list[tuple[float, float]]] = {"ridge*": [], "lasso*": [], "Bayes": []}
    for m in ns:
        st = SparseRegressionICL.isotropic(d=d, s=s, n=m, sigma2=s2, prior="gauss")
        p = sample_sparse_prompts(st, trials, rng=np.random.default_rng(seed + m))

        def err(w: np.ndarray, p: Any = p) -> np.ndarray:
            return np.sum((w - p.w) ** 2, axis=1)

        r = min((estimate_from_samples(err(ridge_fit(p.X, p.y, lam / m))) for lam in ALPHA_GRID),
                key=lambda e: e.mean)
        la = min((estimate_from_samples(err(lasso_fit(p.X, p.y, a))) for a in ALPHA_GRID),
                 key=lambda e: e.mean)
        b = estimate_from_samples(err(bayes_fit(p.X, p.y, s, s2, "gauss")))
        for k, e in (("ridge*", r), ("lasso*", la), ("Bayes", b)):
            curves[k].append((e.mean, e.se))
    for (k, vals), c in zip(curves.items(), ("C0", "C1", "C2"), strict=True):
        mu = np.array([v[0] for v in vals])
        se = np.array([v[1] for v in vals])
        ax.errorbar(ns, mu, yerr=2 * se, fmt="o", color=c, label=f"{k} (MC)")
        ax.plot(list(FIG1B_SPEC), [v[list(curves).index(k)] for v in FIG1B_SPEC.values()], "x",
                color=c, alpha=0.6)
    ns_tf = (6, 12, 18, 24) if quick else tuple(range(4, 26, 2))
    for preset, c in zip(FIG1B_PRESETS["quick" if quick else "full"], ("C3", "C4", "C5", "C6"),
                         strict=False):
        model = load_model(preset, trained(preset, seed=seed))
        est = []
        for m in ns_tf:
            st = SparseRegressionICL.isotropic(d=d, s=s, n=m, sigma2=s2, prior="gauss")
            p = sample_sparse_prompts(st, 300, rng=np.random.default_rng(seed + 7000 + m))
            est.append(estimate_from_samples(np.sum((coefficients(model, p.X, p.y) - p.w) ** 2,
                                                    axis=1)))
        heads = PRESETS[preset][0].heads
        ax.errorbar(ns_tf, [e.mean for e in est], yerr=[2 * e.se for e in est], fmt="D",
                    color=c, ms=4, label=f"trained h = {heads[0]}, L = {len(heads)}")
    ax.set_xlabel("n (in-context examples)")
    ax.set_ylabel("excess risk")
    ax.set_ylim(0, 5)
    ax.set_title("czz24 Fig. 1b baselines (x: spec values)")
    ax.legend(fontsize=7)
    return fig


def _spectral_path(X: np.ndarray, y: np.ndarray, eta: float, ts: np.ndarray,
                   preprocess: bool) -> np.ndarray:
    """Coefficients at the steps ``ts`` by the spectral closed form (one eigh per context)."""
    r = rhat.raw(X, y)
    if preprocess:
        G, b, _ = pregd_gram.raw(X, y)
    else:
        G, b = X.T @ X / X.shape[0], r
    lam, U = np.linalg.eigh(G)
    c = U.T @ b
    safe = np.where(np.abs(lam) < 1e-300, 1.0, lam)
    with np.errstate(over="ignore", invalid="ignore"):
        phi = np.where(np.abs(lam) < 1e-300, eta * ts[:, None],
                       (1 - (1 - eta * safe) ** ts[:, None]) / safe)
    w = (phi * c) @ U.T
    return w * r if preprocess else w


def fig_fig2c(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 2c: pre-GD vs GD over steps (d = 16, s = 4, n = 10, experimental prior, η of the spec
    table), spectral closed form per context; the spec's calibrated values as crosses."""
    sigmas = (0.0, 0.2, 0.8)
    fig = Figure(figsize=(4 * len(sigmas), 3.5))
    axes = fig.subplots(1, len(sigmas))
    ts = np.arange(0, 10_000, 1000)
    trials = 200 if quick else 2000
    for ax, sig in zip(axes, sigmas, strict=True):
        st = SparseRegressionICL.isotropic(d=16, s=4, n=10, sigma2=sig**2, prior="gauss")
        p = sample_sparse_prompts(st, trials, rng=np.random.default_rng(seed))
        for method, c in (("gd", "C0"), ("pre_gd", "C1")):
            eta, spec = FIG2C_SPEC[sig][method]
            W = np.stack([_spectral_path(p.X[i], p.y[i], eta, ts, method == "pre_gd")
                          for i in range(trials)])
            risk = np.mean(np.sum((W - p.w[:, None, :]) ** 2, axis=2), axis=0)
            ax.plot(ts, risk, "-", color=c, label=f"{method} (η = {eta:g})")
            ax.plot(ts, spec, "x", color=c, alpha=0.6)
        ax.set_title(f"σ = {sig}")
        ax.set_xlabel("steps")
    axes[0].set_ylabel("excess risk")
    axes[0].legend(fontsize=7)
    return fig


def fig_bounds(*, quick: bool = True, seed: int = 0) -> Figure:
    """Thms 5.1–5.3: oracle-tuned pre-GD* and GD* (MC) against the bound shapes (constants fitted)
    on log-log axes, d = 32, s = 2, σ = 0.5; fitted slopes in the legend."""
    fig = Figure(figsize=(6, 4))
    ax = fig.subplots()
    d, s, s2 = 32, 2, 0.25
    ns = np.array([64, 128, 256] if quick else [64, 128, 256, 512])
    rows = [tuned_risks_cached(d, s, int(m), s2, 100, seed, "sign", 100 if quick else 200)
            for m in ns]
    pre = np.array([r.pre_gd.mean for r in rows])
    gd = np.array([r.gd.mean for r in rows])
    b51 = np.array([float(thm51_bound(int(m), np.e, s2, s, 1 / np.sqrt(s), 1.0, d, d, d / np.e))
                    for m in ns])
    b52 = np.array([float(thm52_bound(int(m), np.e, s2, d, d, d / np.e)) for m in ns])
    b53 = np.array([float(thm53_rate(int(m), d, s, s2)) for m in ns])
    ax.loglog(ns, pre, "o", color="C1", label=f"pre-GD* MC (slope {_slope(ns, pre):.2f})")
    ax.loglog(ns, gd, "s", color="C0", label=f"GD* MC (slope {_slope(ns, gd):.2f})")
    for b, c, name in ((b51, "C1", "Thm 5.1"), (b52, "C0", "Thm 5.2"), (b53, "C2", "Thm 5.3")):
        ref = pre if name != "Thm 5.2" else gd
        C = float(np.max(ref / b)) if name != "Thm 5.3" else float(np.exp(np.mean(np.log(ref / b))))
        ax.loglog(ns, C * b, "-", color=c, label=f"{name} × {C:.2g} (slope {_slope(ns, b):.2f})")
    ax.set_xlabel("n")
    ax.set_ylabel("excess risk")
    ax.legend(fontsize=7)
    return fig


def fig_heads(*, quick: bool = True, seed: int = 0) -> Figure:
    """Eq. (3.1) heat map (the paper's Fig. 1c) of the trained Fig. 1b model with 4 heads in each
    of its 3 layers, rows sorted descending (App. B); reported, not asserted."""
    preset = "fig1b_h4"
    exp = PRESETS[preset][0]
    model = load_model(preset, trained(preset, seed=seed))
    D = head_deltas(to_weights(model), exp.heads, exp.setting, 40 if quick else 500, seed)
    W = np.zeros_like(D)
    for i, h in enumerate(exp.heads):
        W[i, :h] = head_importance(D[i:i + 1, :h])[0]
    W = sorted_importance(np.nan_to_num(W))
    fig = Figure(figsize=(5, 3))
    ax = fig.subplots()
    im = ax.imshow(W[::-1], aspect="auto", cmap="viridis")
    ax.set_yticks(range(len(exp.heads)), [str(i) for i in range(len(exp.heads), 0, -1)])
    ax.set_xlabel("head (sorted)")
    ax.set_ylabel("layer")
    ax.set_title(f"czz24 Eq. 3.1, trained heads {exp.heads} (Fig. 1b model)")
    fig.colorbar(im, ax=ax)
    return fig


def fig_probe(*, quick: bool = True, seed: int = 0) -> Figure:
    """Fig. 1d / Fig. 2b analogues for the cached Fig. 1b models (quick: (4, 4, 4); --full: L = 4,
    h ∈ {1, 4, 8}), reported, not asserted: (left) the held-out excess risk of a linear probe from
    each layer's query column to ⟨w*, x_q⟩ (n = 12), random-init models dashed, E‖w‖² = 4 dotted;
    (right) P-probing (n = 117, q = 11: GD on 10 layer-1 query columns, risk on the 11th) against
    GD steps, with the spec's ideal Alg. 1 reference (σ = 0) as crosses."""
    tier = "quick" if quick else "full"
    presets = FIG1B_PRESETS[tier] if quick else FIG1B_PRESETS[tier][-3:]
    B, nte, pp = (768, 256, 128) if quick else (4096, 1024, 512)
    fig = Figure(figsize=(9, 3.8), layout="constrained")
    ax, bx = fig.subplots(1, 2)
    steps = np.array(PPROBE_STEPS, dtype=float)
    for k, preset in enumerate(presets):
        exp = PRESETS[preset][0]
        st = exp.setting
        model = load_model(preset, trained(preset, seed=seed))
        control = build_model(exp, torch.Generator().manual_seed(seed + 7171))
        assert isinstance(control, MaskedLinearTF)
        p = sample_sparse_prompts(st, B, rng=np.random.default_rng(seed + 6161))
        c = f"C{k}"
        for m, style, lab in ((model, "o-", f"trained {exp.heads}"), (control, "x--", None)):
            err = probe_errors(m, p.X, p.y, p.w, p.xq, B - nte, None)["y"]
            est = [estimate_from_samples(e) for e in err]
            ax.errorbar(range(len(est)), [e.mean for e in est], yerr=[2 * e.se for e in est],
                        fmt=style, color=c, ms=4, capsize=2,
                        label=lab if lab else ("random init" if k == 0 else None))
        pset = SparseRegressionICL.isotropic(d=st.d, s=st.s, n=117, sigma2=st.sigma2,
                                             prior=st.prior, q=11)
        pq = sample_sparse_prompts(pset, pp, rng=np.random.default_rng(seed + 4242))
        for m, style in ((model, "o-"), (control, "x--")):
            _, mean, se = pprobe_curve(m, pq.X, pq.y, pq.w, pq.xq, pq.yq)
            bx.errorbar(steps + 1, mean, yerr=2 * se, fmt=style, color=c, ms=4, capsize=2)
    ax.axhline(4.0, ls=":", color="k", label="E‖w‖² = 4")
    layers = max(len(PRESETS[q][0].heads) for q in presets)
    ax.set_xticks(range(layers + 1), ["input"] + [str(i + 1) for i in range(layers)])
    ax.set_xlabel("probed layer")
    ax.set_ylabel("probe excess risk")
    ax.set_ylim(0.0, 5.0)
    ax.legend(fontsize=7)
    bx.plot(steps + 1, PPROBE_IDEAL[0.0], "k+", ms=8, label="spec ideal Alg. 1 (σ = 0)")
    bx.set_xscale("log")
    bx.set_xlabel("GD steps + 1")
    bx.set_ylabel("excess risk (11th query)")
    bx.legend(fontsize=7)
    fig.suptitle("czz24 probing (Fig. 1d) and P-probing (Fig. 2b), linear attention, σ = 0.1")
    return fig
