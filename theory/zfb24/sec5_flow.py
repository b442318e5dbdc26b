"""[zfb24] §5 and Appendix A (Lemmas 10, 11, 15, 17; Corollary 16): reduced loss, gradient flow,
minima.

On the invariant set ``u₁₂ = u₂₁ = 0`` the population loss (8) is ``ℓ̃ + trΛ/2`` (Lemma 15), the
gradient flow is the ODE of Lemma 10 in ``(U₁₁, u₋₁)``, balancedness is conserved (Lemma 17) and
the minimisers are ``u₋₁U₁₁ = Γ⁻¹`` (Lemma 11, Corollary 16).  Also the [derived] reductions of
§5 (off-diagonal decay, isotropic logistic) and the label-noise loss.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.common.backend import NP, SP, ops_for, psd_sqrt
from theory.common.evaluate import dual
from theory.settings import check_choice
from theory.zfb24.domains import checked
from theory.zfb24.sec3_training import as_Lambda, as_N, gamma_noisy_xp, gamma_xp, prepare

__all__ = [
    "optimal_loss",
    "optimal_loss_fn",
    "optimal_loss_noisy",
    "optimal_loss_isotropic",
    "reduced_loss",
    "reduced_loss_fn",
    "reduced_loss_grad",
    "reduced_loss_grad_fn",
    "loss_of_P",
    "loss_of_P_fn",
    "flow_rhs",
    "flow_rhs_fn",
    "FLOW_VARIANTS",
    "balancedness",
    "balanced_flow_rhs",
    "excess_identity",
    "isotropic_q",
    "isotropic_q_fn",
    "offdiag_decay",
]


# ------------------------------------------------------------------------------ minima, L*
def _optimal_loss(Lambda: Any, Gamma: Any, s2: Any, xp: Any) -> Any:
    return (xp.tr(Lambda) + s2 - xp.tr(Lambda @ Lambda @ xp.inv(Gamma))) / 2


@checked
def optimal_loss(Lambda: Any, N: Any, *, Gamma: Any = None) -> Any:
    r"""``L*``, the minimum of the population loss (8) (with its ½), noiseless training.

    Source: [zfb24] Corollary 16 (min ℓ̃) and Lemma 15 (L = ℓ̃ + trΛ/2); [derived] as a closed
    form, and Theorem 4 ("global minimum of (8)").

    .. math:: L^* = \tfrac12\big[\operatorname{tr}\Lambda -
              \operatorname{tr}(\Lambda^2\Gamma^{-1})\big]
              = \tfrac12\sum_i \frac{\lambda_i(\lambda_i + \operatorname{tr}\Lambda)}{(N+1)\lambda_i
              + \operatorname{tr}\Lambda}

    Parameters
    ----------
    Lambda : Λ (d×d SPD); N : training prompt length ≥ 1
    Gamma : optional replacement of Γ (label-noise extension / fault injection)

    Notes
    -----
    That L* is the minimum over *all* parameters (not only the invariant set) is our
    [derived]
    odd/even-in-w argument.  Isotropic Λ = I_d: L* = d(d+1)/(2(N+d+1)).

    Examples
    --------
    >>> round(float(optimal_loss(np.diag([0.5, 1, 1.5, 2]), 16)), 7)  # ½Σ λ(λ+5)/(17λ+5)
    0.5775387
    """
    xp, L, n = prepare(Lambda, N)
    G = gamma_xp(L, n, xp) if Gamma is None else xp.mat(Gamma)
    return _optimal_loss(L, G, 0, xp)


@checked
def optimal_loss_fn(Lambda: Any, N: Any) -> float:
    """numpy twin of :func:`optimal_loss`.

    Examples
    --------
    Λ = I₃, N = 8: d(d+1)/(2(N+d+1)) = 12/24.

    >>> optimal_loss_fn(np.eye(3), 8)
    0.5
    """
    L = np.asarray(Lambda, dtype=float)
    return float(_optimal_loss(L, gamma_xp(L, N, NP), 0.0, NP))


@checked
def optimal_loss_noisy(Lambda: Any, N: Any, s2: Any) -> Any:
    r"""[derived] ``L*_s = ½[trΛ + s² − tr(Λ²Γ_s⁻¹)]``, label-noise extension.

    Source: [derived] (loss includes the query-label noise s²).

    Examples
    --------
    >>> float(optimal_loss_noisy([[1.0]], 2, 0.0)) == float(optimal_loss([[1.0]], 2))
    True
    """
    xp, L, n = prepare(Lambda, N)
    s2 = xp.S(s2) if xp is SP else float(s2)
    return _optimal_loss(L, gamma_noisy_xp(L, n, s2, xp), s2, xp)


@checked
def optimal_loss_isotropic(d: Any, N: Any) -> Any:
    r"""``L* = d(d+1)/(2(N+d+1))`` for Λ = I_d ([derived] from Corollary 16).

    Examples
    --------
    >>> from theory.common.symbols import d, N
    >>> sp.factor(optimal_loss_isotropic(d, N))
    d*(d + 1)/(2*(N + d + 1))
    """
    return sp.sympify(d) * (d + 1) / (2 * (N + d + 1))


# ------------------------------------------------------------------ reduced loss, gradients
def _reduced_loss(U: Any, u: Any, Lambda: Any, G: Any, xp: Any) -> Any:
    return xp.tr((u**2 / 2) * (G @ Lambda @ U @ Lambda @ U.T) - u * (Lambda @ Lambda @ U.T))


@checked
def reduced_loss(U11: Any, u: Any, Lambda: Any, N: Any, *, Gamma: Any = None) -> Any:
    r"""The reduced loss ``ℓ̃(U₁₁, u₋₁)`` on the invariant set ``u₁₂ = u₂₁ = 0``.

    Source: [zfb24] eq. (28), Lemma 15.

    .. math:: \tilde\ell = \operatorname{tr}\big[\tfrac12 u_{-1}^2\,\Gamma\Lambda U_{11}\Lambda
              U_{11}^\top
              - u_{-1}\Lambda^2 U_{11}^\top\big], \qquad L = \tilde\ell +
              \tfrac12\operatorname{tr}\Lambda

    Parameters
    ----------
    U11 : d×d block U₁₁ = W^{KQ}_{11}; u : scalar u₋₁ = w^{PV}_{22}; Lambda : Λ; N : train length

    Examples
    --------
    >>> float(reduced_loss([[0.0]], 1.0, [[1.0]], 3))
    0.0
    """
    xp, L, n = prepare(Lambda, N)
    G = gamma_xp(L, n, xp) if Gamma is None else xp.mat(Gamma)
    return _reduced_loss(xp.mat(U11), xp.S(u) if xp is SP else float(u), L, G, xp)


@checked
def reduced_loss_fn(U11: Any, u: float, Lambda: Any, N: Any, Gamma: Any = None) -> float:
    """numpy twin of :func:`reduced_loss`.

    Examples
    --------
    At the flow's limit, ℓ̃ + ½trΛ is the optimal loss L* (Lemma 15, Corollary 16):

    >>> from theory.zfb24 import limit_params_fn
    >>> L = np.diag([0.5, 2.0])
    >>> U, u = limit_params_fn(L, 4)
    >>> bool(np.isclose(reduced_loss_fn(U, u, L, 4) + np.trace(L) / 2, optimal_loss_fn(L, 4)))
    True
    """
    L = np.asarray(Lambda, dtype=float)
    G = gamma_xp(L, N, NP) if Gamma is None else np.asarray(Gamma, dtype=float)
    return float(_reduced_loss(np.asarray(U11, dtype=float), u, L, G, NP))


def _grad(U: Any, u: Any, Lambda: Any, G: Any, xp: Any) -> tuple[Any, Any]:
    A = G @ Lambda @ U @ Lambda
    gU = u**2 * A - u * (Lambda @ Lambda)
    gu = xp.tr(u * (A @ U.T) - Lambda @ Lambda @ U.T)
    return gU, gu


@checked
def reduced_loss_grad(
    U11: Any, u: Any, Lambda: Any, N: Any, *, Gamma: Any = None
) -> tuple[Any, Any]:
    r"""Gradients of ``ℓ̃`` (Lemma 15).

    Source: [zfb24] Lemma 15.

    .. math:: \partial_{U_{11}}\tilde\ell = u_{-1}^2\Gamma\Lambda U_{11}\Lambda -
              u_{-1}\Lambda^2,\qquad
              \partial_{u_{-1}}\tilde\ell = \operatorname{tr}[u_{-1}\Gamma\Lambda U_{11}\Lambda
              U_{11}^\top
              - \Lambda^2 U_{11}^\top]

    Notes
    -----
    Uses that ΓΛ is symmetric (Γ and Λ commute).

    Returns
    -------
    (∂ℓ̃/∂U₁₁ (d, d), ∂ℓ̃/∂u₋₁ scalar); SymPy for SymPy input.

    Examples
    --------
    U₁₁ = 0, u₋₁ = 1, Λ = 1: ∂_U = −λ² = −1, ∂_u = 0.

    >>> gU, gu = reduced_loss_grad([[0.0]], 1.0, [[1.0]], 3)
    >>> gU.tolist(), float(gu)
    ([[-1.0]], 0.0)
    """
    xp, L, n = prepare(Lambda, N)
    G = gamma_xp(L, n, xp) if Gamma is None else xp.mat(Gamma)
    return _grad(xp.mat(U11), xp.S(u) if xp is SP else float(u), L, G, xp)


@checked
def reduced_loss_grad_fn(
    U11: Any, u: float, Lambda: Any, N: Any, Gamma: Any = None
) -> tuple[np.ndarray, float]:
    """numpy twin of :func:`reduced_loss_grad`.

    Examples
    --------
    The flow is exactly minus the gradient:

    >>> from theory.zfb24 import gamma_fn
    >>> L, U = np.diag([0.5, 2.0]), np.array([[0.3, 0.1], [-0.2, 0.4]])
    >>> gU, gu = reduced_loss_grad_fn(U, 0.7, L, 4)
    >>> dU, du = flow_rhs_fn(U, 0.7, L, gamma_fn(L, 4))
    >>> bool(np.allclose(dU, -gU)), bool(np.isclose(du, -gu))
    (True, True)
    """
    L = np.asarray(Lambda, dtype=float)
    G = gamma_xp(L, N, NP) if Gamma is None else np.asarray(Gamma, dtype=float)
    gU, gu = _grad(np.asarray(U11, dtype=float), float(u), L, G, NP)
    return gU, float(gu)


def _loss_of_P(P: Any, Lambda: Any, G: Any, s2: Any, xp: Any) -> Any:
    return (
        xp.tr(G @ Lambda @ P @ Lambda @ P.T) - 2 * xp.tr(Lambda @ Lambda @ P.T) + xp.tr(Lambda) + s2
    ) / 2


@checked
def loss_of_P(P: Any, Lambda: Any, N: Any, *, Gamma: Any = None, s2: Any = 0) -> Any:
    r"""Population loss (8) at the effective matrix ``P = u₋₁U₁₁`` (invariant set).

    Source: [zfb24] Lemma 15 / eq. (28) rewritten in P; ``s2`` and ``Gamma=gamma_noisy``
    give the [derived] label-noise version.

    .. math:: L(P) = \tfrac12\big[\operatorname{tr}(\Gamma\Lambda P\Lambda P^\top)
              - 2\operatorname{tr}(\Lambda^2P^\top) + \operatorname{tr}\Lambda\big]

    Examples
    --------
    >>> float(loss_of_P([[0.0]], [[2.0]], 5))   # zero predictor: ½ trΛ
    1.0
    """
    xp, L, n = prepare(Lambda, N)
    G = gamma_xp(L, n, xp) if Gamma is None else xp.mat(Gamma)
    return _loss_of_P(xp.mat(P), L, G, xp.S(s2) if xp is SP else float(s2), xp)


@checked
def loss_of_P_fn(P: Any, Lambda: Any, N: Any, Gamma: Any = None, s2: float = 0.0) -> float:
    """numpy twin of :func:`loss_of_P`.

    Examples
    --------
    The minimiser P = Γ⁻¹ attains L* (Lemma 11, Corollary 16):

    >>> from theory.zfb24 import gamma_fn
    >>> L = np.diag([0.5, 2.0])
    >>> bool(np.isclose(loss_of_P_fn(np.linalg.inv(gamma_fn(L, 4)), L, 4), optimal_loss_fn(L, 4)))
    True
    """
    L = np.asarray(Lambda, dtype=float)
    G = gamma_xp(L, N, NP) if Gamma is None else np.asarray(Gamma, dtype=float)
    return float(_loss_of_P(np.asarray(P, dtype=float), L, G, s2, NP))


# --------------------------------------------------------------------------- the flow ODE
FLOW_VARIANTS = ("paper", "symmetrised", "transposed")


def _flow(U: Any, u: Any, Lambda: Any, G: Any, xp: Any, variant: str) -> tuple[Any, Any]:
    A = G @ Lambda @ (U.T if variant == "transposed" else U) @ Lambda
    dU = -(u**2) * A + u * (Lambda @ Lambda)
    if variant == "symmetrised":
        dU = (dU + dU.T) / 2
    du = -xp.tr(u * (G @ Lambda @ U @ Lambda @ U.T) - Lambda @ Lambda @ U.T)
    return dU, du


@checked
def flow_rhs(
    U11: Any, u: Any, Lambda: Any, N: Any, *, variant: str = "paper", Gamma: Any = None
) -> tuple[Any, Any]:
    r"""Right-hand side of the gradient-flow ODE of Lemma 10 (state ``(U₁₁, u₋₁)``).

    Source: [zfb24] Lemma 10, eq. (27) (= Lemma 14).

    .. math:: \dot U_{11} = -u_{-1}^2\,\Gamma\Lambda U_{11}\Lambda + u_{-1}\Lambda^2,\qquad
              \dot u_{-1} = -\operatorname{tr}[u_{-1}\Gamma\Lambda U_{11}\Lambda U_{11}^\top
              - \Lambda^2U_{11}^\top]

    Parameters
    ----------
    U11, u : the state; Lambda : Λ; N : train length
    variant : ``"paper"`` (default); ``"symmetrised"`` symmetrises U̇₁₁ and ``"transposed"`` uses
        U₁₁ᵀ in the first term — both are deliberate faults for negative controls
    Gamma : optional replacement of Γ

    Notes
    -----
    This is exactly −∇ℓ̃.  u₁₂ = u₂₁ = 0 is invariant, so the (d²+1)-dimensional system is the whole
    flow from Assumption 3.  [derived] U₁₁(t) does not stay symmetric for non-diagonal Λ and a
    ΘΘᵀ that does not commute with Λ: never symmetrise.

    Examples
    --------
    >>> dU, du = flow_rhs([[0.5]], 1.0, [[1.0]], 1)   # Γ = 3: dU = -1.5 + 1
    >>> float(dU[0, 0]), float(du)
    (-0.5, -0.25)
    """
    check_choice("variant", variant, FLOW_VARIANTS)
    xp, L, n = prepare(Lambda, N)
    G = gamma_xp(L, n, xp) if Gamma is None else xp.mat(Gamma)
    return _flow(xp.mat(U11), xp.S(u) if xp is SP else float(u), L, G, xp, variant)


@checked
def flow_rhs_fn(
    U11: np.ndarray, u: float, Lambda: np.ndarray, Gamma: np.ndarray, variant: str = "paper"
) -> tuple[np.ndarray, float]:
    """numpy twin of :func:`flow_rhs` taking Γ precomputed (for ODE integrators).

    Parameters
    ----------
    U11 : (d, d); u : u₋₁; Lambda : (d, d) Λ; Gamma : (d, d) Γ (:func:`theory.zfb24.gamma_fn`)

    Returns
    -------
    (U̇₁₁ (d, d) float64 array, u̇₋₁ float); integer or exact entries are read as float64.

    Examples
    --------
    The limit of eq. (11) is a rest point:

    >>> from theory.zfb24 import gamma_fn, limit_params_fn
    >>> L = np.diag([0.5, 2.0])
    >>> dU, du = flow_rhs_fn(*limit_params_fn(L, 4), L, gamma_fn(L, 4))
    >>> bool(np.allclose(dU, 0)), bool(abs(du) < 1e-12)
    (True, True)
    """
    check_choice("variant", variant, FLOW_VARIANTS)
    L = np.asarray(Lambda, dtype=float)
    G = np.asarray(Gamma, dtype=float)
    dU, du = _flow(np.asarray(U11, dtype=float), float(u), L, G, NP, variant)
    return dU, float(du)


@checked
def balancedness(U11: Any, u: Any) -> Any:
    r"""The conserved quantity ``u₋₁² − ‖U₁₁‖_F²`` (zero under Assumption 3).

    Source: [zfb24] Lemma 17, eq. (42).

    Examples
    --------
    >>> float(balancedness([[0.6, 0.0], [0.0, 0.8]], 1.0))
    0.0
    """
    xp = ops_for(U11, u)
    U = xp.mat(U11)
    return (xp.S(u) if xp is SP else float(u)) ** 2 - xp.fro2(U)


@checked
def balanced_flow_rhs(U11: Any, Lambda: Any, N: Any) -> Any:
    r"""The reduced balanced ODE ``U̇₁₁ = −‖U₁₁‖_F² ΓΛU₁₁Λ + ‖U₁₁‖_F Λ²``.

    Source: [zfb24] Lemma 17 with u₋₁ = ‖U₁₁‖_F > 0 (Lemma 18).

    Returns
    -------
    U̇₁₁, (d, d) float64 array (SymPy matrix for SymPy input).

    Examples
    --------
    d = 1, Λ = 1, N = 1 (Γ = 3), U₁₁ = ½: −¼·3·½ + ½ = 0.125.

    >>> balanced_flow_rhs([[0.5]], [[1.0]], 1).tolist()
    [[0.125]]
    """
    xp, L, n = prepare(Lambda, N)
    U = xp.mat(U11)
    return _flow(U, xp.sqrt(xp.fro2(U)), L, gamma_xp(L, n, xp), xp, "paper")[0]


@checked
def excess_identity(U11: Any, u: float, Lambda: Any, N: Any) -> float:
    r"""Right side of Corollary 16's excess identity ``½‖Γ^{1/2}(u₋₁Λ^{1/2}U₁₁Λ^{1/2} − ΛΓ⁻¹)‖_F²``.

    Source: [zfb24] Corollary 16.  numpy only (matrix square roots).

    .. math:: \tilde\ell - \min\tilde\ell = \tfrac12\big\|\Gamma^{1/2}(u_{-1}\Lambda^{1/2}U_{11}
              \Lambda^{1/2} - \Lambda\Gamma^{-1})\big\|_F^2

    Examples
    --------
    The identity at a generic (non-symmetric) U₁₁: ℓ̃ − min ℓ̃ (min at the limit of eq. (11)).

    >>> from theory.zfb24 import limit_params_fn
    >>> L, U = np.diag([0.5, 2.0]), np.array([[0.3, 0.1], [-0.2, 0.4]])
    >>> gap = reduced_loss_fn(U, 0.7, L, 4) - reduced_loss_fn(*limit_params_fn(L, 4), L, 4)
    >>> bool(np.isclose(excess_identity(U, 0.7, L, 4), gap))
    True
    """
    L = as_Lambda(Lambda)
    G = gamma_xp(L, as_N(N), NP)
    Lh, Gh = psd_sqrt(L), psd_sqrt(G)
    inner = u * Lh @ np.asarray(U11, dtype=float) @ Lh - L @ np.linalg.inv(G)
    return float(0.5 * np.sum((Gh @ inner) ** 2))


# ----------------------------------------------------------------- [derived] reductions
_t, _d, _N, _s, _lam = sp.symbols("t d N sigma lambda", positive=True)


def _isotropic_q_builder(t: Any, d: Any, N: Any, s: Any, lam: Any) -> Any:
    """q(t) of :func:`isotropic_q`, one expression."""
    g = lam * (N + 1 + d) / N
    qstar = 1 / (sp.sqrt(d) * g)
    q0 = s**2 / d
    return qstar / (1 + (qstar / q0 - 1) * sp.exp(-2 * sp.sqrt(d) * lam**2 * t))


_Q_SYMS = (_t, _d, _N, _s, _lam)


@checked
def isotropic_q(t: Any, d: Any, N: Any, sigma_init: Any, lam: Any = 1) -> Any:
    r"""[derived] Isotropic closed form: ``U₁₁(t) = s(t)I``, ``q = s²`` is logistic.

    Source: [derived] (from Lemma 10 with Λ = λI, ΘΘᵀ = I/√d).

    .. math:: q(t) = \frac{q^*}{1 + (q^*/q_0 - 1)e^{-2\sqrt d\lambda^2 t}},\quad
              q^* = \frac{1}{\sqrt d\,g},\ g = \frac{\lambda(N+1+d)}{N},\ q_0 = \frac{\sigma^2}{d}

    and u₋₁ = √(d q), P = √d q I → Γ⁻¹.

    Examples
    --------
    >>> round(float(isotropic_q(1.0, 5, 20, 0.2)), 7)  # between q₀ = 0.008 and q* = 0.344
    0.2324746
    """
    return dual(_isotropic_q_builder, _Q_SYMS, (t, d, N, sigma_init, lam))


@checked
def isotropic_q_fn(t: Any, d: Any, N: Any, sigma_init: Any, lam: Any = 1.0) -> Any:
    """numpy twin of :func:`isotropic_q` (its lambdified builder).

    Examples
    --------
    q(0) = σ²/d and q(∞) = q* = 1/(√d g); d = 4, N = 20, σ = 0.2: 0.04/4 and 1/(2·25/20).

    >>> round(float(isotropic_q_fn(0.0, 4, 20, 0.2)), 12)
    0.01
    >>> round(float(isotropic_q_fn(50.0, 4, 20, 0.2)), 12)
    0.4
    """
    return dual(_isotropic_q_builder, _Q_SYMS, (t, d, N, sigma_init, lam))


@checked
def offdiag_decay(u0_ij: float, g_i: float, lam_i: float, lam_j: float, int_u2: float) -> float:
    r"""[derived] Diagonal reduction: ``u_ij(t) = u_ij(0) exp(−g_i λ_i λ_j ∫₀ᵗ u₋₁²)`` (i ≠ j).

    Source: [derived] (Lemma 10 in the eigenbasis of Λ; g_i eigenvalues of Γ).

    Examples
    --------
    g_iλ_iλ_j∫u² = 2·1·½·ln 2 halves the entry:

    >>> offdiag_decay(1.0, 2.0, 1.0, 0.5, np.log(2))
    0.5
    """
    return float(u0_ij * np.exp(-g_i * lam_i * lam_j * int_u2))
