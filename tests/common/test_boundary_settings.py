"""Every result at the lower edge of each numeric Setting field it reads (σ² = 0, d = 1, the
smallest N the Setting allows, ...): either its hypotheses refuse the setting before any work
(``ValueError``: ``icl-verify check --set`` exits 2 naming the assumption), or its checks that
move with the setting and do not train (the ``numerics`` floor: FLOAT, SYMBOLIC, ODE, MC, QUAD
kinds; the ``sims`` floor trains) give rows with no ``fail`` and no error.  A valid setting
reported as a bug is the class of defect this finds.

The edge of a field is the smallest value the Setting accepts, with the result's own Setting
for the other fields (a tuple field as long as the old value of an integer field, e.g. a
spectrum of length d, is cut to the new length): 0, 1, 2, ... for an integer, 0.0 for a real
(an open edge, e.g. L > 0, has no value to test and is left out).

A case that fails is listed in ``_OPEN`` with what fails (a strict xfail, so a fix shows up) until
it is decided with the paper: a hypothesis the paper states, a row restricted to where the paper
claims it (skipped with its numbers elsewhere), or a discrepancy quoting the paper.  The 17 cases
found by the first sweep are all decided (docs/papers/<key>.md say how); the list is empty.

The full sweep runs every moving check of every result (about 220 cases, about 15 min on one
core), beyond the default pytest's budget: it runs with ``ICL_VERIFY_EDGES=1``.  The default run
checks the refusals at every edge (no work) and the σ² = 0 cases fixed for issue 31.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any

import pytest

from sims import registry
from sims.verify import check_hypotheses, run_check_safely, tier_checks
from theory.common.protocols import Check, Result

#: (result, "key=value") -> what fails there, until it is decided with the paper (none now).
_OPEN: dict[tuple[str, str], str] = {}


def _moving_untrained(result: Result) -> list[Check]:
    """The checks of ``result`` that run at the given setting (not fixed) and do not train."""
    return [
        c
        for c in tier_checks(result, quick=True)
        if c.takes_setting and not c.fixed and c.path.startswith("numerics.")
    ]


def _at(base: Any, key: str, value: Any) -> Any:
    """``base`` with ``key = value`` (tuple fields of the old integer's length cut to it)."""
    try:
        return dataclasses.replace(base, **{key: value})
    except (TypeError, ValueError):
        old = getattr(base, key)
        if not isinstance(old, int):
            raise
        cut = {
            f.name: getattr(base, f.name)[:value]
            for f in dataclasses.fields(base)
            if isinstance(getattr(base, f.name), tuple) and len(getattr(base, f.name)) == old
        }
        return dataclasses.replace(base, **{key: value, **cut})


def _edge(base: Any, key: str) -> tuple[Any, Any] | None:
    """(the smallest value of ``key`` the Setting accepts, the Setting there), or ``None``."""
    cur = getattr(base, key)
    if isinstance(cur, bool) or not isinstance(cur, (int, float)):
        return None
    for v in range(12) if isinstance(cur, int) else (0.0,):
        try:
            return v, _at(base, key, v)
        except (TypeError, ValueError):
            continue
    return None


def _cases(*, open_marks: bool = True) -> list[Any]:
    out = []
    for r in registry.all_results():
        if r.setting is None or not _moving_untrained(r):
            continue
        for key in r.keys:
            edge = _edge(r.setting, key)
            if edge is None or edge[0] == getattr(r.setting, key):
                continue
            tag = f"{key}={edge[0]!r}"
            marks = []
            if open_marks and (r.id, tag) in _OPEN:
                marks.append(pytest.mark.xfail(strict=True, reason=_OPEN[(r.id, tag)]))
            out.append(pytest.param(r.id, key, edge[1], id=f"{r.id}-{tag}", marks=marks))
    return out


def _refused(rid: str, key: str, setting: Any) -> bool:
    """Whether ``rid``'s hypotheses refuse ``setting``; a refusal must name the key or value."""
    try:
        check_hypotheses(registry.get(rid), setting)
    except ValueError as exc:  # refused before any work, naming the value
        assert key in str(exc) or str(getattr(setting, key)) in str(exc), exc
        return True
    return False


@pytest.mark.parametrize(("rid", "key", "setting"), _cases(open_marks=False))
def test_lower_edges_refused_name_the_key(rid: str, key: str, setting: Any) -> None:
    """No work: a refusal at an edge names the key or its value (what ``--set`` echoes)."""
    _refused(rid, key, setting)


@pytest.mark.parametrize(
    ("rid", "key", "refused"),
    [
        ("czz24:thm5.1", "sigma2", True),  # ηt ≃ (σ²…)^(-1/2): σ² > 0
        ("czz24:thm5.2", "sigma2", True),
        ("czz24:rem5.2", "sigma2", True),
        ("czz24:thm5.3", "sigma2", True),  # log²(ns/σ²)
        ("czz24:bayes", "sigma2", True),  # the posterior's likelihood divides by σ²
        ("czz24:lemD.7", "sigma2", False),  # both sides ≡ 0: rows skipped
        ("zwb24:thm5.2", "sigma2", False),  # Ψ̄ = 0 with σ² = 0: Ω = 0, that row skipped
    ],
)
def test_noiseless_edges_fixed_for_issue_31(rid: str, key: str, refused: bool) -> None:
    result = registry.get(rid)
    edge = _edge(result.setting, key)
    assert edge is not None and edge[0] == 0.0
    assert _refused(rid, key, edge[1]) is refused
    if refused:
        return
    rows = []
    for c in _moving_untrained(result):
        if "rate_aux" in c.path or "lemd_1" in c.path:
            continue  # σ² enters only as a shift there; the slow sweep runs them
        got, err = run_check_safely(c, setting=edge[1])
        assert err is None, err
        rows += got
    assert not [e.name for e in rows if e.status == "fail"]
    assert any(e.status == "skipped" and "σ² = 0" in e.details["why"] for e in rows)


@pytest.mark.slow
@pytest.mark.skipif(
    not os.environ.get("ICL_VERIFY_EDGES"), reason="about 15 min: run with ICL_VERIFY_EDGES=1"
)
@pytest.mark.parametrize(("rid", "key", "setting"), _cases())
def test_lower_edges_are_refused_or_pass(rid: str, key: str, setting: Any) -> None:
    result = registry.get(rid)
    if _refused(rid, key, setting):
        return
    bad = []
    for c in _moving_untrained(result):
        rows, err = run_check_safely(c, setting=setting)
        if err is not None:
            bad.append(err.splitlines()[0])
        bad += [f"{c.path}: fail: {e.name}" for e in rows if e.status == "fail"]
    assert not bad, "\n".join(bad)
