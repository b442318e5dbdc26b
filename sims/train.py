"""The one training loop: literal, resumable, returns a frozen record.

``train(model, objective, cfg, *, generator)`` minimises ``objective(model, generator, step)`` —
a scalar loss tensor, usually the MSE on a fresh minibatch of prompts from a sampler in
:mod:`sims.data` (online training), or an exact population loss written by the experiment
("population-gradient mode").  :func:`minibatch_objective` builds the common case.
"""

from __future__ import annotations

import io
import math
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from sims.cache import atomic_write_bytes
from sims.config import TrainConfig

__all__ = [
    "TrainResult",
    "train",
    "minibatch_objective",
    "resolve_device",
    "torch_dtype",
    "make_generator",
    "PlateauCosine",
    "window_values",
]

Objective = Callable[[torch.nn.Module, torch.Generator, int], torch.Tensor]


@dataclass(frozen=True, slots=True)
class TrainResult:
    """What a run produced: final parameters (numpy), loss history, seed, wall time."""

    params: dict[str, np.ndarray]  # state_dict as float64 numpy arrays
    steps: np.ndarray  # (k,) steps at which the loss was logged
    losses: np.ndarray  # (k,) logged training losses
    final_loss: float  # mean of the last 10 % of logged losses
    seed: int
    config: TrainConfig
    wall_time: float  # seconds spent in this process (excludes resumed part)
    extra: dict[str, Any] = field(default_factory=dict)  # e.g. gradient norms, snapshots


def resolve_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def torch_dtype(name: str) -> torch.dtype:
    return {"float32": torch.float32, "float64": torch.float64}[name]


def make_generator(seed: int, device: torch.device | str = "cpu") -> torch.Generator:
    g = torch.Generator(device=device)
    g.manual_seed(int(seed))
    return g


def minibatch_objective(
    sampler: Callable[[int, torch.Generator], tuple[Any, torch.Tensor]],
    batch_size: int,
    *,
    half: bool = False,
) -> Objective:
    """MSE (or ½·MSE) of ``model(inputs)`` against targets on a fresh batch from ``sampler``."""

    def objective(model: torch.nn.Module, gen: torch.Generator, step: int) -> torch.Tensor:
        inputs, target = sampler(batch_size, gen)
        pred = model(inputs)
        loss = torch.mean((pred - target) ** 2)
        return 0.5 * loss if half else loss

    return objective


def _make_optimizer(model: torch.nn.Module, cfg: TrainConfig) -> torch.optim.Optimizer:
    params = [p for p in model.parameters() if p.requires_grad]
    if cfg.optimizer == "adam":
        return torch.optim.AdamW(params, lr=cfg.lr, betas=cfg.betas, weight_decay=cfg.weight_decay)
    return torch.optim.SGD(params, lr=cfg.lr, momentum=cfg.momentum, weight_decay=cfg.weight_decay)


def _lr_at(cfg: TrainConfig, step: int) -> float:
    if cfg.lr_decay >= 1.0 or cfg.steps == 0:
        return cfg.lr
    frac = step / cfg.steps
    return cfg.lr * (cfg.lr_decay + (1 - cfg.lr_decay) * 0.5 * (1 + math.cos(math.pi * frac)))


def window_values(
    trace: list[dict[str, float]], key: str, last: int, window: int
) -> tuple[list[float], list[float]]:
    """The values of ``trace[key]`` logged in the window ``(last - window, last]`` and in the one
    before it, ``(last - 2 window, last - window]``: what a plateau or stop criterion on a traced
    invariant compares."""
    cur = [r[key] for r in trace if key in r and last - window < r["step"] <= last]
    prev = [r[key] for r in trace if key in r and last - 2 * window < r["step"] <= last - window]
    return cur, prev


