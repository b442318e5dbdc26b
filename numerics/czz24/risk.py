"""[czz24] §5 Monte Carlo excess risks ``E‖ŵ − w*‖²`` (Σ = I) of every method, with the divergence
guard for fixed-step pre-GD, and oracle tuning over fixed η- and λ-grids (docs/papers/czz24.md).

The MC route samples contexts and applies the predictors of :mod:`.predictors`; it never calls a
theory risk function.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from numerics.czz24.predictors import (
    ALPHA_GRID,
    batch_lambda_max,
    bayes_fit,
    gd_path,
    lasso_fit,
    ols_fit,
    pregd_path,
    ridge_fit,
)
from numerics.czz24.sampling import sample_sparse_prompts
from numerics.montecarlo import estimate_from_samples
from theory.common.protocols import Estimate
from theory.czz24.settings import SparseRegressionICL
from theory.settings import check_choice, check_int, check_real

__all__ = [
    "METHODS",
    "DivergedContextsError",
    "excess_risk",
    "excess_risk_samples",
    "blown_up",
    "stable_bound",
    "candidate_steps",
    "DIVERGENCE_GROWTH",
    "ETA_GRID",
    "LAMBDA_GRID",
    "TunedRisks",
    "tuned_risks",
    "lasso_star",
    "tuned_risks_cached",
    "tuned_risks_gram",
]

METHODS = ("pre_gd", "gd", "ridge", "ols", "lasso", "bayes")
#: Spec §3 V-R6: η-grid of the oracle tuning and the normalised λ-grid.
ETA_GRID = (1e-4, 1e-3, 1e-2, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0)
LAMBDA_GRID = tuple(float(v) for v in np.logspace(-4, 2, 25))


#: Growth bound of the divergence flag.  GD from 0 on ``½wᵀĜw − b̃ᵀw`` has the
#: spectral coefficients ``(1 − (1 − ηλ)^t)/λ = η Σ_{k<t} (1 − ηλ)^k``, each of size ≤ tη while
#: ``ηλ ≤ 2``, so a non-divergent iterate has ``‖w̃^t‖ ≤ tη‖b̃‖`` and ``‖ŵ^t‖ ≤ ‖r̂‖_∞ tη‖b̃‖``
#: (pre-GD, ``b̃ = r̂ ⊙ r̂``; raw GD: ``‖w^t‖ ≤ tη‖r̂‖``).  A context counts as diverged at step t
#: only where its iterate is not finite or exceeds this bound ``DIVERGENCE_GROWTH`` times:
#: ``η λ_max ≥ 2`` says the iteration blows up *as t grows*, not that it has at a given t (one
#: step, ``ŵ = η r̂³``, never does).
DIVERGENCE_GROWTH = 10.0
#: Amplification ``|1 − ηλ_max|^t`` past which a path is float64 garbage: a path whose η makes
#: some context divergent is computed only up to the step where this is reached (later steps are
#: not candidates of the oracle tuning).
AMPLIFICATION_CAP = 1e16


def stable_bound(
    X: np.ndarray, y: np.ndarray, eta: float, steps: int, *, preprocess: bool
) -> np.ndarray:
    """``(steps + 1, B)``: the bound ``t η ‖r̂‖_∞ ‖r̂ ⊙ r̂‖`` (pre-GD) or ``t η ‖r̂‖`` (raw GD)
    that every iterate of a non-divergent run obeys (:data:`DIVERGENCE_GROWTH`).

    ``X`` (B, n, d), ``y`` (B, n).  ``X = I_2``, ``y = (2, 0)``: ``r̂ = (1, 0)``, so the pre-GD
    bound is ``tη``:

    >>> stable_bound(np.eye(2)[None], np.array([[2.0, 0.0]]), 0.5, 2, preprocess=True).tolist()
    [[0.0], [0.5], [1.0]]
    """
    r = np.einsum("bni,bn->bi", X, y) / X.shape[1]
    per = (
        np.max(np.abs(r), axis=1) * np.linalg.norm(r * r, axis=1)
        if preprocess
        else np.linalg.norm(r, axis=1)
    )
    return eta * np.arange(steps + 1)[:, None] * per[None, :]


def blown_up(norms: np.ndarray, bound: np.ndarray) -> np.ndarray:
    """Contexts whose iterate has blown up: ``‖ŵ^t‖`` not finite or above
    ``DIVERGENCE_GROWTH × bound`` (elementwise over ``(t, context)``).

    >>> blown_up(np.array([1.0, 50.0, np.inf]), np.ones(3)).tolist()   # 10 × bound
    [False, True, True]
    """
    with np.errstate(invalid="ignore"):
        return ~np.isfinite(norms) | (norms > DIVERGENCE_GROWTH * bound)


def candidate_steps(eta: float, lmax: np.ndarray, steps: int) -> int:
    """The steps of a path worth computing at this η: all ``steps`` if no context has
    ``ηλ_max ≥ 2``, else up to the step where ``|1 − ηλ_max|^t`` reaches
    :data:`AMPLIFICATION_CAP` for the worst context.

    ``ηλ_max = 3``: ``|1 − 3|^t = 2^t`` reaches 10¹⁶ at ``t = ⌈16 log₂ 10⌉ = 54``:

    >>> candidate_steps(0.5, np.array([1.0]), 100), candidate_steps(3.0, np.array([1.0]), 100)
    (100, 54)
    """
    amp = float(np.max(np.abs(1.0 - eta * lmax)))
    if float(np.max(eta * lmax)) < 2.0 or amp <= 1.0:
        return steps
    return min(steps, int(np.ceil(np.log(AMPLIFICATION_CAP) / np.log(amp))))


class DivergedContextsError(ArithmeticError):
    """A fixed-step (pre-)GD diverged on some contexts (its iterate blew up: not finite, or above
    :data:`DIVERGENCE_GROWTH` times the bound a non-divergent run obeys); ``fraction`` says on how
    many.  No finite mean is returned from such samples.

    GD with ``η = 30`` on ``Σ = I`` (``ηλ_max ≫ 2``) blows up on every context:

    >>> try:
    ...     excess_risk("gd", d=2, s=1, n=10, sigma2=0.0, eta=30.0, steps=20, trials=10, seed=0)
    ... except DivergedContextsError as err:
    ...     print(err.method, err.eta, err.fraction)
    gd 30.0 1.0
    """

    def __init__(self, method: str, eta: float, fraction: float, trials: int) -> None:
        self.method, self.eta, self.fraction, self.trials = method, eta, fraction, trials
        super().__init__(
            f"{method} with eta = {eta:g} diverges on a fraction {fraction:.4g} of {trials} "
            "contexts (the iterate blew up: not finite or above DIVERGENCE_GROWTH times the "
            "non-divergent bound; r̂ has heavy tails): refusing to average them"
        )


def excess_risk_samples(
    method: str,
    *,
    d: int,
    s: int,
    n: int,
    sigma2: float,
    prior: str = "sign",
    eta: float | None = None,
    steps: int | None = None,
    lam: float | None = None,
    trials: int,
    seed: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Per-context ``‖ŵ − w*‖²`` and a boolean ``diverged`` mask (only (pre-)GD can diverge), each
    of shape ``(trials,)``; keywords as in :func:`excess_risk`.

    Noiseless OLS with ``n ≥ d`` recovers ``w*`` exactly:

    >>> err, div = excess_risk_samples("ols", d=2, s=1, n=10, sigma2=0.0, trials=5, seed=0)
    >>> err.shape, bool(np.allclose(err, 0.0)), bool(div.any())
    ((5,), True, False)
    """
    check_choice("method", method, METHODS)
    st = SparseRegressionICL.isotropic(d=d, s=s, n=n, sigma2=sigma2, prior=prior)
    trials = check_int("trials", trials, minimum=2)
    p = sample_sparse_prompts(st, trials, rng=np.random.default_rng(seed))
    diverged = np.zeros(trials, dtype=bool)
    if method in ("pre_gd", "gd"):
        if eta is None or steps is None:
            raise ValueError(f"method {method!r} needs eta and steps")
        eta = check_real("eta (step size)", eta, lower=0.0, lower_open=True)
        steps = check_int("steps", steps, minimum=0)
        path = (pregd_path if method == "pre_gd" else gd_path)(p.X, p.y, eta, steps)
        w_hat = path[-1]
        with np.errstate(over="ignore", invalid="ignore"):
            norm = np.linalg.norm(w_hat, axis=1)
        diverged = blown_up(
            norm, stable_bound(p.X, p.y, eta, steps, preprocess=method == "pre_gd")[-1]
        )
    elif method == "ridge":
        if lam is None:
            raise ValueError("method 'ridge' needs lam (normalised penalty)")
        w_hat = ridge_fit(
            p.X, p.y, check_real("lam (normalised penalty)", lam, lower=0.0, lower_open=True)
        )
    elif method == "ols":
        w_hat = ols_fit(p.X, p.y)
    elif method == "lasso":
        if lam is None:
            raise ValueError("method 'lasso' needs lam (sklearn alpha)")
        w_hat = lasso_fit(
            p.X, p.y, check_real("lam (lasso alpha)", lam, lower=0.0, lower_open=True)
        )
    else:
        w_hat = bayes_fit(p.X, p.y, s, sigma2, prior)
    with np.errstate(over="ignore", invalid="ignore"):
        err = np.sum((w_hat - p.w) ** 2, axis=1)
    diverged |= ~np.isfinite(err)
    return err, diverged


