"""[zfb24] results: the registry of verifiable results of Zhang, Frei, Bartlett (2024), declared
with the check functions themselves, the preset each runs at (``at``; theory.zfb24.settings
PRESETS: its former keyword defaults), the fixed ones with their reason, their negative controls
(fault values are the planted functions of numerics.zfb24.faults) and the trained properties.

The alternatives and shared declarations are named once here (formerly theory/zfb24/controls.py).
"""

from __future__ import annotations

from numerics.zfb24 import faults as F
from numerics.zfb24.fig1 import check_fig1_mc, check_fig1_symbolic_limit, check_rdm_risk_mc
from numerics.zfb24.sec3_model import (
    check_eq6_float,
    check_eq6_symbolic,
    check_eq12_float,
    check_lem9_float,
    check_lem9_symbolic,
)
from numerics.zfb24.sec4_1_convergence import (
    check_thm4_ode,
    check_thm4_ode_beyond_condition,
    check_thm4_ode_generic,
    check_thm4_ode_spec_values,
)
from numerics.zfb24.sec4_1_risk import (
    check_cor6_float,
    check_cor6_float_threshold,
    check_cor6_float_threshold_generic,
    check_cor6_mc,
    check_cor6_rate,
    check_thm5_float_generic_values,
    check_thm5_mc,
    check_thm5_symbolic,
)
from numerics.zfb24.sec4_2_shifts import (
    check_fn2_limit,
    check_fn2_mc,
    check_shifts_mc,
    check_shifts_mc_covariate_scaling,
    check_shifts_spec_values,
)
from numerics.zfb24.sec4_3_random_cov import (
    check_thm8_float_bounds,
    check_thm8_mc_loss,
    check_thm8_mc_moments,
    check_thm8_ode,
    check_thm8_ode_spec_values,
    check_thm8_symbolic,
)
from numerics.zfb24.sec5_flow import (
    check_cor16_mc,
    check_cor16_ode,
    check_flow_reductions_isotropic,
    check_flow_reductions_ode,
    check_label_noise_mc,
    check_lem10_ode,
    check_lem10_symbolic,
    check_lem15_mc,
    check_lem15_symbolic,
    check_lem17_symbolic,
)
from sims.figures.zfb24 import fig_1, fig_flow_trajectory, fig_risk_rates
from sims.zfb24.sec3_model import check_eq6_torch, check_eq12_train
from sims.zfb24.sec4_1_convergence import (
    check_thm4_train_population_gd,
    check_thm4_train_sgd,
)
from sims.zfb24.sec4_2_shifts import check_shifts_train
from sims.zfb24.sec4_3_random_cov import check_thm8_train_sgd
from sims.zfb24.sec5_flow import check_lem10_train_flow_vs_gd
from theory.common.protocols import REPORTED, Check, Result, TrainedProperty
from theory.strategies.zfb24 import thm4_train_settings, thm8_train_settings
from theory.zfb24.hypotheses import thm4_hypotheses, thm8_hypotheses
from theory.zfb24.settings import PRESETS as P
from theory.zfb24.settings import Setting

__all__ = ["RESULTS", "PROPERTIES"]

# ------------------------------------------------------------------ shared controls (named once)

#: Γ with N+2 in place of N+1 (the prediction a check compares with).
WRONG_GAMMA = {"fault_gamma_fn": F.wrong_gamma}
#: Λ in place of Γ (the finite-N terms dropped).
GAMMA_IS_LAMBDA = {"fault_gamma_fn": F.lambda_as_gamma}
#: The predictor actually run is Λ⁻¹ (no finite-N terms) in place of Γ⁻¹.
P_LAMBDA_INVERSE = {"fault_p_fn": F.lambda_inverse}
#: Every named neighbour of Γ (numerics.zfb24.faults.GAMMA_ALTERNATIVES) as the prediction of a
#: trained check: N → N±1, the (N+1)/N factor dropped, Λ.
GAMMA_NEIGHBOURS = {
    "gamma_N_plus_1": {"fault_gamma_fn": F.gamma_n_plus_1},
    "gamma_N_minus_1": {"fault_gamma_fn": F.gamma_n_minus_1},
    "gamma_factor_dropped": {"fault_gamma_fn": F.gamma_factor_dropped},
    "gamma_is_lambda": GAMMA_IS_LAMBDA,
}
#: Theorem 8's named neighbours of δ (numerics.zfb24.faults.delta_alternatives).
DELTA_NEIGHBOURS = {
    "delta_N_minus_1": {"fault_alternative": "δ(N−1) (off by one)"},
    "delta_N_plus_1": {"fault_alternative": "δ(N+1) (off by one)"},
    "delta_N_infinite": {"fault_alternative": "δ without its finite-N terms (N → ∞)"},
    "delta_fixed_cov": {"fault_alternative": "δ_F = N/(N+d+1) (fixed-covariance training)"},
}
#: Lemma 10's flow variants (a fault of the right-hand side).
FLOW_VARIANTS = {
    "transposed_term": {"fault_variant": "transposed"},
    "symmetrised": {"fault_variant": "symmetrised"},
}

