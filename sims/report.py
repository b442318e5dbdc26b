"""The verification report: run every registered result's checks, write Markdown, HTML, PNG, JSON.

Output directory layout::

    report.md, report.html     one row per result, every check's evidence, the figures
    results.json               every check: predicted, observed, tolerance, se, pass (deterministic:
                               the same seed gives the same file; wall times are kept apart)
    timings.json               wall time per result and check
    figures/*.png              the papers' figures and the overall agreement plot
    .partial/<id>.json         per-result outcomes, written atomically; ``--resume`` reuses them

Progress is shown with tqdm on stderr.  The exit status is non-zero if any check fails.

With a parallel ``executor`` (:mod:`sims.parallel`: ``--jobs N``, ``--dask-local N``,
``--scheduler ADDR``) every distinct check and figure of the run is one task; workers return
evidence and PNG bytes, the client writes the cache entries, the partial outcomes (as soon as all
checks of a result are in) and the outputs.  The outcomes are then assembled by the same code as
the serial run, from those results, so ``results.json`` is byte-identical to the serial one.
"""

from __future__ import annotations

import io
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sims.cache import atomic_write_bytes, remove_stale_temporaries
from sims.parallel import ExecutorSpec, UnitReturn, executor, run_all, store_entries
from sims.render import (  # rendering lives in sims.render
    agreement_figure,
    anchor,
    headline_counts,
    html_report,
    markdown_report,
)
from sims.verify import (
    CheckRun,
    ControlRun,
    Outcome,
    control_key,
    declared_checks,
    run_check_safely,
    run_control,
    verify_result,
)
from theory.common import registry
from theory.common.protocols import (
    VERDICTS,
    Evidence,
    Result,
)
from theory.common.registry import resolve

__all__ = [
    "ReportSummary",
    "write_report",
    "save_figure",
    "figure_png",
    "figure_filename",
    "draw_figure",
]


@dataclass(frozen=True, slots=True)
class ReportSummary:
    out_dir: Path
    n_results: int
    n_checks: int  # unique evidence rows (a check shared by several results counted once)
    n_failed_results: int
    n_failed_checks: int  # unique failed rows + check errors
    wall_time: float
    unique_checks: int = 0  # distinct check functions run
    n_discrepancies: int = 0  # results whose claim the toolkit does not reproduce
    n_properties: int = 0  # trained properties run over drawn settings
    n_failed_properties: int = 0  # ... that broke the TRAIN contract at a drawn setting

    @property
    def passed(self) -> bool:
        return self.n_failed_results == 0 and self.n_failed_properties == 0


def figure_filename(path: str) -> str:
    """``"sims.figures.ltb:fig_rates"`` → ``"ltb_fig_rates.png"`` (unique across papers)."""
    mod, _, fn = path.partition(":")
    return f"{anchor(mod.rsplit('.', 1)[-1])}_{anchor(fn)}.png"


def _dump(path: Path, obj: Any) -> None:
    atomic_write_bytes(path, (json.dumps(obj, indent=2, sort_keys=False) + "\n").encode())


