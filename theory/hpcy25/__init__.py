"""[hpcy25] He, Pan, Chen, Yang (2025): multi-head softmax attention for in-context linear
regression.

arXiv:2503.12734.  Closed forms (SymPy builders with float64 twins) for the approximate loss ``L̃``
(Prop. 4.1), its solution manifold and optimality reduction (Thm 4.2), the closed-form risks of
vanilla / debiased one-step GD and the Bayes limit, the two-head gradient flow of App. B, and the §5
extensions.  The paper's displayed math was lost in our copy: each formula is rebuilt from the
prose, the authors' code or a derivation, and its docstring says which.  The notation table is
:data:`NOTATION`.

Shared public API: :func:`dgd_risk` and :func:`bayes_risk_limit` (both evaluate the
shared implementations of :mod:`theory.common.baselines`).

The modules of each layer are named by paper section (:data:`SECTIONS`, the same file name on
every floor); the results are declared on the top floor (:mod:`sims.hpcy25.results`);
:mod:`.claims` holds the claim records, :mod:`.domains` the parameter domains.  The paper's Setting
(§2, (3.1)–(3.2)) and its presets are in :mod:`.settings`.
"""

# The public API is the section modules' ``__all__`` (``__all__`` below is derived from them); the
# names are imported explicitly so that pyright and readers see them (``noqa: F401``: ruff cannot
# follow a derived ``__all__``).
from theory.hpcy25 import (
    appB_flow,
    appD_optimality,
    sec4_1_approx_loss,
    sec4_2_manifold,
    sec5_extensions,
)
from theory.hpcy25.appB_flow import (  # noqa: F401
    HEURISTIC_OMEGA_EXPONENT,
    LATE_MU_EXPONENT,
    flow_rhs,
    flow_rhs_fn,
    heuristic_late_omega,
    imbalance,
    imbalance_rate,
    initial_state,
    late_mu_law,
    peak_omega_lambert,
    phase1_omega,
    reduced_rhs,
    reduced_rhs_fn,
)
from theory.hpcy25.appD_optimality import (  # noqa: F401
    A2_eigenvalues,
    A2_matrix,
    bayes_gap_bound,
    bayes_gap_bound_fn,
    bayes_risk_given_design,
    bayes_risk_limit,
    bayes_risk_limit_fn,
    dgd_eta_star,
    dgd_risk,
    dgd_risk_expr,
    dgd_risk_fn,
    dgd_risk_star,
    eta_limit,
    eta_star,
    eta_star_fn,
    gd_eta_star,
    gd_risk,
    gd_risk_expr,
    gd_risk_fn,
    gd_risk_limit,
    gd_risk_limit_fn,
    gd_risk_star,
    ltilde_inf,
    ltilde_inf_fn,
    mp_stieltjes,
)
from theory.hpcy25.sec4_1_approx_loss import (  # noqa: F401
    KERNEL_SCALE,
    c_L,
    c_L_expr,
    check_dLs,
    kappa,
    kappa_expr,
    lower_bound_45,
    ltilde,
    ltilde_expr,
    ltilde_fn,
    ltilde_grad,
    ltilde_series,
    vec_syms,
)
from theory.hpcy25.sec4_2_manifold import (  # noqa: F401
    eta_of_omega,
    eta_of_omega_fn,
    eta_series,
    ltilde_reduced,
    ltilde_star,
    ltilde_star_fn,
    m_star,
    m_star_fn,
    m_sym,
    nw_bandwidth,
    omega_s,
    single_head_ltilde,
    single_head_optimum,
)
from theory.hpcy25.sec5_extensions import (  # noqa: F401
    TABLE1,
    TABLE2,
    gamma_star,
    kms_covariance,
    kms_inverse,
    linear_length_argmin,
    linear_length_risk,
    mt_shared_p,
    mt_task_eta,
    mt_task_risk,
    pd_star,
    precond_dgd_risk,
    precond_gd_risk,
    single_head_length_limit,
    softmax_length_limit,
    softmax_length_risk,
    softmax_norm_first_order,
    softmax_norm_limit,
    table1_effective_step,
    table1_implied_c,
    table2_sums,
)

