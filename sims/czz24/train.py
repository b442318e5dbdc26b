"""czz24 training experiments (spec 000 V-sims): S1, the constructed pre-GD transformer with
learnable step sizes (pre-processed vs raw), and S2, a trained masked multi-head linear transformer
(Eq. 2.2) with 1 or 8 heads in layer 1, and the small trained models of Fig. 1b (d = 16, s = 4,
σ = 0.1, trained at n = 12 with q = 4 as in App. B), with head pruning and a short fine-tune
(Sec. 3, Eq. 3.1; ``pruned``).

Imports only ``theory.settings`` (no prediction).  ``PRESETS`` maps a name to
``(SparseExperiment, TrainConfig)``; ``run(preset, **overrides)`` returns a
:class:`sims.train.TrainResult` whose ``extra`` holds the learned step sizes (S1), the test excess
risk on fresh contexts (``test_excess``: exact per context through unit queries, mean and se) and
the initial one; ``trained(preset, seed=...)`` goes through the config-keyed cache.  Training
prompts: the ``n`` context tokens, or (``train_prompts = "compressed"``, the S1 and S2 presets)
the same sampled prompts with each context given as the ``d + 1`` tokens of its moment
``Σ_j e_j e_jᵀ`` (sufficient statistics: :mod:`sims.czz24.moments`; the same
loss and gradients, so the same model up to round-off); the test risks are on token prompts.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from sims.cache import cached
from sims.config import TrainConfig
from sims.czz24.moments import context_moment_tokens
from sims.models.sparse_multihead import MaskedLinearTF, PreGDTF
from sims.parallel import torch_threads
from sims.train import TrainResult, make_generator, torch_dtype, train
from theory.czz24.settings import (
    SparseRegressionICL,
    czz24_fig1b_setting,
    czz24_s1_setting,
    czz24_s2_setting,
)

__all__ = [
    "SparseExperiment",
    "PRESETS",
    "run",
    "trained",
    "resolve",
    "sample_sparse_tokens",
    "build_model",
    "fresh_excess",
    "load_model",
    "coefficients",
    "pruned",
    "FIG1B_PRESETS",
    "prompts_rule",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class SparseExperiment:
    """What is trained and on which data (optimiser, steps and seed: the preset's TrainConfig)."""

    setting: SparseRegressionICL  # [czz24] §2 data model (d, s, n, σ², prior, q)
    model: str = "pregd"  # "pregd" (S1, Alg. 1 + GD), "rawgd" (S1 without Alg. 1), "lintf" (S2)
    gd_layers: int = 4  # S1: number of GD layers k
    log_eta_init: float = -1.0  # S1: θ_ℓ at initialisation (η = e^θ)
    heads: tuple[int, ...] = (1, 1, 1)  # S2: heads per layer
    d_hid: int = 24  # S2: hidden width
    test_size: int = 1000  # fresh contexts for the final test excess risk (exact per context)
    # training prompts: "tokens" (the n context tokens) or "compressed" (the same prompts, each
    # context as the d + 1 tokens of its moment Σ_j e_j e_jᵀ: sims.experiments.
    # sims.czz24.moments; the same loss; needs n ≥ d + 1)
    train_prompts: str = "tokens"

    def __post_init__(self) -> None:
        if self.model not in ("pregd", "rawgd", "lintf"):
            raise ValueError(f"model must be 'pregd', 'rawgd' or 'lintf', got {self.model!r}")
        if self.train_prompts not in ("tokens", "compressed"):
            raise ValueError(
                f"train_prompts must be 'tokens' or 'compressed', got {self.train_prompts!r}"
            )
        if self.train_prompts != "tokens" and self.setting.n < self.setting.d + 1:
            raise ValueError(
                "train_prompts = 'compressed' needs n ≥ d + 1 (a full-rank context moment), got "
                f"n = {self.setting.n}, d = {self.setting.d}"
            )


_S1_CFG = TrainConfig(
    optimizer="adam", lr=0.05, steps=150, batch_size=128, dtype="float64", log_every=10
)
_S2_CFG = TrainConfig(
    optimizer="adam",
    lr=3e-3,
    steps=600,
    batch_size=64,
    grad_clip=1.0,
    dtype="float64",
    log_every=20,
)


def _fig1b(heads: tuple[int, ...], cfg: TrainConfig) -> tuple[SparseExperiment, TrainConfig]:
    """A Fig. 1b small model (App. B data: d = 16, s = 4, σ = 0.1, trained at n = 12 with q = 4;
    d_hid 48 = 3d) with ``heads`` per layer, trained with ``cfg``."""
    st = czz24_fig1b_setting(12, q=4)
    return SparseExperiment(setting=st, model="lintf", heads=heads, d_hid=48, test_size=500), cfg


#: Spec V-sims S1 (batch 128 and 150 steps: the issue's ≤ 10 s budget; spec 256 × 300) and S2
#: (600 steps, lr 3e-3).  S1 and S2 train on compressed prompts (n ≥ d + 1: each sampled context
#: as its d + 1 moment tokens, the same loss at (d + 1)/n of the context columns: S1 33 of 128,
#: S2 9 of 32); the Fig. 1b models (n = 12 < d + 1 = 17) on their n tokens.
PRESETS: dict[str, tuple[SparseExperiment, TrainConfig]] = {
    "s1_pre": (
        SparseExperiment(setting=czz24_s1_setting(), model="pregd", train_prompts="compressed"),
        _S1_CFG,
    ),
    "s1_raw": (
        SparseExperiment(setting=czz24_s1_setting(), model="rawgd", train_prompts="compressed"),
        _S1_CFG,
    ),
    "s2_h1": (
        SparseExperiment(
            setting=czz24_s2_setting(), model="lintf", heads=(1, 1, 1), train_prompts="compressed"
        ),
        _S2_CFG,
    ),
    "s2_h8": (
        SparseExperiment(
            setting=czz24_s2_setting(), model="lintf", heads=(8, 1, 1), train_prompts="compressed"
        ),
        _S2_CFG,
    ),
    # Fig. 1b small trained models (App. B data, d_hid 48 = 3d, h heads in every layer): the quick
    # tier's (4, 4, 4) at 600 steps (≈ 5 s); --full the paper's L = 4 with h ∈ {1, 4, 8}.
    "fig1b_h4": _fig1b((4, 4, 4), _S2_CFG),
    **{
        f"fig1b_h{h}_l4": _fig1b((h,) * 4, dataclasses.replace(_S2_CFG, steps=3000))
        for h in (1, 4, 8)
    },
    "smoke": (
        SparseExperiment(
            setting=czz24_s2_setting(n=12), model="lintf", heads=(4, 1), test_size=200
        ),
        dataclasses.replace(_S2_CFG, steps=20, log_every=5),
    ),
}

#: The Fig. 1b presets of each tier.
FIG1B_PRESETS = {
    "quick": ("fig1b_h4",),
    "full": ("fig1b_h4", "fig1b_h1_l4", "fig1b_h4_l4", "fig1b_h8_l4"),
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
    exp: SparseExperiment, gen: torch.Generator, *, dtype: str = "float64"
) -> torch.nn.Module:
    dt = torch_dtype(dtype)
    if exp.model in ("pregd", "rawgd"):
        return PreGDTF(
            exp.gd_layers, preprocess=exp.model == "pregd", log_eta_init=exp.log_eta_init, dtype=dt
        )
    return MaskedLinearTF(
        exp.setting.d, exp.heads, exp.d_hid, generator=gen, attn_scale=1.0 / exp.setting.n, dtype=dt
    )


def prompts_rule(exp: SparseExperiment) -> str:
    """How ``exp`` is trained (its prompts), as the rows' details name it."""
    if exp.train_prompts == "compressed":
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
    exp: SparseExperiment, batch: int, dt: torch.dtype
) -> Callable[[torch.nn.Module, torch.Generator, int], torch.Tensor]:
    """The online training loss: the query MSE on a fresh batch of prompts, each context given as
    its ``n`` tokens or (``exp.train_prompts == "compressed"``) as the ``d + 1`` tokens of its
    moment (:func:`sims.czz24.moments.context_moment_tokens`: the models
    see a context only through ``Σ_j e_j e_jᵀ``, so the loss is the same function of the
    parameters)."""
    st = exp.setting

    def objective(m: torch.nn.Module, g: torch.Generator, step: int) -> torch.Tensor:
        E, yq, _, _ = sample_sparse_tokens(st, batch, generator=g, dtype=dt)
        if exp.train_prompts == "compressed":
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


