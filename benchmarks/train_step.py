"""Training-step throughput of the hpcy25 softmax model against the authors' own layer.

    python benchmarks/train_step.py [--steps 200] [--repeats 5] [--train-steps 300] [--adam fused]

Setting (issues 11, 22): d = 5, L = 40, batch 256, float32, one thread, H = 1, 2, 4.

**Module step** (forward, MSE, backward, ``torch.optim.Adam(lr=1e-3)`` step) on the *same*
pre-sampled ``torch.randn`` batches for every model, so sampling is not in it:

* ``faithful``: the hpcy25 authors' ``MultiHeadAttention`` (XintianPan/ICL_linear ``src/models.py``,
  single-layer path), rewritten here: per head a ``D x D`` query map of the query token and key and
  value maps of the ``L`` context tokens (``nn.Linear(D, H*D, bias=False)`` each, the ``H`` heads
  stacked as in their code), scores scaled by ``1/sqrt(D)``, softmax over the context, the heads
  concatenated and ``nn.Linear(H*D, 1, bias=False)`` read at the query.  Checked to compute the
  same function as ours (weights copied over) before timing.
* ``before``: our :class:`~sims.models.softmax_attention.SoftmaxAttention` parameters with the
  literal autograd forward (autograd through einsum/bmm/softmax on the effective
  circuits), written out literally below.
* ``ours``: :class:`~sims.models.softmax_attention.SoftmaxAttention` as it is now.

**Full step**: :func:`sims.hpcy25.train.run` on the presets the trained checks use
(``h1``, ``h2``, ``h4``: batch 128, AdamW, lr schedule, logging, the Obs. 4 snapshot callback,
sampling included), ``--train-steps`` steps, with ``before`` and ``ours``; per-step wall time.

Repeats are interleaved (every variant once per round, so load changes hit all of them) and the
best of ``--repeats`` is kept.  ``--adam foreach|fused`` switches every model's optimiser at once.
``--clock cpu`` times this thread's CPU time (``time.thread_time``) instead of the wall clock: on a
machine shared with other jobs it leaves out the time the process waits for a core.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from unittest import mock

import torch
from torch import nn

import sims.hpcy25.train as smh
from sims.hpcy25.train import HpcyExperiment, sample_batch
from sims.models.softmax_attention import SoftmaxAttention

D_IN, L, BATCH, N_BATCHES = 5, 40, 256, 16
Batch = tuple[torch.Tensor, torch.Tensor]
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}
clock = time.perf_counter  # set by --clock


class Faithful(nn.Module):
    """The authors' single-layer ``MultiHeadAttention`` (n_out = 1, no biases), our own code."""

    def __init__(self, d: int, H: int) -> None:
        super().__init__()
        D = d + 1
        self.D, self.H = D, H
        self.q_proj = nn.Linear(D, H * D, bias=False)  # H stacked (D, D) query maps
        self.k_proj = nn.Linear(D, H * D, bias=False)
        self.v_proj = nn.Linear(D, H * D, bias=False)
        self.o_proj = nn.Linear(H * D, 1, bias=False)

    def forward(self, Z: torch.Tensor) -> torch.Tensor:
        tok = Z.transpose(1, 2)  # (B, L+1, D)
        z_q, z = tok[:, -1:], tok[:, :-1]  # (B, 1, D) query, (B, L, D) context
        B, n, D, H = z.shape[0], z.shape[1], self.D, self.H
        q = self.q_proj(z_q).view(B, 1, H, D).permute(0, 2, 1, 3)  # (B, H, 1, D)
        k = self.k_proj(z).view(B, n, H, D).permute(0, 2, 1, 3)  # (B, H, L, D)
        v = self.v_proj(z).view(B, n, H, D).permute(0, 2, 1, 3)  # (B, H, L, D)
        w = torch.softmax(torch.matmul(q, k.transpose(-2, -1)) * D**-0.5, dim=-1)  # (B,H,1,L)
        o = torch.matmul(w, v).permute(0, 2, 1, 3).contiguous().view(B, 1, H * D)  # (B, 1, HD)
        return self.o_proj(o)[:, 0, 0]  # (B,)

    @torch.no_grad()
    def copy_from(self, m: SoftmaxAttention) -> Faithful:
        self.q_proj.weight.copy_(m.W_Q.reshape(self.H * self.D, self.D))
        self.k_proj.weight.copy_(m.W_K.reshape(self.H * self.D, self.D))
        self.v_proj.weight.copy_(m.W_V.reshape(self.H * self.D, self.D))
        self.o_proj.weight.copy_(m.W_O)
        return self


