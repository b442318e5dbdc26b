"""Validators shared by every setting and closed form.

Each raises ``ValueError`` naming the symbol, the value and the assumption it violates, and returns
the validated value (matrices as tuples of row tuples, so settings stay hashable).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

#: Eigenvalues at or below this fraction of the largest |eigenvalue| (at least of 1) count as zero
#: in ``theory.common.backend.psd_sqrt`` / ``psd_projector`` and the torch data model's root
#: (``sims.data``): rank-deficient covariances are allowed by [zwb24] Assumption 3.1 and [czz24]
#: §2, and round-off must not turn a zero eigenvalue into a spurious direction of size √1e-16.
#: Here, beside the settings' PSD validation, so that the trainers (which import settings only)
#: and the formulas share one cut.
RANK_RTOL = 1e-10

__all__ = [
    "RANK_RTOL",
    "Matrix",
    "Vector",
    "MatrixLike",
    "VectorLike",
    "PSD_RTOL",
    "as_matrix",
    "as_vector",
    "check_int",
    "check_real",
    "check_choice",
    "readonly",
]

#: How a validated matrix / vector is stored (hashable, compares by value).
Matrix = tuple[tuple[float, ...], ...]
Vector = tuple[float, ...]
#: What a constructor accepts for a matrix / vector field (converted in ``__post_init__``).
MatrixLike = Matrix | np.ndarray | Sequence[Sequence[float]]
VectorLike = Vector | np.ndarray | Sequence[float]

#: Relative tolerance (in units of the largest |eigenvalue|) below which a negative eigenvalue or an
#: asymmetry of a covariance is treated as round-off rather than as a violated assumption.
PSD_RTOL = 1e-10


def _where(paper: str | None) -> str:
    return f" ({paper})" if paper else ""


def check_real(
    name: str,
    value: Any,
    *,
    paper: str | None = None,
    lower: float | None = None,
    upper: float | None = None,
    lower_open: bool = False,
    upper_open: bool = False,
) -> float:
    """Validate a finite real scalar in an (open or closed) interval and return it as ``float``.

    Raises ``ValueError`` naming ``name``, ``value`` and the violated bound.

    >>> check_real("sigma2", 0.5, lower=0.0)
    0.5
    """
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a real number{_where(paper)}, got {value!r}")
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite{_where(paper)}, got {value!r}")
    if lower is not None and (v <= lower if lower_open else v < lower):
        op = ">" if lower_open else "≥"
        raise ValueError(f"{name} must be {op} {lower:g}{_where(paper)}, got {value!r}")
    if upper is not None and (v >= upper if upper_open else v > upper):
        op = "<" if upper_open else "≤"
        raise ValueError(f"{name} must be {op} {upper:g}{_where(paper)}, got {value!r}")
    return v


def check_int(
    name: str, value: Any, *, minimum: int | None = None, paper: str | None = None
) -> int:
    """Validate an integer ``≥ minimum`` (bools and non-integral floats are rejected).

    >>> check_int("N", 3, minimum=1)
    3
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer{_where(paper)}, got {value!r}")
    v = int(value)
    if minimum is not None and v < minimum:
        raise ValueError(f"{name} must be ≥ {minimum}{_where(paper)}, got {value!r}")
    return v


def check_choice(name: str, value: Any, choices: Iterable[Any], *, paper: str | None = None) -> Any:
    """Validate that ``value`` is one of ``choices``.

    Examples
    --------
    >>> check_choice("order", "column", ("column", "row"))
    'column'
    >>> check_choice("order", "diag", ("column", "row"), paper="zfb24 Lemma 9")
    Traceback (most recent call last):
    ...
    ValueError: order must be one of ('column', 'row') (zfb24 Lemma 9), got 'diag'
    """
    choices = tuple(choices)
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}{_where(paper)}, got {value!r}")
    return value


def _finite_array(name: str, value: Any, paper: str | None) -> np.ndarray:
    try:
        arr = np.array(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a real array{_where(paper)}, got {value!r}") from exc
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must have finite entries{_where(paper)}, got {value!r}")
    return arr


def as_vector(name: str, value: Any, *, d: int | None = None, paper: str | None = None) -> Vector:
    """Validate a finite real vector (of length ``d`` if given) and return it as a tuple.

    Examples
    --------
    >>> as_vector("task_mean", np.array([1, 2]), d=2)
    (1.0, 2.0)
    >>> as_vector("task_mean", [1.0, 2.0, 3.0], d=2)
    Traceback (most recent call last):
    ...
    ValueError: task_mean must have shape (2,), got shape (3,)
    """
    arr = _finite_array(name, value, paper)
    if arr.ndim != 1 or (d is not None and arr.shape[0] != d):
        want = f"shape ({d},)" if d is not None else "a 1-D array"
        raise ValueError(f"{name} must have {want}{_where(paper)}, got shape {arr.shape}")
    return tuple(float(v) for v in arr)


def as_matrix(
    name: str,
    value: Any,
    *,
    d: int | None = None,
    psd: bool = True,
    definite: bool = False,
    paper: str | None = None,
) -> Matrix:
    """Validate a ``d×d`` real matrix and return it as a tuple of row tuples.

    With ``psd=True`` the matrix must be symmetric positive semidefinite (``definite=True``:
    positive definite); asymmetry and negative eigenvalues up to :data:`PSD_RTOL` times the largest
    |eigenvalue| are round-off and are symmetrised / accepted.

    >>> as_matrix("Sigma_x", [[2.0, 0.0], [0.0, 1.0]])
    ((2.0, 0.0), (0.0, 1.0))
    >>> as_matrix("Sigma_x", [[1.0, 2.0], [2.0, 1.0]])
    Traceback (most recent call last):
    ...
    ValueError: Sigma_x must be positive semidefinite, got smallest eigenvalue -1
    """
    arr = _finite_array(name, value, paper)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1] or (d is not None and arr.shape[0] != d):
        want = f"shape ({d}, {d})" if d is not None else "a square matrix"
        raise ValueError(f"{name} must have {want}{_where(paper)}, got shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} must be at least 1×1{_where(paper)}, got shape {arr.shape}")
    if psd:
        scale = max(1.0, float(np.max(np.abs(arr))))
        if np.max(np.abs(arr - arr.T)) > PSD_RTOL * scale:
            raise ValueError(f"{name} must be symmetric{_where(paper)}, got {arr.tolist()!r}")
        arr = 0.5 * (arr + arr.T)
        eig = np.linalg.eigvalsh(arr)
        top = max(1.0, float(np.max(np.abs(eig))))
        if eig[0] < -PSD_RTOL * top:
            raise ValueError(
                f"{name} must be positive semidefinite{_where(paper)}, "
                f"got smallest eigenvalue {eig[0]:.6g}"
            )
        if definite and eig[0] <= PSD_RTOL * top:
            raise ValueError(
                f"{name} must be positive definite{_where(paper)}, "
                f"got smallest eigenvalue {eig[0]:.6g}"
            )
    return tuple(tuple(float(v) for v in row) for row in arr)


def readonly(x: Any) -> np.ndarray:
    """A read-only float64 copy (for the ``*_array`` views of stored tuples).

    Examples
    --------
    >>> a = readonly(((1, 2), (3, 4)))
    >>> a.dtype, a.flags.writeable
    (dtype('float64'), False)
    """
    arr = np.array(x, dtype=float)
    arr.setflags(write=False)
    return arr
