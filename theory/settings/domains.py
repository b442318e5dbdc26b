"""Parameter domains, declared once per parameter name, and the public-boundary validation built
from them: no silent wrong answer on bad input.

A :class:`Domain` says what a parameter must be (an integer size, a real number in an interval, a
symmetric PSD covariance, a finite vector, ...) and gives a valid example at ``d = 2``.  Two users
read the same declaration:

* :class:`Checker` (one per slice, ``theory/<slug>/domains.py``: ``checked = Checker(DOMAINS,
  paper=..., overrides=...)``) validates a public function *where it is defined*: ``@checked``
  on a ``def``, ``checked(fn, args=(...))`` on a lambdified ``*args`` twin.  Every declared
  argument is checked at call time with the settings validators' rules (:func:`check_value`;
  ``ValueError``/``TypeError`` naming the parameter, the value and the assumption it breaks), and
  arguments sharing a dimension label (``dim="d"``) must agree in size.  SymPy input passes (it
  is symbolic); a Python string never does.  The package re-exports the same object, so there is
  one message per bad input whatever the import path.  Only the outermost validated call checks
  (a validated function calling another does not check again: the inner arguments are the
  outer's, already checked, or computed from them); ``fn.raw`` is the unchecked function, the
  fast path for ODE right-hand sides and optimisers called in a loop.
  (:func:`validate_exports` is the older form: it replaced the package's exports by wrappers at
  import; kept for code outside this repository.)
* the bad-input harness (``tests/common/bad_input.py``) reads ``fn.__domains__`` to build a valid
  call from the examples and derives the bad values from each domain's kind and bounds.

:data:`COMMON` holds the domains of the cross-paper names; a slice extends it with its own names
(``theory/<slug>/domains.py``) and overrides per function where a name means something else.
"""

from __future__ import annotations

import functools
import inspect
import math
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from theory.settings.arguments import RECORDERS, degenerate, record, record_arguments
from theory.settings.validators import PSD_RTOL

__all__ = [
    "Domain",
    "COMMON",
    "check_value",
    "validated",
    "validate_exports",
    "KINDS",
    "record_arguments",
    "degenerate",
    "Checker",
]

#: Depth of validated calls on this thread: only the outermost one checks and records.
_DEPTH = threading.local()


#: The domain kinds.  Scalars (``count``, ``real``) accept arrays (checked entrywise) so vectorised
#: twins keep working; matrices accept batches ``(..., n, n)``.
KINDS = (
    "count",
    "real",
    "psd",
    "pd",
    "square",
    "matrix",
    "vector",
    "array",
    "choice",
    "object",
    "callable",
    "symbols",
)


@dataclass(frozen=True)
class Domain:
    """Where a parameter lives, and a valid example at ``d = 2``.

    ``kind``: one of :data:`KINDS`.  ``count``: integers ``≥ minimum`` (integral floats accepted,
    ``inf_ok`` admits ``+inf``).  ``real``: finite reals with optional (open) bounds.  ``psd`` /
    ``pd``: symmetric positive semi-/definite matrices; ``square``: finite square matrices;
    ``symbols``: a non-empty sequence of SymPy symbols (what a symbolic builder differentiates in);
    ``matrix``: finite 2-D arrays; ``vector``: finite arrays of rank ≥ 1; ``array``: finite arrays
    of any rank.  ``dim`` names the size a matrix / vector shares with other arguments (the trailing
    axis), or for a ``count`` the size it *is*.  ``symbolic``: SymPy input is allowed (and not
    checked).  ``optional``: ``None`` is allowed.
    """

    kind: str
    valid: Any = None
    what: str = ""
    minimum: int = 1
    inf_ok: bool = False
    lower: float | None = None
    upper: float | None = None
    lower_open: bool = False
    upper_open: bool = False
    dim: str | None = None
    length: int | None = None
    symbolic: bool = True
    optional: bool = False
    scalar: bool = False
    choices: tuple[Any, ...] = ()
    cls: Any = None
    paper: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"Domain kind must be one of {KINDS}, got {self.kind!r}")

    def describe(self) -> str:
        """The assumption in words (for error messages and docs)."""
        if self.what:
            return self.what
        if self.kind == "count":
            return f"an integer ≥ {self.minimum}" + (" (or inf)" if self.inf_ok else "")
        if self.kind == "real":
            lo = "" if self.lower is None else f"{'>' if self.lower_open else '≥'} {self.lower:g}"
            hi = "" if self.upper is None else f"{'<' if self.upper_open else '≤'} {self.upper:g}"
            bounds = " and ".join(b for b in (lo, hi) if b)
            return "a finite real number" + (f" {bounds}" if bounds else "")
        return {
            "psd": "a symmetric positive semidefinite matrix",
            "pd": "a symmetric positive definite matrix",
            "square": "a finite square matrix",
            "matrix": "a finite real matrix",
            "vector": "a finite real vector",
            "array": "a finite real array",
            "choice": f"one of {self.choices}",
            "object": f"a {getattr(self.cls, '__name__', self.cls)}",
            "callable": "a callable",
            "symbols": "a sequence of SymPy symbols",
        }[self.kind]

    def with_(self, **kw: Any) -> Domain:
        """A copy with some fields changed."""
        return Domain(**{**self.__dict__, **kw})


