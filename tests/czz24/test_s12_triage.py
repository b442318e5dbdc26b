"""Checks the mutation triage of issue 35 asked for in [czz24]'s floor (session 12): the data
model's messages in full, the OLS closed form without floating-point warnings, ``r̂``'s backend
choice for mixed inputs, and the posterior mean's input handling."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from numerics.testing import FLOAT_RTOL
from theory.czz24 import bayes_posterior_mean, ols_excess_risk, rhat
from theory.czz24.settings import SparseRegressionICL

_S2 = r"^sigma2 \(noise variance σ²\)"


@pytest.mark.parametrize(
    ("change", "msg"),
    [
        ({"d": 0}, r"^d must be ≥ 1 \(\[czz24\] §2\), got 0$"),
        ({"d": 2.5}, r"^d must be an integer \(\[czz24\] §2\), got 2\.5$"),
        ({"q": 0}, r"^q \(queries per prompt\) must be ≥ 1 \(\[czz24\] §2\), got 0$"),
        ({"sigma2": -0.5}, _S2 + r" must be ≥ 0 \(\[czz24\] §2\), got -0\.5$"),
        ({"sigma2": np.nan}, _S2 + r" must be finite \(\[czz24\] §2\), got nan$"),
    ],
)
def test_data_model_messages_for_d_q_and_sigma2(change: dict, msg: str) -> None:
    """Each refused field is named with its assumption and the paper's section, whole."""
    with pytest.raises(ValueError, match=msg):
        SparseRegressionICL(**{"d": 4, "s": 2, "n": 8, "sigma2": 0.25, **change})


@pytest.mark.parametrize(
    ("d", "n", "sigma2", "want"),
    [
        (16, 16, 0.01, np.inf),  # n = d, σ² > 0: infinite (App. F.4)
        (16, 17, 0.01, np.inf),  # n = d + 1: σ²d/0
        (16, 15, 0.01, np.inf),  # n = d − 1: σ²n/0
        (16, 17, 0.0, 0.0),  # σ² = 0, n = d + 1: exact recovery (0/0 in the σ² term)
        (16, 15, 0.0, 4.0 * (1 - 15 / 16)),  # σ² = 0, n = d − 1: ‖w‖²(1 − n/d)
        (16, 10, 0.01, 4.0 * (6 / 16) + 0.01 * 10 / 5),
    ],
)
def test_ols_excess_risk_evaluates_every_branch_silently(
    d: int, n: int, sigma2: float, want: float
) -> None:
    """The piecewise closed form evaluates every branch (np.where): the divisions by zero in the
    branches not taken are not the caller's business, so no RuntimeWarning escapes."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = ols_excess_risk(d, n, sigma2, 4.0)
    assert got == pytest.approx(want, rel=FLOAT_RTOL)


def test_rhat_mixed_inputs_stay_symbolic() -> None:
    """``r̂ = Xᵀy/n`` (Eq. 4.1) with one SymPy argument is exact and SymPy, whichever it is:
    by hand, X = [[1, 2], [3, 0], [1, −1]], y = (1/3, 2, −1) gives r̂ = (16/9, 5/9)."""
    Xi = np.array([[1, 2], [3, 0], [1, -1]])
    y = [sp.Rational(1, 3), 2, -1]
    want = sp.Matrix([sp.Rational(16, 9), sp.Rational(5, 9)])
    for X, yy in ((Xi, sp.Matrix(y)), (sp.Matrix(Xi), np.array(y, dtype=object))):
        got = rhat(X, yy)
        assert isinstance(got, sp.MatrixBase), type(got)
        assert sp.simplify(got - want) == sp.zeros(2, 1)


@pytest.mark.parametrize("prior", ["sign", "gauss"])
def test_bayes_posterior_mean_exact_and_column_inputs(prior: str) -> None:
    """A uint8 design (X ᵀX would wrap at 256), Fraction labels and a column y give the float
    posterior mean of the same context."""
    rng = np.random.default_rng(12)
    X8 = rng.integers(0, 40, size=(6, 3)).astype(np.uint8)
    yf = rng.integers(-30, 30, size=6) / 4.0
    want = bayes_posterior_mean(X8.astype(float), yf, 2, 900.0, prior)
    assert np.abs(want).max() > 0.01  # a generic point: the posterior is not at the prior mean
    for X, y in (
        (X8, yf),
        (X8.astype(float), [Fraction(v).limit_denominator() for v in yf]),
        (X8.astype(float), yf[:, None]),
    ):
        got = bayes_posterior_mean(X, y, 2, 900.0, prior)
        assert got.dtype == np.float64 and got.shape == (3,)
        np.testing.assert_allclose(got, want, rtol=FLOAT_RTOL)


def test_bayes_posterior_mean_refuses_s_above_d() -> None:
    with pytest.raises(ValueError, match=r"^s must be ≤ d = 2, got 3$"):
        bayes_posterior_mean(np.eye(2), [1.0, 0.0], 3, 0.1)
