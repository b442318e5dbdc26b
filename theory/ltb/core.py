"""zwb24 core: the LTB/LSA effective parameterisation (★), Lemma 5.1, the general LTB risk (§2.2),
and the optimal GD-β (Theorem 5.2: Ω, Γ*, R*).

Every formula is transcribed once against :mod:`theory.ltb._ops` (numpy for numbers, SymPy for
SymPy input).  Source for all of them: spec ``002_linear_transformer_block.md`` (the paper's
displayed math was lost in extraction; the spec re-derives every formula and tags it).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.ltb._ops import NP, SP, ops_for, psd_sqrt
from theory.settings import as_matrix, as_vector, check_int, check_real

__all__ = [
    "effective_params",
    "lemma51_weights",
    "omega",
    "optimal_gamma",
    "optimal_gamma_whitened",
    "optimal_risk",
    "optimal_risk_eig",
    "ltb_risk",
    "ltb_risk_whitened",
    "lsa_risk",
    "whiten",
    "whiten_params",
    "label_second_moment",
]

_PAPER = "zwb24 Assumption 3.1"


# ----------------------------------------------------------------------------- validation
def _num_setting(H: Any, Psi: Any, sigma2: Any, N: Any, beta_star: Any = None):
    """Validate numeric (H, Ψ, σ², N[, β*]) and return float arrays; c = tr(HΨ) + σ² > 0."""
    Hm = np.array(as_matrix("H", H, paper=_PAPER))
    d = Hm.shape[0]
    Pm = np.array(as_matrix("Psi", Psi, d=d, paper=_PAPER))
    s2 = check_real("sigma2", sigma2, lower=0.0, paper=_PAPER)
    n = check_int("N", N, minimum=1, paper="zwb24 prompt length")
    if np.trace(Hm @ Pm) + s2 <= 0:
        raise ValueError(
            f"tr(H Psi) + sigma2 must be > 0 (zwb24 Thm 5.2: Omega invertible), got "
            f"tr(H Psi)={np.trace(Hm @ Pm):.3g}, sigma2={s2:.3g}")
    if beta_star is None:
        return Hm, Pm, s2, n
    bs = np.array(as_vector("beta_star", beta_star, d=d, paper=_PAPER))
    return Hm, Pm, s2, n, bs


def _sym_mat(A: Any) -> sp.Matrix:
    return SP.mat(sp.sympify(A) if not isinstance(A, (sp.MatrixBase, list, tuple)) else A)


# -------------------------------------------------------------- (★) effective parameterisation
def effective_params(W_K: Any, W_Q: Any, W_V: Any, W_P: Any, W_1: Any = None, W_2: Any = None,
                     *, mlp_residual: bool = True) -> dict[str, Any]:
    r"""Effective parameters of a raw LTB (3.3) / LSA (3.4): the reduction (★).

    Source: [zwb24] eq. (3.3), (3.4); proofs of Lemma 5.1 / Thm 4.1 (App. B, D); spec 002 §1.7
    [V-num].

    .. math::

        u = (I + W_2W_1)^\top e_{d+1},\; v = (W_PW_V)^\top u,\; Q = W_K^\top W_Q,\;
        W = Q_{1:d,1:d},\; w = Q_{d+1,1:d}^\top, \\
        f_{LTB}(Z) = u_1^\top x + \tfrac1N x^\top[W^\top(X^\top X v_1 + v_2 X^\top y)
                     + w(v_1^\top X^\top y + v_2\|y\|^2)]
                   = x^\top[a + \tfrac1N(\Gamma X^\top + \phi y^\top)(y - Xb)]

    with ``a = u_1``, ``b = -v_1/v_2``, ``Γ = v_2 Wᵀ``, ``φ = v_2 w`` on the chart ``v_2 ≠ 0``.

    Parameters
    ----------
    W_K, W_Q : ``(k, d+1)``; W_V : ``(v, d+1)``; W_P : ``(d+1, v)``;
    W_1 : ``(m, d+1)``, W_2 : ``(d+1, m)`` (``None``: LSA, ``W_1 = W_2 = 0``).
    mlp_residual : the MLP is ``(I + W_2W_1)U`` (True, the LTB) or ``W_2W_1 U`` (False; a
        *different* model, only for negative controls).

    Returns
    -------
    dict with raw ``u, v, W, w`` and chart parameters ``a, b, Gamma, phi`` (``b, Gamma, phi`` are
    ``None`` when ``v_2 = 0``).

    Notes
    -----
    LSA ⇔ ``a = 0``; GD-β ⇔ ``a = b = β, φ = 0``.  Only the last row of ``I + W_2W_1`` and the first
    ``d`` columns of ``W_KᵀW_Q`` matter.

    Examples
    --------
    >>> import numpy as np
    >>> I = np.eye(2)
    >>> p = effective_params(I, I, I, I)          # d = 1, LSA with identity weights
    >>> float(p["a"][0]), float(p["b"][0]), float(p["Gamma"][0, 0]), float(p["phi"][0])
    (0.0, -0.0, 1.0, 0.0)
    """
    ops = ops_for(W_K, W_Q, W_V, W_P, W_1, W_2)
    W_K, W_Q, W_V, W_P = (ops.mat(A) for A in (W_K, W_Q, W_V, W_P))
    D = W_K.shape[1]
    d = D - 1
    e = ops.vec([0] * d + [1])
    if W_1 is None or W_2 is None:
        if not mlp_residual:
            raise ValueError("mlp_residual=False needs W_1 and W_2")
        U = ops.eye(D)
    else:
        M = ops.mat(W_2) @ ops.mat(W_1)
        U = (ops.eye(D) + M) if mlp_residual else M
    u = U.T @ e
    v = (W_P @ W_V).T @ u
    Q = W_K.T @ W_Q
    W = Q[:d, :d]
    w = ops.vec(Q[d, :d])
    u1, v1, v2 = ops.vec(u[:d]), ops.vec(v[:d]), v[d] if not ops.symbolic else v[d, 0]
    out: dict[str, Any] = {"u": u, "v": v, "W": W, "w": w, "a": u1,
                           "b": None, "Gamma": None, "phi": None}
    if v2 != 0:
        out.update(b=-v1 / v2, Gamma=v2 * W.T, phi=v2 * w)
    return out


def lemma51_weights(Gamma: Any, beta: Any, *, k: int | None = None, v: int | None = None,
                    m: int | None = None) -> dict[str, np.ndarray]:
    r"""Raw LTB weights implementing the GD-β model ``f_{Γ,β}`` (Lemma 5.1: ``F_GDβ ⊆ F_LTB``).

    Source: [zwb24] Lemma 5.1 (App. B); explicit matrices: spec 002 §2.3 [V-num; the paper's
    choice of the free entries is not recoverable].

    .. math::

        W_2W_1 = \begin{pmatrix}0&0\\ \beta^\top&0\end{pmatrix},\quad
        W_PW_V = \begin{pmatrix}0&0\\ -\beta^\top&1\end{pmatrix},\quad
        W_K^\top W_Q = \begin{pmatrix}\Gamma^\top&0\\0&0\end{pmatrix}

    Parameters
    ----------
    Gamma : ``(d, d)`` step-size matrix Γ; beta : ``(d,)`` initialisation β.
    k ≥ d, v ≥ 1, m ≥ 1 : head / value / MLP widths (default ``d + 1``).

    Returns
    -------
    dict ``W_K (k,d+1), W_Q (k,d+1), W_V (v,d+1), W_P (d+1,v), W_1 (m,d+1), W_2 (d+1,m)``.

    Examples
    --------
    >>> w = lemma51_weights([[0.5]], [2.0])
    >>> p = effective_params(**w)
    >>> float(p["a"][0]), float(p["b"][0]), float(p["Gamma"][0, 0])
    (2.0, 2.0, 0.5)
    """
    G = np.array(Gamma, dtype=float)
    b = np.array(as_vector("beta", beta))
    d = b.shape[0]
    if G.shape != (d, d):
        raise ValueError(f"Gamma must have shape ({d}, {d}), got {G.shape}")
    D = d + 1
    k = D if k is None else check_int("k", k, minimum=d, paper="zwb24 Lemma 5.1 needs k ≥ d")
    v = D if v is None else check_int("v", v, minimum=1)
    m = D if m is None else check_int("m", m, minimum=1)
    W_K = np.zeros((k, D)); W_K[:d, :d] = np.eye(d)  # noqa: E702
    W_Q = np.zeros((k, D)); W_Q[:d, :d] = G.T  # noqa: E702
    W_V = np.zeros((v, D)); W_V[0, :d] = -b; W_V[0, d] = 1.0  # noqa: E702
    W_P = np.zeros((D, v)); W_P[d, 0] = 1.0  # noqa: E702
    W_1 = np.zeros((m, D)); W_1[0, :d] = b  # noqa: E702
    W_2 = np.zeros((D, m)); W_2[d, 0] = 1.0  # noqa: E702
    return {"W_K": W_K, "W_Q": W_Q, "W_V": W_V, "W_P": W_P, "W_1": W_1, "W_2": W_2}


# -------------------------------------------------------------------------------- whitening
def whiten(H: Any, Psi: Any, beta_star: Any) -> tuple[np.ndarray, np.ndarray]:
    r"""Whitened data model ``(Ψ̄, μ̄) = (H^{1/2}ΨH^{1/2}, H^{1/2}β*)`` (numeric).

    Source: spec 002 §1.8 [V-num]: risks depend on the data model only through
    ``(Ψ̄, μ̄, σ², N)``.

    >>> P, mu = whiten([[4.0]], [[1.0]], [1.0])
    >>> float(P[0, 0]), float(mu[0])
    (4.0, 2.0)
    """
    Hh = psd_sqrt(np.array(as_matrix("H", H, paper=_PAPER)))
    return Hh @ np.array(as_matrix("Psi", Psi, paper=_PAPER)) @ Hh, Hh @ np.asarray(
        beta_star, dtype=float)


def whiten_params(H: Any, a: Any, b: Any, Gamma: Any, phi: Any) -> tuple[np.ndarray, ...]:
    """Whitened LTB parameters ``(H^{1/2}a, H^{1/2}b, H^{1/2}ΓH^{1/2}, H^{1/2}φ)`` (§1.8)."""
    Hh = psd_sqrt(np.asarray(H, dtype=float))
    return (Hh @ np.asarray(a, float), Hh @ np.asarray(b, float),
            Hh @ np.asarray(Gamma, float) @ Hh, Hh @ np.asarray(phi, float))


def label_second_moment(H: Any, Psi: Any, beta_star: Any, sigma2: Any) -> Any:
    r"""``E[y²] = tr(H(Ψ + β*β*ᵀ)) + σ²`` under Assumption 3.1 (risk of the zero predictor).

    Source: [zwb24] Assumption 3.1 (spec 002 §1.1); elementary.

    >>> label_second_moment([[1.0]], [[1.0]], [3.0], 0.25)
    10.25
    """
    ops = ops_for(H, Psi, beta_star, sigma2)
    Hm, Pm, bs = ops.mat(H), ops.mat(Psi), ops.vec(beta_star)
    return ops.out(ops.tr(Hm @ Pm) + ops.dot(bs, Hm @ bs) + sigma2)


# ------------------------------------------------------------------- Theorem 5.2: Ω, Γ*, R*
def omega(Psi_bar: Any, sigma2: Any, N: Any) -> Any:
    r"""``Ω = ((N+1)/N) Ψ̄ + ((tr Ψ̄ + σ²)/N) I`` (the paper's (A.3), whitened).

    Source: [zwb24] Theorem 5.2, eq. (A.3); spec 002 §2.4 [V-num, V-sym d=1; printed
    normalisation R].

    >>> float(omega([[1.0]], 0.0, 1)[0, 0])
    3.0
    """
    ops = ops_for(Psi_bar, sigma2, N)
    P = ops.mat(Psi_bar)
    c = ops.tr(P) + sigma2
    return ((N + 1) * P + c * ops.eye(P.shape[0])) / N


def optimal_gamma_whitened(Psi_bar: Any, sigma2: Any, N: Any) -> Any:
    r"""Whitened optimum ``Γ̄* = Ψ̄ Ω^{-1}`` (= ``H^{1/2}Γ*H^{1/2}``).

    Source: [zwb24] Theorem 5.2, eq. (5.3)/(C.6); spec 002 §2.4.

    >>> float(optimal_gamma_whitened([[1.0]], 0.0, 1)[0, 0])   # 1/3 at λ = 1, c = 1, N = 1
    0.3333333333333333
    """
    ops = ops_for(Psi_bar, sigma2, N)
    P = ops.mat(Psi_bar)
    return P @ ops.inv(ops.mat(omega(P, sigma2, N)))


def _optimal_gamma(ops: Any, H: Any, Psi: Any, sigma2: Any, N: Any) -> Any:
    # Γ* = N P_H Ψ ((N+1) HΨ + c I)^{-1} P_H   (= (H^{1/2})^+ Ψ̄ Ω^{-1} (H^{1/2})^+, push-through)
    d = H.shape[0]
    c = ops.tr(H @ Psi) + sigma2
    P_H = ops.projector(H)
    return N * (P_H @ Psi @ ops.inv((N + 1) * (H @ Psi) + c * ops.eye(d)) @ P_H)


def optimal_gamma(H: Any, Psi: Any, sigma2: Any, N: Any, *, finite_sample_factor: bool = True
                  ) -> Any:
    r"""Optimal GD-β step size ``Γ*`` (Theorem 5.2); with ``β = β*`` it minimises the ICL risk.

    Source: [zwb24] Theorem 5.2, eq. (5.3) and (C.6); spec 002 §2.4 [V-num, V-sym (d=1)].

    .. math::

        \Gamma^* = (H^{1/2})^{+}\,\bar\Psi\,\Omega^{-1}(H^{1/2})^{+}
                 = N\,P_H\,\Psi\,\big((N+1)H\Psi + c I\big)^{-1}P_H,
        \qquad c = \operatorname{tr}(H\Psi) + \sigma^2

    (for ``H, Ψ ≻ 0``: ``Γ* = (((N+1)/N)H + (c/N)Ψ^{-1})^{-1}``, a regularised Newton step).

    Parameters
    ----------
    H : feature covariance ``(d, d)``, PSD (rank-deficient allowed).
    Psi : task covariance Ψ ``(d, d)``, PSD.
    sigma2 : noise variance σ² ≥ 0, with ``tr(HΨ) + σ² > 0``.
    N : context length ≥ 1.
    finite_sample_factor : keep the ``(N+1)/N`` of Ω (True).  ``False`` replaces it by 1 — a
        deliberately wrong Γ used only by negative-control tests.

    Returns
    -------
    ``(d, d)`` float64 array (symmetric, ``Im ⊆ Im H``) or a SymPy ``Matrix``.

    Notes
    -----
    Special cases: Ψ = I gives Wu et al. (2024); Ψ = I, σ = 0 gives zfb24's
    ``((1+1/N)Λ + tr(Λ)/N I)^{-1}``; ``H = Ψ = I_d`` gives ``N/(N+1+d+σ²) I``.  The push-through
    form avoids square roots, so SymPy input works for any PSD ``H``.  The minimiser set is
    ``Γ* + Null(H^{1/2}⊗H^{1/2})`` (:func:`theory.ltb.minimiser_set_member`).

    References
    ----------
    arXiv:2402.14951 (zwb24), Theorem 5.2.

    Examples
    --------
    >>> round(float(optimal_gamma([[1.0]], [[1.0]], 0.0, 5)[0, 0]), 12)   # N/(N+1+d+σ²) = 5/7
    0.714285714286
    >>> N, s2 = sp.symbols("N sigma2", positive=True)
    >>> sp.simplify(optimal_gamma(sp.eye(1), sp.eye(1), s2, N)[0, 0] - N / (N + 2 + s2))
    0
    """
    ops = ops_for(H, Psi, sigma2, N)
    if ops.symbolic:
        Hm, Pm = _sym_mat(H), _sym_mat(Psi)
    else:
        Hm, Pm, sigma2, N = _num_setting(H, Psi, sigma2, N)
    if not finite_sample_factor:  # fault injection: (N+1)/N -> 1, i.e. N+1 -> N
        d = Hm.shape[0]
        c = ops.tr(Hm @ Pm) + sigma2
        P_H = ops.projector(Hm)
        return N * (P_H @ Pm @ ops.inv(N * (Hm @ Pm) + c * ops.eye(d)) @ P_H)
    return _optimal_gamma(ops, Hm, Pm, sigma2, N)


def optimal_risk(H: Any, Psi: Any, sigma2: Any, N: Any) -> Any:
    r"""Minimal ICL risk ``R*`` of GD-β (= of the LTB, Thm 5.3), including the query noise σ².

    Source: [zwb24] Theorem 5.2, eq. (5.2); spec 002 §2.4 [V-num, V-sym (d=1)].

    .. math::

        R^* = \sigma^2 + \operatorname{tr}\bar\Psi - \operatorname{tr}(\bar\Psi\Omega^{-1}\bar\Psi)
            = \sigma^2 + \sum_i \frac{\lambda_i(\lambda_i + c)}{(N+1)\lambda_i + c}
            = \sigma^2 + \operatorname{tr}(H\Psi)
              - N\operatorname{tr}\big((H\Psi)^2((N+1)H\Psi + cI)^{-1}\big)

    with ``λ_i`` the eigenvalues of ``Ψ̄ = H^{1/2}ΨH^{1/2}`` (= of ``HΨ``) and
    ``c = tr(HΨ) + σ²``.

    Parameters
    ----------
    H, Psi : PSD ``(d, d)`` feature and task covariances; sigma2 : σ² ≥ 0; N : context length.

    Returns
    -------
    float (numeric input) or SymPy expression.

    Notes
    -----
    Independent of β*.  The last form (a trace of a rational function of ``HΨ`` vanishing at 0)
    equals the whitened one without square roots; :func:`optimal_risk_eig` is the eigen form.

    References
    ----------
    arXiv:2402.14951 (zwb24), Theorem 5.2.

    Examples
    --------
    >>> round(optimal_risk([[1.0]], [[1.0]], 0.0, 5), 12)   # 2/7 (spec Appendix A, row 1)
    0.285714285714
    >>> N, s2 = sp.symbols("N sigma2", positive=True)
    >>> sp.factor(optimal_risk(sp.eye(1), sp.eye(1), s2, N) - s2)
    (sigma2 + 2)/(N + sigma2 + 2)
    """
    ops = ops_for(H, Psi, sigma2, N)
    if ops.symbolic:
        Hm, Pm = _sym_mat(H), _sym_mat(Psi)
    else:
        Hm, Pm, sigma2, N = _num_setting(H, Psi, sigma2, N)
    A = Hm @ Pm
    c = ops.tr(A) + sigma2
    r = sigma2 + ops.tr(A) - N * ops.tr(A @ A @ ops.inv((N + 1) * A + c * ops.eye(A.shape[0])))
    return ops.out(r) if not ops.symbolic else sp.simplify(r)


def optimal_risk_eig(lams: Any, sigma2: Any, N: Any) -> Any:
    r"""Eigen form of ``R*``: ``σ² + Σ λ_i(λ_i + c)/((N+1)λ_i + c)``, ``c = Σλ_i + σ²``.

    Source: [zwb24] Theorem 5.2, eq. (5.2); spec 002 §2.4.  ``lams`` (eigenvalues of Ψ̄) may be a
    numpy array (batched over leading axes) or a list of SymPy expressions.

    >>> optimal_risk_eig([1.0, 1.0], 0.25, 10)          # spec Appendix A: 0.740566
    0.7405660377358491
    """
    if ops_for(lams, sigma2, N).symbolic:
        lams = list(lams)
        c = sum(lams) + sigma2
        return sigma2 + sum(lam * (lam + c) / ((N + 1) * lam + c) for lam in lams)
    lam = np.asarray(lams, dtype=float)
    c = lam.sum(axis=-1, keepdims=True) + sigma2
    r = sigma2 + np.sum(lam * (lam + c) / ((N + 1) * lam + c), axis=-1)
    return float(r) if np.ndim(r) == 0 else r


# --------------------------------------------------------------- §2.2: risk of the general LTB
def _ltb_risk_w(ops: Any, a: Any, b: Any, G: Any, phi: Any, P: Any, mu: Any, s2: Any, N: Any
                ) -> Any:
    d = P.shape[0]
    I = ops.eye(d)
    m = mu - b
    e0 = a - b
    T = ops.tr(P)
    mm = ops.dot(m, m)
    E2 = P + ops.outer(m, m)
    E3 = (T + mm) * m + 2 * (P @ m)
    E4 = (T + mm) ** 2 + 2 * ops.tr(P @ P) + 4 * ops.dot(m, P @ m)
    GtG = G.T @ G
    T1 = (ops.dot(e0, e0) - 2 * ops.dot(e0, (I - G) @ m)
          + ops.tr((I - G - G.T + (N + 1) * GtG / N + (ops.tr(GtG) / N) * I) @ E2)
          + (s2 / N) * ops.tr(G @ G.T))
    Eq = ops.dot(b, m) + T + mm + s2
    v1 = E2 @ b + E3
    v2 = ((N + 1) / N) * (E2 @ b) + ((T + mm) / N) * b + ((N + 2) / N) * E3
    EAq = Eq * e0 - (v1 - G @ v2) - s2 * ((I - G) @ m) + (s2 / N) * (G @ (b + 2 * m))
    T2 = 2 * ops.dot(phi, EAq)
    bm = ops.dot(b, m)
    A1 = bm ** 2 + ops.dot(b, P @ b) + 2 * ops.dot(b, E3) + E4
    A2 = ops.dot(b, b) * (T + mm) + 2 * ops.dot(b, E3) + E4
    bm2 = b + 2 * m
    Eq2 = ((N + 1) / N) * A1 + A2 / N + (s2 / N) * (ops.dot(bm2, bm2) + 4 * T) \
        + s2 ** 2 * (1 + 2 / N) + 2 * s2 * (bm + T + mm)
    T3 = ops.dot(phi, phi) * Eq2
    return s2 + T1 + T2 + T3


def ltb_risk_whitened(a: Any, b: Any, Gamma: Any, phi: Any, Psi_bar: Any, mu_bar: Any,
                      sigma2: Any, N: Any) -> Any:
    r"""Closed-form ICL risk of the general LTB (★) in whitened coordinates (``H = I``).

    Source: [zwb24] proofs of Thm 4.1 / 5.3 (App. D); formula re-derived in spec 002 §2.2
    [V-num: MC 29.3295±0.079 vs 29.3292].

    .. math::

        R_{LTB}(a,b,\Gamma,\phi) = \sigma^2 + T_1 + T_2 + T_3

    with ``T_1`` the GD-β-like part, ``T_2 = 2φᵀE[A q]`` and ``T_3 = ‖φ‖² E[q²]`` as spelled out
    in spec §2.2 (moments of ``δ = β̃ − b ~ N(μ − b, Ψ̄)``).

    Parameters
    ----------
    a, b, phi : whitened vectors ``(d,)``; Gamma : whitened ``(d, d)``;
    Psi_bar : Ψ̄ ⪰ 0; mu_bar : μ̄ = H^{1/2}β*; sigma2 : σ²; N : context length.

    Returns
    -------
    float / SymPy expression.  Numeric input may be complex (complex-step gradients): the formula
    is bilinear, never conjugates.

    Notes
    -----
    LSA risk = ``R(0, b, Γ, φ)``; GD-β = ``R(β, β, Γ, 0)`` (equals §2.1).  For fixed ``b`` the
    risk is a convex quadratic in ``(a, Γ, φ)``.

    Examples
    --------
    >>> ltb_risk_whitened([0.], [0.], [[0.]], [0.], [[1.]], [2.], 0.0, 5)   # zero predictor
    5.0
    """
    ops = ops_for(a, b, Gamma, phi, Psi_bar, mu_bar, sigma2, N)
    if ops.symbolic:
        args = [SP.vec(a), SP.vec(b), _sym_mat(Gamma), SP.vec(phi), _sym_mat(Psi_bar),
                SP.vec(mu_bar)]
        return sp.expand(_ltb_risk_w(SP, *args, sigma2, N))
    arrs = [np.asarray(x) for x in (a, b, Gamma, phi, Psi_bar, mu_bar)]
    arrs = [x.reshape(-1) if i in (0, 1, 3, 5) else x.reshape(x.shape[0] if x.ndim else 1, -1)
            for i, x in enumerate(arrs)]
    return ops.out(_ltb_risk_w(NP, *arrs, sigma2, N))


def ltb_risk(a: Any, b: Any, Gamma: Any, phi: Any, H: Any, Psi: Any, beta_star: Any,
             sigma2: Any, N: Any) -> float:
    r"""ICL risk ``E(f(Z) − y)²`` of the LTB with effective parameters ``(a, b, Γ, φ)`` (★).

    Source: spec 002 §2.2 via the whitening reduction §1.8 (numeric input only).

    >>> round(ltb_risk([1.], [1.], [[0.5]], [0.], [[1.]], [[1.]], [1.], 0.0, 5), 12)  # GD-β, β = β*
    0.35
    """
    Hm, Pm, s2, n, bs = _num_setting(H, Psi, sigma2, N, beta_star)
    P, mu = whiten(Hm, Pm, bs)
    aw, bw, Gw, fw = whiten_params(Hm, a, b, Gamma, phi)
    return ltb_risk_whitened(aw, bw, Gw, fw, P, mu, s2, n)


def lsa_risk(b: Any, Gamma: Any, phi: Any, H: Any, Psi: Any, beta_star: Any, sigma2: Any,
             N: Any) -> float:
    """ICL risk of the LSA (3.4) = :func:`ltb_risk` with ``a = 0`` (spec 002 §2.2).

    >>> lsa_risk([0.], [[0.]], [0.], [[1.]], [[1.]], [2.], 0.0, 5)
    5.0
    """
    return ltb_risk(np.zeros(len(np.atleast_1d(b))), b, Gamma, phi, H, Psi, beta_star, sigma2, N)
