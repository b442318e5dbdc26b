"""[zfb24] prompt samplers: fixed covariance (§3.3), a nonlinear (quadratic) task, random
covariance (§4.3, Definition 7), and the random Λ / Θ of the verification plan.

A Monte Carlo route samples prompts here and applies a predictor (:mod:`.predictors`); it never
calls a theory risk function.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from numerics.sampling import gaussian_rows, psd_sqrt
from theory.zfb24.settings import Setting

__all__ = [
    "SPEC_LAMBDA",
    "spec_Lambda",
    "random_spd",
    "setting_Lambda",
    "setting_theta",
    "random_theta",
    "sample_linear",
    "sample_quadratic_task",
    "sample_random_cov",
]


#: Our reference covariance Λ = diag(0.5, 1, 1.5, 2) (the worked values of Theorem 4,
#: Corollary 6 and §4.2 are pinned there).
SPEC_LAMBDA = (0.5, 1.0, 1.5, 2.0)


def random_spd(d: int, rng: np.random.Generator, lo: float = 0.5, hi: float = 2.0) -> np.ndarray:
    """``Q diag(λ) Qᵀ`` with Haar ``Q`` and ``λ_i ~ U[lo, hi]`` (a random-covariance strategy).

    Returns a symmetric ``(d, d)`` array whose eigenvalues lie in ``[lo, hi]``:

    >>> S = random_spd(4, np.random.default_rng(0))
    >>> S.shape, bool(np.allclose(S, S.T)), bool(np.all((np.linalg.eigvalsh(S) >= 0.5 - 1e-12)
    ...     & (np.linalg.eigvalsh(S) <= 2.0 + 1e-12)))
    ((4, 4), True, True)
    """
    Q, R = np.linalg.qr(rng.standard_normal((d, d)))
    Q = Q * np.sign(np.diag(R))
    lam = rng.uniform(lo, hi, size=d)
    S = (Q * lam) @ Q.T
    return 0.5 * (S + S.T)


def random_theta(d: int, rng: np.random.Generator) -> np.ndarray:
    """Assumption 3's random scheme: ``Θ = M₀/‖M₀M₀ᵀ‖_F^{1/2}`` so ``ΘΘᵀ = M₀M₀ᵀ/‖M₀M₀ᵀ‖_F``
    ([zfb24] Assumption 3). Returns ``(d, d)`` with ``‖ΘΘᵀ‖_F = 1``:

    >>> T = random_theta(3, np.random.default_rng(0))
    >>> T.shape, round(float(np.linalg.norm(T @ T.T)), 12)
    ((3, 3), 1.0)
    """
    M0 = rng.standard_normal((d, d))
    return M0 / np.sqrt(np.linalg.norm(M0 @ M0.T))


def spec_Lambda() -> np.ndarray:
    """Our reference covariance ``diag(0.5, 1, 1.5, 2)`` (:data:`SPEC_LAMBDA`) as a (4, 4) array.

    >>> float(np.trace(spec_Lambda()))
    5.0
    """
    return np.diag(SPEC_LAMBDA)


def setting_Lambda(setting: Setting, rng: np.random.Generator) -> np.ndarray:
    """Λ of a zfb24 Setting: diag(spectrum), or, with ``spectrum=None``, a generic Λ
    (:func:`random_spd` at d, drawn from ``rng``: the draw happens only then). Returns ``(d, d)``.

    >>> np.diag(setting_Lambda(Setting(), np.random.default_rng(0)))
    array([0.5, 1. , 1.5, 2. ])
    """
    if setting.spectrum is None:
        return random_spd(setting.d, rng)
    return np.diag(np.asarray(setting.spectrum, dtype=float))


def setting_theta(d: int) -> np.ndarray:
    """The deterministic Θ = d^(-1/4) I of Assumption 3 (‖ΘΘᵀ‖_F = 1; ΘΘᵀ = I/2 at d = 4, our
    reference start). Returns ``(d, d)``.

    >>> setting_theta(4) @ setting_theta(4).T
    array([[0.5, 0. , 0. , 0. ],
           [0. , 0.5, 0. , 0. ],
           [0. , 0. , 0.5, 0. ],
           [0. , 0. , 0. , 0.5]])
    """
    return np.eye(d) / np.sqrt(np.sqrt(float(d)))


def sample_linear(
    rng: np.random.Generator,
    b: int,
    n: int,
    Lambda: np.ndarray,
    *,
    s2: float = 0.0,
    w: np.ndarray | None = None,
    Sq: np.ndarray | None = None,
    query_law: str = "gaussian",
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Prompts ``x_i ~ N(0, Λ)``, ``w ~ N(0, I)`` (or fixed ``w``), ``y = ⟨w,x⟩ + N(0, s²)``.

    The query has second moment ``Sq`` (default Λ), is independent of the prompt, and is
    ``N(0, Sq)`` or, with ``query_law="uniform"``, ``Sq^{1/2}·U(−√3, √3)^d`` (non-Gaussian).
    Returns ``X (b,n,d), y (b,n), xq (b,d), yq (b,), w (b,d)``.

    Source: [zfb24] §3.3 (x ~ N(0, Λ), w ~ N(0, I_d), noiseless unless ``s2 > 0``); §4.2 (query
    shift).

    Examples
    --------
    >>> X, y, xq, yq, w = sample_linear(np.random.default_rng(0), 4, 6, np.eye(3))
    >>> X.shape, y.shape, xq.shape, yq.shape, w.shape
    ((4, 6, 3), (4, 6), (4, 3), (4,), (4, 3))
    >>> bool(np.allclose(y, np.einsum("bnd,bd->bn", X, w)))      # noiseless labels
    True
    """
    d = Lambda.shape[0]
    Q = np.asarray(Lambda if Sq is None else Sq, dtype=float)
    W = rng.standard_normal((b, d)) if w is None else np.broadcast_to(np.asarray(w, float), (b, d))
    X = gaussian_rows(rng, (b, n), np.asarray(Lambda, dtype=float))
    if query_law == "uniform":
        xq = rng.uniform(-math.sqrt(3.0), math.sqrt(3.0), size=(b, d)) @ psd_sqrt(Q)
    else:
        xq = gaussian_rows(rng, (b,), Q)
    y = np.einsum("bnd,bd->bn", X, W)
    yq = np.einsum("bd,bd->b", xq, W)
    if s2 > 0:
        y = y + math.sqrt(s2) * rng.standard_normal((b, n))
        yq = yq + math.sqrt(s2) * rng.standard_normal(b)
    return X, y, xq, yq, W


