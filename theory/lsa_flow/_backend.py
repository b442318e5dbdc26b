"""One formula, two backends: numpy (float64) and SymPy (expressions).

The zfb24 closed forms are matrix formulas in ``Λ`` (``Lambda``) for any ``d``.  SymPy's numpy
printer cannot lambdify ``Trace``/``Identity`` of a ``MatrixSymbol``, so each formula is written
*once*, as a Python function of a backend object ``xp`` (``@``, ``+``, ``.T`` work for numpy arrays,
``sympy.Matrix`` and ``MatrixSymbol`` alike; only ``tr``, ``eye``, ``inv``, ``kron`` and friends
differ).  The public function dispatches on its input (STYLE R3: numbers in -> float64, SymPy in ->
expression) and its ``_fn`` twin is the same formula bound to the numpy backend, so no formula is
transcribed twice.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp
from sympy.matrices.expressions.matexpr import MatrixExpr

from theory.common.evaluate import is_symbolic
from theory.settings import as_matrix, check_int

__all__ = ["NP", "SP", "backend", "num_matrix", "num_N"]


class _Numpy:
    symbolic = False

    @staticmethod
    def S(x: Any) -> Any:
        return float(x)

    @staticmethod
    def mat(A: Any) -> np.ndarray:
        return np.asarray(A, dtype=float)

    @staticmethod
    def dim(A: Any) -> int:
        return int(np.shape(A)[0])

    @staticmethod
    def eye(d: int) -> np.ndarray:
        return np.eye(d)

    @staticmethod
    def tr(A: Any) -> Any:
        return np.trace(A)

    @staticmethod
    def inv(A: Any) -> np.ndarray:
        return np.linalg.inv(A)

    @staticmethod
    def kron(A: Any, B: Any) -> np.ndarray:
        return np.kron(A, B)

    @staticmethod
    def fro2(A: Any) -> Any:
        return np.sum(np.asarray(A) ** 2)

    @staticmethod
    def sqrt(x: Any) -> Any:
        return np.sqrt(x)

    @staticmethod
    def opnorm_spd(A: Any) -> float:
        return float(np.max(np.linalg.eigvalsh(A)))

    @staticmethod
    def quad(v: Any, A: Any) -> Any:
        v = np.asarray(v, dtype=float).ravel()
        return float(v @ np.asarray(A) @ v)

    @staticmethod
    def zeros(n: int, m: int) -> np.ndarray:
        return np.zeros((n, m))

    @staticmethod
    def col(v: Any) -> np.ndarray:
        return np.asarray(v, dtype=float).reshape(-1, 1)


class _Sympy:
    symbolic = True

    @staticmethod
    def S(x: Any) -> Any:
        return sp.sympify(x)

    @staticmethod
    def mat(A: Any) -> Any:
        if isinstance(A, (MatrixExpr, sp.MatrixBase)) and not isinstance(A, np.ndarray):
            return A
        return sp.Matrix(A)

    @staticmethod
    def dim(A: Any) -> Any:
        return A.shape[0]

    @staticmethod
    def _explicit(A: Any) -> bool:
        return isinstance(A, sp.MatrixBase)

    @classmethod
    def eye(cls, d: Any) -> Any:
        return sp.eye(d) if isinstance(d, int) else sp.Identity(d)

    @classmethod
    def tr(cls, A: Any) -> Any:
        return A.trace() if isinstance(A, sp.MatrixBase) else sp.Trace(A)

    @staticmethod
    def inv(A: Any) -> Any:
        return A.inv() if isinstance(A, sp.MatrixBase) else A.inverse()

    @staticmethod
    def kron(A: Any, B: Any) -> Any:
        return sp.kronecker_product(sp.Matrix(A), sp.Matrix(B))

    @classmethod
    def fro2(cls, A: Any) -> Any:
        return cls.tr(A.T @ A) if not isinstance(A, sp.MatrixBase) else sum(e**2 for e in A)

    @staticmethod
    def sqrt(x: Any) -> Any:
        return sp.sqrt(x)

    @staticmethod
    def opnorm_spd(A: Any) -> Any:
        if not isinstance(A, sp.MatrixBase):
            raise ValueError("‖Λ‖_op of a MatrixSymbol has no closed form; pass an explicit Matrix")
        return sp.Max(*A.eigenvals().keys())

    @staticmethod
    def quad(v: Any, A: Any) -> Any:
        v = sp.Matrix(v)
        return (v.T * sp.Matrix(A) * v)[0, 0]

    @staticmethod
    def zeros(n: int, m: int) -> Any:
        return sp.zeros(n, m)

    @staticmethod
    def col(v: Any) -> Any:
        return sp.Matrix(v).reshape(len(v), 1) if not isinstance(v, MatrixExpr) else v


NP = _Numpy()
SP = _Sympy()


def backend(*values: Any) -> Any:
    """SymPy backend if any value is symbolic, numpy otherwise."""
    return SP if is_symbolic(*values) else NP


def num_matrix(name: str, A: Any, *, d: int | None = None, spd: bool = True) -> np.ndarray:
    """Validated float64 matrix (SPD when ``spd``) for the numeric path."""
    return np.array(as_matrix(name, A, d=d, psd=spd, definite=spd, paper="zfb24"), dtype=float)


def num_N(name: str, N: Any) -> int:
    """Validated prompt length ``≥ 1`` (numpy integers accepted, integral floats too)."""
    if isinstance(N, float) and N.is_integer():
        N = int(N)
    return check_int(name, N, minimum=1, paper="zfb24 prompt length")
