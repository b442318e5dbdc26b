"""[zwb24] §3 ICL risk (3.5) of the general LTB in its effective parameters (★); proofs of
Theorems 4.1 and 5.3 (App. D).

The closed form is derived here and written once against
:mod:`theory.common.backend`; the LSA (3.4) is the case ``a = 0``, GD-β (5.1) the case
``a = b = β, φ = 0``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.common.backend import NP, SP, ops_for
from theory.zwb24.domains import checked
from theory.zwb24.sec3_model import num_setting, sym_mat, whiten, whiten_params

__all__ = ["ltb_risk_whitened", "ltb_risk", "lsa_risk"]
# Also public, for the sibling section modules and numerics.zwb24 only (theory.zwb24 does
# not re-export them): ltb_risk_expr.


def ltb_risk_expr(
    ops: Any, a: Any, b: Any, G: Any, phi: Any, P: Any, mu: Any, s2: Any, N: Any
) -> Any:
    """The formula of :func:`ltb_risk_whitened` on already-converted backend objects (no
    validation): ``ops`` is :data:`~theory.common.backend.NP` (arrays, complex allowed) or
    :data:`~theory.common.backend.SP` (``Matrix``).  Used by the optimisation routes."""
    d = P.shape[0]
    I = ops.eye(d)
    m = mu - b
    e0 = a - b
    T = ops.tr(P)
    mm = ops.dot(m, m)
    E2 = P + ops.outer(m, m)
    E3 = (T + mm) * m + 2 * (P @ m)
    E4 = (T + mm) ** 2 + 2 * ops.tr(P @ P) + 4 * ops.dot(m, P @ m)
    GtG = G.T @ G
    T1 = (
        ops.dot(e0, e0)
        - 2 * ops.dot(e0, (I - G) @ m)
        + ops.tr((I - G - G.T + (N + 1) * GtG / N + (ops.tr(GtG) / N) * I) @ E2)
        + (s2 / N) * ops.tr(G @ G.T)
    )
    Eq = ops.dot(b, m) + T + mm + s2
    v1 = E2 @ b + E3
    v2 = ((N + 1) / N) * (E2 @ b) + ((T + mm) / N) * b + ((N + 2) / N) * E3
    EAq = Eq * e0 - (v1 - G @ v2) - s2 * ((I - G) @ m) + (s2 / N) * (G @ (b + 2 * m))
    T2 = 2 * ops.dot(phi, EAq)
    bm = ops.dot(b, m)
    A1 = bm**2 + ops.dot(b, P @ b) + 2 * ops.dot(b, E3) + E4
    A2 = ops.dot(b, b) * (T + mm) + 2 * ops.dot(b, E3) + E4
    bm2 = b + 2 * m
    Eq2 = (
        ((N + 1) / N) * A1
        + A2 / N
        + (s2 / N) * (ops.dot(bm2, bm2) + 4 * T)
        + s2**2 * (1 + 2 / N)
        + 2 * s2 * (bm + T + mm)
    )
    T3 = ops.dot(phi, phi) * Eq2
    return s2 + T1 + T2 + T3


@checked
def ltb_risk_whitened(
    a: Any, b: Any, Gamma: Any, phi: Any, Psi_bar: Any, mu_bar: Any, sigma2: Any, N: Any
) -> Any:
    r"""Closed-form ICL risk of the general LTB (★) in whitened coordinates (``H = I``).

    Source: [zwb24] proofs of Thm 4.1 / 5.3 (App. D); formula derived here.

    .. math::

        R_{LTB}(a,b,\Gamma,\phi) = \sigma^2 + T_1 + T_2 + T_3

    with ``T_1`` the GD-β-like part, ``T_2 = 2φᵀE[A q]`` and ``T_3 = ‖φ‖² E[q²]`` as spelled out
    in docs/papers/zwb24.md (moments of ``δ = β̃ − b ~ N(μ − b, Ψ̄)``).

    Parameters
    ----------
    a, b, phi : whitened vectors ``(d,)``; Gamma : whitened ``(d, d)``;
    Psi_bar : Ψ̄ ⪰ 0; mu_bar : μ̄ = H^{1/2}β*; sigma2 : σ²; N : context length.

    Returns
    -------
    float / SymPy expression.  Numeric input may be complex (complex-step gradients): the formula
    is bilinear, never conjugates.

    Notes
    -----
    LSA risk = ``R(0, b, Γ, φ)``; GD-β = ``R(β, β, Γ, 0)`` (equals §2.1).  For fixed ``b`` the
    risk is a convex quadratic in ``(a, Γ, φ)``.

    Examples
    --------
    >>> ltb_risk_whitened([0.], [0.], [[0.]], [0.], [[1.]], [2.], 0.0, 5)   # zero predictor
    5.0
    """
    ops = ops_for(a, b, Gamma, phi, Psi_bar, mu_bar, sigma2, N)
    if ops.symbolic:
        return sp.expand(
            ltb_risk_expr(
                SP,
                SP.vec(a),
                SP.vec(b),
                sym_mat(Gamma),
                SP.vec(phi),
                sym_mat(Psi_bar),
                SP.vec(mu_bar),
                sigma2,
                N,
            )
        )
    arrs = [np.asarray(x) for x in (a, b, Gamma, phi, Psi_bar, mu_bar)]
    aa, bb, GG, ff, PP, mm = [
        x.reshape(-1) if i in (0, 1, 3, 5) else x.reshape(x.shape[0] if x.ndim else 1, -1)
        for i, x in enumerate(arrs)
    ]
    return ops.out(ltb_risk_expr(NP, aa, bb, GG, ff, PP, mm, sigma2, N))


@checked
def ltb_risk(
    a: Any, b: Any, Gamma: Any, phi: Any, H: Any, Psi: Any, beta_star: Any, sigma2: Any, N: Any
) -> float:
    r"""ICL risk ``E(f(Z) − y)²`` of the LTB with effective parameters ``(a, b, Γ, φ)`` (★).

    Source: [derived] via the whitening reduction (:func:`~theory.zwb24.sec3_model.whiten`;
    numeric input only).

    >>> round(ltb_risk([1.], [1.], [[0.5]], [0.], [[1.]], [[1.]], [1.], 0.0, 5), 12)  # GD-β, β = β*
    0.35
    """
    Hm, Pm, s2, n, bs = num_setting(H, Psi, sigma2, N, beta_star)
    P, mu = whiten(Hm, Pm, bs)
    aw, bw, Gw, fw = whiten_params(Hm, a, b, Gamma, phi)
    return ltb_risk_whitened(aw, bw, Gw, fw, P, mu, s2, n)


@checked
def lsa_risk(
    b: Any, Gamma: Any, phi: Any, H: Any, Psi: Any, beta_star: Any, sigma2: Any, N: Any
) -> float:
    """ICL risk of the LSA (3.4) = :func:`ltb_risk` with ``a = 0``.

    >>> lsa_risk([0.], [[0.]], [0.], [[1.]], [[1.]], [2.], 0.0, 5)
    5.0
    """
    return ltb_risk(np.zeros(len(np.atleast_1d(b))), b, Gamma, phi, H, Psi, beta_star, sigma2, N)
