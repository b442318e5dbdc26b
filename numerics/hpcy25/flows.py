"""hpcy25 App. B routes: integrations of the gradient flow of ``L̃`` (DOP853 / LSODA at rtol 1e-10,
atol 1e-12 unless stated).  The checks are in :mod:`numerics.hpcy25.appB_flow`."""

from __future__ import annotations

import functools

import numpy as np

import theory.hpcy25 as th
from numerics.ode import VERIFY, SolverConfig, Trajectory, integrate
from numerics.testing import SOLVER_ATOL, SOLVER_RTOL
from theory.hpcy25.appB_flow import flow_rhs_fn, reduced_rhs_fn

#: The ODE right-hand sides, unchecked (``.raw``): the integrators call them at every step; the
#: validated ``th.*_rhs_fn`` check the inputs once at the entry of each route.
_flow_rhs_fn = flow_rhs_fn.raw
_reduced_rhs_fn = reduced_rhs_fn.raw

__all__ = [
    "STIFF",
    "two_head_flow",
    "augmented_rhs",
    "reduced_flow",
    "late_flow",
    "stage_flow",
]


STIFF = SolverConfig(method="LSODA", rtol=SOLVER_RTOL, atol=SOLVER_ATOL)


def two_head_flow(
    T: float,
    *,
    eps: float = 1e-3,
    d: float = 5,
    L: float = 40,
    sigma2: float = 0.1,
    s: float = 1.0,
    solver: SolverConfig = VERIFY,
    t_eval: np.ndarray | None = None,
) -> Trajectory:
    """The two-head gradient flow of ``L̃`` on ``[0, T]`` from Def. B.1's initialisation.

    Source: [hpcy25] App. B, (B.1) and Def. B.1: ``ω₁ = −ω₂ = μ₁ = −μ₂ = ε``; ``dθ/dt = −s∇L̃``.
    Along the flow ``⟨ω, μ⟩ → 1/κ`` with ``κ = 1 + d(1+σ²)/L`` and ``L̃`` decreases towards
    ``1 + σ² − 1/κ`` (:func:`theory.hpcy25.ltilde_inf`).

    Parameters
    ----------
    T : float
        Final flow time.
    eps : float
        Initial scale ε.
    d, L, sigma2 : float
        Dimension, prompt length and noise variance σ².
    s : float
        Time scale of the flow (1: ours; 1/2: the authors' code).
    solver : SolverConfig
        Default DOP853 at rtol 1e-10, atol 1e-12; :data:`STIFF` (LSODA) for long horizons.
    t_eval : ndarray, optional
        Times at which to store the state.

    Returns
    -------
    Trajectory
        ``y`` has shape ``(n, 4)``: columns ``(ω₁, ω₂, μ₁, μ₂)``, one row per time.

    Examples
    --------
    >>> tr = two_head_flow(50.0, t_eval=np.linspace(0, 50, 11))
    >>> tr.y.shape
    (11, 4)
    """
    y0 = th.initial_state(eps)
    th.flow_rhs_fn(0.0, y0, d, L, sigma2, s)  # validates the inputs once
    return integrate(
        _flow_rhs_fn, y0, (0.0, T), solver=solver, args=(d, L, sigma2, s), t_eval=t_eval
    )


def augmented_rhs(
    t: float, y: np.ndarray, d: float, L: float, sigma2: float, s: float
) -> np.ndarray:
    """Reduced (B.4) flow plus the running integral of the imbalance rate.

    Source: [hpcy25] (B.4); [derived] the rate ``d/dt (ω² − μ²) = 8s c_L μ²(sinh x − x cosh x)``,
    ``x = dω²``.  ``y = (ω, μ, I)`` of shape ``(3,)``; the third component integrates the rate, so
    ``I(t)`` is the change of ``ω² − μ²`` since ``t = 0`` (an invariant of the integration).

    >>> y = np.array([0.3, 1.2, 0.0])
    >>> f = augmented_rhs(0.0, y, 5, 40, 0.1, 1.0)
    >>> w_dot, m_dot = th.reduced_rhs_fn(0.0, y[:2], 5, 40, 0.1)
    >>> bool(np.allclose(f, [w_dot, m_dot, th.imbalance_rate(0.3, 1.2, 5, 40, 0.1)]))
    True
    """
    f = _reduced_rhs_fn(t, y[:2], d, L, sigma2, s)
    x = d * y[0] ** 2
    rate = 8 * s * (1 + sigma2) / L * y[1] ** 2 * (np.sinh(x) - x * np.cosh(x))
    return np.array([f[0], f[1], rate])


