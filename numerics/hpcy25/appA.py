"""[hpcy25] App. A.4 checks: softmax-norm concentration ``L E‖p‖² → e^{dω²}``."""

from __future__ import annotations

import math

import numpy as np

import theory.hpcy25 as th
from numerics.hpcy25.bands import band
from numerics.hpcy25.predictors import (
    sample_covariates,
    softmax,
)
from numerics.montecarlo import estimate_from_samples
from numerics.sampling import check_rng
from numerics.testing import (
    MC_POWER,
    Z_MC,
)
from theory.common.protocols import Evidence
from theory.hpcy25.settings import Setting

__all__ = [
    "check_appa_4_mc",
]

#: The label of this module's random streams: its registered path before the sections
#: (kept fixed so the streams do not move).
_STREAM = "numerics.softmax_multihead.checks_appa"  # stream label: fixed


def check_appa_4_mc(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_theory_d: int | None = None
) -> list[Evidence]:
    """App. A.4 at the setting's dimension ``d``: ``L E‖p‖²`` (MC) within 2 % of ``e^{dω²}`` and
    ``(1 − 2ω²)^{-d/2}`` when ``dω² ≤ 0.2`` (L ≥ 40); for larger ω it does not decrease in L beyond
    MC error and stays below the limit + 5 %, over Fig. 20's ω ∈ {0.1, 0.2, 0.35,
    0.5} and L ∈ {40, 100, 500} (the concentration is a statement over ω and L).
    ``fault_theory_d`` computes the references at another dimension than the one sampled
    (negative control)."""
    d = setting.d
    d_th = d if fault_theory_d is None else fault_theory_d
    rng = check_rng(seed, f"{_STREAM}:check_appa_4_mc")
    n = 10_000 if quick else 100_000
    ev: list[Evidence] = []
    for om in (0.1, 0.2, 0.35, 0.5):
        prev = None
        lim = th.softmax_norm_limit(om, d_th)
        for L in (40, 100, 500):

            def draw(r: np.random.Generator, b: int, L: int = L, om: float = om) -> np.ndarray:
                X, xq = sample_covariates(r, b, L, d)
                p = softmax(om * np.einsum("bld,bd->bl", X, xq))
                return L * np.einsum("bl,bl->b", p, p)

            vals = np.concatenate([draw(rng, min(5000, n - k)) for k in range(0, n, 5000)])
            est = estimate_from_samples(vals)
            ev.append(
                band(
                    f"MC power: se / (L E|p|^2) ≤ 2 % at omega={om}, L={L}",
                    est.se / est.mean,
                    None,
                    MC_POWER,
                )
            )
            if d * om**2 <= 0.2:
                for ref_name, ref in (
                    ("e^{d w^2}", th.softmax_norm_first_order(om, d_th)),
                    ("(1-2w^2)^{-d/2}", lim),
                ):
                    ev.append(
                        band(
                            f"L E|p|^2 / {ref_name} - 1 at omega={om}, L={L} (≤ 2 %)",
                            est.mean / ref - 1,
                            -0.02,
                            0.02,
                            details={"se": est.se},
                        )
                    )
            else:
                ev.append(
                    band(
                        f"L E|p|^2 ≤ 1.05 (1-2w^2)^(-d/2) at omega={om}, L={L}",
                        est.mean / lim,
                        None,
                        1.05 + Z_MC * est.se / lim,
                    )
                )
                if prev is not None:
                    diff = est.mean - prev.mean
                    ev.append(
                        band(
                            f"L E|p|^2 not decreasing in L at omega={om}, L={L}",
                            diff,
                            -Z_MC * math.hypot(est.se, prev.se),
                            None,
                        )
                    )
            prev = est
    return ev
