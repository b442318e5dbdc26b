"""[czz24] §4–§5 literal predictors, batched over contexts (numpy): the pre-GD and GD recursions
(Eq. 4.3 step by step, not the spectral form), ridge, OLS / min-norm, Lasso (scikit-learn) and the
Bayes posterior mean.  ``X`` is ``(B, n, d)``, ``y`` is ``(B, n)``.
"""

from __future__ import annotations

import warnings

import numpy as np

from theory.czz24 import bayes_posterior_mean

__all__ = [
    "pregd_path",
    "gd_path",
    "ridge_fit",
    "ols_fit",
    "lasso_fit",
    "bayes_fit",
    "ALPHA_GRID",
    "batch_lambda_max",
]

#: coordinate-descent stopping tolerance of the lasso fit (sklearn)
LASSO_TOL = 1e-6

#: The paper's tuning grid for λ and α (App. B, spec §1.5).
ALPHA_GRID = (1.0, 1e-1, 1e-2, 1e-3, 1e-4)


def _path(
    Xf: np.ndarray, y: np.ndarray, eta: float, steps: int, scale: np.ndarray | None
) -> np.ndarray:
    """GD from 0 on ``(1/2n)‖y − Xf w‖²``; returns iterates ``(steps + 1, B, d)`` in the raw
    coordinates (``scale ⊙ w̃`` when the features are rescaled by ``scale``)."""
    B, n, d = Xf.shape
    Xt = np.swapaxes(Xf, 1, 2)
    A = np.eye(d) - eta * (Xt @ Xf) / n  # (B, d, d): w ← A w + η b
    eb = eta * (Xt @ y[..., None]) / n  # (B, d, 1)
    w = np.zeros((B, d, 1))
    out = np.empty((steps + 1, B, d))
    out[0] = 0.0
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(1, steps + 1):
            w = A @ w + eb
            out[k] = w[..., 0] if scale is None else scale * w[..., 0]
    return out


def pregd_path(X: np.ndarray, y: np.ndarray, eta: float, steps: int) -> np.ndarray:
    """Alg. 1 then GD (Eq. 4.3), step by step: ``ŵ^t = r̂ ⊙ w̃^t`` for t = 0..steps.

    Source: [czz24] Alg. 1 and Eq. (4.3).  ``X`` (B, n, d), ``y`` (B, n); returns
    ``(steps + 1, B, d)``.  The recursion agrees with the spectral closed form:

    >>> from theory.czz24 import pregd_coefficient
    >>> X, y = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.array([1.0, -0.5, 1.0])
    >>> path = pregd_path(X[None], y[None], 0.5, 3)
    >>> path.shape, bool(np.allclose(path[3, 0], pregd_coefficient(X, y, 0.5, 3)))
    ((4, 1, 2), True)
    """
    r = np.einsum("bni,bn->bi", X, y) / X.shape[1]
    return _path(X * r[:, None, :], y, eta, steps, r)


def gd_path(X: np.ndarray, y: np.ndarray, eta: float, steps: int) -> np.ndarray:
    """Raw GD from 0, step by step: ``w^t`` for t = 0..steps.

    Source: [czz24] App. E, Eq. (E.3).  ``X`` (B, n, d), ``y`` (B, n); returns
    ``(steps + 1, B, d)``.

    >>> from theory.czz24 import gd_coefficient
    >>> X, y = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.array([1.0, -0.5, 1.0])
    >>> bool(np.allclose(gd_path(X[None], y[None], 0.5, 3)[3, 0], gd_coefficient(X, y, 0.5, 3)))
    True
    """
    return _path(X, y, eta, steps, None)


