"""collins24 training experiments (spec 003 §3.2, S1-S6, shrunk to 1000 steps with the lr decaying
to 0.05 of its start): one literal softmax unit (or linear attention) trained online on fresh
prompts from the sphere (:func:`sims.collins24.data.sample_batch`), MSE against
the noiseless target f(x_q).

Imports only ``theory.settings`` and sims modules (the trained model never sees a prediction).
``PRESETS`` maps a name to ``(UnitExperiment, TrainConfig)``; ``run(preset, **overrides)``
returns a :class:`sims.train.TrainResult` whose ``extra`` holds ``M_final`` (d×d), ``M_avg``
(average over the last 20 % of steps, the spec's estimator), ``M_trace`` (step, ‖M‖₂) and
``M_snapshots`` (M at the same steps) over training, and ``value``; ``trained(preset, seed=...)``
is the same run through the config-keyed cache.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from sims.cache import cached
from sims.collins24.data import sample_batch
from sims.config import TrainConfig
from sims.models.softmax_unit import LinearAttentionUnit, SoftmaxUnit
from sims.parallel import torch_threads
from sims.train import TrainResult, make_generator, train
from theory.collins24.settings import LipschitzTasks, SoftmaxWindowSetting, SphereCovariates

__all__ = [
    "UnitExperiment",
    "PRESETS",
    "SIGMAS",
    "L_RUNS",
    "ELLIPSOID_SIGMA",
    "LINKS",
    "run",
    "trained",
    "resolve",
    "sample_batch",
    "CurvatureNotResolved",
]


#: App. J.1's low-rank classes g(aᵀBᵀx): F^lin_B (+ offset), F^2_B, F^cos_B.
LINKS = ("linear", "square", "cos4")


@dataclass(frozen=True, kw_only=True, slots=True)
class UnitExperiment:
    """What is trained on which data model (optimiser, steps and seed: the TrainConfig)."""

    setting: SoftmaxWindowSetting  # collins24 data model (covariates, tasks, n, sigma^2)
    model: str = "softmax"  # "softmax" (SoftmaxUnit) or "linear" (LinearAttentionUnit)
    tied: bool = True  # softmax: M_K ≡ M_Q (spec §1.6)
    init: float = 1e-3  # softmax: M_K = M_Q = init·I
    train_value: bool = False  # True: the value scalar is trained (negative control only)
    include_query: bool = False  # True: the query attends to itself (negative control only)
    avg_frac: float = 0.2  # average M over the last avg_frac of the steps
    link: str = "linear"  # low-rank tasks f = g(aᵀBᵀx) + offset, App. J.1: g = "linear",
    # "square" (F^2_B) or "cos4" (F^cos_B, cos(4·))

    def __post_init__(self) -> None:
        if self.model not in ("softmax", "linear"):
            raise ValueError(f"model must be 'softmax' or 'linear', got {self.model!r}")
        if self.link not in LINKS:
            raise ValueError(f"link must be one of {LINKS} (App. J.1), got {self.link!r}")
        if self.link != "linear" and self.setting.tasks.kind != "lowrank":
            raise ValueError(
                f"link={self.link!r} needs tasks kind='lowrank' (App. J.1), got "
                f"{self.setting.tasks.kind!r}"
            )


def _iso(
    sigma: float, task: str = "affine", *, d: int = 5, n: int = 20, L: float = 1.0
) -> SoftmaxWindowSetting:
    return SoftmaxWindowSetting.isotropic(d=d, n=n, L=L, sigma2=sigma * sigma, task=task)


# fmt: off
#: S1/S2 noise levels (spec 003 §3.2).
SIGMAS = (1.0, 0.3, 0.1, 0.01)
#: Figs. 3-4's L panel at sigma = 0.01, n = 20: (L, preset); L = 0.03, 0.1 are S3's pretraining
#: runs, L = 1 is S1's sigma = 0.01 run; the quick tier drops L = 0.01.
L_RUNS = ((0.01, "f34_L0.01"), (0.03, "s3_L0.03"), (0.1, "s3_L0.1"), (1.0, "s1_sigma0.01"))
#: Lemma B.5's ellipsoid shape Σ = diag(1, 2, 3, 4, 5)/3 (the lemB5_ellipsoid preset).
ELLIPSOID_SIGMA = (1 / 3, 2 / 3, 1.0, 4 / 3, 5 / 3)
_C = TrainConfig(optimizer="adam", lr=0.05, steps=1000, batch_size=256, lr_decay=0.05,
                 dtype="float64", log_every=10)
PRESETS: dict[str, tuple[UnitExperiment, TrainConfig]] = {
    **{f"s1_sigma{s:g}": (UnitExperiment(setting=_iso(s)), _C) for s in SIGMAS},
    **{f"s2_relu_sigma{s:g}": (UnitExperiment(setting=_iso(s, "relu")), _C) for s in SIGMAS},
    # S4: linear attention, M init 0, Adam 1e-2
    # S3: pretraining at L ∈ {0.03, 0.1} with sigma = 0.01 (L = 1 is s1_sigma0.01)
    **{f"s3_L{L:g}": (UnitExperiment(setting=_iso(0.01, L=L)), _C) for L in (0.03, 0.1)},
    # Fig. 1 at one point: hills f = cos(1.5 theta - b) on the circle, n = 20, sigma = 0.1
    "fig1_d2": (UnitExperiment(setting=_iso(0.1, "hills", d=2, L=1.5)), _C),
    "s4_linear": (UnitExperiment(setting=_iso(0.01), model="linear"),
                  dataclasses.replace(_C, lr=0.01)),
    # S5: d = 6, k = 2, n = 20, sigma = 0, Assumption 4.3 with c_u = c_v = 1, untied M
    "s5_lowrank": (UnitExperiment(setting=SoftmaxWindowSetting(
        covariates=SphereCovariates(d=6, kind="lowrank", k=2), tasks=LipschitzTasks(kind="lowrank"),
        n=20, sigma2=0.0), tied=False), _C),
    # S5 at the paper's size (App. J.1, Fig. 9): d = 10, k = 2, n = 50, sigma = 0.01 (--full)
    "s5_paper": (UnitExperiment(setting=SoftmaxWindowSetting(
        covariates=SphereCovariates(d=10, kind="lowrank", k=2),
        tasks=LipschitzTasks(kind="lowrank"), n=50, sigma2=1e-4), tied=False),
        dataclasses.replace(_C, steps=3000)),
    # S6: constant tasks b ~ U[-1, 1], sigma = 0.5, d = 3, n = 20
    "s6_constant": (UnitExperiment(setting=_iso(0.5, "constant", d=3, L=0.0)), _C),
    "smoke": (UnitExperiment(setting=_iso(0.1)), dataclasses.replace(_C, steps=20, log_every=5)),
    # Figs. 3-4 ablations at sigma = 0.01 (L = 1, n = 20 is s1_sigma0.01; L = 0.03, 0.1: s3_L*):
    # several L, several n, and the non-isotropic sphere law U^d_S ("acg", S = diag(1..d))
    "f34_L0.01": (UnitExperiment(setting=_iso(0.01, L=0.01)), _C),
    **{f"f34_n{n}": (UnitExperiment(setting=_iso(0.01, n=n)), _C) for n in (5, 10, 50, 100, 200)},
    **{f"f34_acg_L{L:g}": (UnitExperiment(setting=SoftmaxWindowSetting(
        covariates=SphereCovariates(d=5, kind="acg"), tasks=LipschitzTasks(kind="affine", L=L),
        n=20, sigma2=1e-4)), _C) for L in (0.01, 0.1, 1.0)},
    # ... and the paper's Fig. 3 class on U^d_S, the 2-ReLU (--full; L = 0.01 kept for the record)
    **{f"f34_acg_relu_L{L:g}": (UnitExperiment(setting=SoftmaxWindowSetting(
        covariates=SphereCovariates(d=5, kind="acg"), tasks=LipschitzTasks(kind="relu", L=L),
        n=20, sigma2=1e-4)), _C) for L in (0.01, 0.03, 0.1, 1.0)},
    # S2's report-only cosine extension: f = cos(L v^T x), sigma in {.1, .01} at L = 1, and
    # L in {0.5, 2, 4} at sigma = 0.01 (non-monotone in L at n = 20)
    **{f"s2_cos_sigma{s:g}": (UnitExperiment(setting=_iso(s, "cos")), _C) for s in (0.1, 0.01)},
    **{f"s2_cos_L{L:g}": (UnitExperiment(setting=_iso(0.01, "cos", L=L)), _C) for L in (0.5, 2, 4)},
    # Fig. 5's pretrain/test matrix (--full): cosine units at mismatched L (n = 20; L = 1 is
    # s2_cos_sigma0.01), and the paper's n = 200 units (affine n = 200 is f34_n200)
    **{f"f5_cos_L{L:g}": (UnitExperiment(setting=_iso(0.01, "cos", L=L)), _C) for L in (0.25, 8)},
    **{f"f5_{t}_n200": (UnitExperiment(setting=_iso(0.01, t, n=200)), _C) for t in ("relu", "cos")},
    "f5_cos_L0.25_n200": (UnitExperiment(setting=_iso(0.01, "cos", n=200, L=0.25)), _C),
    # Fig. 9's offset class (App. J.1's "+2") at the S5 size, softmax and linear attention (--full)
    **{f"f9_offset_{m}": (UnitExperiment(setting=SoftmaxWindowSetting(
        covariates=SphereCovariates(d=6, kind="lowrank", k=2),
        tasks=LipschitzTasks(kind="lowrank", offset=2.0), n=20, sigma2=0.0), tied=False,
        model=m), _C if m == "softmax" else dataclasses.replace(_C, lr=0.01))
       for m in ("softmax", "linear")},
    # ... and App. J.1's F^2_B, F^cos_B classes (even in aᵀBᵀx: linear attention's best is M = 0)
    **{f"f9_{g}_{m}": (UnitExperiment(setting=SoftmaxWindowSetting(
        covariates=SphereCovariates(d=6, kind="lowrank", k=2), tasks=LipschitzTasks(kind="lowrank"),
        n=20, sigma2=0.0), tied=False, model=m, link=g),
        _C if m == "softmax" else dataclasses.replace(_C, lr=0.01))
       for g in ("square", "cos4") for m in ("softmax", "linear")},
    # Lemma B.5 on the ellipsoid x = Σ^{1/2}x̃ (Assumption 3.3), S1's σ = 0.01 task (--full)
    "lemb5_ellipsoid": (UnitExperiment(setting=SoftmaxWindowSetting(
        covariates=SphereCovariates(d=5, kind="ellipsoid", Sigma_diag=ELLIPSOID_SIGMA),
        tasks=LipschitzTasks(kind="affine"), n=20, sigma2=1e-4)), _C),
    # Fig. 3's cosine panel on U^d_S (report-only, as S2's cosine; --full)
    **{f"f34_acg_cos_L{L:g}": (UnitExperiment(setting=SoftmaxWindowSetting(
        covariates=SphereCovariates(d=5, kind="acg"), tasks=LipschitzTasks(kind="cos", L=L),
        n=20, sigma2=1e-4)), _C) for L in (0.25, 1.0, 4.0)},
    # the spec's S1 / S4 length (--full): 3000 steps, lr cosine-decayed to 0.05x (the spec's
    # 0.999 per step ends at 0.999^3000 = 0.05x)
    **{f"s1p_sigma{s:g}": (UnitExperiment(setting=_iso(s)), dataclasses.replace(_C, steps=3000))
       for s in SIGMAS},
    "s4p_linear": (UnitExperiment(setting=_iso(0.01), model="linear"),
                   dataclasses.replace(_C, lr=0.01, steps=3000)),
}
# fmt: on


def resolve(
    preset: str | tuple[UnitExperiment, TrainConfig], **overrides: Any
) -> tuple[UnitExperiment, TrainConfig]:
    """The (experiment, config) of a preset with overrides of TrainConfig or experiment fields."""
    exp, cfg = PRESETS[preset] if isinstance(preset, str) else preset
    tr = {k: v for k, v in overrides.items() if k in TrainConfig.__dataclass_fields__}
    ex = {k: v for k, v in overrides.items() if k not in tr}
    return (
        dataclasses.replace(exp, **ex) if ex else exp,
        dataclasses.replace(cfg, **tr) if tr else cfg,
    )


def build_model(exp: UnitExperiment) -> torch.nn.Module:
    d = exp.setting.d
    if exp.model == "linear":
        return LinearAttentionUnit(d)
    return SoftmaxUnit(
        d,
        tied=exp.tied,
        init=exp.init,
        train_value=exp.train_value,
        include_query=exp.include_query,
    )


def run(
    preset: str | tuple[UnitExperiment, TrainConfig], *, threads: int = 1, **overrides: Any
) -> TrainResult:
    """Train one configuration (torch on ``threads`` threads, restored afterwards)."""
    with torch_threads(threads):
        return _run(*resolve(preset, **overrides))


def trained(preset: str, *, seed: int = 0, **overrides: Any) -> TrainResult:
    """The run of ``preset`` with ``seed`` through the config-keyed cache (one training per
    configuration, shared by the tests and the report)."""
    exp, cfg = resolve(preset, seed=seed, **overrides)
    return cached("softmax_window", (exp, cfg), lambda: run((exp, cfg)))


def _run(exp: UnitExperiment, cfg: TrainConfig) -> TrainResult:
    gen = make_generator(cfg.seed)
    model = build_model(exp)
    start = max(0, int(round(cfg.steps * (1 - exp.avg_frac))))
    acc: list[np.ndarray] = []
    norms: list[tuple[int, float]] = []
    snaps: list[np.ndarray] = []
    chunk = 25  # fresh prompts for every step, drawn 25 steps at a time (amortised sampling)
    buf: list[Any] = []

    def objective(m: torch.nn.Module, g: torch.Generator, step: int) -> torch.Tensor:
        if step >= start:
            acc.append(m.M().detach().numpy().copy())  # type: ignore[operator]
        if step % cfg.log_every == 0:
            Mt = m.M().detach()  # type: ignore[operator]
            norms.append((step, float(torch.linalg.matrix_norm(Mt, 2))))
            snaps.append(Mt.numpy().copy())
        if step % chunk == 0 or not buf:
            Zc, tc = sample_batch(exp.setting, cfg.batch_size * chunk, g, link=exp.link)
            buf[:] = [Zc.split(cfg.batch_size), tc.split(cfg.batch_size)]
        Z, target = buf[0][step % chunk], buf[1][step % chunk]
        return torch.mean((m(Z) - target) ** 2)

    res = train(model, objective, cfg, generator=gen)
    M_final = model.M().detach().numpy().copy()  # type: ignore[operator]
    res.extra.update(
        M_final=M_final,
        M_avg=np.mean(acc, axis=0) if acc else M_final,
        M_trace=np.array(norms),
        M_snapshots=np.array(snaps),
        value=float(getattr(model, "value", torch.ones(())).detach()),
        experiment=exp,
    )
    return res


# ------------------------------------------------------------------ schedule derived from a setting
#: Phase 1 (transient): Adam's step in parameter units.  Adam divides each gradient coordinate by
#: its RMS, so a weight moves ≈ this much per step whatever the curvature: from K = 1e-3·I to the
#: basin (√ω ≤ 8 on the drawn range) in ≤ ~160 steps.
TRANSIENT_LR = 0.05
#: Logged steps (log_every = 10) in the window on which phase 1's drift is measured (100 steps).
TRANSIENT_WINDOW = 10
#: Prompts of the common batch on which the curvature is measured (finite differences).
CURVATURE_PROMPTS = 8192
#: Independent minibatches on which the gradient noise of the coordinate is measured.
NOISE_BATCHES = 16
#: Relative finite-difference step of the curvature measurement.
CURVATURE_STEP = 0.02
#: Phase 2's window covers this many relaxation times of the coordinate (τ = σ_g/(lr h)).
MIXING_TIMES = 5.0
#: Shortest averaging window (steps) of phase 2.
MIN_WINDOW = 100
#: Upper bounds (steps) of the two phases (``cfg.steps`` with the stop hook).
MAX_TRANSIENT, MAX_AVERAGE = 1000, 3000


def _omega(m: torch.nn.Module) -> float:
    return float(torch.trace(m.M().detach())) / m.M().shape[0]  # type: ignore[operator]


def _drift(w: np.ndarray) -> float:
    """Relative trend of ``w`` over a window: mean of its second half minus its first (so Adam's
    step-to-step jitter averages out), over the window's mean."""
    half = len(w) // 2
    return abs(float(w[half:].mean() - w[:half].mean())) / max(abs(float(w.mean())), 1e-12)


