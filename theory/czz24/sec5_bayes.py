"""[czz24] §5 (Thm 5.3 prior) and App. B priors: the Bayes-optimal predictor by support enumeration
[derived] (not in the paper).

``ŵ_Bayes = Σ_S p(S | X, y) μ_S`` over all ``C(d, s)`` supports; for the sign prior the slab is a
sum over the ``2^s`` sign patterns of ``±1/√s``; for the Gaussian prior ``w_S ~ N(0, τ² I_s)``.
"""

from __future__ import annotations

import functools
import itertools
import math
from typing import Any

import numpy as np

from theory.czz24.domains import checked

__all__ = ["bayes_posterior_mean", "supports"]


def _normalised(logp: np.ndarray) -> np.ndarray:
    """``exp(logp − logsumexp(logp))`` (numpy only)."""
    p = np.exp(logp - np.max(logp))
    return p / np.sum(p)


@checked
def supports(d: int, s: int) -> np.ndarray:
    """All ``C(d, s)`` supports as an index array ``(C(d,s), s)`` (lexicographic order).

    >>> supports(3, 2).tolist()
    [[0, 1], [0, 2], [1, 2]]
    """
    d, s = int(d), int(s)
    if s > d:
        raise ValueError(f"s (sparsity) must be ≤ d = {d} (C(d, s) supports), got s = {s}")
    return _supports(d, s).copy()


@functools.lru_cache(maxsize=32)
def _supports(d: int, s: int) -> np.ndarray:
    """:func:`supports`, built once per ``(d, s)`` (the posterior mean enumerates them for every
    context); read-only."""
    out = np.array(list(itertools.combinations(range(d), s)), dtype=int).reshape(-1, s)
    out.flags.writeable = False
    return out


@functools.lru_cache(maxsize=32)
def _candidates_sign(d: int, s: int) -> np.ndarray:
    """The ``C(d,s)·2^s`` sign-prior candidates (d-vectors), once per ``(d, s)``; read-only."""
    S = _supports(d, s)
    signs = np.array(list(itertools.product((-1.0, 1.0), repeat=s)))
    W = np.zeros((S.shape[0], signs.shape[0], d))
    rows = np.arange(S.shape[0])[:, None, None]
    cols = np.arange(signs.shape[0])[None, :, None]
    W[rows, cols, S[:, None, :]] = signs[None, :, :] / math.sqrt(s)
    out = W.reshape(-1, d)
    out.flags.writeable = False
    return out


@checked
def bayes_posterior_mean(
    X: Any, y: Any, s: int, sigma2: float, prior: str = "sign", tau2: float = 1.0
) -> np.ndarray:
    r"""Posterior mean ``E[w* | X, y]`` under the sparse prior (exact, by enumeration) [derived].

    Source: [derived] "Bayes-optimal estimator" [derived]; priors of [czz24] Thm 5.3 (sign)
    and App. B (Gaussian slab, τ² = 1).

    .. math:: \hat w = \sum_S p(S\mid X,y)\,\mu_S,\quad
        \mu_S = \tau^2X_S^\top(\tau^2X_SX_S^\top + \sigma^2I_n)^{-1}y,\quad
        p(S\mid X, y) \propto \mathcal N(y; 0, \tau^2X_SX_S^\top + \sigma^2 I_n);

    for the sign prior the candidates are the ``C(d,s)·2^s`` vectors ``±1/√s`` on ``S`` with
    likelihood ``exp(−‖y − Xw‖²/(2σ²))``.

    Parameters
    ----------
    X : n×d;  y : (n,);  s : sparsity;  sigma2 : σ² > 0;  prior : "sign" or "gauss";  tau2 : τ²

    Returns
    -------
    (d,) float64.

    Examples
    --------
    >>> w = bayes_posterior_mean(np.eye(2), [1.0, 0.0], 1, 1e-4)   # y reveals w = e_1
    >>> np.round(w, 6).tolist()
    [1.0, 0.0]
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float).reshape(-1)
    n, d = X.shape
    s, s2 = int(s), float(sigma2)
    if s > d:
        raise ValueError(f"s must be ≤ d = {d}, got {s}")
    if prior == "sign":
        W = _candidates_sign(d, s)
        res = y[None, :] - W @ X.T
        logp = -0.5 * np.sum(res**2, axis=1) / s2
        return _normalised(logp) @ W
    t2 = float(tau2)
    S = _supports(d, s)
    G, c = X.T @ X / s2, X.T @ y / s2  # every support's blocks are read off these
    A = G[S[:, :, None], S[:, None, :]] + np.eye(s) / t2  # posterior precision (K, s, s)
    b = c[S]
    mu = np.linalg.solve(A, b[..., None])[..., 0]
    _, logdet = np.linalg.slogdet(A * t2)
    logp = 0.5 * np.einsum("ki,ki->k", b, mu) - 0.5 * logdet
    p = _normalised(logp)
    out = np.zeros(d)
    np.add.at(out, S.ravel(), (p[:, None] * mu).ravel())
    return out
