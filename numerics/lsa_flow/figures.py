"""[zfb24] the numbers behind the figures (the plots in :mod:`sims.figures.lsa_flow` only draw
them): Figure 1 of §4.3 given a trained LSA's P (the training stays in sims), the R(M, N) rates of
§4.1 (Corollary 6) and the Lemma 10 flow trajectory from Assumption 3 (§5 / App. A, Theorem 4)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from numerics.lsa_flow.montecarlo import least_squares_risk_mc, random_cov_test_risk
from numerics.lsa_flow.ode import integrate_flow
from numerics.lsa_flow.predictors import predictor_predict
from numerics.lsa_flow.sampling import random_theta, sample_linear, spec_Lambda
from numerics.montecarlo import mc_mean
from numerics.testing import loglog_slope
from theory import lsa_flow as T
from theory.common.protocols import Estimate

__all__ = ["compute_fig_1", "compute_risk_rates", "compute_flow_trajectory"]

#: Figure 1's theory setting: d = 20, N = 40 (the paper's).
FIG1_D, FIG1_N = 20, 40


def compute_fig_1(
    P: np.ndarray, N_trained: int, *, quick: bool = True, seed: int = 0
) -> dict[str, Any]:
    """Figure 1 (normalised error ÷ d vs test length M): fixed Λ = I and random Λ = c·diag(Exp(1)),
    c ∈ {1, 4, 9}.  d = 20 theory: zero estimator, least squares (closed form on the fixed panel,
    MC on the random ones), the LSA trained on random (δ_R) and fixed (δ_F) covariance at N = 40,
    the LSA limit; and, for the trained LSA ``P`` (d × d, trained at ``N_trained``): its
    r(δ_learned, c, M) (δ_learned = mean diagonal of P) and the MC error of ``P`` on fresh prompts
    (one stream from ``seed``, panel by panel)."""
    rng = np.random.default_rng(seed)
    d, N = FIG1_D, FIG1_N
    Ms = np.arange(1, 101)
    dR, dF = float(T.delta_exp(N, d)), N / (N + d + 1)
    d5 = P.shape[0]
    delta5 = float(np.mean(np.diag(P)))
    Mm = np.array([5, 10, 20, 40, 80]) if quick else np.array([2, 5, 10, 20, 40, 60, 80, 100])
    n = 20_000 if quick else 200_000
    panels: list[dict[str, Any]] = []
    for c in (None, 1.0, 4.0, 9.0):
        if c is None:
            ls = (Ms, np.clip((d - Ms) / d, 0, None))
            curves = {
                dl: np.array([float(T.fixed_test_risk(dl, 1.0, int(m), d)) for m in Ms])
                for dl in (dR, dF)
            }
            limit = 4 / 9
            learned = np.array([float(T.fixed_test_risk(delta5, 1.0, int(m), d5)) for m in Ms])

            def mc_fixed(m: int) -> Estimate:
                def draw(g: np.random.Generator, b: int, m: int = m) -> np.ndarray:
                    X, y, xq, yq, _ = sample_linear(g, b, m, np.eye(d5))
                    return (predictor_predict(P, X, y, xq) - yq) ** 2 / d5

                return mc_mean(draw, n, rng=rng)

            mc: Callable[[int], Estimate] = mc_fixed
        else:
            Mls = np.array([2, 5, 10, 15, 19])
            ls_mc = [
                least_squares_risk_mc(
                    int(m), d, c=c, random_cov=True, n=200 if quick else 3000, rng=rng
                ).mean
                for m in Mls
            ]
            ls = (np.r_[Mls, d, 100], np.r_[ls_mc, 0.0, 0.0])
            curves = {dl: T.rdm_test_risk_fn(dl, c, Ms, 1, 2, 6, d) for dl in (dR, dF)}
            limit = float(T.lsa_limit_random(c))
            learned = T.rdm_test_risk_fn(delta5, c, Ms, 1, 2, 6, d5)

            def mc_random(m: int, c: float = c) -> Estimate:
                return random_cov_test_risk(P, c, m, n, rng)

            mc = mc_random

        panels.append(
            {
                "c": c,
                "least_squares": ls,
                "delta_R": curves[dR],
                "delta_F": curves[dF],
                "limit": limit,
                "learned": learned,
                "mc": [mc(int(m)) for m in Mm],
            }
        )
    return {
        "d": d,
        "N": N,
        "Ms": Ms,
        "delta_R": dR,
        "delta_F": dF,
        "d_trained": d5,
        "N_trained": N_trained,
        "delta_learned": delta5,
        "mc_Ms": Mm,
        "panels": panels,
    }


#: The training lengths of the R(M, N) curves.
RATE_NS = (16, 64, 256)


def compute_risk_rates(*, quick: bool = True, seed: int = 0) -> dict[str, Any]:
    """R(M, N) at Λ = diag(0.5, 1, 1.5, 2) against M with the Corollary 6 bounds (N ∈ RATE_NS), MC
    estimates at N = 16, and the floor R(∞, N) with η against N, with the fitted log-log slopes
    (M ≤ N/4 for the curves in M)."""
    rng = np.random.default_rng(seed)
    L = spec_Lambda()
    Ms = np.unique(np.logspace(0, 3, 25).astype(int))
    curves = {}
    for N in RATE_NS:
        R = np.array([float(T.prior_risk(L, N, int(m))) for m in Ms])
        bound = np.array([T.cor6_bound(L, N, int(m)) for m in Ms])
        small = Ms <= N / 4
        curves[N] = {"R": R, "bound": bound, "slope": loglog_slope(Ms[small], R[small])}
    P = np.linalg.inv(T.gamma_fn(L, 16))
    Mm = [1, 4, 16, 64]
    ests = []
    for m in Mm:

        def draw(g: np.random.Generator, b: int, m: int = m) -> np.ndarray:
            X, y, xq, yq, _ = sample_linear(g, b, m, L)
            return (predictor_predict(P, X, y, xq) - yq) ** 2

        ests.append(mc_mean(draw, 40_000 if quick else 400_000, rng=rng))
    Ns = np.unique(np.logspace(np.log10(50), np.log10(5000), 20).astype(int))
    floor = np.array([float(T.prior_risk_floor(L, int(n))) for n in Ns])
    eta = np.array([T.cor6_eta(L, int(n)) for n in Ns])
    return {
        "Ms": Ms,
        "curves": curves,
        "mc_Ms": Mm,
        "mc": ests,
        "mc_N": 16,
        "Ns": Ns,
        "floor": floor,
        "floor_slope": loglog_slope(Ns, floor),
        "eta": eta,
    }


def compute_flow_trajectory(*, quick: bool = True, seed: int = 0) -> dict[str, Any]:
    """Lemma 10 from Assumption 3 at the spec reference (Λ = diag(0.5, 1, 1.5, 2), N = 16, σ = 0.3,
    random Θ): U₁₁(t), u₋₁(t), their limits, u_min, the balancedness error, ℓ̃ − min ℓ̃ and the PL
    constant μ (``quick`` does not change it)."""
    L, N, s = spec_Lambda(), 16, 0.3
    Th = random_theta(4, np.random.default_rng(seed))
    U0, u0 = T.initial_state(Th, s)
    ts = np.linspace(0, 60, 600)
    tr = integrate_flow(L, N, U0, u0, 60.0, t_eval=ts)
    Us, us = tr.y[:, :16].reshape(-1, 4, 4), tr.y[:, 16]
    Ue, ue = T.limit_params_fn(L, N)
    lmin = -0.5 * np.trace(L @ L @ np.linalg.inv(T.gamma_fn(L, N)))
    ell = np.array([T.reduced_loss_fn(U, u, L, N) for U, u in zip(Us, us, strict=True)]) - lmin
    return {
        "ts": ts,
        "U11": Us,
        "u": us,
        "U11_limit": Ue,
        "u_limit": ue,
        "u_min": T.u_min(L, N, s, Th),
        "balance": np.abs(us**2 - np.sum(Us**2, axis=(1, 2))),
        "excess_loss": ell,
        "mu": T.pl_constant(L, N, s, Th),
    }
