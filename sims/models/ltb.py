"""Linear Transformer Block (LTB) of zwb24 (3.3): the LSA of :mod:`sims.models.lsa` (factored
parameterisation, mask (3.2)) followed by a residual linear MLP.

Source: [zwb24] eq. (3.3), (3.4).

.. math::

    U(Z) = Z + \\tfrac1N W_PW_V\\,Z M Z^\\top W_K^\\top W_Q\\,Z, \\qquad
    f_{LTB}(Z) = [\\,U(Z) + W_2W_1U(Z)\\,]_{d+1, N+1}

Only the query column of ``U`` is computed.  ``mlp=False`` is the LSA (``W_1 = W_2 = 0``; the
forward pass *is* :class:`sims.models.lsa.LSA`'s).  Fault switches for negative controls only:
``mlp_residual=False`` (the MLP without its residual, ``W_2W_1U``) and ``mask_query=False`` (the
query column enters ``Z M Zᵀ``).
"""

from __future__ import annotations

import torch
from torch import nn

from sims.models.lsa import LSA

__all__ = ["LTB"]


class LTB(nn.Module):
    def __init__(
        self,
        d: int,
        *,
        k: int | None = None,
        v: int | None = None,
        m: int | None = None,
        mlp: bool = True,
        mlp_residual: bool = True,
        mask_query: bool = True,
        dtype: torch.dtype = torch.float64,
        device: torch.device | str = "cpu",
    ) -> None:
        super().__init__()
        D = d + 1
        self.d, self.mlp, self.mlp_residual = d, mlp, mlp_residual
        self.attn = LSA(
            d,
            parameterisation="factored",
            mask_query=mask_query,
            k=k,
            v=v,
            dtype=dtype,
            device=device,
        )
        if mlp:
            m = m or D
            self.W_1 = nn.Parameter(torch.zeros(m, D, dtype=dtype, device=device))  # (m, d+1)
            self.W_2 = nn.Parameter(torch.zeros(D, m, dtype=dtype, device=device))  # (d+1, m)

    @torch.no_grad()
    def init_normal(self, std: float, *, generator: torch.Generator) -> LTB:
        """All weights i.i.d. ``N(0, std²)`` from ``generator`` (Table 1's runs: std = 0.1)."""
        for p in self.parameters():
            p.copy_(std * torch.randn(p.shape, generator=generator, dtype=p.dtype))
        return self

    def gram(self, Z: torch.Tensor) -> torch.Tensor:
        """``Z M Zᵀ / N`` (B, d+1, d+1) with the mask (3.2) (query column dropped)."""
        n = Z.shape[2] - 1
        Zc = Z[:, :, :n] if self.attn.mask_query else Z
        return Zc @ Zc.transpose(1, 2) / n

    def attention_column(self, Z: torch.Tensor) -> torch.Tensor:
        """Query column of ``U(Z)``, shape (B, d+1)."""
        G = self.gram(Z)  # (B, d+1, d+1)
        zq = Z[:, :, -1]  # (B, d+1)
        w = torch.bmm(G, (zq @ self.attn.kq().T)[:, :, None])[:, :, 0]  # (B, d+1) G W^{KQ} z_q
        return zq + w @ self.attn.pv().T

    def forward(self, Z: torch.Tensor) -> torch.Tensor:
        """``ŷ`` (B,) for token matrices ``Z`` (B, d+1, N+1)."""
        if not self.mlp:
            return self.attn(Z)  # LSA (3.4); the residual's query entry is 0
        u = self.attention_column(Z)
        Mu = u @ (self.W_2 @ self.W_1).T
        return (u + Mu if self.mlp_residual else Mu)[:, -1]
