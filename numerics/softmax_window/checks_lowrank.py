"""[collins24] checks of §4 Theorem 4.4 (= H.5): on low-rank tasks 𝓛(c₁BBᵀ + c₂B⊥B⊥ᵀ) is even in
c₂ and minimised at c₂ = 0 (Monte Carlo with common random numbers, spec 003 R12 item 1)."""

from __future__ import annotations

import numpy as np

from numerics.montecarlo import estimate_from_samples
from numerics.softmax_window.predictors import softmax_predict
from numerics.softmax_window.sampling import lowrank_basis, sample_covariates, sphere
from numerics.testing import mc_agreement, mc_difference_agreement, ordering
from theory.common.protocols import Evidence
from theory.settings.softmax_window import SphereCovariates
from theory.softmax_window import lowrank_M

__all__ = ["check_thm4_4_mc"]


def check_thm4_4_mc(*, quick: bool = True, seed: int = 0, reps: int = 0,
                    fault_full_rank_task: bool | None = None) -> list[Evidence]:
    """Theorem 4.4 Case 2 (n = 2, σ = 0.5, d = 5, k = 2, c_u = c_v = 1, c₁ = 1): the paired MC
    differences 𝓛(c₂) − 𝓛(−c₂) vanish (evenness, 5 SE) and 𝓛(c₂) − 𝓛(0) > 3 SE for
    |c₂| ∈ {0.5, 1, 2}; 𝓛(0) = 0.7479 (spec [COMPUTED]).  ``fault_full_rank_task=True`` draws
    f(x) = aᵀx with a ~ U^d (not low rank): then c₂ = 0 is no longer optimal."""
    rng = np.random.default_rng(seed)
    reps = reps or (200_000 if quick else 800_000)
    d, k, n, s2, c1 = 5, 2, 2, 0.25, 1.0
    cov = SphereCovariates(d=d, kind="lowrank", k=k)
    B, _ = lowrank_basis(d, k)
    X = sample_covariates(cov, rng, (reps, n + 1))
    if fault_full_rank_task:
        a = sphere(rng, (reps,), d)
        f = np.einsum("bmd,bd->bm", X, a)
    else:
        a = sphere(rng, (reps,), k)
        f = np.einsum("bmk,bk->bm", X[..., :k], a)
    y = f[:, :n] + np.sqrt(s2) * rng.standard_normal((reps, n))
    c2s = (0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0)
    err = {c2: (softmax_predict(X[:, :n], y, X[:, n], lowrank_M(c1, c2, B)) - f[:, n]) ** 2
           for c2 in c2s}
    base = estimate_from_samples(err[0.0])
    out = [mc_agreement("L(c1 = 1, c2 = 0) vs spec 0.7479 (n = 2, sigma = 0.5)", 0.7479, base,
                        bias=5e-5)]
    for c2 in (0.5, 1.0, 2.0):
        even = estimate_from_samples(err[c2] - err[-c2])
        out.append(mc_difference_agreement(f"evenness: L(c2 = {c2}) - L(c2 = -{c2}) = 0", 0.0,
                                           even, scale=base.mean))
        diff = estimate_from_samples(err[c2] - err[0.0])
        out.append(ordering(f"L(c2 = {c2}) - L(0) > 3 SE", 3 * diff.se, diff.mean, margin=1e-9,
                            details={"diff": diff.mean, "se": diff.se}))
    return out
