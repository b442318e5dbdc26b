"""[zfb24] §4.3 Random covariance: Lemma 21 / Corollary 22 ODE, Lemmas 23–28, Theorem 8, risks.

Per prompt ``Λ_τ = diag(λ_{τ,1..d})`` with independent coordinates of moments ``m1_i = Eλ_i``,
``m2_i = Eλ_i²``, ``m3_i = Eλ_i³`` (Definition 7).  The flow is eq. (52) on ``(U₁₁, u₋₁)``; its
coefficients are collected in the matrix ``Zc`` with ``Zc_ii = γ_i`` and ``Zc_ij = ζ_ij``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.common.backend import dual
from theory.zfb24.domains import checked

__all__ = [
    "rdm_moments",
    "rdm_coefficients",
    "rdm_loss",
    "rdm_flow_rhs",
    "rdm_D",
    "rdm_limit",
    "rdm_min_loss",
    "rdm_optimal_loss",
    "rdm_init_bound",
    "rdm_u_min",
    "rdm_pl_constant",
    "moments_iid",
    "delta_iid",
    "delta_exp",
    "exp_moments",
    "gamma_law_moments",
    "rdm_test_risk",
    "rdm_test_risk_fn",
    "fixed_test_risk",
    "lsa_limit_random",
]


@checked
def rdm_moments(m1: Any, m2: Any, m3: Any, N: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Corollary 22 moments ``γ_i, ξ_i, ζ_ij`` for independent diagonal entries.

    Source: [zfb24] Corollary 22, eq. (51) (arXiv (C.3); re-derived).

    .. math:: \gamma_i = E\big[\tfrac{N+1}N\lambda_i^3 +
              \tfrac1N\lambda_i^2\textstyle\sum_j\lambda_j\big],\
              \xi_i = E\lambda_i^2,\ \zeta_{ij} = E\big[\tfrac{N+1}N\lambda_i^2\lambda_j
              + \tfrac1N\lambda_i\lambda_j\textstyle\sum_k\lambda_k\big]\ (i\ne j)

    Parameters
    ----------
    m1, m2, m3 : (d,) per-coordinate moments E λ_i, E λ_i², E λ_i³; N : train length

    Returns
    -------
    gamma (d,), xi (d,), zeta (d, d) (diagonal unused; ζ is not symmetric in general)

    Examples
    --------
    >>> g, x, z = rdm_moments([1, 1, 1], [2, 2, 2], [6, 6, 6], 8)   # Exp(1)
    >>> float(g[0]), float(x[0]), float(z[0, 1])
    (8.0, 2.0, 2.875)
    """
    m1, m2, m3 = (np.asarray(v, dtype=float) for v in (m1, m2, m3))
    N = int(N)
    if not (m1.shape == m2.shape == m3.shape and m1.ndim == 1):
        raise ValueError(f"m1, m2, m3 must be (d,) vectors, got {m1.shape}, {m2.shape}, {m3.shape}")
    if np.any(m1 <= 0) or np.any(m2 < m1**2) or np.any(m3 <= 0):
        raise ValueError(
            "moments must come from a.s. positive laws: m1 > 0, m2 ≥ m1², m3 > 0 (Def. 7)"
        )
    S1 = m1.sum()
    gamma = (N + 1) / N * m3 + (m3 + m2 * (S1 - m1)) / N
    rest = S1 - m1[:, None] - m1[None, :]  # Σ_{k≠i,j} m1_k
    zeta = (N + 1) / N * np.outer(m2, m1) + (
        np.outer(m2, m1) + np.outer(m1, m2) + np.outer(m1, m1) * rest
    ) / N
    return gamma, m2.copy(), zeta


