"""Records and protocols shared by every layer.

* :class:`Estimate` -- a number with its standard error (closed forms have ``se = 0``).
* :class:`Evidence` -- the outcome of one comparison (predicted, observed, tolerance, pass).
* :class:`Result` -- one verifiable result of a paper, with the dotted paths of the check
  functions that verify it. The report (``sims.verify``) and the test-suite call the *same*
  check functions, so they cannot disagree.
* :class:`Check`, :class:`Ref`, :class:`Claim` -- a declared check, a fault value given by path,
  the claim a row compares with; :class:`TrainedProperty` and :func:`validates_setting` live in
  :mod:`theory.common.properties` and are re-exported here.

A *check function* is any callable ``check(*, quick: bool = True, seed: int = 0, **params) ->
Sequence[Evidence]``; its keyword parameters (with defaults) are the setting it runs at and can be
overridden from the CLI (``icl-verify check ID --set key=value``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from theory.common.properties import TrainedProperty, validates_setting

__all__ = [
    "Estimate",
    "Evidence",
    "Result",
    "Check",
    "Ref",
    "function_path",
    "STATUSES",
    "STATUS_MEANINGS",
    "VERDICTS",
    "REPORTED",
    "STATUS_KEYS",
    "TIERS",
    "Claim",
    "PROVENANCES",
    "TrainedProperty",
    "validates_setting",
    "jsonable",
    "CheckFn",
    "RiskFn",
    "KINDS",
    "KIND_MEANINGS",
    "INDEPENDENT_KINDS",
    "SELF_CONSISTENCY_KINDS",
    "RESULT_KINDS",
]

#: What each evidence kind means: the one source for ``docs/testing.md`` and the report's legend
#: (the verification routes, plus OPTIM, PAPER, DERIVED, ORDER and INFO).  A kind names the
#: *route* that produced the observed value, or what it is compared with (PAPER: a number the
#: paper prints; DERIVED: one we derived, on the paper's docs page), so a reader knows how
#: independent the agreement is.
KIND_MEANINGS: dict[str, str] = {
    "EXACT": "symbolic identity: sympy.simplify(lhs - rhs) == 0, or exact rational arithmetic",
    "FLOAT": "two float64 evaluations of one formula (lambdified twin vs an mpmath reference or a "
    "second closed form), abs(diff) <= atol + rtol*abs(ref)",
    "SOLVER": "an ODE integration (DOP853/LSODA at rtol 1e-10, atol 1e-12) against a closed-form "
    "limit or conserved quantity, error in solver-tolerance units <= 10",
    "MC": "a Monte Carlo estimate from sampled prompts against a closed form: "
    "abs(mean - predicted) <= 5 se (+ stated bias), with the power check "
    "se <= 2% of the scale",
    "TRAIN": "a trained torch model against the predicted optimum in invariant coordinates: "
    "within tolerance of the prediction and outside tolerance of each named alternative, "
    "started at least 3 tolerances away, over the seeds listed",
    "RATE": "a fitted log-log slope against a predicted exponent, within a stated band",
    "ORDER": "a strict inequality between two quantities with a stated margin",
    "OPTIM": "a numerical optimiser (BFGS, root finder) run on an exact formula against the "
    "closed-form optimum or minimiser",
    "PAPER": "a value we compute (or transcribe) against a number the paper prints (a table "
    "entry, a value in its text), quoted with its location in details['claim'] (provenance "
    "printed), within half a unit of the last printed digit unless stated",
    "DERIVED": "a value we compute against a number derived on the docs page cited in "
    "details['derived_in'] (the paper prints none), within half a unit of its last digit unless "
    "stated",
    "INFO": (
        "a value reported beside the rows that judge (context, not a claim): never fails, "
        "never a pass (status `reported`, no verdict)"
    ),
    "CONTROL": "a declared negative control: the check rerun with a planted fault (a wrong input "
    "through one of its fault_* parameters) must fail; a control that passes is a fail "
    "row (icl-verify check/report --controls)",
}
#: Evidence kinds (the keys of :data:`KIND_MEANINGS`).
KINDS = tuple(KIND_MEANINGS)
#: Kinds whose observed value comes from an independent route (sampling, integration, training).
INDEPENDENT_KINDS = ("MC", "SOLVER", "TRAIN")
#: Kinds that compare two forms of one formula (self-consistency, not independent evidence).
SELF_CONSISTENCY_KINDS = ("EXACT", "FLOAT")
#: The one status set (DEVELOPERS.md), worst first after ``fail``.  Every row, check and result
#: has exactly one of these; only ``fail`` makes a run exit non-zero.
STATUS_MEANINGS: dict[str, str] = {
    "pass": "our routes agree with each other and with the claim",
    "fail": "our routes disagree with each other: a bug in the toolkit",
    "discrepancy": "our agreeing routes contradict a claim the paper prints (quoted, cited)",
    "unconfirmed": "our agreeing routes contradict our reading of lost or paraphrased text",
    "untested": "not testable at the paper's scale here (the row says what is missing)",
    "skipped": "not resolvable at this setting (the row says so with numbers)",
}
#: Status names (the keys of :data:`STATUS_MEANINGS`).
STATUSES = tuple(STATUS_MEANINGS)
#: The statuses a passing row may carry instead of ``pass`` (none of them fails the run), in the
#: order a result reports them: the most severe first.
VERDICTS = ("discrepancy", "unconfirmed", "untested", "skipped")
#: What an INFO row (``kind == "INFO"``) without a verdict shows instead of a status: a value
#: reported beside the rows that judge -- no claim, so no verdict, and never counted as a pass
#: (a result needs at least one row that judges).
REPORTED = "reported"
#: ``results.json`` key listing the result ids of each non-pass, non-fail status.
STATUS_KEYS: dict[str, str] = {
    "discrepancy": "discrepancies",
    "unconfirmed": "unconfirmed",
    "untested": "untested",
    "skipped": "skipped",
}
#: Test tiers of a declared check: ``default`` runs in the default pytest, ``thorough`` only under
#: ``HYPOTHESIS_PROFILE=thorough``; the report runs both whatever its mode.  ``full`` runs only in
#: the full tier: ``icl-verify report --full`` / ``check --full`` (``quick=False``) and, in pytest,
#: under ``HYPOTHESIS_PROFILE=thorough``; the quick report adds no row for it.
TIERS = ("default", "thorough", "full")

#: Where a claim a row compares with comes from -- a statement about the *printed paper*, not
#: about its OCR copy.
PROVENANCES: dict[str, str] = {
    "printed": "the paper states it (garbled OCR that the formula around it and the proof pin "
    "down still counts)",
    "reconstructed": "the statement itself is lost in our copy; ``lost`` says what is lost and "
    "whose reading fills it",
    "paraphrase": "our summary of a figure, caption or informal remark",
    "derived": "a toolkit extension, not stated in the paper",
}

#: Kinds of results (what the paper calls them).
RESULT_KINDS = (
    "theorem",
    "lemma",
    "proposition",
    "corollary",
    "equation",
    "identity",
    "definition",
    "observation",
    "remark",
    "derived",
    "baseline",
    "table",
    "figure",
    "cross-check",
)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A scalar estimate ``mean ± se`` from ``n`` samples (``se = n = 0`` for closed forms);
    ``requested`` is the sample size asked for when the estimator drew more to reach its power
    (``n > requested``), else 0; ``seconds`` is the wall time the ``n`` samples took (0 when not
    timed), from which a power skip extrapolates the time a powered sample would take.  It is
    left out of equality and repr: two runs of the same seed give equal estimates.

    >>> e = Estimate(0.52, se=0.01, n=400)
    >>> float(e), e.se
    (0.52, 0.01)
    >>> Estimate(1.0, se=-1.0)
    Traceback (most recent call last):
    ...
    ValueError: Estimate needs finite mean and se ≥ 0, got 1.0, -1.0
    """

    mean: float
    se: float = 0.0
    n: int = 0
    requested: int = 0
    seconds: float = field(default=0.0, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mean) and math.isfinite(self.se)) or self.se < 0:
            raise ValueError(f"Estimate needs finite mean and se ≥ 0, got {self.mean}, {self.se}")

    def __float__(self) -> float:
        return float(self.mean)