def coordinate_curvature(
    model: torch.nn.Module, exp: UnitExperiment, gen: torch.Generator, batch: int
) -> tuple[float, float]:
    """(h, σ_g) of one diagonal weight θ = K₁₁ at the model's parameters (by the rotation
    invariance of U^d every diagonal weight is alike): h = ∂²𝓛/∂θ² by a central finite difference
    of the loss on one common batch of ``CURVATURE_PROMPTS`` prompts, σ_g = the standard deviation
    of ∂𝓛_B/∂θ over ``NOISE_BATCHES`` independent minibatches of ``batch`` prompts (the noise
    Adam's second moment normalises by).  Measured on the model's own data: no prediction."""
    K: torch.Tensor = model.M_K  # type: ignore[assignment]
    theta = float(K.detach()[0, 0])
    step = CURVATURE_STEP * max(abs(theta), 1e-3)
    Z, t = sample_batch(exp.setting, CURVATURE_PROMPTS, gen, link=exp.link)
    vals = []
    with torch.no_grad():
        for s in (-step, 0.0, step):
            K[0, 0] = theta + s
            vals.append(float(torch.mean((model(Z) - t) ** 2)))
        K[0, 0] = theta
    h = (vals[0] - 2 * vals[1] + vals[2]) / step**2
    grads = []
    for _ in range(NOISE_BATCHES):
        Zb, tb = sample_batch(exp.setting, batch, gen, link=exp.link)
        model.zero_grad(set_to_none=True)
        torch.mean((model(Zb) - tb) ** 2).backward()
        grads.append(float(K.grad[0, 0]))  # type: ignore[index]
    model.zero_grad(set_to_none=True)
    return h, float(np.std(grads, ddof=1))


