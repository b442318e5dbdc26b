"""Baseline predictors and their closed-form risks under the general Gaussian ICL model.

Data model (:class:`theory.settings.LinearRegressionICL`): ``β ~ N(task_mean, task_cov)``,
``x_i, x ~ N(0, Sigma_x)``, ``y_i = ⟨β, x_i⟩ + ε_i``, ``y = ⟨β, x⟩ + ε``, ``ε ~ N(0, noise_var)``.
Every risk here is the ICL risk ``E (ŷ − y)²`` **including** the query noise σ² (zwb24 (3.5),
hpcy25 (2.5)); czz24's excess risk ``E(w)`` is ``risk − σ²``.

Matrix formulas are written once over the small backend of :mod:`theory.common.gaussian` (numpy,
batched over leading axes of ``Gamma``/``beta0``; or SymPy ``Matrix``/``MatrixSymbol`` giving an
expression).  Scalar formulas (OLS, proportional limits) are SymPy expressions with a cached
``lambdified`` twin (numpy for floats; the mpmath backend gives the FLOAT references).

NOTATION
========

==================  =================  =====================================================
paper symbol        code name          canonical meaning
==================  =================  =====================================================
H (zwb24), Λ, Σ     ``Sigma_x``        covariate covariance
β* (zwb24)          ``task_mean``      prior mean of the task vector
Ψ (zwb24), I, I/d   ``task_cov``       prior covariance of the task vector
σ²                  ``noise_var``      label-noise variance (context and query)
N (hpcy25: L)       ``N``              prompt length
Γ (zwb24 §1.5)      ``Gamma``          GD preconditioner / matrix step size (not zfb24's Γ)
β (zwb24 GD-β)      ``beta0``          learnable GD initialisation
η, P (hpcy25)       ``eta``, ``P``     DGD step size and query preconditioner
λ                   ``lam``            ridge penalty (unnormalised: (XᵀX + λI)⁻¹Xᵀy)
ξ = d/N (hpcy25),   ``xi``             aspect ratio in the proportional limit
γ (czz24)
α² (czz24), 1       ``signal``         E‖β‖² = signal in the proportional limit
==================  =================  =====================================================
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from theory.common.evaluate import is_symbolic, lambdified
from theory.common.gaussian import _T, _num_cov, _num_square, _smul, _sym_matrix, _tr, _wishart
from theory.common.protocols import Result
from theory.common.symbols import N as N_sym
from theory.common.symbols import d as d_sym
from theory.common.symbols import lam as lam_sym
from theory.common.symbols import sigma2 as sigma2_sym
from theory.common.symbols import xi as xi_sym
from theory.settings import LinearRegressionICL, as_vector, check_int, check_real

__all__ = [
    "setting_kwargs",
    "gd_beta_risk",
    "gd_risk",
    "dgd_risk",
    "ridge_predictor",
    "bayes_posterior_mean",
    "bayes_conditional_risk",
    "ridge_conditional_risk",
    "ols_risk",
    "ols_risk_expr",
    "mp_stieltjes",
    "ridge_risk_limit",
    "bayes_risk_limit_mp",
    "RESULTS",
]

signal_sym = sp.Symbol("signal", positive=True)  # E||beta||^2 in the proportional limit


def setting_kwargs(setting: LinearRegressionICL) -> dict[str, Any]:
    """``Sigma_x, task_mean, task_cov, noise_var, N`` of a setting, as keywords for the risks.

    >>> s = LinearRegressionICL.isotropic(d=2, N=5, noise_var=0.1)
    >>> round(float(gd_risk(np.eye(2), **setting_kwargs(s))), 6)
    1.34
    """
    return {
        "Sigma_x": setting.Sigma_x,
        "task_mean": setting.task_mean,
        "task_cov": setting.task_cov,
        "noise_var": setting.noise_var,
        "N": setting.N,
    }


# ------------------------------------------------------------------------------- validation
def _num_vector(name: str, value: Any, d: int) -> np.ndarray:
    """A finite real (batched) vector ``(..., d)``; a scalar 0 means the zero vector."""
    arr = np.array(value, dtype=float)
    if arr.ndim == 0 and arr == 0:
        return np.zeros(d)
    if arr.ndim < 1 or arr.shape[-1] != d:
        raise ValueError(f"{name} must have trailing length d = {d}, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must have finite entries, got {value!r}")
    return arr


def _outer(v: Any) -> Any:
    if isinstance(v, np.ndarray):
        return v[..., :, None] * v[..., None, :]
    return v @ v.T


def _sym_vector(name: str, value: Any, d: Any) -> Any:
    if isinstance(value, (int, float)) and value == 0 or (
        isinstance(value, sp.Basic) and not isinstance(value, sp.MatrixExpr) and value == 0
    ):
        return sp.ZeroMatrix(d, 1)
    v = _sym_matrix(name, value)
    return v


def _out(x: Any) -> Any:
    arr = np.asarray(x, dtype=float)
    return np.float64(arr) if arr.ndim == 0 else arr


# ------------------------------------------------------------------------------- GD family
def _gd_beta(Gamma: Any, beta0: Any, S: Any, mu: Any, Psi: Any, s2: Any, N: Any) -> Any:
    # delta = beta - beta0 has second moment Psi_b; S_hat = X^T X / N.
    # R = s2 + E|(Gamma S_hat - I) delta + Gamma X^T eps / N|_S^2
    #   = s2 + tr(S Psi_b) - 2 tr(S Gamma S Psi_b) + tr(E[S_hat G^T S G S_hat] Psi_b)
    #     + (s2/N) tr(G^T S G S)
    Psi_b = Psi + _outer(mu - beta0)
    GSG = _T(Gamma) @ S @ Gamma
    fourth = _smul(1 / N**2, _wishart(GSG, S, N))  # E[S_hat A S_hat], Lemma H.4
    return (
        s2
        + _tr(S @ Psi_b)
        - 2 * _tr(S @ Gamma @ S @ Psi_b)
        + _tr(fourth @ Psi_b)
        + s2 / N * _tr(GSG @ S)
    )


def gd_beta_risk(
    Gamma: Any, beta0: Any, Sigma_x: Any, task_mean: Any, task_cov: Any, noise_var: Any, N: Any
) -> Any:
    r"""Exact ICL risk of one preconditioned GD step from a learnable initialisation (GD-β).

    Source: [zwb24] eq. (5.1) (the estimator) and spec 002 §2.1 (its closed-form risk, derived
    from Lemma H.4; the paper's printed display was lost, spec tag [V-num]).

    The predictor is ``ŷ = ⟨β0 + (1/N) Γ Xᵀ(y − Xβ0), x⟩``.  With ``Ψ_β = Ψ + (β* − β0)(β* − β0)ᵀ``
    and ``c_β = tr(HΨ_β) + σ²``,

    .. math::

        R = \sigma^2 + \operatorname{tr}(H\Psi_\beta) - 2\operatorname{tr}(H\Gamma H\Psi_\beta)
            + \tfrac{N+1}{N}\operatorname{tr}(H\Gamma^\top H\Gamma H\Psi_\beta)
            + \tfrac{c_\beta}{N}\operatorname{tr}(\Gamma^\top H\Gamma H).

    Parameters
    ----------
    Gamma : matrix step size Γ, ``(d, d)`` (any real matrix; numeric input may be ``(..., d, d)``)
    beta0 : initialisation β0, ``(d,)`` (``(..., d)``); ``0`` means the zero vector
    Sigma_x : covariate covariance H ⪰ 0, ``(d, d)`` (rank-deficient allowed)
    task_mean : prior mean β*, ``(d,)``
    task_cov : prior covariance Ψ ⪰ 0, ``(d, d)``
    noise_var : σ² ≥ 0
    N : prompt length, integer ≥ 1

    Returns
    -------
    float64 (``(...)`` array for batched Γ/β0), or a SymPy expression for SymPy input (column
    vectors ``(d, 1)`` for ``beta0``/``task_mean``).

    Notes
    -----
    Implemented as the derivation (``E[Ŝ A Ŝ]`` from :func:`~theory.common.gaussian.\
wishart_fourth_moment`), not by retyping the display above; a symbolic test checks it against
    the display.  Exact for every N ≥ 1, every real Γ (not only symmetric), every PSD H, Ψ.

    References
    ----------
    arXiv:2402.14951 (zwb24).

    Examples
    --------
    >>> float(gd_beta_risk([[0.0]], [0.0], [[1.0]], [2.0], [[1.0]], 0.5, 3))  # Γ = 0: σ² + E β²
    5.5
    """
    if is_symbolic(Gamma, beta0, Sigma_x, task_mean, task_cov, noise_var, N):
        S = _sym_matrix("Sigma_x", Sigma_x)
        d = S.shape[0]
        return _gd_beta(
            _sym_matrix("Gamma", Gamma),
            _sym_vector("beta0", beta0, d),
            S,
            _sym_vector("task_mean", task_mean, d),
            _sym_matrix("task_cov", task_cov),
            sp.sympify(noise_var),
            sp.sympify(N),
        )
    S = _num_cov("Sigma_x", Sigma_x)
    d = S.shape[0]
    return _out(
        _gd_beta(
            _num_square("Gamma", Gamma, d),
            _num_vector("beta0", beta0, d),
            S,
            np.array(as_vector("task_mean", task_mean, d=d)),
            _num_cov("task_cov", task_cov, d),
            check_real("noise_var (sigma^2)", noise_var, lower=0.0),
            float(check_int("N", N, minimum=1, paper="prompt length")),
        )
    )


def gd_risk(
    Gamma: Any, Sigma_x: Any, task_mean: Any, task_cov: Any, noise_var: Any, N: Any
) -> Any:
    r"""Exact ICL risk of one preconditioned GD step from zero (the von Oswald construction).

    Source: [zwb24] §2.1 "GD-0 / LSA baseline" (spec 002): GD-β at ``β0 = 0``; [hpcy25] R9
    ``R_V`` is the case ``Γ = ηI, H = I, Ψ = I/d`` (spec 001); [zfb24] §3 (LSA = preconditioned GD).

    ``ŷ = (1/N) yᵀ X Γᵀ x``; with ``Ψ_0 = Ψ + β*β*ᵀ`` and ``c_0 = tr(HΨ_0) + σ²``,

    .. math::

        R = \sigma^2 + \operatorname{tr}(H\Psi_0) - 2\operatorname{tr}(H\Gamma H\Psi_0)
            + \tfrac{N+1}{N}\operatorname{tr}(H\Gamma^\top H\Gamma H\Psi_0)
            + \tfrac{c_0}{N}\operatorname{tr}(\Gamma^\top H\Gamma H).

    Parameters
    ----------
    Gamma : preconditioner Γ, ``(d, d)`` (``Γ = ηI`` is plain one-step GD with step η)
    Sigma_x, task_mean, task_cov, noise_var, N : as in :func:`gd_beta_risk`

    Returns
    -------
    float64 (array for batched Γ) or SymPy expression.

    Notes
    -----
    The prior enters only through the second moment ``Ψ + β*β*ᵀ``.

    References
    ----------
    arXiv:2402.14951 (zwb24); arXiv:2503.12734 (hpcy25); arXiv:2212.07677 (von Oswald et al.).

    Examples
    --------
    >>> float(gd_risk([[1.0]], [[1.0]], [0.0], [[1.0]], 0.0, 1))   # 1 - 2 + 2 + 1
    2.0
    """
    if is_symbolic(Gamma, Sigma_x, task_mean, task_cov, noise_var, N):
        return gd_beta_risk(Gamma, 0, Sigma_x, task_mean, task_cov, noise_var, N)
    return gd_beta_risk(Gamma, 0.0, Sigma_x, task_mean, task_cov, noise_var, N)


def _dgd(P: Any, eta: Any, S: Any, mu: Any, Psi: Any, s2: Any, N: Any) -> Any:
    # g = (eta/N) P^T X^T C y (C: centring), y = X beta + eps.  X^T C X = S_c ~ Wishart(N-1, S),
    # X^T C eps | X ~ N(0, s2 S_c).  With G = (eta/N) P^T and n = N - 1:
    # R = s2 + tr(S Psi0) - 2 n tr(S G S Psi0) + tr(E[S_c G^T S G S_c] Psi0) + s2 n tr(G^T S G S)
    n = N - 1
    Psi0 = Psi + _outer(mu)
    G = _smul(eta / N, _T(P))
    GSG = _T(G) @ S @ G
    return (
        s2
        + _tr(S @ Psi0)
        - 2 * n * _tr(S @ G @ S @ Psi0)
        + _tr(_wishart(GSG, S, n) @ Psi0)
        + s2 * n * _tr(GSG @ S)
    )


def dgd_risk(
    P: Any, eta: Any, Sigma_x: Any, task_cov: Any, noise_var: Any, N: Any, *, task_mean: Any = 0
) -> Any:
    r"""Exact ICL risk of debiased one-step GD [derived].

    Source: [hpcy25] eq. (4.11) (the estimator, spec 001 §1.7); the exact finite-N risk for general
    ``Σ_x, Ψ, P`` is derived here (the paper/spec give only the isotropic ``R_D(η; L)``, spec 001
    R9, which this reproduces).

    ``ŷ = (η/N) Σ_i y_i (x_i − x̄)ᵀ P x``.  The centred scatter ``S_c = Σ(x_i − x̄)(x_i − x̄)ᵀ`` is
    Wishart with ``n = N − 1`` degrees of freedom and ``Xᵀ C ε | X ~ N(0, σ² S_c)``; with
    ``G = (η/N) Pᵀ`` and ``Ψ_0 = Ψ + β*β*ᵀ``:

    .. math::

        R_D = \sigma^2 + \operatorname{tr}(\Sigma\Psi_0) - 2n\operatorname{tr}(\Sigma G\Sigma\Psi_0)
            + n(n+1)\operatorname{tr}(\Sigma G^\top\Sigma G\Sigma\Psi_0)
            + n\,(\operatorname{tr}(\Sigma\Psi_0) + \sigma^2)
              \operatorname{tr}(G^\top\Sigma G\Sigma),

    i.e. DGD with N samples is GD with ``N − 1`` samples and ``Γ = η (N−1)/N Pᵀ`` (hpcy25 R9's
    "one degree of freedom" remark, now for general Σ, Ψ, P).

    Parameters
    ----------
    P : query preconditioner, ``(d, d)`` (``I`` for hpcy25's DGD)
    eta : step size η (real)
    Sigma_x : covariate covariance Σ ⪰ 0
    task_cov : prior covariance Ψ ⪰ 0
    noise_var : σ² ≥ 0
    N : prompt length, integer ≥ 2 (centring needs two samples)
    task_mean : prior mean (keyword; default 0 as in hpcy25); enters only via ``Ψ + β*β*ᵀ``

    Returns
    -------
    float64 (array for batched P) or SymPy expression.

    Notes
    -----
    [derived] S_c is independent of x̄ (Cochran), and the noise term conditional on X has covariance
    σ² S_c because C is an idempotent projector.  Checked symbolically against hpcy25's ``R_D`` and
    against the GD map above, and by raw-prompt Monte Carlo.

    References
    ----------
    arXiv:2503.12734 (hpcy25).

    Examples
    --------
    >>> float(dgd_risk([[1.0]], 0.0, [[1.0]], [[1.0]], 0.25, 2))   # η = 0: σ² + E β²
    1.25
    """
    if is_symbolic(P, eta, Sigma_x, task_cov, noise_var, N, task_mean):
        S = _sym_matrix("Sigma_x", Sigma_x)
        d = S.shape[0]
        return _dgd(
            _sym_matrix("P", P),
            sp.sympify(eta),
            S,
            _sym_vector("task_mean", task_mean, d),
            _sym_matrix("task_cov", task_cov),
            sp.sympify(noise_var),
            sp.sympify(N),
        )
    S = _num_cov("Sigma_x", Sigma_x)
    d = S.shape[0]
    return _out(
        _dgd(
            _num_square("P", P, d),
            check_real("eta", eta),
            S,
            _num_vector("task_mean", task_mean, d),
            _num_cov("task_cov", task_cov, d),
            check_real("noise_var (sigma^2)", noise_var, lower=0.0),
            float(check_int("N", N, minimum=2, paper="debiased GD needs N ≥ 2")),
        )
    )


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
            f"y must be finite with shape {Xa.shape[:-1]} (X is {Xa.shape}), got {ya.shape}")
    return Xa, ya


def _solve(A: Any, B: Any) -> Any:
    """``A⁻¹ B`` (numpy: batched ``solve``; SymPy: ``A.inv() * B`` / ``Inverse``)."""
    if isinstance(A, np.ndarray):
        return np.linalg.solve(A, B)
    if isinstance(A, sp.MatrixBase):
        return A.inv() @ B
    return sp.Inverse(A) @ B


def _col(y: np.ndarray) -> np.ndarray:
    return y[..., :, None]


def _ridge(X: Any, y: Any, lam: Any) -> Any:
    # (X^T X + lam I)^{-1} X^T y
    XtX = _T(X) @ X
    return _solve(XtX + _smul(lam, _eye(XtX)), _T(X) @ y)


def _eye(M: Any) -> Any:
    if isinstance(M, np.ndarray):
        return np.broadcast_to(np.eye(M.shape[-1]), M.shape)
    if isinstance(M, sp.MatrixBase):
        return sp.eye(M.shape[0])
    return sp.Identity(M.shape[0])


def ridge_predictor(X: Any, y: Any, lam: Any) -> Any:
    r"""Ridge estimator ``β̂_λ = (XᵀX + λI)⁻¹ Xᵀ y`` (predict with ``⟨β̂_λ, x⟩``).

    Source: [hpcy25] §1.7 "Bayes / ridge" (spec 001, code ``RidgeEst``); [czz24] R10 (spec 000).

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
        return _ridge(_sym_matrix("X", X), _sym_matrix("y", y), sp.sympify(lam))
    Xa, ya = _num_design(X, y)
    lam = check_real("lam (ridge penalty)", lam, lower=0.0)
    try:
        return _ridge(Xa, _col(ya), lam)[..., 0]
    except np.linalg.LinAlgError as exc:
        raise ValueError(
            f"X^T X + lam I is singular at lam = {lam} (OLS needs rank(X) = d)") from exc


def _posterior_gain(X: Any, Psi: Any, s2: Any) -> tuple[Any, Any]:
    # K = (Psi X^T X + s2 I)^{-1} Psi;  posterior covariance Cov(beta | X, y) = s2 K
    XtX = _T(X) @ X
    return _solve(Psi @ XtX + _smul(s2, _eye(XtX)), Psi), XtX


def _bayes_mean(X: Any, y: Any, mu: Any, Psi: Any, s2: Any) -> Any:
    # beta* + (Psi X^T X + s2 I)^{-1} Psi X^T (y - X beta*)
    K, _ = _posterior_gain(X, Psi, s2)
    return mu + K @ (_T(X) @ (y - X @ mu))


def _bayes_risk(X: Any, S: Any, Psi: Any, s2: Any) -> Any:
    # s2 + tr(S Cov(beta | X, y)) = s2 + s2 tr(S (Psi X^T X + s2 I)^{-1} Psi)
    K, _ = _posterior_gain(X, Psi, s2)
    return s2 + s2 * _tr(S @ K)


def _noise_pos(noise_var: Any) -> float:
    return check_real(
        "noise_var (sigma^2)", noise_var, lower=0.0, lower_open=True,
        paper="the Bayes posterior mean formula needs sigma^2 > 0",
    )


def bayes_posterior_mean(X: Any, y: Any, task_mean: Any, task_cov: Any, noise_var: Any) -> Any:
    r"""Posterior mean ``E[β | X, y]`` under ``β ~ N(β*, Ψ)``, noise σ² (the Bayes predictor).

    Source: [zwb24] Lemma 6.1(a), eq. (F.1) (spec 002 §2.7).

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
        Xs = _sym_matrix("X", X)
        return _bayes_mean(
            Xs,
            _sym_matrix("y", y),
            _sym_vector("task_mean", task_mean, Xs.shape[1]),
            _sym_matrix("task_cov", task_cov),
            sp.sympify(noise_var),
        )
    Xa, ya = _num_design(X, y)
    d = Xa.shape[-1]
    mu = np.array(as_vector("task_mean", task_mean, d=d))
    out = _bayes_mean(Xa, _col(ya), mu[:, None], _num_cov("task_cov", task_cov, d),
                      _noise_pos(noise_var))
    return out[..., 0]


def bayes_conditional_risk(X: Any, Sigma_x: Any, task_cov: Any, noise_var: Any) -> Any:
    r"""Exact risk of the Bayes predictor given the design X (independent of y and of β*).

    Source: [zwb24] Lemma 6.1(a) (spec 002 §2.7); [hpcy25] R9 ``R_B`` (spec 001, isotropic case).

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
        return _bayes_risk(_sym_matrix("X", X), _sym_matrix("Sigma_x", Sigma_x),
                           _sym_matrix("task_cov", task_cov), sp.sympify(noise_var))
    Xa, _ = _num_design(X)
    d = Xa.shape[-1]
    return _out(_bayes_risk(Xa, _num_cov("Sigma_x", Sigma_x, d), _num_cov("task_cov", task_cov, d),
                            _noise_pos(noise_var)))


def _ridge_risk(X: Any, lam: Any, S: Any, mu: Any, Psi: Any, s2: Any) -> Any:
    # beta_hat - beta = (A - I) beta + B X^T eps, B = (X^T X + lam I)^{-1}, A = B X^T X
    # R = s2 + tr(S (A - I) Psi0 (A - I)^T) + s2 tr(S B X^T X B^T)
    XtX = _T(X) @ X
    I = _eye(XtX)
    B = _solve(XtX + _smul(lam, I), I)
    AmI = B @ XtX - I
    Psi0 = Psi + _outer(mu)
    return s2 + _tr(S @ AmI @ Psi0 @ _T(AmI)) + s2 * _tr(S @ B @ XtX @ _T(B))


def ridge_conditional_risk(
    X: Any, lam: Any, Sigma_x: Any, task_mean: Any, task_cov: Any, noise_var: Any
) -> Any:
    r"""Exact risk of ridge ``⟨(XᵀX + λI)⁻¹Xᵀy, x⟩`` given the design X [derived; standard].

    Source: [czz24] R10 "exact closed forms" (spec 000; there for Σ_x = I, E[ββᵀ] = α²/d I, as an
    excess risk); here for general Σ_x, β*, Ψ, including the query noise.

    .. math::

        L(\hat\beta_\lambda; X) = \sigma^2 + \operatorname{tr}\bigl(\Sigma_x (A - I)\Psi_0
            (A - I)^\top\bigr) + \sigma^2 \operatorname{tr}(\Sigma_x B X^\top X B),
        \quad B = (X^\top X + \lambda I)^{-1},\ A = B X^\top X,
        \ \Psi_0 = \Psi + \beta^*\beta^{*\top}.

    Parameters
    ----------
    X : design ``(..., N, d)``;  lam : λ ≥ 0 (λ = 0: OLS, needs rank d)
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
        Xs = _sym_matrix("X", X)
        return _ridge_risk(Xs, sp.sympify(lam), _sym_matrix("Sigma_x", Sigma_x),
                           _sym_vector("task_mean", task_mean, Xs.shape[1]),
                           _sym_matrix("task_cov", task_cov), sp.sympify(noise_var))
    Xa, _ = _num_design(X)
    d = Xa.shape[-1]
    lam = check_real("lam (ridge penalty)", lam, lower=0.0)
    try:
        return _out(_ridge_risk(Xa, lam, _num_cov("Sigma_x", Sigma_x, d),
                                np.array(as_vector("task_mean", task_mean, d=d)),
                                _num_cov("task_cov", task_cov, d),
                                check_real("noise_var (sigma^2)", noise_var, lower=0.0)))
    except np.linalg.LinAlgError as exc:
        raise ValueError(
            f"X^T X + lam I is singular at lam = {lam} (OLS needs rank(X) = d)") from exc


# ------------------------------------------------------------------------------------- OLS
def ols_risk_expr() -> sp.Expr:
    """The SymPy source of :func:`ols_risk` in the shared symbols ``d, N, sigma2``."""
    return sigma2_sym * (1 + d_sym / (N_sym - d_sym - 1))


def ols_risk(d: Any, N: Any, noise_var: Any) -> Any:
    r"""Expected ICL risk of ordinary least squares ``⟨(XᵀX)⁻¹Xᵀy, x⟩``.

    Source: [czz24] R10 "exact closed forms" (spec 000: ``E_X E(w_ols) = σ² d/(n − d − 1)``, an
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
        raise ValueError(f"N must be > d + 1 = {d + 1} for a finite OLS risk "
                         f"(inverse-Wishart mean), got N = {N}")
    s2 = check_real("noise_var (sigma^2)", noise_var, lower=0.0)
    return np.float64(_ols_fn()(d, N, s2))


@functools.cache
def _ols_fn() -> Callable[..., Any]:
    return lambdified((d_sym, N_sym, sigma2_sym), ols_risk_expr())


# ------------------------------------------------------------------- proportional (MP) limit
def _mp_m(xi: Any, lam: Any) -> Any:
    # Marchenko-Pastur Stieltjes transform at z = -lam < 0 (hpcy25 R9, czz24 R10):
    # m(-lam) = [sqrt((1 - xi + lam)^2 + 4 xi lam) - (1 - xi + lam)] / (2 xi lam)
    b = 1 - xi + lam
    return (sp.sqrt(b**2 + 4 * xi * lam) - b) / (2 * xi * lam)


def _mp_m_stable_parts(xi: Any, lam: Any) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
    """The same m(−λ) for the float64 twin, as ``m_reg + w/λ`` on two branches of b = 1 − ξ + λ:

    * b ≥ 0: ``m_reg = 2/(b + s)`` (rationalised: ``s − b`` cancels when ξλ ≪ b²), ``w = 0``;
    * b < 0 (ξ > 1 + λ): the point mass ``w = 1 − 1/ξ`` of the MP law at 0 split off, and the
      N×N companion transform ``m_reg = (2/ξ)/(s + ξ − 1 + λ)`` (no cancellation).

    Both are algebraically equal to :func:`_mp_m`; ``check_mp_exact`` verifies it exactly.
    """
    b = 1 - xi + lam
    s = sp.sqrt(b**2 + 4 * xi * lam)
    return (2 / (b + s), sp.Integer(0)), ((2 / xi) / (s + xi - 1 + lam), 1 - 1 / xi)


def _ridge_risk_from_m(m: Any, w: Any, l: Any, xi: Any, s2: Any, signal: Any) -> Any:
    # m(-lam) = m_reg + w/lam.  risk = s2 + signal lam^2 m' + s2 xi (m - lam m'),
    # m' = -d/dlam m(-lam); the point mass w/lam contributes signal*w to the bias and 0 to the
    # variance term, so it is added in closed form (no cancellation in floating point).
    mprime = -sp.diff(m, l)
    return s2 + signal * (l**2 * mprime + w) + s2 * xi * (m - l * mprime)


def _ridge_limit_expr(xi: Any, lam: Any, s2: Any, signal: Any, *, stable: bool = False) -> sp.Expr:
    l = sp.Dummy("lam", positive=True)
    if not stable:
        expr = _ridge_risk_from_m(_mp_m(xi, l), 0, l, xi, s2, signal)
    else:
        (m_pos, w_pos), (m_neg, w_neg) = _mp_m_stable_parts(xi, l)
        expr = sp.Piecewise((_ridge_risk_from_m(m_pos, w_pos, l, xi, s2, signal), 1 - xi + l >= 0),
                            (_ridge_risk_from_m(m_neg, w_neg, l, xi, s2, signal), True))
    return expr.subs(l, lam)


@functools.cache
def _ridge_limit_fn(backend: str = "numpy") -> Callable[..., Any]:
    args = (xi_sym, lam_sym, sigma2_sym, signal_sym)
    return lambdified(args, _ridge_limit_expr(*args, stable=True), backend=backend)


@functools.cache
def _mp_fn(backend: str = "numpy") -> Callable[..., Any]:
    (m_pos, _), (m_neg, w_neg) = _mp_m_stable_parts(xi_sym, lam_sym)
    expr = sp.Piecewise((m_pos, 1 - xi_sym + lam_sym >= 0), (m_neg + w_neg / lam_sym, True))
    return lambdified((xi_sym, lam_sym), expr, backend=backend)


def _limit_args(xi: Any, lam: Any | None, s2: Any, signal: Any) -> None:
    for name, v, lower_open in (("xi", xi, True), ("noise_var (sigma^2)", s2, False),
                                ("signal", signal, True), ("lam", lam, True)):
        if v is None:
            continue
        arr = np.asarray(v, dtype=float)
        if not np.all(np.isfinite(arr)) or np.any(arr <= 0 if lower_open else arr < 0):
            op = ">" if lower_open else "≥"
            raise ValueError(f"{name} must be finite and {op} 0 (proportional limit), got {v!r}")


def mp_stieltjes(xi: Any, lam: Any) -> Any:
    r"""Marchenko–Pastur Stieltjes transform ``m(−λ) = lim (1/d) tr (XᵀX/N + λI)⁻¹``, d/N → ξ.

    Source: [hpcy25] R9, eq. (D.34)–(D.36) (spec 001); [czz24] R10 ``m_γ(−λ)`` (spec 000);
    Dobriban & Wager (2018).

    .. math::

        m(-\lambda) = \frac{\sqrt{(1-\xi+\lambda)^2 + 4\xi\lambda} - (1-\xi+\lambda)}{2\xi\lambda},
        \qquad \xi\lambda m^2 + (1-\xi+\lambda)m - 1 = 0.

    Parameters
    ----------
    xi : aspect ratio ξ = d/N > 0;  lam : λ > 0 (normalised: ``XᵀX/N + λI``)

    Returns
    -------
    float64 (broadcast array), or a SymPy expression.

    Examples
    --------
    >>> round(float(mp_stieltjes(1e-9, 1.0)), 6)   # ξ → 0: 1/(1 + λ)
    0.5
    """
    if is_symbolic(xi, lam):
        return _mp_m(sp.sympify(xi), sp.sympify(lam))
    _limit_args(xi, lam, 0.0, 1.0)
    return _out(_mp_fn()(np.asarray(xi, dtype=float), np.asarray(lam, dtype=float)))


def ridge_risk_limit(xi: Any, lam: Any, noise_var: Any, signal: Any = 1) -> Any:
    r"""Proportional-limit ICL risk of ridge, ``x ~ N(0, I_d)``, ``β ~ N(0, (signal/d) I_d)``.

    Source: [czz24] R10 ridge formula (spec 000, eqs. F.4/F.8 context) and [hpcy25] R9 (spec 001)
    via the Marchenko–Pastur Stieltjes transform (Dobriban & Wager 2018, Thm 2.1; Hastie et al.
    2022, Thm 5) [derived: assembled here from the conditional risk of czz24 R10].

    With ``Σ̂ = XᵀX/N``, ``β̂ = (Σ̂ + λI)⁻¹Xᵀy/N`` (= ``ridge_predictor(X, y, N·λ)``) and
    ``m = m(−λ)``, ``m' = m'(z)|_{z=−λ} = −∂_λ m(−λ)``:

    .. math::

        R_\lambda = \sigma^2 + \text{signal}\,\lambda^2 m' + \sigma^2\xi\,(m - \lambda m').

    Parameters
    ----------
    xi : ξ = lim d/N > 0;  lam : normalised penalty λ > 0;  noise_var : σ² ≥ 0;
    signal : α² = E‖β‖² > 0 (1 in hpcy25 and czz24's theory; 4 in czz24's experiments)

    Returns
    -------
    float64 (broadcast array), or a SymPy expression in the arguments.

    Notes
    -----
    Bias ``(α²/d)‖λ(Σ̂ + λ)⁻¹‖_F² → α²λ²m'`` and variance ``(σ²/N)tr(Σ̂(Σ̂ + λ)⁻²) →
    σ²ξ(m − λm')`` (czz24 R10's conditional formula).  Minimised at ``λ* = σ²ξ/α²`` where it is
    :func:`bayes_risk_limit_mp`.  λ = 0 (ridgeless) is excluded.

    Examples
    --------
    >>> round(float(ridge_risk_limit(1e-9, 1.0, 0.0)), 6)   # ξ → 0, σ² = 0: bias λ²/(1+λ)²
    0.25
    """
    if is_symbolic(xi, lam, noise_var, signal):
        return _ridge_limit_expr(sp.sympify(xi), sp.sympify(lam), sp.sympify(noise_var),
                                 sp.sympify(signal))
    _limit_args(xi, lam, noise_var, signal)
    f = _ridge_limit_fn()
    return _out(f(*(np.asarray(v, dtype=float) for v in (xi, lam, noise_var, signal))))


def bayes_risk_limit_mp(xi: Any, noise_var: Any, signal: Any = 1) -> Any:
    r"""Proportional-limit Bayes risk: ridge at ``λ* = σ²ξ/signal`` (the posterior mean).

    Source: [hpcy25] R9, eqs. (D.34)–(D.36), ``R_B∞`` (spec 001); [czz24] R10 ``R_ridge*``.

    .. math::

        R_{B\infty} = \sigma^2 + \sigma^2\xi\, m(-\sigma^2\xi/\text{signal})
        \;\overset{\text{signal}=1}{=}\; \tfrac12\Bigl[\sigma^2 + 1 - \tfrac1\xi
            + \sqrt{4\sigma^2 + (\sigma^2 - 1 + 1/\xi)^2}\Bigr].

    Parameters
    ----------
    xi : ξ > 0;  noise_var : σ² > 0;  signal : α² = E‖β‖² > 0

    Returns
    -------
    float64 (broadcast array), or a SymPy expression.

    Notes
    -----
    Implemented as :func:`ridge_risk_limit` at λ* (no second transcription); tests check it
    against both printed forms above and the spec's values (ξ = 1/8, σ² = 0.1: 0.114057).

    Examples
    --------
    >>> round(float(bayes_risk_limit_mp(0.125, 0.1)), 6)
    0.114057
    """
    if is_symbolic(xi, noise_var, signal):
        xi, noise_var, signal = (sp.sympify(v) for v in (xi, noise_var, signal))
        return _ridge_limit_expr(xi, noise_var * xi / signal, noise_var, signal)
    _limit_args(xi, None, noise_var, signal)
    if np.any(np.asarray(noise_var, dtype=float) <= 0):
        raise ValueError(f"noise_var (sigma^2) must be > 0 for the Bayes limit, got {noise_var!r}")
    xi_a, s2, sig = (np.asarray(v, dtype=float) for v in (xi, noise_var, signal))
    return _out(_ridge_limit_fn()(xi_a, s2 * xi_a / sig, s2, sig))


_NB = "numerics.baselines:"
_TB = "theory.common.baselines:"

RESULTS: tuple[Result, ...] = (
    Result(
        id="base:gd",
        kind="baseline",
        summary="exact finite-N risk of one-step preconditioned GD (von Oswald), general Σ, β*, Ψ",
        source="[zwb24] spec 002 §2.1 (GD-0 baseline); [hpcy25] spec 001 R9 R_V (isotropic case)",
        statement="R = σ² + tr(HΨ0) − 2tr(HΓHΨ0) + ((N+1)/N)tr(HΓᵀHΓHΨ0) + (c0/N)tr(ΓᵀHΓH), "
        "Ψ0 = Ψ + β*β*ᵀ, c0 = tr(HΨ0) + σ²",
        objects=(_TB + "gd_risk",),
        checks=(_NB + "check_gd_mc", _NB + "check_gd_family_exact"),
    ),
    Result(
        id="base:gd-beta",
        kind="baseline",
        summary="exact finite-N risk of GD with learnable initialisation β0 (GD-β)",
        source="[zwb24] eq. (5.1) and spec 002 §2.1 (closed form from Lemma H.4)",
        statement="R(f_{Γ,β0}) = σ² + tr(HΨ_β) − 2tr(HΓHΨ_β) + ((N+1)/N)tr(HΓᵀHΓHΨ_β) "
        "+ (c_β/N)tr(ΓᵀHΓH), Ψ_β = Ψ + (β* − β0)(β* − β0)ᵀ",
        objects=(_TB + "gd_beta_risk",),
        checks=(_NB + "check_gd_beta_mc", _NB + "check_gd_family_exact",
                _NB + "check_gd_family_float"),
    ),
    Result(
        id="base:dgd",
        kind="derived",
        summary="exact finite-N risk of preconditioned debiased GD = GD with N−1 samples, "
        "Γ = η(N−1)/N Pᵀ",
        source="[hpcy25] eq. (4.11) (estimator) and spec 001 R9 R_D (isotropic); general Σ, Ψ, P, "
        "β* derived here",
        statement="R_D(P, η; N) = R_GD(η (N−1)/N Pᵀ; N − 1); isotropic: 1 + σ² − 2η(L−1)/L "
        "+ η²(L−1)(L + d(1+σ²))/L²",
        objects=(_TB + "dgd_risk",),
        checks=(_NB + "check_dgd_mc", _NB + "check_gd_family_exact", _NB + "check_gd_family_float"),
        derived=True,
    ),
    Result(
        id="base:ridge-bayes",
        kind="baseline",
        summary="ridge with λ = σ²/τ² equals the Bayes posterior mean (Ψ = τ²I, β* = 0)",
        source="[zwb24] Lemma 6.1(a), eq. (F.1) (spec 002 §2.7); [hpcy25] §1.7 (λ = dσ² for "
        "Ψ = I/d); STYLE R11",
        statement="(XᵀX + σ²/τ² I)⁻¹Xᵀy = E[β | X, y] for β ~ N(0, τ²I)",
        objects=(_TB + "ridge_predictor", _TB + "bayes_posterior_mean"),
        checks=(_NB + "check_ridge_bayes",),
    ),
    Result(
        id="base:bayes-risk",
        kind="baseline",
        summary="exact conditional risk of the Bayes predictor given X; Bayes < ridge(λ ≠ λ*), OLS",
        source="[zwb24] Lemma 6.1(a) (spec 002 §2.7); [hpcy25] spec 001 R9 R_B; ridge conditional "
        "risk: [czz24] spec 000 R10 (general Σ, β*, Ψ derived)",
        statement="L(β̂_Bayes; X) = σ² + σ² tr(Σ_x (ΨXᵀX + σ²I)⁻¹Ψ)",
        objects=(_TB + "bayes_conditional_risk", _TB + "ridge_conditional_risk"),
        checks=(_NB + "check_bayes_risk_mc", _NB + "check_ridge_ordering"),
    ),
    Result(
        id="base:ols",
        kind="baseline",
        summary="expected OLS risk σ²(1 + d/(N − d − 1)), any PD Σ_x, N > d + 1",
        source="[czz24] spec 000 R10 exact closed forms (+ query noise σ²)",
        statement="E(⟨(XᵀX)⁻¹Xᵀy, x⟩ − y)² = σ²(1 + d/(N − d − 1))",
        objects=(_TB + "ols_risk",),
        checks=(_NB + "check_ols_mc", _NB + "check_ols_float"),
    ),
    Result(
        id="base:mp-limit",
        kind="baseline",
        summary="proportional-limit Bayes risk R_B∞ via the Marchenko–Pastur Stieltjes transform",
        source="[hpcy25] eqs. (D.34)–(D.36) (spec 001 R9); [czz24] spec 000 R10 R_ridge*",
        statement="R_B∞ = σ² + σ²ξ m(−σ²ξ) = ½[σ² + 1 − 1/ξ + √(4σ² + (σ² − 1 + 1/ξ)²)]",
        objects=(_TB + "bayes_risk_limit_mp", _TB + "mp_stieltjes"),
        checks=(_NB + "check_mp_exact", _NB + "check_mp_float", _NB + "check_mp_wishart",
                _NB + "check_wishart_sampler"),
    ),
    Result(
        id="base:ridge-limit",
        kind="derived",
        summary="proportional-limit ridge risk at any λ > 0: σ² + α²λ²m' + σ²ξ(m − λm')",
        source="assembled from [czz24] spec 000 R10's conditional ridge risk and the MP "
        "transform (Dobriban & Wager 2018)",
        statement="R_λ = σ² + α² λ² m'(−λ) + σ² ξ (m(−λ) − λ m'(−λ)); minimised at λ* = σ²ξ/α²",
        objects=(_TB + "ridge_risk_limit",),
        checks=(_NB + "check_mp_exact", _NB + "check_mp_float", _NB + "check_mp_wishart"),
        derived=True,
    ),
)
