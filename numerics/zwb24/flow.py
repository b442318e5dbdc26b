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


#: The verification tolerances (rtol 1e-10, atol 1e-12) with LSODA, as in spec 002 C15: the flow
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
    """Integrate the GD-β flow (Lemma G.2) with the verification solver; state ``(vec Γ, β)``."""
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
    """Whether the flow moved less than ``SETTLED_UNITS`` solver units over its last interval."""
    y1, y0 = tr.y[-1], tr.y[-2]
    unit = FLOW_SOLVER.atol + FLOW_SOLVER.rtol * float(np.max(np.abs(y1)))
    return float(np.max(np.abs(y1 - y0))) <= SETTLED_UNITS * unit
