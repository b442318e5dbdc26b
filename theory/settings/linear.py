"""The shared Gaussian linear-regression data model.

The shared parts are

* :class:`GaussianCovariates` -- ``x ~ N(0, Sigma_x)`` (isotropic, diagonal, general PSD; rank
  deficient where a paper allows it),
* :class:`GaussianTaskPrior` -- ``beta ~ N(task_mean, task_cov)`` (zwb24's ``beta*`` and ``Psi``;
  zfb24 / hpcy25 are the special cases ``task_mean = 0``, ``task_cov = I`` or ``I/d``),
* :class:`LinearRegressionICL` -- covariates + prior + label noise ``noise_var`` (sigma^2) +
  prompt length ``N`` + test length ``M``.

Paper modules build their own settings from these parts and from the validators below, so every
bad value raises one kind of error: a :class:`ValueError` naming the symbol, the value and the
assumption it violates.

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

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from theory.settings.validators import (
    MatrixLike,
    VectorLike,
    as_matrix,
    as_vector,
    check_int,
    check_real,
    readonly,
)

__all__ = ["GaussianCovariates", "GaussianTaskPrior", "LinearRegressionICL"]


@dataclass(frozen=True, kw_only=True, slots=True)
class GaussianCovariates:
    """Covariates ``x ~ N(0, Sigma_x)`` in ``R^d``.

    Source: the data models of [zfb24] §3.3 (Lambda), [zwb24] Assumption 3.1 (H), [hpcy25] §2 and
    §5.3 (I_d, Kac–Murdock–Szegő), [czz24] §2 (diagonal Sigma), [collins24] §2.

    Examples
    --------
    >>> c = GaussianCovariates(Sigma_x=[[2.0, 0.5], [0.5, 1.0]])
    >>> c.d, c.Sigma_x_array.tolist()
    (2, [[2.0, 0.5], [0.5, 1.0]])
    >>> GaussianCovariates(Sigma_x=[[1.0, 0.0], [0.0, 0.0]], definite=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Sigma_x must be positive definite...
    """

    Sigma_x: MatrixLike  # d×d covariance of each covariate vector; PSD (PD if `definite`)
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
        return readonly(self.Sigma_x)

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

    Examples
    --------
    >>> p = GaussianTaskPrior(task_mean=[1.0, -1.0], task_cov=[[1.0, 0.0], [0.0, 0.5]])
    >>> p.d, p.task_mean_array.tolist()
    (2, [1.0, -1.0])
    >>> float(GaussianTaskPrior.isotropic(3, 0.5).task_cov_array.trace())
    1.5
    """

    task_mean: VectorLike  # beta*, the shared signal (length d)
    task_cov: MatrixLike  # Psi, d×d PSD task covariance
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
        return readonly(self.task_mean)

    @property
    def task_cov_array(self) -> np.ndarray:
        return readonly(self.task_cov)

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