def ridge_fit(X: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """Normalised ridge ``(XᵀX + nλI)⁻¹Xᵀy`` ([czz24] App. F convention); (B, d).

    With ``X = 2I_2`` (n = 2): ``(4 + 2λ)⁻¹·2y`` = ``y/3`` at λ = 1:

    >>> ridge_fit(2 * np.eye(2)[None], np.array([[3.0, 6.0]]), 1.0).tolist()
    [[1.0, 2.0]]

    At λ = 0 it is the λ → 0⁺ limit, the min-ℓ2-norm least-squares fit (:func:`ols_fit`), defined
    for n < d too (σ² = 0 puts the LMMSE penalty σ²d/(nα²) there).
    """
    if float(lam) == 0.0:
        return ols_fit(X, y)
    B, n, d = X.shape
    A = np.einsum("bni,bnj->bij", X, X) + n * lam * np.eye(d)
    return np.linalg.solve(A, np.einsum("bni,bn->bi", X, y)[..., None])[..., 0]


def ols_fit(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """OLS for n ≥ d, the min-ℓ2-norm interpolator for n < d (``pinv``); (B, d).

    >>> np.round(ols_fit(np.array([[[1.0, 1.0]]]), np.array([[2.0]])), 6).tolist()   # n < d
    [[1.0, 1.0]]
    """
    return np.einsum("bij,bj->bi", np.linalg.pinv(X), y)


def lasso_fit(X: np.ndarray, y: np.ndarray, alpha: float) -> np.ndarray:
    """scikit-learn ``Lasso(alpha, fit_intercept=False)``: ``(1/2n)‖y − Xw‖² + α‖w‖₁``; each
    context is passed as the Fortran-ordered float64 arrays the solver reads, with scikit-learn's
    input validation skipped (``check_input=False``: the same coefficients, bit for bit, at about
    60 % of the time per fit).

    ``X (B, n, d)``, ``y (B, n)`` → ``(B, d)``. By hand: a design with ``XᵀX/n = I`` makes the
    Lasso a soft threshold of ``Xᵀy/n`` at ``α``; here ``Xᵀy/n = 2``:

    >>> X, y = np.array([[[1.0], [1.0]]]), np.array([[3.0, 1.0]])
    >>> lasso_fit(X, y, 0.5), lasso_fit(X, y, 3.0)
    (array([[1.5]]), array([[0.]]))
    """
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Lasso

    out = np.empty((X.shape[0], X.shape[2]))
    m = Lasso(alpha=alpha, fit_intercept=False, max_iter=20_000, tol=LASSO_TOL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for i in range(X.shape[0]):
            Xi = np.asfortranarray(X[i], dtype=np.float64)
            yi = np.array(y[i], dtype=np.float64)
            out[i] = m.fit(Xi, yi, check_input=False).coef_
    return out


def bayes_fit(X: np.ndarray, y: np.ndarray, s: int, sigma2: float, prior: str) -> np.ndarray:
    """The support-enumeration posterior mean, context by context
    (:func:`theory.czz24.bayes_posterior_mean`); (B, d).

    >>> np.round(bayes_fit(np.eye(2)[None], np.array([[1.0, 0.0]]), 1, 1e-4, "sign"), 6).tolist()
    [[1.0, 0.0]]
    """
    return np.stack([bayes_posterior_mean.raw(X[i], y[i], s, sigma2, prior) for i in range(len(X))])


def batch_lambda_max(X: np.ndarray, y: np.ndarray, *, preprocess: bool) -> np.ndarray:
    """``λ_max`` of ``R̂Σ̂R̂`` (preprocess) or ``Σ̂`` per context: the divergence threshold is
    ``η λ_max ≥ 2``.  Returns (B,).

    ``X = I_2``, ``y = (4, 0)``: ``Σ̂ = I/2``, ``r̂ = (2, 0)``, ``R̂Σ̂R̂ = diag(2, 0)``:

    >>> X, y = np.eye(2)[None], np.array([[4.0, 0.0]])
    >>> batch_lambda_max(X, y, preprocess=True).tolist()
    [2.0]
    >>> batch_lambda_max(X, y, preprocess=False).tolist()
    [0.5]
    """
    n = X.shape[1]
    Xf = X * (np.einsum("bni,bn->bi", X, y) / n)[:, None, :] if preprocess else X
    return np.linalg.eigvalsh(np.einsum("bni,bnj->bij", Xf, Xf) / n)[:, -1]
