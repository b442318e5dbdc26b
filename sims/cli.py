"""The ``icl-verify`` command: list | check RESULT_ID | report | figure RESULT_ID.

* ``icl-verify list`` -- every registered result with its source.
* ``icl-verify check ID [--set key=value ...] [--full] [--seed S] [--json]`` -- run one result's
  checks at the default (or given) setting; exit 1 if any check fails.
* ``icl-verify report [--quick|--full] [--out DIR] [--seed S] [--only ID ...] [--resume]`` -- the
  main job: run everything, write Markdown/HTML/PNG/JSON to DIR; exit 1 if any check fails.
* ``icl-verify figure ID [--out DIR]`` -- draw a result's figures as PNG.
* ``icl-verify sweep ID --grid KEY=V1,V2 [--grid ...] [--seeds 0-4] --out DIR`` (or ``--preset
  slug:name``) -- a result's checks over a grid of settings and seeds, on ``--jobs N`` local
  processes (default: the cores), ``--dask-local N`` or ``--scheduler tcp://HOST:PORT``; writes
  ``sweep.csv`` and ``sweep.json`` and prints the row table of ``check`` (grid keys and seed as
  columns) with its one-line summary; exit 1 if a row fails, 2 on a bad grid (before any work).
* ``icl-verify show ID`` -- statement, source, and the ``file:line`` of every object, check, figure
  and test of one result.
* ``icl-verify compare OLD/results.json NEW/results.json [--rtol R]`` -- row-by-row comparison of
  two reports; exit 1 if any row changed, went missing or appeared.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["main", "build_parser"]


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="icl-verify",
        description="Verify the theory of in-context learning in trained attention models: "
        "closed forms vs ODE vs Monte Carlo vs trained torch models.",
    )
    sub = p.add_subparsers(dest="command", required=True)

    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    ls = sub.add_parser("list", help="list registered results (of one paper, of one kind)")
    ls.add_argument(
        "paper", nargs="?", help="a paper key (zfb24, hpcy25, zwb24, czz24, collins24, base)"
    )
    ls.add_argument("--kind", help="a result kind: theorem, lemma, figure, derived, ...")

    c = sub.add_parser("check", help="run one result's checks")
    c.add_argument("id", help="result id, e.g. base:gd or zfb24:thm4")
    c.add_argument(
        "--set",
        dest="sets",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a check parameter (repeatable); see --params",
    )
    c.add_argument("--full", action="store_true", help="full-size run instead of quick")
    c.add_argument(
        "--seed", type=int, default=0, help="random seed of every sampled route (default 0)"
    )
    c.add_argument("--json", action="store_true", help="print the evidence as JSON")
    c.add_argument(
        "--verbose", "-v", action="store_true", help="print each row's values and details"
    )
    c.add_argument("--params", action="store_true", help="list the settable parameters and exit")
    c.add_argument(
        "--controls",
        action="store_true",
        help="also run every declared negative control (each planted fault must be rejected)",
    )

    r = sub.add_parser("report", help="run all checks and write the verification report")
    g = r.add_mutually_exclusive_group()
    g.add_argument("--quick", action="store_true", help="quick tier (default)")
    g.add_argument("--full", action="store_true", help="full tier (larger samples, more seeds)")
    r.add_argument("--out", default="icl-verify-report", help="output directory")
    r.add_argument(
        "--seed", type=int, default=0, help="random seed of every sampled route (default 0)"
    )
    r.add_argument("--only", nargs="+", metavar="ID", help="restrict to these result ids")
    r.add_argument(
        "--resume",
        action="store_true",
        help="reuse per-result outcomes already written to OUT/.partial",
    )
    r.add_argument("--no-figures", action="store_true", help="write no figures (rows only)")
    r.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="also print every result's rows with their values and details",
    )
    r.add_argument(
        "--controls",
        action="store_true",
        help="also run every declared negative control; a fault a check accepts is a fail",
    )
    r.add_argument(
        "--no-properties",
        action="store_true",
        help="skip the trained properties over drawn settings",
    )
    _executor_options(r, default_help="the number of cores; 1 is serial")

    w = sub.add_parser(
        "sweep", help="a result's checks (or a training preset) over a grid of settings and seeds"
    )
    w.add_argument("id", nargs="?", help="result id, e.g. base:ols (or use --preset)")
    w.add_argument(
        "--preset",
        metavar="SLUG:NAME",
        help="sweep a training preset instead, e.g. hpcy25:h2",
    )
    w.add_argument(
        "--grid",
        action="append",
        default=[],
        metavar="KEY=V1,V2,...",
        help="values of one check parameter (repeatable; Cartesian product)",
    )
    w.add_argument(
        "--set",
        dest="sets",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a setting value held fixed at every grid point (repeatable)",
    )
    w.add_argument("--seeds", default="0", help="seeds: N, A-B or a comma list (default 0)")
    w.add_argument("--out", required=True, help="output directory")
    w.add_argument("--full", action="store_true", help="full tier of the checks")
    w.add_argument("--resume", action="store_true", help="skip cells already done in OUT")
    w.add_argument(
        "--plot",
        action="append",
        default=[],
        metavar="KEY",
        help="save a bound-vs-empirical plot along this grid key (repeatable)",
    )
    w.add_argument("--loglog", action="store_true", help="log-log axes for --plot")
    w.add_argument(
        "--device",
        choices=("cpu", "cuda"),
        help="training device passed to presets and checks taking 'device'",
    )
    _executor_options(w, default_help="the number of cores")

    s = sub.add_parser("show", help="where one result lives: objects, checks, figures, tests")
    s.add_argument("id", help="result id, e.g. zfb24:thm4")

    cmp_ = sub.add_parser("compare", help="compare two results.json files row by row")
    cmp_.add_argument("old", help="the earlier results.json (e.g. a baseline report's)")
    cmp_.add_argument("new", help="the later results.json")
    cmp_.add_argument(
        "--rtol",
        type=float,
        default=1e-12,
        help="relative tolerance for 'close' numbers (default 1e-12)",
    )
    cmp_.add_argument("--limit", type=int, default=50, help="differing rows to print")
    cmp_.add_argument(
        "--paper",
        action="append",
        default=[],
        metavar="KEY",
        help="compare only this paper's results (repeatable), e.g. zfb24 or base",
    )

    f = sub.add_parser("figure", help="draw the figures of one result")
    f.add_argument("id", help="result id, e.g. zfb24:cor6 (icl-verify show ID lists its figures)")
    f.add_argument(
        "--set",
        dest="sets",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="draw at this setting (repeatable; the keys of check --params): figures that take "
        "a setting draw at it, the others at their own values (said so)",
    )
    f.add_argument(
        "--out", default="icl-verify-figures", help="output directory (default icl-verify-figures)"
    )
    f.add_argument("--full", action="store_true", help="full-size samples instead of quick")
    f.add_argument(
        "--seed", type=int, default=0, help="random seed of every sampled route (default 0)"
    )
    return p


def _executor_options(p: argparse.ArgumentParser, *, default_help: str) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help=f"run on N local worker processes (default: {default_help})",
    )
    g.add_argument(
        "--dask-local",
        type=int,
        metavar="N",
        help="start a dask LocalCluster on loopback with N workers",
    )
    g.add_argument(
        "--scheduler", metavar="tcp://HOST:PORT", help="connect to a running dask scheduler"
    )


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("icl-verify")
    except PackageNotFoundError:  # pragma: no cover - running from a checkout, not installed
        return "(not installed)"


def _cmd_list(args: argparse.Namespace) -> int:
    from sims.registry import PAPERS, all_results
    from theory.common.protocols import RESULT_KINDS

    papers = ("base", *PAPERS)
    if args.paper is not None and args.paper not in papers:
        raise ValueError(f"list {args.paper!r}: no such paper; papers: {', '.join(papers)}")
    if args.kind is not None and args.kind not in RESULT_KINDS:
        raise ValueError(f"list --kind {args.kind!r}: kinds are {', '.join(RESULT_KINDS)}")
    for r in all_results():
        if (args.paper and r.paper != args.paper) or (args.kind and r.kind != args.kind):
            continue
        tag = " [derived]" if r.derived else ""
        print(f"{r.id:30s} {r.summary}{tag}  ({r.source})")
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    from sims.registry import get

    result = get(args.id)
    if result.settings_first:
        return _cmd_check_setting(args, result)
    from sims.verify import (
        check_parameters,
        parse_set_options,
        validate_overrides,
        verify_result,
    )

    if args.params:
        for check in result.checks:
            print(check.path)
            params = check_parameters(check.path)
            for name, prm in params.items():
                if not name.startswith("fault_"):
                    print(f"    {name} = {_value_text(prm.default)}")
            hooks = [n for n in params if n.startswith("fault_")]
            if hooks:
                print(
                    f"    fault hooks (negative controls only, not a setting): {', '.join(hooks)}"
                )
            for fault, kw in check.faults.items():
                print(f"    negative control {fault!r}: {_fault_text(kw)}")
        return 0
    overrides = parse_set_options(result, args.sets)
    try:
        validate_overrides(result, overrides)  # out-of-hypothesis values: exit 2, nothing trains
    except (ValueError, TypeError) as exc:
        print(f"icl-verify: error: --set {' '.join(args.sets)}: {exc}", file=sys.stderr)
        return 2
    outcome = verify_result(
        result, quick=not args.full, seed=args.seed, overrides=overrides, controls=args.controls
    )
    if args.sets:
        # a value the check's validators reject (out of the domain of an assumption) is a usage
        # error, not a failed check: exit 2 with one line naming the key
        for err in outcome.errors:
            head = err.splitlines()[0]
            _, _, rest = head.partition(": ")
            if rest.startswith(("ValueError: ", "TypeError: ")):
                print(f"icl-verify: error: --set {' '.join(args.sets)}: {rest}", file=sys.stderr)
                return 2
    if args.json:
        print(json.dumps(outcome.to_json(), indent=2))
    else:
        _print_outcome(outcome, verbose=args.verbose, controls=args.controls)
    return 0 if outcome.passed else 1


def _print_params(result: Any) -> None:
    from theory.common.setting import setting_fields

    fields = setting_fields(type(result.setting))
    print(f"{result.id}: keys --set takes (the {result.paper} Setting; defaults: the paper's)")
    for k in result.keys:
        f = fields[k]
        default = getattr(result.setting, k)
        shown = ",".join(map(str, default)) if isinstance(default, tuple) else default
        dom = f"; {f.domain}" if f.domain else ""
        print(f"  {k} ({f.type_text}{dom}) = {shown}")
        print(f"      {f.doc}")
    fixed = [c for c in result.checks if c.fixed]
    if fixed:
        print("checks that run at their own setting whatever --set says:")
        for c in fixed:
            print(f"  {c.path.rpartition(':')[2]}: {c.fixed}")
    controls = [(c, f, kw) for c in result.checks for f, kw in c.faults.items()]
    if controls:
        print("negative controls (--controls; faults planted through fault_* parameters):")
        for c, f, kw in controls:
            print(f"  {f!r} of {c.path.rpartition(':')[2]}: {_fault_text(kw)}")


def _cmd_check_setting(args: argparse.Namespace, result: Any) -> int:
    """``check`` for a settings-first result: one Setting for every check but the fixed ones."""
    from sims.verify import build_setting, check_hypotheses, verify_result

    if args.params:
        _print_params(result)
        return 0
    try:
        if args.sets:
            setting = build_setting(result, args.sets)
        else:
            setting = None
            for c in result.checks:  # the declared settings, validated before any work
                if c.takes_setting and not c.fixed:
                    check_hypotheses(result, c.at)
    except (ValueError, TypeError) as exc:
        print(f"icl-verify: error: {exc}", file=sys.stderr)
        return 2
    outcome = verify_result(
        result, quick=not args.full, seed=args.seed, controls=args.controls, setting=setting
    )
    if args.json:
        print(json.dumps(outcome.to_json(), indent=2))
        return 0 if outcome.passed else 1
    _print_outcome(outcome, verbose=args.verbose, controls=args.controls)
    return 0 if outcome.passed else 1


def _print_outcome(outcome: Any, *, verbose: bool, controls: bool) -> None:
    """The compact table(s) and the one-line summary of one result's run."""
    from sims.console import console, print_outcome

    print_outcome(console(), outcome, verbose=verbose, controls=controls)