def resolve(
    preset: str | tuple[SparseExperiment, TrainConfig], **overrides: Any
) -> tuple[SparseExperiment, TrainConfig]:
    """The ``(experiment, config)`` of a preset with ``overrides`` applied (TrainConfig fields
    first, the rest to the experiment)."""
    exp, cfg = PRESETS[preset] if isinstance(preset, str) else preset
    tr = {k: v for k, v in overrides.items() if k in TrainConfig.__dataclass_fields__}
    ex = {k: v for k, v in overrides.items() if k not in tr}
    return (
        dataclasses.replace(exp, **ex) if ex else exp,
        dataclasses.replace(cfg, **tr) if tr else cfg,
    )


def run(
    preset: str | tuple[SparseExperiment, TrainConfig], *, threads: int = 1, **overrides: Any
) -> TrainResult:
    """Train one configuration on fresh prompts every step (torch threads set for the run)."""
    with torch_threads(threads):
        return _run(*resolve(preset, **overrides))


def trained(preset: str, *, seed: int = 0, **overrides: Any) -> TrainResult:
    """The run of ``preset`` with ``seed`` through the cache shared by tests and the report."""
    exp, cfg = resolve(preset, seed=seed, **overrides)
    return cached("sparse_multihead", (exp, cfg), lambda: run((exp, cfg)))


