"""Named tolerances and agreement helpers, public for users' own tests.

Every helper returns an :class:`~theory.common.protocols.Evidence` record (so the report can show
predicted, observed, tolerance and pass) and has an ``assert_*`` twin for tests.  Each family has a
negative-control test in ``tests/common/test_testing.py`` proving it can fail.

=======  ================================================  ==================================
kind     comparison                                        constant(s)
=======  ================================================  ==================================
EXACT    ``sympy.simplify(lhs - rhs) == 0``                --
FLOAT    float64 value vs an mpmath reference (50 digits)  ``FLOAT_RTOL = 1e-12``
SOLVER   ODE vs closed form, error in solver units         ``SOLVER_RTOL/ATOL``, ``SOLVER_BOUND``
MC       ``|mean - expected| ≤ Z_MC·se + bias``, power     ``Z_MC = 5``, ``MC_POWER = 0.02``
TRAIN    prediction vs named alternatives, start distance  ``TRAIN_RTOL``, ``TRAIN_START_UNITS``
RATE     log-log slope within a band                       ``RATE_BAND = 0.15``
ORDER    strict inequality with a stated margin            caller's margin
OPTIM    optimiser on an exact formula vs the optimum      ``OPTIM_RTOL``, ``OPTIM_ARG_ATOL``
PAPER    computed value vs a number the paper prints       half a unit of the last digit
DERIVED  computed value vs a number we computed     half a unit of the last digit
INFO     reported only, never fails                        --
=======  ================================================  ==================================

The meaning of each kind is defined once, in :data:`theory.common.protocols.KIND_MEANINGS`.
Claims of the paper and the statuses beyond pass/fail (:func:`claim_agreement`,
:func:`with_verdict`, :func:`untested`, :func:`skipped`, :func:`assert_status`) are built in
:mod:`numerics.verdicts`, the PAPER and DERIVED rows (:func:`paper_agreement`,
:func:`derived_agreement`) in :mod:`numerics.cited`; both are re-exported here.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import sympy as sp
from scipy import stats

from numerics.cited import (
    DERIVED_PAGE,
    derived_agreement,
    fixture_atol,
    paper_agreement,
)
from numerics.train_evidence import (
    TRAIN_CONTRACT,
    TRAIN_RTOL,
    TRAIN_START_UNITS,
    TRAIN_TOLERANCE,
    nearest_alternative,
    not_converged,
    over_seeds,
    swap_alternative,
    tier_seeds,
    train_agreement,
    train_contract_violations,
    train_discrimination,
    trap_of,
)
from numerics.verdicts import (
    assert_discrepancy,
    assert_status,
    claim_agreement,
    claim_contract_violations,
    claim_verdict,
    evidence_row,
    evidence_rows,
    skipped,
    untested,
    with_verdict,
)
from theory.common.protocols import KINDS, Estimate, Evidence

__all__ = [
    "FLOAT_RTOL",
    "SOLVER_RTOL",
    "SOLVER_ATOL",
    "SOLVER_BOUND",
    "Z_MC",
    "MC_POWER",
    "TRAIN_RTOL",
    "TRAIN_TOLERANCE",
    "TRAIN_START_UNITS",
    "train_discrimination",
    "TRAIN_CONTRACT",
    "train_contract_violations",
    "over_seeds",
    "tier_seeds",
    "trap_of",
    "nearest_alternative",
    "swap_alternative",
    "claim_agreement",
    "claim_verdict",
    "with_verdict",
    "untested",
    "skipped",
    "claim_contract_violations",
    "assert_discrepancy",
    "assert_status",
    "RATE_BAND",
    "exact_agreement",
    "float_agreement",
    "close_agreement",
    "solver_agreement",
    "mc_agreement",
    "underpowered",
    "needed_samples",
    "mc_difference_agreement",
    "rate_agreement",
    "loglog_slope",
    "train_agreement",
    "ordering",
    "informational",
    "OPTIM_RTOL",
    "OPTIM_ARG_ATOL",
    "optim_agreement",
    "fixture_atol",
    "paper_agreement",
    "derived_agreement",
    "DERIVED_PAGE",
    "passed",
    "assert_passed",
    "assert_fails",
    "not_converged",
    "ROUTES_RTOL",
    "ROUTES_ATOL",
    "SYMBOLIC_RTOL",
    "SYMBOLIC_ATOL",
]

#: float64 evaluator vs 50-digit mpmath reference (also: an exact SymPy route evaluated to float).
FLOAT_RTOL = 1e-12
#: One value by two float64 routes (or exact entries converted to float64): round-off only.
ROUTES_RTOL = 1e-14
#: Its absolute floor, for entries near 0.
ROUTES_ATOL = 1e-15
#: A SymPy expression substituted and evaluated vs the float64 route of a longer chain.
SYMBOLIC_RTOL = 1e-9
#: Its absolute floor, for entries near 0.
SYMBOLIC_ATOL = 1e-12
#: Verification solver tolerances (never solve_ivp's defaults).
SOLVER_RTOL = 1e-10
SOLVER_ATOL = 1e-12
#: An ODE result agrees with a closed form if its error is ≤ SOLVER_BOUND solver units.
SOLVER_BOUND = 10.0
#: MC z-score: two-sided false-alarm probability ≈ 5.7e-7 per check.
Z_MC = 5.0
#: MC power: the standard error must be ≤ MC_POWER × the scale of the quantity.
MC_POWER = 0.02
#: Allowed deviation of a fitted log-log slope from the predicted exponent.
RATE_BAND = 0.15


def _arr(x: Any) -> np.ndarray:
    return np.asarray(x, dtype=float)


# ------------------------------------------------------------------------------------ EXACT
def exact_agreement(name: str, lhs: Any, rhs: Any, *, details: dict | None = None) -> Evidence:
    """EXACT: ``simplify(lhs - rhs) == 0`` (scalars or matrices).

    >>> half, third = sp.Rational(1, 2), sp.Rational(1, 3)
    >>> exact_agreement("1/2 + 1/3 = 5/6", half + third, sp.Rational(5, 6)).status
    'pass'
    >>> wrong = exact_agreement("1/2 + 1/3 = 1/6 (wrong)", half + third, sp.Rational(1, 6))
    >>> wrong.status, wrong.details["difference"]
    ('fail', '2/3')
    """
    diff = sp.simplify(sp.sympify(lhs) - sp.sympify(rhs))
    if isinstance(diff, sp.MatrixBase):
        ok = all(sp.simplify(e) == 0 for e in diff)
    else:
        ok = diff == 0
    return evidence_row(
        name,
        "EXACT",
        str(rhs),
        str(lhs),
        0.0,
        0.0 if ok else float("inf"),
        ok,
        details={"difference": str(diff)[:500], **(details or {})},
    )


# ------------------------------------------------------------------------------------ FLOAT
def float_agreement(
    name: str,
    value: Any,
    reference: Any,
    *,
    rtol: float = FLOAT_RTOL,
    atol: float = 0.0,
    details: dict | None = None,
) -> Evidence:
    """FLOAT: ``|value - reference| ≤ atol + rtol·|reference|`` elementwise.

    ``√2`` in float64 against its correctly rounded value passes; 3.14159 is ``2.65e-6`` from π,
    about ``8.4e5`` times ``FLOAT_RTOL·π``:

    >>> float_agreement("√2", math.sqrt(2), 1.4142135623730951).passed
    True
    >>> ev = float_agreement("π to 6 digits", 3.14159, math.pi)
    >>> ev.passed, round(ev.error, -4)
    (False, 840000.0)
    """
    v, r = _arr(value), _arr(np.asarray(reference, dtype=float))
    tol = atol + rtol * np.abs(r)
    diff = np.abs(v - r)
    with np.errstate(divide="ignore", invalid="ignore"):
        units = np.where(tol > 0, diff / np.where(tol > 0, tol, 1.0), np.where(diff > 0, np.inf, 0))
    err = float(np.max(units)) if units.size else 0.0
    ok = bool(np.all(np.isfinite(v))) and err <= 1.0
    return evidence_row(
        name, "FLOAT", r, v, float(np.max(tol)) if tol.size else 0.0, err, ok, details=details or {}
    )


def close_agreement(
    name: str,
    observed: Any,
    expected: Any,
    *,
    kind: str,
    atol: float,
    rtol: float = 0.0,
    details: dict | None = None,
) -> Evidence:
    """Generic ``|observed - expected| ≤ atol + rtol·|expected|`` under an explicit ``kind``.

    ``kind`` is required: it says which route produced ``observed`` (see
    :data:`theory.common.protocols.KIND_MEANINGS`).  For a trained model use
    :func:`train_discrimination` (``kind="TRAIN"`` is refused here: a TRAIN row must carry its
    start distance and named alternatives); for an optimiser, :func:`optim_agreement`; for a
    number the paper prints, :func:`paper_agreement`; for one we computed,
    :func:`derived_agreement` (``kind="PAPER"`` and ``"DERIVED"`` are refused here: those rows
    carry their printed claim or the docs page deriving them).

    >>> close_agreement("e to 3 decimals", 2.718, math.e, kind="FLOAT", atol=1e-3).status
    'pass'
    >>> try:
    ...     close_agreement("a trained value", 1.0, 1.0, kind="TRAIN", atol=0.1)
    ... except ValueError as exc:
    ...     print(str(exc).split(";")[0])
    a trained value: close_agreement(kind='TRAIN') is refused
    """
    if kind not in KINDS:
        raise ValueError(f"{name}: kind must be one of {KINDS}, got {kind!r}")
    if kind in ("PAPER", "DERIVED"):
        helper = "paper_agreement" if kind == "PAPER" else "derived_agreement"
        raise ValueError(f"{name}: close_agreement(kind={kind!r}) is refused; use {helper}")
    if kind == "TRAIN":
        raise ValueError(
            f"{name}: close_agreement(kind='TRAIN') is refused; use "
            "train_discrimination (start distance, named alternatives, seeds)"
        )
    ev = float_agreement(name, observed, expected, rtol=rtol, atol=atol, details=details)
    return evidence_row(
        name, kind, ev.predicted, ev.observed, ev.tolerance, ev.error, ev.passed, details=ev.details
    )


# ----------------------------------------------------------------------------------- SOLVER
def solver_agreement(
    name: str,
    observed: Any,
    expected: Any,
    *,
    rtol: float = SOLVER_RTOL,
    atol: float = SOLVER_ATOL,
    bound: float = SOLVER_BOUND,
    details: dict | None = None,
) -> Evidence:
    """SOLVER: error in units of ``atol + rtol·|expected|`` (scipy's ``compute_error``) ≤ bound.

    ``error`` in the record is the worst component's solver units divided by ``bound``.

    An error of 1e-12 at ``e⁻¹`` is ``1e-12 / (1e-12 + 1e-10·e⁻¹) ≈ 0.026`` solver units; an
    error of 1e-8 is about 260, beyond the bound 10:

    >>> ev = solver_agreement("x(1) of x' = -x", [math.exp(-1) + 1e-12], [math.exp(-1)])
    >>> ev.passed, round(ev.details["solver_units"], 3)
    (True, 0.026)
    >>> solver_agreement("x(1), too coarse", [math.exp(-1) + 1e-8], [math.exp(-1)]).passed
    False
    """
    o, e = _arr(observed), _arr(expected)
    if o.shape != e.shape:
        raise ValueError(f"{name}: shape mismatch {o.shape} vs {e.shape}")
    scale = atol + rtol * np.abs(e)
    units = np.abs(o - e) / scale
    worst = float(np.max(units)) if units.size else 0.0
    ok = bool(np.all(np.isfinite(o))) and worst <= bound
    return evidence_row(
        name,
        "SOLVER",
        e,
        o,
        bound * float(np.max(scale)),
        worst / bound,
        ok,
        details={
            "solver_units": worst,
            "bound": bound,
            "rtol": rtol,
            "atol": atol,
            **(details or {}),
        },
    )


# --------------------------------------------------------------------------------------- MC
def mc_agreement(
    name: str,
    predicted: float,
    estimate: Estimate,
    *,
    scale: float | None = None,
    z: float = Z_MC,
    bias: float = 0.0,
    power: float = MC_POWER,
    details: dict | None = None,
) -> Evidence:
    """MC: ``|mean − predicted| ≤ z·se + bias`` **and** the power check ``se ≤ power·scale``.

    ``scale`` defaults to ``|predicted|``; pass the natural scale of the quantity when the predicted
    value can be near zero (e.g. an excess risk: pass the total risk).  No check passes by a tiny
    sample: a row whose standard error exceeds ``power·scale`` is ``skipped`` (not resolvable at
    this setting: the row gives se/scale and about how many samples it would need) when the
    estimate agrees within its wide tolerance, and ``fail`` when it disagrees even so.  An
    estimate that drew more than it was asked for to reach its power (``Estimate.requested``)
    records the raise; one that was timed (``Estimate.seconds``) gives about how long the
    powered sample would take.

    ``E z² = 1``: a mean 1.004 ± 0.002 is 2 se off (within 5 se, se/scale 0.2 %); 1.03 is 15 se
    off; 1.02 ± 0.03 agrees but its se is 3 % of the scale, so the row is skipped:

    >>> mc_agreement("E z²", 1.0, Estimate(1.004, 0.002, 250_000)).status
    'pass'
    >>> mc_agreement("E z², biased", 1.0, Estimate(1.03, 0.002, 250_000)).status
    'fail'
    >>> mc_agreement("E z², small sample", 1.0, Estimate(1.02, 0.03, 1000)).status
    'skipped'
    """
    predicted = float(predicted)
    scale = abs(predicted) if scale is None else float(scale)
    if scale <= 0:
        raise ValueError(f"{name}: MC scale must be > 0 (got {scale}); pass scale=...")
    tol = z * estimate.se + bias
    diff = abs(estimate.mean - predicted)
    powered = estimate.se <= power * scale
    err = diff / tol if tol > 0 else (0.0 if diff == 0 else float("inf"))
    ok = diff <= tol and powered and math.isfinite(estimate.mean)
    extra: dict[str, Any] = {}
    if estimate.requested:
        extra["raised_from"] = estimate.requested
    row = evidence_row(
        name,
        "MC",
        predicted,
        estimate.mean,
        tol,
        err,
        ok,
        se=estimate.se,
        scale=scale,
        details={
            "n": estimate.n,
            "z": z,
            "bias": bias,
            "se_over_scale": estimate.se / scale,
            "power_ok": powered,
            **extra,
            **(details or {}),
        },
    )
    if powered or not (diff <= tol and math.isfinite(estimate.mean)) or estimate.n < 2:
        return row
    return underpowered(
        row,
        se=estimate.se,
        scale=scale,
        n=estimate.n,
        power=power,
        requested=estimate.requested,
        seconds=estimate.seconds or None,
    )


def needed_samples(n: int, se: float, scale: float, power: float = MC_POWER) -> int:
    """About how many samples bring a standard error ``se`` (from ``n``) to ``power·scale``
    (``se ∝ 1/√n``).

    >>> needed_samples(1000, 0.03, 1.0)
    2250
    """
    return max(int(n), math.ceil(n * (se / (power * scale)) ** 2))


def underpowered(
    row: Evidence,
    *,
    se: float,
    scale: float,
    n: int,
    power: float = MC_POWER,
    requested: int = 0,
    seconds: float | None = None,
) -> Evidence:
    """``row`` as ``skipped`` for lack of Monte Carlo power: not resolvable at this setting, never
    a ``fail``.  Its reason gives the numbers -- "too little power at this setting: se/scale
    3.0 % > 2 % with n = 1000 (raised from 250); needs about n = 2250 (about 9.0 s)" -- and
    ``details`` keep ``se_over_scale``, ``power_ok = False``, ``needed_n`` (and
    ``needed_seconds`` when ``seconds``, the time the ``n`` samples took, is given).  The one
    form of every MC check's power verdict (:func:`mc_agreement` and the paper's own MC rows).
    A check first raises its sample (up to ``MAX_RAISE`` times its mode's, recorded as
    ``requested``) where it can.

    >>> row = evidence_row("x", "MC", 1.0, 1.1, 0.2, 0.5, False, se=0.03, scale=1.0)
    >>> out = underpowered(row, se=0.03, scale=1.0, n=1000, requested=250, seconds=4.0)
    >>> out.status, out.details["needed_n"]
    ('skipped', 2250)
    >>> out.details["why"].split(": ")[1]
    'se/scale 3.0 % > 2 % with n = 1000 (raised from 250); needs about n = 2250 (about 9.0 s)'
    """
    need = needed_samples(n, se, scale, power)
    raised = f" (raised from {requested})" if requested else ""
    extra: dict[str, Any] = {}
    secs = ""
    if seconds is not None and n > 0:
        extra["needed_seconds"] = seconds * need / n
        t = extra["needed_seconds"]
        secs = f" (about {t:.0f} s)" if t >= 10 else f" (about {t:.1f} s)"
    why = (
        f"too little power at this setting: se/scale {100 * se / scale:.1f} % > "
        f"{100 * power:g} % with n = {n}{raised}; needs about n = {need}{secs}"
    )
    return dataclasses.replace(
        row,
        passed=True,
        verdict="skipped",
        details={
            **row.details,
            "se_over_scale": se / scale,
            "power_ok": False,
            "why": why,
            "needed_n": need,
            **({"raised_from": requested} if requested else {}),
            **extra,
        },
    )


def mc_difference_agreement(
    name: str, predicted_diff: float, estimate_diff: Estimate, *, scale: float, **kw: Any
) -> Evidence:
    """MC on a paired difference (common random numbers); ``scale`` is the scale of the terms.

    Two risks of about 1 whose paired difference is 0.001 ± 0.001 agree with a predicted 0 (1 se;
    se/scale 0.1 %), although the difference itself is near zero:

    >>> ev = mc_difference_agreement("R_a − R_b", 0.0, Estimate(0.001, 0.001, 10_000), scale=1.0)
    >>> ev.status, ev.error
    ('pass', 0.2)
    """
    return mc_agreement(name, predicted_diff, estimate_diff, scale=scale, **kw)


# ------------------------------------------------------------------------------------- RATE
def loglog_slope(x: Any, y: Any) -> float:
    """The least-squares slope of ``log y`` against ``log x`` (``scipy.stats.linregress``): the
    one fit behind every RATE row and every rate drawn in a figure.

    >>> round(loglog_slope([1.0, 2.0, 4.0], [3.0, 12.0, 48.0]), 12)
    2.0
    """
    fit: Any = stats.linregress(
        np.log(np.asarray(x, dtype=float)), np.log(np.asarray(y, dtype=float))
    )
    return float(fit.slope)


def rate_agreement(
    name: str,
    x: Sequence[float],
    y: Sequence[float],
    expected_slope: float,
    *,
    band: float = RATE_BAND,
    details: dict | None = None,
) -> Evidence:
    """RATE: slope of ``log y`` against ``log x`` (``scipy.stats.linregress``) within ``band``.

    ``y = 3/√x`` has slope −1/2 exactly; against an expected −1 it misses by 0.5, more than
    three bands:

    >>> ev = rate_agreement("3/√n", [100, 400, 1600], [0.3, 0.15, 0.075], -0.5)
    >>> ev.passed, round(ev.observed, 12)
    (True, -0.5)
    >>> round(rate_agreement("3/√n as 1/n", [100, 400, 1600], [0.3, 0.15, 0.075], -1.0).error, 9)
    3.333333333
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        lx, ly = np.log(_arr(x)), np.log(_arr(y))
    if not (np.all(np.isfinite(lx)) and np.all(np.isfinite(ly))):
        return evidence_row(
            name,
            "RATE",
            expected_slope,
            float("nan"),
            band,
            float("inf"),
            False,
            details={"reason": "non-positive or non-finite values", **(details or {})},
        )
    fit: Any = stats.linregress(lx, ly)  # scipy's stub types the result as a bare tuple
    slope, intercept = float(fit.slope), float(fit.intercept)
    rvalue, stderr = float(fit.rvalue), float(fit.stderr)
    err = abs(slope - expected_slope) / band
    return evidence_row(
        name,
        "RATE",
        expected_slope,
        slope,
        band,
        err,
        err <= 1.0,
        details={"intercept": intercept, "r2": rvalue**2, "stderr": stderr, **(details or {})},
    )


