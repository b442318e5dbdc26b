"""collins24 trained-unit checks, round 2 (spec 003 §4): Fig. 5's pretrain/test matrix across the
affine, 2-ReLU and cosine classes, Fig. 9's offset class with the linear-attention contrast,
Lemma B.5 on the ellipsoid law x = Σ^{1/2}x̃ (torch sampler and a trained unit), and Fig. 3's
cosine panel on U^d_S (report-only).

Trained runs come from :func:`sims.experiments.softmax_window.trained` (config-keyed cache); the
trained model never sees a prediction.  Fault switches are keyword-only ``fault_*`` parameters.
"""

from __future__ import annotations

import numpy as np
import torch

from numerics.montecarlo import estimate_from_samples
from numerics.sampling import check_rng, check_seed
from numerics.softmax_window.api import spline_argmin
from numerics.softmax_window.predictors import softmax_predict
from numerics.softmax_window.quadrature import optimal_scale_affine
from numerics.softmax_window.sampling import sample_prompts
from numerics.testing import (
    TRAIN_RTOL,
    mc_agreement,
    ordering,
    over_seeds,
)
from sims.checks.softmax_window_train import discriminate, seeds_of
from sims.experiments.softmax_window import ELLIPSOID_SIGMA, PRESETS, sample_batch, trained
from sims.train import make_generator
from theory.common.protocols import Evidence
from theory.settings.softmax_window import SoftmaxWindowSetting
from theory.softmax_window import lemB5_optimum, rho_metric

__all__ = ["check_fig5_matrix", "check_lemb5_ellipsoid", "fig9_class_rows",
           "SIMILAR_RTOL", "LA_RHO_MIN"]

#: ordering of exactly computed quantities: a gap above double-precision round-off.
EXACT_GAP = 1e-12
#: an ordering must hold by more than float round-off on O(1) quantities.
STRICT_GAP = 1e-09

#: Fig. 5 "errors are similar for every pairing" (the spec gives no number): a unit pretrained on
#: a 1-Lipschitz class, tested on another, is within 10 % (S2's tolerance) of that test class's
#: population optimum.  (At 5 % the n = 200 cosine-pretrained unit on affine tasks, 1.065, would
#: fail: its ω̂ = 18.9 is 26 % above the affine ω* = 14.99, and the loss is flat.)  The claim's
#: own contrast is asserted beside it: every matched-L pairing beats every mismatched-L unit.
SIMILAR_RTOL = 0.10
#: Fig. 9 "linear attention learns no structure" on the offset class: its ρ(M, B) stays ≥ 0.1
#: (softmax's must end ≤ 0.05, S5's criterion).
LA_RHO_MIN = 0.1

_CLASSES = ("affine", "relu", "cos")


def _class_optimum(task: str, n: int, p, omegas: np.ndarray) -> float:
    """The test class's population optimum 𝓛*: affine by quadrature, ReLU / cosine by the MC
    risk curve over M = ωI on the same prompts (common random numbers) and its spline argmin."""
    if task == "affine":
        return optimal_scale_affine(5, n, 1.0, 1e-4)[1]
    t = np.einsum("bnd,bd->bn", p.X, p.xq)
    t = t - t.max(axis=1, keepdims=True)
    risks = []
    for w in omegas:
        e = np.exp(float(w) * t)
        risks.append(float(np.mean((np.sum(e * p.y, axis=1) / np.sum(e, axis=1) - p.fq) ** 2)))
    return spline_argmin(omegas, np.array(risks))[1]


