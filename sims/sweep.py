"""Sweeps: one result's checks (or one training preset) over a grid of settings and seeds.

``icl-verify sweep ID --grid KEY=V1,V2 [--grid ...] [--seeds 0-4] --out DIR`` runs every check of
result ``ID`` at every point of the Cartesian grid and every seed, on any executor of
:mod:`sims.parallel`, and writes a tidy table -- one row per grid point, seed and evidence row:

    result, check, row, index, kind, <grid keys...>, seed, predicted, observed, tolerance, se,
    status, distances, fixed

to ``DIR/sweep.csv`` and ``DIR/sweep.json`` (``index`` numbers the rows of one check call, so a
row whose label names the setting can still be followed across the grid; ``distances`` gives,
for a row that names alternatives (a trained row), the relative distance of its observed value to
the prediction and to each alternative -- :func:`distances_of` -- so a plot can show both).
``--preset slug:name`` sweeps a training preset instead (grid keys: ``TrainConfig`` fields and
fields of the preset's setting); its rows report the final training loss (kind INFO).

Everything is validated before any work (:mod:`sims.sweep_grid`): an unknown key, a value of the
wrong type, an empty grid or a bad seed range raise :class:`ValueError` (the CLI exits 2).  A
check declared fixed (it runs at its own setting whatever the grid says) runs once per seed; its
rows appear once per seed, after the grid's, with the grid columns empty and ``fixed`` giving its
reason and the setting it ran at (``null`` on the grid's rows).  A check of a result not laid out
by a Setting that takes no grid key also runs once per seed; its rows are repeated in the table.

Each finished cell (one check call at one setting and seed) is written atomically to
``DIR/.cells/<hash>.json`` by the client; ``resume=True`` skips the cells found there.  The
table holds no timings (they go to ``DIR/timings.json``), so the same grid and seeds give a
byte-identical ``sweep.json`` on every executor.
"""

from __future__ import annotations

import csv
import hashlib
import importlib
import io
import json
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sims.cache import atomic_write_bytes, remove_stale_temporaries
from sims.parallel import ExecutorSpec, UnitReturn, executor, run_all, store_entries
from sims.registry import get, trainer_module
from sims.sweep_grid import SweepSpec, parse_grid, parse_seeds, split_preset
from sims.verify import check_parameters, run_check_safely
from theory.common.protocols import REPORTED, STATUSES

__all__ = [
    "SweepSpec",
    "SweepSummary",
    "parse_seeds",
    "parse_grid",
    "plan",
    "run_sweep",
    "COLUMNS_HEAD",
    "COLUMNS_TAIL",
    "read_table",
    "defaults_held",
    "shown",
]

#: Columns before and after the grid keys, in table order.
COLUMNS_HEAD = ("result", "check", "row", "index", "kind")
COLUMNS_TAIL = ("seed", "predicted", "observed", "tolerance", "se", "status", "distances", "fixed")


@dataclass(frozen=True, slots=True)
class SweepSummary:
    out_dir: Path
    n_cells: int  # distinct check calls (or training runs)
    n_rows: int  # table rows
    n_failed: int  # rows with status fail or error
    wall_time: float
    per_point: tuple[dict[str, Any], ...]  # grid point -> counts of rows by status
    plots: tuple[Path, ...] = ()  # the PNG files written (--plot)
    #: every row as (grid point, seed, Evidence), in table order, and each raising cell's error
    evidence: tuple[tuple[dict[str, Any], int, Any], ...] = ()
    errors: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        return self.n_failed == 0


# ----------------------------------------------------------------------------- cells
@dataclass(frozen=True, slots=True)
class Cell:
    """One check call (or one training run): what runs on a worker."""

    check: str  # check path (its declared Check), or "slug:preset"
    overrides: tuple[tuple[str, Any], ...]  # the grid values this check takes, sorted by key
    seed: int
    base: Any = None  # a settings-first result's Setting: the overrides replace its fields

    def key(self, spec: SweepSpec) -> str:
        text = repr(
            (
                spec.target,
                spec.preset,
                spec.quick,
                spec.device,
                str.__str__(self.check),
                self.overrides,
                self.seed,
                *(() if self.base is None else (repr(self.base),)),
            )
        )
        return hashlib.sha256(text.encode()).hexdigest()[:24]