# ------------------------------------------------------------------------------------ ORDER
def ordering(
    name: str, smaller: float, larger: float, *, margin: float, details: dict | None = None
) -> Evidence:
    """ORDER: ``larger − smaller ≥ margin`` (a strict inequality with a stated margin).

    >>> ordering("1 < 1.5 by at least 0.1", 1.0, 1.5, margin=0.1).status
    'pass'
    >>> ordering("1 < 1.5 by at least 1", 1.0, 1.5, margin=1.0).status
    'fail'
    """
    gap = float(larger) - float(smaller)
    err = (margin - gap) / margin + 1.0 if margin > 0 else (0.0 if gap > 0 else float("inf"))
    return evidence_row(
        name,
        "ORDER",
        f"gap ≥ {margin:.4g}",
        gap,
        margin,
        max(err, 0.0),
        gap >= margin and gap > 0,
        details={"smaller": float(smaller), "larger": float(larger), **(details or {})},
    )


def informational(
    name: str, predicted: Any, observed: Any, *, details: dict | None = None
) -> Evidence:
    """INFO: reported, never fails (only for checks we mark informational).

    >>> ev = informational("balancedness under SGD", "not conserved", 0.3)
    >>> ev.kind, ev.passed, ev.informational
    ('INFO', True, True)
    """
    return evidence_row(name, "INFO", predicted, observed, 0.0, 0.0, True, details=details or {})