def check_fig5_matrix(*, quick: bool = True, seed: int = 0, reps: int = 0,
                      fault_unit: str | None = None) -> list[Evidence]:
    """Fig. 5 (spec 003 §4): units pretrained on 1-Lipschitz affine, 2-ReLU and cosine tasks
    (σ = 0.01, d = 5), each tested on all three classes with common prompts.

    ORDER rows: every pairing's MC risk is within ``SIMILAR_RTOL`` (10 %) of the test class's
    population optimum 𝓛* ("errors are similar for every pairing"); on cosine tasks (the right
    panel) a unit pretrained at a mismatched L loses: its risk exceeds 𝓛*(1 + 10 %), the cosine
    unit's by > 3 SE (paired), and its ratio 𝓛/𝓛* exceeds every matched pairing's.  Quick: the
    S1/S2 units at n = 20 (σ = 0.01, L = 1; no new training), mismatched arm the S3 affine unit
    at L = 0.03.  ``--full`` adds the cosine units pretrained at L = 0.25 and L = 8 (n = 20) and
    the paper's n = 200 matrix (mismatched: cosine L = 0.25).  ``fault_unit`` (a preset name)
    replaces the affine-pretrained unit by that preset's unit (e.g. ``"s3_L0.03"``): its
    "similar" rows must fail."""
    rng = check_rng(seed, f"{__name__}:check_fig5_matrix")
    reps = reps or (8_000 if quick else 40_000)
    omegas = np.geomspace(0.5, 60.0, 24)
    sizes = [(20, {"affine": "s1_sigma0.01", "relu": "s2_relu_sigma0.01",
                   "cos": "s2_cos_sigma0.01"},
              ["s3_L0.03"] if quick else ["s3_L0.03", "f5_cos_L0.25", "f5_cos_L8"])]
    if not quick:
        sizes.append((200, {"affine": "f34_n200", "relu": "f5_relu_n200", "cos": "f5_cos_n200"},
                      ["f5_cos_L0.25_n200"]))
    out: list[Evidence] = []
    for n, units, mismatched in sizes:
        worst = 0.0  # the largest matched-pairing ratio 𝓛/𝓛* at this n
        if fault_unit is not None:
            units = {**units, "affine": fault_unit}
        Ms = {k: trained(p, seed=seed).extra["M_avg"] for k, p in units.items()}
        for test in _CLASSES:
            st = SoftmaxWindowSetting.isotropic(d=5, n=n, L=1.0, sigma2=1e-4, task=test)
            p = sample_prompts(st, reps, rng)
            best = _class_optimum(test, n, p, omegas)
            errs = {k: (softmax_predict(p.X, p.y, p.xq, M) - p.fq) ** 2 for k, M in Ms.items()}
            for pre, e in errs.items():
                est = estimate_from_samples(e)
                worst = max(worst, est.mean / best)
                out.append(ordering(
                    f"Fig. 5 (n = {n}): unit pretrained on {pre} tested on {test} within 10 % of "
                    f"the {test} optimum", est.mean, (1 + SIMILAR_RTOL) * best, margin=EXACT_GAP,
                    details={"risk": est.mean, "se": est.se, "optimum": best,
                             "ratio": est.mean / best, "preset": units[pre]}))
            if test != "cos":
                continue
            for mis in mismatched:
                e = (softmax_predict(p.X, p.y, p.xq, trained(mis, seed=seed).extra["M_avg"])
                     - p.fq) ** 2
                est, diff = estimate_from_samples(e), estimate_from_samples(e - errs["cos"])
                out.append(ordering(f"Fig. 5 (n = {n}): mismatched-L unit {mis} loses on cos "
                                    "tasks (risk > 1.1 x optimum)", (1 + SIMILAR_RTOL) * best,
                                    est.mean, margin=EXACT_GAP,
                                    details={"risk": est.mean, "optimum": best,
                                             "ratio": est.mean / best}))
                out.append(ordering(f"Fig. 5 (n = {n}): mismatched-L unit {mis} on cos tasks "
                                    "worse (risk / optimum) than every matched pairing", worst,
                                    est.mean / best, margin=STRICT_GAP))
                out.append(ordering(f"Fig. 5 (n = {n}): cos unit beats mismatched {mis} on cos "
                                    "tasks by > 3 SE", 3 * diff.se, diff.mean, margin=EXACT_GAP,
                                    details={"diff": diff.mean}))
    return out


