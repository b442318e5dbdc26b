"""[czz24] Bayes floor [derived] checks: the support-enumeration posterior mean reduces to ridge
with λ = σ²/τ² when s = d (exact), and its MC risk lies below every method's (spec §1.5, R10)."""

from __future__ import annotations

import numpy as np

from numerics.montecarlo import estimate_from_samples
from numerics.sparse_multihead.predictors import (
    ALPHA_GRID,
    bayes_fit,
    lasso_fit,
    ols_fit,
    pregd_path,
    ridge_fit,
)
from numerics.sparse_multihead.sampling import sample_sparse_prompts
from numerics.testing import float_agreement, ordering
from theory.common.baselines import ridge_predictor
from theory.common.protocols import Evidence
from theory.settings import SparseRegressionICL
from theory.sparse_multihead import bayes_posterior_mean

__all__ = ["check_bayes_float", "check_bayes_mc"]


def check_bayes_float(*, quick: bool = True, seed: int = 0,
                      fault_tau2: float | None = None) -> list[Evidence]:
    """With s = d and the Gaussian slab the enumeration has one support, so the posterior mean is
    ridge ``(XᵀX + σ²/τ² I)⁻¹Xᵀy`` (``base:ridge-bayes``); ``fault_tau2`` uses a wrong τ² in the
    enumeration."""
    rng = np.random.default_rng(seed)
    out = []
    for d, n, s2 in ((3, 5, 0.3), (5, 2, 1.0)):
        X = rng.standard_normal((n, d))
        y = X @ rng.standard_normal(d) + np.sqrt(s2) * rng.standard_normal(n)
        got = bayes_posterior_mean(X, y, d, s2, "gauss", tau2=fault_tau2 or 1.0)
        out.append(float_agreement(f"Bayes(s = d) = ridge(λ = σ²/τ²) (d={d}, n={n})", got,
                                   np.asarray(ridge_predictor(X, y, s2)).reshape(-1), rtol=1e-10,
                                   atol=1e-12))
    return out


def check_bayes_mc(*, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Bayes ≤ every method on common contexts (paired differences > 3 se): sign prior d = 8, s = 2,
    n = 6, σ = 0.5 against oracle-tuned pre-GD, ridge, min-norm OLS and lasso; experimental prior
    d = 16, s = 4, n = 10, σ = 0.1 against ridge* and lasso* (spec Fig. 1b table: Bayes 0.018)."""
    out = []
    cases = ((8, 2, 6, 0.25, "sign", 200 if quick else 600),
             (16, 4, 10, 0.01, "gauss", 120 if quick else 600))
    for d, s, n, s2, prior, trials in cases:
        st = SparseRegressionICL.isotropic(d=d, s=s, n=n, sigma2=s2, prior=prior)
        p = sample_sparse_prompts(st, trials, rng=np.random.default_rng(seed + d))
        eb = np.sum((bayes_fit(p.X, p.y, s, s2, prior) - p.w) ** 2, axis=1)
        rivals = {"ols": np.sum((ols_fit(p.X, p.y) - p.w) ** 2, axis=1)}
        rivals["ridge*"] = min((np.sum((ridge_fit(p.X, p.y, lam) - p.w) ** 2, axis=1)
                                for lam in np.logspace(-4, 2, 13)), key=np.mean)
        rivals["lasso*"] = min((np.sum((lasso_fit(p.X, p.y, a) - p.w) ** 2, axis=1)
                                for a in ALPHA_GRID), key=np.mean)
        if prior == "sign":
            paths = [np.sum((pregd_path(p.X, p.y, eta, 60) - p.w[None]) ** 2, axis=2)
                     for eta in (0.1, 0.3, 1.0)]
            rivals["pre-GD*"] = min((e[t] for e in paths for t in range(61)), key=np.mean)
        B = estimate_from_samples(eb)
        for name, err in rivals.items():
            diff = estimate_from_samples(err - eb)
            out.append(ordering(f"Bayes < {name} ({prior}, d={d}, s={s}, n={n})", 0.0, diff.mean,
                                margin=3 * diff.se,
                                details={"bayes": B.mean, name: float(np.mean(err))}))
    return out
