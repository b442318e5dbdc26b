"""[czz24] App. D Eqs. (D.1)–(D.3): the error decomposition of pre-GD, corrected [derived].

With ``R̄ = diag(1{j∈S}/r̂_j)`` (so ``X̃R̄w* = Xw*``) and ``y = Xw* + ε``:

* corrected D.1: ``w̃^t − R̄w* = −(I − ηĜ)^t R̄w* + (η/n) Σ_{k<t}(I − ηĜ)^k X̃ᵀε``;
* the paper's D.1 prints the noise term without ``η``;
* the paper's D.3 writes ``E(w̃^t) = Bias + Variance``; the cross term does not vanish (R̂ depends
  on ε), and the exact statement is ``E ≤ 2(Bias + Variance)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from theory.common.backend import psd_sqrt
from theory.czz24.domains import checked
from theory.czz24.sec4_2_pregd import pregd_gram

__all__ = ["DECOMPOSITION_VARIANTS", "error_decomposition", "excess_from_parts"]

#: ``"corrected"`` (spec §6 item 8) or ``"paper"`` (the printed D.1: noise term without η).
DECOMPOSITION_VARIANTS = ("corrected", "paper")


@checked
def error_decomposition(
    X: Any, w: Any, eps: Any, eta: float, t: int, *, variant: str = "corrected"
) -> dict[str, np.ndarray]:
    r"""Bias and noise vectors of ``w̃^t − R̄w*`` for one context.

    Source: [czz24] App. D, Eq. (D.1) (corrected).

    .. math:: \tilde w^t - \bar R w^* = \underbrace{-(I-\eta\hat G)^t\bar R w^*}_{\rm bias}
        + \underbrace{\tfrac{\eta}{n}\textstyle\sum_{k<t}(I-\eta\hat G)^k\tilde X^\top
        \varepsilon}_{\rm noise}.

    Parameters
    ----------
    X : n×d context;  w : w* (d,);  eps : noise (n,), ``y = Xw* + ε``;  eta, t : step and steps
    variant : ``"corrected"`` or ``"paper"`` (the printed D.1, whose noise term lacks ``η``)

    Returns
    -------
    dict with ``bias``, ``noise`` (d,), ``Rbar_w`` (``R̄w*``) and ``rhat``.

    Notes
    -----
    Needs ``r̂_j ≠ 0`` on the support (true almost surely).

    Examples
    --------
    Bias + noise + ``R̄w*`` rebuilds the pre-GD iterate ``w̃^t`` of Eq. (4.3):

    >>> from theory.czz24 import pregd_iterate
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> w, eps = np.array([1.0, 0.0]), np.array([0.1, -0.2, 0.05])
    >>> p = error_decomposition(X, w, eps, 0.5, 3)
    >>> np.allclose(p["bias"] + p["noise"] + p["Rbar_w"], pregd_iterate(X, X @ w + eps, 0.5, 3))
    True
    """
    eta, t = float(eta), int(t)
    X = np.asarray(X, dtype=float)
    w, eps = np.asarray(w, dtype=float), np.asarray(eps, dtype=float)
    n, d = X.shape
    if w.shape != (d,) or eps.shape != (n,):
        raise ValueError(
            f"w* must be a vector of length d = {d} and ε one of length n = {n} "
            f"(y = Xw* + ε, [czz24] Eq. 4.1), got shapes {w.shape} and {eps.shape}"
        )
    y = X @ w + eps
    G, _, r = pregd_gram(X, y)
    S = w != 0
    if np.any(r[S] == 0):
        raise ValueError("r̂_j = 0 on the support: R̄ is undefined ([czz24] App. D)")
    Rbar_w = np.where(S, w / np.where(S, r, 1.0), 0.0)
    A = np.eye(d) - eta * G
    At = np.linalg.matrix_power(A, t)
    Xt_eps = (X * r[None, :]).T @ eps / n
    acc, P = np.zeros(d), np.eye(d)
    for _ in range(t):
        acc += P @ Xt_eps
        P = A @ P
    scale = eta if variant == "corrected" else 1.0
    return {"bias": -At @ Rbar_w, "noise": scale * acc, "Rbar_w": Rbar_w, "rhat": r}


@checked
def excess_from_parts(parts: dict[str, np.ndarray], Sigma: Any) -> dict[str, float]:
    r"""``E = ‖Σ^{1/2}R̂(bias + noise)‖²``, ``Bias = ‖Σ^{1/2}R̂ bias‖²``,
    ``Var = ‖Σ^{1/2}R̂ noise‖²`` and the cross term ``E − Bias − Var``.

    Source: [czz24] App. D, Eqs. (D.2)–(D.3); the paper drops the cross term, which does not
    vanish (``R̂`` depends on ``ε``), so the exact statement is ``E ≤ 2(Bias + Variance)``.

    Parameters
    ----------
    parts : the output of :func:`error_decomposition`;  Sigma : Σ (d×d, PSD)

    Returns
    -------
    dict of floats ``excess``, ``bias``, ``variance``, ``cross``.

    Examples
    --------
    Since ``R̂R̄w* = w*``, ``excess`` is the excess risk ``‖Σ^{1/2}(R̂w̃^t − w*)‖²`` of pre-GD:

    >>> from theory.czz24 import pregd_coefficient
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> w, eps = np.array([1.0, 0.0]), np.array([0.1, -0.2, 0.05])
    >>> e = excess_from_parts(error_decomposition(X, w, eps, 0.5, 3), np.eye(2))
    >>> coef = pregd_coefficient(X, X @ w + eps, 0.5, 3)
    >>> bool(np.isclose(e["excess"], np.sum((coef - w) ** 2)))
    True
    >>> e["excess"] <= 2 * (e["bias"] + e["variance"])
    True
    """
    S12 = psd_sqrt(np.asarray(Sigma, dtype=float))
    vec: dict[str, np.ndarray] = {}
    for key in ("bias", "noise", "rhat"):
        v = np.asarray(parts.get(key, np.nan), dtype=float)
        if v.shape != (S12.shape[0],) or not np.isfinite(v).all():
            raise ValueError(
                f"parts[{key!r}] must be a finite vector of length d = "
                f"{S12.shape[0]} (error_decomposition's output), got {v!r}"[:300]
            )
        vec[key] = v
    r = vec["rhat"]
    b, v = S12 @ (r * vec["bias"]), S12 @ (r * vec["noise"])
    E, B, V = float(np.sum((b + v) ** 2)), float(b @ b), float(v @ v)
    return {"excess": E, "bias": B, "variance": V, "cross": E - B - V}