def jsonable(x: Any) -> Any:
    """Convert numpy scalars / arrays and tuples to plain JSON types (non-finite floats as text).

    >>> import numpy as np
    >>> jsonable({"x": np.float64(0.5), "v": np.arange(2), "t": (1, float("inf"))})
    {'x': 0.5, 'v': [0, 1], 't': [1, 'inf']}
    """
    try:
        import numpy as np
    except ImportError:  # pragma: no cover
        np = None  # type: ignore[assignment]
    if np is not None and isinstance(x, np.ndarray):
        return jsonable(x.tolist())
    if np is not None and isinstance(x, np.generic):
        return jsonable(x.item())
    if isinstance(x, float):
        return x if math.isfinite(x) else repr(x)
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (int, str, bool)) or x is None:
        return x
    return repr(x)


@dataclass(frozen=True, slots=True)
class Evidence:
    """Outcome of one comparison between a prediction and an independent observation.

    ``error`` is the discrepancy in units of ``tolerance`` (pass iff ``error ≤ 1`` and any power
    condition holds); ``se`` is the Monte Carlo standard error where there is one; ``scale`` is the
    scale of the quantity used by the power check (``se ≤ 0.02·scale`` for MC).  Informational rows
    (``kind == "INFO"``) are reported but never fail, and never pass: their status is
    :data:`REPORTED` (unless a verdict says why they could not be computed).

    ``status`` is one of :data:`STATUSES`: ``"pass"`` or ``"fail"`` from ``passed``, unless the
    row carries a ``verdict`` (one of :data:`VERDICTS`).  A *discrepancy* is a row where the
    toolkit's independent routes agree with each other and contradict a number or statement the
    paper prints: the toolkit works, the claim is not reproduced.  ``unconfirmed``, ``untested``
    and ``skipped`` rows are defined in :data:`STATUS_MEANINGS`.  A row with a verdict has
    ``passed = True`` (it does not fail the run).  ``discrepancy=True`` is the older spelling of
    ``verdict="discrepancy"`` and stays in sync with it.

    >>> row = Evidence(name="E_ols closed form vs MC", kind="MC", predicted=0.0229,
    ...                observed=0.0231, tolerance=0.001, error=0.2, passed=True, se=0.0002)
    >>> row.status, row.to_json()["error_in_tolerance_units"]
    ('pass', 0.2)
    """

    name: str  # what was compared, e.g. "R(M,N) closed form vs MC at d=3,N=10"
    kind: str  # one of KINDS
    predicted: Any  # the theory value (float, list) or a description of it
    observed: Any  # the independent value
    tolerance: float  # the allowed |difference| (absolute, in the units of the quantity)
    error: float  # |difference| / tolerance
    passed: bool
    se: float | None = None  # MC standard error of `observed` (None if not MC)
    scale: float | None = None  # scale of the quantity (power check)
    details: dict[str, Any] = field(default_factory=dict)  # setting, seeds, sample sizes, ...
    discrepancy: bool = False  # our routes agree with each other and contradict the paper
    verdict: str = ""  # "" (pass/fail from `passed`) or one of VERDICTS
    #: the Setting the row ran at, ``{field: value}`` under the names ``--set`` takes (set by the
    #: runner for settings-first checks), and the reason when its check is fixed at that setting
    setting: dict[str, Any] | None = None
    fixed: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"Evidence.kind must be one of {KINDS}, got {self.kind!r}")
        if self.verdict and self.verdict not in VERDICTS:
            raise ValueError(
                f"{self.name}: Evidence.verdict must be one of {VERDICTS}, got {self.verdict!r}"
            )
        if self.discrepancy and self.verdict not in ("", "discrepancy"):
            raise ValueError(f"{self.name}: discrepancy=True contradicts verdict={self.verdict!r}")
        if self.discrepancy:
            object.__setattr__(self, "verdict", "discrepancy")
        elif self.verdict == "discrepancy":
            object.__setattr__(self, "discrepancy", True)
        if self.verdict and not self.passed:
            raise ValueError(
                f"{self.name}: a {self.verdict} row means our routes agree (passed=True)"
            )

    @property
    def informational(self) -> bool:
        return self.kind == "INFO"

    @property
    def status(self) -> str:
        """One of :data:`STATUSES`, or :data:`REPORTED` for an INFO row without a verdict (it
        judges nothing, so it is not a pass)."""
        if self.verdict:
            return self.verdict
        if self.kind == "INFO":
            return REPORTED
        return "pass" if self.passed else "fail"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "predicted": jsonable(self.predicted),
            "observed": jsonable(self.observed),
            "tolerance": jsonable(self.tolerance),
            "error_in_tolerance_units": jsonable(self.error),
            "se": jsonable(self.se),
            "scale": jsonable(self.scale),
            "pass": bool(self.passed),
            "status": self.status,
            "informational": self.informational,
            "details": jsonable(self.details),
            **({"setting": jsonable(self.setting)} if self.setting is not None else {}),
            **({"fixed": self.fixed} if self.fixed else {}),
        }

    def describe(self) -> str:
        status = self.status.upper()
        se = f", se={self.se:.4g}" if self.se is not None else ""
        return (
            f"[{status}] {self.kind} {self.name}: predicted={_short(self.predicted)} "
            f"observed={_short(self.observed)} tol={self.tolerance:.4g} "
            f"error={self.error:.3g} tol-units{se} details={jsonable(self.details)}"
        )


