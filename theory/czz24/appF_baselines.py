"""[czz24] §5 Thm 5.3 (lower part) and App. F: exact OLS / ridge baselines for Σ = I.

The formulas are those of :mod:`theory.common.baselines` (``base:ols``, ``base:ridge-limit``,
``base:bayes-risk``), turned into czz24's *excess* risk ``E‖ŵ − w*‖²`` (no query noise), plus the
min-norm (d > n) branch and the λ-dependent lower bounds of App. F.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.common.backend import dual
from theory.common.baselines import (
    bayes_risk_limit_mp,
    ols_risk_expr,
    ridge_conditional_risk,
)
from theory.common.symbols import N as N_sym
from theory.common.symbols import d as d_sym
from theory.common.symbols import n as n_sym
from theory.common.symbols import sigma2 as sigma2_sym
from theory.czz24.domains import checked

__all__ = [
    "ols_excess_risk",
    "ols_excess_expr",
    "minnorm_excess_expr",
    "ridge_lmmse_lambda",
    "ridge_excess_conditional",
    "ridge_star_limit",
    "linear_lower_bound",
]

_w2 = sp.Symbol("w_norm2", nonnegative=True)
_ALPHA2 = sp.Symbol("alpha2", positive=True)


@checked
def ols_excess_expr() -> sp.Expr:
    """``σ² d/(n − d − 1)``: :func:`theory.common.baselines.ols_risk_expr` minus the query noise,
    at ``N = n`` (n ≥ d + 2).

    Source: [czz24] Thm 5.3 / App. F.4 (OLS as λ → 0), with the inverse-Wishart mean
    ``E(XᵀX)⁻¹ = I/(n − d − 1)``.  A SymPy expression in ``d``, ``n``, ``sigma2`` of
    :mod:`theory.common.symbols`.

    >>> from theory.common.symbols import d, n, sigma2
    >>> sp.simplify(ols_excess_expr() - sigma2 * d / (n - d - 1))
    0
    """
    return sp.simplify(ols_risk_expr().subs(N_sym, n_sym) - sigma2_sym)


@checked
def minnorm_excess_expr() -> sp.Expr:
    """``‖w‖²(1 − n/d) + σ² n/(d − n − 1)`` (d ≥ n + 2): the variance term is
    :func:`ols_excess_expr` with the roles of ``d`` and ``n`` exchanged (inverse-Wishart mean of
    ``(XXᵀ)⁻¹``), the bias is the projection ``E‖(I − P_X)w‖² = ‖w‖²(1 − n/d)``.

    Source: [czz24] Thm 5.3 / App. F.4–F.8 (the d > n branch), [derived].  A SymPy expression in
    ``d``, ``n``, ``sigma2`` and ``w_norm2`` (``‖w‖²``).

    >>> e = minnorm_excess_expr()
    >>> vals = {"d": 16, "n": 10, "sigma2": 0.01, "w_norm2": 4.0}
    >>> round(float(e.subs({x: vals[x.name] for x in e.free_symbols})), 6)   # 4·6/16 + 0.01·10/5
    1.52
    """
    swapped = ols_excess_expr().subs({d_sym: n_sym, n_sym: d_sym}, simultaneous=True)
    return _w2 * (1 - n_sym / d_sym) + swapped


@checked
def ols_excess_risk(d: Any, n: Any, sigma2: Any, w_norm2: Any) -> Any:
    r"""Exact expected OLS excess risk ``E_X,ε ‖ŵ_ols − w‖²``, ``Σ = I``, no query noise.

    Source: [czz24] Thm 5.3 / App. F.4 (OLS as λ → 0); our "exact closed
    forms"; built on :func:`theory.common.baselines.ols_risk_expr` (``base:ols``).

    .. math::

        \mathbb E\|\hat w_{\rm ols} - w\|^2 =
        \begin{cases} \sigma^2 d/(n-d-1) & n \ge d + 2,\\
        \|w\|^2(1 - n/d) + \sigma^2 n/(d-n-1) & d \ge n+2 \ (\text{min-norm}),\\
        \infty & n \in \{d-1, d, d+1\},\ \sigma^2 > 0 .\end{cases}

    Parameters
    ----------
    d : dimension ≥ 1;  n : context length ≥ 1;  sigma2 : σ² ≥ 0;  w_norm2 : ‖w‖² ≥ 0

    Returns
    -------
    float (``math.inf`` where the expectation is infinite), or a SymPy ``Piecewise``.

    Notes
    -----
    With σ² = 0 every branch is finite: ``‖w‖²·max(1 − n/d, 0)`` (exact recovery for n ≥ d).
    The ±1/√s prior has ``‖w‖² = 1``; the experimental prior has ``E‖w‖² = s``.

    Examples
    --------
    >>> ols_excess_risk(16, 24, 0.01, 4.0)   # σ² d/(n − d − 1) = 0.16/7
    0.022857142857142857
    >>> ols_excess_risk(16, 10, 0.01, 4.0)   # 4·(6/16) + 0.01·10/5
    1.52
    >>> ols_excess_risk(16, 16, 0.01, 4.0)
    inf
    """
    with np.errstate(divide="ignore", invalid="ignore"):  # every branch is evaluated
        return dual(_ols_excess, (d_sym, n_sym, sigma2_sym, _w2), (d, n, sigma2, w_norm2))


def _ols_excess(d: Any, n: Any, sigma2: Any, w2: Any) -> Any:
    """The piecewise OLS / min-norm excess risk of :func:`ols_excess_risk` (one SymPy builder)."""
    sub: dict[Any, Any] = {d_sym: d, n_sym: n, sigma2_sym: sigma2, _w2: w2}
    return sp.Piecewise(
        (w2 * sp.Max(1 - n / d, 0), sp.Eq(sigma2, 0)),
        (ols_excess_expr().subs(sub), sp.Ge(n, d + 2)),
        (minnorm_excess_expr().subs(sub), sp.Ge(d, n + 2)),
        (sp.oo, True),
    )


@checked
def ridge_lmmse_lambda(d: Any, n: Any, sigma2: Any, alpha2: Any) -> Any:
    r"""``λ* = σ² d/(n α²)`` (normalised ridge ``(Σ̂ + λI)⁻¹Xᵀy/n``): the LMMSE penalty for any
    prior with ``E[wwᵀ] = (α²/d) I``.

    >>> ridge_lmmse_lambda(16, 8, 0.5, 1.0)
    1.0
    """
    return dual(
        lambda d, n, s2, a2: s2 * d / (n * a2),
        (d_sym, n_sym, sigma2_sym, _ALPHA2),
        (d, n, sigma2, alpha2),
    )


@checked
def ridge_excess_conditional(X: Any, lam: Any, sigma2: Any, alpha2: Any) -> float:
    r"""Bayes excess risk of normalised ridge given X, prior ``E[wwᵀ] = (α²/d)I``, Σ = I.

    Source: [derived] (App. F.4–F.8); evaluated by :func:`theory.common.baselines.
    ridge_conditional_risk` at the unnormalised penalty ``nλ`` (``base:bayes-risk``).

    .. math:: \frac{\alpha^2}{d}\|\lambda(\hat\Sigma+\lambda I)^{-1}\|_F^2
        + \frac{\sigma^2}{n}\mathrm{Tr}\bigl(\hat\Sigma(\hat\Sigma+\lambda I)^{-2}\bigr).

    At ``λ = 0`` it is the ``λ → 0⁺`` limit [derived]: ``λ(Σ̂ + λI)⁻¹ → P₀``, the projector on
    ker Σ̂, and ``Σ̂(Σ̂ + λI)⁻² → Σ̂⁺``, so the risk is ``(α²/d)(d − rank Σ̂) + (σ²/n)Tr Σ̂⁺``: the
    min-norm least-squares fit's (the ``λ → 0⁺`` limit of ridge, :func:`numerics.czz24.predictors.
    ridge_fit` at λ = 0), finite for every X, and OLS's ``(σ²/n)Tr Σ̂⁻¹`` when Σ̂ is invertible.

    Parameters
    ----------
    X : n×d context (``Σ̂ = XᵀX/n``);  lam : λ ≥ 0;  sigma2 : σ²;  alpha2 : ``α² = E‖w‖²``

    Examples
    --------
    With ``Σ̂ = I`` (``X = √2 I``, n = d = 2), λ = 1: ``α²/4 + σ²/4 = 0.25 + 0.125``:

    >>> ridge_excess_conditional(np.sqrt(2) * np.eye(2), 1.0, 0.5, 1.0)
    0.375

    λ = 0 with one context pair ``x = (2, 0)`` in d = 2 (n = 1): ``Σ̂ = diag(4, 0)``, rank 1,
    ``Tr Σ̂⁺ = 1/4``: ``α²/2 + σ²/4 = 0.5 + 0.125``:

    >>> ridge_excess_conditional([[2.0, 0.0]], 0.0, 0.5, 1.0)
    0.625
    """
    X = np.asarray(X, dtype=float)
    n, d = X.shape
    a2, s2 = float(alpha2), float(sigma2)
    if float(lam) == 0.0:
        # Σ̂'s non-zero eigenvalues are the squared singular values of X/√n (rank as
        # ``numpy.linalg.matrix_rank`` counts it)
        sv = np.linalg.svd(X / np.sqrt(n), compute_uv=False)
        pos = sv[sv > sv.max(initial=0.0) * max(n, d) * np.finfo(float).eps]
        return float(a2 / d * (d - pos.size) + s2 / n * np.sum(1.0 / pos**2))
    risk = ridge_conditional_risk(X, n * float(lam), np.eye(d), np.zeros(d), a2 / d * np.eye(d), s2)
    return float(risk) - s2


@checked
def ridge_star_limit(gamma: Any, sigma2: Any, alpha2: Any = 1) -> Any:
    r"""Proportional-limit ridge* excess risk ``σ²γ m_γ(−λ*)``, via
    :func:`theory.common.baselines.bayes_risk_limit_mp` (``base:mp-limit``) minus σ².

    >>> round(ridge_star_limit(0.125, 0.25), 4)   # (d, n) = (64, 512): reference value 0.0343
    0.0343
    """
    return float(bayes_risk_limit_mp(gamma, sigma2, alpha2)) - float(sigma2)


@checked
def linear_lower_bound(d: Any, n: Any, sigma2: Any, lam: Any = 0.0) -> float:
    r"""The λ-dependent lower-bound shapes of Thm 5.3 (App. F.4, F.8), constants
    dropped: ``σ² d/((1+λ)² n)`` for ``n ≥ d`` and ``1 − n/d + σ² n/((1+λ)² d)`` for ``d > n``
    (GD: ``λ = 1/(ηt)``, App. F.3).

    >>> linear_lower_bound(4, 8, 0.5, 1.0)    # 0.5·4/(2²·8)
    0.0625
    >>> linear_lower_bound(8, 4, 0.5, 1.0)    # 1 − 1/2 + 0.5·4/(2²·8)
    0.5625
    """
    d, n, s2, lam = int(d), int(n), float(sigma2), float(lam)
    if n >= d:
        return s2 * d / ((1 + lam) ** 2 * n)
    return 1 - n / d + s2 * n / ((1 + lam) ** 2 * d)
