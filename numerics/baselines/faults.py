"""Planted faults of the foundation's checks (negative controls): the functions themselves are the
declared faults of the ``base:*`` results (:mod:`sims.common.results`).

Each is a plausible transcription slip of the formula a check guards; the check rerun with it
must fail.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from theory.common import baselines as B


def _tr(M: Any) -> Any:
    return np.trace(M) if isinstance(M, np.ndarray) else M.trace()


# ----------------------------------------------------------------------- Gaussian identities
def isserlis_without_transpose(A: Any, S: Any) -> Any:
    """Wrong: treats A as symmetric (ΣAᵀΣ -> ΣAΣ)."""
    return 2 * (S @ A @ S) + _tr(A @ S) * S


def isserlis_without_trace(A: Any, S: Any) -> Any:
    """Wrong: drops the tr(AΣ)Σ pairing."""
    return S @ A @ S + S @ A.T @ S


def wishart_symmetric_form(A: Any, S: Any, N: Any) -> Any:
    """Wrong for non-symmetric A: our symmetric-A form N(N+1)ΣAΣ + N tr(AΣ)Σ."""
    return N * (N + 1) * (S @ A @ S) + N * _tr(A @ S) * S


def sample_cov_without_correction(S: Any, N: Any) -> Any:
    """Wrong: (N+1)/N replaced by 1."""
    return S @ S + _tr(S) / N * S


# ------------------------------------------------------------------------------ GD family
def gd_beta_no_correction(G: Any, b: Any, S: Any, mu: Any, Psi: Any, v: Any, N: Any) -> Any:
    """Wrong: the Wishart factor (N+1)/N replaced by 1."""
    G, S = np.asarray(G), np.asarray(S)
    Psib = np.asarray(Psi) + np.outer(np.asarray(mu) - b, np.asarray(mu) - b)
    return B.gd_beta_risk(G, b, S, mu, Psi, v, N) - np.trace(S @ G.T @ S @ G @ S @ Psib) / N


def gd_no_correction(G: Any, S: Any, mu: Any, Psi: Any, v: Any, N: Any) -> Any:
    """Wrong: :func:`gd_beta_no_correction` at β0 = 0."""
    return gd_beta_no_correction(G, np.zeros(len(mu)), S, mu, Psi, v, N)


def gd_beta_noise_doubled(G: Any, b: Any, S: Any, mu: Any, Psi: Any, v: Any, N: Any) -> Any:
    """Wrong: σ² doubled."""
    return B.gd_beta_risk(G, b, S, mu, Psi, 2 * v, N)


def dgd_uncentred(P: Any, eta: Any, S: Any, Psi: Any, v: Any, N: Any, task_mean: Any = 0) -> Any:
    """Wrong: forgets the centring (vanilla GD with Γ = ηPᵀ and N samples)."""
    return B.gd_risk(eta * np.asarray(P).T, S, task_mean, Psi, v, N)


def dgd_one_sample_more(
    P: Any, eta: Any, S: Any, Psi: Any, v: Any, N: Any, task_mean: Any = 0
) -> Any:
    """Wrong: N + 1 in place of N."""
    return B.dgd_risk(P, eta, S, Psi, v, N + 1, task_mean=task_mean)


# ---------------------------------------------------------------------------- ridge / Bayes
def ridge_lambda_doubled(X: Any, y: Any, lam: Any) -> Any:
    """Wrong: ridge at 2λ."""
    return B.ridge_predictor(X, y, 2 * lam)


def bayes_risk_noise_scaled(X: Any, S: Any, Psi: Any, v: Any) -> Any:
    """Wrong: σ² scaled by 1.3 in the Bayes conditional risk."""
    return B.bayes_conditional_risk(X, S, Psi, 1.3 * v)


def bayes_risk_sigma_scaled(X: Any, S: Any, Psi: Any, v: Any) -> Any:
    """Wrong: Σ_x scaled by 1.5 in the Bayes conditional risk."""
    return B.bayes_conditional_risk(X, 1.5 * S, Psi, v)


def ridge_risk_lambda_doubled(X: Any, lam: Any, S: Any, mu: Any, Psi: Any, v: Any) -> Any:
    """Wrong: the ridge conditional risk evaluated at 2λ."""
    return B.ridge_conditional_risk(X, 2 * lam, S, mu, Psi, v)


def ols_denominator_off_by_one(d: Any, N: Any, v: Any) -> Any:
    """Wrong denominator d/(N − d) instead of d/(N − d − 1)."""
    return v * (1 + d / (N - d))


# -------------------------------------------------------------------------- proportional limit
def bayes_limit_inverted_ratio(xi: Any, v: Any, a: Any = 1) -> Any:
    """The ξ = N/d vs d/N convention slip."""
    return B.bayes_risk_limit_mp(1 / xi, v, a)


def ridge_limit_without_lam_mprime(xi: Any, lam: Any, v: Any, a: Any) -> Any:
    """A ridge limit without the −λm' part of the variance term (a plausible slip)."""
    return B.ridge_risk_limit(xi, lam, v, a) + v * xi * lam * float(
        -(B.mp_stieltjes(xi, lam * (1 + 1e-6)) - B.mp_stieltjes(xi, lam)) / (lam * 1e-6)
    )


def ridge_limit_signal_squared(xi: Any, lam: Any, v: Any, a: Any) -> Any:
    """One-token slip ``signal → signal**2`` in the bias term ``α² λ² m'`` of the ridge limit (the
    only term in which ``signal`` enters once λ is given)."""
    return B.ridge_risk_limit(xi, lam, v, a**2)
