"""Exact samplers of Wishart matrices and of Wishart-times-vector products, from Bartlett factors.

The fast Monte Carlo engine :mod:`numerics.mc_fast` draws the sufficient statistic ``v = M h`` of
a prompt with these (its module docstring derives why ``v`` suffices); they are re-exported there.

* :func:`psd_factor` -- ``C`` with ``C Cᵀ = Σ`` at the numerical rank;
* :func:`bartlett_factor`, :func:`wishart_sample` -- ``A`` with ``A Aᵀ ~ Wishart(dof, I_p)``, and
  ``Wishart(dof, Σ)`` draws;
* :func:`bartlett_times_vector`, :func:`wishart_times_vector` -- ``M h`` for a fixed ``h`` per
  draw, ``(p+1)(p+2)/2`` or ``p + 1`` variables each.

``diagonal="normal"`` and ``dof_offset`` are faults for negative controls; ``dtype="float32"``
draws in float32 and upcasts (``docs/montecarlo.md``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from theory.common.backend import rank_mask
from theory.settings import as_matrix, check_choice, check_int

__all__ = [
    "DIAGONALS",
    "psd_factor",
    "bartlett_factor",
    "wishart_sample",
    "bartlett_times_vector",
    "wishart_times_vector",
    "standard_normal",
    "draw_dtype",
]

#: Diagonals of a Bartlett factor: ``"chi"`` (correct), ``"normal"`` (a fault: N(0, 1)).
DIAGONALS = ("chi", "normal")


def psd_factor(S: Any, *, name: str = "Sigma_x") -> np.ndarray:
    """``C`` of shape ``(d, r)`` with ``C Cᵀ = S`` and ``r`` the numerical rank (eigh).

    Eigenvalues at or below the backend's one rank cut (:func:`theory.common.backend.rank_mask`)
    are treated as zero, so rank-deficient ``S`` gives ``r < d``
    (``r ≥ 1`` is kept even for ``S = 0`` so that shapes stay valid).

    >>> C = psd_factor([[1.0, 1.0], [1.0, 1.0]])
    >>> C.shape, bool(np.allclose(C @ C.T, 1.0))
    ((2, 1), True)
    """
    arr = np.array(as_matrix(name, S), dtype=float)
    w, V = np.linalg.eigh(arr)
    keep = rank_mask(w)
    if not np.any(keep):
        return np.zeros((arr.shape[0], 1))
    return V[:, keep] * np.sqrt(w[keep])


# ---------------------------------------------------------------------------- Wishart samplers
def draw_dtype(dtype: str) -> type:
    """The numpy type draws are made in: ``"float64"`` or ``"float32"`` (upcast after).

    >>> draw_dtype("float32").__name__
    'float32'
    >>> draw_dtype("float16")
    Traceback (most recent call last):
    ...
    ValueError: dtype must be one of ('float64', 'float32'), got 'float16'
    """
    check_choice("dtype", dtype, ("float64", "float32"))
    return np.float64 if dtype == "float64" else np.float32


def _chi2(rng: np.random.Generator, dof: float, size: Any, dtype: str) -> np.ndarray:
    """χ²_dof draws (``2·Gamma(dof/2)``); ``dof = 0`` gives exact zeros."""
    if dof <= 0:
        return np.zeros(size)
    return 2.0 * rng.standard_gamma(dof / 2.0, size=size, dtype=draw_dtype(dtype)).astype(float)


def standard_normal(rng: np.random.Generator, size: Any, dtype: str) -> np.ndarray:
    """N(0, 1) draws of shape ``size``, drawn in ``dtype``, returned as float64.

    >>> z = standard_normal(np.random.default_rng(0), (2, 3), "float32")
    >>> z.dtype, z.shape
    (dtype('float64'), (2, 3))
    """
    return rng.standard_normal(size, dtype=draw_dtype(dtype)).astype(float, copy=False)


def bartlett_factor(
    rng: np.random.Generator,
    B: int,
    p: int,
    dof: int,
    *,
    diagonal: str = "chi",
    dtype: str = "float64",
) -> np.ndarray:
    """Bartlett factors ``A`` (B, p, m), ``m = min(dof, p)``, with ``A Aᵀ ~ Wishart(dof, I_p)``.

    Source: Bartlett decomposition (e.g. Muirhead 1982, Thm 3.2.14); for ``dof < p`` the QR
    factor of a ``dof×p`` Gaussian matrix, ``Z = QR`` with ``R`` upper trapezoidal.

    .. math::

        A_{ii} \\sim \\chi_{\\mathrm{dof}-i}\\ (i = 0,\\dots,m-1), \\qquad
        A_{ij} \\sim N(0, 1)\\ (i > j), \\qquad A_{ij} = 0\\ (i < j).

    Parameters
    ----------
    B : number of independent factors.
    p : dimension of the Wishart matrix.
    dof : degrees of freedom (the prompt length N; N − 1 for a centred scatter), ≥ 0.
    diagonal : ``"chi"`` (correct) or ``"normal"`` (a fault for negative controls: N(0,1) on the
        diagonal instead of the χ variables).
    dtype : ``"float32"`` draws are upcast to float64 (see ``docs/montecarlo.md``).

    Examples
    --------
    >>> A = bartlett_factor(np.random.default_rng(0), 2, 3, 5)
    >>> A.shape, bool(np.all(np.triu(A, 1) == 0))
    ((2, 3, 3), True)
    >>> bool(np.all(np.diagonal(A, axis1=1, axis2=2) > 0))
    True
    """
    B = check_int("B", B, minimum=1)
    p = check_int("p (Wishart dimension)", p, minimum=1)
    dof = check_int("dof (Wishart degrees of freedom)", dof, minimum=0)
    check_choice("diagonal", diagonal, DIAGONALS)
    m = min(dof, p)
    A = np.zeros((B, p, m))
    if m == 0:
        return A
    rows, cols = np.tril_indices(p, -1, m)
    if rows.size:
        A[:, rows, cols] = standard_normal(rng, (B, rows.size), dtype)
    idx = np.arange(m)
    if diagonal == "chi":
        dofs = dof - idx.astype(float)
        A[:, idx, idx] = np.sqrt(_chi2_vector(rng, dofs, B, dtype))
    else:
        A[:, idx, idx] = standard_normal(rng, (B, m), dtype)
    return A


def _chi2_vector(rng: np.random.Generator, dofs: np.ndarray, B: int, dtype: str) -> np.ndarray:
    """(B, len(dofs)) χ² draws with column-wise degrees of freedom (all > 0)."""
    shape = np.broadcast_to(dofs / 2.0, (B, dofs.size))
    return 2.0 * rng.standard_gamma(shape, dtype=draw_dtype(dtype)).astype(float)


def wishart_sample(
    rng: np.random.Generator,
    B: int,
    Sigma: Any,
    dof: int,
    *,
    diagonal: str = "chi",
    dof_offset: int = 0,
) -> np.ndarray:
    """``B`` draws (B, d, d) of ``XᵀX ~ Wishart(dof, Σ)`` via ``C A Aᵀ Cᵀ`` (``Σ = C Cᵀ``).

    ``dof_offset`` and ``diagonal="normal"`` inject faults for negative controls.

    >>> W = wishart_sample(np.random.default_rng(1), 4000, np.eye(2), 3)
    >>> bool(np.allclose(W.mean(axis=0), 3 * np.eye(2), atol=0.3))
    True
    """
    C = psd_factor(Sigma)
    A = bartlett_factor(rng, B, C.shape[1], dof + dof_offset, diagonal=diagonal)
    CA = np.einsum("ik,bkm->bim", C, A)
    return CA @ np.swapaxes(CA, 1, 2)


def bartlett_times_vector(
    rng: np.random.Generator,
    h: np.ndarray,
    dof: int,
    *,
    diagonal: str = "chi",
    dtype: str = "float64",
) -> np.ndarray:
    """``M h`` (B, p) for ``M = A Aᵀ ~ Wishart(dof, I_p)`` drawn by :func:`bartlett_factor`.

    ``h`` is (B, p), one vector per draw.  ``E[M h] = dof·h`` (``Var (Mh)_i = dof(‖h‖² + h_i²)``):

    >>> v = bartlett_times_vector(np.random.default_rng(0), np.ones((20_000, 2)), 5)
    >>> se = np.sqrt(5 * 3 / 20_000)
    >>> bool(np.all(np.abs(v.mean(axis=0) - 5.0) < 5 * se))
    True
    """
    B, p = h.shape
    A = bartlett_factor(rng, B, p, dof, diagonal=diagonal, dtype=dtype)
    t = np.einsum("bim,bi->bm", A, h)
    return np.einsum("bim,bm->bi", A, t)


def wishart_times_vector(
    rng: np.random.Generator,
    h: np.ndarray,
    dof: int,
    *,
    diagonal: str = "chi",
    dtype: str = "float64",
) -> np.ndarray:
    """Exact draws of ``M h`` (B, p), ``M ~ Wishart(dof, I_p)``, from ``p + 1`` variables each.

    Source: [derived] rotation invariance of ``Wishart(dof, I)``: for a unit ``u`` and
    ``w = Z u ~ N(0, I_dof)``, ``Zᵀw = ‖w‖² u + P_⊥Zᵀw`` with ``P_⊥Zᵀ`` independent of ``w``, so

    .. math::

        M h = c^2 h + c\\,(\\lVert h\\rVert\\,\\xi - h\\,h^\\top\\xi/\\lVert h\\rVert),\\qquad
        c^2 \\sim \\chi^2_{\\mathrm{dof}},\\ \\xi \\sim N(0, I_p).

    ``diagonal="normal"`` (fault) draws ``c ~ N(0, 1)`` instead of ``χ_dof``.

    >>> v = wishart_times_vector(np.random.default_rng(0), np.ones((20_000, 2)), 5)
    >>> se = np.sqrt(5 * 3 / 20_000)   # E[M h] = dof·h, Var (Mh)_i = dof(‖h‖² + h_i²)
    >>> bool(np.all(np.abs(v.mean(axis=0) - 5.0) < 5 * se))
    True
    """
    check_choice("diagonal", diagonal, DIAGONALS)
    B, p = h.shape
    if diagonal == "chi":
        c2 = _chi2(rng, dof, B, dtype)
        c = np.sqrt(c2)
    else:
        c = standard_normal(rng, B, dtype)
        c2 = c * c
    xi = standard_normal(rng, (B, p), dtype)
    nh = np.sqrt(np.einsum("bi,bi->b", h, h))
    hx = np.einsum("bi,bi->b", h, xi)
    alpha = c2 - c * hx / np.where(nh > 0, nh, 1.0)  # c² − c hᵀξ/‖h‖
    xi *= (c * nh)[:, None]
    xi += alpha[:, None] * h
    return xi