def _short(x: Any) -> str:
    if isinstance(x, float):
        return f"{x:.8g}"
    s = repr(jsonable(x))
    return s if len(s) < 120 else s[:117] + "..."


@dataclass(frozen=True, slots=True)
class Claim:
    """What a row compares with in the paper: ``details["claim"]`` of every row that checks a
    claim (:func:`numerics.testing.claim_agreement`, PAPER rows, verdict rows).

    ``where`` is the paper's own location (section, equation, lemma, figure or page); ``quote``
    the text at that place as our copy has it (<= 300 characters, garbled as it is; a test finds
    every printed quote in the paper's text); ``provenance`` one of :data:`PROVENANCES`; ``lost``
    (required for ``reconstructed``) what is lost and whose reading fills it; ``spec`` the
    maintainers' section a maintainer would read (not shown to users as the source).

    >>> Claim(where="Theorem 5", quote="the risk", provenance="printed").to_json()["where"]
    'Theorem 5'
    """

    where: str
    quote: str
    provenance: str
    lost: str = ""
    spec: str = ""

    def __post_init__(self) -> None:
        if self.provenance not in PROVENANCES:
            raise ValueError(
                f"Claim({self.where!r}).provenance must be one of "
                f"{tuple(PROVENANCES)}, got {self.provenance!r}"
            )
        if not self.where.strip():
            raise ValueError("Claim.where must name the paper's section, equation or figure")
        if len(self.quote) > 300:
            raise ValueError(
                f"Claim({self.where!r}).quote has {len(self.quote)} characters; at most 300"
            )
        if self.provenance in ("printed", "paraphrase") and not self.quote.strip():
            raise ValueError(f"Claim({self.where!r}): a {self.provenance} claim quotes the paper")
        if self.provenance == "reconstructed" and not self.lost.strip():
            raise ValueError(
                f"Claim({self.where!r}): a reconstructed claim says what is lost "
                "and whose reading fills it (lost=...)"
            )

    def to_json(self) -> dict[str, str]:
        out = {"where": self.where, "quote": self.quote, "provenance": self.provenance}
        if self.lost:
            out["lost"] = self.lost
        return out  # ``spec`` is a maintainer's cross-reference: not in the row