@checked
def rdm_coefficients(m1: Any, m2: Any, m3: Any, N: int) -> tuple[np.ndarray, np.ndarray]:
    """``(Zc, xi)``: ``Zc`` = ζ with γ on the diagonal, the coefficient of eq. (52):
    ``E[Γ_τΛ_τUΛ_τ] = Zc ∘ U``.

    Source: [zfb24] Corollary 22, eq. (52).

    Returns
    -------
    Zc (d, d), xi (d,)

    Examples
    --------
    Exp(1) entries (m = 1, 2, 6), d = 3, N = 8: γ = 6 + (12 + 4)/8 = 8, ζ = 2 + (6 + 1)/8 = 2.875
    (the iid forms of :func:`moments_iid`):

    >>> Zc, xi = rdm_coefficients([1] * 3, [2] * 3, [6] * 3, 8)
    >>> float(Zc[0, 0]), float(Zc[0, 1]), xi.tolist()
    (8.0, 2.875, [2.0, 2.0, 2.0])
    """
    g, xi, z = rdm_moments(m1, m2, m3, N)
    Zc = z.copy()
    np.fill_diagonal(Zc, g)
    return Zc, xi


@checked
def rdm_loss(U11: Any, u: float, Zc: Any, xi: Any) -> float:
    r"""Lemma 23: ``ℓ_rdm = ½Σγ_iu²u_ii² + ½Σ_{i≠j}ζ_iju²u_ij² − Σξ_iu_iiu``.

    It is the population loss minus ½ΣEλ_i.

    Source: [zfb24] Lemma 23, eq. (53).

    Parameters
    ----------
    U11 : (d, d); u : u₋₁; Zc : (d, d) from :func:`rdm_coefficients`; xi : (d,)

    Examples
    --------
    At the limit of Lemma 28 the loss is Lemma 24's minimum:

    >>> m = ([1.0] * 3, [2.0] * 3, [6.0] * 3, 8)
    >>> U, u = rdm_limit(*m)
    >>> Zc, xi = rdm_coefficients(*m)
    >>> bool(np.isclose(rdm_loss(U, u, Zc, xi), rdm_min_loss(*m)))
    True
    """
    U = np.asarray(U11, dtype=float)
    return float(
        0.5 * u**2 * np.sum(np.asarray(Zc) * U**2) - u * np.sum(np.asarray(xi) * np.diag(U))
    )


@checked
def rdm_flow_rhs(
    U11: np.ndarray, u: float, Zc: np.ndarray, xi: np.ndarray
) -> tuple[np.ndarray, float]:
    r"""Corollary 22, eq. (52): the random-covariance flow.

    Source: [zfb24] Corollary 22, eq. (52) (Lemma 21 for diagonal Λ_τ).

    .. math:: \dot u_{ii} = -\gamma_iu_{-1}^2u_{ii} + \xi_iu_{-1},\quad \dot u_{ij} =
              -\zeta_{ij}u_{-1}^2u_{ij},\quad
              \dot u_{-1} = -\textstyle\sum_i\gamma_iu_{-1}u_{ii}^2 - \sum_{i\ne
              j}\zeta_{ij}u_{-1}u_{ij}^2
              + \sum_i\xi_iu_{ii}

    Parameters
    ----------
    U11 : (d, d); u : u₋₁; Zc : (d, d) from :func:`rdm_coefficients`; xi : (d,)

    Returns
    -------
    (dU (d, d), du float)

    Examples
    --------
    The limit of Lemma 28 is a rest point:

    >>> m = ([1.0, 2.0], [2.0, 8.0], [6.0, 48.0], 8)
    >>> U, u = rdm_limit(*m)
    >>> dU, du = rdm_flow_rhs(U, u, *rdm_coefficients(*m))
    >>> bool(np.allclose(dU, 0)), bool(abs(du) < 1e-12)
    (True, True)
    """
    dU = -(u**2) * Zc * U11 + u * np.diag(xi)
    du = -u * float(np.sum(Zc * U11**2)) + float(np.sum(xi * np.diag(U11)))
    return dU, du


@checked
def rdm_D(m1: Any, m2: Any, m3: Any, N: int) -> np.ndarray:
    r"""Theorem 8: ``D = (E[Γ_τΛ_τ²])⁻¹E[Λ_τ²] = diag(ξ_i/γ_i)``, the limit of ``P = u₋₁U₁₁``.

    Source: [zfb24] Theorem 8, eq. (22); Lemma 24.

    Returns
    -------
    (d, d) diagonal float64 array.

    Examples
    --------
    Exp(1) entries, d = 3, N = 8: ξ/γ = 2/8, the same as :func:`delta_exp` N/(3N + d + 5) = 8/32:

    >>> np.diag(rdm_D([1] * 3, [2] * 3, [6] * 3, 8)).tolist(), delta_exp(8, 3)
    ([0.25, 0.25, 0.25], 1/4)
    """
    g, xi, _ = rdm_moments(m1, m2, m3, N)
    return np.diag(xi / g)