_PSD = np.array([[1.0, 0.3], [0.3, 2.0]])
_SQ = np.array([[0.6, 0.1], [-0.2, 0.4]])
_VEC = np.array([0.5, -0.3])

#: Domains of the cross-paper names (the names the toolkit uses for the papers' symbols).
COMMON: dict[str, Domain] = {
    "d": Domain("count", 2, dim="d"),
    "N": Domain("count", 10),
    "M": Domain("count", 12),
    "L": Domain("count", 10),
    "H": Domain("count", 2),
    "n": Domain("count", 10),
    "sigma2": Domain("real", 0.25, lower=0.0),
    "noise_var": Domain("real", 0.25, lower=0.0),
    "s2": Domain("real", 0.25, lower=0.0),
    "tau2": Domain("real", 1.0, lower=0.0, lower_open=True),
    "lam": Domain("real", 0.5, lower=0.0),
    "xi": Domain("real", 0.5, lower=0.0, lower_open=True),
    "signal": Domain("real", 1.0, lower=0.0, lower_open=True),
    "omega": Domain("real", 0.4),
    "eta": Domain("real", 0.3),
    "sigma_init": Domain("real", 0.1, lower=0.0, lower_open=True),
    "Lambda": Domain("psd", _PSD, dim="d"),
    "Sigma": Domain("psd", _PSD, dim="d"),
    "Sigma_x": Domain("psd", _PSD, dim="d"),
    "Psi": Domain("psd", _PSD, dim="d"),
    "task_cov": Domain("psd", _PSD, dim="d"),
    "H_cov": Domain("psd", _PSD, dim="d"),
    "Gamma": Domain("square", _SQ, dim="d"),
    "P": Domain("square", _SQ, dim="d"),
    "A": Domain("square", _SQ, dim="d"),
    "beta_star": Domain("vector", _VEC, dim="d"),
    "task_mean": Domain("vector", _VEC, dim="d"),
    "beta0": Domain("vector", _VEC, dim="d"),
    "X": Domain("matrix", np.arange(20.0).reshape(10, 2) % 7 - 3, dim="d"),
    "y": Domain("vector", np.linspace(-1.0, 1.0, 10), length=10),
}


# ------------------------------------------------------------------------------- checks
def _where(dom: Domain) -> str:
    return f" ({dom.paper})" if dom.paper else ""


def _fail(name: str, dom: Domain, got: str, exc: type[Exception] = ValueError) -> Exception:
    return exc(f"{name} must be {dom.describe()}{_where(dom)}, got {got}")


_SYMBOLIC: list[Callable[..., bool]] = []


def _is_sympy(value: Any) -> bool:
    if not _SYMBOLIC:  # imported late: theory.common imports theory.settings
        from theory.common.evaluate import is_symbolic

        _SYMBOLIC.append(is_symbolic)
    return _SYMBOLIC[0](value)


def _scalar_ok(v: float, dom: Domain) -> bool:
    """The fast path for a Python / numpy float scalar (ODE right-hand sides call this often)."""
    if dom.kind == "count":
        if v != v or (v in (math.inf, -math.inf) and not (dom.inf_ok and v > 0)):
            return False
        return (not math.isfinite(v) or v == math.floor(v)) and v >= dom.minimum
    if not math.isfinite(v):
        return False
    lo, hi = dom.lower, dom.upper
    if lo is not None and (v <= lo if dom.lower_open else v < lo):
        return False
    return not (hi is not None and (v >= hi if dom.upper_open else v > hi))