def _run(exp: SparseExperiment, cfg: TrainConfig) -> TrainResult:
    dt = torch_dtype(cfg.dtype)
    gen = make_generator(cfg.seed)
    model = build_model(exp, gen, dtype=cfg.dtype)
    init = {k: v.detach().double().numpy().copy() for k, v in model.state_dict().items()}
    st = exp.setting

    objective = _objective(exp, cfg.batch_size, dt)
    init_risk = fresh_excess(
        model, st, min(exp.test_size, 500), make_generator(cfg.seed + 30_000), dtype=dt
    )
    res = train(model, objective, cfg, generator=gen)
    final = fresh_excess(model, st, exp.test_size, make_generator(cfg.seed + 20_000), dtype=dt)
    res.extra.update(
        init_params=init, test_excess=final, init_test_excess=init_risk, experiment=exp
    )
    if isinstance(model, PreGDTF):
        res.extra["eta"] = np.exp(model.theta.detach().double().numpy())
    return res


def load_model(preset: str, res: TrainResult) -> MaskedLinearTF:
    """The trained masked linear TF of a ``lintf`` preset with the parameters of ``res``."""
    exp = PRESETS[preset][0]
    if exp.model != "lintf":
        raise ValueError(f"preset {preset!r} is not a masked linear TF (model = {exp.model!r})")
    model = MaskedLinearTF(
        exp.setting.d,
        exp.heads,
        exp.d_hid,
        generator=torch.Generator().manual_seed(0),
        attn_scale=1.0 / exp.setting.n,
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


def pruned(
    preset: str, keep: tuple[tuple[bool, ...], ...], *, seed: int = 0, steps: int = 500
) -> TrainResult:
    """Sec. 3 pruning: the trained ``preset`` model with the heads ``keep[i][j] = False`` zeroed
    (W_Q, W_K, W_V of the head: its output and all its gradients vanish, so it stays pruned), then
    fine-tuned ``steps`` steps on fresh prompts (issue budget ≤ 500; the paper: 60,000).  ``keep``
    comes from the caller (the head-importance ranking); cached like :func:`trained`."""
    exp, cfg = resolve(preset, seed=seed)
    keep = tuple(tuple(bool(k) for k in row) for row in keep)
    if [len(r) for r in keep] != list(exp.heads):
        raise ValueError(f"keep must have {exp.heads} entries per layer, got {keep}")
    ft = dataclasses.replace(cfg, steps=steps, seed=seed + 40_000)

    def compute() -> TrainResult:
        model = load_model(preset, trained(preset, seed=seed))
        with torch.no_grad():
            for i, row in enumerate(keep):
                for j, k in enumerate(row):
                    if not k:
                        for lst in (model.WQ, model.WK, model.WV):
                            lst[i][j].zero_()
        return _train_lintf(model, exp, ft)

    return cached("sparse_multihead", ("pruned", exp, cfg, keep, steps), compute)


def _train_lintf(model: torch.nn.Module, exp: SparseExperiment, cfg: TrainConfig) -> TrainResult:
    st, dt = exp.setting, torch_dtype(cfg.dtype)
    res = train(model, _objective(exp, cfg.batch_size, dt), cfg, generator=make_generator(cfg.seed))
    res.extra.update(
        test_excess=fresh_excess(
            model, st, exp.test_size, make_generator(cfg.seed + 20_000), dtype=dt
        ),
        experiment=exp,
    )
    return res
