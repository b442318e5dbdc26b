"""[zfb24] checks on torch models (constructed or trained) against theory predictions, one module
per paper section (keys of :data:`theory.lsa_flow.SECTIONS`):

* :mod:`.model` -- §2 eq. (6) (torch forward) and eq. (12) (trained predictions, any M);
* :mod:`.training` -- §3 the training problem: the moment-statistics route (GD on the factors with
  the loss written through sufficient statistics of sampled prompts) at any setting;
* :mod:`.convergence` -- §4.1 Theorem 4 by SGD and full-batch GD;
* :mod:`.flow` -- §5 / App. A Lemma 10: GD factors at matched times = the ODE;
* :mod:`.shifts` -- §4.2 distribution shifts on fresh prompts;
* :mod:`.random_cov` -- §4.3 Theorem 8 (random covariance);
* :mod:`.evidence` -- the recipe those share (cached presets, tolerance planning against Γ's
  neighbours, the separability rule).

Invariant coordinates (STYLE R10): the identifiable product ``P = u₋₁U₁₁`` (u₋₁ = w^{PV}_{22},
U₁₁ = W^{KQ}_{11}), the blocks ``u₁₂ = w^{PV}_{21}``, ``u₂₁ = w^{KQ}_{21}``, the factors
``(U₁₁, u₋₁)`` only where balancedness is (approximately) conserved (full-batch GD), and
predictions on fresh prompts.  Every TRAIN row is a :func:`~numerics.testing.train_discrimination`
against Γ's named neighbours (:data:`numerics.lsa_flow.faults.GAMMA_ALTERNATIVES`; for Theorem 8,
δ's: ``delta_alternatives``).  Random streams are labelled with the registered check paths
``sims.checks.lsa_flow:<check>`` (string literals in the section modules).

Every check function is re-exported here, so ``sims.checks.lsa_flow:check_x`` keeps resolving; the
old modules ``sims.checks.lsa_flow_{common,train,random_cov,predictions}`` are these modules
(:data:`sims.checks.MOVED`).
"""

# ruff: noqa: F401  (the old modules' public names, bound for their aliases)
from __future__ import annotations

from sims.checks.lsa_flow.convergence import (
    SGD_PRESET_SECONDS,
    check_thm4_train_population_gd,
    check_thm4_train_sgd,
)
from sims.checks.lsa_flow.evidence import (
    DRIFT_MARGIN,
    NONZERO_MARGIN,
    SEPARATION_UNITS,
    SGD_BUDGET_SECONDS,
    THM4_D,
    THM4_N,
    THM4_SIGMA,
    THM4_SPECTRUM,
    TRAIN_ORDER_MARGIN,
    eq12_prompts,
    factors,
    is_thm4_preset,
    not_separable,
    rel,
    row_rtol,
    thm4_moments,
    thm4_setting,
    tokens,
    trained_fixed_batch,
    trained_random_cov,
    trained_sgd,
)
from sims.checks.lsa_flow.flow import LEM10_RTOL, LEM10_TAUS, check_lem10_train_flow_vs_gd
from sims.checks.lsa_flow.model import check_eq6_torch, check_eq12_train
from sims.checks.lsa_flow.random_cov import check_thm8_train_sgd
from sims.checks.lsa_flow.shifts import SHIFT_MS, check_shifts_train

__all__ = [
    "check_eq6_torch",
    "check_thm4_train_sgd",
    "check_thm4_train_population_gd",
    "check_eq12_train",
    "check_shifts_train",
    "check_lem10_train_flow_vs_gd",
    "check_thm8_train_sgd",
    "trained_sgd",
    "trained_fixed_batch",
    "trained_random_cov",
]
