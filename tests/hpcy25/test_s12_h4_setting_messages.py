"""Checks the mutation triage of issue 35 asked for in [hpcy25]'s settings (session 12): every
field :class:`Setting` and :class:`HpcySetting` refuse, with its message WHOLE (the symbol, the
paper's assumption, the value), the boundary values each accepts, and the values they store."""

from __future__ import annotations

import math
from typing import Any

import pytest

from theory.hpcy25.settings import HpcySetting, Setting

_L_WHY = r"hpcy25 §2: the prompt length \(the softmax over one context token is constant\)"
_S2_WHY = r"hpcy25 §2: the label-noise variance σ² ≥ 0"
_RHO_WHY = r"hpcy25 §5\.3: the KMS covariance is positive definite for \|ρ\| < 1"


@pytest.mark.parametrize(
    ("change", "msg"),
    [
        ({"d": 0}, r"^d must be ≥ 1 \(hpcy25 §2: the covariate dimension\), got 0$"),
        ({"d": 2.5}, r"^d must be an integer \(hpcy25 §2: the covariate dimension\), got 2\.5$"),
        ({"L": 1}, rf"^L must be ≥ 2 \({_L_WHY}\), got 1$"),
        ({"L": 3.0}, rf"^L must be an integer \({_L_WHY}\), got 3\.0$"),
        ({"H": 0}, r"^H must be ≥ 1 \(hpcy25 \(2\.2\): the number of heads\), got 0$"),
        ({"H": True}, r"^H must be an integer \(hpcy25 \(2\.2\): the number of heads\), got True$"),
        ({"sigma2": -0.1}, rf"^sigma2 must be ≥ 0 \({_S2_WHY}\), got -0\.1$"),
        ({"sigma2": math.nan}, rf"^sigma2 must be finite \({_S2_WHY}\), got nan$"),
        ({"sigma2": "0.1"}, rf"^sigma2 must be a real number \({_S2_WHY}\), got '0\.1'$"),
        (
            {"omega": 0},
            r"^omega must be > 0 \(hpcy25 \(4\.6\): the pair's KQ scale ω > 0\), got 0$",
        ),
        (
            {"omega": -0.25},
            r"^omega must be > 0 \(hpcy25 \(4\.6\): the pair's KQ scale ω > 0\), got -0\.25$",
        ),
        ({"eta": 0.0}, r"^eta must be > 0 \(hpcy25 \(4\.11\): a GD step η > 0\), got 0\.0$"),
        ({"eps": 0}, r"^eps must be > 0 \(hpcy25 Def\. B\.1: the initial scale ε > 0\), got 0$"),
        ({"rho": -1}, rf"^rho must be > -1 \({_RHO_WHY}\), got -1$"),
        ({"rho": 1}, rf"^rho must be < 1 \({_RHO_WHY}\), got 1$"),
        ({"rho": 1.5}, rf"^rho must be < 1 \({_RHO_WHY}\), got 1\.5$"),
        ({"rho": math.inf}, rf"^rho must be finite \({_RHO_WHY}\), got inf$"),
    ],
)
def test_setting_messages_whole(change: dict[str, Any], msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        Setting(**change)


def test_setting_accepts_its_boundaries_and_stores_floats() -> None:
    # the closed bounds (d = 1, L = 2, H = 1, σ² = 0) are in the domain; integer reals are stored as
    # float (the validator's return value), every other value unchanged
    s = Setting(d=1, L=2, H=1, sigma2=0, omega=2, eta=3, eps=1, rho=0)
    assert (s.d, s.L, s.H) == (1, 2, 1)
    values = (s.sigma2, s.omega, s.eta, s.eps, s.rho)
    assert values == (0.0, 2.0, 3.0, 1.0, 0.0)
    assert all(type(v) is float for v in values)
    t = Setting(rho=-0.75, sigma2=0.25, omega=0.5)
    assert (t.rho, t.sigma2, t.omega) == (-0.75, 0.25, 0.5)
    assert Setting(rho=0.999).rho == 0.999


_BASE: dict[str, Any] = {
    "d": 5,
    "L": 40,
    "sigma2": 0.1,
    "omega": (0.13, -0.13),
    "mu": (3.45, -3.45),
}
_LEN = r"^omega and mu must have the same length H ≥ 1 \(hpcy25 \(3\.1\)\), got "


@pytest.mark.parametrize(
    ("change", "msg"),
    [
        ({"d": 0}, r"^d must be ≥ 1 \(hpcy25 §1\.1: dimension d ≥ 1\), got 0$"),
        ({"d": 2.5}, r"^d must be an integer \(hpcy25 §1\.1: dimension d ≥ 1\), got 2\.5$"),
        ({"L": 1}, r"^L must be ≥ 2 \(hpcy25 §1\.1: prompt length L ≥ 2\), got 1$"),
        ({"L": 4.0}, r"^L must be an integer \(hpcy25 §1\.1: prompt length L ≥ 2\), got 4\.0$"),
        (
            {"sigma2": -0.5},
            r"^sigma2 must be ≥ 0 \(hpcy25 §1\.1: noise variance σ² ≥ 0\), got -0\.5$",
        ),
        (
            {"sigma2": math.nan},
            r"^sigma2 must be finite \(hpcy25 §1\.1: noise variance σ² ≥ 0\), got nan$",
        ),
        ({"omega": (0.1,)}, _LEN + r"1 and 2$"),
        ({"mu": (1.0, 2.0, 3.0)}, _LEN + r"2 and 3$"),
        ({"omega": (), "mu": ()}, _LEN + r"0 and 0$"),
        (
            {"omega": (0.1, math.nan)},
            r"^omega\[1\] must be finite \(hpcy25 \(3\.1\): KQ scale ω_h\), got nan$",
        ),
        (
            {"omega": (math.inf, 0.1)},
            r"^omega\[0\] must be finite \(hpcy25 \(3\.1\): KQ scale ω_h\), got inf$",
        ),
        (
            {"mu": (1.0, -math.inf)},
            r"^mu\[1\] must be finite \(hpcy25 \(3\.2\): OV weight μ_h\), got -inf$",
        ),
        (
            {"mu": (math.nan, 1.0)},
            r"^mu\[0\] must be finite \(hpcy25 \(3\.2\): OV weight μ_h\), got nan$",
        ),
    ],
)
def test_hpcy_setting_messages_whole(change: dict[str, Any], msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        HpcySetting(**{**_BASE, **change})


def test_hpcy_setting_accepts_its_boundaries_and_stores_float_tuples() -> None:
    # d = 1, L = 2, σ² = 0 and one head are in the domain; ω and μ are stored as tuples of float
    s = HpcySetting(d=1, L=2, sigma2=0.0, omega=(1,), mu=(-2,))
    assert (s.d, s.L, s.sigma2, s.H) == (1, 2, 0.0, 1)
    assert s.omega == (1.0,) and s.mu == (-2.0,)
    assert type(s.omega) is tuple and type(s.mu) is tuple
    assert all(type(v) is float for v in s.omega + s.mu)
    t = HpcySetting(d=3, L=7, sigma2=0.5, omega=(1, -2, 3), mu=(4, 5, -6))
    assert t.H == 3 and t.omega == (1.0, -2.0, 3.0) and t.mu == (4.0, 5.0, -6.0)
