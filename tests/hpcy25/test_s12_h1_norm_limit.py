"""Mutation triage (issue 35, session 12): [hpcy25] App. A.4's ``(1 − 2ω²)^{-d/2}`` needs
``2ω² < 1``; the refusal names ω, the open bound ±√½ and the assumption, whole."""

from __future__ import annotations

import pytest

import theory.hpcy25 as th

_A = r" \(needs 2ω² < 1 \(App\. A\.4\)\), got "


@pytest.mark.parametrize(
    ("omega", "msg"),
    [
        (0.5**0.5, r"^omega must be < 0\.707107" + _A + r"0\.7071067811865476$"),
        (-(0.5**0.5), r"^omega must be > -0\.707107" + _A + r"-0\.7071067811865476$"),
        (0.75, r"^omega must be < 0\.707107" + _A + r"0\.75$"),
        (-0.75, r"^omega must be > -0\.707107" + _A + r"-0\.75$"),
    ],
)
def test_softmax_norm_limit_refuses_two_omega_squared_ge_one(omega: float, msg: str) -> None:
    """At and past the open bound |ω| = √½ (where 1 − 2ω² ≤ 0) the limit is refused by name."""
    with pytest.raises(ValueError, match=msg):
        th.softmax_norm_limit(omega, 5)
