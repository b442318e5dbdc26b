"""Bad input to an exported theory function raises ValueError/TypeError naming the parameter;
never a NaN, a silently wrong number or a hang (issue 12; harness in ``bad_input.py``)."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import numpy as np
import pytest

_spec = importlib.util.spec_from_file_location("bad_input", Path(__file__).with_name("bad_input.py"))
assert _spec is not None and _spec.loader is not None
harness = importlib.util.module_from_spec(_spec)
sys.modules["bad_input"] = harness
_spec.loader.exec_module(harness)


@pytest.fixture(scope="module")
def outcome():  # noqa: ANN201 - harness.HarnessResult
    with np.errstate(all="ignore"):
        return harness.run_harness()


def test_no_exported_function_accepts_bad_input(outcome) -> None:  # noqa: ANN001
    print(f"\nbad-input harness: {len(outcome.covered)} functions covered, "
          f"{len(outcome.skipped)} skipped, {outcome.calls} bad calls")
    for name in outcome.covered:
        print(f"  covered  {name}")
    for name, why in sorted(outcome.skipped.items()):
        print(f"  skipped  {name}: {why}")
    assert outcome.covered
    assert not outcome.failures, "\n".join(outcome.failures)


def test_harness_catches_an_unvalidated_function() -> None:
    """Negative control: a function that computes on NaN, a negative size and σ² < 0 is caught."""

    def unvalidated(N: int, sigma2: float) -> float:
        return sigma2 * (1 + 1 / N)

    def validated(N: int, sigma2: float) -> float:
        if not (isinstance(N, int) and N >= 1):
            raise ValueError(f"N must be an integer >= 1, got {N!r}")
        if not (isinstance(sigma2, float) and math.isfinite(sigma2) and sigma2 >= 0):
            raise ValueError(f"sigma2 must be finite and >= 0, got {sigma2!r}")
        return sigma2 * (1 + 1 / N)

    bad = harness.check_function("unvalidated", unvalidated)
    good = harness.check_function("validated", validated)
    assert any("sigma2=negative" in f for f in bad.failures)
    assert any("N=NaN" in f or "N=non-integer" in f for f in bad.failures)
    assert good.covered == ["validated"] and not good.failures
