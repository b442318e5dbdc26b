"""[czz24] S1 predictions (numpy): the tuned constant-η k-step (pre-)GD optimum of a sample of
contexts, by the eigen-decomposition closed form of k constant-η GD steps from 0,
``v = U diag((1 − (1 − ηλ)^k)/λ) Uᵀ b``, minimised over η (grid, then a bounded scalar search), and
ridge* on the same contexts.  The trained S1 model (:mod:`sims.czz24`) is
compared with these on the same contexts (paired); nothing here is imported by a trained route.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize_scalar

from numerics.czz24.predictors import ridge_fit
from numerics.czz24.risk import LAMBDA_GRID

__all__ = [
    "GD_LAYERS",
    "ETA_GRID_POINTS",
    "Optimum",
    "s1_gram",
    "constant_eta_optimum",
    "ridge_star_errors",
]

#: GD layers of the S1 model (spec V-sims S1: K = 4).
GD_LAYERS = 4
#: Points of the η grid of the numpy optimum (log-spaced, before the scalar refinement).
ETA_GRID_POINTS = 31


def s1_gram(
    X: np.ndarray, y: np.ndarray, preprocess: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(G, b, scale)`` per context of the GD loss ``½wᵀGw − bᵀw``: pre-GD (``preprocess``)
    ``G = R̂Σ̂R̂``, ``b = r̂ ⊙ r̂``, ``scale = r̂`` ([czz24] Eq. (4.3)); raw GD ``Σ̂``, ``r̂``, ones.
    ``X`` (B, n, d), ``y`` (B, n); returns (B, d, d), (B, d), (B, d).

    >>> from theory.czz24 import pregd_gram
    >>> X, y = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.array([1.0, -0.5, 1.0])
    >>> G, b, scale = s1_gram(X[None], y[None], True)
    >>> [bool(np.allclose(a[0], e)) for a, e in zip((G, b, scale), pregd_gram(X, y))]
    [True, True, True]
    """
    n = X.shape[1]
    r = (np.swapaxes(X, 1, 2) @ y[..., None])[..., 0] / n
    Xf = X * r[:, None, :] if preprocess else X
    G = np.swapaxes(Xf, 1, 2) @ Xf / n
    b = (np.swapaxes(Xf, 1, 2) @ y[..., None])[..., 0] / n
    return G, b, (r if preprocess else np.ones_like(r))


def _closed_form_errors(
    lam: np.ndarray,
    U: np.ndarray,
    c: np.ndarray,
    scale: np.ndarray,
    w: np.ndarray,
    eta: float,
    k: int,
) -> np.ndarray:
    """Per-context ``‖scale ⊙ v_k − w‖²`` with ``v_k = U g(Λ) Uᵀ b`` (``c = Uᵀ b``), g the k-step
    GD filter ``(1 − (1 − ηλ)^k)/λ`` (``kη`` at λ = 0)."""
    with np.errstate(over="ignore", invalid="ignore"):
        small = np.abs(lam) < 1e-300
        g = np.where(small, k * eta, (1.0 - (1.0 - eta * lam) ** k) / np.where(small, 1.0, lam))
        v = (U @ (g * c)[..., None])[..., 0]
        return np.sum((scale * v - w) ** 2, axis=1)


@dataclass(frozen=True, slots=True)
class Optimum:
    """The tuned step ``eta``, the mean error ``risk`` over the contexts, its ``se`` and the
    per-context ``errors`` (B,) at that step (:func:`constant_eta_optimum`).

    ``risk`` and ``se`` are the mean of ``errors`` and its standard error (population std, ddof 0,
    over √B):

    >>> from numerics.czz24.sampling import sample_sparse_prompts
    >>> from theory.czz24.settings import SparseRegressionICL
    >>> st = SparseRegressionICL.isotropic(d=4, s=2, n=12, sigma2=0.25)
    >>> p = sample_sparse_prompts(st, 20, rng=np.random.default_rng(0))
    >>> o = constant_eta_optimum(p.X, p.y, p.w, preprocess=True)
    >>> e = o.errors
    >>> e.shape, bool(np.isclose(o.risk, e.mean())), bool(np.isclose(o.se, e.std() / 20**0.5))
    ((20,), True, True)
    """

    eta: float
    risk: float
    se: float
    errors: np.ndarray  # per context at the optimum


