"""Run the checks of registered results: the same functions the tests call.

Settings first: a result whose checks take the paper's Setting runs each check at its declared
setting (``Check.at``), or, given a researcher's Setting (``icl-verify check ID --set ...``, built
once by :func:`build_setting`), every check at that one, except the checks declared fixed at the
paper's setting, whose rows say so (``Evidence.fixed``).  Every row of such a check carries the
setting it ran at (``Evidence.setting``).  Checks of papers not yet laid out by their key are
called with keyword overrides (:func:`parse_set_options`).

An exception in a check becomes a failed outcome carrying the error message, so one broken check
cannot hide the others.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import math
import time
import traceback
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from numerics.testing import claim_contract_violations, train_contract_violations
from sims.config import coerce
from sims.registry import resolve
from theory.common.protocols import REPORTED, VERDICTS, Check, Evidence, Ref, Result
from theory.common.setting import setting_fields, setting_json

__all__ = [
    "Outcome",
    "run_check",
    "run_check_safely",
    "verify_result",
    "check_parameters",
    "parse_set_options",
    "CheckRun",
    "ControlRun",
    "fault_kwargs",
    "run_control",
    "declared_checks",
    "rows_status",
    "control_key",
    "validate_overrides",
    "build_setting",
    "parse_setting_value",
    "declared",
    "setting_for",
    "tier_checks",
]

#: What one check call produced: its evidence rows, the error text if it raised (else ``None``).
CheckRun = tuple[tuple[Evidence, ...], str | None]


@dataclass(frozen=True, slots=True)
class ControlRun:
    """One declared negative control of one check: rejected iff the faulted rerun has a failed
    (non-informational) row.  ``error`` is the exception text if the rerun raised (not a
    rejection: a control must be refused by the check's comparison, not by a crash)."""

    path: str
    fault: str
    rejected: bool
    failed_rows: tuple[str, ...] = ()
    error: str | None = None

    def evidence(self) -> Evidence:
        """The CONTROL row the report shows (a control that passes is a ``fail`` row)."""
        why = (
            f"{len(self.failed_rows)} row(s) failed: {'; '.join(self.failed_rows[:3])}"
            if self.rejected
            else (
                self.error.splitlines()[0]
                if self.error
                else "every row passed with the fault planted"
            )
        )
        return Evidence(
            name=f"negative control {self.fault!r} of {self.path}",
            kind="CONTROL",
            predicted="rejected",
            observed="rejected" if self.rejected else "accepted",
            tolerance=0.0,
            error=0.0 if self.rejected else float("inf"),
            passed=self.rejected,
            details={"check": self.path, "fault": self.fault, "why": why},
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "check": self.path,
            "fault": self.fault,
            "rejected": self.rejected,
            "failed_rows": list(self.failed_rows),
            "error": self.error,
        }


def control_key(path: str, fault: str) -> str:
    """Memo key of a control run: ``"path#fault"``."""
    return f"{path}#{fault}"


def fault_kwargs(check: Check, fault: str) -> dict[str, Any]:
    """The keyword arguments of one declared fault, :class:`Ref` values resolved."""
    try:
        kw = check.faults[fault]
    except KeyError:
        raise KeyError(
            f"{check.path} declares no fault {fault!r}; declared: {sorted(check.faults)}"
        ) from None
    return {k: resolve(v) if isinstance(v, Ref) else v for k, v in kw.items()}


def rows_status(evidence: Sequence[Evidence], error: str | None = None) -> str:
    """The status of one check from its rows: ``fail`` on an error, no row or a failed row;
    ``reported`` when every row is an INFO row without a verdict (it judged nothing: not a pass;
    a result needs a row that judges, :attr:`Outcome.passed`); else the most severe verdict any
    row carries (:data:`VERDICTS`), else ``pass``."""
    if error is not None or not evidence or any(not e.passed for e in evidence):
        return "fail"
    got = {e.status for e in evidence}
    if got == {REPORTED}:
        return REPORTED
    return next((v for v in VERDICTS if v in got), "pass")


def run_control(
    check: Check,
    fault: str,
    *,
    quick: bool = True,
    seed: int = 0,
    setting: Any = None,
    **overrides: Any,
) -> ControlRun:
    """Rerun ``check`` with the declared ``fault`` planted (at the same setting, or with the same
    overrides).

    Returns a :class:`ControlRun`; ``rejected`` is what a working check must give. Example: the
    [czz24] Theorem 5.2 bound with ``log(d/δ)`` moved outside the square root is refused:

    >>> c = declared("numerics.czz24.sec5_bounds:check_thm5_2_float_bound")
    >>> run = run_control(c, "log_outside_sqrt")
    >>> run.rejected, run.error
    (True, None)
    """
    if setting is not None:
        overrides = {**overrides, "setting": setting}
    try:
        kw = {**overrides, **fault_kwargs(check, fault)}
        rows = _call(check, quick=quick, seed=seed, **kw)
    except Exception as exc:  # noqa: BLE001 - reported: a crash is not a rejection
        return ControlRun(
            check.path,
            fault,
            False,
            error=f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=3)}",
        )
    failed = tuple(e.name for e in rows if not e.passed and not e.informational)
    return ControlRun(check.path, fault, bool(failed), failed)


