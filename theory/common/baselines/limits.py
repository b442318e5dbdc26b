"""Proportional (Marchenko–Pastur) limits of the ridge and Bayes risks.  Public names are
re-exported by :mod:`theory.common.baselines`."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, cast

import numpy as np
import sympy as sp

from theory.common.baselines.gd import float_out
from theory.common.evaluate import is_symbolic, lambdified
from theory.common.symbols import lam as lam_sym
from theory.common.symbols import sigma2 as sigma2_sym
from theory.common.symbols import xi as xi_sym

__all__ = ["signal_sym", "mp_stieltjes", "ridge_risk_limit", "bayes_risk_limit_mp"]

signal_sym = sp.Symbol("signal", positive=True)  # E||beta||^2 in the proportional limit


# ------------------------------------------------------------------- proportional (MP) limit
def _mp_m(xi: Any, lam: Any) -> Any:
    # Marchenko-Pastur Stieltjes transform at z = -lam < 0 (hpcy25 R9, czz24 R10):
    # m(-lam) = [sqrt((1 - xi + lam)^2 + 4 xi lam) - (1 - xi + lam)] / (2 xi lam)
    b = 1 - xi + lam
    return (sp.sqrt(b**2 + 4 * xi * lam) - b) / (2 * xi * lam)


def mp_m_stable_parts(xi: Any, lam: Any) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
    """The same m(−λ) for the float64 twin, as ``m_reg + w/λ`` on two branches of b = 1 − ξ + λ:

    * b ≥ 0: ``m_reg = 2/(b + s)`` (rationalised: ``s − b`` cancels when ξλ ≪ b²), ``w = 0``;
    * b < 0 (ξ > 1 + λ): the point mass ``w = 1 − 1/ξ`` of the MP law at 0 split off, and the
      N×N companion transform ``m_reg = (2/ξ)/(s + ξ − 1 + λ)`` (no cancellation).

    Both are algebraically equal to :func:`_mp_m`; ``check_mp_exact`` verifies it exactly.
    """
    b = 1 - xi + lam
    s = sp.sqrt(b**2 + 4 * xi * lam)
    return (2 / (b + s), sp.Integer(0)), ((2 / xi) / (s + xi - 1 + lam), 1 - 1 / xi)


def _ridge_risk_from_m(m: Any, w: Any, l: Any, xi: Any, s2: Any, signal: Any) -> Any:
    # m(-lam) = m_reg + w/lam.  risk = s2 + signal lam^2 m' + s2 xi (m - lam m'),
    # m' = -d/dlam m(-lam); the point mass w/lam contributes signal*w to the bias and 0 to the
    # variance term, so it is added in closed form (no cancellation in floating point).
    mprime = -sp.diff(m, l)
    return s2 + signal * (l**2 * mprime + w) + s2 * xi * (m - l * mprime)


def _ridge_limit_expr(xi: Any, lam: Any, s2: Any, signal: Any, *, stable: bool = False) -> sp.Expr:
    l = sp.Dummy("lam", positive=True)
    if not stable:
        expr = _ridge_risk_from_m(_mp_m(xi, l), 0, l, xi, s2, signal)
    else:
        (m_pos, w_pos), (m_neg, w_neg) = mp_m_stable_parts(xi, l)
        expr = sp.Piecewise(
            (_ridge_risk_from_m(m_pos, w_pos, l, xi, s2, signal), 1 - xi + l >= 0),
            (_ridge_risk_from_m(m_neg, w_neg, l, xi, s2, signal), True),
        )
    return cast(sp.Expr, expr.subs(l, lam))


@functools.cache
def _ridge_limit_fn(backend: str = "numpy") -> Callable[..., Any]:
    args = (xi_sym, lam_sym, sigma2_sym, signal_sym)
    return lambdified(args, _ridge_limit_expr(*args, stable=True), backend=backend)


@functools.cache
def _mp_fn(backend: str = "numpy") -> Callable[..., Any]:
    (m_pos, _), (m_neg, w_neg) = mp_m_stable_parts(xi_sym, lam_sym)
    expr = sp.Piecewise((m_pos, 1 - xi_sym + lam_sym >= 0), (m_neg + w_neg / lam_sym, True))
    return lambdified((xi_sym, lam_sym), expr, backend=backend)


def _limit_args(xi: Any, lam: Any | None, s2: Any, signal: Any) -> None:
    for name, v, lower_open in (
        ("xi", xi, True),
        ("noise_var (sigma^2)", s2, False),
        ("signal", signal, True),
        ("lam", lam, True),
    ):
        if v is None:
            continue
        if isinstance(v, (str, bytes)) or (
            isinstance(v, np.ndarray) and v.dtype.kind not in "biuf"
        ):
            raise TypeError(f"{name} must be a real number or array, got {v!r}")
        arr = np.asarray(v, dtype=float)
        if not np.all(np.isfinite(arr)) or np.any(arr <= 0 if lower_open else arr < 0):
            op = ">" if lower_open else "≥"
            raise ValueError(f"{name} must be finite and {op} 0 (proportional limit), got {v!r}")


def mp_stieltjes(xi: Any, lam: Any) -> Any:
    r"""Marchenko–Pastur Stieltjes transform ``m(−λ) = lim (1/d) tr (XᵀX/N + λI)⁻¹``, d/N → ξ.

    Source: [hpcy25] eq. (D.34)–(D.36); [czz24] Thm 5.3 / App. F ``m_γ(−λ)``;
    Dobriban & Wager (2018).

    .. math::

        m(-\lambda) = \frac{\sqrt{(1-\xi+\lambda)^2 + 4\xi\lambda} - (1-\xi+\lambda)}{2\xi\lambda},
        \qquad \xi\lambda m^2 + (1-\xi+\lambda)m - 1 = 0.

    Parameters
    ----------
    xi : aspect ratio ξ = d/N > 0;  lam : λ > 0 (normalised: ``XᵀX/N + λI``)

    Returns
    -------
    float64 (broadcast array), or a SymPy expression.

    Examples
    --------
    >>> round(float(mp_stieltjes(1e-9, 1.0)), 6)   # ξ → 0: 1/(1 + λ)
    0.5
    """
    if is_symbolic(xi, lam):
        return _mp_m(sp.sympify(xi), sp.sympify(lam))
    _limit_args(xi, lam, 0.0, 1.0)
    return float_out(_mp_fn()(np.asarray(xi, dtype=float), np.asarray(lam, dtype=float)))


def ridge_risk_limit(xi: Any, lam: Any, noise_var: Any, signal: Any = 1) -> Any:
    r"""Proportional-limit ICL risk of ridge, ``x ~ N(0, I_d)``, ``β ~ N(0, (signal/d) I_d)``.

    Source: [czz24] App. F ridge formula (eqs. F.4/F.8 context) and [hpcy25] App. D
    via the Marchenko–Pastur Stieltjes transform (Dobriban & Wager 2018, Thm 2.1; Hastie et al.
    2022, Thm 5) [derived: assembled here from the conditional risk of [czz24] App. F].

    With ``Σ̂ = XᵀX/N``, ``β̂ = (Σ̂ + λI)⁻¹Xᵀy/N`` (= ``ridge_predictor(X, y, N·λ)``) and
    ``m = m(−λ)``, ``m' = m'(z)|_{z=−λ} = −∂_λ m(−λ)``:

    .. math::

        R_\lambda = \sigma^2 + \text{signal}\,\lambda^2 m' + \sigma^2\xi\,(m - \lambda m').

    Parameters
    ----------
    xi : ξ = lim d/N > 0;  lam : normalised penalty λ > 0;  noise_var : σ² ≥ 0;
    signal : α² = E‖β‖² > 0 (1 in hpcy25 and czz24's theory; 4 in czz24's experiments)

    Returns
    -------
    float64 (broadcast array), or a SymPy expression in the arguments.

    Notes
    -----
    Bias ``(α²/d)‖λ(Σ̂ + λ)⁻¹‖_F² → α²λ²m'`` and variance ``(σ²/N)tr(Σ̂(Σ̂ + λ)⁻²) →
    σ²ξ(m − λm')`` ([czz24] App. F's conditional formula).  Minimised at ``λ* = σ²ξ/α²`` where it is
    :func:`bayes_risk_limit_mp`.  λ = 0 (ridgeless) is excluded.

    Examples
    --------
    >>> round(float(ridge_risk_limit(1e-9, 1.0, 0.0)), 6)   # ξ → 0, σ² = 0: bias λ²/(1+λ)²
    0.25
    """
    if is_symbolic(xi, lam, noise_var, signal):
        return _ridge_limit_expr(
            sp.sympify(xi), sp.sympify(lam), sp.sympify(noise_var), sp.sympify(signal)
        )
    _limit_args(xi, lam, noise_var, signal)
    f = _ridge_limit_fn()
    return float_out(f(*(np.asarray(v, dtype=float) for v in (xi, lam, noise_var, signal))))


def bayes_risk_limit_mp(xi: Any, noise_var: Any, signal: Any = 1) -> Any:
    r"""Proportional-limit Bayes risk: ridge at ``λ* = σ²ξ/signal`` (the posterior mean).

    Source: [hpcy25] eqs. (D.34)–(D.36), ``R_B∞``; [czz24] App. F ``R_ridge*``.

    .. math::

        R_{B\infty} = \sigma^2 + \sigma^2\xi\, m(-\sigma^2\xi/\text{signal})
        \;\overset{\text{signal}=1}{=}\; \tfrac12\Bigl[\sigma^2 + 1 - \tfrac1\xi
            + \sqrt{4\sigma^2 + (\sigma^2 - 1 + 1/\xi)^2}\Bigr].

    Parameters
    ----------
    xi : ξ > 0;  noise_var : σ² > 0;  signal : α² = E‖β‖² > 0

    Returns
    -------
    float64 (broadcast array), or a SymPy expression.

    Notes
    -----
    Implemented as :func:`ridge_risk_limit` at λ* (no second transcription); tests check it
    against both forms above (the second is our reading of hpcy25's (D.34)–(D.36),
    whose formulas our copy lost: not a printed form) and our reference values (ξ = 1/8, σ² = 0.1:
    0.114057; the paper prints no value).

    Examples
    --------
    >>> round(float(bayes_risk_limit_mp(0.125, 0.1)), 6)
    0.114057
    """
    if is_symbolic(xi, noise_var, signal):
        xi, noise_var, signal = (sp.sympify(v) for v in (xi, noise_var, signal))
        return _ridge_limit_expr(xi, noise_var * xi / signal, noise_var, signal)
    _limit_args(xi, None, noise_var, signal)
    if np.any(np.asarray(noise_var, dtype=float) <= 0):
        raise ValueError(f"noise_var (sigma^2) must be > 0 for the Bayes limit, got {noise_var!r}")
    xi_a, s2, sig = (np.asarray(v, dtype=float) for v in (xi, noise_var, signal))
    return float_out(_ridge_limit_fn()(xi_a, s2 * xi_a / sig, s2, sig))