def check_lemb5_ellipsoid(*, quick: bool = True, seed: int = 0, reps: int = 80_000,
                          fault_unwhitened_task: bool | None = None,
                          fault_alternative: str | None = None) -> list[Evidence]:
    """Lemma B.5 on Assumption 3.3's ellipsoid x = Σ^{1/2}x̃, x̃ ~ U^d, Σ = diag(1..5)/3.

    MC (quick and ``--full``) on the torch sampler: E x_j² = Σ_jj/d, E x₁x_d = 0, ‖Σ^{-1/2}x‖ = 1,
    and the labels read x̃ = Σ^{-1/2}x (spec G6): E y²x̃₁² = 1/(3d) + 1/(3d²) + σ²/d (reading x
    gives (tr Σ + 2Σ₁₁)/(3d²(d + 2)) for the middle term: 0.0108 vs 0.0133).
    TRAIN (quick: seed ``seed``; ``--full``: three seeds): the trained unit's whitened
    diag(M̄)·Σ within 5 % of ω*·1, i.e. M* = ω*Σ⁻¹ (ω* of U^d at σ = 0.01, quadrature),
    alternatives ω*I (the isotropic unit), ω*Σ (the inverse shape) and the label average.
    ``fault_unwhitened_task`` predicts the moment of a task that reads x instead of x̃."""
    sig = np.asarray(ELLIPSOID_SIGMA)
    d = len(sig)
    B = int(reps)  # prompts (n = 20 context points each)
    with torch.no_grad():
        gen = make_generator(check_seed(seed, f"{__name__}:check_lemb5_ellipsoid"))
        Z, _ = sample_batch(PRESETS["lemb5_ellipsoid"][0].setting, B, gen)
    X = Z[:, :d, :-1].permute(0, 2, 1).reshape(-1, d).numpy()  # context points (B·n, d)
    out: list[Evidence] = []
    for j in range(d):
        out.append(mc_agreement(f"Lemma B.5 ellipsoid sampler: E x_{j + 1}^2 = Sigma_jj/d",
                                sig[j] / d, estimate_from_samples(X[:, j] ** 2)))
    out.append(mc_agreement("Lemma B.5 ellipsoid sampler: E x_1 x_d = 0", 0.0,
                            estimate_from_samples(X[:, 0] * X[:, -1]), bias=0.0,
                            scale=float(np.sqrt(sig[0] * sig[-1])) / d))
    dev = float(np.max(np.abs(np.sum(X * X / sig, axis=1) - 1.0)))
    out.append(ordering("Lemma B.5 ellipsoid sampler: ||Sigma^-1/2 x|| = 1 (x on the ellipsoid)",
                        dev, 1e-10, margin=0.0))
    # affine f = u₀vᵀx̃ + b, u₀, b ~ U[-1, 1], v ~ U^d, y = f + ε: per prompt, the context mean of
    # y_i² x̃_i1² has expectation 1/(3d) + 1/(3d²) + σ²/d when the task reads x̃ (spec G6);
    # reading x instead gives E u₀²(vᵀx)²x̃₁² = (tr Σ + 2Σ₁₁)/(3d²(d + 2)) for the second term
    s2 = PRESETS["lemb5_ellipsoid"][0].setting.sigma2
    read_x = (float(np.sum(sig)) + 2 * sig[0]) / (3 * d * d * (d + 2))
    pred = 1 / (3 * d) + (read_x if fault_unwhitened_task else 1 / (3 * d * d)) + s2 / d
    y = Z[:, d, :-1].numpy()
    xt1 = Z[:, 0, :-1].numpy() ** 2 / sig[0]
    out.append(mc_agreement("Lemma B.5 ellipsoid sampler: the task reads x~ = Sigma^-1/2 x "
                            "(E y^2 x~_1^2 = 1/(3d) + 1/(3d^2) + sigma^2/d)", pred,
                            estimate_from_samples(np.mean(y * y * xt1, axis=1)),
                            details={"reading_x_value": 1 / (3 * d) + read_x + s2 / d}))
    w = optimal_scale_affine(d, 20, 1.0, 1e-4)[0]
    pred = np.ones(d) * w  # whitened Σ^{1/2} M* Σ^{1/2} = ω* I
    star = np.diag(np.asarray(lemB5_optimum(w, np.diag(sig)), dtype=float))

    def rows_of(sd: int) -> list[Evidence]:
        M = trained("lemb5_ellipsoid", seed=sd).extra["M_avg"]
        white = np.diag(M) * sig
        Mw = np.sqrt(sig)[:, None] * M * np.sqrt(sig)[None, :]
        offd = float(np.linalg.norm(Mw - np.diag(np.diag(Mw))) / np.linalg.norm(Mw))
        return [ordering("Lemma B.5 trained (ellipsoid): whitened M diagonal (off-diagonal <= "
                         "0.06)", offd, 0.06, margin=STRICT_GAP),
                discriminate("Lemma B.5 trained (ellipsoid): whitened diag(M) Sigma vs omega* "
                             "(M* = omega* Sigma^-1)", white, pred, np.full(d, 1e-6) * sig,
                             alternatives={"isotropic omega* I": w * sig,
                                           "inverse shape omega* Sigma": w * sig * sig,
                                           "label average (M = 0)": np.zeros(d)},
                             rtol=TRAIN_RTOL, seed=sd, fault_alternative=fault_alternative,
                             details={"omega_star": w, "M_star_diag": star.tolist(),
                                      "trained_diag": np.diag(M).tolist()})]

    return out + over_seeds(rows_of, seeds_of(seed, quick))


