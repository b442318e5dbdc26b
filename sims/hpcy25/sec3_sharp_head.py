"""[hpcy25] §3 Observation 2 at H ≥ 3 [*derived*]: the sharp head by training -- the training route
of ``hpcy25:sharp-head`` (the landscape route, no training, is
``numerics.hpcy25.sec3_sharp_head``) and the outcomes of a drawn H ≥ 3 Obs-1 run.

A *sharp head* is a head that contributes to the prediction (:mod:`.heads`), sign-matched, with
``|ω_h| ≥ 1/√d`` -- outside Prop. 4.1's small-ω regime, where L̃ and its lower bound (4.5), whose
equality case is homogeneity (4.4), describe the risk -- far from the ± pair's |ω| ≈ 0.1-0.2.
It is *stable* when, at the relative change of its |ω| between the last two windows of a run's
trace, it would still be sharp after the paper's 500 001 steps (:func:`projected_omega`: a head
that grows or holds is stable; one that decays back to Prop. 4.1's regime within the paper's
training is not) [*derived*].

:func:`check_sharp_head_train_on_pattern` and ``..._h4``, :func:`check_sharp_head_train` (tier
``full``, each fixed at its preset): the paper's recipe (Adam 1e-3, batch 256, the authors'
code's values) continued from the drawn-setting run (seed 0) -- ``trained(setting,
continuation_recipe(...))``: 200 000 planned steps, then on in 20 000-step chunks until what the
rows judge has settled (:func:`continuation_stop`), within the paper's 500 001 steps -- at the
paper's setting (5, 40, 0.1) with H = 3 and 4 -- the Obs-1/2 rows pass, no sharp head -- and at
(3, 25, 0.05) with H = 3, where a stable sharp head forms and removing it raises the risk (paired
ablation), as the landscape route finds at that setting.  A run that reaches the bound
unconverged is ``skipped`` with its numbers; one that runs out of the seconds budget first is
``untested`` with the steps it reached (the cached chunks resume).

:func:`drawn_outcome`: a drawn H ≥ 3 Obs-1 run off the pattern is either a stable sharp head
(its own outcome: the Obs-2 spread row ``unconfirmed`` against our extrapolation of Obs. 2 to
settings the paper did not train, the rows that presuppose homogeneous heads ``skipped``, and
the landscape route's gain at the setting, a ``fail`` where it finds none), settled off the
pattern with no stable sharp head (``untested``: the steps reached, the paper's 500 001 needed),
or at its step bound unconverged (``skipped`` with its numbers).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from numerics.hpcy25.bands import band, mc_sign
from numerics.hpcy25.landscape import sharp_head_study
from numerics.sampling import check_rng
from numerics.testing import skipped, untested, with_verdict
from numerics.train_evidence import not_converged
from sims.hpcy25 import evidence as ev_
from sims.hpcy25.sec3_convergence import PATTERN_TOLERANCES
from sims.hpcy25.sec3_heads import judge_heads
from sims.hpcy25.stop import PAPER_STEPS, head_change, projected_omega
from sims.hpcy25.train import (
    PAPER_BATCH,
    PAPER_LR,
    STOP_FRACTION,
    ContinuationRecipe,
    ContinuationStop,
    Continued,
    HpcyExperiment,
    Recipe,
    model_risk,
    trained,
)
from theory.common.protocols import Evidence
from theory.hpcy25.claims import CLAIMS
from theory.hpcy25.settings import Setting

__all__ = [
    "SHARP_PATH",
    "CONTINUATION_STEPS",
    "CONTINUATION_BOUND",
    "continuation_stop",
    "continuation_recipe",
    "RUN_SECONDS",
    "PAPER_STEPS",
    "OBS2_EXTRAPOLATED",
    "sharp_omega",
    "sharp_head",
    "head_change",
    "projected_omega",
    "landscape_gain_row",
    "continued_rows",
    "drawn_outcome",
    "check_sharp_head_train",
    "check_sharp_head_train_on_pattern",
    "check_sharp_head_train_on_pattern_h4",
]

#: The label of this check's random streams (its registered path).
SHARP_PATH = "sims.checks.softmax_multihead:check_sharp_head_train"
#: The planned steps of the continuation, after which its stop is asked at each chunk's end
#: (200 000 settled the heads of every measured run: the sharp head at (3, 25, 0.05, 3) is stable
#: from 28 k steps on; docs/papers/hpcy25.md, "Paper-scale continuation").
CONTINUATION_STEPS = 200_000
#: The continuation's step bound: the paper's 500 001 steps ([hpcy25] App. A.1, the authors'
#: code) to a whole 20 000-step chunk.
CONTINUATION_BOUND = 500_000
#: Seconds of training a run may spend on chunks not cached in one call (about 300 s per 200 000
#: steps on one idle core here, 2700-3100 s at load 5-9): past it the run is ``untested`` with
#: the steps it reached.
RUN_SECONDS = 900.0
#: The trace window of the stability test and of the stop in a continuation (steps).
CONTINUATION_WINDOW = 40_000
#: Prompts of the landscape route when it corroborates a trained sharp head (its quick tier).
LANDSCAPE_PROMPTS = (12_000, 100_000)

#: Observation 2's homogeneous KQ read at a setting the paper did not train (the extrapolation is
#: ours): the claim a drawn run's sharp head is ``unconfirmed`` against.
OBS2_EXTRAPOLATED = CLAIMS["obs2-homogeneous-at-other-settings"]


def sharp_omega(d: int) -> float:
    """The |ω| from which a head is sharp: ``1/√d``, the edge of Prop. 4.1's small-ω regime."""
    return 1.0 / math.sqrt(d)


