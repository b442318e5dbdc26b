"""[collins24] Collins, Parulekar, Mokhtari, Sanghavi, Shakkottai (2024), "In-Context Learning with
Transformers: Softmax Attention Adapts to Function Lipschitzness" (arXiv:2402.11639, NeurIPS 2024).

Slug ``softmax_window``.  The paper's OCR lost parts of its formulas; every formula follows the
project spec ``../shared/specs/003_softmax_lipschitz.md`` (tags stated / reconstructed /
[DERIVED] / [COMPUTED]), which is the authority.  One softmax unit with M = M_KᵀM_Q, value fixed
to 1, query not attending to itself: ŷ = Σ_{i≤n} y_i softmax_i(x_iᵀMx); on the sphere with
M = ωI this is Nadaraya–Watson with bandwidth 2/ω.

Sections: :mod:`.reductions` (§2, App. B.1: Λ, the exact affine split, Remark 2.1's limits),
:mod:`.asymptotics` (§3.1, App. D: c_d, true and paper exponents [derived]), :mod:`.appg`
(App. G.2-G.5: γ(d, α, m), E g_p(r)), :mod:`.optimum`
(Theorems 3.4, 3.5), :mod:`.linear` (Theorem 3.6, Remark 2.2), :mod:`.window` (§3.1 hard window,
App. D, G), :mod:`.signal` (App. B-C), :mod:`.lowrank` (§4); :data:`RESULTS` in :mod:`.results`;
the notation table is :data:`NOTATION`.  The 1-D quadrature of A(ω), N(ω) lives in
:mod:`numerics.softmax_window.quadrature` (theory does not import scipy).
"""

from __future__ import annotations

# The public API is the section modules' ``__all__`` (``__all__`` below is derived from them); the
# names are imported explicitly so that pyright and readers see them (``noqa: F401``: ruff cannot
# follow a derived ``__all__``).
from theory.softmax_window import (
    appg,
    asymptotics,
    linear,
    lowrank,
    optimum,
    reductions,
    signal,
    window,
)
from theory.softmax_window.appg import (  # noqa: F401
    g2_bounds,
    g3_scale,
    gamma_sum,
    gp_exponent,
    gp_mean,
    gp_mean_asymptote,
    paper_gp_exponent,
)
from theory.softmax_window.asymptotics import (  # noqa: F401
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
from theory.softmax_window.linear import (  # noqa: F401
    la_coefficients,
    la_floor,
    la_optimum,
    la_risk,
    small_omega_prediction,
)
from theory.softmax_window.lowrank import lowrank_M, rho_metric, thm44_scale_bound  # noqa: F401
from theory.softmax_window.optimum import (  # noqa: F401
    alpha,
    beta,
    surrogate_optimum,
    thm34_bracket,
    transfer_ratio_limits,
    transfer_risk,
)
from theory.softmax_window.reductions import (  # noqa: F401
    Lambda,
    a_infinity_mp,
    affine_risk_at_zero,
    affine_risk_split,
    affine_signal_rho,
    constant_task_risk,
    nearest_neighbour_risk,
    risk_scale,
    t_cdf_mp,
    t_density_constant,
    zero_scale_terms,
)
from theory.softmax_window.results import RESULTS  # noqa: F401
from theory.softmax_window.signal import (  # noqa: F401
    C9_RATIO,
    c6_lower_shape,
    c6_upper_shape,
    c8_upper_shape,
    lemB5_optimum,
    signal_bound_c2,
    whitened_M,
)
from theory.softmax_window.window import (  # noqa: F401
    cap_bounds,
    cap_measure,
    g7_lhs,
    i3_ratio,
    kershaw_ratio,
    msa_risk,
    stirling_bounds,
    window_mass,
    window_mean_s,
    window_threshold,
)

__all__ = ["NOTATION", "RESULTS"]
__all__ += reductions.__all__
__all__ += asymptotics.__all__
__all__ += optimum.__all__
__all__ += linear.__all__
__all__ += window.__all__
__all__ += appg.__all__
__all__ += signal.__all__
__all__ += lowrank.__all__

#: The notation table: paper symbol -> code name -> meaning (spec 003 §1.1).
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
A, N            ``A``, ``N``         E‖Σπ_i x_i − x‖², E Σπ_i² (spec R0.2)
U^d, U^d_S      ``"uniform"``, ``"acg"``  covariate laws (``SphereCovariates.kind``)
ρ(M, B)         ``rho_metric``       ‖B⊥ᵀMB⊥‖₂/σ_min(BᵀMB) (Fig. 9, reading G9)
==============  ===================  =====================================================

Clashes: L is the Lipschitz constant (hpcy25's L is a prompt length); n is the context length and
N in the experiments is the number of queries per task; the factor-2 bandwidth convention of
eq. (9) (w_KQ = ω/2) -- all numbers here use M = ωI.
"""

from theory.settings.domains import validate_exports as _validate_exports  # noqa: E402
from theory.softmax_window.domains import DOMAINS as _DOMAINS  # noqa: E402
from theory.softmax_window.domains import OVERRIDES as _OVERRIDES  # noqa: E402

_validate_exports(globals(), __all__, _DOMAINS, overrides=_OVERRIDES, paper="collins24")
