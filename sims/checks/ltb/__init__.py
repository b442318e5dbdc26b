"""[zwb24] checks on torch models (constructed or trained) against theory predictions, one module
per paper section (keys of :data:`theory.ltb.SECTIONS`):

* :mod:`.model` -- §3 token matrix (3.1), mask (3.2), forward pass = effective predictor (★);
* :mod:`.gd_beta` -- §5 Lemma 5.1: the explicit weights implement GD-β;
* :mod:`.mlp_gap` -- §4 Table 1 at CPU scale (trained LTB vs LSA, and the β* = 0 control);
* :mod:`.table1` -- §4 Table 1 at a drawn setting: the raw LTB/LSA fit the table-1 checks read;
* :mod:`.flow` -- App. G Theorem 6.3: GD-β trained directly reaches (Γ*, β*);
* :mod:`.evidence` -- the recipes those share (per-seed TRAIN rows, row plans at a drawn setting).

Every check function is re-exported here, so ``sims.checks.ltb:check_x`` keeps resolving.  The
old modules ``sims.checks.ltb_forward`` and ``sims.checks.ltb_settings`` are this package
(:data:`sims.checks.MOVED`); their public names are bound here too.
"""

# ruff: noqa: F401  (the old modules' public names, bound for their aliases)
from __future__ import annotations

from sims.checks.ltb.evidence import (
    C17_DEFAULTS,
    C17_PROMPTS,
    C18_DEFAULTS,
    SKIP_SECONDS,
    RowPlan,
    plan_rows,
    skip_rows,
)
from sims.checks.ltb.flow import FIT_PROMPTS, check_thm6_3_train, fit_gd_beta
from sims.checks.ltb.gd_beta import check_lem5_1_torch
from sims.checks.ltb.mlp_gap import check_table1_train, check_table1_train_zero_mean
from sims.checks.ltb.model import check_asm3_1_torch_mask, check_eq3_3_torch
from sims.checks.ltb.table1 import CHART_EDGE, LTB_FIT_PROMPTS, FitRun, fit_ltb
from theory.settings.ltb import (
    C18_BETA_NORM,
    table1_setting,
    thm63_setting,
    validate_table1,
    validate_thm63,
)

__all__ = [
    "check_asm3_1_torch_mask",
    "check_eq3_3_torch",
    "check_lem5_1_torch",
    "check_table1_train",
    "check_table1_train_zero_mean",
    "check_thm6_3_train",
]
