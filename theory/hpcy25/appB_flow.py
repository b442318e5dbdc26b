"""[hpcy25] App. B: gradient flow of ``L̃`` (H heads), the reduced two-head system and its phases.

State order (flat vector for ``solve_ivp``): ``(ω_1, …, ω_H, μ_1, …, μ_H)``.  Flow
``dθ/dt = −s ∇L̃``, ``s = 1`` (ours) or ``s = 1/2`` (the authors' code, used for Fig. 22's time
axis).
"""

from __future__ import annotations

import functools
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from theory.common.backend import dual
from theory.common.evaluate import lambdified
from theory.common.symbols import sigma2 as _S2
from theory.common.symbols import t as _T
from theory.hpcy25.domains import checked
from theory.hpcy25.sec4_1_approx_loss import c_L_expr, kappa_expr, ltilde_expr, vec_syms

__all__ = [
    "flow_rhs",
    "flow_rhs_fn",
    "reduced_rhs",
    "reduced_rhs_fn",
    "imbalance",
    "imbalance_rate",
    "phase1_omega",
    "peak_omega_lambert",
    "late_mu_law",
    "heuristic_late_omega",
    "LATE_MU_EXPONENT",
    "HEURISTIC_OMEGA_EXPONENT",
    "initial_state",
]

_d, _L = sp.Symbol("d", positive=True), sp.Symbol("L", positive=True)
_s = sp.Symbol("s", positive=True)
_w, _m = sp.Symbol("omega", real=True), sp.Symbol("mu", real=True)

#: Late-phase law of the true flow [D, verified to 3 digits]: μ ~ t^{1/6}, ω ~ t^{-1/6}.
LATE_MU_EXPONENT = sp.Rational(1, 6)
#: The paper's two-timescale heuristic (μ slaved to m*(ω)) gives ω ~ t^{-1/2} (spec §6 item 5).
HEURISTIC_OMEGA_EXPONENT = sp.Rational(-1, 2)


@checked
def flow_rhs(omega: Any, mu: Any, d: Any, L: Any, sigma2: Any, s: Any = 1) -> list[sp.Expr]:
    """Right-hand side ``−s ∇_{(ω, μ)} L̃`` of the H-head gradient flow (SymPy list, ω's then μ's).

    Source: [hpcy25] App. B, (B.1).

    .. math::

        \\dot\\omega = -s\\nabla_\\omega \\tilde L, \\qquad \\dot\\mu = -s\\nabla_\\mu \\tilde L

    >>> om, mu = sp.symbols("w1 w2"), sp.symbols("m1 m2")
    >>> len(flow_rhs(om, mu, 5, 40, sp.Rational(1, 10)))
    4
    """
    om = [sp.sympify(o) for o in omega]
    mu_ = [sp.sympify(m) for m in mu]
    F = ltilde_expr(om, mu_, sp.sympify(d), sp.sympify(L), sp.sympify(sigma2))
    return [-sp.sympify(s) * sp.diff(F, v) for v in (*om, *mu_)]


@functools.cache
def _flow_lambda(H: int) -> Any:
    om, mu_ = vec_syms(H)
    rhs = flow_rhs(om, mu_, _d, _L, _S2, _s)
    return lambdified((*om, *mu_, _d, _L, _S2, _s), sp.Matrix(rhs))  # pyright: ignore[reportArgumentType]


@checked
def flow_rhs_fn(
    t_: float, y: np.ndarray, d: float, L: float, sigma2_: float, s: float = 1.0
) -> np.ndarray:
    """Numeric twin of :func:`flow_rhs` in ``solve_ivp`` form ``f(t, y, *args)``; y = (ω…, μ…).

    Source: [hpcy25] App. B, (B.1).  ``y`` has shape ``(2H,)``: the H KQ scales, then the H OV
    weights; the flow is autonomous (``t_`` is not read).

    One head at ``ω = 0``: ``ω̇ = 2sμ`` and ``μ̇ = −2s c_L μ`` (``c_L = 1.1/40 = 0.0275``):

    >>> np.round(flow_rhs_fn(0.0, np.array([0.0, 1.5]), 5, 40, 0.1), 12).tolist()
    [3.0, -0.0825]
    """
    H = len(y) // 2
    return np.asarray(_flow_lambda(H)(*y, d, L, sigma2_, s), dtype=float).ravel()


