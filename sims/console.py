"""What ``icl-verify check`` and ``icl-verify report`` print: compact tables and a one-line
summary.

``check`` (:func:`print_outcome`):
A row reads ``status  kind  row  error`` (the error in tolerance units: ≤ 1 passes); the setting a
table ran at heads it; rows of checks fixed at the paper's setting get a table of their own under
a heading that says so.  The summary line counts rows by status and gives the first reason of
each non-pass status ("1 skipped: not separable at this setting, ...").  Details (predicted,
observed, tolerance, se, the details dict) only with ``--verbose``; all of it stays in ``--json``.
Tables are drawn by ``rich`` (no colour when the output is not a terminal).

``report`` (:func:`print_report`): a header (tier, seed), then per paper the setting its results
run at and one line per result (status, kind, result, rows, worst error in tolerance units); every
row that does not pass is listed under it (the same row table as ``check``); the summary line
counts each row once.  ``--verbose`` adds each result's row tables as ``check`` prints them.  All
of it stays in ``results.json``.

``sweep`` (:func:`print_sweep`): the same row table with the grid keys and the seed as columns
(one line per row, grid point and seed), the errors of cells that raised, and the summary line;
every number stays in ``sweep.json`` / ``sweep.csv``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from theory.common.protocols import REPORTED, Evidence, jsonable

__all__ = [
    "row_status",
    "summary_line",
    "print_rows",
    "print_outcome",
    "print_report",
    "print_sweep",
    "evidence_from_json",
    "setting_text",
    "console",
]

#: The order statuses are counted in (worst first after ``fail``); INFO rows are counted apart,
#: as ``reported`` values (they judge nothing: never a pass).
ORDER = ("fail", "discrepancy", "unconfirmed", "untested", "skipped", "pass", REPORTED)
_STYLE = {
    "fail": "bold red",
    "discrepancy": "magenta",
    "unconfirmed": "magenta",
    "untested": "yellow",
    "skipped": "yellow",
    "pass": "green",
    REPORTED: "dim",
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
    """The row's status (``reported`` for an INFO row without a verdict)."""
    return e.status


def _reason(e: Evidence) -> str:
    d = e.details or {}
    if d.get("why"):  # a verdict's own reason (a power skip names the sample it needs)
        return str(d["why"])
    if d.get("power_ok") is False and isinstance(d.get("se_over_scale"), (int, float)):
        return f"too little power: se/scale {100 * d['se_over_scale']:.1f} % > 2 %"
    for k in ("reason", "message", "scale", "note"):
        if d.get(k):
            return str(d[k])
    if d.get("reached") or d.get("needed"):
        return f"reached {d.get('reached')}; needs {d.get('needed')}"
    return ""


def summary_line(
    rows: Sequence[Evidence], errors: Sequence[str] = (), *, reasons: bool = True, width: int = 90
) -> str:
    """``"17 pass, 1 skipped (<first reason>)"`` (statuses in :data:`ORDER`; errors last); a
    reason longer than ``width`` characters is cut with an ellipsis (the row tables and
    ``--json`` keep it whole); ``reasons=False`` gives the counts only."""
    counts = Counter(row_status(e) for e in rows)
    parts = []
    for s in ORDER:
        if not counts[s]:
            continue
        text = f"{counts[s]} {s}" if s != REPORTED else f"{counts[s]} reported (no verdict)"
        if reasons and s not in ("pass", REPORTED):
            why = next((_reason(e) for e in rows if row_status(e) == s and _reason(e)), "")
            if why:
                text += f" ({why if len(why) <= width else why[: width - 1] + '…'})"
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


def _table(label: str, *, extra: Sequence[str] = ()) -> Any:
    """The one table layout: ``status  kind  <label>  [extra...]  error``."""
    from rich.table import Table

    table = Table(box=None, pad_edge=False, show_edge=False)
    table.add_column("status", no_wrap=True)
    table.add_column("kind", no_wrap=True)
    table.add_column(label, overflow="fold")
    for col in extra:
        table.add_column(col, justify="right", no_wrap=True)
    table.add_column("error", justify="right", no_wrap=True)
    return table


def _status_cell(status: str) -> Any:
    from rich.text import Text

    return Text(status, style=_STYLE.get(status, ""))


