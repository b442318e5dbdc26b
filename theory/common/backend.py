"""The one numpy/SymPy backend every slice uses (a formula is written once).

A closed form is written *once*, as a Python function of a backend object ``xp`` whose methods
cover what differs between numpy arrays and SymPy matrices (``@``, ``+``, ``*`` and ``.T`` work for
both).  The public function picks :data:`NP` for numbers (float64, or complex for complex-step
derivatives) and :data:`SP` for SymPy input with :func:`ops_for`, so numbers in give numbers out and
SymPy in gives an expression out, from the same text.

Two other ways to write a formula once are offered here too:

* :func:`dual` / :func:`twin` -- a *builder* ``f(*symbols) -> sympy.Expr`` is called on SymPy
  input and lambdified (cached) for numbers, so scalar formulas need no backend object at all;
* :func:`psd_sqrt` and :func:`psd_projector` -- the numeric square root and range projector of a
  PSD matrix, with the single rank cut-off :data:`RANK_RTOL` used by every layer.

The validators :func:`num_square`, :func:`num_cov`, :func:`num_vector`, :func:`sym_matrix` and
:func:`sym_vector` turn user input into the validated numeric or symbolic object a formula needs,
raising ``ValueError`` that names the symbol.

Numeric methods act on the *last two axes* (``T``, ``tr``, ``smul``, ``outer``), so batched input
``(..., d, d)`` evaluates a formula for many matrices at once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp
from sympy.matrices.expressions.matexpr import MatrixExpr

from theory.common.evaluate import dual, is_symbolic, lambdified, twin  # noqa: F401 (re-exported)
from theory.settings import as_matrix, check_real
from theory.settings.validators import RANK_RTOL  # the rank cut of psd_sqrt / psd_projector

__all__ = [
    "RANK_RTOL",
    "rank_mask",
    "NP",
    "SP",
    "NumpyOps",
    "SympyOps",
    "ops_for",
    "is_symbolic",
    "psd_sqrt",
    "psd_projector",
    "unpow",
    "num_square",
    "num_cov",
    "num_vector",
    "sym_matrix",
    "sym_vector",
    "dual",
    "twin",
    "check_scalar",
    "T",
    "tr",
    "smul",
    "eye_like",
    "outer",
]


# --------------------------------------------------------------------------- numeric helpers
def rank_mask(w: np.ndarray) -> np.ndarray:
    """Which eigenvalues ``w`` count as nonzero: ``w > RANK_RTOL · max(1, max|w|)`` (the one rank
    cut of :func:`psd_sqrt`, :func:`psd_projector` and ``numerics.mc_fast.psd_factor``).

    >>> rank_mask(np.array([0.0, 1e-14, 2.0])).tolist()
    [False, False, True]
    """
    return w > RANK_RTOL * max(1.0, float(np.max(np.abs(w)))) if w.size else w > 0


def psd_sqrt(S: Any) -> np.ndarray:
    """Principal square root of a symmetric PSD matrix (eigenvalues ≤ the rank cut set to 0).

    >>> psd_sqrt([[4.0, 0.0], [0.0, 0.0]]).tolist()
    [[2.0, 0.0], [0.0, 0.0]]
    """
    w, V = np.linalg.eigh(np.asarray(S, dtype=float))
    w = np.where(rank_mask(w), w, 0.0)
    return (V * np.sqrt(w)) @ V.T


def psd_projector(S: Any) -> np.ndarray:
    """Orthogonal projector onto the range of a symmetric PSD matrix (same rank cut).

    >>> psd_projector([[1.0, 0.0], [0.0, 1e-14]]).tolist()
    [[1.0, 0.0], [0.0, 0.0]]
    """
    w, V = np.linalg.eigh(np.asarray(S, dtype=float))
    Vk = V[:, rank_mask(w)]
    return Vk @ Vk.T


def unpow(e: Any) -> Any:
    """Pull scalars out of matrix powers, ``(c A)**k -> c**k A**k`` (SymPy otherwise leaves
    ``Trace((c I)**2)`` unevaluated).

    >>> A = sp.MatrixSymbol("A", 2, 2)
    >>> unpow(sp.MatPow(sp.MatMul(2, A), 2))
    4*A**2
    """

    def rep(p: Any) -> Any:
        c, mats = p.base.as_coeff_mmul()
        base = mats.args[0] if len(mats.args) == 1 else sp.MatMul(*mats.args)
        return c**p.exp * sp.MatPow(base, p.exp).doit()

    return e.replace(lambda p: isinstance(p, sp.MatPow) and isinstance(p.base, sp.MatMul), rep)


# ------------------------------------------------------------------------------ the backends
class NumpyOps:
    """numpy backend: float64 (complex kept, for complex-step derivatives); batched over leading
    axes where a method says so.  Its one instance is :data:`NP`.

    >>> float(NP.tr(np.eye(3))), NP.quad(np.array([1.0, 2.0]), np.eye(2))   # Tr I_3, ‖v‖²
    (3.0, 5.0)
    """

    symbolic = False

    @staticmethod
    def S(x: Any) -> Any:
        """A scalar constant (float)."""
        return float(x)

    @staticmethod
    def mat(A: Any) -> np.ndarray:
        """An array; integers become float64, complex stays complex, a scalar becomes 1×1."""
        A = np.asarray(A)
        if A.dtype.kind not in "fc":
            A = A.astype(float)
        return A.reshape(1, 1) if A.ndim == 0 else A

    @staticmethod
    def vec(v: Any) -> np.ndarray:
        """A flat vector (dtype kept)."""
        return np.asarray(v).reshape(-1)

    @staticmethod
    def col(v: Any) -> np.ndarray:
        """A d×1 column of floats."""
        return np.asarray(v, dtype=float).reshape(-1, 1)

    @staticmethod
    def dim(A: Any) -> int:
        return int(np.shape(A)[-1])

    @staticmethod
    def eye(d: int) -> np.ndarray:
        return np.eye(d)

    @staticmethod
    def eye_like(M: Any) -> np.ndarray:
        return np.eye(np.shape(M)[-1])

    @staticmethod
    def zeros(n: int, m: int) -> np.ndarray:
        return np.zeros((n, m))

    @staticmethod
    def T(M: Any) -> Any:
        """Transpose of the last two axes."""
        return np.swapaxes(M, -1, -2)

    @staticmethod
    def tr(M: Any) -> Any:
        """Trace over the last two axes."""
        return np.trace(M, axis1=-2, axis2=-1)

    @staticmethod
    def smul(s: Any, M: Any) -> Any:
        """Scalar (possibly batched over leading axes) times matrix."""
        return np.asarray(s, dtype=float)[..., None, None] * M

    @staticmethod
    def outer(u: Any, v: Any | None = None) -> Any:
        """``u vᵀ`` (default ``u uᵀ``), batched over leading axes."""
        uu = np.asarray(u)
        vv = uu if v is None else np.asarray(v)
        return uu[..., :, None] * vv[..., None, :]

    @staticmethod
    def dot(u: Any, v: Any) -> Any:
        """Bilinear ``uᵀv`` (no conjugation: complex-step safe)."""
        return u @ v

    @staticmethod
    def quad(v: Any, A: Any) -> float:
        """``vᵀ A v`` as a float."""
        v = np.asarray(v, dtype=float).ravel()
        return float(v @ np.asarray(A) @ v)

    @staticmethod
    def inv(A: Any) -> np.ndarray:
        return np.linalg.inv(A)

    @staticmethod
    def kron(A: Any, B: Any) -> np.ndarray:
        return np.kron(A, B)

    @staticmethod
    def fro2(A: Any) -> Any:
        """Squared Frobenius norm."""
        return np.sum(np.asarray(A) ** 2)

    @staticmethod
    def sqrt(x: Any) -> Any:
        return np.sqrt(x)

    @staticmethod
    def opnorm_spd(A: Any) -> float:
        """Operator norm of a symmetric PSD matrix (its largest eigenvalue)."""
        return float(np.max(np.linalg.eigvalsh(A)))

    @staticmethod
    def projector(A: Any) -> np.ndarray:
        """Projector onto the range of a PSD matrix (:func:`psd_projector` of its real part)."""
        return psd_projector(np.real(A))

    @staticmethod
    def out(x: Any) -> Any:
        """A 0-d real result as ``float``; arrays and complex scalars as they are."""
        x = np.asarray(x)
        if x.ndim == 0:
            return x.item() if np.iscomplexobj(x) else float(x)
        return x


class SympyOps:
    """SymPy backend: explicit ``Matrix`` (exact entries) or ``MatrixSymbol`` expressions.  Its one
    instance is :data:`SP`.

    >>> SP.tr(sp.eye(3)), SP.mat([[1, 2]])
    (3, Matrix([[1, 2]]))
    """

    symbolic = True

    @staticmethod
    def S(x: Any) -> Any:
        return sp.sympify(x)

    @staticmethod
    def mat(A: Any) -> Any:
        """Matrices and matrix expressions as they are; lists become ``Matrix``, scalars 1×1."""
        if isinstance(A, (MatrixExpr, sp.MatrixBase)):
            return A
        if isinstance(A, (list, tuple, np.ndarray)):
            return sp.Matrix(A)
        return sp.Matrix([[A]])

    @staticmethod
    def vec(v: Any) -> Any:
        """A column ``Matrix`` (d×1)."""
        if isinstance(v, sp.MatrixBase):
            return v.reshape(len(v), 1)
        if isinstance(v, (list, tuple)):
            return sp.Matrix(v)
        if isinstance(v, np.ndarray):  # a numpy vector among SymPy arguments: its entries
            return sp.Matrix(np.ravel(v).tolist())
        return sp.Matrix([v])

    @staticmethod
    def col(v: Any) -> Any:
        return v if isinstance(v, MatrixExpr) else sp.Matrix(v).reshape(len(v), 1)

    @staticmethod
    def dim(A: Any) -> Any:
        return A.shape[0]

    @staticmethod
    def eye(d: Any) -> Any:
        return sp.eye(d) if isinstance(d, int) else sp.Identity(d)

    @staticmethod
    def eye_like(M: Any) -> Any:
        return sp.eye(M.shape[0]) if isinstance(M, sp.MatrixBase) else sp.Identity(M.shape[0])

    @staticmethod
    def zeros(n: Any, m: Any) -> Any:
        return sp.zeros(n, m)

    @staticmethod
    def T(M: Any) -> Any:
        return M.T

    @staticmethod
    def tr(M: Any) -> Any:
        """``Matrix.trace()``; for a matrix expression ``Trace(unpow(M)).doit()``."""
        if isinstance(M, sp.MatrixBase):
            return M.trace()
        return sp.Trace(unpow(M)).doit()

    @staticmethod
    def trace(M: Any) -> Any:
        """``Matrix.trace()``; for a matrix expression the *unevaluated* ``Trace(M)``."""
        return M.trace() if isinstance(M, sp.MatrixBase) else sp.Trace(M)

    @staticmethod
    def smul(s: Any, M: Any) -> Any:
        return s * M

    @staticmethod
    def outer(u: Any, v: Any | None = None) -> Any:
        return u @ (u if v is None else v).T

    @staticmethod
    def dot(u: Any, v: Any) -> Any:
        return (u.T * v)[0, 0]

    @staticmethod
    def quad(v: Any, A: Any) -> Any:
        v = sp.Matrix(v)
        return (v.T * sp.Matrix(A) * v)[0, 0]

    @staticmethod
    def inv(A: Any) -> Any:
        return A.inv() if isinstance(A, sp.MatrixBase) else A.inverse()

    @staticmethod
    def kron(A: Any, B: Any) -> Any:
        return sp.kronecker_product(sp.Matrix(A), sp.Matrix(B))

    @staticmethod
    def fro2(A: Any) -> Any:
        if isinstance(A, sp.MatrixBase):
            return sum(e**2 for e in A)
        return sp.Trace(A.T @ A)

    @staticmethod
    def sqrt(x: Any) -> Any:
        return sp.sqrt(x)

    @staticmethod
    def opnorm_spd(A: Any) -> Any:
        if not isinstance(A, sp.MatrixBase):
            raise ValueError(
                "the operator norm of a MatrixSymbol has no closed form; pass an explicit Matrix"
            )
        eig: dict[Any, int] = A.eigenvals()  # pyright: ignore[reportAssignmentType] (a dict here)
        return sp.Max(*eig.keys())

    @staticmethod
    def projector(A: Any) -> Any:
        return A * A.pinv()

    @staticmethod
    def out(x: Any) -> Any:
        if isinstance(x, sp.MatrixBase) and x.shape == (1, 1):
            return x[0, 0]
        return x


NP = NumpyOps()
SP = SympyOps()


def ops_for(*values: Any) -> NumpyOps | SympyOps:
    """:data:`SP` if any argument is a SymPy object, else :data:`NP`.

    >>> ops_for(1.0, [[1.0]]) is NP, ops_for(sp.Symbol("x")) is SP
    (True, True)
    """
    return SP if is_symbolic(*values) else NP


# ------------------------------------------------------------------- per-object dispatch
# For formulas whose arguments may mix kinds (a numeric Σ with a symbolic N, say): each helper
# dispatches on its own matrix argument, numpy arrays to :data:`NP`, everything else to :data:`SP`.
def T(M: Any) -> Any:
    """Transpose of the last two axes (numpy, batched) or of a SymPy matrix (expression).

    >>> T(np.zeros((5, 2, 3))).shape
    (5, 3, 2)
    """
    return NP.T(M) if isinstance(M, np.ndarray) else M.T


def tr(M: Any) -> Any:
    """Trace of the last two axes (numpy) or :meth:`SympyOps.tr` (``Trace(unpow(M)).doit()``).

    >>> tr(np.stack([np.eye(2), 2 * np.eye(2)])).tolist(), tr(sp.eye(3))
    ([2.0, 4.0], 3)
    """
    return NP.tr(M) if isinstance(M, np.ndarray) else SP.tr(M)


def smul(s: Any, M: Any) -> Any:
    """Scalar (batched over leading axes for numpy) times matrix.

    >>> smul(np.array([1.0, 2.0]), np.stack([np.eye(2)] * 2))[:, 0, 0].tolist()
    [1.0, 2.0]
    """
    return NP.smul(s, M) if isinstance(M, np.ndarray) else s * M


def eye_like(M: Any) -> Any:
    """The identity of ``M``'s size: ``np.eye``, ``sp.eye`` or ``sp.Identity``.

    >>> eye_like(np.zeros((2, 2))).tolist(), eye_like(sp.MatrixSymbol("A", 3, 3))
    ([[1.0, 0.0], [0.0, 1.0]], I)
    """
    return NP.eye(M.shape[-1]) if isinstance(M, np.ndarray) else SP.eye_like(M)


def outer(v: Any) -> Any:
    """``v vᵀ`` (numpy: batched over leading axes; SymPy: ``v @ v.T`` of a column).

    >>> outer(np.array([1.0, 2.0])).tolist()
    [[1.0, 2.0], [2.0, 4.0]]
    """
    return NP.outer(v) if isinstance(v, np.ndarray) else v @ v.T


# ------------------------------------------------------------------------------- validation
def num_square(name: str, value: Any, d: int | None = None) -> np.ndarray:
    """A finite real (batched) square matrix ``(..., d, d)`` as float64 (no PSD requirement).

    >>> num_square("Sigma", [[1, 0], [0, 2]]).dtype
    dtype('float64')
    >>> num_square("Sigma", [1.0, 2.0])
    Traceback (most recent call last):
    ...
    ValueError: Sigma must have trailing shape square, got shape (2,)
    """
    try:
        arr = np.array(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a real matrix, got {value!r}") from exc
    if arr.ndim < 2 or arr.shape[-1] != arr.shape[-2] or (d is not None and arr.shape[-1] != d):
        want = f"({d}, {d})" if d is not None else "square"
        raise ValueError(f"{name} must have trailing shape {want}, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must have finite entries, got {value!r}")
    return arr


def num_cov(name: str, value: Any, d: int | None = None) -> np.ndarray:
    """A covariance: symmetric PSD ``d×d`` float64 (validated by ``theory.settings.as_matrix``).

    >>> num_cov("Sigma", [[1.0, 0.0], [0.0, -1.0]])
    Traceback (most recent call last):
    ...
    ValueError: Sigma must be positive semidefinite, got smallest eigenvalue -1
    """
    return np.array(as_matrix(name, value, d=d), dtype=float)


def num_vector(name: str, value: Any, d: int) -> np.ndarray:
    """A finite real (batched) vector ``(..., d)``; a scalar 0 means the zero vector.

    >>> num_vector("w", 0, 3).tolist(), num_vector("w", [1, 2], 2).tolist()
    ([0.0, 0.0, 0.0], [1.0, 2.0])
    """
    try:
        arr = np.array(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a real vector, got {value!r}") from exc
    if arr.ndim == 0 and arr == 0:
        return np.zeros(d)
    if arr.ndim < 1 or arr.shape[-1] != d:
        raise ValueError(f"{name} must have trailing length d = {d}, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must have finite entries, got {value!r}")
    return arr


def sym_matrix(name: str, value: Any) -> Any:
    """A SymPy ``Matrix``/``MatrixSymbol``/matrix expression; lists become ``Matrix``.

    >>> sym_matrix("S", [[1, sp.Symbol("x")]])
    Matrix([[1, x]])
    """
    if isinstance(value, (sp.MatrixBase, MatrixExpr)):
        return value
    if isinstance(value, (list, tuple)):
        return sp.Matrix(value)
    raise ValueError(f"{name} must be a SymPy Matrix or MatrixSymbol when symbolic, got {value!r}")


def sym_vector(name: str, value: Any, d: Any) -> Any:
    """A SymPy column (``Matrix`` or ``MatrixSymbol``); the scalar 0 means ``ZeroMatrix(d, 1)``.

    >>> sym_vector("w", 0, 2).shape
    (2, 1)
    """
    if (isinstance(value, (int, float)) and value == 0) or (
        isinstance(value, sp.Basic) and not isinstance(value, MatrixExpr) and value == 0
    ):
        return sp.ZeroMatrix(d, 1)
    return sym_matrix(name, value)


def check_scalar(name: str, value: Any, **kw: Any) -> None:
    """Validate a numeric scalar (arrays: every entry) with ``theory.settings.check_real``;
    SymPy input is not validated.

    >>> check_scalar("sigma2", sp.Symbol("s"), lower=0.0)   # symbolic: the caller's assumption
    >>> check_scalar("sigma2", [0.5, -1.0], lower=0.0)
    Traceback (most recent call last):
    ...
    ValueError: sigma2 must be ≥ 0, got -1.0
    """
    if is_symbolic(value):
        return
    arr = np.asarray(value)
    if arr.ndim == 0:
        check_real(name, value.item() if isinstance(value, np.ndarray) else value, **kw)
    else:
        for v in arr.ravel():
            check_real(name, float(v), **kw)
