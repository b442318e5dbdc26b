"""Acceptance bands and printed reference values as Evidence (shared by the hpcy25 checks)."""

from __future__ import annotations

from typing import Any

import sympy as sp

from numerics.testing import MC_POWER, Z_MC, close_agreement, underpowered
from theory.common.backend import dual
from theory.common.protocols import Evidence

__all__ = ["band", "mc_sign", "printed", "spec_bayes_limit"]


def band(
    name: str,
    value: float,
    lo: float | None,
    hi: float | None,
    *,
    kind: str = "ORDER",
    details: dict[str, Any] | None = None,
) -> Evidence:
    """``lo ≤ value ≤ hi`` (a stated acceptance band, cited in ``details``).

    ``error`` is the distance outside the band in units of the band's half-width (0 inside).

    >>> band("x", 0.5, 0.0, 1.0).passed
    True
    >>> e = band("x", 1.5, 0.0, 1.0)                   # 0.5 outside, half-width 0.5
    >>> e.passed, e.error
    (False, 1.0)
    """
    v = float(value)
    lo_ = -float("inf") if lo is None else float(lo)
    hi_ = float("inf") if hi is None else float(hi)
    width = (
        (hi_ - lo_) / 2
        if lo is not None and hi is not None
        else max(abs(lo_ if lo is not None else hi_), 1e-300)
    )
    out = max(lo_ - v, v - hi_, 0.0)
    ok = lo_ <= v <= hi_
    err = (out / width if width > 0 else float("inf")) if not ok else 0.0
    return Evidence(
        name=name,
        kind=kind,
        predicted=f"[{lo_:.6g}, {hi_:.6g}]",
        observed=v,
        tolerance=float(width),
        error=float(err) if err == err else float("inf"),
        passed=bool(ok),
        details=details or {},
    )


#: Relative float64 round-off of a risk computed as a sum of O(1) terms (:func:`mc_sign`'s floor).
ROUNDOFF_RTOL = 1e-12
#: Two algebraic forms of one float64 expression: a few ulps of round-off.
SAME_FORMULA_RTOL = 1e-12


def mc_sign(
    name: str,
    mean: float,
    se: float,
    n: int,
    *,
    negative: bool,
    scale: float,
    z: float = Z_MC,
    details: dict[str, Any] | None = None,
    requested: int = 0,
    seconds: float | None = None,
) -> Evidence:
    """MC, one-sided, for a paired difference of risks: ``negative=True`` passes when the mean is
    negative beyond ``z`` standard errors (``mean ≤ −z·se``; error ``2 + mean/(z·se)``, ≤ 1 iff it
    passes), ``negative=False`` when it is not (``mean ≥ −z·se``; error ``−mean/(z·se)``); both
    with the power check ``se ≤ 2 % of scale`` (``scale``: the risk the difference is of).  The
    tolerance has a round-off floor of :data:`ROUNDOFF_RTOL` times ``scale``: two predictors that
    are the same up to float64 round-off differ by nothing, however small their paired se.
    Without power the row is ``skipped`` with the sample it needs
    (:func:`numerics.testing.underpowered`) unless the data contradict the claim beyond the
    tolerance (``mean ≥ tol`` for a claimed gain, ``mean < −tol`` for "no gain"): a ``fail``.
    ``requested`` (the sample asked for, when it was raised for power) and ``seconds`` (the time
    the ``n`` samples took) go into the skip's numbers.

    >>> mc_sign("gain", -0.01, 0.01, 100, negative=True, scale=0.2).status  # se/scale 5 %
    'skipped'
    >>> mc_sign("gain", 0.2, 0.01, 100, negative=True, scale=0.2).status  # a clear loss
    'fail'
    """
    tol = z * se + ROUNDOFF_RTOL * scale
    if not (se >= 0 and scale > 0):
        raise ValueError(f"{name}: needs se >= 0 and scale > 0, got se={se}, scale={scale}")
    err = 2 + mean / tol if negative else -mean / tol
    powered = se <= MC_POWER * scale
    ok = (mean <= -tol if negative else mean >= -tol) and powered
    row = Evidence(
        name=name,
        kind="MC",
        predicted=f"< -{z:g} se (negative)" if negative else f">= -{z:g} se (no gain)",
        observed=float(mean),
        tolerance=float(tol),
        error=max(float(err), 0.0),
        passed=bool(ok),
        se=float(se),
        scale=float(scale),
        details={
            "n": int(n),
            "z": z,
            "z_observed": mean / se if se > 0 else 0.0,
            "power_ok": powered,
            **(details or {}),
        },
    )
    # without power a sign the data cannot resolve is skipped (with the sample it needs), never
    # a fail; the data contradict the claim only beyond z se (a gain seen as a clear loss, or
    # "no gain" seen as a clear gain)
    contradicted = mean >= tol if negative else mean < -tol
    if powered or contradicted or n < 2:
        return row
    return underpowered(row, se=se, scale=scale, n=n, requested=requested, seconds=seconds)


def printed(name: str, value: float, ref: float, digits: int) -> Evidence:
    """A reference number printed with ``digits`` decimals: agreement to half a unit in the last
    place (plus float rounding).

    >>> printed("2/7", 2 / 7, 0.2857, 4).passed, printed("2/7", 2 / 7, 0.2858, 4).passed
    (True, False)
    """
    return close_agreement(
        name,
        value,
        ref,
        atol=0.5 * 10.0**-digits + 1e-12,
        kind="FLOAT",
        details={
            "source": "reference value of the paper's closed form at this point (the paper "
            "prints none)",
            "digits": digits,
        },
    )


def spec_bayes_limit(xi: Any, sigma2: Any) -> Any:
    """Our [derived] closed form of ``R_B∞`` (our reading of (D.34)–(D.36), whose formulas our copy
    of hpcy25 lost; the paper prints no value), as a test oracle for Thm 4.2(iii):
    ``½[σ² + 1 − 1/ξ + √(4σ² + (σ² − 1 + 1/ξ)²)]`` (SymPy in → expression, numbers in →
    float64).  :func:`theory.hpcy25.bayes_risk_limit` evaluates the shared MP form
    instead; the first rows of :func:`check_thm4_2iii_symbolic` tie the two together exactly.

    Noiseless limit by hand: ``1 − 1/ξ`` for ``ξ ≥ 1`` and ``0`` below (interpolation); and it
    agrees with the Marchenko–Pastur route at a noisy point:

    >>> float(spec_bayes_limit(3.0, 0.0)), float(spec_bayes_limit(0.4, 0.0))
    (0.6666666666666667, 0.0)
    >>> import theory.hpcy25 as th
    >>> abs(spec_bayes_limit(0.2, 3.0) - th.bayes_risk_limit(0.2, 3.0)) < 1e-12
    True
    """

    def display(x: Any, s2: Any) -> Any:
        return sp.Rational(1, 2) * (s2 + 1 - 1 / x + sp.sqrt(4 * s2 + (s2 - 1 + 1 / x) ** 2))

    syms = (sp.Symbol("xi", positive=True), sp.Symbol("sigma2", nonnegative=True))
    return dual(display, syms, (xi, sigma2))