def excess_risk(method: str, **kw: Any) -> Estimate:
    """Monte Carlo ``E‖ŵ − w*‖²`` (Σ = I, no query noise) of ``method`` with ``se``, from the
    per-context errors of :func:`excess_risk_samples`, whose keywords it takes (``d, s, n, sigma2,
    prior, eta, steps, lam, trials, seed``).

    ``method``: ``"pre_gd"`` / ``"gd"`` (``eta``, ``steps``), ``"ridge"`` (``lam``, normalised),
    ``"ols"``, ``"lasso"`` (``lam`` = sklearn alpha), ``"bayes"``.  ``prior="sign"`` is the ±1/√s
    theory prior, ``"gauss"`` the experimental one.  Raises :class:`DivergedContextsError` (with the
    fraction) if a fixed-step (pre-)GD has blown up on some context (:func:`blown_up`; one step
    never does): the mean would be meaningless.

    >>> e = excess_risk("ols", d=4, s=2, n=40, sigma2=0.25, trials=1000, seed=0)
    >>> abs(e.mean - 0.25 * 4 / 35) < 5 * e.se
    True
    """
    err, div = excess_risk_samples(method, **kw)
    if np.any(div):
        eta = kw.get("eta")
        raise DivergedContextsError(method, float(eta or 0.0), float(np.mean(div)), len(err))
    return estimate_from_samples(err)


