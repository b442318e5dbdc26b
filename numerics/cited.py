"""Rows that compare with a fixed number given as text: PAPER (a number the paper prints, with
the printed claim that quotes it) and DERIVED (a number we computed where the paper prints
none, with the docs page section that derives it).  Re-exported by :mod:`numerics.testing`.

What each row cites is checked against the text it cites by :mod:`theory.common.sources` (in
``tests/test_claims.py`` and the registry test).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from numerics.verdicts import evidence_row
from theory.common.protocols import Claim, Evidence

__all__ = ["fixture_atol", "paper_agreement", "derived_agreement", "DERIVED_PAGE"]


def fixture_atol(printed: str) -> float:
    """Half a unit in the last digit of a value given as text (e.g. ``"2.535387"`` → 5e-7): the
    tolerance a printed or derived fixture itself implies.

    >>> fixture_atol("2.535387")
    5e-07
    """
    s = printed.strip().lstrip("+-−")
    decimals = len(s.split(".", 1)[1]) if "." in s else 0
    return 0.5 * 10.0 ** (-decimals)


def _literal_row(
    name: str,
    kind: str,
    value: Any,
    text: str | Sequence[str],
    atol: float | None,
    rtol: float,
    details: dict,
) -> Evidence:
    """A PAPER or DERIVED row: ``value`` against the number(s) written as ``text`` (one literal or
    a sequence compared elementwise; ``−`` reads as a minus sign)."""
    lits = [text] if isinstance(text, str) else list(text)
    if not lits or not all(isinstance(t, str) and t.strip() for t in lits):
        raise ValueError(f"{name}: the {kind} value is given as its literal text, got {text!r}")
    ref = np.array([float(t.strip().replace("−", "-")) for t in lits])
    if isinstance(text, str):
        ref = ref.reshape(())
    tol_abs = max(fixture_atol(t) for t in lits) if atol is None else atol
    v = np.asarray(value, dtype=float)
    tol = tol_abs + rtol * np.abs(ref)
    diff = np.abs(v - ref)
    with np.errstate(divide="ignore", invalid="ignore"):
        units = np.where(tol > 0, diff / np.where(tol > 0, tol, 1.0), np.where(diff > 0, np.inf, 0))
    err = float(np.max(units)) if units.size else 0.0
    ok = bool(np.all(np.isfinite(v))) and err <= 1.0
    key = "printed" if kind == "PAPER" else "derived"
    info = {key: text if isinstance(text, str) else lits, **details}
    return evidence_row(name, kind, ref, v, float(np.max(tol)), err, ok, details=info)


def paper_agreement(
    name: str,
    value: Any,
    printed: str | Sequence[str],
    *,
    claim: Claim,
    atol: float | None = None,
    rtol: float = 0.0,
    details: dict | None = None,
) -> Evidence:
    """PAPER: a value we compute against a number the paper *prints* (``printed`` is its literal
    text, e.g. ``"0.8871"``, or a sequence of literals compared elementwise); the default
    tolerance is :func:`fixture_atol` of the least precise literal.

    ``claim`` is the printed claim record (``provenance="printed"``) whose ``quote`` is the span
    of the paper's text holding every literal (a table line, a sentence): ``tests/test_claims.py``
    fails the row if a literal is not in the quote or the quote is not in the paper.  A number we
    computed is not a PAPER row: use :func:`derived_agreement`.

    >>> c = Claim(where="Table 9", quote="| 0.8871 | 1.0035 |", provenance="printed")
    >>> paper_agreement("2 c omega mu", 0.88712, "0.8871", claim=c).passed
    True
    """
    if not isinstance(claim, Claim) or claim.provenance != "printed":
        raise ValueError(
            f"{name}: a PAPER row compares with a number the paper prints, so its claim is a "
            f"printed Claim, got {claim!r} (a number the paper does not print: derived_agreement)"
        )
    info = {"source": claim.where, "claim": claim.to_json(), **(details or {})}
    return _literal_row(name, "PAPER", value, printed, atol, rtol, info)


#: The form of ``derived_in``: a docs page of this repository and the anchor of the section that
#: derives the value (``docs/papers/collins24.md#derived-values``).
DERIVED_PAGE = re.compile(r"^docs/[\w./-]+\.md#[\w-]+$")


def derived_agreement(
    name: str,
    value: Any,
    derived: str | Sequence[str],
    *,
    derived_in: str,
    spec: str = "",
    atol: float | None = None,
    rtol: float = 0.0,
    details: dict | None = None,
) -> Evidence:
    """DERIVED: a value we compute against a number we computed where the paper prints
    none (``derived`` is its literal text, or a sequence compared elementwise); the default
    tolerance is :func:`fixture_atol` of the least precise literal.

    ``derived_in`` cites the docs page section that derives the number
    (``"docs/papers/<slug>.md#<anchor>"``, :data:`DERIVED_PAGE`): ``tests/test_claims.py`` finds
    the section and every literal in it.  ``spec`` names the spec section a maintainer reads (it
    stays in the code, not in the row).

    >>> row = derived_agreement(
    ...     "m*", 0.10202, "0.1020", derived_in="docs/papers/collins24.md#derived-values"
    ... )
    >>> row.kind, row.passed
    ('DERIVED', True)
    """
    if not DERIVED_PAGE.match(derived_in):
        raise ValueError(
            f"{name}: derived_in cites a docs page section 'docs/<page>.md#<anchor>', "
            f"got {derived_in!r}"
        )
    del spec  # a maintainer's cross-reference, kept out of the row
    info = {"derived_in": derived_in, **(details or {})}
    return _literal_row(name, "DERIVED", value, derived, atol, rtol, info)
