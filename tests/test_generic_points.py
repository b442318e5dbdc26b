"""Every public theory function is evaluated somewhere at a generic point.

While the default-tier declared checks run (through the session's ``declared_run``), every
argument a validated (public) theory function receives is recorded.  A parameter that only ever
receives 0 or 1 (a scalar, or a matrix or vector whose entries are all 0 or 1: the identity) is a
factor no check can see -- ``x`` and ``x**2`` agree there.  Such a parameter fails this test
unless its slice lists it in ``GENERIC_EXEMPT`` (``theory/<slug>/domains.py``) with a reason
(e.g. a count that the theorem fixes at 1).
"""

from __future__ import annotations

import importlib

import pytest

from sims.registry import PAPERS, all_results
from sims.verify import declared_checks


def exemptions() -> dict[str, str]:
    """``"module:function.parameter" -> reason`` over every slice's ``GENERIC_EXEMPT``."""
    out: dict[str, str] = {}
    for slug in PAPERS.values():
        mod = importlib.import_module(f"theory.{slug}.domains")
        out.update(getattr(mod, "GENERIC_EXEMPT", {}))
    return out


def only_degenerate(arguments: dict[str, dict[tuple[str, str], set[str]]]) -> list[str]:
    """``"function.parameter"`` seen only as degenerate over all the recorded runs.

    >>> only_degenerate({"a": {("m:f", "x"): {"degenerate"}}, "b": {("m:f", "x"): {"generic"}},
    ...                  "c": {("m:g", "y"): {"degenerate"}}})
    ['m:g.y']
    """
    seen: dict[str, set[str]] = {}
    for rec in arguments.values():
        for (fn, name), tags in rec.items():
            seen.setdefault(f"{fn}.{name}", set()).update(tags)
    return sorted(k for k, tags in seen.items() if tags == {"degenerate"})


@pytest.mark.reads_every_declared_run
def test_no_parameter_only_ever_zero_or_one(declared_run) -> None:
    for check in declared_checks(all_results()).values():
        if check.tier == "default":
            declared_run(check.path)
    exempt = exemptions()
    bad = [k for k in only_degenerate(declared_run.arguments) if k not in exempt]
    assert not bad, (
        "public theory parameters only ever evaluated at 0 or 1 by the default "
        "checks (add a check at a generic point, or exempt with a reason in "
        "theory/<slug>/domains.py GENERIC_EXEMPT):\n" + "\n".join(bad)
    )