@dataclass(frozen=True, slots=True)
class TunedRisks:
    """Oracle-tuned MC risks on one common set of contexts (oracle tuning per method): each
    ``Estimate`` with its argument (``(η, t)`` for pre-GD / GD, ``λ`` for ridge); built by
    :func:`tuned_risks` and :func:`tuned_risks_gram` (example there).

    Noiseless with ``n > d``: OLS is exact and the oracle picks ridge's smallest λ:

    >>> t = tuned_risks(d=4, s=1, n=12, sigma2=0.0, trials=10, seed=0, steps=10)
    >>> t.ols.mean < 1e-20, t.ridge_arg, t.ridge.mean < 1e-6, t.pre_gd.n
    (True, 0.0001, True, 10)
    """

    pre_gd: Estimate
    pre_gd_arg: tuple[float, int]  # (η, t)
    gd: Estimate
    gd_arg: tuple[float, int]
    ridge: Estimate
    ridge_arg: float
    ols: Estimate | None  # None where the expectation is infinite (n ∈ {d−1, d, d+1})
    diverged_eta: dict[str, tuple[float, ...]]  # η values some of whose steps t were not
    #                                             candidates (a context's iterate blew up there)


def _best_path(
    method: str,
    X: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    D: np.ndarray,
    etas: Sequence[float],
    steps: int,
) -> tuple[Estimate, tuple[float, int], tuple[float, ...]]:
    best: tuple[float, Estimate, tuple[float, int]] | None = None
    dropped = []
    pre = method == "pre_gd"
    lmax = batch_lambda_max(X, y, preprocess=pre)
    for eta in etas:
        k = candidate_steps(eta, lmax, steps)
        path = (pregd_path if pre else gd_path)(X, y, eta, k)
        with np.errstate(over="ignore", invalid="ignore"):
            errs = np.sum((D[None] * (path - w[None])) ** 2, axis=2)  # (k + 1, B)
            blown = np.any(
                blown_up(np.linalg.norm(path, axis=2), stable_bound(X, y, eta, k, preprocess=pre)),
                axis=1,
            )
        if k < steps or np.any(blown):
            dropped.append(float(eta))
        mean = np.where(blown, np.inf, errs.mean(axis=1))  # only steps no context blew up at
        t = int(np.argmin(mean))
        est = estimate_from_samples(errs[t])
        if best is None or est.mean < best[0]:
            best = (est.mean, est, (float(eta), t))
    if best is None:
        raise DivergedContextsError(method, float(max(etas)), 1.0, len(X))
    return best[1], best[2], tuple(dropped)


