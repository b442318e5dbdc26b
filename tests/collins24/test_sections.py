"""collins24 App. G beyond pass/fail: the extent of Lemma G.3's upper-bound failure on the full
grid and the +1/2 reading.  Pass/fail and negative controls of every check: the registry test."""

from __future__ import annotations

import pytest


@pytest.mark.float
@pytest.mark.result("collins24:appG")
def test_g3_upper_bound_extent_and_plus_half_reading(declared_run) -> None:
    rows, error = declared_run("numerics.collins24.appG:check_appg_float_gamma")
    assert error is None
    by = {e.name: e for e in rows}
    ext = [e for n, e in by.items() if n.startswith("Lemma G.3 upper bound") and "violations" in n]
    assert len(ext) == 1 and ext[0].status == "discrepancy", [e.describe() for e in ext]
    d = ext[0].details
    assert (d["grid_points"], d["violations"], d["violations_at_m1"]) == (481, 95, 55)
    plus = [e for n, e in by.items() if "+1/2" in n]
    assert len(plus) == 1 and plus[0].status == "pass"


def test_g3_scale_rows_pass_at_alpha_other_than_one(declared_run) -> None:
    """Lemma G.3's scale Γ(d+1)/α^{d+1} is pinned against ∫₀^∞ t^d e^{−αt} dt where α ≠ 1."""
    rows, error = declared_run("numerics.collins24.appG:check_appg_float_gamma")
    assert error is None
    scale = [e for e in rows if e.name.startswith("Lemma G.3 scale")]
    assert len(scale) == 2 and all(e.status == "pass" for e in scale), [e.describe() for e in scale]
