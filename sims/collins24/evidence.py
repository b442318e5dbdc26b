"""[collins24] row builders shared by the trained checks of several sections: the trained unit at a
given ``(d, n, L, σ²)`` and its rows (Theorem 3.4's affine S1 and ReLU units, Figs. 3-4's end
point; the paper's training protocol with the schedule and batch derived from the setting and the
row's tolerance), the named alternatives of the affine optimum, and the discrimination of a
trained value against them.

Training (one softmax unit, tied M, online Adam on fresh prompts: the one trainer
:func:`sims.collins24.train.trained` with a :func:`~sims.collins24.train.derived_recipe`):

* step size: derived from the curvature (:func:`sims.collins24.train.run_derived`).
  A transient at Adam's 0.05 (``SETTING_LR``; Adam divides each gradient coordinate by its RMS,
  so a weight moves ≈ 0.05 per step whatever the curvature) until ω̂ stops drifting by more than
  the tolerance over 100 steps; there the curvature h = ∂²𝓛/∂θ² of a diagonal weight (finite
  differences on one common batch) and its gradient noise σ_g (over independent minibatches) are
  measured, and Adam -- ≈ SGD with step lr/σ_g near the optimum -- gets the step size
  lr = 2·f·t·ω·h/(d·σ_g) (≤ 0.05) that keeps the jitter's bias of ω̂ (≈ d·lr·σ_g/(2h)) below f·t
  (t the row's tolerance, f = ``DRIFT_FRACTION``);
* steps: the stop hook of :func:`sims.train.train`: phase 2 runs until the drift of the invariant
  ω̂ = tr(M)/d over the averaging window (mean of its second half minus its first) is at most
  f·t; the window is max((2σ_g/(h√ω f t))²/d, 5 relaxation times σ_g/(lr h), 100 steps), the
  length over which the window mean's standard error is ≤ f·t.  Step sizes, the measured h and
  σ_g, the window, each phase's steps and the final drift are in the row's details;
* batch: the sampling error of ω̂ scales like 1/√batch; 256 prompts per step hold it well inside
  the 5 % tolerance (the presets), so a row tightened to tolerance t uses
  ``256 (0.05/t)²`` prompts per step.

Discrimination: every TRAIN row goes through :func:`numerics.testing.train_discrimination` with
named alternatives; at each setting every alternative's distance to the prediction is computed
in tolerance units.  An alternative closer than ``SEPARABLE_UNITS`` units is resolved by
tightening the row (tolerance = distance / ``SEPARABLE_UNITS``, batch as above) when that needs at
most ``MAX_BATCH`` prompts per step -- always for an alternative ≥ 1.5 % away at n ≤ 16 -- and is
otherwise reported as a ``skipped`` row with the numbers.  The ReLU optimum is an MC estimate: a
ReLU row is tightened only down to ``RELU_Z`` standard errors of it (below, skipped with the MC
reps it would need).  A ``fault_alternative`` switch passes one named alternative as the
prediction (the negative control of the discrimination).

Convergence: a run whose ω̂ still drifts by more than f·t over its window after ``MAX_AVERAGE``
averaging steps, whose derived window is longer than that budget (a flat optimum, large noise:
no full window fits, so averaging is not run), or
whose transient ends where the measured curvature is not positive (no step size derivable), is
reported ``skipped`` with its numbers (:func:`unconverged`: the window and batch it would need),
never compared as if it had converged.

A preset's run (the planned schedule) whose invariant has not settled within its step bound
is reported ``skipped`` alike (:func:`settled`).

The trained model never sees a prediction: the trained runs come from the trainer's cache keyed
by (setting, recipe, seed); predictions are computed afterwards here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from numerics.collins24.api import optimal_scale
from numerics.collins24.quadrature import optimal_scale_affine
from numerics.collins24.tolerances import RELU_RTOL
from numerics.testing import (
    TRAIN_RTOL,
    not_converged,
    skipped,
    swap_alternative,
    tier_seeds,
    train_discrimination,
)
from sims.collins24.train import (
    ADAM,
    CURVATURE_PROMPTS,
    DRIFT_FRACTION,
    MAX_AVERAGE,
    MIN_WINDOW,
    MIXING_TIMES,
    PRESETS,
    TRANSIENT_LR,
    CurvatureNotResolved,
    derived_recipe,
    isotropic,
    trained,
)
from sims.train import TrainResult
from theory.collins24 import (
    Lambda,
    surrogate_optimum,
)
from theory.collins24.settings import Setting
from theory.common.protocols import Estimate, Evidence
from theory.settings.validators import check_int, check_real

__all__ = [
    "Alternative",
    "alternative_faults",
    "LABEL_AVERAGE",
    "ONE_NN",
    "CONVENTION_HALF",
    "CONVENTION_TWICE",
    "EQ9_HALF",
    "EQ9_TWICE",
    "SURROGATE",
    "AFFINE_OPTIMUM",
    "optimum_at_sigma",
    "optimum_at",
    "ACG_ISOTROPIC",
    "ACG_UNIFORM",
    "ACG_SIGMA_INVERSE",
    "acg_optimum_at_L",
    "SETTING_LR",
    "SETTING_STEPS",
    "BASE_BATCH",
    "MAX_BATCH",
    "DRIFT_FRACTION",
    "SEPARABLE_UNITS",
    "RELU_RTOL",
    "RELU_Z",
    "validate_thm34_setting",
    "validate_fig34_setting",
    "omega_hat",
    "unconverged",
    "settled",
    "setting_rows",
    "seeds_of",
    "discriminate",
    "init_omega",
]


@dataclass(frozen=True, slots=True)
class Alternative:
    """A named neighbour of a trained check's prediction: its ``name`` (the row's and its negative
    control's, ``alt:<name>``) and its ``rule``, the alternative's ω from the row's prediction ω*
    and the row's setting (one σ²); ``None`` where the check computes the value itself (the
    U^d_S panels' diagonal optima).  Declared once here; the checks build their alternatives from
    these objects and the declaration (:mod:`sims.collins24.results`) passes the same objects as
    ``fault_alternative``."""

    name: str
    rule: Callable[[float, Setting], float] | None = None

    def __post_init__(self) -> None:
        _BY_NAME.setdefault(self.name, self)

    def __repr__(self) -> str:
        return f"Alternative({self.name!r})"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # pickled by name (its rule may be a closure): a process-pool worker gets the same
        # declared object back from its own import of the declarations
        return (_named_alternative, (self.name,))

    def at(self, w: float, setting: Setting) -> float:
        """The alternative's ω at a row whose prediction is ``w``."""
        if self.rule is None:
            raise ValueError(f"alternative {self.name!r} has no rule: its check computes it")
        return float(self.rule(w, setting))