def continuation_stop(d: int) -> ContinuationStop:
    """The stop of a continuation at dimension ``d``: each statistic the rows judge moves by at
    most ``STOP_FRACTION`` (a quarter) of its row's tolerance between the last two
    :data:`CONTINUATION_WINDOW`-step windows -- the active heads' |ω| (relative: the |ω| spread
    row's 15 %), the heads' μ (in units of the largest |μ|: the 5 % that makes a head active),
    the pattern statistics (``PATTERN_TOLERANCES``: diag_ratio 0.03, ov_ratio 0.02, spread
    0.15) and the top head's |ω| carried to the paper's steps (the sharp-head rows' 1/√d) --
    after :data:`CONTINUATION_STEPS`, within :data:`CONTINUATION_BOUND`."""
    tol = {"omega": PATTERN_TOLERANCES["spread"], "mu": 0.05, **PATTERN_TOLERANCES}
    return ContinuationStop(
        tolerances=(*tol.items(), ("projected", sharp_omega(d))),
        fraction=STOP_FRACTION,
        window=CONTINUATION_WINDOW,
        planned=CONTINUATION_STEPS,
        max_steps=CONTINUATION_BOUND,
    )


def continuation_recipe(base: Recipe, d: int) -> ContinuationRecipe:
    """The drawn-setting run of recipe ``base`` continued at the paper's recipe under
    :func:`continuation_stop` and the :data:`RUN_SECONDS` budget."""
    return ContinuationRecipe(base=base, stop=continuation_stop(d), seconds=RUN_SECONDS)


def sharp_head(m: dict[str, Any], d: int) -> int | None:
    """The index of the contributing, sign-matched head of largest |ω| if ``|ω| ≥ 1/√d``."""
    act = np.flatnonzero(np.asarray(m["active"]))
    if act.size == 0:
        return None
    h = int(act[np.argmax(np.abs(m["omega"][act]))])
    ok = abs(float(m["omega"][h])) >= sharp_omega(d) and float(m["omega"][h] * m["mu"][h]) > 0
    return h if ok else None


def landscape_gain_row(d: int, L: int, sigma2: float, *, seed: int, tag: str) -> Evidence:
    """The landscape route (no training) at ``(d, L, σ²)``: R(best pair + optimised third head) −
    R(best pair), negative beyond z = 5 where a trained sharp head is corroborated; a sharp head
    where it finds no gain is a ``fail`` (our routes disagree)."""
    n_search, n_eval = LANDSCAPE_PROMPTS
    st = sharp_head_study(
        d,
        L,
        sigma2,
        rng=check_rng(seed, SHARP_PATH, "landscape", d, L, sigma2),
        n_search=n_search,
        n_eval=n_eval,
    )
    return mc_sign(
        f"{tag}: landscape route at ({d}, {L}, {sigma2:g}): risk gain of a sharp head (no "
        "training)",
        *st.gain,
        negative=True,
        scale=st.pair_risk[0],
        details=st.to_json(),
        requested=st.n_requested,
        seconds=st.eval_seconds,
    )


_INFO_KEYS = ("omega", "mu", "share", "diag_ratio", "ov_ratio")


def _heads_info(m: dict[str, Any]) -> dict[str, Any]:
    out = {k: np.asarray(m[k], dtype=float).round(5).tolist() for k in _INFO_KEYS}
    return {**out, "active": np.asarray(m["active"]).tolist()}


