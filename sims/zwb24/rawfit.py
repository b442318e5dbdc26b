"""[zwb24] §4 Table 1 at a drawn setting ([zwb24] §4): the raw LTB (3.3) and LSA (3.4) trained
by accelerated gradient descent on their loss in sufficient statistics (the loss and its
gradient: :mod:`numerics.zwb24.rawfit`), with their test risks on fresh prompts.

The Table 1 checks (:mod:`sims.zwb24.table1`) read a fit here where the setting is not the
preset; at the preset they read :func:`sims.zwb24.train.trained`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import torch

from numerics.zwb24.neighbours import c17_levels
from numerics.zwb24.rawfit import RawLoss, curvature, np_unpack
from sims.cache import cached
from sims.data import TorchPrompts, embed
from sims.models.ltb import LTB
from sims.train import make_generator
from sims.zwb24.evidence import context_moments, draw_prompts64
from sims.zwb24.train import PRESETS, effective_vector, trained
from theory.settings import LinearRegressionICL

__all__ = [
    "fit_ltb",
    "FitRun",
    "raw_moments",
    "LTB_FIT_PROMPTS",
    "CHART_EDGE",
    "compute_mlp_gap_table1",
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
#: Safety cap on steps (the criterion normally stops far earlier).
LTB_MAX_STEPS = 100_000
#: |v_2| below this (relative to |u||v|) at convergence: the effective chart's edge (b -> inf),
#: the centring-at-infinity trap of the beta* = 0 control.
CHART_EDGE = 1e-3


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
    :func:`~sims.zwb24.evidence.context_moments`)."""
    N = st.N

    def parts(p: TorchPrompts, s: torch.Tensor, S: torch.Tensor) -> dict[str, torch.Tensor]:
        q = (p.y**2).sum(1, keepdim=True) / N
        F = torch.cat([torch.ones(S.shape[0], 1, dtype=S.dtype), S, s, q], dim=1)
        t = p.beta
        return {"FF": F.T @ F, "Ft": F.T @ t, "tt": t.T @ t}

    return context_moments(st, prompts, seed, parts)


def _fit_ltb(
    st: LinearRegressionICL, mlp: bool, prompts: int, seed: int, tol: float
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
    while steps < LTB_MAX_STEPS:
        lam, lam_min = curvature(L, x, rng)
        if steps and drift < LTB_DRIFT_FRACTION * tol and lam_min > -SADDLE_FRACTION * lam:
            break
        eta = 1.0 / max(lam, 1e-12)  # step from the curvature at the start of the window
        etas.append(eta)
        for _ in range(LTB_WINDOW):
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
        steps += LTB_WINDOW
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
        "converged": steps < LTB_MAX_STEPS,
        "step_size": etas[0],
        "step_size_last": etas[-1],
        "prompts": prompts,
        "drift": drift,
        "lambda_min_over_max": lam_min / max(lam, 1e-300),
        "restarts": restarts,
        "chart_v2_relative": edge,
        "loss": fx + st.noise_var,
        "method": "accelerated gradient descent (Nesterov, adaptive restart) on the raw "
        "weights from the preset's N(0, 0.1^2) init, loss in sufficient statistics "
        "(context sample moments of (1, X'X/N, X'y/N, |y|^2/N), query averaged over "
        "x_q ~ N(0, H)); step 1/rho (spectral radius of the Hessian) per "
        f"{LTB_WINDOW}-step window; stop when the effective parameters drift < "
        f"{LTB_DRIFT_FRACTION} x tolerance over a window and the Hessian has no "
        f"curvature below -{SADDLE_FRACTION} x rho",
    }


def _eff_vec_np(P: Mapping[str, np.ndarray], d: int) -> tuple[np.ndarray, float]:
    """:func:`~sims.zwb24.train.effective_vector` for numpy weights."""
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
    stream: ``make_generator(seed)``, drawn by :func:`~sims.zwb24.evidence.draw_prompts64`)."""
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


def _fit_pair(
    st: LinearRegressionICL, prompts: int, seed: int, tol: float, test_size: int, init_size: int
) -> tuple[FitRun, FitRun]:
    fits = [_fit_ltb(st, mlp, prompts, seed, tol) for mlp in (True, False)]
    # fresh test prompts: the streams of sims.zwb24.train._run (seed + 20000, + 30000), shared
    # by the two models
    risk = _pair_risks(
        st,
        [(f["params"], m) for f, m in zip(fits, (True, False), strict=True)],
        test_size,
        seed + 20_000,
    )
    init = _pair_risks(
        st,
        [(f["init_params"], m) for f, m in zip(fits, (True, False), strict=True)],
        init_size,
        seed + 30_000,
    )
    return tuple(
        FitRun(
            f["params"],
            {  # type: ignore[return-value]
                "init_params": f["init_params"],
                "test_risk": r,
                "init_test_risk": r0,
                "fit": {k2: v for k2, v in f.items() if k2 not in ("params", "init_params")},
            },
        )
        for f, r, r0 in zip(fits, risk, init, strict=True)
    )


def fit_ltb(
    st: LinearRegressionICL, *, prompts: int, seed: int, tol: float, test_size: int, init_size: int
) -> tuple[FitRun, FitRun]:
    """Raw LTB and LSA trained at ``st`` by :func:`_fit_ltb` on the same prompts, with their test
    risks on the same fresh prompts (cached by configuration): ``(ltb, lsa)``."""
    key = ("rawfit-pair", st, int(prompts), int(seed), float(tol), int(test_size), int(init_size))
    return cached("ltb", key, lambda: _fit_pair(st, *key[2:]))


def compute_mlp_gap_table1(*, quick: bool = True, seed: int = 0) -> dict[str, Any]:
    """Table 1 at CPU scale: for the shared-signal preset (``"shared"``) and its
    β* = 0 control (``"zero"``), the test-risk curves of the trained LTB and LSA
    (``curves[name] = (steps, mean, se)``), the reference levels ``R*``, ``inf_LSA`` and the LSA
    floor and ‖β*‖.  The levels are the ones :func:`sims.zwb24.table1.check_table1_train`
    and ``check_table1_train_zero_mean`` judge the trained risks against
    (:func:`numerics.zwb24.neighbours.c17_levels` of the preset)."""
    del quick  # the presets fix the training budget
    out: dict[str, Any] = {}
    for key in ("shared", "zero"):
        suffix = "" if key == "shared" else "_zero"
        setting = PRESETS["c17_ltb" + suffix][0].setting
        lv = c17_levels(setting)
        levels = {k: lv[k] for k in ("R_star", "inf_lsa", "floor")}
        curves = {
            name: trained(f"c17_{name}{suffix}", seed=seed).extra["curve"]
            for name in ("ltb", "lsa")
        }
        out[key] = {
            "levels": levels,
            "curves": curves,
            "beta_norm": float(np.linalg.norm(setting.task_mean)),
        }
    return out
