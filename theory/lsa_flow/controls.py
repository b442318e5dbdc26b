"""[zfb24] §4.1 (Theorem 4, eq. (12), Theorem 5), §4.2, §4.3 (Theorem 8), §5 (Lemma 10): the
negative controls and trained-check presets the declared checks of :mod:`theory.lsa_flow.results`
share.

Fault values are literals or :class:`~theory.common.protocols.Ref` strings resolved when a control
runs, so ``theory`` imports nothing from ``numerics`` or ``sims``.
"""

from __future__ import annotations

from theory.common.protocols import Check, Ref

__all__ = [
    "fault",
    "WRONG_GAMMA",
    "P_LAMBDA_INVERSE",
    "GAMMA_NEIGHBOURS",
    "DELTA_NEIGHBOURS",
    "LEM10_ODE",
    "GENERIC_VALUES",
    "THM4_PRESET",
    "THM8_PRESET",
]


def fault(name: str) -> Ref:
    """A planted fault in ``numerics/lsa_flow/faults.py`` (resolved when the control runs)."""
    return Ref(f"numerics.lsa_flow.faults:{name}")


#: Γ with N+2 in place of N+1 (the prediction a check compares with).
WRONG_GAMMA = {"fault_gamma_fn": fault("wrong_gamma")}
#: The predictor actually run is Λ⁻¹ (no finite-N terms) in place of Γ⁻¹.
P_LAMBDA_INVERSE = {"fault_p_fn": fault("lambda_inverse")}
#: Every named neighbour of Γ (numerics.lsa_flow.faults.GAMMA_ALTERNATIVES) as the prediction of a
#: trained check: N → N±1, the (N+1)/N factor dropped, Λ.
GAMMA_NEIGHBOURS = {
    "gamma_N_plus_1": {"fault_gamma_fn": fault("gamma_n_plus_1")},
    "gamma_N_minus_1": {"fault_gamma_fn": fault("gamma_n_minus_1")},
    "gamma_factor_dropped": {"fault_gamma_fn": fault("gamma_factor_dropped")},
    "gamma_is_lambda": {"fault_gamma_fn": fault("lambda_as_gamma")},
}
#: Theorem 8's named neighbours of δ (numerics.lsa_flow.faults.delta_alternatives).
DELTA_NEIGHBOURS = {
    "delta_N_minus_1": {"fault_alternative": "δ(N−1) (off by one)"},
    "delta_N_plus_1": {"fault_alternative": "δ(N+1) (off by one)"},
    "delta_N_infinite": {"fault_alternative": "δ without its finite-N terms (N → ∞)"},
    "delta_fixed_cov": {"fault_alternative": "δ_F = N/(N+d+1) (fixed-covariance training)"},
}
#: Listed by Lemma 10 and Lemma 17 (one declaration).
LEM10_ODE = Check(
    "numerics.lsa_flow.checks_flow:check_lem10_ode",
    faults={"transposed_term": {"fault_variant": "transposed"}, "wrong_gamma": WRONG_GAMMA},
)
#: Generic-point values of L*, R(P; Λ, Λ, N) and Theorem 5's excess (listed by cor16, thm5, shifts).
GENERIC_VALUES = Check(
    "numerics.lsa_flow.checks_risk:check_thm5_float_generic_values",
    faults={"gamma_N_plus_1": {"fault_gamma_fn": fault("gamma_n_plus_1")}},
)

#: The presets of the trained checks (sims.experiments.lsa_flow PRESETS), tried first.
THM4_PRESET = {"d": 4, "N": 4, "spectrum": (0.5, 1.0, 1.5, 2.0), "sigma_init": 0.3}
THM8_PRESET = {"d": 5, "N": 3}
