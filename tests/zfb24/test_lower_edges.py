"""zfb24 at the lower edges of its Setting (issue 31: a valid setting is never reported as a bug):
Lemma 9's count of negative eigenvalues at N < d is a ``discrepancy`` with §5.1's printed "at
least d + 1"; at d = 1 the rows that need d ≥ 2 (U₁₁ leaving the symmetric matrices, the
off-diagonal decay) are ``skipped`` with their numbers, and Lemma 18's bound, attained at d = 1,
is checked as an equality.  The full lower-edge sweep is tests/common/test_boundary_settings.py
(``ICL_VERIFY_EDGES=1``)."""

from __future__ import annotations

import pytest

from numerics.testing import assert_discrepancy, assert_passed, assert_status
from numerics.zfb24.sec3_model import check_lem9_float
from numerics.zfb24.sec4_1_convergence import check_thm4_ode
from numerics.zfb24.sec5_flow import check_flow_reductions_ode, check_lem10_ode
from theory.zfb24.settings import Setting


@pytest.mark.result("zfb24:lem9")
@pytest.mark.parametrize("N", [1, 2])
def test_lem9_count_is_rank_of_E_below_N_equal_d(N: int) -> None:
    """d = 3, N < d: E is 4 × (N + 1), so H has N + 1 negative eigenvalues (eigvalsh and the rank
    of E agree), not the paper's "at least d + 1": a discrepancy quoting §5.1, no fail."""
    rows = check_lem9_float(Setting(d=3, N=N, spectrum=None))
    assert_discrepancy(rows)
    counts = [r for r in rows if r.name.startswith("#negative")]
    assert len(counts) == 3
    for r in counts:
        assert r.status == "discrepancy", r.describe()
        assert r.details["eigvalsh_count"] == r.details["rank_E"] == N + 1
        assert r.details["claim"]["where"].startswith("§5.1")


@pytest.mark.result("zfb24:lem9")
def test_lem9_count_is_d_plus_1_from_N_equal_d() -> None:
    """At N = d the count is d + 1, as printed: every row passes."""
    rows = check_lem9_float(Setting(d=3, N=3, spectrum=None))
    assert_passed(rows)
    assert sum(r.name.startswith("#negative") for r in rows) == 3


@pytest.mark.ode
@pytest.mark.result("zfb24:lem10")
def test_lem10_symmetry_row_skipped_at_d_1() -> None:
    """At d = 1 U₁₁ is 1×1 (always symmetric): that row is skipped with its number; the other
    rows (balancedness, monotone loss, semigroup, limit) pass."""
    rows = check_lem10_ode(Setting(d=1, N=8, spectrum=None))
    assert_status(rows, "skipped")
    (sym,) = [r for r in rows if "symmetric" in r.name]
    assert sym.status == "skipped" and sym.details["asymmetry"] == 0.0
    assert "d = 1" in sym.details["why"]
    assert all(r.status == "pass" for r in rows if r is not sym)


@pytest.mark.ode
@pytest.mark.result("zfb24:flow_reductions")
def test_flow_reductions_offdiagonal_row_skipped_at_d_1() -> None:
    rows = check_flow_reductions_ode(Setting(d=1, N=8, spectrum=None))
    off, reduced = rows
    assert off.status == "skipped" and off.details["offdiagonal_entries"] == 0
    assert "d = 1" in off.details["why"]
    assert reduced.status == "pass", reduced.describe()


@pytest.mark.ode
@pytest.mark.result("zfb24:thm4")
def test_thm4_lemma18_bound_is_an_equality_at_d_1() -> None:
    """At d = 1 (ΘΘᵀ = 1) both sides of Lemma 18's bound are (σ²/2)λ²(σ²γ − 2): the row checks
    the equality to float precision (at d ≥ 2 it is the strict ordering, as before)."""
    rows = check_thm4_ode(Setting(d=1, N=16, spectrum=(0.5,)))
    assert_passed(rows)
    (eq,) = [r for r in rows if "Lemma 18's bound" in r.name]
    assert eq.kind == "FLOAT" and "attained at d = 1" in eq.name