def tuned_risks(
    *,
    d: int,
    s: int,
    n: int,
    sigma2: float,
    trials: int,
    seed: int,
    prior: str = "sign",
    steps: int = 200,
    etas: Sequence[float] = ETA_GRID,
    lams: Sequence[float] = LAMBDA_GRID,
    Sigma_diag: Sequence[float] | None = None,
    sigma_support: float | None = None,
) -> TunedRisks:
    """pre-GD*, GD* (η from ``etas``, t ≤ ``steps``), ridge* (λ from ``lams``) and OLS on the same
    contexts; risk ``‖Σ^{1/2}(ŵ − w*)‖²``.

    ``Sigma_diag``: a fixed diagonal Σ (the flat-spectrum variant).  ``sigma_support``: our
    reference small-β variant, ``Σ_ii = sigma_support`` on the task's support and 1 elsewhere,
    ``w*_S`` rescaled so that ``w*ᵀΣw* = 1`` (a small-β failure mode of the §5 bounds).

    Source: [czz24] §5 and Fig. 2c (pre-GD vs GD), App. B (ridge tuned over λ).

    Examples
    --------
    Noiseless, ``n ≥ d``: OLS is exact; ``t = 0`` (``ŵ = 0``, error ``‖w*‖² = 1`` under the sign
    prior) is a candidate, so no tuned risk exceeds 1:

    >>> t = tuned_risks(d=4, s=1, n=12, sigma2=0.0, trials=10, seed=0, steps=10)
    >>> t.ols.mean < 1e-20, t.pre_gd.mean <= 1.0, t.gd.mean <= 1.0
    (True, True, True)
    """
    st = SparseRegressionICL(
        d=d,
        s=s,
        n=n,
        sigma2=sigma2,
        prior=prior,
        Sigma_diag=tuple(Sigma_diag) if Sigma_diag is not None else (),
    )
    rng = np.random.default_rng(seed)
    p = sample_sparse_prompts(st, trials, rng=rng)
    w, X = p.w, p.X
    D = np.broadcast_to(np.sqrt(np.asarray(st.Sigma_diag)), w.shape).copy()
    if sigma_support is not None:
        on = w != 0
        D = np.where(on, np.sqrt(sigma_support), 1.0)
        w = w / np.sqrt(np.sum((D * w) ** 2, axis=1, keepdims=True))
        X = X * D[:, None, :]
    y = np.einsum("bnd,bd->bn", X, w) + p.eps
    pre, pre_arg, drop_pre = _best_path("pre_gd", X, y, w, D, etas, steps)
    gd, gd_arg, drop_gd = _best_path("gd", X, y, w, D, etas, steps)
    best_r: tuple[Estimate, float] | None = None
    for lam in lams:
        e = estimate_from_samples(np.sum((D * (ridge_fit(X, y, lam) - w)) ** 2, axis=1))
        if best_r is None or e.mean < best_r[0].mean:
            best_r = (e, float(lam))
    assert best_r is not None
    ols = None
    if abs(n - d) > 1 or sigma2 == 0.0:
        ols = estimate_from_samples(np.sum((D * (ols_fit(X, y) - w)) ** 2, axis=1))
    return TunedRisks(
        pre_gd=pre,
        pre_gd_arg=pre_arg,
        gd=gd,
        gd_arg=gd_arg,
        ridge=best_r[0],
        ridge_arg=best_r[1],
        ols=ols,
        diverged_eta={"pre_gd": drop_pre, "gd": drop_gd},
    )


