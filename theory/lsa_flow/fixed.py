"""zfb24, fixed covariance: Γ, Lemma 9, the reduced loss, the flow (Lemma 10/17), minima, Theorem 4.

Every public function accepts numbers / numpy arrays (returns float64) or SymPy objects (returns
expressions); ``<name>_fn`` is the numpy twin without input validation (see ``_backend``).
The keyword ``Gamma=`` accepted by several functions replaces ``Γ``: it is the hook for the
label-noise extension (pass :func:`gamma_noisy`) and for fault injection in negative controls.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.common.evaluate import lambdified
from theory.lsa_flow._backend import NP, SP, backend, num_matrix, num_N
from theory.settings import check_choice, check_real

__all__ = [
    "gamma", "gamma_fn", "gamma_noisy", "gamma_noisy_fn",
    "optimal_loss", "optimal_loss_fn", "optimal_loss_noisy", "optimal_loss_isotropic",
    "U_from_weights", "vec", "lemma9_H", "prediction_quadratic", "prediction_eq6", "lsa_output",
    "reduced_loss", "reduced_loss_fn", "reduced_loss_grad", "reduced_loss_grad_fn",
    "loss_of_P", "loss_of_P_fn",
    "flow_rhs", "flow_rhs_fn", "FLOW_VARIANTS", "balancedness", "balanced_flow_rhs",
    "excess_identity", "limit_params", "limit_params_fn", "W_KQ_star", "W_PV_star",
    "init_condition", "initial_loss_bound", "u_min", "pl_constant", "initial_state",
    "isotropic_q", "isotropic_q_fn", "offdiag_decay",
]


def _prep(Lambda: Any, N: Any) -> tuple[Any, Any, Any]:
    xp = backend(Lambda, N)
    if xp is NP:
        return xp, num_matrix("Lambda", Lambda), num_N("N", N)
    return xp, SP.mat(Lambda), SP.S(N)


# --------------------------------------------------------------------------------------- Γ
def _gamma(Lambda: Any, N: Any, xp: Any) -> Any:
    d = xp.dim(Lambda)
    return (1 + xp.S(1) / N) * Lambda + (xp.tr(Lambda) / N) * xp.eye(d)


def gamma(Lambda: Any, N: Any) -> Any:
    r"""The matrix ``Γ`` whose inverse the trained LSA learns.

    Source: [zfb24] Theorem 4 and Lemma 10 (also eq. (37) and Theorem 5).

    .. math:: \Gamma = \Big(1 + \frac1N\Big)\Lambda + \frac{\operatorname{tr}\Lambda}{N} I_d

    Parameters
    ----------
    Lambda : covariate covariance Λ (d×d, symmetric positive definite); SymPy Matrix/MatrixSymbol ok
    N : training prompt length N ≥ 1 (int or SymPy symbol)

    Returns
    -------
    (d, d) float64 array, or a SymPy matrix expression.

    Notes
    -----
    Γ commutes with Λ and Γ ⪰ Λ.  It is also E[Λ̂²]Λ⁻¹ (spec §1.1).  The paper writes it both as
    (1+1/N)Λ + trΛ/N·I and ((N+1)/N)Λ + trΛ/N·I (spec §6.4): identical.

    References
    ----------
    Zhang, Frei, Bartlett (2024), JMLR 25(49); arXiv:2306.09927.

    Examples
    --------
    >>> gamma([[1.0]], 2).tolist()
    [[2.0]]
    >>> N = sp.Symbol("N", positive=True)
    >>> gamma(sp.Matrix([[1]]), N)
    Matrix([[1 + 2/N]])
    """
    xp, L, n = _prep(Lambda, N)
    return _gamma(L, n, xp)


def gamma_fn(Lambda: Any, N: Any) -> np.ndarray:
    """numpy twin of :func:`gamma` (no validation)."""
    return _gamma(np.asarray(Lambda, dtype=float), N, NP)


def _gamma_noisy(Lambda: Any, N: Any, s2: Any, xp: Any) -> Any:
    return _gamma(Lambda, N, xp) + (s2 / N) * xp.eye(xp.dim(Lambda))


def gamma_noisy(Lambda: Any, N: Any, s2: Any) -> Any:
    r"""[derived] ``Γ_s``: the label-noise extension of ``Γ``.

    Source: [derived] spec 004 §5 "Label-noise extension" (not in [zfb24]).

    .. math:: \Gamma_s = \Gamma + \frac{s^2}{N} I = \Big(1+\frac1N\Big)\Lambda
              + \frac{\operatorname{tr}\Lambda + s^2}{N} I

    Parameters
    ----------
    Lambda : Λ (d×d SPD); N : training prompt length ≥ 1; s2 : training label-noise variance s² ≥ 0

    Notes
    -----
    With training labels y = ⟨w,x⟩ + ε, Var ε = s², E[ĝĝᵀ] = ΛΓ_s and E[ĝwᵀ] = Λ for
    ĝ = (1/N)Σ yᵢxᵢ, so ℓ̃, the flow and the minimiser P = Γ_s⁻¹ hold with Γ → Γ_s.  At zero task
    mean Γ_s⁻¹ should equal zwb24's optimal one-step-GD preconditioner Γ* (cross-check pending).
    (s² is the noise variance; σ is zfb24's initialisation scale, ``sigma_init``.)

    Examples
    --------
    >>> gamma_noisy([[1.0]], 2, 1.0).tolist()
    [[2.5]]
    """
    xp, L, n = _prep(Lambda, N)
    s2 = xp.S(s2) if xp is SP else check_real("s2 (label-noise variance)", s2, lower=0.0)
    return _gamma_noisy(L, n, s2, xp)


def gamma_noisy_fn(Lambda: Any, N: Any, s2: float) -> np.ndarray:
    """numpy twin of :func:`gamma_noisy`."""
    return _gamma_noisy(np.asarray(Lambda, dtype=float), N, s2, NP)


# ------------------------------------------------------------------------------ minima, L*
def _optimal_loss(Lambda: Any, Gamma: Any, s2: Any, xp: Any) -> Any:
    return (xp.tr(Lambda) + s2 - xp.tr(Lambda @ Lambda @ xp.inv(Gamma))) / 2


def optimal_loss(Lambda: Any, N: Any, *, Gamma: Any = None) -> Any:
    r"""``L*``, the minimum of the population loss (8) (with its ½), noiseless training.

    Source: [zfb24] Corollary 16 (min ℓ̃) and Lemma 15 (L = ℓ̃ + trΛ/2); [derived] as a closed form
    (spec R5), and Theorem 4 ("global minimum of (8)").

    .. math:: L^* = \tfrac12\big[\operatorname{tr}\Lambda - \operatorname{tr}(\Lambda^2\Gamma^{-1})\big]
              = \tfrac12\sum_i \frac{\lambda_i(\lambda_i + \operatorname{tr}\Lambda)}{(N+1)\lambda_i
              + \operatorname{tr}\Lambda}

    Parameters
    ----------
    Lambda : Λ (d×d SPD); N : training prompt length ≥ 1
    Gamma : optional replacement of Γ (label-noise extension / fault injection)

    Notes
    -----
    That L* is the minimum over *all* parameters (not only the invariant set) is the spec's [derived]
    odd/even-in-w argument (spec §6.19).  Isotropic Λ = I_d: L* = d(d+1)/(2(N+d+1)).

    Examples
    --------
    >>> round(float(optimal_loss(np.diag([0.5, 1, 1.5, 2]), 16)), 7)   # spec T-R5 reference
    0.5775387
    """
    xp, L, n = _prep(Lambda, N)
    G = _gamma(L, n, xp) if Gamma is None else xp.mat(Gamma)
    return _optimal_loss(L, G, 0, xp)


def optimal_loss_fn(Lambda: Any, N: Any) -> float:
    """numpy twin of :func:`optimal_loss`."""
    L = np.asarray(Lambda, dtype=float)
    return float(_optimal_loss(L, _gamma(L, N, NP), 0.0, NP))


def optimal_loss_noisy(Lambda: Any, N: Any, s2: Any) -> Any:
    r"""[derived] ``L*_s = ½[trΛ + s² − tr(Λ²Γ_s⁻¹)]``, label-noise extension (spec §5).

    Source: [derived] spec 004 §5 (loss includes the query-label noise s²).

    Examples
    --------
    >>> float(optimal_loss_noisy([[1.0]], 2, 0.0)) == float(optimal_loss([[1.0]], 2))
    True
    """
    xp, L, n = _prep(Lambda, N)
    s2 = xp.S(s2) if xp is SP else check_real("s2 (label-noise variance)", s2, lower=0.0)
    return _optimal_loss(L, _gamma_noisy(L, n, s2, xp), s2, xp)


def optimal_loss_isotropic(d: Any, N: Any) -> Any:
    r"""``L* = d(d+1)/(2(N+d+1))`` for Λ = I_d (spec R5, [derived] from Corollary 16).

    Examples
    --------
    >>> from theory.common.symbols import d, N
    >>> sp.factor(optimal_loss_isotropic(d, N))
    d*(d + 1)/(2*(N + d + 1))
    """
    return sp.sympify(d) * (d + 1) / (2 * (N + d + 1))


# ------------------------------------------------------------------------------- Lemma 9
def U_from_weights(W_KQ: Any, W_PV: Any) -> Any:
    r"""Lemma 9's ``U = [[U_11, u_12], [u_21ᵀ, u_{-1}]]`` from the merged weights.

    Source: [zfb24] Lemma 9 / eq. (24): U₁₁ = W^{KQ}_{11}, u₁₂ = w^{PV}_{21}, u₂₁ = w^{KQ}_{21},
    u₋₁ = w^{PV}_{22}: the first d columns of W^{KQ} and, as last column, the transposed last row
    of W^{PV}.

    Examples
    --------
    >>> U_from_weights(np.eye(2), 2 * np.eye(2)).tolist()
    [[1.0, 0.0], [0.0, 2.0]]
    """
    if backend(W_KQ, W_PV) is SP:
        K, R = sp.Matrix(W_KQ), sp.Matrix(W_PV)
        d = K.shape[0] - 1
        return K[:, :d].row_join(R[d, :].T)
    K, R = np.asarray(W_KQ, dtype=float), np.asarray(W_PV, dtype=float)
    d = K.shape[0] - 1
    return np.concatenate([K[:, :d], R[d, :][:, None]], axis=1)


def vec(U: Any, *, order: str = "column") -> Any:
    """``Vec(U)``: column-major (the paper's convention, spec §1.1) or ``order="row"`` (a fault)."""
    check_choice("order", order, ("column", "row"))
    if backend(U) is SP:
        U = sp.Matrix(U)
        return (U.T if order == "column" else U).reshape(U.shape[0] * U.shape[1], 1)
    return np.asarray(U, dtype=float).flatten(order="F" if order == "column" else "C")


def lemma9_H(E: Any, rho: Any) -> Any:
    r"""``H = ½ X ⊗ (E Eᵀ/ρ)`` with ``X = [[0, x_q], [x_qᵀ, 0]]``.

    Source: [zfb24] Lemma 9, eq. (24).

    .. math:: \hat y = u^\top H u,\quad u = \mathrm{Vec}(U),\quad
              H = \tfrac12 X \otimes \frac{EE^\top}{\rho}

    Notes
    -----
    X has eigenvalues ±‖x_q‖ and 0 (multiplicity d−1), so H has exactly d+1 negative eigenvalues
    when E Eᵀ has full rank (the paper: "at least"), i.e. the loss is non-convex.
    """
    xp = backend(E, rho)
    E = xp.mat(E)
    D = E.shape[0]
    d = D - 1
    xq = E[:d, E.shape[1] - 1]
    X = xp.zeros(D, D)
    for i in range(d):
        X[i, d] = xq[i]
        X[d, i] = xq[i]
    Z = (E @ E.T) / rho
    return xp.kron(X, Z) / 2


def prediction_quadratic(U: Any, E: Any, rho: Any, *, order: str = "column") -> Any:
    """``uᵀ H u`` of Lemma 9 (``order="row"`` is the deliberately wrong Vec of T-R1)."""
    u = vec(U, order=order)
    H = lemma9_H(E, rho)
    if backend(U, E, rho) is SP:
        return sp.expand((sp.Matrix(u).T * sp.Matrix(H) * sp.Matrix(u))[0, 0])
    return float(u @ H @ u)


def prediction_eq6(E: Any, W_KQ: Any, W_PV: Any, rho: Any) -> Any:
    r"""The LSA prediction, eq. (6): ``ŷ = (w^{PV}_{21}ᵀ, w^{PV}_{22}) (EEᵀ/ρ) [W^{KQ}_{11}; w^{KQ}_{21}ᵀ] x_q``.

    Source: [zfb24] eq. (6) (ρ = number of columns of E minus 1, spec §6.16).
    """
    xp = backend(E, W_KQ, W_PV, rho)
    E, K, R = xp.mat(E), xp.mat(W_KQ), xp.mat(W_PV)
    D, n1 = E.shape
    d = D - 1
    Z = (E @ E.T) / rho
    if xp is SP:
        return sp.expand((R[d, :] * Z * K[:, :d] * E[:d, n1 - 1])[0, 0])
    return float(R[d, :] @ Z @ K[:, :d] @ E[:d, n1 - 1])


def lsa_output(E: Any, W_KQ: Any, W_PV: Any, rho: Any) -> Any:
    r"""The full LSA output ``f(E) = E + W^{PV} E (Eᵀ W^{KQ} E)/ρ`` (eq. (3)/(5)); ŷ is entry (d+1, N+1).

    Source: [zfb24] eq. (3), (5).
    """
    xp = backend(E, W_KQ, W_PV, rho)
    E, K, R = xp.mat(E), xp.mat(W_KQ), xp.mat(W_PV)
    return E + R @ E @ (E.T @ K @ E) / rho


# ------------------------------------------------------------------ reduced loss, gradients
def _reduced_loss(U: Any, u: Any, Lambda: Any, G: Any, xp: Any) -> Any:
    return xp.tr((u**2 / 2) * (G @ Lambda @ U @ Lambda @ U.T) - u * (Lambda @ Lambda @ U.T))


def reduced_loss(U11: Any, u: Any, Lambda: Any, N: Any, *, Gamma: Any = None) -> Any:
    r"""The reduced loss ``ℓ̃(U₁₁, u₋₁)`` on the invariant set ``u₁₂ = u₂₁ = 0``.

    Source: [zfb24] eq. (28), Lemma 15.

    .. math:: \tilde\ell = \operatorname{tr}\big[\tfrac12 u_{-1}^2\,\Gamma\Lambda U_{11}\Lambda U_{11}^\top
              - u_{-1}\Lambda^2 U_{11}^\top\big], \qquad L = \tilde\ell + \tfrac12\operatorname{tr}\Lambda

    Parameters
    ----------
    U11 : d×d block U₁₁ = W^{KQ}_{11}; u : scalar u₋₁ = w^{PV}_{22}; Lambda : Λ; N : train length

    Examples
    --------
    >>> float(reduced_loss([[0.0]], 1.0, [[1.0]], 3))
    0.0
    """
    xp, L, n = _prep(Lambda, N)
    G = _gamma(L, n, xp) if Gamma is None else xp.mat(Gamma)
    return _reduced_loss(xp.mat(U11), xp.S(u) if xp is SP else float(u), L, G, xp)


def reduced_loss_fn(U11: Any, u: float, Lambda: Any, N: Any, Gamma: Any = None) -> float:
    """numpy twin of :func:`reduced_loss`."""
    L = np.asarray(Lambda, dtype=float)
    G = _gamma(L, N, NP) if Gamma is None else np.asarray(Gamma, dtype=float)
    return float(_reduced_loss(np.asarray(U11, dtype=float), u, L, G, NP))


def _grad(U: Any, u: Any, Lambda: Any, G: Any, xp: Any) -> tuple[Any, Any]:
    A = G @ Lambda @ U @ Lambda
    gU = u**2 * A - u * (Lambda @ Lambda)
    gu = xp.tr(u * (A @ U.T) - Lambda @ Lambda @ U.T)
    return gU, gu


def reduced_loss_grad(U11: Any, u: Any, Lambda: Any, N: Any, *, Gamma: Any = None) -> tuple[Any, Any]:
    r"""Gradients of ``ℓ̃`` (Lemma 15).

    Source: [zfb24] Lemma 15.

    .. math:: \partial_{U_{11}}\tilde\ell = u_{-1}^2\Gamma\Lambda U_{11}\Lambda - u_{-1}\Lambda^2,\qquad
              \partial_{u_{-1}}\tilde\ell = \operatorname{tr}[u_{-1}\Gamma\Lambda U_{11}\Lambda U_{11}^\top
              - \Lambda^2 U_{11}^\top]

    Notes
    -----
    Uses that ΓΛ is symmetric (Γ and Λ commute).
    """
    xp, L, n = _prep(Lambda, N)
    G = _gamma(L, n, xp) if Gamma is None else xp.mat(Gamma)
    return _grad(xp.mat(U11), xp.S(u) if xp is SP else float(u), L, G, xp)


def reduced_loss_grad_fn(U11: Any, u: float, Lambda: Any, N: Any, Gamma: Any = None) -> tuple[np.ndarray, float]:
    """numpy twin of :func:`reduced_loss_grad`."""
    L = np.asarray(Lambda, dtype=float)
    G = _gamma(L, N, NP) if Gamma is None else np.asarray(Gamma, dtype=float)
    gU, gu = _grad(np.asarray(U11, dtype=float), u, L, G, NP)
    return gU, float(gu)


def _loss_of_P(P: Any, Lambda: Any, G: Any, s2: Any, xp: Any) -> Any:
    return (xp.tr(G @ Lambda @ P @ Lambda @ P.T) - 2 * xp.tr(Lambda @ Lambda @ P.T)
            + xp.tr(Lambda) + s2) / 2


def loss_of_P(P: Any, Lambda: Any, N: Any, *, Gamma: Any = None, s2: Any = 0) -> Any:
    r"""Population loss (8) at the effective matrix ``P = u₋₁U₁₁`` (invariant set).

    Source: [zfb24] Lemma 15 / eq. (28) rewritten in P (spec R2); ``s2`` and ``Gamma=gamma_noisy``
    give the [derived] label-noise version.

    .. math:: L(P) = \tfrac12\big[\operatorname{tr}(\Gamma\Lambda P\Lambda P^\top)
              - 2\operatorname{tr}(\Lambda^2P^\top) + \operatorname{tr}\Lambda\big]

    Examples
    --------
    >>> float(loss_of_P([[0.0]], [[2.0]], 5))   # zero predictor: ½ trΛ
    1.0
    """
    xp, L, n = _prep(Lambda, N)
    G = _gamma(L, n, xp) if Gamma is None else xp.mat(Gamma)
    return _loss_of_P(xp.mat(P), L, G, xp.S(s2) if xp is SP else float(s2), xp)


def loss_of_P_fn(P: Any, Lambda: Any, N: Any, Gamma: Any = None, s2: float = 0.0) -> float:
    """numpy twin of :func:`loss_of_P`."""
    L = np.asarray(Lambda, dtype=float)
    G = _gamma(L, N, NP) if Gamma is None else np.asarray(Gamma, dtype=float)
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


def flow_rhs(U11: Any, u: Any, Lambda: Any, N: Any, *, variant: str = "paper",
             Gamma: Any = None) -> tuple[Any, Any]:
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
    ΘΘᵀ that does not commute with Λ: never symmetrise (spec R3).

    Examples
    --------
    >>> dU, du = flow_rhs([[0.5]], 1.0, [[1.0]], 1)   # Γ = 3: dU = -1.5 + 1
    >>> float(dU[0, 0]), float(du)
    (-0.5, -0.25)
    """
    check_choice("variant", variant, FLOW_VARIANTS)
    xp, L, n = _prep(Lambda, N)
    G = _gamma(L, n, xp) if Gamma is None else xp.mat(Gamma)
    return _flow(xp.mat(U11), xp.S(u) if xp is SP else float(u), L, G, xp, variant)


def flow_rhs_fn(U11: np.ndarray, u: float, Lambda: np.ndarray, Gamma: np.ndarray,
                variant: str = "paper") -> tuple[np.ndarray, float]:
    """numpy twin of :func:`flow_rhs` taking Γ precomputed (for ODE integrators)."""
    dU, du = _flow(U11, u, Lambda, Gamma, NP, variant)
    return dU, float(du)


def balancedness(U11: Any, u: Any) -> Any:
    r"""The conserved quantity ``u₋₁² − ‖U₁₁‖_F²`` (zero under Assumption 3).

    Source: [zfb24] Lemma 17, eq. (42).

    Examples
    --------
    >>> float(balancedness([[0.6, 0.0], [0.0, 0.8]], 1.0))
    0.0
    """
    xp = backend(U11, u)
    U = xp.mat(U11)
    return (xp.S(u) if xp is SP else float(u)) ** 2 - xp.fro2(U)


def balanced_flow_rhs(U11: Any, Lambda: Any, N: Any) -> Any:
    r"""The reduced balanced ODE ``U̇₁₁ = −‖U₁₁‖_F² ΓΛU₁₁Λ + ‖U₁₁‖_F Λ²``.

    Source: [zfb24] Lemma 17 with u₋₁ = ‖U₁₁‖_F > 0 (Lemma 18), spec R4.
    """
    xp, L, n = _prep(Lambda, N)
    U = xp.mat(U11)
    return _flow(U, xp.sqrt(xp.fro2(U)), L, _gamma(L, n, xp), xp, "paper")[0]


def excess_identity(U11: Any, u: float, Lambda: Any, N: Any) -> float:
    r"""Right side of Corollary 16's excess identity ``½‖Γ^{1/2}(u₋₁Λ^{1/2}U₁₁Λ^{1/2} − ΛΓ⁻¹)‖_F²``.

    Source: [zfb24] Corollary 16.  numpy only (matrix square roots).

    .. math:: \tilde\ell - \min\tilde\ell = \tfrac12\big\|\Gamma^{1/2}(u_{-1}\Lambda^{1/2}U_{11}
              \Lambda^{1/2} - \Lambda\Gamma^{-1})\big\|_F^2
    """
    L = num_matrix("Lambda", Lambda)
    G = _gamma(L, num_N("N", N), NP)
    w, V = np.linalg.eigh(L)
    Lh = (V * np.sqrt(w)) @ V.T
    wg, Vg = np.linalg.eigh(G)
    Gh = (Vg * np.sqrt(wg)) @ Vg.T
    inner = u * Lh @ np.asarray(U11, dtype=float) @ Lh - L @ np.linalg.inv(G)
    return float(0.5 * np.sum((Gh @ inner) ** 2))


# ------------------------------------------------------------------------------ Theorem 4
def _limit(G: Any, xp: Any) -> tuple[Any, Any]:
    Gi = xp.inv(G)
    nrm = xp.sqrt(xp.sqrt(xp.fro2(Gi)))  # ‖Γ⁻¹‖_F^{1/2}
    return Gi / nrm, nrm


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
    xp, L, n = _prep(Lambda, N)
    G = _gamma(L, n, xp) if Gamma is None else xp.mat(Gamma)
    return _limit(G, xp)


def limit_params_fn(Lambda: Any, N: Any, Gamma: Any = None) -> tuple[np.ndarray, float]:
    """numpy twin of :func:`limit_params`."""
    L = np.asarray(Lambda, dtype=float)
    G = _gamma(L, N, NP) if Gamma is None else np.asarray(Gamma, dtype=float)
    U, u = _limit(G, NP)
    return U, float(u)


def W_KQ_star(Lambda: Any, N: Any) -> Any:
    """Theorem 4, eq. (11): ``W^{KQ}_* = ‖Γ⁻¹‖_F^{-1/2} [[Γ⁻¹, 0], [0, 0]]``.

    Source: [zfb24] Theorem 4, eq. (11) (rebuilt from Lemma 12, spec §6.1).
    """
    xp, L, n = _prep(Lambda, N)
    U, _ = _limit(_gamma(L, n, xp), xp)
    d = xp.dim(L)
    if xp is SP:
        return sp.Matrix(U).row_join(sp.zeros(d, 1)).col_join(sp.zeros(1, d + 1))
    out = np.zeros((d + 1, d + 1))
    out[:d, :d] = U
    return out


def W_PV_star(Lambda: Any, N: Any) -> Any:
    """Theorem 4, eq. (11): ``W^{PV}_* = ‖Γ⁻¹‖_F^{1/2} e_{d+1} e_{d+1}ᵀ``.

    Source: [zfb24] Theorem 4, eq. (11).
    """
    xp, L, n = _prep(Lambda, N)
    _, u = _limit(_gamma(L, n, xp), xp)
    d = xp.dim(L)
    out = xp.zeros(d + 1, d + 1)
    out[d, d] = u
    return out


def initial_state(Theta: Any, sigma_init: float) -> tuple[np.ndarray, float]:
    r"""Assumption 3: ``U₁₁(0) = σΘΘᵀ``, ``u₋₁(0) = σ`` (u₁₂ = u₂₁ = 0), with ``‖ΘΘᵀ‖_F = 1``.

    Source: [zfb24] Assumption 3, eq. (10).  Raises ``ValueError`` if ‖ΘΘᵀ‖_F ≠ 1 or σ ≤ 0.
    """
    T = np.asarray(Theta, dtype=float)
    s = check_real("sigma_init (σ)", sigma_init, lower=0.0, lower_open=True, paper="Assumption 3")
    A = T @ T.T
    nrm = float(np.linalg.norm(A))
    if abs(nrm - 1.0) > 1e-10:
        raise ValueError(f"‖ΘΘᵀ‖_F must be 1 (Assumption 3), got {nrm:.6g}")
    return s * A, s


def init_condition(Lambda: Any, N: Any, sigma_init: Any) -> Any:
    r"""The value ``σ²‖Γ‖_op√d`` that Theorem 4 requires to be ``< 2``.

    Source: [zfb24] Theorem 4 / Lemma 18.

    Examples
    --------
    >>> round(float(init_condition(np.diag([0.5, 1, 1.5, 2]), 16, 0.3)), 8)   # spec T-R6/R7
    0.43875
    """
    xp, L, n = _prep(Lambda, N)
    s = xp.S(sigma_init)
    return s**2 * xp.opnorm_spd(_gamma(L, n, xp)) * xp.sqrt(xp.S(xp.dim(L)))


def initial_loss_bound(Lambda: Any, N: Any, sigma_init: float, Theta: Any) -> float:
    r"""Lemma 18's bound on the initial reduced loss (negative iff σ²‖Γ‖_op√d < 2).

    Source: [zfb24] Lemma 18, eq. (43) (spec R6).

    .. math:: \tilde\ell(0) \le \frac{\sigma^2}{2}\|\Lambda\Theta\|_F^2
              \big[\sqrt d\,\sigma^2\|\Gamma\|_{op} - 2\big]

    Examples
    --------
    >>> initial_loss_bound(np.eye(1), 1, 0.5, np.eye(1)) < 0
    True
    """
    L = num_matrix("Lambda", Lambda)
    G = _gamma(L, num_N("N", N), NP)
    T = np.asarray(Theta, dtype=float)
    s = float(sigma_init)
    c = np.sqrt(L.shape[0]) * s**2 * np.max(np.linalg.eigvalsh(G))
    return float(s**2 / 2 * np.sum((L @ T) ** 2) * (c - 2))


def _umin2(L: np.ndarray, G: np.ndarray, s: float, Theta: np.ndarray) -> float:
    d = L.shape[0]
    c = s**2 * np.max(np.linalg.eigvalsh(G)) * np.sqrt(d)
    LT2 = float(np.sum((L @ Theta) ** 2))
    return s**2 * LT2 * (2 - c) / (2 * np.sqrt(d) * np.max(np.linalg.eigvalsh(L)) ** 2)


def u_min(Lambda: Any, N: Any, sigma_init: float, Theta: Any) -> float:
    r"""Lemma 19's lower bound on ``u₋₁(t)``.

    Source: [zfb24] Lemma 19, eq. (44) (reconstructed from the proof, spec §6.21).

    .. math:: u_{\min} = \sqrt{\frac{\sigma^2\|\Lambda\Theta\|_F^2\,[2 - \sqrt d\sigma^2\|\Gamma\|_{op}]}
              {2\sqrt d\,\|\Lambda\|_{op}^2}}

    Examples
    --------
    >>> round(u_min(np.diag([0.5, 1, 1.5, 2]), 16, 0.3, np.eye(4) / np.sqrt(2)), 6)   # spec ref
    0.181473
    """
    L = num_matrix("Lambda", Lambda)
    G = _gamma(L, num_N("N", N), NP)
    v = _umin2(L, G, float(sigma_init), np.asarray(Theta, dtype=float))
    if v <= 0:
        raise ValueError("u_min needs σ²‖Γ‖_op√d < 2 (Theorem 4)")
    return float(np.sqrt(v))


def pl_constant(Lambda: Any, N: Any, sigma_init: float, Theta: Any) -> float:
    r"""The PL constant ``μ`` of Lemma 12 / 20.

    Source: [zfb24] Lemma 12 / 20, eq. (30) (spec §6.8).

    .. math:: \mu = \frac{\sigma^2\|\Lambda\Theta\|_F^2[2-\sqrt d\sigma^2\|\Gamma\|_{op}]}
              {\sqrt d\|\Lambda\|_{op}^2\operatorname{tr}(\Gamma^{-1}\Lambda^{-1})\operatorname{tr}(\Lambda^{-1})}
              = \frac{2u_{\min}^2}{\operatorname{tr}(\Gamma^{-1}\Lambda^{-1})\operatorname{tr}(\Lambda^{-1})}

    Examples
    --------
    >>> round(pl_constant(np.diag([0.5, 1, 1.5, 2]), 16, 0.3, np.eye(4) / np.sqrt(2)) * 1e3, 4)
    4.3279
    """
    L = num_matrix("Lambda", Lambda)
    G = _gamma(L, num_N("N", N), NP)
    um2 = _umin2(L, G, float(sigma_init), np.asarray(Theta, dtype=float))
    Li = np.linalg.inv(L)
    return float(2 * um2 / (np.trace(np.linalg.inv(G) @ Li) * np.trace(Li)))


# ----------------------------------------------------------------- [derived] reductions
_t, _d, _N, _s, _lam = sp.symbols("t d N sigma lambda", positive=True)


def _isotropic_q_expr() -> sp.Expr:
    g = _lam * (_N + 1 + _d) / _N
    qstar = 1 / (sp.sqrt(_d) * g)
    q0 = _s**2 / _d
    return qstar / (1 + (qstar / q0 - 1) * sp.exp(-2 * sp.sqrt(_d) * _lam**2 * _t))


def isotropic_q(t: Any, d: Any, N: Any, sigma_init: Any, lam: Any = 1) -> Any:
    r"""[derived] Isotropic closed form: ``U₁₁(t) = s(t)I``, ``q = s²`` is logistic.

    Source: [derived] spec R4 (from Lemma 10 with Λ = λI, ΘΘᵀ = I/√d).

    .. math:: q(t) = \frac{q^*}{1 + (q^*/q_0 - 1)e^{-2\sqrt d\lambda^2 t}},\quad
              q^* = \frac{1}{\sqrt d\,g},\ g = \frac{\lambda(N+1+d)}{N},\ q_0 = \frac{\sigma^2}{d}

    and u₋₁ = √(d q), P = √d q I → Γ⁻¹.

    Examples
    --------
    >>> round(float(isotropic_q(1.0, 5, 20, 0.2)), 7)     # spec T-R3/R4 reference
    0.2324746
    """
    args = (t, d, N, sigma_init, lam)
    expr = _isotropic_q_expr()
    if any(isinstance(a, sp.Basic) for a in args):
        return expr.subs({_t: t, _d: d, _N: N, _s: sigma_init, _lam: lam})
    return isotropic_q_fn(*args)


def isotropic_q_fn(t: Any, d: Any, N: Any, sigma_init: Any, lam: Any = 1.0) -> Any:
    """numpy twin of :func:`isotropic_q` (lambdified)."""
    return lambdified((_t, _d, _N, _s, _lam), _isotropic_q_expr())(t, d, N, sigma_init, lam)


def offdiag_decay(u0_ij: float, g_i: float, lam_i: float, lam_j: float, int_u2: float) -> float:
    r"""[derived] Diagonal reduction: ``u_ij(t) = u_ij(0) exp(−g_i λ_i λ_j ∫₀ᵗ u₋₁²)`` (i ≠ j).

    Source: [derived] spec R4 (Lemma 10 in the eigenbasis of Λ; g_i eigenvalues of Γ).
    """
    return float(u0_ij * np.exp(-g_i * lam_i * lam_j * int_u2))
