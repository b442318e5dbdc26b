"""[zwb24] the engine of the fits in sufficient statistics at a drawn setting (§4 Table 1): the raw
LTB (3.3) and LSA (3.4) trained by accelerated gradient descent on their loss in sufficient
statistics (the loss and its gradient: :mod:`numerics.zwb24.rawfit`), with their test risks on
fresh prompts; and the sampling those fits (and the GD-β fit of :mod:`sims.zwb24.gd_beta_fit`)
share: :func:`draw_prompts64`, :func:`context_moments`.

Checks do not call it: :func:`sims.zwb24.train.trained` with a :class:`RawFitRecipe` trains
through it and caches by setting, recipe and seed.  It imports no prediction and nothing of
``sims.zwb24`` (the trainer imports it).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from numerics.zwb24.rawfit import RawLoss, curvature, np_unpack
from sims.config import DriftStop
from sims.data import TorchPrompts, embed, sample_prompts
from sims.models.ltb import LTB
from sims.train import make_generator
from theory.settings import LinearRegressionICL

__all__ = [
    "RawFitRecipe",
    "raw_fit_recipe",
    "fit_pair",
    "FitRun",
    "raw_moments",
    "effective_vector",
    "draw_prompts64",
    "context_moments",
    "LTB_FIT_PROMPTS",
    "CHART_EDGE",
]

#: Context prompts whose sufficient statistics the raw LTB/LSA fit uses at the row's preset
#: tolerance (a tightened row scales it by (rtol / tightened)^2, like FIT_PROMPTS).  Measured at
#: 50 000: the fitted Gamma sits 1.0-1.8 % from Gamma* (d = 1-3, N = 2-5), too close to
#: C17_GAMMA_RTOL = 2.5 %; the error scales like 1/sqrt(prompts), so 4x that budget halves it.
LTB_FIT_PROMPTS = 200_000
#: Init of the raw weights (spec C17: i.i.d. N(0, 0.1^2), the preset's ``init_std``).
LTB_INIT_STD = 0.1
#: The fit stops when the effective parameters (a, b, Gamma, phi), relative to their norm, drift
#: less than this fraction of the tightest row tolerance over one window and the Hessian of the
#: loss has no direction of negative curvature below ``-SADDLE_FRACTION * lambda_max`` (a
#: plateau near a saddle is not convergence).
LTB_DRIFT_FRACTION = 0.01
#: Negative-curvature threshold of that criterion, relative to lambda_max.
SADDLE_FRACTION = 1e-4
#: Steps per window (curvature and stop criterion re-evaluated once per window).
LTB_WINDOW = 100
#: The step bound (a count; the criterion normally stops far earlier): a fit that reaches it
#: records ``converged = False``.
LTB_MAX_STEPS = 100_000
#: |v_2| below this (relative to |u||v|) at convergence: the effective chart's edge (b -> inf),
#: the centring-at-infinity trap of the beta* = 0 control.
CHART_EDGE = 1e-3


@dataclass(frozen=True, kw_only=True, slots=True)
class RawFitRecipe:
    """How the raw LTB and LSA are fitted at a drawn setting (part of the cache key of
    :func:`sims.zwb24.train.trained`): the context ``prompts`` whose sufficient statistics the
    loss uses, the fresh prompts of the final test risk (``test_size``) and of the initial one
    (``init_size``), and the stopping rule: the effective parameters' relative drift over
    ``stop.window`` steps at most ``stop.fraction · stop.tol`` (``stop.tol``: the tightest judged
    row's tolerance) with no direction of curvature below ``−SADDLE_FRACTION·λ_max``, within
    ``stop.max_steps`` steps.  :func:`raw_fit_recipe` builds the route's own rule."""

    prompts: int
    test_size: int
    init_size: int
    stop: DriftStop

    def __post_init__(self) -> None:
        for name in ("prompts", "test_size", "init_size"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 2:
                raise ValueError(f"{name} must be an integer >= 2, got {v!r}")


def raw_fit_recipe(*, prompts: int, tol: float, test_size: int, init_size: int) -> RawFitRecipe:
    """The fit's recipe serving tolerance ``tol``: drift below LTB_DRIFT_FRACTION·tol over
    LTB_WINDOW steps, at most LTB_MAX_STEPS steps.

    >>> r = raw_fit_recipe(prompts=1000, tol=0.02, test_size=500, init_size=500)
    >>> r.stop.threshold == LTB_DRIFT_FRACTION * 0.02, r.stop.max_steps == LTB_MAX_STEPS
    (True, True)
    """
    stop = DriftStop(
        tol=tol, max_steps=LTB_MAX_STEPS, fraction=LTB_DRIFT_FRACTION, window=LTB_WINDOW
    )
    return RawFitRecipe(
        prompts=int(prompts), test_size=int(test_size), init_size=int(init_size), stop=stop
    )


def draw_prompts64(st: LinearRegressionICL, b: int, gen: torch.Generator) -> TorchPrompts:
    """``b`` prompts of ``st`` drawn in float32 and returned in float64, for the sufficient
    statistics and test risks of the fits at a drawn setting (stated rule): torch's float32
    normals are 3.5× faster on this CPU (d = 5, N = 10: 0.14 s vs 0.48 s per 10⁵ prompts), and
    what float32 changes is far below what these fits resolve -- a draw's rounding is 6·10⁻⁸
    relative, and the tail cut of torch's CPU float32 normals (Box–Muller on 24-bit uniforms,
    |z| ≤ 5.8) moves a fourth moment by ~10⁻⁵ relative, while the fits' moments carry a sampling
    error ≥ 1/√(4·10⁶) = 5·10⁻⁴ relative.  Every product and sum after the draw is float64."""
    p = sample_prompts(st, b, generator=gen, dtype=torch.float32)
    return TorchPrompts(
        X=p.X.double(), y=p.y.double(), xq=p.xq.double(), yq=p.yq.double(), beta=p.beta.double()
    )


#: Prompts per sampling chunk of :func:`context_moments` (the draw order of its stream).
MOMENT_CHUNK = 100_000


def context_moments(
    st: LinearRegressionICL,
    prompts: int,
    seed: int,
    parts: Callable[[TorchPrompts, torch.Tensor, torch.Tensor], dict[str, torch.Tensor]],
) -> dict[str, np.ndarray]:
    """Sample means over ``prompts`` fresh contexts (stream ``make_generator(seed)``, drawn by
    :func:`draw_prompts64` in chunks of MOMENT_CHUNK) of the statistics whose chunk sums
    ``parts(p, s, S)`` returns, with ``s = Xᵀy/N`` (b, d) and ``S = XᵀX/N`` flattened (b, d²)."""
    d, N = st.d, st.N
    gen = make_generator(seed)
    acc: dict[str, np.ndarray] = {}
    done = 0
    while done < prompts:
        b = min(MOMENT_CHUNK, prompts - done)
        p = draw_prompts64(st, b, gen)
        Xt = p.X.transpose(1, 2)
        s = (Xt @ p.y.unsqueeze(-1)).squeeze(-1) / N
        S = (Xt @ p.X).reshape(b, d * d).contiguous() / N
        for k, v in parts(p, s, S).items():
            acc[k] = acc.get(k, 0.0) + v.numpy()
        done += b
    return {k: v / prompts for k, v in acc.items()}


def effective_vector(P: Mapping[str, torch.Tensor], d: int) -> tuple[np.ndarray, float]:
    """The effective parameters ``(a, b, Γ, φ)`` of raw LTB/LSA weights (chart (★), keys
    ``W_K, W_Q, W_V, W_P`` and, with the MLP, ``W_1, W_2``) flattened, and ``|v₂|/(|u||v|)`` (the
    distance from the chart's edge ``v₂ = 0``, where ``b`` is undefined: NaN there)."""
    D = d + 1
    U = torch.eye(D, dtype=torch.float64)
    if "W_1" in P:
        U = U + P["W_2"] @ P["W_1"]
    u = U.T[:, d]
    v = (P["W_P"] @ P["W_V"]).T @ u
    Q = P["W_K"].T @ P["W_Q"]
    v2 = float(v[d])
    rel = abs(v2) / max(float(torch.linalg.norm(u) * torch.linalg.norm(v)), 1e-300)
    if v2 == 0.0:
        return np.full(d * d + 3 * d, np.nan), rel
    a, b = u[:d], -v[:d] / v2
    G, phi = v2 * Q[:d, :d].T, v2 * Q[d, :d]
    return torch.cat([a, b, G.reshape(-1), phi]).detach().numpy(), rel


_MOMENTS: dict[Any, dict[str, np.ndarray]] = {}


def _ltb_moments(st: LinearRegressionICL, prompts: int, seed: int) -> dict[str, np.ndarray]:
    """:func:`raw_moments`, kept for the last two keys (the LTB and LSA fits of one
    setting, seed and budget share their prompts)."""
    key = (st, prompts, seed)
    if key not in _MOMENTS:
        while len(_MOMENTS) >= 2:
            _MOMENTS.pop(next(iter(_MOMENTS)))
        _MOMENTS[key] = raw_moments(st, prompts, seed)
    return _MOMENTS[key]


def raw_moments(st: LinearRegressionICL, prompts: int, seed: int) -> dict[str, np.ndarray]:
    """Sample means over ``prompts`` fresh contexts of ``F Fᵀ``, ``F tᵀ``, ``t tᵀ`` with ``t`` the
    task vector and ``F = (1, vec S, s, q)``, ``S = XᵀX/N``, ``s = Xᵀy/N``, ``q = ‖y‖²/N`` (the
    statistics the raw LTB's prediction ``x_qᵀ g(F)`` is linear in;
    :func:`context_moments`)."""
    N = st.N

    def parts(p: TorchPrompts, s: torch.Tensor, S: torch.Tensor) -> dict[str, torch.Tensor]:
        q = (p.y**2).sum(1, keepdim=True) / N
        F = torch.cat([torch.ones(S.shape[0], 1, dtype=S.dtype), S, s, q], dim=1)
        t = p.beta
        return {"FF": F.T @ F, "Ft": F.T @ t, "tt": t.T @ t}

    return context_moments(st, prompts, seed, parts)


def _fit_ltb(
    st: LinearRegressionICL, mlp: bool, prompts: int, seed: int, stop: DriftStop
) -> dict[str, Any]:
    d = st.d
    L = RawLoss(_ltb_moments(st, prompts, seed + 40_000), st.Sigma_x, d, mlp)
    gen = make_generator(seed)
    D = d + 1
    n = (6 if mlp else 4) * D * D
    # the preset's init: every raw weight i.i.d. N(0, 0.1^2) from the run's seed (the order of
    # sims.models.ltb.LTB.init_normal: W_K, W_Q, W_V, W_P, W_1, W_2)
    x = (LTB_INIT_STD * torch.randn(n, generator=gen, dtype=torch.float64)).numpy()
    x0 = x.copy()
    rng = np.random.default_rng(seed)
    y, k, fx = x.copy(), 0, L.value(x)
    steps, restarts, etas = 0, 0, []
    prev, _ = _eff_vec_np(np_unpack(x, d, mlp), d)
    drift, lam, lam_min = math.inf, 0.0, -math.inf
    while steps < stop.max_steps:
        lam, lam_min = curvature(L, x, rng)
        if steps and drift < stop.threshold and lam_min > -SADDLE_FRACTION * lam:
            break
        eta = 1.0 / max(lam, 1e-12)  # step from the curvature at the start of the window
        etas.append(eta)
        for _ in range(stop.window):
            _, g = L.grad(y)
            xn = y - eta * g
            fn = L.value(xn)
            if fn > fx:  # adaptive restart (O'Donoghue & Candes 2015): momentum off; a
                if k == 0:  # plain gradient step that does not descend halves the step (for
                    # the rest of the window: rounding at the minimum)
                    eta *= 0.5
                k, y, restarts = 0, x.copy(), restarts + 1
                continue
            k += 1
            y = xn + (k / (k + 3)) * (xn - x)
            x, fx = xn, fn
        steps += stop.window
        cur, _ = _eff_vec_np(np_unpack(x, d, mlp), d)
        drift = float(np.linalg.norm(cur - prev)) / max(float(np.linalg.norm(cur)), 1e-12)
        prev = cur
    P, P0 = np_unpack(x.copy(), d, mlp), np_unpack(x0, d, mlp)
    _, edge = _eff_vec_np(P, d)

    def named(Q: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {(f"attn.{k2}" if k2[2] in "KQVP" else k2): v for k2, v in Q.items()}

    return {
        "params": named(P),
        "init_params": named(P0),
        "steps": steps,
        "converged": steps < stop.max_steps,
        "step_size": etas[0],
        "step_size_last": etas[-1],
        "prompts": prompts,
        "drift": drift,
        "drift_threshold": stop.threshold,
        "window": stop.window,
        "step_bound": stop.max_steps,
        "lambda_min_over_max": lam_min / max(lam, 1e-300),
        "restarts": restarts,
        "chart_v2_relative": edge,
        "loss": fx + st.noise_var,
        "method": "accelerated gradient descent (Nesterov, adaptive restart) on the raw "
        "weights from the preset's N(0, 0.1^2) init, loss in sufficient statistics "
        "(context sample moments of (1, X'X/N, X'y/N, |y|^2/N), query averaged over "
        "x_q ~ N(0, H)); step 1/rho (spectral radius of the Hessian) per "
        f"{stop.window}-step window; stop when the effective parameters drift < "
        f"{stop.fraction} x tolerance over a window and the Hessian has no "
        f"curvature below -{SADDLE_FRACTION} x rho",
    }


def _eff_vec_np(P: Mapping[str, np.ndarray], d: int) -> tuple[np.ndarray, float]:
    """:func:`effective_vector` for numpy weights."""
    return effective_vector({k2: torch.from_numpy(np.asarray(v)) for k2, v in P.items()}, d)


class FitRun:
    """A raw LTB/LSA fit in the shape the table-1 check reads from a training run: ``params``,
    ``extra["init_params"]``, ``extra["test_risk"]`` and ``extra["init_test_risk"]`` (mean, se of
    ``(ŷ − y)²`` over fresh prompts, the torch model of :mod:`sims.models.ltb` loaded with the
    weights) and ``extra["fit"]`` (the fit's record)."""

    def __init__(self, params: dict[str, np.ndarray], extra: dict[str, Any]) -> None:
        self.params, self.extra = params, extra


def _pair_risks(
    st: LinearRegressionICL, Ps: Sequence[tuple[Mapping[str, np.ndarray], bool]], n: int, seed: int
) -> list[tuple[float, float]]:
    """Mean and se of ``(ŷ − y)²`` of each ``(weights, mlp)`` on the same ``n`` fresh prompts (one
    stream: ``make_generator(seed)``, drawn by :func:`draw_prompts64`)."""
    models = []
    for P, mlp in Ps:
        m = LTB(st.d, mlp=mlp, dtype=torch.float64)
        m.load_state_dict({k2: torch.from_numpy(np.array(v)) for k2, v in P.items()})
        models.append(m)
    gen = make_generator(seed)
    vals: list[list[torch.Tensor]] = [[] for _ in models]
    done = 0
    with torch.no_grad():
        while done < n:
            b = min(50_000, n - done)
            p = draw_prompts64(st, b, gen)
            Z = embed(p.X, p.y, p.xq)
            for v, m in zip(vals, models, strict=True):
                v.append(((m(Z) - p.yq) ** 2).double())
            done += b
    out = []
    for v in vals:
        t = torch.cat(v)
        out.append((float(t.mean()), float(t.std() / math.sqrt(n))))
    return out


def fit_pair(st: LinearRegressionICL, recipe: RawFitRecipe, *, seed: int) -> tuple[FitRun, FitRun]:
    """Raw LTB and LSA trained at ``st`` by :func:`_fit_ltb` on the same prompts, with their test
    risks on the same fresh prompts: ``(ltb, lsa)`` (uncached: checks call
    :func:`sims.zwb24.train.trained`)."""
    fits = [_fit_ltb(st, mlp, recipe.prompts, seed, recipe.stop) for mlp in (True, False)]
    # fresh test prompts: the streams of sims.zwb24.train's torch runs (seed + 20000, + 30000),
    # shared by the two models
    risk = _pair_risks(
        st,
        [(f["params"], m) for f, m in zip(fits, (True, False), strict=True)],
        recipe.test_size,
        seed + 20_000,
    )
    init = _pair_risks(
        st,
        [(f["init_params"], m) for f, m in zip(fits, (True, False), strict=True)],
        recipe.init_size,
        seed + 30_000,
    )
    ltb, lsa = (
        FitRun(
            f["params"],
            {
                "init_params": f["init_params"],
                "test_risk": r,
                "init_test_risk": r0,
                "fit": {k2: v for k2, v in f.items() if k2 not in ("params", "init_params")},
            },
        )
        for f, r, r0 in zip(fits, risk, init, strict=True)
    )
    return ltb, lsa
