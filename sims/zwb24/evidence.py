"""[zwb24] the trained checks' shared recipes (§4 Table 1, App. G Thm 6.3, §3/§5 forward passes):
random prompts and raw LTB weights, the per-seed TRAIN rows, the separability plan of a row at a
drawn setting (tighten or skip) and the skipped rows.

At the preset the trained checks train what the presets of :mod:`sims.zwb24.train` train;
only a drawn setting uses the plan.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import torch

from numerics.testing import (
    not_converged,
    over_seeds,
    skipped,
    swap_alternative,
    tier_seeds,
    train_discrimination,
    untested,
)
from sims.data import sample_prompts
from sims.models.ltb import LTB
from sims.zwb24.train import PRESETS
from theory.common.protocols import Evidence
from theory.settings import LinearRegressionICL
from theory.zwb24 import effective_params
from theory.zwb24.claims import CLAIMS, PAPER_TRAINING_SCALE
from theory.zwb24.settings import C17_SETTING, C18_SETTING

__all__ = [
    "C17_DEFAULTS",
    "C18_DEFAULTS",
    "FULL_SEEDS",
    "RowPlan",
    "plan_rows",
    "skip_rows",
    "start_row",
    "per_seed",
    "risks",
    "eff_from_params",
    "seeds_for",
    "random_ltb",
    "random_prompts",
    "C17_PROMPTS",
    "SKIP_SECONDS",
    "trapped_untested",
    "unconverged_rows",
]

#: The presets (spec C17 at N = 5: d = 2, σ² = .25, ‖β*‖ = 3; C18 at N = 5: d = 3, ‖β*‖ of
#: (2, −1, 0.5)), from :mod:`theory.zwb24.settings`.
C17_DEFAULTS: dict[str, Any] = dict(C17_SETTING)
C18_DEFAULTS: dict[str, Any] = dict(C18_SETTING)
#: Seeds of every trained claim in the report's --full tier and the thorough tests (quick: 1).
FULL_SEEDS = 3
#: Training prompts of the C17 preset (1000 Adam steps x batch 512), the unit of its budget.
C17_PROMPTS = 512_000

#: Separability: an alternative must lie at least this many (tightened) tolerances from the
#: prediction (``train_discrimination`` needs 2; the extra half unit leaves room for the trained
#: estimate's own error).
TIGHTEN_UNITS = 2.5
#: At prompt lengths up to this, an alternative at least ``MUST_RESOLVE_REL``
#: (relative) from the prediction is resolved (tolerance tightened, batch raised), never skipped.
MUST_RESOLVE_N = 16
#: ... the relative distance of that rule (1.5 %).
MUST_RESOLVE_REL = 0.015
#: Largest prompt-budget factor a row is tightened by when the rule above does not force it.
MAX_BUDGET_SCALE = 25.0
#: Seconds per prompt budget unit used to quote the cost of a skipped row (measured on one thread
#: of the shared machine: the C18 fit ~1.5 s; the C17 moments of LTB_FIT_PROMPTS prompts ~1.4 s
#: plus the LTB and LSA test risks on 200 000 prompts ~1 s each, the fits themselves ~1-2 s).
SKIP_SECONDS = {"thm6.3": 1.5, "table1": 3.5}


def seeds_for(quick: bool, seed: int) -> tuple[int, ...]:
    """``(seed,)`` in the quick tier; ``FULL_SEEDS`` consecutive seeds otherwise (--full and the
    thorough tests): :func:`numerics.testing.tier_seeds`."""
    return tier_seeds(seed, quick=quick, n_full=FULL_SEEDS)


def random_ltb(
    rng: np.random.Generator, d: int, k: int, m: int, *, mlp: bool = True, **kw: Any
) -> LTB:
    """A float64 LTB (3.3) with i.i.d. standard normal raw weights from ``rng``."""
    model = LTB(d, k=k, v=k, m=m, mlp=mlp, dtype=torch.float64, **kw)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.from_numpy(rng.standard_normal(tuple(p.shape))))
    return model


def random_prompts(rng: np.random.Generator, d: int, N: int, B: int):
    """``B`` prompts of length ``N`` at H = Ψ = I, σ² = .25 and a random β* drawn from ``rng``."""
    st = LinearRegressionICL.from_arrays(
        Sigma_x=np.eye(d), N=N, task_mean=rng.standard_normal(d), noise_var=0.25
    )
    g = torch.Generator().manual_seed(int(rng.integers(2**31)))
    return sample_prompts(st, B, generator=g)


def eff_from_params(P: dict[str, np.ndarray]) -> dict[str, Any]:
    """The effective parameters (★) of a trained LTB/LSA's weights (keys of its state dict)."""
    return effective_params(
        P["attn.W_K"], P["attn.W_Q"], P["attn.W_V"], P["attn.W_P"], P.get("W_1"), P.get("W_2")
    )


