"""Data models of the five papers, as frozen, validated, keyword-only dataclasses (STYLE R6).

The shared parts are

* :class:`GaussianCovariates` -- ``x ~ N(0, Sigma_x)`` (isotropic, diagonal, general PSD; rank
  deficient where a paper allows it),
* :class:`GaussianTaskPrior` -- ``beta ~ N(task_mean, task_cov)`` (zwb24's ``beta*`` and ``Psi``;
  zfb24 / hpcy25 are the special cases ``task_mean = 0``, ``task_cov = I`` or ``I/d``),
* :class:`LinearRegressionICL` -- covariates + prior + label noise ``noise_var`` (sigma^2) +
  prompt length ``N`` + test length ``M``.

Paper modules build their own settings from these parts and from the validators below, so every
bad value raises one kind of error: a :class:`ValueError` naming the symbol, the value and the
assumption it violates (STYLE R19).

Matrices are stored as tuples of tuples of floats so that settings are hashable and compare by
value; the ``*_array`` properties return read-only ``numpy`` views for computation.

Canonical names (``docs/notation.md`` maps each paper onto them):

============  =====================  =====================================================
code name     symbol                 meaning
============  =====================  =====================================================
``d``         d                      covariate dimension
``N``         N (hpcy25: L)          training prompt length (number of context examples)
``M``         M (hpcy25: L')         test prompt length
``Sigma_x``   Lambda (zfb24), H      covariance of the covariates
              (zwb24), Sigma
``task_mean`` beta* (zwb24)          mean of the task vector
``task_cov``  Psi (zwb24), I, I/d    covariance of the task vector
``noise_var`` sigma^2                label-noise variance (context and query labels)
============  =====================  =====================================================
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "Matrix",
    "Vector",
    "GaussianCovariates",
    "GaussianTaskPrior",
    "LinearRegressionICL",
    "as_matrix",
    "as_vector",
    "check_int",
    "check_real",
    "check_choice",
    "PSD_RTOL",
]

Matrix = tuple[tuple[float, ...], ...]
Vector = tuple[float, ...]

#: Relative tolerance (in units of the largest |eigenvalue|) below which a negative eigenvalue or an
#: asymmetry of a covariance is treated as round-off rather than as a violated assumption.
PSD_RTOL = 1e-10


def _where(paper: str | None) -> str:
    return f" ({paper})" if paper else ""


def check_real(
    name: str,
    value: Any,
    *,
    paper: str | None = None,
    lower: float | None = None,
    upper: float | None = None,
    lower_open: bool = False,
    upper_open: bool = False,
) -> float:
    """Validate a finite real scalar in an (open or closed) interval and return it as ``float``.

    Raises ``ValueError`` naming ``name``, ``value`` and the violated bound.

    >>> check_real("sigma2", 0.5, lower=0.0)
    0.5
    """
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a real number{_where(paper)}, got {value!r}")
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite{_where(paper)}, got {value!r}")
    if lower is not None and (v <= lower if lower_open else v < lower):
        op = ">" if lower_open else "≥"
        raise ValueError(f"{name} must be {op} {lower:g}{_where(paper)}, got {value!r}")
    if upper is not None and (v >= upper if upper_open else v > upper):
        op = "<" if upper_open else "≤"
        raise ValueError(f"{name} must be {op} {upper:g}{_where(paper)}, got {value!r}")
    return v


def check_int(
    name: str, value: Any, *, minimum: int | None = None, paper: str | None = None
) -> int:
    """Validate an integer ``≥ minimum`` (bools and non-integral floats are rejected).

    >>> check_int("N", 3, minimum=1)
    3
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer{_where(paper)}, got {value!r}")
    v = int(value)
    if minimum is not None and v < minimum:
        raise ValueError(f"{name} must be ≥ {minimum}{_where(paper)}, got {value!r}")
    return v


def check_choice(name: str, value: Any, choices: Iterable[Any], *, paper: str | None = None) -> Any:
    """Validate that ``value`` is one of ``choices``."""
    choices = tuple(choices)
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}{_where(paper)}, got {value!r}")
    return value


