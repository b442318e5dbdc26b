"""[collins24] checks on torch units (spec 003 §3.2, §4), one module per paper section (the keys of
:data:`theory.softmax_window.SECTIONS`): :mod:`.reductions` (§2, Remark 2.1), :mod:`.optimum`
(Theorem 3.4), :mod:`.transfer` (Theorem 3.5, Fig. 5), :mod:`.dynamics` (Figs. 3-4),
:mod:`.linear` (Theorem 3.6, Fig. 1), :mod:`.signal` (Lemma B.5), :mod:`.lowrank` (§4, Fig. 9);
:mod:`.evidence` holds the row builders shared by several sections (trained units at a setting,
named alternatives, discrimination).

The package re-exports every check function, so ``sims.checks.softmax_window:check_x`` resolves.
"""

from __future__ import annotations

from sims.checks.softmax_window.dynamics import (  # noqa: F401
    OFFDIAG_MAX,
    check_fig3_4_train,
    check_fig3_4_train_acg,
    fig34_acg_cos_rows,
)
from sims.checks.softmax_window.evidence import (  # noqa: F401
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
    trained_setting,
    validate_fig34_setting,
    validate_thm34_setting,
)
from sims.checks.softmax_window.linear import (  # noqa: F401
    check_fig1_order,
    check_thm3_6_train,
)
from sims.checks.softmax_window.lowrank import (  # noqa: F401
    LA_RHO_MIN,
    check_fig9_train,
    check_thm4_4_train,
    fig9_class_rows,
)
from sims.checks.softmax_window.optimum import (  # noqa: F401
    ANISOTROPY_MAX,
    RELU_RTOL,
    check_thm3_4_train,
    check_thm3_4_train_cos,
    check_thm3_4_train_relu,
)
from sims.checks.softmax_window.reductions import (  # noqa: F401
    check_limits_train,
    check_risk_affine_torch,
)
from sims.checks.softmax_window.signal import (  # noqa: F401
    check_lemb5_ellipsoid,
    check_lemb_5_mc_ellipsoid,
)
from sims.checks.softmax_window.transfer import (  # noqa: F401
    SIMILAR_RTOL,
    check_fig5_matrix,
    check_fig5_order_matrix,
    check_fig5_quad,
    check_thm3_5_train,
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
    "trained_setting",
    "setting_rows",
    "seeds_of",
    "discriminate",
]
