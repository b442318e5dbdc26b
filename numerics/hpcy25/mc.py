"""hpcy25 Monte Carlo routes: sample covariates, apply the predictor, integrate β and noise exactly
(:func:`~numerics.hpcy25.predictors.conditional_risk`), average.  No theory risk function
is called here; predictions are compared in the ``checks_*`` modules (z = 5, power se ≤ 2 %)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from numerics.hpcy25.predictors import (
    conditional_risk,
    dgd_weights,
    sample_covariates,
    softmax,
    tf_weights,
)
from numerics.montecarlo import Target, mc_means
from theory.common.protocols import Estimate

__all__ = [
    "WeightFn",
    "Grid",
    "prior_var",
    "risk_mc",
    "ltilde_landscape_mc",
    "tf_dgd_errors",
    "single_head_curve",
    "pair_step_optimum",
    "scale_step_optimum",
]


WeightFn = Callable[[np.ndarray, np.ndarray], np.ndarray]
#: A grid of parameter values (a sequence or a 1-D array).
Grid = Sequence[float] | np.ndarray


def prior_var(d: int, task_var: float | None) -> float:
    """The task prior's variance τ²: ``1/d`` ([hpcy25] §2: ``β ~ N(0, I/d)``) unless given.

    >>> prior_var(4, None), prior_var(4, 0.5)
    (0.25, 0.5)
    """
    return 1.0 / d if task_var is None else float(task_var)


def risk_mc(
    weight_fns: Sequence[WeightFn],
    *,
    d: int,
    L: int,
    sigma2: float,
    n: int,
    rng: np.random.Generator,
    task_var: float | None = None,
    Sigma: np.ndarray | None = None,
    batch: int = 4096,
    target_se: Target = None,
) -> tuple[Estimate, ...]:
    """MC risks of label-linear predictors on the same sampled covariates (common random numbers).

    ``weight_fns[j](X, x_q) -> w`` (B, L); β ~ N(0, τ² I) (τ² = 1/d unless ``task_var``), noise σ².
    ``target_se`` (one per predictor, or one for all, or a function of the running means) raises
    the sample, on the same stream, up to ``MAX_RAISE`` times ``n`` while an estimate misses it
    (:func:`numerics.montecarlo.mc_means`): a check passes ``MC_POWER`` times the predicted risk.

    Examples
    --------
    Debiased and vanilla one-step GD at η = 0.8 on the same 400 prompts (``Estimate`` fields
    ``mean``, ``se``, ``n``); each agrees with its closed form (D.25)–(D.29), (4.11) within 5 se:

    >>> import theory.hpcy25 as th
    >>> from numerics.hpcy25.predictors import dgd_weights, gd_weights
    >>> dgd, gd = risk_mc(
    ...     [lambda X, xq: dgd_weights(X, xq, 0.8), lambda X, xq: gd_weights(X, xq, 0.8)],
    ...     d=2, L=8, sigma2=0.1, n=400, rng=np.random.default_rng(0),
    ... )
    >>> bool(abs(dgd.mean - th.dgd_risk(0.8, 2, 8, 0.1)) < 5 * dgd.se), dgd.n
    (True, 400)
    >>> bool(abs(gd.mean - th.gd_risk(0.8, 2, 8, 0.1)) < 5 * gd.se)
    True
    """
    tau2 = prior_var(d, task_var)

    def draw(r: np.random.Generator, b: int) -> np.ndarray:
        X, xq = sample_covariates(r, b, L, d, Sigma)
        return np.stack(
            [conditional_risk(X, xq, f(X, xq), task_var=tau2, sigma2=sigma2) for f in weight_fns],
            axis=1,
        )

    return mc_means(draw, n, rng=rng, batch=batch, target_se=target_se)


def ltilde_landscape_mc(
    omegas: Grid,
    mus: Grid,
    *,
    d: int,
    L: int,
    sigma2: float,
    n: int,
    rng: np.random.Generator,
    task_var: float | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """True two-head risk of the symmetric pair ``(ω, μ), (−ω, −μ)`` on a grid: (mean, se) arrays
    of shape (len(omegas), len(mus)).  The risk is quadratic in μ, so one pass per ω suffices.

    Source: the true loss that [hpcy25] Prop. 4.1 approximates (Fig. 6's landscape).  At ``μ = 0``
    the model predicts 0 and the risk is ``τ² E‖x_q‖² + σ² = 1 + σ²``:

    >>> mean, se = ltilde_landscape_mc(
    ...     [0.2], [0.0], d=5, L=40, sigma2=0.1, n=300, rng=np.random.default_rng(0)
    ... )
    >>> mean.shape, bool(abs(mean[0, 0] - 1.1) < 5 * se[0, 0])
    ((1, 1), True)
    """
    tau2 = prior_var(d, task_var)
    mu_grid = np.asarray(mus, dtype=float)
    mean = np.zeros((len(omegas), len(mu_grid)))
    se = np.zeros_like(mean)
    X, xq = sample_covariates(rng, n, L, d)
    base = np.einsum("bld,bd->bl", X, xq)
    for i, om in enumerate(omegas):
        u = softmax(om * base) - softmax(-om * base)  # (n, L) label weights per unit μ
        a = np.einsum("bl,bld->bd", u, X)
        A0 = tau2 * np.einsum("bd,bd->b", xq, xq) + sigma2
        A1 = -2 * tau2 * np.einsum("bd,bd->b", xq, a)
        A2 = tau2 * np.einsum("bd,bd->b", a, a) + sigma2 * np.einsum("bl,bl->b", u, u)
        vals = A0[:, None] + A1[:, None] * mu_grid + A2[:, None] * mu_grid**2  # (n, n_mu)
        mean[i] = vals.mean(axis=0)
        se[i] = vals.std(axis=0, ddof=1) / math.sqrt(n)
    return mean, se


def tf_dgd_errors(
    omegas: Grid,
    *,
    eta: float,
    d: int,
    L: int,
    sigma2: float,
    n: int,
    rng: np.random.Generator,
    dgd_eta: float | None = None,
) -> np.ndarray:
    """Mean ``|TF − DGD_η|`` over ``n`` prompts for the symmetric pair with ``2ω μ = η``.

    Source: [hpcy25] Thm 4.2(i) (the pair tends to debiased GD as ω → 0); [derived] the gap is
    ``O(ω²)``, so halving ω divides it by about 4 (same prompts for every ω):

    >>> err = tf_dgd_errors(
    ...     [0.1, 0.05], eta=0.88, d=5, L=40, sigma2=0.1, n=200, rng=np.random.default_rng(0)
    ... )
    >>> bool(3.5 < err[0] / err[1] < 4.5)
    True
    """
    X, xq = sample_covariates(rng, n, L, d)
    beta = rng.standard_normal((n, d)) / math.sqrt(d)
    y = np.einsum("bld,bd->bl", X, beta) + math.sqrt(sigma2) * rng.standard_normal((n, L))
    dgd = np.einsum("bl,bl->b", dgd_weights(X, xq, eta if dgd_eta is None else dgd_eta), y)
    out = []
    for om in omegas:
        mu = eta / (2 * om)
        tf = np.einsum("bl,bl->b", tf_weights(X, xq, [om, -om], [mu, -mu]), y)
        out.append(np.abs(tf - dgd).mean())
    return np.asarray(out)


def single_head_curve(
    omegas: Grid, *, d: int, L: int, sigma2: float, n: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Exact single-head risk, optimised over μ, on an ω grid (MC): (risk, mu_opt) arrays, each
    ``(len(omegas),)``.

    Source: one head of [hpcy25] Observation 1's pattern (eq. (3.2)), ``ŷ = μ softmax(ωXx_q)ᵀy``
    in units of ``E(ŷ − y_q)²``; β ~ N(0, I/d) and the noise are integrated exactly given the
    covariates.  At ``ω = 0`` the head averages the labels, uncorrelated with ``y_q``: ``μ* → 0``
    and the risk is the trivial ``E y_q² = 1 + σ²`` (within 5 se ``√(2/(d n))``):

    >>> r, m = single_head_curve([0.0, 0.5], d=2, L=4, sigma2=0.25, n=2000,
    ...                          rng=np.random.default_rng(0))
    >>> r.shape, bool(abs(r[0] - 1.25) < 5 * np.sqrt(2 / (2 * 2000))), bool(abs(m[0]) < 0.1)
    ((2,), True, True)
    >>> bool(r[1] < r[0])                                    # a sharper head helps
    True
    """
    tau2 = 1.0 / d
    X, xq = sample_covariates(rng, n, L, d)
    base = np.einsum("bld,bd->bl", X, xq)
    A0 = (tau2 * np.einsum("bd,bd->b", xq, xq) + sigma2).mean()
    risk, mopt = [], []
    for om in omegas:
        p = softmax(om * base)
        a = np.einsum("bl,bld->bd", p, X)
        A1 = (-2 * tau2 * np.einsum("bd,bd->b", xq, a)).mean()
        A2 = (tau2 * np.einsum("bd,bd->b", a, a) + sigma2 * np.einsum("bl,bl->b", p, p)).mean()
        mopt.append(-A1 / (2 * A2))
        risk.append(A0 - A1**2 / (4 * A2))
    return np.asarray(risk), np.asarray(mopt)


def scale_step_optimum(
    omega: Sequence[float] | np.ndarray,
    mu: Sequence[float] | np.ndarray,
    *,
    d: int,
    L: int,
    sigma2: float,
    n: int,
    rng: np.random.Generator,
    batch: int = 4096,
) -> tuple[Estimate, Estimate]:
    """Exact-population-risk optimum of the OV scale of H reparametrised heads ``(ω_h, μ_h)``
    (derived, the finite-ω counterpart of the Stage-I stationarity (4.3)): ``s* = argmin_s
    E(y_q − s kᵀy)²`` with ``k = Σ_h μ_h softmax(ω_h X x_q)``, i.e. ``s* = E[y_q kᵀy]/E[(kᵀy)²]``;
    returns ``(s*, s*⟨ω, μ⟩)`` (the effective step ⟨ω, μ⟩ at the optimal scale).  β (~ N(0, I/d))
    and the noise are integrated exactly given the covariates (Rao–Blackwell):
    ``E[y_q kᵀy | X, x_q] = x_qᵀXᵀk/d``, ``E[(kᵀy)² | X, x_q] = ‖Xᵀk‖²/d + σ²‖k‖²``; the covariates
    are sampled (``n`` prompts).  For the ± pair ``(ω, −ω), (1, −1)`` the step tends to ``1/κ`` as
    ``ω → 0`` ((D.24): Prop. 4.1 is exact at ω = 0).  Standard errors: the ratio estimator's
    (delta method).  No theory function is called.

    ``omega, mu``: ``(H,)`` each → ``(Estimate(s*), Estimate(s*⟨ω, μ⟩))``.  At ω = 0.01 the ±
    pair's step is the stationary ``1/κ`` of (4.3) within 5 se, and doubling ``μ`` halves ``s*``
    (same draws):

    >>> import theory.hpcy25 as th
    >>> kw = dict(d=5, L=40, sigma2=0.1, n=400)
    >>> s1, step = scale_step_optimum([0.01, -0.01], [1, -1], rng=np.random.default_rng(0), **kw)
    >>> bool(abs(step.mean - 1 / th.kappa(5, 40, 0.1)) < 5 * step.se)
    True
    >>> s2, _ = scale_step_optimum([0.01, -0.01], [2, -2], rng=np.random.default_rng(0), **kw)
    >>> bool(np.isclose(s2.mean, s1.mean / 2))
    True
    """
    om = np.atleast_1d(np.asarray(omega, dtype=float))
    m_ = np.atleast_1d(np.asarray(mu, dtype=float))
    if om.shape != m_.shape or not (np.all(np.isfinite(om)) and np.all(np.isfinite(m_))):
        raise ValueError(
            f"omega = {omega!r}, mu = {mu!r}: one finite (omega_h, mu_h) per head "
            "([hpcy25] §4.1 reparametrisation)"
        )
    inner = float(om @ m_)
    if inner == 0.0:
        raise ValueError(
            f"<omega, mu> = 0 for omega = {omega!r}, mu = {mu!r}: the effective step "
            "of the heads is 0 ([hpcy25] (4.3))"
        )
    tau2 = 1.0 / d

    def draw(r: np.random.Generator, b: int) -> np.ndarray:
        X, xq = sample_covariates(r, b, L, d)
        k = tf_weights(X, xq, om, m_)  # (b, L) label weights per unit scale
        a = np.einsum("bl,bld->bd", k, X)
        num = tau2 * np.einsum("bd,bd->b", xq, a)
        den = tau2 * np.einsum("bd,bd->b", a, a) + sigma2 * np.einsum("bl,bl->b", k, k)
        return np.stack([num, den, num * num, den * den, num * den], axis=1)

    e = mc_means(draw, n, rng=rng, batch=batch)
    m1, m2 = e[0].mean, e[1].mean
    s_ = m1 / m2
    var = (e[2].mean - m1**2) - 2 * s_ * (e[4].mean - m1 * m2) + s_**2 * (e[3].mean - m2**2)
    se = math.sqrt(max(var, 0.0) / n) / abs(m2)
    return Estimate(s_, se, n), Estimate(s_ * inner, se * abs(inner), n)


def pair_step_optimum(
    omega: float,
    *,
    d: int,
    L: int,
    sigma2: float,
    n: int,
    rng: np.random.Generator,
    batch: int = 4096,
) -> Estimate:
    """:func:`scale_step_optimum` of the ± pair ``(ω, −ω), (1, −1)``: ``η_ex(ω) = 2ω m_ex(ω)``,
    ``m_ex(ω) = argmin_m E(y_q − m kᵀy)²``, ``k = softmax(ωXx_q) − softmax(−ωXx_q)`` (derived,
    the exact-loss counterpart of (4.6)'s ``2ω m*(ω)``; tends to 1/κ as ω → 0, (D.24)).

    Examples
    --------
    At small ω the optimal step is the stationary value ``1/κ = 40/45.5 ≈ 0.879`` of (4.3):

    >>> import theory.hpcy25 as th
    >>> est = pair_step_optimum(0.01, d=5, L=40, sigma2=0.1, n=400, rng=np.random.default_rng(0))
    >>> bool(abs(est.mean - 1 / th.kappa(5, 40, 0.1)) < 5 * est.se)
    True
    """
    w = float(omega)
    if not math.isfinite(w) or w <= 0:
        raise ValueError(
            f"omega = {omega!r}: the pair's kernel scale is a finite real > 0 ([hpcy25] (4.6))"
        )
    return scale_step_optimum(
        [w, -w], [1.0, -1.0], d=d, L=L, sigma2=sigma2, n=n, rng=rng, batch=batch
    )[1]
