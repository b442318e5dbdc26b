"""[zfb24] §4.2 distribution shifts on a trained LSA: the risk curves over M under task, query and
covariate shifts against the exact shifted risk.
"""

from __future__ import annotations

import numpy as np
import torch

from numerics.montecarlo import mc_mean
from numerics.sampling import check_rng
from numerics.testing import (
    MC_POWER,
    mc_agreement,
    train_discrimination,
)
from numerics.zfb24.evidence import over_seeds, seeds
from numerics.zfb24.faults import (
    GammaFn,
    gamma_or_fault,
    inverse_alternatives,
)
from numerics.zfb24.sampling import sample_linear
from sims.zfb24.evidence import (
    thm4_unconverged,
    tokens,
    trained_sgd,
)
from sims.zfb24.train import (
    blocks,
    final_weights,
    initial_weights,
    load_model,
    setting_of,
)
from theory import zfb24 as T
from theory.common.protocols import Evidence
from theory.zfb24.settings import Setting

__all__ = ["check_shifts_train", "SHIFT_MS"]


def check_shifts_train(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_gamma_fn: GammaFn | None = None
) -> list[Evidence]:
    """§4.2 with the SGD-trained model itself: its MC risk (torch forward, ρ = M)
    under no shift, a query shift and covariate scaling x ↦ 2x equals the exact
    R(P_learned; Λ', S_q, M) (MC), and the risk curve R(P_learned; M), M ∈ SHIFT_MS, is within
    TRAIN_RTOL of that of the theoretical limit Γ⁻¹ and outside it of those of Γ's neighbours."""
    Sq = np.diag([2.0, 0.5, 1.0, 0.25]) + 0.2
    M = 16

    def rows(sd: int) -> list[Evidence]:
        r = trained_sgd(sd)
        miss = thm4_unconverged("§4.2: the SGD model's P → Γ⁻¹", r, sd, fault_gamma_fn)
        if miss is not None:
            return miss
        s = setting_of(r)
        L = np.array(s.Lambda)
        P = blocks(*final_weights(r))["P"]
        P0 = blocks(*initial_weights(r))["P"]
        Gi = np.linalg.inv(gamma_or_fault(fault_gamma_fn, L, s.N))
        alts = inverse_alternatives(L, s.N)
        model = load_model(r)
        rng = check_rng(sd, "sims.checks.lsa_flow:check_shifts_train", "risk")
        out = []
        for tag, Lp, S in (
            ("no shift", L, L),
            ("query shift", L, Sq),
            ("covariate scaling x ↦ 2x", 4 * L, 4 * L),
        ):

            def draw(g: np.random.Generator, n: int, Lp=Lp, S=S) -> np.ndarray:
                X, y, xq, yq, _ = sample_linear(g, n, M, Lp, Sq=S)
                with torch.no_grad():
                    return (model(tokens(X, y, xq)).numpy() - yq) ** 2

            R = T.shift_risk_fn(P, Lp, S, M)
            # power: se ≤ 2 % of the row's scale |R| (raised up to 4× where it misses it)
            est = mc_mean(draw, 40_000 if quick else 400_000, rng=rng, target_se=MC_POWER * abs(R))
            name = f"trained model risk, {tag} (M={M}) = R(P_learned; Λ', S_q, M)"
            out.append(mc_agreement(name, R, est))

            def curve(Q: np.ndarray, Lp=Lp, S=S) -> np.ndarray:  # the risk at each M in SHIFT_MS
                return np.array([T.shift_risk_fn(Q, Lp, S, m) for m in SHIFT_MS])

            out.append(
                train_discrimination(
                    f"R(P_learned) ≈ R(Γ⁻¹) under {tag}, M ∈ {SHIFT_MS}",
                    curve(P),
                    curve(Gi),
                    curve(P0),
                    alternatives={n: curve(a) for n, a in alts.items()},
                    seeds=[sd],
                )
            )
        return out

    return over_seeds(rows, seeds(seed, quick))


#: Test lengths of the risk curves in check_shifts_train (one risk can coincide for Γ⁻¹ and a
#: neighbour, e.g. Λ⁻¹ under the query shift at M = 16; the curve over M separates them).
SHIFT_MS = (1, 16, 256)