def per_seed(
    name: str,
    runs: Sequence[tuple[int, Any, Any]],
    predicted: Any,
    alternatives: Mapping[str, Any],
    *,
    rtol: float,
    norm: float,
    fault_alternative: str | None = None,
    details: dict | None = None,
) -> tuple[Evidence, list[Evidence]]:
    """``train_discrimination`` of every seed's ``(seed, observed, initial)``, folded into one row
    by :func:`~numerics.testing.over_seeds` (the row passes iff every seed passes, and records
    ``seeds``, ``seeds_passed``, ``reported_seed``, ``per_seed`` and ``traps``); also returns the
    per-seed rows.  ``fault_alternative`` (negative control) makes the named alternative the
    prediction; the stated prediction then becomes an alternative.  ``norm`` is fixed so units do
    not move.
    """
    pred, alts = swap_alternative(predicted, alternatives, fault_alternative, strict=False)
    extra = {
        **({"fault_alternative": fault_alternative} if fault_alternative else {}),
        **(details or {}),
    }
    by_seed = {
        s: train_discrimination(
            name, o, pred, i, alternatives=alts, rtol=rtol, norm=norm, details=extra
        )
        for s, o, i in runs
    }
    seeds = list(by_seed)
    (ev,) = over_seeds(lambda s: [by_seed[s]], seeds)
    return ev, [by_seed[s] for s in seeds]


def risks(runs: Sequence[tuple[int, Any]]) -> list[tuple[int, float, float]]:
    """``(seed, test risk, initial test risk)`` of each ``(seed, run)``."""
    return [(s, r.extra["test_risk"][0], r.extra["init_test_risk"][0]) for s, r in runs]


class RowPlan:
    """The tolerance a TRAIN row runs at, the budget factor that needs, or why it is skipped."""

    def __init__(
        self, name: str, rtol: float, scale: float, nearest: str, rel: float, skip: str = ""
    ) -> None:
        self.name, self.rtol, self.scale, self.nearest, self.rel, self.skip = (
            name,
            rtol,
            scale,
            nearest,
            rel,
            skip,
        )

    def details(self) -> dict[str, Any]:
        return {
            "tolerance": self.rtol,
            "budget_scale": self.scale,
            "nearest_alternative": self.nearest,
            "nearest_relative_distance": self.rel,
        }


def plan_rows(
    rows: Sequence[tuple[str, Any, Mapping[str, Any], float, float]],
    *,
    N: int,
    family: str,
    prompts: int,
) -> list[RowPlan]:
    """For each ``(name, predicted, alternatives, rtol, norm)``: keep ``rtol`` when every
    alternative is at least 2 tolerances away (what ``train_discrimination`` needs: the preset's
    rows are unchanged); otherwise tighten it to ``rel / TIGHTEN_UNITS`` (never widened) with the
    prompt budget raised by ``(rtol / tightened)²`` (sampling error ~ 1/√prompts), unless that
    exceeds ``MAX_BUDGET_SCALE`` and the 1.5 % rule (N ≤ 16, alternative ≥ 1.5 % away) does not
    force it: then the row is skipped, with its numbers."""
    out = []
    for name, pred, alts, rtol, norm in rows:
        p = np.asarray(pred, dtype=float)
        rels = {
            k: (float(np.linalg.norm(np.asarray(v, dtype=float) - p)) / norm if norm > 0 else 0.0)
            for k, v in alts.items()
        }
        nearest = min(rels, key=lambda k: rels[k])
        rel = rels[nearest]
        if norm > 0 and rel >= 2.0 * rtol:
            out.append(RowPlan(name, rtol, 1.0, nearest, rel))
            continue
        need = rel / TIGHTEN_UNITS
        scale = (rtol / need) ** 2 if need > 0 else math.inf
        must = N <= MUST_RESOLVE_N and rel >= MUST_RESOLVE_REL
        if scale <= MAX_BUDGET_SCALE or must:
            out.append(RowPlan(name, need, scale, nearest, rel))
            continue
        units = rel / rtol
        why = (
            f"not separable at this setting: nearest alternative {nearest!r} "
            f"{units:.3g} units ({rel:.3%} relative); needs tolerance {need:.3%}, about "
            f"{prompts * scale:.3g} prompts, {SKIP_SECONDS[family] * scale:.3g} s"
            if math.isfinite(scale)
            else f"not separable at this setting: alternative {nearest!r} coincides with the "
            "prediction (0 units at any tolerance)"
        )
        out.append(RowPlan(name, rtol, scale, nearest, rel, skip=why))
    return out


def start_row(
    spec: tuple[str, Any, Mapping[str, Any], float, float],
    plan: RowPlan,
    start: Any,
    details: Mapping[str, Any],
) -> Evidence:
    """The TRAIN record of a planned row (``spec``: name, prediction, alternatives, preset
    tolerance, norm) observed at its ``start`` -- the evidence a ``skipped`` row carries, at the
    plan's tolerance, with ``details`` and the plan's numbers."""
    name, pred, alts, _, norm = spec
    return train_discrimination(
        name,
        start,
        pred,
        start,
        alternatives=alts,
        rtol=plan.rtol,
        norm=norm,
        details={**details, **plan.details()},
    )