def _ablate(exp: HpcyExperiment, params: dict[str, np.ndarray], h: int) -> dict[str, np.ndarray]:
    """FAULT: head ``h``'s output map set to 0 (the head removed from the prediction)."""
    D = exp.d + exp.n_out
    W_O = params["W_O"].reshape(exp.n_out, exp.H, D).copy()
    W_O[:, h, :] = 0.0
    return {**params, "W_O": W_O.reshape(params["W_O"].shape)}


def continued_rows(
    exp: HpcyExperiment,
    params: dict[str, np.ndarray],
    trace: list[dict[str, float]],
    *,
    steps: int,
    rtol: float,
    seed: int,
    sharp: bool,
    fault_ablate_sharp_head: bool = False,
) -> list[Evidence]:
    """The rows of one continued run (``steps`` at the paper's recipe): ``sharp=False`` -- Obs. 1's
    pattern rows, Obs. 2's spread row and no sharp head; ``sharp=True`` -- a sharp head, stable
    over the last two windows of :data:`CONTINUATION_WINDOW` steps, whose removal raises the risk
    (paired, z = 5), Obs. 1's pattern on every contributing head, and the landscape route's gain
    at the setting."""
    d, L, s2, H = exp.d, exp.L, float(exp.sigma2), exp.H
    tag = f"paper's recipe, {steps} steps, H={H} at ({d}, {L}, {s2:g})"
    m = judge_heads(
        ev_.pattern_metrics(exp, params), exp, params, rtol=rtol, seed=seed, path=SHARP_PATH
    )
    if fault_ablate_sharp_head and (h0 := sharp_head(m, d)) is not None:
        params = _ablate(exp, params, h0)  # FAULT: the sharp head removed before judging
        m = judge_heads(
            ev_.pattern_metrics(exp, params), exp, params, rtol=rtol, seed=seed, path=SHARP_PATH
        )
    info = _heads_info(m)
    act = np.flatnonzero(np.asarray(m["active"]))
    top = int(act[np.argmax(np.abs(m["omega"][act]))])
    w_top = abs(float(m["omega"][top]))
    if not sharp:
        return [
            *ev_.pattern_rows(tag, m),
            ev_.spread_row(tag, m),
            band(
                f"{tag}: no sharp head: max |omega_h| on contributing heads < 1/sqrt(d)",
                w_top,
                None,
                sharp_omega(d),
                details=info,
            ),
        ]
    h = sharp_head(m, d)
    later, rel = projected_omega(trace, top, CONTINUATION_WINDOW, steps)
    risk = model_risk(exp, params, seed=seed)
    return [
        band(
            f"{tag}: a sharp head: a contributing, sign-matched head with |omega_h| >= 1/sqrt(d)",
            w_top if h is not None else 0.0,
            sharp_omega(d),
            None,
            details={"head": top, **info},
        ),
        band(
            f"{tag}: the sharp head is stable: at its change over the last two "
            f"{CONTINUATION_WINDOW}-step windows |omega_h| is still >= 1/sqrt(d) at the paper's "
            f"{PAPER_STEPS} steps",
            later if math.isfinite(later) else 0.0,
            sharp_omega(d),
            None,
            details={"head": top, "change_per_window": rel, "window": CONTINUATION_WINDOW},
        ),
        mc_sign(
            f"{tag}: risk gain of the trained sharp head: R(model) - R(model without it)",
            -float(m["ablation_dR"][top]),
            float(m["ablation_dR_se"][top]),
            20_000,
            negative=True,
            scale=risk.mean,
            details={"ablation_dR": float(m["ablation_dR"][top]), "risk": risk.mean, "head": top},
        ),
        *ev_.pattern_rows(tag, m),
        landscape_gain_row(d, L, s2, seed=seed, tag=tag),
    ]


#: What each statistic of :func:`continuation_stop` is, for a row's reason.
_STATISTICS = {
    "omega": "the largest relative change of an active head's |omega|",
    "mu": "the largest change of a head's mu (units of the largest |mu|)",
    "diag": "the change of the least active diag_ratio",
    "ov": "the change of the least active ov_ratio",
    "spread": "the change of the active |omega| spread",
    "projected": "the change of the top head's |omega| carried to the paper's steps",
}


def _recipe_text(recipe: ContinuationRecipe) -> str:
    return (
        f"the paper's recipe (Adam {PAPER_LR:g}, batch {PAPER_BATCH}), stop asked from "
        f"{recipe.stop.planned} steps on, bound {recipe.stop.max_steps}"
    )


