"""[zfb24] fault injections for the negative controls: wrong Γ's passed as ``fault_gamma_fn`` /
``fault_p_fn`` to the checks, and the helper that applies such a switch."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from theory import lsa_flow as T

__all__ = ["GammaFn", "wrong_gamma", "lambda_as_gamma", "gamma_or_fault"]

#: A replacement for ``Γ(Λ, N)`` (or for the predictor matrix ``P(Λ, N)``).
GammaFn = Callable[[np.ndarray, int], np.ndarray]


def wrong_gamma(Lambda: np.ndarray, N: int) -> np.ndarray:
    """Negative control: Γ with N+2 in place of N+1, i.e. ``(N+2)/N Λ + trΛ/N I``."""
    L = np.asarray(Lambda, dtype=float)
    return (N + 2) / N * L + np.trace(L) / N * np.eye(L.shape[0])


def lambda_as_gamma(Lambda: np.ndarray, N: int) -> np.ndarray:
    """Negative control: ``Γ := Λ`` (so the learned matrix would be Λ⁻¹, the naive answer)."""
    return np.asarray(Lambda, dtype=float).copy()


def gamma_or_fault(fault_gamma_fn: GammaFn | None, L: np.ndarray, N: int) -> np.ndarray:
    """``Γ(Λ, N)``, or ``fault_gamma_fn(Λ, N)`` when a fault is injected."""
    return (
        T.gamma_fn(L, N)
        if fault_gamma_fn is None
        else np.asarray(fault_gamma_fn(L, N), dtype=float)
    )
