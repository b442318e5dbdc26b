"""[collins24] Collins, Parulekar, Mokhtari, Sanghavi, Shakkottai (2024), "In-Context Learning with
Transformers: Softmax Attention Adapts to Function Lipschitzness" (arXiv:2402.11639, NeurIPS 2024).

Our copy of the paper lost parts of its formulas; where a formula is reconstructed or derived
here the docstring says so (and the paper page ``docs/papers/collins24.md`` derives the values).
One softmax unit with M = M_KᵀM_Q, value fixed
to 1, query not attending to itself: ŷ = Σ_{i≤n} y_i softmax_i(x_iᵀMx); on the sphere with
M = ωI this is Nadaraya–Watson with bandwidth 2/ω.

Sections (:data:`SECTIONS`: one module per paper section, the same file name on every floor --
``theory/collins24/<name>.py``, ``numerics/collins24/<name>.py``, ``sims/collins24/<name>.py``
where the section has checks there); the Setting and its presets in :mod:`.settings`;
RESULTS are declared on the top floor (:mod:`sims.collins24.results`); the notation table is
:data:`NOTATION`.  The 1-D quadrature of A(ω), N(ω) lives in
:mod:`numerics.collins24.quadrature` (theory does not import scipy).  Every public function
is validated where it is defined (``@checked``, :mod:`.domains`); the names here are those same
objects.
"""

from __future__ import annotations

# The public API is the section modules' ``__all__`` (``__all__`` below is derived from them); the
# names are imported explicitly so that pyright and readers see them (``noqa: F401``: ruff cannot
# follow a derived ``__all__``).
from theory.collins24 import (
    appC_signal,
    appD_asymptotics,
    appG,
    sec2_reductions,
    sec3_1_window,
    sec3_linear,
    sec3_optimum,
    sec4_lowrank,
)
from theory.collins24.appC_signal import (  # noqa: F401
    C9_RATIO,
    c6_lower_shape,
    c6_upper_shape,
    c8_upper_shape,
    lemB5_optimum,
    signal_bound_c2,
    whitened_M,
)
from theory.collins24.appD_asymptotics import (  # noqa: F401
    affine_optimum_asymptote,
    affine_optimum_exponent,
    noise_asymptote,
    noise_constant,
    noise_exponent,
    orth_asymptote,
    paper_affine_optimum_exponent,
    paper_noise_exponent,
    rad_asymptote,
)
from theory.collins24.appG import (  # noqa: F401
    cap_bounds,
    cap_measure,
    g2_bounds,
    g3_scale,
    g7_lhs,
    gamma_sum,
    gp_exponent,
    gp_mean,
    gp_mean_asymptote,
    kershaw_ratio,
    paper_gp_exponent,
    stirling_bounds,
)
from theory.collins24.sec2_reductions import (  # noqa: F401
    Lambda,
    a_infinity_mp,
    affine_risk_at_zero,
    affine_risk_split,
    affine_signal_rho,
    constant_task_risk,
    nearest_neighbour_risk,
    risk_scale,
    signal_functional,
    t_cdf_mp,
    t_density_constant,
    zero_scale_terms,
)
from theory.collins24.sec3_1_window import (  # noqa: F401
    i3_ratio,
    msa_risk,
    window_mass,
    window_mean_s,
    window_threshold,
)
from theory.collins24.sec3_linear import (  # noqa: F401
    la_coefficients,
    la_floor,
    la_optimum,
    la_risk,
    small_omega_prediction,
)
from theory.collins24.sec3_optimum import (  # noqa: F401
    alpha,
    beta,
    surrogate_optimum,
    thm34_bracket,
    transfer_ratio_limits,
    transfer_risk,
)
from theory.collins24.sec4_lowrank import lowrank_M, rho_metric, thm44_scale_bound  # noqa: F401

__all__ = ["NOTATION", "SECTIONS"]
__all__ += sec2_reductions.__all__
__all__ += appD_asymptotics.__all__
__all__ += sec3_optimum.__all__
__all__ += sec3_linear.__all__
__all__ += sec3_1_window.__all__
__all__ += appG.__all__
__all__ += appC_signal.__all__
__all__ += sec4_lowrank.__all__

