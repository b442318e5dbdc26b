"""Vectorised, batched Monte Carlo with standard errors.

:func:`mc_mean` is the generic engine: a user-supplied ``draw(rng, b)`` returns the per-sample
values of ``b`` independent draws (shape ``(b,)`` or ``(b, k)`` for ``k`` quantities at once, e.g.
paired differences under common random numbers); the engine accumulates sums in float64 chunk by
chunk (constant memory) and returns :class:`Estimate` records with ``se = sd/√n``.

It never calls a theory risk function: independence of the Monte Carlo route is the point.
Fast specialised estimators (sufficient statistics for GD-family predictors) live in
:mod:`numerics.mc_fast`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from theory.common.protocols import Estimate
from theory.settings import check_int

__all__ = [
    "mc_mean",
    "mc_means",
    "estimate_from_samples",
    "DEFAULT_BATCH",
    "MAX_RAISE",
    "Target",
]

#: Draws per chunk; large enough to amortise Python overhead, small enough for the L2/L3 cache.
DEFAULT_BATCH = 8192
#: A check asking for power draws at most this many times its mode's sample.
MAX_RAISE = 4

#: A power target for :func:`mc_means`: one standard error for all columns, one per column, a
#: function of the current column means returning either, or ``None`` (no raise).
Target = float | Sequence[float] | np.ndarray | Callable[[np.ndarray], Any] | None


def estimate_from_samples(values: np.ndarray) -> Estimate:
    """Mean and standard error of iid samples (``se = sd/√n``, ``ddof = 1``).

    ``values`` is any array of ≥ 2 finite samples (flattened).

    >>> e = estimate_from_samples([1.0, 2.0, 3.0, 4.0])   # sd = √(5/3), se = sd/2
    >>> e.mean, round(e.se, 6), e.n
    (2.5, 0.645497, 4)
    """
    v = np.asarray(values, dtype=float).ravel()
    if v.size < 2:
        raise ValueError(f"need ≥ 2 samples for a standard error, got {v.size}")
    if not np.all(np.isfinite(v)):
        raise ValueError("Monte Carlo samples contain NaN or inf")
    return Estimate(float(v.mean()), float(v.std(ddof=1) / math.sqrt(v.size)), int(v.size))


def mc_means(
    draw: Callable[[np.random.Generator, int], np.ndarray],
    n: int,
    *,
    rng: np.random.Generator,
    batch: int = DEFAULT_BATCH,
    target_se: Target = None,
    max_factor: int = MAX_RAISE,
) -> tuple[Estimate, ...]:
    """Estimates of ``E[draw]`` for each of the ``k`` columns ``draw`` returns.

    ``draw(rng, b)`` must return ``(b,)`` or ``(b, k)`` finite values, one row per independent draw.
    Sums are accumulated with a shifted (first-chunk mean) two-pass formula so the variance does not
    cancel catastrophically.

    ``target_se`` (one per column, or one for all) asks for power: after ``n`` draws, while a
    column's standard error exceeds its target, the same stream draws on (so the first ``n``
    draws, and a run that had its power already, are unchanged), up to ``max_factor·n`` draws in
    all; the estimates then record ``requested = n``.  Where the scale is known only after
    sampling (e.g. 2 % of a column's own mean), ``target_se`` may be a function of the current
    column means returning the targets (a target ≤ 0 asks nothing of its column).  A check
    whose estimate still misses its power reports it (``numerics.testing.mc_agreement``:
    skipped, with the sample it would need and about how long it would take: each estimate
    records the wall time of its draws in ``seconds``, the same for every column since they are
    drawn together).

    Returns one :class:`~theory.common.protocols.Estimate` per column.

    Examples
    --------
    Two columns from one draw, ``E U = 1/2`` and ``E U² = 1/3`` for ``U ~ U[0, 1]``:

    >>> draw = lambda rng, b: rng.random(b)[:, None] ** np.array([1, 2])
    >>> u1, u2 = mc_means(draw, 20_000, rng=np.random.default_rng(0))
    >>> bool(abs(u1.mean - 1 / 2) < 5 * u1.se), bool(abs(u2.mean - 1 / 3) < 5 * u2.se), u1.n
    (True, True, 20000)

    Power: se 0.02 for N(0, 1) needs ~2750 draws; 100 asked, so at most 4 × 100 are drawn:

    >>> (e,) = mc_means(lambda rng, b: rng.standard_normal(b), 100,
    ...                 rng=np.random.default_rng(0), target_se=0.02)
    >>> e.n, e.requested
    (400, 100)

    Unit-variance draws of mean 1 asked for se ≤ 2 % of their own mean need about 2500 draws; from
    100 the sample is raised to its cap, 4 × 100, and records the raise:

    >>> (est,) = mc_means(lambda r, b: 1.0 + r.standard_normal(b), 100,
    ...                   rng=np.random.default_rng(0), target_se=lambda m: 0.02 * abs(m))
    >>> est.n, est.requested, est.seconds > 0
    (400, 100, True)
    """
    n = check_int("n (Monte Carlo sample size)", n, minimum=2)
    batch = check_int("batch", batch, minimum=1)
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    shift = None
    s1 = s2 = None
    done = 0
    t0 = time.perf_counter()
    goal = n
    while done < goal:
        b = min(batch, goal - done)
        v = np.asarray(draw(rng, b), dtype=float)
        if v.ndim == 1:
            v = v[:, None]
        if v.ndim != 2 or v.shape[0] != b:
            raise ValueError(f"draw(rng, {b}) must return shape ({b},) or ({b}, k), got {v.shape}")
        if not np.all(np.isfinite(v)):
            raise ValueError("Monte Carlo draw returned NaN or inf")
        if shift is None:
            shift = v.mean(axis=0)
            s1 = np.zeros(v.shape[1])
            s2 = np.zeros(v.shape[1])
        c = v - shift
        s1 += c.sum(axis=0)
        s2 += np.einsum("ij,ij->j", c, c)
        done += b
        if done == goal and target_se is not None and goal < max_factor * n:
            goal = _raised_goal(done, shift, s1, s2, target_se, max_factor * n)
    assert shift is not None and s1 is not None and s2 is not None
    mean_c = s1 / done
    var = np.maximum(s2 - done * mean_c**2, 0.0) / (done - 1)
    se = np.sqrt(var / done)
    asked = n if done > n else 0
    secs = time.perf_counter() - t0
    return tuple(
        Estimate(float(shift[j] + mean_c[j]), float(se[j]), done, asked, secs)
        for j in range(len(se))
    )


def _raised_goal(
    done: int,
    shift: np.ndarray,
    s1: np.ndarray,
    s2: np.ndarray,
    target: float | Sequence[float] | np.ndarray | Callable[[np.ndarray], Any],
    cap: int,
) -> int:
    """The draws needed for every column's se to reach its target (x1.1), capped at ``cap``."""
    mean_c = s1 / done
    var = np.maximum(s2 - done * mean_c**2, 0.0) / (done - 1)
    goal = target(shift + mean_c) if callable(target) else target
    tgt = np.broadcast_to(np.asarray(goal, dtype=float), var.shape)
    need = done
    for v, t in zip(var, tgt, strict=True):
        if t > 0 and math.sqrt(v / done) > t:
            need = max(need, math.ceil(1.1 * v / t**2))
    return min(cap, need)


def mc_mean(
    draw: Callable[[np.random.Generator, int], np.ndarray],
    n: int,
    *,
    rng: np.random.Generator,
    batch: int = DEFAULT_BATCH,
    target_se: Target = None,
    max_factor: int = MAX_RAISE,
) -> Estimate:
    """Estimate ``E[draw]`` for a scalar per-sample value (``target_se``: see :func:`mc_means`).

    >>> est = mc_mean(lambda rng, b: rng.standard_normal(b) ** 2, 20_000,
    ...               rng=np.random.default_rng(0))
    >>> abs(est.mean - 1.0) < 5 * est.se
    True
    """
    (est,) = mc_means(draw, n, rng=rng, batch=batch, target_se=target_se, max_factor=max_factor)
    return est