# ------------------------------------------------------------------ why a check is fixed

SYMBOLIC = "a symbolic identity (symbols, or the smallest case d = 1, N = 2): not a setting"
SPEC_VALUES = "reference values computed to the printed digits at Λ = diag(0.5, 1, 1.5, 2)"
GENERIC = "a generic point (a random non-diagonal Λ, d = 3, drawn from the seed): not a setting"
TRAINED_PRESET = (
    "trains at the preset of sims.zfb24.train (d = 4, N = 4, Λ = diag(0.5, 1, 1.5, 2), σ = 0.3): "
    "its trainer takes no setting yet (training in one place: step c)"
)

#: Listed by Lemma 10 and Lemma 17 (one declaration).
LEM10_ODE = Check(
    check_lem10_ode,
    at=P["d3_N8"],
    faults={"transposed_term": {"fault_variant": "transposed"}, "wrong_gamma": WRONG_GAMMA},
)
#: Generic-point values of L*, R(P; Λ, Λ, N) and Theorem 5's excess (listed by cor16, thm5, shifts).
GENERIC_VALUES = Check(
    check_thm5_float_generic_values,
    at=P["d3_N7"],
    fixed=GENERIC,
    faults={"gamma_N_plus_1": {"fault_gamma_fn": F.gamma_n_plus_1}},
)
THM4_KEYS = ("d", "N", "spectrum", "sigma_init")
#: eq. (12)'s exact identity runs at a generic Λ: it holds for every Λ ≻ 0 and N ≥ 1, so it needs
#: none of Theorem 4's hypotheses (the result's, which its trained check needs: Λ = diag(spectrum)).
EQ12_GENERIC = (
    "a generic point (a random non-diagonal Λ, d = 3, N = 10, drawn from the seed): eq. (12) is "
    "an identity at every Λ ≻ 0, tested where Theorem 4's diagonal Λ does not apply"
)


def label_noise_hypotheses(setting: Setting) -> None:
    """The label-noise extension compares Γ_s⁻¹ with Γ⁻¹ (Γ_s = Γ + s²/N·I): they coincide at
    s² = 0, so its strict L_s(Γ⁻¹) > L*_s needs label noise s² > 0."""
    if setting.noise_var <= 0:
        raise ValueError(
            f"noise_var={setting.noise_var!r}: the label-noise extension compares Γ_s⁻¹ with Γ⁻¹ "
            "(Γ_s = Γ + s²/N·I), which coincide at s² = 0: it needs label noise s² > 0"
        )


