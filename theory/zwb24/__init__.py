"""[zwb24] Zhang, Wu, Bartlett (2024), "In-Context Learning of a Linear Transformer Block:
Benefits of the MLP Component and One-Step GD Initialization" (arXiv:2402.14951, NeurIPS 2024).

Laid out by its key ``zwb24`` (formerly slug ``ltb``).  Our copy of the paper lost nearly all of
its mathematics; every formula here is re-derived (each docstring cites the paper's location and
says what is derived here).

Public API (names part of acceptance): :func:`optimal_risk` (``R*``, including the query noise
σ²) and :func:`optimal_gamma` (``Γ*``); numbers/arrays in → floats/arrays out, SymPy in →
expressions out.

Sections: :mod:`.sec3_model` (§3 setting, the effective form (★), whitening), :mod:`.sec3_risk`
(§3 ICL risk of the general LTB), :mod:`.sec4_mlp_gap` (§4 Theorem 4.1), :mod:`.sec5_gd_beta`
(§5 Lemma 5.1, Theorem 5.2), :mod:`.sec6_rates` (§6 Lemma 6.1, Corollary 6.2), :mod:`.sec6_flow`
(§6 / App. G gradient flow, Theorem 6.3); :mod:`.settings` the one :class:`~.settings.Setting`
every check takes and its presets; the results are declared on the top floor
(:mod:`sims.zwb24.results`); the notation table is :data:`NOTATION`.
"""

# ruff: noqa: F401  (re-exports: ruff cannot read an ``__all__`` built from the sections' lists)
from __future__ import annotations

from theory.zwb24 import sec3_model, sec3_risk, sec4_mlp_gap, sec5_gd_beta, sec6_flow, sec6_rates
from theory.zwb24.sec3_model import effective_params, label_second_moment, whiten, whiten_params
from theory.zwb24.sec3_risk import lsa_risk, ltb_risk, ltb_risk_whitened
from theory.zwb24.sec4_mlp_gap import (
    gap_exact_d1_noiseless,
    gap_lower_bound,
    gap_lower_bound_simplified,
    gap_upper_bound,
    gap_upper_bound_eig,
    gd0_gap,
    lsa_risk_floor,
)
from theory.zwb24.sec5_gd_beta import (
    lemma51_weights,
    omega,
    optimal_gamma,
    optimal_gamma_whitened,
    optimal_risk,
    optimal_risk_eig,
)
from theory.zwb24.sec6_flow import (
    K_matrix,
    beta_rate_bound,
    excess_risk,
    flow_limit,
    flow_rhs,
    flow_rhs_whitened,
    invariants,
)
from theory.zwb24.sec6_rates import cor62_bounds, sum_min

#: Module name -> the paper sections it encodes; the same name on every floor (theory/,
#: numerics/zwb24/, sims/zwb24/, tests/zwb24/) holds that section's formulas, routes and checks.
SECTIONS: dict[str, str] = {
    "sec3_model": "§3 Assumption 3.1, eq. (3.1)-(3.4), the effective form (★), whitening; "
    "Lemma H.4; eq. (5.1) / App. C and App. D risks (numerics sec3_model)",
    "sec3_risk": "§3 ICL risk (3.5) of the general LTB; App. D (proofs of Thm 4.1, 5.3)",
    "sec4_mlp_gap": "§4 Theorem 4.1 (LSA vs LTB gap)",
    "table1": "§4 Table 1: trained LTB vs LSA at CPU scale (sims), the exact LSA risk's interior "
    "local minimum at β* = 0 (numerics)",
    "sec5_gd_beta": "§5 Lemma 5.1 (App. B), Theorem 5.2, Theorem 5.3",
    "cross_zfb24": "§5 Theorem 5.2 at β* = 0, Ψ = I vs [zfb24] Theorem 4 (numerics only)",
    "sec6_rates": "§6 Lemma 6.1 (App. F), Corollary 6.2",
    "sec6_flow": "§6 / App. G Corollary G.1, Lemma G.2, Theorem 6.3",
}

# The exports are the section modules' ``__all__`` (each public name is listed once, where it is
# defined and validated, ``@checked``), plus the notation table; the imports above
# bind the same objects.
__all__ = ["NOTATION", "SECTIONS"]
__all__ += sec3_model.__all__
__all__ += sec3_risk.__all__
__all__ += sec4_mlp_gap.__all__
__all__ += sec5_gd_beta.__all__
__all__ += sec6_rates.__all__
__all__ += sec6_flow.__all__

#: The notation table: paper symbol -> code name -> canonical (``theory.settings``) name / meaning.
NOTATION = """
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
