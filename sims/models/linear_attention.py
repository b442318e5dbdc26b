"""Multi-head linear attention with a *fixed* length normaliser (hpcy25 §5.1).

Source: [hpcy25] eq. (5.1).

.. math::

    f(Z) = Z + \\frac{1}{L_0} \\sum_{h=1}^H W_{OV}^h Z M' Z^\\top W_{KQ}^h Z, \\qquad
    M' = \\mathrm{diag}(I_L, 0), \\qquad \\hat y_q = [f(Z)]_{D, L+1}

``L_0`` is the *training* prompt length and stays fixed at test time (the learned weights absorb the
training ``1/L``; this is what makes linear attention fail to length-generalise).
Per head the parameters are the merged ``W_{KQ}^h ∈ R^{D×D}`` and the last row of ``W_{OV}^h``
(the only row that reaches the prediction), initialised ``U(−1/√D, 1/√D)`` from an explicit
generator.  Only the prediction entry is computed:
``ŷ = Σ_h (W_OV^h)_{D,:} (Z_{1:L} Z_{1:L}ᵀ / L_0) W_KQ^h z_q``.
"""

from __future__ import annotations

import torch
from torch import nn

from sims.models.softmax_attention import uniform_init

__all__ = ["LinearAttention"]


class LinearAttention(nn.Module):
    def __init__(
        self,
        d: int,
        H: int,
        *,
        L0: int,
        generator: torch.Generator,
        dtype: torch.dtype = torch.float64,
        device: torch.device | str = "cpu",
    ) -> None:
        super().__init__()
        if d < 1 or H < 1 or L0 < 1:
            raise ValueError(f"need d ≥ 1, H ≥ 1, L0 ≥ 1 (hpcy25 §5.1), got {d}, {H}, {L0}")
        D = d + 1
        self.d, self.H, self.D, self.L0 = d, H, D, L0
        kw = {"generator": generator, "dtype": dtype, "device": device}
        self.W_KQ = nn.Parameter(uniform_init((H, D, D), D, **kw))  # (H, D, D) merged KQ per head
        self.W_OV = nn.Parameter(uniform_init((H, D), D, **kw))  # (H, D) last row of OV per head

    def forward(self, Z: torch.Tensor) -> torch.Tensor:
        """``ŷ = Σ_h (W_OV^h)_{D,:} (Z_{1:L} Z_{1:L}ᵀ / L_0) W_KQ^h z_q``; Z (B, D, L+1) -> (B,)."""
        L = Z.shape[2] - 1
        ctx = Z[:, :, :L]  # (B, D, L) context columns (mask M' drops the query)
        G = ctx @ ctx.transpose(1, 2) / self.L0  # (B, D, D)  fixed training normaliser
        zq = Z[:, :, L]  # (B, D)
        return torch.einsum("hi,bij,hjk,bk->b", self.W_OV, G, self.W_KQ, zq)  # (B,)