#: Every Alternative built, by name (the declarations build them all at import).
_BY_NAME: dict[str, Alternative] = {}


def _named_alternative(name: str) -> Alternative:
    """The declared alternative of this name (unpickling: see :meth:`Alternative.__reduce__`)."""
    if name not in _BY_NAME:
        import sims.collins24.results  # noqa: F401  (declares every alternative)
    return _BY_NAME[name]


def _sigma2(s: Setting) -> float:
    """The row's one σ² (a row never stands for S1's sweep)."""
    if s.sigma2 is None:
        raise ValueError("an alternative is computed at one sigma2; got sigma2=None (S1's sweep)")
    return s.sigma2


def _surrogate(w: float, s: Setting) -> float:
    return float(surrogate_optimum(Lambda(s.n, s.L, _sigma2(s)), s.d))


#: ω = 0: the label average (Remark 2.1).
LABEL_AVERAGE = Alternative("label average (omega = 0)", lambda w, s: 0.0)
#: ω → ∞: the 1-NN limit (Remark 2.1).
ONE_NN = Alternative("1-NN limit (omega = inf)", lambda w, s: math.inf)
#: eq. (9)'s bandwidth convention w_KQ = ω/2 read the other way (S1's names).
CONVENTION_HALF = Alternative("eq. (9) convention omega*/2", lambda w, s: w / 2)
CONVENTION_TWICE = Alternative("eq. (9) convention 2 omega*", lambda w, s: 2 * w)
#: The same two conventions under the ReLU / Figs. 3-4 rows' names.
EQ9_HALF = Alternative("eq. (9) omega*/2", lambda w, s: w / 2)
EQ9_TWICE = Alternative("eq. (9) 2 omega*", lambda w, s: 2 * w)
#: §3.1's surrogate optimum (2Λ/d)^{2/(d+2)}, built on the paper's exponent.
SURROGATE = Alternative("§3.1 surrogate (2 Lambda/d)^{2/(d+2)} (paper's exponent)", _surrogate)
#: The affine class's optimum (quadrature) at the row's setting: the wrong task class for ReLU.
AFFINE_OPTIMUM = Alternative(
    "affine class's optimum (quadrature)",
    lambda w, s: float(optimal_scale_affine(s.d, s.n, s.L, _sigma2(s))[0]),
)


