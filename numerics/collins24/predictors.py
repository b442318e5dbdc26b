"""[collins24] literal predictors and Monte Carlo risk estimators (a route: samples prompts and
applies the predictor; never calls a theory risk function).

* :func:`softmax_predict` -- ŷ = Σ_i y_i softmax_i(x_iᵀMx), with the fault knobs
  ``include_query`` (the query attends to itself, label slot 0) and ``value`` (a value scalar
  other than 1);
* :func:`linear_predict` -- ŷ = Σ_i y_i x_iᵀMx;
* :func:`hard_window_predict` -- the §3.1 modified softmax;
* :func:`mc_window_terms` -- A(ω), N(ω), rad, orth from real sphere draws;
* :func:`mc_risk` -- E(ŷ − f(x_q))² over sampled prompts;
* :func:`powered_samples` -- estimates from whole sample arrays (conditional means included),
  raised for power.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

import numpy as np

from numerics.collins24.sampling import sample_prompts, sphere
from numerics.montecarlo import MAX_RAISE, Target, estimate_from_samples, mc_mean, mc_means
from theory.collins24.settings import SoftmaxWindowSetting
from theory.common.protocols import Estimate

__all__ = [
    "softmax_weights",
    "softmax_predict",
    "linear_predict",
    "hard_window_predict",
    "mc_window_terms",
    "mc_risk",
    "mc_risk_paired",
    "powered_samples",
]


def _logits(X: np.ndarray, xq: np.ndarray, M: np.ndarray | float) -> np.ndarray:
    M = np.asarray(M, dtype=float)
    if M.ndim == 0:
        return float(M) * np.einsum("bnd,bd->bn", X, xq)
    return np.einsum("bnd,de,be->bn", X, M, xq)


def softmax_weights(
    X: np.ndarray, xq: np.ndarray, M: np.ndarray | float, *, include_query: bool = False
) -> np.ndarray:
    """π_i = softmax_i(x_iᵀMx_q) over the n context tokens (plus the query itself if
    ``include_query``: a fault, the paper's sums run over i ≤ n only) ([collins24] §2 with the
    reparameterisation (4), ``M = M_Kᵀ M_Q``).

    ``X (B, n, d)``, ``xq (B, d)``, ``M`` a scalar or ``(d, d)`` → ``(B, n)`` (rows sum to 1).
    By hand: tokens ``e₁, e₂``, ``x_q = (log 3, 0)``, ``M = 1`` give logits ``(log 3, 0)``, so
    weights ``(3/4, 1/4)``:

    >>> X, xq = np.array([[[1.0, 0.0], [0.0, 1.0]]]), np.array([[np.log(3.0), 0.0]])
    >>> softmax_weights(X, xq, 1.0)
    array([[0.75, 0.25]])
    """
    if include_query:
        X = np.concatenate([X, xq[:, None, :]], axis=1)
    z = _logits(X, xq, M)
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)


def softmax_predict(
    X: np.ndarray,
    y: np.ndarray,
    xq: np.ndarray,
    M: np.ndarray | float,
    *,
    include_query: bool = False,
    value: float = 1.0,
) -> np.ndarray:
    """ŷ = value·Σ_i y_i π_i (the query's label slot is 0 if it attends to itself).

    ``X (B, n, d)``, ``y (B, n)``, ``xq (B, d)`` → ``(B,)``. With the weights ``(3/4, 1/4)`` of
    :func:`softmax_weights`'s example and labels ``(1, 3)``, ``ŷ = 3/4 + 3/4 = 1.5``; at ``M = 0``
    the weights are uniform and ``ŷ`` is the label mean ([collins24] Remark 2.2's ω → 0 limit):

    >>> X, xq = np.array([[[1.0, 0.0], [0.0, 1.0]]]), np.array([[np.log(3.0), 0.0]])
    >>> y = np.array([[1.0, 3.0]])
    >>> softmax_predict(X, y, xq, 1.0), softmax_predict(X, y, xq, 0.0)
    (array([1.5]), array([2.]))
    """
    p = softmax_weights(X, xq, M, include_query=include_query)
    if include_query:
        y = np.concatenate([y, np.zeros((y.shape[0], 1))], axis=1)
    return value * np.sum(p * y, axis=1)


def linear_predict(
    X: np.ndarray, y: np.ndarray, xq: np.ndarray, M: np.ndarray | float
) -> np.ndarray:
    """ŷ_LA = Σ_i y_i x_iᵀMx_q (no 1/n, no normalisation) ([collins24] §3 and Remark 2.2).

    ``X (B, n, d)``, ``y (B, n)``, ``xq (B, d)``, ``M`` a scalar or ``(d, d)`` → ``(B,)``. By hand:
    tokens ``e₁, e₂`` with labels ``(1, 3)``, ``x_q = (log 3, 0)``, ``M = 2``: ``ŷ = 2 log 3``:

    >>> X, xq = np.array([[[1.0, 0.0], [0.0, 1.0]]]), np.array([[np.log(3.0), 0.0]])
    >>> bool(np.allclose(linear_predict(X, np.array([[1.0, 3.0]]), xq, 2.0), 2 * np.log(3.0)))
    True
    """
    return np.sum(y * _logits(X, xq, M), axis=1)


def hard_window_predict(
    X: np.ndarray, y: np.ndarray, xq: np.ndarray, omega: float
) -> tuple[np.ndarray, np.ndarray]:
    """§3.1 modified softmax: the mean label over ‖x_i − x‖ ≤ 1/√ω; returns (ŷ, K) with ŷ = 0
    where the window is empty (K = 0).

    ``X (B, n, d)``, ``y (B, n)``, ``xq (B, d)`` → ``(ŷ (B,), K (B,))``. By hand, ``ω = 1``
    (radius 1) around ``x_q = 0``: tokens at distance 0 and 0.5 are in (labels 1, 3), the one at
    3 is out, so ``ŷ = 2``, ``K = 2``; far from every token the window is empty:

    >>> X = np.array([[[0.0, 0.0], [3.0, 0.0], [0.5, 0.0]]])
    >>> y = np.array([[1.0, 5.0, 3.0]])
    >>> hard_window_predict(X, y, np.zeros((1, 2)), 1.0)
    (array([2.]), array([2]))
    >>> hard_window_predict(X, y, np.full((1, 2), 100.0), 1.0)
    (array([0.]), array([0]))
    """
    inside = np.sum((X - xq[:, None, :]) ** 2, axis=-1) <= 1.0 / omega
    K = inside.sum(axis=1)
    yhat = np.where(K > 0, np.sum(y * inside, axis=1) / np.maximum(K, 1), 0.0)
    return yhat, K


def mc_window_terms(
    omega: float,
    n: int,
    d: int,
    reps: int,
    rng: np.random.Generator,
    *,
    chunk: int = 20_000,
    include_query: bool = False,
    target_se: Target = None,
) -> dict[str, Estimate]:
    """A, N, rad, orth at M = ωI from real draws x_i, x_q ~ U^d (no rotation reduction).
    ``target_se`` (one per column A, N, rad, orth, or one for all; ≤ 0 asks nothing) raises
    the sample for power (:func:`numerics.montecarlo.mc_means`).

    Source: [collins24] App. B.1 (A(ω) = E‖Σπ_ix_i − x‖², N(ω) = EΣπ_i²).

    Returns
    -------
    dict of Estimate with keys ``"A"``, ``"N"``, ``"rad"``, ``"orth"``.

    Examples
    --------
    At ω = 0 the weights are uniform: N = 1/n exactly, and A = 1 + 1/n (E‖x̄‖² = 1/n):

    >>> t = mc_window_terms(0.0, 4, 3, 2000, np.random.default_rng(0))
    >>> t["N"].mean, bool(abs(t["A"].mean - 1.25) < 5 * t["A"].se)
    (0.25, True)
    """

    def draw(g: np.random.Generator, B: int) -> np.ndarray:
        X = sphere(g, (B, n), d)
        xq = sphere(g, (B,), d)
        p = softmax_weights(X, xq, omega, include_query=include_query)
        if include_query:
            X = np.concatenate([X, xq[:, None, :]], axis=1)
        s = 1 - np.einsum("bnd,bd->bn", X, xq)
        return np.stack(
            [
                np.sum((np.einsum("bn,bnd->bd", p, X) - xq) ** 2, axis=1),
                np.sum(p * p, axis=1),
                np.sum(p * s, axis=1) ** 2,
                np.sum(p * p * s * (2 - s), axis=1),
            ],
            axis=1,
        )

    est = mc_means(draw, reps, rng=rng, batch=chunk, target_se=target_se)
    return dict(zip(("A", "N", "rad", "orth"), est, strict=True))


def mc_risk(
    setting: SoftmaxWindowSetting,
    M: np.ndarray | float,
    reps: int,
    rng: np.random.Generator,
    *,
    model: str = "softmax",
    include_query: bool = False,
    value: float = 1.0,
    chunk: int = 20_000,
    target_se: float | None = None,
) -> Estimate:
    """E(ŷ − f(x_q))² over ``reps`` sampled prompts (target noiseless).
    ``target_se`` raises the sample on the same stream, up to ``MAX_RAISE·reps``, while the
    standard error misses it (:func:`numerics.montecarlo.mc_means`; a check passes ``MC_POWER``
    times its prediction).

    Source: [collins24] §2 (the ICL loss 𝓛(M) against the noiseless target); App. B.1.

    Parameters
    ----------
    setting : SoftmaxWindowSetting; M : scalar ω (M = ωI) or (d, d); reps : number of prompts;
    rng : numpy Generator; model : ``"softmax"`` or ``"linear"`` (:func:`linear_predict`)

    Returns
    -------
    Estimate (mean, se, n).

    Examples
    --------
    Against the exact affine risk by quadrature (App. B.1):

    >>> from numerics.collins24.quadrature import affine_risk_quad
    >>> from theory.collins24.settings import SoftmaxWindowSetting
    >>> s = SoftmaxWindowSetting.isotropic(d=3, n=5, L=1.0, sigma2=0.1)
    >>> est = mc_risk(s, 2.0, 2000, np.random.default_rng(0))
    >>> bool(abs(est.mean - affine_risk_quad(2.0, 3, 5, 1.0, 0.1)) < 5 * est.se)
    True
    """
    if model not in ("softmax", "linear"):
        raise ValueError(f"model must be 'softmax' or 'linear', got {model!r}")

    def draw(g: np.random.Generator, B: int) -> np.ndarray:
        p = sample_prompts(setting, B, g)
        if model == "softmax":
            yhat = softmax_predict(p.X, p.y, p.xq, M, include_query=include_query, value=value)
        else:
            yhat = linear_predict(p.X, p.y, p.xq, M)
        return (yhat - p.fq) ** 2

    return mc_mean(draw, reps, rng=rng, batch=chunk, target_se=target_se)


def mc_risk_paired(
    setting: SoftmaxWindowSetting,
    Ms: list[np.ndarray | float],
    reps: int,
    rng: np.random.Generator,
    *,
    chunk: int = 20_000,
) -> tuple[list[Estimate], list[Estimate]]:
    """Softmax risks at several M on common prompts, and the paired differences to ``Ms[0]``.

    Returns
    -------
    (risks, differences): lists of Estimate, one per M; ``differences[0]`` is 0.

    Examples
    --------
    >>> from theory.collins24.settings import SoftmaxWindowSetting
    >>> s = SoftmaxWindowSetting.isotropic(d=3, n=5, L=1.0, sigma2=0.1)
    >>> risks, diffs = mc_risk_paired(s, [1.0, 4.0], 500, np.random.default_rng(0))
    >>> diffs[0].mean, bool(np.isclose(diffs[1].mean, risks[1].mean - risks[0].mean))
    (0.0, True)
    """

    def draw(g: np.random.Generator, B: int) -> np.ndarray:
        p = sample_prompts(setting, B, g)
        e = np.stack([(softmax_predict(p.X, p.y, p.xq, M) - p.fq) ** 2 for M in Ms], axis=1)
        return np.concatenate([e, e - e[:, :1]], axis=1)

    est = mc_means(draw, reps, rng=rng, batch=chunk)
    return list(est[: len(Ms)]), list(est[len(Ms) :])


def powered_samples(
    draw: Callable[[np.random.Generator, int], Sequence[np.ndarray]],
    reps: int,
    rng: np.random.Generator,
    target_se: float | Sequence[float] | Callable[[np.ndarray], Target] | None,
    *,
    max_factor: int = MAX_RAISE,
) -> tuple[Estimate, ...]:
    """Estimates (:func:`numerics.montecarlo.estimate_from_samples`) of the columns that
    ``draw(rng, reps)`` returns, one 1-D sample array per column (their lengths may differ from
    ``reps`` and from each other: a conditional mean keeps the prompts where its event holds),
    raised for power.

    While a column's standard error exceeds its target (``target_se``: one for all, one per
    column, or a function of the current column means; a target ≤ 0 asks nothing), ``draw``
    runs again on the same stream, in chunks of at most ``reps`` prompts, up to
    ``max_factor·reps`` prompts in all; a raised estimate records ``requested`` (its sample
    count after the first ``reps`` prompts) and ``seconds``.  A run that has its power after
    the first call is the single call's :func:`estimate_from_samples`, unchanged.

    Examples
    --------
    Unit-variance draws asked for se ≤ 0.02 need about 2750: from 100 the sample is raised to
    its cap 4 × 100; the second column (a target of 0) is not raised for itself:

    >>> draw = lambda r, b: (r.standard_normal(b), np.ones(b))
    >>> e, one = powered_samples(draw, 100, np.random.default_rng(0), [0.02, 0.0])
    >>> e.n, e.requested, one.mean
    (400, 100, 1.0)
    """
    t0 = time.perf_counter()
    cols = [[np.asarray(c, dtype=float).ravel()] for c in draw(rng, reps)]
    ests = [estimate_from_samples(c[0]) for c in cols]
    first = [e.n for e in ests]
    drawn, cap = reps, max_factor * reps
    while drawn < cap and target_se is not None:
        means = np.array([e.mean for e in ests])
        goal = target_se(means) if callable(target_se) else target_se
        tgt = np.broadcast_to(np.asarray(goal, dtype=float), means.shape)
        factor = max(
            ((e.se / t) ** 2 for e, t in zip(ests, tgt, strict=True) if t > 0 and e.se > t),
            default=0.0,
        )
        if factor == 0.0:
            break
        goal_n = min(cap, math.ceil(1.1 * factor * drawn))
        while drawn < goal_n:
            b = min(reps, goal_n - drawn)
            for c, more in zip(cols, draw(rng, b), strict=True):
                c.append(np.asarray(more, dtype=float).ravel())
            drawn += b
        ests = [estimate_from_samples(np.concatenate(c)) for c in cols]
    if drawn == reps:
        return tuple(ests)
    secs = time.perf_counter() - t0
    return tuple(Estimate(e.mean, e.se, e.n, f, secs) for e, f in zip(ests, first, strict=True))
