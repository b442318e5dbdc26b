"""[collins24] the public optimum ω* of M = ωI (a route; the issue's public API).

:func:`optimal_scale` ``(d, n, L, sigma2, task="affine", *, rng=None)``:

* ``task="affine"``: ``(ω*, 𝓛*)`` as floats, by the exact quadrature and bounded Brent on log ω
  (located to 1e-5 relative; the minimum is flat);
* ``task="relu"``, ``"cos"`` or ``"hills"`` (Fig. 1, d = 2): ``(Estimate, Estimate)`` by Monte
  Carlo with common random
  numbers over a log-ω grid, a cubic spline of log 𝓛 in log ω and its argmin; the
  standard errors come from independent batches.  Needs ``rng``.

𝓛 is the paper's loss against the noiseless target, without query noise.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import interpolate, optimize

from numerics.collins24.quadrature import optimal_scale_affine
from numerics.collins24.sampling import sample_prompts
from numerics.montecarlo import estimate_from_samples
from theory.collins24.settings import SoftmaxWindowSetting
from theory.common.protocols import Estimate
from theory.settings import check_choice, check_int, check_real

__all__ = [
    "optimal_scale",
    "mc_risk_curve",
    "spline_argmin",
    "linear_attention_best_mc",
    "fig1_errors",
]


def mc_risk_curve(
    setting: SoftmaxWindowSetting,
    omegas: np.ndarray,
    reps: int,
    rng: np.random.Generator,
    *,
    chunk: int = 5000,
) -> np.ndarray:
    """Per-prompt squared errors (reps, len(omegas)) at M = ωI on common prompts (the literal
    softmax predictor with the logits x_iᵀx_q computed once per prompt).

    Source: [collins24] §2 (softmax attention with M = ωI on the sphere).

    Parameters
    ----------
    setting : SoftmaxWindowSetting; omegas : (k,) scales ω ≥ 0; reps : number of prompts;
    rng : numpy Generator

    Returns
    -------
    (reps, k) per-prompt squared errors.

    Examples
    --------
    The column mean is the affine risk (L²/(3d))A(ω) + σ²N(ω) of App. B.1 (by quadrature here):

    >>> from numerics.collins24.quadrature import affine_risk_quad
    >>> from theory.collins24.settings import SoftmaxWindowSetting
    >>> s = SoftmaxWindowSetting.isotropic(d=3, n=5, L=1.0, sigma2=0.1)
    >>> err = mc_risk_curve(s, np.array([0.5, 2.0]), 2000, np.random.default_rng(0))
    >>> err.shape
    (2000, 2)
    >>> se = err[:, 1].std() / np.sqrt(2000)
    >>> bool(abs(err[:, 1].mean() - affine_risk_quad(2.0, 3, 5, 1.0, 0.1)) < 5 * se)
    True
    """
    out = []
    done = 0
    while done < reps:
        B = min(chunk, reps - done)
        p = sample_prompts(setting, B, rng)
        t = np.einsum("bnd,bd->bn", p.X, p.xq)
        t = t - t.max(axis=1, keepdims=True)
        cols = []
        for w in omegas:
            e = np.exp(float(w) * t)
            cols.append((np.sum(e * p.y, axis=1) / np.sum(e, axis=1) - p.fq) ** 2)
        out.append(np.stack(cols, axis=1))
        done += B
    return np.concatenate(out)


def spline_argmin(omegas: np.ndarray, risks: np.ndarray) -> tuple[float, float]:
    """Argmin and minimum of a cubic spline of log 𝓛 in log ω (grid edge if the minimum is
    there).

    Examples
    --------
    >>> w = np.geomspace(0.1, 10.0, 9)
    >>> x, r = spline_argmin(w, 1.0 + np.log(w) ** 2)          # minimum 1 at ω = 1
    >>> round(x, 3), round(r, 3)
    (1.0, 1.0)
    """
    lw, lr = np.log(omegas), np.log(risks)
    sp = interpolate.CubicSpline(lw, lr)
    i = int(np.argmin(lr))
    if i in (0, len(lw) - 1):
        return float(omegas[i]), float(risks[i])
    res: Any = optimize.minimize_scalar(
        lambda t: float(sp(t)),
        bounds=(lw[i - 1], lw[i + 1]),
        method="bounded",
        options={"xatol": 1e-6},
    )
    return float(math.exp(res.x)), float(math.exp(res.fun))


def optimal_scale(
    d: int,
    n: int,
    L: float,
    sigma2: float,
    task: str = "affine",
    *,
    rng: np.random.Generator | None = None,
    reps: int = 40_000,
    batches: int = 5,
    omegas: np.ndarray | None = None,
) -> tuple[float, float] | tuple[Estimate, Estimate]:
    """ω* of M = ωI on the unit sphere (logits ω·x_iᵀx_q) and the loss 𝓛* there.

    Source: [collins24] Theorem 3.4; the exact risk by quadrature (affine) or MC (ReLU, cosine).

    >>> w, loss = optimal_scale(5, 20, 1.0, 0.01**2)
    >>> round(w, 3), round(loss, 5)
    (6.681, 0.01795)
    """
    check_int("d", d, minimum=2, paper="[collins24] x ∈ S^(d-1)")
    check_int("n", n, minimum=1)
    check_real("L", L, lower=0.0, paper="Lipschitz constant L ≥ 0")
    check_real("sigma2", sigma2, lower=0.0, paper="noise variance σ² ≥ 0")
    check_choice("task", task, ("affine", "relu", "cos", "hills"))
    if task == "affine":
        return optimal_scale_affine(int(d), int(n), float(L), float(sigma2))
    if rng is None:
        raise ValueError(f"rng must be a numpy Generator for task={task!r} (Monte Carlo)")
    setting = SoftmaxWindowSetting.isotropic(d=d, n=n, L=L, sigma2=sigma2, task=task)
    omegas = np.geomspace(0.05, 60.0, 36) if omegas is None else np.asarray(omegas, float)
    err = mc_risk_curve(setting, omegas, reps, rng)
    w_all, r_all = spline_argmin(omegas, err.mean(axis=0))
    parts = np.array_split(err, batches)
    wb = np.array([spline_argmin(omegas, p.mean(axis=0))[0] for p in parts])
    se_w = float(np.std(wb, ddof=1) / math.sqrt(batches))
    r_se = estimate_from_samples(err[:, int(np.argmin(np.abs(omegas - w_all)))]).se
    return Estimate(w_all, se_w, reps), Estimate(r_all, r_se, reps)


def linear_attention_best_mc(
    setting: SoftmaxWindowSetting, reps: int, rng: np.random.Generator
) -> Estimate:
    """min_m E(m Σ_i y_i x_iᵀx_q − f(x_q))² = c − b²/a from MC moments a = E S², b = E S f,
    c = E f² (S = Σ y_i x_iᵀx_q; M = mI is optimal by rotation invariance); se by the delta
    method on the per-prompt residual at the plug-in m.

    Source: [collins24] Theorem 3.6 (linear attention's optimum over M = mI).

    Returns
    -------
    Estimate (mean, se, n).

    Examples
    --------
    Against Theorem 3.6's exact optimum 0.37279 at d = 5, n = 20, L = 1, σ = 0.01
    (:func:`theory.collins24.la_optimum`), above the theorem's floor L²/3:

    >>> from theory.collins24.settings import SoftmaxWindowSetting
    >>> s = SoftmaxWindowSetting.isotropic(d=5, n=20, L=1.0, sigma2=1e-4)
    >>> est = linear_attention_best_mc(s, 4000, np.random.default_rng(0))
    >>> bool(abs(est.mean - 0.37279) < 5 * est.se), bool(est.mean > 1 / 3)
    (True, True)
    """
    p = sample_prompts(setting, reps, rng)
    S = np.sum(p.y * np.einsum("bnd,bd->bn", p.X, p.xq), axis=1)
    m = float(np.mean(S * p.fq) / np.mean(S * S))
    return estimate_from_samples((m * S - p.fq) ** 2)


def fig1_errors(
    nu: float, n: int, sigma2: float, rng: np.random.Generator, *, reps: int = 10_000
) -> tuple[Estimate, Estimate, float]:
    """Fig. 1 (bottom row) at one point of the hills class f = cos(νθ − b), d = 2: the softmax
    optimum (MC + spline over ω ∈ [0.05, 400]), the best linear attention (MC), and ω*.

    Source: [collins24] Figure 1 (bottom row): softmax attention adapts to the task's frequency,
    linear attention cannot.

    Returns
    -------
    (softmax optimum Estimate, best linear attention Estimate, ω*).

    Examples
    --------
    At frequency ν = 2 linear attention stays near E f² = ½, the softmax unit well below:

    >>> sm, la, w = fig1_errors(2.0, 20, 0.01, np.random.default_rng(0), reps=400)
    >>> bool(sm.mean < 0.5 * la.mean), w > 1.0
    (True, True)
    """
    w, loss = optimal_scale(
        2, n, nu, sigma2, "hills", rng=rng, reps=reps, omegas=np.geomspace(0.05, 400.0, 30)
    )
    assert isinstance(w, Estimate) and isinstance(loss, Estimate)
    st = SoftmaxWindowSetting.isotropic(d=2, n=n, L=nu, sigma2=sigma2, task="hills")
    return loss, linear_attention_best_mc(st, 2 * reps, rng), w.mean