RESULTS: tuple[Result, ...] = (
    Result(
        id="zfb24:lem9",
        kind="lemma",
        summary=(
            "prediction = uᵀHu (column-major Vec), H = ½X⊗EEᵀ/N has min(d, N)+1 negative "
            "eigenvalues"
        ),
        source="[zfb24] Lemma 9 / 13, eq. (24)",
        statement="ŷ = Vec(U)ᵀ H Vec(U), H = ½ X ⊗ (EEᵀ/N), X = [[0, x_q],[x_qᵀ, 0]]",
        objects=(
            "theory.zfb24:lemma9_H",
            "theory.zfb24:prediction_quadratic",
            "theory.zfb24:U_from_weights",
        ),
        checks=(
            Check(
                check_lem9_symbolic,
                at=P["d3_N6"],
                fixed=SYMBOLIC,
                faults={"row_major_vec": {"fault_vec_order": "row"}},
            ),
            Check(
                check_lem9_float,
                at=P["d3_N6"],
                faults={"row_major_vec": {"fault_vec_order": "row"}},
            ),
        ),
        setting=P["d3_N6"],
        keys=("d", "N"),
    ),
    Result(
        id="zfb24:eq6",
        kind="equation",
        summary="LSA prediction uses only the last row of W^PV and the first d columns of W^KQ",
        source="[zfb24] eq. (3), (5), (6)",
        statement="ŷ = (w^PV_21ᵀ, w^PV_22)(EEᵀ/ρ)[W^KQ_11; w^KQ_21ᵀ]x_q, ρ = prompt length",
        objects=("theory.zfb24:prediction_eq6", "theory.zfb24:lsa_output"),
        checks=(
            Check(check_eq6_symbolic, at=P["d3_N5"], fixed=SYMBOLIC),
            Check(check_eq6_float, at=P["d3_N5"]),
            Check(check_eq6_torch, at=P["d3_N6"]),
        ),
        setting=P["d3_N5"],
        keys=("d", "N"),
    ),
    Result(
        id="zfb24:lem15",
        kind="lemma",
        summary="reduced loss: L = ℓ̃ + trΛ/2 on u12 = u21 = 0, and its gradients",
        source="[zfb24] eq. (28), Lemma 15",
        statement="ℓ̃ = tr[½u²ΓΛUΛUᵀ − uΛ²Uᵀ]; ∂_Uℓ̃ = u²ΓΛUΛ − uΛ², ∂_uℓ̃ = tr[uΓΛUΛUᵀ − Λ²Uᵀ]",
        objects=(
            "theory.zfb24:reduced_loss",
            "theory.zfb24:reduced_loss_grad",
            "theory.zfb24:loss_of_P",
        ),
        checks=(
            Check(check_lem15_symbolic, at=P["d3_N7"], fixed=SYMBOLIC),
            Check(check_lem15_mc, at=P["d3_N7"], faults={"gamma_is_lambda": GAMMA_IS_LAMBDA}),
        ),
        setting=P["d3_N7"],
        keys=("d", "N", "spectrum"),
    ),
    Result(
        id="zfb24:lem10",
        kind="lemma",
        summary="gradient-flow ODE for (U11, u−1); u12 = u21 = 0 invariant; no symmetrisation",
        source="[zfb24] Lemma 10 / 14, eq. (27)",
        statement="U̇ = −u²ΓΛUΛ + uΛ², u̇ = −tr[uΓΛUΛUᵀ − Λ²Uᵀ]",
        objects=("theory.zfb24:flow_rhs",),
        checks=(
            Check(check_lem10_symbolic, at=P["d3_N8"], fixed=SYMBOLIC, faults=FLOW_VARIANTS),
            LEM10_ODE,
            Check(
                check_lem10_train_flow_vs_gd,
                at=P["thm4_train"],
                fixed=TRAINED_PRESET,
                faults=GAMMA_NEIGHBOURS,
            ),
        ),
        figures=(fig_flow_trajectory,),
        setting=P["d3_N8"],
        keys=THM4_KEYS,
    ),
    Result(
        id="zfb24:lem17",
        kind="lemma",
        summary="balancedness u−1² − ‖U11‖_F² is conserved (0 under Assumption 3)",
        source="[zfb24] Lemma 17, eq. (42)",
        statement="d/dt[u_{-1}² − ‖U11‖_F²] = 0",
        objects=("theory.zfb24:balancedness", "theory.zfb24:balanced_flow_rhs"),
        checks=(
            Check(check_lem17_symbolic, at=P["d3_N8"], fixed=SYMBOLIC, faults=FLOW_VARIANTS),
            LEM10_ODE,
        ),
        setting=P["d3_N8"],
        keys=THM4_KEYS,
    ),
    Result(
        id="zfb24:flow_reductions",
        kind="derived",
        derived=True,
        summary="reduced balanced ODE, diagonal reduction (off-diagonal decay), isotropic logistic",
        source="[derived] from [zfb24] Lemmas 10, 17",
        spec="spec 004 R4",
        statement="u_ij(t) = u_ij(0)exp(−g_iλ_iλ_j∫u²); q(t) logistic with q* = 1/(√d g)",
        objects=(
            "theory.zfb24:isotropic_q",
            "theory.zfb24:offdiag_decay",
            "theory.zfb24:balanced_flow_rhs",
        ),
        checks=(
            Check(
                check_flow_reductions_ode,
                at=P["d3_N8"],
                faults={"symmetrised": {"fault_variant": "symmetrised"}},
            ),
            Check(
                check_flow_reductions_isotropic,
                at=P["d3_N8"],
                fixed="the isotropic case with reference values of q*, q(1), u₋₁(∞) "
                "(Λ = I, d = 5, N = 20, σ = 0.2), and at Λ = 0.6·I (d = 3, N = 7, σ = 0.4)",
                faults={"rate_lambda_cubed": {"fault_q_fn": F.isotropic_q_rate_lambda_cubed}},
            ),
        ),
        setting=P["d3_N8"],
        keys=THM4_KEYS,
    ),
    Result(
        id="zfb24:cor16",
        kind="corollary",
        summary="minimisers u−1U11 = Γ⁻¹, min ℓ̃ = −½tr(Λ²Γ⁻¹), excess identity, L*",
        source="[zfb24] Lemma 11, eq. (29); Corollary 16",
        statement="ℓ̃ − min ℓ̃ = ½‖Γ^{1/2}(uΛ^{1/2}UΛ^{1/2} − ΛΓ⁻¹)‖_F²; L* = ½[trΛ − tr(Λ²Γ⁻¹)]",
        objects=(
            "theory.zfb24:optimal_loss",
            "theory.zfb24:excess_identity",
            "theory.zfb24:gamma",
        ),
        checks=(
            Check(check_cor16_ode, at=P["d3_N8"], faults={"wrong_gamma": WRONG_GAMMA}),
            Check(check_cor16_mc, at=P["d3_N7"], faults={"p_lambda_inverse": P_LAMBDA_INVERSE}),
            GENERIC_VALUES,
        ),
        setting=P["d3_N8"],
        keys=("d", "N", "spectrum"),
    ),
    Result(
        id="zfb24:thm4",
        kind="theorem",
        summary="GF from Assumption 3 (σ²‖Γ‖√d < 2) stays u−1 ≥ u_min, obeys PL, converges to eq. "
        "(11)",
        source="[zfb24] Theorem 4, eq. (11); Lemmas 18–20, eqs. (43), (44), (30)",
        statement="W^KQ_* = ‖Γ⁻¹‖_F^{-1/2}[[Γ⁻¹,0],[0,0]], W^PV_* = ‖Γ⁻¹‖_F^{1/2}e e ᵀ",
        objects=(
            "theory.zfb24:limit_params",
            "theory.zfb24:u_min",
            "theory.zfb24:pl_constant",
            "theory.zfb24:init_condition",
            "theory.zfb24:initial_loss_bound",
            "theory.zfb24:W_KQ_star",
            "theory.zfb24:W_PV_star",
        ),
        checks=(
            Check(check_thm4_ode_spec_values, at=P["paper"], fixed=SPEC_VALUES),
            Check(check_thm4_ode, at=P["paper"], faults={"gamma_is_lambda": GAMMA_IS_LAMBDA}),
            Check(
                check_thm4_ode_generic,
                at=P["d3_N16"],
                fixed=GENERIC,
                faults={"gamma_is_lambda": GAMMA_IS_LAMBDA},
            ),
            Check(check_thm4_ode_beyond_condition, at=P["paper"], expect=REPORTED),
            Check(check_thm4_train_sgd, at=P["thm4_train"], faults=GAMMA_NEIGHBOURS),
            Check(check_thm4_train_population_gd, at=P["thm4_train"], faults=GAMMA_NEIGHBOURS),
        ),
        figures=(fig_flow_trajectory,),
        setting=P["paper"],
        keys=THM4_KEYS,
        hypotheses=thm4_hypotheses,
    ),
    Result(
        id="zfb24:eq12",
        kind="equation",
        summary="trained model predicts ŷ = x_qᵀΓ⁻¹(1/M)Σyᵢxᵢ on prompts of any length M (ρ = M)",
        source="[zfb24] eqs. (12), (13), (14)",
        statement="ŷ = x_qᵀΓ⁻¹((1/M)Σ_{i≤M} y_i x_i)",
        objects=("theory.zfb24:W_KQ_star", "theory.zfb24:W_PV_star"),
        checks=(
            Check(check_eq12_float, at=P["d3_N10"], fixed=EQ12_GENERIC),
            Check(check_eq12_train, at=P["thm4_train"], faults=GAMMA_NEIGHBOURS),
        ),
        setting=P["thm4_train"],
        keys=THM4_KEYS,
        hypotheses=thm4_hypotheses,
    ),
    Result(
        id="zfb24:thm5",
        kind="theorem",
        summary="exact risk on a new, possibly nonlinear task: best linear + O(1/M) + O(1/N²)",
        source="[zfb24] Theorem 5, eqs. (15), (16)",
        statement="E(ŷ−y)² = min_w E(⟨w,x⟩−y)² + tr(ΣΓ⁻²Λ)/M + aᵀΓ⁻²Λ(Λ+trΛI)²a/N²",
        objects=(
            "theory.zfb24:theorem5_risk",
            "theory.zfb24:theorem5_excess",
            "theory.zfb24:noiseless_risk",
            "theory.zfb24:quadratic_task_moments",
        ),
        checks=(
            Check(
                check_thm5_mc,
                at=P["thm5"],
                faults={
                    "p_lambda_inverse": P_LAMBDA_INVERSE,
                    "wrong_gamma": WRONG_GAMMA,
                    "task_moments_coef_quarter": {"fault_task_coef": 0.25},
                },
            ),
            Check(check_thm5_symbolic, at=P["thm5"], fixed=SYMBOLIC),
            GENERIC_VALUES,
        ),
        setting=P["thm5"],
        keys=("N", "M"),
    ),
    Result(
        id="zfb24:cor6",
        kind="corollary",
        summary="noiseless R(M,N), R(N,N) = 2L*, bounds, floor η, rates −1 in M and −2 in N",
        source="[zfb24] §4.1, Corollary 6; R(M,N) [derived] from eq. (16)",
        statement="R(M,N) ≤ (d+1)trΛ/M + η, η = (1+2d+d²κ)trΛ/N²",
        objects=(
            "theory.zfb24:prior_risk",
            "theory.zfb24:cor6_eta",
            "theory.zfb24:cor6_bound",
            "theory.zfb24:tight_bound",
        ),
        checks=(
            Check(check_cor6_float, at=P["paper"], fixed=SPEC_VALUES),
            Check(check_cor6_mc, at=P["paper"], faults={"p_lambda_inverse": P_LAMBDA_INVERSE}),
            Check(
                check_cor6_rate,
                at=P["paper"],
                fixed="log-log slopes over grids of M (at N = 10⁴) and N (50 to 5000) at the "
                "Λ = diag(0.5, 1, 1.5, 2): not one setting",
            ),
            Check(
                check_cor6_float_threshold,
                at=P["paper"],
                faults={
                    "threshold_d_for_d_plus_1": {
                        "fault_threshold_fn": F.cor6_threshold_d_for_d_plus_1
                    }
                },
            ),
            Check(
                check_cor6_float_threshold_generic,
                at=P["d3_N16"],
                fixed=GENERIC,
                faults={
                    "threshold_d_for_d_plus_1": {
                        "fault_threshold_fn": F.cor6_threshold_d_for_d_plus_1
                    }
                },
            ),
        ),
        figures=(fig_risk_rates,),
        setting=P["paper"],
        keys=("N",),
    ),
    Result(
        id="zfb24:shifts",
        kind="observation",
        summary="§4.2: exact shifted risk R(P; Λ', S_q, M); task/query shifts tolerated, scaling "
        "not",
        source="[zfb24] §4.2, eqs. (17), (18); exact risk [derived]",
        spec="spec 004 R11",
        statement="x ↦ cx: ŷ → c²x_qᵀw, limit risk (c²−1)²c²trΛ",
        objects=(
            "theory.zfb24:shift_risk",
            "theory.zfb24:covariate_scaling_limit",
            "theory.zfb24:query_shift_floor",
        ),
        checks=(
            Check(check_shifts_mc, at=P["shifts"], faults={"p_lambda_inverse": P_LAMBDA_INVERSE}),
            Check(
                check_shifts_spec_values,
                at=P["shifts"],
                fixed="reference values of §4.2's shifted risk at d = 3, N = 12, M = 6, "
                "Λ = diag(0.5, 1, 2)",
            ),
            Check(
                check_shifts_mc_covariate_scaling,
                at=P["shifts"],
                fixed="a symbolic M, N → ∞ limit and points at M = N = 500 and 1000: not a setting",
            ),
            Check(
                check_shifts_train,
                at=P["thm4_train"],
                fixed=TRAINED_PRESET,
                faults=GAMMA_NEIGHBOURS,
            ),
            GENERIC_VALUES,
        ),
        setting=P["shifts"],
        keys=("N", "M"),
    ),
    Result(
        id="zfb24:fn2",
        kind="remark",
        summary="one GD step without preconditioning has limit risk tr(Λ(Λ−I)²) ≠ 0 for Λ ≠ I",
        source="[zfb24] footnote 2",
        spec="spec 004 §6.20, R14",
        statement="x^T((1/n)Σyᵢxᵢ) → xᵀΛw ≠ xᵀw",
        objects=("theory.zfb24:plain_gd_risk_limit",),
        checks=(
            Check(check_fn2_mc, at=P["fn2"]),
            Check(
                check_fn2_limit,
                at=P["fn2"],
                fixed="a symbolic n → ∞ limit and one point at M = N = 1000: not a setting",
            ),
        ),
        setting=P["fn2"],
        keys=("N",),
    ),
    Result(
        id="zfb24:thm8",
        kind="theorem",
        summary="random covariance: Lemma 21/Cor 22 ODE and moments, minimisers D = diag(ξ/γ), "
        "limits",
        source="[zfb24] Theorem 8, eqs. (21), (22); Lemma 21, Corollary 22, Lemmas 23–28",
        statement="u−1U11 → D = (E[Γ_τΛ_τ²])⁻¹E[Λ_τ²]; Exp(1): D = N/(3N+d+5) I",
        objects=(
            "theory.zfb24:rdm_moments",
            "theory.zfb24:rdm_limit",
            "theory.zfb24:rdm_D",
            "theory.zfb24:delta_exp",
            "theory.zfb24:rdm_init_bound",
            "theory.zfb24:rdm_u_min",
            "theory.zfb24:rdm_pl_constant",
        ),
        checks=(
            Check(check_thm8_symbolic, at=P["thm8_ode"], fixed=SYMBOLIC),
            Check(
                check_thm8_mc_moments,
                at=P["d3_N8"],
                fixed="Lemma 21 under a fixed non-identical Gamma law of 3 coordinates "
                "(ζ asymmetric): not a setting",
            ),
            Check(
                check_thm8_ode_spec_values,
                at=P["thm8_ode"],
                fixed="reference values of §4.3 for Exp(1) features, d = 3, N = 8",
            ),
            Check(check_thm8_ode, at=P["thm8_ode"]),
            Check(check_thm8_mc_loss, at=P["d3_N8"]),
            Check(check_thm8_train_sgd, at=P["thm8_train"], faults=DELTA_NEIGHBOURS),
            Check(
                check_thm8_float_bounds,
                at=P["thm8_bounds"],
                faults={"u_min_d_for_sqrt_d": {"fault_u_min_fn": F.rdm_u_min_d_for_sqrt_d}},
            ),
        ),
        setting=P["thm8_ode"],
        keys=("d", "N", "sigma_init"),
        hypotheses=thm8_hypotheses,
    ),
    Result(
        id="zfb24:rdm_risk",
        kind="derived",
        derived=True,
        summary="exact risk r(δ, c, M) of a scalar-δ LSA on random-covariance tests (Figure 1 "
        "curves)",
        source="[derived] for [zfb24] eq. (23) and Figure 1",
        spec="spec 004 R12",
        statement="r = δ²c³m3 − 2δc²m2 + cm1 + δ²c³(2m3 + (d−1)m1m2)/M",
        objects=("theory.zfb24:rdm_test_risk", "theory.zfb24:fixed_test_risk"),
        checks=(
            Check(
                check_rdm_risk_mc,
                at=P["rdm_risk"],
                # test covariances Gamma(4, 1/4) (mean 1, lighter tails) while r uses Exp(1)
                faults={"test_cov_gamma4": {"fault_gamma_k": 4.0}},
            ),
        ),
        figures=(fig_1,),
        setting=P["rdm_risk"],
        keys=("d", "N", "delta"),
    ),
    Result(
        id="zfb24:label_noise",
        kind="derived",
        derived=True,
        summary="label-noise extension: Γ_s = Γ + s²/N·I, minimiser Γ_s⁻¹, L*_s",
        source="[derived] (not in [zfb24])",
        spec="spec 004 §5",
        statement="L*_s = ½[trΛ + s² − tr(Λ²Γ_s⁻¹)]",
        objects=("theory.zfb24:gamma_noisy", "theory.zfb24:optimal_loss_noisy"),
        checks=(Check(check_label_noise_mc, at=P["d3_N7"]),),
        setting=P["d3_N7"],
        keys=("d", "N", "spectrum", "noise_var"),
        hypotheses=label_noise_hypotheses,
    ),
    Result(
        id="zfb24:fig1",
        kind="figure",
        summary="Figure 1 theory content: zero, least squares, LSA fixed/random-trained, c ∈ "
        "{1,4,9}",
        source="[zfb24] Figure 1, Appendix E",
        spec="spec 004 §4 (CPU proxies P1, P2)",
        statement="orderings: LSA limit ≤ zero at c = 1; LSA ≫ zero at c = 9; LS = 0 for M ≥ d",
        objects=(
            "theory.zfb24:rdm_test_risk",
            "theory.zfb24:fixed_test_risk",
            "theory.zfb24:lsa_limit_random",
        ),
        checks=(
            Check(
                check_fig1_mc,
                at=P["fig1"],
                fixed="Figure 1's own setting (d = 20) and reference values of δ_R(40), δ_R(100)",
            ),
            Check(
                check_fig1_symbolic_limit,
                at=P["fig1"],
                fixed=SYMBOLIC,
                faults={"limit_2c_for_4c": {"fault_limit_fn": F.lsa_limit_random_2c_for_4c}},
            ),
        ),
        figures=(fig_1,),
        setting=P["fig1"],
        keys=(),
    ),
)


