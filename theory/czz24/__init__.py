"""[czz24] Chen, Zhao, Zou (NeurIPS 2024), "How Transformers Utilize Multi-Head Attention in
In-Context Learning? A Case Study on Sparse Linear Regression", arXiv:2408.04532.

Square roots garbled in our copy of the paper's text are restored (each docstring says where).
The paper's one :class:`~theory.czz24.settings.Setting` and its presets are in
:mod:`.settings`; the sections (named by the paper's numbering, the same name on every floor) are
listed in :data:`SECTIONS`.
"""

from __future__ import annotations

# The public API is the section modules' ``__all__`` (``__all__`` below is derived from them); the
# names are imported explicitly so that pyright and readers see them (``noqa: F401``: ruff cannot
# follow a derived ``__all__``).
from theory.czz24 import (
    appD_1_decomposition,
    appD_concentration,
    appF_baselines,
    sec2_data,
    sec2_model,
    sec3_heads,
    sec4_2_pregd,
    sec4_constructions,
    sec5_bayes,
    sec5_bounds,
)
from theory.czz24.appD_1_decomposition import (  # noqa: F401
    DECOMPOSITION_VARIANTS,
    error_decomposition,
    excess_from_parts,
)
from theory.czz24.appD_concentration import (  # noqa: F401
    lemD1_rate,
    lemD2_sample_size,
    lemD7_rate,
    noise_term_mean,
    rhat_cov,
    rhat_mean,
)
from theory.czz24.appF_baselines import (  # noqa: F401
    linear_lower_bound,
    minnorm_excess_expr,
    ols_excess_expr,
    ols_excess_risk,
    ridge_excess_conditional,
    ridge_lmmse_lambda,
    ridge_star_limit,
)
from theory.czz24.sec2_data import (  # noqa: F401
    correlation_support,
    null_excess_risk,
    population_correlation,
    task_second_moment,
)
from theory.czz24.sec2_model import (  # noqa: F401
    LayerWeights,
    LinTFWeights,
    apply_layer,
    effective_predictor,
    forward,
    layer_operator,
    predict,
)
from theory.czz24.sec3_heads import head_importance, pruning_keep, sorted_importance  # noqa: F401
from theory.czz24.sec4_2_pregd import (  # noqa: F401
    gd_coefficient,
    gd_population,
    minnorm_interpolator,
    one_step_prediction,
    phi,
    pregd_coefficient,
    pregd_flow,
    pregd_gram,
    pregd_iterate,
    pregd_limit,
    pregd_population,
)
from theory.czz24.sec4_constructions import (  # noqa: F401
    READOUT_SIGN,
    alg1,
    alg1_best_rank_error,
    alg1_kronecker_matrix,
    alg1_layer,
    alg1_min_heads,
    gd_layer,
    pregd_transformer,
    rhat,
)
from theory.czz24.sec5_bayes import bayes_posterior_mean, supports  # noqa: F401
from theory.czz24.sec5_bounds import (  # noqa: F401
    bound_ratio_isotropic,
    eta_t_star_51,
    thm51_bound,
    thm52_bound,
    thm53_rate,
    thm53_steps,
)

#: Module name -> the paper sections it encodes (``theory/czz24/<key>.py``,
#: ``numerics/czz24/<key>.py`` and ``sims/czz24/<key>.py`` are named by these keys,
#: the same name on every floor; a section may exist in some floors only).
SECTIONS: dict[str, str] = {
    "sec2_data": "§2 data model (sparse tasks, Σ = I + ζ𝟙𝟙ᵀ), population correlations r = Σw*",
    "sec2_model": "§2 Eq. (2.2) masked multi-head linear transformer, mask Eq. (2.3); the exact "
    "effective predictor (derived)",
    "sec3_heads": "§3 Eq. (3.1) head importance and pruning; App. B probing (Fig. 1d, "
    "Figs. 5–8) and P-probing (Fig. 2a/2b)",
    "fig1b": "§3 Fig. 1b / App. B Fig. 3 baselines and S2 trained models (numerics and sims "
    "only; the formulas are in appF_baselines and sec5_bayes)",
    "sec4_constructions": "§4.1 Alg. 1, Eq. (4.1), Prop. 4.1 (App. C.1), Prop. 4.2 (Eq. (C.7)); "
    "the head count of Alg. 1 (derived); sims: the S1 construction's tied-step training",
    "sec4_2_pregd": "§4.2 Eq. (4.3) pre-GD closed forms, limits and flow; S1 (Props. 4.1, 4.2, "
    "Thm 5.3: the trained construction, sims only)",
    "sec5_bounds": "§5 Thms 5.1, 5.2, Remark 5.2, Thm 5.3 (upper part)",
    "sec5_bayes": "Bayes posterior mean by support enumeration (derived; priors of Thm 5.3, "
    "App. B)",
    "fig2c": "§6 Fig. 2c pre-GD vs GD over steps (numerics only; the formulas are in sec4_2_pregd)",
    "appD_1_decomposition": "App. D.1 Eqs. (D.1)–(D.3) error decomposition (corrected)",
    "appD_concentration": "App. D Lemmas D.1, D.2, D.3–D.7",
    "appF_baselines": "§5 Thm 5.3 (lower part), App. F.3–F.8: exact OLS / ridge for Σ = I",
}

NOTATION = """
==============================  ========================  =====================================
paper symbol                    code name                 canonical / notes
==============================  ========================  =====================================
n                               ``n``                     context length (others: N)
q, m = n + q                    ``q``                     queries per prompt, sequence length
d, s                            ``d``, ``s``              dimension, sparsity
σ (standard deviation)          ``sigma2`` = σ²           noise variance (``noise_var``)
Σ (diagonal; I + ζ𝟙𝟙ᵀ)          ``Sigma_diag``, ``zeta``  ``Sigma_x``
w*, S                           ``w``, support mask       task vector (``beta``)
r̂, R̂ = diag(r̂)                  ``rhat``                  empirical correlations Xᵀy/n
r = Σw*, R, β = min_S |r_i|     ``r``, ``beta``           population correlations
R̂Σ̂R̂ (App. D "Σ̂")               ``G`` (Ĝ)                 preprocessed Gram (kept apart from Σ̂)
w̃^t, ŵ = R̂w̃^t                   ``pregd_iterate``,        pre-GD iterate / effective coefficient
                                ``pregd_coefficient``
η, t                            ``eta``, ``t``            step size, number of steps (= layers-1)
E(w) (no ½)                     excess risk               E_ICL − σ², ‖Σ^{1/2}(ŵ − w*)‖²
h, d_hid, L                     ``n_heads``, ``d_hid``    heads, width (3d in constructions)
W_E, W_{Q,K,V}, W_1, W_O        ``W_E``, ``WQ``, ...      Eq. 2.2 weights; read-out −e_{d+1}
M = diag(1_n, 0_q)              mask (first n columns)    context-only keys/values
W_{i,j} (Eq. 3.1)               ``head_importance``       head importance (rows sum to 1)
==============================  ========================  =====================================
"""

__all__ = ["NOTATION", "SECTIONS"]
__all__ += sec2_data.__all__
__all__ += sec2_model.__all__
__all__ += sec4_constructions.__all__
__all__ += sec4_2_pregd.__all__
__all__ += appD_1_decomposition.__all__
__all__ += appD_concentration.__all__
__all__ += sec5_bounds.__all__
__all__ += appF_baselines.__all__
__all__ += sec5_bayes.__all__
__all__ += sec3_heads.__all__
