"""The report's tasks and their schedule: what a worker runs, and in which order.

Every distinct check, figure, declared negative control and trained property of a report is one
task: a module-level function with positional arguments (:func:`check_task`, :func:`draw_figure`,
:func:`control_task`, :func:`property_task`), so it pickles by reference to worker processes and
Dask workers.  :func:`run_parallel` hands them to an executor of :mod:`sims.parallel` longest
first (:func:`schedule`), so that the run does not end with one long task left alone on one
worker while the others idle:

* the declared cost puts the trained properties first (each trains a model at every drawn
  setting; the most draws first), then the checks and negative controls of trained sections
  (``sims.*``), then the figures, then the closed-form and Monte Carlo checks (``numerics.*``);
* within a tier, the seconds measured by an earlier run (``timings.json`` of the same output
  directory: :func:`measured_costs`) order the tasks, longest first; a task never measured keeps
  its declaration order.

The order changes when a task runs, never what it returns: :mod:`sims.report` assembles the
outcomes in registry order, so ``results.json`` is the same byte for byte.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sims import registry
from sims.cache import atomic_write_bytes
from sims.parallel import ExecutorSpec, UnitReturn, executor, run_all, store_entries
from sims.registry import resolve
from sims.render import anchor
from sims.verify import (
    CheckRun,
    ControlRun,
    control_key,
    declared_checks,
    run_check_safely,
    run_control,
    tier_checks,
    verify_result,
)
from theory.common.protocols import Result

__all__ = [
    "figure_filename",
    "dump_json",
    "figure_png",
    "save_figure",
    "check_task",
    "control_task",
    "property_examples",
    "property_task",
    "draw_figure",
    "COST_TIERS",
    "Task",
    "task_tier",
    "schedule",
    "measured_costs",
    "run_parallel",
]


def figure_filename(path: str) -> str:
    """``"sims.figures.zwb24:fig_rates"`` → ``"ltb_fig_rates.png"`` (unique across papers)."""
    mod, _, fn = path.partition(":")
    return f"{anchor(mod.rsplit('.', 1)[-1])}_{anchor(fn)}.png"


def dump_json(path: Path, obj: Any) -> None:
    """Write ``obj`` as indented JSON to ``path`` atomically."""
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
    out = run_property(
        prop,
        examples=property_examples(prop, quick),
        quick=quick,
        seed=seed,
        include_pinned=False,  # the report's own checks run the presets (their rows are there)
    )
    return out.to_json()


def draw_figure(path: str, quick: bool, seed: int) -> tuple[bytes | None, str | None]:
    """PNG bytes of the figure function at ``path`` or the error text (a worker task)."""
    try:
        return figure_png(resolve(path)(quick=quick, seed=seed)), None
    except Exception as exc:  # noqa: BLE001 - a broken figure fails the report
        return None, f"figure {path}: {exc!r}"


# ---------------------------------------------------------------------------- schedule
#: Tiers of the declared cost, longest first (see the module docstring).
COST_TIERS = ("property", "trained", "figure", "route")


@dataclass(frozen=True, slots=True)
class Task:
    """One task of a parallel report: ``fn(*args)`` on a worker.

    ``kind`` is ``"check"``, ``"figure"``, ``"control"`` or ``"property"``; ``key`` the check
    path, figure path, :func:`sims.verify.control_key` or property id the return is filed under;
    ``path`` the dotted path of the code it runs (a control runs its check); ``draws`` the drawn
    settings of a property (its declared size)."""

    kind: str
    key: str
    path: str
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    draws: int = 0


def task_tier(task: Task) -> int:
    """The task's index in :data:`COST_TIERS`: a trained property; a check or control of a
    trained section (``sims.*``); a figure; a closed-form or Monte Carlo check (``numerics.*``)."""
    if task.kind == "property":
        return 0
    if task.kind == "figure":
        return 2
    return 1 if task.path.startswith("sims.") else 3


def schedule(tasks: Sequence[Task], measured: Mapping[str, float] | None = None) -> list[Task]:
    """``tasks`` longest first: by :func:`task_tier`, then the most draws (a property), then the
    seconds ``measured`` for the task's key (a control is estimated by its check's seconds), then
    the declaration order (the sort is stable).

    >>> t = [Task("check", "numerics.a:c", "numerics.a:c", print, ()),
    ...      Task("property", "x:y/p", "sims.c:t", print, (), draws=3),
    ...      Task("check", "sims.c:t", "sims.c:t", print, ())]
    >>> [x.key for x in schedule(t)]
    ['x:y/p', 'sims.c:t', 'numerics.a:c']
    """
    seconds = measured or {}

    def cost(task: Task) -> tuple[int, int, float]:
        known = seconds.get(task.key, seconds.get(task.path, 0.0))
        return (task_tier(task), -task.draws, -float(known))

    return sorted(tasks, key=cost)


def measured_costs(timings: Path) -> dict[str, float]:
    """Seconds per check, figure and property measured by an earlier report (its
    ``timings.json``); empty if there is none or it cannot be read."""
    try:
        data = json.loads(timings.read_text())
    except (OSError, ValueError):
        return {}
    out: dict[str, float] = {}
    try:
        for per in data.get("per_result", {}).values():
            out.update({k: float(v) for k, v in per.items() if k != "total"})
        for group in ("figures", "properties"):
            out.update({k: float(v) for k, v in data.get(group, {}).items()})
    except (AttributeError, TypeError, ValueError):
        return {}
    return out


def run_parallel(
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
    property_times: dict[str, float] | None = None,
    property_part: Callable[[str], Path] | None = None,
    measured: Mapping[str, float] | None = None,
    waited: dict[str, float] | None = None,
) -> tuple[
    dict[str, CheckRun],
    dict[str, float],
    dict[str, tuple[bytes | None, str | None]],
    dict[str, float],
]:
    """Every distinct check of ``todo``, every figure in ``figure_paths``, the declared negative
    controls (``controls``) and the trained properties ``property_ids``, on ``spec``'s workers,
    in the order of :func:`schedule` (``measured``: seconds of an earlier run).  The partial
    outcome of a result is written as soon as its last check is in, a property's record (to
    ``property_part(id)``) as soon as it is in.  Every task's recorded seconds are its own cost:
    the time it waited for a model another task was training is left out (that model's seconds
    are in the task that trained it) and, where ``waited`` is given, recorded there by task key."""
    from tqdm.auto import tqdm

    checks = list(dict.fromkeys(p for r in todo for p in tier_checks(r, quick=quick)))
    tasks = [Task("check", p, p, check_task, (p, quick, seed)) for p in checks]
    tasks += [Task("figure", p, p, draw_figure, (p, quick, seed)) for p in figure_paths]
    cmemo = control_memo if control_memo is not None else {}
    if controls:
        for c in declared_checks(todo).values():
            if quick and c.tier == "full":
                continue
            for fault in c.faults:
                key = control_key(c.path, fault)
                tasks.append(Task("control", key, c.path, control_task, (c, fault, quick, seed)))
    props = {p.id: p for p in registry.all_properties()}
    for pid in property_ids:
        draws = property_examples(props[pid], quick) + len(props[pid].pinned)
        tasks.append(
            Task("property", pid, props[pid].check, property_task, (pid, quick, seed), draws)
        )
    tasks = schedule(tasks, measured)
    memo: dict[str, CheckRun] = {}
    times: dict[str, float] = {}
    pngs: dict[str, tuple[bytes | None, str | None]] = {}
    fig_times: dict[str, float] = {}
    waiting: dict[str, set[str]] = {
        r.id: {c.path for c in tier_checks(r, quick=quick)}
        | (
            {control_key(c.path, f) for c in tier_checks(r, quick=quick) for f in c.faults}
            if controls
            else set()
        )
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
        task = tasks[i]
        done: str | None = None
        own = ret.seconds - ret.waited  # not the wait for a model another task trained
        if waited is not None and ret.waited > 0:
            waited[task.key] = ret.waited
        if task.kind == "check":
            done = task.key
            memo[done] = ret.value
            times[done] = own
        elif task.kind == "figure":
            pngs[task.key] = ret.value
            fig_times[task.key] = own
        elif task.kind == "control":
            done = task.key
            cmemo[done] = ret.value
        else:
            if property_records is not None:
                property_records[task.key] = ret.value
            if property_times is not None:
                property_times[task.key] = own
            if property_part is not None:
                dump_json(property_part(task.key), ret.value)
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
                    dump_json(part_of(r), {**o.to_json(), "wall_time": wall})
        bar.update(1)

    with executor(spec) as runner:
        run_all(runner, [(t.fn, t.args) for t in tasks], on_done)
    bar.close()
    return memo, times, pngs, fig_times
