"""[zfb24] Monte Carlo routes for Figure 1: normalised test errors of least squares and of a
preconditioned one-step predictor on fixed- or random-covariance prompts (sampled, then applied)."""

from __future__ import annotations

import numpy as np

from numerics.lsa_flow.predictors import predictor_predict
from numerics.lsa_flow.sampling import sample_linear, sample_random_cov
from numerics.montecarlo import mc_mean
from theory.common.protocols import Estimate

__all__ = ["least_squares_risk_mc", "random_cov_test_risk"]


def least_squares_risk_mc(
    M: int, d: int, *, c: float = 1.0, random_cov: bool, n: int, rng: np.random.Generator
) -> Estimate:
    """MC normalised error (÷ d) of min-norm least squares (noiseless) on length-M prompts."""

    def draw(r: np.random.Generator, b: int) -> np.ndarray:
        if random_cov:
            X, y, xq, yq, _, _ = sample_random_cov(r, b, M, d, c=c)
        else:
            X, y, xq, yq, _ = sample_linear(r, b, M, c * np.eye(d))
        wh = np.einsum("bdn,bn->bd", np.linalg.pinv(X), y)
        return (np.einsum("bd,bd->b", xq, wh) - yq) ** 2 / d

    return mc_mean(draw, n, rng=rng, batch=2000)


def random_cov_test_risk(
    P: np.ndarray, c: float, M: int, n: int, rng: np.random.Generator
) -> Estimate:
    """MC normalised error (÷ d) of ŷ = x_qᵀPĝ on Exp(1)·c random-covariance test prompts."""
    d = P.shape[0]

    def draw(g: np.random.Generator, b: int) -> np.ndarray:
        X, y, xq, yq, _, _ = sample_random_cov(g, b, M, d, c=c)
        return (predictor_predict(P, X, y, xq) - yq) ** 2 / d

    return mc_mean(draw, n, rng=rng)
