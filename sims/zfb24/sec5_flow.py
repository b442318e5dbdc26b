"""[zfb24] §5 / Appendix A Lemma 10 on a trained LSA: full-batch GD factors at matched times τ =
lr·steps equal the ODE solution of the population flow.
"""

from __future__ import annotations

import numpy as np

from numerics.testing import (
    TRAIN_RTOL,
    train_discrimination,
)
from numerics.zfb24.evidence import over_seeds, seeds
from numerics.zfb24.faults import (
    GAMMA_ALTERNATIVES,
    GammaFn,
    gamma_or_fault,
)
from numerics.zfb24.ode import integrate_flow
from sims.zfb24.evidence import (
    trained_fixed_batch,
)
from sims.zfb24.train import (
    blocks,
    initial_weights,
    setting_of,
)
from theory.common.protocols import Evidence
from theory.zfb24.settings import Setting

__all__ = ["check_lem10_train_flow_vs_gd", "LEM10_TAUS", "LEM10_RTOL"]


def check_lem10_train_flow_vs_gd(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_gamma_fn: GammaFn | None = None
) -> list[Evidence]:
    """Lemma 10 against training at matched time τ = lr·steps: the full-batch GD run's factors
    (U₁₁, u₋₁) at τ ∈ LEM10_TAUS equal the ODE solution of the population flow from the same
    Assumption-3 start (TRAIN; the start is the initial state, the gap includes the O(B^{-1/2})
    batch error and the O(lr) discretisation), and differ from the ODE solutions with Γ's
    neighbours in place of Γ."""

    def rows(sd: int) -> list[Evidence]:
        r = trained_fixed_batch(sd)
        s, cfg = setting_of(r), r.config
        L = np.array(s.Lambda)
        d = s.d
        b0 = blocks(*initial_weights(r))
        start = np.append(b0["U11"].ravel(), b0["u"])
        steps = [int(round(t / cfg.lr)) for t in LEM10_TAUS]
        t_eval = [k * cfg.lr for k in steps]

        def flow(Gam: np.ndarray) -> np.ndarray:
            tr = integrate_flow(L, s.N, b0["U11"], b0["u"], t_eval[-1], t_eval=t_eval, Gamma=Gam)
            return tr.y[:, : d * d + 1]

        pred = flow(gamma_or_fault(fault_gamma_fn, L, s.N))
        alts = {n: flow(fn(L, s.N)) for n, fn in GAMMA_ALTERNATIVES.items()}
        return [
            train_discrimination(
                f"GD factors at τ = lr·steps = {k * cfg.lr:g} = ODE (Lemma 10)",
                r.extra["factor_trace"][k],
                pred[i],
                start,
                rtol=LEM10_RTOL,
                alternatives={n: a[i] for n, a in alts.items()},
                seeds=[sd],
                details={"steps": k},
            )
            for i, k in enumerate(steps)
        ]

    return over_seeds(rows, seeds(seed, quick))


#: Matched times of check_lem10_train_flow_vs_gd and its tolerance (the GD-vs-ODE gap is the batch
#: error plus O(lr); a tighter band than TRAIN_RTOL so that Γ's neighbours are ≥ 2 bands away).
LEM10_TAUS = (4.0, 8.0, 24.0)
LEM10_RTOL = TRAIN_RTOL / 2