def optimum_at_sigma(sigma: float, spec: str = "g", *, sigma2: float | None = None) -> Alternative:
    """The affine optimum at noise level ``sigma`` (a neighbouring σ; its variance ``sigma2``,
    σ² by default) at the row's d, n, L; ``spec`` formats σ in the name."""
    var = sigma * sigma if sigma2 is None else sigma2
    return Alternative(
        f"optimum at sigma = {sigma:{spec}}",
        lambda w, s: float(optimal_scale_affine(s.d, s.n, s.L, var)[0]),
    )


def optimum_at(field: str, value: float, spec: str = "g") -> Alternative:
    """The affine optimum with the row's ``field`` (``"L"`` or ``"n"``) moved to a neighbouring
    run's ``value`` (Figs. 3-4's panels; ``spec`` formats the value in the name)."""

    def rule(w: float, s: Setting) -> float:
        m = replace(s, **{field: value})
        return float(optimal_scale_affine(m.d, m.n, m.L, _sigma2(m))[0])

    return Alternative(f"optimum at {field} = {value:{spec}}", rule)


#: Figs. 3-4's U^d_S panels (values: MC optima over diagonal M, computed by the check).
ACG_ISOTROPIC = Alternative("best isotropic omega I (Lemma B.5's form)")
ACG_UNIFORM = Alternative("uniform-sphere optimum omega*(U^d) I")
ACG_SIGMA_INVERSE = Alternative("best omega Sigma^-1, Sigma = E xx^T")


def acg_optimum_at_L(L: float) -> Alternative:
    """The U^d_S optimum over diagonal M at a neighbouring L (computed by the check)."""
    return Alternative(f"U^d_S optimum at L = {L:g}")


def alternative_faults(*alternatives: Alternative) -> dict[str, dict[str, Alternative]]:
    """Negative controls of a TRAIN check, ``alt:<name>`` in name order: each named alternative
    passed as the prediction (``fault_alternative``) must fail the rows that name it."""
    return {
        f"alt:{a.name}": {"fault_alternative": a}
        for a in sorted(alternatives, key=lambda a: a.name)
    }


def _alt_name(fault_alternative: Alternative | str | None) -> str | None:
    return (
        fault_alternative.name if isinstance(fault_alternative, Alternative) else fault_alternative
    )


#: Adam's step size of the transient (parameter units; Adam normalises the gradient): the presets'.
SETTING_LR = TRANSIENT_LR


#: Typical step counts of a derived run (for the time estimate of a ``skipped`` row only; the
#: steps taken come from the stop hook and are recorded in the row).
SETTING_STEPS = (400, 800, 1600)


#: Prompts per step at the 5 % tolerance (the presets' batch; ω̂'s sampling error ≪ 5 %).
BASE_BATCH = 256