class Before(SoftmaxAttention):
    """Our parameters, the forward of ``sims/models/softmax_attention.py`` written literally
    (autograd)."""

    def forward(self, Z: torch.Tensor) -> torch.Tensor:
        L_ = Z.shape[2] - 1
        tok = Z.transpose(1, 2)  # (B, L+1, D)
        keys = tok if self.query_self_attend else tok[:, :L_]  # (B, L, D)
        zq = tok[:, L_]  # (B, D)
        kq = torch.einsum("hki,hkj->hij", self.W_K, self.W_Q) / math.sqrt(self.D)  # (H, D, D)
        a = torch.einsum("hij,bj->bhi", kq, zq)  # (B, H, D)
        p = torch.softmax(torch.bmm(a, keys.transpose(1, 2)), dim=-1)  # (B, H, L)
        if self.double_softmax:
            p = torch.softmax(p, dim=-1)
        u = torch.bmm(p, keys)  # (B, H, D)
        W_O = self.W_O.view(self.n_out, self.H, self.D)  # (n_out, H, D)
        ov = torch.einsum("ohk,hkj->hoj", W_O, self.W_V)  # (H, n_out, D)
        out = torch.einsum("bhj,hoj->bo", u, ov)  # (B, n_out)
        return out[:, 0] if self.n_out == 1 else out


def _adam(model: nn.Module, kind: str) -> torch.optim.Optimizer:
    """``torch.optim.Adam(lr=1e-3)``: the default (per-tensor loop on CPU), foreach or fused."""
    if kind == "default":
        return torch.optim.Adam(model.parameters(), lr=1e-3)
    return torch.optim.Adam(
        model.parameters(), lr=1e-3, foreach=kind == "foreach", fused=kind == "fused"
    )


def time_module(
    model: nn.Module,
    batches: list[Batch],
    steps: int,
    adam: str,
    parts: dict[str, float] | None = None,
) -> float:
    """Seconds per module step (forward, MSE, backward, Adam) after 10 warm-up steps."""
    opt = _adam(model, adam)

    def step(i: int, acc: dict[str, float] | None) -> None:
        Z, y = batches[i % len(batches)]
        t0 = clock()
        loss = torch.mean((model(Z) - y) ** 2)
        t1 = clock()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        t2 = clock()
        opt.step()
        if acc is not None:
            t3 = clock()
            for k, v in (("forward", t1 - t0), ("backward", t2 - t1), ("adam", t3 - t2)):
                acc[k] = acc.get(k, 0.0) + v

    for i in range(10):
        step(i, None)
    t0 = clock()
    for i in range(steps):
        step(i, parts)
    return (clock() - t0) / steps


def time_sampling(exp: HpcyExperiment, steps: int) -> float:
    gen = torch.Generator().manual_seed(0)
    t0 = clock()
    for _ in range(steps):
        sample_batch(exp, BATCH, generator=gen, dtype=torch.float32)
    return (clock() - t0) / steps


def time_run(preset: str, steps: int, model_cls: type[SoftmaxAttention]) -> float:
    """Seconds per step of ``smh.run(preset)`` (the trained checks' loop) with ``model_cls``."""
    original = smh.build_model

    def build(
        exp: HpcyExperiment, *, generator: torch.Generator, dtype: torch.dtype = torch.float32
    ) -> nn.Module:
        m = original(exp, generator=generator, dtype=dtype)
        if model_cls is not SoftmaxAttention:
            m.__class__ = model_cls  # same parameters, other forward
        return m

    with mock.patch.object(smh, "build_model", build):
        t0 = clock()
        smh.run(preset, steps=steps, stop=None, max_steps=0)  # exactly `steps`: no stop rule
        return (clock() - t0) / steps


