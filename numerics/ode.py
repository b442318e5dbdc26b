"""One ODE wrapper over :func:`scipy.integrate.solve_ivp`.

The mathematics (right-hand sides, conserved quantities) lives in ``theory``; the method and the
tolerances live in a :class:`SolverConfig`.  :func:`integrate` always passes ``method``, ``rtol``
and ``atol``, keeps dense output, and raises :class:`IntegrationError` with the solver's message and
the last time reached unless the solver succeeded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.integrate import solve_ivp

from numerics.testing import SOLVER_ATOL, SOLVER_RTOL
from theory.settings import check_choice, check_real

__all__ = ["SolverConfig", "VERIFY", "Trajectory", "IntegrationError", "integrate", "flow_time"]

_METHODS = ("RK45", "RK23", "DOP853", "Radau", "BDF", "LSODA")


@dataclass(frozen=True, kw_only=True, slots=True)
class SolverConfig:
    """ODE method and tolerances (never ``solve_ivp``'s loose defaults).

    Attributes
    ----------
    method : str
        One of ``"RK45"``, ``"RK23"``, ``"DOP853"`` (default), ``"Radau"``, ``"BDF"``, ``"LSODA"``.
    rtol, atol : float
        Relative and absolute tolerances, both > 0 (default: the SOLVER tolerances 1e-10, 1e-12).
    max_step : float
        Cap on the step (default ``inf``: the solver decides).

    Examples
    --------
    A looser solver for a quick look; the errors name the bad value:

    >>> SolverConfig(method="RK45", rtol=1e-6, atol=1e-9).method
    'RK45'
    >>> SolverConfig(rtol=0.0)
    Traceback (most recent call last):
    ...
    ValueError: rtol must be > 0, got 0.0
    """

    method: str = "DOP853"  # an explicit 8th-order method suits these smooth, non-stiff flows
    rtol: float = SOLVER_RTOL  # relative tolerance
    atol: float = SOLVER_ATOL  # absolute tolerance
    max_step: float = float("inf")  # cap on the step (inf: solver decides)

    def __post_init__(self) -> None:
        check_choice("method", self.method, _METHODS)
        check_real("rtol", self.rtol, lower=0.0, lower_open=True)
        check_real("atol", self.atol, lower=0.0, lower_open=True)
        if not self.max_step > 0:
            raise ValueError(f"max_step must be > 0, got {self.max_step!r}")


#: The verification solver: DOP853 at rtol 1e-10, atol 1e-12 (the SOLVER tolerances of
#: :mod:`numerics.testing`).
VERIFY = SolverConfig()


class IntegrationError(RuntimeError):
    """The solver did not reach the end of the interval (or produced non-finite states).

    Examples
    --------
    ``y' = y²`` from ``y(0) = 1`` is ``1/(1 − t)``: it blows up at ``t = 1``, and the solver
    stops just before it:

    >>> quick = SolverConfig(method="RK45", rtol=1e-3, atol=1e-6)
    >>> integrate(lambda t, y: y**2, [1.0], (0.0, 2.0), solver=quick)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    numerics.ode.IntegrationError: RK45 failed at t=0.99... of 2: ...
    """


@dataclass(frozen=True, slots=True)
class Trajectory:
    """The result of :func:`integrate`.

    Attributes
    ----------
    t : ndarray, shape (n,)
        The times: ``t_eval`` when given, else the solver's own steps.
    y : ndarray, shape (n, dim)
        The state at each time, **one row per time**.  This is the transpose of
        ``scipy.integrate.solve_ivp(...).y``, which is ``(dim, n)``; ``y[-1]`` is the final state.
    sol : scipy ``OdeSolution``
        The dense interpolant in scipy's layout: ``sol(t)`` is ``(dim,)`` or ``(dim, k)``.  Call
        the trajectory itself for rows: ``traj(t)`` is ``(dim,)`` at a scalar ``t`` and
        ``(k, dim)`` at ``k`` times.
    nfev : int
        Right-hand-side evaluations.
    solver : SolverConfig
        The method and tolerances used.

    Examples
    --------
    >>> tr = integrate(lambda t, y: -y, [1.0, 2.0], (0.0, 1.0), t_eval=[0.0, 0.5, 1.0])
    >>> tr.t.shape, tr.y.shape, tr(0.25).shape, tr([0.25, 0.75]).shape
    ((3,), (3, 2), (2,), (2, 2))
    """

    t: np.ndarray
    y: np.ndarray
    sol: Any  # scipy OdeSolution: sol(t) -> (dim,) or (dim, k)
    nfev: int
    solver: SolverConfig

    def __call__(self, t: float | np.ndarray) -> np.ndarray:
        """State at time(s) ``t`` from the dense output: (dim,) or (k, dim)."""
        out = self.sol(t)
        return out.T if np.ndim(t) else out

    @property
    def final(self) -> np.ndarray:
        return self.y[-1]


def integrate(
    rhs: Callable[..., np.ndarray],
    y0: Sequence[float] | np.ndarray,
    t_span: tuple[float, float],
    *,
    solver: SolverConfig = VERIFY,
    t_eval: Sequence[float] | np.ndarray | None = None,
    args: tuple[Any, ...] = (),
    events: Any = None,
) -> Trajectory:
    """Integrate ``y' = rhs(t, y, *args)`` over ``t_span`` with ``solver``'s method and tolerances.

    Parameters
    ----------
    rhs : callable
        ``rhs(t, y, *args)`` with ``y`` of shape ``(dim,)``, returning ``(dim,)`` (scipy's
        convention).
    y0 : array_like, shape (dim,)
        Finite initial state.
    t_span : (t0, t1)
        Finite times with ``t1 ≥ t0``.
    solver : SolverConfig
        Method and tolerances; default :data:`VERIFY` (DOP853, rtol 1e-10, atol 1e-12).
    t_eval : array_like, optional
        Times at which to store the state (default: the solver's steps).
    args, events :
        Passed to ``solve_ivp``.

    Returns
    -------
    Trajectory
        ``t`` (n,), ``y`` (n, dim): one row per time, the transpose of scipy's ``y``.

    Raises
    ------
    IntegrationError
        The solver stopped before ``t1`` or produced non-finite states.
    ValueError
        ``y0`` is not a finite vector or ``t_span`` is not finite and ordered.

    Examples
    --------
    >>> tr = integrate(lambda t, y: -y, [1.0], (0.0, 1.0))
    >>> bool(abs(tr.final[0] - np.exp(-1.0)) < 1e-9)
    True
    """
    y0 = np.asarray(y0, dtype=float)
    if y0.ndim != 1 or not np.all(np.isfinite(y0)):
        raise ValueError(f"y0 must be a finite 1-D state vector, got shape {y0.shape}")
    t0, t1 = (float(t_span[0]), float(t_span[1]))
    if not (np.isfinite(t0) and np.isfinite(t1)) or t1 < t0:
        raise ValueError(f"t_span must be finite with t1 ≥ t0, got {t_span!r}")
    if t1 == t0:
        return Trajectory(np.array([t0]), y0[None, :].copy(), lambda t: y0, 0, solver)
    sol = solve_ivp(
        rhs,
        (t0, t1),
        y0,
        method=solver.method,
        rtol=solver.rtol,
        atol=solver.atol,
        max_step=solver.max_step,
        t_eval=None if t_eval is None else np.asarray(t_eval, float),
        dense_output=True,
        args=args or None,
        events=events,
    )
    if not sol.success or sol.status != 0:
        last = float(sol.t[-1]) if len(sol.t) else t0
        raise IntegrationError(f"{solver.method} failed at t={last:.6g} of {t1:.6g}: {sol.message}")
    if not np.all(np.isfinite(sol.y)):
        raise IntegrationError(f"{solver.method} produced non-finite states on [{t0}, {t1}]")
    return Trajectory(np.asarray(sol.t), np.asarray(sol.y).T, sol.sol, int(sol.nfev), solver)


def flow_time(steps: int, lr: float) -> float:
    """Gradient-flow time matched to ``steps`` of gradient descent at rate ``lr``: τ = lr·steps.

    ``steps`` steps of ``θ ← θ − lr ∇f`` follow the flow ``θ' = −∇f`` up to ``τ = lr·steps``
    (Euler's method with step ``lr``).

    >>> flow_time(2000, 1e-3)
    2.0
    """
    return float(lr) * int(steps)
