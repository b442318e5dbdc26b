"""[hpcy25] §3 Observations 1-2 at any setting ``d, L, sigma2, H``: one seed's trained pattern
and manifold rows of a drawn setting (:func:`setting_rows`) and their fold over seeds
(:func:`obs1_at_setting`), for ``check_obs1_train`` (re-exported by :mod:`.observations`).  The
heads the pattern rows judge are the contributing ones (:mod:`.heads`); an H ≥ 3 run off the
pattern is a stable sharp head, settled off it or unconverged at its bound
(:func:`.sharp_head.drawn_outcome`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

import theory.hpcy25 as th
from numerics.hpcy25.bands import band
from sims.hpcy25 import evidence as ev_
from sims.hpcy25 import sec3_training as tr_
from sims.hpcy25 import sec4_2_manifold as mf_
from sims.hpcy25.sec3_heads import inject_offpattern_head, judge_heads
from sims.hpcy25.sec3_sharp_head import drawn_outcome
from sims.hpcy25.train import HpcyExperiment, Recipe, experiment_of
from theory.common.protocols import Evidence
from theory.hpcy25.settings import Setting

__all__ = ["OBS1_PATH", "Obs1Plan", "setting_plan", "setting_rows", "obs1_at_setting"]

#: The registered path of ``check_obs1_train`` before the sections: the label of its random
#: streams (kept fixed so the streams do not move).
OBS1_PATH = "sims.checks.softmax_multihead:check_obs1_train"  # stream label: fixed
_PATH = OBS1_PATH


class Obs1Plan(NamedTuple):
    """How ``check_obs1_train`` trains and judges a drawn setting (:func:`setting_plan`)."""

    k_inv: float  # 1/κ (4.3), the closed-form prediction of ⟨ω, μ⟩
    inner_plain: dict[str, float]  # its named alternatives: L = ∞, the single-head optimum
    rtol: float
    plan: str  # tr_.plan_rtol's "keep" / "tighten" / "skip"
    exp: HpcyExperiment
    recipe: Recipe  # with its stop and plateau schedule


def setting_plan(*, d: int, L: int, sigma2: float, H: int) -> Obs1Plan:
    """The prediction 1/κ and its alternatives, the row tolerance and its plan
    (:func:`.training.plan_rtol`), and the experiment and recipe the setting is trained with
    (:func:`.training.setting_training`, patterns on)."""
    k_inv = float(th.eta_star(d, L, sigma2))
    inner_plain = ev_.alternative_values(ev_.INNER_ALTERNATIVES, d, L, sigma2)
    rtol, plan = tr_.plan_rtol(k_inv, inner_plain, ev_.RTOL_INNER, L)
    exp = experiment_of(Setting(d=d, L=L, sigma2=sigma2, H=H))
    recipe = tr_.setting_training(H, rtol, batch_size=tr_.setting_batch(rtol), patterns=True)
    return Obs1Plan(k_inv, inner_plain, rtol, plan, exp, recipe)


def setting_rows(
    *,
    d: int,
    L: int,
    sigma2: float,
    H: int,
    seed: int,
    double_softmax: bool,
    fault_prediction: str | None,
    fault_offpattern_head: float | None = None,
) -> list[Evidence]:
    """One seed's Obs-1 rows at ``(d, L, σ², H)`` (see the module docstring).  For ``H ≥ 2`` the
    separability of ⟨ω, μ⟩ is decided before training, on the closed-form prediction 1/κ (4.3)
    and its alternatives 1 (L = ∞) and ω₁*μ₁* (4.12): where :func:`.training.plan_rtol` says
    ``"skip"`` the one row returned is that TRAIN row, ``skipped`` with its numbers
    (:func:`.training.skip_before_training`), and nothing is trained."""
    k_inv, inner_plain, rtol, plan, exp, recipe = setting_plan(d=d, L=L, sigma2=sigma2, H=H)
    if double_softmax:
        exp = dataclasses.replace(exp, double_softmax=True)  # FAULT: train with a second softmax
    tag = f"H={H}, d={d}, L={L}, sigma2={sigma2:g}" + (
        " [double softmax]" if double_softmax else ""
    )
    res, steps, skipped_rows = tr_.train_or_skip(
        f"{tag}: <omega, mu> vs 1/kappa (4.3)/(D.24)",
        exp,
        recipe,
        seed=seed,
        k_inv=k_inv,
        alternatives=inner_plain,
        fault_prediction=fault_prediction,
        plan=plan,
        rtol=rtol,
        L=L,
    )
    if res is None:  # below the regime, or decided on the closed forms: nothing trained
        return skipped_rows
    params = res.params
    if fault_offpattern_head is not None:  # FAULT: an off-pattern head that contributes
        params = inject_offpattern_head(exp, params, fault_offpattern_head)
    m = judge_heads(ev_.pattern_metrics(exp, params), exp, params, rtol=rtol, seed=seed, path=_PATH)
    a = m["active"]
    ev = [
        *ev_.pattern_rows(tag, m),
        ev_.plateau(tag, res.losses),
    ]
    if H == 1:
        return ev
    wbar, mass, eta = ev_.eta_hat(m)
    init = ev_.pattern_metrics(exp, res.extra["init_params"])
    _, inner_alts, ms, m_alts = ev_.manifold_alternatives(exp, wbar)
    names = {**inner_alts, **m_alts}
    if fault_prediction is not None and fault_prediction not in names:
        raise ValueError(
            f"fault_prediction must be one of {sorted(names)}, got {fault_prediction!r}"
        )
    details = tr_.recipe_details(recipe, res, plan, rtol)
    inner = mf_.finite_omega_rows(
        tag,
        m["omega"],
        m["mu"],
        float(init["omega"] @ init["mu"]),
        k_inv,
        inner_alts,
        wbar=wbar,
        d=d,
        L=L,
        sigma2=sigma2,
        rtol=rtol,
        seed=seed,
        path=_PATH,
        batch=recipe.batch_size,
        steps=steps,
        fault_prediction=fault_prediction,
        details={"2 omega_bar m": 2 * wbar * mass, **details},
        limit_name=f"{tag}: <omega, mu> vs 1/kappa (4.3)/(D.24)",
    )
    pair = [
        band(
            f"{tag}: |sum mu| ≤ 0.1 max|mu| (Obs 2: zero-sum OV)",
            abs(m["mu"].sum()) / np.abs(m["mu"]).max(),
            None,
            0.1,
        ),
        ev_.spread_row(tag, m),
        band(
            f"{tag}: |2 omega_bar m - eta_ex(omega_bar)| ≤ 0.05 (manifold position at the "
            "trained omega_bar)",
            abs(eta - inner[0].details["eta_ex"]),
            None,
            0.05,
            details={"omega_bar": wbar, "m": mass},
        ),
        *inner,
        tr_.m_row(
            tag,
            mass,
            float(np.abs(init["mu"]).sum() / 2),
            ms,
            m_alts,
            m_ex=inner[0].details["s*"] * mass,
            L=L,
            batch=recipe.batch_size,
            steps=steps,
            fault_prediction=fault_prediction,
            details={"omega_bar": wbar, **tr_.recipe_details(recipe, res, "", 0.0)},
        ),
    ]
    origin = None if double_softmax else tr_.origin_trap(m["omega"], m["mu"])
    trap = None if double_softmax or origin else tr_.pair_trap(m["mu"], a)
    # A seed in the single-head trap ends at another stationary point (no ± pair; its K11 keeps an
    # antisymmetric part the trap's weak gradient does not remove: d = 8, L = 59, σ² = 0.15,
    # seed 1: |K11 - K11ᵀ|/2 = 0.21, 0.30, diag_ratio 0.957): its pattern rows measure the trap,
    # not the pattern of a model with a pair, so they are in the trap too.
    rows = tr_.trapped_rows(ev + pair, trap, seed) if trap else ev + pair
    if origin:  # every pattern row of a model that never moved measures the start
        rows = tr_.trapped_rows(rows, origin, seed)
    rows = tr_.converged_or_skipped(rows, res, recipe)
    if H < 3 or double_softmax or fault_prediction is not None or fault_offpattern_head is not None:
        return rows
    # H ≥ 3 off the pattern: a stable sharp head (its own outcome), settled off it, or unconverged
    return drawn_outcome(rows, m, res, exp, seed=seed, steps=steps, step_bound=recipe.steps)


def obs1_at_setting(
    *,
    d: int,
    L: int,
    sigma2: float,
    H: int,
    seeds: Sequence[int],
    preset: str,
    double_softmax: bool,
    fault_prediction: str | None,
    fault_offpattern_head: float | None = None,
) -> list[Evidence]:
    """``check_obs1_train`` at a setting other than the presets': :func:`setting_rows` folded over
    ``seeds`` (each seed's trap is judged in its own rows).  The same pattern and manifold rows as
    at the preset, each TRAIN row kept, tightened or ``skipped`` by its separability, a seed
    without a ± pair reported in the named single-head trap (its pair rows ``skipped``, never
    passed); our reference preset risk bands (numbers of the preset) are not emitted."""
    if preset:
        raise ValueError(f"preset={preset!r} fixes d, L, sigma2; give a preset or a setting")
    return ev_.fold_seeds(
        lambda s_: setting_rows(
            d=d,
            L=L,
            sigma2=sigma2,
            H=H,
            seed=s_,
            double_softmax=double_softmax,
            fault_prediction=fault_prediction,
            fault_offpattern_head=fault_offpattern_head,
        ),
        seeds,
        lambda s_: None,
    )