def _fault_text(kw: dict) -> str:
    """``fault_scale=2.0, fault_gamma_fn=la_floor_over_4``: a function by its name, not its
    ``<function ... at 0x...>`` repr."""
    return ", ".join(f"{k}={_value_text(v)}" for k, v in kw.items())


def _value_text(v: Any) -> str:
    from theory.common.protocols import Ref

    if isinstance(v, Ref):
        return str(v).rpartition(":")[2]
    if callable(v) and not isinstance(v, type):
        name = getattr(v, "__qualname__", None) or getattr(v, "__name__", None)
        if name and name != "<lambda>":
            return str(name)
        return "a function (lambda)"
    return repr(v)


def _cmd_report(args: argparse.Namespace) -> int:
    from sims.parallel import spec_from_args
    from sims.report import write_report

    spec = spec_from_args(args.jobs, args.dask_local, args.scheduler, default_parallel=True)
    summary = write_report(
        args.out,
        quick=not args.full,
        seed=args.seed,
        ids=args.only,
        resume=args.resume,
        figures=not args.no_figures,
        executor_spec=spec,
        controls=args.controls,
        properties=not args.no_properties,
    )
    from sims.console import console, print_report, summary_line

    out = console()
    rows = print_report(
        out,
        summary.outcomes,
        mode="full" if args.full else "quick",
        seed=args.seed,
        verbose=args.verbose,
    )
    errors = [err for o in summary.outcomes for err in o.errors]
    props = (
        f"; trained properties over drawn settings: {summary.n_properties} run, "
        f"{summary.n_failed_properties} failed"
        if summary.n_properties
        else ""
    )
    if args.controls:
        from sims.render import headline_counts

        ctl = headline_counts(summary.outcomes)["controls"]
        props += (
            f"; negative controls: {ctl['rejected']} of {ctl['declared']} planted faults rejected"
        )
    out.print("")
    for path in summary.written:
        out.print(f"wrote {path}", soft_wrap=True)
    status = "PASS" if summary.passed else "FAIL"
    out.print(
        f"{status}: {summary_line(rows, errors, reasons=False)}{props}; "
        f"{summary.n_results} results, {summary.unique_checks} check functions, "
        f"{summary.n_checks} rows, {summary.wall_time:.1f} s. Report: "
        f"{Path(args.out) / 'report.html'}",
        soft_wrap=True,
    )
    return 0 if summary.passed else 1


