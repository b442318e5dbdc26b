"""What ``icl-verify check`` prints: a compact table per setting and a one-line summary.

A row reads ``status  kind  row  error`` (the error in tolerance units: ≤ 1 passes); the setting a
table ran at heads it; rows of checks fixed at the paper's setting get a table of their own under
a heading that says so.  The summary line counts rows by status and gives the first reason of
each non-pass status ("1 skipped: not separable at this setting, ...").  Details (predicted,
observed, tolerance, se, the details dict) only with ``--verbose``; all of it stays in ``--json``.
Tables are drawn by ``rich`` (no colour when the output is not a terminal).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from theory.common.protocols import Evidence, jsonable

__all__ = ["row_status", "summary_line", "print_rows", "setting_text", "console"]

#: The order statuses are counted in (worst first after ``fail``); INFO rows count as ``info``.
ORDER = ("fail", "discrepancy", "unconfirmed", "untested", "skipped", "pass", "info")
_STYLE = {
    "fail": "bold red",
    "discrepancy": "magenta",
    "unconfirmed": "magenta",
    "untested": "yellow",
    "skipped": "yellow",
    "pass": "green",
    "info": "dim",
}


def console(*, stderr: bool = False) -> Any:
    """A rich Console that writes plain text when not on a terminal (wide enough for a table)."""
    import os
    import sys

    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    tty = hasattr(stream, "isatty") and stream.isatty()
    width = None if tty else int(os.environ.get("COLUMNS", "120"))
    return Console(stderr=stderr, highlight=False, soft_wrap=False, width=width, markup=False)


def row_status(e: Evidence) -> str:
    """``info`` for an INFO row, else the row's status."""
    return "info" if e.informational and e.status == "pass" else e.status


def _reason(e: Evidence) -> str:
    d = e.details or {}
    if d.get("power_ok") is False and isinstance(d.get("se_over_scale"), (int, float)):
        return f"too little power: se/scale {100 * d['se_over_scale']:.1f} % > 2 %"
    for k in ("why", "reason", "message"):
        if d.get(k):
            return str(d[k])
    if d.get("reached") or d.get("needed"):
        return f"reached {d.get('reached')}; needs {d.get('needed')}"
    return ""


def summary_line(rows: Sequence[Evidence], errors: Sequence[str] = ()) -> str:
    """``"17 pass, 1 skipped: <first reason>"`` (statuses in :data:`ORDER`; errors last)."""
    counts = Counter(row_status(e) for e in rows)
    parts = []
    for s in ORDER:
        if not counts[s]:
            continue
        text = f"{counts[s]} {s}"
        if s not in ("pass", "info"):
            why = next((_reason(e) for e in rows if row_status(e) == s and _reason(e)), "")
            if why:
                text += f" ({why})"
        parts.append(text)
    if errors:
        parts.append(f"{len(errors)} error{'s' if len(errors) > 1 else ''}")
    return ", ".join(parts) or "no rows"


def setting_text(setting: dict[str, Any] | None) -> str:
    """``d=4, N=16, spectrum=0.5,1,1.5,2`` from a row's ``setting``."""
    if not setting:
        return "(the check's own values)"
    return ", ".join(
        f"{k}={','.join(f'{x:g}' if isinstance(x, float) else str(x) for x in v)}"
        if isinstance(v, list)
        else f"{k}={v:g}"
        if isinstance(v, float)
        else f"{k}={v}"
        for k, v in setting.items()
    )


def _err(e: Evidence) -> str:
    if e.informational or not isinstance(e.error, (int, float)):
        return ""
    if math.isinf(e.error):
        return "inf"
    return f"{e.error:.2g}"


def _short(x: Any) -> str:
    if isinstance(x, float):
        return f"{x:.6g}"
    s = repr(jsonable(x))
    return s if len(s) <= 60 else s[:57] + "..."


def print_rows(
    out: Any, rows: Sequence[Evidence], *, title: str | None = None, verbose: bool = False
) -> None:
    """One table of rows (status, kind, row, error in tolerance units), with details if
    ``verbose``."""
    from rich.table import Table
    from rich.text import Text

    if title:
        out.print(title, overflow="fold")
    table = Table(
        box=None,
        pad_edge=False,
        show_edge=False,
    )
    table.add_column("status", no_wrap=True)
    table.add_column("kind", no_wrap=True)
    table.add_column("row", overflow="fold")
    table.add_column("error", justify="right", no_wrap=True)
    if verbose:
        for col in ("predicted", "observed", "tol", "se"):
            table.add_column(col, justify="right", overflow="fold")
    for e in rows:
        s = row_status(e)
        cells: list[Any] = [Text(s, style=_STYLE.get(s, "")), Text(e.kind), Text(e.name), _err(e)]
        if verbose:
            se = "" if e.se is None else f"{e.se:.3g}"
            cells += [_short(e.predicted), _short(e.observed), f"{e.tolerance:.3g}", se]
        table.add_row(*cells)
    out.print(table)
    if verbose:
        for e in rows:
            if e.details:
                out.print(f"  {e.name}: {jsonable(e.details)}", overflow="fold")
