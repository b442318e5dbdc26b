"""[czz24] the one trainer of the paper's torch models (docs/papers/czz24.md): :func:`trained`
``(setting, recipe, *, seed)``, cached by all three.

What is trained is the paper's :class:`~theory.czz24.settings.Setting` (§2's data model; the
recipe's ``queries`` per training prompt in place of the setting's ``q``); how, a
:class:`Recipe`:

* ``model="pregd"`` / ``"rawgd"`` (S1): the constructed pre-GD transformer (Alg. 1, then k GD
  layers with learnable steps η_ℓ = e^{θ_ℓ}), or the same without Alg. 1;
* ``model="lintf"`` (S2, Fig. 1b): a masked multi-head linear transformer (Eq. 2.2) with
  ``heads`` per layer and hidden width ``d_hid``;
* ``prune`` (Sec. 3, Eq. 3.1): the model of ``base`` trained with the same seed, the heads
  ``prune[i][j] = False`` zeroed (W_Q, W_K, W_V: the head's output and all its gradients vanish,
  so it stays pruned), then fine-tuned ``steps`` steps.

Two further recipes fit the S1 model's steps on a fixed sample of contexts of Thm 5.3's data
model (engine: :mod:`sims.czz24.fits`): a :class:`TiedRecipe` (the k steps tied, Newton in
log η: S1 at a setting other than the preset) and a :class:`FreeRecipe` (the k steps free,
L-BFGS from the tuned constant step of the same contexts plus a spread: the preset's free
schedule).  Their invariant is the training risk; their rule the same :class:`Stop` (drift over
``window`` steps below ``fraction · tol``, a step bound), read by the same judging code.

Training prompts: the ``n`` context tokens, or (``train_prompts = "compressed"``) the same sampled
prompts with each context given as the ``d + 1`` tokens of its moment ``Σ_j e_j e_jᵀ`` (sufficient
statistics: :mod:`sims.czz24.moments`; the same loss and gradients, so the same model up to
round-off); the test risks are on token prompts.  A run's ``extra`` holds the learned step sizes
(S1), the test excess risk on fresh contexts (``test_excess``: exact per context through unit
queries, mean and se), the initial one, and the stopping rule's record ``stop``.

The stopping rule (:class:`Stop`): a run trains its planned ``steps``; then, every ``window``
steps, the drift of its invariant over one window -- the relative distance between the means of
the invariant over the last two windows -- is compared with ``fraction · tol`` (``tol`` the
judging check's tolerance); the run ends at the first window below it, or at the step bound
``max_steps``, where it records that it did not converge (the judging check then says
``skipped`` with the numbers, never ``fail``).  The invariant is the quantity the check judges:
the mean learned step η̄ of an S1 model (its TRAIN row is the risk at η̄), the exact excess risk of
a masked linear transformer on a fixed monitor set of contexts.  Past its planned steps a run's
learning rate decays once the invariant is within ``tol`` over a window
(:class:`sims.train.PlateauCosine`): at a constant rate Adam's steps keep the invariant moving by
more than the threshold.

Imports only the paper's settings (no prediction); the free-schedule fit starts from the tuned
constant step of its own contexts (:func:`numerics.czz24.optimum.constant_eta_optimum`), the
saddle whose escape its check judges.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, overload

import numpy as np
import torch

from sims.cache import cached
from sims.config import DriftStop, TrainConfig
from sims.czz24.fits import FreeRun, TiedRun, fit_free, fit_tied, s1_data
from sims.czz24.moments import context_moment_tokens
from sims.models.sparse_multihead import MaskedLinearTF, PreGDTF
from sims.parallel import torch_threads
from sims.train import PlateauCosine, TrainResult, make_generator, torch_dtype, train, window_values
from theory.czz24.settings import PRESETS as SETTINGS
from theory.czz24.settings import Setting, SparseRegressionICL
from theory.settings import check_choice, check_int

__all__ = [
    "Recipe",
    "Stop",
    "TiedRecipe",
    "FreeRecipe",
    "TiedRun",
    "FreeRun",
    "tied_recipe",
    "FREE_RECIPES",
    "PRESETS",
    "S1_RTOL",
    "S1_PRE",
    "S1_RAW",
    "S2_H1",
    "S2_H8",
    "FIG1B_H4",
    "FIG1B_L4",
    "FIG1B_RECIPES",
    "FIG1B_TRAIN",
    "LINTF_RTOL",
    "recipe_for",
    "pruned_recipe",
    "data_of",
    "run",
    "trained",
    "stop_record",
    "sample_sparse_tokens",
    "build_model",
    "fresh_excess",
    "load_model",
    "coefficients",
    "prompts_rule",
]

#: The S1 TRAIN rows' tolerances on the risk (relative to the tuned constant-η optimum of the same
#: method), which the S1 runs' stopping rule reads: Adam on the heavy-tailed query loss stops
#: short of the flat optimum (learned η ≈ 1.0–1.1 over seeds 0–2 vs argmin ≈ 1.15), so pre-GD
#: gets 0.35; raw GD 0.15 (its start is only ~4 of these units away).
S1_RTOL = {"pre": 0.35, "raw": 0.15}


@dataclass(frozen=True, kw_only=True, slots=True)
class Stop(DriftStop):
    """A run's stopping rule (module docstring): after the planned steps, every ``window`` steps
    the relative drift of the invariant's window mean is compared with ``fraction · tol``; the
    run ends at the first window below it or at ``max_steps`` (the step bound, a count: no wall
    clock), unconverged."""

    window: int = 30  # steps per window: three Adam momentum time constants 1/(1 − β₁)


@dataclass(frozen=True, kw_only=True, slots=True)
class Recipe(TrainConfig):
    """How a czz24 model is trained (what is trained is the :class:`Setting`): the
    :class:`~sims.config.TrainConfig` fields, the model (``model``, its ``gd_layers`` and
    ``log_eta_init`` for S1, ``heads`` and ``d_hid`` for the linear transformer), the training
    prompts (``queries`` per prompt; ``train_prompts``), the ``test_size`` of the final test risk,
    the stopping rule (:class:`Stop`; ``None``: exactly ``steps`` steps, for runs no check judges
    by a tolerance) and, for a pruned fine-tune, ``prune`` and the ``base`` recipe.

    A preset's recipe (no training):

    >>> setting, recipe = PRESETS["s2_h1"]
    >>> (setting.d, setting.s, setting.n), recipe.model, recipe.heads, recipe.queries
    ((8, 2, 32), 'lintf', (1, 1, 1), 8)
    >>> recipe.optimizer, recipe.lr, recipe.steps, recipe.stop.max_steps
    ('adam', 0.003, 600, 2400)
    """

    model: str = "lintf"  # "pregd" (S1, Alg. 1 + GD), "rawgd" (S1 without Alg. 1), "lintf" (S2)
    gd_layers: int = 4  # S1: number of GD layers k
    log_eta_init: float = -1.0  # S1: θ_ℓ at initialisation (η = e^θ)
    heads: tuple[int, ...] = (1, 1, 1)  # linear TF: heads per layer
    d_hid: int = 24  # linear TF: hidden width
    queries: int = 8  # query tokens per training prompt (the setting's q is the theory's)
    test_size: int = 1000  # fresh contexts for the final test excess risk (exact per context)
    # training prompts: "tokens" (the n context tokens) or "compressed" (the same prompts, each
    # context as the d + 1 tokens of its moment Σ_j e_j e_jᵀ: sims.czz24.moments; the same
    # loss; needs n ≥ d + 1)
    train_prompts: str = "tokens"
    stop: Stop | None = None
    prune: tuple[tuple[bool, ...], ...] | None = None  # heads kept (True) of ``base``'s model
    base: Recipe | None = None  # the recipe of the model a pruned fine-tune starts from

    def __post_init__(self) -> None:
        TrainConfig.__post_init__(self)
        check_choice("model", self.model, ("pregd", "rawgd", "lintf"))
        check_choice("train_prompts", self.train_prompts, ("tokens", "compressed"))
        check_int("queries", self.queries, minimum=1)
        check_int("test_size", self.test_size, minimum=1)
        if self.stop is not None and self.lr_decay < 1.0:
            raise ValueError(
                f"lr_decay = {self.lr_decay}: a recipe with a stopping rule trains at a constant "
                "rate through its planned steps (its steps are not known in advance)"
            )
        if (self.prune is None) != (self.base is None):
            raise ValueError("a pruned fine-tune needs both prune and base (or neither)")
        if self.prune is not None and self.base is not None:
            if self.model != "lintf" or self.base.model != "lintf":
                raise ValueError("pruning needs a masked linear TF (model 'lintf')")
            if [len(r) for r in self.prune] != list(self.base.heads):
                raise ValueError(
                    f"prune must have {self.base.heads} entries per layer, got {self.prune}"
                )


def data_of(setting: Setting, recipe: Recipe) -> SparseRegressionICL:
    """The §2 data model a recipe trains on at ``setting``: its ``queries`` per prompt; a
    ``ValueError`` names the assumption a setting breaks (a generic Σ has no fixed diagonal to
    train on; compressed prompts need ``n ≥ d + 1``)."""
    if setting.generic_sigma:
        raise ValueError(
            "Sigma_diag=None (a Σ drawn per check): a trained model needs a fixed Σ "
            "([czz24] §2); give its diagonal"
        )
    st = dataclasses.replace(setting.data(), q=recipe.queries)
    if recipe.train_prompts == "compressed" and st.n < st.d + 1:
        raise ValueError(
            "train_prompts = 'compressed' needs n ≥ d + 1 (a full-rank context moment), got "
            f"n = {st.n}, d = {st.d}"
        )
    return st


def recipe_for(setting: Setting, recipe: Recipe) -> Recipe:
    """``recipe`` at ``setting``: compressed prompts where the setting's context moment has full
    rank (``n ≥ d + 1``), else the ``n`` context tokens (the same loss either way)."""
    if recipe.train_prompts == "compressed" and setting.n < setting.d + 1:
        return dataclasses.replace(recipe, train_prompts="tokens")
    return recipe


#: The step bound of a recipe with a stopping rule, in multiples of its planned steps (a count).
BOUND_FACTOR = 4

_S1 = Recipe(optimizer="adam", lr=0.05, steps=150, batch_size=128, dtype="float64", log_every=10)
_S2 = Recipe(
    optimizer="adam",
    lr=3e-3,
    steps=600,
    batch_size=64,
    grad_clip=1.0,
    dtype="float64",
    log_every=20,
)


def _s1(model: str, tol: float) -> Recipe:
    """S1 (batch 128 and 150 steps: a ≤ 10 s budget; reference runs 256 × 300), on
    compressed prompts (n ≥ d + 1: 33 of the 128 context columns), stopping on η̄ against the
    TRAIN row's ``tol``."""
    return dataclasses.replace(
        _S1,
        model=model,
        train_prompts="compressed",
        stop=Stop(tol=tol, max_steps=BOUND_FACTOR * 150),
    )