def _reduced(w: Any, m: Any, d_: Any, L_: Any, s2: Any, s: Any) -> tuple[sp.Expr, sp.Expr]:
    cL = c_L_expr(L_, s2)
    x = d_ * w**2
    dw = 2 * s * m * (1 - 2 * w * m - 2 * (1 + s2) * (d_ / L_) * w * m * sp.cosh(x))
    dm = 2 * s * (w * (1 - 2 * w * m) - 2 * cL * m * sp.sinh(x))
    return dw, dm


@checked
def reduced_rhs(omega: Any, mu: Any, d: Any, L: Any, sigma2: Any, s: Any = 1) -> tuple[Any, Any]:
    """Reduced two-head system (B.4) on the symmetric orbit ``(ω, −ω, μ, −μ)``.

    Source: [hpcy25] (B.4).  Equals ``−(s/2) ∇ L̃_red``.

    .. math::

        \\dot\\omega = 2s\\mu\\big[1 - 2\\omega\\mu
          - 2(1+\\sigma^2)\\tfrac{d}{L}\\omega\\mu\\cosh(d\\omega^2)\\big],
        \\quad
        \\dot\\mu = 2s\\big[\\omega(1-2\\omega\\mu) - 2c_L\\mu\\sinh(d\\omega^2)\\big]

    >>> [round(v, 6) for v in reduced_rhs(0.0, 0.0, 5, 40, 0.1)]
    [0.0, 0.0]
    """
    syms, vals = (_w, _m, _d, _L, _S2, _s), (omega, mu, d, L, sigma2, s)
    return (
        dual(lambda *a: _reduced(*a)[0], syms, vals),
        dual(lambda *a: _reduced(*a)[1], syms, vals),
    )


@functools.cache
def _reduced_lambda() -> Any:
    syms = (_w, _m, _d, _L, _S2, _s)
    return lambdified(syms, sp.Matrix(_reduced(*syms)))  # pyright: ignore[reportArgumentType]


@checked
def reduced_rhs_fn(
    t_: float, y: np.ndarray, d: float, L: float, sigma2_: float, s: float = 1.0
) -> np.ndarray:
    """Numeric twin of :func:`reduced_rhs` in ``solve_ivp`` form; y = (ω, μ).

    Source: [hpcy25] (B.4).  At ``ω = 0`` the system reads ``ω̇ = 2sμ``, ``μ̇ = 0``:

    >>> reduced_rhs_fn(0.0, np.array([0.0, 1.5]), 5, 40, 0.1).tolist()
    [3.0, 0.0]
    """
    return np.asarray(_reduced_lambda()(y[0], y[1], d, L, sigma2_, s), dtype=float).ravel()


@checked
def imbalance(omega: Any, mu: Any) -> Any:
    """The imbalance ``ω² − μ²`` (conserved at ``c_L = 0``; monotone otherwise) [derived].

    Source: [derived] (its rate is :func:`imbalance_rate`); Def. B.1's start has imbalance 0.

    >>> round(imbalance(0.3, 1.2), 12)
    -1.35
    """
    return omega**2 - mu**2


def _imb_rate(w: Any, m: Any, d_: Any, L_: Any, s2: Any, s: Any) -> sp.Expr:
    x = d_ * w**2
    return 8 * s * c_L_expr(L_, s2) * m**2 * (sp.sinh(x) - x * sp.cosh(x))


@checked
def imbalance_rate(omega: Any, mu: Any, d: Any, L: Any, sigma2: Any, s: Any = 1) -> Any:
    """``d/dt (ω² − μ²) = 8 s c_L μ² (sinh x − x cosh x) ≤ 0``, ``x = dω²`` [derived].

    Source: [derived] (the paper states the gap μ − ω grows, (B.15)).

    >>> imbalance_rate(0.0, 1.0, 5, 40, 0.1)
    0.0
    """
    return dual(_imb_rate, (_w, _m, _d, _L, _S2, _s), (omega, mu, d, L, sigma2, s))


