"""[zfb24] fault injections for the negative controls: wrong Γ's passed as ``fault_gamma_fn`` /
``fault_p_fn`` to the checks, the named neighbours of Theorem 8's δ (``fault_alternative``), and
the helpers that apply such switches."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from numerics.train_evidence import swap_alternative  # re-exported: the shared negative control
from theory import zfb24 as T

__all__ = [
    "GammaFn",
    "wrong_gamma",
    "lambda_as_gamma",
    "lambda_inverse",
    "gamma_n_plus_1",
    "gamma_n_minus_1",
    "gamma_factor_dropped",
    "GAMMA_ALTERNATIVES",
    "inverse_alternatives",
    "gamma_or_fault",
    "delta_alternatives",
    "swap_alternative",
    "cor6_threshold_d_for_d_plus_1",
    "lsa_limit_random_2c_for_4c",
    "rdm_u_min_d_for_sqrt_d",
    "isotropic_q_rate_lambda_cubed",
]

#: A replacement for ``Γ(Λ, N)`` (or for the predictor matrix ``P(Λ, N)``).
GammaFn = Callable[[np.ndarray, int], np.ndarray]


def wrong_gamma(Lambda: np.ndarray, N: int) -> np.ndarray:
    """Negative control: Γ with N+2 in place of N+1, i.e. ``(N+2)/N Λ + trΛ/N I``."""
    L = np.asarray(Lambda, dtype=float)
    return (N + 2) / N * L + np.trace(L) / N * np.eye(L.shape[0])


def lambda_as_gamma(Lambda: np.ndarray, N: int) -> np.ndarray:
    """Negative control: ``Γ := Λ`` (so the learned matrix would be Λ⁻¹, the naive answer)."""
    return np.asarray(Lambda, dtype=float).copy()


def lambda_inverse(Lambda: np.ndarray, N: int) -> np.ndarray:
    """Negative control for ``fault_p_fn``: run the naive predictor ``P = Λ⁻¹`` in place of the
    trained ``Γ⁻¹`` (no finite-N terms)."""
    return np.linalg.inv(np.asarray(Lambda, dtype=float))


def gamma_n_plus_1(Lambda: np.ndarray, N: int) -> np.ndarray:
    """Alternative: Γ off by one, N → N+1: ``(N+2)/(N+1) Λ + trΛ/(N+1) I``."""
    return T.gamma_fn(Lambda, N + 1)


def gamma_n_minus_1(Lambda: np.ndarray, N: int) -> np.ndarray:
    """Alternative: Γ off by one, N → N−1: ``N/(N−1) Λ + trΛ/(N−1) I`` (needs N ≥ 2)."""
    return T.gamma_fn(Lambda, N - 1)


def gamma_factor_dropped(Lambda: np.ndarray, N: int) -> np.ndarray:
    """Alternative: Γ with its ``(N+1)/N`` factor dropped, ``Λ + trΛ/N I``."""
    L = np.asarray(Lambda, dtype=float)
    return L + np.trace(L) / N * np.eye(L.shape[0])


#: The named neighbours of Γ that a trained route must tell apart from Γ (zfb24 Theorem 4):
#: off by one in N either way, the (N+1)/N factor dropped, and Λ (no finite-N term: P = Λ⁻¹).
GAMMA_ALTERNATIVES: dict[str, GammaFn] = {
    "Γ with N → N+1": gamma_n_plus_1,
    "Γ with N → N−1": gamma_n_minus_1,
    "Γ without (N+1)/N: Λ + trΛ/N·I": gamma_factor_dropped,
    "Λ (finite-N terms removed: Λ⁻¹)": lambda_as_gamma,
}


def inverse_alternatives(Lambda: np.ndarray, N: int) -> dict[str, np.ndarray]:
    """Γ's named neighbours, inverted: the P a model that had learned that neighbour would reach."""
    return {name: np.linalg.inv(fn(Lambda, N)) for name, fn in GAMMA_ALTERNATIVES.items()}