def _best(fns: dict[str, Callable[[], float]], repeats: int) -> dict[str, float]:
    best = dict.fromkeys(fns, math.inf)
    for _ in range(repeats):  # interleaved, so load changes hit every variant
        for k, f in fns.items():
            best[k] = min(best[k], f())
    return best


def module_row(H: int, steps: int, repeats: int, adam: str) -> None:
    """Print one row of the module-step table."""
    exp = HpcyExperiment(d=D_IN, L=L, H=H)
    gen = torch.Generator().manual_seed(0)
    batches = [
        sample_batch(exp, BATCH, generator=gen, dtype=torch.float32) for _ in range(N_BATCHES)
    ]

    def make(cls: type[SoftmaxAttention]) -> SoftmaxAttention:
        return cls(D_IN, H, generator=torch.Generator().manual_seed(1), dtype=torch.float32)

    ours_model = make(SoftmaxAttention)
    with torch.no_grad():  # the three compute the same function
        Z = batches[0][0]
        ref = make(Before)(Z)
        gap = max(
            float((Faithful(D_IN, H).copy_from(ours_model)(Z) - ref).abs().max()),
            float((ours_model(Z) - ref).abs().max()),
        )
    assert gap < 1e-5, f"faithful / before / ours disagree by {gap}"
    parts: dict[str, float] = {}
    best_ours = math.inf

    def ours() -> float:
        nonlocal parts, best_ours
        run_parts: dict[str, float] = {}
        t = time_module(make(SoftmaxAttention), batches, steps, adam, run_parts)
        if t < best_ours:
            best_ours, parts = t, run_parts
        return t

    t = _best(
        {
            "faithful": lambda: time_module(Faithful(D_IN, H), batches, steps, adam),
            "before": lambda: time_module(make(Before), batches, steps, adam),
            "ours": ours,
        },
        repeats,
    )
    split = " / ".join(f"{1e3 * parts[k] / steps:.3f}" for k in ("forward", "backward", "adam"))
    sample = min(time_sampling(exp, steps) for _ in range(2))
    print(
        f"{H:>2} {1e3 * t['faithful']:9.3f} {1e3 * t['before']:8.3f} {1e3 * t['ours']:8.3f}"
        f"      {t['faithful'] / t['ours']:13.2f}x {t['faithful'] / t['before']:15.2f}x"
        f"   {split:>35}   {1e3 * sample:.3f}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--steps", type=int, default=200, help="timed module steps per repeat")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--train-steps", type=int, default=300, help="0 skips the full-step table")
    p.add_argument("--adam", choices=("default", "foreach", "fused"), default="default")
    p.add_argument("--clock", choices=tuple(CLOCKS), default="wall")
    p.add_argument("--heads", type=int, nargs="+", default=[1, 2, 4])
    args = p.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
    torch.set_num_threads(1)
    print(
        f"module step: d={D_IN}, L={L}, batch={BATCH}, torch Adam ({args.adam}), float32, "
        f"1 thread, {args.steps} steps, best of {args.repeats} interleaved, {args.clock} clock"
    )
    print(
        f"{'H':>2} {'faithful':>9} {'before':>8} {'ours':>8} (ms) {'faithful/ours':>14} "
        f"{'faithful/before':>16}   ours: forward / backward / adam (ms)   sample"
    )
    for H in args.heads:
        module_row(H, args.steps, args.repeats, args.adam)
    if args.train_steps:
        print(
            f"\nfull step as the trained checks run it: sims.hpcy25.train.run"
            f"(preset, steps={args.train_steps}), batch 128, AdamW, sampling included, best of "
            f"{max(1, args.repeats // 2)}"
        )
        print(f"{'preset':>6} {'before ms':>10} {'ours ms':>8} {'before/ours':>12}")
        for preset in (f"h{H}" for H in args.heads):
            t = _best(
                {
                    "before": lambda preset=preset: time_run(preset, args.train_steps, Before),
                    "ours": lambda preset=preset: time_run(
                        preset, args.train_steps, SoftmaxAttention
                    ),
                },
                max(1, args.repeats // 2),
            )
            print(
                f"{preset:>6} {1e3 * t['before']:10.3f} {1e3 * t['ours']:8.3f} "
                f"{t['before'] / t['ours']:11.2f}x"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