#: S1's pre-GD and raw-GD recipes (spec V-sims S1).
S1_PRE = _s1("pregd", S1_RTOL["pre"])
S1_RAW = _s1("rawgd", S1_RTOL["raw"])

#: The tolerance the linear transformers' stopping rule reads: their judging rows (czz24:s2,
#: czz24:fig1b, czz24:eq3.1) are orderings of the exact risk on 300 test contexts at a margin of
#: 3–5 standard errors, i.e. LINTF_RTOL of the risk at a per-context coefficient of variation of
#: 1 (3/√300); a drift of a tenth of it moves no ordering by more than 0.3 se.
LINTF_RTOL = 0.17


def _lintf(
    heads: tuple[int, ...],
    steps: int = 600,
    *,
    d_hid: int = 24,
    queries: int = 8,
    test_size: int = 1000,
    train_prompts: str = "tokens",
) -> Recipe:
    """A masked linear TF trained with Adam at lr 3e-3 on batches of 64 (S2; the
    Fig. 1b models alike), stopping on its monitor risk against :data:`LINTF_RTOL`."""
    return dataclasses.replace(
        _S2,
        steps=steps,
        model="lintf",
        heads=heads,
        d_hid=d_hid,
        queries=queries,
        test_size=test_size,
        train_prompts=train_prompts,
        stop=Stop(tol=LINTF_RTOL, max_steps=BOUND_FACTOR * steps),
    )