def declared_checks(results: Sequence[Result]) -> dict[str, Check]:
    """Path -> declared check over ``results``, each path once; a check listed by several results
    carries the union of their declared faults (a fault name may not mean two things)."""
    out: dict[str, Check] = {}
    for r in results:
        for c in r.checks:
            if c.path not in out:
                out[c.path] = c
                continue
            old = out[c.path]
            faults = dict(old.faults)
            for name, kw in c.faults.items():
                if name in faults and faults[name] != kw:
                    raise ValueError(
                        f"{c.path}: fault {name!r} declared twice with different "
                        f"values ({faults[name]!r}, {kw!r})"
                    )
                faults[name] = kw
            if (c.expect, c.tier, c.at, c.fixed) != (old.expect, old.tier, old.at, old.fixed):
                raise ValueError(
                    f"{c.path}: declared with expect/tier/at/fixed {old.expect}/{old.tier}/"
                    f"{old.at}/{old.fixed!r} and {c.expect}/{c.tier}/{c.at}/{c.fixed!r}"
                )
            out[c.path] = Check(
                c.path,
                faults=faults,
                expect=c.expect,
                tier=c.tier,
                at=c.at,
                fixed=c.fixed,
            )
    return out


def tier_checks(result: Result, *, quick: bool) -> tuple[Check, ...]:
    """The declared checks of ``result`` that run at this tier: every one with ``quick=False``;
    with ``quick=True`` all but those of tier ``full`` (they add no row to a quick run).

    >>> from sims import registry
    >>> [c.path for c in tier_checks(registry.get("base:ols"), quick=True)]
    ['numerics.baselines.ridge:check_ols_mc', 'numerics.baselines.ridge:check_ols_float']
    """
    return tuple(c for c in result.checks if not (quick and c.tier == "full"))


