"""One-layer multi-head softmax attention with residual (hpcy25 §2, spec 001 §1.3).

Source: [hpcy25] eq. (2.2)–(2.3); the authors' ``MultiHeadAttention`` (single-layer path) [C].

.. math::

    \\mathrm{TF}(Z) = Z + \\sum_{h=1}^H W_O^h W_V^h Z_{1:L}\\,
        \\mathrm{softmax}\\big(Z_{1:L}^\\top W_K^{h\\top} W_Q^h z_q / \\sqrt{D}\\big),
    \\qquad \\hat y_q = [\\mathrm{TF}(Z)]_{D, L+1}

``Z`` is the ``(B, D, L+1)`` token matrix of :func:`sims.data.embed` (``D = d + 1``; columns
``(x_i; y_i)`` then the query ``(x_q; 0)``).  Per head the parameters are *full*
``W_Q^h, W_K^h, W_V^h ∈ R^{D×D}`` (head dimension ``D``, not ``D/H``); one output map
``W_O ∈ R^{1×HD}`` (``n_out = 1``; ``n_out = n`` for the multi-task variant), no biases, scores
scaled by ``1/√D``.  The query attends to the ``L`` context columns only (causal mask of (2.2));
the residual adds 0 to the prediction slot.  Initialisation is PyTorch's ``nn.Linear`` default,
``U(−1/√fan_in, 1/√fan_in)`` (fan_in = D for the head maps, HD for ``W_O``), drawn from an explicit
``torch.Generator``.

Effective circuits (what the theory talks about): ``KQ^h = W_K^{h⊤} W_Q^h / √D`` and
``OV^h = W_O^h W_V^h`` (the last row(s) of the OV circuit), see :meth:`kq` and :meth:`ov`.

Fault switches exist **only** for negative controls: ``double_softmax=True`` applies the softmax
twice, ``query_self_attend=True`` lets the query attend to itself (its own column enters keys and
values).  Neither is the paper's model.
"""

from __future__ import annotations

import math

import torch
from torch import nn

__all__ = ["SoftmaxAttention", "uniform_init"]


def uniform_init(shape: tuple[int, ...], fan_in: int, *, generator: torch.Generator,
                 dtype: torch.dtype, device: torch.device | str) -> torch.Tensor:
    """PyTorch's default ``nn.Linear`` weight law ``U(−1/√fan_in, 1/√fan_in)``, from ``generator``.
    """
    bound = 1.0 / math.sqrt(fan_in)
    u = torch.rand(shape, generator=generator, dtype=dtype, device=device)
    return (2.0 * u - 1.0) * bound


class SoftmaxAttention(nn.Module):
    """``H`` full-rank softmax heads on ``D = d + n_out`` dimensional tokens, one output map."""

    def __init__(
        self,
        d: int,
        H: int,
        *,
        generator: torch.Generator,
        n_out: int = 1,
        double_softmax: bool = False,
        query_self_attend: bool = False,
        dtype: torch.dtype = torch.float64,
        device: torch.device | str = "cpu",
    ) -> None:
        super().__init__()
        if d < 1 or H < 1 or n_out < 1:
            raise ValueError(f"need d ≥ 1, H ≥ 1, n_out ≥ 1 (hpcy25 §2), got {d}, {H}, {n_out}")
        D = d + n_out
        self.d, self.H, self.D, self.n_out = d, H, D, n_out
        self.double_softmax, self.query_self_attend = double_softmax, query_self_attend
        kw = {"generator": generator, "dtype": dtype, "device": device}
        self.W_Q = nn.Parameter(uniform_init((H, D, D), D, **kw))  # (H, D, D) per-head query maps
        self.W_K = nn.Parameter(uniform_init((H, D, D), D, **kw))  # (H, D, D) per-head key maps
        self.W_V = nn.Parameter(uniform_init((H, D, D), D, **kw))  # (H, D, D) per-head value maps
        self.W_O = nn.Parameter(uniform_init((n_out, H * D), H * D, **kw))  # (n_out, H·D)

    def kq(self) -> torch.Tensor:
        """Effective ``KQ^h = W_K^{h⊤} W_Q^h / √D``, shape (H, D, D); score_i = z_iᵀ KQ^h z_q."""
        return torch.einsum("hki,hkj->hij", self.W_K, self.W_Q) / math.sqrt(self.D)

    def ov(self) -> torch.Tensor:
        """Effective ``OV^h = W_O^h W_V^h`` (last ``n_out`` rows of the OV circuit): (H, n_out, D).
        """
        W_O = self.W_O.view(self.n_out, self.H, self.D)  # (n_out, H, D)
        return torch.einsum("ohk,hkj->hoj", W_O, self.W_V)

    def attention(self, Z: torch.Tensor) -> torch.Tensor:
        """Attention weights of the query, (B, H, L) (or (B, H, L+1) with the self-attend fault).

        ``score_i = z_iᵀ KQ^h z_q = (W_K^h z_i)·(W_Q^h z_q)/√D``, softmax over the keys.
        """
        L = Z.shape[2] - 1
        tok = Z.transpose(1, 2)  # (B, L+1, D) tokens as rows
        keys = tok if self.query_self_attend else tok[:, :L]  # (B, L, D) context tokens
        zq = tok[:, L]  # (B, D) query token (x_q; 0)
        a = torch.einsum("hij,bj->bhi", self.kq(), zq)  # (B, H, D)  KQ^h z_q
        scores = torch.bmm(a, keys.transpose(1, 2))  # (B, H, L)
        p = torch.softmax(scores, dim=-1)
        if self.double_softmax:
            p = torch.softmax(p, dim=-1)  # FAULT (negative control only)
        return p

    def forward(self, Z: torch.Tensor) -> torch.Tensor:
        """``ŷ_q = Σ_h OV^h Z_{1:L} softmax(Z_{1:L}ᵀ KQ^h z_q)``; returns (B,) or (B, n_out)."""
        L = Z.shape[2] - 1
        tok = Z.transpose(1, 2)  # (B, L+1, D)
        vals = tok if self.query_self_attend else tok[:, :L]  # (B, L, D)
        p = self.attention(Z)  # (B, H, L)
        u = torch.bmm(p, vals)  # (B, H, D)  Σ_i p_i^h z_i
        out = torch.einsum("bhj,hoj->bo", u, self.ov())  # (B, n_out)  Σ_h OV^h Σ_i p_i^h z_i
        return out[:, 0] if self.n_out == 1 else out
