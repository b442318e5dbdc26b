"""[zwb24] the engine of the GD-β fit at a drawn setting (App. G, Theorem 6.3): GD-β (model
(5.1)) trained from ``(Γ, β) = 0`` by accelerated gradient descent on its loss written through
the sufficient statistics of sampled contexts (the query averaged in closed form over its data
model).

Checks do not call it: :func:`sims.zwb24.train.trained` with a :class:`GdBetaFitRecipe` trains
through it and caches by setting, recipe and seed (the statistics of a stream are cached here,
:func:`moments`, so that pilot fits' prompts are reused).  It imports no prediction and nothing
of ``sims.zwb24`` but the sampling engine :mod:`sims.zwb24.rawfit`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from sims.cache import cached
from sims.config import DriftStop
from sims.data import TorchPrompts
from sims.zwb24.rawfit import context_moments
from theory.settings import LinearRegressionICL

__all__ = [
    "GdBetaFitRecipe",
    "gd_beta_fit_recipe",
    "fit_gd_beta",
    "moments",
    "pooled_moments",
    "DRIFT_FRACTION",
    "WINDOW",
    "MAX_STEPS",
]

#: GD stops when the parameters moved less than this fraction of the row tolerance (relative to
#: their norm) over one window of steps (drift over a window << tolerance).
DRIFT_FRACTION = 0.01
#: Steps per window of that criterion (and between curvature updates).
WINDOW = 50
#: The step bound (a count; the criterion normally stops far earlier): a fit that reaches it
#: records ``converged = False``.
MAX_STEPS = 200_000


@dataclass(frozen=True, kw_only=True, slots=True)
class GdBetaFitRecipe:
    """How GD-β is fitted at a drawn setting (part of the cache key of
    :func:`sims.zwb24.train.trained`): the sufficient statistics of ``prompts`` fresh contexts of
    the run's own stream (the seed) pooled with those of the ``reuse`` streams (``(prompts,
    seed)`` pairs, e.g. the pilot fits' prompts: :func:`pooled_moments`), and the stopping rule:
    the parameters' relative drift over ``stop.window`` steps at most ``stop.fraction ·
    stop.tol`` (``stop.tol``: the tightest judged row's tolerance), within ``stop.max_steps``
    steps.  :func:`gd_beta_fit_recipe` builds the route's own rule."""

    prompts: int
    stop: DriftStop
    reuse: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.prompts, bool) or not isinstance(self.prompts, int) or self.prompts < 0:
            raise ValueError(f"prompts must be an integer >= 0, got {self.prompts!r}")


def gd_beta_fit_recipe(
    *, prompts: int, tol: float, reuse: Sequence[tuple[int, int]] = ()
) -> GdBetaFitRecipe:
    """The fit's recipe serving tolerance ``tol``: drift below DRIFT_FRACTION·tol over WINDOW
    steps, at most MAX_STEPS steps.

    >>> r = gd_beta_fit_recipe(prompts=1000, tol=0.03, reuse=[(500, 7)])
    >>> r.stop.threshold == DRIFT_FRACTION * 0.03, r.reuse
    (True, ((500, 7),))
    """
    stop = DriftStop(tol=tol, max_steps=MAX_STEPS, fraction=DRIFT_FRACTION, window=WINDOW)
    return GdBetaFitRecipe(
        prompts=int(prompts), stop=stop, reuse=tuple((int(n), int(s)) for n, s in reuse)
    )


def _moments(st: LinearRegressionICL, prompts: int, seed: int) -> dict[str, np.ndarray]:
    """Sample means over ``prompts`` fresh contexts of the statistics the GD-β loss needs: with
    ``t = β_task``, ``s = Xᵀy/N``, ``S = XᵀX/N`` (flattened): t, s, S, ttᵀ, tsᵀ, t⊗S, ssᵀ, s⊗S,
    S⊗S (:func:`~sims.zwb24.rawfit.context_moments`)."""

    def parts(p: TorchPrompts, s: torch.Tensor, S: torch.Tensor) -> dict[str, torch.Tensor]:
        t = p.beta
        return {
            "t": t.sum(0),
            "s": s.sum(0),
            "S": S.sum(0),
            "tt": t.T @ t,
            "ts": t.T @ s,
            "tS": t.T @ S,
            "ss": s.T @ s,
            "sS": s.T @ S,
            "SS": S.T @ S,
        }

    return context_moments(st, prompts, seed, parts)