#: Largest batch a tightened row may use (about 4x the preset's seconds per example).
MAX_BATCH = 12_000


#: An alternative closer than this many tolerance units to the prediction is not resolved at
#: that tolerance (``train_discrimination`` requires 2).
SEPARABLE_UNITS = 2.0


#: The ReLU tolerance must exceed this many MC standard errors of the optimum.
RELU_Z = 5.0


#: MC reps of the ReLU optimum (spline over ω; se ≈ 0.4 % of ω* at d = 5, n = 20).
RELU_REPS = 40_000


#: Seconds per step of the unit at the preset batch (one core, measured: 1000 steps ≈ 2.2-2.5 s).
SECONDS_PER_STEP = 0.0025


#: Prompt length at or below which an alternative ≥ 1.5 % away must be resolved.
SHORT_PROMPT = 16


#: The smallest alternative distance that must be resolved at prompt lengths ≤ 16.
MUST_RESOLVE = 0.015


_P = "[collins24] Theorem 3.4"


def validate_thm34_setting(
    d: int = 5, n: int = 20, L: float = 1.0, sigma2: float | None = None
) -> None:
    """Theorem 3.4's hypotheses for a trained unit: x ~ U^d on S^(d-1), d ≥ 2; n ≥ 2 context
    examples; L > 0 (a Lipschitz class that is not constant); σ² > 0 (Λ = nL²/σ² finite); and
    d ≤ 8 (the trained unit's budget)."""
    check_int("d", d, minimum=2, paper=f"{_P}: x ∈ S^(d-1), d ≥ 2")
    if d > 8:
        raise ValueError(f"d must be ≤ 8 for a trained unit (budget), got d={d}")
    check_int("n", n, minimum=2, paper=f"{_P}: n ≥ 2 context examples")
    check_real("L", L, lower=0.0, lower_open=True, paper=f"{_P}: Lipschitz constant L > 0")
    if sigma2 is not None:
        check_real(
            "sigma2",
            sigma2,
            lower=0.0,
            lower_open=True,
            paper=f"{_P}: Λ = nL²/σ² needs noise σ² > 0",
        )


def validate_fig34_setting(d: int = 5, n: int = 20, L: float = 1.0, sigma2: float = 1e-4) -> None:
    """Figs. 3-4's setting: Theorem 3.4's hypotheses (σ² given)."""
    validate_thm34_setting(d, n, L, sigma2)


def omega_hat(M: np.ndarray) -> float:
    return float(np.trace(M)) / M.shape[0]


def _derived_run(
    d: int,
    n: int,
    L: float,
    sigma2: float,
    task: str = "affine",
    *,
    seed: int = 0,
    rtol: float = TRAIN_RTOL,
    batch: int = BASE_BATCH,
) -> tuple[TrainResult, dict[str, Any]]:
    """The unit trained at ``(d, n, L, σ²)`` on ``task`` with the schedule derived from the
    setting (:func:`sims.collins24.train.run_derived`: a transient at Adam's
    ``TRANSIENT_LR``, then the step size and averaging window from the measured curvature and
    gradient noise of a weight, stopped when ω̂'s drift over the window is ≤
    ``DRIFT_FRACTION``·``rtol``), cached by configuration (a setting trained before is not
    trained again).  Returns the run and the schedule used (step sizes, batch, steps, drift)."""
    res = trained(isotropic(d, n, L, sigma2, task), derived_recipe(rtol, batch), seed=seed)
    info = dict(res.extra["schedule"])
    info["drift_limit"] = DRIFT_FRACTION * rtol
    info["schedule_rule"] = (
        f"Adam {TRANSIENT_LR} until the drift of omega-hat over 100 steps <= tolerance; then "
        "step size 2 f t omega h/(d sigma_g) (<= 0.05) and window max((2 sigma_g/(h sqrt(omega) "
        f"f t))^2/d, {MIXING_TIMES:g} sigma_g/(lr h), {MIN_WINDOW}) from the measured curvature h "
        "and gradient noise sigma_g of a diagonal weight, stopped when the drift over the window "
        f"<= f t (f = {DRIFT_FRACTION}); batch 256 (0.05/tolerance)^2"
    )
    return res, info


