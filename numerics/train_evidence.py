"""TRAIN evidence: a trained model against a prediction and its named neighbours, folded over
seeds, and the contract every TRAIN record of ``results.json`` keeps.

Re-exported by :mod:`numerics.testing`, the one place users import agreement helpers from; kept in
its own module so that ``numerics/testing.py`` stays one screenful per kind.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from numerics.verdicts import skipped
from theory.common.protocols import Evidence

__all__ = [
    "TRAIN_RTOL",
    "TRAIN_TOLERANCE",
    "TRAIN_START_UNITS",
    "TRAIN_SEPARATION_UNITS",
    "SEPARATION_ROUNDOFF",
    "TRAIN_CONTRACT",
    "train_agreement",
    "train_discrimination",
    "trap_of",
    "nearest_alternative",
    "swap_alternative",
    "over_seeds",
    "tier_seeds",
    "train_contract_violations",
    "not_converged",
]

#: Trained model vs prediction, relative distance in invariant coordinates.
TRAIN_RTOL = 0.05
#: dtype-keyed relative tolerance for trained-vs-predicted (NT's _DEFAULT_TOLERANCE idea).
TRAIN_TOLERANCE = {"float64": TRAIN_RTOL, "float32": TRAIN_RTOL}


def _as_array(x: Any) -> np.ndarray:
    return np.asarray(x, dtype=float)


def _train_ev(
    name: str, predicted: Any, observed: Any, tol: float, err: float, ok: bool, **kw: Any
) -> Evidence:
    return Evidence(
        name=name,
        kind="TRAIN",
        predicted=predicted,
        observed=observed,
        tolerance=float(tol),
        error=float(err) if math.isfinite(err) else float("inf"),
        passed=bool(ok),
        **kw,
    )


# ------------------------------------------------------------------------------------ TRAIN
def train_agreement(
    name: str,
    observed: Any,
    predicted: Any,
    initial: Any,
    *,
    alternatives: Mapping[str, Any],
    rtol: float = TRAIN_RTOL,
    **kw: Any,
) -> Evidence:
    """TRAIN, the short name: :func:`train_discrimination` (named ``alternatives`` are required --
    a trained row that names no neighbour cannot tell the theorem from them).

    Examples
    --------
    A trained estimate 0.02 from the prediction ``(1, 0)`` at ``rtol`` 0.05 is 0.4 tolerance
    units from it, 3.6 units from the alternative ``(1.2, 0)`` and started 20 units away:

    >>> ev = train_agreement(
    ...     "Γ*", [1.02, 0.0], [1.0, 0.0], [0.0, 0.0], alternatives={"no 1/N term": [1.2, 0.0]}
    ... )
    >>> ev.passed, round(ev.error, 6), round(ev.details["start_units"], 6)
    (True, 0.4, 20.0)
    """
    return train_discrimination(
        name, observed, predicted, initial, alternatives=alternatives, rtol=rtol, **kw
    )


#: Start distance of a discriminating TRAIN check, in tolerance units (the developers' guide:
#: a training check starts at least 3x its tolerance away from the target).
TRAIN_START_UNITS = 3.0
#: An alternative must sit at least this many tolerances from the prediction to be told apart.
TRAIN_SEPARATION_UNITS = 2.0
#: Relative round-off allowed in that comparison: a row tightened to exactly half an
#: alternative's distance (every planner's ``distance / 2``) computes its separation as
#: 1.9999999999999998 units.  Float rounding only (1e-9 of a unit), not a wider band.
SEPARATION_ROUNDOFF = 1e-9


def train_discrimination(
    name: str,
    observed: Any,
    predicted: Any,
    initial: Any,
    *,
    alternatives: Mapping[str, Any],
    rtol: float = TRAIN_RTOL,
    start_units: float = TRAIN_START_UNITS,
    norm: Any | None = None,
    seeds: Sequence[int] = (),
    seeds_passed: Sequence[int] = (),
    details: dict | None = None,
) -> Evidence:
    r"""TRAIN that tells the theorem from its neighbours.

    Passes iff (i) the trained estimate is within ``rtol`` of the prediction, (ii) it is *outside*
    ``rtol`` of every named alternative (the formula without its finite-N term, off by one in N,
    the rival optimum, Λ⁻¹, ...), and (iii) the start was at least ``start_units`` tolerances away.
    All distances are relative to ``norm`` (default ``‖predicted‖``), so "units" are comparable:

    .. math::

        u(x) = \frac{\lVert \hat\theta - x\rVert}{\mathrm{rtol}\,\lVert\theta^*\rVert}.

    ``details`` records ``start_units``, ``alternatives`` (``[{"name", "units"}]``, each > 1 for a
    pass, plus each alternative's own distance to the prediction as ``separation_units``: an
    alternative closer than 2 units to the prediction cannot be told apart and fails the check),
    ``seeds`` and ``seeds_passed``.

    Examples
    --------
    A start 0.1 from the prediction (2 units, fewer than ``start_units`` = 3) cannot show that
    training moved the model there, however close it ends:

    >>> ev = train_discrimination(
    ...     "Γ*", [1.02, 0.0], [1.0, 0.0], [0.9, 0.0], alternatives={"no 1/N term": [1.2, 0.0]}
    ... )
    >>> ev.passed, round(ev.details["start_units"], 6)
    (False, 2.0)
    """
    o, p, i = _as_array(observed), _as_array(predicted), _as_array(initial)
    scale = float(np.linalg.norm(p)) if norm is None else float(norm)
    scale = scale if scale > 0 else 1.0

    def units(x: np.ndarray) -> float:
        return float(np.linalg.norm(o - x)) / (rtol * scale)

    alt_rows = []
    for alt_name, value in alternatives.items():
        a = _as_array(value)
        sep = float(np.linalg.norm(a - p)) / (rtol * scale)
        alt_rows.append({"name": alt_name, "units": units(a), "separation_units": sep})
    err, start = units(p), float(np.linalg.norm(i - p)) / (rtol * scale)
    separated = all(
        r["units"] > 1.0
        and r["separation_units"] >= TRAIN_SEPARATION_UNITS * (1.0 - SEPARATION_ROUNDOFF)
        for r in alt_rows
    )
    ok = (
        err <= 1.0
        and start >= start_units
        and separated
        and bool(alternatives)
        and bool(np.all(np.isfinite(o)))
    )
    return _train_ev(
        name,
        p,
        o,
        rtol,
        err,
        ok,
        details={
            "relative_distance": err * rtol,
            "start_units": start,
            "alternatives": alt_rows,
            "seeds": list(seeds),
            "seeds_passed": list(seeds_passed),
            **(details or {}),
        },
    )


def swap_alternative(
    predicted: Any,
    alternatives: Mapping[str, Any],
    fault_alternative: str | None,
    *,
    prediction_name: str = "stated prediction",
    strict: bool = True,
) -> tuple[Any, dict[str, Any]]:
    """``(prediction, alternatives)`` of a discriminating TRAIN row; with ``fault_alternative`` (the
    negative control of every trained check) the named alternative becomes the prediction and the
    stated prediction becomes an alternative named ``prediction_name``, so the row must fail.

    A name the row does not carry raises ``ValueError`` (``strict``), or, for a check whose rows
    name different alternatives (``strict=False``), leaves this row unfaulted.

    >>> swap_alternative(1.0, {"a": 2.0, "b": 3.0}, "a")
    (2.0, {'b': 3.0, 'stated prediction': 1.0})
    """
    alts = dict(alternatives)
    if fault_alternative is None or (not strict and fault_alternative not in alts):
        return predicted, alts
    if fault_alternative not in alts:
        raise ValueError(
            f"fault_alternative={fault_alternative!r} is not a named alternative of this check "
            f"(names: {sorted(alts)})"
        )
    faulted = alts.pop(fault_alternative)
    return faulted, {**alts, prediction_name: predicted}


def nearest_alternative(ev: Evidence) -> dict[str, Any] | None:
    """The named alternative (``{"name", "units", ...}``) a TRAIN row's estimate is closest to.

    >>> ev = train_agreement(
    ...     "Γ*", [1.19, 0.0], [1.0, 0.0], [0.0, 0.0], alternatives={"no 1/N term": [1.2, 0.0]}
    ... )
    >>> near = nearest_alternative(ev)
    >>> near["name"], round(near["units"], 6)
    ('no 1/N term', 0.2)
    """
    alts = ev.details.get("alternatives") or []
    return min(alts, key=lambda a: a["units"]) if alts else None


def trap_of(ev: Evidence) -> str | None:
    """The named alternative a TRAIN row ended in (within 1 tolerance unit of it), if any.

    An estimate 0.01 from the alternative ``(1.2, 0)`` (0.2 units at ``rtol`` 0.05) is trapped
    there; one 0.02 from the prediction is not:

    >>> def row(observed):
    ...     alts = {"no 1/N term": [1.2, 0.0]}
    ...     return train_agreement("Γ*", observed, [1.0, 0.0], [0.0, 0.0], alternatives=alts)
    >>> trap_of(row([1.19, 0.0])), trap_of(row([1.02, 0.0]))
    ('no 1/N term', None)
    """
    near = nearest_alternative(ev)
    return near["name"] if near is not None and near["units"] <= 1.0 else None


def not_converged(
    ev: Evidence,
    *,
    statistic: str,
    value: float,
    criterion: float,
    steps: int,
    needs: str,
    **numbers: Any,
) -> Evidence:
    """``ev`` ``skipped`` because the run it measures did not meet its stop criterion within the
    step budget: such a run can neither confirm nor refute the prediction.  The reason reads "not
    converged within the budget: <statistic> <value> vs criterion <criterion> after <steps> steps;
    <needs>" (``needs``: what would converge it -- steps, batch, seconds); the numbers are kept
    as fields (``not_converged=1``, ``drift``, ``criterion``, ``steps`` and ``numbers``).  A row
    already ``skipped`` (a named trap, not separable) keeps its own reason.

    Examples
    --------
    >>> ev = train_agreement(
    ...     "Γ*", [1.02, 0.0], [1.0, 0.0], [0.0, 0.0], alternatives={"no 1/N term": [1.2, 0.0]}
    ... )
    >>> row = not_converged(
    ...     ev, statistic="drift", value=0.012, criterion=0.001, steps=4000, needs="more steps"
    ... )
    >>> row.status, row.details["steps"]
    ('skipped', 4000)
    >>> print(row.details["why"])
    not converged within the budget: drift 0.012 vs criterion 0.001 after 4000 steps; more steps
    """
    if ev.status == "skipped":
        return ev
    why = (
        f"not converged within the budget: {statistic} {value:.3g} vs criterion "
        f"{criterion:.3g} after {steps} steps; {needs}"
    )
    return skipped(
        ev, why=why, not_converged=1, drift=value, criterion=criterion, steps=steps, **numbers
    )


def tier_seeds(seed: int, *, quick: bool, n_full: int = 3) -> tuple[int, ...]:
    """The seeds a trained check runs on: ``(seed,)`` in the quick tier, ``n_full`` consecutive
    seeds from ``seed`` in the full tier (``--full`` and the thorough tests).

    >>> tier_seeds(0, quick=True), tier_seeds(5, quick=False)
    ((0,), (5, 6, 7))
    """
    if isinstance(n_full, bool) or not isinstance(n_full, int) or n_full < 1:
        raise ValueError(f"n_full (seeds in the full tier) must be an integer >= 1, got {n_full!r}")
    return (seed,) if quick else tuple(range(seed, seed + n_full))


def over_seeds(rows_of: Callable[[int], list[Evidence]], seeds: Sequence[int]) -> list[Evidence]:
    """One check's rows over ``seeds``, merged row by row (``rows_of(seed)`` returns one seed's
    rows, always in the same order); the one fold of per-seed outcomes for every slice.

    Each merged row is the first seed's failing row, else the worst seed's (largest error), so it
    passes iff the row passed on *every* seed.  ``details`` gains ``seeds``, ``seeds_passed`` and
    ``reported_seed``; a TRAIN row also gets ``per_seed`` (units to the prediction, start units,
    the nearest named alternative and the one the seed ended in, its ``trap``) and ``traps``.

    Examples
    --------
    Seed ``s`` ends ``0.01·(s+1)`` from the prediction: all three pass, and the merged row reports
    the worst, seed 2 at 0.03/0.05 = 0.6 units:

    >>> def rows_of(seed):
    ...     observed = [1.0 + 0.01 * (seed + 1), 0.0]
    ...     alts = {"no 1/N term": [1.2, 0.0]}
    ...     return [train_agreement("Γ*", observed, [1.0, 0.0], [0.0, 0.0], alternatives=alts)]
    >>> (row,) = over_seeds(rows_of, (0, 1, 2))
    >>> row.passed, row.details["seeds_passed"], row.details["reported_seed"], round(row.error, 6)
    (True, [0, 1, 2], 2, 0.6)
    """
    per = [rows_of(s) for s in seeds]
    if not per or len({len(r) for r in per}) != 1:
        raise ValueError(
            f"over_seeds: seeds={list(seeds)!r} must be non-empty and rows_of(seed) "
            "must return the same number of rows for every seed"
        )
    out = []
    for rows in zip(*per, strict=True):
        bad = [e for e in rows if not e.passed]
        pick = bad[0] if bad else max(rows, key=lambda e: e.error)
        pairs = list(zip(seeds, rows, strict=True))
        details = {
            **pick.details,
            "seeds": list(seeds),
            "seeds_passed": [s for s, e in pairs if e.passed],
            "reported_seed": next(s for s, e in pairs if e is pick),
        }
        if pick.kind == "TRAIN":
            details["per_seed"] = [
                {
                    "seed": s,
                    "units": e.error,
                    "start_units": e.details.get("start_units"),
                    "nearest_alternative": (near := nearest_alternative(e)) and near["name"],
                    "trap": trap_of(e),
                }
                for s, e in pairs
            ]
            details["traps"] = {str(r["seed"]): r["trap"] for r in details["per_seed"] if r["trap"]}
        out.append(dataclasses.replace(pick, details=details))
    return out


#: ``details`` every TRAIN record carries in ``results.json`` (the TRAIN contract).
TRAIN_CONTRACT = ("start_units", "alternatives", "seeds", "seeds_passed")


def train_contract_violations(ev: Evidence) -> list[str]:
    """What a TRAIN record lacks of the contract (empty for other kinds and for a sound record):
    the :data:`TRAIN_CONTRACT` details, a non-empty list of ``{"name", "units"}`` alternatives, and,
    for a pass, ``start_units ≥ TRAIN_START_UNITS`` and every alternative ``units > 1``.

    Examples
    --------
    >>> import dataclasses
    >>> ev = train_agreement(
    ...     "Γ*", [1.02, 0.0], [1.0, 0.0], [0.0, 0.0], alternatives={"no 1/N term": [1.2, 0.0]}
    ... )
    >>> train_contract_violations(ev)
    []
    >>> no_seeds = {k: v for k, v in ev.details.items() if k != "seeds"}
    >>> train_contract_violations(dataclasses.replace(ev, details=no_seeds))
    ["details['seeds'] missing"]
    """
    if ev.kind != "TRAIN":
        return []
    d = ev.details
    out = [f"details[{k!r}] missing" for k in TRAIN_CONTRACT if k not in d]
    alts = d.get("alternatives")
    if "alternatives" in d and (
        not isinstance(alts, list)
        or not alts
        or not all(isinstance(a, dict) and {"name", "units"} <= set(a) for a in alts)
    ):
        out.append("details['alternatives'] must be a non-empty list of {'name', 'units'}")
    elif ev.status == "pass" and alts:  # a verdict row (discrepancy, untested, skipped) is no pass
        start = d.get("start_units")
        if start is None or not start >= TRAIN_START_UNITS:
            out.append(f"passed with start_units={start!r} < {TRAIN_START_UNITS}")
        out += [
            f"passed within {a['units']:.3g} units of alternative {a['name']!r}"
            for a in alts
            if not a["units"] > 1.0
        ]
    return out
