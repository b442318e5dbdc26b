"""[czz24] Thm 5.1's stopping time ``(ηt)*``: refused where ``log(d/δ) ≤ 0``, pinned elsewhere."""

from __future__ import annotations

import math

import pytest

from numerics.testing import FLOAT_RTOL
from theory.czz24 import eta_t_star_51, thm51_bound


@pytest.mark.result("czz24:thm5.1")
def test_eta_t_star_51_refuses_delta_not_below_d() -> None:
    # δ ≥ d makes log(d/δ) ≤ 0: the bracket's square root would be of a negative (or 1/0), so the
    # refusal names d, δ and the assumption instead of returning NaN / inf
    with pytest.raises(
        ValueError, match=r"^delta must be < d so that log\(d/δ\) > 0 .*d = 2, delta = 8\.0$"
    ):
        eta_t_star_51(4, 1.0, 1, 1.0, 4.0, 48.0, 2, 8.0)
    with pytest.raises(ValueError, match=r"^delta must be < d .*d = 3, delta = 3\.0$"):
        eta_t_star_51(4, 1.0, 1, 1.0, 4.0, 48.0, 3, 3.0)


@pytest.mark.result("czz24:thm5.1")
def test_eta_t_star_51_at_a_generic_point() -> None:
    # (ηt)* = (1/β)[σ² a L/n + σ² s TrΣ L²/n²]^(-1/2) with L = log(d/δ) = log 5, by hand
    n, s2, s, beta, a, trS, d, dl = 9, 0.3, 2, 0.6, 1.7, 5.5, 5, 1.0
    L = math.log(5.0)
    want = 1 / (beta * math.sqrt(s2 * a * L / n + s2 * s * trS * L**2 / n**2))
    assert float(eta_t_star_51(n, s2, s, beta, a, trS, d, dl)) == pytest.approx(
        want, rel=FLOAT_RTOL
    )


@pytest.mark.result("czz24:thm5.1")
def test_thm51_bound_refuses_delta_not_below_d() -> None:
    # the bound's log(d/δ) ≤ 0 at δ ≥ d: refused, naming d and δ (no NaN from a negative root)
    with pytest.raises(
        ValueError, match=r"^delta must be < d so that log\(d/δ\) > 0 .*d = 2, delta = 8\.0$"
    ):
        thm51_bound(4, math.e, 1.0, 1, 1.0, 4.0, 48.0, 2, 8.0)