def _loss_fn(m: Mapping[str, np.ndarray], H: np.ndarray):
    """``θ = (vec Γ, β) ↦ E[(y_q − x_qᵀ v)²] − σ²`` with ``v = β + Γ(s − Sβ)`` (the GD-β predictor,
    model (5.1)), the query averaged in closed form over its data model (x_q ~ N(0, H),
    y_q = x_qᵀβ_task + ε): ``tr(H E[eeᵀ])``, ``e = (t − β) − Γc``, ``c = s − Sβ`` -- a polynomial
    in (Γ, β) whose coefficients are the context sample moments (sufficient statistics)."""
    T = {k: torch.from_numpy(np.array(v, dtype=float)) for k, v in m.items()}
    Ht = torch.from_numpy(np.array(H, dtype=float))
    d = Ht.shape[0]
    tS = T["tS"].reshape(d * d, d)  # [(i, j), k] = E[t_i S_jk]
    sS = T["sS"].reshape(d * d, d)  # [(i, j), k] = E[s_i S_jk]
    # [(i, j), (k, l)] = E[S_ik S_jl]
    SS = T["SS"].reshape(d, d, d, d).permute(0, 2, 1, 3).reshape(d * d, d * d)
    S1 = T["S"].reshape(d, d)

    def f(th: torch.Tensor) -> torch.Tensor:
        G, b = th[: d * d].reshape(d, d), th[d * d :]
        Ec = T["s"] - S1 @ b
        A = T["tt"] - torch.outer(T["t"], b) - torch.outer(b, T["t"]) + torch.outer(b, b)
        B = T["ts"] - (tS @ b).reshape(d, d) - torch.outer(b, Ec)
        sSb = (sS @ b).reshape(d, d)
        C = T["ss"] - sSb - sSb.T + (SS @ torch.outer(b, b).reshape(-1)).reshape(d, d)
        M = A - B @ G.T - G @ B.T + G @ C @ G.T
        return torch.trace(Ht @ M)

    return f


def moments(st: LinearRegressionICL, prompts: int, seed: int) -> dict[str, np.ndarray]:
    """:func:`_moments` cached by configuration (a pilot's statistics are reused by the fit)."""
    return cached(
        "ltb-moments", (st, int(prompts), int(seed)), lambda: _moments(st, int(prompts), int(seed))
    )


def pooled_moments(
    st: LinearRegressionICL, streams: Sequence[tuple[int, int]]
) -> tuple[dict[str, np.ndarray], int]:
    """The sufficient statistics of the prompts of all ``streams`` (``(prompts, seed)`` pairs)
    together: their means weighted by prompts (means of disjoint samples pool exactly), and the
    total prompts."""
    parts = [(n, moments(st, n, s)) for n, s in streams if n > 0]
    if not parts:
        raise ValueError(f"streams must hold at least one prompt, got {list(streams)!r}")
    total = sum(n for n, _ in parts)
    keys = parts[0][1].keys()
    pooled = {k: np.sum([n * m[k] for n, m in parts], axis=0) / total for k in keys}
    return pooled, total


def _fit(st: LinearRegressionICL, streams: tuple[tuple[int, int], ...], stop: DriftStop) -> dict:
    m, prompts = pooled_moments(st, streams)
    f = _loss_fn(m, st.Sigma_x)
    d = st.d
    x = torch.zeros(d * d + d, dtype=torch.float64)  # Γ(0) = 0, β(0) = 0 (the model's init)
    y, k, fx = x.clone(), 0, float(f(x))
    steps, restarts, etas, prev, drift = 0, 0, [], x.clone(), math.inf
    while steps < stop.max_steps:
        lam = float(torch.linalg.eigvalsh(torch.autograd.functional.hessian(f, x)).max())
        eta = 1.0 / max(lam, 1e-12)  # step from the curvature at the start of the window
        etas.append(eta)
        for _ in range(stop.window):
            yy = y.detach().requires_grad_(True)
            (g,) = torch.autograd.grad(f(yy), yy)
            xn = (y - eta * g).detach()
            fn = float(f(xn))
            if fn > fx:  # adaptive restart (O'Donoghue & Candes 2015): momentum off
                k, y, restarts = 0, x.clone(), restarts + 1
                continue
            k += 1
            y = xn + (k / (k + 3)) * (xn - x)
            x, fx = xn, fn
        steps += stop.window
        drift = float(torch.linalg.norm(x - prev)) / max(float(torch.linalg.norm(x)), 1e-12)
        prev = x.clone()
        if drift < stop.threshold:
            break
    G, b = x[: d * d].reshape(d, d).numpy(), x[d * d :].numpy()
    return {
        "converged": bool(drift < stop.threshold),
        "Gamma": G.copy(),
        "beta": b.copy(),
        "steps": steps,
        "step_size": min(etas),
        "step_size_last": etas[-1],
        "prompts": prompts,
        "streams": [list(x) for x in streams],
        "drift": drift,
        "drift_threshold": stop.threshold,
        "window": stop.window,
        "step_bound": stop.max_steps,
        "restarts": restarts,
        "method": "accelerated gradient descent (Nesterov, adaptive restart) from (0, 0) on "
        "the GD-beta loss in sufficient statistics (context sample moments, query "
        "averaged over x_q ~ N(0, H)); step 1/lambda_max of the Hessian per "
        f"{stop.window}-step window; stop when the parameters drift < "
        f"{stop.fraction} x tolerance over a window",
    }


def fit_gd_beta(st: LinearRegressionICL, recipe: GdBetaFitRecipe, *, seed: int) -> dict[str, Any]:
    """GD-β trained at ``st`` from ``(Γ, β) = 0`` on the sufficient statistics of
    ``recipe.prompts`` fresh prompts of stream ``seed`` pooled with those of ``recipe.reuse``
    (:func:`pooled_moments`); uncached: checks call :func:`sims.zwb24.train.trained`.  Returns
    the fitted ``Gamma``, ``beta`` and the fit's record (``converged``, ``drift``, ``steps``,
    step sizes, prompts, streams)."""
    streams = (*recipe.reuse, (recipe.prompts, int(seed)))
    return _fit(st, streams, recipe.stop)
