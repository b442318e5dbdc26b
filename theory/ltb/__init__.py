"""zwb24 — Zhang, Wu, Bartlett (2024), "In-Context Learning of a Linear Transformer Block:
Benefits of the MLP Component and One-Step GD Initialization" (arXiv:2402.14951, NeurIPS 2024).

Slug ``ltb``.  The extracted paper lost nearly all of its mathematics; every formula here follows
the project spec ``../shared/specs/002_linear_transformer_block.md`` (re-derived, tagged
[V-num]/[V-sym]/[R]/[R-derived-bound]/[P]), which is the authority.

Public API (names part of acceptance): :func:`optimal_risk` (``R*``, including the query noise
σ²) and :func:`optimal_gamma` (``Γ*``); numbers/arrays in → floats/arrays out, SymPy in →
expressions out.

NOTATION
========

==============  ===================  =====================================================
paper symbol    code name            canonical (``theory.settings``) / meaning
==============  ===================  =====================================================
H               ``H``                ``Sigma_x``: covariance of x_i and x (PSD, may be singular)
Ψ               ``Psi``              ``task_cov``: covariance of the task vector β̃
β*              ``beta_star``        ``task_mean``: prior mean of the task ("shared signal")
β̃ (task)        --                   task vector ~ N(β*, Ψ) (the paper's β in §3)
β (GD-β)        ``beta``             learnable initialisation of one-step GD (not the task)
Γ               ``Gamma``            d×d step-size matrix of GD-β / effective KQ block
σ²              ``sigma2``           ``noise_var``: label noise (context and query)
N               ``N``                context length (1/N normalisation, not 1/(N+1))
Ψ̄, μ̄, Γ̄         ``Psi_bar`` ...      whitened H^{1/2}ΨH^{1/2}, H^{1/2}β*, H^{1/2}ΓH^{1/2}
Ω               ``omega``            ((N+1)/N)Ψ̄ + ((tr HΨ + σ²)/N) I  (zfb24/others: different Ω)
c               --                   tr(HΨ) + σ²
a, b, Γ, φ      ``a, b, Gamma, phi`` effective LTB parameters of (★): LSA ⇔ a = 0, GD-β ⇔ a=b, φ=0
M               --                   the mask diag(I_N, 0) (zfb24: M is the test length)
==============  ===================  =====================================================

Clashes: ``H`` is the number of heads in czz24/hpcy25 (here a covariance); zfb24 calls the feature
covariance Λ and its Γ is ``(1+1/N)Λ + tr(Λ)/N I`` (our Γ* is its inverse at β* = 0, σ = 0).
"""

from __future__ import annotations

from theory.common.protocols import Result
from theory.ltb.core import (
    effective_params,
    label_second_moment,
    lemma51_weights,
    lsa_risk,
    ltb_risk,
    ltb_risk_whitened,
    omega,
    optimal_gamma,
    optimal_gamma_whitened,
    optimal_risk,
    optimal_risk_eig,
    whiten,
    whiten_params,
)
from theory.ltb.flow import (
    K_matrix,
    beta_rate_bound,
    excess_risk,
    flow_limit,
    flow_rhs,
    flow_rhs_whitened,
    invariants,
)
from theory.ltb.gap import (
    cor62_bounds,
    gap_exact_d1_noiseless,
    gap_lower_bound,
    gap_lower_bound_simplified,
    gap_upper_bound,
    gap_upper_bound_eig,
    gd0_gap,
    lsa_risk_floor,
    sum_min,
)

__all__ = [
    "optimal_risk", "optimal_gamma", "optimal_risk_eig", "optimal_gamma_whitened", "omega",
    "effective_params", "lemma51_weights", "ltb_risk", "ltb_risk_whitened", "lsa_risk",
    "whiten", "whiten_params", "label_second_moment",
    "lsa_risk_floor", "gap_lower_bound", "gap_lower_bound_simplified", "gd0_gap",
    "gap_upper_bound", "gap_upper_bound_eig", "gap_exact_d1_noiseless", "sum_min", "cor62_bounds",
    "K_matrix", "excess_risk", "flow_rhs", "flow_rhs_whitened", "flow_limit", "invariants",
    "beta_rate_bound", "NOTATION", "RESULTS",
]

