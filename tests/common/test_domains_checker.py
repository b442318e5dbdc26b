"""Validation at the definition (:class:`theory.settings.domains.Checker`): one check, at the
outermost validated call, with the same message whatever the import path."""

from __future__ import annotations

import pytest

from theory.settings.domains import Checker, Domain, record_arguments

POS = Domain("real", 1.0, lower=0.0, lower_open=True)
checked = Checker(
    {"x": POS, "y": POS}, paper="demo", overrides={"half": {"x": Domain("real", 1.0)}}
)


@checked
def inner(y: float) -> float:
    return 2.0 * y


@checked
def outer(x: float) -> float:
    return inner(x - 3.0)  # y = x - 3 may be <= 0: the inner call does not check again


@checked
def half(x: float) -> float:
    return x / 2.0


def test_outermost_call_checks_and_nested_calls_do_not() -> None:
    assert outer(1.0) == -4.0  # inner(-2.0) inside: not re-checked (old internal path: raw)
    with pytest.raises(ValueError, match=r"x must be a finite real number > 0 \(demo\), got -1"):
        outer(-1.0)
    with pytest.raises(ValueError, match=r"y must be a finite real number > 0 \(demo\), got -2"):
        inner(-2.0)  # called directly it checks (negative control of the nesting rule)
    assert inner(2.5) == 5.0  # the depth counter was restored after the errors above


def test_overrides_by_name_and_raw() -> None:
    assert half(-4.0) == -2.0  # the override widens x for this function only
    assert outer.raw(5.0) == 4.0 and outer.__domains__["x"].lower == 0.0


def test_recorder_sees_outermost_arguments_only() -> None:
    with record_arguments() as rec:
        outer(1.0)
    assert set(rec) == {(f"{__name__}:outer", "x")} and rec[(f"{__name__}:outer", "x")] == {
        "degenerate"
    }
