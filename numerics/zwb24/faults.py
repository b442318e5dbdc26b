"""Planted faults of the zwb24 checks (negative controls): the objects the declared checks of
:mod:`sims.zwb24.results` pass to their ``fault_*`` parameters.

Each is a plausible transcription slip of the formula a check guards; the check rerun with it
must fail.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from theory.zwb24 import optimal_gamma

__all__ = [
    "gamma_without_finite_sample_factor",
    "gamma_infinite_N",
    "lsa_risk_floor_n_plus_1",
    "cor62_bounds_half",
    "beta_rate_bound_exponent_2",
    "gap_lower_bound_simplified_r",
    "gap_upper_bound_n_for_n_plus_1",
    "bayes_mean_without_sigma2",
]


def gamma_without_finite_sample_factor(H: Any, Psi: Any, sigma2: Any, N: Any) -> Any:
    """Wrong: Thm 5.2's Γ* with Ω's ``(N+1)/N`` replaced by 1 (a one-token slip N+1 -> N)."""
    return optimal_gamma(H, Psi, sigma2, N, finite_sample_factor=False)


def gamma_infinite_N(H: Any, Psi: Any, sigma2: Any, N: Any) -> Any:
    """Wrong: Γ* with every finite-N term dropped (the N -> ∞ limit ``H⁻¹``); large enough for a
    Monte Carlo route at N = 5 to see (the missing ``(N+1)/N`` alone costs ~1 % of R* there,
    below 5 standard errors)."""
    del Psi, sigma2, N
    return np.linalg.pinv(np.asarray(H, dtype=float))


def lsa_risk_floor_n_plus_1(H: Any, Psi: Any, beta_star: Any, sigma2: Any, N: Any) -> float:
    """Wrong: the Thm 4.1 (ii) floor with ``2/(N+2)`` slipped to ``2/(N+1)``."""
    Hm, Pm, bs = (np.asarray(H, float), np.asarray(Psi, float), np.asarray(beta_star, float))
    return float(sigma2 + 2 * (bs @ Hm @ bs + np.trace(Hm @ Pm)) / (N + 1))


def cor62_bounds_half(lams: Any, sigma2: Any, N: Any) -> tuple[float, float]:
    """Wrong: Corollary 6.2's lower constant ``1/4`` slipped to ``1/2``."""
    lam = np.asarray(lams, dtype=float)
    s = float(np.sum(np.minimum(lam, sigma2 / N)))
    return 0.5 * s, 2 * (1 + float(np.sum(lam)) / sigma2) * s


def beta_rate_bound_exponent_2(t: Any, beta0: Any, H: Any, beta_star: Any, N: Any) -> Any:
    """Wrong: the β-rate bound with ``exp(−4λt/(N+1))`` slipped to ``exp(−2λt/(N+1))``."""
    Hm = np.asarray(H, float)
    w, V = np.linalg.eigh(Hm)
    keep = w > 1e-10 * max(1.0, float(w.max()))
    PH = V[:, keep] @ V[:, keep].T
    e0 = PH @ (np.asarray(beta0, float) - np.asarray(beta_star, float))
    return np.exp(-2 * float(np.min(w[keep])) * np.asarray(t, float) / (N + 1)) * float(e0 @ e0)


def gap_lower_bound_simplified_r(H: Any, Psi: Any, beta_star: Any, sigma2: Any, N: Any) -> float:
    """Wrong: Thm 4.1's simplified lower bound with ``(r+1) tr(HΨ)`` slipped to ``r tr(HΨ)``."""
    Hm, Pm, bs = (np.asarray(H, float), np.asarray(Psi, float), np.asarray(beta_star, float))
    w, V = np.linalg.eigh(Hm)
    Hh = V @ np.diag(np.sqrt(np.clip(w, 0, None))) @ V.T
    p = np.linalg.eigvalsh(Hh @ Pm @ Hh)
    r = int(np.sum(p > 1e-10 * max(1.0, float(p.max()))))
    return float(2 * (bs @ Hm @ bs - r * np.trace(Hm @ Pm) - r * sigma2) / (N + 2))


def gap_upper_bound_n_for_n_plus_1(H: Any, Psi: Any, beta_star: Any, sigma2: Any, N: Any) -> float:
    """Wrong: Thm 4.1's upper bound ``U`` with the step ``g_i = Nλ_i/((N+1)λ_i + c)`` slipped to
    ``Nλ_i/(Nλ_i + c)`` (the one-token slip N+1 -> N of Γ*'s eigenvalue)."""
    Hm, Pm, bs = (np.asarray(H, float), np.asarray(Psi, float), np.asarray(beta_star, float))
    w, V = np.linalg.eigh(Hm)
    Hh = V @ np.diag(np.sqrt(np.clip(w, 0, None))) @ V.T
    lam, U = np.linalg.eigh(Hh @ Pm @ Hh)
    mu = U.T @ (Hh @ bs)
    g = N * lam / (N * lam + float(np.sum(lam)) + sigma2)
    f = float(np.sum(g**2))
    return float(np.sum(mu**2 * (g**2 + f) / ((N + 1) * g**2 + f)))


def bayes_mean_without_sigma2(X: Any, y: Any, beta_star: Any, Psi: Any, sigma2: Any) -> Any:
    """Wrong: Lemma 6.1's posterior mean ``β* + (XᵀX + σ²Ψ⁻¹)⁻¹Xᵀ(y − Xβ*)`` with the σ² of the
    prior precision dropped (a one-token slip: ``σ²Ψ⁻¹ -> Ψ⁻¹``)."""
    del sigma2
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    bs = np.asarray(beta_star, dtype=float)
    A = np.einsum("bni,bnj->bij", X, X) + np.linalg.inv(np.asarray(Psi, dtype=float))
    r = np.einsum("bni,bn->bi", X, y - X @ bs)
    return bs + np.linalg.solve(A, r[:, :, None])[:, :, 0]
