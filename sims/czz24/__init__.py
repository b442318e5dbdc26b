"""[czz24] checks on torch models (constructed or trained) against theory predictions, one module
per paper section (the keys of :data:`theory.czz24.SECTIONS`):

* :mod:`.sec2_data` (§2: the experiments' sampler and the compressed training prompts),
  :mod:`.sec2_model` (Eq. 2.2: the effective predictor against the forward pass),
  :mod:`.sec4_constructions` (Props. 4.1 / 4.2 loaded into torch);
* :mod:`.sec4_2_pregd` (S1: the trained pre-GD model against the tuned constant-η optimum; the
  free per-layer schedule);
* :mod:`.fig1b` (Fig. 1b / App. B Fig. 3 and S2: the small trained multi-head models);
* :mod:`.sec3_heads` (§3 Eq. 3.1: head importance, pruning, probing and P-probing);
* :mod:`.evidence` (the S1 rows at any setting; the weight loading and the skip of a row on an
  unconverged run, bound here too).

Training lives in one place: every model a check judges comes from
:func:`sims.czz24.train.trained` ``(setting, recipe, *, seed)``, cached by all three -- Adam on
fresh prompts for a :class:`~sims.czz24.train.Recipe` (in :mod:`.train`), the S1 model's steps
fitted on a fixed sample for a :class:`~sims.czz24.train.TiedRecipe` (Newton) or
:class:`~sims.czz24.train.FreeRecipe` (L-BFGS; both in :mod:`.fits`).  Every route stops on its
invariant's drift over a window below a fraction of the judging row's tolerance, within a step
bound; a row on a run that ends unconverged is ``skipped`` with its numbers.

Every check function is re-exported here (``sims.czz24:check_x`` resolves).
"""

from __future__ import annotations

from sims.czz24.evidence import (
    S1_DEFAULTS,
    TORCH_ATOL,
    constant_eta_optimum,
    describe_run,
    load_weights,
    s1_rows_at_setting,
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
from sims.czz24.train import TiedRun, trained

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
    "s1_rows_at_setting",
    "TiedRun",
    "trained",
    "describe_run",
    "FIG1B_NS",
]
