"""[zwb24] the GD-β gradient flow (Lemma G.2) integrated with the verification solver.

Route: ODE (:func:`numerics.ode.integrate`) on the right-hand side of :mod:`theory.zwb24.sec6_flow`.
"""

from __future__ import annotations

import numpy as np

from numerics.ode import VERIFY, SolverConfig, Trajectory, integrate
from theory.common.backend import NP
from theory.zwb24 import flow_rhs
from theory.zwb24.sec6_flow import flow_rhs_expr

__all__ = ["FLOW_SOLVER", "HORIZON_EXTENSIONS", "SETTLED_UNITS", "flow_trajectory", "settled"]


#: The verification tolerances (rtol 1e-10, atol 1e-12) with LSODA: the flow
#: becomes stiff near its limit (fast modes ~ λ_max(H)², slow ~ λ⁺_min(H)/(N+1)); DOP853 needs
#: ~30× more right-hand-side evaluations for the same accuracy.
FLOW_SOLVER = SolverConfig(method="LSODA", rtol=VERIFY.rtol, atol=VERIFY.atol)


def flow_trajectory(
    H: np.ndarray,
    Psi: np.ndarray,
    bs: np.ndarray,
    s2: float,
    N: int,
    G0: np.ndarray,
    b0: np.ndarray,
    T: float,
    n_eval: int = 200,
) -> Trajectory:
    """Integrate the GD-β flow (Lemma G.2) with the verification solver; state ``(vec Γ, β)``.

    Source: [zwb24] Lemma G.2, eqs. (G.4), (G.5) (:func:`theory.zwb24.flow_rhs`); Theorem 6.3 gives
    the limit (:func:`theory.zwb24.flow_limit`).

    Parameters
    ----------
    H, Psi : (d, d) covariate and task covariances
    bs : (d,) task mean β*
    s2 : σ², the label-noise variance
    N : prompt length
    G0 : (d, d) initial Γ
    b0 : (d,) initial β
    T : final time
    n_eval : number of stored times: 0, then a geometric grid from min(0.01, T) to T
        (``n_eval ≤ 2``: 0 and T only)

    Returns
    -------
    Trajectory
        ``y`` has shape ``(n_eval, d² + d)``: row-major Γ, then β, one row per time (the transpose
        of scipy's layout).  Solver: LSODA at rtol 1e-10, atol 1e-12.

    Examples
    --------
    H = Ψ = 1, β* = 1, σ² = 0, N = 5: Γ → Γ* = N/(N + 1 + d) = 5/7 (Theorem 5.2), β → β*.

    >>> one = np.eye(1)
    >>> G0, b0 = np.zeros((1, 1)), np.zeros(1)
    >>> tr = flow_trajectory(one, one, np.ones(1), 0.0, 5, G0, b0, 10.0, n_eval=2)
    >>> tr.y.shape, round(float(tr.final[0]), 6), round(float(tr.final[1]), 2)
    ((2, 2), 0.714286, 1.0)
    """
    d = H.shape[0]
    flow_rhs(G0, b0, H, Psi, bs, s2, N)  # validates the setting once

    def rhs(t: float, y: np.ndarray) -> np.ndarray:
        dG, db = flow_rhs_expr(NP, y[: d * d].reshape(d, d), y[d * d :] - bs, H, Psi, s2, N)
        return np.concatenate([dG.ravel(), db])

    ts = (
        np.array([0.0, T])
        if n_eval <= 2
        else np.concatenate([[0.0], np.geomspace(min(1e-2, T), T, n_eval - 1)])
    )
    return integrate(rhs, np.concatenate([G0.ravel(), b0]), (0.0, T), solver=FLOW_SOLVER, t_eval=ts)


#: Horizon extensions (x4 each) when the flow has not settled by its T: the horizons of the checks
#: are set for the default N = 8, sigma2 = 0.25; a setting given with --set (e.g. sigma2 = 0,
#: small N) can have slower modes.  Settled: the state moved < 0.1 solver unit over the last eval
#: interval.
HORIZON_EXTENSIONS = 3
#: ... that fraction of a solver unit.
SETTLED_UNITS = 0.1


def settled(tr: Trajectory) -> bool:
    """Whether the flow moved less than ``SETTLED_UNITS`` solver units over its last interval.

    The example of :func:`flow_trajectory` (limit Γ* = 5/7, β* = 1, [zwb24] Theorem 6.3): still
    moving at T = 1, settled at T = 100:

    >>> one, G0, b0 = np.eye(1), np.zeros((1, 1)), np.zeros(1)
    >>> Ts = (1.0, 100.0)
    >>> run = [flow_trajectory(one, one, np.ones(1), 0.0, 5, G0, b0, T, n_eval=20) for T in Ts]
    >>> [settled(tr) for tr in run], round(float(run[1].final[0]), 6)
    ([False, True], 0.714286)
    """
    y1, y0 = tr.y[-1], tr.y[-2]
    unit = FLOW_SOLVER.atol + FLOW_SOLVER.rtol * float(np.max(np.abs(y1)))
    return float(np.max(np.abs(y1 - y0))) <= SETTLED_UNITS * unit