def gamma_or_fault(fault_gamma_fn: GammaFn | None, L: np.ndarray, N: int) -> np.ndarray:
    """``Γ(Λ, N)``, or ``fault_gamma_fn(Λ, N)`` when a fault is injected."""
    return (
        T.gamma_fn(L, N)
        if fault_gamma_fn is None
        else np.asarray(fault_gamma_fn(L, N), dtype=float)
    )


def delta_alternatives(d: int, N: int) -> dict[str, float]:
    r"""The named neighbours of Theorem 8's ``δ = N/(3N+d+5)`` (Exp(1) covariances, ``D = δI``):
    δ off by one in N either way, δ without its finite-N terms (N → ∞: 1/3), and
    ``δ_F = N/(N+d+1)``, the limit that fixed-covariance training would give.  Computed from the
    general-moment :func:`theory.zfb24.rdm_D` (Exp(1) moments 1, 2, 6); needs ``N ≥ 2``.

    >>> alts = delta_alternatives(5, 3)
    >>> {k: round(v, 4) for k, v in alts.items()}  # doctest: +NORMALIZE_WHITESPACE
    {'δ(N−1) (off by one)': 0.125, 'δ(N+1) (off by one)': 0.1818,
     'δ without its finite-N terms (N → ∞)': 0.3333,
     'δ_F = N/(N+d+1) (fixed-covariance training)': 0.3333}
    """
    if N < 2:
        raise ValueError(f"delta_alternatives: N={N!r} must be ≥ 2 (δ(N−1) needs N − 1 ≥ 1)")

    def delta(n: int) -> float:
        return float(T.rdm_D([1.0] * d, [2.0] * d, [6.0] * d, n)[0, 0])

    return {
        "δ(N−1) (off by one)": delta(N - 1),
        "δ(N+1) (off by one)": delta(N + 1),
        "δ without its finite-N terms (N → ∞)": delta(10**12),
        "δ_F = N/(N+d+1) (fixed-covariance training)": N / (N + d + 1),
    }


# ------------------------------------------------- one-token slips of the generic-value checks
def cor6_threshold_d_for_d_plus_1(Lambda: np.ndarray, eps: float) -> int:
    """Negative control of ``check_cor6_float_threshold``: Corollary 6's test-length threshold
    with ``d`` in place of ``d+1``, ``⌈d·trΛ/ε⌉``."""
    L = np.asarray(Lambda, dtype=float)
    return int(np.ceil(L.shape[0] * np.trace(L) / eps))


def lsa_limit_random_2c_for_4c(c: object) -> object:
    """Negative control of ``check_fig1_symbolic_limit``: the random-trained LSA limit with ``2c/3``
    in place of ``4c/3``, ``c(2c²/3 − 2c/3 + 1)``."""
    import sympy as sp

    x: Any = sp.sympify(c)
    return x * (2 * x**2 / 3 - 2 * x / 3 + 1)


def rdm_u_min_d_for_sqrt_d(
    m1: np.ndarray, m2: np.ndarray, Theta: np.ndarray, sigma_init: float, E_opG_fro2L: float
) -> float:
    """Negative control of ``check_thm8_float_bounds``: Lemma 27's ``u_min`` with ``d`` in place
    of ``√d`` in its denominator ``2√d‖EΛ_τ²‖_op``."""
    T_ = np.asarray(Theta, dtype=float)
    d = T_.shape[0]
    s2 = float(sigma_init) ** 2
    br = (
        2 * np.sum((np.diag(np.asarray(m1, dtype=float)) @ T_) ** 2) - np.sqrt(d) * s2 * E_opG_fro2L
    )
    return float(np.sqrt(s2 * br / (2 * d * np.max(np.asarray(m2, dtype=float)))))


def isotropic_q_rate_lambda_cubed(
    t: Any, d: float, N: float, sigma_init: float, lam: float = 1.0
) -> Any:
    """Negative control of ``check_flow_reductions_isotropic``: the isotropic logistic ``q(t)``
    with rate ``2√d λ³`` in place of ``2√d λ²`` (the same at λ = 1 only)."""
    g = lam * (N + 1 + d) / N
    qstar = 1 / (np.sqrt(d) * g)
    q0 = sigma_init**2 / d
    return qstar / (1 + (qstar / q0 - 1) * np.exp(-2 * np.sqrt(d) * lam**3 * np.asarray(t)))