def _cmd_sweep(args: argparse.Namespace) -> int:
    from sims.parallel import spec_from_args
    from sims.registry import get
    from sims.sweep import SweepSpec, parse_grid, parse_seeds, run_sweep
    from sims.sweep_grid import point_settings

    if (args.id is None) == (args.preset is None):
        raise ValueError("give a result id or --preset slug:name (one of them)")
    target = args.preset or args.id
    if args.device == "cuda":
        import torch

        if not torch.cuda.is_available():
            raise ValueError("--device cuda: no CUDA device is available here")
    grid = parse_grid(target, args.grid, preset=args.preset is not None)
    if not grid and args.seeds == "0":
        raise ValueError("nothing to sweep: give --grid KEY=V1,V2,... and/or --seeds")
    fixed = _sweep_fixed(target, args.sets, preset=args.preset is not None)
    spec = SweepSpec(
        target=target,
        grid=grid,
        seeds=parse_seeds(args.seeds),
        quick=not args.full,
        preset=args.preset is not None,
        device=args.device,
        fixed=fixed,
    )
    if fixed or (args.preset is None and get(target).settings_first):
        point_settings(spec)  # every point's Setting, validated before any work
    for key in args.plot:
        if key not in spec.keys:
            raise ValueError(f"--plot {key!r} is not a grid key; grid keys: {list(spec.keys)}")
    ex = spec_from_args(args.jobs, args.dask_local, args.scheduler, default_parallel=True)
    summary = run_sweep(
        spec, args.out, executor_spec=ex, resume=args.resume, plot=args.plot, loglog=args.loglog
    )
    from sims.console import console, print_sweep, summary_line

    out = console()
    fixed_text = ", ".join(f"{k}={v}" for k, v in spec.fixed)
    out.print(
        f"icl-verify sweep {target}: {'full' if args.full else 'quick'} tier, grid "
        + (", ".join(f"{k}={list(v)}" for k, v in spec.grid) or "(seeds only)")
        + f", seeds {list(spec.seeds)}"
        + (f"; fixed {fixed_text}" if fixed_text else ""),
        overflow="fold",
    )
    print_sweep(out, summary.evidence, spec.keys, summary.errors)
    rows = [e for _, _, e in summary.evidence]
    status = "PASS" if summary.passed else "FAIL"
    out.print(f"{status}: " + summary_line(rows, summary.errors), overflow="fold")
    out.print(
        f"{summary.n_cells} cells, {summary.n_rows} rows, {summary.n_failed} failed; "
        f"{summary.wall_time:.1f} s on {ex.describe()}. Table: "
        f"{Path(args.out) / 'sweep.csv'}",
        soft_wrap=True,
    )
    for png in summary.plots:
        out.print(f"plot: {png}", soft_wrap=True)
    return 0 if summary.passed else 1


