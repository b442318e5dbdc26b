"""Seed robustness of the Monte Carlo checks: no flaky failures.

Run ``python benchmarks/seed_robustness.py [--seeds 20] [--first 1] [--papers KEY ...]
[--out seed_robustness.json]`` (``--papers collins24 czz24``: only those papers' results).

Every registered check function whose quick-tier evidence at seed 0 contains an MC row is run
again, quick tier, under ``--seeds`` further seeds (``--first`` .. ``--first + seeds − 1``).
A check that trains a torch model (``sims.*``) is left out: its seeds are the trained-routes
sweep's job.  The script counts failed MC rows (and any other failed row or error of those
checks) per seed.

At z = 5 a correct MC row fails with probability ≈ 5.7e-7, so the goal over 20 seeds × all MC rows
is 0 failures; a row that fails is a bug to fix, not a seed to avoid.

Progress is printed per (seed, check); the JSON output is written atomically after every seed and
``--resume`` continues from it, so a killed run loses at most one seed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # runnable from a source checkout

from sims.cache import atomic_write_bytes  # noqa: E402
from sims.registry import all_results  # noqa: E402
from sims.verify import run_check  # noqa: E402


def mc_checks(papers: list[str] | None = None) -> list[tuple[str, int]]:
    """``(check path, MC rows at seed 0)`` of every untrained check with an MC row (of the results
    of ``papers``, by key, if given)."""
    paths = sorted(
        {
            c
            for r in all_results()
            for c in r.checks
            if not c.startswith("sims.") and (not papers or r.id.split(":")[0] in papers)
        }
    )
    out = []
    for p in paths:
        rows = run_check(p, quick=True, seed=0)
        n_mc = sum(e.kind == "MC" for e in rows)
        if n_mc:
            out.append((p, n_mc))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--out", default="seed_robustness.json")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--papers", nargs="*", default=None, help="paper keys (default: all)")
    args = ap.parse_args(argv)
    out = Path(args.out)
    state: dict = {"seeds": {}, "checks": None}
    if args.resume and out.exists():
        state = json.loads(out.read_text())
    t0 = time.perf_counter()
    if state["checks"] is None:
        state["checks"] = [[p, n] for p, n in mc_checks(args.papers)]
        state["papers"] = args.papers
    checks = [(p, int(n)) for p, n in state["checks"]]
    print(f"{len(checks)} checks with {sum(n for _, n in checks)} MC rows at seed 0", flush=True)
    for seed in range(args.first, args.first + args.seeds):
        if str(seed) in state["seeds"]:
            continue
        rec = {"mc_rows": 0, "mc_failed": [], "other_failed": [], "errors": []}
        for path, _ in checks:
            try:
                rows = run_check(path, quick=True, seed=seed)
            except Exception as exc:  # noqa: BLE001 - counted, reported
                rec["errors"].append(f"{path}: {type(exc).__name__}: {exc}")
                continue
            for e in rows:
                if e.kind == "MC":
                    rec["mc_rows"] += 1
                    if not e.passed:
                        rec["mc_failed"].append(f"{path} :: {e.name} ({e.error:.2f} units)")
                elif not e.passed:
                    rec["other_failed"].append(f"{path} :: {e.name} [{e.kind}]")
        state["seeds"][str(seed)] = rec
        atomic_write_bytes(out, (json.dumps(state, indent=1) + "\n").encode())
        print(
            f"seed {seed}: {rec['mc_rows']} MC rows, {len(rec['mc_failed'])} failed, "
            f"{len(rec['other_failed'])} other rows failed, {len(rec['errors'])} errors "
            f"({time.perf_counter() - t0:.0f} s)",
            flush=True,
        )
        for line in rec["mc_failed"] + rec["other_failed"] + rec["errors"]:
            print("   ", line, flush=True)
    seeds = state["seeds"].values()
    total = sum(s["mc_rows"] for s in seeds)
    failed = sum(len(s["mc_failed"]) for s in seeds)
    other = sum(len(s["other_failed"]) + len(s["errors"]) for s in seeds)
    print(
        f"TOTAL: {len(state['seeds'])} seeds, {total} MC rows, {failed} MC failures, "
        f"{other} other failures/errors"
    )
    return 0 if failed == 0 and other == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
