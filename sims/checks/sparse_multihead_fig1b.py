"""czz24 checks on the small trained models of Fig. 1b (d = 16, s = 4, σ = 0.1, experimental prior,
trained at n = 12 with q = 4 as in App. B) and on the Sec. 3 pruning protocol (Eq. 3.1, spec R13).

Fig. 1b: the trained model's excess risk at a few context lengths n (attention scale 1/n of the
evaluated context, as the paper evaluates beyond its training length), paired on the same contexts
with the support-enumeration Bayes posterior mean, the floor every predictor stays above (ORDER,
``trained ≥ Bayes − 5·se``).  The trained model never sees a prediction (``sims.experiments``
imports only ``theory.settings``).  Pruning: keep every head of layer 1 and the most important
head of each later layer (``pruning_keep`` of the measured W), fine-tune ≤ 500 steps (issue 10's
budget; the paper fine-tunes 60,000), report the risks (INFO: the spec gives no pass criterion for
pruning at CPU scale); what is checked is the pruning itself (the R12 extraction with the heads
masked equals the torch model with the heads zeroed, and the zeroed heads stay zero).
"""

from __future__ import annotations

import numpy as np

from numerics.montecarlo import estimate_from_samples
from numerics.sampling import check_rng
from numerics.sparse_multihead.heads import head_deltas, to_weights
from numerics.sparse_multihead.predictors import bayes_fit
from numerics.sparse_multihead.sampling import SparseBatch, sample_sparse_prompts
from numerics.sparse_multihead.threads import one_blas_thread
from numerics.testing import (
    Z_MC,
    exact_agreement,
    float_agreement,
    informational,
    ordering,
    untested,
)
from sims.experiments.sparse_multihead import (
    FIG1B_PRESETS,
    PRESETS,
    coefficients,
    load_model,
    pruned,
    trained,
)
from theory.common.protocols import Evidence
from theory.settings import SparseRegressionICL
from theory.sparse_multihead import head_importance, pruning_keep
from theory.sparse_multihead.claims import CLAIMS, PAPER_TRAINING_SCALE
from theory.sparse_multihead.model import LinTFWeights, effective_predictor  # unwrapped: a loop

__all__ = ["check_fig1b_train", "check_eq3_1_train_pruning", "FIG1B_NS", "fig1b_setting"]

#: Context lengths at which the trained models are evaluated (the paper plots n = 5..25).
FIG1B_NS = {"quick": (6, 12, 18, 24), "full": (4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24)}
#: The spec's calibrated Fig. 1b baselines at those n: (ridge*, lasso*, Bayes) (spec 000 §4).
_SPEC = {4: (2.92, 3.03, 2.44), 6: (2.48, 1.97, 1.09), 8: (2.05, 1.11, 0.13),
         10: (1.46, 0.30, 0.018), 12: (1.02, 0.096, 0.010), 14: (0.60, 0.035, 0.006),
         16: (0.28, 0.016, 0.005), 18: (0.12, 0.013, 0.004), 20: (0.049, 0.010, 0.003),
         22: (0.033, 0.008, 0.003), 24: (0.023, 0.007, 0.002)}


def fig1b_setting(n: int) -> SparseRegressionICL:
    """The Fig. 1b data model at context length ``n`` (σ = 0.1, d = 16, s = 4, Gaussian slab)."""
    return SparseRegressionICL.isotropic(d=16, s=4, n=n, sigma2=0.01, prior="gauss")


@one_blas_thread
def check_fig1b_train(*, quick: bool = True, seed: int = 0,
                      fault_leak_task: float | None = None) -> list[Evidence]:
    """Fig. 1b small trained models: for each model (quick: heads (4, 4, 4), 600 steps; --full
    also the paper's L = 4 with h ∈ {1, 4, 8}, 3000 steps) and each evaluated n, ORDER trained ≥
    Bayes − 5·se on the same contexts (paired, exact coefficient per context through unit
    queries); ORDER at the training length n = 12: trained < E‖w‖² = 4 (the zero predictor, i.e.
    the model learned in context); INFO: the trained risks next to the spec's ridge*, lasso*,
    Bayes.  ``fault_leak_task = λ`` mixes the task into the model's coefficient,
    ``ŵ ← (1 − λ)ŵ + λw*`` (an impossible model that must break the Bayes floor; negative
    control)."""
    tier = "quick" if quick else "full"
    trials = 300 if quick else 1000
    out: list[Evidence] = []
    for preset in FIG1B_PRESETS[tier]:
        res = trained(preset, seed=seed)
        model = load_model(preset, res)
        risks: dict[int, float] = {}
        medians: dict[int, float] = {}
        for m in FIG1B_NS[tier]:
            p = sample_sparse_prompts(fig1b_setting(m), trials,
                                      rng=check_rng(seed, f"{__name__}:check_fig1b_train", m))
            w_tf = coefficients(model, p.X, p.y)
            if fault_leak_task is not None:
                w_tf = (1.0 - fault_leak_task) * w_tf + fault_leak_task * p.w
            err = np.sum((w_tf - p.w) ** 2, axis=1)
            eb = np.sum((bayes_fit(p.X, p.y, 4, 0.01, "gauss") - p.w) ** 2, axis=1)
            tf, diff = estimate_from_samples(err), estimate_from_samples(err - eb)
            risks[m], medians[m] = tf.mean, float(np.median(err))
            info = {"trained": tf.mean, "trained_se": tf.se, "bayes": float(eb.mean()),
                    "paired_se": diff.se, "spec_ridge_lasso_bayes": _SPEC.get(m),
                    "heads": PRESETS[preset][0].heads, "steps": PRESETS[preset][1].steps}
            out.append(ordering(f"Fig. 1b {preset} at n = {m}: trained ≥ Bayes − 5·se (paired)",
                                float(eb.mean()), tf.mean + Z_MC * diff.se, margin=0.0,
                                details=info))
            if m == 12:
                out.append(ordering(f"Fig. 1b {preset} at its training n = 12: trained < E‖w‖² "
                                    "= 4 (the zero predictor)", tf.mean, 4.0,
                                    margin=Z_MC * tf.se, details=info))
        exp_p, cfg_p = PRESETS[preset]
        row = Evidence(
            name=f"Fig. 1b {preset} (seed {seed}): trained excess risk by n (spec: ridge*, "
                 "lasso*, Bayes)",
            kind="ORDER", predicted={m: _SPEC.get(m) for m in risks}, observed=risks,
            tolerance=0.0, error=0.0, passed=True,
            details={"median": medians,
                     "forward_test_excess": res.extra["test_excess"],
                     "note": "linear attention at CPU scale; the paper's softmax encoders train "
                             "320k steps (spec §4, S2: no head benefit expected); below the "
                             "training n = 12 the linear model's risk is heavy-tailed (the mean "
                             "can blow up on rare contexts: see the median)"})
        out.append(untested(
            row, claim=CLAIMS["fig1b-transformers"],
            reached=(f"masked linear-attention TF, heads {exp_p.heads}, d_hid = {exp_p.d_hid}, "
                     f"{cfg_p.steps} CPU Adam steps, seed {seed}, d = 16, s = 4, σ = 0.1"),
            needed=PAPER_TRAINING_SCALE))
    return out