NOTATION = __doc__.split("NOTATION\n========", 1)[1].split("Clashes:", 1)[0]

_N = "numerics.ltb"
_S = "sims.checks.ltb"
_F = "sims.figures.ltb"

RESULTS: tuple[Result, ...] = (
    Result(
        id="zwb24:asm3.1", kind="definition",
        summary="Data model: task ~ N(beta*, Psi), x ~ N(0, H) (H, Psi may be singular), noise "
                "sigma^2; token matrix (3.1) and mask (3.2)",
        source="[zwb24] Assumption 3.1, eq. (3.1), (3.2); spec 002 §1.1-1.2",
        statement="E[y^2] = tr(H(Psi + b*b*^T)) + sigma^2; "
                  "Z M Z^T = [[X^T X, X^T y],[y^T X, |y|^2]]",
        objects=("theory.ltb:label_second_moment",),
        checks=(f"{_N}:check_data_model_mc", f"{_S}:check_token_mask"),
    ),
    Result(
        id="zwb24:eq3.3", kind="equation",
        summary="LTB (3.3) and LSA (3.4) forward passes reduce to the effective predictor (star) "
                "x^T[a + (1/N)(Gamma X^T + phi y^T)(y - Xb)]; LSA <=> a = 0",
        source="[zwb24] eq. (3.3), (3.4); spec 002 §1.3-1.7 [V-num]",
        statement="u = (I + W2W1)^T e, v = (WP WV)^T u, a = u_1, b = -v_1/v_2, Gamma = v_2 W^T, "
                  "phi = v_2 w",
        objects=("theory.ltb:effective_params",),
        checks=(f"{_S}:check_effective_form",),
    ),
    Result(
        id="zwb24:lem5.1", kind="lemma",
        summary="LTB contains GD-beta: explicit raw weights implementing f_{Gamma,beta}",
        source="[zwb24] Lemma 5.1 (App. B); construction: spec 002 §2.3",
        statement="W2W1 = [[0,0],[beta^T,0]], WP WV = [[0,0],[-beta^T,1]], WK^T WQ = "
                  "[[Gamma^T,0],[0,0]]",
        objects=("theory.ltb:lemma51_weights",),
        checks=(f"{_S}:check_lemma51",),
    ),
    Result(
        id="zwb24:lemH.4", kind="lemma",
        summary="Gaussian fourth moments E[xx^T A xx^T], E[X^TX A X^TX] (shared implementation)",
        source="[zwb24] Lemma H.4; spec 002 §2.0",
        statement="E[x x^T A x x^T] = HAH + HA^TH + tr(AH)H; "
                  "E[X^TX A X^TX] = N^2 HAH + N(HA^TH + tr(AH)H)",
        objects=("theory.common.gaussian:isserlis_fourth_moment",
                 "theory.common.gaussian:wishart_fourth_moment"),
        checks=(f"{_N}:check_isserlis_mc",),
    ),
    Result(
        id="zwb24:eq-gdbeta-risk", kind="equation",
        summary="Closed-form ICL risk of any GD-beta model f_{Gamma,beta} (shared implementation)",
        source="[zwb24] eq. (5.1) and App. C; spec 002 §2.1 [V-num]",
        statement="R = s2 + tr(H Psi_b) - 2tr(H G H Psi_b) + (N+1)/N tr(H G^T H G H Psi_b) "
                  "+ c_b/N tr(G^T H G H)",
        objects=("theory.common.baselines:gd_beta_risk",),
        checks=(f"{_N}:check_gd_beta_risk_mc",),
    ),
    Result(
        id="zwb24:eq-ltb-risk", kind="equation",
        summary="Closed-form ICL risk of the general LTB in effective parameters "
                "(a, b, Gamma, phi)",
        source="[zwb24] App. D (proofs of Thm 4.1, 5.3); spec 002 §2.2 [V-num], §1.8 whitening",
        statement="R_LTB = s2 + T1 + T2 + T3 (spec 002 §2.2); LSA = R_LTB(a=0)",
        objects=("theory.ltb:ltb_risk", "theory.ltb:ltb_risk_whitened", "theory.ltb:lsa_risk"),
        checks=(f"{_N}:check_ltb_risk_mc",),
        derived=True,
    ),
    Result(
        id="zwb24:thm5.2", kind="theorem",
        summary="Optimal GD-beta: Omega, Gamma*, R* (matrix and eigen forms), minimiser set, "
                "function-level uniqueness, special cases (Wu et al., zfb24, H = Psi = I)",
        source="[zwb24] Theorem 5.2, eq. (5.2), (5.3), (A.3), (C.6); spec 002 §2.4",
        statement="Gamma* = (H^1/2)^+ Psi_bar Omega^-1 (H^1/2)^+, beta = beta*; "
                  "R* = s2 + sum_i l_i(l_i + c)/((N+1) l_i + c)",
        objects=("theory.ltb:optimal_gamma", "theory.ltb:optimal_risk", "theory.ltb:omega",
                 "theory.ltb:optimal_risk_eig"),
        checks=(f"{_N}:check_thm52_forms", f"{_N}:check_thm52_symbolic", f"{_N}:check_thm52_bfgs",
                f"{_N}:check_thm52_mc", f"{_N}:check_thm52_minimiser_set"),
    ),
    Result(
        id="zwb24:thm5.3", kind="theorem",
        summary="min over LTB = min over GD-beta = R*; optimal LTB has a = b = beta*, phi = 0, "
                "Gamma = Gamma* (rank-deficient cases reach R* too)",
        source="[zwb24] Theorem 5.3, (D.14); spec 002 §2.5 (rank condition [R])",
        statement="min_{F_LTB} R = R*",
        objects=("theory.ltb:ltb_risk_whitened", "theory.ltb:optimal_risk"),
        checks=(f"{_N}:check_thm53_bfgs",),
    ),
    Result(
        id="zwb24:thm4.1", kind="theorem",
        summary="LSA vs LTB approximation gap: LSA floor, L <= gap <= min(U, GD0 gap), beta* = 0 "
                "gives 0, exact d = 1 sigma = 0 case, gap ~ 1/N and ~ |beta*|^2 (printed "
                "inequality lost; encoded bounds are the spec's [R-derived-bound])",
        source="[zwb24] Theorem 4.1; spec 002 §2.6, Appendix A",
        statement="R_LSA >= s2 + 2(|b*|_H^2 + tr HPsi)/(N+2); gap >= L = floor - R*",
        objects=("theory.ltb:lsa_risk_floor", "theory.ltb:gap_lower_bound",
                 "theory.ltb:gap_upper_bound", "theory.ltb:gd0_gap",
                 "theory.ltb:gap_exact_d1_noiseless"),
        checks=(f"{_N}:check_thm41_floor", f"{_N}:check_thm41_gap", f"{_N}:check_thm41_scaling"),
        figures=(f"{_F}:fig_gap_scaling",),
    ),
    Result(
        id="zwb24:lem6.1", kind="lemma",
        summary="Bayes-optimal ICL: posterior mean (ridge centred at beta*), conditional risk, "
                "R_Bayes <= R*, rate sum min(l_i, s2/N) under bounded SNR (constants unspecified)",
        source="[zwb24] Lemma 6.1, eq. (F.1); spec 002 §2.7 (rate [R])",
        statement="L(b_Bayes; X) = s2 + s2 tr(H Psi^1/2 (Psi^1/2 X^TX Psi^1/2 + s2 I)^-1 Psi^1/2)",
        objects=("theory.common.baselines:bayes_posterior_mean",
                 "theory.common.baselines:bayes_conditional_risk", "theory.ltb:sum_min"),
        checks=(f"{_N}:check_lem61_bayes",),
        figures=(f"{_F}:fig_rates",),
    ),
    Result(
        id="zwb24:cor6.2", kind="corollary",
        summary="Rate of optimal GD-beta: (1/4) sum min(l_i, s2/N) <= R* - s2 <= 2(1+kappa) sum "
                "min (constants derived), power-law slopes -(1-1/alpha)",
        source="[zwb24] Corollary 6.2 (and the rate of Lemma 6.1 (b)); spec 002 §2.8",
        statement="R* - s2 ~ sum_i min(l_i, s2/N) under bounded SNR",
        objects=("theory.ltb:cor62_bounds", "theory.ltb:sum_min"),
        checks=(f"{_N}:check_cor62",),
        figures=(f"{_F}:fig_rates",),
    ),
    Result(
        id="zwb24:corG.1", kind="corollary",
        summary="Excess-risk identity E = tr[(Gb - Gb*) Omega (Gb - Gb*)^T] + e^T K(Gamma) e",
        source="[zwb24] Corollary G.1, eq. (G.1); spec 002 §2.9",
        statement="R(f_{Gamma,beta}) - R* = tr[...] + (beta - beta*)^T K(Gamma) (beta - beta*)",
        objects=("theory.ltb:excess_risk", "theory.ltb:K_matrix"),
        checks=(f"{_N}:check_corG1_excess",),
    ),
    Result(
        id="zwb24:lemG.2", kind="lemma",
        summary="GD-beta gradient-flow ODE (plain and whitened) = minus the gradient of the risk",
        source="[zwb24] Lemma G.2, eq. (G.4), (G.5); spec 002 §2.9",
        statement="dbeta/dt = -2K(Gamma)(beta - beta*); dGamma/dt = -2H[Gamma Omega_b - Psi_b]H",
        objects=("theory.ltb:flow_rhs", "theory.ltb:flow_rhs_whitened"),
        checks=(f"{_N}:check_lemG2_rhs",),
    ),
    Result(
        id="zwb24:thm6.3", kind="theorem",
        summary="Gradient flow on GD-beta converges to (Gamma* + Gamma0 - P_H Gamma0 P_H, "
                "P_H beta* + (I - P_H) beta0); invariants; E(t) non-increasing; beta-rate bound",
        source="[zwb24] Theorem 6.3, App. G; spec 002 §2.9 (beta-rate bound [R-derived-bound])",
        statement="(Gamma(t), beta(t)) -> (Gamma*, beta*) if H > 0; E(t) -> 0",
        objects=("theory.ltb:flow_limit", "theory.ltb:invariants", "theory.ltb:beta_rate_bound"),
        checks=(f"{_N}:check_thm63_flow", f"{_S}:check_gd_beta_training"),
        figures=(f"{_F}:fig_flow",),
    ),
    Result(
        id="zwb24:table1", kind="table",
        summary="Table 1 at CPU scale: trained LTB reaches R* (learns beta* in its MLP row), "
                "trained LSA stalls at inf_LSA above the LSA floor; at beta* = 0 both reach R*",
        source="[zwb24] Table 1, §4 (GPT2 numbers [P]); CPU proxy: spec 002 C17",
        statement="R(LTB) ~ R* = 0.740566 < inf_LSA = 2.535387 ~ R(LSA), d=2, N=10, sigma=.5, "
                  "|beta*| = 3",
        objects=("theory.ltb:optimal_risk", "theory.ltb:lsa_risk_floor"),
        checks=(f"{_S}:check_table1", f"{_S}:check_table1_zero_mean"),
        figures=(f"{_F}:fig_table1_training",),
    ),
    Result(
        id="zwb24:cross-zfb24", kind="cross-check",
        summary="At beta* = 0, Psi = I, H = Lambda the GD-beta optimum Gamma* equals zfb24's "
                "Gamma^-1 (sigma = 0) and zfb24's derived Gamma_s^-1 (label noise s^2)",
        source="[zwb24] Thm 5.2 special case; [zfb24] Theorem 4; spec 002 §5, spec 004 §5",
        statement="Gamma*(Lambda, I, s2, N) = ((1+1/N)Lambda + (tr Lambda + s2)/N I)^-1",
        objects=("theory.ltb:optimal_gamma", "theory.lsa_flow:gamma",
                 "theory.lsa_flow:gamma_noisy"),
        checks=(f"{_N}:check_cross_zfb24",),
    ),
)
