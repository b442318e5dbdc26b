"""hpcy25 §4: the approximate loss, its manifold, the optimality reduction and the closed-form risks.

Every formula cites spec 001 (``../shared/specs/001_multihead_softmax.md``), whose tags say where it
comes from: [P] paper prose, [C] authors' code, [R] reconstructed, [D] derived here.  The paper's
displayed math was lost in extraction, so the spec is the authority.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy as sp

from theory.common.evaluate import is_symbolic, lambdified
from theory.common.symbols import eta as _ETA
from theory.common.symbols import omega as _OMEGA
from theory.common.symbols import sigma2 as _S2
from theory.common.symbols import xi as _XI
from theory.softmax_multihead._dual import check_scalar, dual, twin

__all__ = [
    "c_L", "kappa", "ltilde", "ltilde_fn", "ltilde_grad", "ltilde_series", "lower_bound_45",
    "ltilde_reduced", "m_star", "m_star_fn", "ltilde_star", "ltilde_star_fn", "eta_of_omega",
    "eta_of_omega_fn", "eta_series", "A2_eigenvalues", "ltilde_inf", "ltilde_inf_fn", "eta_star",
    "eta_star_fn", "single_head_ltilde", "single_head_optimum", "gd_risk", "gd_risk_fn",
    "gd_eta_star", "gd_risk_star", "dgd_risk", "dgd_risk_fn", "dgd_eta_star", "dgd_risk_star",
    "gd_risk_limit", "gd_risk_limit_fn", "eta_limit", "mp_stieltjes", "bayes_risk_limit",
    "bayes_risk_limit_fn", "bayes_gap_bound", "bayes_gap_bound_fn", "m_sym",
    "bayes_risk_given_design", "nw_bandwidth",
]

m_sym = sp.Symbol("m", real=True)  # aggregate OV weight of the positive heads, m = Σ_{H+} μ_h
_ks = sp.Symbol("k_s", positive=True)  # the factor multiplying ω_h ω_h' inside exp (= d)


def _check(d_: Any, L_: Any, sigma2_: Any) -> None:
    check_scalar("d", d_, lower=0.0, lower_open=True, paper="hpcy25 §1.1: dimension d > 0")
    check_scalar("L", L_, lower=0.0, lower_open=True, paper="hpcy25 §1.1: prompt length L > 0")
    check_scalar("sigma2", sigma2_, lower=0.0, paper="hpcy25 §1.1: noise variance σ² ≥ 0")


# ------------------------------------------------------------------------------ constants
def _c_L(L_: Any, sigma2_: Any) -> sp.Expr:
    return (1 + sigma2_) / L_


def c_L(L: Any, sigma2: Any) -> Any:
    """Variance coefficient ``c_L = (1+σ²)/L``.

    Source: [hpcy25] Prop. 4.1 (spec 001 §0 conventions).

    .. math:: c_L = \\frac{1+\\sigma^2}{L}

    >>> round(c_L(40, 0.1), 12)
    0.0275
    """
    return dual(_c_L, (sp.Symbol("L"), _S2), (L, sigma2))


def _kappa(d_: Any, L_: Any, sigma2_: Any) -> sp.Expr:
    return 1 + d_ * (1 + sigma2_) / L_


def kappa(d: Any, L: Any, sigma2: Any) -> Any:
    """``κ = 1 + d(1+σ²)/L`` (spec 001 §0 shorthand [D]); ``1/κ`` is the low-order stationary
    value of ``⟨ω, μ⟩`` (4.3) and the optimal effective step ``η*`` (D.24).

    .. math:: \\kappa = 1 + \\frac{d(1+\\sigma^2)}{L}

    >>> round(1 / kappa(5, 40, 0.1), 6)
    0.879121
    """
    _check(d, L, sigma2)
    return dual(_kappa, (sp.Symbol("d"), sp.Symbol("L"), _S2), (d, L, sigma2))


# ------------------------------------------------------------------------ approximate loss
@functools.cache
def _vec_syms(H: int) -> tuple[tuple[sp.Symbol, ...], tuple[sp.Symbol, ...]]:
    om = tuple(sp.Symbol(f"omega_{h + 1}", real=True) for h in range(H))
    mu_ = tuple(sp.Symbol(f"mu_{h + 1}", real=True) for h in range(H))
    return om, mu_


def _ltilde(om: Sequence[Any], mu_: Sequence[Any], d_: Any, L_: Any, s2: Any,
            ks: Any = None) -> sp.Expr:
    ks = d_ if ks is None else ks
    H = len(om)
    cL = _c_L(L_, s2)
    lin = sum(m_ * o for m_, o in zip(mu_, om))
    quad = sum(mu_[h] * mu_[g] * (om[h] * om[g] + cL * sp.exp(ks * om[h] * om[g]))
               for h in range(H) for g in range(H))
    return 1 + s2 - 2 * lin + quad


@functools.cache
def _ltilde_lambda(H: int) -> Any:
    om, mu_ = _vec_syms(H)
    syms = (*om, *mu_, sp.Symbol("d"), sp.Symbol("L"), _S2, _ks)
    return lambdified(syms, _ltilde(om, mu_, sp.Symbol("d"), sp.Symbol("L"), _S2, _ks))


def ltilde_fn(omega: Any, mu: Any, d: Any, L: Any, sigma2: Any, kernel_scale: Any = None) -> Any:
    """Numeric twin of :func:`ltilde`; ``omega``/``mu`` have the head axis FIRST (H, ...)."""
    om = [np.asarray(o, dtype=float) for o in omega]
    mus = [np.asarray(m_, dtype=float) for m_ in mu]
    ks = d if kernel_scale is None else kernel_scale
    with np.errstate(over="ignore"):
        out = _ltilde_lambda(len(om))(*om, *mus, d, L, sigma2, ks)
    arr = np.asarray(out, dtype=float)
    return float(arr) if arr.ndim == 0 else arr


def ltilde(omega: Sequence[Any], mu: Sequence[Any], d: Any, L: Any, sigma2: Any, *,
           kernel_scale: Any = None) -> Any:
    """Approximate ICL loss ``L̃(ω, μ)`` of H reparametrised softmax heads.

    Source: [hpcy25] Proposition 4.1; spec 001 R1 ([R], high: the formula is ``approx_loss`` in the
    authors' ``src/funcs.py``).

    .. math::

        \\tilde L(\\omega,\\mu) = 1+\\sigma^2 - 2\\langle\\mu,\\omega\\rangle
          + \\mu^\\top\\big[\\omega\\omega^\\top + c_L\\, e^{\\circ\\, d\\,\\omega\\omega^\\top}\\big]\\mu,
        \\qquad c_L = \\frac{1+\\sigma^2}{L}

    (``e^{∘ ·}`` entrywise).

    Parameters
    ----------
    omega, mu : sequences of length H (KQ scales ω_h, OV weights μ_h); numbers, numpy arrays
        (broadcast over grids, head axis first) or SymPy symbols.
    d : dimension d > 0;  L : prompt length L > 0;  sigma2 : noise variance σ² ≥ 0.
    kernel_scale : the factor multiplying ``ω_h ω_h'`` inside the exponential; ``None`` means ``d``
        (the paper).  Any other value is a FAULT used only by negative controls.

    Returns
    -------
    float (numbers), ndarray (grids) or sympy.Expr.

    Notes
    -----
    Valid for small ``|ω_h|`` (order ``d^{-1/2}`` or smaller), moderate ``μ_h`` and large ``L``; the
    error constants of the formal Prop. C.1 are lost (spec §6 item 1).  Exact at ``ω = 0`` [D]; on
    the two-head manifold the gap to the true risk is ``(η/L)(2 − ηκ) + o(1/L)`` [D].  Loss has no
    factor 1/2 (spec §6 item 3).

    References
    ----------
    He, Pan, Chen, Yang (2025), arXiv:2503.12734.

    Examples
    --------
    >>> round(ltilde([0.0], [1.0], 5, 40, 0.1), 12)
    1.1275
    """
    _check(d, L, sigma2)
    if len(omega) != len(mu) or len(omega) == 0:
        raise ValueError(f"omega and mu must have the same length H ≥ 1 (hpcy25 (3.1)), got "
                         f"{len(omega)} and {len(mu)}")
    if is_symbolic(*omega, *mu, d, L, sigma2, kernel_scale):
        return _ltilde([sp.sympify(o) for o in omega], [sp.sympify(m_) for m_ in mu],
                       sp.sympify(d), sp.sympify(L), sp.sympify(sigma2),
                       None if kernel_scale is None else sp.sympify(kernel_scale))
    return ltilde_fn(omega, mu, d, L, sigma2, kernel_scale)


def ltilde_grad(omega: Any, mu: Any, d: Any, L: Any, sigma2: Any) -> tuple[Any, Any]:
    """Gradients of ``L̃`` (written out by hand from spec 001 R1 [D]; tested against ``sp.diff``).

    Source: spec 001 R1 (matches ``gradients()`` of ``src/funcs.py`` up to its factor 1/2).

    .. math::

        \\nabla_\\mu \\tilde L = -2\\omega + 2A(\\omega)\\mu, \\quad
        \\nabla_\\omega \\tilde L = -2\\mu + 2\\langle\\mu,\\omega\\rangle\\mu
          + 2 d c_L \\big(E(\\omega)\\circ \\mu\\mu^\\top\\big)\\omega

    with ``A = ωωᵀ + c_L E``, ``E_{hh'} = exp(d ω_h ω_h')``.  Works on numpy arrays (H,) and on
    SymPy ``Matrix`` columns.

    >>> g_om, g_mu = ltilde_grad(np.zeros(2), np.zeros(2), 5, 40, 0.1)
    >>> float(np.abs(g_om).max() + np.abs(g_mu).max())
    0.0
    """
    if is_symbolic(omega, mu, d, L, sigma2):
        om = sp.Matrix(omega)
        mu_ = sp.Matrix(mu)
        cL = _c_L(sp.sympify(L), sp.sympify(sigma2))
        E = sp.Matrix(len(om), len(om), lambda i, j: sp.exp(sp.sympify(d) * om[i] * om[j]))
        A = om * om.T + cL * E
        g_mu = -2 * om + 2 * A * mu_
        s = (mu_.T * om)[0, 0]
        g_om = -2 * mu_ + 2 * s * mu_ + 2 * d * cL * E.multiply_elementwise(mu_ * mu_.T) * om
        return g_om, g_mu
    om = np.asarray(omega, dtype=float)
    mu_ = np.asarray(mu, dtype=float)
    cL = (1.0 + sigma2) / L
    E = np.exp(d * np.outer(om, om))
    A = np.outer(om, om) + cL * E
    g_mu = -2 * om + 2 * A @ mu_
    g_om = -2 * mu_ + 2 * (mu_ @ om) * mu_ + 2 * d * cL * (E * np.outer(mu_, mu_)) @ om
    return g_om, g_mu


def ltilde_series(omega: Any, mu: Any, d: Any, L: Any, sigma2: Any, K: int) -> Any:
    """Stage-II rewrite of ``L̃`` as a power series, truncated after ``k = K`` (numbers or mpmath).

    Source: [hpcy25] §4.2 Stage II; spec 001 R3 ([D] exact rewrite).

    .. math::

        \\tilde L = 1+\\sigma^2 - 2s + \\kappa s^2 + c_L\\langle 1,\\mu\\rangle^2
          + c_L \\sum_{k\\ge 2} \\frac{d^k}{k!}\\langle\\omega^{\\circ k},\\mu\\rangle^2,
        \\quad s = \\langle\\omega,\\mu\\rangle

    >>> round(float(ltilde_series([0.1, -0.1], [2.0, -2.0], 5, 40, 0.1, 30)), 10)
    0.4820091678
    """
    om = list(omega)
    mu_ = list(mu)
    cL = (1 + sigma2) / L
    s = sum(a * b for a, b in zip(om, mu_))
    kap = 1 + d * cL
    out = 1 + sigma2 - 2 * s + kap * s**2 + cL * sum(mu_) ** 2
    fact = 1
    for k in range(2, K + 1):
        fact *= k
        out += cL * d**k / fact * sum(m_ * o**k for m_, o in zip(mu_, om)) ** 2
    return out


def _lower_bound(s: Any, mu_l1: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
    cL = _c_L(L_, s2)
    x = d_ * s**2 / mu_l1**2
    return 1 + s2 - 2 * s + _kappa(d_, L_, s2) * s**2 + cL * mu_l1**2 * (sp.sinh(x) - x)


def lower_bound_45(s: Any, mu_l1: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """Lower bound (4.5) on ``L̃`` for sign-matched ``(ω, μ)`` at fixed ``s = ⟨ω,μ⟩``, ``‖μ‖₁``.

    Source: [hpcy25] eq. (4.5); spec 001 R3 ([R], high; Jensen + dropping even terms).  The odd-k
    tail is summed in closed form (``Σ_{k≥3 odd} x^k/k! = sinh x − x``) [D].

    .. math::

        \\tilde L \\ge 1+\\sigma^2 - 2s + \\kappa s^2
          + c_L \\|\\mu\\|_1^2\\big(\\sinh x - x\\big), \\qquad x = \\frac{d s^2}{\\|\\mu\\|_1^2}

    Equality iff ``Σ_h μ_h = 0`` and ``|ω_h| = ω`` on the support of ``μ`` (4.4).

    >>> round(lower_bound_45(0.4, 4.0, 5, 40, 0.1), 10)
    0.4820091678
    """
    _check(d, L, sigma2)
    return dual(_lower_bound, (sp.Symbol("s"), sp.Symbol("l1"), sp.Symbol("d"), sp.Symbol("L"),
                               _S2), (s, mu_l1, d, L, sigma2))


# --------------------------------------------------------------------- solution manifold
def _ltilde_reduced(om: Any, m_: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
    return 1 + s2 - 4 * om * m_ + 4 * m_**2 * (om**2 + _c_L(L_, s2) * sp.sinh(d_ * om**2))


def ltilde_reduced(omega: Any, m: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """``L̃`` on the homogeneous zero-sum configuration (``ω_h = ±ω``, ``Σ_{H±} μ_h = ±m``).

    Source: [hpcy25] (4.6); spec 001 R4 ([R], high).  Also the reduced two-head potential
    ``L̃_red(ω, μ)`` of App. B with ``m = μ`` (spec R10).

    .. math:: \\tilde L = 1+\\sigma^2 - 4\\omega m + 4m^2\\big(\\omega^2 + c_L\\sinh(d\\omega^2)\\big)

    >>> round(ltilde_reduced(0.1, 2.0, 5, 40, 0.1), 10)
    0.4820091678
    """
    _check(d, L, sigma2)
    return dual(_ltilde_reduced, (omega_s, m_sym, sp.Symbol("d"), sp.Symbol("L"), _S2),
                (omega, m, d, L, sigma2))


omega_s = sp.Symbol("omega", positive=True)


def _m_star(om: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
    return om / (2 * (om**2 + _c_L(L_, s2) * sp.sinh(d_ * om**2)))


def m_star(omega: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """Optimal aggregate OV weight on the manifold ``M(ω)``: ``m*(ω) = ½ argmin ‖μ‖₁``.

    Source: [hpcy25] (4.6)–(4.7); spec 001 R4 ([R], high for the formula, medium for the paper's
    normalisation of "μ(ω)": the invariant tested is ``η(ω) = 2ω m*(ω)``).

    .. math:: m^*(\\omega) = \\frac{\\omega}{2(\\omega^2 + c_L\\sinh(d\\omega^2))}

    >>> round(m_star(0.1267, 5, 40, 0.1), 4)
    3.4689
    """
    check_scalar("omega", omega, lower=0.0, lower_open=True, paper="manifold needs ω > 0")
    _check(d, L, sigma2)
    return dual(_m_star, (omega_s, sp.Symbol("d"), sp.Symbol("L"), _S2), (omega, d, L, sigma2))


m_star_fn = twin(_m_star, (omega_s, sp.Symbol("d"), sp.Symbol("L"), _S2))


def _ltilde_star(om: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
    return 1 + s2 - 1 / (1 + _c_L(L_, s2) * sp.sinh(d_ * om**2) / om**2)


def ltilde_star(omega: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """Minimum of ``L̃`` over ``Θ(ω)`` (the value on the manifold), strictly increasing in ω.

    Source: [hpcy25] (4.6), App. D.2; spec 001 R4, R8.

    .. math:: \\tilde L^*(\\omega) = 1+\\sigma^2 - \\frac{1}{1 + c_L\\sinh(d\\omega^2)/\\omega^2}

    >>> round(ltilde_star(0.13, 5, 40, 0.1), 5)
    0.22101
    """
    check_scalar("omega", omega, lower=0.0, lower_open=True, paper="manifold needs ω > 0")
    _check(d, L, sigma2)
    return dual(_ltilde_star, (omega_s, sp.Symbol("d"), sp.Symbol("L"), _S2),
                (omega, d, L, sigma2))


ltilde_star_fn = twin(_ltilde_star, (omega_s, sp.Symbol("d"), sp.Symbol("L"), _S2))


def _eta_of_omega(om: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
    return 1 / (1 + _c_L(L_, s2) * sp.sinh(d_ * om**2) / om**2)


def eta_of_omega(omega: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """Effective debiased-GD step on the manifold, ``η(ω) = 2ω m*(ω)``.

    Source: [hpcy25] (4.8)–(4.10); spec 001 R4.

    .. math:: \\eta(\\omega) = \\frac{1}{1 + c_L\\sinh(d\\omega^2)/\\omega^2} \\to \\frac1\\kappa

    >>> round(eta_of_omega(0.1267, 5, 40, 0.1), 5)
    0.87901
    """
    check_scalar("omega", omega, lower=0.0, lower_open=True, paper="manifold needs ω > 0")
    _check(d, L, sigma2)
    return dual(_eta_of_omega, (omega_s, sp.Symbol("d"), sp.Symbol("L"), _S2),
                (omega, d, L, sigma2))


eta_of_omega_fn = twin(_eta_of_omega, (omega_s, sp.Symbol("d"), sp.Symbol("L"), _S2))


def eta_series(omega: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """Expansion (4.8) of ``ω m*(ω)`` to order ω⁴ [D].

    Source: [hpcy25] (4.8); spec 001 R4 ([D] expansion).

    .. math:: \\omega m^*(\\omega) = \\frac{1}{2\\kappa} - \\frac{c_L d^3}{12\\kappa^2}\\omega^4 + O(\\omega^8)

    >>> round(eta_series(0.0, 5, 40, 0.1), 6)
    0.43956
    """
    def b(om: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
        k = _kappa(d_, L_, s2)
        return 1 / (2 * k) - _c_L(L_, s2) * d_**3 / (12 * k**2) * om**4

    return dual(b, (omega_s, sp.Symbol("d"), sp.Symbol("L"), _S2), (omega, d, L, sigma2))


def A2_eigenvalues(omega: Any, d: Any, L: Any, sigma2: Any) -> tuple[Any, Any]:
    """Eigen-split of the 2×2 quadratic form ``A₂`` of Theorem 4.2(ii) (App. D.2, (D.19)).

    Source: [hpcy25] Thm 4.2(ii), (D.19); spec 001 R8 ([R], high).

    .. math::

        A_2 = a_-(1,-1)(1,-1)^\\top + a_+(1,1)(1,1)^\\top,\\quad
        a_- = \\omega^2 + c_L\\sinh x,\\ a_+ = c_L(\\cosh x - 1),\\ x = d\\omega^2

    (eigenvalues ``2a_−``, ``2a_+``; both ≥ 0, so ``L̃`` is convex on ``Θ(ω)``).

    >>> [round(v, 6) for v in A2_eigenvalues(0.0, 5, 40, 0.1)]
    [0.0, 0.0]
    """
    def am(om: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
        return om**2 + _c_L(L_, s2) * sp.sinh(d_ * om**2)

    def ap(om: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
        return _c_L(L_, s2) * (sp.cosh(d_ * om**2) - 1)

    syms = (_OMEGA, sp.Symbol("d"), sp.Symbol("L"), _S2)
    return dual(am, syms, (omega, d, L, sigma2)), dual(ap, syms, (omega, d, L, sigma2))


def A2_matrix(omega: Any, d: Any, L: Any, sigma2: Any) -> sp.Matrix:
    """The matrix ``A₂`` of (D.19) (SymPy), for the eigen-split identity test."""
    om, d_, L_, s2 = (sp.sympify(v) for v in (omega, d, L, sigma2))
    x = d_ * om**2
    cL = _c_L(L_, s2)
    return (om**2 * sp.Matrix([[1, -1], [-1, 1]])
            + cL * sp.Matrix([[sp.exp(x) - 1, sp.exp(-x) - 1], [sp.exp(-x) - 1, sp.exp(x) - 1]]))


def _ltilde_inf(d_: Any, L_: Any, s2: Any) -> sp.Expr:
    return 1 + s2 - 1 / _kappa(d_, L_, s2)


def ltilde_inf(d: Any, L: Any, sigma2: Any) -> Any:
    """``inf_Θ L̃ = 1 + σ² − 1/κ = σ² + d(1+σ²)/(L + d(1+σ²))`` (D.23), approached as ω → 0.

    Source: [hpcy25] Thm 4.2(ii), (D.23); spec 001 R8.

    >>> round(ltilde_inf(5, 40, 0.1), 6)
    0.220879
    """
    _check(d, L, sigma2)
    return dual(_ltilde_inf, (sp.Symbol("d"), sp.Symbol("L"), _S2), (d, L, sigma2))


ltilde_inf_fn = twin(_ltilde_inf, (sp.Symbol("d"), sp.Symbol("L"), _S2))


def _eta_star(d_: Any, L_: Any, s2: Any) -> sp.Expr:
    return 1 / _kappa(d_, L_, s2)


def eta_star(d: Any, L: Any, sigma2: Any) -> Any:
    """``η* = lim_{ω→0} 2ω m*(ω) = 1/κ = L/(L + d(1+σ²))`` (D.24).

    Source: [hpcy25] Thm 4.2(ii), (D.24), (4.3); spec 001 R2, R8.

    >>> round(eta_star(5, 40, 0.1), 6)
    0.879121
    """
    _check(d, L, sigma2)
    return dual(_eta_star, (sp.Symbol("d"), sp.Symbol("L"), _S2), (d, L, sigma2))


eta_star_fn = twin(_eta_star, (sp.Symbol("d"), sp.Symbol("L"), _S2))


# --------------------------------------------------------------------------- single head
def _single(om: Any, mu_: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
    return 1 + s2 - 2 * mu_ * om + mu_**2 * (om**2 + _c_L(L_, s2) * sp.exp(d_ * om**2))


def single_head_ltilde(omega: Any, mu: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """``L̃₁(ω, μ)`` for one head (= :func:`ltilde` with H = 1).

    Source: [hpcy25] §4 (restating Chen et al. 2024a); spec 001 R6.

    .. math:: \\tilde L_1 = 1+\\sigma^2 - 2\\mu\\omega + \\mu^2(\\omega^2 + c_L e^{d\\omega^2})

    >>> round(single_head_ltilde(0, 0, 5, 40, 0.1), 4)
    1.1
    """
    _check(d, L, sigma2)
    return dual(_single, (_OMEGA, sp.Symbol("mu"), sp.Symbol("d"), sp.Symbol("L"), _S2),
                (omega, mu, d, L, sigma2))


def single_head_optimum(d: Any, L: Any, sigma2: Any) -> tuple[Any, Any, Any]:
    """Minimiser of ``L̃₁``: ``ω* = 1/√d``, ``μ* = √d/(1 + e(1+σ²)d/L)``, value ``1+σ² − 1/(1+e(1+σ²)d/L)``.

    Source: [hpcy25] §4 (Chen et al. 2024a), code ``plots.ipynb``; spec 001 R6 ([R], high).

    Notes
    -----
    Only the optimum of the *approximate* loss: the exact single-head risk is minimised near
    ω ≈ 0.50–0.55 (spec §6 item 14), which the MC route checks.

    >>> [round(v, 4) for v in single_head_optimum(5, 40, 0.1)]
    [0.4472, 1.6277, 0.3721]
    """
    _check(d, L, sigma2)

    def w(d_: Any, L_: Any, s2: Any) -> sp.Expr:
        return 1 / sp.sqrt(d_)

    def m(d_: Any, L_: Any, s2: Any) -> sp.Expr:
        return sp.sqrt(d_) / (1 + sp.E * (1 + s2) * d_ / L_)

    def v(d_: Any, L_: Any, s2: Any) -> sp.Expr:
        return 1 + s2 - 1 / (1 + sp.E * (1 + s2) * d_ / L_)

    syms = (sp.Symbol("d", positive=True), sp.Symbol("L", positive=True), _S2)
    vals = (d, L, sigma2)
    return dual(w, syms, vals), dual(m, syms, vals), dual(v, syms, vals)


# --------------------------------------------------------------------------------- risks
def _gd_risk(e: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
    Dp = d_ * (1 + s2)
    return 1 + s2 - 2 * e + e**2 * (1 + (Dp + 1) / L_)


def gd_risk(eta: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """Exact risk ``R_V(η; L)`` of vanilla one-step GD ``(η/L) Σ y_i x_iᵀ x_q`` (query noise incl.).

    Source: [hpcy25] (D.25)–(D.29); spec 001 R9 ([R], MC-verified).  Prior ``β ~ N(0, I/d)``.

    .. math:: R_V(\\eta;L) = 1+\\sigma^2 - 2\\eta + \\eta^2\\Big(1 + \\frac{D'+1}{L}\\Big),\\ D' = d(1+\\sigma^2)

    >>> round(gd_risk(0.897, 5, 40, 0.1), 5)
    0.24136
    """
    _check(d, L, sigma2)
    return dual(_gd_risk, (_ETA, sp.Symbol("d"), sp.Symbol("L"), _S2), (eta, d, L, sigma2))


gd_risk_fn = twin(_gd_risk, (_ETA, sp.Symbol("d"), sp.Symbol("L"), _S2))


def gd_eta_star(d: Any, L: Any, sigma2: Any) -> Any:
    """``η_V* = L/(L + D' + 1)`` (spec 001 R9; = optimal single-head LINEAR attention, §5).

    >>> round(gd_eta_star(5, 40, 0.1), 6)
    0.860215
    """
    _check(d, L, sigma2)
    return dual(lambda d_, L_, s2: L_ / (L_ + d_ * (1 + s2) + 1),
                (sp.Symbol("d"), sp.Symbol("L"), _S2), (d, L, sigma2))


def gd_risk_star(d: Any, L: Any, sigma2: Any) -> Any:
    """``R_V* = σ² + (D'+1)/(L + D' + 1)`` (spec 001 R9).

    >>> round(gd_risk_star(5, 40, 0.1), 6)
    0.239785
    """
    _check(d, L, sigma2)
    return dual(lambda d_, L_, s2: s2 + (d_ * (1 + s2) + 1) / (L_ + d_ * (1 + s2) + 1),
                (sp.Symbol("d"), sp.Symbol("L"), _S2), (d, L, sigma2))


def _dgd_risk(e: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
    Dp = d_ * (1 + s2)
    return 1 + s2 - 2 * e * (L_ - 1) / L_ + e**2 * (L_ - 1) * (L_ + Dp) / L_**2


def dgd_risk(eta: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """Exact finite-L risk ``R_D(η; L)`` of debiased one-step GD, including the query noise σ².

    Source: [hpcy25] (4.11) (the predictor) and Thm 4.2(iii); spec 001 R9 ([D], MC-verified).

    .. math::

        R_D(\\eta;L) = 1+\\sigma^2 - \\frac{2\\eta(L-1)}{L}
          + \\frac{\\eta^2(L-1)(L+D')}{L^2}, \\qquad D' = d(1+\\sigma^2)

    for ``DGD_η = (η/L) Σ_i y_i (x_i − x̄)ᵀ x_q`` with ``x_i, x_q ~ N(0, I_d)``, ``β ~ N(0, I/d)``.

    Parameters
    ----------
    eta : effective step η (real);  d : dimension > 0;  L : prompt length > 0 (the formula needs
        L ≥ 2 to describe a predictor);  sigma2 : noise variance σ² ≥ 0.

    Returns
    -------
    float (numbers in) or sympy.Expr (SymPy in).

    Notes
    -----
    [D] Centring removes one degree of freedom: a Helmert rotation turns ``x_i − x̄`` into ``L−1``
    iid ``N(0, I)`` vectors, so DGD with L samples is vanilla GD with ``L−1`` samples and step
    ``η(L−1)/L``.  Minimised at ``η = 1/κ``, with value ``σ² + (D'+1)/(L+D')``.

    References
    ----------
    arXiv:2503.12734.

    Examples
    --------
    >>> round(dgd_risk(0.897, 5, 40, 0.1), 5)
    0.24321
    >>> import sympy as sp
    >>> sp.factor(dgd_risk(sp.Symbol("eta"), 1, 2, 0))
    (3*eta**2 - 4*eta + 4)/4
    """
    _check(d, L, sigma2)
    return dual(_dgd_risk, (_ETA, sp.Symbol("d"), sp.Symbol("L"), _S2), (eta, d, L, sigma2))


dgd_risk_fn = twin(_dgd_risk, (_ETA, sp.Symbol("d"), sp.Symbol("L"), _S2))


def dgd_eta_star(d: Any, L: Any, sigma2: Any) -> Any:
    """``η_D* = L/(L + D') = 1/κ`` (spec 001 R9 [D]).

    >>> round(dgd_eta_star(5, 40, 0.1), 6)
    0.879121
    """
    _check(d, L, sigma2)
    return dual(lambda d_, L_, s2: L_ / (L_ + d_ * (1 + s2)),
                (sp.Symbol("d"), sp.Symbol("L"), _S2), (d, L, sigma2))


def dgd_risk_star(d: Any, L: Any, sigma2: Any) -> Any:
    """``R_D* = σ² + (D'+1)/(L + D')`` (spec 001 R9 [D]).

    >>> round(dgd_risk_star(5, 40, 0.1), 6)
    0.242857
    """
    _check(d, L, sigma2)
    return dual(lambda d_, L_, s2: s2 + (d_ * (1 + s2) + 1) / (L_ + d_ * (1 + s2)),
                (sp.Symbol("d"), sp.Symbol("L"), _S2), (d, L, sigma2))


def _gd_limit(x: Any, s2: Any) -> sp.Expr:
    return s2 + x * (1 + s2) / (1 + x * (1 + s2))


def gd_risk_limit(xi: Any, sigma2: Any) -> Any:
    """Proportional limit ``d, L → ∞, d/L → ξ`` of the optimal GD and DGD risks (D.33).

    Source: [hpcy25] (D.33); spec 001 R9.  Equals ``inf L̃`` at ``d/L = ξ``.

    .. math:: R_{GD\\infty} = R_{DGD\\infty} = \\sigma^2 + \\frac{\\xi(1+\\sigma^2)}{1+\\xi(1+\\sigma^2)}

    >>> round(gd_risk_limit(0.125, 0.1), 6)
    0.220879
    """
    check_scalar("xi", xi, lower=0.0, lower_open=True, paper="ξ = d/L > 0")
    check_scalar("sigma2", sigma2, lower=0.0)
    return dual(_gd_limit, (_XI, _S2), (xi, sigma2))


gd_risk_limit_fn = twin(_gd_limit, (_XI, _S2))


def eta_limit(xi: Any, sigma2: Any) -> Any:
    """``η*_∞ = 1/(1 + ξ(1+σ²))`` (D.33; spec 001 R9).

    >>> round(eta_limit(0.125, 0.1), 6)
    0.879121
    """
    check_scalar("xi", xi, lower=0.0, lower_open=True, paper="ξ = d/L > 0")
    return dual(lambda x, s2: 1 / (1 + x * (1 + s2)), (_XI, _S2), (xi, sigma2))


def mp_stieltjes(z: Any, xi: Any) -> Any:
    """Marchenko–Pastur Stieltjes transform used for the Bayes limit (D.35) (SymPy or float).

    Source: [hpcy25] (D.34)–(D.36) (Dobriban–Wager 2018); spec 001 R9.

    .. math:: m(z) = \\frac{1 - \\xi - z - \\sqrt{(1-\\xi-z)^2 - 4\\xi z}}{2\\xi z}

    >>> round(mp_stieltjes(-0.0125, 0.125), 6)
    1.124534
    """
    zs = sp.Symbol("z", real=True)
    return dual(lambda z_, x: (1 - x - z_ - sp.sqrt((1 - x - z_) ** 2 - 4 * x * z_)) / (2 * x * z_),
                (zs, _XI), (z, xi))


def _bayes_limit(x: Any, s2: Any) -> sp.Expr:
    return sp.Rational(1, 2) * (s2 + 1 - 1 / x + sp.sqrt(4 * s2 + (s2 - 1 + 1 / x) ** 2))


def bayes_risk_limit(xi: Any, sigma2: Any) -> Any:
    """Bayes (ridge, ``λ = dσ²``) risk in the proportional limit ``d/L → ξ``, ``R_B∞``.

    Source: [hpcy25] (D.34)–(D.36), code ``ridge_loss(var, xi)``; spec 001 R9 ([R], high).

    .. math::

        R_{B\\infty} = \\sigma^2 + \\sigma^2\\xi\\, m(-\\sigma^2\\xi)
          = \\tfrac12\\Big[\\sigma^2 + 1 - \\tfrac1\\xi
            + \\sqrt{4\\sigma^2 + (\\sigma^2 - 1 + \\tfrac1\\xi)^2}\\Big]

    Parameters
    ----------
    xi : aspect ratio ξ = d/L > 0;  sigma2 : noise variance σ² ≥ 0 (relative to E‖β‖² = 1).

    Returns
    -------
    float or sympy.Expr.

    Notes
    -----
    Includes the query noise σ².  For σ² = 0 the limit is ``max(0, 1 − 1/ξ)``.

    Examples
    --------
    >>> round(bayes_risk_limit(0.125, 0.1), 6)
    0.114057
    >>> round(bayes_risk_limit(0.2, 3.0), 5)
    3.40512
    """
    check_scalar("xi", xi, lower=0.0, lower_open=True, paper="ξ = d/L > 0")
    check_scalar("sigma2", sigma2, lower=0.0, paper="noise variance σ² ≥ 0")
    return dual(_bayes_limit, (_XI, _S2), (xi, sigma2))


bayes_risk_limit_fn = twin(_bayes_limit, (_XI, _S2))


def _gap_bound(x: Any, s2: Any) -> sp.Expr:
    return x / (1 + x * (1 + s2))


def bayes_gap_bound(xi: Any, sigma2: Any) -> Any:
    """Proven replacement for Thm 4.2(iii): ``0 ≤ R_DGD∞ − R_B∞ ≤ ξ/(1 + ξ(1+σ²))`` [D].

    Source: [hpcy25] Thm 4.2(iii) (inequality lost); spec 001 R9 and §6 item 6 ([D], proof reduces
    to ``√(b² + 4σ²) ≤ b + 4``, ``b = σ² − 1 + 1/ξ``).

    >>> round(bayes_gap_bound(0.125, 0.1), 6)
    0.10989
    """
    check_scalar("xi", xi, lower=0.0, lower_open=True, paper="ξ = d/L > 0")
    return dual(_gap_bound, (_XI, _S2), (xi, sigma2))


bayes_gap_bound_fn = twin(_gap_bound, (_XI, _S2))


def bayes_risk_given_design(X: Any, sigma2: Any) -> Any:
    """Finite-sample Bayes risk given the design: ``σ² + σ² tr[(XᵀX + dσ² I_d)^{-1}]``.

    Source: [hpcy25] (D.34); spec 001 R9 ([R], high).  ``R_B = E_X`` of this (prior ``β ~ N(0, I/d)``,
    so ridge with ``λ = dσ²`` is the posterior mean); includes the query noise.

    Parameters
    ----------
    X : design, numpy ``(L, d)`` or ``(B, L, d)`` (batched), or a SymPy ``Matrix``;
    sigma2 : noise variance σ² > 0.

    >>> round(bayes_risk_given_design(np.zeros((3, 2)), 0.5), 6)
    1.5
    """
    if isinstance(X, sp.MatrixBase):
        d = X.shape[1]
        s2 = sp.sympify(sigma2)
        return s2 + s2 * (X.T * X + d * s2 * sp.eye(d)).inv().trace()
    check_scalar("sigma2", sigma2, lower=0.0, lower_open=True, paper="Bayes risk needs σ² > 0")
    Xa = np.asarray(X, dtype=float)
    d = Xa.shape[-1]
    A = np.einsum("...ld,...le->...de", Xa, Xa) + d * sigma2 * np.eye(d)
    out = sigma2 + sigma2 * np.trace(np.linalg.inv(A), axis1=-2, axis2=-1)
    return float(out) if np.ndim(out) == 0 else out


def nw_bandwidth(omega: Any) -> Any:
    """Nadaraya–Watson reading of one head: on the sphere ``‖x‖² = ‖q‖² = d`` the softmax kernel
    ``exp(ω xᵀq) ∝ exp(−‖x − q‖²/(2h²))`` with bandwidth ``h = ω^{-1/2}`` (``h = d^{1/4}`` at the
    single-head optimum ω = 1/√d).

    Source: [hpcy25] (4.12) and §4 (Chen et al. 2024a); spec 001 R6 ([R]).

    >>> nw_bandwidth(0.25)
    2.0
    """
    check_scalar("omega", omega, lower=0.0, lower_open=True, paper="NW bandwidth needs ω > 0")
    return dual(lambda w: 1 / sp.sqrt(w), (_OMEGA,), (omega,))
