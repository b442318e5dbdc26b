"""Numeric twins of SymPy expressions (STYLE R3).

:func:`lambdified` turns an expression into a cached numeric callable, numpy backend (float64,
vectorised) or mpmath backend (arbitrary precision references).  :func:`is_symbolic` decides
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

__all__ = ["lambdified", "is_symbolic", "to_float", "mp_eval"]


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
    """True if any argument is a SymPy object (symbol, expression, Matrix, MatrixSymbol)."""
    for v in values:
        if isinstance(v, (sp.Basic, sp.MatrixBase)):
            return True
        if isinstance(v, (list, tuple)) and v and is_symbolic(*v):
            return True
    return False


def to_float(x: Any) -> float:
    """Convert a scalar (numpy, mpmath, SymPy number) to ``float``; SymPy must be numeric."""
    if isinstance(x, sp.Basic):
        if not x.is_number:
            raise ValueError(f"expected a number, got the expression {x}")
        return float(sp.N(x, 30))
    return float(np.asarray(x, dtype=float)) if not isinstance(x, mpmath.mpf) else float(x)


def mp_eval(fn: Callable[..., Any], *args: Any, dps: int = 50) -> Any:
    """Evaluate ``fn`` under ``mpmath.workdps(dps)`` (for FLOAT references, STYLE R9)."""
    with mpmath.workdps(dps):
        return fn(*args)