def _numeric(name: str, value: Any, dom: Domain) -> np.ndarray:
    if isinstance(value, bool) or isinstance(value, np.bool_):
        raise _fail(name, dom, f"the bool {value!r}", TypeError)
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:  # ragged lists
        raise _fail(name, dom, f"{value!r}", TypeError) from exc
    if arr.dtype.kind == "O":  # mpmath / Fraction / Decimal numbers (high-precision references)
        for dtype in (float, complex):
            try:
                arr = arr.astype(dtype)
                break
            except (TypeError, ValueError):
                continue
    if arr.dtype.kind not in "iufc":
        raise _fail(name, dom, f"{value!r} (not a number)"[:300], TypeError)
    return np.real(arr) if arr.dtype.kind == "c" else arr  # complex-step input: check the real part


_PSD_SEEN: dict[bytes, bool] = {}


def _check_matrix(name: str, arr: np.ndarray, dom: Domain) -> None:
    key = b""
    if dom.kind in ("psd", "pd") and arr.size <= 400:  # a repeated covariance: checked once
        key = arr.tobytes() + f"{arr.shape}{arr.dtype.str}{dom.kind}".encode()
        if key in _PSD_SEEN:
            return
    if not np.isfinite(arr).all():
        raise _fail(name, dom, "a matrix with non-finite entries")
    if arr.ndim < 2:
        raise _fail(name, dom, f"shape {arr.shape}")
    if dom.kind == "matrix":
        return
    if arr.shape[-1] != arr.shape[-2] or arr.shape[-1] == 0:
        raise _fail(name, dom, f"shape {arr.shape} (not square)")
    if dom.kind == "square":
        return
    arr = arr.astype(float)
    scale = max(1.0, float(np.max(np.abs(arr))))
    if np.max(np.abs(arr - np.swapaxes(arr, -1, -2))) > PSD_RTOL * scale:
        raise _fail(name, dom, f"a non-symmetric matrix {arr.tolist()!r}")
    eig = np.linalg.eigvalsh(0.5 * (arr + np.swapaxes(arr, -1, -2)))
    top = max(1.0, float(np.max(np.abs(eig))))
    low = float(np.min(eig))
    if low < -PSD_RTOL * top:
        raise _fail(name, dom, f"smallest eigenvalue {low:.6g} (not positive semidefinite)")
    if dom.kind == "pd" and low <= PSD_RTOL * top:
        raise _fail(name, dom, f"smallest eigenvalue {low:.6g} (not positive definite)")
    if key:
        if len(_PSD_SEEN) > 4096:
            _PSD_SEEN.clear()
        _PSD_SEEN[key] = True


def check_value(name: str, value: Any, dom: Domain) -> Any:
    """Check one argument against its domain; raise ``ValueError`` (``TypeError`` for a value of
    the wrong type) naming ``name`` and the assumption; return the size it fixes (for ``dim``).

    >>> check_value("N", 10, COMMON["N"])
    10
    >>> check_value("N", 2.5, COMMON["N"])
    Traceback (most recent call last):
    ...
    ValueError: N must be an integer ≥ 1, got 2.5
    """
    if (
        dom.kind in ("count", "real")
        and isinstance(value, (int, float))
        and not isinstance(value, bool)
    ):
        if not _scalar_ok(float(value), dom):
            raise _fail(name, dom, repr(value))
        return int(value) if dom.kind == "count" and math.isfinite(value) else None
    if type(value) is np.ndarray and value.dtype.kind in "fiu" and dom.kind in _ARRAY_KINDS:
        return _check_array(name, value, dom, value)  # the fast path for numpy input
    if isinstance(value, str) and dom.kind != "choice":
        raise _fail(name, dom, f"the string {value!r}", TypeError)
    if value is None:
        if dom.optional:
            return None
        raise _fail(name, dom, "None", TypeError)
    if dom.kind == "choice":
        if value not in dom.choices:
            raise _fail(name, dom, repr(value))
        return None
    if dom.kind == "object":
        if not isinstance(value, dom.cls):
            raise _fail(name, dom, f"{type(value).__name__} {value!r}"[:200], TypeError)
        return None
    if dom.kind == "callable":
        if not callable(value):
            raise _fail(name, dom, repr(value), TypeError)
        return None
    if dom.kind == "symbols":
        import sympy as sp  # local: only the symbolic builders need it

        if not (
            isinstance(value, (list, tuple))
            and value
            and all(isinstance(v, sp.Symbol) for v in value)
        ):
            raise _fail(name, dom, repr(value)[:200], TypeError)
        return None
    if _is_sympy(value):
        if not dom.symbolic:
            raise _fail(name, dom, f"the SymPy object {value!r} (numbers only here)", TypeError)
        return None
    return _check_array(name, _numeric(name, value, dom), dom, value)


