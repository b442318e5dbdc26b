"""The bad-input harness (issue 12): every exported theory function, driven by its signature.

A parameter's domain is declared once, by name, in :data:`DOMAINS` -- the same names the settings
validators use (``theory.settings``: ``check_int``, ``check_real``, ``as_matrix``, ``as_vector``):
a valid value at ``d = 2`` and a kind that yields the bad values.  For each exported function the
harness

1. builds a valid call from the domains of its required parameters (parameters with defaults keep
   them); if that call is rejected the function is *skipped*, with the reason;
2. replaces one parameter at a time by each bad value of its kind (NaN, ±inf, a negative or zero
   size, a non-integer size, σ² < 0, a non-symmetric or indefinite covariance, a wrong shape, a
   string) and requires a ``ValueError`` or ``TypeError`` -- never a returned number (a silent
   wrong answer or a NaN) and never a hang (each call runs under a time limit).

:func:`run_harness` returns the covered functions, the skipped ones with reasons and the failures;
``tests/common/test_bad_input.py`` asserts there are no failures and prints both lists, which
``docs/testing.md`` keeps.
"""

from __future__ import annotations

import importlib
import inspect
import math
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: Public theory modules whose ``__all__`` functions the harness covers.
MODULES = ("theory.common.gaussian", "theory.common.baselines")
#: Seconds a single call may take before it counts as a hang.
CALL_LIMIT = 20

_PSD = np.array([[1.0, 0.3], [0.3, 2.0]])
_SQ = np.array([[0.6, 0.1], [-0.2, 0.4]])
_VEC = np.array([0.5, -0.3])


@dataclass(frozen=True)
class Domain:
    """A parameter's valid value (at d = 2) and the kind that yields its bad values."""

    valid: Any
    kind: str  # count, count0, nonneg, positive, real, psd, square, vector, design, response


#: Domains by parameter name (the names the toolkit uses for the papers' symbols).
DOMAINS: dict[str, Domain] = {
    "d": Domain(2, "count"), "N": Domain(10, "count"), "M": Domain(12, "count"),
    "L": Domain(10, "count"), "H": Domain(2, "count"), "n": Domain(10, "count"),
    "sigma2": Domain(0.25, "nonneg"), "noise_var": Domain(0.25, "nonneg"),
    "s2": Domain(0.25, "nonneg"), "tau2": Domain(1.0, "positive"), "lam": Domain(0.5, "nonneg"),
    "xi": Domain(0.5, "positive"), "signal": Domain(1.0, "positive"),
    "omega": Domain(0.4, "real"), "eta": Domain(0.3, "real"),
    "sigma_init": Domain(0.1, "positive"),
    "Lambda": Domain(_PSD, "psd"), "Sigma": Domain(_PSD, "psd"), "Sigma_x": Domain(_PSD, "psd"),
    "Psi": Domain(_PSD, "psd"), "task_cov": Domain(_PSD, "psd"), "H_cov": Domain(_PSD, "psd"),
    "Gamma": Domain(_SQ, "square"), "P": Domain(_SQ, "square"),
    "beta_star": Domain(_VEC, "vector"), "task_mean": Domain(_VEC, "vector"),
    "beta0": Domain(_VEC, "vector"), "A": Domain(_SQ, "square"),
    "X": Domain(np.arange(20.0).reshape(10, 2) % 7 - 3, "design"),
    "y": Domain(np.linspace(-1.0, 1.0, 10), "response"),
}