def figure_png(fig: Any) -> bytes:
    """A matplotlib Figure as PNG bytes (Agg canvas, no pyplot state)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    return buf.getvalue()


def save_figure(fig: Any, path: Path) -> None:
    """Save a matplotlib Figure as PNG atomically."""
    atomic_write_bytes(path, figure_png(fig))


def check_task(path: str, quick: bool, seed: int) -> CheckRun:
    """:func:`sims.verify.run_check_safely` with positional arguments (a worker task)."""
    return run_check_safely(path, quick=quick, seed=seed)


def control_task(check: Any, fault: str, quick: bool, seed: int) -> ControlRun:
    """:func:`sims.verify.run_control` with positional arguments (a worker task)."""
    return run_control(check, fault, quick=quick, seed=seed)


def property_examples(prop: Any, quick: bool) -> int:
    """Draws a report makes of one property: ``report_examples`` (quick), twice that (full)."""
    return prop.report_examples * (1 if quick else 2)


def property_task(prop_id: str, quick: bool, seed: int) -> dict[str, Any]:
    """Run one trained property (a worker task): its ``trained_properties`` record."""
    from sims.properties import run_property

    prop = next(p for p in registry.all_properties() if p.id == prop_id)
    out = run_property(prop, examples=property_examples(prop, quick), quick=quick, seed=seed)
    return out.to_json()


def draw_figure(path: str, quick: bool, seed: int) -> tuple[bytes | None, str | None]:
    """PNG bytes of the figure function at ``path`` or the error text (a worker task)."""
    try:
        return figure_png(resolve(path)(quick=quick, seed=seed)), None
    except Exception as exc:  # noqa: BLE001 - a broken figure fails the report
        return None, f"figure {path}: {exc!r}"


def _outcome_from_json(result: Result, data: dict[str, Any]) -> Outcome:
    ev = []
    for j in data["evidence"]:
        ev.append(
            Evidence(
                name=j["name"],
                kind=j["kind"],
                predicted=j["predicted"],
                observed=j["observed"],
                tolerance=j["tolerance"],
                error=float(j["error_in_tolerance_units"]),
                passed=j["pass"],
                se=j["se"],
                scale=j["scale"],
                details=j["details"],
                verdict=j["status"] if j.get("status") in VERDICTS else "",
            )
        )
    rows = tuple((str(p), int(n)) for p, n in data.get("check_rows", []))
    runs = tuple(
        ControlRun(
            c["check"],
            c["fault"],
            bool(c["rejected"]),
            tuple(c.get("failed_rows", ())),
            c.get("error"),
        )
        for c in data.get("control_runs", [])
    )
    return Outcome(
        result,
        tuple(ev),
        tuple(data["errors"]),
        data.get("wall_time", 0.0),
        check_rows=rows,
        controls=runs,
        controls_run="control_runs" in data,
    )


def _run_parallel(
    spec: ExecutorSpec,
    todo: Sequence[Result],
    figure_paths: Sequence[str],
    *,
    quick: bool,
    seed: int,
    part_of: Any,
    progress: bool,
    controls: bool = False,
    control_memo: dict[str, ControlRun] | None = None,
    property_ids: Sequence[str] = (),
    property_records: dict[str, dict[str, Any]] | None = None,
) -> tuple[
    dict[str, CheckRun],
    dict[str, float],
    dict[str, tuple[bytes | None, str | None]],
    dict[str, float],
]:
    """Every distinct check of ``todo`` and every figure in ``figure_paths``, on ``spec``'s
    workers.  The partial outcome of a result is written as soon as its last check is in."""
    from tqdm.auto import tqdm

    checks = list(dict.fromkeys(p for r in todo for p in r.checks))
    tasks: list[tuple[Any, tuple[Any, ...]]] = [(check_task, (p, quick, seed)) for p in checks]
    tasks += [(draw_figure, (p, quick, seed)) for p in figure_paths]
    n_before_controls = len(tasks)
    cmemo = control_memo if control_memo is not None else {}
    pending_controls: list[tuple[str, str]] = []
    if controls:
        for c in declared_checks(todo).values():
            for fault in c.faults:
                pending_controls.append((c.path, fault))
                tasks.append((control_task, (c, fault, quick, seed)))
    n_before_properties = len(tasks)
    tasks += [(property_task, (pid, quick, seed)) for pid in property_ids]
    memo: dict[str, CheckRun] = {}
    times: dict[str, float] = {}
    pngs: dict[str, tuple[bytes | None, str | None]] = {}
    fig_times: dict[str, float] = {}
    waiting: dict[str, set[str]] = {
        r.id: {c.path for c in r.checks}
        | ({control_key(c.path, f) for c in r.checks for f in c.faults} if controls else set())
        for r in todo
    }
    bar = tqdm(
        total=len(tasks),
        desc=f"icl-verify report ({spec.describe()})",
        unit="task",
        disable=not progress,
        file=sys.stderr,
    )

    def on_done(i: int, ret: UnitReturn) -> None:
        store_entries(ret.entries)  # the client alone writes the cache
        done: str | None = None
        if i < len(checks):
            done = checks[i]
            memo[done] = ret.value
            times[done] = ret.seconds
        elif i < n_before_controls:
            path = figure_paths[i - len(checks)]
            pngs[path] = ret.value
            fig_times[path] = ret.seconds
        elif i < n_before_properties:
            cpath, fault = pending_controls[i - n_before_controls]
            done = control_key(cpath, fault)
            cmemo[done] = ret.value
        elif property_records is not None:
            pid = property_ids[i - n_before_properties]
            property_records[pid] = ret.value
        if done is not None:
            for r in todo:
                pend = waiting.get(r.id)
                if pend is None:
                    continue
                pend.discard(done)
                if not pend:
                    del waiting[r.id]
                    o = verify_result(
                        r, quick=quick, seed=seed, memo=memo, controls=controls, control_memo=cmemo
                    )
                    wall = sum(times.get(p, 0.0) for p in dict.fromkeys(r.checks))
                    _dump(part_of(r), {**o.to_json(), "wall_time": wall})
        bar.update(1)

    with executor(spec) as runner:
        run_all(runner, tasks, on_done)
    bar.close()
    return memo, times, pngs, fig_times


def write_report(
    out_dir: str | Path,
    *,
    quick: bool = True,
    seed: int = 0,
    ids: Sequence[str] | None = None,
    resume: bool = False,
    figures: bool = True,
    progress: bool = True,
    executor_spec: ExecutorSpec | None = None,
    controls: bool = False,
    properties: bool = True,
) -> ReportSummary:
    """Run the checks of every (or the selected) result and write the report to ``out_dir``.

    ``executor_spec`` (default serial) runs the checks and figures on worker processes or a Dask
    cluster; the files written are the same (``results.json`` byte for byte).  ``controls`` also
    runs every declared negative control (a fault the check accepts is a ``fail``).
    ``properties`` runs each declared trained property (:mod:`sims.properties`) of the selected
    results at its derandomised drawn settings ("Trained claims over settings").
    """
    from tqdm.auto import tqdm

    t0 = time.perf_counter()
    out = Path(out_dir)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    partial = out / ".partial"
    partial.mkdir(exist_ok=True)
    if resume:
        remove_stale_temporaries(out)  # left by a killed run; the files they target are intact
    mode = "quick" if quick else "full"
    results = [r for r in registry.all_results() if ids is None or r.id in ids]
    if ids is not None:
        missing = sorted(set(ids) - {r.id for r in results})
        if missing:
            from theory.common.registry import suggest

            hints = {m: suggest(m) for m in missing}
            raise KeyError(
                "unknown result ids: "
                + "; ".join(
                    f"{m!r}" + (f" (did you mean {hints[m]}?)" if hints[m] else "") for m in missing
                )
            )
    outcomes: list[Outcome] = []
    memo: dict[str, CheckRun] = {}  # each check runs once
    control_memo: dict[str, ControlRun] = {}  # ... and each declared fault
    fig_paths: dict[str, list[str]] = {}  # result id -> its figure files
    drawn: set[str] = set()  # figure files written (or reused) in this run
    figure_times: dict[str, float] = {}
    timings: dict[str, Any] = {}

    def part_of(r: Result) -> Path:
        tag = ".controls" if controls else ""
        return partial / f"{anchor(r.id)}.{mode}.{seed}{tag}.json"

    pngs: dict[str, tuple[bytes | None, str | None]] = {}
    par_times: dict[str, float] = {}
    selected = {r.id for r in results}
    props = [p for p in registry.all_properties() if p.result in selected] if properties else []
    property_records: dict[str, dict[str, Any]] = {}

    def prop_part(pid: str) -> Path:
        return partial / f"property_{anchor(pid)}.{mode}.{seed}.json"

    if resume:
        for p in props:
            if prop_part(p.id).exists():
                property_records[p.id] = json.loads(prop_part(p.id).read_text())
    if executor_spec is not None and executor_spec.parallel:
        todo = [r for r in results if not (resume and part_of(r).exists())]
        fig_todo: list[str] = []
        if figures:
            for r in results:
                for path in r.figures:
                    target = out / "figures" / figure_filename(path)
                    if path not in fig_todo and not (resume and target.exists()):
                        fig_todo.append(path)
        prop_todo = [p.id for p in props if p.id not in property_records]
        memo, par_times, pngs, figure_times = _run_parallel(
            executor_spec,
            todo,
            fig_todo,
            quick=quick,
            seed=seed,
            part_of=part_of,
            progress=progress,
            controls=controls,
            control_memo=control_memo,
            property_ids=prop_todo,
            property_records=property_records,
        )
        for pid in prop_todo:
            if pid in property_records:
                _dump(prop_part(pid), property_records[pid])
    bar = tqdm(
        results,
        desc=f"icl-verify report ({mode})",
        unit="result",
        disable=not progress or bool(par_times or pngs),
        file=sys.stderr,
    )
    for r in bar:
        bar.set_postfix_str(r.id)
        part = part_of(r)
        if resume and part.exists():
            data = json.loads(part.read_text())
            outcome = _outcome_from_json(r, data)
        elif par_times:  # every check ran on a worker: assemble, the partial is written
            outcome = verify_result(
                r, quick=quick, seed=seed, memo=memo, controls=controls, control_memo=control_memo
            )
            outcome = Outcome(
                r,
                outcome.evidence,
                outcome.errors,
                sum(par_times.get(p, 0.0) for p in dict.fromkeys(r.checks)),
                {p: par_times[p] for p in r.checks if p in par_times},
                outcome.check_rows,
                outcome.controls,
                outcome.controls_run,
            )
        else:
            outcome = verify_result(
                r, quick=quick, seed=seed, memo=memo, controls=controls, control_memo=control_memo
            )
            _dump(part, {**outcome.to_json(), "wall_time": outcome.wall_time})
        outcomes.append(outcome)
        timings[r.id] = {"total": outcome.wall_time, **outcome.per_check_time}
        if figures:
            fig_errors = []
            for path in r.figures:
                png = f"figures/{figure_filename(path)}"
                target = out / png
                if png not in drawn and path in pngs:
                    data_png, fig_err = pngs[path]
                    if fig_err is not None or data_png is None:
                        fig_errors.append(fig_err or f"figure {path}: no image")
                        continue
                    atomic_write_bytes(target, data_png)
                elif png not in drawn and not (resume and target.exists()):
                    t1 = time.perf_counter()
                    try:
                        save_figure(resolve(path)(quick=quick, seed=seed), target)
                    except Exception as exc:  # noqa: BLE001 - a broken figure fails the report
                        fig_errors.append(f"figure {path}: {exc!r}")
                        continue
                    figure_times[path] = time.perf_counter() - t1
                drawn.add(png)
                fig_paths.setdefault(r.id, []).append(png)
            if fig_errors:
                outcomes[-1] = Outcome(
                    r,
                    outcome.evidence,
                    outcome.errors + tuple(fig_errors),
                    outcome.wall_time,
                    outcome.per_check_time,
                    outcome.check_rows,
                    outcome.controls,
                    outcome.controls_run,
                )
    bar.close()
    prop_bar = tqdm(
        props,
        desc="trained claims over settings",
        unit="property",
        disable=not progress or not props,
        file=sys.stderr,
    )
    for p in prop_bar:
        prop_bar.set_postfix_str(p.id)
        if p.id not in property_records:
            property_records[p.id] = property_task(p.id, quick, seed)
            _dump(prop_part(p.id), property_records[p.id])
    prop_bar.close()
    trained_properties = [_property_summary(property_records[p.id]) for p in props]
    n_failed_props = sum(not _property_passed(rec) for rec in trained_properties)
    if figures:
        save_figure(agreement_figure(outcomes), out / "figures" / "agreement.png")
    counts = headline_counts(outcomes)
    n_failed_checks = counts["failed_rows"] + sum(len(o.errors) for o in outcomes)
    payload = {
        "tool": "icl-verify",
        "mode": mode,
        "seed": seed,
        "n_results": len(outcomes),
        "n_checks": counts["unique_rows"],
        "n_failed_results": sum(not o.passed for o in outcomes),
        "n_failed_checks": n_failed_checks,
        "pass": all(o.passed for o in outcomes) and n_failed_props == 0,
        **counts,
        "trained_properties": trained_properties,
        "results": [o.to_json() for o in outcomes],
    }
    _dump(out / "results.json", payload)
    wall = time.perf_counter() - t0
    _dump(
        out / "timings.json",
        {
            "wall_time": wall,
            "per_result": timings,
            "figures": figure_times,
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
        },
    )
    atomic_write_bytes(
        out / "report.md",
        markdown_report(outcomes, fig_paths, mode, seed, properties=trained_properties).encode(),
    )
    atomic_write_bytes(
        out / "report.html",
        html_report(outcomes, fig_paths, mode, seed, properties=trained_properties).encode(),
    )
    return ReportSummary(
        out,
        len(outcomes),
        counts["unique_rows"],
        payload["n_failed_results"],
        n_failed_checks,
        wall,
        counts["unique_checks"],
        len(counts["discrepancies"]),
        len(trained_properties),
        n_failed_props,
    )


def _property_summary(rec: dict[str, Any]) -> dict[str, Any]:
    """The ``trained_properties`` entry: the integer counts first, then the draws."""
    keys = (
        "result",
        "property",
        "drawn",
        "passed",
        "not_separable",
        "trapped",
        "worst_margin",
        "minimal_failing",
        "replay",
        "error",
        "check",
        "settings",
    )
    return {k: rec.get(k) for k in keys}


def _property_passed(rec: dict[str, Any]) -> bool:
    return (
        rec.get("error") is None
        and rec.get("minimal_failing") is None
        and int(rec.get("passed") or 0) > 0
        and all(d.get("verdict") != "fail" for d in rec.get("settings") or [])
    )