_ARRAY_KINDS = ("count", "real", "psd", "pd", "square", "matrix", "vector", "array")


def _check_array(name: str, arr: np.ndarray, dom: Domain, value: Any) -> Any:
    if dom.scalar and arr.ndim:
        raise _fail(name, dom, f"an array of shape {arr.shape}")
    if dom.kind in ("count", "real"):
        if dom.kind == "count":
            fin = np.isfinite(arr)
            if not (fin | (dom.inf_ok & (arr > 0))).all() or (arr[fin] != np.floor(arr[fin])).any():
                raise _fail(name, dom, repr(value)[:300])
            if (arr < dom.minimum).any():
                raise _fail(name, dom, repr(value)[:300])
            return int(arr) if arr.ndim == 0 and np.isfinite(arr) else None
        _check_real(name, arr, dom, value)
        return None
    if dom.kind in ("psd", "pd", "square", "matrix"):
        _check_matrix(name, arr, dom)
        return arr.shape[-1]
    if not np.isfinite(arr).all():
        raise _fail(name, dom, "an array with non-finite entries")
    if dom.lower is not None or dom.upper is not None:
        _check_real(name, arr, dom, value)
    if dom.kind == "vector":
        if arr.ndim < 1:
            raise _fail(name, dom, f"the scalar {value!r}")
        if dom.length is not None and arr.shape[-1] != dom.length:
            raise _fail(name, dom, f"length {arr.shape[-1]} (need {dom.length})")
        return arr.shape[-1]
    return None  # array


def _check_real(name: str, arr: np.ndarray, dom: Domain, value: Any) -> None:
    if not np.isfinite(arr).all():
        raise _fail(name, dom, repr(value)[:300])
    lo, hi = dom.lower, dom.upper
    if lo is not None and (arr <= lo if dom.lower_open else arr < lo).any():
        raise _fail(name, dom, repr(value)[:300])
    if hi is not None and (arr >= hi if dom.upper_open else arr > hi).any():
        raise _fail(name, dom, repr(value)[:300])


