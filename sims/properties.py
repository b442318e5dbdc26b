"""Trained claims over settings: run a :class:`~theory.common.protocols.TrainedProperty`.

A property draws settings from its theorem's hypotheses (a Hypothesis strategy, derandomised so
every run draws the same settings and the model cache serves a second run), calls the trained
check at each, and asserts the TRAIN contract on its rows:

* ``pass`` -- every row passed (a TRAIN row: within tolerance of the prediction, outside each
  named alternative, started at least 3 tolerance units away);
* ``not separable`` -- some row is ``skipped`` (the check found its alternatives too close to
  resolve within the budget at that setting, and said so with its numbers): the draw is discarded
  with ``assume`` and counted;
* ``trapped`` -- a ``skipped`` row says (``details["trapped"]``) that training ended at a
  stationary point other than the one the theorem describes (e.g. heads that never formed the
  ``±`` pair), a case the theorem's own convergence statement excludes: discarded and counted
  apart from ``not separable``;
* ``untested`` -- some row is ``untested`` (the check says the claim is not testable at this
  setting at our scale, with what is missing): discarded and counted apart, never a pass;
* ``unconfirmed`` -- a named outcome of its own: every ``unconfirmed`` row carries
  ``details["outcome"]`` (e.g. hpcy25's "sharp head": a trained head that contradicts our
  extrapolation of a claim to a setting the paper did not train) and no row failed: discarded
  and counted apart, never a pass;
* ``fail`` -- any row failed, a row reports a ``discrepancy`` or is ``unconfirmed`` without a
  named outcome (the trained route contradicts the claim the property asserts at that setting),
  or the check raised.
  Hypothesis then shrinks to a minimal setting; the message carries the ``icl-verify check ID
  --set ...`` line that replays it.

The margin of a passing draw is, in tolerance units, how far it is inside its band and outside its
nearest alternative: ``min(1 - error, nearest alternative units - 1)`` over its TRAIN rows.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sims.registry import resolve
from theory.common.protocols import Evidence, TrainedProperty

__all__ = [
    "Draw",
    "PropertyOutcome",
    "classify",
    "margin",
    "replay_line",
    "run_property",
    "PropertyFailure",
    "DRAW_SEED",
]


@dataclass(frozen=True, slots=True)
class Draw:
    """One setting the property tried, and what the check said there."""

    setting: dict[str, Any]
    verdict: str  # "pass", "not_separable", "trapped", "untested", "unconfirmed" or "fail"
    margin: float | None  # tolerance units (passing draws), see the module docstring
    seconds: float
    message: str = ""  # a failing draw's rows; an untested or unconfirmed draw's reason
    pinned: bool = False  # one of the property's pinned presets (run first, as explicit examples)
    explicit: bool = False  # one of the property's explicit settings (run in every tier)


@dataclass(frozen=True, slots=True)
class PropertyOutcome:
    """What a property run found: the ``results.json`` record of ``trained_properties``."""

    prop: TrainedProperty
    draws: tuple[Draw, ...]
    minimal_failing: dict[str, Any] | None = None
    error: str | None = None
    shrink_draws: int = 0  # draws spent shrinking a failure (not counted as drawn)
    seconds: float = 0.0
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def drawn(self) -> int:
        return len(self.draws)

    @property
    def passed_count(self) -> int:
        return sum(d.verdict == "pass" for d in self.draws)

    @property
    def not_separable(self) -> int:
        return sum(d.verdict == "not_separable" for d in self.draws)

    @property
    def trapped(self) -> int:
        return sum(d.verdict == "trapped" for d in self.draws)

    @property
    def untested(self) -> int:
        return sum(d.verdict == "untested" for d in self.draws)

    @property
    def unconfirmed(self) -> int:
        """Draws with a named outcome of their own (module docstring)."""
        return sum(d.verdict == "unconfirmed" for d in self.draws)

    @property
    def worst_margin(self) -> float | None:
        ms = [d.margin for d in self.draws if d.margin is not None]
        return min(ms) if ms else None

    @property
    def seconds_drawn(self) -> float:
        """Seconds spent on the drawn settings, not the pinned presets (whose models are the
        checks' own: a report trains them for the checks anyway): the property's own cost."""
        return sum(d.seconds for d in self.draws if not d.pinned)

    @property
    def passed(self) -> bool:
        return (
            self.error is None
            and self.minimal_failing is None
            and all(d.verdict != "fail" for d in self.draws)
            and self.passed_count > 0
        )

    def to_json(self) -> dict[str, Any]:
        from theory.common.protocols import jsonable as _jsonable

        return {
            "result": self.prop.result,
            "property": self.prop.name,
            "check": self.prop.check,
            "drawn": self.drawn,
            "passed": self.passed_count,
            "not_separable": self.not_separable,
            "trapped": self.trapped,
            "untested": self.untested,
            "unconfirmed": self.unconfirmed,
            "worst_margin": _jsonable(self.worst_margin),
            "minimal_failing": _jsonable(self.minimal_failing),
            "replay": (
                replay_line(self.prop, self.minimal_failing)
                if self.minimal_failing is not None
                else None
            ),
            "error": self.error,
            "seconds": round(self.seconds, 3),
            "seconds_drawn": round(self.seconds_drawn, 3),
            "settings": [
                {
                    "setting": _jsonable(d.setting),
                    "verdict": d.verdict,
                    "margin": _jsonable(d.margin),
                    "seconds": round(d.seconds, 3),
                    "pinned": d.pinned,
                    "explicit": d.explicit,
                    **({"note": d.message} if d.verdict in ("untested", "unconfirmed") else {}),
                }
                for d in self.draws
            ],
        }


class PropertyFailure(AssertionError):
    """A drawn setting broke the TRAIN contract (the message replays it)."""


#: Row statuses that contradict the claim a property asserts (the row itself has ``passed=True``:
#: it is a finding about the paper, not a bug of ours, but it is not the TRAIN contract holding).
CONTRADICTING = ("discrepancy", "unconfirmed")


def _own_outcome(e: Evidence) -> bool:
    """An ``unconfirmed`` row that names an outcome of its own (``details["outcome"]``)."""
    return e.status == "unconfirmed" and bool(e.details.get("outcome"))


def classify(rows: Sequence[Evidence]) -> str:
    """``"fail"`` if a row failed or is a ``discrepancy`` / ``unconfirmed`` finding
    (:data:`CONTRADICTING`) that names no outcome of its own; ``"unconfirmed"`` if it names one
    (``details["outcome"]``); ``"untested"`` if a row is ``untested``; ``"trapped"`` if a
    ``skipped`` row says training was trapped (``details["trapped"]``); ``"not_separable"`` if a
    row is otherwise ``skipped``; else ``"pass"``."""
    if not rows or any(
        not e.passed or (e.status in CONTRADICTING and not _own_outcome(e)) for e in rows
    ):
        return "fail"
    if any(_own_outcome(e) for e in rows):
        return "unconfirmed"
    if any(e.status == "untested" for e in rows):
        return "untested"
    if any(e.status == "skipped" and e.details.get("trapped") for e in rows):
        return "trapped"
    if any(e.status == "skipped" for e in rows):
        return "not_separable"
    return "pass"


def margin(rows: Sequence[Evidence]) -> float | None:
    """``min(1 - error, nearest alternative units - 1)`` over the TRAIN rows (tolerance units)."""
    out: list[float] = []
    for e in rows:
        if e.kind != "TRAIN" or e.status != "pass":
            continue
        out.append(1.0 - float(e.error))
        alts = [
            float(a.get("units", math.inf))
            for a in e.details.get("alternatives") or []
            if isinstance(a, Mapping)
        ]
        if alts:
            out.append(min(alts) - 1.0)
    return min(out) if out else None


def _cli_value(v: Any) -> str:
    if isinstance(v, (tuple, list)):
        return ",".join(_cli_value(x) for x in v)
    return repr(v) if isinstance(v, str) else str(v)


def replay_line(prop: TrainedProperty, setting: Mapping[str, Any] | None) -> str:
    """The command that replays one drawn setting.

    >>> p = TrainedProperty(result="zfb24:thm4", name="any", check="a.b:c", strategy="a.b:s")
    >>> replay_line(p, {"d": 3, "spectrum": (0.5, 1.0, 2.0)})
    'icl-verify check zfb24:thm4 --set d=3 --set spectrum=0.5,1.0,2.0'
    """
    sets = " ".join(f"--set {k}={_cli_value(v)}" for k, v in (setting or {}).items())
    return f"icl-verify check {prop.result} {sets}".rstrip()


def _describe(rows: Sequence[Evidence], error: str | None) -> str:
    if error:
        return error.splitlines()[0]
    bad = [e for e in rows if not e.passed] or list(rows)
    return "; ".join(e.describe()[:400] for e in bad[:3])


def _reason(rows: Sequence[Evidence], verdict: str) -> str:
    """An unconfirmed draw's outcome and why; an untested draw's first reason (one line)."""
    for e in rows:
        if verdict == "unconfirmed" and _own_outcome(e):
            return f"{e.details['outcome']}: {e.details.get('why', '')}"[:300]
        if verdict == "untested" and e.status == "untested":
            return str(e.details.get("why", ""))[:300]
    return ""


@contextlib.contextmanager
def source_constants_pinned() -> Iterator[None]:
    """Draws that depend only on the strategy and the Hypothesis version, not on which modules
    happen to be imported.  Hypothesis (≥ 6.13x) mixes into its draws constants it collects from
    the source of every *local* module in ``sys.modules`` at draw time, so the same derandomised
    property draws other settings in a pytest worker that ran other tests first, in a module run
    alone and in the report.  Inside this context that pool is empty (its cache cleared on entry
    and exit), so the draws of a property are the same in every process; with an older Hypothesis
    that has no such pool this does nothing.  The Hypothesis version is pinned by
    ``constraints.txt`` for CI."""
    try:
        from hypothesis.internal.conjecture import providers as pv
        from hypothesis.internal.floats import float_to_int

        fresh = type(pv._local_constants)(  # the pool's own (empty) shape
            integers=type(pv._local_constants.integers)(),
            floats=type(pv._local_constants.floats)(key=float_to_int),
            bytes=type(pv._local_constants.bytes)(),
            strings=type(pv._local_constants.strings)(),
        )
        original = pv._get_local_constants
    except (ImportError, AttributeError, TypeError):  # no local-constant pool in this version
        yield
        return
    pv.CONSTANTS_CACHE.cache.clear()
    pv._get_local_constants = lambda: fresh
    try:
        yield
    finally:
        pv._get_local_constants = original
        pv.CONSTANTS_CACHE.cache.clear()


#: The seed of every property's draws.  ``derandomize`` alone would seed them from a hash of the
#: runner's own source (``body`` below), so any edit of this module would change every property's
#: drawn settings (and retrain them); with a fixed seed the draws depend only on the strategy and
#: the Hypothesis version (and the pool of source constants, :func:`source_constants_pinned`).
DRAW_SEED = 0


def run_property(
    prop: TrainedProperty,
    *,
    examples: int,
    quick: bool = True,
    seed: int = 0,
    shrink: bool = True,
    progress: Any = None,
    pin_source_constants: bool = True,
    include_pinned: bool = True,
) -> PropertyOutcome:
    """Draw ``examples`` settings (derandomised: the same every run) plus the pinned presets and
    check each; a failure is shrunk to a minimal setting (``shrink``).  The draws do not depend
    on which modules are imported (:func:`source_constants_pinned`; ``pin_source_constants=False``
    is its negative control).  ``include_pinned=False`` leaves the pinned presets out (the report:
    its checks run at the presets themselves, so a pinned draw would only repeat their rows); the
    property's ``explicit`` settings run in either case, after the pinned ones; the drawn settings
    are the same either way (explicit examples do not move Hypothesis's draws)."""
    from hypothesis import HealthCheck, Phase, assume, example, given, settings
    from hypothesis import seed as hypothesis_seed

    from sims.verify import declared, run_check_safely

    strategy = resolve(prop.strategy)()
    check = declared(prop.check)
    draws: list[Draw] = []
    failing: list[dict[str, Any]] = []
    phase = {"shrinking": False}
    shrink_draws = 0

    def body(setting: dict[str, Any]) -> None:
        nonlocal shrink_draws
        t0 = time.perf_counter()
        if check.takes_setting:  # the drawn fields replace those of the check's own setting
            try:
                at = dataclasses.replace(check.at, **setting)
            except (TypeError, ValueError) as exc:
                rows, error = (), f"{prop.check}: drawn setting {setting} rejected: {exc}"
            else:
                rows, error = run_check_safely(check, quick=quick, seed=seed, setting=at)
        else:
            rows, error = run_check_safely(prop.check, quick=quick, seed=seed, **setting)
        verdict = "fail" if error else classify(rows)
        n_pinned = len(prop.pinned) if include_pinned else 0
        first = not phase["shrinking"]
        d = Draw(
            dict(setting),
            verdict,
            margin(rows) if verdict == "pass" else None,
            time.perf_counter() - t0,
            _describe(rows, error) if verdict == "fail" else _reason(rows, verdict),
            pinned=first and len(draws) < n_pinned,
            explicit=first and n_pinned <= len(draws) < n_pinned + len(prop.explicit),
        )
        if phase["shrinking"]:
            shrink_draws += 1
        else:
            draws.append(d)
            if progress is not None:
                progress(d)
        if verdict == "fail":
            phase["shrinking"] = True
            failing.append(dict(setting))
            raise PropertyFailure(
                f"{prop.id}: TRAIN contract broken at {setting}: {d.message}\n"
                f"replay: {replay_line(prop, setting)}"
            )
        assume(verdict == "pass")

    phases = [Phase.explicit, Phase.generate] + ([Phase.shrink] if shrink else [])
    test = given(strategy)(body)
    for pinned in reversed((*(prop.pinned if include_pinned else ()), *prop.explicit)):
        test = example(pinned)(test)
    test = hypothesis_seed(DRAW_SEED)(test)
    test = settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        phases=phases,
        report_multiple_bugs=False,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.filter_too_much,
            HealthCheck.data_too_large,
        ],
    )(test)
    t0 = time.perf_counter()
    error = None
    minimal = None
    try:
        with source_constants_pinned() if pin_source_constants else contextlib.nullcontext():
            test()
    except PropertyFailure:
        minimal = failing[-1] if failing else None  # the last failure seen is the shrunk one
    except Exception as exc:  # noqa: BLE001 - Unsatisfiable (every draw not separable), ...
        error = f"{type(exc).__name__}: {exc}"
    return PropertyOutcome(
        prop, tuple(draws), minimal, error, shrink_draws, time.perf_counter() - t0
    )