def skip_rows(
    plans: Sequence[RowPlan],
    specs: Sequence[tuple[str, Any, Mapping[str, Any], float, float]],
    starts: Sequence[Any],
    *,
    prompts: int,
    family: str,
) -> list[Evidence] | None:
    """``None`` when every row is separable; otherwise one ``skipped`` row per planned TRAIN row
    (nothing is trained: each row's observed value is its start), the non-separable ones with
    their numbers, the others saying which row stopped the training."""
    bad = [p for p in plans if p.skip]
    if not bad:
        return None
    out = []
    for p, spec, start in zip(plans, specs, starts, strict=True):
        ev = start_row(spec, p, start, {"trained": False})
        why = p.skip or (
            f"not trained at this setting: row {bad[0].name!r} is not separable ({bad[0].skip})"
        )
        out.append(
            skipped(
                ev,
                why=why,
                nearest_units=p.rel / p.rtol,
                needs_tolerance=(p.rel / TIGHTEN_UNITS),
                needs_prompts=prompts * p.scale,
                needs_seconds=SKIP_SECONDS[family] * p.scale,
            )
        )
    return out


def trapped_untested(
    row: Evidence, preset: str, trapped: Sequence[str], seeds: Sequence[int]
) -> Evidence:
    """``row`` (a β* = 0 control over ``seeds``) as ``untested``: the seeds ``trapped`` end at a
    stationary point of the exact risk above R* (our two routes agree), which at our CPU scale
    does not measure the paper's observation on GPT2 models (``CLAIMS["table1-zero-mean"]``), as
    hpcy25's seed rows; ``reached`` says our model, steps and trapped seeds, ``needed`` the
    paper's scale."""
    exp, cfg = PRESETS[preset]
    return untested(
        row,
        claim=CLAIMS["table1-zero-mean"],
        reached=(
            f"one-layer {exp.model.upper()} (d = {exp.setting.d}, N = {exp.setting.N}), "
            f"{cfg.steps} planned {cfg.optimizer} steps (lr {cfg.lr:g} on a cosine to the floor "
            f"{cfg.lr * cfg.lr_decay:.2g}, then the floor until the stopping rule; batch "
            f"{cfg.batch_size}) on CPU "
            f"from N(0, {exp.init_std:g}^2): {len(trapped)} of {len(seeds)} seeds (seeds "
            f"{', '.join(trapped)}) end at a stationary point of the exact risk above R* (BFGS "
            "agrees); the others reach R*"
        ),
        needed=f"{PAPER_TRAINING_SCALE}; the trap fraction at that scale is not measured here",
    )


def unconverged_rows(
    specs: Sequence[tuple[str, Any, Mapping[str, Any], float, float]],
    observed: Sequence[Any],
    starts: Sequence[Any],
    runs: Sequence[tuple[str, int, Any]],
) -> list[Evidence] | None:
    """``None`` when the stopping rule of every ``(label, seed, run)`` found its judged blocks
    converged (:class:`sims.zwb24.train.Stop`); otherwise one ``skipped`` TRAIN row per ``spec``
    (name, prediction, alternatives, tolerance, norm), its ``observed`` value that of the
    unconverged model (against its ``start``), with the numbers of the first unconverged run
    (:func:`numerics.testing.not_converged`: the block furthest above its criterion, relative to
    it, is the statistic; ``drifts`` and ``drift_threshold`` give every block's, with the steps
    taken and the step bound)."""
    bad = [(k, s, r.extra["stop"]) for k, s, r in runs if not r.extra["stop"]["converged"]]
    if not bad:
        return None
    label, seed, st = bad[0]
    over = {k: v for k, v in st["drift"].items() if not v < st["threshold"][k]}
    worst = max(over, key=lambda k: over[k] / st["threshold"][k])
    numbers = {
        "drift_threshold": st["threshold"],
        "step_bound": st["max_steps"],
        "window": st["window"],
    }
    needs = (
        f"criterion {st['threshold'][worst] / st['tol'][worst]:g} × its tolerance "
        f"{st['tol'][worst]:.3%}; blocks above their criterion: "
        + ", ".join(f"{k} {v:.3g} (criterion {st['threshold'][k]:.3g})" for k, v in over.items())
        + f"; the step bound {st['max_steps']} ({st['planned']} planned, then the floor lr) was "
        "reached: it needs more steps"
    )
    out = []
    for (name, pred, alts, rtol, norm), obs, start in zip(specs, observed, starts, strict=True):
        ev = train_discrimination(
            name,
            obs,
            pred,
            start,
            alternatives=alts,
            rtol=rtol,
            norm=norm,
            details={**numbers, "drift": st["drift"], "steps": st["steps"]},
        )
        out.append(
            not_converged(
                ev,
                statistic=(
                    f"the {label} run's (seed {seed}) relative drift of {worst} over a "
                    f"{st['window']}-step window"
                ),
                value=over[worst],
                criterion=st["threshold"][worst],
                steps=st["steps"],
                needs=needs,
                drifts=st["drift"],
                **numbers,
            )
        )
    return out
