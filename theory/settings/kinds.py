"""What a parameter may be: :class:`Domain` (a kind, bounds, a valid example) and
:func:`check_value`, the check of one argument against its domain.

The kinds (:data:`KINDS`) are sizes, bounded reals, symmetric PSD / PD and square matrices,
finite vectors and arrays, choices, objects of a class, callables and SymPy symbol lists.  A
failed check raises ``ValueError`` (``TypeError`` for a value of the wrong type) naming the
parameter, the value and the assumption it breaks, with the paper that states it.  The domain
tables and the validation at the definition (:class:`theory.settings.domains.Checker`) are built
on these; :mod:`theory.settings.domains` re-exports them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from theory.settings.validators import PSD_RTOL

__all__ = ["Domain", "KINDS", "check_value"]

#: The domain kinds.  Scalars (``count``, ``real``) accept arrays (checked entrywise) so vectorised
#: twins keep working; a matrix kind takes one matrix, and a stack ``(..., n, n)`` only where its
#: domain says ``stack=True``.
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

    ``stack``: for the matrix kinds (``psd``, ``pd``, ``square``, ``matrix``), a stack of matrices
    (an array of rank > 2, shape ``(..., n, n)``; every matrix in it is checked) is accepted.  By
    default a matrix parameter takes *one* matrix and a stack is refused with an error naming the
    parameter and the shape: most formulas are written for one 2-D matrix, and a stack would
    broadcast through them into a silently wrong answer.  Set ``stack=True`` only on a parameter
    whose function documents a batched input (and evaluates it per matrix).

    Examples
    --------
    >>> Domain("real", 0.5, lower=0.0, upper=1.0, upper_open=True).describe()
    'a finite real number ≥ 0 and < 1'
    >>> Domain("count", 10, inf_ok=True).describe()
    'an integer ≥ 1 (or inf)'
    >>> one = Domain("square", np.eye(2))
    >>> check_value("A", np.eye(2)[None], one)
    Traceback (most recent call last):
    ...
    ValueError: A must be a finite square matrix, got a stack of matrices of shape (1, 2, 2)
    >>> check_value("A", np.eye(2)[None], one.with_(stack=True))
    2
    >>> one.with_(stack=True).describe()
    'a finite square matrix (or a stack of them, shape (..., n, n))'
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
    stack: bool = False
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
        if self.stack and self.kind in ("psd", "pd", "square", "matrix"):
            shape = "(..., m, n)" if self.kind == "matrix" else "(..., n, n)"
            return Domain(self.kind).describe() + f" (or a stack of them, shape {shape})"
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
    if arr.ndim > 2 and not dom.stack:  # before the cache: a stack=True domain may have seen it
        raise _fail(name, dom, f"a stack of matrices of shape {arr.shape}")
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

    >>> check_value("N", 10, Domain("count", 10))
    10
    >>> check_value("N", 2.5, Domain("count", 10))
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
        exact = _exact_numbers(value) if dom.kind in _ARRAY_KINDS else None
        if exact is not None:
            # an exact number (or a matrix of them) is still checked against the domain: a
            # SymPy -3/2 for a cosine t would otherwise be a silent wrong answer
            _check_array(name, exact, dom, value)
        return None
    return _check_array(name, _numeric(name, value, dom), dom, value)


def _exact_numbers(value: Any) -> np.ndarray | None:
    """The float64 array of a SymPy value with no free symbol (an exact number, a ``Matrix`` or a
    list of them), or ``None`` for anything symbolic or not real (left to the formula).

    >>> import sympy as sp
    >>> _exact_numbers(sp.Rational(-3, 2)), _exact_numbers(sp.Symbol("x")), _exact_numbers(sp.I)
    (array(-1.5), None, None)
    >>> _exact_numbers(sp.Matrix([[1, sp.Rational(1, 2)], [0, sp.sqrt(2)]])).round(3).tolist()
    [[1.0, 0.5], [0.0, 1.414]]
    """
    import sympy as sp  # local: only SymPy input gets here

    if isinstance(value, (sp.Basic, sp.MatrixBase)) and value.free_symbols:
        return None
    if isinstance(value, sp.MatrixBase):
        value = value.tolist()
    try:
        return np.asarray(value, dtype=object).astype(float)
    except (TypeError, ValueError, AttributeError):
        return None


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