# ---------------------------------------------------------------------------------- asserts
def passed(ev: Evidence | Iterable[Evidence]) -> bool:
    """True if every non-informational record passed (and there is at least one record).

    >>> ok, bad = ordering("0 < 1", 0.0, 1.0, margin=0.5), ordering("1 < 0", 1.0, 0.0, margin=0.5)
    >>> passed([ok]), passed([ok, bad]), passed([])
    (True, False, False)
    """
    evs = evidence_rows(ev)
    return bool(evs) and all(e.passed for e in evs)


def assert_passed(ev: Evidence | Iterable[Evidence]) -> None:
    """Raise ``AssertionError`` listing every failing record (expected, actual, tol-units).

    >>> assert_passed(ordering("0 < 1", 0.0, 1.0, margin=0.5))
    >>> assert_passed([])
    Traceback (most recent call last):
    ...
    AssertionError: no evidence produced: a check that compares nothing cannot pass
    """
    evs = evidence_rows(ev)
    if not evs:
        raise AssertionError("no evidence produced: a check that compares nothing cannot pass")
    bad = [e for e in evs if not e.passed]
    if bad:
        raise AssertionError("\n".join(e.describe() for e in bad))


def assert_fails(ev: Evidence | Iterable[Evidence]) -> None:
    """Negative control: at least one non-informational record must fail.

    A planted fault (here: the order reversed) must be rejected; a control that passes is an
    error, since the check could not detect that fault:

    >>> assert_fails(ordering("1 < 0 (planted)", 1.0, 0.0, margin=0.5))
    >>> try:
    ...     assert_fails(ordering("0 < 1", 0.0, 1.0, margin=0.5))
    ... except AssertionError as exc:
    ...     print(str(exc).splitlines()[0])
    negative control passed, so the check cannot detect this fault:
    """
    evs = evidence_rows(ev)
    if not any((not e.passed) and not e.informational for e in evs):
        raise AssertionError(
            "negative control passed, so the check cannot detect this fault:\n"
            + "\n".join(e.describe() for e in evs)
        )


