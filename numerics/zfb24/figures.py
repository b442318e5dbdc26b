"""[zfb24] the numbers behind the figures (the plots in :mod:`sims.figures.zfb24` only draw
them): Figure 1 of §4.3 given a trained LSA's P (the training stays in sims), the R(M, N) rates of
§4.1 (Corollary 6) and the Lemma 10 flow trajectory from Assumption 3 (§5 / App. A, Theorem 4)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from numerics.montecarlo import Target, mc_mean
from numerics.testing import loglog_slope
from numerics.zfb24.faults import GammaFn, gamma_or_fault
from numerics.zfb24.montecarlo import least_squares_risk_mc, random_cov_test_risk
from numerics.zfb24.ode import integrate_flow
from numerics.zfb24.predictors import predictor_predict
from numerics.zfb24.sampling import random_theta, sample_linear, spec_Lambda
from theory import zfb24 as T
from theory.common.protocols import Estimate

__all__ = ["compute_fig_1", "compute_risk_rates", "compute_flow_trajectory"]

#: Figure 1's theory setting: d = 20, N = 40 (the paper's).
FIG1_D, FIG1_N = 20, 40


def compute_fig_1(
    P: np.ndarray | None,
    N_trained: int | None,
    *,
    quick: bool = True,
    seed: int = 0,
    d: int = FIG1_D,
    cs: tuple[float | None, ...] = (None, 1.0, 4.0, 9.0),
    ls_Ms: tuple[int, ...] = (2, 5, 10, 15, 19),
    ls_n: int | None = None,
    ls_fixed_Ms: tuple[int, ...] | None = None,
    ls_fixed_n: int | None = None,
    rng: np.random.Generator | None = None,
    ls_target_se: Target = None,
) -> dict[str, Any]:
    """Figure 1 (normalised error ÷ d vs test length M): fixed Λ = I and random Λ = c·diag(Exp(1)),
    c ∈ {1, 4, 9}.  d = 20 theory: zero estimator, least squares (closed form on the fixed panel,
    MC on the random ones), the LSA trained on random (δ_R) and fixed (δ_F) covariance at N = 40,
    the LSA limit; and, for the trained LSA ``P`` (d × d, trained at ``N_trained``): its
    r(δ_learned, c, M) (δ_learned = mean diagonal of P) and the MC error of ``P`` on fresh prompts
    (one stream from ``seed``, panel by panel).

    Knobs (defaults: the figure's): ``d`` the theory dimension, ``cs`` the panels (``None`` = the
    fixed panel), ``ls_Ms`` / ``ls_n`` the least-squares MC on the random panels (n: 200, full
    3000), ``ls_fixed_Ms`` / ``ls_fixed_n`` least squares by MC on the fixed panel too (``None``:
    the closed form (d − M)/d), ``rng`` the stream (``None``: ``default_rng(seed)``).  ``P = None``
    leaves out the trained model's curve and markers (``learned`` is ``None``, ``mc`` empty).
    Each panel's ``least_squares_mc`` holds the least-squares MC estimates (empty when closed
    form); ``ls_target_se`` raises each of them for power (up to 4×,
    :func:`numerics.montecarlo.mc_means`)."""
    rng = np.random.default_rng(seed) if rng is None else rng
    N = FIG1_N
    Ms = np.arange(1, 101)
    dR, dF = float(T.delta_exp(N, d)), N / (N + d + 1)
    d5 = None if P is None else P.shape[0]
    delta5 = None if P is None else float(np.mean(np.diag(P)))
    Mm = np.array([5, 10, 20, 40, 80]) if quick else np.array([2, 5, 10, 20, 40, 60, 80, 100])
    n = 20_000 if quick else 200_000
    panels: list[dict[str, Any]] = []
    for c in cs:
        ls_mc: list[Estimate] = []
        learned: np.ndarray | None = None
        if c is None:
            if ls_fixed_Ms is None:
                ls = (Ms, np.clip((d - Ms) / d, 0, None))
            else:
                ls_mc = [
                    least_squares_risk_mc(
                        int(m),
                        d,
                        random_cov=False,
                        n=(8000 if quick else 80_000) if ls_fixed_n is None else ls_fixed_n,
                        rng=rng,
                        target_se=ls_target_se,
                    )
                    for m in ls_fixed_Ms
                ]
                ls = (np.asarray(ls_fixed_Ms), np.array([e.mean for e in ls_mc]))
            curves = {
                dl: np.array([float(T.fixed_test_risk(dl, 1.0, int(m), d)) for m in Ms])
                for dl in (dR, dF)
            }
            limit = 4 / 9
            if P is not None and d5 is not None and delta5 is not None:
                learned = np.array([float(T.fixed_test_risk(delta5, 1.0, int(m), d5)) for m in Ms])

            def mc_fixed(m: int) -> Estimate:
                assert P is not None and d5 is not None
                Pm, dm = P, d5

                def draw(g: np.random.Generator, b: int, m: int = m) -> np.ndarray:
                    X, y, xq, yq, _ = sample_linear(g, b, m, np.eye(dm))
                    return (predictor_predict(Pm, X, y, xq) - yq) ** 2 / dm

                return mc_mean(draw, n, rng=rng)

            mc: Callable[[int], Estimate] = mc_fixed
        else:
            Mls = np.array(ls_Ms)
            ls_mc = [
                least_squares_risk_mc(
                    int(m),
                    d,
                    c=c,
                    random_cov=True,
                    n=(200 if quick else 3000) if ls_n is None else ls_n,
                    rng=rng,
                    target_se=ls_target_se,
                )
                for m in Mls
            ]
            ls = (np.r_[Mls, d, 100], np.r_[[e.mean for e in ls_mc], 0.0, 0.0])
            curves = {dl: T.rdm_test_risk_fn(dl, c, Ms, 1, 2, 6, d) for dl in (dR, dF)}
            limit = float(T.lsa_limit_random(c))
            if P is not None and d5 is not None and delta5 is not None:
                learned = T.rdm_test_risk_fn(delta5, c, Ms, 1, 2, 6, d5)

            def mc_random(m: int, c: float = c) -> Estimate:
                assert P is not None
                return random_cov_test_risk(P, c, m, n, rng)

            mc = mc_random

        panels.append(
            {
                "c": c,
                "least_squares": ls,
                "least_squares_mc": ls_mc,
                "delta_R": curves[dR],
                "delta_F": curves[dF],
                "limit": limit,
                "learned": learned,
                "mc": [] if P is None else [mc(int(m)) for m in Mm],
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


def compute_risk_rates(
    *,
    quick: bool = True,
    seed: int = 0,
    Ns: tuple[int, ...] = RATE_NS,
    Ms: np.ndarray | None = None,
    mc_Ms: tuple[int, ...] = (1, 4, 16, 64),
    mc_N: int = 16,
    mc_n: int | tuple[int, ...] | None = None,
    floor_Ns: np.ndarray | None = None,
    floor_mc_n: int | None = None,
    p_fn: GammaFn | None = None,
    rng: np.random.Generator | None = None,
    mc_target_se: Target = None,
    floor_target_se: Target = None,
) -> dict[str, Any]:
    """R(M, N) at Λ = diag(0.5, 1, 1.5, 2) against M with the Corollary 6 bounds (N ∈ RATE_NS), MC
    estimates at N = 16, and the floor R(∞, N) with η against N, with the fitted log-log slopes
    (M ≤ N/4 for the curves in M).

    Knobs (defaults: the figure's): ``Ns`` the curves' training lengths, ``Ms`` their test lengths
    (``None``: 25 log-spaced in [1, 1000]); ``mc_Ms``, ``mc_N`` and ``mc_n`` (one size, or one per
    M; ``None``: 40 000, full 400 000) the MC of the predictor x_qᵀPĝ with P = Γ(Λ, mc_N)⁻¹, or
    ``p_fn(Λ, mc_N)`` (a fault); ``floor_Ns`` the floor's N grid (``None``: 20 log-spaced in
    [50, 5000]); ``floor_mc_n`` adds the MC of the floor (the M → ∞ predictor x_qᵀΓ⁻¹Λw, key
    ``floor_mc``) with that many prompts per N; ``rng`` the stream (``None``:
    ``default_rng(seed)``; the MC in M draws first, then the floor's).  ``mc_R`` is the closed form
    R(M, mc_N) at ``mc_Ms``.  ``mc_target_se`` / ``floor_target_se`` raise each MC estimate for
    power (up to 4×; e.g. ``lambda m: 0.02 * abs(m)``, 2 % of its own running mean, the scale a
    figure knows only after sampling; :func:`numerics.montecarlo.mc_means`)."""
    rng = np.random.default_rng(seed) if rng is None else rng
    L = spec_Lambda()
    Ms = np.unique(np.logspace(0, 3, 25).astype(int)) if Ms is None else np.asarray(Ms)
    curves = {}
    for N in Ns:
        R = np.array([float(T.prior_risk(L, N, int(m))) for m in Ms])
        bound = np.array([T.cor6_bound(L, N, int(m)) for m in Ms])
        small = Ms <= N / 4
        slope = loglog_slope(Ms[small], R[small]) if np.sum(small) >= 2 else float("nan")
        curves[N] = {"R": R, "bound": bound, "slope": slope}
    P = (
        np.linalg.inv(T.gamma_fn(L, mc_N))
        if p_fn is None
        else np.asarray(p_fn(L, mc_N), dtype=float)
    )
    Mm = list(mc_Ms)
    sizes = (
        [40_000 if quick else 400_000] * len(Mm)
        if mc_n is None
        else [mc_n] * len(Mm)
        if isinstance(mc_n, int)
        else list(mc_n)
    )
    ests = []
    for m, size in zip(Mm, sizes, strict=True):

        def draw(g: np.random.Generator, b: int, m: int = m) -> np.ndarray:
            X, y, xq, yq, _ = sample_linear(g, b, m, L)
            return (predictor_predict(P, X, y, xq) - yq) ** 2

        ests.append(mc_mean(draw, size, rng=rng, target_se=mc_target_se))
    if floor_Ns is None:
        floor_Ns = np.unique(np.logspace(np.log10(50), np.log10(5000), 20).astype(int))
    floor_Ns = np.asarray(floor_Ns)
    floor = np.array([float(T.prior_risk_floor(L, int(n))) for n in floor_Ns])
    eta = np.array([T.cor6_eta(L, int(n)) for n in floor_Ns])
    floor_mc = []
    if floor_mc_n is not None:
        for n in floor_Ns:
            B = np.linalg.inv(T.gamma_fn(L, int(n))) @ L - np.eye(L.shape[0])

            def draw_f(g: np.random.Generator, b: int, B: np.ndarray = B) -> np.ndarray:
                _, _, xq, _, W = sample_linear(g, b, 1, L)
                return np.einsum("bd,de,be->b", xq, B, W) ** 2

            floor_mc.append(mc_mean(draw_f, floor_mc_n, rng=rng, target_se=floor_target_se))
    return {
        "Ms": Ms,
        "curves": curves,
        "mc_Ms": Mm,
        "mc": ests,
        "mc_R": np.array([float(T.prior_risk(L, mc_N, int(m))) for m in Mm]),
        "mc_N": mc_N,
        "Ns": floor_Ns,
        "floor": floor,
        "floor_slope": loglog_slope(floor_Ns, floor) if len(floor_Ns) >= 2 else float("nan"),
        "eta": eta,
        "floor_mc": floor_mc,
    }


def compute_flow_trajectory(
    *,
    quick: bool = True,
    seed: int = 0,
    Lambda: np.ndarray | None = None,
    N: int = 16,
    sigma_init: float = 0.3,
    theta: np.ndarray | None = None,
    t_end: float = 60.0,
    ts: np.ndarray | None = None,
    variant: str = "paper",
    gamma_fn: GammaFn | None = None,
) -> dict[str, Any]:
    """Lemma 10 from Assumption 3 at our reference (Λ = diag(0.5, 1, 1.5, 2), N = 16, σ = 0.3,
    random Θ): U₁₁(t), u₋₁(t), their limits, u_min, the balancedness error, ℓ̃ − min ℓ̃ and the PL
    constant μ (``quick`` does not change it).

    Knobs (defaults: the figure's): ``Lambda`` (``None``: our reference), ``N``, ``sigma_init``,
    ``theta`` (``None``: a random Θ from ``default_rng(seed)``), ``t_end`` and the output times
    ``ts`` (``None``: 600 equispaced in [0, t_end]), the flow ``variant`` (a fault of Lemma 10)
    and ``gamma_fn(Λ, N)`` in place of Γ in the limit (a fault).  Also returned: the output times
    ``t``, the ``final`` state, ``loss`` = ℓ̃(t), ``loss_min`` = min ℓ̃, ``loss_initial`` = ℓ̃(0)
    and Θ."""
    L = spec_Lambda() if Lambda is None else np.asarray(Lambda, dtype=float)
    d = L.shape[0]
    s = sigma_init
    Th = random_theta(d, np.random.default_rng(seed)) if theta is None else theta
    U0, u0 = T.initial_state(Th, s)
    ts = np.linspace(0, t_end, 600) if ts is None else ts
    tr = integrate_flow(L, N, U0, u0, t_end, variant=variant, t_eval=ts)
    Us, us = tr.y[:, : d * d].reshape(-1, d, d), tr.y[:, d * d]
    Ue, ue = T.limit_params_fn(L, N, Gamma=gamma_or_fault(gamma_fn, L, N))
    lmin = -0.5 * np.trace(L @ L @ np.linalg.inv(T.gamma_fn(L, N)))
    loss = np.array([T.reduced_loss_fn(U, u, L, N) for U, u in zip(Us, us, strict=True)])
    return {
        "ts": ts,
        "t": tr.t,
        "U11": Us,
        "u": us,
        "final": tr.final,
        "U11_limit": Ue,
        "u_limit": ue,
        "u_min": T.u_min(L, N, s, Th),
        "balance": np.abs(us**2 - np.sum(Us**2, axis=(1, 2))),
        "loss": loss,
        "loss_min": lmin,
        "loss_initial": T.reduced_loss_fn(U0, u0, L, N),
        "excess_loss": loss - lmin,
        "mu": T.pl_constant(L, N, s, Th),
        "theta": Th,
    }