def _batch_for(rtol: float) -> int:
    return int(math.ceil(BASE_BATCH * (TRAIN_RTOL / rtol) ** 2 / 64) * 64)


def setting_rows(
    name: str,
    *,
    d: int,
    n: int,
    L: float,
    sigma2: float,
    task: str = "affine",
    seed: int = 0,
    alternatives: Callable[[float], dict[str, float]],
    fault_alternative: Alternative | str | None = None,
) -> list[Evidence]:
    """One TRAIN row at the setting: trained ω̂ against the population optimum ω* (affine:
    quadrature; ReLU: MC + spline), outside each named alternative (``alternatives(ω*)``),
    started ≥ 3 units away; tightened or ``skipped`` as the module docstring says.
    ``fault_alternative`` passes a named alternative as the prediction (the row must fail)."""
    details: dict[str, Any] = {
        "setting": {"d": d, "n": n, "L": L, "sigma2": sigma2},
        "Lambda": float(Lambda(n, L, sigma2)),
    }
    if task == "affine":
        w, rtol = float(optimal_scale_affine(d, n, L, sigma2)[0]), TRAIN_RTOL
    else:
        rng = np.random.default_rng([seed, d, n, int(L * 1e6), int(sigma2 * 1e9)])
        est, _ = optimal_scale(d, n, L, sigma2, task, rng=rng, reps=RELU_REPS)
        assert isinstance(est, Estimate)
        w, rtol = est.mean, RELU_RTOL
        details["optimum_se"] = est.se
    alts = alternatives(w)
    dist = {k: abs(v - w) / w if math.isfinite(v) else math.inf for k, v in alts.items()}
    nearest_name = min(dist, key=lambda k: dist[k])
    nearest = dist[nearest_name]
    details["alternative_distance_relative"] = dist
    batch = BASE_BATCH
    if nearest / rtol < SEPARABLE_UNITS:
        need = nearest / SEPARABLE_UNITS
        need_batch = _batch_for(need) if need > 0 else math.inf
        must = n <= SHORT_PROMPT and nearest >= MUST_RESOLVE
        mc_ok = task == "affine" or need * w >= RELU_Z * details["optimum_se"]
        if mc_ok and (need_batch <= MAX_BATCH or must) and need > 0:
            rtol, batch = need, int(need_batch)
            details["tightened"] = (
                f"nearest alternative {nearest_name!r} {nearest:.2%} away: "
                f"tolerance {need:.2%}, batch {batch}"
            )
        else:
            need_reps = (
                0.0
                if mc_ok
                else (RELU_Z * details["optimum_se"] * math.sqrt(RELU_REPS) / max(need * w, 1e-300))
                ** 2
            )
            secs = (
                SECONDS_PER_STEP * SETTING_STEPS[0] * max(1.0, need_batch / BASE_BATCH)
                if math.isfinite(need_batch)
                else math.inf
            )
            why = (
                f"not separable at this setting: nearest alternative {nearest_name!r} "
                f"{nearest / rtol:.2f} units ({nearest:.2%} from the prediction); needs "
                f"tolerance {need:.3%}, about {need_batch:.3g} prompts per step x "
                f"{SETTING_STEPS[0]} steps, {secs:.3g} s"
                + (f", and {need_reps:.3g} MC reps of the optimum" if need_reps else "")
            )
            ev = train_discrimination(
                name, w, w, 0.0, alternatives=alts, rtol=rtol, details=details
            )
            return [
                skipped(
                    ev,
                    why=why,
                    nearest_units=nearest / rtol,
                    needed_tolerance=need,
                    needed_batch=need_batch,
                    seconds=secs,
                )
            ]
    try:
        res, info = _derived_run(d, n, L, sigma2, task, seed=seed, rtol=rtol, batch=batch)
    except CurvatureNotResolved as e:
        ev = train_discrimination(name, w, w, 0.0, alternatives=alts, rtol=rtol, details=details)
        return [
            skipped(
                ev,
                why=(
                    "not resolvable at this setting within the budget: at the end of the "
                    f"transient the loss is flat within its sampling noise (curvature h = "
                    f"{e.h:.3g}, gradient noise sigma_g = {e.sigma_g:.3g} on {CURVATURE_PROMPTS} "
                    f"prompts, omega-hat = {e.omega:.3g}): no step size can be derived, nothing "
                    "was averaged"
                ),
                curvature=e.h,
                gradient_noise=e.sigma_g,
                omega_after_transient=e.omega,
            )
        ]
    details.update(info)
    M = res.extra["M_avg"]
    wh = omega_hat(M)
    details["anisotropy"] = float(np.linalg.norm(M - wh * np.eye(d)) / np.linalg.norm(M))
    init = ADAM.init**2
    pred = w
    named = dict(alts)
    fault_name = _alt_name(fault_alternative)
    if fault_name is not None and fault_name in named:
        pred = named.pop(fault_name)
        named["the prediction (unfaulted)"] = w
    row = train_discrimination(
        name,
        wh,
        pred,
        init,
        alternatives=named,
        rtol=rtol,
        seeds=[seed],
        seeds_passed=[seed],
        details=details,
    )
    return [row if info["converged"] else unconverged(row, info, batch=batch)]


