"""Mutation triage of issue 35 (session 13, helper z5): [zfb24]'s settings classes refuse every bad
field with its whole message (the value, the assumption, the paper's section) and store what they
accept converted (tuples of floats, floats)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import numpy as np
import pytest

from theory.zfb24.settings import THETA_NORM_ATOL, Assumption3Setting, LSAFlowData, Setting

_SIG = r"^sigma_init \(σ\) must be "
_SPEC = r"^spectrum\[1\] must be "


@pytest.mark.parametrize(
    ("change", "msg"),
    [
        ({"d": 0, "spectrum": None}, r"^d must be ≥ 1 \(zfb24 covariate dimension\), got 0$"),
        (
            {"d": 2.5, "spectrum": None},
            r"^d must be an integer \(zfb24 covariate dimension\), got 2\.5$",
        ),
        ({"N": 0}, r"^N must be ≥ 1 \(zfb24 prompt length\), got 0$"),
        ({"N": 1.5}, r"^N must be an integer \(zfb24 prompt length\), got 1\.5$"),
        ({"M": 0}, r"^M must be ≥ 1 \(zfb24 §4\.1 test prompt length\), got 0$"),
        ({"M": 1.5}, r"^M must be an integer \(zfb24 §4\.1 test prompt length\), got 1\.5$"),
        (
            {"d": 2, "spectrum": (1.0, -0.5)},
            _SPEC + r"> 0 \(zfb24 §3\.3: Λ ≻ 0\), got -0\.5$",
        ),
        (
            {"d": 2, "spectrum": (1.0, np.nan)},
            _SPEC + r"finite \(zfb24 §3\.3: Λ ≻ 0\), got nan$",
        ),
        (
            {"d": 2, "spectrum": (1.0, "2")},
            _SPEC + r"a real number \(zfb24 §3\.3: Λ ≻ 0\), got '2'$",
        ),
        (
            {"d": 3, "spectrum": (1, 2)},
            r"^spectrum=\(1\.0, 2\.0\) has 2 eigenvalues but d = 3: "
            r"Λ = diag\(spectrum\) is d×d \(zfb24 §3\.3\)$",
        ),
        (
            {"d": 2, "spectrum": 1.5},
            r"^spectrum=\(1\.5,\) has 1 eigenvalues but d = 2: "
            r"Λ = diag\(spectrum\) is d×d \(zfb24 §3\.3\)$",
        ),
        ({"sigma_init": 0.0}, _SIG + r"> 0 \(zfb24 Assumption 3\), got 0\.0$"),
        ({"sigma_init": np.inf}, _SIG + r"finite \(zfb24 Assumption 3\), got inf$"),
        (
            {"noise_var": -0.5},
            r"^noise_var \(σ²\) must be ≥ 0 \(label-noise variance\), got -0\.5$",
        ),
        (
            {"noise_var": np.nan},
            r"^noise_var \(σ²\) must be finite \(label-noise variance\), got nan$",
        ),
        ({"delta": np.nan}, r"^delta \(δ\) must be finite, got nan$"),
        ({"delta": "0.3"}, r"^delta \(δ\) must be a real number, got '0\.3'$"),
    ],
)
def test_setting_messages_whole(change: dict, msg: str) -> None:
    """Every refused field of :class:`Setting` is named with its value and assumption, whole."""
    with pytest.raises(ValueError, match=msg):
        Setting(**change)


def test_setting_stores_floats_and_accepts_its_edges() -> None:
    """Integers in, floats stored; a list or a scalar spectrum becomes a tuple; σ² = 0 (no label
    noise) and a negative δ (the domain is "finite") are accepted."""
    s = Setting(d=2, spectrum=cast(Any, [1, 3]), sigma_init=2, noise_var=0, delta=-2)
    assert s.spectrum == (1.0, 3.0) and all(type(v) is float for v in s.spectrum or ())
    assert type(s.sigma_init) is float and s.sigma_init == 2.0
    assert type(s.noise_var) is float and s.noise_var == 0.0
    assert type(s.delta) is float and s.delta == -2.0
    assert s.Lambda is not None and s.Lambda.tolist() == [[1.0, 0.0], [0.0, 3.0]]
    one = Setting(d=1, spectrum=cast(Any, 2.5))
    assert one.spectrum == (2.5,)
    assert Setting(d=2, spectrum=None).Lambda is None
    assert Setting(delta=None).delta is None


_L2 = [[1.0, 0.3], [0.3, 2.0]]


@pytest.mark.parametrize(
    ("change", "msg"),
    [
        ({"d": 0}, r"^d must be ≥ 1, got 0$"),
        ({"d": 1.5}, r"^d must be an integer, got 1\.5$"),
        ({"N": 0}, r"^N must be ≥ 1, got 0$"),
        ({"N": 2.5}, r"^N must be an integer, got 2\.5$"),
        (
            {"Lambda": None},
            r"^give Lambda for fixed covariance, or random_cov=True \(not both\)$",
        ),
        (
            {"random_cov": True},
            r"^give Lambda for fixed covariance, or random_cov=True \(not both\)$",
        ),
        (
            {"Lambda": np.eye(3)},
            r"^Lambda must have shape \(2, 2\) \(zfb24 §3\.3\), got shape \(3, 3\)$",
        ),
        (
            {"Lambda": [[1.0, 1.0], [1.0, 1.0]]},
            r"^Lambda must be positive definite \(zfb24 §3\.3\), got smallest eigenvalue 0$",
        ),
        (
            {"Lambda": [[1.0, 0.5], [0.0, 1.0]]},
            r"^Lambda must be symmetric \(zfb24 §3\.3\), got \[\[1\.0, 0\.5\], \[0\.0, 1\.0\]\]$",
        ),
    ],
)
def test_lsa_flow_data_messages_whole(change: dict, msg: str) -> None:
    """Every refused field of :class:`LSAFlowData` is named with its value and assumption, whole."""
    with pytest.raises(ValueError, match=msg):
        LSAFlowData(**{"d": 2, "N": 4, "Lambda": _L2, **change})


def test_lsa_flow_data_stores_lambda_as_float_rows() -> None:
    """An integer Λ is stored as a tuple of float rows; random covariance keeps Λ = None."""
    data = LSAFlowData(d=2, N=3, Lambda=np.array([[2, 1], [1, 3]]))
    assert data.Lambda == ((2.0, 1.0), (1.0, 3.0))
    assert all(type(v) is float for row in data.Lambda or () for v in row)
    rnd = LSAFlowData(d=2, N=3, random_cov=True)
    assert rnd.Lambda is None and rnd.random_cov is True


_TH2 = np.eye(2) / 2**0.25  # ‖ΘΘᵀ‖_F = ‖I/√2‖_F = 1


@pytest.mark.parametrize(
    ("change", "msg"),
    [
        (
            {"Lambda": [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]},
            r"^Lambda must have a square matrix \(zfb24 §3\.3\), got shape \(2, 3\)$",
        ),
        (
            {"Lambda": [[1.0, 1.0], [1.0, 1.0]]},
            r"^Lambda must be positive definite \(zfb24 §3\.3\), got smallest eigenvalue 0$",
        ),
        ({"N": 0}, r"^N must be ≥ 1 \(zfb24 prompt length\), got 0$"),
        ({"N": 2.5}, r"^N must be an integer \(zfb24 prompt length\), got 2\.5$"),
        ({"sigma_init": -0.3}, _SIG + r"> 0 \(zfb24 Assumption 3\), got -0\.3$"),
        ({"sigma_init": np.nan}, _SIG + r"finite \(zfb24 Assumption 3\), got nan$"),
        (
            {"Theta": np.eye(3)},
            r"^Theta must have shape \(2, 2\) \(zfb24 Assumption 3\), got shape \(3, 3\)$",
        ),
        ({"Theta": np.eye(2)}, r"^‖ΘΘᵀ‖_F must be 1 \(Assumption 3\), got 1\.41421$"),
        ({"Theta": np.eye(2) * 0.5}, r"^‖ΘΘᵀ‖_F must be 1 \(Assumption 3\), got 0\.353553$"),
    ],
)
def test_assumption3_setting_messages_whole(change: dict, msg: str) -> None:
    """Every refused field of :class:`Assumption3Setting` is named with its value, whole."""
    with pytest.raises(ValueError, match=msg):
        Assumption3Setting(**{"Lambda": _L2, "N": 4, "sigma_init": 0.3, "Theta": _TH2, **change})


def test_assumption3_theta_norm_tolerance_and_storage() -> None:
    """‖ΘΘᵀ‖_F within THETA_NORM_ATOL of 1 is accepted (Θ = √(1 + a)·Θ₀ scales ‖ΘΘᵀ‖_F by
    1 + a), beyond it refused; Θ and Λ are stored as float rows (an integer Θ: d = 1, Θ = [[1]]),
    and d is Λ's size."""
    for a in (0.5 * THETA_NORM_ATOL, -0.5 * THETA_NORM_ATOL):
        s = Assumption3Setting(Lambda=_L2, N=4, sigma_init=0.3, Theta=np.sqrt(1 + a) * _TH2)
        assert s.d == 2
    for a in (3 * THETA_NORM_ATOL, -3 * THETA_NORM_ATOL):
        with pytest.raises(ValueError, match=r"^‖ΘΘᵀ‖_F must be 1 \(Assumption 3\), got 1$"):
            Assumption3Setting(Lambda=_L2, N=4, sigma_init=0.3, Theta=np.sqrt(1 + a) * _TH2)
    one = Assumption3Setting(Lambda=[[2]], N=1, sigma_init=1, Theta=[[1]])
    assert one.Theta == ((1.0,),) and type(one.Theta[0][0]) is float
    assert one.Lambda == ((2.0,),) and type(one.Lambda[0][0]) is float
    assert one.d == 1
    three = Assumption3Setting(Lambda=np.eye(3), N=2, sigma_init=0.3, Theta=np.eye(3) / 3**0.25)
    assert three.d == 3 and three.Theta_array.shape == (3, 3)


def test_assumption3_accepts_an_exact_rational_theta() -> None:
    """Θ = [[3/5, 4/5], [0, 0]] in exact fractions: ΘΘᵀ = diag(1, 0), ‖ΘΘᵀ‖_F = 1 exactly, so
    the setting is accepted and Θ stored as float rows."""
    Th = np.array([[Fraction(3, 5), Fraction(4, 5)], [Fraction(0), Fraction(0)]], dtype=object)
    s = Assumption3Setting(Lambda=_L2, N=4, sigma_init=0.3, Theta=Th)
    assert s.Theta == ((0.6, 0.8), (0.0, 0.0))
    assert all(type(v) is float for row in s.Theta for v in row)
