"""czz24 Fig. 1b / App. B Fig. 3 and S2: the small trained masked multi-head linear transformers.

Fig. 1b (d = 16, s = 4, σ = 0.1, experimental prior, trained at n = 12 with q = 4 as in App. B):
the trained model's excess risk at a few context lengths n (attention scale 1/n of the evaluated
context, as the paper evaluates beyond its training length), paired on the same contexts with the
support-enumeration Bayes posterior mean, the floor every predictor stays above (ORDER,
``trained ≥ Bayes − 5·se``); :func:`compute_1b` holds the numbers of the figure.  S2 (a
negative finding): trained masked linear TFs with 1 or 8 heads in layer 1, sanity rows
and the head difference reported, at the setting the check is given (S2's ridge* and Bayes
references need Σ = I: :func:`s2_hypotheses`).  The models come from
``sims.czz24.train.trained(setting, recipe)``, which imports only the paper's settings: a
trained model never sees a prediction."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from numerics.czz24.fig1b import FIG1B_SPEC
from numerics.czz24.predictors import ALPHA_GRID, bayes_fit, lasso_fit, ridge_fit
from numerics.czz24.sampling import sample_sparse_prompts
from numerics.czz24.sec3_heads import to_weights
from numerics.montecarlo import estimate_from_samples
from numerics.sampling import check_rng
from numerics.testing import (
    Z_MC,
    float_agreement,
    ordering,
    tier_seeds,
    untested,
)
from numerics.verdicts import skipped
from sims.czz24.evidence import if_converged
from sims.czz24.train import (
    FIG1B_RECIPES,
    FIG1B_TRAIN,
    S2_H1,
    S2_H8,
    Recipe,
    coefficients,
    data_of,
    load_model,
    prompts_rule,
    recipe_for,
    stop_record,
    trained,
)
from sims.models.sparse_multihead import MaskedLinearTF
from sims.train import TrainResult
from theory.common.protocols import Evidence
from theory.czz24 import ols_excess_risk
from theory.czz24.claims import CLAIMS, PAPER_TRAINING_SCALE
from theory.czz24.sec2_model import effective_predictor
from theory.czz24.sec5_bayes import bayes_posterior_mean
from theory.czz24.settings import PRESETS as SETTINGS
from theory.czz24.settings import Setting, SparseRegressionICL

__all__ = [
    "compute_1b",
    "check_fig1b_train",
    "check_s2_train",
    "s2_hypotheses",
    "s2_recipe",
    "FIG1B_NS",
]

#: Random-stream labels: the checks' registered paths before the package (fixed, so the streams are
#: unchanged).
_FIG1B_STREAM = "sims.checks.sparse_multihead_fig1b:check_fig1b_train"
_EXACT_RISK_STREAM = "sims.checks.sparse_multihead:_exact_risk"


#: float64 round-off between R12's exact coefficient and the forward pass (unit queries) of the
#: same polynomial in the context (observed ≤ 2e-14 relative)
R12_RTOL = 1e-9
#: absolute floor of the same comparison (per-context risks are O(0.1))
R12_ATOL = 1e-12


#: Context lengths at which the trained models are evaluated (the paper plots n = 5..25).
FIG1B_NS = {"quick": (6, 12, 18, 24), "full": (4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24)}


def check_fig1b_train(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_leak_task: float | None = None,
) -> list[Evidence]:
    """Fig. 1b small trained models: for each model (quick: heads (4, 4, 4), 600 steps; --full
    also the paper's L = 4 with h ∈ {1, 4, 8}, 3000 steps) and each evaluated n, ORDER trained ≥
    Bayes − 5·se on the same contexts (paired, exact coefficient per context through unit
    queries); ORDER at the training length n = 12: trained < E‖w‖² = 4 (the zero predictor, i.e.
    the model learned in context); INFO: the trained risks next to our reference ridge*, lasso*,
    Bayes.  ``fault_leak_task = λ`` mixes the task into the model's coefficient,
    ``ŵ ← (1 − λ)ŵ + λw*`` (an impossible model that must break the Bayes floor; negative
    control, passed through the figure's :func:`compute_1b`, whose trained curves these are)."""
    tier = "quick" if quick else "full"
    # the figure's trained curves (compute_1b) at this check's n, contexts and streams, with the
    # Bayes error on the same contexts
    fig = compute_1b(
        quick=quick,
        seed=seed,
        ns=(),
        ns_tf=FIG1B_NS[tier],
        tf_trials=300 if quick else 1000,
        tf_rng=lambda m: check_rng(seed, _FIG1B_STREAM, m),
        paired_bayes=True,
        fault_leak_task=fault_leak_task,
    )
    out: list[Evidence] = []
    for curve in fig["trained"]:
        preset = curve["preset"]
        recipe = FIG1B_RECIPES[tier][preset]
        res = trained(FIG1B_TRAIN, recipe, seed=seed)
        risks: dict[int, float] = {}
        medians: dict[int, float] = {}
        for m, err, eb in zip(curve["ns"], curve["errors"], curve["bayes_errors"], strict=True):
            tf, diff = estimate_from_samples(err), estimate_from_samples(err - eb)
            risks[m], medians[m] = tf.mean, float(np.median(err))
            info = {
                "trained": tf.mean,
                "trained_se": tf.se,
                "bayes": float(eb.mean()),
                "paired_se": diff.se,
                "spec_ridge_lasso_bayes": FIG1B_SPEC.get(m),
                "heads": recipe.heads,
                "steps": res.config.steps,
            }
            out.append(
                if_converged(
                    ordering(
                        f"Fig. 1b {preset} at n = {m}: trained ≥ Bayes − 5·se (paired)",
                        float(eb.mean()),
                        tf.mean + Z_MC * diff.se,
                        margin=0.0,
                        details=info,
                    ),
                    res,
                )
            )
            if m == 12:
                out.append(
                    if_converged(
                        ordering(
                            f"Fig. 1b {preset} at its training n = 12: trained < E‖w‖² "
                            "= 4 (the zero predictor)",
                            tf.mean,
                            4.0,
                            margin=Z_MC * tf.se,
                            details=info,
                        ),
                        res,
                    )
                )
        row = Evidence(
            name=f"Fig. 1b {preset} (seed {seed}): trained excess risk by n (references: "
            "ridge*, lasso*, Bayes)",
            kind="ORDER",
            predicted={m: FIG1B_SPEC.get(m) for m in risks},
            observed=risks,
            tolerance=0.0,
            error=0.0,
            passed=True,
            details={
                "median": medians,
                "forward_test_excess": res.extra["test_excess"],
                "stop": stop_record(res),
                "note": "linear attention at CPU scale; the paper's softmax encoders train "
                "320k steps (App. B; no head benefit expected at this scale); below the "
                "training n = 12 the linear model's risk is heavy-tailed (the mean "
                "can blow up on rare contexts: see the median)",
            },
        )
        out.append(
            untested(
                row,
                claim=CLAIMS["fig1b-transformers"],
                reached=(
                    f"masked linear-attention TF, heads {recipe.heads}, d_hid = {recipe.d_hid}, "
                    f"{res.config.steps} CPU Adam steps, seed {seed}, d = 16, s = 4, σ = 0.1"
                ),
                needed=PAPER_TRAINING_SCALE,
            )
        )
    return out


#: S2's sanity factor over ridge* (S2: a trained model's risk < 3 × ridge*).
SANE_RIDGE_FACTOR = 3.0

#: S2's recipes by name: heads (1, 1, 1) and (8, 1, 1) in layer 1.
S2_RECIPES = {"s2_h1": S2_H1, "s2_h8": S2_H8}


def s2_recipe(setting: Setting, name: str) -> Recipe:
    """The S2 recipe ``name`` at ``setting`` (:func:`sims.czz24.train.recipe_for`)."""
    return recipe_for(setting, S2_RECIPES[name])


def _s2_model(setting: Setting, name: str, seed: int) -> tuple[MaskedLinearTF, TrainResult]:
    """The S2 model ``name`` trained at ``setting`` with ``seed`` and its training record."""
    recipe = s2_recipe(setting, name)
    res = trained(setting, recipe, seed=seed)
    return load_model(setting, recipe, res), res


def s2_hypotheses(setting: Setting) -> None:
    """S2's references are isotropic (the LMMSE ridge λ* = σ²d/(nα²) and the support-enumeration
    Bayes posterior at Σ = I, [czz24] App. B): a ``ValueError`` names the assumption another Σ
    breaks."""
    if (
        setting.zeta != 0.0
        or setting.Sigma_diag is None
        or any(v != 1.0 for v in setting.Sigma_diag)
    ):
        raise ValueError(
            f"Sigma_diag={setting.Sigma_diag!r}, zeta={setting.zeta!r}: S2's ridge* and Bayes "
            "references assume Σ = I ([czz24] App. B), so Sigma_diag must be all ones (or "
            "empty) and ζ = 0"
        )


def s2_absolute_row(
    label: str,
    risk: float,
    se: float,
    *,
    signal: float,
    ridge: float,
    bayes: float,
    details: dict[str, Any],
) -> Evidence:
    """S2's sanity bound ``risk < 0.2·E‖w‖²`` (ours, on [czz24] App. B's data model; calibrated
    at n = 32, σ = 0.5, where ridge* ≈ 0.08 and 3 × ridge* = 0.25 < 0.4), ``skipped`` with the
    numbers where a sane model, one within ``SANE_RIDGE_FACTOR`` × ridge*, may exceed it (e.g.
    n = 12: ridge* 0.32, a trained model 0.42 = 1.3 × ridge*): the bound does not resolve training
    from failure there, and the model is judged by the Bayes floor instead.

    >>> s2_absolute_row("m", 0.095, 0.003, signal=2.0, ridge=0.083, bayes=0.02, details={}).status
    'pass'
    >>> s2_absolute_row("m", 0.42, 0.02, signal=2.0, ridge=0.32, bayes=0.08, details={}).status
    'skipped'
    """
    row = ordering(
        f"{label}: risk < 0.2·E‖w‖² = {0.2 * signal:.3g}",
        risk,
        0.2 * signal,
        margin=3 * se,
        details=details,
    )
    if SANE_RIDGE_FACTOR * ridge < 0.2 * signal:
        return row
    return skipped(
        row,
        why=f"0.2·E‖w‖² = {0.2 * signal:.3g} is below a sane model's {SANE_RIDGE_FACTOR:g} × "
        f"ridge* = {SANE_RIDGE_FACTOR * ridge:.3g} at this setting (ridge* {ridge:.3g}, Bayes "
        f"{bayes:.3g}): the bound is S2's, where 3 × ridge* = 0.25 < 0.4; here a trained model "
        "is judged by the Bayes floor",
        ridge=ridge,
        bound=0.2 * signal,
    )


def s2_ratio_row(
    label: str,
    setting: Setting,
    risk: float,
    se: float,
    ridge: float,
    ridge_se: float,
    *,
    details: dict[str, Any],
) -> Evidence:
    """S2's sanity ratio ``risk < 3 × ridge*`` (the factor calibrated at S2 itself: d = 8, s = 2,
    n = 32, σ² = 0.25, where a trained (8, 1, 1) model reaches about 1.2 × ridge*), judged at
    that data model only and ``skipped`` with the numbers elsewhere: away from it the factor has
    no calibration (n = 16, σ² = 0.01: ridge* 0.0115 while a CPU-scale model stays at 0.073 =
    6.4 × ridge*, its training, not a wrong formula), and the row could not tell a bug from a
    short run.  The Bayes-floor row judges the trained model at every setting.

    >>> s2 = SETTINGS["s2"]
    >>> s2_ratio_row("m", s2, 0.095, 0.003, 0.083, 0.001, details={}).status
    'pass'
    >>> s2_ratio_row("m", s2, 0.4, 0.003, 0.083, 0.001, details={}).status
    'fail'
    >>> import dataclasses
    >>> other = dataclasses.replace(s2, n=16, sigma2=0.01)
    >>> s2_ratio_row("m", other, 0.073, 0.003, 0.0115, 0.001, details={}).status
    'skipped'
    """
    row = ordering(
        f"{label}: risk < 3 × ridge*",
        risk,
        SANE_RIDGE_FACTOR * ridge,
        margin=3 * (se + 3 * ridge_se),
        details=details,
    )
    ref = SETTINGS["s2"]
    at_s2 = (setting.d, setting.s, setting.n, setting.sigma2) == (ref.d, ref.s, ref.n, ref.sigma2)
    if at_s2:
        return row
    return skipped(
        row,
        why=f"the sanity factor {SANE_RIDGE_FACTOR:g} × ridge* is calibrated at S2 (d = {ref.d}, "
        f"s = {ref.s}, n = {ref.n}, σ² = {ref.sigma2:g}) only; here (d = {setting.d}, "
        f"s = {setting.s}, n = {setting.n}, σ² = {setting.sigma2:g}) the trained risk "
        f"{risk:.3g} is {risk / ridge:.2g} × ridge* = {ridge:.3g}, with no calibrated factor to "
        "judge it by (the Bayes-floor row judges it)",
        ridge=ridge,
        ratio=risk / ridge,
    )


def check_s2_train(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
) -> list[Evidence]:
    """S2 (a negative finding): trained masked linear TFs with heads (1,1,1) and
    (8,1,1) trained at ``setting`` (``trained(setting, S2_H1 | S2_H8)``; the preset: d = 8, s = 2,
    n = 32, σ = 0.5, Gaussian prior).  Sanity only: finite, risk < 0.2·E‖w‖² (= 0.4 at the
    preset), within 3× ridge*, and above the Bayes floor (paired), the risk exact per context
    through the effective predictor, which reproduces the forward pass (FLOAT, per context on the
    same contexts, each trained seed).  The h = 8 vs h = 1 difference is reported (INFO), not
    asserted: our reference runs found no benefit at CPU scale.  The quick tier trains only the (8,
    1, 1) model, seed ``seed`` (the report's time budget); --full both models on three seeds.

    The sanity orderings are on the per-context risk averaged over the tier's seeds (one seed in
    the quick tier: that seed's risk).  A single trained model's risk can be heavy-tailed: the
    (1, 1, 1) model of seed 1 has a test-set risk 0.196 ± 0.079 on seed 0's 2000 contexts (one
    context at 157, median 0.093) and 0.21 ± 0.08 on 20 000 (largest 1668), so its se does not
    fall like 1/√n_test and no test set resolves "one seed's risk < 3 × ridge*" at 3 se; the
    mean over three seeds does (0.141 ± 0.027; on eight other test streams the fold's se is
    0.002–0.012).  For the same reason it is checked against the forward pass on the same
    contexts (exact up to round-off) rather than against the training run's own test risk on
    other contexts (kept in the row's details)."""
    s2_hypotheses(setting)
    st = data_of(setting, s2_recipe(setting, "s2_h1"))  # tokens where n < d + 1
    trials = 300 if quick else 2000
    seeds = tier_seeds(seed, quick=quick)
    names = ("s2_h8",) if quick else ("s2_h1", "s2_h8")
    p = sample_sparse_prompts(st, trials, rng=check_rng(seed, _EXACT_RISK_STREAM))
    X, y, w = p.X, p.y, p.w
    eb = np.sum(
        (
            np.stack(
                [
                    bayes_posterior_mean.raw(X[i], y[i], st.s, st.sigma2, st.prior)
                    for i in range(trials)
                ]
            )
            - w
        )
        ** 2,
        axis=1,
    )
    lam = st.sigma2 * st.d / (st.n * st.signal)  # LMMSE λ* = σ²d/(nα²), normalised
    rr = estimate_from_samples(np.sum((ridge_fit(X, y, lam) - w) ** 2, axis=1))
    out = []
    risks: dict[str, list[float]] = {}
    runs: dict[str, dict[int, TrainResult]] = {}
    for name in names:
        errs, forward = [], []
        for sd in seeds:
            model, res = _s2_model(setting, name, sd)
            runs.setdefault(name, {})[sd] = res
            W = to_weights(model)
            wh = np.stack([effective_predictor.raw(W, X[i], y[i]) for i in range(trials)])
            err = np.sum((wh - w) ** 2, axis=1)
            fwd = np.sum((coefficients(model, X, y) - w) ** 2, axis=1)
            errs.append(err)
            risks.setdefault(name, []).append(float(err.mean()))
            forward.append(
                float_agreement(
                    f"{name} (seed {sd}): exact risk (ŵ_eff) = forward-pass risk, same contexts",
                    err,
                    fwd,
                    rtol=R12_RTOL,
                    atol=R12_ATOL,
                    details={
                        "risk": float(err.mean()),
                        "forward_risk": float(fwd.mean()),
                        "training_test_excess": res.extra["test_excess"],
                    },
                )
            )
        fold = np.mean(errs, axis=0)
        est, diff = estimate_from_samples(fold), estimate_from_samples(fold - eb)
        label = (
            f"{name} (seed {seeds[0]})"
            if len(seeds) == 1
            else f"{name} (seeds {seeds[0]}–{seeds[-1]}, mean over seeds)"
        )
        info = {
            "risk": est.mean,
            "se": est.se,
            "per_seed": risks[name],
            "ridge*": rr.mean,
            "bayes": float(eb.mean()),
            "calibration_runs": "(1,1,1) → 0.091/0.093; (8,1,1) → 0.095/0.099; ridge* ≈ 0.08 "
            "(two seeds, 2000 steps; no multi-head benefit at CPU scale)",
            "training_prompts": prompts_rule(s2_recipe(setting, name)),
            "stop": {sd: stop_record(r) for sd, r in runs[name].items()},
        }
        judged = runs[name].values()
        absolute = s2_absolute_row(
            label,
            est.mean,
            est.se,
            signal=st.signal,
            ridge=rr.mean,
            bayes=float(eb.mean()),
            details=info,
        )
        out.append(if_converged(absolute, *judged))
        ratio = s2_ratio_row(label, setting, est.mean, est.se, rr.mean, rr.se, details=info)
        out.append(if_converged(ratio, *judged))
        out.append(
            if_converged(
                ordering(
                    f"{label}: trained risk above the Bayes floor (paired)",
                    0.0,
                    diff.mean,
                    margin=3 * diff.se,
                    details=info,
                ),
                *judged,
            )
        )
        out.extend(forward)
    h1 = float(np.mean(risks["s2_h1"])) if "s2_h1" in risks else None
    h8 = float(np.mean(risks["s2_h8"]))
    steps = {nm: max(r.config.steps for r in runs[nm].values()) for nm in risks}
    row = Evidence(
        name="S2: more heads lower the risk (h = 8 minus h = 1, mean over seeds)",
        kind="ORDER",
        predicted="< 0 (paper)",
        observed=None if h1 is None else h8 - h1,
        tolerance=0.0,
        error=0.0,
        passed=True,
        details={"h1": risks.get("s2_h1"), "h8": risks["s2_h8"]},
    )
    out.append(
        untested(
            row,
            claim=CLAIMS["more-heads"],
            reached=(
                f"masked linear-attention TFs, d = {st.d}, s = {st.s}, n = {st.n}, heads "
                f"(h, 1, 1) with h ∈ {sorted(S2_RECIPES[nm].heads[0] for nm in risks)}, "
                f"{max(steps.values())} CPU Adam steps, {len(risks[next(iter(risks))])} "
                f"seed(s) (h = 8 minus h = 1: "
                f"{'not trained in the quick tier' if h1 is None else f'{h8 - h1:+.4f}'})"
            ),
            needed=PAPER_TRAINING_SCALE,
        )
    )
    return out


def compute_1b(
    *,
    quick: bool = True,
    seed: int = 0,
    ns: tuple[int, ...] | None = None,
    ns_tf: tuple[int, ...] | None = None,
    tf_trials: int = 300,
    tf_rng: Callable[[int], np.random.Generator] | None = None,
    paired_bayes: bool = False,
    fault_leak_task: float | None = None,
) -> dict[str, Any]:
    """Fig. 1b data (σ = 0.1, d = 16, s = 4, experimental prior): the exact OLS curve (n ∉
    {15, 16, 17}), MC ridge* / lasso* / Bayes (mean, se) over n, and the small trained masked
    linear TFs (trained at n = 12, evaluated at each n with attention scale 1/n; quick: heads
    (4, 4, 4); --full: L = 4, h ∈ {1, 4, 8}).

    Knobs (defaults: the figure's): the baselines' ``ns`` (quick 4, 8, 12, 20; ``()`` leaves them
    and the exact OLS curve out), the trained models' ``ns_tf`` (quick 6, …, 24; full 4, …, 24),
    their contexts per n ``tf_trials`` and stream ``tf_rng(n)`` (``None``:
    ``default_rng(seed + 7000 + n)``), ``paired_bayes`` (also the Bayes error on the same contexts)
    and ``fault_leak_task = λ`` (``ŵ ← (1 − λ)ŵ + λw*``, a negative control).  Each trained
    curve also keeps the per-context ``errors`` (and ``bayes_errors``) by n."""
    d, s, s2 = 16, 4, 0.01
    ns_exact = [m for m in range(2, 26) if abs(m - d) > 1]
    if ns is None:
        ns = (4, 8, 12, 20) if quick else (2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24)
    trials = 40 if quick else 300
    curves: dict[str, list[tuple[float, float]]] = {"ridge*": [], "lasso*": [], "Bayes": []}
    for m in ns:
        st = SparseRegressionICL.isotropic(d=d, s=s, n=m, sigma2=s2, prior="gauss")
        p = sample_sparse_prompts(st, trials, rng=np.random.default_rng(seed + m))

        def err(w: np.ndarray, p: Any = p) -> np.ndarray:
            return np.sum((w - p.w) ** 2, axis=1)

        r = min(
            (estimate_from_samples(err(ridge_fit(p.X, p.y, lam / m))) for lam in ALPHA_GRID),
            key=lambda e: e.mean,
        )
        la = min(
            (estimate_from_samples(err(lasso_fit(p.X, p.y, a))) for a in ALPHA_GRID),
            key=lambda e: e.mean,
        )
        b = estimate_from_samples(err(bayes_fit(p.X, p.y, s, s2, "gauss")))
        for k, e in (("ridge*", r), ("lasso*", la), ("Bayes", b)):
            curves[k].append((e.mean, e.se))
    if ns_tf is None:
        ns_tf = (6, 12, 18, 24) if quick else tuple(range(4, 26, 2))
    trained_curves = []
    for preset, recipe in FIG1B_RECIPES["quick" if quick else "full"].items():
        model = load_model(FIG1B_TRAIN, recipe, trained(FIG1B_TRAIN, recipe, seed=seed))
        est, errors, bayes_errors = [], [], []
        for m in ns_tf:
            st = SparseRegressionICL.isotropic(d=d, s=s, n=m, sigma2=s2, prior="gauss")
            g = np.random.default_rng(seed + 7000 + m) if tf_rng is None else tf_rng(m)
            p = sample_sparse_prompts(st, tf_trials, rng=g)
            w_tf = coefficients(model, p.X, p.y)
            if fault_leak_task is not None:
                w_tf = (1.0 - fault_leak_task) * w_tf + fault_leak_task * p.w
            errors.append(np.sum((w_tf - p.w) ** 2, axis=1))
            est.append(estimate_from_samples(errors[-1]))
            if paired_bayes:
                bayes_errors.append(
                    np.sum((bayes_fit(p.X, p.y, s, s2, "gauss") - p.w) ** 2, axis=1)
                )
        trained_curves.append(
            {
                "preset": preset,
                "heads": recipe.heads,
                "ns": ns_tf,
                "mean": [e.mean for e in est],
                "se": [e.se for e in est],
                "errors": errors,
                "bayes_errors": bayes_errors,
            }
        )
    if not ns:  # the baselines left out: the exact OLS curve too (the check needs none)
        ns_exact = []
    return {
        "ns_exact": ns_exact,
        "ols": [float(ols_excess_risk(d, m, s2, float(s))) for m in ns_exact],
        "ns": ns,
        "curves": curves,
        "trained": trained_curves,
    }