def lasso_star(
    *,
    d: int,
    s: int,
    n: int,
    sigma2: float,
    trials: int,
    seed: int,
    prior: str = "gauss",
    alphas: Sequence[float] = ALPHA_GRID,
) -> tuple[Estimate, float]:
    """Lasso* over the paper's α grid (sklearn normalisation), on common contexts: the best
    ``(Estimate of E‖ŵ − w*‖², α)``.

    Source: [czz24] Sec. 3 / App. B (the tuned Lasso baseline).  Noiseless with ``n > d`` the
    smallest α wins (the shrinkage error is O(α²)):

    >>> e, a = lasso_star(d=4, s=1, n=12, sigma2=0.0, trials=10, seed=0, prior="sign")
    >>> a, e.mean < 1e-6, e.n
    (0.0001, True, 10)
    """
    st = SparseRegressionICL.isotropic(d=d, s=s, n=n, sigma2=sigma2, prior=prior)
    p = sample_sparse_prompts(st, trials, rng=np.random.default_rng(seed))
    best: tuple[Estimate, float] | None = None
    for a in alphas:
        e = estimate_from_samples(np.sum((lasso_fit(p.X, p.y, a) - p.w) ** 2, axis=1))
        if best is None or e.mean < best[0].mean:
            best = (e, float(a))
    assert best is not None
    return best


@functools.lru_cache(maxsize=64)
def tuned_risks_cached(
    d: int,
    s: int,
    n: int,
    sigma2: float,
    trials: int,
    seed: int,
    prior: str = "sign",
    steps: int = 200,
    Sigma_diag: tuple[float, ...] | None = None,
    sigma_support: float | None = None,
) -> TunedRisks:
    """:func:`tuned_risks` memoised per process (the theorem checks share their rows).

    >>> a = tuned_risks_cached(4, 1, 12, 0.0, 10, 0, steps=10)
    >>> a is tuned_risks_cached(4, 1, 12, 0.0, 10, 0, steps=10)
    True
    """
    return tuned_risks(
        d=d,
        s=s,
        n=n,
        sigma2=sigma2,
        trials=trials,
        seed=seed,
        prior=prior,
        steps=steps,
        Sigma_diag=Sigma_diag,
        sigma_support=sigma_support,
    )


def _gram_errors(
    G: np.ndarray, b: np.ndarray, scale: np.ndarray | None, w: np.ndarray, eta: float, steps: int
) -> tuple[np.ndarray, np.ndarray]:
    """``‖ŵ^t − w*‖²`` and ``‖ŵ^t‖`` for t = 0..steps of GD from 0 on ``½wᵀGw − bᵀw`` (the same
    recursion as :func:`.predictors.pregd_path` / ``gd_path``, from the sufficient statistics),
    each of shape ``(steps + 1, B)``."""
    A = np.eye(G.shape[-1]) - eta * G
    v = np.zeros_like(b)
    out = np.empty((steps + 1, len(b)))
    norms = np.zeros((steps + 1, len(b)))
    out[0] = np.sum(w**2, axis=1)
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(1, steps + 1):
            v = (A @ v[..., None])[..., 0] + eta * b
            wk = v if scale is None else scale * v
            out[k] = np.sum((wk - w) ** 2, axis=1)
            norms[k] = np.linalg.norm(wk, axis=1)
    return out, norms


