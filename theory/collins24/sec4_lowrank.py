"""[collins24] §4 Theorem 4.4 (= Theorem H.5) and Lemmas H.1-H.4: on low-rank tasks attention
learns the projection, M* = c BBᵀ (Assumption 4.3: x = c_u B u + c_v B⊥ v).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from theory.collins24.domains import checked
from theory.common.backend import num_square

__all__ = ["rho_metric", "thm44_scale_bound", "lowrank_M"]


@checked
def rho_metric(M: Any, B: Any) -> float:
    """ρ(M, B) = ‖B⊥ᵀ M B⊥‖₂ / σ_min(BᵀMB) (our reading of Fig. 9's metric): 0 iff M = cBBᵀ-like.

    Source: [collins24] App. J.1, Fig. 9.

    >>> B = np.eye(3)[:, :1]
    >>> rho_metric(np.diag([2.0, 0.1, 0.0]), B)
    0.05
    """
    M = num_square("M", M)
    B = np.asarray(B, dtype=float)
    if B.ndim != 2 or B.shape[0] != M.shape[0] or not np.allclose(B.T @ B, np.eye(B.shape[1])):
        raise ValueError(f"B must be d×k with orthonormal columns (Def 4.2), got shape {B.shape}")
    Q, _ = np.linalg.qr(np.concatenate([B, np.eye(M.shape[0])], axis=1))
    Bp = Q[:, B.shape[1] : M.shape[0]]
    smin = float(np.min(np.linalg.svd(B.T @ M @ B, compute_uv=False)))
    if smin == 0.0:
        raise ValueError("rho_metric: BᵀMB is singular (σ_min = 0), ρ(M, B) is undefined")
    return float(np.linalg.norm(Bp.T @ M @ Bp, 2)) / smin


@checked
def thm44_scale_bound(case: str, c_u: float = 1.0) -> float:
    """C_b/c_u²: the constraint ‖BᵀMB‖₂ ≤ C_b/c_u², C_b = 2 (Case 1, σ = 0) or 1 (Case 2, n = 2).

    Source: [collins24] Theorem 4.4 / H.5, Lemmas H.3, H.4.

    >>> thm44_scale_bound("sigma0")
    2.0
    """
    return (2.0 if case == "sigma0" else 1.0) / c_u**2


@checked
def lowrank_M(c1: float, c2: float, B: Any) -> np.ndarray:
    """M = c₁BBᵀ + c₂B⊥B⊥ᵀ (Lemma H.2's family; Theorem 4.4: the optimum has c₂ = 0).

    Source: [collins24] Lemma H.2.

    >>> lowrank_M(1.0, 0.0, np.eye(2)[:, :1]).tolist()
    [[1.0, 0.0], [0.0, 0.0]]
    """
    B = np.asarray(B, dtype=float)
    if B.ndim != 2 or not np.allclose(B.T @ B, np.eye(B.shape[1])):
        raise ValueError(f"B must be d×k with orthonormal columns (Def 4.2), got shape {B.shape}")
    P = B @ B.T
    return c1 * P + c2 * (np.eye(B.shape[0]) - P)
