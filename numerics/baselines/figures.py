"""Numbers of the foundation's baseline figure (:func:`sims.figures.baselines.fig_baseline_risks`):
the exact finite-N closed forms of :mod:`theory.common.baselines` and their Monte Carlo estimates
on a grid of prompt lengths (the fast sufficient-statistic engine for GD/DGD, raw prompts for OLS
and the Bayes posterior mean), and the Marchenko–Pastur limit of the Bayes risk at ``ξ = d/N``.
No check judges these numbers: the base MC checks (``numerics.baselines.gd``, ``.ridge``) use
general Σ, β*, Ψ cases at one N on raw prompts, not this isotropic N grid.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from numerics.mc_fast import gd_family_risk_mc
from numerics.montecarlo import mc_mean
from numerics.sampling import sample_prompts
from theory.common import baselines
from theory.settings import LinearRegressionICL

__all__ = ["compute_baseline_risks"]


def compute_baseline_risks(
    *, quick: bool = True, seed: int = 0, d: int = 5, noise_var: float = 0.25
) -> dict[str, np.ndarray]:
    """Closed forms and MC estimates on a grid of N (prior N(0, I/d), x ~ N(0, I))."""
    Ns = np.array([8, 12, 16, 24, 32, 48, 64] if quick else [8, 10, 12, 16, 20, 24, 32, 48, 64, 96])
    n_fast, n_raw = (100_000, 20_000) if quick else (1_000_000, 200_000)
    rng = np.random.default_rng(seed)
    I, z = np.eye(d), np.zeros(d)
    out: dict[str, list[float]] = {
        k: []
        for k in (
            "gd",
            "gd_mc",
            "gd_se",
            "dgd",
            "dgd_mc",
            "dgd_se",
            "ols",
            "ols_mc",
            "ols_se",
            "bayes_mc",
            "bayes_se",
            "bayes_mp",
        )
    }
    for N in Ns:
        N = int(N)
        common: dict[str, Any] = dict(
            Sigma_x=I, task_mean=z, task_cov=I / d, noise_var=noise_var, N=N
        )
        out["gd"].append(float(baselines.gd_risk(I, I, z, I / d, noise_var, N)))
        e = gd_family_risk_mc(**common, Gamma=I, n=n_fast, rng=rng)
        out["gd_mc"].append(e.mean)
        out["gd_se"].append(e.se)
        out["dgd"].append(float(baselines.dgd_risk(I, 1.0, I, I / d, noise_var, N)))
        e = gd_family_risk_mc(**common, Gamma=I, debias=True, n=n_fast, rng=rng)
        out["dgd_mc"].append(e.mean)
        out["dgd_se"].append(e.se)
        setting = LinearRegressionICL.from_arrays(
            Sigma_x=I, N=N, task_cov=I / d, noise_var=noise_var
        )

        def draw(
            r: np.random.Generator, b: int, kind: str, setting: LinearRegressionICL = setting
        ) -> np.ndarray:
            p = sample_prompts(setting, b, rng=r)
            if kind == "ols":
                A = np.einsum("bni,bnj->bij", p.X, p.X)
            else:
                A = np.einsum("bni,bnj->bij", p.X, p.X) + noise_var * d * I  # λ = σ²/τ², τ² = 1/d
            w = np.linalg.solve(A, np.einsum("bni,bn->bi", p.X, p.y)[..., None])[..., 0]
            return (np.einsum("bi,bi->b", w, p.xq) - p.yq) ** 2

        if N > d + 1:
            out["ols"].append(float(baselines.ols_risk(d, N, noise_var)))
            e = mc_mean(lambda r, b: draw(r, b, "ols"), n_raw, rng=rng)
            out["ols_mc"].append(e.mean)
            out["ols_se"].append(e.se)
        else:
            for k in ("ols", "ols_mc", "ols_se"):
                out[k].append(np.nan)
        e = mc_mean(lambda r, b: draw(r, b, "bayes"), n_raw, rng=rng)
        out["bayes_mc"].append(e.mean)
        out["bayes_se"].append(e.se)
        out["bayes_mp"].append(float(baselines.bayes_risk_limit_mp(d / N, noise_var)))
    return {"N": Ns, **{k: np.asarray(v, dtype=float) for k, v in out.items()}}
