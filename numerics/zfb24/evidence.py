"""[zfb24] evidence helpers shared by the check modules: reference values, solver-unit
tolerances, and the seeds of a trained check (:func:`numerics.testing.tier_seeds`; their rows are
merged by :func:`numerics.testing.over_seeds`, re-exported here)."""

from __future__ import annotations

from numerics.testing import (
    SOLVER_ATOL,
    SOLVER_RTOL,
    close_agreement,
    fixture_atol,
    over_seeds,
    tier_seeds,
)
from theory.common.protocols import Evidence

__all__ = ["spec_ref", "solver_scale_atol", "FULL_SEEDS", "seeds", "over_seeds"]

#: Seeds of a trained claim in the full tier (``quick=False``); the quick tier runs one.
FULL_SEEDS = 3


def spec_ref(name: str, value: float, printed: str, *, where: str) -> Evidence:
    """A value against a reference value of a formula of the paper at a stated point (computed to
    the digits stated here; the paper prints none), to half a unit of its last digit.
    ``where`` is the paper's location of the formula evaluated (the row's ``source``).

    >>> spec_ref("x", 0.5, "0.50", where="Theorem 4").details["source"]
    '[zfb24] Theorem 4, evaluated at the stated point (the paper prints no value)'
    """
    if not where.strip():
        raise ValueError(f"{name}: a reference value names the paper's formula it evaluates")
    return close_agreement(
        name,
        value,
        float(printed),
        kind="FLOAT",
        atol=fixture_atol(printed),
        details={
            "reference": printed,
            "source": f"[zfb24] {where}, evaluated at the stated point (the paper prints no value)",
        },
    )


def solver_scale_atol(scale: float) -> float:
    """An absolute tolerance for a quantity whose natural magnitude is ``scale`` (solver units):
    ``SOLVER_ATOL + SOLVER_RTOL·|scale|`` (the ODE solver's own error model).

    >>> a, r = SOLVER_ATOL, SOLVER_RTOL
    >>> solver_scale_atol(0.0) == a, solver_scale_atol(-2.0) == a + 2 * r
    (True, True)
    """
    return SOLVER_ATOL + SOLVER_RTOL * abs(scale)


def seeds(seed: int, quick: bool) -> tuple[int, ...]:
    """The seeds a trained check runs: :func:`numerics.testing.tier_seeds` with ``FULL_SEEDS``.

    >>> seeds(0, True), seeds(5, False)
    ((0,), (5, 6, 7))
    """
    return tier_seeds(seed, quick=quick, n_full=FULL_SEEDS)
