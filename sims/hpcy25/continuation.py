"""hpcy25 training continued at the paper's recipe ([hpcy25] §3 and App. A.1: Adam; lr 1e-3 and
batch 256 are the authors' code's values -- the paper's text does not print them),
from the state a drawn setting's run stopped at, in cached chunks.

A continuation is a sequence of chunks of :attr:`Continuation.chunk` steps; chunk ``k`` starts
from chunk ``k − 1``'s parameters, Adam state and random stream (chunk 0 from the base run's
parameters, a fresh Adam and the stream :attr:`Continuation.stream`), so ``k`` chunks are one
uninterrupted run of ``k·chunk`` steps, and each is cached on its own: a later call resumes where
the cache ends.  :func:`continue_training` trains chunks until ``steps`` or until the seconds it
spent training exceed ``seconds`` (cached chunks cost nothing), and says how far it got.  The
model is float64 (the evaluation dtype).  This module imports nothing from the theory side but
``theory.settings``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from sims.cache import cached, is_cached
from sims.hpcy25.train import HpcyExperiment, build_model, sample_batch
from sims.train import make_generator
from theory.settings import check_int, check_real

__all__ = [
    "PAPER_LR",
    "PAPER_BATCH",
    "CHUNK_STEPS",
    "TRACE_EVERY",
    "Continuation",
    "Continued",
    "continue_training",
]

#: The authors' code's Adam lr and batch (spec 001 §1.6; [hpcy25] App. A.1 trains 500 001 steps).
PAPER_LR = 1e-3
PAPER_BATCH = 256
#: Steps per cached chunk.
CHUNK_STEPS = 20_000
#: Steps between two trace records (per-head ω_h = mean diag K11^h, μ_h, the mean minibatch loss).
TRACE_EVERY = 1000


@dataclass(frozen=True, kw_only=True, slots=True)
class Continuation:
    """The continuation's recipe (frozen: it keys the cache): Adam at ``lr``, ``batch`` prompts
    per step, ``chunk`` steps per cached chunk, the random stream ``stream``."""

    lr: float = PAPER_LR
    batch: int = PAPER_BATCH
    chunk: int = CHUNK_STEPS
    stream: int = 12345

    def __post_init__(self) -> None:
        check_real("lr", self.lr, lower=0.0, lower_open=True)
        check_int("batch", self.batch, minimum=1)
        check_int("chunk", self.chunk, minimum=1)
        check_int("stream", self.stream, minimum=0)


@dataclass(frozen=True)
class Continued:
    """Where :func:`continue_training` got: ``steps`` continued (a multiple of the chunk),
    ``params`` there (float64 numpy), the ``trace`` (dicts with ``step``, ``loss`` and
    ``omega_<h>``, ``mu_<h>``), the ``seconds`` spent training in this call (cached chunks cost
    nothing), and whether it reached the ``steps`` asked for (``complete``)."""

    steps: int
    params: dict[str, np.ndarray]
    trace: list[dict[str, float]]
    seconds: float
    complete: bool


def _heads(model: torch.nn.Module, d: int) -> dict[str, float]:
    kq, ov = model.kq(), model.ov()  # type: ignore[operator]
    om = kq[:, :d, :d].diagonal(dim1=1, dim2=2).mean(dim=1)
    return {
        **{f"omega_{h}": float(w) for h, w in enumerate(om)},
        **{f"mu_{h}": float(m) for h, m in enumerate(ov[:, 0, d])},
    }


def _key(base_key: tuple[Any, ...], cont: Continuation, k: int) -> tuple[Any, ...]:
    return (*base_key, "continued", cont, k)


def _chunk(
    exp: HpcyExperiment,
    base_key: tuple[Any, ...],
    base_params: dict[str, np.ndarray],
    cont: Continuation,
    k: int,
) -> dict[str, Any]:
    """Chunk ``k`` (cached): its end state and its trace records."""

    def compute() -> dict[str, Any]:
        model = build_model(exp, generator=make_generator(0), dtype=torch.float64)
        opt = torch.optim.Adam(model.parameters(), lr=cont.lr)
        gen = torch.Generator().manual_seed(cont.stream)
        if k == 0:
            start = {n: torch.as_tensor(v, dtype=torch.float64) for n, v in base_params.items()}
            model.load_state_dict(start)
        else:
            prev = _chunk(exp, base_key, base_params, cont, k - 1)
            model.load_state_dict({n: torch.as_tensor(v) for n, v in prev["params"].items()})
            opt.load_state_dict(prev["adam"])
            gen.set_state(prev["generator"])
        trace: list[dict[str, float]] = []
        losses: list[float] = []
        t0 = time.perf_counter()
        for i in range(cont.chunk):
            Z, y = sample_batch(exp, cont.batch, generator=gen, dtype=torch.float64)
            loss = torch.mean((model(Z) - y) ** 2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(float(loss.detach()))
            step = k * cont.chunk + i + 1
            if step % TRACE_EVERY == 0 or i + 1 == cont.chunk:
                with torch.no_grad():
                    heads = _heads(model, exp.d)
                trace.append({"step": step, "loss": float(np.mean(losses)), **heads})
                losses = []
        params = {n: v.detach().numpy().copy() for n, v in model.state_dict().items()}
        return {
            "params": params,
            "adam": opt.state_dict(),
            "generator": gen.get_state(),
            "trace": trace,
            "seconds": time.perf_counter() - t0,
        }

    return cached("hpcy25", _key(base_key, cont, k), compute)


def continue_training(
    exp: HpcyExperiment,
    base_key: tuple[Any, ...],
    base_params: dict[str, np.ndarray],
    *,
    steps: int,
    seconds: float,
    cont: Continuation = Continuation(),
) -> Continued:
    """Continue the run keyed ``base_key`` (its final ``base_params``) by ``steps`` steps at the
    recipe ``cont`` (rounded up to whole chunks), chunk by chunk through the cache: a cached
    chunk is read whatever the budget; a chunk not cached is trained only while the chunks
    trained in this call have taken less than ``seconds``."""
    check_int("steps", steps, minimum=1)
    check_real("seconds", seconds, lower=0.0)
    n_chunks = math.ceil(steps / cont.chunk)
    spent, trace = 0.0, []
    params = base_params
    done = 0
    for k in range(n_chunks):
        new = not is_cached("hpcy25", _key(base_key, cont, k), __name__)
        if new and spent >= seconds:
            break
        t0 = time.perf_counter()
        out = _chunk(exp, base_key, base_params, cont, k)
        spent += time.perf_counter() - t0 if new else 0.0
        params, done = out["params"], (k + 1) * cont.chunk
        trace += out["trace"]
    return Continued(done, params, trace, spent, done >= n_chunks * cont.chunk)
