"""[collins24] one literal attention unit ([collins24] §2): tokens z_i = [x_i; y_i], the query
column [x_{n+1}; 0]; keys and values from the n context tokens only.

* :class:`SoftmaxUnit` -- W_K = diag(M_K, 0), W_Q = diag(M_Q, 0), W_V = e_{d+1}e_{d+1}ᵀ·v with the
  value scalar v fixed to 1 (a buffer, not trained), tied M_K ≡ M_Q initialised at 0.001·I, no 1/√D
  factor: h = Σ_j (W_V z_j) softmax_j((W_K z_j)ᵀ(W_Q z_q)), prediction = h_{d+1}.
  ``train_value=True`` and ``include_query=True`` are fault switches (a trained value scalar; the
  query attending to itself).
* :class:`LinearAttentionUnit` -- ŷ = Σ_j y_j x_jᵀ M x_q (Theorem 3.6), M initialised at 0.

Imports torch only (the model never sees a prediction).
"""

from __future__ import annotations

import torch
from torch import nn

__all__ = ["SoftmaxUnit", "LinearAttentionUnit", "tokens"]


def tokens(X: torch.Tensor, y: torch.Tensor, xq: torch.Tensor) -> torch.Tensor:
    """Z ∈ R^{B×(d+1)×(n+1)}: columns [x_i; y_i] (i ≤ n) and [x_q; 0]."""
    top = torch.cat([X, xq[:, None, :]], dim=1)  # (B, n+1, d)
    lab = torch.cat([y, torch.zeros_like(y[:, :1])], dim=1)  # (B, n+1)
    return torch.cat([top, lab[:, :, None]], dim=2).transpose(1, 2)


class SoftmaxUnit(nn.Module):
    """ŷ = v·Σ_{j≤n} y_j softmax_j(x_jᵀM_KᵀM_Q x_q) from the full (d+1)×(d+1) weight matrices."""

    def __init__(
        self,
        d: int,
        *,
        tied: bool = True,
        init: float = 1e-3,
        train_value: bool = False,
        include_query: bool = False,
        dtype: torch.dtype = torch.float64,
    ) -> None:
        super().__init__()
        self.d, self.tied, self.include_query = d, tied, include_query
        self.M_K = nn.Parameter(init * torch.eye(d, dtype=dtype))
        self.M_Q = None if tied else nn.Parameter(init * torch.eye(d, dtype=dtype))
        self.value = nn.Parameter(torch.ones((), dtype=dtype), requires_grad=train_value)

    def _mq(self) -> torch.Tensor:
        return self.M_K if self.M_Q is None else self.M_Q

    def M(self) -> torch.Tensor:
        """The merged block M = M_KᵀM_Q (d×d)."""
        return self.M_K.T @ self._mq()

    def weights(self) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """W_K, W_Q, W_V ∈ R^{(d+1)×(d+1)} of the reparameterisation (4)."""
        z = torch.zeros(1, 1, dtype=self.M_K.dtype)
        WK = torch.block_diag(self.M_K, z)
        WQ = torch.block_diag(self._mq(), z)
        WV = torch.block_diag(torch.zeros_like(self.M_K), self.value.reshape(1, 1))
        return WK, WQ, WV

    def forward(self, Z: torch.Tensor) -> torch.Tensor:
        """h_{d+1} of the unit: the scores (W_K z_j)ᵀ(W_Q z_q) = z_jᵀ(W_Kᵀ W_Q z_q) (the query
        projected once: one (B·n)×(d+1) product instead of a key per token) and the value row
        d+1 of W_V z_j (the only row the prediction reads)."""
        WK, WQ, WV = self.weights()
        n = Z.shape[2] - 1
        ctx = (Z if self.include_query else Z[:, :, :n]).transpose(1, 2)  # (B, n, d+1): z_jᵀ
        q = Z[:, :, n] @ (WK.T @ WQ).T  # (B, d+1): W_Kᵀ W_Q z_q
        att = torch.softmax((ctx @ q[:, :, None])[..., 0], dim=1)  # (B, n)
        return (ctx @ WV[self.d] * att).sum(dim=1)  # Σ_j (W_V z_j)_{d+1} π_j


class LinearAttentionUnit(nn.Module):
    """ŷ_LA = Σ_j y_j x_jᵀMx_q (no 1/n, no normalisation), M initialised at 0."""

    def __init__(self, d: int, *, dtype: torch.dtype = torch.float64) -> None:
        super().__init__()
        self.d = d
        self.M_ = nn.Parameter(torch.zeros(d, d, dtype=dtype))

    def M(self) -> torch.Tensor:
        return self.M_

    def forward(self, Z: torch.Tensor) -> torch.Tensor:
        """Σ_j y_j x_jᵀ(M x_q): the query mapped once, then one (B·n)×d product."""
        n = Z.shape[2] - 1
        ctx = Z[:, :, :n].transpose(1, 2)  # (B, n, d+1): z_jᵀ
        q = Z[:, : self.d, n] @ self.M_.T  # (B, d): M x_q
        return (ctx[..., self.d] * (ctx[..., : self.d] @ q[:, :, None])[..., 0]).sum(dim=1)
