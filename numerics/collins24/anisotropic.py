"""[collins24] the population optimum over diagonal M for a non-isotropic sphere law (a route).

Source: [derived] (U^d_S: x = Sx̃/‖Sx̃‖, S = diag(1, …, d)), §4 Figs. 3-4 (the U^d_S panels).
U^d_S is not of the form Σ^{1/2}U^d, so Lemma B.5 (M* = ωΣ⁻¹) is not claimed for it; the law is
invariant under the coordinate reflections x_j → −x_j and so are the isotropic task classes, hence
𝓛(DMD) = 𝓛(M) for every diagonal sign matrix D and the optimum is sought among diagonal M
(an assumption of this route, recorded; the trained M's off-diagonal part is measured).

:func:`optimal_diag_M` minimises the Monte Carlo risk of the literal softmax predictor over
M = diag(m) on one fixed sample of prompts (common random numbers) with L-BFGS-B and the exact
pathwise gradient ∂ŷ/∂m_k = Σ_i π_i (y_i − ŷ) x_ik x_k; its standard error comes from re-running
the minimisation on independent batches.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import optimize

from numerics.collins24.sampling import sample_prompts
from theory.collins24.settings import SoftmaxWindowSetting
from theory.settings import check_int

__all__ = ["diag_risk_and_grad", "optimal_diag_M", "DiagOptimum"]


def diag_risk_and_grad(
    m: np.ndarray, X: np.ndarray, y: np.ndarray, xq: np.ndarray, fq: np.ndarray
) -> tuple[float, np.ndarray]:
    """Mean squared error of Σ_i y_i softmax_i(x_iᵀ diag(m) x_q) and its gradient in m.

    Parameters
    ----------
    m : (d,) diagonal of M; X : (B, n, d); y : (B, n); xq : (B, d); fq : (B,) targets

    Returns
    -------
    (risk float, gradient (d,)).

    Examples
    --------
    The pathwise gradient against a central difference:

    >>> from numerics.collins24.sampling import sample_prompts
    >>> from theory.collins24.settings import SoftmaxWindowSetting
    >>> p = sample_prompts(SoftmaxWindowSetting.isotropic(d=3, n=5), 50, np.random.default_rng(0))
    >>> m, e = np.array([1.0, 2.0, 0.5]), np.array([0.0, 1e-6, 0.0])
    >>> r, g = diag_risk_and_grad(m, p.X, p.y, p.xq, p.fq)
    >>> fd = (diag_risk_and_grad(m + e, p.X, p.y, p.xq, p.fq)[0]
    ...       - diag_risk_and_grad(m - e, p.X, p.y, p.xq, p.fq)[0]) / 2e-6
    >>> bool(np.isclose(g[1], fd, rtol=1e-5))
    True
    """
    logits = np.einsum("bnd,d,bd->bn", X, m, xq)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    yhat = np.sum(p * y, axis=1)
    r = yhat - fq
    dy = np.einsum("bn,bnd,bd->bd", p * (y - yhat[:, None]), X, xq)
    return float(np.mean(r * r)), 2.0 * np.mean(r[:, None] * dy, axis=0)


class DiagOptimum:
    """``m`` (the diagonal of the optimum), ``se`` (per entry, from ``batches`` re-runs),
    ``risk`` (MC risk at ``m`` on the full sample) and ``iso`` (the best M = ωI on the same
    prompts: ω and its risk).

    >>> r = DiagOptimum(np.array([6.0, 6.5]), np.array([0.2, 0.3]), 0.02, (6.2, 0.021))
    >>> r.m.shape, r.se.shape, r.risk <= r.iso[1]
    ((2,), (2,), True)
    """

    def __init__(self, m: np.ndarray, se: np.ndarray, risk: float, iso: tuple[float, float]):
        self.m, self.se, self.risk, self.iso = m, se, risk, iso


def _minimise(
    X: np.ndarray, y: np.ndarray, xq: np.ndarray, fq: np.ndarray, m0: np.ndarray
) -> np.ndarray:
    res: Any = optimize.minimize(
        diag_risk_and_grad,
        m0,
        args=(X, y, xq, fq),
        jac=True,
        method="L-BFGS-B",
        options={"gtol": 1e-10, "maxiter": 500},
    )
    return np.asarray(res.x, dtype=float)


def optimal_diag_M(
    setting: SoftmaxWindowSetting, reps: int, rng: np.random.Generator, *, batches: int = 4
) -> DiagOptimum:
    """argmin over M = diag(m) of the MC risk on ``reps`` common prompts (see the module doc).

    Returns
    -------
    :class:`DiagOptimum` (``m`` (d,), ``se`` (d,), ``risk``, ``iso``).

    Examples
    --------
    On the isotropic law U^d the optimum is isotropic ([collins24] Lemma B.5 with Σ = I:
    M* = ωI): the two diagonal entries agree within 5 combined se, and the diagonal search
    (started at the best ωI) ends no worse than it:

    >>> from theory.collins24.settings import SoftmaxWindowSetting
    >>> s = SoftmaxWindowSetting.isotropic(d=2, n=10, sigma2=0.01)
    >>> r = optimal_diag_M(s, 200, np.random.default_rng(2), batches=2)
    >>> bool(abs(r.m[0] - r.m[1]) < 5 * np.hypot(*r.se)), r.risk <= r.iso[1]
    (True, True)
    """
    reps = check_int("reps", reps, minimum=100 * batches)
    p = sample_prompts(setting, reps, rng)
    d = setting.d

    def iso_risk(w: float) -> float:
        return diag_risk_and_grad(np.full(d, w), p.X, p.y, p.xq, p.fq)[0]

    r_iso: Any = optimize.minimize_scalar(
        lambda t: iso_risk(math.exp(t)),
        bounds=(-4.0, 5.0),
        method="bounded",
        options={"xatol": 1e-6},
    )
    w_iso = float(math.exp(r_iso.x))
    m = _minimise(p.X, p.y, p.xq, p.fq, np.full(d, w_iso))
    parts = np.array_split(np.arange(reps), batches)
    ms = np.array([_minimise(p.X[i], p.y[i], p.xq[i], p.fq[i], m) for i in parts])
    se = ms.std(axis=0, ddof=1) / math.sqrt(batches)
    return DiagOptimum(
        m, se, diag_risk_and_grad(m, p.X, p.y, p.xq, p.fq)[0], (w_iso, float(r_iso.fun))
    )
