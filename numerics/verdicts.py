"""Statuses of rows beyond pass/fail: claims of the paper, verdicts, and their asserts.

A row that checks a claim of the paper (:func:`claim_agreement`) passes when our route reproduces
the claim, and otherwise carries the verdict :func:`claim_verdict` gives the claim's provenance
(``discrepancy``, ``unconfirmed``; ``fail`` for a derived claim).  :func:`with_verdict`,
:func:`untested` and :func:`skipped` re-label a measured row; :func:`claim_contract_violations`
says what such a row lacks (``sims.verify.run_check`` refuses an incomplete one).
:func:`assert_status` and :func:`assert_discrepancy` pin a verdict in a test.

Every name here is re-exported by :mod:`numerics.testing`, the module users import.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from theory.common.protocols import VERDICTS, Claim, Evidence

__all__ = [
    "claim_verdict",
    "claim_agreement",
    "with_verdict",
    "untested",
    "skipped",
    "claim_contract_violations",
    "assert_status",
    "assert_discrepancy",
    "evidence_row",
    "evidence_rows",
]


def evidence_row(
    name: str,
    kind: str,
    predicted: Any,
    observed: Any,
    tol: float,
    err: float,
    ok: bool,
    **kw: Any,
) -> Evidence:
    """An :class:`~theory.common.protocols.Evidence` row with a float tolerance, a finite error
    (``inf`` otherwise) and a bool pass: the constructor behind every agreement helper.

    ``err`` is in tolerance units: here ``|0.51 − 0.5| / 0.02 = 0.5``; ``ok`` is the caller's.

    >>> row = evidence_row("R closed form vs MC", "MC", 0.5, 0.51, 0.02, 0.5, True)
    >>> row.status, row.tolerance, row.error
    ('pass', 0.02, 0.5)
    """
    return Evidence(
        name=name,
        kind=kind,
        predicted=predicted,
        observed=observed,
        tolerance=float(tol),
        error=float(err) if math.isfinite(err) else float("inf"),
        passed=bool(ok),
        **kw,
    )


def evidence_rows(ev: Evidence | Iterable[Evidence]) -> list[Evidence]:
    """One row or an iterable of rows, as a list.

    >>> row = evidence_row("R closed form vs MC", "MC", 0.5, 0.51, 0.02, 0.5, True)
    >>> len(evidence_rows(row)), len(evidence_rows((row, row)))
    (1, 2)
    """
    return [ev] if isinstance(ev, Evidence) else list(ev)


def _arr(x: Any) -> np.ndarray:
    return np.asarray(x, dtype=float)


def claim_verdict(claim: Claim | None) -> str:
    """The status of a row whose agreeing routes contradict ``claim``: ``discrepancy`` for a
    printed claim, ``unconfirmed`` for a reconstruction or paraphrase, ``fail`` for a derived one
    (our own extension contradicted by our own routes is a bug).  ``None`` (no claim record) is
    read as printed.

    >>> from theory.common.protocols import Claim
    >>> lost = Claim(where="(D.36)", quote="", provenance="reconstructed", lost="the display")
    >>> claim_verdict(None), claim_verdict(lost)
    ('discrepancy', 'unconfirmed')
    """
    if claim is None or claim.provenance == "printed":
        return "discrepancy"
    return "unconfirmed" if claim.provenance in ("reconstructed", "paraphrase") else "fail"


def claim_agreement(
    name: str,
    *,
    kind: str,
    paper: Any,
    ours: Any,
    observed: Any,
    atol: float,
    rtol: float = 0.0,
    source: str,
    details: dict | None = None,
    claim: Claim | None = None,
) -> Evidence:
    """A claim of the paper checked by our independent route, with a third outcome.

    ``paper`` is what the paper states, ``ours`` what the toolkit derives, ``observed`` the
    independent route's value (ODE fit, MC, trained model).  Status:

    * ``pass`` -- ``observed`` agrees with ``paper`` (the claim is reproduced);
    * ``observed`` agrees with ``ours`` and not with ``paper``: our routes agree with each other
      and contradict the claim -- ``discrepancy`` if the ``claim`` is printed, ``unconfirmed`` if
      it is our reconstruction or paraphrase of lost text, ``fail`` if it is derived
      (:func:`claim_verdict`); reported, never hidden, and only ``fail`` fails the run;
    * ``fail`` -- ``observed`` agrees with neither (a bug in the toolkit).

    ``claim`` (:class:`~theory.common.protocols.Claim`: where, quote, provenance) is stored as
    ``details["claim"]``.  Tolerance: ``atol + rtol·|reference|`` elementwise.

    Examples
    --------
    The paper prints 0.9, we derive 0.879 and the ODE gives 0.8791: within ``atol`` of ours
    (0.1 units), 20.9 units from the paper's, so a discrepancy (reported; the run does not fail):

    >>> from theory.common.protocols import Claim
    >>> printed = Claim(where="Theorem 1", quote="the step is 0.9", provenance="printed")
    >>> row = claim_agreement(
    ...     "η* vs ODE", kind="SOLVER", paper=0.9, ours=0.879, observed=0.8791, atol=1e-3,
    ...     source="(4.3)", claim=printed,
    ... )
    >>> row.status, row.passed, round(row.details["units_to_paper"], 6)
    ('discrepancy', True, 20.9)

    An observed value near neither is a ``fail`` (a bug in the toolkit):

    >>> claim_agreement(
    ...     "η*", kind="SOLVER", paper=0.9, ours=0.879, observed=0.7, atol=1e-3, source="(4.3)"
    ... ).status
    'fail'
    """
    o, pp, oo = _arr(observed), _arr(paper), _arr(ours)

    def within(ref: np.ndarray) -> tuple[bool, float]:
        tol = atol + rtol * np.abs(ref)
        with np.errstate(divide="ignore", invalid="ignore"):
            u = np.where(
                tol > 0,
                np.abs(o - ref) / np.where(tol > 0, tol, 1.0),
                np.where(o == ref, 0.0, np.inf),
            )
        worst = float(np.max(u)) if u.size else 0.0
        return worst <= 1.0, worst

    ok_paper, u_paper = within(pp)
    ok_ours, u_ours = within(oo)
    finite = bool(np.all(np.isfinite(o)))
    tol = float(np.max(atol + rtol * np.abs(pp))) if pp.size else atol
    info = {
        "paper": pp,
        "ours": oo,
        "units_to_paper": u_paper,
        "units_to_ours": u_ours,
        "source": source,
        **({"claim": claim.to_json()} if claim else {}),
        **(details or {}),
    }
    if ok_paper and finite:
        return evidence_row(name, kind, pp, o, tol, u_paper, True, details=info)
    verdict = claim_verdict(claim)
    if ok_ours and finite and verdict != "fail":
        return Evidence(
            name=name,
            kind=kind,
            predicted=pp,
            observed=o,
            tolerance=tol,
            error=u_paper if math.isfinite(u_paper) else float("inf"),
            passed=True,
            details=info,
            verdict=verdict,
        )
    return evidence_row(name, kind, pp, o, tol, u_paper, False, details=info)


#: ``measured_status`` of a re-labelled row whose observed value is missing (nothing was measured
#: at this tier, e.g. a model the quick tier does not train): not ``pass``.
NOT_MEASURED = "not measured"


def _measured(observed: Any) -> bool:
    """Whether a row observed anything: not ``None``, not empty, not all NaN."""
    if observed is None:
        return False
    if isinstance(observed, (list, tuple, dict)) and not observed:
        return False
    try:
        a = np.asarray(observed, dtype=float)
    except (TypeError, ValueError):
        return True
    return bool(a.size) and not bool(np.all(np.isnan(a)))


def with_verdict(
    ev: Evidence, verdict: str, *, why: str, claim: Claim | None = None, **details: Any
) -> Evidence:
    """The row ``ev`` re-labelled with a verdict (:data:`~theory.common.protocols.VERDICTS`):
    kept as measured (predicted, observed, error), ``passed=True`` (a verdict does not fail the
    run), ``details["why"]`` saying why, plus ``details``.  ``untested`` rows give ``reached`` and
    ``needed`` (the scale measured here and the paper's), ``skipped`` rows their numbers.
    ``details["measured_status"]`` is the row's own status, or ``"not measured"`` when it observed
    nothing (``observed`` None, empty or NaN: a model this tier does not train).

    >>> row = evidence_row("R closed form vs MC", "MC", 0.5, 0.51, 0.02, 0.5, True)
    >>> rel = with_verdict(row, "skipped", why="not resolvable here")
    >>> rel.status, rel.passed, rel.error, rel.details["measured_status"]
    ('skipped', True, 0.5, 'pass')
    """
    if verdict not in VERDICTS:
        raise ValueError(f"verdict must be one of {VERDICTS}, got {verdict!r}")
    extra = {
        "why": why,
        "measured_status": ev.status if _measured(ev.observed) else NOT_MEASURED,
        **({"claim": claim.to_json()} if claim else {}),
        **details,
    }
    return Evidence(
        name=ev.name,
        kind=ev.kind,
        predicted=ev.predicted,
        observed=ev.observed,
        tolerance=ev.tolerance,
        error=ev.error,
        passed=True,
        se=ev.se,
        scale=ev.scale,
        details={**ev.details, **extra},
        verdict=verdict,
    )


def untested(
    ev: Evidence, *, reached: str, needed: str, claim: Claim | None = None, why: str = ""
) -> Evidence:
    """``untested``: a claim not testable at the paper's scale here; the row keeps what was
    measured at ours and states the scale ``reached`` and the scale ``needed``.

    >>> row = evidence_row("R closed form vs MC", "MC", 0.5, 0.51, 0.02, 0.5, True)
    >>> row = untested(row, reached="L = 64", needed="L = 4096")
    >>> row.status, row.details["why"]
    ('untested', 'reached L = 64; needs L = 4096')
    """
    return with_verdict(
        ev,
        "untested",
        why=why or f"reached {reached}; needs {needed}",
        claim=claim,
        reached=reached,
        needed=needed,
    )


def skipped(ev: Evidence, *, why: str, **numbers: Any) -> Evidence:
    """``skipped``: not resolvable at this setting; ``why`` says so with the numbers (e.g. "not
    separable at this setting: nearest alternative 0.8 units; needs tolerance 0.4 %, about 4e5
    prompts, 900 s"), ``numbers`` keeps them as fields.

    >>> row = evidence_row("R closed form vs MC", "MC", 0.5, 0.51, 0.02, 0.5, True)
    >>> row = skipped(row, why="not separable: nearest alternative 0.8 units", units=0.8)
    >>> row.status, row.details["units"]
    ('skipped', 0.8)
    """
    return with_verdict(ev, "skipped", why=why, **numbers)


def claim_contract_violations(ev: Evidence) -> list[str]:
    """What a row with a verdict, or a PAPER row, lacks (empty when it is complete).

    * a ``discrepancy`` row carries a printed ``details["claim"]``; an ``unconfirmed`` row a
      reconstructed or paraphrase one;
    * an ``untested`` row says ``reached`` and ``needed``; a ``skipped`` row says ``why``;
    * a PAPER row carries the ``printed`` literal and a printed ``claim`` (a number the paper
      prints); a DERIVED row the ``derived`` literal and ``derived_in``, the docs page deriving
      it, and no claim of the paper (we computed it).

    Examples
    --------
    >>> row = evidence_row("R closed form vs MC", "MC", 0.5, 0.51, 0.02, 0.5, True)
    >>> claim_contract_violations(skipped(row, why="budget: 0.8 units"))
    []
    >>> claim_contract_violations(with_verdict(row, "untested", why="too small"))
    ['an untested row says the scale reached and the scale needed']
    """
    d = ev.details
    claim = d.get("claim")
    prov = claim.get("provenance") if isinstance(claim, dict) else None
    out = []
    if ev.status == "discrepancy" and prov != "printed":
        out.append(f"a discrepancy needs a printed claim (details['claim']), has {prov!r}")
    if ev.status == "unconfirmed" and prov not in ("reconstructed", "paraphrase"):
        out.append(f"an unconfirmed row needs a reconstructed or paraphrase claim, has {prov!r}")
    if ev.status == "untested" and not (d.get("reached") and d.get("needed")):
        out.append("an untested row says the scale reached and the scale needed")
    if ev.status == "skipped" and not d.get("why"):
        out.append("a skipped row says why, with its numbers")
    if ev.kind == "PAPER" and (prov != "printed" or not d.get("printed")):
        out.append(
            "a PAPER row carries details['printed'] and a printed details['claim'] (where, "
            f"quote, provenance 'printed'), has {prov!r}"
        )
    if ev.kind == "DERIVED" and (not d.get("derived") or not d.get("derived_in") or claim):
        out.append(
            "a DERIVED row carries details['derived'] and details['derived_in'] (the docs page "
            "deriving it) and no paper claim"
        )
    return out


def assert_status(ev: Evidence | Iterable[Evidence], status: str) -> None:
    """Some row has ``status`` (a verdict) and none fails: pins an ``unconfirmed``, ``untested``
    or ``skipped`` row as :func:`assert_discrepancy` pins a discrepancy.

    >>> row = evidence_row("R closed form vs MC", "MC", 0.5, 0.51, 0.02, 0.5, True)
    >>> assert_status(skipped(row, why="budget: 0.8 units"), "skipped")
    >>> assert_status(row, "skipped")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    AssertionError: expected a skipped row and no failure:
    [PASS] MC R closed form vs MC: ...
    """
    evs = evidence_rows(ev)
    bad = [e for e in evs if not e.passed]
    if bad or not any(e.status == status for e in evs):
        raise AssertionError(
            f"expected a {status} row and no failure:\n" + "\n".join(e.describe() for e in evs)
        )


def assert_discrepancy(ev: Evidence | Iterable[Evidence]) -> None:
    """A known discrepancy stays one: at least one row has status ``discrepancy`` and none fails
    (pins a claim the paper makes and our routes refute, so it cannot silently flip).

    The example of :func:`claim_agreement`, pinned:

    >>> from theory.common.protocols import Claim
    >>> printed = Claim(where="Theorem 1", quote="the step is 0.9", provenance="printed")
    >>> row = claim_agreement(
    ...     "η* vs ODE", kind="SOLVER", paper=0.9, ours=0.879, observed=0.8791, atol=1e-3,
    ...     source="(4.3)", claim=printed,
    ... )
    >>> assert_discrepancy(row)
    """
    evs = evidence_rows(ev)
    bad = [e for e in evs if not e.passed]
    if bad or not any(e.discrepancy for e in evs):
        raise AssertionError(
            "expected a discrepancy and no failure:\n" + "\n".join(e.describe() for e in evs)
        )