def _not_reached(
    rows: list[Evidence], got: Continued, recipe: ContinuationRecipe
) -> list[Evidence]:
    """A run that ran out of the seconds budget before its stop or its bound: every row
    ``untested`` with the steps it reached (the cached chunks resume)."""
    reached = (
        f"{got.steps} steps at {_recipe_text(recipe)}, within the {recipe.seconds:.0f}-s budget "
        f"({got.seconds:.0f} s trained)"
    )
    needed = (
        f"at least {recipe.stop.planned} steps, on until the stop holds, at most "
        f"{recipe.stop.max_steps} (about 300 s per 200 000 steps on one idle core; cached chunks "
        "resume); the paper trains 500 001 steps (authors' code)"
    )
    return [untested(e, reached=reached, needed=needed) for e in rows]


def _unconverged(
    rows: list[Evidence], got: Continued, recipe: ContinuationRecipe
) -> list[Evidence]:
    """A run that reached its step bound before its stop held: every row ``skipped`` with the
    statistic furthest from its criterion (:func:`numerics.train_evidence.not_converged`)."""
    key, value, criterion = recipe.stop.worst(got.trace, got.steps)
    statistic = f"{_STATISTICS[key]} between the last two {recipe.stop.window}-step windows"
    needs = (
        f"the bound ({recipe.stop.max_steps} steps at {_recipe_text(recipe)}, the paper's "
        "500 001 to a chunk) was reached; longer training than the paper's would settle it"
    )
    return [
        not_converged(
            e,
            statistic=statistic,
            value=value,
            criterion=criterion,
            steps=got.steps,
            needs=needs,
            drifts=got.drifts,
            criteria=got.criteria,
        )
        for e in rows
    ]


def _train_rows(
    run: tuple[int, int, float, int], *, sharp: bool, seed: int, fault_ablate_sharp_head: bool
) -> list[Evidence]:
    """One setting ``(d, L, σ², H)`` trained as ``check_obs1_train`` trains a drawn setting (seed
    ``seed``), continued at the paper's recipe (``trained`` with :func:`continuation_recipe`: at
    least :data:`CONTINUATION_STEPS` steps, on until :func:`continuation_stop` holds, within
    :data:`CONTINUATION_BOUND`, at most :data:`RUN_SECONDS` of training in this call) and judged
    by :func:`continued_rows` (``sharp``: a stable sharp head expected; else Obs. 1/2's
    pattern)."""
    from sims.hpcy25.sec3_obs1_setting import setting_plan

    d, L, s2, H = run
    plan = setting_plan(d=d, L=L, sigma2=s2, H=H)
    recipe = continuation_recipe(plan.recipe, d)
    got = trained(plan.exp, recipe, seed=seed)
    rows = continued_rows(
        plan.exp,
        got.params,
        got.trace,
        steps=got.steps,
        rtol=plan.rtol,
        seed=seed,
        sharp=sharp,
        fault_ablate_sharp_head=fault_ablate_sharp_head,
    )
    if not got.complete:
        return _not_reached(rows, got, recipe)
    return rows if got.converged else _unconverged(rows, got, recipe)


def _run_of(setting: Setting) -> tuple[int, int, float, int]:
    return (setting.d, setting.L, setting.sigma2, setting.H)


def check_sharp_head_train(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_ablate_sharp_head: bool | None = None,
) -> list[Evidence]:
    """The training route of ``hpcy25:sharp-head`` where a stable sharp head forms (declared in
    the ``full`` tier, fixed at ``PRESETS["low_noise"]`` = (3, 25, 0.05, H = 3): the setting
    where training at the paper's recipe forms it, docs/papers/hpcy25.md "The sharp head";
    ``quick`` does not change it): :func:`continued_rows` with a sharp head, stable, whose removal
    raises the risk, and the landscape route's gain.  ``fault_ablate_sharp_head`` removes the
    sharp head before judging (negative control)."""
    return _train_rows(
        _run_of(setting),
        sharp=True,
        seed=seed,
        fault_ablate_sharp_head=bool(fault_ablate_sharp_head),
    )


def check_sharp_head_train_on_pattern(
    setting: Setting, *, quick: bool = True, seed: int = 0
) -> list[Evidence]:
    """The training route of ``hpcy25:sharp-head`` at the paper's setting (5, 40, 0.1) with H = 3
    (declared in the ``full`` tier, fixed at ``PRESETS["h3"]``): continued at the paper's recipe,
    the run stays on Obs. 1/2's pattern with no sharp head (:func:`continued_rows`)."""
    return _train_rows(_run_of(setting), sharp=False, seed=seed, fault_ablate_sharp_head=False)