@checked
def rdm_limit(m1: Any, m2: Any, m3: Any, N: int) -> tuple[np.ndarray, float]:
    r"""Lemma 28: ``u₋₁(∞) = [Σ ξ_k²/γ_k²]^{1/4} = ‖D‖_F^{1/2}``, ``U₁₁(∞) = D/u₋₁(∞)``.

    Source: [zfb24] Lemma 28, eq. (63) (squares restored), Theorem 8.

    Examples
    --------
    >>> U, u = rdm_limit([1] * 3, [2] * 3, [6] * 3, 8)  # D = I/4: u = (√3/4)^½, U = D/u
    >>> round(u, 6), round(float(U[0, 0]), 6)
    (0.658037, 0.379918)
    """
    D = rdm_D(m1, m2, m3, N)
    u = float(np.sqrt(np.linalg.norm(D)))
    return D / u, u


@checked
def rdm_min_loss(m1: Any, m2: Any, m3: Any, N: int) -> float:
    """Lemma 24: ``min ℓ_rdm = −½ Σ ξ_i²/γ_i``.  Source: [zfb24] Lemma 24, eq. (55).

    Examples
    --------
    Exp(1), d = 3, N = 8 (γ = 8, ξ = 2): −½·3·4/8.

    >>> rdm_min_loss([1] * 3, [2] * 3, [6] * 3, 8)
    -0.75
    """
    g, xi, _ = rdm_moments(m1, m2, m3, N)
    return float(-0.5 * np.sum(xi**2 / g))


@checked
def rdm_optimal_loss(m1: Any, m2: Any, m3: Any, N: int) -> float:
    """[derived] ``L*_rdm = ½[Σ Eλ_i − Σ ξ_i²/γ_i]``.

    Source: [derived] from [zfb24] Lemma 23 (ℓ_rdm = loss − ½ΣEλ_i) and Lemma 24.

    Examples
    --------
    Exp(1), d = 3, N = 8: ½·3 − 0.75.

    >>> rdm_optimal_loss([1] * 3, [2] * 3, [6] * 3, 8)
    0.75
    """
    return float(0.5 * np.sum(np.asarray(m1, dtype=float)) + rdm_min_loss(m1, m2, m3, N))


@checked
def rdm_init_bound(m1: Any, Theta: Any, E_opG_fro2L: float) -> float:
    r"""Condition (21): the bound ``2‖E[Λ_τ]Θ‖_F² / (√d E[‖Γ_τ‖_op‖Λ_τ‖_F²])`` that σ² must stay
    below.

    Source: [zfb24] Theorem 8, eq. (21) / Lemma 26, eq. (58).  The expectation
    ``E_opG_fro2L = E[‖Γ_τ‖_op ‖Λ_τ‖_F²]`` has no closed form for general laws: pass it (MC).

    Parameters
    ----------
    m1 : (d,) E λ_i; Theta : (d, d) with ‖ΘΘᵀ‖_F = 1; E_opG_fro2L : E[‖Γ_τ‖_op ‖Λ_τ‖_F²] > 0

    Examples
    --------
    d = 1, Eλ = 1, Θ = 1, E[‖Γ_τ‖‖Λ_τ‖²] = 2: 2·1/(1·2).

    >>> rdm_init_bound([1.0], [[1.0]], 2.0)
    1.0
    """
    T = np.asarray(Theta, dtype=float)
    d = T.shape[0]
    return float(
        2 * np.sum((np.diag(np.asarray(m1, dtype=float)) @ T) ** 2) / (np.sqrt(d) * E_opG_fro2L)
    )


