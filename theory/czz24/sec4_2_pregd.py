"""[czz24] §4.2 Eq. (4.3): pre-GD (GD on the Alg. 1-preprocessed context) in closed form.

All functions act on one context ``(X, y)`` (``X`` n×d) in float64:
``Ĝ = R̂Σ̂R̂``, ``b̃ = r̂ ⊙ r̂``, ``w̃^t = U diag(φ_t(λ)) Uᵀ b̃`` with
``φ_t(λ) = (1 − (1 − ηλ)^t)/λ`` (``φ_t(0) = ηt``), effective coefficient ``ŵ = r̂ ⊙ w̃^t``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.common.backend import dual
from theory.common.symbols import eta as eta_sym
from theory.common.symbols import lam as lam_sym
from theory.common.symbols import t as t_sym
from theory.czz24.domains import checked
from theory.czz24.sec4_constructions import rhat

__all__ = [
    "phi",
    "pregd_gram",
    "pregd_iterate",
    "pregd_coefficient",
    "gd_coefficient",
    "pregd_limit",
    "minnorm_interpolator",
    "pregd_flow",
    "pregd_population",
    "gd_population",
    "one_step_prediction",
]


def _phi_expr(lam: Any, eta: Any, t: Any) -> sp.Expr:
    return sp.Piecewise((eta * t, sp.Eq(lam, 0)), ((1 - (1 - eta * lam) ** t) / lam, True))


@checked
def phi(lam: Any, eta: Any, t: Any) -> Any:
    r"""Spectral filter of ``t`` GD steps from 0 with step ``η`` on an eigenvalue ``λ``.

    Source: [czz24] Eq. (4.3), spectral form [derived].

    .. math:: \varphi_t(\lambda) = \frac{1 - (1-\eta\lambda)^t}{\lambda},\qquad
        \varphi_t(0) = \eta t .

    >>> float(phi(0.5, 1.0, 2)), float(phi(0.0, 0.1, 3))
    (1.5, 0.30000000000000004)
    >>> round(float(phi(1e-20, 0.1, 3)), 12)   # → ηt as λ → 0, no cancellation
    0.3
    """
    if not isinstance(lam, np.ndarray) and not isinstance(lam, (int, float)):
        return dual(_phi_expr, (lam_sym, eta_sym, t_sym), (lam, eta, t))
    lam = np.asarray(lam, dtype=float)
    # below the smallest normal float, ηλ underflows: the limit ηt is exact there
    small = np.abs(lam) < np.finfo(float).tiny
    safe = np.where(small, 1.0, lam)
    with np.errstate(over="ignore"):  # ηλ > 2 (a divergent step) overflows to ±inf at large t
        # 1 − (1−ηλ)^t = −expm1(t·log1p(−ηλ)) where 1 − ηλ > 0: no cancellation at small ηλ
        # (the direct form returned 0 at λ = 1e-20, not ηt); the direct form elsewhere
        # (1 − ηλ ≤ 0: no cancellation, and log1p is undefined)
        x = -eta * safe
        pos = x > -1.0
        val = (
            np.where(
                pos,
                -np.expm1(t * np.log1p(np.where(pos, x, 0.0))),
                1.0 - (1.0 + x) ** t,
            )
            / safe
        )
    return np.where(small, eta * t, val)


@checked
def pregd_gram(X: Any, y: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(Ĝ, b̃, r̂)`` with ``Ĝ = R̂Σ̂R̂``, ``Σ̂ = XᵀX/n``, ``b̃ = R̂r̂``.

    Source: [czz24] Eq. (4.3) (the loss on the preprocessed context ``x̃_i = R̂x_i``; App. D
    writes ``Ĝ`` as "Σ̂").  ``X`` n×d, ``y`` (n,); returns d×d, (d,), (d,).

    >>> G, b, r = pregd_gram(np.eye(2), np.array([2.0, 0.0]))   # r̂ = Xᵀy/n = (1, 0), Σ̂ = I/2
    >>> G.tolist(), b.tolist(), r.tolist()
    ([[0.5, 0.0], [0.0, 0.0]], [1.0, 0.0], [1.0, 0.0])
    """
    X = np.asarray(X, dtype=float)
    r = rhat(X, y)
    S = X.T @ X / X.shape[0]
    return r[:, None] * S * r[None, :], r * r, r


def _spectral(G: np.ndarray, b: np.ndarray, filt: Any) -> np.ndarray:
    lam, U = np.linalg.eigh(G)
    return U @ (filt(lam) * (U.T @ b))


def _check(eta: Any, t: Any) -> tuple[float, int]:
    return float(eta), int(t)