@dataclass(frozen=True, kw_only=True, slots=True)
class PlateauCosine:
    """A learning-rate schedule that waits for the run: constant ``lr`` until a traced invariant
    has plateaued, then a cosine decay to ``floor · lr`` over ``decay_steps`` steps, then
    ``floor · lr``.

    "Plateaued" at a logged step ``t ≥ min_steps``: the means of ``trace[key]`` over the two
    windows of ``window`` steps ending at ``t`` differ by at most ``trigger`` times their mean
    magnitude (relative).  The decay then shrinks the iterate's minibatch noise (∝ lr for Adam) so
    that a stop criterion on the same invariant can be met; a fixed cosine over a step bound
    decays before the invariant has moved (too early) or runs out of steps (too late).

    Use as ``train(..., lr_at=PlateauCosine(...))``.  A pure function of ``(step, trace)``: a
    resumed run finds the same trigger step.  Frozen, so it keys a cache by ``repr``; the scan's
    memo is not part of the key.
    """

    lr: float
    trigger: float
    key: str = "inv"
    window: int = 500
    min_steps: int = 1000
    decay_steps: int = 1000
    floor: float = 0.01
    _memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        for name in ("lr", "trigger", "floor"):
            v = getattr(self, name)
            if not (math.isfinite(v) and v > 0):
                raise ValueError(f"PlateauCosine: {name} must be finite and > 0, got {v!r}")
        if self.floor > 1:
            raise ValueError(f"PlateauCosine: floor must be <= 1, got {self.floor!r}")
        for name in ("window", "min_steps", "decay_steps"):
            v = getattr(self, name)
            if not isinstance(v, int) or v < 1:
                raise ValueError(f"PlateauCosine: {name} must be an integer >= 1, got {v!r}")

    def plateaued(self, trace: list[dict[str, float]], i: int) -> bool:
        """Whether the invariant has plateaued at the ``i``-th logged record of ``trace``."""
        last = int(trace[i]["step"])
        if last < max(self.min_steps, 2 * self.window):
            return False
        cur, prev = window_values(trace, self.key, last, self.window)
        if not cur or not prev:
            return False
        a, b = float(np.mean(cur)), float(np.mean(prev))
        return abs(a - b) <= self.trigger * 0.5 * (abs(a) + abs(b))

    def trigger_step(self, trace: list[dict[str, float]]) -> int | None:
        """The first logged step at which the invariant had plateaued (``None``: not yet)."""
        memo = self._memo
        if memo.get("trace") is not trace or memo.get("seen", 0) > len(trace):
            memo.clear()  # another run's trace (or a rewound one): scan from its start
            memo["trace"] = trace
        if memo.get("t0") is None:
            for i in range(memo.get("seen", 0), len(trace)):
                if self.plateaued(trace, i):
                    memo["t0"] = int(trace[i]["step"])
                    break
            memo["seen"] = len(trace)
        return memo.get("t0")

    def __call__(self, step: int, trace: list[dict[str, float]]) -> float:
        t0 = self.trigger_step(trace)
        if t0 is None or step <= t0:
            return self.lr
        frac = min(1.0, (step - t0) / self.decay_steps)
        return self.lr * (self.floor + (1 - self.floor) * 0.5 * (1 + math.cos(math.pi * frac)))


def load_checkpoint(path: Path) -> dict[str, Any] | None:
    """A training checkpoint, loaded with ``weights_only=True`` (tensors and plain containers
    only: no pickled code runs); ``None`` if there is none.

    A truncated or corrupted file is reported with a warning, removed and ignored (training
    restarts from step 0), never half-loaded.
    """
    if not path.exists():
        return None
    try:
        state = torch.load(path, weights_only=True, map_location="cpu")
        missing = {"model", "opt", "gen", "step", "steps", "losses", "trace"} - set(state)
        if missing:
            raise ValueError(f"missing keys {sorted(missing)}")
        return state
    except Exception as exc:  # noqa: BLE001 - any unreadable checkpoint is discarded
        warnings.warn(
            f"checkpoint {path} is unreadable ({type(exc).__name__}: {exc}); "
            "training restarts from step 0",
            RuntimeWarning,
            stacklevel=2,
        )
        path.unlink(missing_ok=True)
        return None


