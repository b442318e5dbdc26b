"""[zwb24] §5 GD-β, one-step GD with a learnable initialisation: Lemma 5.1 (the LTB contains
GD-β) and Theorem 5.2 (the optimal GD-β: Ω, Γ*, R*).

Every formula is transcribed once against :mod:`theory.common.backend` (numpy for numbers, SymPy
for SymPy input).  Source: [derived].  The risk of an arbitrary GD-β model is the shared
:func:`theory.common.baselines.gd_beta_risk`; Theorem 5.3 (optimal LTB = optimal GD-β) is verified
on :func:`theory.zwb24.sec3_risk.ltb_risk_whitened`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.common.backend import dual, ops_for
from theory.settings import check_int
from theory.zwb24.domains import checked
from theory.zwb24.sec3_model import check_omega_invertible, num_setting, sym_mat

__all__ = [
    "lemma51_weights",
    "omega",
    "optimal_gamma_whitened",
    "optimal_gamma",
    "optimal_risk",
    "optimal_risk_eig",
]
# Also public, for the sibling section modules and numerics.zwb24 only (theory.zwb24 does
# not re-export them): optimal_gamma_expr, spectrum, per_direction, spectral_sum.


# ------------------------------------------------------------------- Lemma 5.1: F_GDβ ⊆ F_LTB
@checked
def lemma51_weights(
    Gamma: Any, beta: Any, *, k: int | None = None, v: int | None = None, m: int | None = None
) -> dict[str, np.ndarray]:
    r"""Raw LTB weights implementing the GD-β model ``f_{Γ,β}`` (Lemma 5.1: ``F_GDβ ⊆ F_LTB``).

    Source: [zwb24] Lemma 5.1 (App. B); explicit matrices [derived].

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
    >>> from theory.zwb24.sec3_model import effective_params
    >>> w = lemma51_weights([[0.5]], [2.0])
    >>> p = effective_params(**w)
    >>> float(p["a"][0]), float(p["b"][0]), float(p["Gamma"][0, 0])
    (2.0, 2.0, 0.5)
    """
    G = np.array(Gamma, dtype=float)
    b = np.array(beta, dtype=float)
    d = b.shape[0]
    if G.shape != (d, d):
        raise ValueError(f"Gamma must have shape ({d}, {d}), got {G.shape}")
    D = d + 1
    nk = D if k is None else check_int("k", k, minimum=d, paper="zwb24 Lemma 5.1 needs k ≥ d")
    nv = D if v is None else check_int("v", v, minimum=1)
    nm = D if m is None else check_int("m", m, minimum=1)
    W_K = np.zeros((nk, D))
    W_K[:d, :d] = np.eye(d)
    W_Q = np.zeros((nk, D))
    W_Q[:d, :d] = G.T
    W_V = np.zeros((nv, D))
    W_V[0, :d] = -b
    W_V[0, d] = 1.0
    W_P = np.zeros((D, nv))
    W_P[d, 0] = 1.0
    W_1 = np.zeros((nm, D))
    W_1[0, :d] = b
    W_2 = np.zeros((D, nm))
    W_2[d, 0] = 1.0
    return {"W_K": W_K, "W_Q": W_Q, "W_V": W_V, "W_P": W_P, "W_1": W_1, "W_2": W_2}


@checked
def omega(Psi_bar: Any, sigma2: Any, N: Any) -> Any:
    r"""``Ω = ((N+1)/N) Ψ̄ + ((tr Ψ̄ + σ²)/N) I`` (the paper's (A.3), whitened).

    Source: [zwb24] Theorem 5.2, eq. (A.3).

    >>> float(omega([[1.0]], 0.0, 1)[0, 0])
    3.0
    """
    ops = ops_for(Psi_bar, sigma2, N)
    P = ops.mat(Psi_bar)
    c = ops.tr(P) + sigma2
    return ((N + 1) * P + c * ops.eye(P.shape[0])) / N


@checked
def optimal_gamma_whitened(Psi_bar: Any, sigma2: Any, N: Any) -> Any:
    r"""Whitened optimum ``Γ̄* = Ψ̄ Ω^{-1}`` (= ``H^{1/2}Γ*H^{1/2}``).

    Source: [zwb24] Theorem 5.2, eq. (5.3)/(C.6).

    >>> float(optimal_gamma_whitened([[1.0]], 0.0, 1)[0, 0])   # 1/3 at λ = 1, c = 1, N = 1
    0.3333333333333333
    """
    ops = ops_for(Psi_bar, sigma2, N)
    P = ops.mat(Psi_bar)
    if not ops.symbolic:
        check_omega_invertible(ops.tr(P), sigma2)
    return P @ ops.inv(ops.mat(omega(P, sigma2, N)))


def optimal_gamma_expr(ops: Any, H: Any, Psi: Any, sigma2: Any, N: Any) -> Any:
    """The formula of :func:`optimal_gamma` on already-converted backend matrices (no
    validation); ``ops`` is :data:`~theory.common.backend.NP` or ``SP``."""
    # Γ* = N P_H Ψ ((N+1) HΨ + c I)^{-1} P_H   (= (H^{1/2})^+ Ψ̄ Ω^{-1} (H^{1/2})^+, push-through)
    d = H.shape[0]
    c = ops.tr(H @ Psi) + sigma2
    P_H = ops.projector(H)
    return N * (P_H @ Psi @ ops.inv((N + 1) * (H @ Psi) + c * ops.eye(d)) @ P_H)


@checked
def optimal_gamma(
    H: Any, Psi: Any, sigma2: Any, N: Any, *, finite_sample_factor: bool = True
) -> Any:
    r"""Optimal GD-β step size ``Γ*`` (Theorem 5.2); with ``β = β*`` it minimises the ICL risk.

    Source: [zwb24] Theorem 5.2, eq. (5.3) and (C.6).

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
    ``Γ* + Null(H^{1/2}⊗H^{1/2})`` (checked by
    ``numerics.zwb24.sec5_gd_beta:check_thm5_2_float_minimiser_set``).

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
        Hm, Pm = sym_mat(H), sym_mat(Psi)
    else:
        Hm, Pm, sigma2, N = num_setting(H, Psi, sigma2, N)
    if not finite_sample_factor:  # fault injection: (N+1)/N -> 1, i.e. N+1 -> N
        d = Hm.shape[0]
        c = ops.tr(Hm @ Pm) + sigma2
        P_H = ops.projector(Hm)
        return N * (P_H @ Pm @ ops.inv(N * (Hm @ Pm) + c * ops.eye(d)) @ P_H)
    return optimal_gamma_expr(ops, Hm, Pm, sigma2, N)


@checked
def optimal_risk(H: Any, Psi: Any, sigma2: Any, N: Any) -> Any:
    r"""Minimal ICL risk ``R*`` of GD-β (= of the LTB, Thm 5.3), including the query noise σ².

    Source: [zwb24] Theorem 5.2, eq. (5.2).

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
    >>> round(optimal_risk([[1.0]], [[1.0]], 0.0, 5), 12)   # 2/7 (reference value, row 1)
    0.285714285714
    >>> N, s2 = sp.symbols("N sigma2", positive=True)
    >>> sp.factor(optimal_risk(sp.eye(1), sp.eye(1), s2, N) - s2)
    (sigma2 + 2)/(N + sigma2 + 2)
    """
    ops = ops_for(H, Psi, sigma2, N)
    if ops.symbolic:
        Hm, Pm = sym_mat(H), sym_mat(Psi)
    else:
        Hm, Pm, sigma2, N = num_setting(H, Psi, sigma2, N)
    A = Hm @ Pm
    c = ops.tr(A) + sigma2
    r = sigma2 + ops.tr(A) - N * ops.tr(A @ A @ ops.inv((N + 1) * A + c * ops.eye(A.shape[0])))
    return ops.out(r) if not ops.symbolic else sp.simplify(r)


@checked
def optimal_risk_eig(lams: Any, sigma2: Any, N: Any) -> Any:
    r"""Eigen form of ``R*``: ``σ² + Σ λ_i(λ_i + c)/((N+1)λ_i + c)``, ``c = Σλ_i + σ²``.

    Source: [zwb24] Theorem 5.2, eq. (5.2).  ``lams`` (eigenvalues of Ψ̄) may be a
    numpy array (batched over leading axes) or a list of SymPy expressions.

    >>> optimal_risk_eig([1.0, 1.0], 0.25, 10)  # reference value
    0.7405660377358491
    """
    lam, symbolic = spectrum(lams, sigma2, N)
    if not symbolic:
        check_omega_invertible(lam.sum(axis=-1), sigma2, "sum(lams)")
    c = spectral_sum(lam, symbolic, keepdims=True) + sigma2
    terms = per_direction(_risk_term, (_LAM, _C, _N), (lam,), (c, N), symbolic)
    r = sigma2 + spectral_sum(terms, symbolic)
    return r if symbolic else (float(r) if np.ndim(r) == 0 else r)


_LAM, _C, _N = sp.symbols("lambda_i c N")


def _risk_term(lam: Any, c: Any, N: Any) -> Any:
    """One eigen-direction of ``R* − σ²`` (Theorem 5.2): ``λ(λ + c)/((N+1)λ + c)``."""
    return lam * (lam + c) / ((N + 1) * lam + c)


def spectrum(lams: Any, *others: Any) -> tuple[Any, bool]:
    """``(eigenvalues, symbolic)``: a list of SymPy expressions (when ``lams`` or any of
    ``others`` is symbolic), or a float array (batched over leading axes) — the two containers the
    eigen forms sum over."""
    items = list(lams) if isinstance(lams, (list, tuple)) else [lams]
    if ops_for(*items, *others).symbolic:
        return [sp.sympify(v) for v in lams], True
    return np.asarray(lams, dtype=float), False


def per_direction(
    builder: Any,
    syms: tuple[Any, ...],
    columns: tuple[Any, ...],
    shared: tuple[Any, ...],
    symbolic: bool,
) -> Any:
    """The scalar formula ``builder`` along every eigen-direction, evaluated by
    :func:`theory.common.backend.dual`: ``columns`` hold one value per direction, ``shared`` are
    common to all."""
    if symbolic:
        return [dual(builder, syms, (*col, *shared)) for col in zip(*columns, strict=True)]
    return dual(builder, syms, (*columns, *shared))


def spectral_sum(terms: Any, symbolic: bool, *, keepdims: bool = False) -> Any:
    """``Σ_i terms_i`` over the eigen-directions (the last axis of a numeric batch)."""
    return sum(terms) if symbolic else np.sum(terms, axis=-1, keepdims=keepdims)