def fig9_class_rows(*, seed: int = 0, fault_wrong_subspace: bool | None = None
                    ) -> list[Evidence]:
    """Fig. 9's other classes (App. J.1, at the S5 size d = 6, k = 2, n = 20, σ = 0, Assumption
    4.3 covariates): the offset class f = aᵀBᵀx + 2, F^2_B f = (aᵀBᵀx)², F^cos_B f = cos(4aᵀBᵀx).

    Softmax: ρ(M, B) decreases (median over the last fifth < second fifth) and ends ≤ 0.05.
    Linear attention, trained alike (Adam 1e-2), learns no structure: its median ρ over the last
    fifth stays ≥ ``LA_RHO_MIN`` (on the pure-linear class it reaches ρ ≈ 0.02, spec §3.2).  On the
    offset class the softmax weights sum to 1, so its trajectory must equal the pure-linear
    class's (S5, same seed) to rounding; linear attention's population optimum there is still
    αBBᵀ (ρ = 0: the offset only adds variance), so that contrast is about training, as the
    paper's figure is; F^2_B and F^cos_B are even in aᵀBᵀx, where linear attention's optimum is
    M = 0 (and softmax's sign of M is not identified: 𝓛(−M) = 𝓛(M)).
    ``fault_wrong_subspace=True`` measures ρ against B' = (e₃, e₄)."""
    B = np.eye(6)[:, 2:4] if fault_wrong_subspace else np.eye(6)[:, :2]
    soft = trained("f9_offset_softmax", seed=seed).extra["M_snapshots"]
    lin = trained("s5_lowrank", seed=seed).extra["M_snapshots"]
    out = [ordering("Fig. 9 offset class: softmax trajectory = pure-linear class's (offset "
                    "invariance), max |M difference|", float(np.max(np.abs(soft - lin))), 1e-8,
                    margin=0.0)]
    for cls, label in (("offset", "offset class aT B^T x + 2"), ("square", "F^2_B"),
                       ("cos4", "F^cos_B")):
        rhos = {}
        for m in ("softmax", "linear"):
            snaps = trained(f"f9_{cls}_{m}", seed=seed).extra["M_snapshots"][1:]
            rhos[m] = np.array([rho_metric(0.5 * (M + M.T), B) for M in snaps])
        rho, k = rhos["softmax"], len(rhos["softmax"]) // 5
        la = float(np.median(rhos["linear"][-k:]))
        out += [ordering(f"Fig. 9 {label}: softmax median rho, last fifth < second fifth",
                         float(np.median(rho[-k:])), float(np.median(rho[k:2 * k])),
                         margin=STRICT_GAP),
                ordering(f"Fig. 9 {label}: softmax final rho <= 0.05", float(rho[-1]), 0.05,
                         margin=STRICT_GAP),
                ordering(f"Fig. 9 {label}: linear attention median rho over the last fifth >= "
                         f"{LA_RHO_MIN:g} (no structure learned)", LA_RHO_MIN, la,
                         margin=STRICT_GAP,
                         details={"softmax_final_rho": float(rho[-1])})]
    return out
