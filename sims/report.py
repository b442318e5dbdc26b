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

import html
import io
import json
import os
import platform
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sims.cache import atomic_write_bytes
from sims.parallel import ExecutorSpec, UnitReturn, executor, run_all, store_entries
from sims.verify import CheckRun, Outcome, run_check_safely, verify_result
from theory.common import registry
from theory.common.protocols import (
    INDEPENDENT_KINDS,
    KIND_MEANINGS,
    SELF_CONSISTENCY_KINDS,
    Evidence,
    Result,
)
from theory.common.registry import resolve

__all__ = ["ReportSummary", "write_report", "save_figure", "figure_png", "figure_filename",
           "draw_figure"]


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

    @property
    def passed(self) -> bool:
        return self.n_failed_results == 0


def _slug(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", s)


def figure_filename(path: str) -> str:
    """``"sims.figures.ltb:fig_rates"`` → ``"ltb_fig_rates.png"`` (unique across papers)."""
    mod, _, fn = path.partition(":")
    return f"{_slug(mod.rsplit('.', 1)[-1])}_{_slug(fn)}.png"


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


def draw_figure(path: str, quick: bool, seed: int) -> tuple[bytes | None, str | None]:
    """PNG bytes of the figure function at ``path`` or the error text (a worker task)."""
    try:
        return figure_png(resolve(path)(quick=quick, seed=seed)), None
    except Exception as exc:  # noqa: BLE001 - a broken figure fails the report
        return None, f"figure {path}: {exc!r}"


def _agreement_figure(outcomes: Sequence[Outcome]) -> Any:
    """Every check's error in tolerance units (pass iff ≤ 1), one marker per check."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10, 3.6))
    ax = fig.add_subplot(1, 1, 1)
    colors = {"EXACT": "k", "FLOAT": "tab:gray", "SOLVER": "tab:blue", "MC": "tab:orange",
              "TRAIN": "tab:green", "RATE": "tab:purple", "ORDER": "tab:brown", "INFO": "tab:olive",
              "OPTIM": "tab:cyan", "PAPER": "tab:pink"}
    i = 0
    seen: set[str] = set()
    for o in outcomes:
        for e in o.evidence:
            err = min(e.error, 10.0) if e.error == e.error else 10.0
            label = e.kind if e.kind not in seen else None
            seen.add(e.kind)
            ax.plot(i, max(err, 1e-4), "o", ms=3, color=colors.get(e.kind, "k"), label=label)
            i += 1
    ax.axhline(1.0, color="r", lw=1, ls="--", label="tolerance")
    ax.set_yscale("log")
    ax.set_xlabel("check (report order)")
    ax.set_ylabel("|error| / tolerance (capped at 10)")
    ax.set_title("All checks: error in tolerance units (pass iff ≤ 1)")
    ax.legend(fontsize=7, ncol=5, loc="upper right")
    return fig


def _fmt(x: Any) -> str:
    if isinstance(x, float):
        return f"{x:.6g}"
    if isinstance(x, list):
        flat = json.dumps(x)
        return flat if len(flat) <= 60 else flat[:57] + "..."
    return str(x)


def unique_rows(outcomes: Sequence[Outcome]) -> dict[str, tuple[Evidence, ...]]:
    """Check path -> its evidence rows, each check once even when several results list it."""
    out: dict[str, tuple[Evidence, ...]] = {}
    for o in outcomes:
        i = 0
        for path, n in o.check_rows:
            out.setdefault(path, o.evidence[i:i + n])
            i += n
        if not o.check_rows and o.evidence:  # an outcome built without row bookkeeping
            out.setdefault(f"{o.result.id}#rows", o.evidence)
    return out


def kind_counts(outcomes: Sequence[Outcome]) -> dict[str, int]:
    """Unique evidence rows per kind, in the order of :data:`KIND_MEANINGS`."""
    counts = {k: 0 for k in KIND_MEANINGS}
    for rows in unique_rows(outcomes).values():
        for e in rows:
            counts[e.kind] += 1
    return counts


def headline_counts(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """The honest counts of a report: unique checks and rows, rows by kind, independent-route
    comparisons apart from self-consistency rows, failures and discrepancies."""
    rows = unique_rows(outcomes)
    by_kind = kind_counts(outcomes)
    flat = [e for evs in rows.values() for e in evs]
    return {
        "unique_checks": sum(1 for p in rows if "#" not in p),
        "unique_rows": len(flat),
        "rows_by_kind": by_kind,
        "independent_comparisons": sum(by_kind[k] for k in INDEPENDENT_KINDS),
        "self_consistency_rows": sum(by_kind[k] for k in SELF_CONSISTENCY_KINDS),
        "failed_rows": sum(not e.passed for e in flat),
        "discrepancy_rows": sum(e.discrepancy for e in flat),
        "discrepancies": [o.result.id for o in outcomes if o.status == "discrepancy"],
    }


def headline(outcomes: Sequence[Outcome], mode: str, seed: int) -> str:
    """One paragraph of honest counts (plain text, shared by Markdown and HTML)."""
    c = headline_counts(outcomes)
    n_fail = sum(o.status == "fail" for o in outcomes)
    n_disc = len(c["discrepancies"])
    other = c["unique_rows"] - c["independent_comparisons"] - c["self_consistency_rows"]
    return (f"Mode {mode}, seed {seed}. {len(outcomes)} results: "
            f"{len(outcomes) - n_fail - n_disc} pass, {n_disc} with a claim not reproduced "
            f"(discrepancy), {n_fail} fail. {c['unique_checks']} check functions (each run once) "
            f"produced {c['unique_rows']} evidence rows: {c['independent_comparisons']} "
            f"independent-route comparisons (MC, ODE, trained models), "
            f"{c['self_consistency_rows']} self-consistency rows (symbolic, two float forms of "
            f"one formula) and {other} others (orderings, rates, optimisers, printed numbers, "
            f"informational).")


def discrepancy_rows(outcomes: Sequence[Outcome]) -> list[tuple[Result, Evidence]]:
    """Every row whose claim is not reproduced, with its result."""
    return [(o.result, e) for o in outcomes for e in o.evidence if e.discrepancy]


def _claims_md(outcomes: Sequence[Outcome]) -> list[str]:
    rows = discrepancy_rows(outcomes)
    out = ["## Claims not reproduced", ""]
    if not rows:
        return out + ["None: every claim checked was reproduced.", ""]
    out += ["Our independent routes agree with each other and contradict what the paper states.",
            "", "| result | claim | paper | ours | observed | source |",
            "|---|---|---|---|---|---|"]
    for r, e in rows:
        d = e.to_json()["details"]
        out.append(f"| [`{r.id}`](#{_slug(r.id)}) | {e.name} | {_fmt(d.get('paper'))} | "
                   f"{_fmt(d.get('ours'))} | {_fmt(e.to_json()['observed'])} | "
                   f"{d.get('source', r.source)} |")
    return out + [""]


def _claims_html(outcomes: Sequence[Outcome]) -> list[str]:
    esc = html.escape
    rows = discrepancy_rows(outcomes)
    parts = ["<h2>Claims not reproduced</h2>"]
    if not rows:
        return parts + ["<p>None: every claim checked was reproduced.</p>"]
    parts += ["<p>Our independent routes agree with each other and contradict what the paper "
              "states.</p>", "<table><tr><th>result</th><th>claim</th><th>paper</th><th>ours</th>"
              "<th>observed</th><th>source</th></tr>"]
    for r, e in rows:
        d = e.to_json()["details"]
        parts.append(f"<tr><td><a href='#{_slug(r.id)}'><code>{esc(r.id)}</code></a></td>"
                     f"<td>{esc(e.name)}</td><td>{esc(_fmt(d.get('paper')))}</td>"
                     f"<td>{esc(_fmt(d.get('ours')))}</td>"
                     f"<td>{esc(_fmt(e.to_json()['observed']))}</td>"
                     f"<td>{esc(str(d.get('source', r.source)))}</td></tr>")
    return parts + ["</table>"]


_STATUS_MD = {"pass": "✅ pass", "fail": "❌ FAIL", "discrepancy": "⚠️ discrepancy"}


def _legend_md(outcomes: Sequence[Outcome]) -> list[str]:
    rows = ["## Evidence kinds", "", "| kind | rows | what the row compares |", "|---|---|---|"]
    rows += [f"| {k} | {n} | {KIND_MEANINGS[k]} |" for k, n in kind_counts(outcomes).items()]
    return rows


def _legend_html(outcomes: Sequence[Outcome]) -> list[str]:
    esc = html.escape
    parts = ["<h2>Evidence kinds</h2>",
             "<table><tr><th>kind</th><th>rows</th><th>what the row compares</th></tr>"]
    parts += [f"<tr><td>{k}</td><td>{n}</td><td>{esc(KIND_MEANINGS[k])}</td></tr>"
              for k, n in kind_counts(outcomes).items()]
    return parts + ["</table>"]


def _evidence_rows_md(ev: Sequence[Evidence]) -> list[str]:
    rows = ["| check | kind | predicted | observed | tolerance | se | error (tol units) | pass |",
            "|---|---|---|---|---|---|---|---|"]
    for e in ev:
        j = e.to_json()
        rows.append(
            f"| {e.name} | {e.kind} | {_fmt(j['predicted'])} | {_fmt(j['observed'])} | "
            f"{_fmt(j['tolerance'])} | {_fmt(j['se']) if e.se is not None else ''} | "
            f"{_fmt(j['error_in_tolerance_units'])} | {'✅' if e.passed else '❌'} |"
        )
    return rows


def _markdown(outcomes: Sequence[Outcome], figures: dict[str, list[str]], mode: str,
              seed: int) -> str:
    lines = [
        "# icl-verify verification report",
        "",
        headline(outcomes, mode, seed),
        "",
        "![agreement](figures/agreement.png)",
        "",
        *_claims_md(outcomes),
        *_legend_md(outcomes),
        "",
        "## Results",
        "",
        "| result | summary | source | checks | status |",
        "|---|---|---|---|---|",
    ]
    for o in outcomes:
        r = o.result
        tag = " *(derived)*" if r.derived else ""
        lines.append(f"| [`{r.id}`](#{_slug(r.id)}) | {r.summary}{tag} | {r.source} | "
                     f"{len(o.evidence)} | {_STATUS_MD[o.status]} |")
    for o in outcomes:
        r = o.result
        lines += ["", f"## <a id='{_slug(r.id)}'></a>`{r.id}` — {r.summary}", "",
                  f"Source: {r.source}." + (" Derived (toolkit extension)." if r.derived else "")]
        if r.statement:
            lines += ["", r.statement]
        lines += [""] + _evidence_rows_md(o.evidence)
        for err in o.errors:
            lines += ["", "```", err.strip(), "```"]
        for png in figures.get(r.id, []):
            lines += ["", f"![{r.id}]({png})"]
    return "\n".join(lines) + "\n"


def _html(outcomes: Sequence[Outcome], figures: dict[str, list[str]], mode: str, seed: int) -> str:
    esc = html.escape
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>icl-verify report</title>",
        "<style>body{font-family:sans-serif;max-width:1200px;margin:auto}"
        "table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:2px 6px}"
        ".pass{color:#070}.fail{color:#b00;font-weight:bold}img{max-width:100%}</style></head><body>",
        "<h1>icl-verify verification report</h1>",
        f"<p>{esc(headline(outcomes, mode, seed))}</p>",
        "<img src='figures/agreement.png' alt='agreement'>",
        *_claims_html(outcomes),
        *_legend_html(outcomes),
        "<h2>Results</h2>",
        "<table><tr><th>result</th><th>summary</th><th>source</th><th>checks</th><th>status</th></tr>",
    ]
    for o in outcomes:
        r = o.result
        cls = "pass" if o.passed else "fail"
        parts.append(
            f"<tr><td><a href='#{_slug(r.id)}'><code>{esc(r.id)}</code></a></td>"
            f"<td>{esc(r.summary)}{' <i>(derived)</i>' if r.derived else ''}</td>"
            f"<td>{esc(r.source)}</td><td>{len(o.evidence)}</td>"
            f"<td class='{cls}'>{o.status}</td></tr>"
        )
    parts.append("</table>")
    for o in outcomes:
        r = o.result
        parts.append(f"<h2 id='{_slug(r.id)}'><code>{esc(r.id)}</code> — {esc(r.summary)}</h2>")
        parts.append(f"<p>Source: {esc(r.source)}.{' Derived.' if r.derived else ''}</p>")
        if r.statement:
            parts.append(f"<pre>{esc(r.statement)}</pre>")
        parts.append("<table><tr><th>check</th><th>kind</th><th>predicted</th><th>observed</th>"
                     "<th>tolerance</th><th>se</th><th>error/tol</th><th>pass</th></tr>")
        for e in o.evidence:
            j = e.to_json()
            cls = "pass" if e.passed else "fail"
            parts.append(
                f"<tr><td>{esc(e.name)}</td><td>{e.kind}</td><td>{esc(_fmt(j['predicted']))}</td>"
                f"<td>{esc(_fmt(j['observed']))}</td><td>{esc(_fmt(j['tolerance']))}</td>"
                f"<td>{esc(_fmt(j['se'])) if e.se is not None else ''}</td>"
                f"<td>{esc(_fmt(j['error_in_tolerance_units']))}</td>"
                f"<td class='{cls}'>{'pass' if e.passed else 'FAIL'}</td></tr>"
            )
        parts.append("</table>")
        for err in o.errors:
            parts.append(f"<pre class='fail'>{esc(err)}</pre>")
        for png in figures.get(r.id, []):
            parts.append(f"<img src='{esc(png)}' alt='{esc(r.id)}'>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _outcome_from_json(result: Result, data: dict[str, Any]) -> Outcome:
    ev = []
    for j in data["evidence"]:
        ev.append(Evidence(name=j["name"], kind=j["kind"], predicted=j["predicted"],
                           observed=j["observed"], tolerance=j["tolerance"],
                           error=float(j["error_in_tolerance_units"]), passed=j["pass"],
                           se=j["se"], scale=j["scale"], details=j["details"],
                           discrepancy=j.get("status") == "discrepancy"))
    rows = tuple((str(p), int(n)) for p, n in data.get("check_rows", []))
    return Outcome(result, tuple(ev), tuple(data["errors"]), data.get("wall_time", 0.0),
                   check_rows=rows)


def _run_parallel(
    spec: ExecutorSpec,
    todo: Sequence[Result],
    figure_paths: Sequence[str],
    *,
    quick: bool,
    seed: int,
    part_of: Any,
    progress: bool,
) -> tuple[dict[str, CheckRun], dict[str, float], dict[str, tuple[bytes | None, str | None]],
           dict[str, float]]:
    """Every distinct check of ``todo`` and every figure in ``figure_paths``, on ``spec``'s
    workers.  The partial outcome of a result is written as soon as its last check is in."""
    from tqdm.auto import tqdm

    checks = list(dict.fromkeys(p for r in todo for p in r.checks))
    tasks: list[tuple[Any, tuple[Any, ...]]] = [
        (check_task, (p, quick, seed)) for p in checks]
    tasks += [(draw_figure, (p, quick, seed)) for p in figure_paths]
    memo: dict[str, CheckRun] = {}
    times: dict[str, float] = {}
    pngs: dict[str, tuple[bytes | None, str | None]] = {}
    fig_times: dict[str, float] = {}
    waiting = {r.id: set(r.checks) for r in todo}
    bar = tqdm(total=len(tasks), desc=f"icl-verify report ({spec.describe()})", unit="task",
               disable=not progress, file=sys.stderr)

    def on_done(i: int, ret: UnitReturn) -> None:
        store_entries(ret.entries)  # the client alone writes the cache
        if i < len(checks):
            path = checks[i]
            memo[path] = ret.value
            times[path] = ret.seconds
            for r in todo:
                pend = waiting.get(r.id)
                if pend is None:
                    continue
                pend.discard(path)
                if not pend:
                    del waiting[r.id]
                    o = verify_result(r, quick=quick, seed=seed, memo=memo)
                    wall = sum(times.get(p, 0.0) for p in dict.fromkeys(r.checks))
                    _dump(part_of(r), {**o.to_json(), "wall_time": wall})
        else:
            path = figure_paths[i - len(checks)]
            pngs[path] = ret.value
            fig_times[path] = ret.seconds
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
) -> ReportSummary:
    """Run the checks of every (or the selected) result and write the report to ``out_dir``.

    ``executor_spec`` (default serial) runs the checks and figures on worker processes or a Dask
    cluster; the files written are the same (``results.json`` byte for byte).
    """
    from tqdm.auto import tqdm

    t0 = time.perf_counter()
    out = Path(out_dir)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    partial = out / ".partial"
    partial.mkdir(exist_ok=True)
    mode = "quick" if quick else "full"
    results = [r for r in registry.all_results() if ids is None or r.id in ids]
    if ids is not None:
        missing = sorted(set(ids) - {r.id for r in results})
        if missing:
            from theory.common.registry import suggest

            hints = {m: suggest(m) for m in missing}
            raise KeyError("unknown result ids: " + "; ".join(
                f"{m!r}" + (f" (did you mean {hints[m]}?)" if hints[m] else "") for m in missing))
    outcomes: list[Outcome] = []
    memo: dict[str, CheckRun] = {}  # each check runs once
    fig_paths: dict[str, list[str]] = {}  # result id -> its figure files
    drawn: set[str] = set()  # figure files written (or reused) in this run
    figure_times: dict[str, float] = {}
    timings: dict[str, Any] = {}

    def part_of(r: Result) -> Path:
        return partial / f"{_slug(r.id)}.{mode}.{seed}.json"

    pngs: dict[str, tuple[bytes | None, str | None]] = {}
    par_times: dict[str, float] = {}
    if executor_spec is not None and executor_spec.parallel:
        todo = [r for r in results if not (resume and part_of(r).exists())]
        fig_todo: list[str] = []
        if figures:
            for r in results:
                for path in r.figures:
                    target = out / "figures" / figure_filename(path)
                    if path not in fig_todo and not (resume and target.exists()):
                        fig_todo.append(path)
        memo, par_times, pngs, figure_times = _run_parallel(
            executor_spec, todo, fig_todo, quick=quick, seed=seed, part_of=part_of,
            progress=progress)
    bar = tqdm(results, desc=f"icl-verify report ({mode})", unit="result",
               disable=not progress or bool(par_times or pngs), file=sys.stderr)
    for r in bar:
        bar.set_postfix_str(r.id)
        part = part_of(r)
        if resume and part.exists():
            data = json.loads(part.read_text())
            outcome = _outcome_from_json(r, data)
        elif par_times:  # every check ran on a worker: assemble, the partial is written
            outcome = verify_result(r, quick=quick, seed=seed, memo=memo)
            outcome = Outcome(r, outcome.evidence, outcome.errors,
                              sum(par_times.get(p, 0.0) for p in dict.fromkeys(r.checks)),
                              {p: par_times[p] for p in r.checks if p in par_times},
                              outcome.check_rows)
        else:
            outcome = verify_result(r, quick=quick, seed=seed, memo=memo)
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
                outcomes[-1] = Outcome(r, outcome.evidence, outcome.errors + tuple(fig_errors),
                                       outcome.wall_time, outcome.per_check_time,
                                       outcome.check_rows)
    bar.close()
    if figures:
        save_figure(_agreement_figure(outcomes), out / "figures" / "agreement.png")
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
        "pass": all(o.passed for o in outcomes),
        **counts,
        "results": [o.to_json() for o in outcomes],
    }
    _dump(out / "results.json", payload)
    wall = time.perf_counter() - t0
    _dump(out / "timings.json", {"wall_time": wall, "per_result": timings,
                                 "figures": figure_times,
                                 "python": platform.python_version(), "cpus": os.cpu_count()})
    atomic_write_bytes(out / "report.md", _markdown(outcomes, fig_paths, mode, seed).encode())
    atomic_write_bytes(out / "report.html", _html(outcomes, fig_paths, mode, seed).encode())
    return ReportSummary(out, len(outcomes), counts["unique_rows"], payload["n_failed_results"],
                         n_failed_checks, wall, counts["unique_checks"],
                         len(counts["discrepancies"]))
