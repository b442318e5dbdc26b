"""[zfb24] Zhang, Frei, Bartlett (2024), "Trained Transformers Learn Linear Models In-Context".

JMLR 25(49); arXiv:2306.09927.

A single linear self-attention layer (merged ``W^{KQ}, W^{PV} ∈ R^{(d+1)×(d+1)}``, no mask, ρ =
prompt
length) trained by gradient flow on noiseless linear-regression prompts from the balanced
initialisation (Assumption 3) converges to ``u₋₁U₁₁ = Γ⁻¹`` (Theorem 4) and then predicts
``ŷ = x_qᵀΓ⁻¹(1/M)Σyᵢxᵢ`` on prompts of any length M (eq. 12).

The modules of each layer are named by paper section (:data:`SECTIONS`); the results are declared
on the top floor (:mod:`sims.zfb24.results`); :mod:`.claims` holds the claim records,
:mod:`.domains` the parameter domains.

NOTATION: see :data:`NOTATION` (paper symbol → code name → canonical cross-paper name).
"""

# ruff: noqa: F401  (re-exports: ruff cannot read an ``__all__`` built from the sections' lists)
from __future__ import annotations

from theory.zfb24 import (
    sec3_model,
    sec3_training,
    sec4_1_convergence,
    sec4_1_risk,
    sec4_3_random_cov,
    sec5_flow,
)
from theory.zfb24.sec3_model import (
    U_from_weights,
    lemma9_H,
    lsa_output,
    prediction_eq6,
    prediction_quadratic,
    vec,
)
from theory.zfb24.sec3_training import (
    Assumption3Setting,
    gamma,
    gamma_fn,
    gamma_noisy,
    gamma_noisy_fn,
    initial_state,
)
from theory.zfb24.sec4_1_convergence import (
    W_KQ_star,
    W_PV_star,
    init_condition,
    initial_loss_bound,
    limit_params,
    limit_params_fn,
    pl_constant,
    u_min,
)
from theory.zfb24.sec4_1_risk import (
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
from theory.zfb24.sec4_3_random_cov import (
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
from theory.zfb24.sec5_flow import (
    FLOW_VARIANTS,
    balanced_flow_rhs,
    balancedness,
    excess_identity,
    flow_rhs,
    flow_rhs_fn,
    isotropic_q,
    isotropic_q_fn,
    loss_of_P,
    loss_of_P_fn,
    offdiag_decay,
    optimal_loss,
    optimal_loss_fn,
    optimal_loss_isotropic,
    optimal_loss_noisy,
    reduced_loss,
    reduced_loss_fn,
    reduced_loss_grad,
    reduced_loss_grad_fn,
)

#: Module name (in theory/, numerics/checks_<name>, sims/zfb24/) -> the paper sections it
#: encodes.
SECTIONS: dict[str, str] = {
    "sec3_model": "§3.2 eqs. (3)–(6); Lemma 9 / 13 (eq. (24)); eq. (12) as the LSA read-out",
    "sec3_training": "§3.3 Γ, Assumption 3; Γ_s [derived]",
    "hypotheses": "§3.3 Assumption 3, §4.1 Theorem 4 and §4.3 Theorem 8 hypotheses of a setting",
    "sec4_1_convergence": "§4.1 Theorem 4, eqs. (11)–(14); Lemmas 18–20",
    "sec4_1_risk": "§4.1 Theorem 5, Corollary 6; §4.2 eqs. (17), (18); footnote 2",
    "sec4_2_shifts": "§4.2 distribution shifts (numerics and sims checks; formulas in sec4_1_risk)",
    "sec4_3_random_cov": "§4.3 Theorem 8, eqs. (21), (22); Lemma 21, Corollary 22, Lemmas 23–28",
    "fig1": "§4.3 Figure 1, eq. (23), App. E; r(δ, c, M) [derived] (formulas in sec4_3_random_cov)",
    "sec5_flow": "§5 / App. A: ℓ̃ (Lemma 15), the flow (Lemmas 10, 14), balancedness (Lemma 17), "
    "Corollary 16, label noise [derived]",
}

# The exports are the section modules' ``__all__`` (each public name is listed once, where it is
# defined), plus the notation table; the imports above bind them explicitly.
__all__ = ["NOTATION", "SECTIONS"]
__all__ += sec3_model.__all__
__all__ += sec3_training.__all__
__all__ += sec5_flow.__all__
__all__ += sec4_1_convergence.__all__
__all__ += sec4_1_risk.__all__
__all__ += sec4_3_random_cov.__all__

#: The notation table: paper symbol → code name → canonical cross-paper name.
NOTATION = """\
NOTATION (paper symbol → code name → canonical cross-paper name)

==================  ==================  =========================================================
paper               code                canonical / remark
==================  ==================  =========================================================
d                   ``d``               ``d``
N                   ``N``               ``N`` (training prompt length)
M                   ``M``               ``M`` (test prompt length; ρ = M at test)
Λ                   ``Lambda``          ``Sigma_x`` (covariate covariance)
Γ                   ``gamma(...)``      (1+1/N)Λ + trΛ/N·I; zwb24's Γ is ≈ our Γ⁻¹ (clash!)
Γ_s                 ``gamma_noisy``     [derived] Γ + s²/N·I, label-noise var. s² = ``noise_var``
w (w_τ)             ``w``               ``beta`` (task vector, prior N(0, I_d), mean 0)
σ                   ``sigma_init``      initialisation scale of Assumption 3 — NOT a noise level
Θ                   ``Theta``           ‖ΘΘᵀ‖_F = 1; random M₀M₀ᵀ/‖M₀M₀ᵀ‖_F (M₀ ≠ test length)
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