@dataclass(frozen=True, slots=True)
class Outcome:
    """All evidence for one result, and whether it passed (what :func:`verify_result` returns).

    ``evidence`` is the concatenation of every check's rows (``check_rows`` says which check made
    how many); ``status`` is ``"fail"`` or the most severe verdict (else ``"pass"``);
    ``to_json()`` is the record the report writes.

    >>> from sims import registry
    >>> out = verify_result(registry.get("zwb24:lemG.2"))
    >>> out.passed, out.status, [(str(path), n) for path, n in out.check_rows]
    (True, 'pass', [('numerics.zwb24.sec6_flow:check_lemg_2_float', 4)])
    """

    result: Result
    evidence: tuple[Evidence, ...]
    errors: tuple[str, ...] = ()  # exceptions raised by checks ("path: message")
    wall_time: float = 0.0
    per_check_time: dict[str, float] = field(default_factory=dict)
    #: (check path, number of evidence rows it produced), in order: ``evidence`` is their
    #: concatenation, so a row can be traced to its check and a shared check counted once.
    check_rows: tuple[tuple[str, int], ...] = ()
    #: The declared negative controls that were run (``--controls``), else empty.
    controls: tuple[ControlRun, ...] = ()
    controls_run: bool = False

    @property
    def passed(self) -> bool:
        """No error, at least one row that judges (INFO rows only report), no failed row (verdicts
        do not fail) and every control run rejected its fault."""
        return (
            not self.errors
            and any(not e.informational for e in self.evidence)
            and all(e.passed for e in self.evidence)
            and all(c.rejected for c in self.controls)
        )

    @property
    def status(self) -> str:
        """``"fail"`` if not passed, else the most severe verdict of a row (:data:`VERDICTS`:
        discrepancy, unconfirmed, untested, skipped), else ``"pass"``."""
        if not self.passed:
            return "fail"
        return rows_status(self.evidence)

    @property
    def statuses(self) -> tuple[str, ...]:
        """Every verdict some row carries (a result may be listed under several)."""
        got = {e.status for e in self.evidence}
        return tuple(v for v in VERDICTS if v in got)

    @property
    def controls_summary(self) -> dict[str, int | None]:
        """``{"declared": k, "rejected": j}`` (``j`` is ``None`` when controls were not run)."""
        declared = sum(len(c.faults) for c in dict.fromkeys(self.result.checks))
        return {
            "declared": declared,
            "rejected": sum(c.rejected for c in self.controls) if self.controls_run else None,
        }

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
            "controls": self.controls_summary,
            "evidence": [e.to_json() for e in self.evidence],
            **({"control_runs": [c.to_json() for c in self.controls]} if self.controls_run else {}),
        }


def check_parameters(path: str) -> dict[str, inspect.Parameter]:
    """Keyword parameters of a check other than ``quick`` and ``seed``."""
    sig = inspect.signature(resolve(path))
    return {
        n: p
        for n, p in sig.parameters.items()
        if n not in ("quick", "seed") and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
    }


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


def validate_overrides(result: Result, overrides: Mapping[str, Mapping[str, Any]]) -> None:
    """Run the setting validator of every check given overrides (``check.validate_setting``,
    :func:`theory.common.protocols.validates_setting`) before any check runs: a value out of the
    theorem's hypotheses raises ``ValueError`` naming the assumption, and nothing trains."""
    for path, kw in overrides.items():
        if not kw:
            continue
        fn = resolve(path)
        validator = getattr(fn, "validate_setting", None)
        if validator is None:
            continue
        setting = {
            n: p.default
            for n, p in check_parameters(path).items()
            if p.default is not inspect.Parameter.empty
        }
        setting.update(kw)
        wanted = inspect.signature(validator).parameters
        takes_all = any(p.kind == p.VAR_KEYWORD for p in wanted.values())
        validator(**{k: v for k, v in setting.items() if takes_all or k in wanted})


@functools.cache
def _declared_by_path() -> dict[str, Check]:
    from sims import registry

    out: dict[str, Check] = {}
    for r in registry.all_results():
        for c in r.checks:
            out.setdefault(c.path, c)
    return out


def declared(path: str | Check) -> Check:
    """The declared :class:`Check` of a path (its setting, faults, tier), or a bare declaration
    for an undeclared path (a test's own check function).

    >>> c = declared("numerics.czz24.sec5_bounds:check_thm5_2_float_bound")
    >>> c.takes_setting, sorted(c.faults)
    (True, ['log_outside_sqrt'])
    """
    if isinstance(path, Check):
        return path
    return _declared_by_path().get(path) or Check(path)


def setting_for(check: Check, setting: Any = None) -> Any:
    """The Setting a settings-first check runs at: the researcher's ``setting`` unless the check
    is declared fixed (or none is given), else its declared ``at``.

    >>> setting_for(declared("numerics.czz24.sec5_bounds:check_thm5_2_float_bound"))
    Setting(d=11, s=3, n=37, sigma2=0.3, prior='sign', Sigma_diag=(), zeta=0.0, q=1)
    """
    if not check.takes_setting:
        return None
    return check.at if setting is None or check.fixed else setting


