"""[zwb24] Zhang, Wu, Bartlett (2024), "In-Context Learning of a Linear Transformer Block:
Benefits of the MLP Component and One-Step GD Initialization" (arXiv:2402.14951, NeurIPS 2024).

Slug ``ltb``.  The extracted paper lost nearly all of its mathematics; every formula here follows
the project spec ``../shared/specs/002_linear_transformer_block.md`` (re-derived, tagged
[V-num]/[V-sym]/[R]/[R-derived-bound]/[P]), which is the authority.

Public API (names part of acceptance): :func:`optimal_risk` (``R*``, including the query noise
σ²) and :func:`optimal_gamma` (``Γ*``); numbers/arrays in → floats/arrays out, SymPy in →
expressions out.

Sections: :mod:`.model` (§3 setting, the effective form (★), whitening), :mod:`.risk` (§3 ICL
risk of the general LTB), :mod:`.mlp_gap` (§4 Theorem 4.1), :mod:`.gd_beta` (§5 Lemma 5.1,
Theorem 5.2), :mod:`.rates` (§6 Lemma 6.1, Corollary 6.2), :mod:`.flow` (§6 / App. G gradient
flow, Theorem 6.3); :data:`RESULTS` in :mod:`.results`; the notation table is :data:`NOTATION`.
"""

# ruff: noqa: F401  (re-exports: ruff cannot read an ``__all__`` built from the sections' lists)
from __future__ import annotations

from theory.ltb import flow, gd_beta, mlp_gap, model, rates, risk
from theory.ltb.flow import (
    K_matrix,
    beta_rate_bound,
    excess_risk,
    flow_limit,
    flow_rhs,
    flow_rhs_whitened,
    invariants,
)
from theory.ltb.gd_beta import (
    lemma51_weights,
    omega,
    optimal_gamma,
    optimal_gamma_whitened,
    optimal_risk,
    optimal_risk_eig,
)
from theory.ltb.mlp_gap import (
    gap_exact_d1_noiseless,
    gap_lower_bound,
    gap_lower_bound_simplified,
    gap_upper_bound,
    gap_upper_bound_eig,
    gd0_gap,
    lsa_risk_floor,
)
from theory.ltb.model import effective_params, label_second_moment, whiten, whiten_params
from theory.ltb.rates import cor62_bounds, sum_min
from theory.ltb.results import RESULTS
from theory.ltb.risk import lsa_risk, ltb_risk, ltb_risk_whitened

#: Module name -> the paper sections it encodes (theory/, numerics/ checks_<key>.py and
#: sims/checks/ltb/<key>.py are named by these keys).
SECTIONS: dict[str, str] = {
    "model": "§3 Assumption 3.1, eq. (3.1)-(3.4), the effective form (★), whitening; Lemma H.4; "
    "eq. (5.1) / App. C and App. D risks (numerics checks_model)",
    "risk": "§3 ICL risk (3.5) of the general LTB; App. D (proofs of Thm 4.1, 5.3)",
    "mlp_gap": "§4 Theorem 4.1 (LSA vs LTB gap) and Table 1 (trained LTB vs LSA, CPU scale)",
    "table1": "§4 Table 1: the exact LSA risk's interior local minimum at β* = 0 (numerics; "
    "sims: the raw LTB/LSA fit at a drawn setting)",
    "gd_beta": "§5 Lemma 5.1 (App. B), Theorem 5.2, Theorem 5.3",
    "cross_zfb24": "§5 Theorem 5.2 at β* = 0, Ψ = I vs [zfb24] Theorem 4 (numerics only)",
    "rates": "§6 Lemma 6.1 (App. F), Corollary 6.2",
    "flow": "§6 / App. G Corollary G.1, Lemma G.2, Theorem 6.3",
}

# The exports are the section modules' ``__all__`` (each public name is listed once, where it is
# defined and validated, ``@checked``), plus the notation table and RESULTS; the imports above
# bind the same objects.
__all__ = ["NOTATION", "RESULTS", "SECTIONS"]
__all__ += model.__all__
__all__ += risk.__all__
__all__ += mlp_gap.__all__
__all__ += gd_beta.__all__
__all__ += rates.__all__
__all__ += flow.__all__

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
