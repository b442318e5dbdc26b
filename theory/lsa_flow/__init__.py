"""[zfb24] Zhang, Frei, Bartlett (2024), "Trained Transformers Learn Linear Models In-Context".

JMLR 25(49); arXiv:2306.09927.  Spec: ``../shared/specs/004_trained_lsa.md`` (authoritative).

A single linear self-attention layer (merged ``W^{KQ}, W^{PV} ∈ R^{(d+1)×(d+1)}``, no mask, ρ = prompt
length) trained by gradient flow on noiseless linear-regression prompts from the balanced
initialisation (Assumption 3) converges to ``u₋₁U₁₁ = Γ⁻¹`` (Theorem 4) and then predicts
``ŷ = x_qᵀΓ⁻¹(1/M)Σyᵢxᵢ`` on prompts of any length M (eq. 12).

Sub-modules: :mod:`.fixed` (Γ, Lemma 9, ℓ̃, the flow, minima, Theorem 4), :mod:`.risk`
(Theorem 5, R(M, N), Corollary 6, §4.2 shifts, footnote 2), :mod:`.random_cov` (§4.3, Theorem 8).

NOTATION (paper symbol → code name → canonical cross-paper name)

==================  ==================  =========================================================
paper               code                canonical / remark
==================  ==================  =========================================================
d                   ``d``               ``d``
N                   ``N``               ``N`` (training prompt length)
M                   ``M``               ``M`` (test prompt length; ρ = M at test)
Λ                   ``Lambda``          ``Sigma_x`` (covariate covariance)
Γ                   ``gamma(...)``      (1+1/N)Λ + trΛ/N·I; zwb24's Γ is ≈ our Γ⁻¹ (clash!)
Γ_s                 ``gamma_noisy``     [derived] Γ + s²/N·I, label-noise variance s² = ``noise_var``
w (w_τ)             ``w``               ``beta`` (task vector, prior N(0, I_d), mean 0)
σ                   ``sigma_init``      initialisation scale of Assumption 3 — NOT a noise level
Θ                   ``Theta``           ‖ΘΘᵀ‖_F = 1; random scheme M₀M₀ᵀ/‖M₀M₀ᵀ‖_F (M₀ ≠ test length)
U₁₁, u₋₁            ``U11``, ``u``      W^{KQ}_{11}, w^{PV}_{22}
u₁₂, u₂₁            ``u12``, ``u21``    w^{PV}_{21}, w^{KQ}_{21}
P                   ``P``               u₋₁U₁₁, the effective preconditioner
ℓ̃                   ``reduced_loss``    L − trΛ/2 on u₁₂ = u₂₁ = 0
Σ (Theorem 5)       ``Sigma``           Cov(xy) — NOT a covariate covariance
a (Theorem 5)       ``a``               Λ⁻¹E[xy], best linear predictor
η (Corollary 6)     ``cor6_eta``        error floor, NOT a step size
μ, ν                ``pl_constant``     PL constants
γ_i, ξ_i, ζ_ij      ``rdm_moments``     random-covariance moments (not eigenvalues of Γ)
D, δ                ``rdm_D``, ``delta_*``  random-covariance limit of P (D = δI for iid entries)
==================  ==================  =========================================================
"""

from __future__ import annotations

from theory.common.protocols import Result
from theory.lsa_flow.fixed import (
    FLOW_VARIANTS,
    U_from_weights,
    W_KQ_star,
    W_PV_star,
    balanced_flow_rhs,
    balancedness,
    excess_identity,
    flow_rhs,
    flow_rhs_fn,
    gamma,
    gamma_fn,
    gamma_noisy,
    gamma_noisy_fn,
    init_condition,
    initial_loss_bound,
    initial_state,
    isotropic_q,
    isotropic_q_fn,
    lemma9_H,
    limit_params,
    limit_params_fn,
    loss_of_P,
    loss_of_P_fn,
    lsa_output,
    offdiag_decay,
    optimal_loss,
    optimal_loss_fn,
    optimal_loss_isotropic,
    optimal_loss_noisy,
    pl_constant,
    prediction_eq6,
    prediction_quadratic,
    reduced_loss,
    reduced_loss_fn,
    reduced_loss_grad,
    reduced_loss_grad_fn,
    u_min,
    vec,
)
from theory.lsa_flow.random_cov import (
    delta_exp,
    delta_iid,
    exp_moments,
    fixed_test_risk,
    gamma_law_moments,
    lsa_limit_random,
    moments_iid,
    rdm_coefficients,
    rdm_D,
    rdm_flow_rhs,
    rdm_init_bound,
    rdm_limit,
    rdm_loss,
    rdm_min_loss,
    rdm_moments,
    rdm_optimal_loss,
    rdm_pl_constant,
    rdm_test_risk,
    rdm_test_risk_fn,
    rdm_u_min,
)
from theory.lsa_flow.risk import (
    cor6_bound,
    cor6_eta,
    cor6_M_threshold,
    covariate_scaling_limit,
    covariate_scaling_risk,
    noiseless_risk,
    noiseless_Sigma,
    plain_gd_risk_limit,
    prior_risk,
    prior_risk_floor,
    prior_risk_fn,
    prior_risk_isotropic,
    quadratic_task_moments,
    query_shift_floor,
    shift_risk,
    shift_risk_fn,
    theorem5_excess,
    theorem5_risk,
    tight_bound,
)

