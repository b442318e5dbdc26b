"""[zfb24] results: the registry of verifiable results of Zhang, Frei, Bartlett (2024)."""

from __future__ import annotations

from theory.common.protocols import Check, Result, TrainedProperty
from theory.zfb24.controls import (
    DELTA_NEIGHBOURS,
    GAMMA_NEIGHBOURS,
    GENERIC_VALUES,
    LEM10_ODE,
    P_LAMBDA_INVERSE,
    THM4_PRESET,
    THM8_PRESET,
    WRONG_GAMMA,
    fault,
)

__all__ = ["RESULTS", "PROPERTIES"]

RESULTS: tuple[Result, ...] = (
    Result(
        id="zfb24:lem9",
        kind="lemma",
        summary="prediction = uᵀHu (column-major Vec), H = ½X⊗EEᵀ/N has d+1 negative eigenvalues",
        source="[zfb24] Lemma 9 / 13, eq. (24)",
        statement="ŷ = Vec(U)ᵀ H Vec(U), H = ½ X ⊗ (EEᵀ/N), X = [[0, x_q],[x_qᵀ, 0]]",
        objects=(
            "theory.zfb24:lemma9_H",
            "theory.zfb24:prediction_quadratic",
            "theory.zfb24:U_from_weights",
        ),
        checks=(
            Check(
                "numerics.zfb24.sec3_model:check_lem9_symbolic",
                faults={"row_major_vec": {"fault_vec_order": "row"}},
            ),
        ),
    ),
    Result(
        id="zfb24:eq6",
        kind="equation",
        summary="LSA prediction uses only the last row of W^PV and the first d columns of W^KQ",
        source="[zfb24] eq. (3), (5), (6)",
        statement="ŷ = (w^PV_21ᵀ, w^PV_22)(EEᵀ/ρ)[W^KQ_11; w^KQ_21ᵀ]x_q, ρ = prompt length",
        objects=("theory.zfb24:prediction_eq6", "theory.zfb24:lsa_output"),
        checks=(
            Check("numerics.zfb24.sec3_model:check_eq6_symbolic"),
            Check("sims.zfb24.sec3_model:check_eq6_torch"),
        ),
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
            Check("numerics.zfb24.sec5_flow:check_lem15_symbolic"),
            Check(
                "numerics.zfb24.sec5_flow:check_lem15_mc",
                faults={"gamma_is_lambda": {"fault_gamma_fn": fault("lambda_as_gamma")}},
            ),
        ),
    ),
    Result(
        id="zfb24:lem10",
        kind="lemma",
        summary="gradient-flow ODE for (U11, u−1); u12 = u21 = 0 invariant; no symmetrisation",
        source="[zfb24] Lemma 10 / 14, eq. (27)",
        statement="U̇ = −u²ΓΛUΛ + uΛ², u̇ = −tr[uΓΛUΛUᵀ − Λ²Uᵀ]",
        objects=("theory.zfb24:flow_rhs",),
        checks=(
            Check(
                "numerics.zfb24.sec5_flow:check_lem10_symbolic",
                faults={
                    "symmetrised": {"fault_variant": "symmetrised"},
                    "transposed_term": {"fault_variant": "transposed"},
                },
            ),
            LEM10_ODE,
            Check("sims.zfb24.sec5_flow:check_lem10_train_flow_vs_gd", faults=GAMMA_NEIGHBOURS),
        ),
        figures=("sims.figures.zfb24:fig_flow_trajectory",),
    ),
    Result(
        id="zfb24:lem17",
        kind="lemma",
        summary="balancedness u−1² − ‖U11‖_F² is conserved (0 under Assumption 3)",
        source="[zfb24] Lemma 17, eq. (42)",
        statement="d/dt[u_{-1}² − ‖U11‖_F²] = 0",
        objects=("theory.zfb24:balancedness", "theory.zfb24:balanced_flow_rhs"),
        checks=(
            Check(
                "numerics.zfb24.sec5_flow:check_lem17_symbolic",
                faults={
                    "transposed_term": {"fault_variant": "transposed"},
                    "symmetrised": {"fault_variant": "symmetrised"},
                },
            ),
            LEM10_ODE,
        ),
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
                "numerics.zfb24.sec5_flow:check_flow_reductions_ode",
                faults={"symmetrised": {"fault_variant": "symmetrised"}},
            ),
        ),
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
            Check(
                "numerics.zfb24.sec5_flow:check_cor16_ode",
                faults={"wrong_gamma": WRONG_GAMMA},
            ),
            Check(
                "numerics.zfb24.sec5_flow:check_cor16_mc",
                faults={"p_lambda_inverse": P_LAMBDA_INVERSE},
            ),
            GENERIC_VALUES,
        ),
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
            Check(
                "numerics.zfb24.sec4_1_convergence:check_thm4_ode",
                faults={"gamma_is_lambda": {"fault_gamma_fn": fault("lambda_as_gamma")}},
            ),
            Check("numerics.zfb24.sec4_1_convergence:check_thm4_ode_beyond_condition"),
            Check("sims.zfb24.sec4_1_convergence:check_thm4_train_sgd", faults=GAMMA_NEIGHBOURS),
            Check(
                "sims.zfb24.sec4_1_convergence:check_thm4_train_population_gd",
                faults=GAMMA_NEIGHBOURS,
            ),
        ),
        figures=("sims.figures.zfb24:fig_flow_trajectory",),
    ),
    Result(
        id="zfb24:eq12",
        kind="equation",
        summary="trained model predicts ŷ = x_qᵀΓ⁻¹(1/M)Σyᵢxᵢ on prompts of any length M (ρ = M)",
        source="[zfb24] eqs. (12), (13), (14)",
        statement="ŷ = x_qᵀΓ⁻¹((1/M)Σ_{i≤M} y_i x_i)",
        objects=("theory.zfb24:W_KQ_star", "theory.zfb24:W_PV_star"),
        checks=(
            Check("numerics.zfb24.sec3_model:check_eq12_float"),
            Check("sims.zfb24.sec3_model:check_eq12_train", faults=GAMMA_NEIGHBOURS),
        ),
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
                "numerics.zfb24.sec4_1_risk:check_thm5_mc",
                faults={"p_lambda_inverse": P_LAMBDA_INVERSE, "wrong_gamma": WRONG_GAMMA},
            ),
            Check("numerics.zfb24.sec4_1_risk:check_thm5_symbolic"),
            GENERIC_VALUES,
        ),
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
            Check("numerics.zfb24.sec4_1_risk:check_cor6_float"),
            Check(
                "numerics.zfb24.sec4_1_risk:check_cor6_mc",
                faults={"p_lambda_inverse": P_LAMBDA_INVERSE},
            ),
            Check("numerics.zfb24.sec4_1_risk:check_cor6_rate"),
            Check(
                "numerics.zfb24.sec4_1_risk:check_cor6_float_threshold",
                faults={
                    "threshold_d_for_d_plus_1": {
                        "fault_threshold_fn": fault("cor6_threshold_d_for_d_plus_1")
                    }
                },
            ),
        ),
        figures=("sims.figures.zfb24:fig_risk_rates",),
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
            Check(
                "numerics.zfb24.sec4_2_shifts:check_shifts_mc",
                faults={"p_lambda_inverse": P_LAMBDA_INVERSE},
            ),
            Check("numerics.zfb24.sec4_2_shifts:check_shifts_mc_covariate_scaling"),
            Check("sims.zfb24.sec4_2_shifts:check_shifts_train", faults=GAMMA_NEIGHBOURS),
            GENERIC_VALUES,
        ),
    ),
    Result(
        id="zfb24:fn2",
        kind="remark",
        summary="one GD step without preconditioning has limit risk tr(Λ(Λ−I)²) ≠ 0 for Λ ≠ I",
        source="[zfb24] footnote 2",
        spec="spec 004 §6.20, R14",
        statement="x^T((1/n)Σyᵢxᵢ) → xᵀΛw ≠ xᵀw",
        objects=("theory.zfb24:plain_gd_risk_limit",),
        checks=(Check("numerics.zfb24.sec4_2_shifts:check_fn2_mc"),),
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
            Check("numerics.zfb24.sec4_3_random_cov:check_thm8_symbolic"),
            Check("numerics.zfb24.sec4_3_random_cov:check_thm8_mc_moments"),
            Check("numerics.zfb24.sec4_3_random_cov:check_thm8_ode"),
            Check("numerics.zfb24.sec4_3_random_cov:check_thm8_mc_loss"),
            Check("sims.zfb24.sec4_3_random_cov:check_thm8_train_sgd", faults=DELTA_NEIGHBOURS),
            Check(
                "numerics.zfb24.sec4_3_random_cov:check_thm8_float_bounds",
                faults={"u_min_d_for_sqrt_d": {"fault_u_min_fn": fault("rdm_u_min_d_for_sqrt_d")}},
            ),
        ),
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
                "numerics.zfb24.fig1:check_rdm_risk_mc",
                # test covariances Gamma(4, 1/4) (mean 1, lighter tails) while r uses Exp(1)
                faults={"test_cov_gamma4": {"fault_gamma_k": 4.0}},
            ),
        ),
        figures=("sims.figures.zfb24:fig_1",),
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
        checks=(Check("numerics.zfb24.sec5_flow:check_label_noise_mc"),),
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
            Check("numerics.zfb24.fig1:check_fig1_mc"),
            Check(
                "numerics.zfb24.fig1:check_fig1_symbolic_limit",
                faults={"limit_2c_for_4c": {"fault_limit_fn": fault("lsa_limit_random_2c_for_4c")}},
            ),
        ),
        figures=("sims.figures.zfb24:fig_1",),
    ),
)


#: Trained claims over settings drawn from the theorems' own hypotheses (STYLE R12).
PROPERTIES: tuple[TrainedProperty, ...] = (
    TrainedProperty(
        result="zfb24:thm4",
        name="any-setting",
        check="sims.zfb24.sec4_1_convergence:check_thm4_train_population_gd",
        strategy="theory.strategies.zfb24:thm4_train_settings",
        pinned=(THM4_PRESET,),
    ),
    TrainedProperty(
        result="zfb24:eq12",
        name="any-setting",
        check="sims.zfb24.sec3_model:check_eq12_train",
        strategy="theory.strategies.zfb24:thm4_train_settings",
        pinned=(THM4_PRESET,),
    ),
    TrainedProperty(
        result="zfb24:thm8",
        name="any-setting",
        check="sims.zfb24.sec4_3_random_cov:check_thm8_train_sgd",
        strategy="theory.strategies.zfb24:thm8_train_settings",
        pinned=(THM8_PRESET,),
    ),
)
