"""Benchmark of the Monte Carlo engines on a GD-family risk.

Run ``python benchmarks/mc_benchmark.py [--d 20 --N 40 --n 200000] [--setting general]``.

It estimates the ICL risk ``E(ŷ − y)²`` of one-step preconditioned GD ``ŷ = xᵀΓXᵀy/N`` with
every engine, all in the same process with ``numpy.random.default_rng(seed)`` (PCG64), and prints

1. the fast engine :func:`numerics.mc_fast.gd_family_risk_mc` (``vector`` and ``bartlett``
   samplers; query integrated, and the ``vector`` sampler with the query sampled),
2. the vectorised raw-prompt engine :func:`numerics.mc_fast.gd_family_risk_raw`,
3. per-prompt Python loops of the same estimators (literal raw prompts, and the fast sampler
   called with one prompt at a time), run on a smaller ``n`` and extrapolated per prompt,

with prompts/s by wall clock and by process CPU time (the machine is shared: CPU time is the
steadier figure), the ratios, the estimate ± se of each, and the closed form for reference.
"Effective prompts/s" (prompts/s × se²-ratio, i.e. the raw-prompt rate that would give the same
standard error) is printed separately and labelled as such.  Also printed: a calibration of
this process's numpy float64 normal throughput, and the load average.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # runnable from a source checkout

from numerics.mc_fast import gd_family_draw, gd_family_risk_mc, gd_family_risk_raw  # noqa: E402
from numerics.montecarlo import estimate_from_samples  # noqa: E402
from numerics.sampling import psd_sqrt  # noqa: E402
from theory.common.protocols import Estimate  # noqa: E402


@dataclass(frozen=True)
class Row:
    engine: str
    n: int
    wall: float  # seconds
    cpu: float  # process CPU seconds
    estimate: Estimate

    @property
    def rate(self) -> float:
        return self.n / self.wall

    @property
    def cpu_rate(self) -> float:
        return self.n / self.cpu if self.cpu > 0 else float("inf")


def _timed(engine: str, n: int, fn: Callable[[], Estimate]) -> Row:
    t, c = time.perf_counter(), time.process_time()
    est = fn()
    return Row(engine, n, time.perf_counter() - t, time.process_time() - c, est)


def setting(d: int, N: int, kind: str, noise_var: float, seed: int) -> dict:
    """The benchmarked GD-family problem: one-step GD with step N/(N + d + 1)."""
    if kind == "isotropic":
        S, mu, Psi, G = np.eye(d), np.zeros(d), np.eye(d) / d, np.eye(d) * N / (N + d + 1)
    else:  # general PSD Σ, a task mean, Ψ ≠ I, a non-symmetric Γ (drawn once from the seed)
        r = np.random.default_rng(seed + 10_000)
        A = r.standard_normal((d, d)) / math.sqrt(d)
        S = A @ A.T + 0.2 * np.eye(d)
        B = r.standard_normal((d, d)) / math.sqrt(d)
        Psi = (B @ B.T + np.eye(d)) / (2 * d)
        mu = r.standard_normal(d) / math.sqrt(d)
        G = np.linalg.inv(S + np.trace(S) / N * np.eye(d)) + 0.05 * r.standard_normal((d, d)) / d
    return dict(Sigma_x=S, task_mean=mu, task_cov=Psi, noise_var=noise_var, N=N, Gamma=G)


def loop_raw(c: dict, n: int, rng: np.random.Generator) -> Estimate:
    """Per-prompt Python loop over literal prompts (the naive implementation)."""
    S_half, T_half = psd_sqrt(c["Sigma_x"]), psd_sqrt(c["task_cov"])
    mu, G, N = c["task_mean"], c["Gamma"], c["N"]
    d, sd = len(mu), math.sqrt(c["noise_var"])
    vals = np.empty(n)
    for k in range(n):
        beta = mu + T_half @ rng.standard_normal(d)
        X = rng.standard_normal((N, d)) @ S_half
        y = X @ beta + sd * rng.standard_normal(N)
        xq = S_half @ rng.standard_normal(d)
        yq = xq @ beta + sd * rng.standard_normal()
        g = G @ (X.T @ y) / N
        vals[k] = (xq @ g - yq) ** 2
    return estimate_from_samples(vals)


def loop_fast(c: dict, n: int, rng: np.random.Generator) -> Estimate:
    """Per-prompt Python loop of the fast estimator (its sampler called with B = 1)."""
    draw = gd_family_draw(**c)
    return estimate_from_samples(np.array([draw(rng, 1)[0] for _ in range(n)]))


def normals_per_second(seconds: float = 0.3) -> float:
    """This process's numpy float64 standard-normal throughput into a reused buffer."""
    rng, buf = np.random.default_rng(0), np.empty(1 << 20)
    k, t = 0, time.perf_counter()
    while time.perf_counter() - t < seconds:
        rng.standard_normal(out=buf)
        k += 1
    return k * buf.size / (time.perf_counter() - t)


