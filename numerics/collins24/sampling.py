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
    """(B, B⊥) = the first k and the last d−k standard basis vectors (WLOG by rotation).

    Source: [collins24] Assumption 4.3 / Definition 4.2 (``B (d, k)`` orthonormal, ``B⊥ (d, d−k)``
    its complement); together they are an orthonormal basis:

    >>> B, Bp = lowrank_basis(3, 1)
    >>> B.shape, Bp.shape, bool(np.allclose(np.hstack([B, Bp]), np.eye(3)))
    ((3, 1), (3, 2), True)
    """
    eye = np.eye(d)
    return eye[:, :k], eye[:, k:]


def sample_covariates(
    cov: SphereCovariates, rng: np.random.Generator, shape: tuple[int, ...]
) -> np.ndarray:
    """Draws of x with leading shape ``shape`` from ``cov``: ``shape + (d,)``.

    Source: [collins24] §2 (U^d), Assumption 3.3 (ellipsoid ``Σ^{1/2}U^d``), Assumption 4.3
    (low-rank ``x = c_u B u + c_v B⊥ v``, ``u, v`` uniform on their spheres, so
    ``‖x‖² = c_u² + c_v²``):

    >>> from theory.collins24.settings import SphereCovariates
    >>> cov = SphereCovariates(d=3, kind="lowrank", k=1, c_u=2.0, c_v=1.0)
    >>> x = sample_covariates(cov, np.random.default_rng(0), (4,))
    >>> x.shape, bool(np.allclose((x**2).sum(-1), 5.0)), bool(np.allclose(np.abs(x[:, 0]), 2.0))
    ((4, 3), True, True)
    """
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
    """Σ^{-1/2}x for the ellipsoid law, x otherwise (the coordinates the tasks live in).

    ``x (..., d)`` → same shape.  Source: [collins24] Assumption 3.3 (``x = Σ^{1/2}x̃``,
    ``x̃ ~ U^d``): whitening an ellipsoid draw lands back on the sphere:

    >>> from theory.collins24.settings import SphereCovariates
    >>> cov = SphereCovariates(d=3, kind="ellipsoid", Sigma_diag=(1, 4, 9))
    >>> x = sample_covariates(cov, np.random.default_rng(0), (5,))
    >>> bool(np.allclose(np.linalg.norm(whiten_x(cov, x), axis=-1), 1.0))
    True
    """
    if cov.kind == "ellipsoid":
        assert cov.Sigma_diag is not None
        return x / np.sqrt(np.asarray(cov.Sigma_diag))
    return x


@dataclass(frozen=True, slots=True)
class TaskBatch:
    """B task functions of one class: f_b(x) = l1 (vᵀx)_+ + l2 (−vᵀx)_+ + b, etc.

    Source: [collins24] Definitions 3.2, C.1, 4.2 (the task classes D(F)).  Called on whitened
    ``x (B, m, d)`` it returns ``(B, m)``.  By hand, the 2-ReLU ``2(x₁)_+ + 3(−x₁)_+ + 0.5`` at
    ``x = ±e₁``:

    >>> one = np.ones(1)
    >>> f = TaskBatch("relu", np.array([[1.0, 0.0]]), 2 * one, 3 * one, 0.5 * one, L=3.0)
    >>> f(np.array([[[1.0, 0.0], [-1.0, 0.0]]]))
    array([[2.5, 3.5]])
    """

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
    """B tasks from D(F) of ``setting.tasks``.

    Source: [collins24] Definitions 3.2 / C.1: affine and 2-ReLU tasks draw ``l1, l2, b ~
    U[−L, L]`` and a unit direction ``v``, so each task is L-Lipschitz:

    >>> from theory.collins24.settings import SoftmaxWindowSetting
    >>> s = SoftmaxWindowSetting.isotropic(d=3, n=5, L=2.0, task="relu")
    >>> t = sample_tasks(s, 50, np.random.default_rng(0))
    >>> t.v.shape, bool(np.allclose(np.linalg.norm(t.v, axis=1), 1.0))
    ((50, 3), True)
    >>> bool(max(np.abs(t.l1).max(), np.abs(t.l2).max(), np.abs(t.b).max()) <= 2.0)
    True
    """
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
    """B sampled prompts (:func:`sample_prompts`); ``fq`` is the noiseless task at the query:

    >>> from theory.collins24.settings import SoftmaxWindowSetting
    >>> s = SoftmaxWindowSetting.isotropic(d=3, n=5, sigma2=0.01)
    >>> p = sample_prompts(s, 8, np.random.default_rng(0))
    >>> bool(np.allclose(p.fq, p.tasks(p.xq[:, None, :])[:, 0]))
    True
    """

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