class Ref(str):
    """A fault value given as ``"module:attr"``: resolved to that object (by
    :func:`sims.registry.resolve`) when the control runs, so ``theory`` names functions
    of ``numerics`` and ``sims`` without importing them.

    >>> Ref("theory.czz24:rhat")
    Ref('theory.czz24:rhat')
    >>> Ref("rhat")
    Traceback (most recent call last):
    ...
    ValueError: Ref('rhat') must look like 'package.module:attr'
    """

    __slots__ = ()

    def __new__(cls, path: str) -> Ref:
        if ":" not in path:
            raise ValueError(f"Ref({path!r}) must look like 'package.module:attr'")
        return super().__new__(cls, path)

    def __repr__(self) -> str:
        return f"Ref({str.__repr__(self)})"


class Check(str):
    """A declared check of a :class:`Result`: its function, the setting it runs at, and as data
    what it must *not* accept.

    Declared with the check function itself (``Check(check_thm4_ode, at=PRESET)``), or, for
    papers not yet laid out by their key, with its dotted path ``"package.module:function"``.  It
    *is* its path (a ``str`` subclass equal to ``"package.module:function"``, the key of memos,
    process pools and ``results.json``); the declaration adds

    * ``at`` -- the paper's ``Setting`` the check runs at by default.  A check declared with a
      setting takes it as its first argument, ``check(setting, *, quick, seed, fault_...)``; a
      check declared without one takes keyword parameters (the older form);
    * ``fixed`` -- the reason, when the check is by nature tied to ``at`` (a number printed, or
      computed in our docs, for the paper's own setting): ``--set`` does not move it, and its rows
      are listed apart;
    * ``faults`` -- negative controls, ``{name: {parameter: value, ...}}``: each entry reruns the
      check with those keyword arguments (a planted fault) and the rerun must fail.  Values are
      literals, objects, or :class:`Ref` strings;
    * ``expect`` -- the status the check is expected to have (:data:`STATUSES` but ``fail``, or
      :data:`REPORTED` for a check whose rows are all INFO rows: it reports and judges nothing);
    * ``tier`` -- the test tier (:data:`TIERS`) in which the registry test runs it (``full``: and
      only the full tier of the report runs it).

    >>> c = Check("numerics.x:check_y", faults={"doubled": {"fault_scale": 2.0}})
    >>> c == "numerics.x:check_y", c.path, sorted(c.faults)
    (True, 'numerics.x:check_y', ['doubled'])
    """

    __slots__ = ("faults", "expect", "tier", "at", "fixed", "_function")
    faults: dict[str, dict[str, Any]]
    expect: str
    tier: str
    at: Any
    fixed: str
    _function: Callable[..., Any] | None

    def __new__(
        cls,
        target: str | Callable[..., Any],
        *,
        faults: dict[str, dict[str, Any]] | None = None,
        expect: str = "pass",
        tier: str = "default",
        at: Any = None,
        fixed: str = "",
    ) -> Check:
        function = None if isinstance(target, str) else target
        path = target if isinstance(target, str) else function_path(target)
        if ":" not in path and "." not in path:
            raise ValueError(f"Check path {path!r} is not a dotted path 'module:function'")
        if (expect not in STATUSES and expect != REPORTED) or expect == "fail":
            raise ValueError(
                f"{path}: Check.expect must be one of {(*STATUSES[:1], *VERDICTS, REPORTED)}, "
                f"got {expect!r}"
            )
        if tier not in TIERS:
            raise ValueError(f"{path}: Check.tier must be one of {TIERS}, got {tier!r}")
        if fixed and at is None:
            raise ValueError(f"{path}: a fixed check names the setting it is fixed at (at=...)")
        faults = dict(faults or {})
        for name, kw in faults.items():
            if not isinstance(kw, dict) or not kw:
                raise ValueError(
                    f"{path}: fault {name!r} must map parameter names to values, got {kw!r}"
                )
        self = super().__new__(cls, path)
        self.faults = faults
        self.expect = expect
        self.tier = tier
        self.at = at
        self.fixed = fixed
        self._function = function
        return self

    @property
    def path(self) -> str:
        """The plain ``"module:function"`` string."""
        return str.__str__(self)

    @property
    def function(self) -> Callable[..., Any]:
        """The check function (imported from its path when declared by path)."""
        if self._function is None:
            import importlib

            mod, _, attr = self.path.partition(":")
            obj: Any = importlib.import_module(mod)
            for part in attr.split("."):
                obj = getattr(obj, part)
            self._function = obj
        return self._function  # type: ignore[return-value]

    @property
    def takes_setting(self) -> bool:
        """Declared with a setting: called as ``check(setting, *, quick, seed, ...)``."""
        return self.at is not None

    def __repr__(self) -> str:
        extra = "".join(
            f", {k}={getattr(self, k)!r}"
            for k, d in (("faults", {}), ("expect", "pass"), ("tier", "default"), ("fixed", ""))
            if getattr(self, k) != d
        )
        return f"Check({self.path!r}{extra})"

    def __reduce__(self) -> Any:  # pickles (process pools, dask) with its declaration
        return (_make_check, (self.path, self.faults, self.expect, self.tier, self.at, self.fixed))


