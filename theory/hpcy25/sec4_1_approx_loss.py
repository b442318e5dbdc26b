"""[hpcy25] §4.1 Proposition 4.1: the approximate loss ``L̃(ω, μ)``, its gradients, and the §4.2
Stage-II rewrites (power series, lower bound (4.5)).

The paper's displayed math was lost in our copy: each formula says where it comes from (the
paper's prose, the authors' code, a reconstruction, or [derived] here).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy as sp

from theory.common.backend import check_scalar, dual, ops_for
from theory.common.evaluate import lambdified
from theory.common.symbols import sigma2 as _S2
from theory.hpcy25.domains import checked

__all__ = [
    "c_L",
    "kappa",
    "ltilde",
    "ltilde_fn",
    "ltilde_grad",
    "ltilde_series",
    "lower_bound_45",
    "check_dLs",
    "c_L_expr",
    "kappa_expr",
    "ltilde_expr",
    "vec_syms",
    "KERNEL_SCALE",
]

#: The factor multiplying ``ω_h ω_h'`` inside the exponential of L̃ (``= d`` in the paper).
KERNEL_SCALE = sp.Symbol("k_s", positive=True)


@checked
def check_dLs(d_: Any, L_: Any, sigma2_: Any) -> None:
    """Validate ``d > 0``, ``L > 0``, ``σ² ≥ 0`` (numbers; SymPy input is not validated).

    Source: [hpcy25] §1.1 (the model's dimension, prompt length and noise variance).

    >>> check_dLs(5, 40, 0.1)
    >>> check_dLs(5, 0, 0.1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: L_ must be a prompt length L > 0 ...
    """
    check_scalar("d", d_, lower=0.0, lower_open=True, paper="hpcy25 §1.1: dimension d > 0")
    check_scalar("L", L_, lower=0.0, lower_open=True, paper="hpcy25 §1.1: prompt length L > 0")
    check_scalar("sigma2", sigma2_, lower=0.0, paper="hpcy25 §1.1: noise variance σ² ≥ 0")


# ------------------------------------------------------------------------------ constants
@checked
def c_L_expr(L_: Any, sigma2_: Any) -> sp.Expr:
    """Builder of :func:`c_L`: ``(1+σ²)/L`` on whatever it is given (SymPy or numbers).

    Source: [hpcy25] Prop. 4.1.

    >>> c_L_expr(sp.Symbol("L"), 0)
    1/L
    """
    return (1 + sigma2_) / L_


@checked
def c_L(L: Any, sigma2: Any) -> Any:
    """Variance coefficient ``c_L = (1+σ²)/L``.

    Source: [hpcy25] Prop. 4.1.

    .. math:: c_L = \\frac{1+\\sigma^2}{L}

    >>> round(c_L(40, 0.1), 12)
    0.0275
    """
    return dual(c_L_expr, (sp.Symbol("L"), _S2), (L, sigma2))


@checked
def kappa_expr(d_: Any, L_: Any, sigma2_: Any) -> sp.Expr:
    """Builder of :func:`kappa`: ``1 + d(1+σ²)/L = 1 + d·c_L`` [derived].

    >>> d, L, s2 = sp.symbols("d L sigma2", positive=True)
    >>> sp.expand(kappa_expr(d, L, s2) - 1 - d * c_L_expr(L, s2))
    0
    """
    return 1 + d_ * (1 + sigma2_) / L_


@checked
def kappa(d: Any, L: Any, sigma2: Any) -> Any:
    """``κ = 1 + d(1+σ²)/L`` ([derived] shorthand); ``1/κ`` is the low-order stationary
    value of ``⟨ω, μ⟩`` (4.3) and the optimal effective step ``η*`` (D.24).

    .. math:: \\kappa = 1 + \\frac{d(1+\\sigma^2)}{L}

    >>> round(1 / kappa(5, 40, 0.1), 6)
    0.879121
    """
    return dual(kappa_expr, (sp.Symbol("d"), sp.Symbol("L"), _S2), (d, L, sigma2))


# ------------------------------------------------------------------------ approximate loss
@checked
@functools.cache
def vec_syms(H: int) -> tuple[tuple[sp.Symbol, ...], tuple[sp.Symbol, ...]]:
    """The real SymPy symbols ``(ω_1, …, ω_H), (μ_1, …, μ_H)`` of H heads (cached per H).

    >>> vec_syms(2)
    ((omega_1, omega_2), (mu_1, mu_2))
    """
    om = tuple(sp.Symbol(f"omega_{h + 1}", real=True) for h in range(H))
    mu_ = tuple(sp.Symbol(f"mu_{h + 1}", real=True) for h in range(H))
    return om, mu_


@checked
def ltilde_expr(
    om: Sequence[Any], mu_: Sequence[Any], d_: Any, L_: Any, s2: Any, ks: Any = None
) -> sp.Expr:
    """Builder of :func:`ltilde` on SymPy lists ``om``, ``mu_`` (one entry per head).

    Source: [hpcy25] Proposition 4.1.  ``ks`` replaces ``d`` inside the exponential (a fault
    for negative controls; ``None``: ``d``).  At ``ω = 0`` only the bias term
    ``1 + σ² + c_L⟨1, μ⟩²`` is left:

    >>> m1, m2 = sp.symbols("m1 m2")
    >>> d, L, s2 = sp.symbols("d L sigma2", positive=True)
    >>> sp.expand(ltilde_expr((0, 0), (m1, m2), d, L, s2) - 1 - s2 - c_L(L, s2) * (m1 + m2) ** 2)
    0
    """
    ks = d_ if ks is None else ks
    H = len(om)
    cL = c_L_expr(L_, s2)
    lin = sum(m_ * o for m_, o in zip(mu_, om, strict=True))
    quad = sum(
        mu_[h] * mu_[g] * (om[h] * om[g] + cL * sp.exp(ks * om[h] * om[g]))
        for h in range(H)
        for g in range(H)
    )
    return 1 + s2 - 2 * lin + quad


@functools.cache
def _ltilde_lambda(H: int) -> Any:
    om, mu_ = vec_syms(H)
    syms = (*om, *mu_, sp.Symbol("d"), sp.Symbol("L"), _S2, KERNEL_SCALE)
    return lambdified(syms, ltilde_expr(om, mu_, sp.Symbol("d"), sp.Symbol("L"), _S2, KERNEL_SCALE))


@checked
def ltilde_fn(omega: Any, mu: Any, d: Any, L: Any, sigma2: Any, kernel_scale: Any = None) -> Any:
    """Numeric twin of :func:`ltilde`; ``omega``/``mu`` have the head axis FIRST (H, ...).

    Source: [hpcy25] Proposition 4.1.  A grid of 3 points of two heads: shapes ``(2, 3)`` in,
    ``(3,)`` out.  At ``ω = 0``, ``μ = (1, 1)``: ``1 + σ² + c_L·2² = 1.1 + 4·0.0275``:

    >>> np.round(ltilde_fn(np.zeros((2, 3)), np.ones((2, 3)), 5, 40, 0.1), 12).tolist()
    [1.21, 1.21, 1.21]
    """
    om = [np.asarray(o, dtype=float) for o in omega]
    mus = [np.asarray(m_, dtype=float) for m_ in mu]
    ks = d if kernel_scale is None else kernel_scale
    with np.errstate(over="ignore"):
        out = _ltilde_lambda(len(om))(*om, *mus, d, L, sigma2, ks)
    arr = np.asarray(out, dtype=float)
    return float(arr) if arr.ndim == 0 else arr


@checked
def ltilde(
    omega: Sequence[Any],
    mu: Sequence[Any],
    d: Any,
    L: Any,
    sigma2: Any,
    *,
    kernel_scale: Any = None,
) -> Any:
    """Approximate ICL loss ``L̃(ω, μ)`` of H reparametrised softmax heads.

    Source: [hpcy25] Proposition 4.1.

    .. math::

        \\tilde L(\\omega,\\mu) = 1+\\sigma^2 - 2\\langle\\mu,\\omega\\rangle
          + \\mu^\\top\\big[\\omega\\omega^\\top
          + c_L\\, e^{\\circ\\, d\\,\\omega\\omega^\\top}\\big]\\mu,
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
    error constants of the formal Prop. C.1 are lost.  Exact at ``ω = 0`` [derived]; on
    the two-head manifold the gap to the true risk is ``(η/L)(2 − ηκ) + o(1/L)`` [derived].  Loss
    has no
    factor 1/2.

    References
    ----------
    He, Pan, Chen, Yang (2025), arXiv:2503.12734.

    Examples
    --------
    >>> round(ltilde([0.0], [1.0], 5, 40, 0.1), 12)
    1.1275
    """
    if len(omega) != len(mu) or len(omega) == 0:
        raise ValueError(
            f"omega and mu must have the same length H ≥ 1 (hpcy25 (3.1)), got "
            f"{len(omega)} and {len(mu)}"
        )
    if ops_for(*omega, *mu, d, L, sigma2, kernel_scale).symbolic:  # the builder, else its twin
        return ltilde_expr(
            [sp.sympify(o) for o in omega],
            [sp.sympify(m_) for m_ in mu],
            sp.sympify(d),
            sp.sympify(L),
            sp.sympify(sigma2),
            None if kernel_scale is None else sp.sympify(kernel_scale),
        )
    return ltilde_fn(omega, mu, d, L, sigma2, kernel_scale)


@checked
def ltilde_grad(omega: Any, mu: Any, d: Any, L: Any, sigma2: Any) -> tuple[Any, Any]:
    """Gradients of ``L̃`` (written out by hand from Prop. 4.1 [derived]; tested against
    ``sp.diff``).

    Source: [derived] (matches ``gradients()`` of ``src/funcs.py`` up to its factor 1/2).

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
    ops = ops_for(omega, mu, d, L, sigma2)
    om, mu_ = ops.col(omega), ops.col(mu)
    cL = c_L_expr(ops.S(L), ops.S(sigma2))
    O = om @ om.T
    E = sp.Matrix(O).applyfunc(lambda x: sp.exp(d * x)) if ops.symbolic else np.exp(d * O)
    A = O + cL * E
    g_mu = -2 * om + 2 * A @ mu_
    MM = mu_ @ mu_.T
    EM = E.multiply_elementwise(MM) if ops.symbolic else E * MM
    g_om = -2 * mu_ + 2 * ops.out(mu_.T @ om) * mu_ + 2 * d * cL * EM @ om
    g_om, g_mu = ops.vec(g_om), ops.vec(g_mu)
    return g_om, g_mu


@checked
def ltilde_series(omega: Any, mu: Any, d: Any, L: Any, sigma2: Any, K: int) -> Any:
    """Stage-II rewrite of ``L̃`` as a power series, truncated after ``k = K`` (numbers or mpmath).

    Source: [hpcy25] §4.2 Stage II; [derived] exact rewrite.

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
    s = sum(a * b for a, b in zip(om, mu_, strict=True))
    kap = 1 + d * cL
    out = 1 + sigma2 - 2 * s + kap * s**2 + cL * sum(mu_) ** 2
    fact = 1
    for k in range(2, K + 1):
        fact *= k
        out += cL * d**k / fact * sum(m_ * o**k for m_, o in zip(mu_, om, strict=True)) ** 2
    return out


def _lower_bound(s: Any, mu_l1: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
    cL = c_L_expr(L_, s2)
    x = d_ * s**2 / mu_l1**2
    return 1 + s2 - 2 * s + kappa_expr(d_, L_, s2) * s**2 + cL * mu_l1**2 * (sp.sinh(x) - x)


@checked
def lower_bound_45(s: Any, mu_l1: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """Lower bound (4.5) on ``L̃`` for sign-matched ``(ω, μ)`` at fixed ``s = ⟨ω,μ⟩``, ``‖μ‖₁``.

    Source: [hpcy25] eq. (4.5).  The odd-k
    tail is summed in closed form (``Σ_{k≥3 odd} x^k/k! = sinh x − x``) [derived].

    .. math::

        \\tilde L \\ge 1+\\sigma^2 - 2s + \\kappa s^2
          + c_L \\|\\mu\\|_1^2\\big(\\sinh x - x\\big), \\qquad x = \\frac{d s^2}{\\|\\mu\\|_1^2}

    Equality iff ``Σ_h μ_h = 0`` and ``|ω_h| = ω`` on the support of ``μ`` (4.4).

    >>> round(lower_bound_45(0.4, 4.0, 5, 40, 0.1), 10)
    0.4820091678
    """
    return dual(
        _lower_bound,
        (sp.Symbol("s"), sp.Symbol("l1"), sp.Symbol("d"), sp.Symbol("L"), _S2),
        (s, mu_l1, d, L, sigma2),
    )