#: S2 (spec V-sims S2): heads (1, 1, 1) and (8, 1, 1), hidden width 24, 8 queries per prompt, on
#: compressed prompts (9 of the 32 context columns).
S2_H1 = _lintf((1, 1, 1), train_prompts="compressed")
S2_H8 = _lintf((8, 1, 1), train_prompts="compressed")
#: The Fig. 1b small models (App. B: trained at n = 12 with q = 4; d_hid 48 = 3d): the quick
#: tier's (4, 4, 4) at 600 steps (≈ 5 s); --full the paper's L = 4 with h ∈ {1, 4, 8}, 3000 steps.
#: On their n tokens (n = 12 < d + 1 = 17).
FIG1B_H4 = _lintf((4, 4, 4), d_hid=48, queries=4, test_size=500)
FIG1B_L4 = {h: _lintf((h,) * 4, 3000, d_hid=48, queries=4, test_size=500) for h in (1, 4, 8)}
#: The setting the Fig. 1b models train at: the paper's (d = 16, s = 4, σ = 0.1, Gaussian slab
#: prior, n = 12).
FIG1B_TRAIN = SETTINGS["paper"]
#: The Fig. 1b recipes of each tier.
FIG1B_RECIPES = {
    "quick": {"fig1b_h4": FIG1B_H4},
    "full": {
        "fig1b_h4": FIG1B_H4,
        **{f"fig1b_h{h}_l4": FIG1B_L4[h] for h in (1, 4, 8)},
    },
}