# ---------------------------------------------------------------------------- wrapping
def validated(
    fn: Callable[..., Any],
    domains: Mapping[str, Domain],
    *,
    args: Sequence[str] | None = None,
    paper: str | None = None,
) -> Callable[..., Any]:
    """``fn`` with its declared arguments checked at call time (see the module docstring).

    ``domains`` maps parameter names to domains (names not in the signature are ignored);
    ``args`` names the positional parameters of a ``*args`` function (a lambdified twin).  The
    wrapper carries ``__domains__`` (name → domain, the harness reads it) and ``raw`` (``fn``).
    """
    if args is not None:
        sig = inspect.Signature(
            [inspect.Parameter(a, inspect.Parameter.POSITIONAL_OR_KEYWORD) for a in args]
        )
    else:
        sig = inspect.signature(fn)
    names = [
        p.name
        for p in sig.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    doms = {
        p: (domains[p].with_(paper=paper) if paper else domains[p])
        for p in sig.parameters
        if p in domains
    }
    pos = tuple((n, doms.get(n)) for n in names)

    fn_name = f"{fn.__module__}:{fn.__qualname__}"

    def check(a: tuple[Any, ...], kw: dict[str, Any]) -> None:
        if RECORDERS:
            for (n, _), v in zip(pos, a, strict=False):
                record(fn_name, n, v)
            for n, v in kw.items():
                record(fn_name, n, v)
        sizes: dict[str, tuple[str, int]] = {}
        for (n, dom), v in zip(pos, a, strict=False):
            if dom is not None:
                size = check_value(n, v, dom)
                if dom.dim is not None and size is not None:
                    _same_size(sizes, n, size, dom)
        for n, v in kw.items():
            dom = doms.get(n)
            if dom is not None:
                size = check_value(n, v, dom)
                if dom.dim is not None and size is not None:
                    _same_size(sizes, n, size, dom)

    def enter(a: tuple[Any, ...], kw: dict[str, Any]) -> int:
        depth = getattr(_DEPTH, "n", 0)
        if depth == 0:
            check(a, kw)
        _DEPTH.n = depth + 1
        return depth

    if args is not None:

        def call(*a: Any, **kw: Any) -> Any:
            depth = enter(a, kw)
            try:
                if kw:
                    a = a + tuple(kw[n] for n in names[len(a) :])
                return fn(*a)
            finally:
                _DEPTH.n = depth
    else:

        def call(*a: Any, **kw: Any) -> Any:
            depth = enter(a, kw)
            try:
                return fn(*a, **kw)
            finally:
                _DEPTH.n = depth

    wrapper = functools.wraps(fn)(call)
    wrapper.__signature__ = sig  # type: ignore[attr-defined]
    wrapper.__domains__ = doms  # type: ignore[attr-defined]
    wrapper.raw = fn  # type: ignore[attr-defined]
    return wrapper


def _same_size(sizes: dict[str, tuple[str, int]], name: str, size: int, dom: Domain) -> None:
    assert dom.dim is not None
    prev = sizes.get(dom.dim)
    if prev is None:
        sizes[dom.dim] = (name, size)
    elif prev[1] != size:
        raise ValueError(
            f"{name} has size {size} along {dom.dim} but {prev[0]} has size "
            f"{prev[1]}{_where(dom)}: the shapes do not match"
        )


class Checker:
    """A slice's validation at the definition: ``checked = Checker(DOMAINS, paper="zfb24",
    overrides=OVERRIDES)`` in ``theory/<slug>/domains.py``, then in a section module

    * ``@checked`` on a public ``def`` (its parameters' domains from the table, updated by
      ``overrides[fn.__name__]``);
    * ``@checked(domains={...})`` for a per-function change written at the definition;
    * ``name_fn = checked(twin(...), args=("Lambda", "N"))`` for a lambdified ``*args`` twin.

    The result is :func:`validated` of the function: the package exports that same object.

    >>> chk = Checker({"x": Domain("real", 1.0, lower=0.0, lower_open=True)}, paper="demo")
    >>> @chk
    ... def sq(x):
    ...     return x * x
    >>> sq(2.0), sq.raw(-1.0)
    (4.0, 1.0)
    >>> sq(-1.0)
    Traceback (most recent call last):
    ...
    ValueError: x must be a finite real number > 0 (demo), got -1.0
    """

    def __init__(
        self,
        domains: Mapping[str, Domain],
        *,
        paper: str | None = None,
        overrides: Mapping[str, Mapping[str, Domain]] | None = None,
    ) -> None:
        self.domains = dict(domains)
        self.paper = paper
        self.overrides = dict(overrides or {})

    def __call__(
        self,
        fn: Callable[..., Any] | None = None,
        /,
        *,
        args: Sequence[str] | None = None,
        domains: Mapping[str, Domain] | None = None,
    ) -> Any:
        if fn is None:
            return lambda f: self(f, args=args, domains=domains)
        name = getattr(fn, "__name__", "")
        doms = {**self.domains, **self.overrides.get(name, {}), **(domains or {})}
        return validated(fn, doms, args=args, paper=self.paper)


def validate_exports(
    namespace: dict[str, Any],
    names: Iterable[str],
    domains: Mapping[str, Domain],
    *,
    overrides: Mapping[str, Mapping[str, Domain]] | None = None,
    args: Mapping[str, Sequence[str]] | None = None,
    paper: str | None = None,
) -> None:
    """Replace each exported function ``namespace[name]`` by :func:`validated` of it, with
    ``domains`` updated by ``overrides[name]`` and ``args[name]`` for ``*args`` twins."""
    overrides = overrides or {}
    args = args or {}
    for name in names:
        fn = namespace.get(name)
        if not inspect.isfunction(fn):
            continue
        namespace[name] = validated(
            fn, {**domains, **overrides.get(name, {})}, args=args.get(name), paper=paper
        )