def run(
    *, d: int, N: int, n: int, n_raw: int, n_loop: int, seed: int, kind: str, noise_var: float
) -> dict:
    c = setting(d, N, kind, noise_var, seed)
    rows: list[Row] = []

    def fast(method: str, iq: bool) -> Callable[[], Estimate]:
        return lambda: gd_family_risk_mc(
            **c, n=n, rng=np.random.default_rng(seed), method=method, integrate_query=iq
        )

    rows.append(_timed("fast: vector sampler, query integrated", n, fast("vector", True)))
    rows.append(_timed("fast: bartlett sampler, query integrated", n, fast("bartlett", True)))
    rows.append(_timed("fast: vector sampler, query sampled", n, fast("vector", False)))
    rows.append(
        _timed(
            "raw prompts, vectorised",
            n_raw,
            lambda: gd_family_risk_raw(**c, n=n_raw, rng=np.random.default_rng(seed)),
        )
    )
    rows.append(
        _timed(
            "per-prompt loop, raw prompts",
            n_loop,
            lambda: loop_raw(c, n_loop, np.random.default_rng(seed)),
        )
    )
    rows.append(
        _timed(
            "per-prompt loop, fast estimator",
            n_loop,
            lambda: loop_fast(c, n_loop, np.random.default_rng(seed)),
        )
    )
    closed = None
    try:
        from theory.common.baselines import gd_risk

        closed = float(
            gd_risk(c["Gamma"], c["Sigma_x"], c["task_mean"], c["task_cov"], c["noise_var"], N)
        )
    except ImportError:  # pragma: no cover - baselines are part of the foundation
        pass
    return {
        "rows": rows,
        "closed_form": closed,
        "normals_per_s": normals_per_second(),
        "load": os.getloadavg(),
        "setting": dict(d=d, N=N, kind=kind, noise_var=noise_var),
    }


def report(res: dict) -> str:
    rows: list[Row] = res["rows"]
    by = {r.engine: r for r in rows}
    fast = rows[0]
    raw = by["raw prompts, vectorised"]
    lr, lf = by["per-prompt loop, raw prompts"], by["per-prompt loop, fast estimator"]
    s = res["setting"]
    out = [
        f"GD-family risk, {s['kind']} setting, d={s['d']}, N={s['N']}, noise_var={s['noise_var']}",
        f"load average {res['load'][0]:.2f}; numpy float64 normals in this process: "
        f"{res['normals_per_s'] / 1e6:.0f} M/s",
        "",
        f"{'engine':44s} {'n':>9s} {'prompts/s':>12s} {'prompts/CPU-s':>14s}   estimate ± se",
    ]
    for r in rows:
        out.append(
            f"{r.engine:44s} {r.n:9d} {r.rate:12,.0f} {r.cpu_rate:14,.0f}   "
            f"{r.estimate.mean:.5f} ± {r.estimate.se:.5f}"
        )
    if res["closed_form"] is not None:
        out.append(
            f"{'closed form (theory.common.baselines.gd_risk)':44s} {'':9s} {'':12s} "
            f"{'':14s}   {res['closed_form']:.5f}"
        )
    out += [
        "",
        f"ratio fast / per-prompt loop (raw prompts)     : {fast.rate / lr.rate:10,.0f}x wall, "
        f"{fast.cpu_rate / lr.cpu_rate:,.0f}x CPU",
        f"ratio fast / per-prompt loop (fast estimator)  : {fast.rate / lf.rate:10,.0f}x wall, "
        f"{fast.cpu_rate / lf.cpu_rate:,.0f}x CPU",
        f"ratio fast / vectorised raw prompts            : {fast.rate / raw.rate:10,.1f}x wall, "
        f"{fast.cpu_rate / raw.cpu_rate:,.1f}x CPU",
    ]
    vr = (raw.estimate.se**2 * raw.n) / (fast.estimate.se**2 * fast.n)
    out.append(
        f"EFFECTIVE prompts/s of the fast engine (raw-prompt equivalent: rate × per-prompt "
        f"variance ratio {vr:.2f}): {fast.rate * vr:,.0f} (plain figure above: {fast.rate:,.0f})"
    )
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--d", type=int, default=20)
    p.add_argument("--N", type=int, default=40)
    p.add_argument("--n", type=int, default=200_000, help="prompts for the fast engine")
    p.add_argument("--n-raw", type=int, default=None, help="prompts for the raw engine (n/4)")
    p.add_argument("--n-loop", type=int, default=2_000, help="prompts for the per-prompt loops")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--setting", choices=("isotropic", "general"), default="isotropic")
    p.add_argument("--noise-var", type=float, default=0.25)
    a = p.parse_args(argv)
    res = run(
        d=a.d,
        N=a.N,
        n=a.n,
        n_raw=a.n_raw or max(a.n // 4, 2),
        n_loop=a.n_loop,
        seed=a.seed,
        kind=a.setting,
        noise_var=a.noise_var,
    )
    print(report(res))
    return res


if __name__ == "__main__":
    main()
