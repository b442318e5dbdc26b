"""Pinned settings (d = 3) and the literal GD-family predictors used by the Monte Carlo routes."""

from __future__ import annotations

from typing import Any

import numpy as np

from numerics.mc_fast import gd_family_predict
from theory.settings import LinearRegressionICL, check_choice

# ------------------------------------------------------------------------- pinned settings
#: Pinned settings (d = 3) for the GD-family Monte Carlo checks.
CASES = ("isotropic", "diagonal", "general", "rank-deficient")

SIGMA_GENERAL = ((1.2, 0.4, -0.2), (0.4, 0.9, 0.3), (-0.2, 0.3, 0.7))
PSI_GENERAL = ((0.6, 0.2, 0.0), (0.2, 0.5, -0.1), (0.0, -0.1, 0.3))
B_RANK2 = ((1.0, 0.3), (0.4, -0.8), (-0.5, 0.6))  # Σ = B Bᵀ, rank 2 in d = 3
_GAMMA = ((0.6, 0.15, 0.0), (-0.1, 0.5, 0.1), (0.05, 0.1, 0.4))  # non-symmetric
_BETA0 = (0.5, -0.2, 0.4)
MU = (0.8, -0.5, 0.6)


def case_setting(case: str, N: int = 8) -> tuple[LinearRegressionICL, dict[str, Any]]:
    """The data model and predictor parameters (``Gamma, beta0, P, eta``) of a pinned case.

    ``case`` is one of :data:`CASES`; returns ``(setting, params)`` with ``d = 3`` and prompt length
    ``N``; ``Gamma`` and ``P`` are ``(3, 3)``, ``beta0`` is ``(3,)``, ``eta`` a float.

    >>> s, p = case_setting("isotropic")
    >>> s.d, s.N, s.noise_var, sorted(p)
    (3, 8, 0.25, ['Gamma', 'P', 'beta0', 'eta'])
    """
    check_choice("case", case, CASES)
    d = 3
    I3 = np.eye(d)
    if case == "isotropic":
        s = LinearRegressionICL.from_arrays(Sigma_x=I3, N=N, task_cov=I3 / d, noise_var=0.25)
        p = dict(Gamma=0.8 * I3, beta0=np.zeros(d), P=I3, eta=0.8)
    elif case == "diagonal":
        s = LinearRegressionICL.from_arrays(
            Sigma_x=np.diag([2.0, 1.0, 0.5]), N=N, task_cov=np.diag([1.0, 0.5, 0.25]), noise_var=0.5
        )
        p = dict(
            Gamma=np.diag([0.4, 0.7, 1.0]),
            beta0=np.array(_BETA0),
            P=np.diag([0.4, 0.7, 1.0]),
            eta=0.9,
        )
    elif case == "general":
        s = LinearRegressionICL.from_arrays(
            Sigma_x=SIGMA_GENERAL, N=N, task_mean=MU, task_cov=PSI_GENERAL, noise_var=0.49
        )
        p = dict(Gamma=np.array(_GAMMA), beta0=np.array(_BETA0), P=np.array(_GAMMA).T, eta=1.1)
    else:  # rank-deficient
        Bm = np.array(B_RANK2)
        s = LinearRegressionICL.from_arrays(
            Sigma_x=Bm @ Bm.T, N=N, task_mean=MU, task_cov=PSI_GENERAL, noise_var=0.3
        )
        p = dict(Gamma=np.array(_GAMMA), beta0=np.array(_BETA0), P=np.array(_GAMMA), eta=0.7)
    return s, p


# ------------------------------------------------------------------------------ predictors
def gd_beta_predict(
    Gamma: np.ndarray, beta0: np.ndarray, X: np.ndarray, y: np.ndarray, xq: np.ndarray
) -> np.ndarray:
    """``⟨β0 + (1/N) Γ Xᵀ(y − Xβ0), x_q⟩`` for a batch ``X (B, N, d)``, ``y (B, N)``, ``xq (B, d)``
    ([zwb24] eq. (5.1)); ``β0 = 0`` is one-step preconditioned GD (von Oswald).

    The paper-notation face of the one GD-family predictor
    :func:`numerics.mc_fast.gd_family_predict` (``a = b = β0``). Returns ``(B,)``.

    A hand-computable case (``B = N = d = 1``, ``x = 2``, ``y = 3``, ``x_q = 1``, ``Γ = 1``): from
    ``β0 = 0`` the prediction is ``2·3 = 6``; from ``β0 = 1`` it is ``1 + 2·(3 − 2) = 3``:

    >>> X, y, xq = np.array([[[2.0]]]), np.array([[3.0]]), np.array([[1.0]])
    >>> gd_beta_predict(np.eye(1), np.zeros(1), X, y, xq)
    array([6.])
    >>> gd_beta_predict(np.eye(1), np.ones(1), X, y, xq)
    array([3.])
    """
    beta0 = np.asarray(beta0, dtype=float)
    return gd_family_predict(X, y, xq, Gamma=np.asarray(Gamma, dtype=float), a=beta0, b=beta0)


def dgd_predict(
    P: np.ndarray, eta: float, X: np.ndarray, y: np.ndarray, xq: np.ndarray
) -> np.ndarray:
    """``(η/N) Σ_i y_i (x_i − x̄)ᵀ P x_q`` ([hpcy25] eq. (4.11), preconditioned).

    The paper-notation face of :func:`numerics.mc_fast.gd_family_predict` with ``debias=True``,
    ``Γ = η Pᵀ`` and ``a = b = 0``. ``X (B, N, d)``, ``y (B, N)``, ``xq (B, d)`` → ``(B,)``.

    By hand (``N = 2``, ``d = 1``, ``x = (1, 3)`` so ``x − x̄ = (−1, 1)``, ``y = (1, 5)``,
    ``η = P = x_q = 1``): ``(1/2)(−1 + 5) = 2``:

    >>> X, y = np.array([[[1.0], [3.0]]]), np.array([[1.0, 5.0]])
    >>> dgd_predict(np.eye(1), 1.0, X, y, np.array([[1.0]]))
    array([2.])
    """
    d = X.shape[-1]
    return gd_family_predict(
        X,
        y,
        xq,
        Gamma=eta * np.asarray(P, dtype=float).T,
        a=np.zeros(d),
        b=np.zeros(d),
        debias=True,
    )


# ----------------------------------------------------------------------- Gaussian identities
A_GENERAL = ((0.7, -0.4, 0.2), (0.3, 1.1, -0.5), (0.0, 0.6, -0.8))  # non-symmetric test matrix


def generic_model(d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(Σ, Ψ, β*)`` of a general model in dimension ``d`` (Σ ≻ 0 non-diagonal, Ψ ≠ I, β* ≠ 0):
    the leading d×d blocks of the pinned d = 3 matrices (:data:`SIGMA_GENERAL`,
    :data:`PSI_GENERAL`, :data:`MU`) for d ≤ 3; beyond, those blocks padded block-diagonally (Σ by
    I, Ψ by 0.4 I, β* by 0.3), which keeps both positive definite.

    >>> [m.shape for m in generic_model(5)]
    [(5, 5), (5, 5), (5,)]
    """
    k = min(d, 3)
    S, Psi, mu = np.eye(d), 0.4 * np.eye(d), np.full(d, 0.3)
    S[:k, :k] = np.array(SIGMA_GENERAL)[:k, :k]
    Psi[:k, :k] = np.array(PSI_GENERAL)[:k, :k]
    mu[:k] = np.array(MU)[:k]
    return S, Psi, mu
