"""Mutation triage (issue 35, session 12) of [hpcy25] §5.1's length-generalisation limits: the
``L' → ∞`` limits of the softmax (fixed-η DGD) risk and of one head, pinned at generic points by
exact arithmetic and by the limit of the finite-``L'`` risk ``R_D(η; L')`` (appD's builder)."""

from __future__ import annotations

import pytest
import sympy as sp

import theory.hpcy25 as th
from numerics.testing import FLOAT_RTOL
from theory.hpcy25.appD_optimality import dgd_risk_expr

_R = sp.Rational


def _dgd_limit(eta: sp.Expr, d: sp.Expr, sigma2: sp.Expr) -> sp.Expr:
    """``lim_{L'→∞} R_D(η; L')`` of the exact finite-L risk (an independent route)."""
    Lp = sp.Symbol("Lp", positive=True)
    return sp.simplify(sp.limit(dgd_risk_expr(eta, d, Lp, sigma2), Lp, sp.oo))


@pytest.mark.parametrize(
    ("eta", "sigma2", "want"),
    [
        # σ² + (1 − η)² by hand: 1/5 + (7/10)² = 69/100
        (_R(3, 10), _R(1, 5), _R(69, 100)),
        # η past 1 (over-shooting step): 1/4 + (−3/5)² = 1/4 + 9/25 = 61/100
        (_R(8, 5), _R(1, 4), _R(61, 100)),
    ],
)
def test_softmax_length_limit_pinned_exact_and_float(
    eta: sp.Rational, sigma2: sp.Rational, want: sp.Rational
) -> None:
    """``σ² + (1 − η)²`` at η ≠ 0, 1: exact for SymPy input, the same value as a float, and the
    ``L' → ∞`` limit of ``R_D(η; L')`` (at d = 5)."""
    assert sp.simplify(th.softmax_length_limit(eta, sigma2) - want) == 0
    assert _dgd_limit(eta, sp.Integer(5), sigma2) == want
    got = th.softmax_length_limit(float(eta), float(sigma2))
    assert got == pytest.approx(float(want), rel=FLOAT_RTOL)


@pytest.mark.parametrize(
    ("omega", "mu", "sigma2", "want"),
    [
        # ωμ = 3/5: 1/5 + (2/5)² = 9/25
        (_R(3, 10), sp.Integer(2), _R(1, 5), _R(9, 25)),
        # ωμ = −3/5 (opposite signs): 1/10 + (8/5)² = 1/10 + 64/25 = 133/50
        (_R(-2, 5), _R(3, 2), _R(1, 10), _R(133, 50)),
    ],
)
def test_single_head_length_limit_pinned_exact_and_float(
    omega: sp.Rational, mu: sp.Expr, sigma2: sp.Rational, want: sp.Rational
) -> None:
    """``σ² + (1 − ωμ)²`` at a generic head: exact for SymPy input, the same as a float, and the
    ``L' → ∞`` limit of ``R_D(ωμ; L')`` (one head is DGD with step ωμ; at d = 3)."""
    assert sp.simplify(th.single_head_length_limit(omega, mu, sigma2) - want) == 0
    assert _dgd_limit(omega * mu, sp.Integer(3), sigma2) == want
    got = th.single_head_length_limit(float(omega), float(mu), float(sigma2))
    assert got == pytest.approx(float(want), rel=FLOAT_RTOL)