def _masked_coefficients(W: LinTFWeights, p: SparseBatch, masks: list[list[bool]] | None
                         ) -> np.ndarray:
    return np.stack([effective_predictor(W, p.X[i], p.y[i], head_masks=masks)
                     for i in range(len(p.X))])


@one_blas_thread
def check_eq3_1_train_pruning(*, quick: bool = True, seed: int = 0, steps: int = 500,
                              fault_prune_rule: str | None = None) -> list[Evidence]:
    """Sec. 3 pruning of the trained Fig. 1b (4, 4, 4) model: W from exact head masking (R12),
    ``keep = pruning_keep(W)``; FLOAT: the R12 coefficient with those heads masked equals the R12
    coefficient of the torch model with those heads zeroed (before fine-tuning), to 1e-10; EXACT:
    the zeroed heads are still exactly 0 after the ``steps``-step fine-tune (≤ 500, issue 10);
    INFO: risks of the unpruned, pruned and pruned + fine-tuned models at n = 12 and the spec's
    claim (pruned ≈ unpruned, after 60,000 steps), reported, not asserted.
    ``fault_prune_rule = "argmin"`` zeroes the least important head of each later layer in torch
    while the mask keeps the most important (negative control)."""
    preset = "fig1b_h4"
    exp = PRESETS[preset][0]
    st = exp.setting
    model = load_model(preset, trained(preset, seed=seed))
    W_theory = to_weights(model)
    D = head_deltas(W_theory, exp.heads, st, 200 if quick else 1000, seed)
    W = np.vstack([head_importance(D[i:i + 1, :h]) for i, h in enumerate(exp.heads)])
    keep = pruning_keep(W)
    zero = keep.copy()
    if fault_prune_rule == "argmin":
        zero[1:] = False
        zero[np.arange(1, W.shape[0]), np.argmin(W[1:], axis=1)] = True
    keep_t = tuple(tuple(bool(k) for k in row) for row in keep)
    zero_t = tuple(tuple(bool(k) for k in row) for row in zero)
    rng = check_rng(seed, f"{__name__}:check_eq3_1_train_pruning")
    p = sample_sparse_prompts(st, 300 if quick else 1000, rng=rng)
    masked = _masked_coefficients(W_theory, p, [list(r) for r in keep_t])
    zeroed = to_weights(model)
    for i, row in enumerate(zero_t):
        for j, k in enumerate(row):
            if not k:
                for mats in (zeroed.layers[i].WQ, zeroed.layers[i].WK, zeroed.layers[i].WV):
                    mats[j] = np.zeros_like(mats[j])  # type: ignore[index]
    direct = _masked_coefficients(zeroed, p, None)
    ft = pruned(preset, zero_t, seed=seed, steps=steps)
    ft_model = load_model(preset, ft)
    dead = [float(np.max(np.abs(lst[i][j].detach().numpy())))
            for i, row in enumerate(zero_t) for j, k in enumerate(row) if not k
            for lst in (ft_model.WQ, ft_model.WK, ft_model.WV)]
    full = np.sum((_masked_coefficients(W_theory, p, None) - p.w) ** 2, axis=1)
    cut = np.sum((masked - p.w) ** 2, axis=1)
    tuned = np.sum((_masked_coefficients(to_weights(ft_model), p, None) - p.w) ** 2, axis=1)
    risks = {k: estimate_from_samples(v) for k, v in
             (("unpruned", full), ("pruned", cut), ("pruned + fine-tuned", tuned))}
    return [
        float_agreement("pruning: R12 with the heads masked = the model with the heads zeroed",
                        direct, masked, rtol=0.0, atol=1e-10 * (1 + float(np.abs(masked).max())),
                        details={"keep": keep.tolist()}),
        exact_agreement(f"pruning: zeroed heads stay exactly 0 through the {steps}-step "
                        "fine-tune", max(dead, default=0.0), 0.0),
        informational(f"pruning (keep layer 1, the argmax head of layers 2–3) at n = 12, "
                      f"fine-tune {steps} steps (paper 60,000; claim: pruned ≈ unpruned)", None,
                      {k: e.mean for k, e in risks.items()},
                      details={"se": {k: e.se for k, e in risks.items()}, "W": W.tolist(),
                               "keep": keep.tolist()}),
    ]
