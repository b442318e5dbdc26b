"""Ridge, the Bayes posterior mean and OLS: predictors, exact conditional risks, expected OLS
risk.  Public names are re-exported by :mod:`theory.common.baselines`."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from theory.common import backend as bk
from theory.common.baselines.gd import float_out
from theory.common.evaluate import is_symbolic, lambdified
from theory.common.symbols import N as N_sym
from theory.common.symbols import d as d_sym
from theory.common.symbols import sigma2 as sigma2_sym
from theory.settings import as_vector, check_int, check_real

__all__ = [
    "ridge_predictor",
    "bayes_posterior_mean",
    "bayes_conditional_risk",
    "ridge_conditional_risk",
    "ols_risk",
    "ols_risk_expr",
]


# ----------------------------------------------------------------------------- ridge / Bayes
def _num_design(X: Any, y: Any | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    Xa = np.array(X, dtype=float)
    if Xa.ndim < 2 or not np.all(np.isfinite(Xa)):
        raise ValueError(f"X must be a finite real (..., N, d) array, got shape {Xa.shape}")
    if y is None:
        return Xa, None
    ya = np.array(y, dtype=float)
    if ya.shape != Xa.shape[:-1] or not np.all(np.isfinite(ya)):
        raise ValueError(
            f"y must be finite with shape {Xa.shape[:-1]} (X is {Xa.shape}), got {ya.shape}"
        )
    return Xa, ya


def _solve(A: Any, B: Any) -> Any:
    """``A⁻¹ B`` (numpy: batched ``solve``; SymPy: ``A.inv() * B`` / ``Inverse``)."""
    if isinstance(A, np.ndarray):
        return np.linalg.solve(A, B)
    if isinstance(A, sp.MatrixBase):
        return A.inv() @ B
    return sp.Inverse(A) @ B


def _col(y: np.ndarray | None) -> np.ndarray:
    if y is None:
        raise ValueError("y (responses) is required for the numeric route")
    return y[..., :, None]


def _ridge(X: Any, y: Any, lam: Any) -> Any:
    # (X^T X + lam I)^{-1} X^T y
    XtX = bk.T(X) @ X
    return _solve(XtX + bk.smul(lam, _eye(XtX)), bk.T(X) @ y)


def _eye(M: Any) -> Any:
    if isinstance(M, np.ndarray):
        return np.broadcast_to(np.eye(M.shape[-1]), M.shape)
    if isinstance(M, sp.MatrixBase):
        return sp.eye(M.shape[0])
    return sp.Identity(M.shape[0])


def ridge_predictor(X: Any, y: Any, lam: Any) -> Any:
    r"""Ridge estimator ``β̂_λ = (XᵀX + λI)⁻¹ Xᵀ y`` (predict with ``⟨β̂_λ, x⟩``).

    Source: [hpcy25] App. D, Step 3 (the authors' code ``RidgeEst``); [czz24] App. F.2.

    .. math:: \hat\beta_\lambda = (X^\top X + \lambda I_d)^{-1} X^\top y.

    Parameters
    ----------
    X : design ``(..., N, d)`` (rows are x_iᵀ)
    y : labels ``(..., N)`` (SymPy: column ``(N, 1)``)
    lam : penalty λ ≥ 0 (unnormalised; czz24's normalised λ is ``lam / N``).  ``λ = 0`` is OLS and
        needs ``XᵀX`` invertible.

    Returns
    -------
    ``(..., d)`` float64 array, or a SymPy column vector.

    Examples
    --------
    >>> ridge_predictor([[1.0], [1.0]], [1.0, 3.0], 2.0).tolist()   # (2 + 2)^{-1} * 4
    [1.0]
    """
    if is_symbolic(X, y, lam):
        return _ridge(bk.sym_matrix("X", X), bk.sym_matrix("y", y), sp.sympify(lam))
    Xa, ya = _num_design(X, y)
    lam = check_real("lam (ridge penalty)", lam, lower=0.0)
    try:
        return _ridge(Xa, _col(ya), lam)[..., 0]
    except np.linalg.LinAlgError as exc:
        raise ValueError(
            f"X^T X + lam I is singular at lam = {lam} (OLS needs rank(X) = d)"
        ) from exc


def _posterior_gain(X: Any, Psi: Any, s2: Any) -> tuple[Any, Any]:
    # K = (Psi X^T X + s2 I)^{-1} Psi;  posterior covariance Cov(beta | X, y) = s2 K
    XtX = bk.T(X) @ X
    return _solve(Psi @ XtX + bk.smul(s2, _eye(XtX)), Psi), XtX


def _bayes_mean(X: Any, y: Any, mu: Any, Psi: Any, s2: Any) -> Any:
    # beta* + (Psi X^T X + s2 I)^{-1} Psi X^T (y - X beta*)
    K, _ = _posterior_gain(X, Psi, s2)
    return mu + K @ (bk.T(X) @ (y - X @ mu))


def _bayes_risk(X: Any, S: Any, Psi: Any, s2: Any) -> Any:
    # s2 + tr(S Cov(beta | X, y)) = s2 + s2 tr(S (Psi X^T X + s2 I)^{-1} Psi)
    K, _ = _posterior_gain(X, Psi, s2)
    return s2 + s2 * bk.tr(S @ K)


def _noise_pos(noise_var: Any) -> float:
    return check_real(
        "noise_var (sigma^2)",
        noise_var,
        lower=0.0,
        lower_open=True,
        paper="the Bayes posterior mean formula needs sigma^2 > 0",
    )


def bayes_posterior_mean(X: Any, y: Any, task_mean: Any, task_cov: Any, noise_var: Any) -> Any:
    r"""Posterior mean ``E[β | X, y]`` under ``β ~ N(β*, Ψ)``, noise σ² (the Bayes predictor).

    Source: [zwb24] Lemma 6.1(a), eq. (F.1).

    .. math::

        \hat\beta_{\rm Bayes} = \beta^* + \Psi^{1/2}(\Psi^{1/2}X^\top X\Psi^{1/2} + \sigma^2 I)^{-1}
            \Psi^{1/2}X^\top(y - X\beta^*)
          = \beta^* + (\Psi X^\top X + \sigma^2 I)^{-1}\Psi X^\top (y - X\beta^*).

    Parameters
    ----------
    X : design ``(..., N, d)``;  y : labels ``(..., N)``
    task_mean : β* ``(d,)``;  task_cov : Ψ ⪰ 0 (singular allowed);  noise_var : σ² > 0

    Returns
    -------
    ``(..., d)`` float64 array, or a SymPy column vector.

    Notes
    -----
    The second form follows from the first by the push-through identity
    ``Ψ^{1/2}(Ψ^{1/2}AΨ^{1/2} + σ²)⁻¹ = (ΨA + σ²)⁻¹Ψ^{1/2}`` and needs no matrix square root; it is
    valid for singular Ψ because ``ΨA`` has non-negative eigenvalues, so ``ΨA + σ²I`` is
    invertible when σ² > 0.  With ``Ψ = τ²I, β* = 0`` it is ridge with ``λ = σ²/τ²``.

    References
    ----------
    arXiv:2402.14951 (zwb24).

    Examples
    --------
    >>> bayes_posterior_mean([[1.0], [1.0]], [1.0, 3.0], [0.0], [[0.5]], 1.0).tolist()
    [1.0]
    """
    if is_symbolic(X, y, task_mean, task_cov, noise_var):
        Xs = bk.sym_matrix("X", X)
        return _bayes_mean(
            Xs,
            bk.sym_matrix("y", y),
            bk.sym_vector("task_mean", task_mean, Xs.shape[1]),
            bk.sym_matrix("task_cov", task_cov),
            sp.sympify(noise_var),
        )
    Xa, ya = _num_design(X, y)
    d = Xa.shape[-1]
    mu = np.array(as_vector("task_mean", task_mean, d=d))
    out = _bayes_mean(
        Xa, _col(ya), mu[:, None], bk.num_cov("task_cov", task_cov, d), _noise_pos(noise_var)
    )
    return out[..., 0]


def bayes_conditional_risk(X: Any, Sigma_x: Any, task_cov: Any, noise_var: Any) -> Any:
    r"""Exact risk of the Bayes predictor given the design X (independent of y and of β*).

    Source: [zwb24] Lemma 6.1(a); [hpcy25] App. D, (D.34) ``R_B`` (isotropic case).

    .. math::

        L(\hat\beta_{\rm Bayes}; X) = \sigma^2 + \operatorname{tr}\bigl(\Sigma_x
            \operatorname{Cov}(\beta\mid X, y)\bigr)
          = \sigma^2 + \sigma^2\operatorname{tr}\bigl(\Sigma_x
            (\Psi X^\top X + \sigma^2 I)^{-1}\Psi\bigr).

    The Bayes risk is ``R_Bayes = E_X[L]`` (Monte Carlo over X only).

    Parameters
    ----------
    X : design ``(..., N, d)``;  Sigma_x : Σ_x ⪰ 0;  task_cov : Ψ ⪰ 0;  noise_var : σ² > 0

    Returns
    -------
    float64 (``(...)`` for batched X), or a SymPy expression.

    Notes
    -----
    The Gaussian posterior covariance ``σ²(ΨXᵀX + σ²I)⁻¹Ψ`` does not depend on y, so averaging the
    conditional squared error over (β, y, x, ε) given X gives this formula.  For ``Ψ = I/d,
    Σ_x = I`` it is hpcy25's ``σ² + σ² tr[(XᵀX + dσ²I)⁻¹]``.

    Examples
    --------
    >>> float(bayes_conditional_risk([[1.0], [1.0]], [[1.0]], [[0.5]], 1.0))   # 1 + 0.5/2
    1.25
    """
    if is_symbolic(X, Sigma_x, task_cov, noise_var):
        return _bayes_risk(
            bk.sym_matrix("X", X),
            bk.sym_matrix("Sigma_x", Sigma_x),
            bk.sym_matrix("task_cov", task_cov),
            sp.sympify(noise_var),
        )
    Xa, _ = _num_design(X)
    d = Xa.shape[-1]
    return float_out(
        _bayes_risk(
            Xa,
            bk.num_cov("Sigma_x", Sigma_x, d),
            bk.num_cov("task_cov", task_cov, d),
            _noise_pos(noise_var),
        )
    )


def _ridge_risk(X: Any, lam: Any, S: Any, mu: Any, Psi: Any, s2: Any) -> Any:
    # beta_hat - beta = (A - I) beta + B X^T eps, B = (X^T X + lam I)^{-1}, A = B X^T X
    # R = s2 + tr(S (A - I) Psi0 (A - I)^T) + s2 tr(S B X^T X B^T)
    XtX = bk.T(X) @ X
    I = _eye(XtX)
    B = _solve(XtX + bk.smul(lam, I), I)
    AmI = B @ XtX - I
    Psi0 = Psi + bk.outer(mu)
    return s2 + bk.tr(S @ AmI @ Psi0 @ bk.T(AmI)) + s2 * bk.tr(S @ B @ XtX @ bk.T(B))


def _ridge_risk_num(
    X: np.ndarray, lam: float, S: np.ndarray, mu: np.ndarray, Psi: np.ndarray, s2: float
) -> np.ndarray:
    """The numeric route of :func:`_ridge_risk` in the singular-value basis of X.

    With ``X = U diag(s) Vᵀ`` (``s`` padded with zeros to d), ``A − I = −V diag(λ/(s² + λ)) Vᵀ``
    and ``B XᵀX Bᵀ = V diag((s/(s² + λ))²) Vᵀ``: no matrix is inverted, so a rank-deficient X at a
    tiny λ > 0 (where ``(XᵀX + λI)⁻¹`` overflows and the direct form gives inf·0 = NaN) is exact.
    ``s² + λ = 0`` (λ = 0 on a null direction of X) is OLS on a singular design: ValueError; so is
    a risk that overflows float64 (λ = 0 and a tiny singular value, e.g. X = [[5.8e-280]]).
    """
    _, sv, Vh = np.linalg.svd(X, full_matrices=True)
    d = X.shape[-1]
    # numerical rank as np.linalg.matrix_rank decides it: singular values at or below
    # s_max·max(N, d)·eps are round-off of exact zeros (e.g. of two equal rows) and are set to 0
    tol = sv[..., :1] * max(X.shape[-2:]) * np.finfo(float).eps
    s = np.zeros(X.shape[:-2] + (d,))
    s[..., : sv.shape[-1]] = np.where(sv > tol, sv, 0.0)
    den = s * s + lam
    if np.any(den <= 0.0):
        raise ValueError(f"X^T X + lam I is singular at lam = {lam} (OLS needs rank(X) = d)")
    with np.errstate(over="ignore"):
        shrink = lam / den  # eigenvalues of I - A
        amp = (s / den) ** 2  # eigenvalues of B X^T X B^T
    V = np.swapaxes(Vh, -1, -2)
    Psi0 = Psi + np.outer(mu, mu)
    SV, PV = S @ V, Psi0 @ V  # (.., d, d)
    # tr(S V F Vᵀ Psi0 V F Vᵀ) = Σ_ij F_i (VᵀSV)_ij F_j (VᵀPsi0 V)_ji
    VSV = np.swapaxes(V, -1, -2) @ SV
    VPV = np.swapaxes(V, -1, -2) @ PV
    bias = np.einsum("...i,...ij,...j,...ji->...", shrink, VSV, shrink, VPV)
    var = np.einsum("...i,...ii->...", amp, VSV)
    out = s2 + bias + s2 * var
    if not np.all(np.isfinite(out)):
        raise ValueError(
            f"the ridge conditional risk at lam = {lam} is not finite in float64: X is "
            f"numerically singular (smallest singular value {float(np.min(s)):.3g}; OLS (lam = 0) "
            f"needs rank(X) = d with (X^T X)^-1 representable)"
        )
    return out


def ridge_conditional_risk(
    X: Any, lam: Any, Sigma_x: Any, task_mean: Any, task_cov: Any, noise_var: Any
) -> Any:
    r"""Exact risk of ridge ``⟨(XᵀX + λI)⁻¹Xᵀy, x⟩`` given the design X [derived; standard].

    Source: [czz24] App. F.2 (there for Σ_x = I, E[ββᵀ] = α²/d I, as an
    excess risk); here for general Σ_x, β*, Ψ, including the query noise.

    .. math::

        L(\hat\beta_\lambda; X) = \sigma^2 + \operatorname{tr}\bigl(\Sigma_x (A - I)\Psi_0
            (A - I)^\top\bigr) + \sigma^2 \operatorname{tr}(\Sigma_x B X^\top X B),
        \quad B = (X^\top X + \lambda I)^{-1},\ A = B X^\top X,
        \ \Psi_0 = \Psi + \beta^*\beta^{*\top}.

    Parameters
    ----------
    X : design ``(..., N, d)``;  lam : λ ≥ 0 (λ = 0: OLS, needs rank d; a design whose risk
        overflows float64, e.g. entries near 1e-280 at λ = 0, raises ``ValueError``)
    Sigma_x, task_mean, task_cov, noise_var : the data model (σ² ≥ 0)

    Returns
    -------
    float64 (``(...)``), or a SymPy expression.

    Notes
    -----
    At ``Ψ = τ²I, β* = 0, λ = σ²/τ²`` it equals :func:`bayes_conditional_risk`; at ``λ = 0`` its
    expectation over X is :func:`ols_risk`.

    Examples
    --------
    >>> float(ridge_conditional_risk([[1.0], [1.0]], 2.0, [[1.0]], [0.0], [[0.5]], 1.0))
    1.25
    """
    if is_symbolic(X, lam, Sigma_x, task_mean, task_cov, noise_var):
        Xs = bk.sym_matrix("X", X)
        return _ridge_risk(
            Xs,
            sp.sympify(lam),
            bk.sym_matrix("Sigma_x", Sigma_x),
            bk.sym_vector("task_mean", task_mean, Xs.shape[1]),
            bk.sym_matrix("task_cov", task_cov),
            sp.sympify(noise_var),
        )
    Xa, _ = _num_design(X)
    d = Xa.shape[-1]
    lam = check_real("lam (ridge penalty)", lam, lower=0.0)
    return float_out(
        _ridge_risk_num(
            Xa,
            lam,
            bk.num_cov("Sigma_x", Sigma_x, d),
            np.array(as_vector("task_mean", task_mean, d=d)),
            bk.num_cov("task_cov", task_cov, d),
            check_real("noise_var (sigma^2)", noise_var, lower=0.0),
        )
    )


# ------------------------------------------------------------------------------------- OLS
def ols_risk_expr() -> sp.Expr:
    """The SymPy source of :func:`ols_risk` in the shared symbols ``d, N, sigma2``.

    Source: [czz24] App. F.4 plus the query noise (see :func:`ols_risk`).

    >>> from theory.common.symbols import N, d, sigma2
    >>> float(ols_risk_expr().subs({d: 2, N: 8, sigma2: 0.5}))   # 0.5·(1 + 2/5)
    0.7
    """
    return sigma2_sym * (1 + d_sym / (N_sym - d_sym - 1))


def ols_risk(d: Any, N: Any, noise_var: Any) -> Any:
    r"""Expected ICL risk of ordinary least squares ``⟨(XᵀX)⁻¹Xᵀy, x⟩``.

    Source: [czz24] App. F.4 (``E_X E(w_ols) = σ² d/(n − d − 1)``, an
    excess risk), plus the query noise σ²; standard (inverse-Wishart mean
    ``E[(XᵀX)⁻¹] = Σ⁻¹/(N − d − 1)``).

    .. math:: R_{\rm OLS} = \sigma^2\Bigl(1 + \frac{d}{N - d - 1}\Bigr), \qquad N > d + 1.

    Parameters
    ----------
    d : dimension ≥ 1;  N : prompt length, N > d + 1;  noise_var : σ² ≥ 0

    Returns
    -------
    float64, or a SymPy expression.

    Notes
    -----
    Holds for every positive-definite Σ_x and every law of β (OLS is unbiased given X, so neither
    appears).  For ``N ∈ {d, d + 1}`` the expectation is infinite (σ² > 0): ValueError.

    Examples
    --------
    >>> float(ols_risk(2, 5, 1.0))
    2.0
    """
    if is_symbolic(d, N, noise_var):
        return ols_risk_expr().subs({d_sym: d, N_sym: N, sigma2_sym: noise_var})
    d = check_int("d", d, minimum=1)
    N = check_int("N", N, minimum=1)
    if N <= d + 1:
        raise ValueError(
            f"N must be > d + 1 = {d + 1} for a finite OLS risk (inverse-Wishart mean), got N = {N}"
        )
    s2 = check_real("noise_var (sigma^2)", noise_var, lower=0.0)
    return np.float64(_ols_fn()(d, N, s2))


@functools.cache
def _ols_fn() -> Callable[..., Any]:
    return lambdified((d_sym, N_sym, sigma2_sym), ols_risk_expr())
