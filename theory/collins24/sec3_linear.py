"""[collins24] §3 Theorem 3.6 (= Lemma F.1) and Remark 2.2: linear attention cannot beat Ω(L²),
its exact optimum m*·I on the affine class, and the small-ω link softmax ≈ mean + linear.

ŷ_LA = Σ_i y_i x_iᵀ M x (no 1/n, no normalisation).  For the affine class with x ~ U^d the loss is
a convex quadratic in M, rotation invariant, so the optimum is m*·I [derived].
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.collins24.domains import checked
from theory.common.backend import dual

__all__ = ["la_coefficients", "la_risk", "la_optimum", "la_floor", "small_omega_prediction"]


#: Symbols of the scalar builders (one SymPy expression each, evaluated by :func:`dual`).
_DNLS = sp.symbols("d n L sigma2", positive=True)


def _la_a(d: Any, n: Any, L: Any, sigma2: Any) -> Any:
    s = L**2 / 3
    return n * (s * (1 / d**2 + 1 / d) + sigma2 / d) + n * (n - 1) * s / d**3


def _la_b(d: Any, n: Any, L: Any, sigma2: Any) -> Any:
    return n * (L**2 / 3) / d**2


def _la_c(d: Any, n: Any, L: Any, sigma2: Any) -> Any:
    return (L**2 / 3) * (1 + 1 / d)


@checked
def la_coefficients(d: Any, n: Any, L: Any, sigma2: Any) -> tuple[Any, Any, Any]:
    """(a, b, c) with 𝓛_LA(mI) = a m² − 2 b m + c (affine class, x ~ U^d) [derived].

    Source: [collins24] Theorem 3.6 / Lemma F.1; [derived] (moments E[xxᵀ] = I/d,
    E[(vᵀx_i)²(x_iᵀx)²] = 1/d²).  With s = L²/3:

    .. math:: a = n[s(1/d^2 + 1/d) + σ^2/d] + n(n−1)s/d^3,\\ b = ns/d^2,\\ c = s(1 + 1/d)

    >>> [round(v, 6) for v in la_coefficients(5, 20, 1.0, 1e-4)]
    [2.613733, 0.266667, 0.4]
    """
    vals = (d, n, L, sigma2)
    return (dual(_la_a, _DNLS, vals), dual(_la_b, _DNLS, vals), dual(_la_c, _DNLS, vals))


@checked
def la_risk(m: Any, d: Any, n: Any, L: Any, sigma2: Any) -> Any:
    """𝓛_LA(mI) = a m² − 2bm + c (affine class) [derived].

    Source: [collins24] Theorem 3.6.

    >>> round(la_risk(0.0, 5, 20, 1.0, 1e-4), 6)
    0.4
    """
    a, b, c = la_coefficients(d, n, L, sigma2)
    return a * m**2 - 2 * b * m + c


@checked
def la_optimum(d: Any, n: Any, L: Any, sigma2: Any) -> tuple[Any, Any]:
    """(m*, 𝓛_LA*) = (b/a, c − b²/a), the exact optimum of linear attention [derived].

    Source: [collins24] Theorem 3.6; derived values ((20, 5, 1, 0.01): m* = 0.1020, 0.37279).

    >>> [round(v, 5) for v in la_optimum(5, 20, 1.0, 1e-4)]
    [0.10203, 0.37279]
    """
    a, b, c = la_coefficients(d, n, L, sigma2)
    return b / a, c - b**2 / a


@checked
def la_floor(L: Any) -> Any:
    """Theorem 3.6: 𝓛_LA(M) ≥ L²/3 for every M (the task intercept b ~ Unif[−L, L]).

    Source: [collins24] Theorem 3.6 (= Lemma F.1); [derived] (explicit constant).

    >>> la_floor(sp.Integer(1))
    1/3
    """
    return dual(lambda L: L**2 / 3, _DNLS[2:3], (L,))


@checked
def small_omega_prediction(X: Any, y: Any, x: Any, omega: float) -> np.ndarray:
    """ŷ ≈ ȳ + (ω/n) Σ_i (y_i − ȳ) x_iᵀx: softmax at small scale is the label mean plus linear
    attention on centred labels [derived]; error O(ω²).

    Source: [collins24] Remark 2.2.  Shapes: X (B, n, d), y (B, n), x (B, d).

    >>> X = np.array([[[1.0, 0.0], [0.0, 1.0]]]); y = np.array([[1.0, -1.0]])
    >>> small_omega_prediction(X, y, np.array([[1.0, 0.0]]), 0.1).tolist()
    [0.05]
    """
    X, y, x = np.asarray(X, float), np.asarray(y, float), np.asarray(x, float)
    if X.ndim != 3 or y.shape != X.shape[:2] or x.shape != (X.shape[0], X.shape[2]):
        raise ValueError(
            f"small_omega_prediction needs X (B, n, d), y (B, n), x (B, d); got "
            f"{X.shape}, {y.shape}, {x.shape}"
        )
    n = y.shape[-1]
    ybar = y.mean(-1)
    t = np.einsum("bnd,bd->bn", X, x)
    return ybar + omega / n * np.sum((y - ybar[:, None]) * t, axis=-1)
