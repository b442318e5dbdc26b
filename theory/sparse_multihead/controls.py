"""[czz24] §4, App. D, Thm. 5.3: the negative controls' fault values, named for ``results.py``.

A fault function lives in ``numerics/sparse_multihead/faults.py``; the declaration names it with
:class:`~theory.common.protocols.Ref`, resolved when the control runs, so ``theory`` imports
nothing from ``numerics``.
"""

from __future__ import annotations

from theory.common.protocols import Ref

__all__ = [
    "fault",
    "SEC2_MOMENT_FAULTS",
    "EQ4_3_GENERIC_FAULTS",
    "LEMD_RATE_FAULTS",
    "LEMD4_WRONG_RATE_FAULTS",
    "THM51_LOG_NOT_SQUARED",
    "THM52_LOG_OUTSIDE_SQRT",
    "THM53_GENERIC_FAULTS",
    "OLS_FINITE_FROM_D_PLUS_3",
    "MOMENT_TOKENS",
    "MOMENT_TOKEN_FAULTS",
]


def fault(name: str) -> Ref:
    """The planted fault ``numerics.sparse_multihead.faults:<name>`` (resolved by the control).

    >>> fault("linear_rate")
    Ref('numerics.sparse_multihead.faults:linear_rate')
    """
    return Ref(f"numerics.sparse_multihead.faults:{name}")


#: §2 (``check_sec2_mc``): the sparse prior's second moment used for every prior.
SEC2_MOMENT_FAULTS = {
    "gauss_moment_for_sign_prior": {
        "fault_second_moment": fault("second_moment_sparse_for_every_prior")
    }
}
#: Eq. (4.3), App. D, Thm 5.3 at generic points (``check_eq4_3_float_generic``): one slip per
#: formula the check evaluates.
EQ4_3_GENERIC_FAULTS = {
    "lambda_alpha2_dropped": {"fault_lambda_fn": fault("ridge_lmmse_lambda_alpha2_dropped")},
    "parts_sigma_not_sqrt": {"fault_parts_fn": fault("excess_from_parts_sigma_not_sqrt")},
    "population_r_not_squared": {"fault_population_fn": fault("pregd_population_r_not_squared")},
}
#: Lemmas D.1, D.7 rates (``check_lemd_1_float_rates``).
LEMD_RATE_FAULTS = {
    "d1_without_plus_one": {"fault_lemd1_fn": fault("lemD1_rate_without_plus_one")},
    "d7_log_not_squared": {"fault_lemd7_fn": fault("lemD7_rate_log_not_squared")},
}
#: Lemma D.4's RATE row (``check_lemd_7_rate_aux``): a wrong concentration rate, 1/n or n^{-1/4},
#: in place of 1/√n.
LEMD4_WRONG_RATE_FAULTS = {
    "rate_one_over_n": {"fault_rate": -1.0},
    "rate_quarter": {"fault_rate": -0.25},
}
#: Thm 5.1's bound with log(d/δ) not squared (Thm 5.1's bound check and Remark 5.2's generic
#: check share it).
THM51_LOG_NOT_SQUARED = {"fault_thm51_fn": fault("thm51_bound_log_not_squared")}
#: Thm 5.2's bound with the log outside the square root.
THM52_LOG_OUTSIDE_SQRT = {"fault_thm52_fn": fault("thm52_bound_log_outside_sqrt")}
#: Thm 5.3 (upper part) at generic points (``check_thm5_3_float_generic``).
THM53_GENERIC_FAULTS = {
    "s_not_squared": {"fault_rate_fn": fault("thm53_rate_s_not_squared")},
    "steps_log_without_s": {"fault_steps_fn": fault("thm53_steps_log_without_s")},
}
#: Thm 5.3 (lower part): the OLS risk finite from n = d + 3 (not d + 2).
OLS_FINITE_FROM_D_PLUS_3 = {"fault_ols_fn": fault("ols_finite_from_d_plus_3")}


#: The check of the compressed prompts the S1/S2 presets train on (czz24:sec2, the data model).
MOMENT_TOKENS = "sims.checks.sparse_multihead.data:check_sec2_torch_moment_tokens"
#: Its controls: the pre-GD model fed unscaled moment tokens, the last moment token dropped.
MOMENT_TOKEN_FAULTS = {
    "unnormalised_pregd_tokens": {"fault_unnormalised": True},
    "dropped_moment_token": {"fault_drop_token": True},
}
