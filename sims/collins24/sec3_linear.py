"""[collins24] Theorem 3.6 and Fig. 1 on torch units: S4 (trained linear attention at its exact
optimum m*I, above softmax's optimum) and Fig. 1's softmax-vs-linear-attention order on the
hills cos(νθ − b) (population version plus one trained unit).
"""

from __future__ import annotations

import math

import numpy as np

from numerics.collins24.appC_signal import one_sigma2
from numerics.collins24.figures import compute_1c
from numerics.collins24.predictors import mc_risk
from numerics.collins24.tolerances import STRICT_GAP
from numerics.sampling import check_rng
from numerics.testing import (
    MC_POWER,
    Z_MC,
    mc_agreement,
    ordering,
    over_seeds,
    tier_seeds,
)
from sims.collins24.evidence import Alternative, discriminate, settled
from sims.collins24.train import (
    ADAM_LINEAR,
    ADAM_LINEAR_LONG,
    PRESETS,
    isotropic,
    setting_of,
    trained,
)
from theory.collins24 import (
    la_floor,
    la_optimum,
)
from theory.collins24.settings import Setting
from theory.common.protocols import Evidence

__all__ = [
    "check_thm3_6_train",
    "check_fig1_order",
    "LA_ZERO",
    "LA_ONE_STEP_GD",
    "LA_NOISELESS",
    "THM36_ALTERNATIVES",
]

# Random streams are labelled with the path each check was first registered under (string
# literals, not ``__name__``): moving a check to its section leaves its stream unchanged.

#: S4 pass criterion (spec 003 R8 (d)): trained linear attention within 3 % of m*.
LA_RTOL = 0.03
#: Fig. 1's trained unit (hills ν = 1.5, n = 20): the ``fig1_d2`` preset, Fig. 1's setting with
#: σ² = 0.1² (0.01 up to rounding, so the Setting's σ² would name another cached run).
FIG1_UNIT = PRESETS["fig1_d2"]


#: Linear attention's named neighbours of m* (S4): M = 0, one step of GD (M = I/n), and m* of
#: the noiseless task (the noise term σ²/d of a dropped).
LA_ZERO = Alternative("M = 0", lambda w, s: 0.0)
LA_ONE_STEP_GD = Alternative("one-step GD M = I/n", lambda w, s: 1 / s.n)
LA_NOISELESS = Alternative(
    "m* of the noiseless task (sigma = 0)", lambda w, s: float(la_optimum(s.d, s.n, s.L, 0.0)[0])
)
#: The named neighbours of S4's trained tr(M̄)/d.
THM36_ALTERNATIVES: tuple[Alternative, ...] = (LA_ZERO, LA_ONE_STEP_GD, LA_NOISELESS)


def check_thm3_6_train(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_alternative: Alternative | None = None,
) -> list[Evidence]:
    """S4: trained linear attention, tr(M̄)/d → m* (3 %, alternatives ``THM36_ALTERNATIVES``:
    M = 0, the one-step-GD M = I/n and m* without the noise term σ²/d of a, where separable; the
    Frobenius distance to m*I, ~10 % from Adam's noise on the off-diagonals, is reported) and its
    MC risk (100 000 prompts) never below L²/3 − 5 SE, within 3 % of 𝓛_LA*.  One seed quick
    (1000 steps); in ``--full`` three seeds of our reference 3000-step run.  The unit trains at the
    setting given (``d``, ``n``, ``L``, one ``sigma2``; S4's by default) by S4's recipe, run on
    until tr(M)/d settles (a fifth of the 3 %) within its step bound; a unit that has not settled
    gives ``skipped`` rows with its numbers.
    ``fault_alternative`` passes a named alternative as the prediction."""
    recipe = ADAM_LINEAR if quick else ADAM_LINEAR_LONG  # the s4_linear / s4p_linear presets
    unit = isotropic(setting.d, setting.n, setting.L, one_sigma2(setting))
    reps = 100_000

    def rows_of(sd: int) -> list[Evidence]:
        r = trained(unit, recipe, seed=sd)
        st = setting_of(r)
        at = Setting(d=st.d, n=st.n, L=st.L, sigma2=st.sigma2)  # the unit's own setting
        m_star, la_star = la_optimum(st.d, st.n, st.L, st.sigma2)
        M = r.extra["M_avg"]
        m_hat = float(np.trace(M)) / st.d
        out = [
            discriminate(
                "S4 trained linear attention tr(M)/d vs m*",
                m_hat,
                m_star,
                0.0,
                rtol=LA_RTOL,
                seed=sd,
                fault_alternative=fault_alternative,
                alternatives={a.name: a.at(m_star, at) for a in THM36_ALTERNATIVES},
                details={
                    "relative_frobenius_to_m*I": float(
                        np.linalg.norm(M - m_star * np.eye(st.d))
                        / np.linalg.norm(m_star * np.eye(st.d))
                    )
                },
            )
        ]
        est = mc_risk(
            st,
            M,
            reps,
            check_rng(sd, "sims.checks.softmax_window:check_thm3_6_train"),
            model="linear",
            target_se=MC_POWER * abs(la_star),  # the MC row's scale: |L_LA*|
        )
        out.append(
            ordering(
                "S4 trained linear attention risk >= L^2/3 - 5 SE",
                la_floor(st.L) - Z_MC * est.se,
                est.mean,
                margin=STRICT_GAP,
                details={"risk": est.mean, "se": est.se, "L_LA*": la_star},
            )
        )
        out.append(
            mc_agreement(
                "S4 trained linear attention risk vs L_LA*", la_star, est, bias=LA_RTOL * la_star
            )
        )
        return [settled(row, r) for row in out]

    return over_seeds(rows_of, tier_seeds(seed, quick=quick))