def _check_keys(path: str) -> set[str]:
    return set(check_parameters(path))


def plan(
    spec: SweepSpec,
) -> tuple[list[Cell], list[tuple[tuple[tuple[str, Any], ...], int, list[Cell]]]]:
    """(distinct cells in run order, [(grid point, seed, cells of its rows in order)])."""
    result = None if spec.preset else get(spec.target)
    if result is not None and result.settings_first:
        return _plan_settings(spec, result)
    checks = (spec.target,) if spec.preset else get(spec.target).checks
    takes = {
        c: (set(spec.keys) if spec.preset else _check_keys(c) & set(spec.keys)) for c in checks
    }
    cells: dict[Cell, None] = {}
    layout = []
    for point in spec.points():
        for seed in spec.seeds:
            row_cells = []
            for c in checks:
                extra: tuple[tuple[str, Any], ...] = ()
                if spec.device is not None and (spec.preset or "device" in _check_keys(c)):
                    extra = (("device", spec.device),)
                cell = Cell(
                    c,
                    tuple(sorted(((k, v) for k, v in point if k in takes[c]), key=lambda kv: kv[0]))
                    + extra,
                    seed,
                )
                cells.setdefault(cell)
                row_cells.append(cell)
            layout.append((point, seed, row_cells))
    return list(cells), layout


def _plan_settings(
    spec: SweepSpec, result: Any
) -> tuple[list[Cell], list[tuple[tuple[tuple[str, Any], ...], int, list[Cell]]]]:
    """Cells of a settings-first result: every check but the fixed ones runs at the grid point's
    Setting (the result's Setting with the grid and ``--set`` values); a fixed check runs once
    per seed at its own, laid out after the grid under the empty point ``()``."""
    cells: dict[Cell, None] = {}
    layout = []
    for point in spec.points():
        kw = tuple(sorted((dict(spec.fixed) | dict(point)).items(), key=lambda kv: kv[0]))
        for seed in spec.seeds:
            row_cells = []
            for c in result.checks:
                if c.takes_setting and not c.fixed:
                    cell = Cell(c, kw, seed, result.setting)
                    cells.setdefault(cell)
                    row_cells.append(cell)
            layout.append((point, seed, row_cells))
    fixed = [c for c in result.checks if not (c.takes_setting and not c.fixed)]
    for seed in spec.seeds if fixed else ():
        row_cells = [Cell(c, (), seed) for c in fixed]
        for cell in row_cells:
            cells.setdefault(cell)
        layout.append(((), seed, row_cells))
    return list(cells), layout


def check_cell(
    path: str,
    overrides: tuple[tuple[str, Any], ...],
    seed: int,
    quick: bool,
    base: Any = None,
) -> dict[str, Any]:
    """One check at one setting and seed → ``{"rows": [evidence json...], "error": str | None}``
    (a worker task).  With ``base`` (a settings-first result's Setting) the check runs at
    ``base`` with the ``overrides`` replacing its fields."""
    if base is not None:
        import dataclasses

        setting = dataclasses.replace(base, **dict(overrides))
        evidence, err = run_check_safely(path, quick=quick, seed=seed, setting=setting)
        return {"rows": [e.to_json() for e in evidence], "error": err}
    evidence, err = run_check_safely(path, quick=quick, seed=seed, **dict(overrides))
    return {"rows": [e.to_json() for e in evidence], "error": err}


def preset_cell(
    target: str, overrides: tuple[tuple[str, Any], ...], seed: int, quick: bool
) -> dict[str, Any]:
    """One training run of a preset (through the experiment's cached ``trained``)."""
    del quick  # a preset is its own tier
    slug, name = split_preset(target)
    try:
        mod = importlib.import_module(trainer_module(slug))
        res = mod.trained(name, seed=seed, **dict(overrides))
    except Exception as exc:  # noqa: BLE001 - reported as an error row
        return {"rows": [], "error": f"{target}: {type(exc).__name__}: {exc}"}
    row = {
        "name": "final_loss",
        "kind": "INFO",
        "predicted": None,
        "observed": float(res.final_loss),
        "tolerance": None,
        "se": None,
        "status": REPORTED,
    }
    return {"rows": [row], "error": None}


