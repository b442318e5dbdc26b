"""The bad-input harness: every exported theory function, driven by its signature.

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

from theory.settings.domains import COMMON, Domain

#: Public theory modules whose ``__all__`` functions the harness covers.
MODULES = (
    "theory.common.gaussian",
    "theory.common.baselines",
    "theory.zfb24",
    "theory.hpcy25",
    "theory.zwb24",
    "theory.collins24",
    "theory.czz24",
)
#: Seconds a single call may take before it counts as a hang.
CALL_LIMIT = 20

#: Domains by parameter name for functions that carry none (``theory.common``, whose numeric
#: formulas are documented batched over leading axes: a matrix parameter may be a stack); a slice's
#: exported functions carry their own (``fn.__domains__``, from ``theory/<slug>/domains.py``).
DOMAINS: dict[str, Domain] = {
    n: d.with_(stack=True) if d.kind in ("psd", "pd", "square", "matrix") else d
    for n, d in COMMON.items()
}


def domains_of(fn: Callable[..., Any]) -> dict[str, Domain]:
    """The domains a function declares (``__domains__``), else :data:`DOMAINS` by name."""
    return getattr(fn, "__domains__", None) or DOMAINS


def _bump(valid: Any, value: float, where: tuple[int, ...] = (0,)) -> np.ndarray:
    arr = np.array(valid, dtype=float)
    arr[(..., *where)] = value
    return arr


def bad_values(dom: Domain, shared: bool = True) -> Iterator[tuple[str, Any]]:
    """``(label, value)`` pairs outside a domain (derived from its kind, bounds and example).

    ``shared``: another argument of the call has the same ``dim`` (so a wrong length is a
    mismatch; alone, a vector of another length is a valid input of another size)."""
    kind, valid = dom.kind, dom.valid
    if kind == "choice":
        yield "not a choice", "two"
        return
    yield "a string", "two"
    if kind in ("object", "callable"):
        yield "None", None
        return
    if kind == "symbols":
        yield "numbers, not symbols", [0.4] * len(valid)
        return
    if kind == "count":
        if dom.minimum >= 1:
            yield f"below the minimum ({dom.minimum - 1})", dom.minimum - 1
        yield "negative", -3
        yield "non-integer", dom.minimum + 0.5
        yield "NaN", math.nan
        if not dom.inf_ok:
            yield "+inf", math.inf
        return
    if kind == "real":
        yield "NaN", math.nan
        if dom.upper is None or dom.lower is not None:
            yield "+inf", math.inf
        if dom.lower is None or dom.upper is not None:
            yield "-inf", -math.inf
        if dom.lower is not None:
            yield "below the lower bound", dom.lower if dom.lower_open else dom.lower - 0.5
        if dom.upper is not None:
            yield "above the upper bound", dom.upper if dom.upper_open else dom.upper + 0.5
        return
    arr = np.asarray(valid, dtype=float)
    if kind in ("psd", "pd", "square", "matrix"):
        yield "NaN entry", _bump(arr, math.nan, (0, 0))
        yield "inf entry", _bump(arr, math.inf, (0, 0))
        n, m = arr.shape[-2:]
        if not dom.stack:  # one matrix per parameter unless the domain says stack=True
            yield f"a stack (1x{n}x{m})", arr[None]
        if kind == "matrix":
            yield "1-D", np.ones(n)
            return
        yield f"wrong shape ({n}x{m + 1})", np.ones((*arr.shape[:-1], m + 1))
        if kind in ("psd", "pd"):
            asym = arr.copy()
            asym[..., 0, -1] += 0.5
            yield "non-symmetric", asym
            yield "indefinite", _bump(arr, -abs(float(arr.reshape(-1)[0])) - 1.0, (0, 0))
        if kind == "pd":
            yield "singular", np.zeros_like(arr)
        return
    yield "NaN entry", _bump(arr, math.nan, (0,) * max(arr.ndim, 1)) if arr.ndim else math.nan
    if dom.lower is not None:
        yield (
            "entry below the lower bound",
            _bump(
                arr, dom.lower - 0.5 if not dom.lower_open else dom.lower, (0,) * max(arr.ndim, 1)
            ),
        )
    if kind == "vector" and ((dom.dim and shared) or dom.length):
        yield f"wrong length ({arr.shape[-1] + 1})", np.zeros((*arr.shape[:-1], arr.shape[-1] + 1))


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
    if x is None:  # a validator: returns nothing
        return True
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


def check_function(
    qual: str, fn: Callable[..., Any], res: HarnessResult | None = None
) -> HarnessResult:
    """Run the harness on one function (see the module docstring); results go into ``res``."""
    res = HarnessResult() if res is None else res
    params = inspect.signature(fn).parameters
    required = [
        p
        for p in params.values()
        if p.default is inspect.Parameter.empty
        and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    ]
    doms = domains_of(fn)
    unknown = [p.name for p in required if p.name not in doms]
    if any(p.kind is p.VAR_POSITIONAL for p in params.values()):
        res.skipped[qual] = "takes *args (no signature-derived domain)"
        return res
    if unknown:
        res.skipped[qual] = f"no declared domain for {unknown}"
        return res
    if not required:
        res.skipped[qual] = "no required parameters (no input to validate)"
        return res
    base = {p.name: doms[p.name].valid for p in required}
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
        dim = doms[p.name].dim
        shared = any(doms[q.name].dim == dim for q in required if q is not p)
        for label, bad in bad_values(doms[p.name], shared):
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
                res.failures.append(
                    f"{qual}({p.name}={label}): raises "
                    f"{type(exc).__name__} ({str(exc)[:80]}), not ValueError"
                )
                continue
            res.failures.append(f"{qual}({p.name}={label}): returns {str(got)[:60]!r}")
    return res


def run_harness(modules: tuple[str, ...] = MODULES) -> HarnessResult:
    """The harness over every exported function of ``modules``."""
    res = HarnessResult()
    for qual, fn in functions(modules):
        check_function(qual, fn, res)
    return res


#: ``docs/testing.md`` keeps the rendered lists between these markers (checked by a test).
DOCS_BEGIN = "<!-- bad-input harness: generated by `python tests/common/bad_input.py --write` -->"
DOCS_END = "<!-- end of the generated bad-input list -->"


def render(res: HarnessResult, modules: tuple[str, ...] = MODULES) -> str:
    """The covered / skipped lists as Markdown (the generated block of ``docs/testing.md``)."""
    lines = [DOCS_BEGIN, "", "| module | covered | skipped | failures |", "|---|---:|---:|---:|"]
    for m in modules:
        cov = [q for q in res.covered if q.rsplit(".", 1)[0] == m]
        skp = [q for q in res.skipped if q.rsplit(".", 1)[0] == m]
        bad = [f for f in res.failures if f.startswith(m + ".")]
        lines.append(f"| `{m}` | {len(cov)} | {len(skp)} | {len(bad)} |")
    lines.append(f"| total | {len(res.covered)} | {len(res.skipped)} | {len(res.failures)} |")
    lines += ["", f"{res.calls} bad calls, each required to raise `ValueError` or `TypeError`.", ""]
    for m in modules:
        cov = sorted(q.rsplit(".", 1)[1] for q in res.covered if q.rsplit(".", 1)[0] == m)
        lines.append(f"- covered in `{m}`: " + (", ".join(f"`{c}`" for c in cov) or "none"))
    lines += ["", "Skipped, with the reason:", ""]
    for q, why in sorted(res.skipped.items()):
        lines.append(f"- `{q}`: {why}")
    lines += ["", DOCS_END]
    return "\n".join(lines)


def docs_block(text: str) -> str | None:
    """The generated block inside ``text`` (``None`` if the markers are missing)."""
    i, j = text.find(DOCS_BEGIN), text.find(DOCS_END)
    return None if i < 0 or j < 0 else text[i : j + len(DOCS_END)]


if __name__ == "__main__":  # refresh docs/testing.md: python tests/common/bad_input.py --write
    import sys
    from pathlib import Path

    with np.errstate(all="ignore"):
        block = render(run_harness())
    docs = Path(__file__).resolve().parents[2] / "docs" / "testing.md"
    text = docs.read_text(encoding="utf-8")
    old = docs_block(text)
    if "--write" in sys.argv:
        if old is None:
            raise SystemExit(f"{docs}: the markers of the generated block are missing")
        docs.write_text(text.replace(old, block), encoding="utf-8")
    print(block)


def bad_value_strategy(dom: Domain) -> Any:
    """A Hypothesis strategy of values outside ``dom`` (random positions, magnitudes, spectra),
    for the property test next to the fixed list of :func:`bad_values`."""
    from hypothesis import strategies as st

    kind, valid = dom.kind, dom.valid
    text = st.text(min_size=1, max_size=5)
    if kind in ("choice", "object", "callable", "symbols"):
        return text.filter(lambda s: s not in dom.choices)
    finite = st.floats(-1e6, 1e6, allow_nan=False)
    nonfinite = st.sampled_from([math.nan, math.inf, -math.inf])
    if kind == "count":
        below = st.integers(-(10**6), dom.minimum - 1)
        frac = finite.filter(lambda v: v != math.floor(v))
        return st.one_of(text, below, frac, st.just(math.nan))
    if kind == "real":
        outs = [text, nonfinite]
        if dom.lower is not None:
            lo = dom.lower
            outs.append(st.floats(-1e6, lo, allow_nan=False, exclude_max=not dom.lower_open))
        if dom.upper is not None:
            hi = dom.upper
            outs.append(st.floats(hi, 1e6, allow_nan=False, exclude_min=not dom.upper_open))
        return st.one_of(*outs)
    arr = np.asarray(valid, dtype=float)

    @st.composite
    def poisoned(draw: Any) -> np.ndarray:  # a NaN / inf at a random entry
        out = arr.copy()
        idx = tuple(draw(st.integers(0, n - 1)) for n in arr.shape)
        out[idx] = draw(nonfinite)
        return out

    outs = [text, poisoned()]
    if kind in ("psd", "pd"):
        n = arr.shape[-1]

        @st.composite
        def indefinite(draw: Any) -> np.ndarray:  # Q diag(λ) Qᵀ with a negative eigenvalue
            lam = np.array(draw(st.lists(st.floats(0.1, 10.0), min_size=n, max_size=n)))
            lam[draw(st.integers(0, n - 1))] = -draw(st.floats(1e-3, 10.0))
            q, _ = np.linalg.qr(
                np.array(draw(st.lists(st.floats(-1, 1), min_size=n * n, max_size=n * n))).reshape(
                    n, n
                )
                + 3 * np.eye(n)
            )
            return (q * lam) @ q.T

        @st.composite
        def asymmetric(draw: Any) -> np.ndarray:
            out = arr.copy()
            i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
            if i == j:
                i, j = 0, n - 1
            out[i, j] += draw(st.floats(1e-3, 10.0))
            return out

        outs += [indefinite(), asymmetric()]
    return st.one_of(*outs)
