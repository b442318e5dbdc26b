"""[collins24] the one trainer of the softmax (or linear) attention unit: :func:`trained`
``(setting, recipe, *, seed)``, cached by all three ([collins24] §3).

What is trained is a :class:`~theory.collins24.settings.SoftmaxWindowSetting` (covariates, task
class, n, σ²); how, a :class:`Recipe` (the :class:`~sims.config.TrainConfig` fields, the unit --
softmax or linear attention, tied or not, its start, the low-rank link of App. J.1 -- and the
schedule).  One literal unit is trained online on fresh prompts from the sphere
(:func:`sims.collins24.data.sample_batch`), MSE against the noiseless target f(x_q).  Two
schedules, both ended by the convergence of the invariant the judging check reads (:class:`Stop`:
its drift over a window below a fraction of that check's tolerance, within a step bound):

* ``schedule="planned"`` (the presets; the paper's schedule shrunk to 1000 steps with the lr
  cosine-decayed to 0.05 of its start): the planned steps; M̄ = the mean of M over the last
  ``avg_frac`` of them.  Then, while the invariant's drift over the averaging window (the mean
  of its second half minus its first) exceeds ``fraction · tol``, Adam runs on at the final lr
  and the window grows with it (it spans every step from the planned averaging start), checked
  every ``avg_frac`` of the planned steps, up to ``max_steps`` more steps; M̄ is the mean over
  the window.  A growing window tells a trend from Adam's jitter: the jitter's share of the
  half-means' difference falls like 1/√window, a trend's does not.
* ``schedule="derived"`` (any setting): the step size and window derived from the setting
  (:func:`run_derived`: a transient, then the curvature and gradient noise of a weight measured
  there).

A run that reaches its bound unconverged records it (``extra["stop"]["converged"]`` False, with
the drift, threshold and steps): a judging check reports it ``skipped`` with these numbers,
never ``fail``.

Imports only ``theory`` settings, the tolerance constants of ``numerics.testing`` and sims modules
(the trained model never sees a prediction).  ``extra`` holds ``M_final`` (d×d), ``M_avg``,
``M_trace`` (step, ‖M‖₂), ``M_snapshots`` (M at the same steps), ``value``, ``setting`` and
``stop``.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from numerics.testing import TRAIN_RTOL
from sims.cache import cached
from sims.collins24.data import sample_batch
from sims.config import TrainConfig, resolve_preset
from sims.models.softmax_unit import LinearAttentionUnit, SoftmaxUnit
from sims.parallel import torch_threads
from sims.train import TrainResult, make_generator, train
from theory.collins24.settings import LipschitzTasks, SoftmaxWindowSetting, SphereCovariates
from theory.settings import check_choice, check_int, check_real

__all__ = [
    "Stop",
    "Recipe",
    "PRESETS",
    "SIGMAS",
    "L_RUNS",
    "ELLIPSOID_SIGMA",
    "LINKS",
    "INVARIANTS",
    "DRIFT_FRACTION",
    "BOUND_FACTOR",
    "ADAM",
    "ADAM_LINEAR",
    "ADAM_RELU",
    "ADAM_LOWRANK",
    "ADAM_DIAG",
    "ADAM_TO_ZERO",
    "ADAM_LONG",
    "ADAM_LINEAR_LONG",
    "derived_recipe",
    "judged_by",
    "isotropic",
    "on_acg",
    "lowrank",
    "lowrank_recipe",
    "run",
    "trained",
    "train_unit",
    "resolve",
    "sample_batch",
    "setting_of",
    "CurvatureNotResolved",
]


#: App. J.1's low-rank classes g(aᵀBᵀx): F^lin_B (+ offset), F^2_B, F^cos_B.
LINKS = ("linear", "square", "cos4")
#: What a stopping rule reads: ω̂ = tr(M)/d (isotropic units); the whitened diagonal
#: diag(M)·E x² (the U^d_S and ellipsoid units, judged in the data's metric; E x² over the run's
#: first prompts); ρ(M, B) = ‖B⊥ᵀMB⊥‖₂/σ_min(BᵀMB), B the first k axes (the low-rank units,
#: App. J.1's metric); all of M (a unit whose M tends to 0).
INVARIANTS = ("omega", "whitened", "rho", "M")
#: Convergence: the drift of the invariant over the averaging window, as a fraction f of the
#: judging check's tolerance (the derived schedule's window mean and jitter bias are held to the
#: same fraction).
DRIFT_FRACTION = 0.2
#: The planned schedule's step bound beyond its planned steps, in multiples of them (a count).
BOUND_FACTOR = 4


@dataclass(frozen=True, kw_only=True, slots=True)
class Stop:
    """The stopping rule of a run: its invariant's drift over one averaging window -- the distance
    between the invariant's means over the window's second half and its first half (the half
    means remove Adam's step-to-step jitter, not its slow motion), relative to the window mean's
    norm (``relative``; absolute for an invariant that tends to 0) -- at most
    ``fraction · tol`` (``tol``: the tolerance of the check that judges the run), within
    ``max_steps`` steps beyond the planned ones (the step bound, a count: the derived schedule's
    averaging phase, the planned schedule's extension at its final lr, over which its window
    grows: see the module docstring)."""

    tol: float  # the judging check's tolerance (in the invariant's units)
    max_steps: int  # the step bound beyond the planned steps (a count: no wall clock)
    fraction: float = DRIFT_FRACTION  # of tol: the drift at which the invariant has converged
    invariant: str = "omega"  # one of INVARIANTS
    relative: bool = True  # False: absolute drift (an invariant that tends to 0)

    def __post_init__(self) -> None:
        check_real("stop tol", self.tol, lower=0.0, lower_open=True)
        check_real("stop fraction", self.fraction, lower=0.0, lower_open=True, upper=1.0)
        check_int("stop max_steps", self.max_steps, minimum=1)
        check_choice("stop invariant", self.invariant, INVARIANTS)

    @property
    def threshold(self) -> float:
        return self.fraction * self.tol

    def drift(
        self, Ms: list[np.ndarray] | np.ndarray, *, x2: np.ndarray | None = None, k: int = 0
    ) -> float:
        """The invariant's drift over the window ``Ms`` (the M of each step; ``x2``: E x² per
        axis for ``"whitened"``, ``k``: the rank of B for ``"rho"``)."""
        x = np.array([_invariant(M, self.invariant, x2, k) for M in Ms])
        half = len(x) // 2
        d = float(np.linalg.norm(x[half:].mean(axis=0) - x[:half].mean(axis=0)))
        if not self.relative:
            return d
        return d / max(float(np.linalg.norm(x.mean(axis=0))), 1e-12)


def _invariant(M: np.ndarray, kind: str, x2: np.ndarray | None, k: int) -> np.ndarray:
    if kind == "omega":
        return np.array([np.trace(M) / M.shape[0]])
    if kind == "whitened":
        if x2 is None:
            raise ValueError("the whitened diagonal needs E x² per axis (x2)")
        return np.diag(M) * x2
    if kind == "rho":
        if not 1 <= k < M.shape[0]:
            raise ValueError(f"rho needs the rank k of B, 1 <= k < d; got k={k}")
        S = 0.5 * (M + M.T)
        smin = float(np.min(np.abs(np.linalg.eigvalsh(S[:k, :k]))))
        return np.array([np.linalg.norm(S[k:, k:], 2) / max(smin, 1e-300)])
    return M.reshape(-1)


@dataclass(frozen=True, kw_only=True, slots=True)
class Recipe(TrainConfig):
    """How a collins24 unit is trained (what is trained: the
    :class:`~theory.collins24.settings.SoftmaxWindowSetting`): the
    :class:`~sims.config.TrainConfig` fields, the unit, the schedule and its stopping rule
    (``stop=None``: exactly the planned steps, for runs no check judges).

    A preset's recipe (no training):

    >>> setting, recipe = PRESETS["s1_sigma0.1"]
    >>> setting.n, recipe.model, recipe.tied, recipe.lr, recipe.steps, recipe.stop.max_steps
    (20, 'softmax', True, 0.05, 1000, 4000)
    """

    model: str = "softmax"  # "softmax" (SoftmaxUnit) or "linear" (LinearAttentionUnit)
    tied: bool = True  # softmax: M_K ≡ M_Q (spec §1.6)
    init: float = 1e-3  # softmax: M_K = M_Q = init·I
    train_value: bool = False  # True: the value scalar is trained (negative control only)
    include_query: bool = False  # True: the query attends to itself (negative control only)
    avg_frac: float = 0.2  # planned: average M over the last avg_frac of the steps
    link: str = "linear"  # low-rank tasks f = g(aᵀBᵀx) + offset, App. J.1: g = "linear",
    # "square" (F^2_B) or "cos4" (F^cos_B, cos(4·))
    schedule: str = "planned"  # "planned" (the presets) or "derived" (run_derived)
    stop: Stop | None = None

    def __post_init__(self) -> None:
        TrainConfig.__post_init__(self)
        check_choice("model", self.model, ("softmax", "linear"))
        check_choice("link", self.link, LINKS, paper="App. J.1")
        check_choice("schedule", self.schedule, ("planned", "derived"))
        check_real("avg_frac", self.avg_frac, lower=0.0, lower_open=True, upper=1.0)
        if self.schedule == "derived" and (
            self.stop is None or self.optimizer != "adam" or self.log_every != 10
        ):
            raise ValueError(
                "schedule='derived' needs a stop rule, optimizer 'adam' and log_every 10 "
                f"(got stop={self.stop!r}, optimizer={self.optimizer!r}, "
                f"log_every={self.log_every})"
            )


def _check_pair(setting: SoftmaxWindowSetting, recipe: Recipe) -> None:
    if recipe.link != "linear" and setting.tasks.kind != "lowrank":
        raise ValueError(
            f"link={recipe.link!r} needs tasks kind='lowrank' (App. J.1), got "
            f"{setting.tasks.kind!r}"
        )


def isotropic(
    d: int, n: int, L: float, sigma2: float, task: str = "affine"
) -> SoftmaxWindowSetting:
    """x ~ U^d with tasks of class ``task`` (the theorems' and S1-S4's data model)."""
    return SoftmaxWindowSetting.isotropic(d=d, n=n, L=L, sigma2=sigma2, task=task)


def on_acg(d: int, n: int, L: float, sigma2: float, task: str = "affine") -> SoftmaxWindowSetting:
    """x on the non-isotropic sphere U^d_S (x = Sx̃/‖Sx̃‖, S = diag(1..d): Figs. 3-4's
    "acg" covariates) with tasks of class ``task``."""
    return SoftmaxWindowSetting(
        covariates=SphereCovariates(d=d, kind="acg"),
        tasks=LipschitzTasks(kind=task, L=L),
        n=n,
        sigma2=sigma2,
    )


def lowrank(
    d: int, n: int, L: float, sigma2: float, *, k: int = 2, offset: float = 0.0
) -> SoftmaxWindowSetting:
    """Assumption 4.3's covariates (rank k of B, c_u = c_v = 1) with App. J.1's low-rank tasks
    g(aᵀBᵀx) + ``offset`` (S5, Fig. 9; g is the recipe's ``link``)."""
    return SoftmaxWindowSetting(
        covariates=SphereCovariates(d=d, kind="lowrank", k=k),
        tasks=LipschitzTasks(kind="lowrank", L=L, offset=offset),
        n=n,
        sigma2=sigma2,
    )


def judged_by(recipe: Recipe, tol: float, **stop: Any) -> Recipe:
    """``recipe`` stopped on the convergence of its invariant against a judging check's ``tol``
    (``stop``: other :class:`Stop` fields; the bound defaults to ``BOUND_FACTOR`` times the
    planned steps)."""
    rule = Stop(tol=tol, max_steps=stop.pop("max_steps", BOUND_FACTOR * recipe.steps), **stop)
    return dataclasses.replace(recipe, stop=rule)


# fmt: off
#: S1/S2 noise levels (spec 003 §3.2).
SIGMAS = (1.0, 0.3, 0.1, 0.01)
#: Figs. 3-4's L panel at sigma = 0.01, n = 20: (L, preset); L = 0.03, 0.1 are S3's pretraining
#: runs, L = 1 is S1's sigma = 0.01 run; the quick tier drops L = 0.01.
L_RUNS = ((0.01, "f34_L0.01"), (0.03, "s3_L0.03"), (0.1, "s3_L0.1"), (1.0, "s1_sigma0.01"))
#: Lemma B.5's ellipsoid shape Σ = diag(1, 2, 3, 4, 5)/3 (the lemB5_ellipsoid preset).
ELLIPSOID_SIGMA = (1 / 3, 2 / 3, 1.0, 4 / 3, 5 / 3)
#: The presets' Adam (spec 003 §3.2 shrunk: 1000 steps, lr 0.05 cosine-decayed to 0.05×, 256
#: prompts per step), without a stopping rule; :data:`ADAM_LINEAR`: S4's linear attention, lr 0.01.
_PLAN = Recipe(optimizer="adam", lr=0.05, steps=1000, batch_size=256, lr_decay=0.05,
               dtype="float64", log_every=10)
_PLAN_LINEAR = dataclasses.replace(_PLAN, model="linear", lr=0.01)
#: Judged on ω̂ against TRAIN_RTOL, the 5 % of S1, S3, Figs. 3-4.
ADAM = judged_by(_PLAN, TRAIN_RTOL)
#: S4's linear attention: tr(M)/d judged within 3 % of m* (the check's LA_RTOL).
ADAM_LINEAR = judged_by(_PLAN_LINEAR, 0.03)  # LA_RTOL of sims/collins24/sec3_linear.py
#: S2's ReLU units: judged within 10 % (the check's RELU_RTOL).
ADAM_RELU = judged_by(_PLAN, 0.10)  # RELU_RTOL of numerics/collins24/tolerances.py
#: The untied units of S5 / Fig. 9, judged on ρ(M, B) ≤ 0.05: the drift of all of M.
ADAM_LOWRANK = judged_by(  # ρ ≤ 0.05: RHO_MAX of sims/collins24/sec4_lowrank.py
    dataclasses.replace(_PLAN, tied=False), 0.05, invariant="rho", relative=False
)


def lowrank_recipe(link: str = "linear", model: str = "softmax") -> Recipe:
    """Fig. 9's recipe of App. J.1's class g = ``link``: S5's untied softmax unit
    (:data:`ADAM_LOWRANK`) or linear attention trained alike at Adam 1e-2 (``model="linear"``)."""
    recipe = dataclasses.replace(ADAM_LOWRANK, link=link)
    return recipe if model == "softmax" else dataclasses.replace(recipe, model="linear", lr=0.01)


#: The U^d_S and ellipsoid units, judged on their (whitened) diagonal.
ADAM_DIAG = judged_by(_PLAN, TRAIN_RTOL, invariant="whitened")
#: S6's unit on constant tasks, judged on ‖M‖₂ < 0.05: M tends to 0, so the absolute drift.
ADAM_TO_ZERO = judged_by(_PLAN, TRAIN_RTOL, invariant="M", relative=False)


def _iso(sigma: float, task: str = "affine", *, d: int = 5, n: int = 20,
         L: float = 1.0) -> SoftmaxWindowSetting:
    return isotropic(d, n, L, sigma * sigma, task)


def _long(recipe: Recipe) -> Recipe:
    """Our reference S1 / S4 / S5 length (--full): 3000 steps, lr cosine-decayed to 0.05× (our
    reference 0.999 per step ends at 0.999^3000 = 0.05×); the bound ``BOUND_FACTOR`` times them."""
    assert recipe.stop is not None
    return dataclasses.replace(recipe, steps=3000,
                               stop=dataclasses.replace(recipe.stop,
                                                       max_steps=BOUND_FACTOR * 3000))


#: S1 / S4 at the spec's length (--full).
ADAM_LONG, ADAM_LINEAR_LONG = _long(ADAM), _long(ADAM_LINEAR)
#: name -> (setting, Recipe); every preset a check judges stops on its invariant's convergence.
PRESETS: dict[str, tuple[SoftmaxWindowSetting, Recipe]] = {
    **{f"s1_sigma{s:g}": (_iso(s), ADAM) for s in SIGMAS},
    **{f"s2_relu_sigma{s:g}": (_iso(s, "relu"), ADAM_RELU) for s in SIGMAS},
    # S3: pretraining at L ∈ {0.03, 0.1} with sigma = 0.01 (L = 1 is s1_sigma0.01)
    **{f"s3_L{L:g}": (_iso(0.01, L=L), ADAM) for L in (0.03, 0.1)},
    # Fig. 1 at one point: hills f = cos(1.5 theta - b) on the circle, n = 20, sigma = 0.1
    "fig1_d2": (_iso(0.1, "hills", d=2, L=1.5), ADAM),
    # S4: linear attention, M init 0, Adam 1e-2
    "s4_linear": (_iso(0.01), ADAM_LINEAR),
    # S5: d = 6, k = 2, n = 20, sigma = 0, Assumption 4.3 with c_u = c_v = 1, untied M
    "s5_lowrank": (lowrank(6, 20, 1.0, 0.0), ADAM_LOWRANK),
    # S5 at the paper's size (App. J.1, Fig. 9): d = 10, k = 2, n = 50, sigma = 0.01 (--full)
    "s5_paper": (lowrank(10, 50, 1.0, 1e-4), _long(ADAM_LOWRANK)),
    # S6: constant tasks b ~ U[-1, 1], sigma = 0.5, d = 3, n = 20
    "s6_constant": (_iso(0.5, "constant", d=3, L=0.0), ADAM_TO_ZERO),
    # smoke: a few steps, for the CLI
    "smoke": (_iso(0.1), dataclasses.replace(_PLAN, steps=20, log_every=5)),
    # Figs. 3-4 ablations at sigma = 0.01 (L = 1, n = 20 is s1_sigma0.01; L = 0.03, 0.1: s3_L*):
    # several L, several n, and the non-isotropic sphere law U^d_S ("acg", S = diag(1..d))
    "f34_L0.01": (_iso(0.01, L=0.01), ADAM),
    **{f"f34_n{n}": (_iso(0.01, n=n), ADAM) for n in (5, 10, 50, 100, 200)},
    **{f"f34_acg_L{L:g}": (on_acg(5, 20, L, 1e-4), ADAM_DIAG) for L in (0.01, 0.1, 1.0)},
    # ... and the paper's Fig. 3 class on U^d_S, the 2-ReLU (--full; L = 0.01 kept for the record)
    **{f"f34_acg_relu_L{L:g}": (on_acg(5, 20, L, 1e-4, "relu"), ADAM_DIAG)
       for L in (0.01, 0.03, 0.1, 1.0)},
    # S2's report-only cosine extension: f = cos(L v^T x), sigma in {.1, .01} at L = 1, and
    # L in {0.5, 2, 4} at sigma = 0.01 (non-monotone in L at n = 20)
    **{f"s2_cos_sigma{s:g}": (_iso(s, "cos"), ADAM) for s in (0.1, 0.01)},
    **{f"s2_cos_L{L:g}": (_iso(0.01, "cos", L=L), ADAM) for L in (0.5, 2, 4)},
    # Fig. 5's pretrain/test matrix (--full): cosine units at mismatched L (n = 20; L = 1 is
    # s2_cos_sigma0.01), and the paper's n = 200 units (affine n = 200 is f34_n200)
    **{f"f5_cos_L{L:g}": (_iso(0.01, "cos", L=L), ADAM) for L in (0.25, 8)},
    **{f"f5_{t}_n200": (_iso(0.01, t, n=200), ADAM) for t in ("relu", "cos")},
    "f5_cos_L0.25_n200": (_iso(0.01, "cos", n=200, L=0.25), ADAM),
    # Fig. 9's offset class (App. J.1's "+2") at the S5 size, softmax and linear attention (--full)
    **{f"f9_offset_{m}": (lowrank(6, 20, 1.0, 0.0, offset=2.0), lowrank_recipe(model=m))
       for m in ("softmax", "linear")},
    # ... and App. J.1's F^2_B, F^cos_B classes (even in aᵀBᵀx: linear attention's best is M = 0)
    **{f"f9_{g}_{m}": (lowrank(6, 20, 1.0, 0.0), lowrank_recipe(g, m))
       for g in ("square", "cos4") for m in ("softmax", "linear")},
    # Lemma B.5 on the ellipsoid x = Σ^{1/2}x̃ (Assumption 3.3), S1's σ = 0.01 task (--full)
    "lemb5_ellipsoid": (SoftmaxWindowSetting(
        covariates=SphereCovariates(d=5, kind="ellipsoid", Sigma_diag=ELLIPSOID_SIGMA),
        tasks=LipschitzTasks(kind="affine"), n=20, sigma2=1e-4), ADAM_DIAG),
    # Fig. 3's cosine panel on U^d_S (report-only, as S2's cosine; --full)
    **{f"f34_acg_cos_L{L:g}": (on_acg(5, 20, L, 1e-4, "cos"), ADAM_DIAG)
       for L in (0.25, 1.0, 4.0)},
    # the spec's S1 / S4 length (--full)
    **{f"s1p_sigma{s:g}": (_iso(s), ADAM_LONG) for s in SIGMAS},
    "s4p_linear": (_iso(0.01), ADAM_LINEAR_LONG),
}
# fmt: on


def resolve(
    setting: SoftmaxWindowSetting | str, recipe: Recipe | None = None, **overrides: Any
) -> tuple[SoftmaxWindowSetting, Recipe]:
    """The ``(setting, recipe)`` pair of a preset name (``recipe`` omitted) or given, with
    ``overrides`` applied to the recipe's fields or, for the other names, the setting's."""
    setting, recipe, st = resolve_preset(PRESETS, setting, recipe, Recipe, overrides)
    return (dataclasses.replace(setting, **st) if st else setting), recipe


def build_model(setting: SoftmaxWindowSetting, recipe: Recipe) -> torch.nn.Module:
    d = setting.d
    if recipe.model == "linear":
        return LinearAttentionUnit(d)
    return SoftmaxUnit(
        d,
        tied=recipe.tied,
        init=recipe.init,
        train_value=recipe.train_value,
        include_query=recipe.include_query,
    )


def setting_of(result: TrainResult) -> SoftmaxWindowSetting:
    """The :class:`SoftmaxWindowSetting` a run was trained on."""
    return result.extra["setting"]


def train_unit(setting: SoftmaxWindowSetting, recipe: Recipe) -> TrainResult:
    """Train the unit on ``setting`` by ``recipe`` (uncached; see :func:`trained`)."""
    _check_pair(setting, recipe)
    # these tiny models train faster on one thread on a busy 2-core machine (both schedules)
    with torch_threads(1):
        if recipe.schedule == "derived":
            return run_derived(setting, recipe)
        return _run_planned(setting, recipe)


def run(preset: str | tuple[SoftmaxWindowSetting, Recipe], **overrides: Any) -> TrainResult:
    """Train ``PRESETS[preset]`` or a given pair (recipe or setting fields overridable;
    uncached)."""
    if isinstance(preset, str):
        return train_unit(*resolve(preset, **overrides))
    return train_unit(*resolve(preset[0], preset[1], **overrides))


def trained(
    setting: SoftmaxWindowSetting | str,
    recipe: Recipe | None = None,
    *,
    seed: int = 0,
    **overrides: Any,
) -> TrainResult:
    """The one trainer of collins24's checks: the unit trained on ``setting`` by ``recipe`` with
    ``seed``, through the cache keyed by (setting, recipe, seed) -- one run per configuration,
    shared by tests, checks, figures and the report.  ``trained("s1_sigma0.1", seed=0)`` names a
    preset's pair (the CLI's and the sweep's form; ``overrides`` replace recipe or setting
    fields).

    Returns a :class:`~sims.train.TrainResult`: for the tied softmax unit ``params["M_K"]`` is
    ``(d, d)`` and ``params["value"]`` a scalar; ``extra["M_avg"]`` the tail-averaged ``M``.
    :func:`resolve` gives the pair a call trains, without training:

    >>> setting, recipe = resolve("s1_sigma0.1", seed=3, lr=0.01)
    >>> type(setting).__name__, setting.covariates.d, recipe.lr, recipe.seed
    ('SoftmaxWindowSetting', 5, 0.01, 3)
    >>> res = trained("s1_sigma0.1", seed=0)  # doctest: +SKIP
    >>> {name: w.shape for name, w in res.params.items()}  # doctest: +SKIP
    {'M_K': (5, 5), 'value': ()}
    """
    s, rc = resolve(setting, recipe, seed=seed, **overrides)
    return cached("softmax_window", (s, rc), lambda: train_unit(s, rc))


def _run_planned(setting: SoftmaxWindowSetting, recipe: Recipe) -> TrainResult:
    gen = make_generator(recipe.seed)
    model = build_model(setting, recipe)
    planned = recipe.steps
    start = max(0, int(round(planned * (1 - recipe.avg_frac))))
    window = max(1, planned - start)
    acc: list[np.ndarray] = []  # M before each step from `start` on (M after that many updates)
    norms: list[tuple[int, float]] = []
    snaps: list[np.ndarray] = []
    chunk = 25  # fresh prompts for every step, drawn 25 steps at a time (amortised sampling)
    buf: list[Any] = []
    offset, last = [0], [0]
    d = setting.d
    x2: list[np.ndarray] = []

    def objective(m: torch.nn.Module, g: torch.Generator, step: int) -> torch.Tensor:
        t = offset[0] + step
        last[0] = step
        if t >= start:
            acc.append(m.M().detach().numpy().copy())  # type: ignore[operator]
        if t % recipe.log_every == 0:
            Mt = m.M().detach()  # type: ignore[operator]
            norms.append((t, float(torch.linalg.matrix_norm(Mt, 2))))
            snaps.append(Mt.numpy().copy())
        if step % chunk == 0 or not buf:
            Zc, tc = sample_batch(setting, recipe.batch_size * chunk, g, link=recipe.link)
            if not x2:  # E x² per axis over the run's first prompts' context points
                x2.append(Zc[:, :d, :-1].pow(2).mean(dim=(0, 2)).numpy())
            buf[:] = [Zc.split(recipe.batch_size), tc.split(recipe.batch_size)]
        Z, target = buf[0][step % chunk], buf[1][step % chunk]
        return torch.mean((m(Z) - target) ** 2)

    main = dataclasses.replace(recipe, stop=None)
    res = train(model, objective, main, generator=gen)
    steps, losses = [res.steps], [res.losses]
    stop = recipe.stop
    record: dict[str, Any] = {"converged": True, "planned_steps": planned, "extra_steps": 0}
    if stop is not None:
        x2v, k = (x2[0] if x2 else None), (setting.covariates.k or 0)
        drift = stop.drift(acc, x2=x2v, k=k) if acc else math.inf
        extra_steps = 0
        if not drift <= stop.threshold:  # on at the final lr, one window at a time
            offset[0] = planned
            tail = dataclasses.replace(
                main,
                lr=recipe.lr * recipe.lr_decay,
                lr_decay=1.0,
                steps=stop.max_steps,
                log_every=1,
            )

            def settled(trace: list[dict[str, float]]) -> bool:
                taken = last[0] + 1
                return taken % window == 0 and stop.drift(acc, x2=x2v, k=k) <= stop.threshold

            r2 = train(model, objective, tail, generator=gen, stop=settled)
            extra_steps = int(r2.extra.get("stopped_at", stop.max_steps))
            drift = stop.drift(acc, x2=x2v, k=k)
            steps.append(r2.steps + planned)
            losses.append(r2.losses)
        record = {
            "converged": bool(drift <= stop.threshold),
            "drift": drift,
            "threshold": stop.threshold,
            "tol": stop.tol,
            "invariant": stop.invariant,
            "window": len(acc),
            "planned_steps": planned,
            "extra_steps": extra_steps,
            "max_steps": stop.max_steps,
        }
    M_final = model.M().detach().numpy().copy()  # type: ignore[operator]
    all_losses = np.concatenate(losses)
    return dataclasses.replace(
        res,
        steps=np.concatenate(steps),
        losses=all_losses,
        final_loss=float(np.mean(all_losses[-max(1, len(all_losses) // 10) :])),
        config=recipe,
        extra={
            **res.extra,
            "M_final": M_final,
            "M_avg": np.mean(acc, axis=0) if acc else M_final,
            "M_trace": np.array(norms),
            "M_snapshots": np.array(snaps),
            "value": float(getattr(model, "value", torch.ones(())).detach()),
            "setting": setting,
            "stop": record,
        },
    )


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
#: Upper bounds (steps) of the two phases (the transient's ``steps``, the averaging phase's
#: ``stop.max_steps``).
MAX_TRANSIENT, MAX_AVERAGE = 1000, 3000


def _omega(m: torch.nn.Module) -> float:
    return float(torch.trace(m.M().detach())) / m.M().shape[0]  # type: ignore[operator]


def _drift(w: np.ndarray) -> float:
    """Relative trend of ``w`` over a window: mean of its second half minus its first (so Adam's
    step-to-step jitter averages out), over the window's mean."""
    half = len(w) // 2
    return abs(float(w[half:].mean() - w[:half].mean())) / max(abs(float(w.mean())), 1e-12)


def coordinate_curvature(
    model: torch.nn.Module,
    setting: SoftmaxWindowSetting,
    gen: torch.Generator,
    batch: int,
    link: str = "linear",
) -> tuple[float, float]:
    """(h, σ_g) of one diagonal weight θ = K₁₁ at the model's parameters (by the rotation
    invariance of U^d every diagonal weight is alike): h = ∂²𝓛/∂θ² by a central finite difference
    of the loss on one common batch of ``CURVATURE_PROMPTS`` prompts, σ_g = the standard deviation
    of ∂𝓛_B/∂θ over ``NOISE_BATCHES`` independent minibatches of ``batch`` prompts (the noise
    Adam's second moment normalises by).  Measured on the model's own data: no prediction."""
    K: torch.Tensor = model.M_K  # type: ignore[assignment]
    theta = float(K.detach()[0, 0])
    step = CURVATURE_STEP * max(abs(theta), 1e-3)
    Z, t = sample_batch(setting, CURVATURE_PROMPTS, gen, link=link)
    vals = []
    with torch.no_grad():
        for s in (-step, 0.0, step):
            K[0, 0] = theta + s
            vals.append(float(torch.mean((model(Z) - t) ** 2)))
        K[0, 0] = theta
    h = (vals[0] - 2 * vals[1] + vals[2]) / step**2
    grads = []
    for _ in range(NOISE_BATCHES):
        Zb, tb = sample_batch(setting, batch, gen, link=link)
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


def derived_recipe(rtol: float, batch: int) -> Recipe:
    """The derived schedule's recipe for a row of tolerance ``rtol`` (ω̂'s relative error) at
    ``batch`` prompts per step: a transient of at most ``MAX_TRANSIENT`` steps at Adam's
    ``TRANSIENT_LR``, then an averaging phase of at most ``MAX_AVERAGE`` steps stopped when ω̂'s
    drift over the derived window is ≤ ``DRIFT_FRACTION``·``rtol`` (:func:`run_derived`)."""
    return Recipe(
        schedule="derived",
        optimizer="adam",
        lr=TRANSIENT_LR,
        steps=MAX_TRANSIENT,
        batch_size=batch,
        dtype="float64",
        log_every=10,
        stop=Stop(tol=rtol, max_steps=MAX_AVERAGE),
    )


def run_derived(setting: SoftmaxWindowSetting, recipe: Recipe) -> TrainResult:
    """Train the unit on ``setting`` with the schedule derived from the setting (``recipe``: a
    :func:`derived_recipe`; rtol = ``recipe.stop.tol``, fraction = ``recipe.stop.fraction``, the
    budget ``MAX_AVERAGE`` = ``recipe.stop.max_steps``, batch = ``recipe.batch_size``):

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
    stop_rule = recipe.stop
    if recipe.schedule != "derived" or stop_rule is None:
        raise ValueError(f"run_derived needs a derived recipe, got {recipe!r}")
    d, seed, batch = setting.d, recipe.seed, recipe.batch_size
    rtol, fraction, budget = stop_rule.tol, stop_rule.fraction, stop_rule.max_steps
    gen = make_generator(seed)
    model = build_model(setting, recipe)
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
            Zc, tc = sample_batch(setting, batch * chunk, g, link=recipe.link)
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

    cfg1 = dataclasses.replace(recipe, schedule="planned", stop=None)  # the transient's loop
    r1 = train(
        model,
        objective,
        cfg1,
        generator=gen,
        callback=om,
        stop=stop_after(10 * TRANSIENT_WINDOW, rtol),
    )
    steps1 = int(r1.extra.get("stopped_at", cfg1.steps))
    omega1 = _omega(model)
    h, sg = coordinate_curvature(model, setting, gen, batch, recipe.link)
    lr2, window = derived_step(h, sg, omega1, d, rtol, fraction)
    if window > budget:  # no full window fits the budget: the criterion cannot be met
        r2, steps2, avg = r1, 0, 10 * TRANSIENT_WINDOW
        trace = np.array([r["omega"] for r in r1.extra["trace"]])[-TRANSIENT_WINDOW:]
    else:
        offset[0] = steps1
        hist.clear()
        cfg2 = dataclasses.replace(cfg1, lr=lr2, steps=budget)
        stop = stop_after(window, fraction * rtol)
        r2 = train(model, objective, cfg2, generator=gen, callback=om, stop=stop)
        steps2 = int(r2.extra.get("stopped_at", budget))
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
        setting=setting,
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
    extra["stop"] = {
        "converged": extra["schedule"]["converged"],
        "drift": drift,
        "threshold": fraction * rtol,
        "tol": rtol,
        "invariant": stop_rule.invariant,
        "window": window,
        "planned_steps": steps1,
        "extra_steps": steps2,
        "max_steps": budget,
    }
    return dataclasses.replace(r2, config=recipe, extra=extra)