def bad_values(kind: str) -> Iterator[tuple[str, Any]]:
    """``(label, value)`` pairs outside a domain kind."""
    yield "a string", "two"
    if kind in ("count", "count0"):
        yield "zero" if kind == "count" else "negative", 0 if kind == "count" else -1
        yield "negative", -3
        yield "non-integer", 2.5
        yield "NaN", math.nan
    elif kind in ("nonneg", "positive", "real"):
        yield "NaN", math.nan
        yield "+inf", math.inf
        if kind != "real":
            yield "negative", -0.5
        if kind == "positive":
            yield "zero", 0.0
    elif kind in ("psd", "square"):
        yield "NaN entry", np.array([[1.0, math.nan], [math.nan, 1.0]])
        yield "inf entry", np.array([[math.inf, 0.0], [0.0, 1.0]])
        yield "wrong shape (2x3)", np.ones((2, 3))
        if kind == "psd":
            yield "non-symmetric", np.array([[1.0, 0.5], [0.0, 1.0]])
            yield "indefinite", np.array([[1.0, 0.0], [0.0, -1.0]])
    elif kind == "vector":
        yield "NaN entry", np.array([math.nan, 0.0])
        yield "wrong length (3)", np.zeros(3)
    elif kind == "design":  # an N x d design matrix (N = 10, d = 2 in the valid example)
        yield "NaN entry", np.full((10, 2), math.nan)
        yield "1-D", np.ones(10)
    elif kind == "response":  # responses of the N = 10 rows of the design
        yield "NaN entry", np.full(10, math.nan)
        yield "wrong length (11)", np.ones(11)


@dataclass
class HarnessResult:
    covered: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    calls: int = 0


class _Timeout(Exception):
    pass


def _call(fn: Callable[..., Any], kw: dict[str, Any]) -> Any:
    def alarm(signum: int, frame: Any) -> None:
        raise _Timeout

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(CALL_LIMIT)
    try:
        return fn(**kw)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _finite_number(x: Any) -> bool:
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        return True  # not a plain number (an expression, a tuple of objects): not a silent NaN
    return bool(np.all(np.isfinite(arr)))


def functions(modules: tuple[str, ...] = MODULES) -> list[tuple[str, Callable[..., Any]]]:
    out = []
    for m in modules:
        mod = importlib.import_module(m)
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name)
            if inspect.isfunction(obj):
                out.append((f"{m}.{name}", obj))
    return out


def check_function(qual: str, fn: Callable[..., Any],
                   res: HarnessResult | None = None) -> HarnessResult:
    """Run the harness on one function (see the module docstring); results go into ``res``."""
    res = HarnessResult() if res is None else res
    params = inspect.signature(fn).parameters
    required = [p for p in params.values() if p.default is inspect.Parameter.empty
                and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    unknown = [p.name for p in required if p.name not in DOMAINS]
    if any(p.kind is p.VAR_POSITIONAL for p in params.values()):
        res.skipped[qual] = "takes *args (no signature-derived domain)"
        return res
    if unknown:
        res.skipped[qual] = f"no declared domain for {unknown}"
        return res
    if not required:
        res.skipped[qual] = "no required parameters"
        return res
    base = {p.name: DOMAINS[p.name].valid for p in required}
    try:
        out = _call(fn, base)
    except _Timeout:
        res.failures.append(f"{qual}: the valid call hangs (> {CALL_LIMIT} s)")
        return res
    except Exception as exc:  # noqa: BLE001 - the example does not fit this function
        res.skipped[qual] = f"valid example rejected ({type(exc).__name__}: {exc})"[:160]
        return res
    if not _finite_number(out):
        res.failures.append(f"{qual}: valid example returns a non-finite value {out!r}")
        return res
    res.covered.append(qual)
    for p in required:
        for label, bad in bad_values(DOMAINS[p.name].kind):
            res.calls += 1
            kw = {**base, p.name: bad}
            try:
                got = _call(fn, kw)
            except (ValueError, TypeError):
                continue
            except _Timeout:
                res.failures.append(f"{qual}({p.name}={label}): hangs")
                continue
            except Exception as exc:  # noqa: BLE001
                res.failures.append(f"{qual}({p.name}={label}): raises "
                                    f"{type(exc).__name__} ({str(exc)[:80]}), not ValueError")
                continue
            res.failures.append(f"{qual}({p.name}={label}): returns {str(got)[:60]!r}")
    return res


def run_harness(modules: tuple[str, ...] = MODULES) -> HarnessResult:
    """The harness over every exported function of ``modules``."""
    res = HarnessResult()
    for qual, fn in functions(modules):
        check_function(qual, fn, res)
    return res