#: Notation table (paper symbol → code name → canonical cross-paper name, ``theory.settings``).
NOTATION = """\
=================  =================  ============================================
paper              code               canonical (theory.settings)
=================  =================  ============================================
L (examples)       ``L``              ``N``
L' (test length)   ``Lp``             ``M``
d                  ``d``              ``d``
σ²                 ``sigma2``         ``noise_var``
β ~ N(0, I/d)      (prior)            ``task_cov = I/d``
H                  ``H``              ``n_heads``
ω_h (KQ scale)     ``omega``          --
μ_h (OV weight)    ``mu``             --
η (= 2ωμ)          ``eta``            GD step (not the optimiser lr: ``lr``)
ξ = d/L            ``xi``             aspect ratio
κ = 1 + ξ(1+σ²)    ``kappa``          --
c_L = (1+σ²)/L     ``c_L``            --
Σ (KMS ρ^|i-j|)    ``Sigma``          ``Sigma_x``
Γ, P               ``Gamma``, ``P``   preconditioner (zfb24's Γ)
=================  =================  ============================================
"""

#: The paper sections each module name encodes, the same file name in every layer
#: (``theory/hpcy25/<name>.py``, ``numerics/hpcy25/<name>.py``, ``sims/hpcy25/<name>.py``; a
#: section has a file only on the floors that hold something of it).
SECTIONS: dict[str, str] = {
    "sec2_model": "§2 eqs. (2.2)-(2.3): the H-head softmax model (sims checks: the torch forward)",
    "sec3_observations": "§3 Observations 1-4, Figs. 3-5: trained patterns, risks and dynamics "
    "(sims checks; formulas in sec4_2_manifold, appD_optimality)",
    "sec3_training": "§3 training at any setting: validators, the derived recipe, convergence, "
    "separability, traps, the finite-omega prediction [derived] (sims checks only)",
    "sec3_heads": "§3 Observation 1, Fig. 14: dummy heads; which heads of a trained model the "
    "pattern rows judge (the contributing ones, from the model's own predictions; sims checks "
    "only)",
    "sec3_obs1_setting": "§3 Observations 1-2 at any setting d, L, sigma2, H: a drawn setting's "
    "trained pattern and manifold rows (sims checks only)",
    "sec3_convergence": "§3 training at any setting: when a drawn run has converged (the invariant "
    "of (4.3) and the Obs. 1 head patterns settled), its schedule, an unconverged run's rows (sims "
    "checks only)",
    "sec3_sharp_head": "§3 Observation 2 and §4.2 (4.4)-(4.5) at H >= 3 [derived]: a sharp head "
    "beside the homogeneous pair lowers the true risk (numerics: the pattern family's risk "
    "landscape; sims: the paper-recipe training route)",
    "sec4_1_approx_loss": "§4.1 Proposition 4.1 / Prop. C.1: the approximate loss L-tilde; (4.5)",
    "sec4_2_manifold": "§4.2 Stages I-II, eqs. (4.1)-(4.8); §4.3 (4.9)-(4.12), Theorem 4.2(i)-(ii) "
    "checks",
    "appD_optimality": "§4.3 Theorem 4.2, App. D (D.19)-(D.36): optimality over Theta, "
    "GD/DGD/Bayes risks",
    "appB_flow": "App. B (B.1)-(B.18): the two-head gradient flow, its phases; Obs. 2 by the flow",
    "sec5_extensions": "§5 (5.2)-(5.6), Defs. 5.1-5.2, Tables 1-2, Fig. 8; App. A.4 formulas",
    "appA": "App. A.4 softmax-norm concentration, Fig. 20 (numerics checks; formulas in "
    "sec5_extensions)",
}

__all__ = ["NOTATION", "SECTIONS"]
__all__ += sec4_1_approx_loss.__all__
__all__ += sec4_2_manifold.__all__
__all__ += appD_optimality.__all__
__all__ += appB_flow.__all__
__all__ += sec5_extensions.__all__