def train(
    model: torch.nn.Module,
    objective: Objective,
    cfg: TrainConfig,
    *,
    generator: torch.Generator,
    checkpoint: str | Path | None = None,
    callback: Callable[[torch.nn.Module, int], dict[str, float] | None] | None = None,
    stop: Callable[[list[dict[str, float]]], bool] | None = None,
    lr_at: Callable[[int, list[dict[str, float]]], float] | None = None,
) -> TrainResult:
    """Run ``cfg.steps`` optimiser steps on ``objective``; resume from ``checkpoint`` if it exists.

    The model must already be on the right device and dtype. ``callback(model, step)`` runs at each
    logging step and may return scalars to record in ``extra["trace"]``.  ``stop(trace)`` (a
    convergence criterion, e.g. the drift of an invariant over a window of logged steps) is asked
    after each logging step; when it returns ``True`` training ends there and
    ``extra["stopped_at"]`` records the number of steps taken (``cfg.steps`` is then an upper
    bound).  ``lr_at(step, trace)``, when given, sets the learning rate of each step in place of
    the config's cosine schedule: a schedule that reacts to the run (e.g. decays once the invariant
    has plateaued) and is resumable, since it reads only the step and the checkpointed trace.
    """
    opt = _make_optimizer(model, cfg)
    start, steps_log, loss_log, trace = 0, [], [], []
    ckpt = Path(checkpoint) if checkpoint is not None else None
    if ckpt is not None:  # temporaries a killed run's checkpoint write left behind
        for tmp in ckpt.parent.glob(f".{ckpt.name}.*.tmp"):
            tmp.unlink(missing_ok=True)
    state = load_checkpoint(ckpt) if ckpt is not None else None
    if state is not None:
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        generator.set_state(state["gen"])
        start, steps_log = int(state["step"]), list(state["steps"])
        loss_log, trace = list(state["losses"]), list(state["trace"])
    t0 = time.perf_counter()
    bar = None
    if cfg.progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=cfg.steps, initial=start, desc="train", leave=False)
    model.train()
    stopped_at: int | None = None
    for step in range(start, cfg.steps):
        for group in opt.param_groups:
            group["lr"] = _lr_at(cfg, step) if lr_at is None else lr_at(step, trace)
        opt.zero_grad(set_to_none=True)
        loss = objective(model, generator, step)
        if not torch.isfinite(loss):
            raise FloatingPointError(f"loss became {loss.item()} at step {step} (lr={cfg.lr})")
        loss.backward()
        if cfg.grad_clip > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
        opt.step()
        if step % cfg.log_every == 0 or step == cfg.steps - 1:
            steps_log.append(step)
            loss_log.append(float(loss.detach()))
            if callback is not None:
                trace.append({"step": step, **(callback(model, step) or {})})
            if stop is not None and step < cfg.steps - 1 and stop(trace):
                stopped_at = step + 1
        if bar is not None:
            bar.update(1)
        if ckpt is not None and cfg.checkpoint_every and (step + 1) % cfg.checkpoint_every == 0:
            buf = io.BytesIO()
            torch.save(
                {
                    "model": model.state_dict(),
                    "opt": opt.state_dict(),
                    "gen": generator.get_state(),
                    "step": step + 1,
                    "steps": steps_log,
                    "losses": loss_log,
                    "trace": trace,
                },
                buf,
            )
            atomic_write_bytes(ckpt, buf.getvalue())
        if stopped_at is not None:
            break
    if bar is not None:
        bar.close()
    losses = np.asarray(loss_log, dtype=float)
    tail = losses[-max(1, len(losses) // 10) :] if len(losses) else np.array([float("nan")])
    params = {
        k: v.detach().to("cpu", torch.float64).numpy().copy() for k, v in model.state_dict().items()
    }
    return TrainResult(
        params=params,
        steps=np.asarray(steps_log, dtype=int),
        losses=losses,
        final_loss=float(np.mean(tail)),
        seed=cfg.seed,
        config=cfg,
        wall_time=time.perf_counter() - t0,
        extra={
            **({"trace": trace} if trace else {}),
            **({"stopped_at": stopped_at} if stopped_at is not None else {}),
        },
    )
