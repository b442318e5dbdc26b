"""The one registry test: every declared check has its expected status, and every declared
negative control is rejected.

Each declared :class:`~theory.common.protocols.Check` of a registered result is run once (shared
by the results that list it) and must end with its ``expect`` status (``pass`` unless declared
otherwise); each of its ``faults`` reruns the check with that planted fault, and some
non-informational row must fail.  Checks declared in the ``thorough`` or ``full`` tier run only
under ``HYPOTHESIS_PROFILE=thorough``.  Tests that assert more than pass/fail live beside their
slice and may reuse these runs through the ``declared_run`` fixture (``tests/conftest.py``).
Every row's claim is a registered one; a PAPER row's number stands in its claim's quote and the
quote in the paper (where the texts are present); a DERIVED row's number in the docs section it
cites.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from sims.registry import all_claims, all_results
from sims.verify import declared_checks, rows_status, run_control
from theory.common.protocols import Check
from theory.common.sources import PAPER_FILES, derived_row_problems, paper_row_problems

ROOT = Path(__file__).resolve().parents[1]
#: Our OCR copies of the papers, beside the repository on our machines (absent in a user's clone).
PAPERS_DIR = ROOT.parent / "shared" / "papers"


@functools.cache
def _paper_texts() -> dict[str, str] | None:
    if not PAPERS_DIR.is_dir():
        return None
    return {k: (PAPERS_DIR / f).read_text(encoding="utf-8") for k, f in PAPER_FILES.items()}


RESULTS = all_results()
CHECKS: dict[str, Check] = declared_checks(RESULTS)
RESULTS_OF: dict[str, list[str]] = {}
for _r in RESULTS:
    for _c in _r.checks:
        RESULTS_OF.setdefault(_c.path, []).append(_r.id)


def _marks(check: Check) -> list[pytest.MarkDecorator]:
    """A check's result ids, tier and kind; and its pytest-xdist work unit: the check and its
    controls run on one worker (they share its trained model), the checks spread over workers
    (two that need one run or one model wait for each other: ``declared_run``, ``sims.cache``)."""
    marks = [pytest.mark.result(rid) for rid in dict.fromkeys(RESULTS_OF[check.path])]
    marks.append(pytest.mark.xdist_group("declared-" + check.path.replace(":", ".")))
    if check.tier in ("thorough", "full"):
        marks.append(pytest.mark.thorough)
    if check.path.startswith("sims."):
        marks.append(pytest.mark.train)
    return marks


CHECK_PARAMS = [pytest.param(c, id=c.path, marks=_marks(c)) for c in CHECKS.values()]
CONTROL_PARAMS = [
    pytest.param(c, fault, id=f"{c.path}[{fault}]", marks=_marks(c))
    for c in CHECKS.values()
    for fault in c.faults
]


@pytest.mark.parametrize("check", CHECK_PARAMS)
def test_declared_check(check: Check, declared_run) -> None:
    rows, error = declared_run(check.path)
    status = rows_status(rows, error)
    if status != check.expect:
        text = "\n".join(e.describe() for e in rows if e.status != "pass") or "(no row)"
        raise AssertionError(
            f"{check.path}: status {status!r}, declared {check.expect!r}\n{text}\n{error or ''}"
        )
    registered = [c.to_json() for c in all_claims().values()]
    stray = [e.name for e in rows if "claim" in e.details and e.details["claim"] not in registered]
    assert not stray, (
        f"{check.path}: rows carry claims not registered in a "
        f"theory/<slug>/claims.py CLAIMS dict (so their quotes are unchecked): "
        f"{stray}"
    )
    # a PAPER row's number stands where the paper prints it; a DERIVED row's in the docs section
    # that derives it (theory.common.sources; the paper texts only where they are present)
    texts = _paper_texts()
    cited = [
        p
        for e in rows
        for p in (
            paper_row_problems(e, all_claims(), texts)
            if e.kind == "PAPER"
            else derived_row_problems(e, ROOT)
            if e.kind == "DERIVED"
            else []
        )
    ]
    assert not cited, f"{check.path}:\n" + "\n".join(cited)


@pytest.mark.parametrize(("check", "fault"), CONTROL_PARAMS)
def test_declared_control(check: Check, fault: str) -> None:
    run = run_control(check, fault)
    assert run.rejected, (
        f"negative control {fault!r} of {check.path} ({check.faults[fault]!r}) was not "
        f"rejected: the check cannot detect this fault" + (f"\n{run.error}" if run.error else "")
    )


def test_every_check_declares_faults_or_is_a_pure_identity() -> None:
    """The registry's negative controls are at least as many as the check functions that take a
    ``fault_*`` parameter (each such parameter is exercised by some declared fault)."""
    import inspect

    from sims.registry import resolve

    missing = []
    for path, check in CHECKS.items():
        params = [n for n in inspect.signature(resolve(path)).parameters if n.startswith("fault")]
        used = {k for kw in check.faults.values() for k in kw}
        missing += [f"{path}: {p}" for p in params if p not in used]
    assert not missing, "fault parameters no declared control exercises:\n" + "\n".join(missing)
