"""Cold quick report, serial against ``--jobs N``, in one run; prints the ratio.

    python benchmarks/report_parallel.py [--jobs 2] [--only ID ...] [--keep DIR]

Each run gets its own empty cache directory (cold: every model is trained) and its own output
directory; the two ``results.json`` files are compared byte for byte (the parallel report must
reproduce the serial one).  The report runs on every core by default; ``--jobs 1`` is the serial
baseline.  Each run is a fresh ``icl-verify report`` process, timed from the
outside, so the import and worker start-up costs are included.  Goal: ratio ≥ 1.6× on
2 cores.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(out: Path, cache: Path, extra: list[str], only: list[str] | None) -> float:
    env = {**os.environ, "ICL_VERIFY_CACHE": str(cache), "MPLBACKEND": "Agg"}
    cmd = [sys.executable, "-m", "sims.cli", "report", "--quick", "--out", str(out), *extra]
    if only:
        cmd += ["--only", *only]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        raise SystemExit(f"report failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    print(f"  {' '.join(extra) or 'serial':10s} {wall:7.1f} s   {proc.stdout.strip()[:120]}")
    return wall


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--only", nargs="+", default=None, metavar="ID")
    p.add_argument("--keep", default=None, help="keep the two reports under this directory")
    args = p.parse_args(argv)
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="icl-bench-"))
    base.mkdir(parents=True, exist_ok=True)
    print(f"cold quick report, cpus={os.cpu_count()}, load={os.getloadavg()[0]:.2f}")
    serial = run(base / "serial", base / "cache-serial", ["--jobs", "1"], args.only)
    par = run(base / "jobs", base / "cache-jobs", ["--jobs", str(args.jobs)], args.only)
    same = (base / "serial" / "results.json").read_bytes() == (
        base / "jobs" / "results.json"
    ).read_bytes()
    print(
        f"serial {serial:.1f} s, --jobs {args.jobs} {par:.1f} s: ratio {serial / par:.2f}x; "
        f"results.json byte-identical: {same}"
    )
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
