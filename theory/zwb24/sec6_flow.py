"""[zwb24] §6 and App. G: gradient flow on GD-β, Corollary G.1 (excess risk), Lemma G.2 (the
ODE, plain and whitened), the invariants, Theorem 6.3 (limits) and the derived β-rate bound.

Flow convention: ``dΓ/dt = −∇_Γ R``, ``dβ/dt = −∇_β R`` on the population risk (our
convention: a paper objective scaled by 1/2 only rescales time).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from theory.common.backend import NP, ops_for, psd_projector, rank_mask
from theory.zwb24.domains import checked
from theory.zwb24.sec3_model import num_setting, sym_mat
from theory.zwb24.sec5_gd_beta import optimal_gamma_expr

__all__ = [
    "K_matrix",
    "excess_risk",
    "flow_rhs",
    "flow_rhs_whitened",
    "flow_limit",
    "invariants",
    "beta_rate_bound",
]
# Also public, for the sibling section modules and numerics.zwb24 only (theory.zwb24 does
# not re-export them): k_matrix_expr, excess_risk_expr, flow_rhs_expr.


def _setting(ops: Any, H: Any, Psi: Any, beta_star: Any, sigma2: Any, N: Any):
    if ops.symbolic:
        return sym_mat(H), sym_mat(Psi), ops.vec(beta_star), sigma2, N
    Hm, Pm, s2, n, bs = num_setting(H, Psi, sigma2, N, beta_star)
    return Hm, Pm, bs, s2, n


def k_matrix_expr(ops: Any, G: Any, H: Any, N: Any) -> Any:
    """The formula of :func:`K_matrix` on converted backend matrices (no validation)."""
    I = ops.eye(H.shape[0])
    R = I - G @ H
    return R.T @ H @ R + (H @ G.T @ H @ G @ H + ops.tr(G.T @ H @ G @ H) * H) / N


@checked
def K_matrix(Gamma: Any, H: Any, N: Any) -> Any:
    r"""``K(Γ) = (I − ΓH)ᵀH(I − ΓH) + (1/N)[HΓᵀHΓH + tr(ΓᵀHΓH) H]`` (Corollary G.1).

    Source: [zwb24] Corollary G.1, eq. (G.1).  ``K ⪰ H/(N+1)``.

    >>> float(K_matrix([[0.0]], [[1.0]], 5)[0, 0])
    1.0
    """
    ops = ops_for(Gamma, H, N)
    return k_matrix_expr(ops, ops.mat(Gamma), ops.mat(H), N)


@checked
def excess_risk(
    Gamma: Any, beta: Any, H: Any, Psi: Any, beta_star: Any, sigma2: Any, N: Any
) -> Any:
    r"""Excess risk ``E(Γ, β) = R(f_{Γ,β}) − R*`` in the decomposed form of Corollary G.1.

    Source: [zwb24] Corollary G.1, eq. (G.1).

    .. math::

        E = \operatorname{tr}[(\bar\Gamma-\bar\Gamma^*)\Omega(\bar\Gamma-\bar\Gamma^*)^\top]
            + e^\top K(\Gamma) e, \qquad e = \beta - \beta^*

    written without square roots as
    ``tr(H D (((N+1)/N) HΨH + (c/N) H) Dᵀ) + eᵀK(Γ)e`` with ``D = Γ − Γ*``.

    Parameters
    ----------
    Gamma : ``(d, d)``; beta : ``(d,)``; H, Psi, beta_star, sigma2, N : the data model.

    Examples
    --------
    >>> round(excess_risk([[0.5]], [1.0], [[1.0]], [[1.0]], [1.0], 0.0, 5), 12)  # 0.35 − 2/7
    0.064285714286
    """
    ops = ops_for(Gamma, beta, H, Psi, beta_star, sigma2, N)
    Hm, Pm, bs, s2, n = _setting(ops, H, Psi, beta_star, sigma2, N)
    Gs = optimal_gamma_expr(ops, Hm, Pm, s2, n)
    return ops.out(excess_risk_expr(ops, ops.mat(Gamma), ops.vec(beta) - bs, Gs, Hm, Pm, s2, n))


def excess_risk_expr(ops: Any, G: Any, e: Any, Gs: Any, Hm: Any, Pm: Any, s2: Any, n: Any) -> Any:
    """The formula of :func:`excess_risk` with ``e = β − β*`` and ``Gs = Γ*`` given."""
    c = ops.tr(Hm @ Pm) + s2
    D = G - Gs
    Wt = (n + 1) * (Hm @ Pm @ Hm) / n + (c / n) * Hm
    return ops.tr(Hm @ D @ Wt @ D.T) + ops.dot(e, k_matrix_expr(ops, G, Hm, n) @ e)


@checked
def flow_rhs(
    Gamma: Any, beta: Any, H: Any, Psi: Any, beta_star: Any, sigma2: Any, N: Any
) -> tuple[Any, Any]:
    r"""Right-hand side of the GD-β gradient flow (Lemma G.2): ``(dΓ/dt, dβ/dt)``.

    Source: [zwb24] Lemma G.2, eq. (G.4), (G.5).

    .. math::

        \dot\beta = -2K(\Gamma)(\beta-\beta^*),\qquad
        \dot\Gamma = -2H\Big[\Gamma\Big(\tfrac{N+1}{N}H\Psi_\beta
            + \tfrac{\operatorname{tr}(H\Psi_\beta)+\sigma^2}{N}I\Big) - \Psi_\beta\Big]H

    with ``Ψ_β = Ψ + (β − β*)(β − β*)ᵀ``.

    Returns
    -------
    ``(dGamma (d, d), dbeta (d,))``.

    Examples
    --------
    >>> dG, db = flow_rhs([[0.0]], [0.0], [[1.0]], [[1.0]], [1.0], 0.0, 5)
    >>> float(dG[0, 0]), float(db[0])
    (4.0, 2.0)
    """
    ops = ops_for(Gamma, beta, H, Psi, beta_star, sigma2, N)
    Hm, Pm, bs, s2, n = _setting(ops, H, Psi, beta_star, sigma2, N)
    return flow_rhs_expr(ops, ops.mat(Gamma), ops.vec(beta) - bs, Hm, Pm, s2, n)


def flow_rhs_expr(ops: Any, G: Any, e: Any, Hm: Any, Pm: Any, s2: Any, n: Any) -> tuple[Any, Any]:
    """The formula of :func:`flow_rhs` with ``e = β − β*`` (no validation; the ODE route)."""
    Pb = Pm + ops.outer(e, e)
    cb = ops.tr(Hm @ Pb) + s2
    I = ops.eye(Hm.shape[0])
    dG = -2 * (Hm @ (G @ ((n + 1) * (Hm @ Pb) / n + (cb / n) * I) - Pb) @ Hm)
    db = -2 * (k_matrix_expr(ops, G, Hm, n) @ e)
    return dG, db


@checked
def flow_rhs_whitened(
    Gamma_bar: Any, e_bar: Any, H: Any, Psi_bar: Any, sigma2: Any, N: Any
) -> tuple[np.ndarray, np.ndarray]:
    r"""Closed whitened flow (Lemma G.2, whitened): ``(dΓ̄/dt, dē/dt)`` (numeric).

    Source: [derived].

    .. math::

        \dot{\bar e} = -2 H M(\bar\Gamma)\bar e,\quad
        \dot{\bar\Gamma} = -2H[\bar\Gamma\Omega_e - \bar\Psi_e]H,\quad
        M(\bar\Gamma) = (I-\bar\Gamma)^\top(I-\bar\Gamma) + \tfrac1N\bar\Gamma^\top\bar\Gamma
            + \tfrac1N\|\bar\Gamma\|_F^2 I

    >>> dG, de = flow_rhs_whitened([[0.0]], [1.0], [[1.0]], [[1.0]], 0.0, 5)
    >>> float(dG[0, 0]), float(de[0])
    (4.0, -2.0)
    """
    Gb = np.asarray(Gamma_bar, float)
    eb = np.asarray(e_bar, float).reshape(-1)
    Hm = np.asarray(H, float)
    Pb = np.asarray(Psi_bar, float) + np.outer(eb, eb)
    d = Hm.shape[0]
    I = np.eye(d)
    Om = ((N + 1) * Pb + (np.trace(Pb) + sigma2) * I) / N
    M = (I - Gb).T @ (I - Gb) + Gb.T @ Gb / N + np.sum(Gb**2) / N * I
    return -2 * Hm @ (Gb @ Om - Pb) @ Hm, -2 * Hm @ M @ eb


@checked
def flow_limit(
    Gamma0: Any,
    beta0: Any,
    H: Any,
    Psi: Any,
    beta_star: Any,
    sigma2: Any,
    N: Any,
    *,
    gamma_fn: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Limit of the GD-β flow from ``(Γ_0, β_0)`` (Theorem 6.3).

    Source: [zwb24] Theorem 6.3.

    .. math::

        \beta(t)\to P_H\beta^* + (I-P_H)\beta_0,\qquad
        \Gamma(t)\to \Gamma^* + (\Gamma_0 - P_H\Gamma_0P_H)

    ``gamma_fn(H, Psi, sigma2, N)`` (any real ``d × d`` array-like) replaces Γ* (fault injection
    for negative controls only).  The limit is float64 whatever the input's number type.

    >>> G, b = flow_limit([[0.0, 0.0], [0.0, 3.0]], [0.0, 5.0], np.diag([1.0, 0.0]), np.eye(2),
    ...                   [1.0, 1.0], 0.0, 5)
    >>> [round(float(x), 6) for x in (G[0, 0], G[1, 1], b[0], b[1])]
    [0.714286, 3.0, 1.0, 5.0]
    """
    Hm, Pm, s2, n, bs = num_setting(H, Psi, sigma2, N, beta_star)
    PH = psd_projector(Hm)
    G0 = np.asarray(Gamma0, float)
    b0 = np.asarray(beta0, float)
    Gs = (
        optimal_gamma_expr(NP, Hm, Pm, s2, n)
        if gamma_fn is None
        else np.asarray(gamma_fn(Hm, Pm, s2, n), float)
    )
    return Gs + (G0 - PH @ G0 @ PH), PH @ bs + (np.eye(len(bs)) - PH) @ b0


