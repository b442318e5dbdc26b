"""hpcy25 §5.2 Table 1 arithmetic (spec 001 R12)."""

from __future__ import annotations

import theory.softmax_multihead as th
from numerics.softmax_multihead._util import band
from numerics.testing import float_agreement
from theory.common.protocols import Evidence

__all__ = ["check_table1", "TABLE1_C"]

#: Implied first-order coefficients of Table 1 (spec 001 R12, §6 item 10).
TABLE1_C = (1.0, 1.0, 0.5, 0.8, 1.0, 1.0, 1.6, 2.0)


def check_table1(*, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Table 1: the implied ``c = (2cωμ)/(2ωμ)`` equal the spec's values to the table's 4 digits
    (relative 2e-3: ω and μ carry 4 significant digits); ``2cωμ ∈ [0.85, 1.05]`` for every column
    (the same DGD step across activations); the softmax column is the manifold ``η ≈ 1/κ``."""
    ev: list[Evidence] = []
    cs = th.table1_implied_c()
    ev.append(float_agreement("implied c per Table 1 column (spec R12)", cs, TABLE1_C, rtol=2e-3))
    for j, (w, m, v) in enumerate(th.TABLE1):
        ev.append(float_agreement(f"column {j + 1}: 2 c omega mu recomputed",
                                  th.table1_effective_step(w, m, TABLE1_C[j]), v, rtol=2e-3))
        ev.append(band(f"column {j + 1}: 2 c omega mu in [0.85, 1.05]", v, 0.85, 1.05))
    ev.append(band("softmax column: |2 omega mu - 1/kappa| ≤ 0.05 (on the manifold)",
                   abs(2 * th.TABLE1[0][0] * th.TABLE1[0][1] - th.eta_star(5, 40, 0.1)), None,
                   0.05))
    return ev