class CurvatureNotResolved(ValueError):
    """The transient ended where the measured curvature ``h``, gradient noise ``sigma_g`` or ω̂ is
    not positive (a loss flat within its sampling noise at ``CURVATURE_PROMPTS`` prompts): no step
    size can be derived there.  A check reports such a setting as not resolvable within the budget
    (``skipped`` with these numbers), never as a pass or a fail."""

    def __init__(self, h: float, sigma_g: float, omega: float) -> None:
        self.h, self.sigma_g, self.omega = h, sigma_g, omega
        super().__init__(
            f"curvature h={h:g}, gradient noise sigma_g={sigma_g:g} and omega={omega:g} must be "
            "> 0 at the end of the transient (a loss flat within its sampling noise: no step size "
            "can be derived)"
        )


def derived_step(
    h: float, sigma_g: float, omega: float, d: int, rtol: float, fraction: float
) -> tuple[float, int]:
    """Phase 2's Adam step size and averaging window from the coordinate's curvature ``h`` and
    gradient noise ``sigma_g`` [derived].

    Near the optimum the gradient is noise-dominated, so Adam's update of a coordinate is
    ≈ lr·g/σ_g: SGD with step η = lr/σ_g.  On the local quadratic ½h(θ − θ*)², SGD's stationary
    variance is η σ_g²/(2h) = lr σ_g/(2h) and its relaxation time τ = 1/(η h) = σ_g/(lr h) steps.
    ω̂ = tr(KᵀK)/d is quadratic in the d² weights, so the jitter biases the window's mean of ω̂
    by ≈ d·lr σ_g/(2h); keeping that ≤ ``fraction``·``rtol``·ω gives
    lr = 2·fraction·rtol·ω·h/(d σ_g) (capped at ``TRANSIENT_LR``).  The window's mean of the d
    diagonal weights has standard error ≈ σ_g/(h √(W d)); relative to ω (dω/ω = 2dθ/θ) it is ≤
    ``fraction``·``rtol`` when W ≥ (2σ_g/(h θ fraction rtol))²/d, and the window spans
    ``MIXING_TIMES`` relaxation times: W = max(that, MIXING_TIMES·τ, ``MIN_WINDOW``)."""
    if not (h > 0 and sigma_g > 0 and omega > 0):
        raise CurvatureNotResolved(h, sigma_g, omega)
    lr = min(TRANSIENT_LR, 2 * fraction * rtol * omega * h / (d * sigma_g))
    tau = sigma_g / (lr * h)
    theta = math.sqrt(omega)
    w_se = (2 * sigma_g / (h * theta * fraction * rtol)) ** 2 / d
    window = int(math.ceil(max(w_se, MIXING_TIMES * tau, MIN_WINDOW) / 10) * 10)
    return lr, window


