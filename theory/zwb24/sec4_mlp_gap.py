"""[zwb24] §4 Benefits of the MLP component: Theorem 4.1, the approximation gap between the LSA
and the LTB (GD-β) classes.

The paper's printed inequality of Thm 4.1 was lost; the floor, ``L`` and ``U`` below are the
bounds proved here.  Tests use these, never a
guessed paper constant.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.common.backend import dual, ops_for
from theory.zwb24.domains import checked
from theory.zwb24.sec3_model import check_omega_invertible, num_setting, whiten
from theory.zwb24.sec5_gd_beta import optimal_risk, per_direction, spectral_sum, spectrum

__all__ = [
    "lsa_risk_floor",
    "gap_lower_bound",
    "gap_lower_bound_simplified",
    "gd0_gap",
    "gap_upper_bound",
    "gap_upper_bound_eig",
    "gap_exact_d1_noiseless",
]


@checked
def lsa_risk_floor(H: Any, Psi: Any, beta_star: Any, sigma2: Any, N: Any) -> Any:
    r"""Risk floor of every LSA: ``R(f) ≥ σ² + 2(‖β*‖_H² + tr(HΨ))/(N+2)`` [derived].

    Source: [zwb24] Theorem 4.1 (printed form lost).

    .. math::

        R(f) \ge \sigma^2 + \frac{2}{N+2}\big(\|\beta^*\|_H^2 + \operatorname{tr}(H\Psi)\big),
        \qquad f \in F_{LSA}

    Parameters
    ----------
    H, Psi : PSD ``(d, d)``; beta_star : β* ``(d,)``; sigma2 : σ²; N : context length.

    Notes
    -----
    Proof: given the task, the LSA output is ``xᵀ s`` with ``s`` an average of i.i.d.
    products of jointly Gaussian factors; Isserlis gives ``Var ≥ 2 (mean)²``, and pointwise
    minimisation gives the factor ``2/(N+2)``.

    Examples
    --------
    >>> round(lsa_risk_floor([[1.0]], [[1.0]], [2.0], 0.0, 5), 12)   # 10/7
    1.428571428571
    """
    ops = ops_for(H, Psi, beta_star, sigma2, N)
    Hm, Pm, bs = ops.mat(H), ops.mat(Psi), ops.vec(beta_star)
    return ops.out(sigma2 + 2 * (ops.dot(bs, Hm @ bs) + ops.tr(Hm @ Pm)) / (N + 2))


@checked
def gap_lower_bound(H: Any, Psi: Any, beta_star: Any, sigma2: Any, N: Any) -> Any:
    r"""``L = 2(‖β*‖_H² + tr HΨ)/(N+2) − (R* − σ²) ≤ inf_LSA R − inf_LTB R`` [derived].

    Source: [zwb24] Theorem 4.1.

    >>> round(gap_lower_bound([[1.0]], [[1.0]], [2.0], 0.0, 5), 12)   # 8/7 (Appendix A row 1)
    1.142857142857
    """
    return lsa_risk_floor(H, Psi, beta_star, sigma2, N) - optimal_risk(H, Psi, sigma2, N)


@checked
def gap_lower_bound_simplified(H: Any, Psi: Any, beta_star: Any, sigma2: Any, N: Any) -> float:
    r"""``2(‖β*‖_H² − (r+1) tr(HΨ) − r σ²)/(N+2) ≤ L`` with ``r = rank(Ψ̄)`` [derived].

    Source: [derived], "Simplified" (uses ``R* − σ² ≤ ((r+1)tr HΨ + rσ²)/(N+1)``).

    >>> gap_lower_bound_simplified([[1.0]], [[1.0]], [2.0], 0.0, 5) <= 8 / 7
    True
    """
    Hm, Pm, s2, n, bs = num_setting(H, Psi, sigma2, N, beta_star)
    P, _ = whiten(Hm, Pm, bs)
    w = np.linalg.eigvalsh(P)
    r = int(np.sum(w > 1e-10 * max(1.0, float(w.max()))))
    return float(2 * (bs @ Hm @ bs - (r + 1) * np.trace(Hm @ Pm) - r * s2) / (n + 2))


@checked
def gd0_gap(H: Any, Psi: Any, beta_star: Any, sigma2: Any, N: Any) -> Any:
    r"""Upper bound from the optimal GD-0 (``b = 0, φ = 0``): ``R*(Ψ + β*β*ᵀ) − R*(Ψ)``.

    Source: [zwb24] §2.1 "GD-0 / LSA baseline" and Thm 4.1.

    >>> round(gd0_gap([[1.0]], [[1.0]], [2.0], 0.0, 5), 12)      # 8/7 (exact case d = 1, σ = 0)
    1.142857142857
    """
    ops = ops_for(H, Psi, beta_star, sigma2, N)
    Pm, bs = ops.mat(Psi), ops.vec(beta_star)
    return optimal_risk(H, Pm + ops.outer(bs, bs), sigma2, N) - optimal_risk(H, Psi, sigma2, N)


@checked
def gap_upper_bound_eig(lams: Any, mu_coords: Any, sigma2: Any, N: Any) -> Any:
    r"""``U = Σ_i μ̄_i² (g_i² + f)/((N+1) g_i² + f)``, ``g_i = Nλ_i/((N+1)λ_i + c)``, ``f = Σg_i²``.

    Source: [derived]: LSA with ``Γ = Γ*``, ``φ = 0`` and the
    optimal centring ``b``.  ``μ̄_i`` are the coordinates of ``H^{1/2}β*`` in the eigenbasis of
    Ψ̄ (eigenvalues ``λ_i``).

    >>> round(gap_upper_bound_eig([1.0], [2.0], 0.0, 5), 12)      # 8/7
    1.142857142857
    """
    lam, symbolic = spectrum(lams, mu_coords, sigma2, N)
    mu, _ = spectrum(mu_coords, sigma2) if symbolic else (np.asarray(mu_coords, float), False)
    if not symbolic:
        check_omega_invertible(lam.sum(), sigma2, "sum(lams)")
    c = spectral_sum(lam, symbolic) + sigma2
    g = per_direction(_step, (_LAM, _C, _N), (lam,), (c, N), symbolic)
    f = spectral_sum([gi**2 for gi in g] if symbolic else np.asarray(g) ** 2, symbolic)
    if not symbolic and f == 0.0:  # Ψ̄ = 0: Γ* = 0, the LSA predicts 0 from the mean part
        return float(mu @ mu)
    terms = per_direction(_centred_term, (_MU, _G, _F, _N), (mu, g), (f, N), symbolic)
    r = spectral_sum(terms, symbolic)
    return r if symbolic else float(r)


_LAM, _C, _N, _MU, _G, _F = sp.symbols("lambda_i c N mu_i g_i f")


def _step(lam: Any, c: Any, N: Any) -> Any:
    """``g_i = Nλ_i/((N+1)λ_i + c)``: the eigenvalue of ``Γ̄*`` along direction i (Thm 5.2)."""
    return N * lam / ((N + 1) * lam + c)


def _centred_term(mu: Any, g: Any, f: Any, N: Any) -> Any:
    """One direction of ``U``: ``μ̄_i² (g_i² + f)/((N+1) g_i² + f)``."""
    return mu**2 * (g**2 + f) / ((N + 1) * g**2 + f)


@checked
def gap_upper_bound(H: Any, Psi: Any, beta_star: Any, sigma2: Any, N: Any) -> float:
    """Matrix wrapper of :func:`gap_upper_bound_eig` (numeric; eigendecomposition of Ψ̄).

    >>> round(gap_upper_bound(np.eye(2), np.eye(2), [2.1213203435596424] * 2, 0.25, 10), 5)
    2.07692
    """
    Hm, Pm, s2, n, bs = num_setting(H, Psi, sigma2, N, beta_star)
    P, mu = whiten(Hm, Pm, bs)
    lam, V = np.linalg.eigh(P)
    return gap_upper_bound_eig(np.clip(lam, 0.0, None), V.T @ mu, s2, n)


@checked
def gap_exact_d1_noiseless(beta_star_H_norm2: Any, N: Any) -> Any:
    r"""Exact gap at ``d = 1, σ = 0``: ``2‖β*‖_H²/(N+2)`` (``= L = U = GD0gap``).

    Source: [derived]; Appendix A last bullet (``N=20, μ=4``: 1.454545).

    >>> round(gap_exact_d1_noiseless(16.0, 20), 6)
    1.454545
    """
    return dual(_exact_gap, (_B2, _N), (beta_star_H_norm2, N))


_B2 = sp.Symbol("b2", nonnegative=True)


def _exact_gap(b2: Any, N: Any) -> Any:
    """``2‖β*‖_H²/(N+2)``."""
    return 2 * b2 / (N + 2)