#: Section file name -> the paper sections it encodes.  The same name is the section's module on
#: every floor where the section has one: ``theory/collins24/<name>.py`` (formulas),
#: ``numerics/collins24/<name>.py`` (closed-form, quadrature and Monte Carlo checks),
#: ``sims/collins24/<name>.py`` (torch checks); ``tests/collins24/`` beside them.
SECTIONS: dict[str, str] = {
    "sec2_reductions": "§2, App. B.1: Λ, the exact affine split (Lemma C.4 (10)), Remark 2.1's "
    "limits (numerics: also App. D's asymptotics checks)",
    "appD_asymptotics": "App. D (Lemma D.1), Cor. G.5: noise and signal asymptotics, c_d; "
    "Thm 3.4's exponent (theory only: its checks are in sec2_reductions)",
    "sec3_optimum": "§3 Theorem 3.4 (= E.1, E.2): ω* against Λ, eq. (15), (17); Theorem 3.5's "
    "quadrature",
    "sec3_transfer": (
        "Theorem 3.5 (= E.3) and Fig. 5: transfer across L and classes (theory and numerics "
        "in sec3_optimum; a sims module only)"
    ),
    "fig3_4": "Figs. 3, 4: ‖M‖ over training (sims only)",
    "sec3_linear": "Theorem 3.6 (= Lemma F.1), Remark 2.2, Fig. 1: linear attention",
    "sec3_1_window": "§3.1 hard-window proof sketch (p_ω, modified softmax); Lemma D.2 via "
    "Lemma I.3",
    "appG": "App. G (G.1-G.7): caps, γ(d, α, m), g_p(r), Stirling/Kershaw",
    "appC_signal": "App. B-C: Lemma B.1, Assumption B.4 / Lemma B.5, Lemma C.2, Cor. C.6, "
    "Lemmas C.8, C.9",
    "sec4_lowrank": "§4 Theorem 4.4 (= H.5), Lemmas H.1-H.4, Fig. 9: low-rank tasks",
}

#: The notation table: paper symbol -> code name -> meaning.
NOTATION = """
==============  ===================  =====================================================
paper symbol    code name            meaning
==============  ===================  =====================================================
d               ``d``                covariate dimension, x ∈ S^{d-1} ⊂ R^d (tokens R^{d+1})
n               ``n``                context length (query = example n+1; czz24/zfb24: N)
L               ``L`` (sympy ``Lip``) Lipschitz constant (NOT hpcy25's prompt length ``L``)
σ²              ``sigma2``           label-noise variance (context labels only)
M = M_KᵀM_Q     ``M``                merged key-query block (others: W^KQ, Γ)
w_KQ            ``omega``            attention scale, M = ωΣ⁻¹; eq. (9)'s w_KQ = ω/2
w (task dir.)   ``v``                task direction (the paper overloads w)
Λ               ``Lambda``           n L² / σ²
α, β            ``alpha``, ``beta``  1/(d+4), 1/(d+2) (Theorem 3.4, reconstructed)
π_i             ``p``                softmax weights of the query on context token i
t_i, s_i        ``t``, ``s``         x_iᵀx and 1 − t_i = ½‖x_i − x‖²
A, N            ``A``, ``N``         E‖Σπ_i x_i − x‖², E Σπ_i² (App. B.1, Lemma C.4)
U^d, U^d_S      ``"uniform"``, ``"acg"``  covariate laws (``SphereCovariates.kind``)
ρ(M, B)         ``rho_metric``       ‖B⊥ᵀMB⊥‖₂/σ_min(BᵀMB) (Fig. 9, our reading)
==============  ===================  =====================================================

Clashes: L is the Lipschitz constant (hpcy25's L is a prompt length); n is the context length and
N in the experiments is the number of queries per task; the factor-2 bandwidth convention of
eq. (9) (w_KQ = ω/2) -- all numbers here use M = ωI.
"""