def _sweep_fixed(target: str, sets: Sequence[str], *, preset: bool) -> tuple[tuple[str, Any], ...]:
    """``sweep --set KEY=VALUE`` values (a settings-first result only), typed."""
    if not sets:
        return ()
    from sims.registry import get
    from sims.verify import parse_setting_value
    from theory.common.setting import setting_fields

    result = None if preset else get(target)
    if result is None or not result.settings_first:
        raise ValueError(f"sweep --set: {target} takes its values through --grid only")
    fields = setting_fields(type(result.setting))
    out: dict[str, Any] = {}
    for opt in sets:
        if "=" not in opt:
            raise ValueError(f"--set {opt!r} must look like key=value")
        key, text = (s.strip() for s in opt.split("=", 1))
        if key in out:
            raise ValueError(f"--set {key} given twice; give each key once")
        if key not in result.keys:
            raise ValueError(
                f"--set: {result.id} takes no key {key!r}; keys: {', '.join(result.keys)}"
            )
        out[key] = parse_setting_value(key, text, fields[key].type)
    return tuple(out.items())


def _cmd_show(args: argparse.Namespace) -> int:
    from sims.registry import get
    from sims.show import format_map, result_map

    print(format_map(result_map(get(args.id))))
    return 0


def _cmd_compare(args: argparse.Namespace) -> int:
    from sims.compare import compare_files, format_comparison

    c = compare_files(args.old, args.new, rtol=args.rtol, papers=tuple(args.paper))
    print(format_comparison(c, limit=args.limit))
    return 0 if c.unchanged else 1


