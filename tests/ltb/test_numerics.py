"""zwb24 numerics beyond pass/fail (spec 002 C3–C16): the thorough tier of Thm 4.1 and the
explicit-generator discipline.  Each check and its negative controls run in
``tests/test_registry.py`` from their declarations in ``theory/ltb/results.py``."""

from __future__ import annotations

import pytest

from numerics.ltb import checks_mlp_gap, checks_model
from numerics.testing import assert_passed


@pytest.mark.thorough
@pytest.mark.result("zwb24:thm4.1")
def test_thm41_full() -> None:
    assert_passed(checks_mlp_gap.check_thm4_1_optim_gap(quick=False))
    assert_passed(checks_mlp_gap.check_thm4_1_rate(quick=False))


@pytest.mark.mc
@pytest.mark.result("zwb24:eq-ltb-risk")
def test_same_seed_same_evidence() -> None:
    """Explicit-generator discipline (STYLE R8): the same seed gives identical evidence."""
    a, b = checks_model.check_eq_ltb_risk_mc(seed=7), checks_model.check_eq_ltb_risk_mc(seed=7)
    assert [e.observed for e in a] == [e.observed for e in b]
    assert checks_model.check_eq_ltb_risk_mc(seed=8)[0].observed != a[0].observed
