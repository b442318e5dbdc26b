"""[hpcy25] the trained floor of He, Pan, Chen, Yang (2025): checks on torch models (constructed or
trained) against theory predictions, one module per paper section (keys of
:data:`theory.hpcy25.SECTIONS`), the same file names as ``theory/hpcy25`` and ``numerics/hpcy25``:

* :mod:`.train` -- the one trainer ``trained(setting, recipe, *, seed)`` (``HpcyExperiment``,
  ``Recipe``, the presets as named (Setting, Recipe) pairs; a ``ContinuationRecipe`` continues a
  run at the paper's recipe in cached chunks), with :mod:`.stop` (the stop rules): the only
  place this paper trains a torch model;
* :mod:`.sec2_model` -- §2 eqs. (2.2)-(2.3): the torch forward;
* :mod:`.sec3_observations` -- §3 Observations 1-4 at the presets and at any setting;
* :mod:`.sec3_obs1_setting` -- Observations 1-2 at a drawn setting;
* :mod:`.sec3_heads` -- which heads of a trained model the pattern rows judge;
* :mod:`.sec3_training`, :mod:`.sec3_convergence` -- §3 training at any setting: validators, the
  derived recipe, convergence, separability and traps;
* :mod:`.sec3_sharp_head` -- the sharp head at H ≥ 3 [derived]: the paper-recipe training route
  and the outcomes of a drawn H ≥ 3 Obs-1 run;
* :mod:`.sec4_2_manifold` -- §4.2 (4.3) against vanilla GD (any setting), the finite-ω prediction
  of ⟨ω, μ⟩ [derived] and its ω → 0 limit row, m vs m*(ω̄) (4.6), the single head (4.12);
* :mod:`.sec5_extensions` -- §5 length generalisation, non-isotropic P, multi-task;
* :mod:`.evidence` -- the trained-row builders those share (pattern metrics, risks, seeds,
  alternatives, manifold rows, traps);
* :mod:`.results` -- the declared ``RESULTS`` and ``PROPERTIES``.

Invariant coordinates: the effective circuits ``KQ^h``, ``OV^h``, the head scales
``ω_h``, ``μ_h``, the effective step ``η̂ = 2ω̄m``, preconditioners ``P = Σ_h μ_h sym(K11^h)`` and
risks on fresh prompts.  Random streams keep the labels of the checks' first registered paths
(``"sims.checks.softmax_multihead:<check>"``, string literals in the section modules), so moving a
file moves no random stream.  The check functions are re-exported here.
"""

# ruff: noqa: F401  (the sections' public names, re-exported)
from __future__ import annotations

from sims.hpcy25.evidence import COUNT_ATOL, pattern_metrics, seed_claim_row
from sims.hpcy25.sec2_model import FORWARD_ATOL, FORWARD_RTOL, check_eq2_3_torch
from sims.hpcy25.sec3_observations import (
    check_obs1_train,
    check_obs2_train_seeds,
    check_obs3_train,
    check_obs4_train,
    obs1_at_setting,
    seed_outcomes,
    setting_rows,
)
from sims.hpcy25.sec3_sharp_head import check_sharp_head_train
from sims.hpcy25.sec3_training import (
    M_GAP_UNITS,
    MUST_RESOLVE_L,
    MUST_RESOLVE_REL,
    OBS1_DEFAULTS,
    PATTERN_TOLERANCES,
    SEPARATION_UNITS,
    SETTING_SECONDS_PER_STEP,
    STOP_FRACTION,
    VGD_DEFAULTS,
    at_preset,
    converged_or_skipped,
    convergence_shortfall,
    discriminate,
    invariant_stop,
    m_row,
    pair_trap,
    pattern_stop,
    plan_rtol,
    recipe_details,
    setting_batch,
    setting_training,
    skip_unconverged,
    trapped_rows,
    validate_obs1,
    validate_vgd,
)
from sims.hpcy25.sec4_2_manifold import (
    COMPARISON,
    LIMIT_OFFSET_UNITS,
    PAIR_MC_N,
    PRED_NAME,
    check_eq4_3_train_vgd,
    check_eq4_12_train,
    finite_omega_rows,
    finite_omega_scale,
    finite_omega_step,
    limit_row,
    vgd_at_setting,
    vgd_setting_rows,
)
from sims.hpcy25.sec5_extensions import (
    RTOL_NONISO_SCALE,
    check_def5_1_train,
    check_eq5_6_train,
    check_sec5_1_train,
)
from sims.hpcy25.train import (
    PATTERN_MAX_STEPS,
    PLATEAU_DECAY_STEPS,
    PLATEAU_FLOOR,
    PLATEAU_MAX_STEPS,
    PLATEAU_TRIGGER_UNITS,
)

__all__ = [
    "pattern_metrics",
    "check_eq2_3_torch",
    "check_obs1_train",
    "check_obs3_train",
    "check_obs4_train",
    "check_eq4_12_train",
    "check_sec5_1_train",
    "check_eq5_6_train",
    "check_def5_1_train",
    "check_obs2_train_seeds",
    "check_eq4_3_train_vgd",
    "check_sharp_head_train",
    "seed_claim_row",
]