def _call(
    check: str | Check,
    *,
    quick: bool,
    seed: int,
    setting: Any = None,
    **overrides: Any,
) -> list[Evidence]:
    """Call one check: settings-first checks with their Setting first (rows stamped with it),
    the others with keyword overrides."""
    c = declared(check)
    if c.takes_setting:
        s = setting_for(c, setting)
        out = c.function(s, quick=quick, seed=seed, **overrides)
        rows = [out] if isinstance(out, Evidence) else list(out)
        stamp = setting_json(s)
        return [
            dataclasses.replace(e, setting=stamp, fixed=c.fixed) if isinstance(e, Evidence) else e
            for e in rows
        ]
    if setting is not None:
        raise TypeError(f"{c.path} takes keyword parameters, not a Setting")
    out = c.function(quick=quick, seed=seed, **overrides)
    return [out] if isinstance(out, Evidence) else list(out)


def run_check(
    path: str | Check,
    *,
    quick: bool = True,
    seed: int = 0,
    setting: Any = None,
    **overrides: Any,
) -> list[Evidence]:
    """Call one check function (at ``setting`` if it takes one) and validate what it returns.

    ``path`` is a declared check (``"package.module:function"`` or a :class:`Check`);
    ``setting`` is a Setting of the check's paper (default: the check's declared one), for a
    check that takes one; ``overrides`` are keyword arguments for one that does not. Returns the
    list of :class:`Evidence` rows (each stamped with the Setting it ran at); raises if the
    check returns nothing or a row breaks the evidence contract.

    Example: [zwb24] Lemma G.2 (the GD-β flow is minus the risk gradient) at ``d = 3, N = 10``:

    >>> from sims import registry
    >>> s = build_setting(registry.get("zwb24:lemG.2"), ["d=3", "N=10"])
    >>> rows = run_check("numerics.zwb24.sec6_flow:check_lemg_2_float", setting=s)
    >>> [e.status for e in rows], rows[0].kind, rows[0].setting["N"]
    (['pass', 'pass', 'pass', 'pass'], 'FLOAT', 10)
    """
    evidence = _call(path, quick=quick, seed=seed, setting=setting, **overrides)
    if not evidence:
        raise RuntimeError(f"{path} returned no evidence")
    for e in evidence:
        if not isinstance(e, Evidence):
            raise TypeError(f"{path} returned {type(e).__name__}, expected Evidence")
        broken = train_contract_violations(e)
        if broken:  # every TRAIN record carries start, alternatives and seeds
            raise ValueError(
                f"{path}: TRAIN row {e.name!r} breaks the contract: " + "; ".join(broken)
            )
        broken = claim_contract_violations(e)
        if broken:  # a verdict names its source; untested/skipped rows give their numbers
            raise ValueError(
                f"{path}: row {e.name!r} ({e.status}) breaks the claim contract: "
                + "; ".join(broken)
            )
    return evidence


