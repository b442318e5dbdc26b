"""collins24 checks on torch units (spec 003 §3.2): the literal unit against the numpy predictor,
and the trained runs S1 (affine ω̂ vs the quadrature optimum), S2 (ReLU), S4 (linear attention),
S5 (low rank) and S6 (constant tasks).

Trained runs come from :func:`sims.experiments.softmax_window.trained` (config-keyed cache shared
with the tests and the report); a trained model never imports a prediction, the checks compare it
with one afterwards.  Fault switches are keyword-only ``fault_*`` parameters.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from numerics.montecarlo import estimate_from_samples
from numerics.sampling import check_rng
from numerics.softmax_window.api import fig1_errors
from numerics.softmax_window.predictors import mc_risk, softmax_predict
from numerics.softmax_window.quadrature import optimal_scale_affine, window_terms
from numerics.softmax_window.sampling import sample_prompts
from numerics.testing import (
    FLOAT_RTOL,
    Z_MC,
    claim_agreement,
    close_agreement,
    mc_agreement,
    ordering,
    over_seeds,
)
from sims.checks.softmax_window_more import fig9_class_rows
from sims.checks.softmax_window_train import discriminate, seeds_of
from sims.experiments.softmax_window import trained
from sims.models.softmax_unit import SoftmaxUnit, tokens
from theory.common.protocols import Estimate, Evidence
from theory.settings.softmax_window import SoftmaxWindowSetting
from theory.softmax_window import (
    constant_task_risk,
    la_floor,
    la_optimum,
    rho_metric,
    transfer_risk,
)
from theory.softmax_window.claims import CLAIMS

__all__ = ["check_risk_affine_torch", "check_thm3_5_train", "check_thm3_6_train",
           "check_limits_train", "check_thm4_4_train", "check_fig1_order", "check_fig5_quad",
           "check_fig9_train"]

#: ordering of exactly computed quantities: a gap above double-precision round-off.
EXACT_GAP = 1e-12
#: 0/1 indicator rows: 0.5 separates the two outcomes.
INDICATOR_ATOL = 0.5
#: printed to 5 decimals: half a unit in the last place.
LOSS_PRINTED_ATOL = 5e-06
#: printed to 2 decimals: half a unit in the last place.
OMEGA_PRINTED_ATOL = 0.005
#: an ordering must hold by more than float round-off on O(1) quantities.
STRICT_GAP = 1e-09

#: S4 pass criterion (spec 003 R8 (d)): trained linear attention within 3 % of m*.
LA_RTOL = 0.03
#: S5 pass criterion (spec 003 §3.2): final ρ(M, B) ≤ 0.05 (small size).
RHO_MAX = 0.05
#: S6 pass criterion (spec 003 R1 (d)): ‖M‖ < 0.05.
CONST_NORM_MAX = 0.05


def check_risk_affine_torch(*, quick: bool = True, seed: int = 0, d: int = 5, n: int = 20,
                            omega: float = 3.0, fault_query_attends: bool | None = None
                            ) -> list[Evidence]:
    """The literal torch unit (W_K, W_Q, W_V of (4), M_K = M_Q = √ω I, value 1) equals the numpy
    predictor Σ_i y_i softmax_i(ω x_iᵀx) that the risk split describes, on random prompts.
    ``fault_query_attends=True`` builds the unit with the query attending to itself."""
    rng = np.random.default_rng(seed)
    st = SoftmaxWindowSetting.isotropic(d=d, n=n, L=1.0, sigma2=0.1)
    p = sample_prompts(st, 64, rng)
    unit = SoftmaxUnit(d, init=math.sqrt(omega), include_query=bool(fault_query_attends))
    with torch.no_grad():
        Z = tokens(torch.from_numpy(p.X), torch.from_numpy(p.y), torch.from_numpy(p.xq))
        got = unit(Z).numpy()
    ref = softmax_predict(p.X, p.y, p.xq, omega)
    return [close_agreement("torch SoftmaxUnit vs numpy softmax predictor", got, ref,
                            kind="FLOAT", atol=1e3 * FLOAT_RTOL, rtol=0.0,
                            details={"d": d, "n": n, "omega": omega})]


def check_thm3_5_train(*, quick: bool = True, seed: int = 0, reps: int = 0,
                       fault_swap_units: bool | None = None) -> list[Evidence]:
    """S3 (Theorem 3.5): units pretrained at L ∈ {0.03, 0.1, 1} (σ = 0.01, d = 5, n = 20) are
    tested on L′ ∈ {0.03, 0.1, 1, 3} with common prompts: the matched unit wins at L′ = L
    (paired difference > 3 SE) and each unit's MC risk tracks the quadrature transfer curve
    L′²S(ω_L) + σ²N(ω_L) within 5 SE + 5 %.  ``fault_swap_units=True`` pairs each unit with the
    wrong pretraining L."""
    rng = check_rng(seed, f"{__name__}:check_thm3_5_train")
    reps = reps or (20_000 if quick else 160_000)
    Ls = (0.03, 0.1, 1.0)
    presets = ("s3_L0.03", "s3_L0.1", "s1_sigma0.01")
    Ms = [trained(p, seed=seed).extra["M_avg"] for p in presets]
    if fault_swap_units:
        Ms = Ms[::-1]
    s2, d, n = 1e-4, 5, 20
    curves = []
    for L in Ls:
        w = optimal_scale_affine(d, n, L, s2)[0]
        wt = window_terms(w, n, d)
        curves.append((wt.A / (3 * d), wt.N))
    out = []
    for Lp in (0.03, 0.1, 1.0, 3.0):
        st = SoftmaxWindowSetting.isotropic(d=d, n=n, L=Lp, sigma2=s2)
        p = sample_prompts(st, reps, rng)
        errs = [(softmax_predict(p.X, p.y, p.xq, M) - p.fq) ** 2 for M in Ms]
        for j, L in enumerate(Ls):
            est = estimate_from_samples(errs[j])
            pred = transfer_risk(Lp, curves[j][0], curves[j][1], s2)
            out.append(mc_agreement(f"S3 unit pretrained at L = {L} tested at L' = {Lp}: MC vs "
                                    "quadrature transfer curve", pred, est, bias=0.05 * pred))
        if Lp in Ls:
            j = Ls.index(Lp)
            for k in range(len(Ls)):
                if k != j:
                    diff = estimate_from_samples(errs[k] - errs[j])
                    out.append(ordering(f"S3 at L' = {Lp}: matched unit beats the one pretrained "
                                        f"at L = {Ls[k]} by > 3 SE", 3 * diff.se, diff.mean,
                                        margin=EXACT_GAP, details={"diff": diff.mean}))
    return out


def check_thm3_6_train(*, quick: bool = True, seed: int = 0, reps: int = 100_000,
                       fault_alternative: str | None = None) -> list[Evidence]:
    """S4: trained linear attention, tr(M̄)/d → m* (3 %, alternatives M = 0, the one-step-GD
    M = I/n and m* without the noise term σ²/d of a, where separable; the Frobenius distance to
    m*I, ~10 % from Adam's noise on the off-diagonals, is reported) and its MC risk never below
    L²/3 − 5 SE, within 3 % of 𝓛_LA*.  One seed quick (1000 steps); in ``--full`` three seeds of
    the spec's 3000-step run.  ``fault_alternative`` passes a named alternative as the
    prediction."""
    preset = "s4_linear" if quick else "s4p_linear"

    def rows_of(sd: int) -> list[Evidence]:
        r = trained(preset, seed=sd)
        st = r.extra["experiment"].setting
        m_star, la_star = la_optimum(st.d, st.n, st.L, st.sigma2)
        M = r.extra["M_avg"]
        m_hat = float(np.trace(M)) / st.d
        out = [discriminate(
            "S4 trained linear attention tr(M)/d vs m*", m_hat, m_star, 0.0, rtol=LA_RTOL,
            seed=sd, fault_alternative=fault_alternative,
            alternatives={"M = 0": 0.0, "one-step GD M = I/n": 1 / st.n,
                          "m* of the noiseless task (sigma = 0)":
                              la_optimum(st.d, st.n, st.L, 0.0)[0]},
            details={"relative_frobenius_to_m*I": float(np.linalg.norm(
                M - m_star * np.eye(st.d)) / np.linalg.norm(m_star * np.eye(st.d)))})]
        est = mc_risk(st, M, reps, check_rng(sd, f"{__name__}:check_thm3_6_train"),
                      model="linear")
        out.append(ordering("S4 trained linear attention risk >= L^2/3 - 5 SE",
                            la_floor(st.L) - Z_MC * est.se, est.mean, margin=STRICT_GAP,
                            details={"risk": est.mean, "se": est.se, "L_LA*": la_star}))
        out.append(mc_agreement("S4 trained linear attention risk vs L_LA*", la_star, est,
                                bias=LA_RTOL * la_star))
        return out

    return over_seeds(rows_of, seeds_of(seed, quick))


def check_limits_train(*, quick: bool = True, seed: int = 0, reps: int = 100_000,
                       tied: bool = True, fault_n_offset: int | None = None) -> list[Evidence]:
    """S6 (Remark 2.1(i)): on constant tasks (σ = 0.5, d = 3, n = 20) the tied unit keeps
    ‖M‖₂ < 0.05 and its risk is σ²/n = 0.0125 (MC with the trained M).

    ``tied=False`` trains M_K, M_Q apart (a setting, not a fault: the untied unit also keeps
    ‖M‖₂ = 0.036 < 0.05 at risk σ²/n, so it rejects nothing).  ``fault_n_offset`` predicts
    σ²/(n + offset) (offset 1: the query counted as a context point)."""
    r = trained("s6_constant", seed=seed, tied=tied)
    st = r.extra["experiment"].setting
    M = r.extra["M_final"]
    out = [ordering("S6 ||M||_2 < 0.05 on constant tasks", float(np.linalg.norm(M, 2)),
                    CONST_NORM_MAX, margin=STRICT_GAP)]
    est = mc_risk(st, M, reps, check_rng(seed, f"{__name__}:check_limits_train"))
    n_pred = st.n + (0 if fault_n_offset is None else int(fault_n_offset))
    out.append(mc_agreement("S6 risk of the trained unit vs sigma^2/n",
                            constant_task_risk(n_pred, st.sigma2), est))
    return out


def check_thm4_4_train(*, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """S5 (Theorem 4.4): the untied unit trained on low-rank tasks (d = 6, k = 2, σ = 0) has
    ρ(M, B) = ‖B⊥ᵀMB⊥‖₂/σ_min(BᵀMB) ≤ 0.05 at the end (it starts at 1: M = 10⁻⁶ I), and
    lower than at 20 % of training.  ``quick=False`` trains the paper's size instead (d = 10,
    k = 2, n = 50, σ = 0.01, 3000 steps, batch 256: ρ = 0.0007; the spec's numpy run with the
    paper's batch of 1 reached 0.105)."""
    r = trained("s5_lowrank" if quick else "s5_paper", seed=seed)
    st = r.extra["experiment"].setting
    d, k = st.d, st.covariates.k
    B = np.eye(d)[:, :k]
    M = 0.5 * (r.extra["M_final"] + r.extra["M_final"].T)
    rho = rho_metric(M, B)
    snaps = r.extra["M_snapshots"]
    early = snaps[len(snaps) // 5]
    rho_early = rho_metric(0.5 * (early + early.T), B)
    return [ordering("S5 final rho(M, B) <= 0.05", rho, RHO_MAX, margin=STRICT_GAP,
                     details={"eig(B^T M B)": np.linalg.eigvalsh(B.T @ M @ B)}),
            ordering("S5 rho decreases: final < at 20 % of training", rho, rho_early,
                     margin=STRICT_GAP, details={"rho_20%": rho_early})]


def _separation(soft: Estimate, la: Estimate) -> float:
    """+1 if softmax is below linear attention by more than 3 SE, −1 if above, 0 otherwise."""
    se = math.hypot(soft.se, la.se)
    return 1.0 if soft.mean + 3 * se < la.mean else (-1.0 if la.mean + 3 * se < soft.mean else 0.0)


def check_fig1_order(*, quick: bool = True, seed: int = 0, reps: int = 0, sigma2: float = 0.01,
                     fault_sigma2_scale: float | None = None) -> list[Evidence]:
    """Fig. 1 (bottom row), population version, hills class f = cos(νθ − b) on the circle
    (reading G10), σ² = 0.01 (the paper does not state it), ν ∈ {0, 1.5, 6}:

    * n ∈ {20, 100}: softmax optimum (MC + spline) < best linear attention (MC) by > 3 SE;
    * ν = 0: softmax* = σ²/n (ω* → 0) and linear attention ≥ E cos²b = ½;
    * n = 5: the spec's paraphrase of the caption, "softmax below linear for all ν and n", is not
      reproduced: at ν = 6 softmax's optimum is the label average, (1 + 1/n)/2 + σ²/n = 0.602
      (exact: f_i uncorrelated at integer ν), above E f² = ½, which linear attention attains at
      M = 0; at ν = 1.5 linear attention is below softmax by the toolkit's 3-SE criterion
      (≈ 0.375 vs 0.400), confirmed on a second MC stream: both ``unconfirmed`` (the caption only
      says softmax "achieve[s] small error"; the plotted n and σ are lost in the OCR);
    * one trained unit (ν = 1.5, n = 20) within 5 % (+ 5 SE) of the softmax optimum.

    ``fault_sigma2_scale`` multiplies the σ² of the ν = 0 prediction σ²/n."""
    rng = check_rng(seed, f"{__name__}:check_fig1_order")
    rep_rng = check_rng(seed, f"{__name__}:check_fig1_order", "replicate")
    claim = CLAIMS["collins24:fig1-softmax-below-linear"]
    reps = reps or (10_000 if quick else 40_000)
    f = 1.0 if fault_sigma2_scale is None else float(fault_sigma2_scale)
    out: list[Evidence] = []
    for nu in (0.0, 1.5, 6.0):
        for n in (5, 20, 100):
            # ν = 1.5, n = 5 is close: 4x the samples resolve it by the 3-SE criterion
            r_pt = 4 * reps if (nu == 1.5 and n == 5) else reps
            soft, la, w = fig1_errors(nu, n, sigma2, rng, reps=r_pt)
            se = math.hypot(soft.se, la.se)
            name = f"Fig. 1 (nu={nu:g}, n={n}): softmax* {soft.mean:.4f} vs linear* {la.mean:.4f}"
            if nu == 0.0:
                out.append(mc_agreement(f"Fig. 1 nu=0, n={n}: softmax* = sigma^2/n", f * sigma2 / n,
                                        soft, scale=sigma2 / n))
                out.append(ordering(f"Fig. 1 nu=0, n={n}: linear* >= 1/2 - 5 SE",
                                    0.5 - Z_MC * la.se, la.mean, margin=STRICT_GAP))
            elif n >= 20:
                out.append(ordering(name, soft.mean + 3 * se, la.mean, margin=STRICT_GAP,
                                    details={"omega*": w}))
            elif nu == 6.0:
                floor = 0.5 * (1 + 1 / n) + sigma2 / n
                out.append(claim_agreement(
                    name + " (1 = softmax below linear)", kind="ORDER", paper=1.0, ours=0.0,
                    observed=float(soft.mean + 3 * se < la.mean), atol=INDICATOR_ATOL,
                    source="[collins24] Figure 1 caption, bottom row", claim=claim,
                    details={"label_average_exact": floor, "omega*": w}))
                out.append(mc_agreement(f"Fig. 1 nu=6, n={n}: softmax* = label average (exact)",
                                        floor, soft, bias=0.01 * floor))
            else:
                # the toolkit's criterion: separated when the means differ by more than 3 SE;
                # +1 softmax below, -1 linear below, 0 not separated; a second, independent MC
                # stream gives "ours"
                rep_soft, rep_la, _ = fig1_errors(nu, n, sigma2, rep_rng, reps=r_pt)
                out.append(claim_agreement(
                    name + " (+1 softmax below linear by 3 SE, -1 above, 0 not separated)",
                    kind="ORDER", paper=1.0, ours=_separation(rep_soft, rep_la),
                    observed=_separation(soft, la), atol=INDICATOR_ATOL,
                    source="[collins24] Figure 1 caption, bottom row", claim=claim,
                    details={"se": se, "omega*": w, "replicate": [rep_soft.mean, rep_la.mean]}))
    r = trained("fig1_d2", seed=seed)
    st = r.extra["experiment"].setting
    est = mc_risk(st, r.extra["M_avg"], 4 * reps,
                 check_rng(seed, f"{__name__}:check_fig1_order", "trained unit"))
    soft, _, _ = fig1_errors(st.L, st.n, st.sigma2, rng, reps=reps)
    out.append(mc_agreement("Fig. 1 trained unit (hills nu=1.5, n=20) vs softmax optimum (MC)",
                            soft.mean, est, bias=0.05 * soft.mean + Z_MC * soft.se))
    return out


def check_fig5_quad(*, quick: bool = True, seed: int = 0,
                    fault_sigma_scale: float | None = None) -> list[Evidence]:
    """Fig. 5's message (n = 200, σ = 0.01, d = 5): the affine optimum ω* = 14.99 and
    𝓛* = 0.00338 (spec [COMPUTED]); a unit pretrained at a mismatched L (0.1 vs 1) loses on the
    other's tasks (quadrature transfer curves).  ``fault_sigma_scale`` multiplies σ."""
    d, n = 5, 200
    s2 = (0.01 * (1.0 if fault_sigma_scale is None else float(fault_sigma_scale))) ** 2
    w, loss = optimal_scale_affine(d, n, 1.0, s2)
    fig5 = {"claim": CLAIMS["collins24:fig5-values"].to_json()}
    out = [close_agreement("Fig. 5: omega* (n = 200)", w, 14.99, kind="PAPER",
                           atol=OMEGA_PRINTED_ATOL, details=fig5),
           close_agreement("Fig. 5: L* (n = 200)", loss, 0.00338, kind="PAPER",
                           atol=LOSS_PRINTED_ATOL, details=fig5)]
    w01 = optimal_scale_affine(d, n, 0.1, s2)[0]
    for L_pre, w_pre, L_test, w_test in ((0.1, w01, 1.0, w), (1.0, w, 0.1, w01)):
        t_pre, t_ok = window_terms(w_pre, n, d), window_terms(w_test, n, d)
        bad = transfer_risk(L_test, t_pre.A / (3 * d), t_pre.N, s2)
        good = transfer_risk(L_test, t_ok.A / (3 * d), t_ok.N, s2)
        out.append(ordering(f"Fig. 5: pretrained at L = {L_pre} loses on L' = {L_test}", good,
                            bad, margin=STRICT_GAP))
    return out


def check_fig9_train(*, quick: bool = True, seed: int = 0,
                     fault_wrong_subspace: bool | None = None) -> list[Evidence]:
    """Fig. 9's claim at the S5 size: ρ(M, B) of the trained softmax unit decreases over training
    (median over the last fifth < median over the second fifth) and ends ≤ 0.05; ``--full`` adds
    App. J.1's offset, F^2_B and F^cos_B classes and linear attention's contrast
    (:func:`sims.checks.softmax_window_more.fig9_class_rows`).
    ``fault_wrong_subspace=True`` measures ρ against B' = (e₃, e₄), not the task subspace."""
    r = trained("s5_lowrank", seed=seed)
    B = np.eye(6)[:, 2:4] if fault_wrong_subspace else np.eye(6)[:, :2]
    rho = np.array([rho_metric(0.5 * (M + M.T), B) for M in r.extra["M_snapshots"][1:]])
    m = len(rho) // 5
    out = [ordering("Fig. 9: median rho, last fifth < second fifth",
                    float(np.median(rho[-m:])), float(np.median(rho[m:2 * m])), margin=STRICT_GAP),
           ordering("Fig. 9: final rho <= 0.05", float(rho[-1]), RHO_MAX, margin=STRICT_GAP)]
    if not quick:  # App. J.1's other classes and the linear-attention contrast
        out += fig9_class_rows(seed=seed, fault_wrong_subspace=fault_wrong_subspace)
    return out
