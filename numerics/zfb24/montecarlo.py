"""[zfb24] Monte Carlo routes for Figure 1 and §4.3: normalised test errors of least squares and of
a preconditioned one-step predictor on fixed- or random-covariance prompts (sampled, then
applied), the expectation in condition (21), and the coefficient of ŷ on z = x_qᵀΛ_new w."""

from __future__ import annotations

import numpy as np

from numerics.montecarlo import Target, mc_mean, mc_means
from numerics.zfb24.predictors import predictor_predict
from numerics.zfb24.sampling import sample_linear, sample_random_cov
from theory.common.protocols import Estimate

__all__ = [
    "least_squares_risk_mc",
    "random_cov_test_risk",
    "condition21_expectation",
    "random_cov_slope",
]


def least_squares_risk_mc(
    M: int,
    d: int,
    *,
    c: float = 1.0,
    random_cov: bool,
    n: int,
    rng: np.random.Generator,
    target_se: Target = None,
) -> Estimate:
    """MC normalised error (÷ d) of min-norm least squares (noiseless) on length-M prompts.

    Source: [zfb24] Figure 1 (the least-squares curves): 0 for M ≥ d; (d − M)/d below at Λ = I.

    Parameters
    ----------
    M : test prompt length; d : dimension; c : covariance scale; random_cov : Definition 7's
        random Λ_τ = c·diag(Exp(1)) (True) or the fixed Λ = c·I (False); n : number of prompts;
    rng : numpy Generator; target_se : raises the sample for power
        (:func:`numerics.montecarlo.mc_means`)

    Returns
    -------
    Estimate (mean, se, n).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> round(least_squares_risk_mc(3, 2, random_cov=False, n=200, rng=rng).mean, 12)
    0.0
    >>> est = least_squares_risk_mc(1, 2, random_cov=False, n=400, rng=rng)   # (d − M)/d = 1/2
    >>> bool(abs(est.mean - 0.5) < 5 * est.se)
    True
    """

    def draw(r: np.random.Generator, b: int) -> np.ndarray:
        if random_cov:
            X, y, xq, yq, _, _ = sample_random_cov(r, b, M, d, c=c)
        else:
            X, y, xq, yq, _ = sample_linear(r, b, M, c * np.eye(d))
        wh = np.einsum("bdn,bn->bd", np.linalg.pinv(X), y)
        return (np.einsum("bd,bd->b", xq, wh) - yq) ** 2 / d

    return mc_mean(draw, n, rng=rng, batch=2000, target_se=target_se)


def random_cov_test_risk(
    P: np.ndarray, c: float, M: int, n: int, rng: np.random.Generator
) -> Estimate:
    """MC normalised error (÷ d) of ŷ = x_qᵀPĝ on Exp(1)·c random-covariance test prompts.

    Source: [zfb24] §4.3, eq. (23) and Figure 1 (random-covariance test prompts, Definition 7).

    Parameters
    ----------
    P : (d, d) effective matrix
    c : test covariance scale
    M : test prompt length
    n : number of prompts
    rng : numpy Generator

    Returns
    -------
    Estimate (mean, se, n).

    Examples
    --------
    Against the closed form r(δ, c, M) of :func:`theory.zfb24.rdm_test_risk` at P = δI, Exp(1)
    moments (1, 2, 6), d = 2: r = 0.09·6 − 2·0.3·2 + 1 + 0.09·(12 + 2)/4 = 0.655.

    >>> est = random_cov_test_risk(0.3 * np.eye(2), 1.0, 4, 2000, np.random.default_rng(0))
    >>> bool(abs(est.mean - 0.655) < 5 * est.se)
    True
    """
    d = P.shape[0]

    def draw(g: np.random.Generator, b: int) -> np.ndarray:
        X, y, xq, yq, _, _ = sample_random_cov(g, b, M, d, c=c)
        return (predictor_predict(P, X, y, xq) - yq) ** 2 / d

    return mc_mean(draw, n, rng=rng)


def condition21_expectation(d: int, N: int, n: int, rng: np.random.Generator) -> Estimate:
    """MC of ``E[‖Γ_τ‖_op‖Λ_τ‖_F²]`` for ``Λ_τ = diag(Exp(1))`` (the denominator of condition (21)),
    ``Γ_τ = (N+1)/N Λ_τ + trΛ_τ/N I``.

    Source: [zfb24] Theorem 8, condition (21).

    Returns
    -------
    Estimate (mean, se, n).

    Examples
    --------
    d = 1: Γ_τ = (N+2)/N·λ, so the expectation is (N+2)/N·E λ³ = 2·6 at N = 2.

    >>> est = condition21_expectation(1, 2, 4000, np.random.default_rng(0))
    >>> bool(abs(est.mean - 12.0) < 5 * est.se)
    True
    """

    def draw(g: np.random.Generator, b: int) -> np.ndarray:
        lam = g.exponential(1.0, size=(b, d))
        gam = ((N + 1) / N * lam + lam.sum(1, keepdims=True) / N).max(axis=1)
        return gam * (lam**2).sum(axis=1)

    return mc_mean(draw, n, rng=rng)


def random_cov_slope(P: np.ndarray, M: int, n: int, rng: np.random.Generator) -> float:
    """Pooled regression slope of ŷ = x_qᵀPĝ on ``z = x_qᵀΛ_new w`` over fresh Definition-7
    prompts of length M (Exp(1)); the query ``x_q ~ N(0, Λ_new)`` is integrated exactly:
    ``E[ŷz | prompt, w, Λ_new] = ĝᵀPΛ_new²w`` and ``E[z² | w, Λ_new] = wᵀΛ_new³w``.

    Source: [zfb24] §4.3 (the random-trained LSA's coefficient δ on random test covariances).

    Parameters
    ----------
    P : (d, d) effective matrix; M : prompt length; n : number of prompts; rng : numpy Generator

    Examples
    --------
    Since E ĝ = Λ_new w, the slope of P = δI is δ:

    >>> s = random_cov_slope(0.5 * np.eye(2), 8, 4000, np.random.default_rng(0))
    >>> bool(abs(s - 0.5) < 0.05)
    True
    """
    d = P.shape[0]

    def draw(g: np.random.Generator, b: int) -> np.ndarray:
        X, y, _, _, W, lam = sample_random_cov(g, b, M, d)
        gh = np.einsum("bn,bnd->bd", y, X) / M
        return np.stack(
            [np.einsum("bd,de,be->b", gh, P, lam**2 * W), np.einsum("bd,bd->b", lam**3 * W, W)],
            axis=1,
        )

    num, den = mc_means(draw, n, rng=rng)
    return num.mean / den.mean
