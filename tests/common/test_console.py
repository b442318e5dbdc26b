"""The one-line summary of ``check``/``sweep``/``report`` names a power skip with its numbers."""

from __future__ import annotations

from numerics.testing import mc_agreement
from sims.console import summary_line
from theory.common.protocols import Estimate


def test_summary_line_gives_a_power_skip_with_the_sample_it_needs() -> None:
    """se/scale 3 % > 2 % at n = 1000: skipped (never a fail), and the summary says how many
    samples would resolve it; a well-powered row beside it passes."""
    weak = mc_agreement("risk, weak", 1.0, Estimate(1.01, 0.03, 1000))
    strong = mc_agreement("risk, strong", 1.0, Estimate(1.001, 0.005, 40_000))
    assert (weak.status, strong.status) == ("skipped", "pass")
    line = summary_line([weak, strong], width=200)
    assert "se/scale 3.0 % > 2 %" in line and "needs about n = 2250" in line
