"""[collins24] Theorem 3.4 on trained units: S1 (affine ω̂ vs the quadrature
ω*, with named alternatives), S2 (ReLU; cosine, report-only), at the presets and at any
setting (:mod:`.evidence`).

Trained runs come from :func:`sims.collins24.train.trained` (config-keyed cache); the
trained model never sees a prediction.  Fault switches are keyword-only ``fault_*`` parameters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from numerics.collins24.api import optimal_scale
from numerics.collins24.quadrature import optimal_scale_affine
from numerics.collins24.tolerances import ORDER_GAP, RELU_RTOL, STRICT_GAP
from numerics.sampling import check_rng
from numerics.testing import (
    informational,
    ordering,
    over_seeds,
    tier_seeds,
)
from sims.collins24.evidence import (
    AFFINE_OPTIMUM,
    CONVENTION_HALF,
    CONVENTION_TWICE,
    EQ9_HALF,
    EQ9_TWICE,
    LABEL_AVERAGE,
    ONE_NN,
    SURROGATE,
    Alternative,
    affine_alternatives,
    discriminate,
    init_omega,
    omega_hat,
    optimum_at_sigma,
    setting_rows,
    settled,
    validate_thm34_setting,
)
from sims.collins24.train import ADAM, ADAM_LONG, ADAM_RELU, SIGMAS, isotropic, trained
from theory.collins24.settings import Setting
from theory.common.protocols import Estimate, Evidence

__all__ = [
    "THM34_ALTERNATIVES",
    "THM34_RELU_ALTERNATIVES",
    "check_thm3_4_train",
    "check_thm3_4_train_relu",
    "check_thm3_4_train_cos",
    "ANISOTROPY_MAX",
    "RELU_RTOL",
]

# Random streams are labelled with the path each check was first registered under (string
# literals, not ``__name__``): moving a check to its section leaves its stream unchanged.

#: printed to 5 decimals: half a unit in the last place.
LOSS_PRINTED_ATOL = 5e-06
#: printed to 2 decimals: half a unit in the last place.
OMEGA_PRINTED_ATOL = 0.005
#: S1 pass criterion (spec 003 §3.2): anisotropy ‖M − ω̂I‖_F/‖M‖_F ≤ 0.06.
ANISOTROPY_MAX = 0.06

#: The affine optimum at each of S1's noise levels (a σ row's neighbours are the adjacent ones).
OPTIMUM_AT_SIGMA: dict[float, Alternative] = {s: optimum_at_sigma(s) for s in SIGMAS}
#: The named neighbours of S1's trained affine ω̂ (every row names the first five and its
#: neighbouring σ's optima), each the prediction of a negative control.
THM34_ALTERNATIVES: tuple[Alternative, ...] = (
    LABEL_AVERAGE,
    ONE_NN,
    CONVENTION_HALF,
    CONVENTION_TWICE,
    SURROGATE,
    *OPTIMUM_AT_SIGMA.values(),
)
#: The named neighbours of S2's trained ReLU ω̂.
THM34_RELU_ALTERNATIVES: tuple[Alternative, ...] = (
    LABEL_AVERAGE,
    EQ9_HALF,
    EQ9_TWICE,
    AFFINE_OPTIMUM,
)


def check_thm3_4_train(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_train_value: bool | None = None,
    fault_alternative: Alternative | None = None,
) -> list[Evidence]:
    """S1 (Lemma B.5 + Theorem 3.4, affine, d = 5, n = 20, L = 1), one seed of the 1000-step
    runs quick (the report budget) and three seeds of our reference 3000-step runs in ``--full``:
    ω̂ = tr(M̄)/d of each trained unit within 5 % of the quadrature ω*(σ) for
    σ ∈ {1, .3, .1, .01}, outside 5 % of the named alternatives (label average ω = 0, the 1-NN
    limit, the eq. (9) bandwidth conventions ω*/2 and 2ω*, the neighbouring σ's optima, the
    §3.1 surrogate optimum (2Λ/d)^{2/(d+2)} built on the paper's exponent, where separable),
    starting ≥ 3 tolerances away; anisotropy ≤ 0.06; the seed-mean ω̂ strictly decreasing in σ.

    ``fault_train_value=True`` trains the value scalar too (seed ``seed`` only; the paper fixes it
    to 1): detectable at σ = 1, where shrinking the labels pays (ω̂ ~14 % off ω*).
    ``fault_alternative`` passes a named alternative (one of :data:`THM34_ALTERNATIVES`) as the
    prediction.

    At any other setting (``d``, ``n``, ``L``, ``sigma2``; ``sigma2`` none: S1's four σ²)
    one unit per σ² is trained with the schedule derived from the setting and one TRAIN row each
    (:func:`sims.collins24.evidence.setting_rows`; neighbours σ·3, σ/3), tightened or
    ``skipped`` with its numbers; with several σ², ω̂ decreasing in σ."""
    d, n, L, sigma2 = setting.d, setting.n, setting.L, setting.sigma2
    validate_thm34_setting(d, n, L, sigma2)
    if (d, n, L, sigma2) != (5, 20, 1.0, None):
        if fault_train_value:
            raise ValueError("fault_train_value is the preset's control (d = 5, n = 20, L = 1)")
        return _thm34_setting(d, n, L, sigma2, seed=seed, fault_alternative=fault_alternative)
    seeds = (seed,) if fault_train_value else tier_seeds(seed, quick=quick)
    recipe = ADAM if quick else ADAM_LONG  # --full: the spec's 3000-step protocol
    opt = {s: optimal_scale_affine(5, 20, 1.0, s * s)[0] for s in SIGMAS}
    sigmas = (1.0,) if fault_train_value else SIGMAS
    means: dict[float, list[float]] = {s: [] for s in sigmas}

    def rows_of(sd: int) -> list[Evidence]:
        out = []
        for s in sigmas:
            unit = (isotropic(d, n, L, s * s), recipe)
            r = trained(*unit, seed=sd, train_value=bool(fault_train_value))
            M = r.extra["M_avg"]
            wh = omega_hat(M)
            means[s].append(wh)
            aniso = float(np.linalg.norm(M - wh * np.eye(5)) / np.linalg.norm(M))
            out.append(
                settled(
                    ordering(
                        f"S1 sigma={s:g}: anisotropy <= 0.06",
                        aniso,
                        ANISOTROPY_MAX,
                        margin=STRICT_GAP,
                    ),
                    r,
                )
            )
            w = opt[s]
            at = Setting(d=5, n=20, L=1.0, sigma2=s * s)
            j = SIGMAS.index(s)
            near = [OPTIMUM_AT_SIGMA[SIGMAS[k]] for k in (j - 1, j + 1) if 0 <= k < len(SIGMAS)]
            alts = {a.name: a.at(w, at) for a in (*THM34_ALTERNATIVES[:5], *near)}
            out.append(
                settled(
                    discriminate(
                        f"S1 trained omega-hat vs quadrature omega* (sigma={s:g})",
                        wh,
                        w,
                        init_omega(unit),
                        alternatives=alts,
                        seed=sd,
                        fault_alternative=fault_alternative,
                    ),
                    r,
                )
            )
        return out

    out = over_seeds(rows_of, seeds)
    avg = [float(np.mean(means[s])) for s in sigmas]
    for a, b, s in zip(avg[:-1], avg[1:], sigmas[1:], strict=False):
        out.append(
            ordering(
                f"S1 seed-mean omega-hat increases as sigma decreases to {s:g}",
                a,
                b,
                margin=ORDER_GAP,
                details={"seeds": list(seeds)},
            )
        )
    return out


def _thm34_setting(
    d: int,
    n: int,
    L: float,
    sigma2: float | None,
    *,
    seed: int,
    fault_alternative: Alternative | None,
) -> list[Evidence]:
    s2s = Setting(d=d, n=n, L=L, sigma2=sigma2).sigma2s
    out: list[Evidence] = []
    for s2 in s2s:
        out += setting_rows(
            f"S1 trained omega-hat vs quadrature omega* (d={d}, n={n}, L={L:g}, sigma2={s2:g})",
            d=d,
            n=n,
            L=L,
            sigma2=s2,
            seed=seed,
            alternatives=affine_alternatives(d, n, L, s2),
            fault_alternative=fault_alternative,
        )
    ests = [float(r.observed) for r in out if r.status != "skipped"]
    if len(ests) == len(s2s) > 1:
        for a, b, s2 in zip(ests[:-1], ests[1:], s2s[1:], strict=False):
            out.append(
                ordering(
                    f"S1 omega-hat increases as sigma2 decreases to {s2:g}", a, b, margin=ORDER_GAP
                )
            )
    return out


def _relu_alternatives(at: Setting) -> Callable[[float], dict[str, float]]:
    return lambda w: {a.name: a.at(w, at) for a in THM34_RELU_ALTERNATIVES}


def check_thm3_4_train_relu(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_alternative: Alternative | None = None,
) -> list[Evidence]:
    """S2 (ReLU class, d = 5, n = 20, L = 1): ω̂ within 10 % (our criterion) of the MC +
    spline optimum (reference targets 0.59, 2.78, 5.40, 6.75), outside 10 % of the label average,
    the eq. (9) conventions and the affine class's optimum at the same σ (the wrong task class; only
    separable at σ = 1); ω̂ decreasing in σ.  σ ∈ {1, .01} and one seed quick; all four σ and three
    seeds in ``--full``.  At any other setting (``d``, ``n``, ``L``, ``sigma2``; ``sigma2`` not
    given: σ ∈ {1, .01}) one unit per σ² with the derived schedule, one TRAIN row each (10 %;
    ``skipped`` with the numbers where an alternative is closer than 2 tolerances)."""
    d, n, L, sigma2 = setting.d, setting.n, setting.L, setting.sigma2
    validate_thm34_setting(d, n, L, sigma2)
    if (d, n, L, sigma2) != (5, 20, 1.0, None):
        out: list[Evidence] = []
        for s2 in (1.0, 1e-4) if sigma2 is None else (sigma2,):
            out += setting_rows(
                f"S2 ReLU trained omega-hat vs MC optimum (d={d}, n={n}, L={L:g}, sigma2={s2:g})",
                d=d,
                n=n,
                L=L,
                sigma2=s2,
                task="relu",
                seed=seed,
                fault_alternative=fault_alternative,
                alternatives=_relu_alternatives(replace(setting, sigma2=s2)),
            )
        return out
    rng = np.random.default_rng(seed)
    reps = 40_000 if quick else 160_000
    sigmas = (1.0, 0.01) if quick else SIGMAS
    opt: dict[float, Estimate] = {}
    for s in sigmas:
        w_est, _ = optimal_scale(5, 20, 1.0, s * s, "relu", rng=rng, reps=reps)
        assert isinstance(w_est, Estimate)
        opt[s] = w_est
    last: dict[float, float] = {}

    def rows_of(sd: int) -> list[Evidence]:
        out = []
        for s in sigmas:
            w = opt[s].mean
            unit = (isotropic(d, n, L, s * s, "relu"), ADAM_RELU)
            r = trained(*unit, seed=sd)
            wh = omega_hat(r.extra["M_avg"])
            last[s] = wh
            row = settled(
                discriminate(
                    f"S2 ReLU trained omega-hat vs MC optimum (sigma={s:g})",
                    wh,
                    w,
                    init_omega(unit),
                    rtol=RELU_RTOL,
                    seed=sd,
                    fault_alternative=fault_alternative,
                    alternatives={
                        a.name: a.at(w, replace(setting, sigma2=s * s))
                        for a in THM34_RELU_ALTERNATIVES
                    },
                    details={"optimum_se": opt[s].se},
                ),
                r,
            )
            out.append(row)
        for a, b, s in zip(sigmas[:-1], sigmas[1:], sigmas[1:], strict=False):
            out.append(
                ordering(f"S2 omega-hat larger at sigma={s:g}", last[a], last[b], margin=ORDER_GAP)
            )
        return out

    return over_seeds(rows_of, tier_seeds(seed, quick=quick))


def check_thm3_4_train_cos(
    setting: Setting, *, quick: bool = True, seed: int = 0
) -> list[Evidence]:
    """S2's cosine extension (report-only: "assert nothing for cosine beyond
    reporting", so INFO rows): trained ω̂ on f = cos(L vᵀx) next to the MC + spline optimum, at
    L = 1 for σ ∈ {.1, .01} (our computed values 3.97, 7.33) and, in ``--full``, at σ = 0.01 for
    L ∈ {0.5, 2, 4} (reference 6.48, 7.36, 6.49: non-monotone in L at n = 20).  Declared fixed at
    the paper's setting (d = 5, n = 20): our computed values are its (the units are
    trained at the setting given)."""
    d, n = setting.d, setting.n
    rng = check_rng(seed, "sims.checks.softmax_window_train:check_thm3_4_train_cos")
    reps = 10_000 if quick else 80_000
    spec = {
        "s2_cos_sigma0.1": 3.97,
        "s2_cos_sigma0.01": 7.33,
        "s2_cos_L0.5": 6.48,
        "s2_cos_L2": 7.36,
        "s2_cos_L4": 6.49,
    }
    runs = [("s2_cos_sigma0.01", 1.0, 0.01)]  # (the preset's name, L, sigma)
    if not quick:
        runs += [
            ("s2_cos_sigma0.1", 1.0, 0.1),
            ("s2_cos_L0.5", 0.5, 0.01),
            ("s2_cos_L2", 2.0, 0.01),
            ("s2_cos_L4", 4.0, 0.01),
        ]
    out = []
    for preset, L, s in runs:
        w_est, _ = optimal_scale(d, n, L, s * s, "cos", rng=rng, reps=reps)
        assert isinstance(w_est, Estimate)
        r = trained(isotropic(d, n, L, s * s, "cos"), ADAM, seed=seed)
        wh = omega_hat(r.extra["M_avg"])
        out.append(
            settled(
                informational(
                    f"S2 cosine (L={L:g}, sigma={s:g}): trained omega-hat vs MC optimum "
                    "(report-only)",
                    w_est.mean,
                    wh,
                    details={
                        "optimum_se": w_est.se,
                        "spec_computed": spec[preset],
                        "relative_gap": wh / w_est.mean - 1,
                    },
                ),
                r,
            )
        )
    return out