__all__ = [
    "FLOW_VARIANTS", "U_from_weights", "W_KQ_star", "W_PV_star", "balanced_flow_rhs",
    "balancedness", "excess_identity", "flow_rhs", "flow_rhs_fn", "gamma", "gamma_fn",
    "gamma_noisy", "gamma_noisy_fn", "init_condition", "initial_loss_bound", "initial_state", "isotropic_q",
    "isotropic_q_fn", "lemma9_H", "limit_params", "limit_params_fn", "loss_of_P", "loss_of_P_fn",
    "lsa_output", "offdiag_decay", "optimal_loss", "optimal_loss_fn", "optimal_loss_isotropic",
    "optimal_loss_noisy", "pl_constant", "prediction_eq6", "prediction_quadratic", "reduced_loss",
    "reduced_loss_fn", "reduced_loss_grad", "reduced_loss_grad_fn", "u_min", "vec",
    "delta_exp", "delta_iid", "exp_moments", "fixed_test_risk", "gamma_law_moments",
    "lsa_limit_random", "moments_iid", "rdm_coefficients", "rdm_D", "rdm_flow_rhs",
    "rdm_init_bound", "rdm_limit", "rdm_loss", "rdm_min_loss", "rdm_moments",
    "rdm_optimal_loss", "rdm_pl_constant", "rdm_test_risk", "rdm_test_risk_fn", "rdm_u_min",
    "cor6_bound", "cor6_eta", "cor6_M_threshold", "covariate_scaling_limit",
    "covariate_scaling_risk", "noiseless_risk", "noiseless_Sigma", "plain_gd_risk_limit",
    "prior_risk", "prior_risk_floor", "prior_risk_fn", "prior_risk_isotropic",
    "query_shift_floor", "quadratic_task_moments", "shift_risk", "shift_risk_fn", "theorem5_excess", "theorem5_risk",
    "tight_bound", "NOTATION", "RESULTS",
]

NOTATION = __doc__

_N = "numerics.lsa_flow:"
_S = "sims.checks.lsa_flow:"
_F = "sims.figures.lsa_flow:"
_T = "theory.lsa_flow:"

