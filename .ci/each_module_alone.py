"""Run every test module of the default suite alone, one pytest process each, in reverse order.

A test that passes only because another module ran first (Hypothesis draws partly from constants
found in the imported source, module-level state) fails here.  Each module runs in its own
process without pytest-xdist (``-n0``); ``--jobs`` such processes run at once.  The model cache is
whatever ``ICL_VERIFY_CACHE`` holds (CI runs this after the full suite, so trained models are
reused).  Exit status: non-zero if any module fails alone (pytest exit 5, "no test collected",
counts as a pass for a module whose tests all belong to a skipped tier).

    python .ci/each_module_alone.py [--only PATTERN] [--jobs N]
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--only", default="", help="run only modules whose path contains this")
    p.add_argument("--jobs", type=int, default=2, help="modules run at once (default 2)")
    args = p.parse_args()
    modules = sorted(
        str(f.relative_to(ROOT)) for f in (ROOT / "tests").rglob("test_*.py") if args.only in str(f)
    )
    failed = []
    t_all = time.perf_counter()

    def run(mod: str) -> tuple[str, float, subprocess.CompletedProcess[str]]:
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n0", mod],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        return mod, time.perf_counter() - t0, proc

    with cf.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for mod, seconds, proc in pool.map(run, list(reversed(modules))):
            tail = (proc.stdout.strip().splitlines() or [""])[-1]
            ok = proc.returncode in (0, 5)
            print(f"{'ok  ' if ok else 'FAIL'} {seconds:6.1f} s  {mod}: {tail}", flush=True)
            if not ok:
                failed.append(mod)
                print(proc.stdout[-3000:], flush=True)
    print(
        f"{len(modules) - len(failed)} of {len(modules)} modules pass alone "
        f"({time.perf_counter() - t_all:.0f} s)"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