def unconverged(row: Evidence, info: Mapping[str, Any], *, batch: int) -> Evidence:
    """A TRAIN row whose run did not meet its stop criterion within ``MAX_AVERAGE`` averaging
    steps (or whose derived window exceeds that budget, so that averaging was not run),
    reported ``skipped`` with its numbers (a run that has not converged can neither confirm
    nor refute the prediction): the final drift of ω̂ against its limit, the derived averaging
    window against the budget, and the batch that would fit the window in the budget -- the
    window's length scales like σ_g², and σ_g² like 1/batch, so ``batch · window / MAX_AVERAGE``
    prompts per step (with the seconds at ``SECONDS_PER_STEP``)."""
    window = int(info["window"])
    need_batch = batch * max(1.0, window / MAX_AVERAGE)
    secs = SECONDS_PER_STEP * MAX_AVERAGE * need_batch / BASE_BATCH
    statistic = (
        "omega-hat's drift over the last averaging window"
        if info.get("phase2_run", True)
        else "omega-hat's drift over the transient's last 100 steps (averaging not run: the "
        "derived window exceeds the budget)"
    )
    return not_converged(
        row,
        statistic=statistic,
        value=info["omega_drift_over_window"],
        criterion=info["drift_limit"],
        steps=info["average_steps"],
        needs=(
            f"the derived window is {window} steps (budget {MAX_AVERAGE}); about "
            f"{need_batch:.3g} prompts per step x {MAX_AVERAGE} steps, {secs:.3g} s, would fit it"
        ),
        needed_window=window,
        needed_batch=need_batch,
        seconds=secs,
    )


