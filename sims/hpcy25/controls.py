"""[hpcy25] §3 (Obs. 1), §4.2 ((4.3)), §5.3 ((5.6)), App. D (Thm 4.2(iii)): negative controls the
checks share.

The declared checks of :mod:`sims.hpcy25.results` share these planted faults, by
name; values are literals or :class:`~theory.common.protocols.Ref` strings resolved when a control
runs, so ``theory`` imports nothing from ``numerics`` or ``sims``.
"""

from __future__ import annotations

from theory.common.protocols import Check, Ref

__all__ = [
    "OBS1_ALTERNATIVES",
    "OBS1_FAULTS",
    "VGD_FAULTS",
    "NONISO_FAULTS",
    "BOUND_VALUES",
    "SHARP_HEAD_FAULTS",
]

OBS1_ALTERNATIVES = (
    "L = ∞ (finite-L term dropped): 1",
    "single-head optimum omega_1* mu_1* (4.12)",
    "L = ∞ (finite-L term dropped): 1/(2 omega_bar)",
)
#: negative controls of the H = 2 Obs-1 / manifold TRAIN rows: each named alternative passed as
#: the prediction, a model trained with a double softmax, and an off-pattern head that contributes
#: to the prediction (its μ at 1 % of the largest, below a 5 % |μ| cut; an x-part of OV of 0.3
#: times the largest |μ|): the pattern rows judge it (``sims.hpcy25.sec3_heads``).
OBS1_FAULTS = {
    **{f"prediction={a}": {"fault_prediction": a} for a in OBS1_ALTERNATIVES},
    "trained_double_softmax": {"fault_double_softmax": True},
    "offpattern_contributing_head": {"fault_offpattern_head": 0.3},
}
#: ⟨ω, μ⟩ at L = 24: each named rival of 1/κ passed as the prediction.
VGD_FAULTS = {
    f"prediction={a}": {"fault_prediction": a}
    for a in (
        "eta_V* = L/(L+D'+1) (vanilla GD, D.29)",
        "L = ∞ (finite-L term dropped): 1",
        "single-head optimum omega_1* mu_1* (4.12)",
    )
}
#: non-isotropic P: each named rival of P_D* passed as the prediction.
NONISO_FAULTS = {
    f"prediction={a}": {"fault_prediction": a}
    for a in ("Gamma* (5.6) (vanilla GD)", "Sigma^-1 (finite-L term dropped)")
}
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
