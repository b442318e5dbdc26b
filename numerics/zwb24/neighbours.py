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
    the trained LSA land below the predicted inf_LSA, a failing row).

    Sources: [zwb24] Theorem 5.2 (``R*``, eq. (5.2)), Theorem 4.1 (the LSA floor), Appendix A
    (``inf_LSA``).  At ``d = 1``, ``H = Ψ = 1``, ``σ = 0``, ``‖β*‖ = 2``:
    ``R* = 2/(N + 2)`` (N = 4, 5, 6: 1/3, 2/7, 1/4) and ``inf_LSA`` attains the floor
    ``2(‖β*‖² + 1)/(N + 2) = 10/7``, as does the optimal GD-0:

    >>> from theory.zwb24.settings import table1_setting
    >>> lv = c17_levels(table1_setting(d=1, N=5, sigma2=0.0, beta_norm=2.0), restarts=0)
    >>> [round(lv[k], 6) for k in ("R_star_N-1", "R_star", "R_star_N+1")]
    [0.333333, 0.285714, 0.25]
    >>> [round(lv[k], 6) for k in ("inf_lsa", "floor", "gd0")], round(lv["inf_lsa_N+1"], 6)
    ([1.428571, 1.428571, 1.428571], 1.25)
    """
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
    """The neighbours of ``Γ*`` a wrong derivation or a trained model could land on: name →
    ``(d, d)``.

    Source: [zwb24] Theorem 5.2, eqs. (5.3), (A.3): ``Γ̄* = Ψ̄Ω⁻¹``,
    ``Ω = ((N+1)/N)Ψ̄ + (tr Ψ̄ + σ²)/N · I``.  By hand at ``d = 1``, ``λ = Ψ̄``, σ = 0, N = 5:
    ``Γ* = N/(N + 2) = 5/7`` for every λ (so the β* = 0 solution coincides here), the neighbours
    6/8, 4/6, ``N/(N + 1) = 5/6`` and ``H⁻¹ = 1``:

    >>> alts = gamma_alternatives(np.eye(1), np.eye(1), np.array([2.0]), 0.0, 5)
    >>> [round(float(G[0, 0]), 6) for G in alts.values()]
    [0.75, 0.666667, 0.833333, 1.0, 0.714286]
    """
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

    By hand at ``d = 1``, ``H = Ψ = 1``, ``β* = 2``: the scale is √5, so ``0.1·(5/7)/√5``:

    >>> from theory.zwb24.settings import table1_setting
    >>> st = table1_setting(d=1, N=5, sigma2=0.0, beta_norm=2.0)
    >>> round(phi_tolerance(st, np.array([[5 / 7]]), 0.1), 9), round(0.1 * 5 / 7 / 5**0.5, 9)
    (0.031943828, 0.031943828)
    """
    scale = math.sqrt(
        float(st.task_mean @ st.Sigma_x @ st.task_mean) + float(np.trace(st.Sigma_x @ st.task_cov))
    )
    return rtol * float(np.linalg.norm(Gs)) / scale


def trap_starts() -> dict[str, dict[str, np.ndarray]]:
    """The two named β* = 0 LSA trap starts (:data:`SPURIOUS_LSA_START`,
    :data:`BOUNDARY_LSA_START`), each the effective LSA parameters ``b (2,)``, ``Gamma (2, 2)``,
    ``phi (2,)`` of C17 (d = 2).

    >>> [(v["b"].shape, v["Gamma"].shape, v["phi"].shape) for v in trap_starts().values()]
    [((2,), (2, 2), (2,)), ((2,), (2, 2), (2,))]
    """
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