#: Trained claims over settings drawn from the theorems' own hypotheses.  The drawn
#: dicts replace those fields of the check's declared preset; the presets are tried first.
THM4_PINNED = {"d": 4, "N": 4, "spectrum": (0.5, 1.0, 1.5, 2.0), "sigma_init": 0.3}
THM8_PINNED = {"d": 5, "N": 3}
#: A valid setting (Theorem 4's hypotheses hold) where SGD at the full curvature-scaled lr leaves
#: the invariant set u₁₂ = u₂₁ = 0 (sims.zfb24.sec4_1_convergence.SGD_LR_SAFETY): every tier
#: tries it.
THM4_SGD_SMALL_N = {"d": 2, "N": 3, "spectrum": (0.5, 2.0), "sigma_init": 0.3}

PROPERTIES: tuple[TrainedProperty, ...] = (
    TrainedProperty(
        result="zfb24:thm4",
        name="any-setting",
        check=check_thm4_train_population_gd,
        strategy=thm4_train_settings,
        pinned=(THM4_PINNED,),
    ),
    TrainedProperty(  # the SGD route passes, or is skipped with its numbers
        result="zfb24:thm4",
        name="sgd-any-setting",
        check=check_thm4_train_sgd,
        strategy=thm4_train_settings,
        pinned=(THM4_PINNED,),
        explicit=(THM4_SGD_SMALL_N,),
        examples=1,
        thorough_examples=10,
        report_examples=1,
    ),
    TrainedProperty(
        result="zfb24:eq12",
        name="any-setting",
        check=check_eq12_train,
        strategy=thm4_train_settings,
        pinned=(THM4_PINNED,),
    ),
    TrainedProperty(
        result="zfb24:thm8",
        name="any-setting",
        check=check_thm8_train_sgd,
        strategy=thm8_train_settings,
        pinned=(THM8_PINNED,),
    ),
)
