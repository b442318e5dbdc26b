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

__all__ = ["STIFF", "pack", "unpack", "integrate_flow", "integrate_rdm_flow"]


#: Verification tolerances with an implicit method, for long horizons where the flow is stiff
#: (fast modes ~ g λ_max² u², slow ones ~ g λ_min² u²) or a faulted variant degenerates.
STIFF = SolverConfig(method="Radau")


def pack(U: np.ndarray, u: float, extra: float | None = None) -> np.ndarray:
    """The flat ODE state: row-major ``U₁₁``, then ``u₋₁`` (then ``extra``, e.g. ``∫u₋₁²``)."""
    return np.concatenate([U.ravel(), [u]] + ([] if extra is None else [[extra]]))


def unpack(y: np.ndarray, d: int) -> tuple[np.ndarray, float]:
    """``(U₁₁, u₋₁)`` from a flat state written by :func:`pack`."""
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
    """Integrate Lemma 10 plus ``I(t) = ∫₀ᵗ u₋₁²`` (state: row-major U₁₁, u₋₁, I)."""
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
    """Integrate eq. (52) plus ``I(t) = ∫ u₋₁²``."""
    d = Zc.shape[0]
    T.rdm_flow_rhs(U0, u0, Zc, xi)  # validates the inputs once

    def rhs(t: float, yv: np.ndarray) -> np.ndarray:
        U, u = unpack(yv, d)
        dU, du = _rdm_flow_rhs(U, u, Zc, xi)
        return pack(dU, du, u * u)

    return integrate(rhs, pack(U0, u0, 0.0), (0.0, t_end), solver=VERIFY, t_eval=t_eval)
