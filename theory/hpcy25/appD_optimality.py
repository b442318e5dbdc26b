"""[hpcy25] §4.2 Theorem 4.2 and Appendix D: optimality over ``Θ`` (ii), the closed-form risks of
vanilla / debiased one-step GD (D.25)–(D.33) and the Bayes comparison (iii).

The paper-notation risks ``gd_risk(eta, d, L, sigma2)``, ``dgd_risk(eta, d, L, sigma2)``,
``bayes_risk_limit(xi, sigma2)`` and ``mp_stieltjes(z, xi)`` keep hpcy25's names and arguments but
are *not* transcribed again: they evaluate the shared implementations in
:mod:`theory.common.baselines` (``gd_risk``/``dgd_risk`` at ``Γ = ηI, Σ = I, Ψ = I/d``;
``bayes_risk_limit_mp``; ``mp_stieltjes`` at ``λ = −z``).  The paper's displays of App. D
were lost in our copy; the forms here are reconstructed (each docstring says so).
"""

from __future__ import annotations

import functools
from typing import Any, cast

import numpy as np
import sympy as sp

from theory.common import baselines
from theory.common.backend import dual, ops_for, twin
from theory.common.symbols import eta as _ETA
from theory.common.symbols import omega as _OMEGA
from theory.common.symbols import sigma2 as _S2
from theory.common.symbols import xi as _XI
from theory.hpcy25.domains import OVERRIDES, checked
from theory.hpcy25.sec4_1_approx_loss import c_L_expr, kappa_expr

__all__ = [
    "A2_eigenvalues",
    "A2_matrix",
    "ltilde_inf",
    "ltilde_inf_fn",
    "eta_star",
    "eta_star_fn",
    "gd_risk",
    "gd_risk_fn",
    "gd_eta_star",
    "gd_risk_star",
    "dgd_risk",
    "dgd_risk_fn",
    "dgd_eta_star",
    "dgd_risk_star",
    "gd_risk_limit",
    "gd_risk_limit_fn",
    "eta_limit",
    "mp_stieltjes",
    "bayes_risk_limit",
    "bayes_risk_limit_fn",
    "bayes_gap_bound",
    "bayes_gap_bound_fn",
    "bayes_risk_given_design",
    "gd_risk_expr",
    "dgd_risk_expr",
]


