"""[collins24] Theorem 3.5 and Fig. 5 on trained units: the exact transfer curve across Lipschitz
constants at the trained scale, Fig. 5's optimum at n = 200 and its pretrain/test matrix across the
affine, 2-ReLU and cosine classes (a mismatched-L unit loses).

Trained runs come from :func:`sims.collins24.train.trained` (config-keyed cache); the
trained model never sees a prediction.  Fault switches are keyword-only ``fault_*`` parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from numerics.collins24.api import spline_argmin
from numerics.collins24.predictors import powered_samples, softmax_predict
from numerics.collins24.quadrature import optimal_scale_affine, window_terms
from numerics.collins24.sampling import sample_prompts
from numerics.collins24.tolerances import EXACT_GAP, STRICT_GAP
from numerics.montecarlo import estimate_from_samples
from numerics.sampling import check_rng
from numerics.testing import (
    MC_POWER,
    derived_agreement,
    mc_agreement,
    ordering,
)
from sims.collins24.evidence import settled
from sims.collins24.train import ADAM, PRESETS, Recipe, isotropic, trained
from theory.collins24 import (
    signal_functional,
    transfer_risk,
)
from theory.collins24.settings import Setting, SoftmaxWindowSetting
from theory.common.protocols import Evidence

__all__ = ["check_thm3_5_train", "check_fig5_quad", "check_fig5_order_matrix", "SIMILAR_RTOL"]

# Random streams are labelled with the path each check was first registered under (string
# literals, not ``__name__``): moving a check to its section leaves its stream unchanged.


def check_thm3_5_train(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_swap_units: bool | None = None
) -> list[Evidence]:
    """S3 (Theorem 3.5): units pretrained at L ∈ {0.03, 0.1, 1} (σ = 0.01, d = 5, n = 20) are
    tested on L′ ∈ {0.03, 0.1, 1, 3} with common prompts: the matched unit wins at L′ = L
    (paired difference > 3 SE) and each unit's MC risk tracks the quadrature transfer curve
    L′²S(ω_L) + σ²N(ω_L) within 5 SE + 5 %.  ``fault_swap_units=True`` pairs each unit with the
    wrong pretraining L.  The units train at the setting's ``d`` and ``n`` (the paper's by
    default; σ = 0.01 and the L's are S3's); a unit whose ω̂ has not settled within its step
    bound makes the rows ``skipped`` with its numbers."""
    rng = check_rng(seed, "sims.checks.softmax_window:check_thm3_5_train")
    reps = 20_000 if quick else 160_000
    Ls = (0.03, 0.1, 1.0)
    s2, d, n = 1e-4, setting.d, setting.n
    # the s3_L0.03, s3_L0.1 and s1_sigma0.01 presets at the paper's setting
    units = [trained(isotropic(d, n, L, s2), ADAM, seed=seed) for L in Ls]
    Ms = [r.extra["M_avg"] for r in units]
    if fault_swap_units:
        Ms = Ms[::-1]
    curves = []
    for L in Ls:
        w = optimal_scale_affine(d, n, L, s2)[0]
        wt = window_terms(w, n, d)
        curves.append((signal_functional(wt.A, d), wt.N))
    out = []
    for Lp in (0.03, 0.1, 1.0, 3.0):
        st = SoftmaxWindowSetting.isotropic(d=d, n=n, L=Lp, sigma2=s2)
        jm = Ls.index(Lp) if Lp in Ls else None
        others = [k for k in range(len(Ls)) if k != jm] if jm is not None else []

        def draw(
            r: np.random.Generator,
            b: int,
            st: SoftmaxWindowSetting = st,
            jm: int | None = jm,
            others: list[int] = others,
        ) -> tuple[np.ndarray, ...]:
            p = sample_prompts(st, b, r)
            errs = [(softmax_predict(p.X, p.y, p.xq, M) - p.fq) ** 2 for M in Ms]
            return (*errs, *(errs[k] - errs[jm] for k in others if jm is not None))

        preds = [transfer_risk(Lp, c[0], c[1], s2) for c in curves]
        # each unit's risk drawn for its row's power (se <= 2 % of its prediction); the paired
        # differences (> 3 SE orderings) ask nothing
        ests = powered_samples(
            draw, reps, rng, [MC_POWER * abs(v) for v in preds] + [0.0] * len(others)
        )
        for j, L in enumerate(Ls):
            est = ests[j]
            pred = preds[j]
            out.append(
                mc_agreement(
                    f"S3 unit pretrained at L = {L} tested at L' = {Lp}: MC vs "
                    "quadrature transfer curve",
                    pred,
                    est,
                    bias=0.05 * pred,
                )
            )
        if Lp in Ls:
            j = Ls.index(Lp)
            for k in range(len(Ls)):
                if k != j:
                    diff = ests[len(Ls) + others.index(k)]
                    out.append(
                        ordering(
                            f"S3 at L' = {Lp}: matched unit beats the one pretrained "
                            f"at L = {Ls[k]} by > 3 SE",
                            3 * diff.se,
                            diff.mean,
                            margin=EXACT_GAP,
                            details={"diff": diff.mean},
                        )
                    )
    for r in units:  # a unit whose invariant has not settled can confirm nothing
        out = [settled(row, r) for row in out]
    return out


def check_fig5_quad(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_sigma_scale: float | None = None
) -> list[Evidence]:
    """Fig. 5's message (n = 200, σ = 0.01, d = 5): the affine optimum ω* = 14.99 and
    𝓛* = 0.00338 (our computed values, DERIVED rows: the paper prints none; derived on
    ``docs/papers/collins24.md#derived-values``); a unit pretrained at a mismatched L
    (0.1 vs 1) loses on the other's tasks (quadrature transfer curves).  Declared fixed at
    Fig. 5's setting: our reference values are computed for it.  ``fault_sigma_scale`` multiplies
    σ."""
    d, n = setting.d, setting.n
    s2 = (0.01 * (1.0 if fault_sigma_scale is None else float(fault_sigma_scale))) ** 2
    w, loss = optimal_scale_affine(d, n, 1.0, s2)
    out = [
        derived_agreement(
            f"Fig. 5: {name} (n = 200)",
            value,
            text,
            derived_in="docs/papers/collins24.md#derived-values",
            spec="spec 003 §4 [COMPUTED targets]",
        )
        for name, value, text in (("omega*", w, "14.99"), ("L*", loss, "0.00338"))
    ]
    w01 = optimal_scale_affine(d, n, 0.1, s2)[0]
    for L_pre, w_pre, L_test, w_test in ((0.1, w01, 1.0, w), (1.0, w, 0.1, w01)):
        t_pre, t_ok = window_terms(w_pre, n, d), window_terms(w_test, n, d)
        bad = transfer_risk(L_test, signal_functional(t_pre.A, d), t_pre.N, s2)
        good = transfer_risk(L_test, signal_functional(t_ok.A, d), t_ok.N, s2)
        out.append(
            ordering(
                f"Fig. 5: pretrained at L = {L_pre} loses on L' = {L_test}",
                good,
                bad,
                margin=STRICT_GAP,
            )
        )
    return out


#: Fig. 5 "errors are similar for every pairing" (the spec gives no number): a unit pretrained on
#: a 1-Lipschitz class, tested on another, is within 10 % (S2's tolerance) of that test class's
#: population optimum.  (At 5 % the n = 200 cosine-pretrained unit on affine tasks, 1.065, would
#: fail: its ω̂ = 18.9 is 26 % above the affine ω* = 14.99, and the loss is flat.)  The claim's
#: own contrast is asserted beside it: every matched-L pairing beats every mismatched-L unit.
SIMILAR_RTOL = 0.10


_CLASSES = ("affine", "relu", "cos")


def _class_optimum(task: str, n: int, p, omegas: np.ndarray) -> float:
    """The test class's population optimum 𝓛*: affine by quadrature, ReLU / cosine by the MC
    risk curve over M = ωI on the same prompts (common random numbers) and its spline argmin."""
    if task == "affine":
        return optimal_scale_affine(5, n, 1.0, 1e-4)[1]
    t = np.einsum("bnd,bd->bn", p.X, p.xq)
    t = t - t.max(axis=1, keepdims=True)
    risks = []
    for w in omegas:
        e = np.exp(float(w) * t)
        risks.append(float(np.mean((np.sum(e * p.y, axis=1) / np.sum(e, axis=1) - p.fq) ** 2)))
    return spline_argmin(omegas, np.array(risks))[1]


def check_fig5_order_matrix(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_unit: str | None = None
) -> list[Evidence]:
    """Fig. 5 ([collins24] §4): units pretrained on 1-Lipschitz affine, 2-ReLU and cosine tasks
    (σ = 0.01, d = 5), each tested on all three classes with common prompts.

    ORDER rows: every pairing's MC risk is within ``SIMILAR_RTOL`` (10 %) of the test class's
    population optimum 𝓛* ("errors are similar for every pairing"); on cosine tasks (the right
    panel) a unit pretrained at a mismatched L loses: its risk exceeds 𝓛*(1 + 10 %), the cosine
    unit's by > 3 SE (paired), and its ratio 𝓛/𝓛* exceeds every matched pairing's.  Quick: the
    S1/S2 units at n = 20 (σ = 0.01, L = 1; no new training), mismatched arm the S3 affine unit
    at L = 0.03.  ``--full`` adds the cosine units pretrained at L = 0.25 and L = 8 (n = 20) and
    the paper's n = 200 matrix (mismatched: cosine L = 0.25).  ``fault_unit`` (a preset name)
    replaces the affine-pretrained unit by that preset's unit (e.g. ``"s3_L0.03"``): its
    "similar" rows must fail.  Declared fixed at S1's setting at σ = 0.01: the matrix is the
    paper's (units at n = 20; ``--full`` adds n = 200)."""
    rng = check_rng(seed, "sims.checks.softmax_window_more:check_fig5_matrix")
    reps = 8_000 if quick else 40_000
    omegas = np.geomspace(0.5, 60.0, 24)
    sizes = [
        (
            20,
            {"affine": "s1_sigma0.01", "relu": "s2_relu_sigma0.01", "cos": "s2_cos_sigma0.01"},
            ["s3_L0.03"] if quick else ["s3_L0.03", "f5_cos_L0.25", "f5_cos_L8"],
        )
    ]
    if not quick:
        sizes.append(
            (
                200,
                {"affine": "f34_n200", "relu": "f5_relu_n200", "cos": "f5_cos_n200"},
                ["f5_cos_L0.25_n200"],
            )
        )
    out: list[Evidence] = []
    for n, units, mismatched in sizes:
        worst = 0.0  # the largest matched-pairing ratio 𝓛/𝓛* at this n
        if fault_unit is not None:
            units = {**units, "affine": fault_unit}
        # the figure's matrix at this n: the units (and the mismatched ones), this check's
        # stream and its optimum route (affine by quadrature)
        fig = compute_5(
            seed=seed,
            reps=reps,
            n=n,
            units={k: PRESETS[p] for k, p in {**units, **{m: m for m in mismatched}}.items()},
            omegas=omegas,
            rng=rng,
            optimum=lambda task, n, p: _class_optimum(task, n, p, omegas),
        )
        for test in _CLASSES:
            best = fig["best"][test]
            errs = {k: fig["errors"][test][k] for k in units}
            for pre, e in errs.items():
                est = estimate_from_samples(e)
                worst = max(worst, est.mean / best)
                out.append(
                    ordering(
                        f"Fig. 5 (n = {n}): unit pretrained on {pre} tested on {test} "
                        f"within 10 % of the {test} optimum",
                        est.mean,
                        (1 + SIMILAR_RTOL) * best,
                        margin=EXACT_GAP,
                        details={
                            "risk": est.mean,
                            "se": est.se,
                            "optimum": best,
                            "ratio": est.mean / best,
                            "preset": units[pre],
                        },
                    )
                )
            if test != "cos":
                continue
            for mis in mismatched:
                e = fig["errors"]["cos"][mis]
                est, diff = estimate_from_samples(e), estimate_from_samples(e - errs["cos"])
                out.append(
                    ordering(
                        f"Fig. 5 (n = {n}): mismatched-L unit {mis} loses on cos "
                        "tasks (risk > 1.1 x optimum)",
                        (1 + SIMILAR_RTOL) * best,
                        est.mean,
                        margin=EXACT_GAP,
                        details={"risk": est.mean, "optimum": best, "ratio": est.mean / best},
                    )
                )
                out.append(
                    ordering(
                        f"Fig. 5 (n = {n}): mismatched-L unit {mis} on cos tasks "
                        "worse (risk / optimum) than every matched pairing",
                        worst,
                        est.mean / best,
                        margin=STRICT_GAP,
                    )
                )
                out.append(
                    ordering(
                        f"Fig. 5 (n = {n}): cos unit beats mismatched {mis} on cos tasks by > 3 SE",
                        3 * diff.se,
                        diff.mean,
                        margin=EXACT_GAP,
                        details={"diff": diff.mean},
                    )
                )
    return out


#: Fig. 5's units (label → (setting, recipe)): S1/S2's n = 20 units and S3's mismatched
#: L = 0.03 unit.
FIG5_UNITS: dict[str, tuple[SoftmaxWindowSetting, Recipe]] = {
    "affine": PRESETS["s1_sigma0.01"],
    "2-ReLU": PRESETS["s2_relu_sigma0.01"],
    "cosine": PRESETS["s2_cos_sigma0.01"],
    "affine L = 0.03": PRESETS["s3_L0.03"],
}


def compute_5(
    *,
    quick: bool = True,
    seed: int = 0,
    reps: int = 0,
    n: int = 20,
    units: Mapping[str, tuple[SoftmaxWindowSetting, Recipe]] | None = None,
    tests: Sequence[str] = _CLASSES,
    omegas: np.ndarray | None = None,
    rng: np.random.Generator | None = None,
    optimum: Callable[[str, int, Any], float] | None = None,
) -> dict[str, Any]:
    """Fig. 5 (left panels) as a matrix: the MC risk of ``units`` (label → (setting, recipe);
    default ``FIG5_UNITS``: pretrained on affine, 2-ReLU and cosine tasks, σ = 0.01, L = 1, d = 5,
    and S3's mismatched L = 0.03 unit) on each test class (common prompts from ``rng``, ``reps``
    per class, at ``n``), divided by that class's best M = ωI: ``optimum(task, n, prompts)``, by
    default the spline argmin of the MC risk over ``omegas`` on the same prompts. Returns the
    per-prompt squared errors ``errors[test][label]``, ``best[test]`` and ``ratio``; drawn by
    ``sims.figures.collins24.fig_5`` (defaults: 8000 reps quick, ``default_rng(seed + 41)``) and
    judged by :func:`check_fig5_order_matrix` (its units, stream and optimum route)."""
    rng = np.random.default_rng(seed + 41) if rng is None else rng
    reps = reps or (8_000 if quick else 40_000)
    units = FIG5_UNITS if units is None else units
    grid = np.geomspace(0.5, 60.0, 24) if omegas is None else omegas

    def mc_optimum(task: str, n: int, p: Any) -> float:
        curve = np.array(
            [np.mean((softmax_predict(p.X, p.y, p.xq, float(w)) - p.fq) ** 2) for w in grid]
        )
        return spline_argmin(grid, curve)[1]

    best_of = mc_optimum if optimum is None else optimum
    Ms = {k: trained(*u, seed=seed).extra["M_avg"] for k, u in units.items()}
    ratio = np.zeros((len(units), len(tests)))
    errors: dict[str, dict[str, np.ndarray]] = {}
    best: dict[str, float] = {}
    for j, task in enumerate(tests):
        p = sample_prompts(
            SoftmaxWindowSetting.isotropic(d=5, n=n, L=1.0, sigma2=1e-4, task=task), reps, rng
        )
        best[task] = best_of(task, n, p)
        errors[task] = {k: (softmax_predict(p.X, p.y, p.xq, M) - p.fq) ** 2 for k, M in Ms.items()}
        for i, e in enumerate(errors[task].values()):
            ratio[i, j] = np.mean(e) / best[task]
    return {
        "units": list(units),
        "tests": ["affine", "2-ReLU", "cosine"] if tuple(tests) == _CLASSES else list(tests),
        "errors": errors,
        "best": best,
        "ratio": ratio,
    }


#: The name this check had before it was named by result and route.
check_fig5_matrix = check_fig5_order_matrix
