"""Declarations of trained claims checked over settings.

* :class:`TrainedProperty` -- a trained check run at settings drawn from a theorem's hypotheses
  (the runner is :mod:`sims.properties`).
* :func:`validates_setting` -- attaches a setting validator to a check, so the CLI rejects a bad
  ``--set`` value before any training.

Both are re-exported by :mod:`theory.common.protocols`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["TrainedProperty", "validates_setting"]

Fn = Callable[..., Any]


@dataclass(frozen=True, slots=True)
class TrainedProperty:
    """A trained claim checked at settings drawn from the theorem's own hypotheses.

    ``check`` is a trained check (the function, or its dotted path; stored as the path): a
    settings-first check takes the paper's Setting, and each drawn ``{field: value}`` dict
    replaces those fields of the check's declared setting; an older check takes them as keyword
    parameters.  ``strategy`` is a zero-argument function (or its path) returning a Hypothesis
    strategy of such dicts drawn from the theorem's hypotheses; ``pinned`` settings (the paper's
    presets, the check's own defaults) are always tried first, and ``explicit`` settings next, in
    every tier (the report leaves the pinned presets out, whose rows its own checks show, but runs
    the explicit ones).  The runner
    (:mod:`sims.properties`) calls the check at each drawn setting and asserts the TRAIN contract
    (within tolerance of the prediction, outside each named alternative, started >= 3 units
    away); a draw whose rows are ``skipped`` (alternatives not separable within the budget) is
    discarded and counted.  ``examples`` per tier: the default pytest, the thorough tier and the
    quick report.

    >>> prop = TrainedProperty(result="czz24:s1", name="any-setting",
    ...                        check="sims.czz24.sec4_2_pregd:check_s1_train",
    ...                        strategy="theory.strategies.czz24:czz24_s1_settings")
    >>> prop.id, prop.examples
    ('czz24:s1/any-setting', 5)
    """

    result: str  # the result id the property belongs to
    name: str  # short name, unique within the result ("any-setting", "relu")
    check: Any  # the trained check (function, or "package.module:function")
    strategy: Any  # zero-argument function (or its path) -> hypothesis strategy of setting dicts
    pinned: tuple[dict[str, Any], ...] = ()  # the paper's presets, tried as explicit examples
    explicit: tuple[dict[str, Any], ...] = ()  # settings tried in every tier, the report's too
    examples: int = 5  # default pytest tier (derandomised)
    thorough_examples: int = 50  # HYPOTHESIS_PROFILE=thorough
    report_examples: int = 3  # icl-verify report --quick

    def __post_init__(self) -> None:
        for attr in ("check", "strategy"):
            v = getattr(self, attr)
            if not isinstance(v, str):
                object.__setattr__(self, attr, f"{v.__module__}:{v.__qualname__}")
        for path in (self.check, self.strategy):
            if ":" not in path:
                raise ValueError(
                    f"TrainedProperty {self.result}/{self.name}: {path!r} is not 'module:function'"
                )
        if min(self.examples, self.report_examples) < 1 or self.thorough_examples < 1:
            raise ValueError(f"TrainedProperty {self.result}/{self.name}: example counts >= 1")

    @property
    def id(self) -> str:
        return f"{self.result}/{self.name}"


def validates_setting(validator: Callable[..., Any]) -> Callable[[Fn], Fn]:
    """Attach ``validator`` to a check as ``check.validate_setting``: called with the check's
    setting (defaults updated by ``--set`` values; it receives only the parameters it names) before
    any check runs, it raises ``ValueError`` naming the assumption a value breaks (e.g.
    Assumption 3's σ²‖Γ‖√d < 2), so ``icl-verify check ID --set ...`` exits 2 before any training.
    The check calls the same validator itself at its start.

    >>> def needs_positive(n):
    ...     if n < 1:
    ...         raise ValueError(f"n must be >= 1, got {n}")
    >>> @validates_setting(needs_positive)
    ... def check_demo(*, n=4, quick=True, seed=0):
    ...     return []
    >>> check_demo.validate_setting(0)
    Traceback (most recent call last):
    ...
    ValueError: n must be >= 1, got 0
    """

    def attach(fn: Fn) -> Fn:
        fn.validate_setting = validator  # type: ignore[attr-defined]
        return fn

    return attach
