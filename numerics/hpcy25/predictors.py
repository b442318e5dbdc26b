"""The predictors of hpcy25 applied to sampled prompts (numpy, float64), and the exact conditional
risk given the covariates (β and the label noise integrated out).

Predictors, all on a batch ``X`` (B, L, d), ``y`` (B, L), ``xq`` (B, d):

* :func:`tf_weights` / :func:`tf_predict` -- H reparametrised softmax heads (3.2):
  ``ŷ = Σ_h μ_h Σ_i y_i softmax(ω_h X x_q)_i``;
* :func:`dgd_weights` -- debiased one-step GD (4.11): ``(η/L) Σ_i y_i (x_i − x̄)ᵀ P x_q``;
* :func:`gd_weights` -- vanilla one-step GD / linear attention: ``(η/L₀) Σ_i y_i x_iᵀ Γ x_q``;
* :func:`ridge_weights` -- ridge / Bayes posterior mean with ``λ = dσ²``;
* :func:`full_attention_predict` -- eq. (2.3) with full KQ^h, OV^h matrices (no reparametrisation).

Every predictor here is *linear in the labels*: ``ŷ = Σ_i w_i y_i`` with weights ``w`` that depend
only on ``X, x_q``.  :func:`conditional_risk` then integrates ``β ~ N(0, τ² I)`` and the noise
exactly (Rao–Blackwellisation): ``E[(y_q − wᵀy)² | X, x_q] = τ²‖x_q − Xᵀw‖²_Σβ + σ²(1 + ‖w‖²)``.
The Monte Carlo routes average it over sampled ``X, x_q``: an MC estimate with far smaller variance
that still only *applies the predictor* to sampled prompts (it never calls a theory risk).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from numerics.sampling import gaussian_rows

__all__ = [
    "softmax",
    "tf_weights",
    "tf_predict",
    "dgd_weights",
    "gd_weights",
    "ridge_weights",
    "conditional_risk",
    "full_attention_predict",
    "sample_covariates",
]


def softmax(s: np.ndarray, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax along ``axis``.

    >>> np.round(softmax(np.array([1000.0, 1000.0, 1000.0 + np.log(2.0)])), 12).tolist()
    [0.25, 0.25, 0.5]
    """
    s = s - s.max(axis=axis, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=axis, keepdims=True)


