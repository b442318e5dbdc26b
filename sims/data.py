"""torch samplers of the theory data models and the prompt embeddings.

Sampling uses an explicit ``torch.Generator`` only.  The token layout shared by zfb24
(eq. 4), zwb24 (3.1) and hpcy25 (§1.2) is columns = tokens::

    Z = [ x_1 ... x_n  x_q ]   rows 1..d : covariates
        [ y_1 ... y_n   0  ]   row  d+1  : labels; the query's label slot is 0

so ``Z`` has shape ``(B, d+1, n+1)`` and the prediction is read from entry ``[d, n]`` (0-based).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from theory.settings import LinearRegressionICL
from theory.settings.validators import RANK_RTOL  # one rank cut for numpy's and torch's PSD roots

__all__ = ["TorchPrompts", "sample_prompts", "embed", "mvn"]


@dataclass(frozen=True, slots=True)
class TorchPrompts:
    X: torch.Tensor  # (B, n, d) context covariates
    y: torch.Tensor  # (B, n) context labels
    xq: torch.Tensor  # (B, d) query covariate
    yq: torch.Tensor  # (B,) noisy query label
    beta: torch.Tensor  # (B, d) task vectors


def _sqrt_psd(S: torch.Tensor) -> torch.Tensor:
    """Torch twin of :func:`theory.common.backend.psd_sqrt` (same rank cut, ``RANK_RTOL``; sims'
    training code may not import theory beyond settings, so the constant is repeated here)."""
    w, V = torch.linalg.eigh(S)
    cut = RANK_RTOL * max(1.0, float(w.abs().max())) if w.numel() else 0.0
    return (V * torch.where(w > cut, w, torch.zeros_like(w)).sqrt()) @ V.T


def mvn(shape: tuple[int, ...], cov: torch.Tensor, *, generator: torch.Generator) -> torch.Tensor:
    """``N(0, cov)`` draws with leading ``shape`` (last axis d), from ``generator``."""
    d = cov.shape[0]
    z = torch.randn((*shape, d), generator=generator, dtype=cov.dtype, device=cov.device)
    if torch.equal(cov, torch.eye(d, dtype=cov.dtype, device=cov.device)):
        return z
    return z @ _sqrt_psd(cov)


def sample_prompts(
    setting: LinearRegressionICL,
    B: int,
    *,
    generator: torch.Generator,
    n: int | None = None,
    dtype: torch.dtype = torch.float64,
    device: torch.device | str = "cpu",
) -> TorchPrompts:
    """``B`` prompts of length ``n`` (default ``setting.N``) from the setting's data model."""
    if B < 1:
        raise ValueError(f"B must be ≥ 1, got {B}")
    n = setting.N if n is None else n
    if n < 1:
        raise ValueError(f"n (prompt length) must be ≥ 1, got {n}")
    kw = {"dtype": dtype, "device": device}
    Sx = torch.tensor(setting.covariates.Sigma_x, **kw)  # from the tuples: no read-only views
    mean = torch.tensor(setting.prior.task_mean, **kw)
    beta = mean + mvn((B,), torch.tensor(setting.prior.task_cov, **kw), generator=generator)
    X = mvn((B, n), Sx, generator=generator)  # (B, n, d)
    xq = mvn((B,), Sx, generator=generator)  # (B, d)
    sd = float(setting.noise_var) ** 0.5
    y = torch.einsum("bnd,bd->bn", X, beta)
    yq = torch.einsum("bd,bd->b", xq, beta)
    if sd > 0:
        y = y + sd * torch.randn(y.shape, generator=generator, **kw)
        yq = yq + sd * torch.randn(yq.shape, generator=generator, **kw)
    return TorchPrompts(X=X, y=y, xq=xq, yq=yq, beta=beta)


def embed(X: torch.Tensor, y: torch.Tensor, xq: torch.Tensor) -> torch.Tensor:
    """Token matrix ``Z`` (B, d+1, n+1): columns ``(x_i; y_i)`` then the query ``(x_q; 0)``."""
    B, n, d = X.shape
    top = torch.cat([X.transpose(1, 2), xq[:, :, None]], dim=2)  # (B, d, n+1)
    bottom = torch.cat([y, torch.zeros(B, 1, dtype=y.dtype, device=y.device)], dim=1)  # (B, n+1)
    return torch.cat([top, bottom[:, None, :]], dim=1)  # (B, d+1, n+1)