def pruned_recipe(base: Recipe, keep: tuple[tuple[bool, ...], ...], steps: int = 500) -> Recipe:
    """Sec. 3 pruning: ``base``'s model with the heads ``keep[i][j] = False`` zeroed, fine-tuned
    ``steps`` steps (issue budget ≤ 500; the paper: 60,000).  No stopping rule: what its check
    judges (the zeroed heads stay exactly 0) holds at every step; its risks are reported only."""
    keep = tuple(tuple(bool(k) for k in row) for row in keep)
    return dataclasses.replace(base, steps=steps, stop=None, prune=keep, base=base)


#: The drawn-setting S1 fits' step bound (Newton steps), drift window (steps) and fraction of
#: the tolerance (a deterministic fit on a fixed sample converges in-sample to ~1e-8 relative, so
#: a hundredth of the tolerance costs a few steps).
TIED_MAX_STEPS = 60
TIED_WINDOW = 2
TIED_FRACTION = 0.01


@dataclass(frozen=True, kw_only=True, slots=True)
class TiedRecipe:
    """S1 at a setting other than the preset ([czz24] Thm 5.3's model with its k steps tied,
    ``θ_ℓ = φ``): Newton steps in ``φ = log η`` on a fixed sample of ``contexts`` contexts drawn
    from ``stream`` (:mod:`sims.czz24.fits`), from ``η_0 = start_fraction / median λ_max``, each
    step at most ``max_step`` (the curvature a forward difference at ``curvature_step``), stopping
    by ``stop`` (its ``tol``: the judging TRAIN row's relative tolerance)."""

    method: str  # "pre" (Alg. 1 + GD) or "raw" (GD)
    contexts: int  # the fixed training sample (the judging rows evaluate on it too)
    stream: str  # the label of the sample's random stream (with the seed)
    stop: Stop
    start_fraction: float = 0.02  # η_0 · median λ_max (the start's risk ≈ the zero predictor's)
    max_step: float = 0.5  # largest Newton step in φ
    # curvature by a forward difference of autograd gradients in φ (a double backward through
    # the batched recursion costs 10x more)
    curvature_step: float = 0.05
    gd_layers: int = 4  # k (the S1 model's GD layers)

    def __post_init__(self) -> None:
        check_choice("method", self.method, ("pre", "raw"))
        check_int("contexts", self.contexts, minimum=1)


def tied_recipe(method: str, contexts: int, rtol: float, stream: str) -> TiedRecipe:
    """The drawn-setting S1 fit of ``method`` on ``contexts`` contexts of ``stream``, stopping on
    its training risk's drift over :data:`TIED_WINDOW` steps below :data:`TIED_FRACTION` of the
    TRAIN row's ``rtol``, within :data:`TIED_MAX_STEPS` Newton steps."""
    stop = Stop(tol=rtol, max_steps=TIED_MAX_STEPS, fraction=TIED_FRACTION, window=TIED_WINDOW)
    return TiedRecipe(method=method, contexts=contexts, stream=stream, stop=stop)


@dataclass(frozen=True, kw_only=True, slots=True)
class FreeRecipe:
    """The S1 model with its k steps free (``θ_ℓ`` per layer), fitted by L-BFGS (strong Wolfe)
    on ``contexts`` contexts from ``stream`` (:mod:`sims.czz24.fits`), from the tuned constant
    step of those contexts plus ``start_spread`` across the layers (``tied_start``: no spread, the
    negative control that cannot leave the tied point); L-BFGS's own convergence
    (``tolerance_change``, ``tolerance_grad``) within ``stop.max_steps`` iterations, converged by
    ``stop``'s rule at its end."""

    method: str  # "pre" or "raw"
    stop: Stop
    contexts: int = 1000  # contexts of the fit and, separately, of its held-out evaluation
    stream: str = "sims.checks.sparse_multihead_s1:check_s1_free_schedule"
    start_spread: tuple[float, ...] = (-0.3, -0.1, 0.1, 0.3)
    tolerance_change: float = 1e-14
    tolerance_grad: float = 1e-12
    gd_layers: int = 4

    def __post_init__(self) -> None:
        check_choice("method", self.method, ("pre", "raw"))
        check_int("contexts", self.contexts, minimum=1)
        if len(self.start_spread) != self.gd_layers:
            raise ValueError(
                f"start_spread needs one value per GD layer ({self.gd_layers}), "
                f"got {self.start_spread}"
            )