def reduced_flow(
    T: float,
    *,
    eps: float = 1e-3,
    d: float = 5,
    L: float = 40,
    sigma2: float = 0.1,
    s: float = 1.0,
    solver: SolverConfig = VERIFY,
    t_eval: np.ndarray | None = None,
) -> Trajectory:
    """The reduced two-head system (B.4) on ``[0, T]`` from ``(ω, μ) = (ε, ε)``.

    Source: [hpcy25] App. B, (B.4), on the symmetric orbit ``(ω, −ω, μ, −μ)``.  Parameters as in
    :func:`two_head_flow`; the returned ``y`` has shape ``(n, 2)``: columns ``(ω, μ)``.

    Examples
    --------
    Phase I, (B.5)–(B.6): from a tiny start the flow is linear, ``ω(t) = μ(t) = ε e^{2st}``:

    >>> tr = reduced_flow(1.0, eps=1e-6)
    >>> np.round(tr.final / (1e-6 * np.exp(2.0)), 6).tolist()
    [1.0, 1.0]
    """
    th.reduced_rhs_fn(0.0, np.array([eps, eps]), d, L, sigma2, s)  # validates the inputs once
    return integrate(
        _reduced_rhs_fn, [eps, eps], (0.0, T), solver=solver, args=(d, L, sigma2, s), t_eval=t_eval
    )


@functools.cache
def late_flow(d: float, L: float, sigma2: float, s: float) -> Trajectory:
    """:func:`reduced_flow` to ``T = 10⁶`` with the stiff solver (cached): the late phase.

    Source: [hpcy25] App. B Phase III; [derived] the law ``μ ~ t^{1/6}``
    (:func:`theory.hpcy25.late_mu_law`: 7.637 at ``t = 10⁶``, d = 5, L = 40, σ² = 0.1).  Not run
    by the doctests (0.2–0.5 s; ``hpcy25:appB`` runs it):

    >>> tr = late_flow(5.0, 40.0, 0.1, 1.0)  # doctest: +SKIP
    >>> round(float(tr.final[1]), 2)  # doctest: +SKIP
    7.64
    """
    return reduced_flow(1e6, d=d, L=L, sigma2=sigma2, s=s, solver=STIFF)


def stage_flow(
    H: int,
    *,
    seed: int,
    T: float = 1000.0,
    d: float = 5,
    L: float = 40,
    sigma2: float = 0.1,
    init_scale: float = 0.01,
) -> np.ndarray:
    """Gradient flow of L̃ for H heads from N(0, init_scale²) (≙ 1e5 GD steps at lr 0.01).

    Source: [hpcy25] App. B, (B.1) (:func:`theory.hpcy25.flow_rhs_fn`) with LSODA at rtol 1e-10,
    atol 1e-12; returns the final state, shape ``(2H,)``: ``(ω_1…ω_H, μ_1…μ_H)``.

    Two heads from a random start pair up as ``(ω, −ω), (μ, −μ)`` (Obs. 1) and ``⟨ω, μ⟩``
    approaches ``1/κ = 40/45.5 ≈ 0.879`` ((4.3); at T = 100 still about 1 % below it):

    >>> y = stage_flow(2, seed=0, T=100.0)
    >>> bool(np.isclose(y[0], -y[1], rtol=1e-4) and np.isclose(y[2], -y[3], rtol=1e-4))
    True
    >>> bool(abs(float(y[:2] @ y[2:]) * th.kappa(5, 40, 0.1) - 1) < 0.01)
    True
    """
    rng = np.random.default_rng(seed)
    y0 = rng.normal(0.0, init_scale, 2 * H)
    th.flow_rhs_fn(0.0, y0, d, L, sigma2, 1.0)  # validates the inputs once
    return integrate(_flow_rhs_fn, y0, (0.0, T), solver=STIFF, args=(d, L, sigma2, 1.0)).final
