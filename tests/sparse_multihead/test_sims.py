"""czz24 trained models at the full configuration (thorough tier, ``quick=False``): S1 over three
seeds, S2 with both head counts.  The quick runs of every torch check and their negative controls
are declared in theory/sparse_multihead/results.py and run by tests/test_registry.py."""

from __future__ import annotations

import pytest

from numerics.testing import assert_passed
from sims.checks import sparse_multihead as C


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.thorough
@pytest.mark.result("czz24:s2")
def test_s2_trained_both_head_counts() -> None:
    assert_passed(C.check_s2_train(quick=False))


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.thorough
@pytest.mark.result("czz24:s1")
def test_s1_trained_three_seeds() -> None:
    assert_passed(C.check_s1_train(quick=False))
