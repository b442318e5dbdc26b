"""App. B closed-form laws at generic points, by hand (issue 35 triage, session 12).

Expected values are exact arithmetic by hand at points where every factor is ≠ 0 and ≠ 1, plus
the ODEs the laws solve ([hpcy25] (B.5)–(B.6): ω' = 2sω; (B.17)–(B.18): ω' = −Kω³).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

import theory.hpcy25 as th
from numerics.testing import ROUTES_RTOL

pytestmark = pytest.mark.symbolic


def test_phase1_omega_exact_at_half_speed() -> None:
    """ω(t) = ε e^{2st}: at s = 1/2, t = log 2, ε = 3/1000 it is 2ε = 3/500 exactly; it solves
    ω' = 2sω, ω(0) = ε (the linearisation (B.5)-(B.6)); the float route agrees."""
    half = sp.Rational(1, 2)
    assert sp.simplify(th.phase1_omega(sp.log(2), sp.Rational(3, 1000), half)) == sp.Rational(
        3, 500
    )
    assert th.phase1_omega(math.log(2), 3e-3, 0.5) == pytest.approx(6e-3, rel=ROUTES_RTOL)
    # s = 2, t = log(3)/4: e^{2st} = e^{log 3} = 3
    assert th.phase1_omega(math.log(3) / 4, 3e-3, 2.0) == pytest.approx(9e-3, rel=ROUTES_RTOL)
    t, e, s = sp.symbols("t epsilon s", positive=True)
    w = th.phase1_omega(t, e, s)
    assert sp.simplify(sp.diff(w, t) - 2 * s * w) == 0
    assert w.subs(t, 0) == e


def test_heuristic_late_omega_exact_by_hand() -> None:
    """ω = (2Kt)^{-1/2}, K = s ξ(1+σ²) d²/(3κ²).  By hand at d = 6, L = 16, σ² = 1/3, s = 1/2:
    1+σ² = 4/3, ξ = 3/8, κ = 1 + 6·(4/3)/16 = 3/2, K = (1/2)(3/8)(4/3)(36)/(3·9/4) = 4/3, so
    ω(6) = (16)^{-1/2} = 1/4; at s = 1, K = 8/3 and ω(3/4) = 1/2."""
    r = sp.Rational
    assert th.heuristic_late_omega(r(6), r(6), r(16), r(1, 3), r(1, 2)) == r(1, 4)
    assert th.heuristic_late_omega(r(3, 4), r(6), r(16), r(1, 3)) == r(1, 2)
    assert th.heuristic_late_omega(6.0, 6, 16, 1 / 3, 0.5) == pytest.approx(0.25, rel=ROUTES_RTOL)
    # it solves the heuristic law omega' = -K omega^3 with K = 4/3 (s = 1/2)
    t = sp.Symbol("t", positive=True)
    w = th.heuristic_late_omega(t, r(6), r(16), r(1, 3), r(1, 2))
    assert sp.simplify(sp.diff(w, t) + r(4, 3) * w**3) == 0


def test_initial_state_refuses_other_head_counts_with_the_value() -> None:
    """Def. B.1 is the two-head start: H = 3 is refused, the message names H and the value."""
    with pytest.raises(ValueError, match=r"^Def\. B\.1 is the two-head initialisation, got H=3$"):
        th.initial_state(1e-3, 3)


@pytest.mark.parametrize(
    ("eps", "value"), [(2, 2.0), (Fraction(3, 1000), 0.003), (sp.Rational(3, 1000), 0.003)]
)
def test_initial_state_is_float_for_exact_eps(eps: object, value: float) -> None:
    """An integer or exact rational ε > 0 still gives the float64 state (ε, −ε, ε, −ε)."""
    y = th.initial_state(eps)
    assert y.dtype == np.float64
    assert y.tolist() == [value, -value, value, -value]
