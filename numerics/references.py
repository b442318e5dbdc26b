"""50-digit mpmath references for the FLOAT checks of the baselines.

These are *independent* routes, not the SymPy expressions re-evaluated at high precision:

* :func:`mp_stieltjes_ref` solves the Marchenko–Pastur self-consistency equation
  ``ξλ m² + (1 − ξ + λ) m − 1 = 0`` for its positive root with ``mpmath.polyroots``;
* :func:`ridge_limit_ref` differentiates that root numerically (``mpmath.diff``) to get ``m'``;
* :func:`bayes_limit_ref` is our closed form ``½[σ² + 1 − 1/ξ + √(4σ² + (σ² − 1 +
  1/ξ)²)]`` (its reading of hpcy25's (D.34)–(D.36), whose formulas our copy lost; the paper prints
  no value), scaled to a general signal ``α²`` by homogeneity (risk − σ² scales as α² at fixed
  σ²/α²);
* :func:`exact_rational` evaluates a SymPy matrix formula at exact rational inputs.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import sympy as sp

__all__ = [
    "DPS",
    "mp_stieltjes_ref",
    "ridge_limit_ref",
    "bayes_limit_ref",
    "ols_risk_ref",
    "to_rational_matrix",
    "exact_rational",
]

#: Working precision of every reference (decimal digits).
DPS = 50


def _mpf(x: Any) -> Any:
    return mpmath.mpf(Fraction(float(x)).numerator) / Fraction(float(x)).denominator


def mp_stieltjes_ref(xi: float, lam: float) -> Any:
    """Positive root of ``ξλ m² + (1 − ξ + λ) m − 1 = 0`` (the MP Stieltjes transform at −λ).

    ``xi = d/N`` (aspect ratio), ``lam > 0``; returns an ``mpmath.mpf`` at :data:`DPS` digits.

    Example: at ``ξ = λ = 1`` the equation is ``m² + m − 1 = 0``, whose positive root is
    ``(√5 − 1)/2``:

    >>> round(float(mp_stieltjes_ref(1.0, 1.0)), 9), round((5**0.5 - 1) / 2, 9)
    (0.618033989, 0.618033989)
    """
    with mpmath.workdps(DPS):
        x, l = _mpf(xi), _mpf(lam)
        roots = mpmath.polyroots([x * l, 1 - x + l, -1], maxsteps=200, extraprec=2 * DPS)
        pos = [
            mpmath.re(r)
            for r in roots
            if abs(mpmath.im(r)) < mpmath.mpf(10) ** (-DPS + 5) and mpmath.re(r) > 0
        ]
        if len(pos) != 1:
            raise ArithmeticError(f"expected one positive root, got {roots}")
        return +pos[0]


def ridge_limit_ref(xi: float, lam: float, noise_var: float, signal: float = 1.0) -> Any:
    """``σ² + α²λ²m' + σ²ξ(m − λm')`` with ``m`` from :func:`mp_stieltjes_ref` and ``m'`` by
    50-digit numerical differentiation (``m' = −dm/dλ``; the ridge limit of [hpcy25] App. D).

    Scalars in, ``mpmath.mpf`` out. Example: at ``ξ = λ = 1``, differentiating ``m² + m − 1 = 0``
    implicitly gives ``m' = (m² + m)/(2m + 1) = 1/√5``, so with no noise the limit is ``1/√5``:

    >>> round(float(ridge_limit_ref(1.0, 1.0, 0.0)), 9), round(5**-0.5, 9)
    (0.447213595, 0.447213595)
    """
    with mpmath.workdps(DPS + 20):
        x, l, s2, a2 = (_mpf(v) for v in (xi, lam, noise_var, signal))
        m = mp_stieltjes_ref(xi, lam)
        mprime = -mpmath.diff(lambda t: _root(x, t), l)
        out = s2 + a2 * l**2 * mprime + s2 * x * (m - l * mprime)
    with mpmath.workdps(DPS):
        return +out


def _root(x: Any, l: Any) -> Any:
    # the positive root of x l m^2 + (1 - x + l) m - 1 in the numerically stable form
    b = 1 - x + l
    return 2 / (b + mpmath.sqrt(b**2 + 4 * x * l))


def bayes_limit_ref(xi: float, noise_var: float, signal: float = 1.0) -> Any:
    """Our [derived] closed form of hpcy25's ``R_B∞`` (signal 1; the paper's (D.36) is lost in our
    copy); for signal α², ``α²·R_B∞(ξ, σ²/α²)`` (the limit is homogeneous of degree 1 in
    (σ², α²)).

    Scalars in, ``mpmath.mpf`` out. Example: at ``ξ = σ² = 1`` the bracket is ``1 + √5``:

    >>> round(float(bayes_limit_ref(1.0, 1.0)), 9), round((1 + 5**0.5) / 2, 9)
    (1.618033989, 1.618033989)
    >>> round(float(bayes_limit_ref(1.0, 2.0, signal=2.0)), 9)  # homogeneity: 2·R_B∞(1, 1)
    3.236067977
    """
    with mpmath.workdps(DPS):
        x, s2, a2 = (_mpf(v) for v in (xi, noise_var, signal))
        t = s2 / a2
        r1 = (t + 1 - 1 / x + mpmath.sqrt(4 * t + (t - 1 + 1 / x) ** 2)) / 2
        return a2 * r1


def ols_risk_ref(d: int, N: int, noise_var: float) -> Any:
    """``σ²(1 + d/(N − d − 1))`` at 50 digits ([czz24] App. F + query noise).

    Needs ``N > d + 1``; returns an ``mpmath.mpf``. Example: ``d = 2, N = 5`` doubles the noise:

    >>> float(ols_risk_ref(2, 5, 1.0))
    2.0
    """
    with mpmath.workdps(DPS):
        return _mpf(noise_var) * (1 + mpmath.mpf(d) / (N - d - 1))


def to_rational_matrix(a: Any) -> Any:
    """Exact SymPy rationals equal to the float64 entries of ``a`` (matrix, vector or scalar).

    A scalar gives a ``sympy.Rational``; a vector of length ``n`` an ``(n, 1)`` column; an
    ``(m, n)`` array an ``(m, n)`` ``sympy.Matrix``.

    >>> to_rational_matrix(0.75)
    3/4
    >>> to_rational_matrix([0.5, 0.25]).shape
    (2, 1)
    """
    arr = np.asarray(a, dtype=float)
    if arr.ndim == 0:
        return sp.Rational(Fraction(float(arr)))
    if arr.ndim == 1:
        arr = arr[:, None]
    return sp.Matrix([[sp.Rational(Fraction(float(v))) for v in row] for row in arr])


def exact_rational(fn: Callable[..., Any], *args: Any, ints: tuple[int, ...] = ()) -> float:
    """Evaluate a closed form at the exact rational values of float ``args`` (positions in
    ``ints`` are passed as SymPy Integers) and return the exact result rounded to float.

    A scalar result comes back as ``float``, a matrix result as a float ``ndarray``.

    >>> exact_rational(lambda a, n: a**2 / n, 0.5, 3, ints=(1,))  # (1/2)²/3 = 1/12
    0.08333333333333333
    """
    conv = [sp.Integer(int(a)) if i in ints else to_rational_matrix(a) for i, a in enumerate(args)]
    val = fn(*conv)
    if isinstance(val, sp.MatrixBase):
        return np.array(val.evalf(DPS).tolist(), dtype=float)  # type: ignore[return-value]
    return float(sp.N(val, DPS))
