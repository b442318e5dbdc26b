"""Gaussian and Wishart moment identities reused by the risks of every paper.

Each identity is written **once**, as matrix algebra over a tiny backend (``@``, transpose, trace,
scalar times matrix): numeric input (numpy arrays, batched over leading axes) is evaluated with
numpy in float64, SymPy input (``Matrix`` with exact entries, or ``MatrixSymbol``) returns the
SymPy expression (STYLE R3).  No d×d matrix of symbols is built unless the caller passes one.

NOTATION
========

==================  ==============  ===========================================================
paper symbol        code name       canonical meaning
==================  ==============  ===========================================================
H (zwb24), Λ        ``Sigma``       covariance of a covariate vector x ~ N(0, Σ)
(zfb24), Σ
A                   ``A``           a fixed d×d matrix (need not be symmetric)
N (zfb24: N or M)   ``N``           number of i.i.d. rows of X (prompt length)
Λ̂ (zfb24)          --              sample covariance XᵀX/N
Γ (zfb24 §1.1)      --              (N+1)/N Λ + tr(Λ)/N I  (so E[Λ̂²] = ΓΛ); *not* zwb24's Γ
==================  ==============  ===========================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.common.evaluate import is_symbolic
from theory.common.protocols import Result
from theory.settings import as_matrix, check_int

__all__ = [
    "isserlis_fourth_moment",
    "wishart_fourth_moment",
    "sample_cov_second_moment",
    "RESULTS",
]


# ----------------------------------------------------------------------------------- backend
def _T(M: Any) -> Any:
    """Transpose of the last two axes (numpy, batched) or of a SymPy matrix expression."""
    if isinstance(M, np.ndarray):
        return np.swapaxes(M, -1, -2)
    return M.T


def _tr(M: Any) -> Any:
    """Trace of the last two axes (numpy) / ``Trace`` of a SymPy matrix (expression)."""
    if isinstance(M, np.ndarray):
        return np.trace(M, axis1=-2, axis2=-1)
    if isinstance(M, sp.MatrixBase):
        return M.trace()
    return sp.Trace(_unpow(M)).doit()


def _unpow(e: Any) -> Any:
    """Pull scalars out of matrix powers, ``(c A)**k -> c**k A**k`` (SymPy leaves
    ``Trace((c I)**2)`` unevaluated otherwise)."""

    def rep(p: Any) -> Any:
        c, mats = p.base.as_coeff_mmul()
        base = mats.args[0] if len(mats.args) == 1 else sp.MatMul(*mats.args)
        return c**p.exp * sp.MatPow(base, p.exp).doit()

    return e.replace(lambda p: isinstance(p, sp.MatPow) and isinstance(p.base, sp.MatMul), rep)


def _smul(s: Any, M: Any) -> Any:
    """Scalar (possibly batched) times matrix."""
    if isinstance(M, np.ndarray):
        return np.asarray(s, dtype=float)[..., None, None] * M
    return s * M


def _eye_like(M: Any) -> Any:
    if isinstance(M, np.ndarray):
        return np.eye(M.shape[-1])
    if isinstance(M, sp.MatrixBase):
        return sp.eye(M.shape[0])
    return sp.Identity(M.shape[0])


def _sym_matrix(name: str, value: Any) -> Any:
    """Accept a SymPy ``Matrix``/``MatrixSymbol``/matrix expression; lists become ``Matrix``."""
    if isinstance(value, (sp.MatrixBase, sp.MatrixExpr)):
        return value
    if isinstance(value, (list, tuple)):
        return sp.Matrix(value)
    raise ValueError(f"{name} must be a SymPy Matrix or MatrixSymbol when symbolic, got {value!r}")


def _num_square(name: str, value: Any, d: int | None = None) -> np.ndarray:
    """A finite real (batched) square matrix ``(..., d, d)`` as float64 (no PSD requirement)."""
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


def _num_cov(name: str, value: Any, d: int | None = None) -> np.ndarray:
    """A covariance: symmetric PSD ``d×d`` (validated by :func:`theory.settings.as_matrix`)."""
    return np.array(as_matrix(name, value, d=d), dtype=float)


# ---------------------------------------------------------------------------- the identities
def _isserlis(A: Any, S: Any) -> Any:
    # E[x x^T A x x^T] = S A S + S A^T S + tr(A S) S
    return S @ A @ S + S @ _T(A) @ S + _smul(_tr(A @ S), S)


def _wishart(A: Any, S: Any, N: Any) -> Any:
    # E[X^T X A X^T X] = N^2 S A S + N (S A^T S + tr(A S) S)
    return _smul(N**2, S @ A @ S) + _smul(N, S @ _T(A) @ S + _smul(_tr(A @ S), S))


def isserlis_fourth_moment(A: Any, Sigma: Any) -> Any:
    r"""Fourth moment ``E[x xᵀ A x xᵀ]`` of a centred Gaussian vector (Isserlis / Wick).

    Source: [zwb24] Lemma H.4 (spec 002 §2.0, first item); [zfb24] Lemma 30 (spec 004 R13).

    .. math::

        \mathbb E[x x^\top A x x^\top] = \Sigma A \Sigma + \Sigma A^\top \Sigma
            + \operatorname{tr}(A\Sigma)\,\Sigma, \qquad x \sim N(0, \Sigma).

    Parameters
    ----------
    A : fixed matrix ``(d, d)`` (any real matrix; numeric input may be batched ``(..., d, d)``)
    Sigma : covariance Σ ⪰ 0, ``(d, d)``

    Returns
    -------
    ``(d, d)`` float64 array (``(..., d, d)`` for batched ``A``), or a SymPy matrix expression.

    Notes
    -----
    Exact for every real ``A`` (the paper states it for general A; it needs no symmetry) and every
    PSD Σ, rank-deficient included.  Verified against Monte Carlo and, at d = 1, 2, against the
    moment-generating-function derivatives (an independent exact route).

    References
    ----------
    arXiv:2402.14951 (zwb24), arXiv:2306.09927 (zfb24).

    Examples
    --------
    >>> float(isserlis_fourth_moment([[1.0]], [[2.0]])[0, 0])   # E[x^4] = 3 s^2 for s = 2
    12.0
    >>> s = sp.Symbol("s", positive=True)
    >>> isserlis_fourth_moment(sp.Matrix([[1]]), sp.Matrix([[s]]))
    Matrix([[3*s**2]])
    """
    if is_symbolic(A, Sigma):
        return _isserlis(_sym_matrix("A", A), _sym_matrix("Sigma", Sigma))
    S = _num_cov("Sigma", Sigma)
    return _isserlis(_num_square("A", A, S.shape[0]), S)


def wishart_fourth_moment(A: Any, Sigma: Any, N: Any) -> Any:
    r"""``E[XᵀX A XᵀX]`` for ``X`` with ``N`` i.i.d. ``N(0, Σ)`` rows.

    Source: [zwb24] Lemma H.4 (spec 002 §2.0, items 2–3: the general-A form); it is Isserlis
    (:func:`isserlis_fourth_moment`) for the N diagonal terms plus ``ΣAΣ`` for the N(N−1)
    off-diagonal pairs.

    .. math::

        \mathbb E[X^\top X A X^\top X] = N^2 \Sigma A \Sigma
            + N\bigl(\Sigma A^\top \Sigma + \operatorname{tr}(A\Sigma)\,\Sigma\bigr).

    Parameters
    ----------
    A : fixed matrix ``(d, d)`` (numeric input may be batched)
    Sigma : row covariance Σ ⪰ 0, ``(d, d)``
    N : number of rows, integer ≥ 1 (a positive-integer Symbol for SymPy input)

    Returns
    -------
    ``(d, d)`` float64 array, or a SymPy matrix expression.

    Notes
    -----
    For symmetric ``A`` this is spec 002's ``N(N+1) ΣAΣ + N tr(AΣ) Σ``.

    References
    ----------
    arXiv:2402.14951 (zwb24).

    Examples
    --------
    >>> float(wishart_fourth_moment([[1.0]], [[1.0]], 2)[0, 0])   # E[(z1^2 + z2^2)^2] = 8
    8.0
    """
    if is_symbolic(A, Sigma, N):
        return _wishart(_sym_matrix("A", A), _sym_matrix("Sigma", Sigma), sp.sympify(N))
    S = _num_cov("Sigma", Sigma)
    n = check_int("N", N, minimum=1, paper="number of rows of X")
    return _wishart(_num_square("A", A, S.shape[0]), S, float(n))


def sample_cov_second_moment(Sigma: Any, N: Any) -> Any:
    r"""``E[Λ̂²]`` for the sample covariance ``Λ̂ = XᵀX/N`` of ``N`` i.i.d. ``N(0, Σ)`` rows.

    Source: [zfb24] §1.1 key identity (spec 004 §1.1): ``E[Λ̂²] = ΓΛ`` with
    ``Γ = (N+1)/N Λ + tr(Λ)/N I``; it is :func:`wishart_fourth_moment` at ``A = I`` divided by N².

    .. math::

        \mathbb E[\hat\Lambda^2] = \frac{N+1}{N}\Sigma^2 + \frac{\operatorname{tr}\Sigma}{N}\Sigma.

    Parameters
    ----------
    Sigma : covariance Σ ⪰ 0, ``(d, d)``
    N : number of rows, integer ≥ 1

    Returns
    -------
    ``(d, d)`` float64 array, or a SymPy matrix expression.

    Notes
    -----
    The formula is not transcribed a second time: it is the Wishart identity at ``A = I``.

    References
    ----------
    arXiv:2306.09927 (zfb24).

    Examples
    --------
    >>> sample_cov_second_moment([[1.0]], 1).tolist()   # E[z^4] = 3
    [[3.0]]
    """
    if is_symbolic(Sigma, N):
        S = _sym_matrix("Sigma", Sigma)
        n = sp.sympify(N)
        return _smul(1 / n**2, _wishart(_eye_like(S), S, n))
    S = _num_cov("Sigma", Sigma)
    n = check_int("N", N, minimum=1, paper="number of rows of X")
    return _wishart(np.eye(S.shape[0]), S, float(n)) / float(n) ** 2


_NB = "numerics.baselines:"

RESULTS: tuple[Result, ...] = (
    Result(
        id="base:isserlis",
        kind="identity",
        summary="Gaussian fourth moment E[x x^T A x x^T] = ΣAΣ + ΣA^TΣ + tr(AΣ)Σ",
        source="[zwb24] Lemma H.4 (spec 002 §2.0); [zfb24] Lemma 30 (spec 004 R13)",
        statement="E[x x^T A x x^T] = Σ A Σ + Σ A^T Σ + tr(AΣ) Σ for x ~ N(0, Σ), any real A",
        objects=("theory.common.gaussian:isserlis_fourth_moment",),
        checks=(_NB + "check_isserlis_exact", _NB + "check_isserlis_mc"),
    ),
    Result(
        id="base:wishart",
        kind="identity",
        summary="Wishart fourth moment E[X^T X A X^T X] = N²ΣAΣ + N(ΣA^TΣ + tr(AΣ)Σ)",
        source="[zwb24] Lemma H.4 (spec 002 §2.0, general-A form)",
        statement="E[X^T X A X^T X] = N^2 Σ A Σ + N (Σ A^T Σ + tr(AΣ) Σ), "
        "X with N iid N(0, Σ) rows",
        objects=("theory.common.gaussian:wishart_fourth_moment",),
        checks=(_NB + "check_wishart_exact", _NB + "check_wishart_mc"),
    ),
    Result(
        id="base:sample-cov",
        kind="identity",
        summary="E[Λ̂²] = ((N+1)/N)Σ² + (trΣ/N)Σ = ΓΛ for the sample covariance Λ̂ = X^T X/N",
        source="[zfb24] §1.1 key identity (spec 004 §1.1; JMLR Lemma 30 corollary)",
        statement="E[Λ̂^2] = ((N+1)/N) Λ^2 + (tr Λ / N) Λ",
        objects=("theory.common.gaussian:sample_cov_second_moment",),
        checks=(_NB + "check_sample_cov",),
    ),
)