def print_rows(
    out: Any,
    rows: Sequence[Evidence],
    *,
    title: str | None = None,
    verbose: bool = False,
    names: Sequence[str] | None = None,
) -> None:
    """One table of rows (status, kind, row, error in tolerance units), with details if
    ``verbose``; ``names`` replaces the rows' names in the table (e.g. prefixed by their
    result)."""
    from rich.text import Text

    if title:
        out.print(title, overflow="fold")
    table = _table("row")
    if verbose:
        for col in ("predicted", "observed", "tol", "se"):
            table.add_column(col, justify="right", overflow="fold")
    shown = list(names) if names is not None else [e.name for e in rows]
    for e, name in zip(rows, shown, strict=True):
        cells: list[Any] = [_status_cell(row_status(e)), Text(e.kind), Text(name), _err(e)]
        if verbose:
            se = "" if e.se is None else f"{e.se:.3g}"
            cells += [_short(e.predicted), _short(e.observed), f"{e.tolerance:.3g}", se]
        table.add_row(*cells)
    out.print(table)
    if verbose:
        for e, name in zip(rows, shown, strict=True):
            if e.details:
                out.print(f"  {name}: {jsonable(e.details)}", overflow="fold")


def _print_tables(out: Any, outcome: Any, *, verbose: bool) -> None:
    """One result's rows: a table per setting, the rows fixed at the paper's setting apart."""
    moved = [e for e in outcome.evidence if not e.fixed]
    fixed = [e for e in outcome.evidence if e.fixed]
    groups: dict[str, list[Evidence]] = {}
    for e in moved:
        groups.setdefault(setting_text(e.setting) if e.setting is not None else "", []).append(e)
    for text, rows in groups.items():
        print_rows(out, rows, title=f"setting: {text}" if text else None, verbose=verbose)
    for why in dict.fromkeys(e.fixed for e in fixed):
        rows = [e for e in fixed if e.fixed == why]
        title = f"runs at the paper's setting ({why}): {setting_text(rows[0].setting)}"
        print_rows(out, rows, title=title, verbose=verbose)
    for err in outcome.errors:
        out.print("error " + err.splitlines()[0], overflow="fold")
        if verbose:
            out.print(err, overflow="fold")


def print_outcome(out: Any, outcome: Any, *, verbose: bool = False, controls: bool = False) -> None:
    """What ``check`` prints for one result's run: its tables and the one-line summary."""
    r = outcome.result
    out.print(f"{r.id}: {r.summary} ({r.source})", overflow="fold")
    _print_tables(out, outcome, verbose=verbose)
    if controls:
        from sims.render import controls_line

        print_rows(out, [run.evidence() for run in outcome.controls], title="negative controls")
        out.print(controls_line(outcome))
    out.print(f"{outcome.status.upper()}: " + summary_line(outcome.evidence, outcome.errors))


def evidence_from_json(j: dict[str, Any]) -> Evidence:
    """An :class:`Evidence` back from its ``to_json`` form (a sweep cell's row); a training
    preset's ``final_loss`` row (no tolerance, no error) comes back as an INFO row."""
    from theory.common.protocols import VERDICTS

    err = j.get("error_in_tolerance_units")
    tol = j.get("tolerance")
    return Evidence(
        name=str(j["name"]),
        kind=str(j["kind"]),
        predicted=j.get("predicted"),
        observed=j.get("observed"),
        tolerance=float(tol) if isinstance(tol, (int, float)) else 0.0,
        error=float(err) if isinstance(err, (int, float, str)) else 0.0,
        passed=bool(j.get("pass", j.get("status") in ("pass", "info", REPORTED))),
        se=j.get("se"),
        scale=j.get("scale"),
        details=j.get("details") or {},
        verdict=j["status"] if j.get("status") in VERDICTS else "",
        setting=j.get("setting"),
        fixed=str(j.get("fixed") or ""),
    )