#: The free-schedule fit's iteration bound (L-BFGS converges in 13 (pre) and 23 (raw)
#: iterations at the S1 preset, seed 0).
FREE_MAX_ITER = 200
#: The free-schedule fits at the S1 preset, by method: their rule reads the pre-GD TRAIN row's
#: tolerance (the margin the free schedule must beat the tied optimum by).
FREE_RECIPES = {
    m: FreeRecipe(
        method=m,
        stop=Stop(
            tol=S1_RTOL["pre"], max_steps=FREE_MAX_ITER, fraction=TIED_FRACTION, window=TIED_WINDOW
        ),
    )
    for m in ("pre", "raw")
}


#: name -> (Setting, Recipe): the named training presets (``python -m sims czz24 <name>``).
PRESETS: dict[str, tuple[Setting, Recipe]] = {
    "s1_pre": (SETTINGS["s1"], S1_PRE),
    "s1_raw": (SETTINGS["s1"], S1_RAW),
    "s2_h1": (SETTINGS["s2"], S2_H1),
    "s2_h8": (SETTINGS["s2"], S2_H8),
    **{name: (FIG1B_TRAIN, rc) for name, rc in FIG1B_RECIPES["full"].items()},
    # a few steps, for the CLI (no stopping rule)
    "smoke": (
        dataclasses.replace(SETTINGS["s2"], n=12),
        dataclasses.replace(_S2, steps=20, log_every=5, heads=(4, 1), test_size=200),
    ),
}


