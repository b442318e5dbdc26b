"""The verification report: run every registered result's checks, write Markdown, HTML, PNG, JSON.

Output directory layout::

    report.md, report.html     one row per result, every check's evidence, the figures
    results.json               every check: predicted, observed, tolerance, se, pass (deterministic:
                               the same seed gives the same file; wall times are kept apart)
    timings.json               seconds per result and check, figure and trained property (each
                               task's own: waits for a model another task trains are listed
                               apart, under ``waited``)
    figures/*.png              the papers' figures and the overall agreement plot
    .partial/<id>.json         per-result outcomes, written atomically; ``--resume`` reuses them

Progress is shown with tqdm on stderr.  The exit status is non-zero if any check fails.

With a parallel ``executor`` (:mod:`sims.parallel`: ``--jobs N``, ``--dask-local N``,
``--scheduler ADDR``) every distinct check, figure, negative control and trained property of the
run is one task (:mod:`sims.report_tasks`), handed out longest first; workers return evidence and
PNG bytes, the client writes the cache entries, the partial outcomes (as soon as all checks of a
result are in) and the outputs.  The outcomes are then assembled by the same code as the serial
run, from those results, so ``results.json`` is byte-identical to the serial one.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sims import registry
from sims.cache import atomic_write_bytes, remove_stale_temporaries
from sims.parallel import ExecutorSpec
from sims.registry import resolve
from sims.render import (  # rendering lives in sims.render
    agreement_figure,
    anchor,
    headline_counts,
    html_report,
    markdown_report,
)
from sims.report_tasks import (
    draw_figure,
    dump_json,
    figure_filename,
    figure_png,
    measured_costs,
    property_task,
    run_parallel,
    save_figure,
)
from sims.verify import CheckRun, ControlRun, Outcome, verify_result
from theory.common.protocols import (
    VERDICTS,
    Evidence,
    Result,
)

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
    outcomes: tuple[Outcome, ...] = ()  # every result's outcome, in registry order
    written: tuple[Path, ...] = ()  # the files this run wrote (figures reused by --resume not)

    @property
    def passed(self) -> bool:
        return self.n_failed_results == 0 and self.n_failed_properties == 0


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
                setting=j.get("setting"),
                fixed=j.get("fixed", ""),
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
            from sims.registry import suggest

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
    property_times: dict[str, float] = {}
    waited: dict[str, float] = {}  # task key -> seconds waiting for another task's model
    timings: dict[str, Any] = {}
    written: list[Path] = []

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
        memo, par_times, pngs, figure_times = run_parallel(
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
            property_times=property_times,
            property_part=prop_part,
            measured=measured_costs(out / "timings.json"),
            waited=waited,
        )
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
            dump_json(part, {**outcome.to_json(), "wall_time": outcome.wall_time})
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
                    written.append(target)
                elif png not in drawn and not (resume and target.exists()):
                    t1 = time.perf_counter()
                    try:
                        save_figure(resolve(path)(quick=quick, seed=seed), target)
                    except Exception as exc:  # noqa: BLE001 - a broken figure fails the report
                        fig_errors.append(f"figure {path}: {exc!r}")
                        continue
                    figure_times[path] = time.perf_counter() - t1
                    written.append(target)
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
            t1 = time.perf_counter()
            property_records[p.id] = property_task(p.id, quick, seed)
            property_times[p.id] = time.perf_counter() - t1
            dump_json(prop_part(p.id), property_records[p.id])
    prop_bar.close()
    trained_properties = [_property_summary(property_records[p.id]) for p in props]
    n_failed_props = sum(not _property_passed(rec) for rec in trained_properties)
    if figures:
        save_figure(
            agreement_figure(outcomes, mode=mode, seed=seed), out / "figures" / "agreement.png"
        )
        written.append(out / "figures" / "agreement.png")
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
    dump_json(out / "results.json", payload)
    wall = time.perf_counter() - t0
    dump_json(
        out / "timings.json",
        {
            "wall_time": wall,
            "per_result": timings,
            "figures": figure_times,
            "properties": property_times,
            "waited": waited,
            "properties_drawn": {
                r["result"] + "/" + r["property"]: r.get("seconds_drawn")
                for r in trained_properties
            },
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
        tuple(outcomes),
        (
            *(out / n for n in ("report.html", "report.md", "results.json", "timings.json")),
            *written,
        ),
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
        "untested",
        "unconfirmed",
        "worst_margin",
        "minimal_failing",
        "replay",
        "error",
        "check",
        "seconds",
        "seconds_drawn",
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
