"""Settings validate at construction; bad values raise ValueError naming the symbol."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from theory.settings import (
    GaussianCovariates,
    GaussianTaskPrior,
    LinearRegressionICL,
    as_matrix,
    check_int,
    check_real,
)
from theory.strategies import linear_regression_settings

BAD_REALS = st.sampled_from([float("nan"), float("inf"), -float("inf"), "x", None, True])


@given(linear_regression_settings())
def test_drawn_settings_are_valid_hashable_and_equal_by_value(s: LinearRegressionICL) -> None:
    again = dataclasses.replace(s)
    assert again == s and hash(again) == hash(s)
    assert s.Sigma_x.shape == (s.d, s.d) and not s.Sigma_x.flags.writeable
    assert np.all(np.linalg.eigvalsh(s.Sigma_x) >= -1e-9)


@given(st.floats(max_value=-1e-9, allow_nan=False, allow_infinity=False) | BAD_REALS)
def test_bad_noise_var_names_symbol(v: object) -> None:
    with pytest.raises(ValueError, match="noise_var"):
        LinearRegressionICL.isotropic(d=2, N=4, noise_var=v)  # type: ignore[arg-type]


@given(st.integers(max_value=0) | st.sampled_from([1.5, "3", None, True, float("nan")]))
def test_bad_prompt_length_names_symbol(n: object) -> None:
    with pytest.raises(ValueError, match=r"^N must"):
        LinearRegressionICL.isotropic(d=2, N=n)  # type: ignore[arg-type]
    if n is not None:  # M=None is valid: it means M = N
        with pytest.raises(ValueError, match=r"^M must"):
            LinearRegressionICL.isotropic(d=2, N=3, M=n)  # type: ignore[arg-type]


@given(st.integers(2, 5), st.floats(0.01, 5.0))
def test_non_psd_covariance_names_symbol_and_eigenvalue(d: int, neg: float) -> None:
    S = np.eye(d)
    S[0, 0] = -neg
    with pytest.raises(ValueError, match="Sigma_x must be positive semidefinite"):
        GaussianCovariates(Sigma_x=S)
    with pytest.raises(ValueError, match="task_cov must be positive semidefinite"):
        GaussianTaskPrior(task_mean=np.zeros(d), task_cov=S)


@given(st.integers(2, 5), st.floats(0.1, 3.0))
def test_asymmetric_covariance_rejected(d: int, a: float) -> None:
    S = np.eye(d)
    S[0, 1] = a
    with pytest.raises(ValueError, match="Sigma_x must be symmetric"):
        GaussianCovariates(Sigma_x=S)


@pytest.mark.parametrize(
    "value, pattern",
    [
        (np.ones((2, 3)), "square"),
        (np.ones(3), "square"),
        ([[1.0, np.nan], [np.nan, 1.0]], "finite"),
        ([[1.0, np.inf], [np.inf, 1.0]], "finite"),
        ("abc", "real array"),
        (np.zeros((0, 0)), "at least 1×1"),
    ],
)
def test_malformed_matrices(value: object, pattern: str) -> None:
    with pytest.raises(ValueError, match=f"Sigma_x must .*{pattern}"):
        GaussianCovariates(Sigma_x=value)


def test_dimension_mismatch_and_shapes() -> None:
    with pytest.raises(ValueError, match="d must agree"):
        LinearRegressionICL(
            covariates=GaussianCovariates.isotropic(3), prior=GaussianTaskPrior.isotropic(2), N=5
        )
    with pytest.raises(ValueError, match=r"task_cov must have shape \(2, 2\)"):
        GaussianTaskPrior(task_mean=[0.0, 0.0], task_cov=np.eye(3))
    with pytest.raises(ValueError, match="task_mean must have finite"):
        GaussianTaskPrior(task_mean=[0.0, float("nan")], task_cov=np.eye(2))


def test_definite_flag_and_rank_deficient_allowed() -> None:
    S = np.diag([1.0, 0.0])
    assert GaussianCovariates(Sigma_x=S).d == 2  # rank-deficient allowed (zwb24)
    with pytest.raises(ValueError, match="positive definite"):
        GaussianCovariates(Sigma_x=S, definite=True, paper="zfb24: Lambda ≻ 0")


def test_frozen() -> None:
    s = LinearRegressionICL.isotropic(d=2, N=4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.N = 5  # type: ignore[misc]


@given(st.one_of(st.floats(allow_nan=True), st.integers(), st.text(max_size=3), st.none()))
def test_check_real_never_returns_non_finite(v: object) -> None:
    try:
        out = check_real("sigma2", v, lower=0.0)
    except ValueError as exc:
        assert "sigma2" in str(exc)
    else:
        assert math.isfinite(out) and out >= 0


@given(st.one_of(st.integers(), st.floats(allow_nan=True), st.booleans()))
def test_check_int(v: object) -> None:
    try:
        out = check_int("N", v, minimum=1)
    except ValueError as exc:
        assert str(exc).startswith("N must")
    else:
        assert isinstance(out, int) and out >= 1


def test_roundoff_asymmetry_is_symmetrised() -> None:
    S = np.array([[2.0, 1.0 + 1e-14], [1.0, 2.0]])
    M = np.array(as_matrix("Sigma_x", S))
    assert np.array_equal(M, M.T)
