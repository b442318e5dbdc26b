"""Training-step throughput of the hpcy25 softmax model against a textbook implementation.

    python benchmarks/train_step.py [--steps 200] [--repeats 3]

Setting (issue 11): d = 5, L = 40, batch 256, Adam, float32, one thread, H = 1, 2, 4.  One step is
sampling a batch (:func:`sims.experiments.softmax_multihead.sample_batch`, the same for both),
forward, MSE, backward and ``Adam.step``.  Both models are timed side by side in one run, the best
of ``--repeats`` for each, with identical data.

* ``ours``: :class:`sims.models.softmax_attention.SoftmaxAttention` -- only the query attends (the
  paper's model reads only the query's output), through the effective circuits ``KQ^h`` and
  ``OV^h``.
* ``textbook``: per-head ``nn.Linear`` query/key/value projections of *all* ``L + 1`` tokens, full
  ``(L+1) x (L+1)`` causal-masked attention per head, concatenation and an ``nn.Linear`` output map;
  the prediction is read from the query's output -- the same function of the input, written as a
  transformer layer usually is.

It also prints where the time goes in our step (sampling, forward, backward, optimiser).
"""

from __future__ import annotations

import argparse
import math
import time

import torch
from torch import nn

from sims.experiments.softmax_multihead import HpcyExperiment, sample_batch
from sims.models.softmax_attention import SoftmaxAttention

D_IN, L, BATCH = 5, 40, 256


class Textbook(nn.Module):
    """Per-head nn.Linear projections of all tokens, full masked attention, output projection."""

    def __init__(self, d: int, H: int, generator: torch.Generator) -> None:
        super().__init__()
        D = d + 1
        self.D, self.H = D, H
        self.q = nn.ModuleList(nn.Linear(D, D, bias=False) for _ in range(H))
        self.k = nn.ModuleList(nn.Linear(D, D, bias=False) for _ in range(H))
        self.v = nn.ModuleList(nn.Linear(D, D, bias=False) for _ in range(H))
        self.o = nn.Linear(H * D, D, bias=False)
        with torch.no_grad():
            for p in self.parameters():
                bound = 1.0 / math.sqrt(p.shape[1])
                p.copy_((2 * torch.rand(p.shape, generator=generator) - 1) * bound)

    def forward(self, Z: torch.Tensor) -> torch.Tensor:
        tok = Z.transpose(1, 2)  # (B, L+1, D)
        n = tok.shape[1]
        # context columns only as keys (the paper's mask): every token attends to the L context
        mask = torch.zeros(n, n, dtype=torch.bool)
        mask[:, n - 1] = True
        heads = []
        for h in range(self.H):
            q, k, v = self.q[h](tok), self.k[h](tok), self.v[h](tok)  # (B, L+1, D)
            s = q @ k.transpose(1, 2) / math.sqrt(self.D)  # (B, L+1, L+1)
            s = s.masked_fill(mask, float("-inf"))
            heads.append(torch.softmax(s, dim=-1) @ v)  # (B, L+1, D)
        out = tok + self.o(torch.cat(heads, dim=-1))  # residual, (B, L+1, D)
        return out[:, -1, -1]  # the query's label slot


def _step(model: nn.Module, opt: torch.optim.Optimizer, exp: HpcyExperiment,
          gen: torch.Generator, parts: dict[str, float] | None = None) -> None:
    t0 = time.perf_counter()
    Z, y = sample_batch(exp, BATCH, generator=gen, dtype=torch.float32)
    t1 = time.perf_counter()
    loss = torch.mean((model(Z) - y) ** 2)
    t2 = time.perf_counter()
    opt.zero_grad(set_to_none=True)
    loss.backward()
    t3 = time.perf_counter()
    opt.step()
    t4 = time.perf_counter()
    if parts is not None:
        for k, v in zip(("sample", "forward", "backward", "adam"), (t1 - t0, t2 - t1, t3 - t2,
                                                                     t4 - t3), strict=True):
            parts[k] = parts.get(k, 0.0) + v


def time_steps(model: nn.Module, H: int, steps: int, parts: dict[str, float] | None = None
               ) -> float:
    """Seconds per training step (after 10 warm-up steps)."""
    exp = HpcyExperiment(d=D_IN, L=L, H=H)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    gen = torch.Generator().manual_seed(0)
    for _ in range(10):
        _step(model, opt, exp, gen)
    t0 = time.perf_counter()
    for _ in range(steps):
        _step(model, opt, exp, gen, parts)
    return (time.perf_counter() - t0) / steps


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    print(f"d={D_IN}, L={L}, batch={BATCH}, Adam, float32, 1 thread, {args.steps} steps, best of "
          f"{args.repeats}")
    print(f"{'H':>2} {'ours ms':>9} {'textbook ms':>12} {'ratio':>6}   ours: sample / forward / "
          "backward / adam (ms)")
    for H in (1, 2, 4):
        ours_t, book_t = math.inf, math.inf
        parts: dict[str, float] = {}
        for _ in range(args.repeats):  # interleaved, so load changes hit both
            g = torch.Generator().manual_seed(1)
            ours = SoftmaxAttention(D_IN, H, generator=g, dtype=torch.float32)
            run_parts: dict[str, float] = {}
            t = time_steps(ours, H, args.steps, run_parts)
            if t < ours_t:
                ours_t, parts = t, run_parts
            book_t = min(book_t, time_steps(Textbook(D_IN, H, torch.Generator().manual_seed(1)),
                                            H, args.steps))
        split = " / ".join(f"{1e3 * parts[k] / args.steps:.3f}"
                           for k in ("sample", "forward", "backward", "adam"))
        print(f"{H:>2} {1e3 * ours_t:9.3f} {1e3 * book_t:12.3f} {book_t / ours_t:5.2f}x   {split}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