@checked
def rdm_u_min(m1: Any, m2: Any, Theta: Any, sigma_init: float, E_opG_fro2L: float) -> float:
    r"""Lemma 27's lower bound on ``u₋₁(t)`` (random covariance, diagonal Λ_τ).

    Source: [zfb24] Lemma 27, eq. (60) (reconstructed from the proof).

    .. math:: u_{-1}(t) \ge \sqrt{\frac{\sigma^2[2\|E\Lambda_\tau\Theta\|_F^2
              - \sqrt d\sigma^2E(\|\Gamma_\tau\|_{op}\|\Lambda_\tau\|_F^2)]}{2\sqrt
              d\|E\Lambda_\tau^2\|_{op}}}

    ``E_opG_fro2L = E[‖Γ_τ‖_op‖Λ_τ‖_F²]`` is passed in (no closed form).  Raises ``ValueError`` when
    condition (21) fails (the bracket is not positive).

    Examples
    --------
    d = 1, Eλ = 1, Eλ² = 2, Θ = 1, σ = ½, E[‖Γ_τ‖‖Λ_τ‖²] = 2: u_min² = ¼·(2 − ½)/(2·2) = 3/32.

    >>> round(rdm_u_min([1.0], [2.0], [[1.0]], 0.5, 2.0) ** 2, 8)
    0.09375
    >>> rdm_u_min([1.0], [2.0], [[1.0]], 1.0, 2.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Lemma 27 needs condition (21): σ² < 2‖EΛΘ‖²/(√d E‖Γ_τ‖‖Λ_τ‖²), got σ² = 1 ≥ 1 ...

    (σ² = 1 is ``rdm_init_bound`` here: condition (21) fails.)
    """
    T = np.asarray(Theta, dtype=float)
    d = T.shape[0]
    s2 = float(sigma_init) ** 2
    br = 2 * np.sum((np.diag(np.asarray(m1, dtype=float)) @ T) ** 2) - np.sqrt(d) * s2 * E_opG_fro2L
    if br <= 0:
        bound = (br + np.sqrt(d) * s2 * E_opG_fro2L) / (np.sqrt(d) * E_opG_fro2L)
        raise ValueError(
            "Lemma 27 needs condition (21): σ² < 2‖EΛΘ‖²/(√d E‖Γ_τ‖‖Λ_τ‖²), "
            f"got σ² = {s2:.6g} ≥ {bound:.6g} (sigma_init = {sigma_init!r})"
        )
    return float(np.sqrt(s2 * br / (2 * np.sqrt(d) * np.max(np.asarray(m2, dtype=float)))))


@checked
def rdm_pl_constant(
    m1: Any, m2: Any, m3: Any, N: int, Theta: Any, sigma_init: float, E_opG_fro2L: float
) -> float:
    r"""Lemma 28's PL constant ``ν = η·u_min²`` with ``η = min{γ_i, ζ_ij}`` (u_min of Lemma 27).

    Source: [zfb24] Lemma 28, eq. (61) (valid but conservative: docs/papers/zfb24.md).

    .. math:: \nu = \frac{\eta\sigma^2}{2\sqrt
              d\|E\Lambda_\tau^2\|_{op}}\big[2\|E\Lambda_\tau\Theta\|_F^2
              - \sqrt d\sigma^2E(\|\Gamma_\tau\|_{op}\|\Lambda_\tau\|_F^2)\big]

    Examples
    --------
    d = 1, Exp(1) moments, N = 8: η = γ = (9/8)·6 + 6/8 = 7.5, u_min² = 3/32 (:func:`rdm_u_min`):

    >>> round(rdm_pl_constant([1.0], [2.0], [6.0], 8, [[1.0]], 0.5, 2.0), 12)
    0.703125
    """
    g, _, z = rdm_moments(m1, m2, m3, N)
    d = len(g)
    eta = float(min(g.min(), z[~np.eye(d, dtype=bool)].min() if d > 1 else g.min()))
    return eta * rdm_u_min(m1, m2, Theta, sigma_init, E_opG_fro2L) ** 2


# -------------------------------------------------------------- [derived] iid closed forms
_m1, _m2, _m3 = sp.symbols("m1 m2 m3", positive=True)
_dS, _NS = sp.symbols("d N", positive=True)


