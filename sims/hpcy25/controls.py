"""[hpcy25] §3 (Obs. 2), §5.3 ((5.6)), App. D (Thm 4.2(iii)): negative controls of the results
not yet declared settings-first (the others are declared with their results).

The declared checks of :mod:`sims.hpcy25.results` share these planted faults, by
name; values are literals or :class:`~theory.common.protocols.Ref` strings resolved when a control
runs, so ``theory`` imports nothing from ``numerics`` or ``sims``.
"""

from __future__ import annotations

from sims.hpcy25.evidence import NONISO_ALTERNATIVES
from theory.common.protocols import Check, Ref

__all__ = [
    "NONISO_FAULTS",
    "BOUND_VALUES",
    "SHARP_HEAD_FAULTS",
]

#: non-isotropic P: each named rival of P_D* passed as the prediction.
NONISO_FAULTS = {f"prediction={a.name}": {"fault_prediction": a.name} for a in NONISO_ALTERNATIVES}
#: the Thm 4.2(iii) bound and the (D.33) limit as values at a generic point (xi = 0.3,
#: σ² = 0.7), the bound's tightness as xi -> 0, the limit against the finite-L optimum
BOUND_VALUES = Check(
    "numerics.hpcy25.appD_optimality:check_thm4_2iii_float_values",
    faults={
        "gap_bound_without_one": {
            "fault_gap_bound": Ref("numerics.hpcy25.faults:gap_bound_without_one")
        },
        "limit_denominator_without_one": {
            "fault_limit": Ref("numerics.hpcy25.faults:limit_denominator_without_one")
        },
    },
)
#: the sharp head's risk landscape: the context labels without noise (the units row against R_D*
#: fails), the added head held at the pair's |ω| (L̃'s homogeneous optimum (4.4): the gain and
#: |ω| rows fail)
SHARP_HEAD_FAULTS = {
    "noise_left_out_of_labels": {"fault_noiseless_labels": True},
    "extra_head_held_homogeneous": {"fault_homogeneous_extra": True},
}
