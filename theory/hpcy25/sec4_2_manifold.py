"""[hpcy25] §4.2 Stages I–II: the solution manifold ``M(ω)`` (4.6)–(4.8), the effective step
``η(ω)``, and the single-head optimum (4.12).

Source: [hpcy25] §4.2, (4.6)–(4.8), (4.12); the displays lost in our copy are reconstructed.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from theory.common.backend import check_scalar, dual, twin
from theory.common.symbols import omega as _OMEGA
from theory.common.symbols import sigma2 as _S2
from theory.hpcy25.domains import checked
from theory.hpcy25.sec4_1_approx_loss import c_L_expr, kappa_expr

__all__ = [
    "ltilde_reduced",
    "m_star",
    "m_star_fn",
    "ltilde_star",
    "ltilde_star_fn",
    "eta_of_omega",
    "eta_of_omega_fn",
    "eta_series",
    "single_head_ltilde",
    "single_head_optimum",
    "nw_bandwidth",
    "m_sym",
    "omega_s",
]

m_sym = sp.Symbol("m", real=True)  # aggregate OV weight of the positive heads, m = Σ_{H+} μ_h
omega_s = sp.Symbol("omega", positive=True)


def _ltilde_reduced(om: Any, m_: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
    return 1 + s2 - 4 * om * m_ + 4 * m_**2 * (om**2 + c_L_expr(L_, s2) * sp.sinh(d_ * om**2))


@checked
def ltilde_reduced(omega: Any, m: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """``L̃`` on the homogeneous zero-sum configuration (``ω_h = ±ω``, ``Σ_{H±} μ_h = ±m``).

    Source: [hpcy25] (4.6).  Also the reduced two-head potential
    ``L̃_red(ω, μ)`` of App. B with ``m = μ``.

    .. math::

        \\tilde L = 1+\\sigma^2 - 4\\omega m + 4m^2\\big(\\omega^2 + c_L\\sinh(d\\omega^2)\\big)

    >>> round(ltilde_reduced(0.1, 2.0, 5, 40, 0.1), 10)
    0.4820091678
    """
    return dual(
        _ltilde_reduced,
        (omega_s, m_sym, sp.Symbol("d"), sp.Symbol("L"), _S2),
        (omega, m, d, L, sigma2),
    )


def _m_star(om: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
    return om / (2 * (om**2 + c_L_expr(L_, s2) * sp.sinh(d_ * om**2)))


@checked
def m_star(omega: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """Optimal aggregate OV weight on the manifold ``M(ω)``: ``m*(ω) = ½ argmin ‖μ‖₁``.

    Source: [hpcy25] (4.6)–(4.7); our reading (high for the formula, medium for the paper's
    normalisation of "μ(ω)": the invariant tested is ``η(ω) = 2ω m*(ω)``).

    .. math:: m^*(\\omega) = \\frac{\\omega}{2(\\omega^2 + c_L\\sinh(d\\omega^2))}

    >>> round(m_star(0.1267, 5, 40, 0.1), 4)
    3.4689
    """
    check_scalar("omega", omega, lower=0.0, lower_open=True, paper="manifold needs ω > 0")
    return dual(_m_star, (omega_s, sp.Symbol("d"), sp.Symbol("L"), _S2), (omega, d, L, sigma2))


m_star_fn = checked(
    twin(_m_star, (omega_s, sp.Symbol("d"), sp.Symbol("L"), _S2)),
    args=("omega", "d", "L", "sigma2"),
)


def _ltilde_star(om: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
    return 1 + s2 - 1 / (1 + c_L_expr(L_, s2) * sp.sinh(d_ * om**2) / om**2)


@checked
def ltilde_star(omega: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """Minimum of ``L̃`` over ``Θ(ω)`` (the value on the manifold), strictly increasing in ω.

    Source: [hpcy25] (4.6), App. D.2.

    .. math:: \\tilde L^*(\\omega) = 1+\\sigma^2 - \\frac{1}{1 + c_L\\sinh(d\\omega^2)/\\omega^2}

    >>> round(ltilde_star(0.13, 5, 40, 0.1), 5)
    0.22101
    """
    check_scalar("omega", omega, lower=0.0, lower_open=True, paper="manifold needs ω > 0")
    return dual(_ltilde_star, (omega_s, sp.Symbol("d"), sp.Symbol("L"), _S2), (omega, d, L, sigma2))


ltilde_star_fn = checked(
    twin(_ltilde_star, (omega_s, sp.Symbol("d"), sp.Symbol("L"), _S2)),
    args=("omega", "d", "L", "sigma2"),
)


def _eta_of_omega(om: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
    return 1 / (1 + c_L_expr(L_, s2) * sp.sinh(d_ * om**2) / om**2)


@checked
def eta_of_omega(omega: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """Effective debiased-GD step on the manifold, ``η(ω) = 2ω m*(ω)``.

    Source: [hpcy25] (4.8)–(4.10).

    .. math:: \\eta(\\omega) = \\frac{1}{1 + c_L\\sinh(d\\omega^2)/\\omega^2} \\to \\frac1\\kappa

    >>> round(eta_of_omega(0.1267, 5, 40, 0.1), 5)
    0.87901
    """
    check_scalar("omega", omega, lower=0.0, lower_open=True, paper="manifold needs ω > 0")
    return dual(
        _eta_of_omega, (omega_s, sp.Symbol("d"), sp.Symbol("L"), _S2), (omega, d, L, sigma2)
    )


eta_of_omega_fn = checked(
    twin(_eta_of_omega, (omega_s, sp.Symbol("d"), sp.Symbol("L"), _S2)),
    args=("omega", "d", "L", "sigma2"),
)


@checked
def eta_series(omega: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """Expansion (4.8) of ``ω m*(ω)`` to order ω⁴ [derived].

    Source: [hpcy25] (4.8); [derived] expansion.

    .. math::

        \\omega m^*(\\omega) = \\frac{1}{2\\kappa}
          - \\frac{c_L d^3}{12\\kappa^2}\\omega^4 + O(\\omega^8)

    >>> round(eta_series(0.0, 5, 40, 0.1), 6)
    0.43956
    """

    def b(om: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
        k = kappa_expr(d_, L_, s2)
        return 1 / (2 * k) - c_L_expr(L_, s2) * d_**3 / (12 * k**2) * om**4

    return dual(b, (omega_s, sp.Symbol("d"), sp.Symbol("L"), _S2), (omega, d, L, sigma2))


# --------------------------------------------------------------------------- single head
def _single(om: Any, mu_: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
    return 1 + s2 - 2 * mu_ * om + mu_**2 * (om**2 + c_L_expr(L_, s2) * sp.exp(d_ * om**2))


@checked
def single_head_ltilde(omega: Any, mu: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """``L̃₁(ω, μ)`` for one head (= :func:`ltilde` with H = 1).

    Source: [hpcy25] §4 (restating Chen et al. 2024a).

    .. math:: \\tilde L_1 = 1+\\sigma^2 - 2\\mu\\omega + \\mu^2(\\omega^2 + c_L e^{d\\omega^2})

    >>> round(single_head_ltilde(0, 0, 5, 40, 0.1), 4)
    1.1
    """
    return dual(
        _single,
        (_OMEGA, sp.Symbol("mu"), sp.Symbol("d"), sp.Symbol("L"), _S2),
        (omega, mu, d, L, sigma2),
    )


@checked
def single_head_optimum(d: Any, L: Any, sigma2: Any) -> tuple[Any, Any, Any]:
    """Minimiser of ``L̃₁``: ``ω* = 1/√d``, ``μ* = √d/(1 + e(1+σ²)d/L)``, value
    ``1+σ² − 1/(1+e(1+σ²)d/L)``.

    Source: [hpcy25] §4 (Chen et al. 2024a), code ``plots.ipynb``.

    Notes
    -----
    Only the optimum of the *approximate* loss: the exact single-head risk is minimised near
    ω ≈ 0.50–0.55, which the MC route checks.

    >>> [round(v, 4) for v in single_head_optimum(5, 40, 0.1)]
    [0.4472, 1.6277, 0.3721]
    """

    def w(d_: Any, L_: Any, s2: Any) -> sp.Expr:
        return 1 / sp.sqrt(d_)

    def m(d_: Any, L_: Any, s2: Any) -> sp.Expr:
        return sp.sqrt(d_) / (1 + sp.E * (1 + s2) * d_ / L_)

    def v(d_: Any, L_: Any, s2: Any) -> sp.Expr:
        return 1 + s2 - 1 / (1 + sp.E * (1 + s2) * d_ / L_)

    syms = (sp.Symbol("d", positive=True), sp.Symbol("L", positive=True), _S2)
    vals = (d, L, sigma2)
    return dual(w, syms, vals), dual(m, syms, vals), dual(v, syms, vals)


@checked
def nw_bandwidth(omega: Any) -> Any:
    """Nadaraya–Watson reading of one head: on the sphere ``‖x‖² = ‖q‖² = d`` the softmax kernel
    ``exp(ω xᵀq) ∝ exp(−‖x − q‖²/(2h²))`` with bandwidth ``h = ω^{-1/2}`` (``h = d^{1/4}`` at the
    single-head optimum ω = 1/√d).

    Source: [hpcy25] (4.12) and §4 (Chen et al. 2024a).

    >>> nw_bandwidth(0.25)
    2.0
    """
    check_scalar("omega", omega, lower=0.0, lower_open=True, paper="NW bandwidth needs ω > 0")
    return dual(lambda w: 1 / sp.sqrt(w), (_OMEGA,), (omega,))
