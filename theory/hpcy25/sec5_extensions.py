"""[hpcy25] §5 and App. A.4: linear vs softmax, normalised activations, non-isotropic covariates,
multi-task superposition, softmax-norm concentration."""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.common.backend import check_scalar, dual, ops_for
from theory.common.symbols import sigma2 as _S2
from theory.hpcy25.appD_optimality import dgd_risk_expr
from theory.hpcy25.domains import checked

__all__ = [
    "linear_length_risk",
    "linear_length_argmin",
    "softmax_length_risk",
    "softmax_length_limit",
    "single_head_length_limit",
    "TABLE1",
    "table1_implied_c",
    "table1_effective_step",
    "kms_covariance",
    "kms_inverse",
    "precond_gd_risk",
    "gamma_star",
    "precond_dgd_risk",
    "pd_star",
    "mt_task_eta",
    "mt_shared_p",
    "mt_task_risk",
    "TABLE2",
    "table2_sums",
    "softmax_norm_first_order",
    "softmax_norm_limit",
]

_d, _L, _Lp = (sp.Symbol(n, positive=True) for n in ("d", "L", "Lp"))


# ---------------------------------------------------------------- §5.1 length generalisation
def _lin_len(Lp: Any, L_: Any, d_: Any, s2: Any) -> sp.Expr:
    Dp = d_ * (1 + s2)
    e = L_ / (L_ + Dp + 1)
    r = Lp / L_
    return 1 + s2 - 2 * e * r + e**2 * r**2 + e**2 * r * (Dp + 1) / L_


@checked
def linear_length_risk(Lp: Any, L: Any, d: Any, sigma2: Any) -> Any:
    """Risk at test length ``L'`` of optimal linear attention trained at ``L`` (fixed ``1/L``)
    [derived].

    Source: [hpcy25] §5.1 (length generalisation; closed form derived here [derived]).

    .. math::

        R_{lin}(L') = 1+\\sigma^2 - 2\\eta r + \\eta^2 r^2 + \\eta^2 r\\frac{D'+1}{L},\\quad
        r = L'/L,\\ \\eta = \\eta_V^*(L) = \\frac{L}{L+D'+1}

    >>> round(linear_length_risk(80, 40, 5, 0.1), 3)
    0.86
    """
    return dual(_lin_len, (_Lp, _L, _d, _S2), (Lp, L, d, sigma2))


@checked
def linear_length_argmin(L: Any, d: Any, sigma2: Any) -> Any:
    """``argmin_{L'} R_lin = L + (D'+1)/2`` (≈ 43 at d=5, L=40, σ²=0.1) [derived].

    Source: [derived].

    >>> linear_length_argmin(40, 5, 0.1)
    43.25
    """
    return dual(lambda L_, d_, s2: L_ + (d_ * (1 + s2) + 1) / 2, (_L, _d, _S2), (L, d, sigma2))


@checked
def softmax_length_risk(Lp: Any, eta: Any, d: Any, sigma2: Any) -> Any:
    """Risk at test length ``L'`` of the trained softmax model ≈ ``DGD_η`` with FIXED η:
    ``R_D(η; L')`` (softmax weights sum to one ⇒ automatic ``1/L'``) [derived].

    Source: [hpcy25] §5.1.

    >>> round(softmax_length_risk(100, 0.879121, 5, 0.1), 3)
    0.167
    """
    e = sp.Symbol("eta", real=True)
    return dual(
        lambda Lp_, e_, d_, s2: dgd_risk_expr(e_, d_, Lp_, s2),
        (_Lp, e, _d, _S2),
        (Lp, eta, d, sigma2),
    )


@checked
def softmax_length_limit(eta: Any, sigma2: Any) -> Any:
    """``lim_{L'→∞} R_D(η; L') = σ² + (1 − η)²`` [derived].

    >>> round(softmax_length_limit(1.0, 0.1), 6)
    0.1
    """
    e = sp.Symbol("eta", real=True)
    return dual(lambda e_, s2: s2 + (1 - e_) ** 2, (e, _S2), (eta, sigma2))


@checked
def single_head_length_limit(omega: Any, mu: Any, sigma2: Any) -> Any:
    """Single head at fixed ``(ω, μ)``: ``L' → ∞`` limit ``σ² + (1 − ωμ)²`` [derived].

    Source: [hpcy25] §5.1 (length generalisation of one head); [derived] limit.  At ``ωμ = 1``
    only the noise is left; without signal (``ω = 0``) the risk is ``1 + σ²``:

    >>> single_head_length_limit(0.5, 2.0, 0.1), single_head_length_limit(0.0, 3.0, 0.1)
    (0.1, 1.1)
    """
    w, m = sp.Symbol("omega", real=True), sp.Symbol("mu", real=True)
    return dual(lambda w_, m_, s2: s2 + (1 - w_ * m_) ** 2, (w, m, _S2), (omega, mu, sigma2))


