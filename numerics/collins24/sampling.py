"""[collins24] numpy samplers of the data models of :mod:`theory.collins24.settings` (a route).

Covariates on the sphere (U^d, Σ^{1/2}U^d, U^d_S, Assumption 4.3), tasks (affine, 2-ReLU, cosine,
linear, low-rank, constant) and whole prompts.  Tasks are defined in whitened coordinates
Σ^{-1/2}x for the ellipsoid law.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from theory.collins24.settings import SoftmaxWindowSetting, SphereCovariates
from theory.settings import check_int

__all__ = [
    "sphere",
    "lowrank_basis",
    "sample_covariates",
    "whiten_x",
    "TaskBatch",
    "sample_tasks",
    "Prompts",
    "sample_prompts",
]


def sphere(rng: np.random.Generator, shape: tuple[int, ...], d: int) -> np.ndarray:
    """Uniform draws on S^{d−1} with leading shape ``shape``.

    Examples
    --------
    >>> x = sphere(np.random.default_rng(0), (4, 2), 3)
    >>> x.shape, bool(np.allclose(np.linalg.norm(x, axis=-1), 1.0))
    ((4, 2, 3), True)
    """
    z = rng.standard_normal((*shape, d))
    return z / np.linalg.norm(z, axis=-1, keepdims=True)


def lowrank_basis(d: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(B, B⊥) = the first k and the last d−k standard basis vectors (WLOG by rotation)."""
    eye = np.eye(d)
    return eye[:, :k], eye[:, k:]


def sample_covariates(
    cov: SphereCovariates, rng: np.random.Generator, shape: tuple[int, ...]
) -> np.ndarray:
    """Draws of x with leading shape ``shape`` from ``cov``."""
    d = cov.d
    if cov.kind == "uniform":
        return sphere(rng, shape, d)
    if cov.kind == "ellipsoid":
        assert cov.Sigma_diag is not None
        return sphere(rng, shape, d) * np.sqrt(np.asarray(cov.Sigma_diag))
    if cov.kind == "acg":
        z = rng.standard_normal((*shape, d)) * np.arange(1, d + 1)
        return z / np.linalg.norm(z, axis=-1, keepdims=True)
    assert cov.k is not None
    B, Bp = lowrank_basis(d, cov.k)
    u = sphere(rng, shape, cov.k)
    v = sphere(rng, shape, d - cov.k)
    return cov.c_u * u @ B.T + cov.c_v * v @ Bp.T


def whiten_x(cov: SphereCovariates, x: np.ndarray) -> np.ndarray:
    """Σ^{-1/2}x for the ellipsoid law, x otherwise (the coordinates the tasks live in)."""
    if cov.kind == "ellipsoid":
        assert cov.Sigma_diag is not None
        return x / np.sqrt(np.asarray(cov.Sigma_diag))
    return x


@dataclass(frozen=True, slots=True)
class TaskBatch:
    """B task functions of one class: f_b(x) = l1 (vᵀx)_+ + l2 (−vᵀx)_+ + b, etc."""

    kind: str
    v: np.ndarray  # (B, d) direction (lowrank: (B, k) coefficients a)
    l1: np.ndarray  # (B,)
    l2: np.ndarray  # (B,)
    b: np.ndarray  # (B,)
    L: float
    k: int = 0

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """f_b(x) for x of shape (B, m, d) (whitened) -> (B, m)."""
        if self.kind == "lowrank":
            return np.einsum("bmk,bk->bm", x[..., : self.k], self.v) + self.b[:, None]
        t = np.einsum("bmd,bd->bm", x, self.v)
        if self.kind in ("affine", "linear"):
            return self.l1[:, None] * t + self.b[:, None]
        if self.kind == "relu":
            return (
                self.l1[:, None] * np.maximum(t, 0)
                + self.l2[:, None] * np.maximum(-t, 0)
                + self.b[:, None]
            )
        if self.kind == "cos":
            return np.cos(self.L * t)
        if self.kind == "hills":
            return np.cos(self.L * np.arctan2(x[..., 1], x[..., 0]) - self.b[:, None])
        return np.broadcast_to(self.b[:, None], t.shape).copy()  # constant


def sample_tasks(setting: SoftmaxWindowSetting, B: int, rng: np.random.Generator) -> TaskBatch:
    """B tasks from D(F) of ``setting.tasks``."""
    B = check_int("B", B, minimum=1)
    T, d, L = setting.tasks, setting.d, setting.tasks.L
    u = rng.uniform(-L, L, size=(3, B))
    b = u[2] if T.intercept else np.zeros(B)
    if T.kind == "lowrank":
        k = setting.covariates.k or 1
        return TaskBatch(
            "lowrank", sphere(rng, (B,), k), np.ones(B), np.ones(B), np.full(B, T.offset), L, k
        )
    v = sphere(rng, (B,), d)
    if T.kind == "linear":
        return TaskBatch("linear", v, np.full(B, L), np.zeros(B), np.zeros(B), L)
    if T.kind == "constant":
        return TaskBatch("constant", v, np.zeros(B), np.zeros(B), rng.uniform(-1, 1, B), L)
    if T.kind == "hills":
        return TaskBatch("hills", v, np.zeros(B), np.zeros(B), rng.uniform(-np.pi, np.pi, B), L)
    return TaskBatch(T.kind, v, u[0], u[1], b, L)


@dataclass(frozen=True, slots=True)
class Prompts:
    X: np.ndarray  # (B, n, d) context covariates
    y: np.ndarray  # (B, n) noisy context labels
    xq: np.ndarray  # (B, d) query
    fq: np.ndarray  # (B,) noiseless target f(x_q)
    eps: np.ndarray  # (B, n) the label noise
    tasks: TaskBatch


def sample_prompts(setting: SoftmaxWindowSetting, B: int, rng: np.random.Generator) -> Prompts:
    """B prompts: x_i, x_q from the covariate law, f from D(F), y_i = f(x_i) + ε_i (Gaussian).

    Source: [collins24] §2 (the ICL data model).

    Examples
    --------
    >>> from theory.collins24.settings import SoftmaxWindowSetting
    >>> s = SoftmaxWindowSetting.isotropic(d=3, n=5, sigma2=0.01)
    >>> p = sample_prompts(s, 8, np.random.default_rng(0))
    >>> p.X.shape, p.y.shape, p.xq.shape, p.fq.shape
    ((8, 5, 3), (8, 5), (8, 3), (8,))
    >>> bool(np.allclose(p.y - p.eps, p.tasks(p.X)))                 # y_i = f(x_i) + ε_i
    True
    """
    n, cov = setting.n, setting.covariates
    tasks = sample_tasks(setting, B, rng)
    X = sample_covariates(cov, rng, (B, n + 1))
    f = tasks(whiten_x(cov, X))
    eps = np.sqrt(setting.sigma2) * rng.standard_normal((B, n))
    return Prompts(X[:, :n], f[:, :n] + eps, X[:, n], f[:, n], eps, tasks)