@checked
def pregd_iterate(X: Any, y: Any, eta: float, t: int) -> np.ndarray:
    r"""The pre-GD iterate ``w̃^t`` (preprocessed coordinates) in spectral closed form.

    Source: [czz24] Eq. (4.3); spectral form [derived].

    .. math:: \tilde w^t = \eta\sum_{k<t}(I - \eta\hat G)^k\tilde b
        = U\,\mathrm{diag}(\varphi_t(\lambda_k))\,U^\top \tilde b .

    Examples
    --------
    >>> X, y = np.eye(2), np.array([2.0, 0.0])   # r̂ = (1, 0), Ĝ = diag(1/2, 0)
    >>> pregd_iterate(X, y, 1.0, 1).tolist()      # w̃^1 = η b̃ = η r̂²
    [1.0, 0.0]
    """
    eta, t = _check(eta, t)
    G, b, _ = pregd_gram(X, y)
    return _spectral(G, b, lambda lam: phi(lam, eta, t))


@checked
def pregd_coefficient(X: Any, y: Any, eta: float, t: int) -> np.ndarray:
    """Effective raw-space coefficient ``ŵ_pre^t = R̂ w̃^t`` (prediction ``⟨ŵ, x⟩``).

    Source: [czz24] Eq. (4.3) and Alg. 1 (the query is preprocessed by the same ``R̂``).
    ``X`` n×d, ``y`` (n,); returns (d,).

    With ``X = I_2``, ``y = (2, 0)``: ``Ĝ = diag(1/2, 0)``, ``r̂ = b̃ = (1, 0)``, so with
    ``η = 1`` the first coordinate is ``2(1 − 2^{−t})`` (→ the OLS value 2):

    >>> pregd_coefficient(np.eye(2), [2.0, 0.0], 1.0, 3).tolist()
    [1.75, 0.0]
    """
    return rhat(X, y) * pregd_iterate(X, y, eta, t)


@checked
def gd_coefficient(X: Any, y: Any, eta: float, t: int) -> np.ndarray:
    r"""Raw GD from 0, ``w^t = η Σ_{k<t}(I − ηΣ̂)^k Xᵀy/n`` ([czz24] App. E, Eq. (E.3); the
    comparison of Thm 5.2).  ``X`` n×d, ``y`` (n,); returns (d,).

    With ``Σ̂ = I/2`` and ``Xᵀy/n = (1, 1)``, each coordinate is ``2(1 − 2^{−t})`` at ``η = 1``:

    >>> gd_coefficient(np.eye(2), [2.0, 2.0], 1.0, 3).tolist()
    [1.75, 1.75]
    """
    eta, t = _check(eta, t)
    X = np.asarray(X, dtype=float)
    return _spectral(X.T @ X / X.shape[0], rhat(X, y), lambda lam: phi(lam, eta, t))


