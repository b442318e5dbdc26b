"""collins24 training data ([collins24] §2): prompts of a
:class:`~theory.collins24.settings.SoftmaxWindowSetting` drawn in torch for the trained units
(:mod:`sims.collins24.train`) and the torch-sampler Monte Carlo checks.

Imports only ``theory.settings`` and sims modules (no prediction).
"""

from __future__ import annotations

import numpy as np
import torch

from theory.collins24.settings import SoftmaxWindowSetting

__all__ = ["sample_batch"]


def _normal(gen: torch.Generator, *shape: int) -> torch.Tensor:
    """Standard normals drawn in float32 and returned in float64 (stated rule): torch's float32
    normals are ~4× faster on this CPU (0.9 vs 3.5 ms per step of 256 prompts, d = 5, n = 20; they
    were 40 % of a training step), and what float32 changes is far below what a trained unit
    resolves -- a draw's rounding is 6·10⁻⁸ relative and the tail cut of torch's CPU float32
    normals (Box–Muller on 24-bit uniforms, |z| ≤ 5.8) removes a mass ~10⁻⁸, while the rows
    compare ω̂ at 5-10 % (the steps' own gradient noise is ≥ 1/√256 relative).  Every product
    and sum after the draw is float64."""
    return torch.randn(*shape, generator=gen, dtype=torch.float32).to(torch.float64)


def _sphere(gen: torch.Generator, shape: tuple[int, ...], d: int) -> torch.Tensor:
    z = _normal(gen, *shape, d)
    return z / z.norm(dim=-1, keepdim=True)


def sample_batch(
    s: SoftmaxWindowSetting, B: int, gen: torch.Generator, *, link: str = "linear"
) -> tuple[torch.Tensor, torch.Tensor]:
    """B prompts (tokens Z, noiseless target f(x_q)); uniform / ellipsoid / acg / lowrank
    covariates (ellipsoid: x = Σ^{1/2}x̃ with the task read on x̃, Assumption 3.3 as we read it)."""
    d, n, cov, T = s.d, s.n, s.covariates, s.tasks
    Xw: torch.Tensor | None = None  # ellipsoid: the whitened draw x̃ ~ U^d
    if cov.kind == "uniform":
        X = _sphere(gen, (B, n + 1), d)
    elif cov.kind == "acg":
        z = _normal(gen, B, n + 1, d) * torch.arange(1, d + 1, dtype=torch.float64)
        X = z / z.norm(dim=-1, keepdim=True)
    elif cov.kind == "ellipsoid":  # Assumption 3.3: x = Σ^{1/2}x̃, x̃ ~ U^d; tasks act on x̃
        Xw = _sphere(gen, (B, n + 1), d)
        X = Xw * torch.as_tensor(np.sqrt(np.asarray(cov.Sigma_diag, dtype=float)))
    elif cov.kind == "lowrank":
        k = cov.k or 1
        X = torch.cat(
            [cov.c_u * _sphere(gen, (B, n + 1), k), cov.c_v * _sphere(gen, (B, n + 1), d - k)],
            dim=-1,
        )
    else:
        raise ValueError(f"covariates kind {cov.kind!r} is not sampled in torch")
    Xt = X if Xw is None else Xw  # the coordinates the task functions read (spec G6)
    u = (torch.rand(3, B, generator=gen, dtype=torch.float64) * 2 - 1) * T.L
    b = u[2] if T.intercept else torch.zeros(B, dtype=torch.float64)
    if T.kind == "lowrank":
        k = cov.k or 1
        a = _sphere(gen, (B,), k)
        g = torch.einsum("bmk,bk->bm", X[..., :k], a)
        g = g * g if link == "square" else torch.cos(4 * g) if link == "cos4" else g
        f = g + T.offset
    elif T.kind == "constant":
        f = (torch.rand(B, 1, generator=gen, dtype=torch.float64) * 2 - 1).expand(B, n + 1)
    elif T.kind == "hills":
        ph = (torch.rand(B, 1, generator=gen, dtype=torch.float64) * 2 - 1) * torch.pi
        f = torch.cos(T.L * torch.atan2(X[..., 1], X[..., 0]) - ph)
    else:
        v = _sphere(gen, (B,), d)
        t = torch.einsum("bmd,bd->bm", Xt, v)
        if T.kind in ("affine", "linear"):
            f = u[0, :, None] * t + b[:, None] if T.kind == "affine" else T.L * t
        elif T.kind == "relu":
            f = u[0, :, None] * t.clamp(min=0) + u[1, :, None] * (-t).clamp(min=0) + b[:, None]
        else:
            f = torch.cos(T.L * t)
    eps = s.sigma2**0.5 * _normal(gen, B, n)
    lab = torch.zeros(B, n + 1, 1, dtype=X.dtype)
    lab[:, :n, 0] = f[:, :n] + eps
    # Z = sims.models.softmax_unit.tokens(X[:, :n], labels, X[:, n]) in one concatenation
    return torch.cat([X, lab], dim=2).transpose(1, 2), f[:, n]