def function_path(fn: Callable[..., Any]) -> str:
    """``"module:qualname"`` of a function (how rows, memos and ``results.json`` name a check).

    >>> from theory.czz24 import rhat
    >>> function_path(rhat)
    'theory.czz24.sec4_constructions:rhat'
    """
    mod = getattr(fn, "__module__", None)
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None)
    if not mod or not name:
        raise ValueError(f"{fn!r} has no module-level name to declare it by")
    return f"{mod}:{name}"


def _make_check(
    path: str,
    faults: dict[str, dict[str, Any]],
    expect: str,
    tier: str,
    at: Any = None,
    fixed: str = "",
) -> Check:
    return Check(path, faults=faults, expect=expect, tier=tier, at=at, fixed=fixed)


@dataclass(frozen=True, slots=True)
class Result:
    """One verifiable result of a paper.

    ``checks`` are declared checks (:class:`Check`: the check function or its dotted path, with
    the setting it runs at, its negative controls, expected status and test tier; a plain string
    is taken as a check with no declared fault).  ``objects`` are the formulas it concerns (the
    functions themselves, or dotted paths).  ``figures`` are figure functions ``fig(*, quick,
    seed)`` (or dotted paths).

    Settings first: ``setting`` is the paper's Setting a researcher's ``--set`` starts from (the
    paper's own values), ``keys`` the fields of it this result's checks read (the keys ``--set``
    may give), and ``hypotheses`` an optional callable raising ``ValueError`` for a Setting
    outside the result's own hypotheses beyond its Setting's (e.g. Obs. 2 needs H >= 2), called
    before any work.

    >>> r = Result(id="czz24:demo", kind="proposition", summary="one pre-GD step cubes r̂",
    ...            source="[czz24] Eq. (4.3)", objects=("theory.czz24:one_step_prediction",))
    >>> r.paper, r.object_paths, r.settings_first
    ('czz24', ('theory.czz24:one_step_prediction',), False)
    """

    id: str  # "<key>:<kind><number>", e.g. "zfb24:thm4"
    kind: str  # one of RESULT_KINDS
    summary: str  # one line
    source: str  # the paper's own location: "[zfb24] Theorem 4, eq. (11)" (no spec section)
    statement: str = ""  # the statement, plain text / LaTeX
    objects: tuple[Any, ...] = ()  # the theory objects it concerns (functions or dotted paths)
    checks: tuple[Check, ...] = ()  # declared checks (numerics / sims); strings are converted
    figures: tuple[Any, ...] = ()  # figure functions (or dotted paths)
    derived: bool = False  # a toolkit extension, not stated in the paper
    informational: bool = False  # only reported, never fails (spec marks it informational)
    spec: str = ""  # for maintainers: the spec sections behind it ("spec 004 R13"), not shown as
    #                 the source to users
    setting: Any = None  # the paper's Setting that --set starts from (settings-first results)
    keys: tuple[str, ...] = ()  # the Setting fields its checks read: the keys --set may give
    hypotheses: Callable[[Any], None] | None = None  # raises ValueError outside the hypotheses

    def __post_init__(self) -> None:
        if ":" not in self.id or not self.id.split(":", 1)[0]:
            raise ValueError(f"Result.id must look like '<key>:<name>', got {self.id!r}")
        if self.kind not in RESULT_KINDS:
            raise ValueError(f"Result.kind must be one of {RESULT_KINDS}, got {self.kind!r}")
        object.__setattr__(
            self, "checks", tuple(c if isinstance(c, Check) else Check(c) for c in self.checks)
        )
        object.__setattr__(
            self,
            "figures",
            tuple(f if isinstance(f, str) else function_path(f) for f in self.figures),
        )
        for p in self.checks + self.figures + self.objects:
            if isinstance(p, str) and ":" not in p and "." not in p:
                raise ValueError(f"{self.id}: {p!r} is not a dotted path 'module:function'")
        if self.setting is not None:
            import dataclasses

            names = {f.name for f in dataclasses.fields(self.setting)}
            unknown = [k for k in self.keys if k not in names]
            if unknown:
                raise ValueError(f"{self.id}: keys {unknown} are not fields of its Setting")
        elif self.keys:
            raise ValueError(f"{self.id}: keys need the Setting they are fields of (setting=...)")

    @property
    def settings_first(self) -> bool:
        """Its checks take the paper's Setting (``--set`` builds one Setting for all of them)."""
        return self.setting is not None

    @property
    def object_paths(self) -> tuple[str, ...]:
        """``objects`` as dotted paths."""
        return tuple(o if isinstance(o, str) else function_path(o) for o in self.objects)

    @property
    def figure_paths(self) -> tuple[str, ...]:
        """``figures`` as dotted paths."""
        return tuple(f if isinstance(f, str) else function_path(f) for f in self.figures)

    @property
    def paper(self) -> str:
        return self.id.split(":", 1)[0]