@checked
def minnorm_interpolator(X: Any, y: Any, weights: Any | None = None) -> np.ndarray:
    r"""``argmin Σ_j ŵ_j²/ω_j s.t. Xŵ = y`` = ``Ω Xᵀ(XΩXᵀ)⁻¹y`` (``Ω = diag(ω)``, default I).

    [derived]: the n < d limit of pre-GD (:func:`pregd_limit`, ``ω = r̂²``) and of GD (``ω = 1``).
    ``X`` n×d with n ≤ d, ``y`` (n,), ``weights`` (d,) > 0; returns (d,).

    >>> minnorm_interpolator([[1.0, 1.0]], [2.0]).tolist()
    [1.0, 1.0]
    >>> minnorm_interpolator([[1.0, 1.0]], [2.0], [1.0, 3.0]).tolist()   # Ω·2/4
    [0.5, 1.5]
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float).reshape(-1)
    if X.ndim != 2 or X.shape[0] > X.shape[1] or y.shape[0] != X.shape[0]:
        raise ValueError(
            f"X must be n × d with n ≤ d and y of length n (an interpolator), got X "
            f"{X.shape} and y {y.shape}"
        )
    om = np.ones(X.shape[1]) if weights is None else np.asarray(weights, dtype=float)
    XO = X * om[None, :]
    return XO.T @ np.linalg.solve(XO @ X.T, y)


@checked
def pregd_limit(X: Any, y: Any) -> np.ndarray:
    r"""``lim_{t→∞} R̂ w̃^t`` for ``0 < η < 2/λ_max(Ĝ)``, all ``r̂_j ≠ 0`` [derived].

    .. math:: n \ge d:\ \hat\Sigma^{-1}\hat r = \hat w_{\rm OLS}; \qquad
        n < d:\ \hat R^2X^\top(X\hat R^2X^\top)^{-1}y
        \ (\min \textstyle\sum_j \hat w_j^2/\hat r_j^2).

    Source: [czz24] Eq. (4.3) as ``t → ∞`` [derived].  ``X`` n×d, ``y`` (n,); returns (d,).

    >>> X, y = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.array([1.0, -0.5, 1.0])
    >>> np.allclose(pregd_limit(X, y), np.linalg.lstsq(X, y, rcond=None)[0])   # n ≥ d: OLS
    True
    >>> np.allclose(pregd_coefficient(X, y, 2.0, 1000), pregd_limit(X, y))
    True
    """
    X = np.asarray(X, dtype=float)
    n, d = X.shape
    if n >= d:
        return np.linalg.solve(X.T @ X, X.T @ np.asarray(y, dtype=float).reshape(-1))
    return minnorm_interpolator(X, y, rhat(X, y) ** 2)


@checked
def pregd_flow(X: Any, y: Any, tau: float) -> np.ndarray:
    r"""Gradient-flow pre-GD ``w̃(τ) = (I − e^{−τĜ})Ĝ⁺b̃`` [derived]; τ ↔ ηt.

    Source: [czz24] Eq. (4.3) in continuous time (the limit ``η → 0`` at fixed ``ηt = τ``).
    ``X`` n×d, ``y`` (n,); returns ``w̃(τ)`` (d,) in preprocessed coordinates.

    With ``Ĝ = diag(1/2, 0)``, ``b̃ = (1, 0)``: ``w̃_1(τ) = 2(1 − e^{−τ/2})`` = 1 at ``τ = 2 ln 2``:

    >>> np.round(pregd_flow(np.eye(2), [2.0, 0.0], 2 * np.log(2)), 6).tolist()
    [1.0, 0.0]
    >>> X, y = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.array([1.0, -0.5, 1.0])
    >>> np.allclose(pregd_flow(X, y, 3.0), pregd_iterate(X, y, 1e-3, 3000), atol=1e-3)
    True
    """
    tau = float(tau)
    G, b, _ = pregd_gram(X, y)

    def filt(lam: np.ndarray) -> np.ndarray:
        small = np.abs(lam) < 1e-300
        return np.where(small, tau, -np.expm1(-tau * lam) / np.where(small, 1.0, lam))

    return _spectral(G, b, filt)


@checked
def pregd_population(w: Any, Sigma_diag: Any, eta: float, t: int) -> np.ndarray:
    r"""Population (``n → ∞``) limit of ``ŵ_pre^t`` for diagonal Σ [derived].

    .. math:: \hat w_j^t \to w^*_j\bigl[1 - (1 - \eta r_j^2\Sigma_{jj})^t\bigr],\quad
        r_j = \Sigma_{jj} w^*_j .

    >>> pregd_population([0.5, 0.0], [1.0, 1.0], 4.0, 1).tolist()   # η = 1/β² = s: exact in 1 step
    [0.5, 0.0]
    """
    eta, t = _check(eta, t)
    w, S = np.asarray(w, dtype=float), np.asarray(Sigma_diag, dtype=float)
    r = S * w
    return w * (1.0 - (1.0 - eta * r**2 * S) ** t)


@checked
def gd_population(w: Any, Sigma_diag: Any, eta: float, t: int) -> np.ndarray:
    """Population limit of raw GD, ``w*_j[1 − (1 − ηΣ_jj)^t]`` [derived].

    Source: [czz24] Eq. (E.3) as ``n → ∞`` (``Σ̂ → Σ``, ``Xᵀy/n → Σw*``), diagonal Σ.
    ``w``, ``Sigma_diag`` (d,); returns (d,).

    >>> gd_population([1.0, 0.0], [1.0, 1.0], 0.5, 2).tolist()   # 1 − (1/2)²
    [0.75, 0.0]
    """
    eta, t = _check(eta, t)
    w, S = np.asarray(w, dtype=float), np.asarray(Sigma_diag, dtype=float)
    return w * (1.0 - (1.0 - eta * S) ** t)


@checked
def one_step_prediction(X: Any, y: Any, x_query: Any, eta: Any) -> Any:
    r"""One pre-GD step cubes the correlations [derived]: ``ŷ^1 = η Σ_j r̂_j³ x_j``.

    Works on SymPy matrices too (used by the symbolic check of Prop. 4.1 + 4.2).

    Source: [czz24] Eq. (4.3) at ``t = 1`` (``w̃^1 = η b̃ = η r̂ ⊙ r̂``, ``ŵ = r̂ ⊙ w̃^1``).
    ``X`` n×d, ``y`` (n,), ``x_query`` (d,).

    >>> one_step_prediction(np.eye(2), [2.0, 4.0], [1.0, 1.0], 0.5)   # r̂ = (1, 2): 0.5·(1 + 8)
    4.5
    >>> import sympy as sp
    >>> a, b, x = sp.symbols("a b x")
    >>> one_step_prediction(sp.Matrix([[a]]), sp.Matrix([b]), [x], 1)   # r̂ = ab, n = 1
    a**3*b**3*x
    """
    r = rhat(X, y)
    if isinstance(r, np.ndarray):
        return float(eta * np.sum(r**3 * np.asarray(x_query, dtype=float).reshape(-1)))
    xq = sp.Matrix(x_query)
    return sp.expand(eta * sum(r[j] ** 3 * xq[j] for j in range(r.shape[0])))