def sample_quadratic_task(
    rng: np.random.Generator,
    b: int,
    n: int,
    Lambda: np.ndarray,
    w0: np.ndarray,
    s2: float,
    coef: float = 0.5,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A nonlinear task [derived] for Theorem 5: ``y = ⟨w₀,x⟩ + coef·(x₁² − Λ₁₁) + s ε``, for the
    prompt and the query.

    Returns ``X (b, n, d), y (b, n), xq (b, d), yq (b,)``.

    Examples
    --------
    With w₀ = 0 and no noise the labels are coef·(x₁² − Λ₁₁):

    >>> rng = np.random.default_rng(0)
    >>> X, y, xq, yq = sample_quadratic_task(rng, 2, 3, np.eye(2), np.zeros(2), 0.0)
    >>> bool(np.allclose(y, 0.5 * (X[:, :, 0] ** 2 - 1.0)))
    True
    """
    d = Lambda.shape[0]
    R = psd_sqrt(Lambda)
    Z = rng.standard_normal((b, n + 1, d)) @ R
    yy = (
        Z @ w0
        + coef * (Z[:, :, 0] ** 2 - Lambda[0, 0])
        + math.sqrt(s2) * rng.standard_normal((b, n + 1))
    )
    return Z[:, :n], yy[:, :n], Z[:, n], yy[:, n]


def sample_random_cov(
    rng: np.random.Generator,
    b: int,
    n: int,
    d: int,
    *,
    c: float = 1.0,
    law: tuple[str, Any] = ("exp", None),
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Definition 7: per prompt ``Λ_τ = c·diag(λ)``, ``λ_i`` iid Exp(1) (``law=("exp", None)``) or
    independent Gamma(k_i, θ_i) (``law=("gamma", (k, theta))``); ``x ~ N(0, Λ_τ)``, ``w ~ N(0, I)``.

    Returns ``X, y, xq, yq, w, lam`` with ``lam`` (b, d) the diagonal of Λ_τ.

    Source: [zfb24] Definition 7 and §4.3.

    Examples
    --------
    >>> X, y, xq, yq, w, lam = sample_random_cov(np.random.default_rng(0), 4, 5, 3, c=2.0)
    >>> X.shape, lam.shape, bool(np.all(lam > 0))
    ((4, 5, 3), (4, 3), True)
    >>> bool(np.allclose(yq, np.einsum("bd,bd->b", xq, w)))
    True
    """
    kind, par = law
    if kind == "exp":
        lam = rng.exponential(1.0, size=(b, d))
    elif kind == "gamma":
        k, th = (np.asarray(v, dtype=float) for v in par)
        lam = rng.gamma(k, th, size=(b, d))
    else:
        raise ValueError(f"law must be 'exp' or 'gamma', got {kind!r}")
    lam = c * lam
    sd = np.sqrt(lam)
    W = rng.standard_normal((b, d))
    X = rng.standard_normal((b, n, d)) * sd[:, None, :]
    xq = rng.standard_normal((b, d)) * sd
    return X, np.einsum("bnd,bd->bn", X, W), xq, np.einsum("bd,bd->b", xq, W), W, lam