def print_sweep(
    out: Any,
    cells: Sequence[tuple[dict[str, Any], int, Evidence]],
    keys: Sequence[str],
    errors: Sequence[str] = (),
) -> None:
    """What ``sweep`` prints: one row table (status, kind, row, the grid keys, seed, error in
    tolerance units) over every grid point and seed; then, apart and once per seed, the rows of
    the checks fixed at their own setting (an empty grid point), titled as ``check`` titles them;
    then each error's first line."""
    from rich.text import Text

    table = _table("row", extra=(*keys, "seed"))
    own: dict[str, list[tuple[int, Evidence]]] = {}
    for point, seed, e in cells:
        if not point:
            title = f"runs at the paper's setting ({e.fixed or 'its own values'})"
            if e.setting is not None:
                title += f": {setting_text(e.setting)}"
            own.setdefault(title, []).append((seed, e))
            continue
        values = [_short(point[k]) if not isinstance(point[k], str) else point[k] for k in keys]
        table.add_row(
            _status_cell(row_status(e)), Text(e.kind), Text(e.name), *values, str(seed), _err(e)
        )
    out.print(table)
    for title, rows in own.items():
        out.print(title, overflow="fold")
        fixed = _table("row", extra=("seed",))
        for seed, e in rows:
            fixed.add_row(
                _status_cell(row_status(e)), Text(e.kind), Text(e.name), str(seed), _err(e)
            )
        out.print(fixed)
    for err in errors:
        out.print("error " + err.splitlines()[0], overflow="fold")


def _worst(rows: Sequence[Evidence]) -> str:
    """The largest error in tolerance units over the rows that compare (INFO rows do not)."""
    errs = [e.error for e in rows if not e.informational and isinstance(e.error, (int, float))]
    errs = [x for x in errs if x == x]
    if not errs:
        return ""
    worst = max(errs)
    return "inf" if math.isinf(worst) else f"{worst:.2g}"


def _paper_setting(outcomes: Sequence[Any]) -> str:
    """The paper's Setting its settings-first results start from, as ``key=value`` text."""
    from theory.common.setting import setting_json

    for o in outcomes:
        if o.result.setting is not None:
            return "the paper's setting: " + setting_text(setting_json(o.result.setting))
    return "each check at its own values (this paper takes no --set)"


def print_report(
    out: Any,
    outcomes: Sequence[Any],
    *,
    mode: str,
    seed: int,
    verbose: bool = False,
) -> list[Evidence]:
    """What ``report`` prints: per paper its setting and one line per result, then every row
    that does not pass (with ``verbose``: every result's row tables).  Returns the unique rows
    (each check counted once), which the summary line counts."""
    from rich.text import Text

    from sims.render import unique_rows

    n = len(outcomes)
    out.print(f"icl-verify report: {mode} tier, seed {seed}, {n} result{'s' if n != 1 else ''}")
    by_paper: dict[str, list[Any]] = {}
    for o in outcomes:
        by_paper.setdefault(o.result.paper, []).append(o)
    for paper, group in by_paper.items():
        head = _paper_setting(group)
        own = 0
        if group[0].result.setting is not None:
            from theory.common.setting import setting_json

            base = setting_json(group[0].result.setting)
            own = sum(
                e.setting is not None and e.setting != base for o in group for e in o.evidence
            )
        extra = f" ({own} rows run at a preset of their own: --verbose lists them)" if own else ""
        out.print("")
        out.print(f"{paper} — {head}{extra}", overflow="fold")
        table = _table("result", extra=("rows",))
        for o in group:
            table.add_row(
                _status_cell(o.status),
                Text(o.result.kind),
                Text(f"{o.result.id}: {o.result.summary}"),
                str(len(o.evidence)),
                _worst(o.evidence),
            )
        out.print(table)
    rows = [e for evs in unique_rows(outcomes).values() for e in evs]
    seen: set[str] = set()
    bad: list[tuple[str, Evidence]] = []
    for o in outcomes:  # each check's rows once, under the first result that lists it
        i = 0
        groups = []
        for path, n in o.check_rows:
            groups.append((path, o.evidence[i : i + n]))
            i += n
        if not o.check_rows:
            groups.append((f"{o.result.id}#rows", o.evidence))
        for path, evs in groups:
            if path in seen:
                continue
            seen.add(path)
            bad += [(o.result.id, e) for e in evs if row_status(e) not in ("pass", REPORTED)]
    if bad:
        out.print("")
        print_rows(
            out,
            [e for _, e in bad],
            title="rows that do not pass",
            names=[f"{rid}: {e.name}" for rid, e in bad],
        )
        for rid, e in bad:
            why = _reason(e)
            if why:
                out.print(f"  {rid}: {e.name}: {why}", overflow="fold")
    for o in outcomes:
        for err in o.errors:
            out.print(f"error in {o.result.id}: " + err.splitlines()[0], overflow="fold")
    if verbose:
        for o in outcomes:
            out.print("")
            r = o.result
            out.print(f"{r.id}: {r.summary} ({r.source})", overflow="fold")
            _print_tables(out, o, verbose=True)
    return rows
