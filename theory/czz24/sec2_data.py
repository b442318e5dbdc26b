"""[czz24] §2 data models: task priors, E[w*w*ᵀ], population correlations.

The setting object is :class:`theory.settings.SparseRegressionICL`; this module holds the closed
forms of its moments.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.common.backend import dual
from theory.common.symbols import d as d_sym
from theory.common.symbols import s as s_sym
from theory.czz24.domains import checked
from theory.czz24.settings import SparseRegressionICL

__all__ = [
    "task_second_moment",
    "population_correlation",
    "null_excess_risk",
    "correlation_support",
]


@checked
def task_second_moment(d: Any, s: Any, prior: str = "sign") -> Any:
    r"""``E[w*w*ᵀ] = c I_d`` for the two priors of [czz24] (returns ``c``).

    Source: [czz24] Thm 5.3 (sign prior: ``E[w*w*ᵀ] = I/d``, used in App. F.5–F.6) and Sec. 3 /
    App. B (experimental prior: ``E[wwᵀ] = (s/d) I``).

    .. math:: c_{\rm sign} = \frac{s}{d}\cdot\frac1s = \frac1d, \qquad
        c_{\rm gauss} = \frac{s}{d}\cdot 1 .

    >>> task_second_moment(16, 4, "sign"), task_second_moment(16, 4, "gauss")
    (0.0625, 0.25)
    """
    if sp.Gt(s, d) == sp.true:
        raise ValueError(f"s (sparsity) must be ≤ d = {d} ([czz24] §2), got s = {s}")
    return dual(
        _second_moment_sign if prior == "sign" else _second_moment_gauss, (d_sym, s_sym), (d, s)
    )


def _second_moment_sign(d: Any, s: Any) -> Any:
    """``c = (s/d)·(1/s)`` (each of the s support entries is ±1/√s)."""
    return s / d * (1 / s)


def _second_moment_gauss(d: Any, s: Any) -> Any:
    """``c = (s/d)·1`` (unit Gaussian slab on the s support entries)."""
    return s / d


@checked
def population_correlation(Sigma: Any, w: Any) -> np.ndarray:
    r"""``r = E[x y] = Σ w*``; diagonal Σ: ``r_j = Σ_jj w*_j``.

    Source: [czz24] §4.1 (the population counterpart of ``r̂`` in Eq. (4.1)); ``Sigma`` d×d,
    ``w`` (d,); returns (d,).  With ``Σ = I + ζ𝟙𝟙ᵀ`` (App. G) ``r`` is dense:

    >>> population_correlation(np.diag([2.0, 1.0]), [1.0, -1.0]).tolist()
    [2.0, -1.0]
    >>> population_correlation(np.eye(3) + 0.5, [1.0, 0.0, 0.0]).tolist()
    [1.5, 0.5, 0.5]
    """
    return np.asarray(Sigma, dtype=float) @ np.asarray(w, dtype=float)


@checked
def correlation_support(setting: SparseRegressionICL, w: Any) -> np.ndarray:
    """Boolean mask ``r_j ≠ 0``; equals ``supp(w*)`` for diagonal Σ (not for ``zeta > 0``).

    Source: [czz24] §4.1 (Alg. 1 keeps the coordinates with ``r_j ≠ 0``) and App. G.

    >>> from theory.czz24.settings import SparseRegressionICL
    >>> iso = SparseRegressionICL.isotropic(d=3, s=1, n=10, sigma2=0.0)
    >>> correlation_support(iso, [1.0, 0.0, 0.0]).tolist()
    [True, False, False]
    >>> equi = SparseRegressionICL(d=3, s=1, n=10, sigma2=0.0, zeta=0.5)
    >>> correlation_support(equi, [1.0, 0.0, 0.0]).tolist()
    [True, True, True]
    """
    return population_correlation(setting.Sigma_x_array, w) != 0


@checked
def null_excess_risk(setting: SparseRegressionICL) -> float:
    """Excess risk of ``ŷ = 0``: ``E[w*ᵀΣw*] = c·Tr Σ`` (= E‖w‖² for Σ = I: 1 sign, s gauss).

    >>> null_excess_risk(SparseRegressionICL.isotropic(d=16, s=4, n=10, sigma2=0.0, prior="gauss"))
    4.0
    """
    return setting.task_second_moment * float(np.trace(setting.Sigma_x_array))
