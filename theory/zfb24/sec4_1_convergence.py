"""[zfb24] §4.1 Theorem 4 with Appendix A Lemmas 12, 18–20: the limit (11), the condition,
u_min, PL.

Gradient flow from Assumption 3 with ``σ²‖Γ‖_op√d < 2`` keeps ``u₋₁ ≥ u_min`` (Lemmas 18, 19),
satisfies a PL inequality (Lemma 20) and converges to eq. (11).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.common.backend import NP, SP
from theory.zfb24.domains import checked
from theory.zfb24.sec3_training import as_Lambda, as_N, gamma_xp, prepare

__all__ = [
    "limit_params",
    "limit_params_fn",
    "W_KQ_star",
    "W_PV_star",
    "init_condition",
    "initial_loss_bound",
    "u_min",
    "pl_constant",
]


def _limit(G: Any, xp: Any) -> tuple[Any, Any]:
    Gi = xp.inv(G)
    nrm = xp.sqrt(xp.sqrt(xp.fro2(Gi)))  # ‖Γ⁻¹‖_F^{1/2}
    return Gi / nrm, nrm


@checked
def limit_params(Lambda: Any, N: Any, *, Gamma: Any = None) -> tuple[Any, Any]:
    r"""Limit of the flow from Assumption 3: ``(U₁₁(∞), u₋₁(∞))``.

    Source: [zfb24] Lemma 12 / 20, Theorem 4, eq. (11).

    .. math:: u_{-1}(\infty) = \|\Gamma^{-1}\|_F^{1/2},\qquad
              U_{11}(\infty) = \|\Gamma^{-1}\|_F^{-1/2}\,\Gamma^{-1}

    Notes
    -----
    Needs σ²‖Γ‖_op√d < 2 (:func:`init_condition`).  u₋₁(∞) = [tr Γ⁻²]^{1/4} (arXiv form).

    Examples
    --------
    >>> U, u = limit_params([[1.0]], 1)     # Γ = 3
    >>> round(float(u) ** 2 * 3, 12), round(float(U[0, 0]) * float(u), 12)
    (1.0, 0.333333333333)
    """
    xp, L, n = prepare(Lambda, N)
    G = gamma_xp(L, n, xp) if Gamma is None else xp.mat(Gamma)
    return _limit(G, xp)


@checked
def limit_params_fn(Lambda: Any, N: Any, Gamma: Any = None) -> tuple[np.ndarray, float]:
    """numpy twin of :func:`limit_params`.

    Examples
    --------
    The limit is balanced (u₋₁² = ‖U₁₁‖_F², Lemma 17) and its product is Γ⁻¹ (eq. (12)):

    >>> from theory.zfb24 import gamma
    >>> L = np.diag([0.5, 2.0])
    >>> U, u = limit_params_fn(L, 4)
    >>> bool(np.isclose(u**2, np.sum(U**2))), bool(np.allclose(u * U, np.linalg.inv(gamma(L, 4))))
    (True, True)
    """
    L = np.asarray(Lambda, dtype=float)
    G = gamma_xp(L, N, NP) if Gamma is None else np.asarray(Gamma, dtype=float)
    U, u = _limit(G, NP)
    return U, float(u)


@checked
def W_KQ_star(Lambda: Any, N: Any) -> Any:
    """Theorem 4, eq. (11): ``W^{KQ}_* = ‖Γ⁻¹‖_F^{-1/2} [[Γ⁻¹, 0], [0, 0]]``.

    Source: [zfb24] Theorem 4, eq. (11) (rebuilt from Lemma 12).

    Returns
    -------
    (d+1, d+1) float64 array, or a SymPy matrix.

    Examples
    --------
    Λ = 1, N = 1: Γ = 3, so ‖Γ⁻¹‖_F^{-1/2} Γ⁻¹ = √3/3.

    >>> import sympy as sp
    >>> W_KQ_star(sp.Matrix([[1]]), 1)
    Matrix([
    [sqrt(3)/3, 0],
    [        0, 0]])
    """
    xp, L, n = prepare(Lambda, N)
    U, _ = _limit(gamma_xp(L, n, xp), xp)
    d = xp.dim(L)
    if xp is SP:
        return sp.Matrix(U).row_join(sp.zeros(d, 1)).col_join(sp.zeros(1, d + 1))
    out = np.zeros((d + 1, d + 1))
    out[:d, :d] = U
    return out


@checked
def W_PV_star(Lambda: Any, N: Any) -> Any:
    """Theorem 4, eq. (11): ``W^{PV}_* = ‖Γ⁻¹‖_F^{1/2} e_{d+1} e_{d+1}ᵀ``.

    Source: [zfb24] Theorem 4, eq. (11).

    Returns
    -------
    (d+1, d+1) float64 array, or a SymPy matrix.

    Examples
    --------
    The product of the two limits' active blocks is Γ⁻¹:

    >>> from theory.zfb24 import gamma
    >>> L = np.diag([0.5, 2.0])
    >>> P = W_PV_star(L, 4)[2, 2] * W_KQ_star(L, 4)[:2, :2]
    >>> bool(np.allclose(P, np.linalg.inv(gamma(L, 4))))
    True
    """
    xp, L, n = prepare(Lambda, N)
    _, u = _limit(gamma_xp(L, n, xp), xp)
    d = xp.dim(L)
    out = xp.zeros(d + 1, d + 1)
    out[d, d] = u
    return out


@checked
def init_condition(Lambda: Any, N: Any, sigma_init: Any) -> Any:
    r"""The value ``σ²‖Γ‖_op√d`` that Theorem 4 requires to be ``< 2``.

    Source: [zfb24] Theorem 4 / Lemma 18.

    Examples
    --------
    ‖Γ‖_op = (17/16)·2 + 5/16 at Λ = diag(0.5, 1, 1.5, 2), N = 16; σ = 0.3, √d = 2:

    >>> round(float(init_condition(np.diag([0.5, 1, 1.5, 2]), 16, 0.3)), 8)  # 0.09·4.875·2
    0.43875
    """
    xp, L, n = prepare(Lambda, N)
    s = xp.S(sigma_init)
    return s**2 * xp.opnorm_spd(gamma_xp(L, n, xp)) * xp.sqrt(xp.S(xp.dim(L)))


@checked
def initial_loss_bound(Lambda: Any, N: Any, sigma_init: float, Theta: Any) -> float:
    r"""Lemma 18's bound on the initial reduced loss (negative iff σ²‖Γ‖_op√d < 2).

    Source: [zfb24] Lemma 18, eq. (43).

    .. math:: \tilde\ell(0) \le \frac{\sigma^2}{2}\|\Lambda\Theta\|_F^2
              \big[\sqrt d\,\sigma^2\|\Gamma\|_{op} - 2\big]

    Examples
    --------
    >>> initial_loss_bound(np.eye(1), 1, 0.5, np.eye(1)) < 0
    True
    """
    L = as_Lambda(Lambda)
    G = gamma_xp(L, as_N(N), NP)
    T = np.asarray(Theta, dtype=float)
    s = float(sigma_init)
    c = np.sqrt(L.shape[0]) * s**2 * np.max(np.linalg.eigvalsh(G))
    return float(s**2 / 2 * np.sum((L @ T) ** 2) * (c - 2))


def _umin2(L: np.ndarray, G: np.ndarray, s: float, Theta: np.ndarray) -> float:
    d = L.shape[0]
    c = s**2 * np.max(np.linalg.eigvalsh(G)) * np.sqrt(d)
    LT2 = float(np.sum((L @ Theta) ** 2))
    return s**2 * LT2 * (2 - c) / (2 * np.sqrt(d) * np.max(np.linalg.eigvalsh(L)) ** 2)


@checked
def u_min(Lambda: Any, N: Any, sigma_init: float, Theta: Any) -> float:
    r"""Lemma 19's lower bound on ``u₋₁(t)``.

    Source: [zfb24] Lemma 19, eq. (44) (reconstructed from the proof).

    .. math:: u_{\min} = \sqrt{\frac{\sigma^2\|\Lambda\Theta\|_F^2\,[2 - \sqrt
              d\sigma^2\|\Gamma\|_{op}]}
              {2\sqrt d\,\|\Lambda\|_{op}^2}}

    Examples
    --------
    >>> round(u_min(np.diag([0.5, 1, 1.5, 2]), 16, 0.3, np.eye(4) / np.sqrt(2)), 6)
    0.181473
    """
    L = as_Lambda(Lambda)
    G = gamma_xp(L, as_N(N), NP)
    s = float(sigma_init)
    v = _umin2(L, G, s, np.asarray(Theta, dtype=float))
    if v <= 0:
        c = s**2 * np.max(np.linalg.eigvalsh(G)) * np.sqrt(L.shape[0])
        raise ValueError(
            f"u_min needs σ²‖Γ‖_op√d < 2 (Theorem 4), got σ²‖Γ‖_op√d = {c:.6g} "
            f"(sigma_init = {sigma_init!r})"
        )
    return float(np.sqrt(v))


@checked
def pl_constant(Lambda: Any, N: Any, sigma_init: float, Theta: Any) -> float:
    r"""The PL constant ``μ`` of Lemma 12 / 20.

    Source: [zfb24] Lemma 12 / 20, eq. (30).

    .. math:: \mu = \frac{\sigma^2\|\Lambda\Theta\|_F^2[2-\sqrt d\sigma^2\|\Gamma\|_{op}]}
              {\sqrt d\|\Lambda\|_{op}^2\operatorname{tr}(\Gamma^{-1}\Lambda^{-1})
              \operatorname{tr}(\Lambda^{-1})}
              = \frac{2u_{\min}^2}{\operatorname{tr}(\Gamma^{-1}\Lambda^{-1})
              \operatorname{tr}(\Lambda^{-1})}

    Raises ``ValueError`` where ``σ²‖Γ‖_op√d ≥ 2`` (there ``μ ≤ 0`` is no PL constant), as
    :func:`u_min` does.

    Examples
    --------
    >>> round(pl_constant(np.diag([0.5, 1, 1.5, 2]), 16, 0.3, np.eye(4) / np.sqrt(2)) * 1e3, 4)
    4.3279
    """
    L = as_Lambda(Lambda)
    G = gamma_xp(L, as_N(N), NP)
    s = float(sigma_init)
    um2 = _umin2(L, G, s, np.asarray(Theta, dtype=float))
    if um2 <= 0:
        c = s**2 * np.max(np.linalg.eigvalsh(G)) * np.sqrt(L.shape[0])
        raise ValueError(
            f"pl_constant needs σ²‖Γ‖_op√d < 2 (Lemma 20 / Theorem 4), got σ²‖Γ‖_op√d = {c:.6g} "
            f"(sigma_init = {sigma_init!r})"
        )
    Li = np.linalg.inv(L)
    return float(2 * um2 / (np.trace(np.linalg.inv(G) @ Li) * np.trace(Li)))
