"""Symbolic/numeric dispatch shared by the hpcy25 closed forms (STYLE R3).

A closed form is written once, as a *builder* ``f(*args) -> sympy.Expr``.  The public function calls
the builder on SymPy input (an expression comes back) and the cached lambdified twin on numbers
(float64 comes back; numpy arrays broadcast).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import sympy as sp

from theory.common.evaluate import is_symbolic, lambdified
from theory.settings import check_real

__all__ = ["dual", "twin", "check_scalar"]


def twin(builder: Callable[..., sp.Expr], syms: Sequence[sp.Symbol]) -> Callable[..., Any]:
    """The numeric twin of ``builder``: a cached lambdified function of ``syms``."""

    def fn(*vals: Any) -> Any:
        return lambdified(tuple(syms), builder(*syms))(*vals)

    fn.__name__ = builder.__name__.lstrip("_") + "_fn"
    fn.__doc__ = f"Numeric (numpy, float64) twin of ``{builder.__name__.lstrip('_')}``."
    return fn


def _out(x: Any) -> Any:
    arr = np.asarray(x, dtype=float)
    return float(arr) if arr.ndim == 0 else arr


#: Positional symbols for numeric twins built on the fly (independent of the caller's names, so a
#: parameter called ``sigma2`` can never shadow the symbol ``sigma2``).
_ARGS = tuple(sp.Symbol(f"_a{i}", real=True) for i in range(10))


def dual(builder: Callable[..., sp.Expr], syms: Sequence[sp.Symbol], vals: Sequence[Any]) -> Any:
    """``builder(*vals)`` for SymPy input, else the lambdified twin evaluated in float64.

    ``syms`` documents the builder's arguments (symbol names); the numeric twin is lambdified in
    fresh positional symbols of the same count.
    """
    if len(syms) != len(vals):
        raise ValueError(f"{builder.__name__}: {len(syms)} symbols but {len(vals)} values")
    if is_symbolic(*vals):
        return builder(*[sp.sympify(v) for v in vals])
    args = _ARGS[: len(vals)]
    f = lambdified(args, builder(*args))
    with np.errstate(over="ignore"):
        return _out(f(*[np.asarray(v, dtype=float) for v in vals]))


def check_scalar(name: str, value: Any, **kw: Any) -> None:
    """Validate a numeric scalar (arrays: every entry); SymPy input is not validated."""
    if is_symbolic(value):
        return
    arr = np.asarray(value)
    if arr.ndim == 0:
        check_real(name, value.item() if isinstance(value, np.ndarray) else value, **kw)
    else:
        for v in arr.ravel():
            check_real(name, float(v), **kw)
