"""zwb24 §6 rates (Lemma 6.1, Corollary 6.2): ``Σ_i min(λ_i, σ²/N)`` on exact-number eigenvalues
(mutation triage, issue 35)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

import theory.zwb24 as T
from numerics.testing import ROUTES_RTOL


@pytest.mark.float
@pytest.mark.result("zwb24:lem6.1")
@pytest.mark.result("zwb24:cor6.2")
@pytest.mark.parametrize("kind", [Fraction, Decimal])
def test_sum_min_takes_exact_eigenvalues_on_both_sides_of_the_cut(kind: type) -> None:
    """λ = (1, 0.01, 0.3) as Fraction / Decimal entries (@checked admits exact numbers: λ ≥ 0
    real) at σ²/N = 1/10 = 0.1: one λ below the cut, two above, so the sum mixes a λ_i with
    the float σ²/N.  By hand: 0.1 + 0.01 + 0.1 = 0.21, the float of the float input (a Decimal λ
    kept exact would meet the float cut in the sum: Decimal + float is a TypeError)."""
    lams = [kind("1"), kind("0.01"), kind("0.3")]
    got = T.sum_min(lams, 1.0, 10)
    assert isinstance(got, float)
    assert got == pytest.approx(0.21, rel=ROUTES_RTOL)
    assert got == T.sum_min([1.0, 0.01, 0.3], 1.0, 10)