def check_fig1_order(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_sigma2_scale: float | None = None,
) -> list[Evidence]:
    """Fig. 1 (bottom row), population version, hills class f = cos(νθ − b) on the circle
    (reading G10), σ² = 0.01 (the paper does not state it), ν ∈ {0, 1.5, 6}.  Declared fixed at
    Fig. 1's setting (d = 2, the trained unit's n = 20, ν = L = 1.5, σ² = 0.01; one random
    stream through the panels and the unit): the hills live on the circle and the unit is the
    fig1_d2 preset's.  Its σ² is the setting's:

    * n ∈ {20, 100}: softmax optimum (MC + spline) < best linear attention (MC) by > 3 SE;
    * ν = 0: softmax* = σ²/n (ω* → 0) and linear attention ≥ E cos²b = ½;
    * ν = 6, n = 5: softmax's optimum is the label average, (1 + 1/n)/2 + σ²/n = 0.602 (exact:
      f_i uncorrelated at integer ν);
    * one trained unit (ν = 1.5, n = 20) within 5 % (+ 5 SE) of the softmax optimum.

    The caption says only that softmax "achieve[s] small error" (the plotted n and σ are lost in
    our copy), so no row orders softmax against linear attention at n = 5: our reference
    paraphrase "softmax below linear for all ν and n" is withdrawn (at ν = 6 linear attention
    attains ½ < 0.602 at M = 0).

    ``fault_sigma2_scale`` multiplies the σ² of the ν = 0 prediction σ²/n."""
    (sigma2,) = setting.sigma2s
    rng = check_rng(seed, "sims.checks.softmax_window:check_fig1_order")
    reps = 10_000 if quick else 40_000
    f = 1.0 if fault_sigma2_scale is None else float(fault_sigma2_scale)
    out: list[Evidence] = []
    ns = (5, 20, 100)
    # the figure's numbers on this check's grid and stream
    fig = compute_1c(sigma2=sigma2, ns=ns, reps=reps, rng=rng)
    for nu, points in fig["rows"].items():
        for n, (soft, la, w) in zip(ns, points, strict=True):
            se = math.hypot(soft.se, la.se)
            name = f"Fig. 1 (nu={nu:g}, n={n}): softmax* {soft.mean:.4f} vs linear* {la.mean:.4f}"
            if nu == 0.0:
                out.append(
                    mc_agreement(
                        f"Fig. 1 nu=0, n={n}: softmax* = sigma^2/n",
                        f * sigma2 / n,
                        soft,
                        scale=sigma2 / n,
                    )
                )
                out.append(
                    ordering(
                        f"Fig. 1 nu=0, n={n}: linear* >= 1/2 - 5 SE",
                        0.5 - Z_MC * la.se,
                        la.mean,
                        margin=STRICT_GAP,
                    )
                )
            elif n >= 20:
                out.append(
                    ordering(
                        name, soft.mean + 3 * se, la.mean, margin=STRICT_GAP, details={"omega*": w}
                    )
                )
            elif nu == 6.0:
                floor = 0.5 * (1 + 1 / n) + sigma2 / n
                out.append(
                    mc_agreement(
                        f"Fig. 1 nu=6, n={n}: softmax* = label average (exact)",
                        floor,
                        soft,
                        bias=0.01 * floor,
                    )
                )
    r = trained(*FIG1_UNIT, seed=seed)
    st = setting_of(r)
    # the figure's softmax optimum at the trained unit's setting
    fig_unit = compute_1c(sigma2=st.sigma2, nus=(st.L,), ns=(st.n,), reps=reps, rng=rng)
    soft = fig_unit["rows"][st.L][0][0]
    est = mc_risk(
        st,
        r.extra["M_avg"],
        4 * reps,
        check_rng(seed, "sims.checks.softmax_window:check_fig1_order", "trained unit"),
        target_se=MC_POWER * abs(soft.mean),  # the row's scale: |softmax optimum|
    )
    out.append(
        settled(
            mc_agreement(
                "Fig. 1 trained unit (hills nu=1.5, n=20) vs softmax optimum (MC)",
                soft.mean,
                est,
                bias=0.05 * soft.mean + Z_MC * soft.se,
            ),
            r,
        )
    )
    return out
