"""GD-β: one step of preconditioned gradient descent from a learnable initialisation (zwb24 (5.1)).

Source: [zwb24] eq. (5.1).

.. math::

    f_{\\Gamma,\\beta}(Z) = \\big\\langle \\beta
        + \\tfrac1N\\Gamma X^\\top(y - X\\beta),\\ x\\big\\rangle

Trained directly ([zwb24] App. G).  Input is the token matrix ``Z`` (B, d+1, N+1) of
:func:`sims.data.embed`.
"""

from __future__ import annotations

import torch
from torch import nn

__all__ = ["GDBeta"]


class GDBeta(nn.Module):
    def __init__(
        self, d: int, *, dtype: torch.dtype = torch.float64, device: torch.device | str = "cpu"
    ) -> None:
        super().__init__()
        self.d = d
        self.Gamma = nn.Parameter(torch.zeros(d, d, dtype=dtype, device=device))  # (d, d) Γ
        self.beta = nn.Parameter(torch.zeros(d, dtype=dtype, device=device))  # (d,) init β

    def forward(self, Z: torch.Tensor) -> torch.Tensor:
        d, n = self.d, Z.shape[2] - 1
        X = Z[:, :d, :n].transpose(1, 2)  # (B, N, d)
        y = Z[:, d, :n]  # (B, N)
        xq = Z[:, :d, n]  # (B, d)
        r = y - X @ self.beta  # (B, N) residuals at the initialisation
        grad = torch.bmm(X.transpose(1, 2), r[:, :, None])[:, :, 0]  # (B, d)  Xᵀ(y − Xβ)
        g = self.beta + grad @ self.Gamma.T / n  # (B, d)
        return (xq * g).sum(dim=1)