# ----------------------------------------------------------------- §5.2 Table 1 arithmetic
#: [hpcy25] Table 1 (spec 001 R12): columns (ω, μ, 2cωμ); column 1 is softmax (c = 1).
TABLE1: tuple[tuple[float, float, float], ...] = (
    (0.1267, 3.5006, 0.8871),
    (0.1504, 3.3362, 1.0035),
    (0.3677, 2.3963, 0.8810),
    (0.2411, 2.2819, 0.8802),
    (0.1979, 2.2221, 0.8794),
    (0.2882, 1.7561, 1.0122),
    (0.1810, 1.7487, 1.0128),
    (0.1452, 1.7448, 1.0132),
)


@checked
def table1_implied_c() -> tuple[float, ...]:
    """First-order activation coefficients ``c = (2cωμ)/(2ωμ)`` implied by Table 1 [derived].

    Source: [hpcy25] Table 1; our reading of the table (c ∈ {1, 1, 0.5, 0.8, 1, 1, 1.6, 2}).

    >>> [round(c, 2) for c in table1_implied_c()]
    [1.0, 1.0, 0.5, 0.8, 1.0, 1.0, 1.6, 2.0]
    """
    return tuple(v / (2 * w * m) for w, m, v in TABLE1)


@checked
def table1_effective_step(omega: Any, mu: Any, c: Any) -> Any:
    """Effective DGD step ``2cωμ`` of a normalised activation with ``f(x)/f(0) ≈ 1 + cx``.

    Source: [hpcy25] §5.2.

    >>> round(table1_effective_step(0.1267, 3.5006, 1), 4)
    0.8871
    """
    w, m, cc = sp.Symbol("omega"), sp.Symbol("mu"), sp.Symbol("c")
    return dual(lambda a, b, e: 2 * e * a * b, (w, m, cc), (omega, mu, c))


# --------------------------------------------------------------- §5.3 non-isotropic covariates
@checked
def kms_covariance(d: int, rho: float) -> np.ndarray:
    """Kac–Murdock–Szegő ``Σ_ij = ρ^{|i−j|}`` (hpcy25 §5.3), a ``(d, d)`` float64 array.

    >>> kms_covariance(3, 0.5).tolist()
    [[1.0, 0.5, 0.25], [0.5, 1.0, 0.5], [0.25, 0.5, 1.0]]
    """
    idx = np.arange(d)
    return np.power(float(rho), np.abs(idx[:, None] - idx[None, :])).astype(float)