# ------------------------------------------------------------------------------------ OPTIM
#: Numerical optimisation (BFGS with complex-step gradients) of an exact, smooth risk formula:
#: minimum value vs the closed-form minimum, relative (spec 002 C6/C8: "R to 1e-10").
OPTIM_RTOL = 1e-10
#: ... and the argmin vs the closed-form minimiser, absolute (spec 002 C6: 1e-6).
OPTIM_ARG_ATOL = 1e-6


def optim_agreement(
    name: str,
    optimised: Any,
    closed_form: Any,
    *,
    rtol: float = OPTIM_RTOL,
    atol: float = 0.0,
    details: dict | None = None,
) -> Evidence:
    """OPTIM: a numerical optimiser's minimum (or minimiser) against the closed form,
    ``|optimised − closed_form| ≤ atol + rtol·|closed_form|`` elementwise.

    Brent's method on ``(x − 2)² + 1``: the minimum 1 to ``OPTIM_RTOL`` and the minimiser 2 to
    ``OPTIM_ARG_ATOL``:

    >>> from scipy.optimize import minimize_scalar
    >>> r = minimize_scalar(lambda x: (x - 2) ** 2 + 1)
    >>> optim_agreement("min of (x − 2)² + 1", r.fun, 1.0).passed
    True
    >>> optim_agreement("argmin", r.x, 2.0, rtol=0.0, atol=OPTIM_ARG_ATOL).passed
    True
    """
    return close_agreement(
        name, optimised, closed_form, kind="OPTIM", atol=atol, rtol=rtol, details=details
    )
