"""[zfb24] the shared recipe of the trained checks (§4.1 Theorem 4, eq. (12), §4.2, §4.3 Theorem 8).

The presets' runs, tolerance planning against Γ's named neighbours, the separability rule (work
budget, short prompts resolved), the sizing of the moment-statistics route that the Theorem 4,
eq. (12) and Theorem 8 checks share, and the ``skipped`` rows of a run that did not converge.
Every model comes from :func:`sims.zfb24.train.trained`.  Random streams keep the registered
check paths (``sims.zfb24:<check>``) as their labels.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import torch

from numerics.sampling import check_rng, check_seed
from numerics.testing import (
    TRAIN_RTOL,
    not_converged,
    skipped,
    train_discrimination,
)
from numerics.zfb24.evidence import over_seeds, seeds
from numerics.zfb24.faults import (
    GAMMA_ALTERNATIVES,
    GammaFn,
    gamma_or_fault,
    inverse_alternatives,
)
from numerics.zfb24.predictors import predictor_predict
from numerics.zfb24.sampling import sample_linear
from sims.data import embed
from sims.train import TrainResult
from sims.zfb24.train import (
    PRESETS,
    LSAFlowSetting,
    MomentResult,
    blocks,
    derive_batch,
    final_weights,
    initial_weights,
    moment_recipe,
    pilot,
    setting_of,
    trained,
)
from theory import zfb24 as T
from theory.common.protocols import Evidence
from theory.zfb24.hypotheses import thm4_hypotheses
from theory.zfb24.settings import Setting

__all__ = [
    "THM4_D",
    "THM4_N",
    "THM4_SPECTRUM",
    "THM4_SIGMA",
    "THM8_D",
    "THM8_N",
    "TRAIN_ORDER_MARGIN",
    "NONZERO_MARGIN",
    "DRIFT_MARGIN",
    "CONDITION21_MARGIN",
    "rel",
    "tokens",
    "trained_sgd",
    "trained_fixed_batch",
    "trained_random_cov",
    "unconverged",
    "thm4_unconverged",
    "SEPARATION_UNITS",
    "SHORT_N",
    "SHORT_RESOLVE",
    "BUDGET_WORK",
    "SGD_BUDGET_SECONDS",
    "SLOPE_PROMPTS",
    "SLOPE_GROUPS",
    "SLOPE_MAX_PROMPTS",
    "SLOPE_PILOT_SECONDS",
    "SIGMA21_FRACTION",
    "is_thm4_preset",
    "separation",
    "row_rtol",
    "factors",
    "eq12_prompts",
    "thm4_tolerances",
    "must_resolve",
    "moment_run",
    "moment_not_converged",
    "not_separable",
    "thm4_setting",
    "thm4_moments",
    "off_preset_moment_rows",
]


#: The presets' settings (sims.zfb24.train PRESETS "thm4_sgd"/"thm4_fixed_batch" and
#: "thm8_random_cov"): the defaults of the trained checks, where their rows are the presets' rows.
THM4_D, THM4_N, THM4_SPECTRUM, THM4_SIGMA = 4, 4, (0.5, 1.0, 1.5, 2.0), 0.3
THM8_D, THM8_N = 5, 3


#: Margin of the trained orderings against TRAIN_RTOL-scale bands (relative quantities): small
#: against the band, above float64 noise of the ratios.
TRAIN_ORDER_MARGIN = 1e-3


#: A gradient norm counts as nonzero above this (unchanged from the inline value it replaces).
NONZERO_MARGIN = 1e-6


#: Balancedness drift of full-batch GD vs its O(lr) bound: the margin only absorbs rounding.
DRIFT_MARGIN = 1e-6


#: Condition (21) at the preset: σ² must be below the bound with room for the MC error of E.
CONDITION21_MARGIN = 1e-3


def rel(a: np.ndarray, b: np.ndarray) -> float:  # relative Frobenius distance
    return float(np.linalg.norm(a - b) / np.linalg.norm(b))


def tokens(X: np.ndarray, y: np.ndarray, xq: np.ndarray) -> torch.Tensor:
    """The embedded prompts (eq. 4) of numpy samples, for the torch model."""
    return embed(*(torch.as_tensor(a) for a in (X, y, xq)))


def trained_sgd(seed: int = 0) -> TrainResult:
    """The Theorem 4 SGD run (cached; shared by tests, checks, figures and the report)."""
    return trained(*PRESETS["thm4_sgd"], seed=seed)


def trained_fixed_batch(seed: int = 0) -> TrainResult:
    """The Theorem 4 GD proxy run: full-batch GD on one antithetic batch (cached)."""
    return trained(*PRESETS["thm4_fixed_batch"], seed=seed)


def trained_random_cov(seed: int = 0) -> TrainResult:
    """The §4.3 run on Exp(1) random covariance (cached)."""
    return trained(*PRESETS["thm8_random_cov"], seed=seed)


def unconverged(
    name: str,
    run: TrainResult,
    observed: np.ndarray,
    predicted: np.ndarray,
    start: np.ndarray,
    alternatives: dict[str, Any],
    seed: int,
    numbers: dict[str, float] | None = None,
) -> Evidence | None:
    """``None`` when the run's stopping rule found its invariant converged; otherwise the
    ``skipped`` TRAIN row (the record of the unconverged model against the prediction and its
    named alternatives at the stopping rule's tolerance) with the numbers: drift, threshold,
    steps taken, the step bound (:func:`numerics.testing.not_converged`)."""
    st = run.extra["stop"]
    if st["converged"]:
        return None
    n = {
        **(numbers or {}),
        "drift_threshold": st["threshold"],
        "needs_tolerance": st["tol"],
        "phase_steps": st["phase_steps"],
        "step_bound": st["max_steps"],
        "window": st["window"],
    }
    ev = train_discrimination(
        name,
        observed,
        predicted,
        start,
        rtol=st["tol"],
        alternatives=alternatives,
        seeds=[seed],
        details={**n, "drift": st["drift"]},
    )
    return not_converged(
        ev,
        statistic=f"P's relative drift over a {st['window']}-step window of the last phase",
        value=st["drift"],
        criterion=st["threshold"],
        steps=st["phase_steps"],
        needs=(
            f"criterion {st['threshold'] / st['tol']:g} × the tolerance {st['tol']:.3%}; the "
            f"last phase's step bound {st['max_steps']} was reached: it needs more steps"
        ),
        **n,
    )


def thm4_unconverged(
    name: str, run: TrainResult, seed: int, fault_gamma_fn: GammaFn | None = None
) -> list[Evidence] | None:
    """``None`` when a Theorem 4 run (SGD) converged; otherwise the one ``skipped`` TRAIN row of
    :func:`unconverged` for its P against Γ⁻¹ and Γ's named neighbours (the rows of a check that
    reads the run: its model is not yet the trained one)."""
    s = setting_of(run)
    L = np.array(s.Lambda)
    b, b0 = blocks(*final_weights(run)), blocks(*initial_weights(run))
    Gi = np.linalg.inv(gamma_or_fault(fault_gamma_fn, L, s.N))
    miss = unconverged(name, run, b["P"], Gi, b0["P"], inverse_alternatives(L, s.N), seed)
    return None if miss is None else [miss]


#: Every row's tolerance puts its nearest named alternative this many units away (≥ 2, the
#: separation train_discrimination needs; 3 so an estimate within 1 unit is ≥ 2 units from it).
SEPARATION_UNITS = 3.0


#: At prompt lengths ≤ SHORT_N an alternative at least SHORT_RESOLVE (relative) from the prediction
#: is always resolved (the row is tightened, the batch raised), whatever the budget.
SHORT_N = 16


SHORT_RESOLVE = 0.015


#: Budget of the moment-statistics route where resolving is not required, in work units
#: batch·(N + d)·d² (the statistics' cost; a machine-independent count, so a drawn setting is
#: classified the same everywhere): 5e8 units ≈ 3 s on this machine (≈ 6 ns a unit, measured at
#: d = 6, N = 16), a property example should take ≤ 5 s on one core.
BUDGET_WORK = 5e8


#: SGD route at a non-preset setting: largest estimated training time (s); beyond it, skipped.
SGD_BUDGET_SECONDS = 120.0


#: Theorem 8 at a non-preset setting, the fresh-prompt slope: a pilot of SLOPE_PROMPTS prompts (the
#: preset's number) in SLOPE_GROUPS groups gives its standard error; the prompts are raised until
#: BATCH_Z standard errors fit in the row's tolerance, up to SLOPE_MAX_PROMPTS (≈ 3 s at M = 200)
#: where resolving is not required (beyond: the row is skipped with its numbers).
SLOPE_PROMPTS = 10_000


SLOPE_GROUPS = 8


SLOPE_MAX_PROMPTS = 100_000


#: Seconds of SLOPE_PROMPTS prompts of the slope at M = 200 on this machine (measured: 0.3 s), the
#: unit of its time estimate in a skipped row.
SLOPE_PILOT_SECONDS = 0.3


#: Theorem 8 at a non-preset setting: σ = min(the preset's σ, √(SIGMA21_FRACTION · bound (21))).
SIGMA21_FRACTION = 0.8


def is_thm4_preset(d: int, N: int, spectrum: tuple[float, ...], sigma_init: float) -> bool:
    return (d, N, tuple(float(v) for v in spectrum), float(sigma_init)) == (
        THM4_D,
        THM4_N,
        THM4_SPECTRUM,
        THM4_SIGMA,
    )


def separation(pred: np.ndarray, alts: dict[str, np.ndarray]) -> float:
    """Relative distance from the prediction to its nearest named alternative."""
    p = np.asarray(pred, dtype=float)
    near = min(float(np.linalg.norm(np.asarray(a, dtype=float) - p)) for a in alts.values())
    return near / float(np.linalg.norm(p))


def row_rtol(pred: np.ndarray, alts: dict[str, np.ndarray], base: float = TRAIN_RTOL) -> float:
    """The row's tolerance: the preset's (``base``) unless the nearest alternative is closer than
    SEPARATION_UNITS of it; then tightened to put it SEPARATION_UNITS away (never widened)."""
    return min(base, separation(pred, alts) / SEPARATION_UNITS)


def factors(L: np.ndarray, N: int, Gam: np.ndarray) -> np.ndarray:
    Ue, ue = T.limit_params_fn(L, N, Gamma=Gam)
    return np.append(Ue.ravel(), ue)


def eq12_prompts(sd: int, L: np.ndarray) -> dict[int, tuple[np.ndarray, ...]]:
    """The fresh prompts of check_eq12_train (M = 4, 16, 64; 2000 each; its own stream)."""
    rng = check_rng(sd, "sims.checks.lsa_flow:check_eq12_train", "prompts")
    return {M: sample_linear(rng, 2000, M, L)[:3] for M in (4, 16, 64)}


def thm4_tolerances(L: np.ndarray, N: int, sd: int) -> dict[str, float]:
    """Each trained thm4/eq12 row's tolerance at (Λ, N): from the theory's Γ and its named
    neighbours (not from an injected fault: a fault must meet the unfaulted row)."""
    G = T.gamma_fn(L, N)
    Gi, alts = np.linalg.inv(G), inverse_alternatives(L, N)
    out = {
        "P": row_rtol(Gi, alts),
        "factors": row_rtol(
            factors(L, N, G),
            {n: factors(L, N, fn(L, N)) for n, fn in GAMMA_ALTERNATIVES.items()},
            TRAIN_RTOL / 2,
        ),
    }
    for M, (X, y, xq) in eq12_prompts(sd, L).items():
        out[f"eq12 M={M}"] = row_rtol(
            predictor_predict(Gi, X, y, xq),
            {n: predictor_predict(a, X, y, xq) for n, a in alts.items()},
        )
    return out


def must_resolve(N: int, separation: float) -> bool:
    return N <= SHORT_N and separation >= SHORT_RESOLVE


def moment_run(
    setting: LSAFlowSetting, rtol: float, separation: float, sd: int, path: str
) -> tuple[MomentResult | None, dict[str, float]]:
    """The moment-statistics run serving tolerance ``rtol`` (batch from a pilot's sampling-error
    constant; :func:`sims.zfb24.train.trained` with :func:`~sims.zfb24.train.moment_recipe`), or
    ``None`` with the numbers when it exceeds the budget and need not be resolved, or when it
    reached its step bound with P still drifting above its stopping rule's threshold
    (``numbers["unconverged"]``: the drift, threshold, steps and bound; the rows are then
    ``skipped`` with them, never judged)."""
    c, per_prompt, _ = pilot(setting, check_seed(sd, path, "pilot"))
    B = derive_batch(c, rtol)
    work = float(B) * (setting.N + setting.d) * setting.d**2
    numbers = {
        "needs_tolerance": rtol,
        "error_constant": c,
        "needs_prompts": B,
        "needs_seconds": B * per_prompt,
        "needs_work": work,
        "budget_work": BUDGET_WORK,
        "separation": separation,
    }
    if work > BUDGET_WORK and not must_resolve(setting.N, separation):
        return None, numbers
    recipe = moment_recipe(B, rtol)
    r = trained(setting, recipe, seed=sd)
    if not r.converged:
        return None, {
            **numbers,
            "unconverged": 1.0,
            "drift": r.drift,
            "drift_threshold": recipe.stop.threshold,
            "steps": r.steps,
            "step_bound": recipe.stop.max_steps,
            "window": recipe.stop.window,
        }
    return r, numbers


def moment_not_converged(ev: Evidence, numbers: dict[str, float]) -> Evidence:
    """``ev`` ``skipped`` because its moment-statistics run reached its step bound with P still
    drifting (``numbers`` of :func:`moment_run`; :func:`numerics.testing.not_converged`)."""
    rest = {k: v for k, v in numbers.items() if k not in ("drift", "steps")}
    return not_converged(
        ev,
        statistic=f"P's relative change over {numbers['window']:.0f} GD steps",
        value=numbers["drift"],
        criterion=numbers["drift_threshold"],
        steps=int(numbers["steps"]),
        needs=(
            f"criterion {numbers['drift_threshold'] / numbers['needs_tolerance']:g} × the "
            f"tolerance {numbers['needs_tolerance']:.3%}; the step bound "
            f"{numbers['step_bound']:.0f} was reached: it needs more steps"
        ),
        **rest,
    )


def not_separable(
    name: str,
    numbers: dict[str, float],
    predicted: np.ndarray,
    alternatives: dict[str, Any],
    seed: int,
) -> Evidence:
    """The ``skipped`` row of a setting whose alternatives the budget cannot resolve, or whose
    moment-statistics run did not converge within its step bound (``numbers["unconverged"]``:
    :func:`moment_not_converged`): the TRAIN record of the prediction and its named alternatives
    at the needed tolerance."""
    t, sep = numbers["needs_tolerance"], numbers["separation"]
    ev = train_discrimination(
        name,
        predicted,
        predicted,
        predicted,
        rtol=t,
        alternatives=alternatives,
        seeds=[seed],
        details=dict(numbers),
    )
    if numbers.get("unconverged"):
        return moment_not_converged(ev, numbers)
    budget = (
        f"work {numbers['needs_work']:.2g} units, budget {BUDGET_WORK:.2g}"
        if "needs_work" in numbers
        else f"budget {numbers['budget_seconds']:g} s"
    )
    why = (
        f"not separable at this setting: nearest alternative {sep / TRAIN_RTOL:.2f} units of "
        f"TRAIN_RTOL ({sep:.2%} from the prediction); needs tolerance {t:.3%}, about "
        f"{numbers['needs_prompts']:.3g} prompts, {numbers['needs_seconds']:.0f} s ({budget})"
    )
    return skipped(ev, why=why, **numbers)


def thm4_setting(
    d: int, N: int, spectrum: tuple[float, ...], sigma_init: float, **kw: Any
) -> LSAFlowSetting:
    return LSAFlowSetting(
        d=d,
        N=N,
        Lambda=np.diag([float(v) for v in spectrum]).tolist(),
        sigma_init=float(sigma_init),
        **kw,
    )


def thm4_moments(
    d: int, N: int, spectrum: tuple[float, ...], sigma_init: float, sd: int
) -> tuple[MomentResult | None, dict[str, float], dict[str, float]]:
    """The moment-statistics model of (Λ = diag(spectrum), N, σ) shared by the thm4 and eq12
    checks (one cached run serving the tightest of their rows' tolerances)."""
    L = np.diag([float(v) for v in spectrum])
    tols = thm4_tolerances(L, N, sd)
    rtol = min(tols.values())
    sep = rtol * SEPARATION_UNITS  # the nearest alternative of the tightest row
    r, numbers = moment_run(
        thm4_setting(d, N, spectrum, sigma_init), rtol, sep, sd, "sims.checks.lsa_flow:thm4_moments"
    )
    return r, numbers, tols


#: ``rows(d, N, spectrum, σ, seed, fault_gamma_fn)`` of a moment-statistics route.
MomentRows = Callable[[int, int, tuple[float, ...], float, int, GammaFn | None], list[Evidence]]


def off_preset_moment_rows(
    setting: Setting,
    rows: MomentRows,
    *,
    quick: bool,
    seed: int,
    fault_gamma_fn: GammaFn | None,
) -> list[Evidence] | None:
    """Theorem 4's hypotheses checked; then, at a setting other than the Theorem 4 preset, the
    moment-statistics rows ``rows(d, N, spectrum, σ, seed, fault)`` over the tier's seeds (the
    thm4 and eq. (12) trained checks share this dispatch); ``None`` at the preset."""
    thm4_hypotheses(setting)
    d, N, sigma_init = setting.d, setting.N, setting.sigma_init
    spectrum = tuple(setting.spectrum or ())
    if is_thm4_preset(d, N, spectrum, sigma_init):
        return None
    return over_seeds(
        lambda sd: rows(d, N, spectrum, sigma_init, sd, fault_gamma_fn), seeds(seed, quick)
    )