def affine_alternatives(
    d: int, n: int, L: float, sigma2: float, *, neighbours: str = "sigma"
) -> Callable[[float], dict[str, float]]:
    """The named alternatives of an affine row (the presets' names, neighbours at this
    setting): label average, 1-NN limit, the eq. (9) conventions, the §3.1 surrogate on the
    paper's exponent, and the optima at the neighbouring σ (x3, /3) or L (/3) and n (/2, x2)."""

    setting = Setting(d=d, n=n, L=L, sigma2=sigma2)

    def alts(w: float) -> dict[str, float]:
        out = {a.name: a.at(w, setting) for a in (LABEL_AVERAGE, ONE_NN, SURROGATE)}
        if neighbours == "sigma":
            s = math.sqrt(sigma2)
            near = (optimum_at_sigma(s * f, ".3g", sigma2=sigma2 * f * f) for f in (3.0, 1 / 3))
            out |= {a.name: a.at(w, setting) for a in (CONVENTION_HALF, CONVENTION_TWICE, *near)}
        else:
            ns = [m for m in (max(2, n // 2), 2 * n) if m != n]
            near = (optimum_at("L", L / 3, ".3g"), *(optimum_at("n", m) for m in ns))
            out |= {a.name: a.at(w, setting) for a in (EQ9_HALF, EQ9_TWICE, *near)}
        return out

    return alts


def seeds_of(seed: int, quick: bool) -> tuple[int, ...]:
    """The seeds of a tier (:func:`numerics.testing.tier_seeds`; the name other modules import)."""
    return tier_seeds(seed, quick=quick)


def discriminate(
    name: str,
    observed: Any,
    predicted: Any,
    initial: Any,
    *,
    alternatives: Mapping[str, Any],
    rtol: float = TRAIN_RTOL,
    fault_alternative: Alternative | str | None = None,
    seed: int | None = None,
    details: dict | None = None,
) -> Evidence:
    """:func:`train_discrimination` of one seed's estimate.  Alternatives within
    ``SEPARABLE_UNITS`` tolerances of the prediction are recorded as not separable (a setting
    cannot tell them apart), not named.  ``fault_alternative`` (the exact name of a named
    alternative) passes that alternative as the prediction and the prediction as an alternative
    named "the prediction (unfaulted)": the row must then fail (rows that do not name it are left
    as they are)."""
    p = np.asarray(predicted, dtype=float)
    scale = float(np.linalg.norm(p)) or 1.0
    named: dict[str, Any] = {}
    unresolved: dict[str, float] = {}
    for k, v in alternatives.items():
        sep = float(np.linalg.norm(np.asarray(v, dtype=float) - p)) / (rtol * scale)
        if sep >= SEPARABLE_UNITS:
            named[k] = v
        else:
            unresolved[k] = sep
    # a row that does not name this alternative stays unfaulted
    predicted, named = swap_alternative(
        predicted,
        named,
        _alt_name(fault_alternative),
        prediction_name="the prediction (unfaulted)",
        strict=False,
    )
    extra = {"alternatives_not_separable_units": unresolved, **(details or {})}
    seeds = [] if seed is None else [seed]
    ev = train_discrimination(
        name,
        observed,
        predicted,
        initial,
        alternatives=named,
        rtol=rtol,
        seeds=seeds,
        seeds_passed=seeds,
        details=extra,
    )
    if not ev.passed:
        ev.details["seeds_passed"] = []
    return ev


def init_omega(unit: str | tuple[Any, Any]) -> float:
    """ω at the start of a unit (M = init²·I): a preset's name or a (setting, recipe) pair."""
    return (PRESETS[unit] if isinstance(unit, str) else unit)[1].init ** 2


def settled(row: Evidence, res: TrainResult) -> Evidence:
    """``row``, or ``row`` ``skipped`` with its numbers when the run it measures reached its step
    bound before its invariant settled (``res.extra["stop"]``: the drift over the averaging window
    against ``fraction · tol`` of the judging check, :class:`sims.collins24.train.Stop`): such a
    run can neither confirm nor refute the prediction."""
    st = res.extra.get("stop", {})
    if st.get("converged", True):
        return row
    steps = int(st["planned_steps"]) + int(st["extra_steps"])
    return not_converged(
        row,
        statistic=f"the drift of {st['invariant']} over the last {st['window']}-step window",
        value=float(st["drift"]),
        criterion=float(st["threshold"]),
        steps=steps,
        needs=(
            f"the step bound ({st['max_steps']} steps beyond the planned {st['planned_steps']}) "
            "was reached; more steps at the final lr or a larger batch would settle it"
        ),
        planned_steps=st["planned_steps"],
        extra_steps=st["extra_steps"],
        max_steps=st["max_steps"],
        tol=st["tol"],
    )
