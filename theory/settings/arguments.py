"""What the validated theory functions receive: the recorder behind the generic-point scan.

:func:`record_arguments` records, while active, the numeric arguments every validated (public)
theory function receives (:func:`theory.settings.domains.validated` calls :func:`record`);
:func:`degenerate` says whether a value sits where a factor can vanish (every entry 0 or 1).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

__all__ = ["RECORDERS", "degenerate", "record", "record_arguments"]

#: Active argument recorders (see :func:`record_arguments`); empty outside a recording.
RECORDERS: list[dict[tuple[str, str], set[str]]] = []


def degenerate(value: Any) -> bool | None:
    """Whether a numeric argument sits where a factor can vanish: every entry 0 or 1 (a scalar
    0 or 1, the identity, a 0/1 vector).  ``None`` for a non-numeric or symbolic argument (a
    symbol stands for every value).

    >>> degenerate(1), degenerate(0.0), degenerate(2.5), degenerate(np.eye(3)), degenerate("x")
    (True, True, False, True, None)
    """
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return None
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return None
    if arr.size == 0 or not np.all(np.isfinite(arr)):
        return None
    return bool(np.all((arr == 0.0) | (arr == 1.0)))


@contextlib.contextmanager
def record_arguments() -> Iterator[dict[tuple[str, str], set[str]]]:
    """Record, while active, the numeric arguments every validated (public) theory function
    receives: ``{(function, parameter): {"degenerate", "generic"}}`` (see :func:`degenerate`).
    A parameter seen only as ``"degenerate"`` was only ever 0 or 1: no check can see its factor.

    Examples
    --------
    >>> from theory.zfb24 import gamma
    >>> with record_arguments() as rec:
    ...     _ = gamma([[2.0]], 1)
    >>> fn = "theory.zfb24.sec3_training:gamma"
    >>> rec[fn, "Lambda"], rec[fn, "N"]          # N = 1 was only seen at a degenerate value
    ({'generic'}, {'degenerate'})
    """
    rec: dict[tuple[str, str], set[str]] = {}
    RECORDERS.append(rec)
    try:
        yield rec
    finally:
        RECORDERS.remove(rec)


def record(fn_name: str, name: str, value: Any) -> None:
    """Tag ``value`` of parameter ``name`` of ``fn_name`` in every active recorder.

    Examples
    --------
    >>> with record_arguments() as rec:
    ...     record("f", "x", 0.3)
    ...     record("f", "x", 1.0)
    >>> sorted(rec["f", "x"])
    ['degenerate', 'generic']
    """
    cls = degenerate(value)
    if cls is None:
        return
    tag = "degenerate" if cls else "generic"
    for rec in RECORDERS:
        rec.setdefault((fn_name, name), set()).add(tag)