def constant_eta_optimum(
    X: np.ndarray, y: np.ndarray, w: np.ndarray, *, preprocess: bool, k: int = GD_LAYERS
) -> Optimum:
    """Tuned constant-η k-step (pre-)GD on these contexts (numpy, closed form per η): grid over
    ``η λ̄ ∈ [10⁻³, 3]`` (λ̄ the median λ_max), then a bounded scalar search around the argmin.

    Source: [czz24] Props. 4.1–4.2 (the k-layer construction runs k pre-GD steps, Eq. (4.3)).
    ``X`` (B, n, d), ``y`` (B, n), ``w`` (B, d).  The spectral closed form agrees with the
    step-by-step recursion at the chosen η:

    >>> from numerics.czz24.sampling import sample_sparse_prompts
    >>> from theory.czz24.settings import SparseRegressionICL
    >>> st = SparseRegressionICL.isotropic(d=4, s=2, n=12, sigma2=0.25)
    >>> p = sample_sparse_prompts(st, 20, rng=np.random.default_rng(0))
    >>> from numerics.czz24.predictors import pregd_path
    >>> o = constant_eta_optimum(p.X, p.y, p.w, preprocess=True)
    >>> path = pregd_path(p.X, p.y, o.eta, 4)
    >>> bool(np.isclose(o.risk, np.mean(np.sum((path[4] - p.w) ** 2, axis=1))))
    True
    """
    G, b, scale = s1_gram(X, y, preprocess)
    lam, U = np.linalg.eigh(G)
    c = (np.swapaxes(U, 1, 2) @ b[..., None])[..., 0]
    lbar = float(np.median(lam[:, -1]))
    logs = np.log(np.geomspace(1e-3, 3.0, ETA_GRID_POINTS) / lbar)

    def risk(le: float) -> float:
        e = _closed_form_errors(lam, U, c, scale, w, float(np.exp(le)), k)
        m = float(np.mean(e))
        return m if np.isfinite(m) else math.inf

    vals = [risk(le) for le in logs]
    i = int(np.argmin(vals))
    lo, hi = logs[max(i - 1, 0)], logs[min(i + 1, len(logs) - 1)]
    res = minimize_scalar(risk, bounds=(lo, hi), method="bounded", options={"xatol": 1e-4})
    x, fun = float(getattr(res, "x")), float(getattr(res, "fun"))  # noqa: B009 (scipy stubs)
    le = x if fun <= vals[i] else float(logs[i])
    e = _closed_form_errors(lam, U, c, scale, w, float(np.exp(le)), k)
    return Optimum(
        eta=float(np.exp(le)),
        risk=float(np.mean(e)),
        se=float(np.std(e) / math.sqrt(len(e))),
        errors=e,
    )


def ridge_star_errors(X: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Per-context errors of ridge at the λ of ``LAMBDA_GRID`` with the least mean error
    (normalised ridge ``(XᵀX/n + λ)⁻¹Xᵀy/n`` in the eigenbasis of XᵀX/n, every λ at once); the
    chosen λ is recomputed by :func:`numerics.czz24.predictors.ridge_fit`.

    ``X`` (B, n, d), ``y`` (B, n), ``w`` (B, d); returns (B,).  λ = 1 is a grid point, so ridge*
    is no worse:

    >>> from numerics.czz24.sampling import sample_sparse_prompts
    >>> from theory.czz24.settings import SparseRegressionICL
    >>> st = SparseRegressionICL.isotropic(d=4, s=2, n=12, sigma2=0.25)
    >>> p = sample_sparse_prompts(st, 20, rng=np.random.default_rng(0))
    >>> from numerics.czz24.predictors import ridge_fit
    >>> at_1 = np.sum((ridge_fit(p.X, p.y, 1.0) - p.w) ** 2, axis=1).mean()
    >>> bool(ridge_star_errors(p.X, p.y, p.w).mean() <= at_1)
    True
    """
    G, b, _ = s1_gram(X, y, False)
    lam, U = np.linalg.eigh(G)
    c = (np.swapaxes(U, 1, 2) @ b[..., None])[..., 0]
    best, best_lam = None, LAMBDA_GRID[0]
    for lm in LAMBDA_GRID:
        e = np.sum(((U @ (c / (lam + lm))[..., None])[..., 0] - w) ** 2, axis=1)
        if best is None or float(np.mean(e)) < float(np.mean(best)):
            best, best_lam = e, lm
    return np.sum((ridge_fit(X, y, best_lam) - w) ** 2, axis=1)