def _finite_array(name: str, value: Any, paper: str | None) -> np.ndarray:
    try:
        arr = np.array(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a real array{_where(paper)}, got {value!r}") from exc
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must have finite entries{_where(paper)}, got {value!r}")
    return arr


def as_vector(
    name: str, value: Any, *, d: int | None = None, paper: str | None = None
) -> Vector:
    """Validate a finite real vector (of length ``d`` if given) and return it as a tuple."""
    arr = _finite_array(name, value, paper)
    if arr.ndim != 1 or (d is not None and arr.shape[0] != d):
        want = f"shape ({d},)" if d is not None else "a 1-D array"
        raise ValueError(f"{name} must have {want}{_where(paper)}, got shape {arr.shape}")
    return tuple(float(v) for v in arr)


def as_matrix(
    name: str,
    value: Any,
    *,
    d: int | None = None,
    psd: bool = True,
    definite: bool = False,
    paper: str | None = None,
) -> Matrix:
    """Validate a ``d×d`` real matrix and return it as a tuple of row tuples.

    With ``psd=True`` the matrix must be symmetric positive semidefinite (``definite=True``: positive
    definite); asymmetry and negative eigenvalues up to :data:`PSD_RTOL` times the largest
    |eigenvalue| are round-off and are symmetrised / accepted.

    >>> as_matrix("Sigma_x", [[2.0, 0.0], [0.0, 1.0]])
    ((2.0, 0.0), (0.0, 1.0))
    >>> as_matrix("Sigma_x", [[1.0, 2.0], [2.0, 1.0]])
    Traceback (most recent call last):
    ...
    ValueError: Sigma_x must be positive semidefinite, got smallest eigenvalue -1
    """
    arr = _finite_array(name, value, paper)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1] or (d is not None and arr.shape[0] != d):
        want = f"shape ({d}, {d})" if d is not None else "a square matrix"
        raise ValueError(f"{name} must have {want}{_where(paper)}, got shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} must be at least 1×1{_where(paper)}, got shape {arr.shape}")
    if psd:
        scale = max(1.0, float(np.max(np.abs(arr))))
        if np.max(np.abs(arr - arr.T)) > PSD_RTOL * scale:
            raise ValueError(f"{name} must be symmetric{_where(paper)}, got {arr.tolist()!r}")
        arr = 0.5 * (arr + arr.T)
        eig = np.linalg.eigvalsh(arr)
        top = max(1.0, float(np.max(np.abs(eig))))
        if eig[0] < -PSD_RTOL * top:
            raise ValueError(
                f"{name} must be positive semidefinite{_where(paper)}, "
                f"got smallest eigenvalue {eig[0]:.6g}"
            )
        if definite and eig[0] <= PSD_RTOL * top:
            raise ValueError(
                f"{name} must be positive definite{_where(paper)}, "
                f"got smallest eigenvalue {eig[0]:.6g}"
            )
    return tuple(tuple(float(v) for v in row) for row in arr)


def _readonly(x: Sequence[Any]) -> np.ndarray:
    arr = np.array(x, dtype=float)
    arr.setflags(write=False)
    return arr


@dataclass(frozen=True, kw_only=True, slots=True)
class GaussianCovariates:
    """Covariates ``x ~ N(0, Sigma_x)`` in ``R^d``.

    Source: the data models of [zfb24] §3.3 (Lambda), [zwb24] Assumption 3.1 (H), [hpcy25] §2 and
    §5.3 (I_d, Kac–Murdock–Szegő), [czz24] §2 (diagonal Sigma), [collins24] §2.
    """

    Sigma_x: Matrix  # d×d covariance of each covariate vector; PSD (PD if `definite`)
    definite: bool = False  # require Sigma_x ≻ 0 (zfb24 needs Lambda ≻ 0; zwb24 allows singular H)
    paper: str | None = field(default=None, compare=False)  # for error messages only

    def __post_init__(self) -> None:
        object.__setattr__(
            self,
            "Sigma_x",
            as_matrix("Sigma_x", self.Sigma_x, definite=self.definite, paper=self.paper),
        )

    @property
    def d(self) -> int:
        return len(self.Sigma_x)

    @property
    def Sigma_x_array(self) -> np.ndarray:
        return _readonly(self.Sigma_x)

    @classmethod
    def isotropic(cls, d: int, scale: float = 1.0, **kw: Any) -> GaussianCovariates:
        d = check_int("d", d, minimum=1)
        scale = check_real("Sigma_x scale", scale, lower=0.0, lower_open=True)
        return cls(Sigma_x=(np.eye(d) * scale).tolist(), **kw)

    @classmethod
    def diagonal(cls, diag: Sequence[float], **kw: Any) -> GaussianCovariates:
        v = as_vector("diag(Sigma_x)", diag)
        return cls(Sigma_x=np.diag(v).tolist(), **kw)


@dataclass(frozen=True, kw_only=True, slots=True)
class GaussianTaskPrior:
    """Task vector ``beta ~ N(task_mean, task_cov)``.

    Source: [zwb24] Assumption 3.1 (beta* = task_mean, Psi = task_cov; rank-deficient Psi allowed);
    [zfb24] §3.3 is ``N(0, I_d)``; [hpcy25] §2 is ``N(0, I_d/d)``.
    """

    task_mean: Vector  # beta*, the shared signal (length d)
    task_cov: Matrix  # Psi, d×d PSD task covariance
    paper: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        mean = as_vector("task_mean", self.task_mean, paper=self.paper)
        cov = as_matrix("task_cov", self.task_cov, d=len(mean), paper=self.paper)
        object.__setattr__(self, "task_mean", mean)
        object.__setattr__(self, "task_cov", cov)

    @property
    def d(self) -> int:
        return len(self.task_mean)

    @property
    def task_mean_array(self) -> np.ndarray:
        return _readonly(self.task_mean)

    @property
    def task_cov_array(self) -> np.ndarray:
        return _readonly(self.task_cov)

    @classmethod
    def isotropic(cls, d: int, var: float = 1.0, **kw: Any) -> GaussianTaskPrior:
        d = check_int("d", d, minimum=1)
        var = check_real("task variance", var, lower=0.0)
        return cls(task_mean=[0.0] * d, task_cov=(np.eye(d) * var).tolist(), **kw)