@checked
def A2_eigenvalues(omega: Any, d: Any, L: Any, sigma2: Any) -> tuple[Any, Any]:
    """Eigen-split of the 2×2 quadratic form ``A₂`` of Theorem 4.2(ii) (App. D.2, (D.19)).

    Source: [hpcy25] Thm 4.2(ii), (D.19).

    .. math::

        A_2 = a_-(1,-1)(1,-1)^\\top + a_+(1,1)(1,1)^\\top,\\quad
        a_- = \\omega^2 + c_L\\sinh x,\\ a_+ = c_L(\\cosh x - 1),\\ x = d\\omega^2

    (eigenvalues ``2a_−``, ``2a_+``; both ≥ 0, so ``L̃`` is convex on ``Θ(ω)``).

    >>> [round(v, 6) for v in A2_eigenvalues(0.0, 5, 40, 0.1)]
    [0.0, 0.0]
    """

    def am(om: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
        return om**2 + c_L_expr(L_, s2) * sp.sinh(d_ * om**2)

    def ap(om: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
        return c_L_expr(L_, s2) * (sp.cosh(d_ * om**2) - 1)

    syms = (_OMEGA, sp.Symbol("d"), sp.Symbol("L"), _S2)
    return dual(am, syms, (omega, d, L, sigma2)), dual(ap, syms, (omega, d, L, sigma2))


@checked
def A2_matrix(omega: Any, d: Any, L: Any, sigma2: Any) -> sp.Matrix:
    """The matrix ``A₂`` of (D.19) (SymPy), for the eigen-split identity test.

    Source: [hpcy25] Thm 4.2(ii), (D.19).

    .. math::

        A_2 = \\omega^2\\begin{pmatrix}1&-1\\\\-1&1\\end{pmatrix}
          + c_L\\begin{pmatrix}e^{x}-1&e^{-x}-1\\\\e^{-x}-1&e^{x}-1\\end{pmatrix},
        \\quad x = d\\omega^2

    It splits as :func:`A2_eigenvalues` says, ``a₋(1,−1)(1,−1)ᵀ + a₊(1,1)(1,1)ᵀ``:

    >>> A = np.array(A2_matrix(0.5, 2, 10, 0.25), dtype=float)
    >>> a_m, a_p = A2_eigenvalues(0.5, 2, 10, 0.25)
    >>> bool(np.allclose(A, a_m * np.array([[1, -1], [-1, 1]]) + a_p * np.ones((2, 2))))
    True
    """
    om, d_, L_, s2 = (sp.sympify(v) for v in (omega, d, L, sigma2))
    x = d_ * om**2
    cL = c_L_expr(L_, s2)
    return om**2 * sp.Matrix([[1, -1], [-1, 1]]) + cL * sp.Matrix(
        [[sp.exp(x) - 1, sp.exp(-x) - 1], [sp.exp(-x) - 1, sp.exp(x) - 1]]
    )


def _ltilde_inf(d_: Any, L_: Any, s2: Any) -> sp.Expr:
    return 1 + s2 - 1 / kappa_expr(d_, L_, s2)


@checked
def ltilde_inf(d: Any, L: Any, sigma2: Any) -> Any:
    """``inf_Θ L̃ = 1 + σ² − 1/κ = σ² + d(1+σ²)/(L + d(1+σ²))`` (D.23), approached as ω → 0.

    Source: [hpcy25] Thm 4.2(ii), (D.23).

    >>> round(ltilde_inf(5, 40, 0.1), 6)
    0.220879
    """
    return dual(_ltilde_inf, (sp.Symbol("d"), sp.Symbol("L"), _S2), (d, L, sigma2))


ltilde_inf_fn = checked(
    twin(_ltilde_inf, (sp.Symbol("d"), sp.Symbol("L"), _S2)), args=("d", "L", "sigma2")
)


def _eta_star(d_: Any, L_: Any, s2: Any) -> sp.Expr:
    return 1 / kappa_expr(d_, L_, s2)


@checked
def eta_star(d: Any, L: Any, sigma2: Any) -> Any:
    """``η* = lim_{ω→0} 2ω m*(ω) = 1/κ = L/(L + d(1+σ²))`` (D.24).

    Source: [hpcy25] Thm 4.2(ii), (D.24), (4.3).

    >>> round(eta_star(5, 40, 0.1), 6)
    0.879121
    """
    return dual(_eta_star, (sp.Symbol("d"), sp.Symbol("L"), _S2), (d, L, sigma2))


eta_star_fn = checked(
    twin(_eta_star, (sp.Symbol("d"), sp.Symbol("L"), _S2)), args=("d", "L", "sigma2")
)


# --------------------------------------------------------------------------------- risks
#: Canonical symbols of the isotropic specialisation (d integer: it is a matrix dimension there).
_E_ISO = sp.Symbol("eta", real=True)
_D_ISO = sp.Symbol("d", integer=True, positive=True)
_L_ISO = sp.Symbol("L", positive=True)
_S2_ISO = sp.Symbol("sigma2", nonnegative=True)


@functools.cache
def _isotropic_risk(kind: str) -> sp.Expr:
    """The shared general-Gaussian risk (:mod:`theory.common.baselines`) at hpcy25's isotropic
    setting ``Σ = I_d``, ``β ~ N(0, I/d)``: ``gd_risk(ηI, ...)`` or ``dgd_risk(P = I, η, ...)``,
    written with ``MatrixSymbol`` algebra in a symbolic ``d`` and reduced to a scalar."""
    eye = sp.Identity(_D_ISO)
    if kind == "gd":
        r = baselines.gd_risk(_E_ISO * eye, eye, 0, eye / _D_ISO, _S2_ISO, _L_ISO)
    else:
        r = baselines.dgd_risk(eye, _E_ISO, eye, eye / _D_ISO, _S2_ISO, _L_ISO)
    return cast(sp.Expr, sp.sympify(r).doit())


def _iso(kind: str, e: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
    rep = {
        _E_ISO: sp.sympify(e),
        _D_ISO: sp.sympify(d_),
        _L_ISO: sp.sympify(L_),
        _S2_ISO: sp.sympify(s2),
    }
    return cast(sp.Expr, _isotropic_risk(kind).xreplace(rep))


@checked
def gd_risk_expr(e: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
    """Builder of :func:`gd_risk`: :func:`theory.common.baselines.gd_risk` at ``Γ = ηI``, ``Σ = I``,
    ``Ψ = I/d``, ``N = L`` (a SymPy expression in the arguments).

    Source: [hpcy25] (D.25)–(D.29).  At ``d = 1``, ``L = 2``, ``σ² = 0`` (``D' = 1``) the
    display of :func:`gd_risk` gives ``1 − 2η + 2η²``:

    >>> sp.expand(gd_risk_expr(sp.Symbol("eta"), 1, 2, 0))
    2*eta**2 - 2*eta + 1
    """
    return _iso("gd", e, d_, L_, s2)


@checked
def gd_risk(eta: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """Exact risk ``R_V(η; L)`` of vanilla one-step GD ``(η/L) Σ y_i x_iᵀ x_q`` (query noise incl.).

    Source: [hpcy25] (D.25)–(D.29).  Prior ``β ~ N(0, I/d)``.

    .. math::

        R_V(\\eta;L) = 1+\\sigma^2 - 2\\eta + \\eta^2\\Big(1 + \\frac{D'+1}{L}\\Big),
        \\quad D' = d(1+\\sigma^2)

    >>> round(gd_risk(0.897, 5, 40, 0.1), 5)
    0.24136
    """
    return dual(gd_risk_expr, (_ETA, sp.Symbol("d"), sp.Symbol("L"), _S2), (eta, d, L, sigma2))


gd_risk_fn = checked(
    twin(gd_risk_expr, (_ETA, sp.Symbol("d"), sp.Symbol("L"), _S2)),
    args=("eta", "d", "L", "sigma2"),
)


@checked
def gd_eta_star(d: Any, L: Any, sigma2: Any) -> Any:
    """``η_V* = L/(L + D' + 1)`` (= optimal single-head LINEAR attention, §5).

    >>> round(gd_eta_star(5, 40, 0.1), 6)
    0.860215
    """
    return dual(
        lambda d_, L_, s2: L_ / (L_ + d_ * (1 + s2) + 1),
        (sp.Symbol("d"), sp.Symbol("L"), _S2),
        (d, L, sigma2),
    )


@checked
def gd_risk_star(d: Any, L: Any, sigma2: Any) -> Any:
    """``R_V* = σ² + (D'+1)/(L + D' + 1)``.

    >>> round(gd_risk_star(5, 40, 0.1), 6)
    0.239785
    """
    return dual(
        lambda d_, L_, s2: s2 + (d_ * (1 + s2) + 1) / (L_ + d_ * (1 + s2) + 1),
        (sp.Symbol("d"), sp.Symbol("L"), _S2),
        (d, L, sigma2),
    )


@checked
def dgd_risk_expr(e: Any, d_: Any, L_: Any, s2: Any) -> sp.Expr:
    """Builder of :func:`dgd_risk`: :func:`theory.common.baselines.dgd_risk` at ``P = I``,
    ``Σ = I``, ``Ψ = I/d``, ``N = L`` (a SymPy expression in the arguments).

    Source: [hpcy25] (4.11) and Thm 4.2(iii).  At ``d = 1``, ``L = 2``, ``σ² = 0`` the display
    of :func:`dgd_risk` gives ``1 − η + 3η²/4``:

    >>> sp.expand(dgd_risk_expr(sp.Symbol("eta"), 1, 2, 0))
    3*eta**2/4 - eta + 1
    """
    return _iso("dgd", e, d_, L_, s2)


@checked
def dgd_risk(eta: Any, d: Any, L: Any, sigma2: Any) -> Any:
    """Exact finite-L risk ``R_D(η; L)`` of debiased one-step GD, including the query noise σ².

    Source: [hpcy25] (4.11) (the predictor) and Thm 4.2(iii).

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
    [derived] Centring removes one degree of freedom: a Helmert rotation turns ``x_i − x̄`` into
    ``L−1``
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
    return dual(dgd_risk_expr, (_ETA, sp.Symbol("d"), sp.Symbol("L"), _S2), (eta, d, L, sigma2))


dgd_risk_fn = checked(
    twin(dgd_risk_expr, (_ETA, sp.Symbol("d"), sp.Symbol("L"), _S2)),
    args=("eta", "d", "L", "sigma2"),
    domains=OVERRIDES["dgd_risk_fn"],
)


@checked
def dgd_eta_star(d: Any, L: Any, sigma2: Any) -> Any:
    """``η_D* = L/(L + D') = 1/κ`` [derived].

    >>> round(dgd_eta_star(5, 40, 0.1), 6)
    0.879121
    """
    return dual(
        lambda d_, L_, s2: L_ / (L_ + d_ * (1 + s2)),
        (sp.Symbol("d"), sp.Symbol("L"), _S2),
        (d, L, sigma2),
    )


@checked
def dgd_risk_star(d: Any, L: Any, sigma2: Any) -> Any:
    """``R_D* = σ² + (D'+1)/(L + D')`` [derived].

    >>> round(dgd_risk_star(5, 40, 0.1), 6)
    0.242857
    """
    return dual(
        lambda d_, L_, s2: s2 + (d_ * (1 + s2) + 1) / (L_ + d_ * (1 + s2)),
        (sp.Symbol("d"), sp.Symbol("L"), _S2),
        (d, L, sigma2),
    )


def _gd_limit(x: Any, s2: Any) -> sp.Expr:
    return s2 + x * (1 + s2) / (1 + x * (1 + s2))


@checked
def gd_risk_limit(xi: Any, sigma2: Any) -> Any:
    """Proportional limit ``d, L → ∞, d/L → ξ`` of the optimal GD and DGD risks (D.33).

    Source: [hpcy25] (D.33).  Equals ``inf L̃`` at ``d/L = ξ``.

    .. math::

        R_{GD\\infty} = R_{DGD\\infty} = \\sigma^2 + \\frac{\\xi(1+\\sigma^2)}{1+\\xi(1+\\sigma^2)}

    >>> round(gd_risk_limit(0.125, 0.1), 6)
    0.220879
    """
    return dual(_gd_limit, (_XI, _S2), (xi, sigma2))


gd_risk_limit_fn = checked(twin(_gd_limit, (_XI, _S2)), args=("xi", "sigma2"))


@checked
def eta_limit(xi: Any, sigma2: Any) -> Any:
    """``η*_∞ = 1/(1 + ξ(1+σ²))`` (D.33).

    >>> round(eta_limit(0.125, 0.1), 6)
    0.879121
    """
    return dual(lambda x, s2: 1 / (1 + x * (1 + s2)), (_XI, _S2), (xi, sigma2))


def _as_float(x: Any) -> Any:
    arr = np.asarray(x, dtype=float)
    return float(arr) if arr.ndim == 0 else arr


@checked
def mp_stieltjes(z: Any, xi: Any) -> Any:
    """Marchenko–Pastur Stieltjes transform used for the Bayes limit (D.35) (SymPy or float).

    Source: [hpcy25] (D.34)–(D.36) (Dobriban–Wager 2018).

    .. math:: m(z) = \\frac{1 - \\xi - z - \\sqrt{(1-\\xi-z)^2 - 4\\xi z}}{2\\xi z}

    Notes
    -----
    hpcy25's ``m(z)`` at ``z = −λ < 0`` is :func:`theory.common.baselines.mp_stieltjes` ``(ξ, λ)``
    (which writes ``m(−λ)``); this evaluates it (numbers need ``z < 0``).

    >>> round(mp_stieltjes(-0.0125, 0.125), 6)
    1.124534
    """
    ops = ops_for(z, xi)
    lam = -ops.S(z) if ops.symbolic else -np.asarray(z, dtype=float)
    return ops.out(baselines.mp_stieltjes(xi, lam))


@checked
def bayes_risk_limit(xi: Any, sigma2: Any) -> Any:
    """Bayes (ridge, ``λ = dσ²``) risk in the proportional limit ``d/L → ξ``, ``R_B∞``.

    Source: [hpcy25] (D.34)–(D.36), code ``ridge_loss(var, xi)``.

    .. math::

        R_{B\\infty} = \\sigma^2 + \\sigma^2\\xi\\, m(-\\sigma^2\\xi)
          = \\tfrac12\\Big[\\sigma^2 + 1 - \\tfrac1\\xi
            + \\sqrt{4\\sigma^2 + (\\sigma^2 - 1 + \\tfrac1\\xi)^2}\\Big]

    Parameters
    ----------
    xi : aspect ratio ξ = d/L > 0;  sigma2 : noise variance σ² > 0 (relative to E‖β‖² = 1).

    Returns
    -------
    float (numbers; arrays broadcast) or sympy.Expr.

    Notes
    -----
    Includes the query noise σ².  Evaluates :func:`theory.common.baselines.bayes_risk_limit_mp`
    (ridge at ``λ* = σ²ξ``, signal 1): the display above (our reading of (D.36), lost
    in our copy) is not transcribed again (``check_thm4_2iii_symbolic`` checks the two agree
    exactly).  ``σ² = 0`` is rejected (numbers and SymPy alike): the noiseless Bayes risk is the
    limit ``σ² → 0⁺``, ``max(0, 1 − 1/ξ)``; take it with ``sympy.limit`` on a positive symbol.

    Examples
    --------
    >>> round(bayes_risk_limit(0.125, 0.1), 6)
    0.114057
    >>> round(bayes_risk_limit(0.2, 3.0), 5)
    3.40512

    Near σ² = 0 the risk approaches ``max(0, 1 − 1/ξ)`` (ξ = 3: 2/3; ξ = 0.4: 0):

    >>> round(bayes_risk_limit(3.0, 1e-9), 6), round(bayes_risk_limit(0.4, 1e-9), 6)
    (0.666667, 0.0)
    """
    return ops_for(xi, sigma2).out(baselines.bayes_risk_limit_mp(xi, sigma2))


@checked
def bayes_risk_limit_fn(xi: Any, sigma2: Any) -> Any:
    """Numeric (numpy, float64) twin of :func:`bayes_risk_limit`; arrays broadcast.

    Source: [hpcy25] (D.34)–(D.36).  Near σ² = 0 it approaches ``max(0, 1 − 1/ξ)``:

    >>> np.round(bayes_risk_limit_fn(np.array([0.5, 3.0]), 1e-9), 6).tolist()
    [0.0, 0.666667]
    """
    return _as_float(baselines.bayes_risk_limit_mp(xi, sigma2))


def _gap_bound(x: Any, s2: Any) -> sp.Expr:
    return x / (1 + x * (1 + s2))


@checked
def bayes_gap_bound(xi: Any, sigma2: Any) -> Any:
    """Proven replacement for Thm 4.2(iii): ``0 ≤ R_DGD∞ − R_B∞ ≤ ξ/(1 + ξ(1+σ²))`` [derived].

    Source: [hpcy25] Thm 4.2(iii) (inequality lost); our reading (proof
    reduces
    to ``√(b² + 4σ²) ≤ b + 4``, ``b = σ² − 1 + 1/ξ``).

    >>> round(bayes_gap_bound(0.125, 0.1), 6)
    0.10989
    """
    return dual(_gap_bound, (_XI, _S2), (xi, sigma2))


bayes_gap_bound_fn = checked(twin(_gap_bound, (_XI, _S2)), args=("xi", "sigma2"))


@checked
def bayes_risk_given_design(X: Any, sigma2: Any) -> Any:
    """Finite-sample Bayes risk given the design: ``σ² + σ² tr[(XᵀX + dσ² I_d)^{-1}]``.

    Source: [hpcy25] (D.34).  ``R_B = E_X`` of this
    (prior ``β ~ N(0, I/d)``, so ridge with ``λ = dσ²`` is the posterior mean); includes the
    query noise.

    Parameters
    ----------
    X : design, numpy ``(L, d)`` or ``(B, L, d)`` (batched), or a SymPy ``Matrix``;
    sigma2 : noise variance σ² > 0.

    Returns
    -------
    float (an array for a batch of designs); a SymPy expression for a SymPy ``X`` or ``σ²`` (with
    one ``(L, d)`` design).

    Notes
    -----
    Evaluates the shared :func:`theory.common.baselines.bayes_conditional_risk` at
    ``Σ_x = I_d``, ``Ψ = I_d/d`` (the formula is not typed again here).

    Examples
    --------
    >>> round(bayes_risk_given_design(np.zeros((3, 2)), 0.5), 6)
    1.5
    """
    if ops_for(X, sigma2).symbolic:
        if not isinstance(X, (sp.Basic, sp.MatrixBase)):  # numbers, σ² symbolic
            if np.ndim(X) != 2:
                raise ValueError(
                    f"X must be one (L, d) design when σ² is symbolic, got shape {np.shape(X)}"
                )
            X = sp.Matrix(X)
        d = cast(Any, X).shape[1]
        return baselines.bayes_conditional_risk(X, sp.eye(d), sp.eye(d) / d, sp.sympify(sigma2))
    d = np.shape(X)[-1]
    return _as_float(baselines.bayes_conditional_risk(X, np.eye(d), np.eye(d) / d, sigma2))