def sample_covariates(
    rng: np.random.Generator, B: int, L: int, d: int, Sigma: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Context covariates ``X`` (B, L, d) and queries ``x_q`` (B, d), rows ``N(0, Σ)`` (default
    ``I``), drawn by the shared :func:`numerics.sampling.gaussian_rows`.

    >>> X, xq = sample_covariates(np.random.default_rng(0), 5, 8, 3)
    >>> X.shape, xq.shape
    ((5, 8, 3), (5, 3))
    """
    S = np.eye(d) if Sigma is None else np.asarray(Sigma, dtype=float)
    return gaussian_rows(rng, (B, L), S), gaussian_rows(rng, (B,), S)


def tf_weights(
    X: np.ndarray, xq: np.ndarray, omega: ArrayLike, mu: ArrayLike, K: np.ndarray | None = None
) -> np.ndarray:
    """Label weights (B, L) of H reparametrised heads: ``w_i = Σ_h μ_h softmax(ω_h X K x_q)_i``.

    ``K`` (d, d) is an optional common KQ shape (``K11^h = ω_h K``; default ``I``).

    At ``ω = 0`` a head averages the labels: each weight is ``Σ_h μ_h / L``:

    >>> X, xq = sample_covariates(np.random.default_rng(0), 2, 4, 3)
    >>> tf_weights(X, xq, [0.0, 0.0], [1.0, 0.5]).tolist()
    [[0.375, 0.375, 0.375, 0.375], [0.375, 0.375, 0.375, 0.375]]
    """
    q = xq if K is None else xq @ np.asarray(K, dtype=float).T  # (B, d)
    base = np.einsum("bld,bd->bl", X, q)  # (B, L)  x_iᵀ K x_q
    w = np.zeros_like(base)
    for om, m in zip(np.atleast_1d(omega), np.atleast_1d(mu), strict=True):
        w += m * softmax(om * base)
    return w


def tf_predict(
    X: np.ndarray, y: np.ndarray, xq: np.ndarray, omega: np.ndarray, mu: np.ndarray
) -> np.ndarray:
    """``ŷ = Σ_h μ_h Σ_i y_i softmax(ω_h X x_q)_i`` (B,).

    Source: [hpcy25] (3.1)–(3.2).  At ``ω = 0`` both heads of the pair ``μ = (1, −1)`` average
    the labels, and they cancel:

    >>> X, xq = sample_covariates(np.random.default_rng(0), 2, 4, 3)
    >>> tf_predict(X, np.ones((2, 4)), xq, np.array([0.0, 0.0]), np.array([1.0, -1.0])).tolist()
    [0.0, 0.0]
    """
    return np.einsum("bl,bl->b", tf_weights(X, xq, omega, mu), y)


def dgd_weights(
    X: np.ndarray, xq: np.ndarray, eta: float, P: np.ndarray | None = None
) -> np.ndarray:
    """Debiased one-step GD (4.11): ``w_i = (η/L)(x_i − x̄)ᵀ P x_q`` (B, L).

    Centring makes the weights sum to zero (a constant label shift is ignored):

    >>> X, xq = sample_covariates(np.random.default_rng(0), 3, 6, 2)
    >>> bool(np.abs(dgd_weights(X, xq, 0.9).sum(axis=1)).max() < 1e-12)
    True
    """
    L = X.shape[1]
    Xc = X - X.mean(axis=1, keepdims=True)
    q = xq if P is None else xq @ np.asarray(P, dtype=float).T
    return eta / L * np.einsum("bld,bd->bl", Xc, q)


def gd_weights(
    X: np.ndarray,
    xq: np.ndarray,
    eta: float,
    Gamma: np.ndarray | None = None,
    L0: int | None = None,
) -> np.ndarray:
    """Vanilla one-step GD: ``w_i = (η/L₀) x_iᵀ Γ x_q`` (``L₀`` defaults to the prompt length).

    Source: [hpcy25] (D.25).  By hand: ``x_1 = (1, 0)``, ``x_2 = (0, 2)``, ``x_q = (1, 1)``,
    η = 1, L = 2 give ``w = (1/2, 2/2)``:

    >>> gd_weights(np.array([[[1.0, 0.0], [0.0, 2.0]]]), np.array([[1.0, 1.0]]), 1.0).tolist()
    [[0.5, 1.0]]
    """
    n0 = X.shape[1] if L0 is None else L0
    q = xq if Gamma is None else xq @ np.asarray(Gamma, dtype=float).T
    return eta / n0 * np.einsum("bld,bd->bl", X, q)


def ridge_weights(X: np.ndarray, xq: np.ndarray, lam: float) -> np.ndarray:
    """Ridge ``ŷ = x_qᵀ (XᵀX + λI)^{-1} Xᵀ y``: weights ``w = X (XᵀX + λI)^{-1} x_q`` (B, L).

    Source: [hpcy25] (D.34) (λ = dσ²: the Bayes predictor).  With ``X = I`` (L = d = 2) the
    weights are ``x_q / (1 + λ)``:

    >>> ridge_weights(np.eye(2)[None], np.array([[2.0, 4.0]]), 1.0).tolist()
    [[1.0, 2.0]]
    """
    d = X.shape[2]
    G = np.einsum("bld,ble->bde", X, X) + lam * np.eye(d)
    a = np.linalg.solve(G, xq[:, :, None])[:, :, 0]  # (B, d)
    return np.einsum("bld,bd->bl", X, a)


def conditional_risk(
    X: np.ndarray, xq: np.ndarray, w: np.ndarray, *, task_var: float, sigma2: float
) -> np.ndarray:
    """Exact ``E[(y_q − Σ_i w_i y_i)² | X, x_q]`` for ``β ~ N(0, τ² I)`` and noise σ² (B,).

    ``y_q − wᵀy = βᵀ(x_q − Xᵀw) + ε_q − wᵀε``, so the conditional risk is
    ``τ²‖x_q − Xᵀw‖² + σ²(1 + ‖w‖²)`` (the query noise is included).

    Predicting 0 (``w = 0``) costs ``τ²‖x_q‖² + σ²``: here ``0.5·(9 + 16) + 0.1``:

    >>> X, xq = np.zeros((1, 3, 2)), np.array([[3.0, 4.0]])
    >>> conditional_risk(X, xq, np.zeros((1, 3)), task_var=0.5, sigma2=0.1).round(12).tolist()
    [12.6]
    """
    r = xq - np.einsum("bl,bld->bd", w, X)
    return task_var * np.einsum("bd,bd->b", r, r) + sigma2 * (1.0 + np.einsum("bl,bl->b", w, w))


def full_attention_predict(Z: np.ndarray, KQ: np.ndarray, OV: np.ndarray) -> np.ndarray:
    """Eq. (2.3) with full circuits: ``ŷ = Σ_h OV^h Z_{1:L} softmax(Z_{1:L}ᵀ KQ^h z_q)``.

    ``Z`` (B, D, L+1) token matrix, ``KQ`` (H, D, D), ``OV`` (H, n_out, D); returns (B, n_out).
    The query attends to the L context columns only.

    With ``KQ = 0`` the attention is uniform, so one head with ``OV = (0, …, 0, 1)`` returns the
    mean of the context labels (the last row of ``Z``):

    >>> Z = np.array([[[1.0, 2.0, 3.0], [2.0, 4.0, 0.0]]])  # d = 1, L = 2: x, y rows; query last
    >>> full_attention_predict(Z, np.zeros((1, 2, 2)), np.array([[[0.0, 1.0]]])).tolist()
    [[3.0]]
    """
    L = Z.shape[2] - 1
    ctx, zq = Z[:, :, :L], Z[:, :, L]
    scores = np.einsum("bil,hij,bj->bhl", ctx, KQ, zq)  # (B, H, L)
    p = softmax(scores, axis=-1)
    return np.einsum("hoi,bil,bhl->bo", OV, ctx, p)