RESULTS: tuple[Result, ...] = (
    Result(
        id="zfb24:lem9", kind="lemma",
        summary="prediction = uᵀHu (column-major Vec), H = ½X⊗EEᵀ/N has d+1 negative eigenvalues",
        source="[zfb24] Lemma 9 / 13, eq. (24)",
        statement="ŷ = Vec(U)ᵀ H Vec(U), H = ½ X ⊗ (EEᵀ/N), X = [[0, x_q],[x_qᵀ, 0]]",
        objects=(_T + "lemma9_H", _T + "prediction_quadratic", _T + "U_from_weights"),
        checks=(_N + "check_lem9",),
    ),
    Result(
        id="zfb24:eq6", kind="equation",
        summary="LSA prediction uses only the last row of W^PV and the first d columns of W^KQ",
        source="[zfb24] eq. (3), (5), (6)",
        statement="ŷ = (w^PV_21ᵀ, w^PV_22)(EEᵀ/ρ)[W^KQ_11; w^KQ_21ᵀ]x_q, ρ = prompt length",
        objects=(_T + "prediction_eq6", _T + "lsa_output"),
        checks=(_N + "check_eq6", _S + "check_eq6_torch"),
    ),
    Result(
        id="zfb24:lem15", kind="lemma",
        summary="reduced loss: L = ℓ̃ + trΛ/2 on u12 = u21 = 0, and its gradients",
        source="[zfb24] eq. (28), Lemma 15",
        statement="ℓ̃ = tr[½u²ΓΛUΛUᵀ − uΛ²Uᵀ]; ∂_Uℓ̃ = u²ΓΛUΛ − uΛ², ∂_uℓ̃ = tr[uΓΛUΛUᵀ − Λ²Uᵀ]",
        objects=(_T + "reduced_loss", _T + "reduced_loss_grad", _T + "loss_of_P"),
        checks=(_N + "check_lem15_symbolic", _N + "check_lem15_mc"),
    ),
    Result(
        id="zfb24:lem10", kind="lemma",
        summary="gradient-flow ODE for (U11, u−1); u12 = u21 = 0 invariant; no symmetrisation",
        source="[zfb24] Lemma 10 / 14, eq. (27)",
        statement="U̇ = −u²ΓΛUΛ + uΛ², u̇ = −tr[uΓΛUΛUᵀ − Λ²Uᵀ]",
        objects=(_T + "flow_rhs",),
        checks=(_N + "check_lem10_symbolic", _N + "check_flow_ode", _S + "check_flow_vs_gd"),
        figures=(_F + "fig_ode_trajectory",),
    ),
    Result(
        id="zfb24:lem17", kind="lemma",
        summary="balancedness u−1² − ‖U11‖_F² is conserved (0 under Assumption 3)",
        source="[zfb24] Lemma 17, eq. (42)",
        statement="d/dt[u_{-1}² − ‖U11‖_F²] = 0",
        objects=(_T + "balancedness", _T + "balanced_flow_rhs"),
        checks=(_N + "check_lem17_symbolic", _N + "check_flow_ode"),
    ),
    Result(
        id="zfb24:flow_reductions", kind="derived", derived=True,
        summary="reduced balanced ODE, diagonal reduction (off-diagonal decay), isotropic logistic",
        source="[derived] spec 004 R4, from [zfb24] Lemmas 10, 17",
        statement="u_ij(t) = u_ij(0)exp(−g_iλ_iλ_j∫u²); q(t) logistic with q* = 1/(√d g)",
        objects=(_T + "isotropic_q", _T + "offdiag_decay", _T + "balanced_flow_rhs"),
        checks=(_N + "check_flow_reductions",),
    ),
    Result(
        id="zfb24:cor16", kind="corollary",
        summary="minimisers u−1U11 = Γ⁻¹, min ℓ̃ = −½tr(Λ²Γ⁻¹), excess identity, L*",
        source="[zfb24] Lemma 11, eq. (29); Corollary 16",
        statement="ℓ̃ − min ℓ̃ = ½‖Γ^{1/2}(uΛ^{1/2}UΛ^{1/2} − ΛΓ⁻¹)‖_F²; L* = ½[trΛ − tr(Λ²Γ⁻¹)]",
        objects=(_T + "optimal_loss", _T + "excess_identity", _T + "gamma"),
        checks=(_N + "check_minima", _N + "check_lstar_mc"),
    ),
    Result(
        id="zfb24:thm4", kind="theorem",
        summary="GF from Assumption 3 (σ²‖Γ‖√d < 2) stays u−1 ≥ u_min, obeys PL, converges to eq. (11)",
        source="[zfb24] Theorem 4, eq. (11); Lemmas 18–20, eqs. (43), (44), (30)",
        statement="W^KQ_* = ‖Γ⁻¹‖_F^{-1/2}[[Γ⁻¹,0],[0,0]], W^PV_* = ‖Γ⁻¹‖_F^{1/2}e e ᵀ",
        objects=(_T + "limit_params", _T + "u_min", _T + "pl_constant", _T + "init_condition",
                 _T + "initial_loss_bound",
                 _T + "W_KQ_star", _T + "W_PV_star"),
        checks=(_N + "check_thm4_ode", _N + "check_thm4_beyond_condition",
                _S + "check_thm4_sgd", _S + "check_thm4_population_gd"),
        figures=(_F + "fig_ode_trajectory",),
    ),
    Result(
        id="zfb24:eq12", kind="equation",
        summary="trained model predicts ŷ = x_qᵀΓ⁻¹(1/M)Σyᵢxᵢ on prompts of any length M (ρ = M)",
        source="[zfb24] eqs. (12), (13), (14)",
        statement="ŷ = x_qᵀΓ⁻¹((1/M)Σ_{i≤M} y_i x_i)",
        objects=(_T + "W_KQ_star", _T + "W_PV_star"),
        checks=(_N + "check_eq12", _S + "check_eq12_trained"),
    ),
    Result(
        id="zfb24:thm5", kind="theorem",
        summary="exact risk on a new, possibly nonlinear task: best linear + O(1/M) + O(1/N²)",
        source="[zfb24] Theorem 5, eqs. (15), (16)",
        statement="E(ŷ−y)² = min_w E(⟨w,x⟩−y)² + tr(ΣΓ⁻²Λ)/M + aᵀΓ⁻²Λ(Λ+trΛI)²a/N²",
        objects=(_T + "theorem5_risk", _T + "theorem5_excess", _T + "noiseless_risk",
                 _T + "quadratic_task_moments"),
        checks=(_N + "check_thm5_mc", _N + "check_thm5_identities"),
    ),
    Result(
        id="zfb24:cor6", kind="corollary",
        summary="noiseless R(M,N), R(N,N) = 2L*, bounds, floor η, rates −1 in M and −2 in N",
        source="[zfb24] §4.1, Corollary 6; R(M,N) [derived] from eq. (16)",
        statement="R(M,N) ≤ (d+1)trΛ/M + η, η = (1+2d+d²κ)trΛ/N²",
        objects=(_T + "prior_risk", _T + "cor6_eta", _T + "cor6_bound", _T + "tight_bound"),
        checks=(_N + "check_cor6", _N + "check_cor6_mc", _N + "check_rates"),
        figures=(_F + "fig_rates",),
    ),
    Result(
        id="zfb24:shifts", kind="observation",
        summary="§4.2: exact shifted risk R(P; Λ', S_q, M); task/query shifts tolerated, scaling not",
        source="[zfb24] §4.2, eqs. (17), (18); exact risk [derived] (spec R11)",
        statement="x ↦ cx: ŷ → c²x_qᵀw, limit risk (c²−1)²c²trΛ",
        objects=(_T + "shift_risk", _T + "covariate_scaling_limit", _T + "query_shift_floor"),
        checks=(_N + "check_shifts_mc", _N + "check_covariate_scaling", _S + "check_shifts_trained"),
    ),
    Result(
        id="zfb24:fn2", kind="remark",
        summary="one GD step without preconditioning has limit risk tr(Λ(Λ−I)²) ≠ 0 for Λ ≠ I",
        source="[zfb24] footnote 2 (spec §6.20, R14)",
        statement="x^T((1/n)Σyᵢxᵢ) → xᵀΛw ≠ xᵀw",
        objects=(_T + "plain_gd_risk_limit",),
        checks=(_N + "check_fn2",),
    ),
    Result(
        id="zfb24:thm8", kind="theorem",
        summary="random covariance: Lemma 21/Cor 22 ODE and moments, minimisers D = diag(ξ/γ), limits",
        source="[zfb24] Theorem 8, eqs. (21), (22); Lemma 21, Corollary 22, Lemmas 23–28",
        statement="u−1U11 → D = (E[Γ_τΛ_τ²])⁻¹E[Λ_τ²]; Exp(1): D = N/(3N+d+5) I",
        objects=(_T + "rdm_moments", _T + "rdm_limit", _T + "rdm_D", _T + "delta_exp",
                 _T + "rdm_init_bound", _T + "rdm_u_min", _T + "rdm_pl_constant"),
        checks=(_N + "check_rdm_symbolic", _N + "check_rdm_moments_mc", _N + "check_rdm_ode",
                _N + "check_rdm_loss_mc", _S + "check_thm8_sgd"),
    ),
    Result(
        id="zfb24:rdm_risk", kind="derived", derived=True,
        summary="exact risk r(δ, c, M) of a scalar-δ LSA on random-covariance tests (Figure 1 curves)",
        source="[derived] spec R12, for [zfb24] eq. (23) and Figure 1",
        statement="r = δ²c³m3 − 2δc²m2 + cm1 + δ²c³(2m3 + (d−1)m1m2)/M",
        objects=(_T + "rdm_test_risk", _T + "fixed_test_risk"),
        checks=(_N + "check_rdm_risk_mc",),
        figures=(_F + "fig_figure1",),
    ),
    Result(
        id="zfb24:label_noise", kind="derived", derived=True,
        summary="label-noise extension: Γ_s = Γ + s²/N·I, minimiser Γ_s⁻¹, L*_s",
        source="[derived] spec 004 §5 (not in [zfb24])",
        statement="L*_s = ½[trΛ + s² − tr(Λ²Γ_s⁻¹)]",
        objects=(_T + "gamma_noisy", _T + "optimal_loss_noisy"),
        checks=(_N + "check_label_noise",),
    ),
    Result(
        id="zfb24:fig1", kind="figure",
        summary="Figure 1 theory content: zero, least squares, LSA fixed/random-trained, c ∈ {1,4,9}",
        source="[zfb24] Figure 1, Appendix E (CPU proxies P1, P2 of spec §4)",
        statement="orderings: LSA limit ≤ zero at c = 1; LSA ≫ zero at c = 9; LS = 0 for M ≥ d",
        objects=(_T + "rdm_test_risk", _T + "fixed_test_risk", _T + "lsa_limit_random"),
        checks=(_N + "check_fig1",),
        figures=(_F + "fig_figure1",),
    ),
)
