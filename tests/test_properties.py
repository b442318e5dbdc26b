"""Trained claims at any setting (STYLE R12).

One Hypothesis property per declared :class:`~theory.common.protocols.TrainedProperty`: settings
drawn from the theorem's hypotheses (derandomised), the trained check run at each, the TRAIN
contract asserted (within tolerance, outside every named alternative, started >= 3 units away).
Draws the check reports as not separable are discarded and counted; a failure shrinks to a minimal
setting and prints the ``icl-verify check ID --set ...`` line that replays it.  Default tier:
``examples`` draws per property; ``HYPOTHESIS_PROFILE=thorough``: ``thorough_examples``.
"""

from __future__ import annotations

import os

import pytest

from sims.properties import run_property
from sims.registry import all_properties

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE", "ci") == "thorough"
PROPS = all_properties()


@pytest.mark.train
@pytest.mark.slow
@pytest.mark.parametrize(
    "prop",
    [
        # each property is its own pytest-xdist work unit (they are the suite's longest tests)
        pytest.param(
            p,
            id=p.id,
            marks=[pytest.mark.result(p.result), pytest.mark.xdist_group(f"property-{p.id}")],
        )
        for p in PROPS
    ],
)
def test_trained_property(prop) -> None:
    n = prop.thorough_examples if THOROUGH else prop.examples
    out = run_property(prop, examples=n)
    lines = [
        f"{prop.id}: {out.drawn} drawn, {out.passed_count} passed, "
        f"{out.not_separable} not separable, {out.trapped} trapped, {out.untested} untested, "
        f"worst margin {out.worst_margin}"
    ]
    lines += [f"  {d.verdict:14s} {d.setting} ({d.seconds:.1f} s) {d.message}" for d in out.draws]
    if out.minimal_failing is not None:
        from sims.properties import replay_line

        lines.append(
            f"minimal failing setting: {out.minimal_failing}\n"
            f"replay: {replay_line(prop, out.minimal_failing)}"
        )
    if out.error:
        lines.append(out.error)
    assert out.passed, "\n".join(lines)
    assert out.passed_count >= min(n, 1)
