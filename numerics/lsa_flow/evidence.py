"""[zfb24] evidence helpers shared by the check modules: spec reference values and solver-unit
tolerances."""

from __future__ import annotations

from numerics.testing import SOLVER_ATOL, SOLVER_RTOL, close_agreement, fixture_atol
from theory.common.protocols import Evidence

__all__ = ["spec_ref", "solver_scale_atol"]


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
