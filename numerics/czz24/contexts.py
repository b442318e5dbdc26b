"""Random contexts for the float / symbolic checks of [czz24]'s constructions (route module):
dense Gaussian contexts of a given shape (the generic cases), one context of a Setting's §2 data
model (the checks at a setting), and symbolic contexts."""

from __future__ import annotations

import numpy as np
import sympy as sp

from numerics.czz24.sampling import sample_sparse_prompts, setting_data
from numerics.sampling import check_rng
from theory.czz24.settings import Setting

__all__ = ["random_context", "setting_context", "symbolic_context", "token_matrix"]


def random_context(
    rng: np.random.Generator, d: int, n: int, q: int, sigma: float = 0.5
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(X n×d, y (n,), Xq q×d)`` with a dense Gaussian task (every ``r̂_j ≠ 0`` a.s.).

    >>> from theory.czz24 import rhat
    >>> X, y, Xq = random_context(np.random.default_rng(0), 3, 10, 2)
    >>> X.shape, y.shape, Xq.shape, bool(np.all(rhat(X, y) != 0))
    ((10, 3), (10,), (2, 3), True)
    """
    w = rng.standard_normal(d)
    X = rng.standard_normal((n, d))
    return X, X @ w + sigma * rng.standard_normal(n), rng.standard_normal((q, d))


def setting_context(
    setting: Setting, seed: int, label: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One context of the setting's §2 data model, ``(X n×d, y (n,), Xq q×d, yq (q,))``: its d, s,
    n, σ², prior, Σ (a generic Σ drawn too) and q queries, on the stream ``label`` of ``seed``.

    >>> X, y, Xq, yq = setting_context(Setting(d=3, s=2, n=5, q=2), 0, "doc")
    >>> X.shape, y.shape, Xq.shape, yq.shape
    ((5, 3), (5,), (2, 3), (2,))
    """
    st = setting_data(setting, seed, label)
    p = sample_sparse_prompts(st, 1, rng=check_rng(seed, label))
    return p.X[0], p.y[0], p.xq[0], p.yq[0]


def token_matrix(X: np.ndarray, y: np.ndarray, Xq: np.ndarray) -> np.ndarray:
    """Eq. (2.3): ``E = [[x_1 … x_n, x_{n+1} … x_{n+q}], [y_1 … y_n, 0 … 0]]`` ((d+1) × (n+q)).

    >>> token_matrix(np.array([[1.0, 2.0]]), np.array([3.0]), np.array([[4.0, 5.0]])).tolist()
    [[1.0, 4.0], [2.0, 5.0], [3.0, 0.0]]
    """
    q = Xq.shape[0]
    return np.vstack([np.hstack([X.T, Xq.T]), np.hstack([y, np.zeros(q)])[None, :]])


def symbolic_context(d: int, n: int, q: int) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix]:
    """Symbols ``x_{i,j}``, ``y_i`` and query symbols ``z_{k,j}`` (``X`` n×d, ``y`` n×1, ``Xq``
    q×d SymPy matrices).

    >>> X, y, Xq = symbolic_context(2, 1, 1)
    >>> X, y, Xq
    (Matrix([[x_00, x_01]]), Matrix([[y_0]]), Matrix([[z_00, z_01]]))
    """
    X = sp.Matrix(n, d, lambda i, j: sp.Symbol(f"x_{i}{j}", real=True))
    y = sp.Matrix(n, 1, lambda i, _: sp.Symbol(f"y_{i}", real=True))
    Xq = sp.Matrix(q, d, lambda i, j: sp.Symbol(f"z_{i}{j}", real=True))
    return X, y, Xq
