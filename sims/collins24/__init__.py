"""[collins24] checks on torch units ([collins24] §3, §4), one module per paper section (the keys of
:data:`theory.collins24.SECTIONS`): :mod:`.sec2_reductions` (§2, Remark 2.1),
:mod:`.sec3_optimum` (Theorem 3.4), :mod:`.sec3_transfer` (Theorem 3.5, Fig. 5), :mod:`.fig3_4`
(Figs. 3-4), :mod:`.sec3_linear` (Theorem 3.6, Fig. 1), :mod:`.appC_signal` (Lemma B.5),
:mod:`.sec4_lowrank` (§4, Fig. 9); :mod:`.train` trains and caches the units (:mod:`.data` draws
their prompts); :mod:`.results` declares the paper's RESULTS;
:mod:`.evidence` holds the row builders shared by several sections (trained units at a setting,
named alternatives, discrimination).

The package re-exports every check function, so ``sims.collins24:check_x`` resolves.
"""

from __future__ import annotations

from sims.collins24.appC_signal import (  # noqa: F401
    check_lemb5_ellipsoid,
    check_lemb_5_mc_ellipsoid,
)
from sims.collins24.evidence import (  # noqa: F401
    BASE_BATCH,
    DRIFT_FRACTION,
    MAX_BATCH,
    RELU_Z,
    SEPARABLE_UNITS,
    SETTING_LR,
    SETTING_STEPS,
    discriminate,
    omega_hat,
    seeds_of,
    setting_rows,
    validate_fig34_setting,
    validate_thm34_setting,
)
from sims.collins24.fig3_4 import (  # noqa: F401
    OFFDIAG_MAX,
    check_fig3_4_train,
    check_fig3_4_train_acg,
    fig34_acg_cos_rows,
)
from sims.collins24.sec2_reductions import (  # noqa: F401
    check_limits_train,
    check_risk_affine_torch,
)
from sims.collins24.sec3_linear import (  # noqa: F401
    check_fig1_order,
    check_thm3_6_train,
)
from sims.collins24.sec3_optimum import (  # noqa: F401
    ANISOTROPY_MAX,
    RELU_RTOL,
    check_thm3_4_train,
    check_thm3_4_train_cos,
    check_thm3_4_train_relu,
)
from sims.collins24.sec3_transfer import (  # noqa: F401
    SIMILAR_RTOL,
    check_fig5_matrix,
    check_fig5_order_matrix,
    check_fig5_quad,
    check_thm3_5_train,
)
from sims.collins24.sec4_lowrank import (  # noqa: F401
    LA_RHO_MIN,
    check_fig9_train,
    check_thm4_4_train,
    check_thm4_4_train_paper,
    fig9_class_rows,
)

__all__ = [
    "check_risk_affine_torch",
    "check_limits_train",
    "check_thm3_5_train",
    "check_fig5_quad",
    "SIMILAR_RTOL",
    "check_fig5_order_matrix",
    "check_thm3_4_train",
    "check_thm3_4_train_relu",
    "check_thm3_4_train_cos",
    "ANISOTROPY_MAX",
    "RELU_RTOL",
    "check_fig3_4_train",
    "check_fig3_4_train_acg",
    "fig34_acg_cos_rows",
    "OFFDIAG_MAX",
    "check_thm3_6_train",
    "check_fig1_order",
    "check_lemb_5_mc_ellipsoid",
    "check_thm4_4_train",
    "check_thm4_4_train_paper",
    "check_fig9_train",
    "LA_RHO_MIN",
    "fig9_class_rows",
    "SETTING_LR",
    "SETTING_STEPS",
    "BASE_BATCH",
    "MAX_BATCH",
    "DRIFT_FRACTION",
    "SEPARABLE_UNITS",
    "RELU_Z",
    "validate_thm34_setting",
    "validate_fig34_setting",
    "omega_hat",
    "setting_rows",
    "seeds_of",
    "discriminate",
]