def run_check_safely(
    path: str | Check, *, quick: bool = True, seed: int = 0, setting: Any = None, **overrides: Any
) -> CheckRun:
    """:func:`run_check`, with an exception turned into an error text (``"path: Type: message"``
    and a short traceback) instead of raised: one broken check cannot hide the others.  This is
    what a worker of :mod:`sims.parallel` runs, so serial and parallel runs record the same.

    Returns ``(rows, error)``: ``(tuple of Evidence, None)``, or ``((), "path: Type: ...")``.

    >>> rows, err = run_check_safely("numerics.zwb24.sec6_flow:check_lemg_2_float", setting=1)
    >>> rows, err.split(": ")[:2]
    ((), ['numerics.zwb24.sec6_flow:check_lemg_2_float', 'AttributeError'])
    """
    try:
        return tuple(run_check(path, quick=quick, seed=seed, setting=setting, **overrides)), None
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
    controls: bool = False,
    control_memo: dict[str, ControlRun] | None = None,
    setting: Any = None,
) -> Outcome:
    """Run every check of ``result`` at this tier (:func:`tier_checks`); exceptions become
    recorded errors.

    ``setting`` (a settings-first result only: :func:`build_setting`) runs every check at it but
    the ones declared fixed, which run at their own and say so; no memo is used for those.

    ``memo`` (check path -> (evidence, error)) lets a caller that verifies several results run a
    check shared by them once: a check without overrides found in ``memo`` is not run again.
    With ``controls`` every declared fault of every check is run too (:func:`run_control`, with
    the same overrides); ``control_memo`` (:func:`control_key` -> run) plays ``memo``'s part.

    Returns an :class:`Outcome`. Example: [zwb24] Lemma G.2 at your own Setting (built and
    checked against the result's hypotheses by :func:`build_setting`), then [collins24] Remark 2.2
    (the small-ω expansion of the softmax predictor) with its declared negative control run (the
    expansion without the label mean must be rejected):

    >>> from sims import registry
    >>> lemma = registry.get("zwb24:lemG.2")
    >>> out = verify_result(lemma, setting=build_setting(lemma, ["d=3", "N=10"]))
    >>> out.status, len(out.evidence)
    ('pass', 4)
    >>> out = verify_result(registry.get("collins24:rem2.2"), controls=True)
    >>> out.status, out.controls_summary
    ('pass', {'declared': 1, 'rejected': 1})
    """
    evidence: list[Evidence] = []
    errors: list[str] = []
    times: dict[str, float] = {}
    rows: list[tuple[str, int]] = []
    t0 = time.perf_counter()
    if setting is not None and not result.settings_first:
        raise TypeError(f"{result.id} takes keyword overrides, not a Setting")
    checks = tier_checks(result, quick=quick)
    for path in checks:
        t1 = time.perf_counter()
        kw = dict((overrides or {}).get(path, {}))
        moved = setting is not None and path.takes_setting and not path.fixed
        if memo is not None and not kw and not moved and path in memo:
            got, err = memo[path]
        else:
            got, err = run_check_safely(
                path, quick=quick, seed=seed, setting=setting if moved else None, **kw
            )
            if memo is not None and not kw and not moved:
                memo[path] = (got, err)
            times[path] = time.perf_counter() - t1
        evidence += got
        rows.append((path, len(got)))
        if err is not None:
            errors.append(err)
    runs: list[ControlRun] = []
    if controls:
        for check in dict.fromkeys(checks):
            kw = dict((overrides or {}).get(check.path, {}))
            moved = setting is not None and check.takes_setting and not check.fixed
            for fault in check.faults:
                key = control_key(check.path, fault)
                if control_memo is not None and not kw and not moved and key in control_memo:
                    runs.append(control_memo[key])
                    continue
                run = run_control(
                    check, fault, quick=quick, seed=seed, setting=setting if moved else None, **kw
                )
                if control_memo is not None and not kw and not moved:
                    control_memo[key] = run
                runs.append(run)
    return Outcome(
        result,
        tuple(evidence),
        tuple(errors),
        time.perf_counter() - t0,
        times,
        tuple(rows),
        tuple(runs),
        controls,
    )


# ------------------------------------------------------------------ settings first: --set


def _strip_optional(annotation: Any) -> tuple[Any, bool]:
    args = typing.get_args(annotation)
    if (
        typing.get_origin(annotation) in (typing.Union, __import__("types").UnionType)
        and type(None) in args
    ):
        rest = [a for a in args if a is not type(None)]
        return (rest[0] if len(rest) == 1 else typing.Union[tuple(rest)]), True  # noqa: UP007
    return annotation, False


#: The largest integer a ``--set`` value may be: a dimension or a length beyond it cannot be held
#: in this machine's memory by any check (a d-vector of 10^7 floats is already 80 MB per copy).
MAX_SET_INT = 10**7


def _number(key: str, text: str, kind: type) -> Any:
    t = text.strip()
    if kind is int:
        try:
            v = float(t)
        except ValueError:
            raise ValueError(f"{key}={text!r}: expected an integer") from None
        if not math.isfinite(v) or v != int(v):
            raise ValueError(f"{key}={text!r}: expected an integer")
        if abs(v) > MAX_SET_INT:
            raise ValueError(
                f"{key}={text!r}: larger than {MAX_SET_INT:.0e}, beyond any setting a check "
                "can hold in memory"
            )
        return int(v)
    try:
        return float(t)  # "nan" and "inf" parse: the Setting's validator names the assumption
    except ValueError:
        raise ValueError(f"{key}={text!r}: expected a real number") from None