def _check_iid_moments(m1: Any, m2: Any, m3: Any) -> None:
    """The iid moments must come from an a.s. positive law (Def. 7), as in :func:`rdm_moments`:
    ``m1 > 0``, ``m2 ≥ m1²``, ``m3 > 0`` (a symbolic moment is refused only where its assumptions
    decide the inequality)."""
    a, b, c = (sp.sympify(v) for v in (m1, m2, m3))
    decided = [r for r in (a <= 0, b < a**2, c <= 0) if isinstance(r, sp.logic.boolalg.BooleanAtom)]
    if any(bool(r) for r in decided):
        raise ValueError(
            "m1, m2, m3 must be the moments of an a.s. positive law: m1 > 0, "
            f"m2 ≥ m1², m3 > 0 (zfb24 Def. 7), got {m1!r}, {m2!r}, {m3!r}"
        )


@checked
def moments_iid(m1: Any, m2: Any, m3: Any, d: Any, N: Any) -> tuple[Any, Any, Any]:
    r"""[derived] iid diagonal entries: ``γ = m3 + (2m3 + (d−1)m1m2)/N``, ``ξ = m2``,
    ``ζ = m1m2 + (3m1m2 + (d−2)m1³)/N`` (from Corollary 22).

    Examples
    --------
    >>> from theory.common.symbols import d, N
    >>> moments_iid(1, 2, 6, d, N)[0]
    6 + (2*d + 10)/N
    """
    _check_iid_moments(m1, m2, m3)
    m1, m2, m3, d, N = (sp.sympify(v) for v in (m1, m2, m3, d, N))
    return (
        m3 + (2 * m3 + (d - 1) * m1 * m2) / N,
        m2,
        m1 * m2 + (3 * m1 * m2 + (d - 2) * m1**3) / N,
    )


@checked
def delta_iid(m1: Any, m2: Any, m3: Any, d: Any, N: Any) -> Any:
    """[derived] ``δ = ξ/γ`` (D = δI) for iid diagonal entries.

    Source: [derived] from [zfb24] Corollary 22 and Theorem 8 (D = diag(ξ_i/γ_i)).

    Examples
    --------
    Exp(1) moments (1, 2, 6) give :func:`delta_exp` N/(3N + d + 5); at d = 3, N = 8: 8/32
    (with SymPy symbols d, N it returns the simplified expression):

    >>> delta_iid(1, 2, 6, 3, 8), delta_exp(8, 3)
    (1/4, 1/4)
    """
    g, xi, _ = moments_iid(m1, m2, m3, d, N)
    return sp.simplify(xi / g)


@checked
def delta_exp(N: Any, d: Any) -> Any:
    r"""[derived] Exp(1) entries: ``δ = N/(3N + d + 5)`` (→ 1/3, the paper's "≈ 1/3").

    Examples
    --------
    >>> delta_exp(16, 4)
    16/57
    """
    return sp.sympify(N) / (3 * sp.sympify(N) + d + 5)


@checked
def exp_moments() -> tuple[int, int, int]:
    """Moments (1, 2, 6) of Exponential(1).

    Source: [zfb24] §4.3 (the Exponential(1) example of Figure 1); E λᵏ = k!.

    Examples
    --------
    >>> exp_moments() == gamma_law_moments(1, 1)
    True
    """
    return (1, 2, 6)


@checked
def gamma_law_moments(k: Any, theta: Any) -> tuple[Any, Any, Any]:
    """Gamma(k, θ): ``m1 = kθ``, ``m2 = k(k+1)θ²``, ``m3 = k(k+1)(k+2)θ³``.

    Source: the moments of the Gamma(k, θ) law (shape k, scale θ); k = θ = 1 is Exp(1).

    Examples
    --------
    >>> import sympy as sp
    >>> gamma_law_moments(*sp.symbols("k theta"))
    (k*theta, k*theta**2*(k + 1), k*theta**3*(k + 1)*(k + 2))
    >>> gamma_law_moments(2, 1)
    (2, 6, 24)
    """
    k, theta = sp.sympify(k), sp.sympify(theta)
    return (k * theta, k * (k + 1) * theta**2, k * (k + 1) * (k + 2) * theta**3)


