"""Run the checks of registered results (STYLE §5.3): the same functions the tests call.

A check is resolved from its dotted path, called with ``quick``, ``seed`` and any overrides it
accepts, and its :class:`Evidence` records are collected into an :class:`Outcome`.  An exception in
a check becomes a failed outcome carrying the error message, so one broken check cannot hide the
others.
"""

from __future__ import annotations

import inspect
import time
import traceback
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from numerics.testing import train_contract_violations
from sims.config import coerce
from theory.common.protocols import Evidence, Result
from theory.common.registry import resolve

__all__ = ["Outcome", "run_check", "run_check_safely", "verify_result", "check_parameters",
           "parse_set_options", "CheckRun"]

#: What one check call produced: its evidence rows, the error text if it raised (else ``None``).
CheckRun = tuple[tuple[Evidence, ...], str | None]


@dataclass(frozen=True, slots=True)
class Outcome:
    """All evidence for one result, and whether it passed."""

    result: Result
    evidence: tuple[Evidence, ...]
    errors: tuple[str, ...] = ()  # exceptions raised by checks ("path: message")
    wall_time: float = 0.0
    per_check_time: dict[str, float] = field(default_factory=dict)
    #: (check path, number of evidence rows it produced), in order: ``evidence`` is their
    #: concatenation, so a row can be traced to its check and a shared check counted once.
    check_rows: tuple[tuple[str, int], ...] = ()

    @property
    def passed(self) -> bool:
        """No error, some evidence, and no failed row (discrepancies do not fail)."""
        return not self.errors and bool(self.evidence) and all(e.passed for e in self.evidence)

    @property
    def status(self) -> str:
        """``"fail"`` if not passed, else ``"discrepancy"`` if a row is one, else ``"pass"``."""
        if not self.passed:
            return "fail"
        return "discrepancy" if any(e.discrepancy for e in self.evidence) else "pass"

    def to_json(self) -> dict[str, Any]:
        r = self.result
        return {
            "id": r.id,
            "paper": r.paper,
            "kind": r.kind,
            "summary": r.summary,
            "source": r.source,
            "derived": r.derived,
            "pass": self.passed,
            "status": self.status,
            "errors": list(self.errors),
            "checks": list(r.checks),
            "check_rows": [[p, n] for p, n in self.check_rows],
            "evidence": [e.to_json() for e in self.evidence],
        }


def check_parameters(path: str) -> dict[str, inspect.Parameter]:
    """Keyword parameters of a check other than ``quick`` and ``seed``."""
    sig = inspect.signature(resolve(path))
    return {n: p for n, p in sig.parameters.items() if n not in ("quick", "seed")
            and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}


def _annotation(fn: Any, name: str, param: inspect.Parameter) -> Any:
    try:
        hints = typing.get_type_hints(fn)
    except Exception:
        hints = {}
    if name in hints:
        return hints[name]
    if param.default is not inspect.Parameter.empty and param.default is not None:
        return type(param.default)
    return Any


def parse_set_options(result: Result, options: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Turn ``key=value`` strings into per-check keyword overrides (type-checked).

    Every key must be accepted by at least one of the result's checks (else ``ValueError`` listing
    the accepted keys).
    """
    per_check: dict[str, dict[str, Any]] = {p: {} for p in result.checks}
    accepted: set[str] = set()
    for opt in options:
        if "=" not in opt:
            raise ValueError(f"--set {opt!r} must look like key=value")
        key, text = opt.split("=", 1)
        used = False
        for path in result.checks:
            params = check_parameters(path)
            accepted |= set(params)
            if key in params:
                fn = resolve(path)
                try:
                    per_check[path][key] = coerce(key, text, _annotation(fn, key, params[key]))
                except ValueError as exc:
                    raise ValueError(f"--set {exc}") from None
                used = True
        if not used:
            raise ValueError(
                f"no check of {result.id} takes {key!r}; settable keys: {sorted(accepted)}"
            )
    return per_check


def run_check(path: str, *, quick: bool = True, seed: int = 0, **overrides: Any) -> list[Evidence]:
    """Call one check function and validate what it returns."""
    fn = resolve(path)
    out = fn(quick=quick, seed=seed, **overrides)
    evidence = [out] if isinstance(out, Evidence) else list(out)
    if not evidence:
        raise RuntimeError(f"{path} returned no evidence")
    for e in evidence:
        if not isinstance(e, Evidence):
            raise TypeError(f"{path} returned {type(e).__name__}, expected Evidence")
        broken = train_contract_violations(e)
        if broken:  # issue 8: every TRAIN record carries start, alternatives and seeds
            raise ValueError(f"{path}: TRAIN row {e.name!r} breaks the contract: "
                             + "; ".join(broken))
    return evidence


def run_check_safely(path: str, *, quick: bool = True, seed: int = 0,
                     **overrides: Any) -> CheckRun:
    """:func:`run_check`, with an exception turned into an error text (``"path: Type: message"``
    and a short traceback) instead of raised: one broken check cannot hide the others.  This is
    what a worker of :mod:`sims.parallel` runs, so serial and parallel runs record the same."""
    try:
        return tuple(run_check(path, quick=quick, seed=seed, **overrides)), None
    except Exception as exc:  # noqa: BLE001 - reported, not swallowed
        tb = traceback.format_exc(limit=3)
        return (), f"{path}: {type(exc).__name__}: {exc}\n{tb}"


def verify_result(
    result: Result,
    *,
    quick: bool = True,
    seed: int = 0,
    overrides: Mapping[str, Mapping[str, Any]] | None = None,
    memo: dict[str, CheckRun] | None = None,
) -> Outcome:
    """Run every check of ``result``; exceptions become recorded errors.

    ``memo`` (check path -> (evidence, error)) lets a caller that verifies several results run a
    check shared by them once: a check without overrides found in ``memo`` is not run again.
    """
    evidence: list[Evidence] = []
    errors: list[str] = []
    times: dict[str, float] = {}
    rows: list[tuple[str, int]] = []
    t0 = time.perf_counter()
    for path in result.checks:
        t1 = time.perf_counter()
        kw = dict((overrides or {}).get(path, {}))
        if memo is not None and not kw and path in memo:
            got, err = memo[path]
        else:
            got, err = run_check_safely(path, quick=quick, seed=seed, **kw)
            if memo is not None and not kw:
                memo[path] = (got, err)
            times[path] = time.perf_counter() - t1
        evidence += got
        rows.append((path, len(got)))
        if err is not None:
            errors.append(err)
    return Outcome(result, tuple(evidence), tuple(errors), time.perf_counter() - t0, times,
                   tuple(rows))
