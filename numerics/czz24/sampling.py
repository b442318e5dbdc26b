"""[czz24] §2 samplers (numpy): sparse tasks under both priors and Gaussian contexts.

Every function takes an explicit ``np.random.Generator``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from numerics.sampling import check_rng, gaussian_rows
from theory.czz24.settings import Setting, SparseRegressionICL
from theory.settings import check_int

__all__ = ["SparseBatch", "sample_sparse_tasks", "sample_sparse_prompts", "setting_data"]


def setting_data(setting: Setting, seed: int, label: str) -> SparseRegressionICL:
    """The §2 data model at ``setting``; a generic Σ (``Sigma_diag=None``) is ``diag(U[0.5, 2])``
    drawn from ``seed`` on the stream ``label``, so the draw does not move any other
    stream of the check.

    >>> setting_data(Setting(d=3, s=1, Sigma_diag=None), 0, "x").Sigma_diag != (1.0,) * 3
    True
    """
    if setting.Sigma_diag is None:
        diag = check_rng(seed, label, "Sigma").uniform(0.5, 2.0, setting.d)
        return setting.data(tuple(float(v) for v in diag))
    return setting.data()


@dataclass(frozen=True, slots=True)
class SparseBatch:
    """``B`` prompts of [czz24] §2: ``X`` (B, n, d), ``eps`` (B, n), ``y = Xw + eps`` (B, n), tasks
    ``w`` (B, d), queries ``xq`` (B, q, d) and their noisy labels ``yq`` (B, q).

    >>> st = SparseRegressionICL.isotropic(d=4, s=2, n=6, sigma2=0.25, q=3)
    >>> p = sample_sparse_prompts(st, 5, rng=np.random.default_rng(0))
    >>> p.X.shape, p.y.shape, p.w.shape, p.xq.shape, p.yq.shape
    ((5, 6, 4), (5, 6), (5, 4), (5, 3, 4), (5, 3))
    >>> bool(np.allclose(p.y, np.einsum("bnd,bd->bn", p.X, p.w) + p.eps))
    True
    """

    X: np.ndarray  # (B, n, d) context covariates
    eps: np.ndarray  # (B, n) context label noise
    y: np.ndarray  # (B, n) labels y = X w + eps
    w: np.ndarray  # (B, d) sparse tasks
    xq: np.ndarray  # (B, q, d) queries
    yq: np.ndarray  # (B, q) noisy query labels


def sample_sparse_tasks(
    setting: SparseRegressionICL, B: int, *, rng: np.random.Generator
) -> np.ndarray:
    """``B`` tasks: uniform support of size ``s``; values ``±1/√s`` (sign) or ``N(0, 1)``
    (gauss).  Returns (B, d).

    Source: [czz24] Thm 5.3 (sign prior) and App. B (Gaussian slab).

    >>> st = SparseRegressionICL.isotropic(d=8, s=4, n=10, sigma2=0.0)
    >>> w = sample_sparse_tasks(st, 100, rng=np.random.default_rng(0))
    >>> set((w != 0).sum(axis=1).tolist()), bool(np.allclose(np.abs(w[w != 0]), 1 / 2))
    ({4}, True)
    """
    B = check_int("B (number of prompts)", B, minimum=1)
    d, s = setting.d, setting.s
    keys = rng.random((B, d))
    supp = np.argsort(keys, axis=1)[:, :s]  # uniform s-subset
    if setting.prior == "sign":
        vals = rng.choice(np.array([-1.0, 1.0]), size=(B, s)) / math.sqrt(s)
    else:
        vals = rng.standard_normal((B, s))
    w = np.zeros((B, d))
    np.put_along_axis(w, supp, vals, axis=1)
    return w


def sample_sparse_prompts(
    setting: SparseRegressionICL, B: int, *, rng: np.random.Generator, n: int | None = None
) -> SparseBatch:
    """``B`` prompts of ``n`` (default ``setting.n``) context pairs and ``setting.q`` queries.

    Source: [czz24] §2: ``x ~ N(0, Σ)``, ``y = ⟨w*, x⟩ + ε``, ``ε ~ N(0, σ²)``.  Shapes: see
    :class:`SparseBatch`.

    >>> st = SparseRegressionICL.isotropic(d=3, s=1, n=5, sigma2=0.0)
    >>> p = sample_sparse_prompts(st, 4, rng=np.random.default_rng(0))
    >>> bool(np.allclose(p.yq, np.einsum("bqd,bd->bq", p.xq, p.w)))   # σ² = 0
    True
    """
    n = setting.n if n is None else check_int("n (context length)", n, minimum=1)
    w = sample_sparse_tasks(setting, B, rng=rng)
    S = setting.Sigma_x_array
    X = gaussian_rows(rng, (B, n), S)
    xq = gaussian_rows(rng, (B, setting.q), S)
    sd = math.sqrt(setting.sigma2)
    eps = sd * rng.standard_normal((B, n))
    y = np.einsum("bnd,bd->bn", X, w) + eps
    yq = np.einsum("bqd,bd->bq", xq, w) + sd * rng.standard_normal((B, setting.q))
    return SparseBatch(X=X, eps=eps, y=y, w=w, xq=xq, yq=yq)