def run_derived(
    exp: UnitExperiment, *, seed: int, rtol: float, batch: int, fraction: float
) -> TrainResult:
    """Train ``exp`` with the schedule derived from its setting:

    1. transient: Adam at ``TRANSIENT_LR`` (constant) until ω̂'s drift over the last
       ``TRANSIENT_WINDOW`` logged steps is ≤ ``rtol`` (the stop hook of :func:`sims.train.train`);
    2. the curvature h and gradient noise σ_g of a diagonal weight measured there
       (:func:`coordinate_curvature`) give phase 2's step size and window (:func:`derived_step`);
    3. averaging: a fresh Adam at that step size until ω̂'s drift over the last window is ≤
       ``fraction``·``rtol`` (stop hook); M̄ = the mean of M over that window.  A derived window
       longer than the budget ``MAX_AVERAGE`` cannot be filled, so the criterion cannot be met:
       phase 2 is not run and the run is returned unconverged (``converged`` False,
       ``average_steps`` 0; M̄ and the drift are the transient's last ``TRANSIENT_WINDOW`` logged
       steps').

    ``extra`` holds ``M_avg``, ``M_final``, ``M_trace`` (step, ‖M‖₂), ``M_snapshots`` and the
    ``schedule`` (step sizes, h, σ_g, window, steps of each phase, the final drift)."""
    d = exp.setting.d
    gen = make_generator(seed)
    model = build_model(exp)
    hist: list[np.ndarray] = []
    norms: list[tuple[int, float]] = []
    snaps: list[np.ndarray] = []
    chunk = 25
    offset = [0]

    def objective(m: torch.nn.Module, g: torch.Generator, step: int) -> torch.Tensor:
        Mt = m.M().detach()  # type: ignore[operator]
        hist.append(Mt.numpy().copy())
        if step % 10 == 0:
            norms.append((offset[0] + step, float(torch.linalg.matrix_norm(Mt, 2))))
            snaps.append(Mt.numpy().copy())
        if step % chunk == 0:
            Zc, tc = sample_batch(exp.setting, batch * chunk, g, link=exp.link)
            buf[:] = [Zc.split(batch), tc.split(batch)]
        return torch.mean((m(buf[0][step % chunk]) - buf[1][step % chunk]) ** 2)

    buf: list[Any] = []

    def om(m: torch.nn.Module, step: int) -> dict[str, float]:
        return {"omega": _omega(m)}

    def stop_after(window: int, limit: float) -> Any:
        def stop(trace: list[dict[str, float]]) -> bool:
            k = window // 10
            if len(trace) < k:
                return False
            return _drift(np.array([r["omega"] for r in trace[-k:]])) <= limit

        return stop

    cfg1 = TrainConfig(
        optimizer="adam",
        lr=TRANSIENT_LR,
        steps=MAX_TRANSIENT,
        batch_size=batch,
        dtype="float64",
        log_every=10,
        seed=seed,
    )
    r1 = train(
        model,
        objective,
        cfg1,
        generator=gen,
        callback=om,
        stop=stop_after(10 * TRANSIENT_WINDOW, rtol),
    )
    steps1 = int(r1.extra.get("stopped_at", MAX_TRANSIENT))
    omega1 = _omega(model)
    h, sg = coordinate_curvature(model, exp, gen, batch)
    lr2, window = derived_step(h, sg, omega1, d, rtol, fraction)
    if window > MAX_AVERAGE:  # no full window fits the budget: the criterion cannot be met
        r2, steps2, avg = r1, 0, 10 * TRANSIENT_WINDOW
        trace = np.array([r["omega"] for r in r1.extra["trace"]])[-TRANSIENT_WINDOW:]
    else:
        offset[0] = steps1
        hist.clear()
        cfg2 = dataclasses.replace(cfg1, lr=lr2, steps=MAX_AVERAGE)
        stop = stop_after(window, fraction * rtol)
        r2 = train(model, objective, cfg2, generator=gen, callback=om, stop=stop)
        steps2 = int(r2.extra.get("stopped_at", MAX_AVERAGE))
        avg = window
        trace = np.array([r["omega"] for r in r2.extra["trace"]])[-(window // 10) :]
    drift = _drift(trace)
    M_final = model.M().detach().numpy().copy()  # type: ignore[operator]
    M_avg = np.mean(hist[-avg:], axis=0)
    extra = dict(
        M_final=M_final,
        M_avg=M_avg,
        M_trace=np.array(norms),
        M_snapshots=np.array(snaps),
        value=1.0,
        experiment=exp,
        schedule={
            "transient_step_size": TRANSIENT_LR,
            "transient_steps": steps1,
            "curvature": h,
            "gradient_noise": sg,
            "omega_after_transient": omega1,
            "step_size": lr2,
            "window": window,
            "average_steps": steps2,
            "steps": steps1 + steps2,
            "batch": batch,
            "omega_drift_over_window": drift,
            "phase2_run": steps2 > 0,
            "converged": steps2 > 0 and drift <= fraction * rtol,
        },
    )
    return dataclasses.replace(r2, extra=extra)
