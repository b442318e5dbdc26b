"""Seconds per trained property example, per family, cold, on one core; prints ratios.

    python benchmarks/train_settings.py [--examples 5] [--only zfb24:thm4/any-setting ...]

For each declared :class:`~theory.common.protocols.TrainedProperty` (``icl-verify`` registry) it
runs, in one process with an empty model cache and ``torch.set_num_threads(1)``:

* the **baseline**: the trained check at its defaults (today's preset), once;
* the **property**: ``--examples`` drawn settings (derandomised, as the tests draw them),

and prints the median seconds per drawn example, examples per minute, the not-separable count, the
seconds of all drawn settings together (``drawn s``: with ``--examples 3`` the quick report's draws
of the property, a not-separable draw included) and the ratio of the preset's time to the median
example's (both measured here, in this run); a last line sums ``drawn s`` over the properties.  Goal
: median <= 5 s per example at d <= 6 (<= 15 s for the
H-head softmax).  Nothing here is asserted: the numbers are for the notes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--examples", type=int, default=5)
    p.add_argument("--only", nargs="+", metavar="PROPERTY_ID")
    args = p.parse_args(argv)
    cache = tempfile.mkdtemp(prefix="icl-bench-cache-")
    os.environ["ICL_VERIFY_CACHE"] = cache  # cold: every model is trained here

    import torch

    torch.set_num_threads(1)
    from sims.properties import run_property
    from sims.registry import all_properties
    from sims.verify import run_check_safely

    props = [q for q in all_properties() if not args.only or q.id in args.only]
    if not props:
        print("no trained property declared (or none matches --only)", file=sys.stderr)
        return 1
    print(f"cold cache {cache}, 1 torch thread, {args.examples} examples per property")
    print(
        f"{'property':46s} {'preset s':>9s} {'median s':>9s} {'ex/min':>7s} {'n.sep':>5s} "
        f"{'drawn s':>8s} {'preset/median':>13s}"
    )
    total = 0.0
    for prop in props:
        t0 = time.perf_counter()
        _, err = run_check_safely(prop.check)
        preset = time.perf_counter() - t0
        out = run_property(prop, examples=args.examples, shrink=False)
        secs = [d.seconds for d in out.draws if d.verdict != "not_separable"] or [
            d.seconds for d in out.draws
        ]
        med = statistics.median(secs) if secs else float("nan")
        total += out.seconds_drawn
        print(
            f"{prop.id:46s} {preset:9.2f} {med:9.2f} {60.0 / med:7.1f} "
            f"{out.not_separable:5d} {out.seconds_drawn:8.2f} {preset / med:13.2f}"
            + ("" if out.passed else "  (property did not pass)")
            + (f"  preset error: {err.splitlines()[0]}" if err else "")
        )
    print(f"{'all properties: drawn settings':46s} {'':9s} {'':9s} {'':7s} {'':5s} {total:8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
