"""hpcy25: trained models vs predictions (invariant coordinates, STYLE R10).

Trained models come from :func:`sims.experiments.softmax_multihead.trained` (config-keyed cache,
shared with the tests and the report).  Everything a theorem predicts is read off the trained
parameters in invariant coordinates: the effective circuits ``KQ^h = W_K^{h⊤}W_Q^h/√D`` and
``OV^h = W_O^h W_V^h``, the head scales ``ω_h = mean diag K11^h`` and ``μ_h = OV^h_{D}``, the
effective step ``η̂ = 2ω̄m``, preconditioners ``P = Σ_h μ_h sym(K11^h)``, and risks on fresh prompts.
Acceptance bands are the spec's (spec 001 §3, "Torch training recipe", V-R6, V-R11, V-R13, V-R14),
cited in each record.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import torch

import theory.softmax_multihead as th
from numerics.sampling import check_rng
from numerics.softmax_multihead.bands import band
from numerics.softmax_multihead.mc import single_head_curve
from numerics.softmax_multihead.predictors import full_attention_predict
from numerics.testing import (
    Z_MC,
    claim_agreement,
    float_agreement,
    informational,
    over_seeds,
    swap_alternative,
    train_discrimination,
    untested,
)
from sims.checks import softmax_multihead_rows as hp_rows
from sims.checks import softmax_multihead_setting_rows as hp_srows
from sims.checks import softmax_multihead_settings as hp_set
from sims.experiments.softmax_multihead import (
    MT_SUPPORTS,
    PRESETS,
    HpcyExperiment,
    build_model,
    circuits,
    kms_covariance,
    model_risk,
    sample_batch,
    trained,
)
from sims.models.softmax_attention import SoftmaxAttention
from sims.train import make_generator
from theory.common.protocols import Evidence, validates_setting
from theory.softmax_multihead.claims import CLAIMS, PAPER_TRAINING_SCALE

#: seed counts are integers: a band of 0.5 means the counts are equal
COUNT_ATOL = 0.5
#: torch and numpy float64 forwards of eq. (2.3): the same sums in another order, through exp of
#: scores up to ~30
FORWARD_RTOL = 1e-10
#: absolute floor for outputs near 0 in the same comparison
FORWARD_ATOL = 1e-12

__all__ = [
    "pattern_metrics", "check_eq2_3_torch", "check_obs1_train",
    "check_obs3_train", "check_obs4_train", "check_eq4_12_train",
    "check_sec5_1_train", "check_eq5_6_train", "check_def5_1_train",
    "check_obs2_train_seeds", "check_eq4_3_train_vgd", "seed_claim_row",
]

pattern_metrics = hp_rows.pattern_metrics

#: the claim a seed-outcome row compares with (theory/softmax_multihead/claims.py)
_SEED_CLAIMS = {"Obs 4": "obs4-consistent-across-seeds", "Obs 1-2": "obs1-2-from-random-init"}


def seed_outcomes(preset: str, H: int, seeds: tuple[int, ...], *, claim: str,
                  rows_of: Callable[[int], list[Evidence]] | None = None) -> Evidence:
    """A claim over seeds (Obs. 4: "consistent across seeds").  ``rows_of(seed)`` are one seed's
    rows (default: :func:`check_obs1_train` on that seed), folded by
    :func:`numerics.testing.over_seeds`; ``observed`` = the seeds whose rows all pass (reach the
    prediction); ``paper`` = all seeds; ``ours`` = the seeds not in a named trap (``trap``, judged
    independently).  pass: every seed reaches the prediction; ``untested``: the others all end in
    a named trap -- the paper's consistency is a claim about 500k-step GPU training, and the row
    gives the trap fraction at our CPU scale (``reached``) and the paper's scale (``needed``), so
    a trap at a few thousand CPU steps is not reported as a paper error; fail: a seed neither
    reaches the prediction nor ends in a named trap."""
    def obs1_rows(s_: int) -> list[Evidence]:
        return check_obs1_train(H=H, seed=s_, preset=preset)

    merged = over_seeds(rows_of or obs1_rows, seeds)
    reached = [s_ for s_ in seeds if all(s_ in e.details["seeds_passed"] for e in merged)]
    traps = {str(s_): t for s_ in seeds if (t := hp_rows.trap(preset, H, s_)) is not None}
    # TRAIN contract: the folded TRAIN rows' start distances and named alternatives
    train = [e for e in merged if e.kind == "TRAIN"]
    starts = [p["start_units"] for e in train for p in e.details["per_seed"]]
    alts = [{**a, "name": f"{e.name}: {a['name']}"} for e in train
            for a in e.details["alternatives"]]
    return seed_claim_row(preset, H, seeds, reached, traps, claim=claim,
                          details={"start_units": min(starts), "alternatives": alts})


def seed_claim_row(preset: str, H: int, seeds: tuple[int, ...], reached: list[int],
                   traps: dict[str, str], *, claim: str,
                   details: dict[str, Any] | None = None) -> Evidence:
    """The claim row over seeds of :func:`seed_outcomes`, from its counts (no training): pass when
    every seed reaches the prediction; ``untested`` when the seeds that do not are all in a named
    trap (the paper's consistency is measured after 500k GPU steps; ``reached`` gives our steps
    and the trap fraction, ``needed`` the paper's scale); fail otherwise."""
    record = CLAIMS[_SEED_CLAIMS["Obs 4" if claim.startswith("Obs 4") else "Obs 1-2"]]
    frac = len(traps) / len(seeds)
    row = claim_agreement(
        f"H={H}: seeds reaching the prediction ({claim}) of {len(seeds)}",
        kind="TRAIN", paper=len(seeds), ours=len(seeds) - len(traps), observed=len(reached),
        atol=COUNT_ATOL, source=f"[hpcy25] {record.where}", claim=record,
        details={"seeds": list(seeds), "seeds_passed": list(reached), "traps": dict(traps),
                 "preset": preset, "trap_fraction": frac, **(details or {})})
    if row.verdict != "discrepancy":
        return row
    cfg = PRESETS[preset][1]
    return untested(
        row, claim=record,
        reached=(f"{cfg.steps} {cfg.optimizer} steps (lr {cfg.lr:g}, batch {cfg.batch_size}) on "
                 f"CPU: {len(traps)} of {len(seeds)} seeds ({frac:.0%}) end in the single-head "
                 f"trap (seeds {', '.join(sorted(traps))}); the others reach the prediction"),
        needed=(f"{PAPER_TRAINING_SCALE}; the trap fraction at that scale is not measured "
                f"here"))


# ------------------------------------------------------------------------- the model itself
def check_eq2_3_torch(*, quick: bool = True, seed: int = 0, H: int = 2,
                      fault_double_softmax: bool | None = None,
                      fault_query_self_attend: bool | None = None) -> list[Evidence]:
    """The torch model is eq. (2.3): its forward equals
    ``Σ_h OV^h Z_{1:L} softmax(Z_{1:L}ᵀ KQ^h z_q)``
    computed in numpy from its effective circuits (query attends to the context only, one softmax).
    The fault switches (a second softmax, the
    query attending to itself) must break this."""
    double_softmax = bool(fault_double_softmax)
    query_self_attend = bool(fault_query_self_attend)
    exp = HpcyExperiment(H=H, double_softmax=double_softmax, query_self_attend=query_self_attend)
    gen = make_generator(seed)
    model = build_model(exp, generator=gen, dtype=torch.float64)
    assert isinstance(model, SoftmaxAttention)
    with torch.no_grad():
        for p in (model.W_Q, model.W_K):  # larger scores so the softmax is far from uniform
            p.mul_(3.0)
        Z, _ = sample_batch(exp, 256, generator=gen, dtype=torch.float64)
        out = model(Z).numpy()
    params = {k: v.detach().numpy() for k, v in model.state_dict().items()}
    KQ, OV = circuits(exp, params)
    ref = full_attention_predict(Z.numpy(), KQ, OV)[:, 0]
    return [
        float_agreement("torch forward = eq. (2.3) from the effective KQ, OV (numpy)", out, ref,
                        rtol=FORWARD_RTOL, atol=FORWARD_ATOL,
                        details={"double_softmax": double_softmax,
                                 "query_self_attend": query_self_attend}),
    ]


# -------------------------------------------------------------------------- Obs. 1-3 (R0)
@validates_setting(hp_set.validate_obs1)
def check_obs1_train(*, quick: bool = True, seed: int = 0, H: int = 2, preset: str = "",
                     d: int = 5, L: int = 40, sigma2: float = 0.1,
                     fault_double_softmax: bool | None = None,
                     fault_prediction: str | None = None) -> list[Evidence]:
    """Obs. 1–2 and the manifold position on a trained H-head model (spec torch recipe pass list):
    diag_ratio ≥ 0.97 and ov_ratio ≥ 0.98 on active heads, sign matching; for H ≥ 2 also zero-sum
    ``|Σμ| ≤ 0.1 max|μ|``, active ``|ω_h|`` spread ≤ 15 %, ``|2ω̄m − 1/κ| ≤ 0.05``; TRAIN rows that
    tell the prediction from its neighbours (``manifold_rows``): the invariant ``⟨ω, μ⟩`` vs
    ``1/κ`` (4.3) and ``m`` vs ``m*(ω̄)`` (4.6); risk in [0.240, 0.27] and ≥ 0.1 below H = 1.
    ``quick=False`` trains three seeds (``seed, seed+1, seed+2``): every row is folded over the
    seeds not in a named trap (:func:`sims.checks.softmax_multihead_rows.fold_seeds`) and a claim
    row counts the seeds in each named trap.
    ``fault_prediction`` names an alternative to pass as the prediction (negative control).

    ``d, L, sigma2`` (issue 19): at the presets' (5, 40, 0.1) ``h{H}`` trains as before; else
    :func:`sims.checks.softmax_multihead_setting_rows.obs1_at_setting`."""
    hp_set.validate_obs1(d, L, sigma2, H)
    double_softmax = bool(fault_double_softmax)  # FAULT: train with a second softmax
    seeds = hp_rows.seeds(quick, seed)
    if not hp_set.at_preset(hp_set.OBS1_DEFAULTS, d=d, L=L, sigma2=sigma2):
        return hp_srows.obs1_at_setting(d=d, L=L, sigma2=sigma2, H=H, seeds=seeds, preset=preset,
                                        double_softmax=double_softmax,
                                        fault_prediction=fault_prediction)
    preset = preset or hp_rows.PRESET[H]

    def rows_of(s_: int) -> list[Evidence]:
        return _obs1_rows(H, s_, preset, double_softmax, fault_prediction)

    def trap_of_seed(s_: int) -> str | None:
        return None if double_softmax else hp_rows.trap(preset, H, s_)

    ev = hp_rows.fold_seeds(rows_of, seeds, trap_of_seed)
    if len(seeds) > 1 and not double_softmax:
        ev.append(seed_outcomes(preset, H, seeds, claim="Obs 1-2 (+/- pattern on the manifold)"))
    return ev


def _obs1_rows(H: int, seed: int, preset: str, double_softmax: bool,
               fault_prediction: str | None) -> list[Evidence]:
    """One seed's rows of :func:`check_obs1_train`."""
    exp_over: dict[str, Any] = {"double_softmax": True} if double_softmax else {}
    res = trained(preset, seed=seed, **exp_over)
    exp = res.extra["experiment"]
    if exp.H != H:
        raise ValueError(f"preset {preset!r} has H={exp.H}, not H={H}")
    m = hp_rows.pattern_metrics(exp, res.params)
    a = m["active"]
    tag = f"H={H}" + (" [double softmax]" if double_softmax else "")
    ev = [
        *hp_rows.pattern_rows(tag, m),
    ]
    ev.append(hp_rows.plateau(tag, res.losses))
    risk = hp_rows.risk(preset, seed, None, tuple(exp_over.items()))
    if H == 1:
        ev.append(informational("H=1 risk (spec reference 0.413)", 0.413, risk.mean))
        return ev
    wbar, mass, eta = hp_rows.eta_hat(m)
    kinv = th.eta_star(exp.d, exp.L, exp.sigma2)
    init = hp_rows.pattern_metrics(exp, res.extra["init_params"])
    r1 = hp_rows.risk("h1", seed)
    return ev + [
        band(f"{tag}: |sum mu| ≤ 0.1 max|mu| (Obs 2: zero-sum OV)",
             abs(m["mu"].sum()) / np.abs(m["mu"]).max(), None, 0.1),
        band(f"{tag}: active |omega_h| spread (max/min - 1) ≤ 15 % (Obs 2: homogeneous KQ)",
             float(np.abs(m["omega"][a]).max() / np.abs(m["omega"][a]).min() - 1), 0.0, 0.15),
        band(f"{tag}: |2 omega_bar m - 1/kappa| ≤ 0.05 (manifold position, spec)",
             abs(eta - kinv), None, 0.05, details={"omega_bar": wbar, "m": mass}),
        *hp_rows.manifold_rows(tag, exp, m, init, preset=preset,
                               fault_prediction=fault_prediction),
        band(f"{tag}: ICL risk in [0.240, 0.27] (spec torch recipe)", risk.mean, 0.240, 0.27,
             details={"se": risk.se, "R_D*": th.dgd_risk_star(exp.d, exp.L, exp.sigma2)}),
        band(f"{tag}: H=1 risk - H={H} risk ≥ 0.1 (spec: multi-head beats one head)",
             r1.mean - risk.mean, 0.1, None, details={"H1": r1.mean, "H": risk.mean}),
    ]


def check_obs3_train(*, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Obs. 3: H = 2, 3, 4 perform alike (within ±0.01 + MC noise of each other) and sit on the DGD
    risk ``R_D(η̂; L)``; H = 1 is worst; the learned risk is within the proven factor of Bayes
    (``≤ sup_ξ R_DGD∞/R_B∞ = 2.53`` at σ² = 0.1 times ``R_B∞``)."""
    risks, ev = {}, []
    for H in (1, 2, 3, 4):
        risks[H] = hp_rows.risk(hp_rows.PRESET[H], seed)
    for H in (3, 4):
        se = math.hypot(risks[H].se, risks[2].se)
        ev.append(band(f"Obs 3: |risk(H={H}) - risk(H=2)| ≤ 0.01 + 5 se", abs(risks[H].mean
                       - risks[2].mean), None, 0.01 + Z_MC * se))
    for H in (2, 3, 4):
        ev.append(band(f"Obs 3: risk(H=1) - risk(H={H}) ≥ 0.1", risks[1].mean - risks[H].mean,
                       0.1, None))
        ev.append(band(f"Obs 3: risk(H={H}) / R_B∞(1/8) ≤ 2.53 (Thm 4.2(iii) factor)",
                       risks[H].mean / th.bayes_risk_limit(0.125, 0.1), 1.0, 2.53))
    return ev


def _obs4_rows(H: int, seed: int) -> list[Evidence]:
    res = trained(hp_rows.PRESET[H], seed=seed)
    tr = res.extra["trace"]
    rows = [r for r in tr if "omega_0" in r]
    om = np.array([[r[f"omega_{h}"] for h in range(H)] for r in rows])
    mu = np.array([[r[f"mu_{h}"] for h in range(H)] for r in rows])
    early = (2 * len(rows)) // 5
    act = np.abs(mu[-1]) >= 0.05 * np.abs(mu[-1]).max()
    peak = np.abs(om[:, act]).mean(axis=1)
    tag = f"H={H}: "  # over seeds: fold_seeds (details seeds, seeds_passed, reported_seed)
    return [
        band(tag + "Obs 4: signs of omega_h mu_h at 40% of training = final (active heads)",
             float(np.mean(np.sign(om[early, act] * mu[early, act]) == np.sign(om[-1, act]
                                                                                  * mu[-1, act]))),
             1.0, 1.0),
        band(tag + "Obs 4: |omega| rises then decays (peak / final mean |omega_h|)",
             float(peak.max() / peak[-1]), 1.1, None),
        band(tag + "Obs 4: |mu| grows (final / value at 40 % of training, sum |mu_h|)",
             float(np.abs(mu[-1]).sum() / np.abs(mu[early]).sum()), 1.0, None),
    ]


def check_obs4_train(*, quick: bool = True, seed: int = 0, H: int = 2) -> list[Evidence]:
    """Obs. 4 (trained H-head model): the ± pattern appears early and persists (sign of ω_hμ_h at
    40 % of training equals the final one on active heads; in our compressed 3000-step schedule the
    pair forms around 30 %), |ω| rises then decays (peak ≥ 1.1× final), |μ| grows (final ≥ its
    value at 40 % of training).  ``quick=False``: the rows are folded over the three seeds not in
    a named trap, and the paper's "consistent across seeds" is a claim over the three seeds
    (:func:`seed_outcomes`: a seed reaches it if its Obs-4 rows and its Obs-1/2 pattern rows all
    pass; seeds in a named trap make it ``untested`` at the paper's scale)."""
    preset = hp_rows.PRESET[H]
    seeds = hp_rows.seeds(quick, seed)
    ev = hp_rows.fold_seeds(lambda s_: _obs4_rows(H, s_), seeds,
                            lambda s_: hp_rows.trap(preset, H, s_))
    if len(seeds) > 1:
        ev.append(seed_outcomes(
            preset, H, seeds, claim="Obs 4 dynamics and pattern",
            rows_of=lambda s_: _obs4_rows(H, s_) + check_obs1_train(H=H, seed=s_)))
    return ev


@validates_setting(hp_set.validate_vgd)
def check_eq4_3_train_vgd(*, quick: bool = True, seed: int = 0, d: int = 5, L: int = 24,
                          sigma2: float = 0.1, H: int = 2,
                          fault_prediction: str | None = None) -> list[Evidence]:
    """(4.3)/(D.24) against vanilla GD: a trained H = 2 model at L = 24 (preset ``h2_L24``) has
    ``⟨ω, μ⟩`` within 1.6 % of ``1/κ = L/(L+D')`` (the debiased-GD optimal step) and outside 1.6 %
    of the vanilla-GD step ``η_V* = L/(L+D'+1)`` (3.28 % below: 2.05 units), of 1 (L = ∞) and of
    the single-head optimum.  At the paper's L = 40 the two steps are 2.15 % apart, too close to
    tell apart at any tolerance the trained pair meets (it sits +0.5 … +1.3 % above 1/κ there, its
    finite-ω offset), hence the smaller L.  ``quick=False`` folds the rows over three seeds (a seed
    in the named single-head trap is reported, not folded).  ``fault_prediction`` passes a named
    alternative as the prediction (negative control).

    ``d, L, sigma2, H`` (issue 19): at the preset's (5, 24, 0.1, 2) ``h2_L24`` trains as before;
    else :func:`sims.checks.softmax_multihead_setting_rows.vgd_at_setting`."""
    hp_set.validate_vgd(d, L, sigma2, H)
    if not hp_set.at_preset(hp_set.VGD_DEFAULTS, d=d, L=L, sigma2=sigma2, H=H):
        return hp_srows.vgd_at_setting(d=d, L=L, sigma2=sigma2, H=H,
                                       seeds=hp_rows.seeds(quick, seed),
                                       fault_prediction=fault_prediction)
    return hp_rows.fold_seeds(lambda s_: hp_rows.vgd_rows(s_, fault_prediction),
                              hp_rows.seeds(quick, seed), hp_rows.vgd_trap)


# ------------------------------------------------------------------------------- R6 (d)
def check_eq4_12_train(*, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """V-R6(d): trained H = 1 has |ω| ∈ [0.40, 0.65], ωμ > 0, risk ∈ [0.38, 0.44], ≥ 0.1 above the
    two-head risk; |ω| within 15 % of the MC-exact single-head optimum (spec §6 item 14), not
    1/√d."""
    res = trained("h1", seed=seed)
    exp = res.extra["experiment"]
    m = hp_rows.pattern_metrics(exp, res.params)
    w, mu = float(m["omega"][0]), float(m["mu"][0])
    risk = hp_rows.risk("h1", seed)
    risk2 = hp_rows.risk("h2", seed)
    omegas = np.linspace(0.3, 0.8, 51)
    curve, _ = single_head_curve(omegas, d=exp.d, L=exp.L, sigma2=exp.sigma2, n=20_000,
                                 rng=check_rng(seed, f"{__name__}:check_eq4_12_train"))
    w_opt = float(omegas[int(np.argmin(curve))])
    return [
        band("H=1: |omega| in [0.40, 0.65]", abs(w), 0.40, 0.65),
        band("H=1: omega mu > 0", w * mu, 0.0, None),
        band("H=1: risk in [0.38, 0.44]", risk.mean, 0.38, 0.44, details={"se": risk.se}),
        band("H=1 risk - H=2 risk ≥ 0.1", risk.mean - risk2.mean, 0.1, None),
        band("H=1: |omega| / exact-risk optimum - 1 within ±15 % (spec §6 item 14)",
             abs(w) / w_opt - 1, -0.15, 0.15, details={"omega_opt_exact": w_opt}),
        informational("H=1: Ltilde optimum 1/sqrt(d) vs trained |omega|",
                      th.single_head_optimum(exp.d, exp.L, exp.sigma2)[0], abs(w)),
    ]


# ------------------------------------------------------------------------------ R11 (d)
def check_sec5_1_train(*, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """V-R11(d): the trained two-head softmax model's risk strictly decreases over
    L' ∈ {20, 40, 80, 160}; the trained linear-attention model (fixed 1/40) has risk at L' = 80 at
    least 0.3 above its risk at L' = 40; both vs their closed forms (informational)."""
    ev: list[Evidence] = []
    sm = trained("h2", seed=seed)
    Lps = (20, 40, 80, 160)
    rs = [hp_rows.risk("h2", seed, Lp) for Lp in Lps]
    for i in range(len(Lps) - 1):
        gap = rs[i].mean - rs[i + 1].mean
        ev.append(band(f"softmax risk decreases from L'={Lps[i]} to {Lps[i + 1]} (beyond 5 se)",
                       gap, Z_MC * math.hypot(rs[i].se, rs[i + 1].se), None))
    rl = {Lp: hp_rows.risk("linear", seed, Lp) for Lp in (40, 80)}
    ev.append(band("linear attention: risk(L'=80) - risk(L'=40) ≥ 0.3", rl[80].mean - rl[40].mean,
                   0.3, None))
    m = hp_rows.pattern_metrics(sm.extra["experiment"], sm.params)
    eta = hp_rows.eta_hat(m)[2]
    ev.append(informational("softmax trained risk vs R_D(eta_hat; L')",
                            [th.softmax_length_risk(Lp, eta, 5, 0.1) for Lp in Lps],
                            [r.mean for r in rs]))
    ev.append(informational("linear trained risk vs R_lin(L') at L' = 40, 80",
                            [th.linear_length_risk(Lp, 40, 5, 0.1) for Lp in (40, 80)],
                            [rl[40].mean, rl[80].mean]))
    return ev


# ------------------------------------------------------------------------------ R13 (d)
#: TRAIN tolerance of the scale ``tr P`` of the non-isotropic P: at most half the distance from
#: tr P_D* to tr Γ* (3.25 % at the preset's L = 20), so Γ* is ≥ 2 units from the prediction and
#: can be told apart; the trained pairs sit −0.3 … +1.2 % from tr P_D* (seeds 0, 2, 3, 4).
RTOL_NONISO_SCALE = 0.015


def check_eq5_6_train(*, quick: bool = True, seed: int = 0,
                      fault_prediction: str | None = None) -> list[Evidence]:
    """V-R13(d): KMS ρ = 0.5, H = 2, L = 20: a ± head pair; ``P = Σ_h μ_h sym(K11^h)`` within 5 %
    (relative Frobenius, train_discrimination) of the debiased optimum ``P_D*`` and outside 5 % of
    ``Σ^{-1}`` (the finite-L term dropped); its scale ``tr P`` within 1.5 % of ``tr P_D*`` and
    outside 1.5 % of ``tr Γ*`` (the vanilla-GD optimum (5.6), 3.25 % away: 2.17 units) and of
    ``tr Σ^{-1}``.  ``Γ*⁻¹ − P_D*⁻¹ = Σ/L``: the two optima differ almost only in scale (their
    shapes ``P/tr P`` by 0.44 %, below the trained pair's 0.7–2 % shape error), so the scale is the
    coordinate that tells them apart.  The preset trains at L = 20, not the paper's 40, because at
    L = 40 Γ* is only 1.95 % from P_D* in scale while the trained pair's finite-ω bias reaches
    1.3 %.  ``quick=False`` folds the rows over three seeds (:func:`numerics.testing.over_seeds`;
    a seed in the named single-head trap is reported, not folded).  ``fault_prediction`` passes a
    named alternative as the prediction of every row that lists it (negative control)."""
    exp = hp_rows.noniso_P(seed)[0]
    S = kms_covariance(exp.d, exp.rho)
    PD, G, Sinv = (th.pd_star(S, exp.L, exp.sigma2), th.gamma_star(S, exp.L, exp.sigma2),
                   np.linalg.inv(S))
    g_name, s_name = "Gamma* (5.6) (vanilla GD)", "Sigma^-1 (finite-L term dropped)"
    if fault_prediction is not None and fault_prediction not in (g_name, s_name):
        raise ValueError(f"fault_prediction must be one of {[g_name, s_name]}, "
                         f"got {fault_prediction!r}")
    pred, alts = swap_alternative(PD, {s_name: Sinv}, fault_prediction,
                                  prediction_name="P_D* (5.3)", strict=False)
    tr_pred, tr_alts = swap_alternative(float(np.trace(PD)), {g_name: float(np.trace(G)),
                                                              s_name: float(np.trace(Sinv))},
                                        fault_prediction, prediction_name="tr P_D* (5.3)",
                                        strict=False)
    nPD = float(np.linalg.norm(PD))

    def rows_of(s_: int) -> list[Evidence]:
        _, P, P0, mu = hp_rows.noniso_P(s_)
        return [
            band("noniso: mu_1 mu_2 < 0 (± head pair)", float(mu[0] * mu[1]), None, 0.0),
            train_discrimination(
                "noniso: P = sum_h mu_h sym(K11^h) vs P_D* (5.3)-(5.6) debiased", P, pred, P0,
                alternatives=alts, details={
                    "P": P.tolist(), "L": exp.L,
                    "Gamma* (5.6): relative Frobenius distance to trained P, to P_D*": [
                        float(np.linalg.norm(P - G)) / nPD, float(np.linalg.norm(G - PD)) / nPD]}),
            train_discrimination(
                "noniso: scale tr P vs tr P_D* (debiased), not tr Gamma* (vanilla GD)",
                float(np.trace(P)), tr_pred, float(np.trace(P0)), alternatives=tr_alts,
                rtol=RTOL_NONISO_SCALE, details={"L": exp.L}),
        ]

    return hp_rows.fold_seeds(rows_of, hp_rows.seeds(quick, seed), hp_rows.noniso_trap)


# ------------------------------------------------------------------------------ R14 (d)
def check_def5_1_train(*, quick: bool = True, seed: int = 0,
                            preset: str = "multitask") -> list[Evidence]:
    """V-R14(d) robust criteria (mode labels are seed-dependent): per task k,
    ``|Σ_h μ_{h,k}| ≤ 0.05 Σ_h |μ_{h,k}|``; ``P_k = Σ_h μ_{h,k} diag(K11^h)``
    has diagonal entries in
    [0.8, 1.05] on ``S_k`` and ≤ 0.1 off ``S_k``; cross-task OV entries ≤ 0.1; risk vs the per-task
    optimum (informational: spec reference 0.444 vs 0.412 per task)."""
    res = trained(preset, seed=seed)
    exp = res.extra["experiment"]
    KQ, OV = circuits(exp, res.params)
    d, n = exp.d, exp.n_out
    ev: list[Evidence] = []
    diagK = np.diagonal(KQ[:, :d, :d], axis1=1, axis2=2)  # (H, d)
    for k, S in enumerate(MT_SUPPORTS):
        mu = OV[:, k, d + k]
        ev.append(band(f"task {k + 1}: |sum_h mu_hk| ≤ 0.05 sum_h |mu_hk|",
                       abs(mu.sum()) / np.abs(mu).sum(), None, 0.05))
        Pk = mu @ diagK
        on = np.array([j in S for j in range(d)])
        ev.append(band(f"task {k + 1}: P_k diagonal on S_k in [0.8, 1.05]", float(Pk[on].min()),
                       0.8, 1.05, details={"P_k": Pk.tolist()}))
        ev.append(band(f"task {k + 1}: P_k diagonal on S_k ≤ 1.05", float(Pk[on].max()), None,
                       1.05))
        ev.append(band(f"task {k + 1}: |P_k| off S_k ≤ 0.1", float(np.abs(Pk[~on]).max()), None,
                       0.1))
        ev.append(band(f"task {k + 1}: cross-task OV entries ≤ 0.1",
                       float(np.abs(OV[:, k, [d + j for j in range(n) if j != k]]).max()),
                       None, 0.1))
    risk = model_risk(exp, res.params, seed=seed)
    ev.append(informational("multitask risk (sum over tasks) vs 2 x per-task optimum 0.4122",
                            2 * th.mt_task_risk(exp.L, 4, exp.sigma2), risk.mean))
    return ev



def check_obs2_train_seeds(*, quick: bool = True, seed: int = 0, H: int = 2, preset: str = "",
                           seeds: tuple[int, ...] = (0, 1, 2, 3)) -> list[Evidence]:
    """Across init seeds (thorough tier): every :func:`check_obs1_train` row, folded over the seeds
    that do not end in a named trap, must pass on each of them (the claim is not weakened); a seed
    in the single-head trap (all active heads of one sign, risk within 0.03 of the trained H = 1
    risk) is shown with that evidence, and the claim row over seeds (:func:`seed_outcomes`) is
    ``untested`` (the paper says the dynamics are consistent across seeds, after 500k GPU steps;
    at our CPU scale H = 2 seed 1 and H = 3 seed 2 are trapped).  ``preset`` defaults to the quick
    preset ``h{H}`` (``"h3_spec"``: the spec's recipe)."""
    preset = preset or hp_rows.PRESET[H]
    traps = {s_: t for s_ in seeds if (t := hp_rows.trap(preset, H, s_)) is not None}
    ev = hp_rows.fold_seeds(lambda s_: check_obs1_train(H=H, seed=s_, preset=preset), seeds,
                            traps.get)
    ev += [band(f"seed {s_}: {t}: |risk(H={H}) - risk(H=1)| ≤ 0.03",
                abs(hp_rows.risk(preset, s_).mean - hp_rows.risk("h1", s_).mean), None, 0.03)
           for s_, t in traps.items()]
    ev.append(seed_outcomes(preset, H, tuple(seeds), claim="Obs 1-2 (+/- pattern on the manifold)"))
    return ev
