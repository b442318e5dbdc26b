"""[zfb24] ODE integrators: Lemma 10 (fixed covariance) and eq. (52) (random covariance), each with
``I(t) = ∫₀ᵗ u₋₁²`` appended to the state (row-major U₁₁, then u₋₁, then I).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from numerics.ode import VERIFY, SolverConfig, Trajectory, integrate
from theory import zfb24 as T

# The right-hand sides are the hot path: they call the unchecked functions (``.raw``); the
# validated ``T.flow_rhs_fn`` / ``T.rdm_flow_rhs`` check the inputs once at the entry.
_flow_rhs_fn = T.flow_rhs_fn.raw
_rdm_flow_rhs = T.rdm_flow_rhs.raw

__all__ = [
    "STIFF",
    "HORIZON_TIME_CONSTANTS",
    "pack",
    "unpack",
    "integrate_flow",
    "integrate_rdm_flow",
    "slowest_time_constant",
    "flow_horizon",
    "rdm_flow_horizon",
]


#: Verification tolerances with an implicit method, for long horizons where the flow is stiff
#: (fast modes ~ g λ_max² u², slow ones ~ g λ_min² u²) or a faulted variant degenerates.
STIFF = SolverConfig(method="Radau")


def pack(U: np.ndarray, u: float, extra: float | None = None) -> np.ndarray:
    """The flat ODE state: row-major ``U₁₁``, then ``u₋₁`` (then ``extra``, e.g. ``∫u₋₁²``).

    Examples
    --------
    >>> y = pack(np.array([[1.0, 2.0], [3.0, 4.0]]), 5.0, extra=0.0)
    >>> y.tolist()
    [1.0, 2.0, 3.0, 4.0, 5.0, 0.0]
    >>> U, u = unpack(y, 2)
    >>> U.tolist(), u
    ([[1.0, 2.0], [3.0, 4.0]], 5.0)
    """
    return np.concatenate([U.ravel(), [u]] + ([] if extra is None else [[extra]]))


def unpack(y: np.ndarray, d: int) -> tuple[np.ndarray, float]:
    """``(U₁₁, u₋₁)`` from a flat state written by :func:`pack`.

    Examples
    --------
    >>> U, u = unpack(np.array([0.5, 0.0, 0.0, 0.25, 2.0, 9.0]), 2)   # the trailing I(t) is ignored
    >>> U.tolist(), u
    ([[0.5, 0.0], [0.0, 0.25]], 2.0)
    """
    return y[: d * d].reshape(d, d), float(y[d * d])


def integrate_flow(
    Lambda: np.ndarray,
    N: int,
    U0: np.ndarray,
    u0: float,
    t_end: float,
    *,
    variant: str = "paper",
    Gamma: np.ndarray | None = None,
    t0: float = 0.0,
    t_eval: Any = None,
    I0: float = 0.0,
    solver: SolverConfig = VERIFY,
) -> Trajectory:
    """Integrate the gradient flow of Lemma 10 in ``(U₁₁, u₋₁)``, plus ``I(t) = ∫₀ᵗ u₋₁²``.

    Source: [zfb24] Lemma 10 / 14, eq. (27); the flow converges to Theorem 4's limit
    ``u₋₁U₁₁ = Γ⁻¹`` (:func:`theory.zfb24.limit_params_fn`) from Assumption 3's initialisation
    (:func:`theory.zfb24.initial_state`).

    Parameters
    ----------
    Lambda : array_like, shape (d, d)
        Covariance Λ of the covariates (symmetric positive definite).
    N : int
        Training prompt length.
    U0 : array_like, shape (d, d)
        Initial ``U₁₁``.
    u0 : float
        Initial ``u₋₁``.
    t_end : float
        Final flow time (starting at ``t0``).
    variant : str
        ``"paper"``: eq. (27); other values are the faulted variants of the negative controls.
    Gamma : array_like, shape (d, d), optional
        Γ to use instead of ``(1 + 1/N)Λ + tr(Λ)/N · I`` (a fault hook).
    t0, I0 : float
        Start time and the starting value of ``I`` (to continue a trajectory).
    t_eval : array_like, optional
        Times at which to store the state.
    solver : SolverConfig
        Default: DOP853 at rtol 1e-10, atol 1e-12; :data:`STIFF` (Radau) for long horizons.

    Returns
    -------
    Trajectory
        ``y`` has shape ``(n, d² + 2)``: row-major ``U₁₁``, then ``u₋₁``, then ``I``, one row per
        time (:func:`unpack` reads ``(U₁₁, u₋₁)`` back from a row).

    Examples
    --------
    >>> import theory.zfb24 as T
    >>> U0, u0 = T.initial_state(np.eye(2) / np.sqrt(np.sqrt(2)), 0.3)
    >>> tr = integrate_flow(np.eye(2), 10, U0, u0, 50.0)
    >>> U, u = unpack(tr.final, 2)
    >>> bool(np.allclose(u * U, np.linalg.inv(T.gamma(np.eye(2), 10)), atol=1e-8))
    True
    """
    L = np.asarray(Lambda, dtype=float)
    G = T.gamma_fn(L, N) if Gamma is None else np.asarray(Gamma, dtype=float)
    d = L.shape[0]
    T.flow_rhs_fn(np.asarray(U0, float), u0, L, G, variant)  # validates the inputs once

    def rhs(t: float, yv: np.ndarray) -> np.ndarray:
        U, u = unpack(yv, d)
        dU, du = _flow_rhs_fn(U, u, L, G, variant)
        return pack(dU, du, u * u)

    return integrate(
        rhs, pack(np.asarray(U0, float), u0, I0), (t0, t_end), solver=solver, t_eval=t_eval
    )


def integrate_rdm_flow(
    Zc: np.ndarray, xi: np.ndarray, U0: np.ndarray, u0: float, t_end: float, *, t_eval: Any = None
) -> Trajectory:
    """Integrate eq. (52) plus ``I(t) = ∫ u₋₁²``.

    Source: [zfb24] Corollary 22, eq. (52) (:func:`theory.zfb24.rdm_flow_rhs`); from Assumption 3
    the flow converges to Theorem 8's limit ``u₋₁U₁₁ = D = diag(ξ_i/γ_i)``
    (:func:`theory.zfb24.rdm_D`).

    Parameters
    ----------
    Zc : array_like, shape (d, d)
        The coefficients of eq. (52): ζ with γ on the diagonal
        (:func:`theory.zfb24.rdm_coefficients`).
    xi : array_like, shape (d,)
        ξ_i = E λ_i².
    U0 : array_like, shape (d, d)
        Initial ``U₁₁``.
    u0 : float
        Initial ``u₋₁``.
    t_end : float
        Final flow time (from 0).
    t_eval : array_like, optional
        Times at which to store the state.

    Returns
    -------
    Trajectory
        ``y`` has shape ``(n, d² + 2)``: row-major ``U₁₁``, then ``u₋₁``, then ``I``, one row
        per time (the transpose of scipy's layout; :func:`unpack` reads a row).  Solver: DOP853
        at rtol 1e-10, atol 1e-12.

    Examples
    --------
    Exp(1) covariances at d = 1, N = 8: D = δ = N/(3N + d + 5) = 8/30
    (:func:`theory.zfb24.delta_exp`).

    >>> import theory.zfb24 as T
    >>> Zc, xi = T.rdm_coefficients([1.0], [2.0], [6.0], 8)
    >>> U0, u0 = T.initial_state(np.eye(1), 0.8)
    >>> U, u = unpack(integrate_rdm_flow(Zc, xi, U0, u0, 8.0).final, 1)
    >>> round(u * float(U[0, 0]), 8), T.delta_exp(8, 1)
    (0.26666667, 4/15)
    """
    d = Zc.shape[0]
    T.rdm_flow_rhs(U0, u0, Zc, xi)  # validates the inputs once

    def rhs(t: float, yv: np.ndarray) -> np.ndarray:
        U, u = unpack(yv, d)
        dU, du = _rdm_flow_rhs(U, u, Zc, xi)
        return pack(dU, du, u * u)

    return integrate(rhs, pack(U0, u0, 0.0), (0.0, t_end), solver=VERIFY, t_eval=t_eval)


#: A horizon covers this many slowest time constants: the distance to the limit then shrinks by
#: e^(−40) ≈ 4e-18, far below the solver's tolerance units (rtol 1e-10, atol 1e-12).
HORIZON_TIME_CONSTANTS = 40.0


def slowest_time_constant(rhs: Any, y_star: np.ndarray) -> float:
    """``1/|λ|`` of the slowest decaying mode of ``ẏ = rhs(y)`` linearised at its fixed point
    ``y_star`` [derived]: the eigenvalues of the Jacobian by central differences, with the one zero
    mode excluded (the flow conserves balancedness u₋₁² − ‖U₁₁‖_F², Lemma 17 / Lemma 25, so its
    fixed points form a curve ``(cU, u/c)`` and the Jacobian has exactly one zero eigenvalue along
    it).  Raises if the excluded eigenvalue is not zero at the differencing's accuracy.

    Examples
    --------
    ``ẏ = −diag(0, 1, 4)·y`` at 0: rates 0 (the excluded mode), 1 and 4, so τ = 1.

    >>> round(slowest_time_constant(lambda y: -np.array([0.0, 1.0, 4.0]) * y, np.zeros(3)), 6)
    1.0
    """
    y0 = np.asarray(y_star, dtype=float)
    n = y0.size
    h = 1e-6 * max(1.0, float(np.max(np.abs(y0))))
    J = np.empty((n, n))
    for k in range(n):
        e = np.zeros(n)
        e[k] = h
        J[:, k] = (np.asarray(rhs(y0 + e)) - np.asarray(rhs(y0 - e))) / (2 * h)
    rates = np.sort(np.abs(np.linalg.eigvals(J).real))
    if n < 2 or rates[0] > 1e-6 * rates[-1]:
        raise ValueError(
            f"no zero mode at the fixed point: smallest rate {rates[0]:.3g} vs largest "
            f"{rates[-1]:.3g} (is y_star the flow's limit?)"
        )
    return float(1.0 / rates[1])


def flow_horizon(Lambda: np.ndarray, N: int, t_min: float) -> tuple[float, float]:
    """``(t_end, τ_slow)`` of Lemma 10's flow at (Λ, N): ``t_end = max(t_min,
    HORIZON_TIME_CONSTANTS·τ_slow)``, τ_slow the slowest time constant of the flow linearised at
    Theorem 4's limit (:func:`slowest_time_constant`).  Always the unfaulted flow and Γ: the
    horizon belongs to the setting, not to a fault.

    Examples
    --------
    At Λ = I_d the slowest mode decays at rate g·u₋₁² = √d (u₋₁² = ‖Γ⁻¹‖_F = √d/g, any N):

    >>> t_end, tau = flow_horizon(np.eye(2), 10, 1.0)
    >>> round(tau, 6), round(t_end / tau, 6)
    (0.707107, 40.0)
    """
    L = np.asarray(Lambda, dtype=float)
    G = T.gamma_fn(L, N)
    d = L.shape[0]
    Ue, ue = T.limit_params_fn(L, N)

    def rhs(yv: np.ndarray) -> np.ndarray:
        U, u = unpack(yv, d)
        dU, du = _flow_rhs_fn(U, u, L, G, "paper")
        return pack(dU, du)

    tau = slowest_time_constant(rhs, pack(Ue, ue))
    return max(float(t_min), HORIZON_TIME_CONSTANTS * tau), tau


def rdm_flow_horizon(
    Zc: np.ndarray, xi: np.ndarray, Ul: np.ndarray, ul: float, t_min: float
) -> tuple[float, float]:
    """``(t_end, τ_slow)`` of eq. (52)'s flow at its Lemma 28 limit ``(Ul, ul)``, as
    :func:`flow_horizon`.

    Examples
    --------
    >>> import theory.zfb24 as T
    >>> m = ([1.0, 1.0], [2.0, 2.0], [6.0, 6.0], 8)
    >>> t_end, tau = rdm_flow_horizon(*T.rdm_coefficients(*m), *T.rdm_limit(*m), 1.0)
    >>> bool(t_end == max(1.0, HORIZON_TIME_CONSTANTS * tau))
    True
    """
    d = Zc.shape[0]

    def rhs(yv: np.ndarray) -> np.ndarray:
        U, u = unpack(yv, d)
        dU, du = _rdm_flow_rhs(U, u, Zc, xi)
        return pack(dU, du)

    tau = slowest_time_constant(rhs, pack(np.asarray(Ul, dtype=float), ul))
    return max(float(t_min), HORIZON_TIME_CONSTANTS * tau), tau
