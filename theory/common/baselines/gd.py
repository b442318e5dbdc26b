"""GD family: one-step preconditioned GD (von Oswald), GD-β (learnable initialisation), debiased
GD; exact finite-N risks under the general Gaussian model.  Public names are re-exported by
:mod:`theory.common.baselines` (see its NOTATION table)."""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.common import backend as bk
from theory.common.evaluate import is_symbolic
from theory.common.gaussian import wishart_identity
from theory.settings import LinearRegressionICL, as_vector, check_int, check_real

__all__ = ["float_out", "setting_kwargs", "gd_beta_risk", "gd_risk", "dgd_risk"]


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


def float_out(x: Any) -> Any:
    """A 0-d result as ``np.float64``, anything else as a float64 array.

    >>> float_out(2), float_out([1, 2]).tolist()
    (np.float64(2.0), [1.0, 2.0])
    """
    arr = np.asarray(x, dtype=float)
    return np.float64(arr) if arr.ndim == 0 else arr


# ------------------------------------------------------------------------------- GD family
def _gd_beta(Gamma: Any, beta0: Any, S: Any, mu: Any, Psi: Any, s2: Any, N: Any) -> Any:
    # delta = beta - beta0 has second moment Psi_b; S_hat = X^T X / N.
    # R = s2 + E|(Gamma S_hat - I) delta + Gamma X^T eps / N|_S^2
    #   = s2 + tr(S Psi_b) - 2 tr(S Gamma S Psi_b) + tr(E[S_hat G^T S G S_hat] Psi_b)
    #     + (s2/N) tr(G^T S G S)
    Psi_b = Psi + bk.outer(mu - beta0)
    GSG = bk.T(Gamma) @ S @ Gamma
    fourth = bk.smul(1 / N**2, wishart_identity(GSG, S, N))  # E[S_hat A S_hat], Lemma H.4
    return (
        s2
        + bk.tr(S @ Psi_b)
        - 2 * bk.tr(S @ Gamma @ S @ Psi_b)
        + bk.tr(fourth @ Psi_b)
        + s2 / N * bk.tr(GSG @ S)
    )


def gd_beta_risk(
    Gamma: Any, beta0: Any, Sigma_x: Any, task_mean: Any, task_cov: Any, noise_var: Any, N: Any
) -> Any:
    r"""Exact ICL risk of one preconditioned GD step from a learnable initialisation (GD-β).

    Source: [zwb24] eq. (5.1) (the estimator; its closed-form risk derived
    from Lemma H.4; the paper's printed display was lost, our tag).

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
        S = bk.sym_matrix("Sigma_x", Sigma_x)
        d = S.shape[0]
        return _gd_beta(
            bk.sym_matrix("Gamma", Gamma),
            bk.sym_vector("beta0", beta0, d),
            S,
            bk.sym_vector("task_mean", task_mean, d),
            bk.sym_matrix("task_cov", task_cov),
            sp.sympify(noise_var),
            sp.sympify(N),
        )
    S = bk.num_cov("Sigma_x", Sigma_x)
    d = S.shape[0]
    return float_out(
        _gd_beta(
            bk.num_square("Gamma", Gamma, d),
            bk.num_vector("beta0", beta0, d),
            S,
            np.array(as_vector("task_mean", task_mean, d=d)),
            bk.num_cov("task_cov", task_cov, d),
            check_real("noise_var (sigma^2)", noise_var, lower=0.0),
            float(check_int("N", N, minimum=1, paper="prompt length")),
        )
    )


def gd_risk(Gamma: Any, Sigma_x: Any, task_mean: Any, task_cov: Any, noise_var: Any, N: Any) -> Any:
    r"""Exact ICL risk of one preconditioned GD step from zero (the von Oswald construction).

    Source: [zwb24] §2.1 "GD-0 / LSA baseline": GD-β at ``β0 = 0``; [hpcy25] App. D
    ``R_V`` is the case ``Γ = ηI, H = I, Ψ = I/d``; [zfb24] §3 (LSA = preconditioned GD).

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
    Psi0 = Psi + bk.outer(mu)
    G = bk.smul(eta / N, bk.T(P))
    GSG = bk.T(G) @ S @ G
    return (
        s2
        + bk.tr(S @ Psi0)
        - 2 * n * bk.tr(S @ G @ S @ Psi0)
        + bk.tr(wishart_identity(GSG, S, n) @ Psi0)
        + s2 * n * bk.tr(GSG @ S)
    )


def dgd_risk(
    P: Any, eta: Any, Sigma_x: Any, task_cov: Any, noise_var: Any, N: Any, *, task_mean: Any = 0
) -> Any:
    r"""Exact ICL risk of debiased one-step GD [derived].

    Source: [hpcy25] eq. (4.11) (the estimator); the exact finite-N risk for general
    ``Σ_x, Ψ, P`` is derived here (the paper gives only the isotropic ``R_D(η; L)``,
    which this reproduces).

    ``ŷ = (η/N) Σ_i y_i (x_i − x̄)ᵀ P x``.  The centred scatter ``S_c = Σ(x_i − x̄)(x_i − x̄)ᵀ`` is
    Wishart with ``n = N − 1`` degrees of freedom and ``Xᵀ C ε | X ~ N(0, σ² S_c)``; with
    ``G = (η/N) Pᵀ`` and ``Ψ_0 = Ψ + β*β*ᵀ``:

    .. math::

        R_D = \sigma^2 + \operatorname{tr}(\Sigma\Psi_0) - 2n\operatorname{tr}(\Sigma G\Sigma\Psi_0)
            + n(n+1)\operatorname{tr}(\Sigma G^\top\Sigma G\Sigma\Psi_0)
            + n\,(\operatorname{tr}(\Sigma\Psi_0) + \sigma^2)
              \operatorname{tr}(G^\top\Sigma G\Sigma),

    i.e. DGD with N samples is GD with ``N − 1`` samples and ``Γ = η (N−1)/N Pᵀ`` ([hpcy25] App. D's
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
        S = bk.sym_matrix("Sigma_x", Sigma_x)
        d = S.shape[0]
        return _dgd(
            bk.sym_matrix("P", P),
            sp.sympify(eta),
            S,
            bk.sym_vector("task_mean", task_mean, d),
            bk.sym_matrix("task_cov", task_cov),
            sp.sympify(noise_var),
            sp.sympify(N),
        )
    S = bk.num_cov("Sigma_x", Sigma_x)
    d = S.shape[0]
    return float_out(
        _dgd(
            bk.num_square("P", P, d),
            check_real("eta", eta),
            S,
            bk.num_vector("task_mean", task_mean, d),
            bk.num_cov("task_cov", task_cov, d),
            check_real("noise_var (sigma^2)", noise_var, lower=0.0),
            float(check_int("N", N, minimum=2, paper="debiased GD needs N ≥ 2")),
        )
    )
