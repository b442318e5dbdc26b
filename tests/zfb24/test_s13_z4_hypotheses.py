"""Session 13 triage (z4): theory/zfb24/hypotheses.py — every refusal's message asserted whole,
the edges of each bound accepted, and the Setting wrappers passing their fields through.

Condition values are worked by hand: at d = 1, Γ = λ(N + 2)/N, so σ²‖Γ‖_op√d = σ²λ(N + 2)/N;
at Λ = diag(0.5, 1, 2), N = 6: ‖Γ‖_op = (7/6)·2 + 3.5/6 = 35/12, and with σ = 1.2,
σ²‖Γ‖_op√3 = 1.44·(35/12)·√3 = 4.2·√3 = 7.2746..."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from theory.zfb24.hypotheses import (
    thm4_hypotheses,
    thm8_hypotheses,
    validate_thm4_setting,
    validate_thm8_setting,
)
from theory.zfb24.settings import Setting

SPEC3 = (0.5, 1.0, 2.0)
THM4_N_WHY = "the training prompt length; the trained rows name Γ with N → N−1, which needs N ≥ 2"
THM8_N_WHY = "the training prompt length; the trained rows name δ(N−1), which needs N ≥ 2"


def _whole(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


@pytest.mark.parametrize(
    ("args", "msg"),
    [
        ((0, 6, (), 0.3), "d=0 must be an integer ≥ 1 (the covariate dimension)"),
        ((True, 6, (1.0,), 0.3), "d=True must be an integer ≥ 1 (the covariate dimension)"),
        ((3.0, 6, SPEC3, 0.3), "d=3.0 must be an integer ≥ 1 (the covariate dimension)"),
        ((9, 6, (1.0,) * 9, 0.1), "d=9 > 8: beyond the trained route's range (d ≤ 8)"),
        ((3, 1, SPEC3, 0.3), f"N=1 must be an integer ≥ 2 ({THM4_N_WHY})"),
        ((3, True, SPEC3, 0.3), f"N=True must be an integer ≥ 2 ({THM4_N_WHY})"),
        ((3, 6.0, SPEC3, 0.3), f"N=6.0 must be an integer ≥ 2 ({THM4_N_WHY})"),
        (
            (3, 6, [1, 2], 0.3),
            "spectrum=(1.0, 2.0) has 2 eigenvalues; Λ = diag(spectrum) must be d×d with d = 3 "
            "(zfb24 §3.3)",
        ),
        (
            (3, 6, (0.5, 1.0, 2.0, 3.0), 0.3),
            "spectrum=(0.5, 1.0, 2.0, 3.0) has 4 eigenvalues; Λ = diag(spectrum) must be d×d "
            "with d = 3 (zfb24 §3.3)",
        ),
        *[
            (
                (3, 6, spec, 0.3),
                f"spectrum={spec!r}: Λ must be positive definite, every eigenvalue > 0 and "
                "finite (zfb24 §3.3)",
            )
            for spec in [
                (0.5, 0.0, 2.0),
                (0.5, -1.0, 2.0),
                (0.5, math.inf, 2.0),
                (0.5, math.nan, 2.0),
            ]
        ],
        ((3, 6, SPEC3, 0), "sigma_init=0 must be > 0 (zfb24 Assumption 3)"),
        ((3, 6, SPEC3, -0.25), "sigma_init=-0.25 must be > 0 (zfb24 Assumption 3)"),
        ((3, 6, SPEC3, math.inf), "sigma_init=inf must be > 0 (zfb24 Assumption 3)"),
        ((3, 6, SPEC3, math.nan), "sigma_init=nan must be > 0 (zfb24 Assumption 3)"),
        (
            (3, 6, SPEC3, 1.2),
            "sigma_init=1.2 breaks zfb24 Assumption 3 / Theorem 4: σ²‖Γ‖_op√d = 7.27 must be "
            "< 2 (Λ = diag(0.5, 1.0, 2.0), N = 6)",
        ),
        # the edge: σ²λ(N + 2)/N = 1·1·4/2 = 2 exactly (d = 1) is refused (the bound is strict)
        (
            (1, 2, (1.0,), 1.0),
            "sigma_init=1.0 breaks zfb24 Assumption 3 / Theorem 4: σ²‖Γ‖_op√d = 2 must be "
            "< 2 (Λ = diag(1.0,), N = 2)",
        ),
    ],
)
def test_validate_thm4_setting_messages_whole(args: tuple, msg: str) -> None:
    with pytest.raises(ValueError, match=_whole(msg)):
        validate_thm4_setting(*args)


@pytest.mark.parametrize(
    "args",
    [
        (1, 2, (1.0,), 0.9),  # the smallest d and N; σ²λ(N+2)/N = 0.81·2 = 1.62 < 2
        (np.int64(3), np.int64(6), np.array(SPEC3), 0.3),  # numpy integers are integers
        (8, 2, (1.0,) * 8, 0.3),  # d = 8 is in range: Γ = 5.5·I, 0.09·5.5·√8 = 1.40 < 2
        (3, 6, [1, 2, 3], 0.3),  # integer eigenvalues
    ],
)
def test_validate_thm4_setting_accepts_the_edges(args: tuple) -> None:
    assert validate_thm4_setting(*args) is None


@pytest.mark.parametrize(
    ("args", "msg"),
    [
        ((0, 3), "d=0 must be an integer ≥ 1 (the covariate dimension)"),
        ((True, 3), "d=True must be an integer ≥ 1 (the covariate dimension)"),
        ((2.0, 3), "d=2.0 must be an integer ≥ 1 (the covariate dimension)"),
        ((9, 3), "d=9 > 8: beyond the trained route's range (d ≤ 8)"),
        ((5, 1), f"N=1 must be an integer ≥ 2 ({THM8_N_WHY})"),
        ((5, False), f"N=False must be an integer ≥ 2 ({THM8_N_WHY})"),
        ((5, 3.0), f"N=3.0 must be an integer ≥ 2 ({THM8_N_WHY})"),
    ],
)
def test_validate_thm8_setting_messages_whole(args: tuple, msg: str) -> None:
    with pytest.raises(ValueError, match=_whole(msg)):
        validate_thm8_setting(*args)


@pytest.mark.parametrize("args", [(1, 2), (8, 2), (np.int64(8), np.int64(2))])
def test_validate_thm8_setting_accepts_the_edges(args: tuple) -> None:
    assert validate_thm8_setting(*args) is None


def test_thm4_hypotheses_pass_the_settings_fields() -> None:
    with pytest.raises(
        ValueError,
        match=_whole(
            "spectrum=None: Theorem 4's checks run at Λ = diag(spectrum); give d eigenvalues "
            "(zfb24 §3.3)"
        ),
    ):
        thm4_hypotheses(Setting(d=3, N=6, spectrum=None))
    with pytest.raises(
        ValueError,
        match=_whole(
            "sigma_init=1.2 breaks zfb24 Assumption 3 / Theorem 4: σ²‖Γ‖_op√d = 7.27 must be "
            "< 2 (Λ = diag(0.5, 1.0, 2.0), N = 6)"
        ),
    ):
        thm4_hypotheses(Setting(d=3, N=6, spectrum=SPEC3, sigma_init=1.2))
    with pytest.raises(ValueError, match=_whole(f"N=1 must be an integer ≥ 2 ({THM4_N_WHY})")):
        thm4_hypotheses(Setting(d=3, N=1, spectrum=SPEC3))
    with pytest.raises(
        ValueError, match=_whole("d=9 > 8: beyond the trained route's range (d ≤ 8)")
    ):
        thm4_hypotheses(Setting(d=9, N=6, spectrum=(1.0,) * 9, sigma_init=0.1))
    assert thm4_hypotheses(Setting(d=3, N=6, spectrum=SPEC3, sigma_init=0.3)) is None


def test_thm8_hypotheses_pass_the_settings_fields() -> None:
    with pytest.raises(ValueError, match=_whole(f"N=1 must be an integer ≥ 2 ({THM8_N_WHY})")):
        thm8_hypotheses(Setting(d=5, N=1, spectrum=None))
    with pytest.raises(
        ValueError, match=_whole("d=9 > 8: beyond the trained route's range (d ≤ 8)")
    ):
        thm8_hypotheses(Setting(d=9, N=3, spectrum=None))
    assert thm8_hypotheses(Setting(d=8, N=2, spectrum=None)) is None
