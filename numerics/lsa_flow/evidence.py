"""[zfb24] evidence helpers shared by the check modules: spec reference values, solver-unit
tolerances, and the merge of one trained check's rows over several seeds."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from numerics.testing import SOLVER_ATOL, SOLVER_RTOL, close_agreement, fixture_atol
from theory.common.protocols import Evidence

__all__ = ["spec_ref", "solver_scale_atol", "FULL_SEEDS", "seeds", "over_seeds"]

#: Seeds of a trained claim in the full tier (``quick=False``); the quick tier runs one.
FULL_SEEDS = 3


def spec_ref(name: str, value: float, printed: str) -> Evidence:
    """A value against a reference printed in spec 004, to half a unit of its last printed digit."""
    return close_agreement(
        name,
        value,
        float(printed),
        kind="FLOAT",
        atol=fixture_atol(printed),
        details={"printed": printed},
    )


def solver_scale_atol(scale: float) -> float:
    """An absolute tolerance for a quantity whose natural magnitude is ``scale`` (solver units)."""
    return SOLVER_ATOL + SOLVER_RTOL * abs(scale)


def seeds(seed: int, quick: bool) -> tuple[int, ...]:
    """The seeds a trained check runs: ``(seed,)`` in the quick tier, ``FULL_SEEDS`` consecutive
    seeds from ``seed`` in the full tier.

    >>> seeds(0, True), seeds(5, False)
    ((0,), (5, 6, 7))
    """
    return (seed,) if quick else tuple(range(seed, seed + FULL_SEEDS))


def _trap(ev: Evidence) -> str | None:
    """The named alternative a seed's TRAIN row ended in (within 1 unit of it), if any."""
    near = [a for a in ev.details.get("alternatives", []) if a["units"] <= 1.0]
    return min(near, key=lambda a: a["units"])["name"] if near else None


def over_seeds(rows_of: Callable[[int], list[Evidence]], seeds: Sequence[int]) -> list[Evidence]:
    """One check's rows over ``seeds``, merged row by row (``rows_of(seed)`` returns the rows of one
    seed, always in the same order).

    Each merged row is the first seed's row that failed, else the worst seed's row (largest error),
    so it passes iff the row passed on *every* seed.  Its details add ``seeds`` and
    ``seeds_passed``; a TRAIN row also gets ``per_seed`` (units to the prediction, start units, and
    the named alternative the seed ended in, its ``trap``, if any).
    """
    per = [rows_of(s) for s in seeds]
    if len({len(r) for r in per}) != 1:
        raise ValueError("rows_of(seed) returned different numbers of rows for different seeds")
    out = []
    for rows in zip(*per, strict=True):
        bad = [e for e in rows if not e.passed]
        pick = bad[0] if bad else max(rows, key=lambda e: e.error)
        details = {
            **pick.details,
            "seeds": list(seeds),
            "seeds_passed": [s for s, e in zip(seeds, rows, strict=True) if e.passed],
            "reported_seed": next(sd for sd, e in zip(seeds, rows, strict=True) if e is pick),
        }
        if pick.kind == "TRAIN":
            details["per_seed"] = [
                {
                    "seed": s,
                    "units": e.error,
                    "start_units": e.details.get("start_units"),
                    "trap": _trap(e),
                }
                for s, e in zip(seeds, rows, strict=True)
            ]
        out.append(dataclasses.replace(pick, details=details))
    return out
