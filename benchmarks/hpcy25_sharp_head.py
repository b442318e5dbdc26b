"""Study (not a check): hpcy25 Obs. 1/2 at H >= 3 drawn settings, at the paper's training scale.

    python benchmarks/hpcy25_sharp_head.py continue D L SIGMA2 H [--steps 200000] [--every 20000]
    python benchmarks/hpcy25_sharp_head.py risk D L SIGMA2 [--prompts 100000]

``continue`` trains the setting as ``check_obs1_train`` does (seed 0, the derived recipe and the
pattern stop, through the model cache), then continues from that state at the paper's recipe
([hpcy25] App. A.1: Adam, lr 1e-3, batch 256) and prints, every ``--every`` steps, one JSON line
with what the Obs-1 rows judge: ⟨ω, μ⟩ and 1/κ, each head's (ω_h, μ_h), its share of the
prediction and ablation ΔR (``sims.hpcy25.sec3_heads``), diag_ratio, ov_ratio, the
|ω| spread of the contributing heads and whether the pattern rows (diag ≥ 0.97, ov ≥ 0.98, sign
matching, spread ≤ 15 %) would pass.  About 5 min per 200 000 steps on one idle core.

``risk`` is a route that does not train: the pattern model's single-head features
k_ω = Σ_i softmax(ω x_iᵀx_q)_i y_i (the model code at ``heads.ideal_params``, H = 1), the best
homogeneous zero-sum pair m (k_ω − k_−ω) over a grid of ω against the same pair plus one sharp
head μ_s k_ω_s (ω_s on a grid), OV scales by least squares on one sample of prompts, risks paired
on an independent one; prints the gain (homogeneous minus with the sharp head) and its standard
error.  The optima may sit on the grids' edges: the gains are a first look.

Findings (docs/papers/hpcy25.md, "Paper-scale continuation") are numbers for the notes;
nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # runnable from a source checkout

import numpy as np  # noqa: E402
import torch  # noqa: E402

#: The paper's recipe ([hpcy25] App. A.1): Adam at this lr, this batch.
PAPER_LR, PAPER_BATCH = 1e-3, 256
#: Grids of the ``risk`` route: the pair's |ω| and the sharp head's ω_s (both signs).
PAIR_GRID = (0.05, 0.08, 0.1, 0.12, 0.14, 0.17, 0.2, 0.25, 0.3)
SHARP_GRID = (0.5, 1.0, 1.5, 2.0, 3.0, 5.0)


def _continue(d: int, L: int, sigma2: float, H: int, steps: int, every: int) -> None:
    from sims.hpcy25 import evidence as ev_
    from sims.hpcy25.sec3_heads import judge_heads
    from sims.hpcy25.sec3_obs1_setting import OBS1_PATH, setting_plan
    from sims.hpcy25.train import build_model, sample_batch, trained

    plan = setting_plan(d=d, L=L, sigma2=sigma2, H=H)  # as check_obs1_train trains the setting
    exp = plan.exp
    t0 = time.perf_counter()
    res = trained(exp, plan.recipe, seed=0)
    step = int(res.extra.get("stopped_at", plan.recipe.steps))

    def report(params: dict[str, np.ndarray]) -> None:
        m = judge_heads(
            ev_.pattern_metrics(exp, params), exp, params, rtol=plan.rtol, seed=0, path=OBS1_PATH
        )
        rows = [*ev_.pattern_rows("", m), ev_.spread_row("", m)]  # the Obs-1/2 rows themselves
        r = {
            "step": step,
            "inv": float(m["omega"] @ m["mu"]),
            "one_over_kappa": plan.k_inv,
            "omega": m["omega"].round(4).tolist(),
            "mu": m["mu"].round(4).tolist(),
            "share": m["share"].round(4).tolist(),
            "dR": m["ablation_dR"].round(5).tolist(),
            "dR_se": m["ablation_dR_se"].round(5).tolist(),
            "judged": m["active"].tolist(),
            "diag_ratio": m["diag_ratio"].round(4).tolist(),
            "ov_ratio": m["ov_ratio"].round(4).tolist(),
            "spread": round(float(rows[-1].observed), 4),
            "pattern_rows_pass": all(e.passed for e in rows),
            "seconds": round(time.perf_counter() - t0, 1),
        }
        print(json.dumps(r), flush=True)

    report(res.params)
    model = build_model(exp, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    model.load_state_dict({k: torch.as_tensor(v) for k, v in res.params.items()})
    opt = torch.optim.Adam(model.parameters(), lr=PAPER_LR)
    gen = torch.Generator().manual_seed(12345)  # the continuation's own stream
    end = step + steps
    while step < end:
        for _ in range(min(every, end - step)):
            Z, y = sample_batch(exp, PAPER_BATCH, generator=gen, dtype=torch.float64)
            loss = torch.mean((model(Z) - y) ** 2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
        report({k: v.detach().numpy().copy() for k, v in model.state_dict().items()})


def _risk(d: int, L: int, sigma2: float, prompts: int) -> None:
    from sims.hpcy25.sec3_heads import ideal_params
    from sims.hpcy25.train import HpcyExperiment, load_model, sample_batch
    from sims.train import make_generator

    exp1 = HpcyExperiment(d=d, L=L, sigma2=sigma2, H=1)

    def sample(seed: int) -> tuple[torch.Tensor, np.ndarray]:
        Z, t = sample_batch(exp1, prompts, generator=make_generator(seed), dtype=torch.float64)
        return Z, (t if t.ndim == 1 else t[:, 0]).numpy()

    @torch.no_grad()
    def k(Z: torch.Tensor, w: float) -> np.ndarray:
        out = load_model(exp1, ideal_params(exp1, np.array([w]), np.array([1.0])))(Z)
        return (out if out.ndim == 1 else out[:, 0]).numpy()

    def fit(F: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
        c = np.linalg.solve(F.T @ F, F.T @ y)
        return float(np.mean((y - F @ c) ** 2)), c

    (ZA, yA), (ZB, yB) = sample(1), sample(2)  # fit on A, evaluate on B
    ws = sorted({*PAIR_GRID, *(-w for w in PAIR_GRID), *SHARP_GRID, *(-w for w in SHARP_GRID)})
    KA = {w: k(ZA, w) for w in ws}
    hom = min(((fit((KA[w] - KA[-w])[:, None], yA), w) for w in PAIR_GRID), key=lambda t: t[0][0])
    (_, c_h), w_h = hom
    sharp = min(
        (
            (fit(np.stack([KA[w] - KA[-w], KA[s]], 1), yA), w, s)
            for w in PAIR_GRID
            for s in (*SHARP_GRID, *(-x for x in SHARP_GRID))
        ),
        key=lambda t: t[0][0],
    )
    (_, c_s), w_s, s_s = sharp
    e_h = (yB - c_h[0] * (k(ZB, w_h) - k(ZB, -w_h))) ** 2
    e_s = (yB - c_s[0] * (k(ZB, w_s) - k(ZB, -w_s)) - c_s[1] * k(ZB, s_s)) ** 2
    diff = e_h - e_s
    se = float(diff.std(ddof=1) / math.sqrt(prompts))
    print(
        json.dumps(
            {
                "setting": [d, L, sigma2],
                "homogeneous": {"omega": w_h, "m": float(c_h[0]), "risk": float(e_h.mean())},
                "with_sharp_head": {
                    "omega": w_s,
                    "m": float(c_s[0]),
                    "omega_s": s_s,
                    "mu_s": float(c_s[1]),
                    "risk": float(e_s.mean()),
                },
                "gain": float(diff.mean()),
                "gain_se": se,
            }
        )
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("continue")
    r = sub.add_parser("risk")
    for q in (c, r):
        q.add_argument("d", type=int)
        q.add_argument("L", type=int)
        q.add_argument("sigma2", type=float)
    c.add_argument("H", type=int)
    c.add_argument("--steps", type=int, default=200_000)
    c.add_argument("--every", type=int, default=20_000)
    r.add_argument("--prompts", type=int, default=100_000)
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    if args.cmd == "continue":
        if args.H < 3 or args.steps < 1 or args.every < 1:
            p.error(
                f"need H >= 3, steps >= 1, every >= 1; got {args.H}, {args.steps}, {args.every}"
            )
        _continue(args.d, args.L, args.sigma2, args.H, args.steps, args.every)
    else:
        if args.prompts < 100:
            p.error(f"need prompts >= 100, got {args.prompts}")
        _risk(args.d, args.L, args.sigma2, args.prompts)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