def _r_builder(dl: Any, c: Any, M: Any, m1: Any, m2: Any, m3: Any, d: Any) -> Any:
    """r(δ, c, M) of :func:`rdm_test_risk`, one expression (``M = ∞`` drops the 1/M term)."""
    excess = dl**2 * c**3 / M * (2 * m3 + (d - 1) * m1 * m2)
    return dl**2 * c**3 * m3 - 2 * dl * c**2 * m2 + c * m1 + excess


_R_SYMS = (*sp.symbols("delta c M", positive=True), _m1, _m2, _m3, _dS)


@checked
def rdm_test_risk(delta: Any, c: Any, M: Any, m1: Any, m2: Any, m3: Any, d: Any) -> Any:
    r"""[derived] Normalised risk (÷ d) of ``ŷ = δ x_qᵀ(1/M)Σyᵢxᵢ`` on random-covariance tests.

    Source: [derived] (for [zfb24] eq. (23) and Figure 1).

    .. math:: r(\delta,c,M) = \delta^2c^3m_3 - 2\delta c^2m_2 + c\,m_1
              + \frac{\delta^2c^3}{M}\big(2m_3 + (d-1)m_1m_2\big)

    with test Λ_new = c·diag(λ_i), λ_i iid with moments (m1, m2, m3), w ~ N(0, I), noiseless.

    Examples
    --------
    >>> rdm_test_risk(sp.Rational(1, 3), 1, sp.oo, 1, 2, 6, 20)    # LSA limit at c = 1
    1/3
    """
    _check_iid_moments(m1, m2, m3)
    return dual(_r_builder, _R_SYMS, (delta, c, M, m1, m2, m3, d))


@checked
def rdm_test_risk_fn(delta: Any, c: Any, M: Any, m1: Any, m2: Any, m3: Any, d: Any) -> Any:
    """numpy twin of :func:`rdm_test_risk` (``M = np.inf`` allowed).

    Examples
    --------
    δ = 0 (the zero predictor) has risk c·m1 (= E y²/d); the LSA's δ = 1/3 at c = 1 gives 1/3:

    >>> float(rdm_test_risk_fn(0.0, 2.0, 10, 1, 2, 6, 20))
    2.0
    >>> round(float(rdm_test_risk_fn(1 / 3, 1.0, np.inf, 1, 2, 6, 20)), 12)
    0.333333333333
    """
    _check_iid_moments(m1, m2, m3)
    return dual(_r_builder, _R_SYMS, (delta, c, M, m1, m2, m3, d))


def _r_fixed_builder(dl: Any, c: Any, M: Any, d: Any) -> Any:
    """r_I(δ, c, M) of :func:`fixed_test_risk`, one expression (``M = ∞`` drops the 1/M term)."""
    return c * (1 - dl * c) ** 2 + dl**2 * c**3 * (d + 1) / M


_R_FIXED_SYMS = (*sp.symbols("delta c M", positive=True), _dS)


@checked
def fixed_test_risk(delta: Any, c: Any, M: Any, d: Any) -> Any:
    r"""[derived] Normalised risk of ``δ`` on a fixed test covariance ``cI``:
    ``r_I = c(1 − δc)² + δ²c³(d+1)/M``.

    Examples
    --------
    >>> fixed_test_risk(sp.Rational(1, 3), 1, sp.oo, 20)  # (1 − 1/3)², Figure 1's fixed panel
    4/9
    """
    return dual(_r_fixed_builder, _R_FIXED_SYMS, (delta, c, M, d))


@checked
def lsa_limit_random(c: Any) -> Any:
    """[derived] Random-trained LSA, M, N → ∞ (δ = 1/3), Exp(1), normalised:
    ``c(2c²/3 − 4c/3 + 1)``.

    Source: [derived], for [zfb24] §4.3, eq. (23) and Figure 1 (:func:`rdm_test_risk` at
    δ = 1/3, M = ∞, Exp(1)).

    Examples
    --------
    >>> lsa_limit_random(1)
    1/3
    >>> c = sp.Symbol("c", positive=True)
    >>> sp.expand(lsa_limit_random(c) - rdm_test_risk(sp.Rational(1, 3), c, sp.oo, 1, 2, 6, 20))
    0
    """
    c = sp.sympify(c)
    return c * (2 * c**2 / 3 - 4 * c / 3 + 1)