def sample_sparse_tokens(
    st: SparseRegressionICL,
    B: int,
    *,
    generator: torch.Generator,
    dtype: torch.dtype = torch.float64,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(E, yq, w, X)``: token matrices (B, d+1, n+q) with 0 in the query label slots, the noisy
    query labels (B, q), the tasks (B, d) and the contexts (B, n, d); Σ = diag(D) + ζ𝟙𝟙ᵀ."""
    d, s, n, q = st.d, st.s, st.n, st.q
    keys = torch.rand((B, d), generator=generator, dtype=dtype)
    supp = torch.argsort(keys, dim=1)[:, :s]
    if st.prior == "sign":
        vals = (2.0 * torch.randint(0, 2, (B, s), generator=generator).to(dtype) - 1) / math.sqrt(s)
    else:
        vals = torch.randn((B, s), generator=generator, dtype=dtype)
    w = torch.zeros((B, d), dtype=dtype).scatter(1, supp, vals)
    Sigma = np.array(st.Sigma_x_array)
    Z = torch.randn((B, n + q, d), generator=generator, dtype=dtype)
    if not np.array_equal(Sigma, np.eye(d)):  # Z @ I is Z, bit for bit: skipped
        Z = Z @ torch.linalg.cholesky(torch.tensor(Sigma, dtype=dtype)).T
    noise = math.sqrt(st.sigma2) * torch.randn((B, n + q), generator=generator, dtype=dtype)
    yall = torch.einsum("bmd,bd->bm", Z, w) + noise
    E = torch.cat(
        [
            Z.transpose(1, 2),
            torch.cat([yall[:, :n], torch.zeros((B, q), dtype=dtype)], dim=1)[:, None, :],
        ],
        dim=1,
    )
    return E, yall[:, n:], w, Z[:, :n]


def build_model(
    setting: Setting, recipe: Recipe, gen: torch.Generator, *, dtype: str = "float64"
) -> torch.nn.Module:
    """The untrained model of ``recipe`` at ``setting`` (its parameters drawn from ``gen``)."""
    dt = torch_dtype(dtype)
    if recipe.model in ("pregd", "rawgd"):
        return PreGDTF(
            recipe.gd_layers,
            preprocess=recipe.model == "pregd",
            log_eta_init=recipe.log_eta_init,
            dtype=dt,
        )
    return MaskedLinearTF(
        setting.d, recipe.heads, recipe.d_hid, generator=gen, attn_scale=1.0 / setting.n, dtype=dt
    )


def prompts_rule(recipe: Recipe) -> str:
    """How ``recipe`` trains (its prompts), as the rows' details name it."""
    if recipe.train_prompts == "compressed":
        return (
            "compressed prompts: each sampled context as the d + 1 Cholesky tokens of its moment "
            "Σ_j e_j e_jᵀ (sufficient statistics), the same loss and gradients as on its n tokens "
            "(sims.czz24.moments)"
        )
    return "the n context tokens"


def _query_pred(model: torch.nn.Module, E: torch.Tensor, n: int) -> torch.Tensor:
    out = model(E, n)
    return out if isinstance(model, PreGDTF) else out[:, n:]


def _objective(
    st: SparseRegressionICL, recipe: Recipe, dt: torch.dtype
) -> Callable[[torch.nn.Module, torch.Generator, int], torch.Tensor]:
    """The online training loss: the query MSE on a fresh batch of prompts, each context given as
    its ``n`` tokens or (``recipe.train_prompts == "compressed"``) as the ``d + 1`` tokens of its
    moment (:func:`sims.czz24.moments.context_moment_tokens`: the models see a context only
    through ``Σ_j e_j e_jᵀ``, so the loss is the same function of the parameters)."""
    batch = recipe.batch_size

    def objective(m: torch.nn.Module, g: torch.Generator, step: int) -> torch.Tensor:
        E, yq, _, _ = sample_sparse_tokens(st, batch, generator=g, dtype=dt)
        if recipe.train_prompts == "compressed":
            Ec = context_moment_tokens(E, st.n, normalised=isinstance(m, PreGDTF))
            return torch.mean((_query_pred(m, Ec, st.d + 1) - yq) ** 2)
        return torch.mean((_query_pred(m, E, st.n) - yq) ** 2)

    return objective


@torch.no_grad()
def fresh_excess(
    model: torch.nn.Module,
    st: SparseRegressionICL,
    size: int,
    gen: torch.Generator,
    *,
    dtype: torch.dtype = torch.float64,
    chunk: int = 1000,
) -> tuple[float, float]:
    """Mean and se over ``size`` fresh contexts of the model's exact conditional excess risk
    ``‖Σ^{1/2}(ŵ − w*)‖²``: the model is linear in each query (masked linear attention), so the
    ``d`` unit queries ``e_j`` read off ``ŵ`` (no query noise enters the estimate)."""
    vals = []
    done = 0
    S = torch.tensor(np.array(st.Sigma_x_array), dtype=dtype)
    d, n = st.d, st.n
    unit = torch.cat([torch.eye(d, dtype=dtype), torch.zeros((1, d), dtype=dtype)], dim=0)
    while done < size:
        b = min(chunk, size - done)
        E, _, w, _ = sample_sparse_tokens(st, b, generator=gen, dtype=dtype)
        Eu = torch.cat([E[:, :, :n], unit[None].expand(b, -1, -1)], dim=2)
        diff = _query_pred(model, Eu, n) - w  # (b, d)
        vals.append(torch.einsum("bi,ij,bj->b", diff, S, diff))
        done += b
    v = torch.cat(vals).double()
    return float(v.mean()), float(v.std() / math.sqrt(len(v)))


#: Contexts of the fixed monitor set on which a linear TF's stopping invariant (its exact excess
#: risk) is read, every MONITOR_EVERY steps, from a stream of its own (the training stream is
#: untouched: a run that converges at its planned steps is the run without the rule).
MONITOR_CONTEXTS = 200
MONITOR_EVERY = 10
_MONITOR_STREAM = 50_000
#: The pruned fine-tune's stream, offset from the seed of the model it starts from.
_FINETUNE_STREAM = 40_000
#: Floor of the decayed learning rate past the planned steps (of the recipe's lr).
DECAY_FLOOR = 0.01


def _drift(trace: list[dict[str, float]], key: str, last: int, window: int) -> float:
    """Relative distance between the means of ``trace[key]`` over the window of logged steps
    ending at ``last`` and over the window before it (``inf`` while either is empty)."""
    cur, prev = window_values(trace, key, last, window)
    if not cur or not prev:
        return math.inf
    a, b = float(np.mean(cur)), float(np.mean(prev))
    return abs(a - b) / max(abs(a), 1e-300)


def _fit(
    model: torch.nn.Module, st: SparseRegressionICL, recipe: Recipe, gen: torch.Generator
) -> tuple[TrainResult, dict[str, Any]]:
    """Train ``model`` by ``recipe`` (its stopping rule, if any) on fresh prompts of ``st``."""
    dt = torch_dtype(recipe.dtype)
    objective = _objective(st, recipe, dt)
    stop = recipe.stop
    if stop is None:
        res = train(model, objective, recipe, generator=gen)
        return res, {"converged": True, "steps": recipe.steps}
    planned = recipe.steps
    key = "eta" if isinstance(model, PreGDTF) else "risk"
    every = 1 if key == "eta" else MONITOR_EVERY

    def callback(m: torch.nn.Module, step: int) -> dict[str, float] | None:
        if (step + 1) % every:
            return None
        if isinstance(m, PreGDTF):
            return {"eta": float(torch.exp(m.theta.detach()).mean())}
        mon = make_generator(recipe.seed + _MONITOR_STREAM)
        return {"risk": fresh_excess(m, st, MONITOR_CONTEXTS, mon, dtype=dt)[0]}

    def converged(trace: list[dict[str, float]]) -> bool:
        last = int(trace[-1]["step"])
        if last + 1 < planned or (last + 1 - planned) % stop.window:
            return False
        return _drift(trace, key, last, stop.window) < stop.threshold

    decay = PlateauCosine(
        lr=recipe.lr,
        trigger=stop.tol,
        key=key,
        window=stop.window,
        min_steps=planned,
        decay_steps=planned,
        floor=DECAY_FLOOR,
    )
    bound = dataclasses.replace(recipe, steps=stop.max_steps, log_every=1)
    res = train(
        model, objective, bound, generator=gen, callback=callback, stop=converged, lr_at=decay
    )
    taken = int(res.extra.get("stopped_at", stop.max_steps))
    trace = res.extra["trace"]
    drift = _drift(trace, key, taken - 1, stop.window)
    record = {
        "converged": bool(drift < stop.threshold),
        "invariant": key,
        "drift": drift,
        "threshold": stop.threshold,
        "tol": stop.tol,
        "window": stop.window,
        "steps": taken,
        "planned_steps": planned,
        "max_steps": stop.max_steps,
        "decay_from": decay.trigger_step(trace),
    }
    # the loss log at the recipe's own interval (the run logged every step for the rule)
    keep = (res.steps % recipe.log_every == 0) | (res.steps == taken - 1)
    losses = res.losses[keep]
    tail = losses[-max(1, len(losses) // 10) :]
    res = dataclasses.replace(
        res,
        steps=res.steps[keep],
        losses=losses,
        final_loss=float(np.mean(tail)),
        config=dataclasses.replace(recipe, steps=taken),
    )
    return res, record


def _train(setting: Setting, recipe: Recipe) -> TrainResult:
    """Train ``recipe`` at ``setting`` (uncached; see :func:`trained`), on one torch thread."""
    with torch_threads(1):
        if recipe.prune is not None:
            return _finetune(setting, recipe)
        st = data_of(setting, recipe)
        dt = torch_dtype(recipe.dtype)
        gen = make_generator(recipe.seed)
        model = build_model(setting, recipe, gen, dtype=recipe.dtype)
        init = {k: v.detach().double().numpy().copy() for k, v in model.state_dict().items()}
        init_risk = fresh_excess(
            model, st, min(recipe.test_size, 500), make_generator(recipe.seed + 30_000), dtype=dt
        )
        res, record = _fit(model, st, recipe, gen)
        final = fresh_excess(
            model, st, recipe.test_size, make_generator(recipe.seed + 20_000), dtype=dt
        )
        res.extra.update(
            init_params=init,
            test_excess=final,
            init_test_excess=init_risk,
            setting=setting,
            stop=record,
        )
        if isinstance(model, PreGDTF):
            res.extra["eta"] = np.exp(model.theta.detach().double().numpy())
        return res


def _finetune(setting: Setting, recipe: Recipe) -> TrainResult:
    """Sec. 3 pruning: the trained model of ``recipe.base`` (same seed) with the heads
    ``recipe.prune[i][j] = False`` zeroed, fine-tuned ``recipe.steps`` steps on fresh prompts
    from a stream of its own (issue budget ≤ 500 steps; the paper: 60,000)."""
    assert recipe.prune is not None and recipe.base is not None
    model = load_model(setting, recipe.base, trained(setting, recipe.base, seed=recipe.seed))
    with torch.no_grad():
        for i, row in enumerate(recipe.prune):
            for j, k in enumerate(row):
                if not k:
                    for lst in (model.WQ, model.WK, model.WV):
                        lst[i][j].zero_()
    st = data_of(setting, recipe)
    ft = dataclasses.replace(recipe, seed=recipe.seed + _FINETUNE_STREAM)
    res, record = _fit(model, st, ft, make_generator(ft.seed))
    res.extra.update(
        test_excess=fresh_excess(
            model, st, recipe.test_size, make_generator(ft.seed + 20_000), dtype=torch.float64
        ),
        setting=setting,
        stop=record,
    )
    return res


@overload
def trained(setting: Setting, recipe: Recipe, *, seed: int = 0) -> TrainResult: ...
@overload
def trained(setting: Setting, recipe: TiedRecipe, *, seed: int = 0) -> TiedRun: ...
@overload
def trained(setting: Setting, recipe: FreeRecipe, *, seed: int = 0) -> FreeRun: ...
def trained(
    setting: Setting, recipe: Recipe | TiedRecipe | FreeRecipe, *, seed: int = 0
) -> TrainResult | TiedRun | FreeRun:
    """The one trainer of czz24's checks: ``recipe``'s model trained at ``setting`` with
    ``seed``, through the cache keyed by (setting, recipe, seed) -- one run per configuration,
    shared by tests, checks, figures and the report.  A :class:`Recipe` trains a torch model
    online (Adam on fresh prompts; the setting's ``q`` replaced by the recipe's training
    ``queries``, the key too); a :class:`TiedRecipe` or :class:`FreeRecipe` fits the S1 model's
    steps on a fixed sample of the setting's Thm 5.3 data model (:mod:`sims.czz24.fits`).  A
    setting the recipe cannot train at raises a ``ValueError`` naming the assumption, before any
    work.

    A :class:`Recipe` returns a :class:`~sims.train.TrainResult` (``params``: the model's
    state_dict as numpy arrays), a :class:`TiedRecipe` a :class:`TiedRun`, a :class:`FreeRecipe`
    a :class:`FreeRun`:

    >>> setting, recipe = PRESETS["s2_h1"]
    >>> type(trained(setting, recipe, seed=0)).__name__  # doctest: +SKIP
    'TrainResult'
    """
    if isinstance(recipe, TiedRecipe):
        st1 = s1_data(setting)
        return cached(
            "sparse_multihead",
            ("s1_tied", st1, recipe, seed),
            lambda: fit_tied(setting, recipe, seed),
        )
    if isinstance(recipe, FreeRecipe):
        st1 = s1_data(setting)
        return cached(
            "sparse_multihead",
            ("s1_free", st1, recipe, seed),
            lambda: fit_free(setting, recipe, seed),
        )
    rc = dataclasses.replace(recipe, seed=seed)
    st = dataclasses.replace(setting, q=rc.queries)
    data_of(st, rc)
    return cached("sparse_multihead", (st, rc), lambda: _train(st, rc))


def stop_record(res: TrainResult | TiedRun | FreeRun) -> dict[str, Any]:
    """The stopping rule's record of a run (``converged``, ``invariant``, ``drift``,
    ``threshold``, ``tol``, ``window``, ``steps``, ``planned_steps``, ``max_steps``): what a
    judging check reports, ``skipped`` when unconverged."""
    if isinstance(res, (TiedRun, FreeRun)):
        return dict(res.stop)
    return dict(res.extra["stop"])


def run(preset: str, **overrides: Any) -> TrainResult:
    """Train ``PRESETS[preset]`` (uncached; the CLI's ``python -m sims czz24 <preset>``):
    ``overrides`` replace recipe fields or, for the other names, the setting's."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}; presets: {sorted(PRESETS)}")
    setting, recipe = PRESETS[preset]
    rc = {k: v for k, v in overrides.items() if k in Recipe.__dataclass_fields__}
    st = {k: v for k, v in overrides.items() if k not in rc}
    setting = dataclasses.replace(setting, **st) if st else setting
    recipe = dataclasses.replace(recipe, **rc) if rc else recipe
    return _train(dataclasses.replace(setting, q=recipe.queries), recipe)


def load_model(setting: Setting, recipe: Recipe, res: TrainResult) -> MaskedLinearTF:
    """The trained masked linear TF of a ``lintf`` recipe at ``setting`` with the parameters of
    ``res``."""
    if recipe.model != "lintf":
        raise ValueError(f"recipe model {recipe.model!r} is not a masked linear TF ('lintf')")
    model = MaskedLinearTF(
        setting.d,
        recipe.heads,
        recipe.d_hid,
        generator=torch.Generator().manual_seed(0),
        attn_scale=1.0 / setting.n,
    )
    model.load_state_dict({k: torch.as_tensor(v) for k, v in res.params.items()})
    return model


@torch.no_grad()
def coefficients(model: MaskedLinearTF, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The model's coefficient ``ŵ`` (B, d) on the contexts ``X`` (B, n, d), ``y`` (B, n), read off
    by the ``d`` unit queries (the model is linear in a query).  The attention scale is ``1/n`` of
    *these* contexts (the Fig. 1b models are evaluated at n other than their training n = 12, as
    in the paper; no positional encoding)."""
    B, n, d = X.shape
    E = torch.zeros((B, d + 1, n + d), dtype=torch.float64)
    E[:, :d, :n] = torch.as_tensor(X).transpose(1, 2)
    E[:, d, :n] = torch.as_tensor(y)
    E[:, :d, n:] = torch.eye(d, dtype=torch.float64)
    old = model.attn_scale
    model.attn_scale = 1.0 / n
    try:
        return model(E, n)[:, n:].numpy()
    finally:
        model.attn_scale = old