@checked
def invariants(Gamma: Any, beta: Any, H: Any) -> tuple[np.ndarray, np.ndarray]:
    r"""Conserved quantities of the flow: ``(Γ − P_HΓP_H, (I − P_H)β)`` (Theorem 6.3 proof).

    Source: [derived] "Invariants".

    >>> G, b = invariants(np.eye(2), [1.0, 2.0], np.diag([1.0, 0.0]))
    >>> G.tolist(), b.tolist()
    ([[0.0, 0.0], [0.0, 1.0]], [0.0, 2.0])
    """
    PH = psd_projector(np.asarray(H, float))
    G = np.asarray(Gamma, float)
    return G - PH @ G @ PH, (np.eye(PH.shape[0]) - PH) @ np.asarray(beta, float)


@checked
def beta_rate_bound(t: Any, beta0: Any, H: Any, beta_star: Any, N: Any) -> Any:
    r"""``‖P_H(β(t) − β*)‖² ≤ exp(−4 λ⁺_min(H) t/(N+1)) ‖P_H(β_0 − β*)‖²`` [derived].

    Source: [zwb24] App. G (rates; constants lost); bound derived here from
    ``M ⪰ I/(N+1)``.  ``λ⁺_min`` and ``P_H`` share the one rank cut
    (:func:`~theory.common.backend.rank_mask`); ``H = 0`` gives ``P_H = 0``, the bound 0.

    >>> round(float(beta_rate_bound(0.0, [1.0], [[2.0]], [0.0], 3)), 12)
    1.0
    >>> float(beta_rate_bound(1.0, [1.0], [[0.0]], [0.0], 3))
    0.0
    """
    Hm = np.asarray(H, float)
    w = np.linalg.eigvalsh(Hm)
    keep = rank_mask(w)
    lam = float(np.min(w[keep])) if keep.any() else 0.0
    PH = psd_projector(Hm)
    e0 = PH @ (np.asarray(beta0, float) - np.asarray(beta_star, float))
    return np.exp(-4 * lam * np.asarray(t, float) / (N + 1)) * float(e0 @ e0)