def check_sharp_head_train_on_pattern_h4(
    setting: Setting, *, quick: bool = True, seed: int = 0
) -> list[Evidence]:
    """:func:`check_sharp_head_train_on_pattern` with H = 4 (fixed at ``PRESETS["h4"]``)."""
    return _train_rows(_run_of(setting), sharp=False, seed=seed, fault_ablate_sharp_head=False)


#: The trace window of the stability test of a drawn run's sharp head (steps; the run's trace
#: records ω_h every 100 steps).
DRAWN_WINDOW = 1000


def drawn_outcome(
    rows: list[Evidence],
    m: dict[str, Any],
    res: Any,
    exp: HpcyExperiment,
    *,
    seed: int,
    steps: int,
    step_bound: int,
) -> list[Evidence]:
    """The rows of a drawn H ≥ 3 Obs-1 run (``steps`` taken of ``step_bound``), by outcome
    (module docstring): unchanged where no row failed and none was left unconverged; a stable
    sharp head on Obs. 1's pattern in a run that met its stop criterion -- the spread row
    ``unconfirmed`` against :data:`OBS2_EXTRAPOLATED`, the other failed rows ``skipped`` (they
    presuppose homogeneous heads), plus :func:`landscape_gain_row`; a run at its step bound
    unconverged -- its rows as they are (``skipped`` with the numbers by
    :func:`numerics.train_evidence.not_converged`, never a ``fail``); otherwise (the run met its
    stop off Obs. 1/2's pattern, no stable sharp head) -- the failed rows ``untested`` (the steps
    reached, the paper's 500 001 needed)."""
    bad = [e for e in rows if not e.passed or e.details.get("not_converged")]
    if exp.H < 3 or not bad:
        return rows
    d = exp.d
    h = sharp_head(m, d)
    trace = res.extra.get("trace") or []
    later, rel = projected_omega(trace, h, DRAWN_WINDOW, steps) if h is not None else (0.0, 0.0)
    stable = math.isfinite(later) and later >= sharp_omega(d)
    on_pattern = all(e.passed for e in ev_.pattern_rows("", m))  # Obs. 1 on every head
    converged = not any(e.details.get("not_converged") for e in rows)
    if h is not None and stable and on_pattern and converged:
        head = {
            "outcome": "sharp head",
            "head": h,
            "omega_h": float(m["omega"][h]),
            "mu_h": float(m["mu"][h]),
            "share": float(m["share"][h]),
            "change_per_window": rel,
            "omega_at_paper_steps": later,
        }
        why = (
            f"a stable sharp head (head {h}: omega {float(m['omega'][h]):.3g} >= 1/sqrt(d) = "
            f"{sharp_omega(d):.3g}, mu {float(m['mu'][h]):.3g}, {float(m['share'][h]):.1%} of the "
            f"prediction; its |omega| changed {rel:+.2%} over the last {DRAWN_WINDOW} steps, so "
            f"it stays sharp through the paper's {PAPER_STEPS} steps)"
        )
        out = []
        for e in rows:
            if e.passed and not e.details.get("not_converged"):
                out.append(e)
            elif "spread" in e.name:
                out.append(
                    with_verdict(
                        e,
                        "unconfirmed",
                        why=f"{why}: Obs. 2's homogeneous KQ read at a setting the paper did not "
                        "train (the extrapolation is ours)",
                        claim=OBS2_EXTRAPOLATED,
                        **head,
                    )
                )
            else:
                out.append(skipped(e, why=f"presupposes Obs. 2's homogeneous heads; {why}", **head))
        tag = f"H={exp.H}, d={d}, L={exp.L}, sigma2={float(exp.sigma2):g}"
        return [*out, landscape_gain_row(d, exp.L, float(exp.sigma2), seed=seed, tag=tag)]
    if not converged:  # at its step bound unconverged: skipped with its numbers
        return rows
    reached = (
        f"{steps} steps of the derived recipe (Adam, the pattern stop, bound {step_bound}): off "
        "Obs. 1/2's pattern and no stable sharp head"
        + (
            f" (head {h} is sharp but its |omega| changes {rel:+.2%} per {DRAWN_WINDOW} steps: "
            f"back below 1/sqrt(d) before the paper's {PAPER_STEPS} steps)"
            if h is not None
            else ""
        )
    )
    needed = (
        "the paper's 500 001 steps (authors' code); continued at that recipe, "
        "off-pattern draws formed the pattern or a stable sharp head by 23 000-208 000 steps "
        "(docs/papers/hpcy25.md)"
    )
    return [
        untested(e, reached=reached, needed=needed, why=f"off the pattern at the budget: {reached}")
        if not e.passed
        else e
        for e in rows
    ]