def tuned_risks_gram(
    *,
    d: int,
    s: int,
    n: int,
    sigma2: float,
    trials: int,
    seed: int,
    prior: str = "sign",
    steps: int = 200,
    chunk: int = 25,
) -> TunedRisks:
    """:func:`tuned_risks` for Σ = I at large ``n·trials``: contexts drawn ``chunk`` at a time and
    reduced to their sufficient statistics ``Σ̂ = XᵀX/n``, ``r̂ = Xᵀy/n`` (pre-GD: ``Ĝ = R̂Σ̂R̂``,
    ``b̃ = r̂²``; GD: ``Σ̂``, ``r̂``; ridge ``(Σ̂ + λI)⁻¹r̂``; OLS ``Σ̂⁻¹r̂``, n ≥ d + 2), so memory stays
    ``O(chunk·n·d)`` and each Gram matrix is formed once.  Same oracle tuning (η-grid, t ≤ steps,
    a step t not a candidate where some context's iterate blew up) on a different random stream
    than :func:`tuned_risks`.

    With ``trials ≤ chunk`` both draw the same contexts, so the two routes (sufficient statistics
    here, literal contexts there) agree:

    >>> kw = dict(d=4, s=1, n=12, sigma2=0.25, trials=10, seed=0, steps=10)
    >>> g, t = tuned_risks_gram(**kw), tuned_risks(**kw)
    >>> bool(np.isclose(g.pre_gd.mean, t.pre_gd.mean)), g.pre_gd_arg == t.pre_gd_arg
    (True, True)
    """
    st = SparseRegressionICL.isotropic(d=d, s=s, n=n, sigma2=sigma2, prior=prior)
    trials = check_int("trials", trials, minimum=2)
    if n < d + 2:
        raise ValueError(f"n must be ≥ d + 2 = {d + 2} here (OLS = Σ̂⁻¹r̂), got n = {n}")
    rng = np.random.default_rng(seed)
    paths: dict[str, dict[float, list[np.ndarray]]] = {"pre_gd": {}, "gd": {}}
    blown: dict[str, dict[float, np.ndarray]] = {"pre_gd": {}, "gd": {}}
    dropped: dict[str, set[float]] = {"pre_gd": set(), "gd": set()}
    ridge: dict[float, list[np.ndarray]] = {}
    ols: list[np.ndarray] = []
    done = 0
    while done < trials:
        p = sample_sparse_prompts(st, min(chunk, trials - done), rng=rng)
        done += len(p.w)
        S = np.einsum("bni,bnj->bij", p.X, p.X) / n
        r = np.einsum("bni,bn->bi", p.X, p.y) / n
        eye = np.eye(d)
        for lam in LAMBDA_GRID:
            wr = np.linalg.solve(S + lam * eye, r[..., None])[..., 0]
            ridge.setdefault(lam, []).append(np.sum((wr - p.w) ** 2, axis=1))
        ols.append(np.sum((np.linalg.solve(S, r[..., None])[..., 0] - p.w) ** 2, axis=1))
        for method in ("pre_gd", "gd"):
            G, b, scale = (
                (r[:, :, None] * S * r[:, None, :], r * r, r)
                if method == "pre_gd"
                else (S, r, None)
            )
            lmax = np.linalg.eigvalsh(G)[:, -1]
            per = (
                np.max(np.abs(r), axis=1) * np.linalg.norm(b, axis=1)
                if method == "pre_gd"
                else np.linalg.norm(b, axis=1)
            )
            for eta in ETA_GRID:
                k = candidate_steps(eta, lmax, steps)
                errs, norms = _gram_errors(G, b, scale, p.w, eta, k)
                bad = np.ones(steps + 1, dtype=bool)
                bad[: k + 1] = np.any(
                    blown_up(norms, eta * np.arange(k + 1)[:, None] * per[None, :]), axis=1
                )
                full = np.full((steps + 1, len(p.w)), np.inf)
                full[: k + 1] = errs
                if k < steps or np.any(bad):
                    dropped[method].add(eta)
                paths[method].setdefault(eta, []).append(full)
                blown[method][eta] = blown[method].get(eta, np.zeros(steps + 1, bool)) | bad
    best: dict[str, tuple[Estimate, tuple[float, int]]] = {}
    for method in ("pre_gd", "gd"):
        cands = []
        for eta, parts in paths[method].items():
            errs = np.concatenate(parts, axis=1)
            with np.errstate(invalid="ignore"):
                mean = np.where(blown[method][eta], np.inf, errs.mean(axis=1))
            t = int(np.argmin(mean))
            cands.append((estimate_from_samples(errs[t]), (float(eta), t)))
        if not cands:
            raise DivergedContextsError(method, float(max(ETA_GRID)), 1.0, trials)
        best[method] = min(cands, key=lambda c: c[0].mean)
    lam_best = min(ridge, key=lambda lam: float(np.mean(np.concatenate(ridge[lam]))))
    return TunedRisks(
        pre_gd=best["pre_gd"][0],
        pre_gd_arg=best["pre_gd"][1],
        gd=best["gd"][0],
        gd_arg=best["gd"][1],
        ridge=estimate_from_samples(np.concatenate(ridge[lam_best])),
        ridge_arg=float(lam_best),
        ols=estimate_from_samples(np.concatenate(ols)),
        diverged_eta={m: tuple(sorted(v)) for m, v in dropped.items()},
    )