@checked
def initial_state(eps: float, H: int = 2) -> np.ndarray:
    """Def. B.1: ``ω_1 = −ω_2 = μ_1 = −μ_2 = ε`` (H = 2), as the flat state vector.

    Source: [hpcy25] App. B, Def. B.1.  Shape ``(4,)`` in the order of :func:`flow_rhs_fn`.

    >>> initial_state(1e-3).tolist()
    [0.001, -0.001, 0.001, -0.001]
    """
    if H != 2:
        raise ValueError(f"Def. B.1 is the two-head initialisation, got H={H}")
    return np.array([eps, -eps, eps, -eps], dtype=float)


@checked
def phase1_omega(t_: Any, eps: Any, s: Any = 1) -> Any:
    """Phase I linearisation (B.5)–(B.6): ``ω(t) = μ(t) = ε e^{2st}``.

    Source: [hpcy25] (B.5)–(B.6).

    >>> phase1_omega(0.0, 1e-3)
    0.001
    """
    es = sp.Symbol("epsilon", positive=True)
    return dual(lambda tt, e, ss: e * sp.exp(2 * ss * tt), (_T, es, _s), (t_, eps, s))


@checked
def peak_omega_lambert(d: Any, L: Any, sigma2_: Any) -> Any:
    """Phase II peak scale ``ω_max ≈ √(W(L/(1+σ²))/d)`` (Lambert W) [derived].

    Source: [hpcy25] App. B Phase II (the peak is bounded via a Lambert-W expansion; exponent
    lost).  Asymptotic in d at fixed ξ = d/L (the ratio to the true peak → 1).

    >>> round(float(peak_omega_lambert(5, 40, 0.1)), 3)
    0.725
    """

    def b(d_: Any, L_: Any, s2: Any) -> sp.Expr:
        return sp.sqrt(sp.LambertW(L_ / (1 + s2)) / d_)

    out = dual(b, (_d, _L, _S2), (d, L, sigma2_), backend="mpmath")
    return float(out) if isinstance(out, mpmath.mpf) else out


@checked
def late_mu_law(t_: Any, d: Any, L: Any, sigma2_: Any, s: Any = 1) -> Any:
    """Late-phase law of the true flow: ``μ(t)⁶ ≈ s ξ(1+σ²) d² t / (8κ⁶)``, ξ = d/L [derived].

    Source: [derived] Phase III (numerically verified: μ ~ t^{1/6}, ω ≈ 1/(2κμ)).

    >>> round(late_mu_law(1e6, 5, 40, 0.1), 3)
    7.637
    """

    def b(tt: Any, d_: Any, L_: Any, s2: Any, ss: Any) -> sp.Expr:
        return (ss * (d_ / L_) * (1 + s2) * d_**2 * tt / (8 * kappa_expr(d_, L_, s2) ** 6)) ** (
            sp.Rational(1, 6)
        )

    return dual(b, (_T, _d, _L, _S2, _s), (t_, d, L, sigma2_, s))


@checked
def heuristic_late_omega(t_: Any, d: Any, L: Any, sigma2_: Any, s: Any = 1) -> Any:
    """The paper's heuristic late law (μ slaved to m*(ω)): ``ω' ≈ −Kω³`` ⇒ ``ω ≈ (2Kt)^{-1/2}``.

    Source: [hpcy25] (B.17)–(B.18) as we reconstruct them [derived];
    ``K = s ξ(1+σ²) d²/(3κ²)``.  Kept to *report* the discrepancy with the true t^{-1/6}.

    >>> heuristic_late_omega(1e4, 5, 40, 0.1) < 0.01
    True
    """

    def b(tt: Any, d_: Any, L_: Any, s2: Any, ss: Any) -> sp.Expr:
        K = ss * (d_ / L_) * (1 + s2) * d_**2 / (3 * kappa_expr(d_, L_, s2) ** 2)
        return 1 / sp.sqrt(2 * K * tt)

    return dual(b, (_T, _d, _L, _S2, _s), (t_, d, L, sigma2_, s))
