"""[zwb24] §3 Setting: the data model (Assumption 3.1), the LTB (3.3) / LSA (3.4) and their
effective parameterisation (★), and the whitening reduction.

Every formula is transcribed once against :mod:`theory.common.backend` (numpy for numbers, SymPy
for SymPy input).  Source: [zwb24] §3, eqs. (3.3)–(3.4) (the paper's displayed math
was lost in extraction; we re-derive every formula and tag it [derived]).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.common.backend import SP, ops_for, psd_sqrt
from theory.zwb24.domains import checked

__all__ = [
    "effective_params",
    "whiten",
    "whiten_params",
    "label_second_moment",
]
# Also public, for the sibling section modules and numerics.zwb24 only (theory.zwb24 does
# not re-export them): PAPER, num_setting, sym_float, check_omega_invertible, sym_mat.

#: Where the data model's assumptions come from (named in validation errors).
PAPER = "zwb24 Assumption 3.1"


# ----------------------------------------------------------------------------- validation
def num_setting(H: Any, Psi: Any, sigma2: Any, N: Any, beta_star: Any = None) -> tuple[Any, ...]:
    """Numeric (H, Ψ, σ², N[, β*]) as float arrays (H, Ψ symmetrised), after the joint condition
    c = tr(HΨ) + σ² > 0; each argument's own domain is checked at the public definition.

    Returns ``(H, Psi, sigma2, N)`` or, with ``beta_star``, ``(H, Psi, sigma2, N, beta_star)``.
    """
    Hm, Pm = sym_float(H), sym_float(Psi)
    s2 = float(sigma2)
    n = int(N)
    check_omega_invertible(np.trace(Hm @ Pm), s2, "tr(H Psi)")
    if beta_star is None:
        return Hm, Pm, s2, n
    return Hm, Pm, s2, n, np.array(beta_star, dtype=float)


def sym_float(A: Any) -> np.ndarray:
    """A float64 copy of a (symmetric up to round-off) matrix, symmetrised: ``(A + Aᵀ)/2``."""
    arr = np.array(A, dtype=float)
    return 0.5 * (arr + arr.T)


def check_omega_invertible(trace: Any, sigma2: Any, what: str = "tr(Psi_bar)") -> None:
    """Raise unless ``tr(HΨ) + σ² > 0`` (= ``tr Ψ̄ + σ²``; entrywise for batches): Ω invertible.

    Exact or high-precision numbers (``Fraction``, ``Decimal``, ``mpmath.mpf``) are compared, and
    named in the message, as floats.
    """
    tr_, s2 = np.asarray(trace, dtype=float), np.asarray(sigma2, dtype=float)
    if not np.all(tr_ + s2 > 0):
        raise ValueError(
            f"{what} + sigma2 must be > 0 (zwb24 Thm 5.2: Omega invertible), got "
            f"{what}={np.min(tr_):.3g}, sigma2={np.min(s2):.3g}"
        )


def sym_mat(A: Any) -> Any:
    """A SymPy ``Matrix`` (lists, numpy arrays and scalars converted; matrices and matrix
    expressions as they are): :meth:`~theory.common.backend.SympyOps.mat`.  A numpy matrix among
    SymPy arguments (a numeric Γ with a symbolic σ², say) becomes its ``Matrix``; it used to be
    ``sympify``-ed into an N-dim ``Array`` wrapped as one 1×1 entry (a TypeError downstream)."""
    return SP.mat(A)


# -------------------------------------------------------------- (★) effective parameterisation
@checked
def effective_params(
    W_K: Any,
    W_Q: Any,
    W_V: Any,
    W_P: Any,
    W_1: Any = None,
    W_2: Any = None,
    *,
    mlp_residual: bool = True,
) -> dict[str, Any]:
    r"""Effective parameters of a raw LTB (3.3) / LSA (3.4): the reduction (★).

    Source: [zwb24] eq. (3.3), (3.4); proofs of Lemma 5.1 / Thm 4.1 (App. B, D).

    .. math::

        u = (I + W_2W_1)^\top e_{d+1},\; v = (W_PW_V)^\top u,\; Q = W_K^\top W_Q,\;
        W = Q_{1:d,1:d},\; w = Q_{d+1,1:d}^\top, \\
        f_{LTB}(Z) = u_1^\top x + \tfrac1N x^\top[W^\top(X^\top X v_1 + v_2 X^\top y)
                     + w(v_1^\top X^\top y + v_2\|y\|^2)]
                   = x^\top[a + \tfrac1N(\Gamma X^\top + \phi y^\top)(y - Xb)]

    with ``a = u_1``, ``b = -v_1/v_2``, ``Γ = v_2 Wᵀ``, ``φ = v_2 w`` on the chart ``v_2 ≠ 0``.

    Parameters
    ----------
    W_K, W_Q : ``(k, d+1)``; W_V : ``(v, d+1)``; W_P : ``(d+1, v)``;
    W_1 : ``(m, d+1)``, W_2 : ``(d+1, m)`` (both ``None``: LSA, ``W_1 = W_2 = 0``; one
        alone is an error).
    mlp_residual : the MLP is ``(I + W_2W_1)U`` (True, the LTB) or ``W_2W_1 U`` (False; a
        *different* model, only for negative controls).

    Returns
    -------
    dict with raw ``u, v, W, w`` and chart parameters ``a, b, Gamma, phi`` (``b, Gamma, phi`` are
    ``None`` when ``v_2 = 0``): numpy arrays, or explicit SymPy ``Matrix`` objects (vectors as
    columns) when any weight is SymPy (a ``Matrix``, a ``MatrixSymbol`` or a list with symbols).

    Notes
    -----
    LSA ⇔ ``a = 0``; GD-β ⇔ ``a = b = β, φ = 0``.  Only the last row of ``I + W_2W_1`` and the first
    ``d`` columns of ``W_KᵀW_Q`` matter.

    Examples
    --------
    >>> import numpy as np
    >>> I = np.eye(2)
    >>> p = effective_params(I, I, I, I)          # d = 1, LSA with identity weights
    >>> float(p["a"][0]), float(p["b"][0]), float(p["Gamma"][0, 0]), float(p["phi"][0])
    (0.0, -0.0, 1.0, 0.0)
    """
    ops = ops_for(W_K, W_Q, W_V, W_P, W_1, W_2)
    mat = _explicit if ops.symbolic else ops.mat
    W_K, W_Q, W_V, W_P = (mat(A) for A in (W_K, W_Q, W_V, W_P))
    D = int(W_K.shape[1])  # a MatrixSymbol's explicit Matrix has SymPy Integer sizes
    d = D - 1
    e = ops.vec([0] * d + [1])
    if W_1 is None or W_2 is None:
        if not mlp_residual:
            raise ValueError("mlp_residual=False needs W_1 and W_2")
        if W_1 is not None or W_2 is not None:  # one alone would be dropped silently
            given, missing = ("W_1", "W_2") if W_2 is None else ("W_2", "W_1")
            raise ValueError(
                f"W_1 and W_2 go together (both None: the LSA), got {given} with {missing}=None"
            )
        U = ops.eye(D)
    else:
        M = mat(W_2) @ mat(W_1)
        U = (ops.eye(D) + M) if mlp_residual else M
    u = U.T @ e
    v = (W_P @ W_V).T @ u
    Q = W_K.T @ W_Q
    W = Q[:d, :d]
    w = ops.vec(Q[d, :d])
    u1, v1, v2 = ops.vec(u[:d]), ops.vec(v[:d]), v[d]  # SymPy: an explicit column, v[d] = v[d, 0]
    out: dict[str, Any] = {
        "u": u,
        "v": v,
        "W": W,
        "w": w,
        "a": u1,
        "b": None,
        "Gamma": None,
        "phi": None,
    }
    if v2 != 0:
        out.update(b=-v1 / v2, Gamma=v2 * W.T, phi=v2 * w)
    return out


def _explicit(A: Any) -> Any:
    """An explicit SymPy ``Matrix`` (a ``MatrixSymbol``'s entries ``W[i, j]``): slices and
    entries of the products below are then plain expressions."""
    return sp.Matrix(SP.mat(A))


# -------------------------------------------------------------------------------- whitening
@checked
def whiten(H: Any, Psi: Any, beta_star: Any) -> tuple[np.ndarray, np.ndarray]:
    r"""Whitened data model ``(Ψ̄, μ̄) = (H^{1/2}ΨH^{1/2}, H^{1/2}β*)`` (numeric).

    Source: [derived]: risks depend on the data model only through
    ``(Ψ̄, μ̄, σ², N)``.

    >>> P, mu = whiten([[4.0]], [[1.0]], [1.0])
    >>> float(P[0, 0]), float(mu[0])
    (4.0, 2.0)
    """
    Hh = psd_sqrt(sym_float(H))
    return Hh @ sym_float(Psi) @ Hh, Hh @ np.asarray(beta_star, dtype=float)


@checked
def whiten_params(H: Any, a: Any, b: Any, Gamma: Any, phi: Any) -> tuple[np.ndarray, ...]:
    """Whitened LTB parameters ``(H^{1/2}a, H^{1/2}b, H^{1/2}ΓH^{1/2}, H^{1/2}φ)`` (§1.8).

    Source: [derived] whitening reduction of [zwb24] §3 (x̄ = H^{-1/2}x): with the whitened data
    model (:func:`whiten`) the effective parameters of eq. (★) act as
    ``(H^{1/2}a, H^{1/2}b, H^{1/2}ΓH^{1/2}, H^{1/2}φ)``.

    Parameters
    ----------
    H : (d, d) covariate covariance (PSD); a, b, phi : (d,) vectors; Gamma : (d, d)

    Returns
    -------
    (ā (d,), b̄ (d,), Γ̄ (d, d), φ̄ (d,)) float64 arrays.

    Examples
    --------
    H = 4·I₁, so H^{1/2} = 2:

    >>> a, b, G, phi = whiten_params([[4.0]], [1.0], [0.5], [[1.0]], [3.0])
    >>> a.tolist(), b.tolist(), G.tolist(), phi.tolist()
    ([2.0], [1.0], [[4.0]], [6.0])
    """
    Hh = psd_sqrt(np.asarray(H, dtype=float))
    return (
        Hh @ np.asarray(a, float),
        Hh @ np.asarray(b, float),
        Hh @ np.asarray(Gamma, float) @ Hh,
        Hh @ np.asarray(phi, float),
    )


@checked
def label_second_moment(H: Any, Psi: Any, beta_star: Any, sigma2: Any) -> Any:
    r"""``E[y²] = tr(H(Ψ + β*β*ᵀ)) + σ²`` under Assumption 3.1 (risk of the zero predictor).

    Source: [zwb24] Assumption 3.1; elementary.

    >>> label_second_moment([[1.0]], [[1.0]], [3.0], 0.25)
    10.25
    """
    ops = ops_for(H, Psi, beta_star, sigma2)
    Hm, Pm, bs = ops.mat(H), ops.mat(Psi), ops.vec(beta_star)
    return ops.out(ops.tr(Hm @ Pm) + ops.dot(bs, Hm @ bs) + sigma2)
