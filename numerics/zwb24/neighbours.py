"""[zwb24] §4 Table 1 / App. G: the theory lines a trained model is told apart from.

Route module (no checks): ``R*`` and its N±1 neighbours, ``inf_LSA`` and its argmin, the LSA
floor, the β* = 0 solution, ``Γ*`` and its named neighbours, the φ tolerance in Γ-equivalent
units, and the starting points of the two β* = 0 LSA traps found over seeds.  Used by
:mod:`sims.zwb24`; nothing here trains or imports sims.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from numerics.zwb24.optim import GRADIENT, inf_lsa
from theory.settings import LinearRegressionICL
from theory.zwb24 import gd0_gap, lsa_risk_floor, optimal_gamma, optimal_risk, whiten

__all__ = [
    "c17_levels",
    "gamma_alternatives",
    "phi_tolerance",
    "trap_starts",
    "SPURIOUS_LSA_START",
    "BOUNDARY_LSA_START",
]

_LEVELS: dict[tuple[str, int], dict[str, Any]] = {}  # (repr(setting), restarts) -> lines


#: Random BFGS restarts of inf_LSA at the presets (besides its two structured starts).
PRESET_RESTARTS = 2


def c17_levels(st: LinearRegressionICL, *, restarts: int = PRESET_RESTARTS) -> dict[str, Any]:
    """Theory lines of a C17 data model (cached per process): ``R*`` and its N±1 neighbours,
    ``inf_LSA`` (BFGS from its two structured starts and ``restarts`` random ones; the method under
    ``inf_lsa_method``) with its argmin and its N+1 neighbour, the LSA floor, the risk of the
    β* = 0 solution (optimal GD-0), ``Γ*`` and its neighbours.  Drawn settings use ``restarts=0``
    (the random starts found no lower minimum at the presets: a missed global minimum would make
    the trained LSA land below the predicted inf_LSA, a failing row)."""
    key = (repr(st), restarts)
    if key in _LEVELS:
        return _LEVELS[key]
    H, Psi, bs, s2, N = st.Sigma_x, st.task_cov, st.task_mean, st.noise_var, st.N
    P, mu = whiten(H, Psi, bs)
    lsa = inf_lsa(P, mu, s2, N, rng=np.random.default_rng(0), restarts=restarts)
    Rs = optimal_risk(H, Psi, s2, N)
    out = {
        "setting": st,
        "R_star": Rs,
        "inf_lsa": lsa.value,
        "inf_lsa_method": f"BFGS from 2 structured and {restarts} random starts; gradient: "
        f"{GRADIENT}",
        "lsa_parts": lsa.parts,
        "floor": lsa_risk_floor(H, Psi, bs, s2, N),
        "R_star_N+1": optimal_risk(H, Psi, s2, N + 1),
        "R_star_N-1": optimal_risk(H, Psi, s2, N - 1),
        "gd0": Rs + gd0_gap(H, Psi, bs, s2, N),
        "inf_lsa_N+1": inf_lsa(
            P, mu, s2, N + 1, rng=np.random.default_rng(0), restarts=restarts
        ).value,
        "Gamma_star": optimal_gamma(H, Psi, s2, N),
        "Gamma_alts": gamma_alternatives(H, Psi, bs, s2, N),
    }
    _LEVELS[key] = out
    return out


def gamma_alternatives(
    H: np.ndarray, Psi: np.ndarray, bs: np.ndarray, s2: float, N: int
) -> dict[str, np.ndarray]:
    """The neighbours of ``Γ*`` a wrong derivation or a trained model could land on."""
    return {
        "Gamma* off by one (N -> N+1)": optimal_gamma(H, Psi, s2, N + 1),
        "Gamma* off by one (N -> N-1)": optimal_gamma(H, Psi, s2, N - 1),
        "Omega without its (N+1)/N": optimal_gamma(H, Psi, s2, N, finite_sample_factor=False),
        "no finite-N term (N -> inf: H^-1)": np.linalg.pinv(H),
        "beta* = 0 solution (GD-0 optimum: Gamma for Psi + beta* beta*^T)": optimal_gamma(
            H, Psi + np.outer(bs, bs), s2, N
        ),
    }


def phi_tolerance(st: LinearRegressionICL, Gs: np.ndarray, rtol: float) -> float:
    r"""Tolerance of the φ block: ``rtol`` of ``‖Γ*‖`` in Γ-equivalent units.

    At ``b = β*``, ``yᵀ(y − Xb)/N ≈ β̃ᵀ Xᵀ(y − Xb)/N``, so ``φ`` acts like a perturbation
    ``φβ̃ᵀ`` of ``Γ``, of size ``‖φ‖·√(‖β*‖²_H + tr HΨ)``.
    """
    scale = math.sqrt(
        float(st.task_mean @ st.Sigma_x @ st.task_mean) + float(np.trace(st.Sigma_x @ st.task_cov))
    )
    return rtol * float(np.linalg.norm(Gs)) / scale


def trap_starts() -> dict[str, dict[str, np.ndarray]]:
    return {
        "spurious local minimum of the exact LSA risk (interior)": SPURIOUS_LSA_START,
        "centring at infinity (v2 -> 0 boundary: |b| -> inf, Gamma -> 0)": BOUNDARY_LSA_START,
    }


#: Where the spec's N(0, 0.1²) init sends some β* = 0 LSA seeds (C17 at N = 5): an interior
#: stationary point of the exact LSA risk (seed 2) ...
SPURIOUS_LSA_START = {
    "b": np.array([-4.302, 1.576]),
    "Gamma": np.array([[-0.017, 0.065], [0.068, 0.145]]),
    "phi": np.array([0.1044, -0.0391]),
}
#: ... and the edge of the effective chart, ``v₂ → 0`` (seeds 3-5): ``b`` runs off, ``Γ → 0``.
BOUNDARY_LSA_START = {
    "b": np.array([71.164, -55.804]),
    "Gamma": np.array([[-1e-4, -1e-4], [1e-4, 1e-4]]),
    "phi": np.array([-0.0053, 0.0042]),
}
