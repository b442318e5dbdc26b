"""[zfb24] §4.1–§4.2 Test-time risk: Theorem 5, the noiseless risk and Corollary 6, shifts,
footnote 2.

The trained LSA predicts ``ŷ = x_qᵀ P (1/M) Σ yᵢxᵢ`` with ``P = Γ⁻¹`` (eq. 12) on a test prompt of
length M (ρ = M).  Numbers in -> float64, SymPy in -> expressions (:mod:`theory.common.backend`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import sympy as sp

from theory.common.backend import NP, SP, ops_for
from theory.zfb24.domains import checked
from theory.zfb24.sec3_training import as_Lambda, as_N, gamma_xp, prepare

__all__ = [
    "theorem5_excess",
    "theorem5_risk",
    "quadratic_task_moments",
    "noiseless_Sigma",
    "noiseless_risk",
    "prior_risk",
    "prior_risk_fn",
    "prior_risk_floor",
    "prior_risk_isotropic",
    "tight_bound",
    "cor6_eta",
    "cor6_bound",
    "cor6_M_threshold",
    "shift_risk",
    "shift_risk_fn",
    "covariate_scaling_risk",
    "covariate_scaling_limit",
    "query_shift_floor",
    "plain_gd_risk_limit",
]


def _M(M: Any, xp: Any) -> Any:
    if xp is SP:
        return sp.sympify(M)
    if M == math.inf:
        return math.inf
    return as_N(M)


def _inv_M(M: Any) -> Any:
    return 0 if M == math.inf else (sp.S(1) / M if isinstance(M, sp.Basic) else 1.0 / M)


# ------------------------------------------------------------------------------ Theorem 5
def _thm5_excess(L: Any, G: Any, n: Any, M: Any, Sigma: Any, a: Any, xp: Any) -> Any:
    Gi2 = xp.inv(G) @ xp.inv(G)
    T = xp.tr(L)
    var = xp.tr(Sigma @ Gi2 @ L) * _inv_M(M)
    bias = (
        xp.quad(a, Gi2 @ L @ L @ L) + 2 * T * xp.quad(a, Gi2 @ L @ L) + T**2 * xp.quad(a, Gi2 @ L)
    ) / n**2
    return var + bias


@checked
def theorem5_excess(Lambda: Any, N: Any, M: Any, Sigma: Any, a: Any, *, Gamma: Any = None) -> Any:
    r"""Theorem 5: excess risk over the best linear predictor on a new (possibly nonlinear) task.

    Source: [zfb24] Theorem 5, eqs. (15), (16) (weights rebuilt from Appendix B).

    .. math:: \frac1M\operatorname{tr}(\Sigma\Gamma^{-2}\Lambda) +
              \frac{1}{N^2}\Big[\|a\|^2_{\Gamma^{-2}\Lambda^3}
              + 2\operatorname{tr}\Lambda\,\|a\|^2_{\Gamma^{-2}\Lambda^2}
              + (\operatorname{tr}\Lambda)^2\|a\|^2_{\Gamma^{-2}\Lambda}\Big]

    Parameters
    ----------
    Lambda : Λ, the training and test covariate covariance; N : train length; M : test length
        (``math.inf`` allowed); Sigma : Σ = Cov_D(x y) (d×d PSD) — *not* a covariate covariance;
    a : a = Λ⁻¹E_D[xy], the best linear predictor

    Returns
    -------
    float (SymPy expression for SymPy input).

    Notes
    -----
    Needs x-marginal N(0, Λ), finite E y, E xy, E y²xxᵀ, iid test pairs; ρ = M.

    Examples
    --------
    A noiseless linear task y = ⟨w, x⟩ has a = w, Σ = :func:`noiseless_Sigma` and no best-linear
    error, so the excess is the fixed-task risk :func:`noiseless_risk`:

    >>> L, w = np.diag([0.5, 2.0]), [1.0, -0.5]
    >>> ex = theorem5_excess(L, 8, 5, noiseless_Sigma(w, L), w)
    >>> bool(np.isclose(ex, noiseless_risk(w, L, 8, 5)))
    True
    """
    xp, L, n = prepare(Lambda, N)
    G = gamma_xp(L, n, xp) if Gamma is None else xp.mat(Gamma)
    Sig = xp.mat(Sigma) if xp is SP else as_Lambda(Sigma, spd=False)
    av = xp.col(a) if xp is SP else np.asarray(a, dtype=float).reshape(-1)
    return _thm5_excess(L, G, n, _M(M, xp), Sig, av, xp)


@checked
def theorem5_risk(
    Lambda: Any, N: Any, M: Any, Sigma: Any, a: Any, best_linear_error: Any, *, Gamma: Any = None
) -> Any:
    r"""Theorem 5: ``E(ŷ_q − y_q)² = min_w E(⟨w,x⟩ − y)² + excess`` (:func:`theorem5_excess`).

    Source: [zfb24] Theorem 5, eq. (15).

    Examples
    --------
    >>> float(theorem5_risk([[1.0]], 1, math.inf, [[0.0]], [0.0], 0.5))
    0.5
    """
    return best_linear_error + theorem5_excess(Lambda, N, M, Sigma, a, Gamma=Gamma)


@checked
def quadratic_task_moments(
    Lambda: Any, w0: Any, s2: float, coef: float = 0.5
) -> tuple[np.ndarray, np.ndarray, float]:
    r"""[derived] Theorem 5 inputs for the nonlinear task ``y = ⟨w₀,x⟩ + coef(x₁² − Λ₁₁) + sε``.

    Source: [derived] (Isserlis / Lemma 30), used to test [zfb24] Theorem 5.

    .. math:: a = w_0,\quad \Sigma = \Lambda w_0w_0^\top\Lambda + (w_0^\top\Lambda w_0)\Lambda
              + 2c^2\Lambda_{11}^2\Lambda + 8c^2\Lambda_{11}\ell\ell^\top + s^2\Lambda,\quad
              \text{best linear error} = 2c^2\Lambda_{11}^2 + s^2

    with ℓ = Λe₁ and c = ``coef`` (c = ½ gives the form ½Λ₁₁²Λ + 2Λ₁₁ℓℓᵀ and ½Λ₁₁² + s²).

    Examples
    --------
    >>> S, a, best = quadratic_task_moments(np.eye(1), [0.0], 0.0)
    >>> float(S[0, 0]), best       # Var(½(x² − 1)·x) = ¼(E x⁶ − 2E x⁴ + E x²) = 5/2
    (2.5, 0.5)
    """
    L = as_Lambda(Lambda)
    w0 = np.asarray(w0, dtype=float).reshape(-1)
    s2 = float(s2)
    l = L[:, 0]
    Lw = L @ w0
    Sig = (
        np.outer(Lw, Lw)
        + (w0 @ Lw) * L
        + 2 * coef**2 * L[0, 0] ** 2 * L
        + 8 * coef**2 * L[0, 0] * np.outer(l, l)
        + s2 * L
    )
    return Sig, w0.copy(), float(2 * coef**2 * L[0, 0] ** 2 + s2)


@checked
def noiseless_Sigma(w: Any, Lambda: Any) -> Any:
    r"""``Σ = Cov(xy) = ‖w‖²_Λ Λ + Λwwᵀ Λ`` for ``y = ⟨w,x⟩``, ``x ~ N(0,Λ)``.

    Source: [zfb24] §4.1 after Theorem 5 (from Lemma 30).

    Parameters
    ----------
    w : (d,) task vector; Lambda : (d, d) Λ

    Returns
    -------
    (d, d) float64 array, or a SymPy matrix.

    Examples
    --------
    d = 1: Var(x·y) = w²(E x⁴ − (E x²)²) = 2w²λ²; w = 1, λ = 2 gives 8.

    >>> noiseless_Sigma([1.0], [[2.0]]).tolist()
    [[8.0]]
    """
    xp = ops_for(w, Lambda)
    L = xp.mat(Lambda)
    wv = xp.col(w)
    Lw = L @ wv
    return xp.quad(wv, L) * L + Lw @ Lw.T


@checked
def noiseless_risk(w: Any, Lambda: Any, N: Any, M: Any) -> Any:
    r"""Prediction error for a fixed task ``w`` (noiseless), eq. after Theorem 5.

    Source: [zfb24] §4.1, the display before Corollary 6.

    .. math:: \frac1M\big[\|w\|^2_{\Gamma^{-2}\Lambda^3} +
              \operatorname{tr}(\Gamma^{-2}\Lambda^2)\|w\|^2_\Lambda\big]
              + \frac1{N^2}\big[\|w\|^2_{\Gamma^{-2}\Lambda^3} +
              2\operatorname{tr}\Lambda\|w\|^2_{\Gamma^{-2}\Lambda^2}
              + (\operatorname{tr}\Lambda)^2\|w\|^2_{\Gamma^{-2}\Lambda}\big]

    Parameters
    ----------
    w : (d,) task vector; Lambda : (d, d) Λ; N : train length; M : test length (``math.inf`` ok)

    Examples
    --------
    Λ = 1, N = 1 (Γ = 3), w = 1, M = ∞: (1 + 2 + 1)/9 = 4/9.

    >>> import sympy as sp
    >>> noiseless_risk(sp.Matrix([1]), sp.Matrix([[1]]), 1, sp.oo)
    4/9
    """
    xp, L, n = prepare(Lambda, N)
    G = gamma_xp(L, n, xp)
    Gi2 = xp.inv(G) @ xp.inv(G)
    wv = xp.col(w) if xp is SP else np.asarray(w, dtype=float).reshape(-1)
    T = xp.tr(L)
    a3, a2, a1 = xp.quad(wv, Gi2 @ L @ L @ L), xp.quad(wv, Gi2 @ L @ L), xp.quad(wv, Gi2 @ L)
    return (a3 + xp.tr(Gi2 @ L @ L) * xp.quad(wv, L)) * _inv_M(_M(M, xp)) + (
        a3 + 2 * T * a2 + T**2 * a1
    ) / n**2


def _prior_risk(L: Any, G: Any, n: Any, M: Any, xp: Any) -> Any:
    Gi2 = xp.inv(G) @ xp.inv(G)
    T = xp.tr(L)
    K = L + T * xp.eye(xp.dim(L))
    return (xp.tr(Gi2 @ L @ L @ L) + xp.tr(Gi2 @ L @ L) * T) * _inv_M(M) + xp.tr(
        Gi2 @ L @ K @ K
    ) / n**2


@checked
def prior_risk(Lambda: Any, N: Any, M: Any, *, Gamma: Any = None) -> Any:
    r"""[derived] Prior-averaged risk ``R(M, N)`` for ``w ~ N(0, I_d)``, noiseless.

    Source: [derived] from [zfb24] Theorem 5 / eq. (16) averaged over w.

    .. math:: R(M,N) = \frac1M\big[\operatorname{tr}(\Gamma^{-2}\Lambda^3) +
              \operatorname{tr}(\Gamma^{-2}\Lambda^2)
              \operatorname{tr}\Lambda\big] +
              \frac1{N^2}\operatorname{tr}\big(\Gamma^{-2}\Lambda(\Lambda
              + \operatorname{tr}\Lambda I)^2\big)

    Notes
    -----
    R(N, N) = 2L*.  ``M = math.inf`` gives the finite-training floor.

    Examples
    --------
    Isotropic Λ = I₅, N = 20, M = 5: d(d+1)[N²/M + d + 1]/(N+d+1)² = 30·86/26²
    (:func:`prior_risk_isotropic`):

    >>> round(float(prior_risk(np.eye(5), 20, 5)), 6)
    3.816568
    """
    xp, L, n = prepare(Lambda, N)
    G = gamma_xp(L, n, xp) if Gamma is None else xp.mat(Gamma)
    return _prior_risk(L, G, n, _M(M, xp), xp)


@checked
def prior_risk_fn(Lambda: Any, N: Any, M: Any, Gamma: Any = None) -> float:
    """numpy twin of :func:`prior_risk`.

    Examples
    --------
    At M = N the prior risk is twice the optimal loss, R(N, N) = 2L*:

    >>> from theory.zfb24 import optimal_loss
    >>> L = np.diag([0.5, 1.0, 1.5, 2.0])
    >>> bool(np.isclose(prior_risk_fn(L, 16, 16), 2 * optimal_loss(L, 16)))
    True
    """
    L = np.asarray(Lambda, dtype=float)
    G = gamma_xp(L, N, NP) if Gamma is None else np.asarray(Gamma, dtype=float)
    return float(_prior_risk(L, G, N, M, NP))


@checked
def prior_risk_floor(Lambda: Any, N: Any) -> Any:
    """``R(∞, N) = tr(Γ⁻²Λ(Λ + trΛ I)²)/N²`` (slope −2 in N).

    Source: [derived] from [zfb24] Theorem 5 (``M → ∞`` of :func:`prior_risk`).

    Examples
    --------
    Λ = 1, N = 2: d(d+1)²/(N+d+1)² = 4/16.

    >>> float(prior_risk_floor([[1.0]], 2))
    0.25
    """
    return prior_risk(Lambda, N, sp.oo if ops_for(Lambda, N) is SP else math.inf)


@checked
def prior_risk_isotropic(d: Any, N: Any, M: Any) -> Any:
    r"""[derived] Isotropic ``R(M, N) = d(d+1)[N²/M + d + 1]/(N+d+1)²``.

    Examples
    --------
    >>> round(float(prior_risk_isotropic(5, 20, 5)), 6)  # 30·(80 + 6)/26²
    3.816568
    """
    d, N, M = (sp.sympify(v) for v in (d, N, M))
    expr = d * (d + 1) * (N**2 / M + d + 1) / (N + d + 1) ** 2
    return expr if expr.free_symbols else float(expr)


@checked
def tight_bound(Lambda: Any, N: Any, M: Any) -> float:
    r"""The w-averaged upper bound ``(d+1)trΛ/M + [trΛ + 2d trΛ + tr(Λ⁻¹)(trΛ)²]/N²``.

    Source: [zfb24] §4.1 (display before Corollary 6, averaged over w ~ N(0, I)).

    Examples
    --------
    Λ = 1, N = M = 1: 2 + (1 + 2 + 1) = 6, above the exact prior risk 2/3:

    >>> tight_bound([[1.0]], 1, 1), round(float(prior_risk([[1.0]], 1, 1)), 6)
    (6.0, 0.666667)
    """
    L = as_Lambda(Lambda)
    n, d, T = as_N(N), L.shape[0], np.trace(L)
    return float((d + 1) * T / M + (T + 2 * d * T + np.trace(np.linalg.inv(L)) * T**2) / n**2)


@checked
def cor6_eta(Lambda: Any, N: Any) -> float:
    r"""Corollary 6's error floor ``η = (1 + 2d + d²κ) trΛ / N²`` (κ = cond Λ).

    Source: [zfb24] Corollary 6.

    Examples
    --------
    >>> round(cor6_eta(np.diag([0.5, 1, 1.5, 2]), 16), 5)  # (1 + 8 + 16·4)·5/256
    1.42578
    """
    L = as_Lambda(Lambda)
    n, d = as_N(N), L.shape[0]
    ev = np.linalg.eigvalsh(L)
    return float((1 + 2 * d + d**2 * ev[-1] / ev[0]) * np.trace(L) / n**2)


@checked
def cor6_bound(Lambda: Any, N: Any, M: Any) -> float:
    """Corollary 6 / κ bound ``(d+1)trΛ/M + η``.  Source: [zfb24] Corollary 6.

    Examples
    --------
    At Λ = I (κ = 1) it equals :func:`tight_bound`; at κ > 1 it is larger:

    >>> cor6_bound(np.eye(2), 4, 6), tight_bound(np.eye(2), 4, 6)
    (2.125, 2.125)
    >>> L = np.diag([0.5, 2.0])
    >>> cor6_bound(L, 4, 6) > tight_bound(L, 4, 6)
    True
    """
    L = as_Lambda(Lambda)
    return float((L.shape[0] + 1) * np.trace(L) / M + cor6_eta(L, N))


@checked
def cor6_M_threshold(Lambda: Any, eps: float) -> int:
    """Corollary 6: test length ``M ≥ ⌈(d+1)trΛ/ε⌉`` gives error ``≤ η + ε``.

    Examples
    --------
    Λ = I₂, ε = 0.5: ⌈3·2/0.5⌉ = 12, and the bound at M = 12 is η + ε:

    >>> cor6_M_threshold(np.eye(2), 0.5)
    12
    >>> cor6_bound(np.eye(2), 4, 12) - cor6_eta(np.eye(2), 4)
    0.5
    """
    L = as_Lambda(Lambda)
    eps = float(eps)
    return int(math.ceil((L.shape[0] + 1) * np.trace(L) / eps))


# ----------------------------------------------------------------------------- §4.2 shifts
def _shift_risk(P: Any, Lp: Any, Sq: Any, M: Any, Om: Any, xp: Any) -> Any:
    d = xp.dim(Lp)
    I = xp.eye(d)
    A = P @ Sq @ P.T
    B = Lp @ P - I
    bias = xp.tr(Om @ B @ Sq @ B.T)
    var = xp.tr(Om @ Lp @ A @ Lp) + xp.tr(A @ Lp) * xp.tr(Om @ Lp)
    return bias + var * _inv_M(M)


@checked
def shift_risk(P: Any, Lambda_test: Any, S_q: Any, M: Any, Omega: Any = None) -> Any:
    r"""[derived] Exact risk of the read-out ``ŷ = ĝᵀP x_q``, ``ĝ = (1/M)Σyᵢxᵢ``, under shifts.

    The general exact risk [derived] (docs/papers/zfb24.md).

    Source: [derived], for [zfb24] §4.2 (eqs. (17), (18)).

    .. math:: R = \operatorname{tr}[\Omega(\Lambda'P - I)S_q(P^\top\Lambda' - I)] + \frac1M\big[
              \operatorname{tr}(\Omega\Lambda'A\Lambda') +
              \operatorname{tr}(A\Lambda')\operatorname{tr}(\Omega\Lambda')\big],
              \quad A = PS_qP^\top

    Parameters
    ----------
    P : effective matrix (trained: Γ⁻¹; the LSA's u₋₁U₁₁: ŷ = x_qᵀPᵀĝ, which is eq. (12)'s
        x_qᵀPĝ only for symmetric P); Lambda_test : covariance Λ' of the prompt covariates
        (zero-mean Gaussian); S_q : second moment E[x_q x_qᵀ] of the query (any law, independent of
        the prompt); M : test length; Omega : task covariance, w ~ N(0, Ω) (default I), noiseless.

    Notes
    -----
    Λ' = S_q = Λ, P = Γ⁻¹ gives :func:`prior_risk`; M = N gives 2L(P).

    Examples
    --------
    No shift (Λ' = S_q = Λ) and P = Γ⁻¹ recover :func:`prior_risk`:

    >>> from theory.zfb24 import gamma
    >>> L = np.diag([0.5, 2.0])
    >>> r = shift_risk(np.linalg.inv(gamma(L, 8)), L, L, 5)
    >>> bool(np.isclose(r, prior_risk(L, 8, 5)))
    True
    """
    xp = ops_for(P, Lambda_test, S_q, M, Omega)
    if xp is NP:  # numbers in: float64 throughout, whatever the float width given (R3)
        return shift_risk_fn(P, Lambda_test, S_q, M, Omega)
    Lp = xp.mat(Lambda_test)
    Om = xp.eye(xp.dim(Lp)) if Omega is None else xp.mat(Omega)
    return _shift_risk(xp.mat(P), Lp, xp.mat(S_q), _M(M, xp), Om, xp)


@checked
def shift_risk_fn(P: Any, Lambda_test: Any, S_q: Any, M: Any, Omega: Any = None) -> float:
    """numpy twin of :func:`shift_risk`.

    Examples
    --------
    The zero predictor P = 0 has risk tr(Ω S_q) (here Ω = I, S_q = diag(1, 3)):

    >>> shift_risk_fn(np.zeros((2, 2)), np.eye(2), np.diag([1.0, 3.0]), 5)
    4.0
    """
    Lp = np.asarray(Lambda_test, dtype=float)
    Om = np.eye(Lp.shape[0]) if Omega is None else np.asarray(Omega, dtype=float)
    return float(_shift_risk(np.asarray(P, float), Lp, np.asarray(S_q, float), M, Om, NP))


@checked
def covariate_scaling_risk(Lambda: Any, N: Any, M: Any, c: Any) -> Any:
    """[derived] Risk under covariate scaling ``x ↦ c x``: ``R(Γ⁻¹; c²Λ, c²Λ, M)``.

    Source: [derived], for [zfb24] §4.2 (covariate scaling).

    Examples
    --------
    No scaling (c = 1) is :func:`prior_risk`:

    >>> L = np.diag([0.5, 2.0])
    >>> bool(np.isclose(covariate_scaling_risk(L, 8, 5, 1.0), prior_risk(L, 8, 5)))
    True
    """
    xp, L, n = prepare(Lambda, N)
    c = xp.S(c) if xp is SP else float(c)
    Gi = xp.inv(gamma_xp(L, n, xp))
    return _shift_risk(Gi, c**2 * L, c**2 * L, _M(M, xp), xp.eye(xp.dim(L)), xp)


@checked
def covariate_scaling_limit(c: Any, Lambda: Any) -> Any:
    r"""[derived] ``M, N → ∞`` limit of the covariate-scaling risk: ``(c² − 1)² c² trΛ``.

    Source: [derived] ([zfb24] §4.2: ŷ → c² x_qᵀw).

    Examples
    --------
    >>> float(covariate_scaling_limit(2.0, np.eye(3)))
    108.0
    """
    xp = ops_for(c, Lambda)
    return (c**2 - 1) ** 2 * c**2 * xp.tr(xp.mat(Lambda))


@checked
def query_shift_floor(Lambda: Any, N: Any, S_q: Any) -> Any:
    """[derived] ``M → ∞`` query-shift risk ``tr[(Λ+trΛI)Γ⁻¹S_qΓ⁻¹(Λ+trΛI)]/N²``.

    Source: [derived], for [zfb24] §4.2 (query shift), ``M → ∞`` of :func:`shift_risk`.

    Examples
    --------
    An unshifted query (S_q = Λ) gives :func:`prior_risk_floor`:

    >>> L = np.diag([0.5, 2.0])
    >>> bool(np.isclose(query_shift_floor(L, 8, L), prior_risk_floor(L, 8)))
    True
    """
    xp, L, n = prepare(Lambda, N)
    Gi = xp.inv(gamma_xp(L, n, xp))
    K = L + xp.tr(L) * xp.eye(xp.dim(L))
    return xp.tr(K @ Gi @ xp.mat(S_q) @ Gi @ K) / n**2


@checked
def plain_gd_risk_limit(Lambda: Any) -> Any:
    r"""Footnote 2: one GD step from 0 without preconditioning, ``n → ∞``: ``tr(Λ(Λ − I)²)``.

    Source: [zfb24] footnote 2, averaged over w ~ N(0, I).

    Examples
    --------
    >>> float(plain_gd_risk_limit(np.diag([1.0, 2.0])))
    2.0
    """
    xp = ops_for(Lambda)
    L = xp.mat(Lambda)
    B = L - xp.eye(xp.dim(L))
    return xp.tr(L @ B @ B)