def _takes_setting(fn: Any) -> bool:
    import inspect

    return "setting" in inspect.signature(fn).parameters


def _cmd_figure(args: argparse.Namespace) -> int:
    """Draw a result's figures (at ``--set``'s Setting where a figure takes one); print each
    file written.  Bad keys or values exit 2 before anything is drawn."""
    from sims.registry import get, resolve
    from sims.report import figure_filename, save_figure
    from sims.verify import build_setting

    result = get(args.id)
    if not result.figures:  # a request nothing can answer: a usage error, before any work
        from sims.registry import all_results

        others = [r.id for r in all_results() if r.figures and r.paper == result.paper]
        hint = f"; {result.paper} results with figures: {', '.join(others)}" if others else ""
        print(f"icl-verify: error: {result.id} has no figures{hint}", file=sys.stderr)
        return 2
    fns = {path: resolve(path) for path in result.figures}
    setting = None
    if args.sets:
        if not result.settings_first:
            raise ValueError(
                f"figure {result.id} --set: {result.id} takes no --set (its checks run at their "
                "own values); its figures draw at the values their titles state"
            )
        setting = build_setting(result, args.sets)  # ValueError naming key and value: exit 2
        if not any(_takes_setting(fn) for fn in fns.values()):
            raise ValueError(
                f"figure {result.id} --set: none of its figures "
                f"({', '.join(p.rpartition(':')[2] for p in fns)}) draws at a given setting; "
                "they draw at the values their titles state (sweep ID --grid ... --plot KEY "
                "draws the checks over settings)"
            )
    out = Path(args.out)
    for path, fn in fns.items():
        target = out / figure_filename(path)
        kw: dict[str, Any] = {}
        if setting is not None:
            if _takes_setting(fn):
                kw["setting"] = setting
            else:
                print(
                    f"note: {path.rpartition(':')[2]} draws at its own values (stated in its "
                    "title); --set does not move it",
                    file=sys.stderr,
                )
        fig = fn(quick=not args.full, seed=args.seed, **kw)  # a refused value: no directory
        out.mkdir(parents=True, exist_ok=True)
        save_figure(fig, target)
        print(f"wrote {target}")
    return 0


def _set_torch_threads() -> None:
    """Tiny models train fastest on one thread on small CPUs (measured: cold quick report 58 s on
    one thread vs 220 s on the default two); BLAS likewise (:func:`sims.parallel.limit_threads`).
    ``ICL_VERIFY_TORCH_THREADS`` and ``ICL_VERIFY_BLAS_THREADS`` override."""
    from sims.parallel import limit_threads

    limit_threads()


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command in ("check", "report", "figure", "sweep"):
        _set_torch_threads()
    try:
        if args.command == "list":
            return _cmd_list(args)
        if args.command == "check":
            return _cmd_check(args)
        if args.command == "report":
            return _cmd_report(args)
        if args.command == "sweep":
            return _cmd_sweep(args)
        if args.command == "show":
            return _cmd_show(args)
        if args.command == "compare":
            return _cmd_compare(args)
        return _cmd_figure(args)
    except (KeyError, ValueError) as exc:
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"icl-verify: error: {msg}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