def _row_status(ev: Mapping[str, Any]) -> str:
    if ev.get("kind") == "INFO" and ev.get("status") in (None, "pass", "info"):
        return REPORTED  # a reported value; an INFO row with a verdict keeps it (e.g. skipped)
    return str(ev.get("status", "pass" if ev.get("pass") else "fail"))


def _number(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def distances_of(ev: Mapping[str, Any]) -> dict[str, Any] | None:
    """For a row naming alternatives (a trained row's ``details["alternatives"]``), the distance
    of its observed value to the prediction and to each alternative, relative to the prediction's
    scale -- the measure the check judged (tolerance units times the tolerance):
    ``{"prediction": d, "alternatives": [{"name", "relative_distance"}]}``; else ``None``.

    >>> distances_of({"tolerance": 0.05, "error_in_tolerance_units": 0.4, "details": {
    ...     "alternatives": [{"name": "Λ⁻¹", "units": 4.0, "separation_units": 4.2}]}})
    {'prediction': 0.02, 'alternatives': [{'name': 'Λ⁻¹', 'relative_distance': 0.2}]}
    """
    alts = (ev.get("details") or {}).get("alternatives")
    tol, err = _number(ev.get("tolerance")), _number(ev.get("error_in_tolerance_units"))
    if not alts or tol is None or err is None:
        return None
    named = []
    for a in alts:
        units = _number(a.get("units")) if isinstance(a, Mapping) else None
        if units is not None:
            rel = round(units * tol, 12)
            named.append({"name": str(a.get("name", "")), "relative_distance": rel})
    if not named:
        return None
    return {"prediction": round(err * tol, 12), "alternatives": named}


def _table(
    spec: SweepSpec,
    layout: Sequence[tuple[tuple[tuple[str, Any], ...], int, list[Cell]]],
    values: Mapping[Cell, Mapping[str, Any]],
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for point, seed, row_cells in layout:
        for cell in row_cells:
            got = values[cell]
            base = {"result": spec.target, "check": cell.check}
            grid = {k: v for k, v in point} if point else dict.fromkeys(spec.keys)
            why = "" if point else getattr(cell.check, "fixed", "") or "its own values"
            for i, ev in enumerate(got["rows"]):
                rows.append(
                    {
                        **base,
                        "row": ev["name"],
                        "index": i,
                        "kind": ev["kind"],
                        **grid,
                        "seed": seed,
                        "predicted": ev["predicted"],
                        "observed": ev["observed"],
                        "tolerance": ev["tolerance"],
                        "se": ev["se"],
                        "status": _row_status(ev),
                        "distances": distances_of(ev),
                        "fixed": _fixed_text(why, ev.get("setting")),
                    }
                )
            if got["error"] is not None:
                rows.append(
                    {
                        **base,
                        "row": got["error"].splitlines()[0],
                        "index": len(got["rows"]),
                        "kind": "ERROR",
                        **grid,
                        "seed": seed,
                        "predicted": None,
                        "observed": None,
                        "tolerance": None,
                        "se": None,
                        "status": "error",
                        "distances": None,
                        "fixed": _fixed_text(why, None),
                    }
                )
    return rows


def _fixed_text(why: str | None, setting: Mapping[str, Any] | None) -> str | None:
    """A fixed row's ``fixed`` column: its reason and the setting it ran at; ``None`` on a row
    that ran at the grid point."""
    if not why:
        return None
    if not setting:
        return str(why)
    from sims.console import setting_text

    return f"{why}: runs at {setting_text(dict(setting))}"


def _summary(spec: SweepSpec, rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Counts of rows by status per grid point, then (when there are any) one entry for the rows
    of the fixed checks (grid keys ``None``, ``"fixed": True``)."""
    counts = {**{s: 0 for s in STATUSES}, REPORTED: 0, "error": 0}
    out: dict[tuple[Any, ...], dict[str, Any]] = {}
    for point in spec.points():
        out[tuple(v for _, v in point)] = {**dict(point), **counts, "fixed": False}
    own = {**dict.fromkeys(spec.keys), **counts, "fixed": True}
    for r in rows:
        entry = own if r.get("fixed") else out[tuple(r[k] for k in spec.keys)]
        entry[r["status"]] += 1
    return [*out.values(), *([own] if any(r.get("fixed") for r in rows) else [])]


def _csv_value(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, (list, dict, tuple)):
        return json.dumps(v)
    return repr(v) if isinstance(v, float) else str(v)


def _csv(columns: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for r in rows:
        w.writerow([_csv_value(r[c]) for c in columns])
    return buf.getvalue().encode()


def _jsonable_grid(spec: SweepSpec) -> dict[str, list[Any]]:
    return {k: [list(v) if isinstance(v, tuple) else v for v in vals] for k, vals in spec.grid}


def read_table(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a ``sweep.json`` (or of the directory holding it)."""
    p = Path(path)
    if p.is_dir():
        p = p / "sweep.json"
    return list(json.loads(p.read_text())["rows"])


def run_sweep(
    spec: SweepSpec,
    out_dir: str | Path,
    *,
    executor_spec: ExecutorSpec | None = None,
    resume: bool = False,
    progress: bool = True,
    plot: Sequence[str] = (),
    loglog: bool = False,
) -> SweepSummary:
    """Run the sweep and write ``sweep.csv``, ``sweep.json``, ``timings.json`` (and one PNG per
    ``plot`` key, :func:`sims.figures.sweep.bound_vs_empirical`) to ``out_dir``."""
    from tqdm.auto import tqdm

    for key in plot:
        if key not in spec.keys:
            raise ValueError(f"--plot {key!r} is not a grid key; grid keys: {list(spec.keys)}")
    t0 = time.perf_counter()
    out = Path(out_dir)
    cell_dir = out / ".cells"
    cell_dir.mkdir(parents=True, exist_ok=True)
    if resume:
        remove_stale_temporaries(out)  # left by a killed run; the files they target are intact
    cells, layout = plan(spec)
    values: dict[Cell, dict[str, Any]] = {}
    if resume:
        for cell in cells:
            f = cell_dir / f"{cell.key(spec)}.json"
            if f.exists():
                values[cell] = json.loads(f.read_text())["value"]
    todo = [c for c in cells if c not in values]
    fn = preset_cell if spec.preset else check_cell
    tasks = [
        (fn, (c.check, c.overrides, c.seed, spec.quick))
        if c.base is None
        else (fn, (c.check, c.overrides, c.seed, spec.quick, c.base))
        for c in todo
    ]
    times: dict[str, float] = {}
    bar = tqdm(
        total=len(cells),
        initial=len(cells) - len(todo),
        unit="cell",
        file=sys.stderr,
        desc=f"icl-verify sweep {spec.target}",
        disable=not progress,
    )

    def on_done(i: int, ret: UnitReturn) -> None:
        cell = todo[i]
        store_entries(ret.entries)  # the client alone writes the cache
        values[cell] = ret.value
        times[cell.key(spec)] = ret.seconds
        body = {
            "check": str.__str__(cell.check),
            "overrides": [[k, _jsonable(v)] for k, v in cell.overrides],
            "seed": cell.seed,
            "value": ret.value,
        }
        atomic_write_bytes(
            cell_dir / f"{cell.key(spec)}.json", (json.dumps(body, sort_keys=True) + "\n").encode()
        )
        bar.update(1)

    with executor(executor_spec or ExecutorSpec()) as runner:
        run_all(runner, tasks, on_done)
    bar.close()
    rows = _table(spec, layout, values)
    columns = [*COLUMNS_HEAD, *spec.keys, *COLUMNS_TAIL]
    summary = _summary(spec, rows)
    doc = {
        "tool": "icl-verify sweep",
        "target": spec.target,
        "kind": "preset" if spec.preset else "result",
        "mode": "quick" if spec.quick else "full",
        "device": spec.device,
        "grid": _jsonable_grid(spec),
        "seeds": list(spec.seeds),
        "columns": columns,
        "summary": summary,
        "rows": rows,
    }
    atomic_write_bytes(out / "sweep.json", (json.dumps(doc, indent=1) + "\n").encode())
    atomic_write_bytes(out / "sweep.csv", _csv(columns, rows))
    wall = time.perf_counter() - t0
    atomic_write_bytes(
        out / "timings.json",
        (
            json.dumps(
                {
                    "wall_time": wall,
                    "executor": (executor_spec or ExecutorSpec()).describe(),
                    "cells_run": len(todo),
                    "cells_resumed": len(cells) - len(todo),
                    "per_cell": times,
                },
                indent=1,
            )
            + "\n"
        ).encode(),
    )
    plots: list[Path] = []
    if plot:
        from sims.figures.sweep import bound_vs_empirical
        from sims.report import save_figure

        fixed = ", ".join(f"{k}={shown(v)}" for k, v in (*spec.fixed, *defaults_held(spec)))
        for key in plot:
            others = ", ".join(f"{k}={list(v)}" for k, v in spec.grid if k != key and len(v) > 1)
            note = "; ".join(s for s in (fixed, f"over {others}" if others else "") if s)
            target = out / f"sweep_{key}.png"
            fig = bound_vs_empirical(rows, x=key, loglog=loglog, setting=note)
            save_figure(fig, target)
            plots.append(target)
    n_failed = sum(r["status"] in ("fail", "error") for r in rows)
    evidence, errors = _evidence(layout, values)
    return SweepSummary(
        out, len(cells), len(rows), n_failed, wall, tuple(summary), tuple(plots), evidence, errors
    )


def defaults_held(spec: SweepSpec) -> tuple[tuple[str, Any], ...]:
    """The keys of a result's Setting neither swept nor given by ``--set``, at their defaults
    (the plot states the whole setting, not only what the command line named); none for a
    preset or a result that is not laid out by a Setting.

    >>> defaults_held(SweepSpec(target="base:ols", grid=(("N", (8, 10)),), fixed=(("d", 3),)))
    (('sigma2', 0.49),)
    """
    if spec.preset:
        return ()
    from sims.registry import get

    result = get(spec.target)
    if not result.settings_first or result.setting is None:
        return ()
    given = {k for k, _ in spec.grid} | {k for k, _ in spec.fixed}
    return tuple((k, getattr(result.setting, k)) for k in result.keys if k not in given)


def _evidence(
    layout: Sequence[tuple[tuple[tuple[str, Any], ...], int, list[Cell]]],
    values: Mapping[Cell, Mapping[str, Any]],
) -> tuple[tuple[tuple[dict[str, Any], int, Any], ...], tuple[str, ...]]:
    """The table's rows as (grid point, seed, Evidence) for :func:`sims.console.print_sweep`, and
    the errors of the cells that raised (each with its grid point and seed)."""
    from sims.console import evidence_from_json

    rows: list[tuple[dict[str, Any], int, Any]] = []
    errors: list[str] = []
    for point, seed, row_cells in layout:
        grid = {k: _jsonable(v) for k, v in point}
        for cell in row_cells:
            got = values[cell]
            rows += [(grid, seed, evidence_from_json(ev)) for ev in got["rows"]]
            if got["error"] is not None:
                where = ", ".join(f"{k}={v}" for k, v in grid.items())
                errors.append(f"{where}{', ' if where else ''}seed {seed}: {got['error']}")
    return tuple(rows), tuple(errors)


def shown(v: Any) -> str:
    """A setting value as a plot states it: ``0.49``, ``0.5,1,1.5,2``, ``None``.

    >>> shown(0.49), shown((0.5, 1.0, 1.5, 2.0)), shown(None)
    ('0.49', '0.5,1,1.5,2', 'None')
    """
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, (tuple, list)):
        return ",".join(shown(x) for x in v)
    return str(v)


def _jsonable(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v