@checked
def kms_inverse(d: int, rho: Any) -> Any:
    """Tridiagonal closed-form inverse of the KMS matrix.

    .. math::

        (\\Sigma^{-1})_{11} = (\\Sigma^{-1})_{dd} = \\tfrac{1}{1-\\rho^2},\\
        (\\Sigma^{-1})_{ii} = \\tfrac{1+\\rho^2}{1-\\rho^2},\\
        (\\Sigma^{-1})_{i,i\\pm1} = \\tfrac{-\\rho}{1-\\rho^2}

    >>> np.round(kms_inverse(2, 0.5) @ kms_covariance(2, 0.5), 12).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    M = ops_for(rho).zeros(d, d)
    for i in range(d):
        M[i, i] = (1 if i in (0, d - 1) else 1 + rho**2) / (1 - rho**2)
        if i + 1 < d:
            M[i, i + 1] = M[i + 1, i] = -rho / (1 - rho**2)
    return M


def _M(Sigma: Any, L: Any, sigma2_: Any) -> Any:
    d = Sigma.shape[0]
    tr = Sigma.trace() if isinstance(Sigma, sp.MatrixBase) else np.trace(Sigma)
    eye = sp.eye(d) if isinstance(Sigma, sp.MatrixBase) else np.eye(d)
    return (1 + sp.Integer(1) / L if isinstance(Sigma, sp.MatrixBase) else 1 + 1 / L) * Sigma + (
        (tr + d * sigma2_) / L
    ) * eye


@checked
def precond_gd_risk(Gamma: Any, Sigma: Any, L: Any, sigma2: Any) -> Any:
    """Risk ``R(Γ)`` of preconditioned one-step GD ``x_qᵀ Γ (1/L) Σ_i x_i y_i``, ``β ~ N(0, I/d)``.

    Source: [hpcy25] Lemma E.4, (5.6).  numpy arrays or SymPy matrices; any SymPy argument
    (a matrix, or ``L`` or ``σ²`` alone among numbers) gives a SymPy expression.

    .. math::

        R(\\Gamma) = \\sigma^2 + \\tfrac{\\mathrm{tr}\\Sigma}{d}
          - \\tfrac2d \\mathrm{tr}(\\Sigma\\Gamma\\Sigma)
          + \\tfrac1d \\mathrm{tr}(\\Gamma^\\top\\Sigma\\Gamma\\Sigma M),\\quad
        M = (1+\\tfrac1L)\\Sigma + \\tfrac{\\mathrm{tr}\\Sigma + d\\sigma^2}{L} I

    >>> round(precond_gd_risk(0.897 * np.eye(5), np.eye(5), 40, 0.1), 5)
    0.24136
    """
    if ops_for(Gamma, Sigma, L, sigma2).symbolic:
        S, G = sp.Matrix(Sigma), sp.Matrix(Gamma)
        d = S.shape[0]
        M = _M(S, sp.sympify(L), sp.sympify(sigma2))
        return (
            sigma2
            + S.trace() / d
            - sp.Rational(2, d) * (S * G * S).trace()
            + (G.T * S * G * S * M).trace() / d
        )
    S, G = np.asarray(Sigma, float), np.asarray(Gamma, float)
    d = S.shape[0]
    M = _M(S, float(L), float(sigma2))
    return float(
        sigma2 + np.trace(S) / d - 2 / d * np.trace(S @ G @ S) + np.trace(G.T @ S @ G @ S @ M) / d
    )


@checked
def gamma_star(Sigma: Any, L: Any, sigma2: Any) -> Any:
    """Optimal preconditioner ``Γ* = M^{-1}`` (5.6) (isotropic: ``η_V* I``).

    Source: [hpcy25] (5.6), Lemma E.4.

    >>> round(float(gamma_star(np.eye(5), 40, 0.1)[0, 0]), 6)
    0.860215

    Any SymPy argument (``Σ``, or ``L`` or ``σ²`` alone) gives a SymPy ``Matrix``; numbers
    (float, int, or Fraction entries) give a float64 array.
    """
    if ops_for(Sigma, L, sigma2).symbolic:
        return _M(sp.Matrix(Sigma), sp.sympify(L), sp.sympify(sigma2)).inv()
    return np.linalg.inv(_M(np.asarray(Sigma, float), float(L), float(sigma2)))


@checked
def precond_dgd_risk(P: Any, Sigma: Any, L: Any, sigma2: Any) -> Any:
    """Risk of preconditioned DEBIASED GD ``(1/L) Σ y_i (x_i − x̄)ᵀ P x_q`` [derived].

    Source: [derived]: Helmert rotation ⇒ ``R_D(P; L) = R((L−1)Pᵀ/L; L−1)`` (the estimator is
    ``x_qᵀ Pᵀ (1/L) Σ (x_i − x̄) y_i``: ``Pᵀ`` in :func:`precond_gd_risk`'s convention; [hpcy25]
    (5.5) writes ``(x_i − x̄)ᵀ Γ x_q``).

    >>> round(precond_dgd_risk(0.897 * np.eye(5), np.eye(5), 40, 0.1), 5)
    0.24321
    """
    if ops_for(P, Sigma, L, sigma2).symbolic:
        Ls = sp.sympify(L)
        return precond_gd_risk(sp.Matrix(P).T * (Ls - 1) / Ls, Sigma, Ls - 1, sigma2)
    return precond_gd_risk(np.asarray(P, float).T * (L - 1) / L, Sigma, L - 1, sigma2)


@checked
def pd_star(Sigma: Any, L: Any, sigma2: Any) -> Any:
    """Optimal debiased preconditioner ``P_D* = (Σ + ((tr Σ + dσ²)/L) I)^{-1}`` [derived].

    Source: [derived] (minimiser of :func:`precond_dgd_risk`).

    >>> round(float(pd_star(np.eye(5), 40, 0.1)[0, 0]), 6)
    0.879121
    """
    if ops_for(Sigma, L, sigma2).symbolic:
        S = sp.Matrix(Sigma)
        d = S.shape[0]
        return (S + (S.trace() + d * sp.sympify(sigma2)) / sp.sympify(L) * sp.eye(d)).inv()
    S = np.asarray(Sigma, float)
    d = S.shape[0]
    return np.linalg.inv(S + (np.trace(S) + d * sigma2) / L * np.eye(d))


# ------------------------------------------------------------------- §5.4 multi-task
@checked
def mt_task_eta(L: Any, s_k: Any, sigma2: Any) -> Any:
    """Per-task optimal restricted DGD step ``η_k = L/(L + |S_k|(1+σ²))`` [derived].

    Source: [hpcy25] §5.4, (A.1); the authors' code (scaling: per-task SNR as single task).

    >>> round(mt_task_eta(48, 4, 0.1), 4)
    0.916
    """
    s = sp.Symbol("s_k", positive=True)
    return dual(lambda L_, sk, s2: L_ / (L_ + sk * (1 + s2)), (_L, s, _S2), (L, s_k, sigma2))


@checked
def mt_shared_p(n_j: Any, n: Any, s: Any, L: Any, sigma2: Any) -> Any:
    """Optimal shared diagonal debiased preconditioner entry ``p_j = n_j L/(n_j L + n s(1+σ²))``
    [derived].

    Source: [derived] Mode II ([derived]; ``n_j`` tasks use coordinate j, all ``|S_k| = s``).

    >>> round(mt_shared_p(2, 2, 4, 48, 0.1), 4), round(mt_shared_p(1, 2, 4, 48, 0.1), 4)
    (0.916, 0.8451)
    """
    nj, nn, ss = (sp.Symbol(v, positive=True) for v in ("n_j", "n", "s"))
    return dual(
        lambda a, b, c, L_, s2: a * L_ / (a * L_ + b * c * (1 + s2)),
        (nj, nn, ss, _L, _S2),
        (n_j, n, s, L, sigma2),
    )


@checked
def mt_task_risk(L: Any, s_k: Any, sigma2: Any) -> Any:
    """Per-task risk of the optimal restricted DGD in the code's scaling (noiseless query)
    [derived]:
    ``|S_k|(D_k + 1)/(L + D_k)``, ``D_k = |S_k|(1+σ²)``.

    Source: [derived].

    >>> round(mt_task_risk(48, 4, 0.1), 4)
    0.4122
    """
    s = sp.Symbol("s_k", positive=True)
    return dual(
        lambda L_, sk, s2: sk * (sk * (1 + s2) + 1) / (L_ + sk * (1 + s2)),
        (_L, s, _S2),
        (L, s_k, sigma2),
    )


#: [hpcy25] Table 2 (H = 3, Mode IV); columns (ω_G1, ω_G3, ω_G2, μ_1, μ_2) (spec §6 item 9).
TABLE2: tuple[tuple[float, ...], ...] = (
    (-0.0316, -0.0689, -0.0893, -3.9911, -7.0742),
    (0.0779, 0.0000, 0.0870, 6.9204, 2.3371),
    (-0.0837, 0.0927, 0.0152, -2.8739, 4.7399),
)


@checked
def table2_sums() -> dict[str, float]:
    """The Mode-IV superposition sums of Table 2 [derived].

    ``Σ_h μ_{h,k}`` (≈ 0), ``Σ_h μ_{h,k} ω_{h,j}`` (≈ 0 off support, ≈ 0.91 on support).

    >>> s = table2_sums(); round(s["task1_G2"], 3), round(s["task2_G3"], 3)
    (0.915, 0.927)
    """
    wG1, wG3, wG2, m1, m2 = (np.array(c) for c in zip(*TABLE2, strict=True))
    return {
        "sum_mu1": float(m1.sum()),
        "sum_mu2": float(m2.sum()),
        "task1_G1": float(m1 @ wG1),
        "task1_G2": float(m1 @ wG2),
        "task1_G3": float(m1 @ wG3),
        "task2_G1": float(m2 @ wG1),
        "task2_G2": float(m2 @ wG2),
        "task2_G3": float(m2 @ wG3),
    }


# ---------------------------------------------------------- App. A.4 softmax-norm concentration
@checked
def softmax_norm_first_order(omega: Any, d: Any) -> Any:
    """First-order form ``L E‖p‖² ≈ e^{dω²}`` used inside ``L̃`` (App. A.4).

    >>> round(softmax_norm_first_order(0.1, 5), 4)
    1.0513
    """
    w = sp.Symbol("omega", real=True)
    return dual(lambda w_, d_: sp.exp(d_ * w_**2), (w, _d), (omega, d))


@checked
def softmax_norm_limit(omega: Any, d: Any) -> Any:
    """``lim_{L→∞} L E‖p‖² = E_q exp(ω²‖q‖²) = (1 − 2ω²)^{-d/2}`` for ``2ω² < 1`` [derived].

    Source: [hpcy25] App. A.4.

    >>> round(softmax_norm_limit(0.2, 5), 3)
    1.232
    """
    check_scalar(
        "omega",
        omega,
        lower=-(0.5**0.5),
        upper=0.5**0.5,
        lower_open=True,
        upper_open=True,
        paper="needs 2ω² < 1 (App. A.4)",
    )
    w = sp.Symbol("omega", real=True)
    return dual(lambda w_, d_: (1 - 2 * w_**2) ** (-d_ / 2), (w, _d), (omega, d))
