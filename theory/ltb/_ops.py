"""Backend shim: one transcription of each zwb24 formula serves numpy and SymPy (STYLE R3).

Every closed form of :mod:`theory.ltb` is written once against the small interface below; the
public functions pick :data:`NP` (float64 / complex for complex-step gradients) for numeric input
and :data:`SP` (``sympy.Matrix``) for SymPy input.  Only ``@``, ``+``, ``*``, ``.T`` and the
methods here are used, so the formula text is literally shared.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.common.evaluate import is_symbolic

__all__ = ["NP", "SP", "ops_for", "psd_sqrt", "psd_projector"]

#: Eigenvalues below this fraction of the largest are treated as zero when forming the
#: projector onto Im(H) or a pseudo-inverse square root (rank-deficient H is allowed, [zwb24] §3).
RANK_RTOL = 1e-10


def psd_sqrt(S: np.ndarray) -> np.ndarray:
    """Principal square root of a PSD matrix (eigendecomposition; negative round-off clipped)."""
    w, V = np.linalg.eigh(np.asarray(S, dtype=float))
    w = np.where(w > RANK_RTOL * max(1.0, float(np.max(np.abs(w)))), w, 0.0)
    return (V * np.sqrt(w)) @ V.T


def psd_projector(S: np.ndarray) -> np.ndarray:
    """Orthogonal projector ``P_S`` onto ``Im(S)`` of a PSD matrix (relative cut RANK_RTOL)."""
    w, V = np.linalg.eigh(np.asarray(S, dtype=float))
    keep = w > RANK_RTOL * max(1.0, float(np.max(np.abs(w))))
    Vk = V[:, keep]
    return Vk @ Vk.T


class _Numpy:
    symbolic = False

    @staticmethod
    def mat(A: Any) -> np.ndarray:
        A = np.asarray(A)
        return A.reshape(1, 1) if A.ndim == 0 else A

    @staticmethod
    def vec(v: Any) -> np.ndarray:
        return np.asarray(v).reshape(-1)

    eye = staticmethod(np.eye)
    outer = staticmethod(np.outer)

    @staticmethod
    def inv(A: Any) -> np.ndarray:
        return np.linalg.inv(A)

    @staticmethod
    def tr(A: Any) -> Any:
        return np.trace(A)

    @staticmethod
    def dot(u: Any, v: Any) -> Any:  # bilinear (no conjugation: complex-step safe)
        return u @ v

    @staticmethod
    def projector(A: Any) -> np.ndarray:
        return psd_projector(np.real(A))

    @staticmethod
    def out(x: Any) -> Any:
        x = np.asarray(x)
        return float(x) if x.ndim == 0 and not np.iscomplexobj(x) else (x if x.ndim else x.item())


class _Sympy:
    symbolic = True

    @staticmethod
    def mat(A: Any) -> sp.Matrix:
        return A if isinstance(A, sp.MatrixBase) else sp.Matrix([[A]]) if not isinstance(
            A, (list, tuple)) else sp.Matrix(A)

    @staticmethod
    def vec(v: Any) -> sp.Matrix:
        if isinstance(v, sp.MatrixBase):
            return v.reshape(len(v), 1)
        if isinstance(v, (list, tuple)):
            return sp.Matrix(v)
        return sp.Matrix([v])

    @staticmethod
    def eye(n: int) -> sp.Matrix:
        return sp.eye(n)

    @staticmethod
    def outer(u: sp.Matrix, v: sp.Matrix) -> sp.Matrix:
        return u * v.T

    @staticmethod
    def inv(A: sp.Matrix) -> sp.Matrix:
        return A.inv()

    @staticmethod
    def tr(A: sp.Matrix) -> sp.Expr:
        return A.trace()

    @staticmethod
    def dot(u: sp.Matrix, v: sp.Matrix) -> sp.Expr:
        return (u.T * v)[0, 0]

    @staticmethod
    def projector(A: sp.Matrix) -> sp.Matrix:
        return A * A.pinv()

    @staticmethod
    def out(x: Any) -> Any:
        if isinstance(x, sp.MatrixBase) and x.shape == (1, 1):
            return x[0, 0]
        return x


NP = _Numpy()
SP = _Sympy()


def ops_for(*values: Any) -> _Numpy | _Sympy:
    """:data:`SP` if any argument is a SymPy object, else :data:`NP`."""
    return SP if is_symbolic(*values) else NP
