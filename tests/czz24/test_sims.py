"""czz24 trained models at the full configuration (thorough tier, ``quick=False``): S1 over three
seeds, S2 with both head counts.  The quick runs of every torch check and their negative controls
are declared in sims/czz24/results.py and run by tests/test_registry.py."""

from __future__ import annotations

import pytest

from numerics.testing import assert_passed
from sims import czz24 as C
from theory.czz24.settings import PRESETS


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.thorough
@pytest.mark.result("czz24:s2")
def test_s2_trained_both_head_counts() -> None:
    assert_passed(C.check_s2_train(PRESETS["s2"], quick=False))


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.thorough
@pytest.mark.result("czz24:s1")
def test_s1_trained_three_seeds() -> None:
    assert_passed(C.check_s1_train(PRESETS["s1"], quick=False))