@dataclass(frozen=True, kw_only=True, slots=True)
class LinearRegressionICL:
    """One in-context linear-regression data model shared by the five papers.

    A prompt has ``N`` context pairs ``(x_i, y_i)`` and a query ``(x, y)``::

        beta ~ N(task_mean, task_cov),   x_i, x ~ N(0, Sigma_x) iid,
        y_i = <beta, x_i> + eps_i,       y = <beta, x> + eps,    eps_i, eps ~ N(0, noise_var).

    The ICL risk ``E (f(prompt) - y)^2`` includes the query noise ``noise_var`` (zwb24 §3, hpcy25
    (2.5)). ``M`` is the test prompt length (zfb24 §4.1); it defaults to ``N``.

    Source: [zwb24] Assumption 3.1; [zfb24] §3.3 (noise_var = 0, prior N(0, I)); [hpcy25] §2.

    >>> s = LinearRegressionICL.isotropic(d=2, N=5, noise_var=0.1)
    >>> s.d, s.N, s.M
    (2, 5, 5)
    >>> LinearRegressionICL.isotropic(d=2, N=0)
    Traceback (most recent call last):
    ...
    ValueError: N must be ≥ 1 (prompt length), got 0
    """

    covariates: GaussianCovariates  # law of x_i and of the query x
    prior: GaussianTaskPrior  # law of the task vector beta
    noise_var: float = 0.0  # sigma^2 ≥ 0, label noise on context and query labels
    N: int  # training prompt length (number of context examples), ≥ 1
    M: int | None = None  # test prompt length, ≥ 1; None means M = N

    def __post_init__(self) -> None:
        if not isinstance(self.covariates, GaussianCovariates):
            raise ValueError(f"covariates must be GaussianCovariates, got {self.covariates!r}")
        if not isinstance(self.prior, GaussianTaskPrior):
            raise ValueError(f"prior must be GaussianTaskPrior, got {self.prior!r}")
        if self.covariates.d != self.prior.d:
            raise ValueError(
                f"dimension mismatch: Sigma_x is {self.covariates.d}×{self.covariates.d} but "
                f"task_mean has length {self.prior.d} (d must agree)"
            )
        object.__setattr__(
            self, "noise_var", check_real("noise_var (sigma^2)", self.noise_var, lower=0.0)
        )
        object.__setattr__(self, "N", check_int("N", self.N, minimum=1, paper="prompt length"))
        m = self.N if self.M is None else self.M
        object.__setattr__(self, "M", check_int("M", m, minimum=1, paper="test prompt length"))

    # -- convenience -------------------------------------------------------------------------
    @property
    def d(self) -> int:
        return self.covariates.d

    @property
    def Sigma_x(self) -> np.ndarray:
        return self.covariates.Sigma_x_array

    @property
    def task_mean(self) -> np.ndarray:
        return self.prior.task_mean_array

    @property
    def task_cov(self) -> np.ndarray:
        return self.prior.task_cov_array

    @classmethod
    def isotropic(
        cls,
        *,
        d: int,
        N: int,
        M: int | None = None,
        noise_var: float = 0.0,
        task_var: float = 1.0,
        x_var: float = 1.0,
    ) -> LinearRegressionICL:
        """``x ~ N(0, x_var I_d)``, ``beta ~ N(0, task_var I_d)``."""
        return cls(
            covariates=GaussianCovariates.isotropic(d, x_var),
            prior=GaussianTaskPrior.isotropic(d, task_var),
            noise_var=noise_var,
            N=N,
            M=M,
        )

    @classmethod
    def from_arrays(
        cls,
        *,
        Sigma_x: Any,
        N: int,
        task_mean: Any | None = None,
        task_cov: Any | None = None,
        noise_var: float = 0.0,
        M: int | None = None,
    ) -> LinearRegressionICL:
        """Build from plain arrays; ``task_mean`` defaults to 0 and ``task_cov`` to ``I_d``."""
        cov = GaussianCovariates(Sigma_x=Sigma_x)
        d = cov.d
        mean = np.zeros(d) if task_mean is None else task_mean
        tcov = np.eye(d) if task_cov is None else task_cov
        return cls(
            covariates=cov,
            prior=GaussianTaskPrior(task_mean=mean, task_cov=tcov),
            noise_var=noise_var,
            N=N,
            M=M,
        )