class CheckFn(Protocol):
    """A check: runs its comparisons at the paper's Setting (its first parameter); the report
    mode, seed and fault switches are keyword-only.

    >>> from theory.czz24 import rhat_mean
    >>> from theory.czz24.settings import Setting
    >>> import numpy as np
    >>> def check_r(setting, /, *, quick=True, seed=0, fault_scale=1.0):
    ...     w = np.eye(setting.d)[0]                    # w* = e_1
    ...     r = fault_scale * rhat_mean(setting.data().Sigma_x_array, w)
    ...     err = float(abs(r[0] - 1.0) / 1e-12)       # r_1 = Σ_11 w*_1 = 1 at Σ = I
    ...     return [Evidence("r_1 = Σ_11 w*_1", "EXACT", 1.0, float(r[0]), 1e-12, err, err <= 1)]
    >>> [row.status for row in check_r(Setting())], check_r(Setting(), fault_scale=2)[0].status
    (['pass'], 'fail')
    """

    def __call__(
        self, setting: Any, /, *, quick: bool = True, seed: int = 0, **faults: Any
    ) -> Sequence[Evidence]: ...


class RiskFn(Protocol):
    """Interchangeable risk evaluators (closed form, Monte Carlo, trained model): each returns
    an :class:`Estimate` (``se = 0`` for a closed form).

    >>> from theory.czz24 import ols_excess_expr
    >>> from theory.common.symbols import d, n, sigma2
    >>> def ols_closed(setting, params):
    ...     return Estimate(float(ols_excess_expr().subs({d: setting.d, n: setting.n,
    ...                                                   sigma2: setting.sigma2})))
    >>> from theory.czz24.settings import Setting
    >>> float(ols_closed(Setting(d=4, n=10, s=2, sigma2=0.5), None))   # 0.5·4/5
    0.4
    """

    def __call__(self, setting: Any, params: Any) -> Estimate: ...


Fn = Callable[..., Any]


_jsonable = jsonable  # the older private spelling