def parse_setting_value(key: str, text: str, annotation: Any) -> Any:
    """One ``--set`` value for a Setting field of type ``annotation``: integers, reals (``nan``
    and ``inf`` parse, so the Setting's validator can name the assumption they break), tuples of
    reals as ``0.5,1,2`` (or ``(0.5, 1, 2)``), and ``none`` for an optional field.

    >>> parse_setting_value("spectrum", "0.5,1,2", tuple[float, ...] | None)
    (0.5, 1.0, 2.0)
    >>> parse_setting_value("N", "8", int)
    8
    """
    if not text.strip():
        raise ValueError(f"{key}={text!r}: empty value")
    base, optional = _strip_optional(annotation)
    if optional and text.strip().lower() == "none":
        return None
    if base is int or base is float:
        return _number(key, text, base)
    if base is bool:
        low = text.strip().lower()
        if low in ("true", "1", "yes"):
            return True
        if low in ("false", "0", "no"):
            return False
        raise ValueError(f"{key}={text!r}: expected true or false")
    if typing.get_origin(base) is tuple:
        args = typing.get_args(base)
        elem = args[0] if args else float
        parts = [p for p in text.strip().strip("()[]").split(",")]
        if parts and not parts[-1].strip():
            parts = parts[:-1]
        if not parts or any(not p.strip() for p in parts):
            raise ValueError(f"{key}={text!r}: expected comma-separated values, e.g. 0.5,1,2")
        return tuple(_number(key, p, elem if elem in (int, float) else float) for p in parts)
    return coerce(key, text, base)


def build_setting(result: Result, options: Sequence[str]) -> Any:
    """The researcher's Setting for a settings-first ``result``: its paper's Setting
    (``result.setting``) with the ``key=value`` options applied, validated, and checked against
    the result's own hypotheses, all before any work.

    Raises ``ValueError`` naming the key, the value and the assumption: for a malformed option,
    a key given twice, a key the result's checks do not read (``result.keys``), a value of the
    wrong type or outside the Setting's domain, or a Setting outside the result's hypotheses.

    Returns a Setting of the result's paper (a frozen dataclass: ``dataclasses.replace`` of
    ``result.setting``).

    >>> from sims import registry
    >>> ols = registry.get("base:ols")
    >>> ols.keys
    ('d', 'N', 'sigma2')
    >>> build_setting(ols, ["d=3", "N=9"])
    GaussianSetting(d=3, N=9, sigma2=0.49, xi=0.5, signal=1.0)
    >>> build_setting(ols, ["d=3", "N=4"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: base:ols at d=3 N=4: the OLS risk is finite only for N > d + 1 ([czz24] ...
    """
    if not result.settings_first:
        raise TypeError(f"{result.id} takes keyword overrides (parse_set_options)")
    base = result.setting
    fields = setting_fields(type(base))
    given: dict[str, Any] = {}
    for opt in options:
        if "=" not in opt:
            raise ValueError(f"--set {opt!r} must look like key=value")
        key, text = opt.split("=", 1)
        key = key.strip()
        if key in given:
            raise ValueError(f"--set {key} given twice; give each key once")
        if key not in result.keys:
            where = (
                f"{key!r} is a field of the {result.paper} Setting, but no check of {result.id} "
                "reads it"
                if key in fields
                else f"{result.id} takes no key {key!r}"
            )
            raise ValueError(f"{where}; keys: {', '.join(result.keys) or '(none)'}")
        given[key] = parse_setting_value(key, text, fields[key].type)
    try:
        setting = dataclasses.replace(base, **given)
    except (MemoryError, OverflowError) as exc:
        shown = " ".join(options)
        raise ValueError(f"--set {shown}: too large to hold ({type(exc).__name__})") from None
    except (TypeError, ValueError) as exc:
        shown = " ".join(options) or "(the defaults)"
        raise ValueError(f"--set {shown}: {exc}") from None
    check_hypotheses(result, setting, options)
    return setting


def check_hypotheses(result: Result, setting: Any, options: Sequence[str] = ()) -> None:
    """Run the result's own hypotheses on ``setting`` (``ValueError`` naming the assumption)."""
    if result.hypotheses is None:
        return
    try:
        result.hypotheses(setting)
    except (TypeError, ValueError) as exc:
        shown = " ".join(options) or "the defaults"
        raise ValueError(f"{result.id} at {shown}: {exc}") from None
