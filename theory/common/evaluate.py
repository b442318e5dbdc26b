"""Numeric twins of SymPy expressions.

:func:`lambdified` turns an expression into a cached numeric callable, numpy backend (float64,
vectorised) or mpmath backend (arbitrary precision references); :func:`dual` and :func:`twin`
build the one form of a scalar formula (a SymPy builder, evaluated symbolically or through its
lambdified twin; re-exported by :mod:`theory.common.backend`).  :func:`is_symbolic` decides
whether a public closed form was called with SymPy input (return an expression) or numbers
(evaluate the twin).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import mpmath
import numpy as np
import sympy as sp

__all__ = ["lambdified", "is_symbolic", "to_float", "mp_eval", "dual", "twin"]


@functools.lru_cache(maxsize=512)
def _lambdify_cached(
    args: tuple[sp.Basic, ...], expr: sp.Basic, backend: str
) -> Callable[..., Any]:
    if backend == "numpy":
        return sp.lambdify(args, expr, modules="numpy", cse=True)
    if backend == "mpmath":
        return sp.lambdify(args, expr, modules="mpmath")
    raise ValueError(f"backend must be 'numpy' or 'mpmath', got {backend!r}")


def lambdified(
    args: Sequence[sp.Basic], expr: sp.Basic, *, backend: str = "numpy"
) -> Callable[..., Any]:
    """Cached ``sp.lambdify(args, expr)`` with the numpy (default) or mpmath backend.

    >>> x = sp.Symbol("x")
    >>> f = lambdified((x,), x**2 + 1)
    >>> float(f(2.0))
    5.0
    >>> lambdified((x,), x**2 + 1) is f
    True
    """
    return _lambdify_cached(tuple(args), sp.sympify(expr), backend)


def is_symbolic(*values: Any) -> bool:
    """True if any argument is a SymPy object (symbol, expression, Matrix, MatrixSymbol).

    >>> is_symbolic(1.0, np.eye(2)), is_symbolic(1.0, [sp.Symbol("x")])
    (False, True)
    """
    for v in values:
        if isinstance(v, (sp.Basic, sp.MatrixBase)):
            return True
        if isinstance(v, (list, tuple)) and v and is_symbolic(*v):
            return True
    return False


def to_float(x: Any) -> float:
    """Convert a scalar (numpy, mpmath, SymPy number) to ``float``; SymPy must be numeric.

    >>> to_float(sp.Rational(1, 4)), to_float(np.float64(2.0)), to_float(mpmath.mpf(3))
    (0.25, 2.0, 3.0)
    >>> to_float(sp.Symbol("x"))
    Traceback (most recent call last):
    ...
    ValueError: expected a number, got the expression x
    """
    if isinstance(x, sp.Basic):
        if not x.is_number:
            raise ValueError(f"expected a number, got the expression {x}")
        return float(sp.N(x, 30))
    return float(np.asarray(x, dtype=float)) if not isinstance(x, mpmath.mpf) else float(x)


def mp_eval(fn: Callable[..., Any], *args: Any, dps: int = 50) -> Any:
    """Evaluate ``fn`` under ``mpmath.workdps(dps)`` (for FLOAT references).

    >>> mpmath.nstr(mp_eval(mpmath.sqrt, 2, dps=30), 25)   # digits beyond float64 kept
    '1.414213562373095048801689'
    """
    with mpmath.workdps(dps):
        return fn(*args)


# ------------------------------------------------------------------ builders: dual and twin
def twin(builder: Callable[..., sp.Expr], syms: Sequence[sp.Symbol]) -> Callable[..., Any]:
    """The numeric twin of ``builder``: a cached lambdified function of ``syms``.

    >>> x = sp.Symbol("x")
    >>> def _sq(a):
    ...     return a**2 + 1
    >>> f = twin(_sq, (x,))
    >>> f.__name__, float(f(3.0))
    ('sq_fn', 10.0)
    """

    def fn(*vals: Any) -> Any:
        return lambdified(tuple(syms), builder(*syms))(*vals)

    fn.__name__ = builder.__name__.lstrip("_") + "_fn"
    fn.__doc__ = f"Numeric (numpy, float64) twin of ``{builder.__name__.lstrip('_')}``."
    return fn


def _as_float(x: Any) -> Any:
    arr = np.asarray(x, dtype=float)
    return float(arr) if arr.ndim == 0 else arr


#: Positional symbols for numeric twins built on the fly (independent of the caller's names, so a
#: parameter called ``sigma2`` can never shadow the symbol ``sigma2``).
_ARGS = tuple(sp.Symbol(f"_a{i}", real=True) for i in range(10))


def dual(
    builder: Callable[..., sp.Expr],
    syms: Sequence[sp.Symbol],
    vals: Sequence[Any],
    *,
    backend: str = "numpy",
) -> Any:
    """``builder(*vals)`` for SymPy input, else the lambdified twin evaluated numerically: float64
    (``backend="numpy"``, the default) or mpmath at the current ``mp.dps`` (``backend="mpmath"``,
    for a formula float64 cannot hold, e.g. a difference of nearly equal large terms).

    This is the one way to write a scalar formula: one SymPy expression, evaluated symbolically or
    numerically; matrix formulas use :func:`ops_for`.  ``syms`` documents the builder's arguments
    (symbol names); the numeric twin is lambdified in fresh positional symbols of the same count.

    >>> x = sp.Symbol("x")
    >>> dual(lambda a: a**2 + 1, (x,), (2.0,)), dual(lambda a: a**2 + 1, (x,), (x,))
    (5.0, x**2 + 1)
    >>> dual(lambda a: a**2 + 1, (x,), (2,), backend="mpmath")
    mpf('5.0')
    """
    if len(syms) != len(vals):
        raise ValueError(
            f"{getattr(builder, '__name__', 'builder')}: {len(syms)} symbols but {len(vals)} values"
        )
    if backend not in ("numpy", "mpmath"):
        raise ValueError(f"backend must be 'numpy' or 'mpmath', got {backend!r}")
    if is_symbolic(*vals):
        return builder(*[sp.sympify(v) for v in vals])
    f = _twin_of(builder, len(vals), backend)
    if backend == "mpmath":
        import mpmath

        return f(*[mpmath.mpf(v) for v in vals])
    with np.errstate(over="ignore"):
        return _as_float(f(*[np.asarray(v, dtype=float) for v in vals]))


#: Lambdified twins of closure-free builders, by (code object, arity, backend): a builder without
#: a closure is a fixed expression of its arguments, so its twin is built once.
_TWINS: dict[tuple[Any, int, str], Callable[..., Any]] = {}


def _twin_of(builder: Callable[..., sp.Expr], n: int, backend: str) -> Callable[..., Any]:
    """The lambdified twin of ``builder`` in ``n`` fresh positional symbols (memoised when the
    builder has no closure; a closure's captured values may change the expression)."""
    code = getattr(builder, "__code__", None)
    key = (
        (code, n, backend)
        if code is not None
        and not getattr(builder, "__closure__", None)
        and not getattr(builder, "__defaults__", None)
        else None
    )
    if key is not None and key in _TWINS:
        return _TWINS[key]
    args = _ARGS[:n]
    f = lambdified(args, builder(*args), backend=backend)
    if key is not None:
        _TWINS[key] = f
    return f
