"""[hpcy25] §3 training at any setting: when a drawn run has converged.  The stop criteria
(the invariant ⟨ω, μ⟩ and, for the Obs-1 rows at H ≥ 3, the heads' pattern statistics, each
within a fraction of its row's tolerance), the plateau schedule they set, and the rows of a run
that did not converge within its step bound (``skipped`` with its numbers).  Re-exported by
:mod:`.training`.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from numerics.train_evidence import not_converged
from sims.hpcy25.train import (
    STOP_FRACTION,
    InvariantStop,
    PatternStop,
    Recipe,
    setting_recipe,
)
from theory.common.protocols import Evidence

__all__ = [
    "SETTING_SECONDS_PER_STEP",
    "STOP_FRACTION",
    "PATTERN_TOLERANCES",
    "SKIP_UNCONVERGED",
    "invariant_stop",
    "pattern_stop",
    "setting_training",
    "converged_or_skipped",
    "preset_converged_or_skipped",
    "convergence_shortfall",
    "skip_unconverged",
    "with_shortfall",
]

#: Seconds per training step of the derived recipe at batch 128 (measured on one thread of the
#: shared 2-core machine, H = 2–4, d ≤ 8, L ≤ 64: 2.7–3.8 ms), used to quote a skipped row's cost.
SETTING_SECONDS_PER_STEP = 0.0035


def invariant_stop(rtol: float) -> InvariantStop:
    """The convergence criterion of a row of tolerance ``rtol``: the invariant's range over a
    500-step window ≤ :data:`STOP_FRACTION` · ``rtol`` (relative), after at least 1000 steps."""
    return InvariantStop(rel_drift=STOP_FRACTION * rtol)


#: The tolerance of each Obs-1 pattern row, in the units of the statistic a
#: :class:`~sims.hpcy25.train.PatternStop` traces: min diag_ratio ≥ 0.97 (0.03
#: below its ideal 1), min ov_ratio ≥ 0.98 (0.02), active |ω_h| spread ≤ 15 % (0.15 above its
#: ideal 0).
PATTERN_TOLERANCES: dict[str, float] = {"diag": 1 - 0.97, "ov": 1 - 0.98, "spread": 0.15}


def pattern_stop(rtol: float) -> PatternStop:
    """The convergence criterion of an H ≥ 3 run whose rows have tolerance ``rtol``: as
    :func:`invariant_stop`, and each pattern statistic's drift (window-mean change and standard
    deviation over the last 500-step window, absolute) at most :data:`STOP_FRACTION` times its
    row's tolerance (:data:`PATTERN_TOLERANCES`): the same quarter unit as the invariant's, so a
    statistic still moving by more than a quarter of its row's band per window keeps the run
    going."""
    return PatternStop(
        rel_drift=STOP_FRACTION * rtol,
        pattern=tuple((k, STOP_FRACTION * t) for k, t in PATTERN_TOLERANCES.items()),
    )


def _worst(
    trace: list[dict[str, float]], last: int, stop: InvariantStop
) -> tuple[str, float | None, float]:
    """The stop statistic furthest from its bound at step ``last``: ``(key, drift, bound)`` --
    ``"inv"`` for an :class:`InvariantStop`, the worst of ``"inv"`` and the pattern statistics
    (drift / bound) for a :class:`PatternStop` (``drift`` ``None``: two windows not filled)."""
    if not isinstance(stop, PatternStop):
        return "inv", stop.drift(trace, last), stop.rel_drift
    bounds, drifts = stop.bounds(), stop.drifts(trace, last)
    if any(x is None for x in drifts.values()):
        return "inv", None, stop.rel_drift
    key = max(drifts, key=lambda k: (drifts[k] or 0.0) / bounds[k])
    return key, drifts[key], bounds[key]


def convergence_shortfall(res: Any, stop: InvariantStop, *, batch: int) -> dict[str, Any] | None:
    """``None`` if the run's stop criterion fired before its step bound (it converged); else the
    numbers of a run that did not: the drift over the last window of the stop statistic furthest
    from its bound (``"statistic"``: ``"inv"`` the invariant, relative; for a
    :class:`~sims.hpcy25.train.PatternStop` possibly a pattern statistic,
    absolute), its criterion, the steps taken, and the steps and seconds the criterion would need
    -- the drift in units of its bound extrapolated by the power law through its values one window
    apart (``drift ~ steps^-p``), at the recipe's seconds per step scaled by the batch.  Where the
    drift did not decrease over the last window the steps needed are not estimable (``inf``)."""
    if res.extra.get("stop", {}).get("converged", "stopped_at" in res.extra):
        return None
    trace = res.extra.get("trace") or []
    last = int(trace[-1]["step"]) if trace else 0
    key, x, bound = _worst(trace, last, stop)
    if x is not None and x <= bound:
        return None  # met at the very last logged step (the stop hook is not asked there)
    _, x_prev, bound_prev = _worst(trace, last - stop.window, stop)
    need = math.inf
    if x is not None and x_prev is not None and x_prev / bound_prev > x / bound > 0:
        p = math.log((x_prev / bound_prev) / (x / bound)) / math.log(
            (last + 1) / (last + 1 - stop.window)
        )
        need = (last + 1) * (x / bound) ** (1 / p)
    secs = need * SETTING_SECONDS_PER_STEP * batch / 128
    return {
        "statistic": key,
        "drift": x if x is not None else math.inf,
        "criterion": bound,
        "steps": last + 1,
        "steps_needed": need,
        "seconds_needed": secs,
    }


#: Whether a drawn run trained with the plateau schedule (:func:`setting_training`) that did not
#: converge within its step bound has its rows ``skipped`` with the numbers
#: (:func:`skip_unconverged`).  With the schedule 6 of 6 measured H = 2 draws met the criterion
#: (2301–3101 steps), so the rule discards only a run the budget cannot resolve; at H ≥ 3 it also
#: discards a run whose low-weight heads' patterns have not settled by the bound
#: (docs/papers/hpcy25.md, "H ∈ {3, 4}").  A run trained without the schedule (the
#: presets) has its shortfall recorded on the rows (``details["convergence"]``).
SKIP_UNCONVERGED = True


def setting_training(H: int, rtol: float, *, batch_size: int, patterns: bool = False) -> Recipe:
    """How a drawn setting with ``H`` heads and a row of tolerance ``rtol`` is trained: the
    recipe (:func:`sims.hpcy25.train.setting_recipe`, batch ``batch_size``) with its stop and
    plateau schedule.  The stop is :func:`invariant_stop`, or :func:`pattern_stop` where
    ``patterns`` (the check's rows depend on the heads' configuration: the Obs-1 pattern rows,
    and the finite-ω prediction evaluated at the trained heads) and ``H ≥ 3`` (a low-weight head
    settles after the invariant: at (3, 24, 1.0, 4) the invariant stop at lr 5e-3 ended with
    |ω_h| 0.19–0.26 and ⟨ω, μ⟩ 1.71 units below the finite-ω prediction; the pattern stop passes
    at lr 5e-3, 1e-2, 2e-2).  At H = 2 both heads carry the pair and 6 of 6 measured draws passed
    their pattern rows with the invariant stop."""
    stop = pattern_stop(rtol) if patterns and H >= 3 else invariant_stop(rtol)
    return setting_recipe(stop, batch_size=batch_size)


def converged_or_skipped(rows: list[Evidence], res: Any, recipe: Recipe) -> list[Evidence]:
    """A drawn seed's rows with its convergence: recorded on each row; and, where the run did
    not converge within its step bound (:data:`SKIP_UNCONVERGED`), ``skipped`` with the numbers
    (:func:`skip_unconverged`)."""
    assert recipe.stop is not None
    short = convergence_shortfall(res, recipe.stop, batch=recipe.batch_size)
    if short is None or not SKIP_UNCONVERGED:
        return [with_shortfall(e, short) for e in rows]
    return skip_unconverged(rows, short)


def preset_converged_or_skipped(rows: list[Evidence], res: Any) -> list[Evidence]:
    """A preset seed's rows: as they are where its run converged (its invariant settled at its
    planned steps or on the way to its step bound: ``extra["stop"]``); else every row ``skipped``
    with the numbers (:func:`skip_unconverged`), never a ``fail``."""
    recipe = res.config
    if not isinstance(recipe, Recipe) or recipe.stop is None:
        return rows
    short = convergence_shortfall(res, recipe.stop, batch=recipe.batch_size)
    return rows if short is None else skip_unconverged(rows, short)


def with_shortfall(ev: Evidence, short: dict[str, Any] | None) -> Evidence:
    """``ev`` with the run's convergence recorded: ``details["convergence"]`` is ``"converged"``
    or the numbers of :func:`convergence_shortfall`."""
    return dataclasses.replace(
        ev, details={**ev.details, "convergence": "converged" if short is None else short}
    )


def skip_unconverged(rows: list[Evidence], short: dict[str, Any]) -> list[Evidence]:
    """A seed whose run did not converge within the step bound (:func:`convergence_shortfall`):
    every row measured on its end point (TRAIN rows, the pair and pattern rows, the plateau) is
    ``skipped`` with the numbers (:func:`numerics.testing.not_converged`) -- the route cannot
    resolve the setting within the budget; it is neither a pass nor a fail.  Rows already
    ``skipped`` (a named trap, not separable) keep their reason."""
    need = short["steps_needed"]
    needs = (
        f"needs about {need:.3g} steps, {short['seconds_needed']:.3g} s"
        if math.isfinite(need)
        else "needs more steps (the drift did not decrease over the last window)"
    )
    numbers = {k: short[k] for k in ("criterion", "steps", "steps_needed", "seconds_needed")}
    key = short.get("statistic", "inv")
    stat = (
        "invariant drift over the last window"
        if key == "inv"
        else f"drift of the pattern statistic {key!r} over the last window"
    )
    return [
        not_converged(e, statistic=stat, value=short["drift"], needs=needs, **numbers) for e in rows
    ]
