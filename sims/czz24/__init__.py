"""[czz24] checks on torch models (constructed or trained) against theory predictions, one module
per paper section (the keys of :data:`theory.czz24.SECTIONS`):

* :mod:`.data` (§2: the experiments' sampler), :mod:`.model` (Eq. 2.2: the effective predictor
  against the forward pass), :mod:`.constructions` (Props. 4.1 / 4.2 loaded into torch; the S1
  construction trained with tied steps at a drawn setting);
* :mod:`.pregd` (S1: the trained pre-GD model against the tuned constant-η optimum; the free
  per-layer schedule);
* :mod:`.fig1b` (Fig. 1b / App. B Fig. 3 and S2: the small trained multi-head models);
* :mod:`.heads` (§3 Eq. 3.1: head importance, pruning, probing and P-probing);
* :mod:`.evidence` (the S1 rows at any setting; the weight loading, bound here too).

Every check function is re-exported here (``sims.czz24:check_x`` resolves).
"""

from __future__ import annotations

from sims.czz24.evidence import (
    S1_DEFAULTS,
    TORCH_ATOL,
    TiedRun,
    constant_eta_optimum,
    describe_run,
    load_weights,
    s1_rows_at_setting,
    train_tied,
    validate_s1_setting,
)
from sims.czz24.fig1b import (
    FIG1B_NS,
    check_fig1b_train,
    check_s2_train,
)
from sims.czz24.sec2_data import check_sec2_torch, check_sec2_torch_moment_tokens
from sims.czz24.sec2_model import check_eq2_2_torch, check_eq2_2_torch_cases
from sims.czz24.sec3_heads import (
    check_eq3_1_train,
    check_eq3_1_train_probe,
    check_eq3_1_train_pruning,
)
from sims.czz24.sec4_2_pregd import (
    S1_RTOL,
    TIED_STEPS_RTOL,
    check_s1_optim_free_schedule,
    check_s1_train,
    s1_eta_curve,
)
from sims.czz24.sec4_2_pregd import (
    check_s1_free_schedule as check_s1_free_schedule,
)
from sims.czz24.sec4_constructions import (
    check_prop4_1_torch,
    check_prop4_1_torch_cases,
    check_prop4_2_torch,
    check_prop4_2_torch_cases,
)

__all__ = [
    "check_eq2_2_torch",
    "check_eq2_2_torch_cases",
    "check_prop4_1_torch",
    "check_prop4_1_torch_cases",
    "check_prop4_2_torch",
    "check_prop4_2_torch_cases",
    "check_sec2_torch",
    "check_sec2_torch_moment_tokens",
    "check_s1_train",
    "check_s1_optim_free_schedule",
    "check_s2_train",
    "check_eq3_1_train",
    "check_eq3_1_train_pruning",
    "check_eq3_1_train_probe",
    "check_fig1b_train",
    "load_weights",
    "s1_eta_curve",
    "S1_RTOL",
    "TIED_STEPS_RTOL",
    "TORCH_ATOL",
    "S1_DEFAULTS",
    "validate_s1_setting",
    "constant_eta_optimum",
    "train_tied",
    "s1_rows_at_setting",
    "TiedRun",
    "describe_run",
    "FIG1B_NS",
]
