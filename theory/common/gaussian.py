"""Gaussian and Wishart moment identities reused by the risks of every paper.

Each identity is written **once**, as matrix algebra over a tiny backend (``@``, transpose, trace,
scalar times matrix): numeric input (numpy arrays, batched over leading axes) is evaluated with
numpy in float64, SymPy input (``Matrix`` with exact entries, or ``MatrixSymbol``) returns the
SymPy expression.  No d×d matrix of symbols is built unless the caller passes one.

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

from theory.common import backend as bk
from theory.common.evaluate import is_symbolic
from theory.settings import check_int

__all__ = [
    "isserlis_fourth_moment",
    "wishart_fourth_moment",
    "sample_cov_second_moment",
]


# ---------------------------------------------------------------------------- the identities
def isserlis_identity(A: Any, S: Any) -> Any:
    # E[x x^T A x x^T] = S A S + S A^T S + tr(A S) S
    return S @ A @ S + S @ bk.T(A) @ S + bk.smul(bk.tr(A @ S), S)


def wishart_identity(A: Any, S: Any, N: Any) -> Any:
    # E[X^T X A X^T X] = N^2 S A S + N (S A^T S + tr(A S) S)
    return bk.smul(N**2, S @ A @ S) + bk.smul(N, S @ bk.T(A) @ S + bk.smul(bk.tr(A @ S), S))


def isserlis_fourth_moment(A: Any, Sigma: Any) -> Any:
    r"""Fourth moment ``E[x xᵀ A x xᵀ]`` of a centred Gaussian vector (Isserlis / Wick).

    Source: [zwb24] Lemma H.4 (first item); [zfb24] Lemma 30.

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
        return isserlis_identity(bk.sym_matrix("A", A), bk.sym_matrix("Sigma", Sigma))
    S = bk.num_cov("Sigma", Sigma)
    return isserlis_identity(bk.num_square("A", A, S.shape[0]), S)


def wishart_fourth_moment(A: Any, Sigma: Any, N: Any) -> Any:
    r"""``E[XᵀX A XᵀX]`` for ``X`` with ``N`` i.i.d. ``N(0, Σ)`` rows.

    Source: [zwb24] Lemma H.4 (items 2–3: the general-A form); it is Isserlis
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
    For symmetric ``A`` this is ``N(N+1) ΣAΣ + N tr(AΣ) Σ``.

    References
    ----------
    arXiv:2402.14951 (zwb24).

    Examples
    --------
    >>> float(wishart_fourth_moment([[1.0]], [[1.0]], 2)[0, 0])   # E[(z1^2 + z2^2)^2] = 8
    8.0
    """
    if is_symbolic(A, Sigma, N):
        return wishart_identity(bk.sym_matrix("A", A), bk.sym_matrix("Sigma", Sigma), sp.sympify(N))
    S = bk.num_cov("Sigma", Sigma)
    n = check_int("N", N, minimum=1, paper="number of rows of X")
    return wishart_identity(bk.num_square("A", A, S.shape[0]), S, float(n))


def sample_cov_second_moment(Sigma: Any, N: Any) -> Any:
    r"""``E[Λ̂²]`` for the sample covariance ``Λ̂ = XᵀX/N`` of ``N`` i.i.d. ``N(0, Σ)`` rows.

    Source: [zfb24] §1.1 key identity: ``E[Λ̂²] = ΓΛ`` with
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
        S = bk.sym_matrix("Sigma", Sigma)
        n = sp.sympify(N)
        return bk.smul(1 / n**2, wishart_identity(bk.eye_like(S), S, n))
    S = bk.num_cov("Sigma", Sigma)
    n = check_int("N", N, minimum=1, paper="number of rows of X")
    return wishart_identity(np.eye(S.shape[0]), S, float(n)) / float(n) ** 2
