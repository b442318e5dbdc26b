"""[zwb24] the numbers behind the figures of :mod:`sims.figures.zwb24` that train nothing: each
``compute_<topic>(*, quick=True, seed=0) -> dict`` is the figure's data; the plot function only
draws it.  (Table 1's training curves train: :func:`sims.zwb24.table1.compute_mlp_gap_table1`.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from numerics.montecarlo import mc_mean
from numerics.zwb24.flow import flow_trajectory, settled
from numerics.zwb24.optim import gap_grid
from numerics.zwb24.sampling import power_law_spectrum, random_setting
from theory import zwb24 as T
from theory.common.baselines import bayes_conditional_risk

__all__ = ["compute_mlp_gap_scaling", "compute_rates_sum_min", "compute_flow_trajectory"]


#: Thm 4.1 figure setting: H = Ψ = I_2, σ² = 0.25 (the defaults of :func:`gap_grid`).
GAP_SIGMA2, GAP_D = 0.25, 2


def compute_mlp_gap_scaling(
    *,
    quick: bool = True,
    seed: int = 0,
    mus: tuple[float, ...] | None = None,
    Ns: tuple[int, ...] | None = None,
    restarts: int | None = None,
) -> dict[str, Any]:
    """Thm 4.1: ``inf_LSA − R*`` (BFGS), ``L``, ``U`` and the GD-0 gap vs ‖β*‖ (N = 20) and vs N
    (‖β*‖ = 2), ``H = Ψ = I_2``, σ² = 0.25.

    Keys: ``mus``, ``gap_mu`` and ``bounds_mu`` (name -> values) against ‖β*‖; ``Ns``, ``gap_N``
    and ``bounds_N`` against N.  Knobs (defaults: the figure's): the grids ``mus`` (quick
    0.5, 1, 2, 4; full from 0.25 to 8) and ``Ns`` (quick 5 to 80; full to 320), and the BFGS
    ``restarts`` (quick 0, full 2) of :func:`numerics.zwb24.optim.gap_grid`.
    """
    s2, d = GAP_SIGMA2, GAP_D
    I = np.eye(d)
    fns = (("L", T.gap_lower_bound), ("U", T.gap_upper_bound), ("GD0 gap", T.gd0_gap))
    if mus is None:
        mus = (0.5, 1, 2, 4) if quick else (0.25, 0.5, 1, 2, 4, 8)
    mus_a = np.array(mus)
    r = (0 if quick else 2) if restarts is None else restarts
    g = gap_grid((20,), tuple(mus_a), seed=seed, restarts=r)[0]
    bounds_mu = {
        name: np.asarray([fn(I, I, m * np.ones(d) / np.sqrt(d), s2, 20) for m in mus_a])
        for name, fn in fns
    }
    if Ns is None:
        Ns = (5, 10, 20, 40, 80) if quick else (5, 10, 20, 40, 80, 160, 320)
    Ns_a = np.array(Ns)
    gN = gap_grid(tuple(int(n) for n in Ns_a), (2.0,), seed=seed, restarts=r)[:, 0]
    bounds_N = {
        name: np.array([fn(I, I, 2 * np.ones(d) / np.sqrt(d), s2, int(n)) for n in Ns_a])
        for name, fn in fns
    }
    return {
        "mus": mus_a,
        "gap_mu": g,
        "bounds_mu": bounds_mu,
        "Ns": Ns_a,
        "gap_N": gN,
        "bounds_N": bounds_N,
    }


def compute_rates_sum_min(
    *,
    quick: bool = True,
    seed: int = 0,
    Ns: np.ndarray | None = None,
    alpha: float = 2.0,
    d: int = 4000,
    bayes_Ns: tuple[int, ...] = (5, 10, 20, 40, 80, 160, 320),
    bayes_n: int | None = None,
    rng: np.random.Generator | None = None,
) -> dict[str, Any]:
    """Lemma 6.1 / Cor 6.2: ``R* − σ²``, ``Σ min(λ_i, σ²/N)`` and the Cor 6.2 band vs N for a
    power-law spectrum ``λ_i ∝ i^{-2}``, ``tr = σ²/2``, d = 4000 (keys ``Ns, excess, sum_min,
    lo, hi``); and at d = 20, ``λ_i ∝ i^{-1.5}``, ``tr = σ²``: the Bayes excess risk (MC over X
    of the exact conditional risk), ``R* − σ²`` and ``Σ min`` (keys ``Ns_bayes, bayes_mean,
    bayes_se, excess_bayes_setting, sum_min_bayes_setting``).

    Knobs (defaults: the figure's): ``Ns`` (``None``: 25 log-spaced in [10, 3000], full 30 000),
    ``alpha`` and ``d`` of the first spectrum; ``bayes_Ns`` and ``bayes_n`` (``None``: 1000, full
    10 000 design draws per N) of the Bayes MC and its stream ``rng`` (``None``:
    ``default_rng(seed)``).
    """
    s2 = 1.0
    lam = power_law_spectrum(d, alpha, s2 / 2)
    if Ns is None:
        Ns = np.unique(np.geomspace(10, 3000 if quick else 30000, 25).astype(int))
    ex = np.array([T.optimal_risk_eig(lam, s2, int(n)) - s2 for n in Ns])
    sm = np.array([T.sum_min(lam, s2, int(n)) for n in Ns])
    band = np.array([T.cor62_bounds(lam, s2, int(n)) for n in Ns]).reshape(-1, 2)
    lo, hi = band.T
    rng = np.random.default_rng(seed) if rng is None else rng
    dd = 20
    lam2 = power_law_spectrum(dd, 1.5, s2)
    N2 = np.array(bayes_Ns, dtype=int)
    rb = []
    for n in N2:

        def draw(r: np.random.Generator, B: int, n: int = int(n)) -> np.ndarray:
            X = r.standard_normal((B, n, dd)) * np.sqrt(lam2)
            return np.asarray(bayes_conditional_risk(X, np.diag(lam2), np.eye(dd), s2)) - s2

        rb.append(
            mc_mean(draw, (1000 if quick else 10000) if bayes_n is None else bayes_n, rng=rng)
        )
    return {
        "Ns": Ns,
        "excess": ex,
        "sum_min": sm,
        "lo": lo,
        "hi": hi,
        "Ns_bayes": N2,
        "bayes_mean": np.array([e.mean for e in rb]),
        "bayes_se": np.array([e.se for e in rb]),
        "excess_bayes_setting": np.array([T.optimal_risk_eig(lam2, s2, int(n)) - s2 for n in N2]),
        "sum_min_bayes_setting": np.array([T.sum_min(lam2, s2, int(n)) for n in N2]),
    }


def compute_flow_trajectory(
    *,
    quick: bool = True,
    seed: int = 0,
    d: int = 3,
    N: int = 8,
    s2: float = 0.25,
    singular_H: bool = False,
    t_end: float | None = None,
    extensions: int = 0,
    rng: np.random.Generator | None = None,
) -> dict[str, Any]:
    """Thm 6.3: the GD-β gradient flow (ODE, LSODA at the verification tolerances) from a random
    init at a random d = 3 setting (N = 8, σ² = 0.25): times ``t``, the excess risk ``E``,
    ``‖β(t) − β*‖`` (``beta_err``), the derived β-rate bound (``beta_bound``, a bound on the
    square) and ``‖Γ(t) − Γ*‖_F`` (``gamma_err``); ``d, N, s2``.

    Knobs (defaults: the figure's): ``d``, ``N``, ``s2``, a ``singular_H`` (one exact zero
    eigenvalue), the horizon ``t_end`` (``None``: 200, full 400), up to ``extensions`` fourfold
    extensions of it while the flow has not :func:`numerics.zwb24.flow.settled`, and the stream
    ``rng`` of the setting and the init (``None``: ``default_rng(seed)``).  Also returned: the
    ``trajectory``, the horizon reached ``t_end``, the ``setting`` ``(H, Ψ, β*)`` and the
    ``init`` ``(Γ0, β0)``.
    """
    rng = np.random.default_rng(seed) if rng is None else rng
    H, Psi, bs = random_setting(rng, d, singular_H=singular_H, H_eigs=(0.5, 2.5))
    G0, b0 = 0.3 * rng.standard_normal((d, d)), rng.standard_normal(d)
    horizon = (200.0 if quick else 400.0) if t_end is None else t_end
    tr = flow_trajectory(H, Psi, bs, s2, N, G0, b0, horizon)
    for _ in range(extensions):
        if settled(tr):
            break
        horizon *= 4.0
        tr = flow_trajectory(H, Psi, bs, s2, N, G0, b0, horizon)
    Gs = T.optimal_gamma(H, Psi, s2, N)
    E = np.array(
        [T.excess_risk(y[: d * d].reshape(d, d), y[d * d :], H, Psi, bs, s2, N) for y in tr.y]
    )
    return {
        "t": tr.t,
        "E": E,
        "beta_err": np.linalg.norm(tr.y[:, d * d :] - bs, axis=1),
        "beta_bound": np.asarray(T.beta_rate_bound(tr.t, b0, H, bs, N)),
        "gamma_err": np.linalg.norm(tr.y[:, : d * d] - Gs.ravel(), axis=1),
        "d": d,
        "N": N,
        "s2": s2,
        "trajectory": tr,
        "t_end": horizon,
        "setting": (H, Psi, bs),
        "init": (G0, b0),
    }
