"""One-layer multi-head softmax attention with residual (hpcy25 §2).

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

Speed: :meth:`SoftmaxAttention.forward` runs one ``torch.autograd.Function``
(:class:`_QueryAttention`) whose backward is the analytic gradient of one query's softmax
attention, over the *same* parameters (names, shapes, ``state_dict``, initialisation unchanged).
It computes the same function and gradients as the literal autograd path
:meth:`SoftmaxAttention.forward_autograd` up to float32 round-off (tests/common/
test_softmax_attention_speedpath.py); the ``double_softmax`` fault takes the literal path.
"""

from __future__ import annotations

import math
from typing import Any

import torch
from torch import nn
from torch.autograd.function import once_differentiable

__all__ = ["SoftmaxAttention", "uniform_init"]


def uniform_init(
    shape: tuple[int, ...],
    fan_in: int,
    *,
    generator: torch.Generator,
    dtype: torch.dtype,
    device: torch.device | str,
) -> torch.Tensor:
    """PyTorch's ``nn.Linear`` weight law ``U(−1/√fan_in, 1/√fan_in)``, drawn from ``generator``."""
    bound = 1.0 / math.sqrt(fan_in)
    u = torch.rand(shape, generator=generator, dtype=dtype, device=device)
    return (2.0 * u - 1.0) * bound


class _QueryAttention(torch.autograd.Function):
    """``ŷ = Σ_h OV^h Σ_i p_i^h z_i``, ``p^h = softmax_i(z_iᵀ KQ^h z_q)``; analytic backward.

    Inputs: ``keys`` (B, n, D) (the context tokens, or all ``L + 1`` with the self-attend fault),
    ``z_q`` (B, D), ``W_Q, W_K, W_V`` (H, D, D), ``W_O`` (n_out, H·D); output (B, n_out).  With
    ``a^h = KQ^h z_q``, ``u^h = Σ_i p_i^h z_i`` and an upstream gradient ``g`` (B, n_out):
    ``∂u^h = OV^{h⊤} g``, ``∂s_i^h = p_i^h (z_i·∂u^h − u^h·∂u^h)`` (softmax backward, since
    ``Σ_i p_i^h z_i·∂u^h = u^h·∂u^h``), ``∂a^h = Σ_i ∂s_i^h z_i``; then ``∂KQ^h = Σ_b ∂a^h z_qᵀ``,
    ``∂OV^h = Σ_b g u^{h⊤}`` and the chain rule through ``KQ^h = W_K^{h⊤} W_Q^h/√D``,
    ``OV^h = W_O^h W_V^h``.
    """

    @staticmethod
    def forward(
        ctx: Any,
        keys: torch.Tensor,
        z_q: torch.Tensor,
        W_Q: torch.Tensor,
        W_K: torch.Tensor,
        W_V: torch.Tensor,
        W_O: torch.Tensor,
    ) -> torch.Tensor:
        (H, D, _), n_out, B = W_Q.shape, W_O.shape[0], z_q.shape[0]
        kq = torch.bmm(W_K.transpose(1, 2), W_Q) / math.sqrt(D)  # (H, D, D)  KQ^h
        M = kq.permute(2, 0, 1).reshape(D, H * D)  # (D, H·D)  M[j, hD+i] = KQ^h_ij
        a = torch.mm(z_q, M).view(B, H, D)  # (B, H, D)  a^h = KQ^h z_q
        p = torch.softmax(torch.bmm(a, keys.transpose(1, 2)), dim=-1)  # (B, H, n)
        u = torch.bmm(p, keys)  # (B, H, D)  u^h = Σ_i p_i^h z_i
        W_Oh = W_O.view(n_out, H, D).transpose(0, 1)  # (H, n_out, D)  W_O^h
        N = torch.bmm(W_Oh, W_V).transpose(1, 2).reshape(H * D, n_out)  # (H·D, n_out)  OV^{h⊤}
        ctx.save_for_backward(keys, z_q, W_Q, W_K, W_V, W_Oh, M, N, a, p, u)
        return torch.mm(u.view(B, H * D), N)  # (B, n_out)  Σ_h OV^h u^h

    @staticmethod
    @once_differentiable
    def backward(  # pyright: ignore[reportIncompatibleMethodOverride]  (once_differentiable)
        ctx: Any,
        *grad_outputs: torch.Tensor,
    ) -> tuple[torch.Tensor | None, ...]:
        (g,) = grad_outputs  # (B, n_out)
        keys, z_q, W_Q, W_K, W_V, W_Oh, M, N, a, p, u = ctx.saved_tensors
        (H, D, _), n_out, B = W_Q.shape, N.shape[1], z_q.shape[0]
        need = ctx.needs_input_grad
        du = torch.mm(g, N.t()).view(B, H, D)  # (B, H, D)  ∂u^h = OV^{h⊤} g
        dp = torch.bmm(du, keys.transpose(1, 2))  # (B, H, n)  z_i·∂u^h
        ds = dp.sub_((u * du).sum(-1, keepdim=True)).mul_(p)  # (B, H, n)  softmax backward
        da = torch.bmm(ds, keys).view(B, H * D)  # (B, H·D)  ∂a^h = Σ_i ∂s_i^h z_i
        d_keys = (
            torch.bmm(ds.transpose(1, 2), a) + torch.bmm(p.transpose(1, 2), du) if need[0] else None
        )  # (B, n, D)
        d_zq = torch.mm(da, M.t()) if need[1] else None  # (B, D)
        dW_Q = dW_K = dW_V = dW_O = None
        if need[2] or need[3]:
            dkq = torch.mm(z_q.t(), da).view(D, H, D).permute(1, 2, 0) / math.sqrt(D)  # (H, D, D)
            dW_Q = torch.bmm(W_K, dkq) if need[2] else None  # (H, D, D)
            dW_K = torch.bmm(W_Q, dkq.transpose(1, 2)) if need[3] else None  # (H, D, D)
        if need[4] or need[5]:
            dov = torch.mm(u.view(B, H * D).t(), g).view(H, D, n_out).transpose(1, 2)  # (H,n_out,D)
            dW_V = torch.bmm(W_Oh.transpose(1, 2), dov) if need[4] else None  # (H, D, D)
            dW_O = (
                torch.bmm(dov, W_V.transpose(1, 2)).transpose(0, 1).reshape(n_out, H * D)
                if need[5]
                else None
            )  # (n_out, H·D)
        return d_keys, d_zq, dW_Q, dW_K, dW_V, dW_O


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
        """Effective ``OV^h = W_O^h W_V^h`` (the last ``n_out`` rows of OV): (H, n_out, D)."""
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
        """``ŷ_q = Σ_h OV^h Z_{1:L} softmax(Z_{1:L}ᵀ KQ^h z_q)``; returns (B,) or (B, n_out).

        One :class:`_QueryAttention` call (analytic backward); the same function as
        :meth:`forward_autograd`.
        """
        if self.double_softmax:
            return self.forward_autograd(Z)  # FAULT (negative control only): the literal path
        L = Z.shape[2] - 1
        tok = Z.transpose(1, 2)  # (B, L+1, D)
        keys = tok if self.query_self_attend else tok[:, :L]  # (B, L, D)
        out = _QueryAttention.apply(keys, tok[:, L], self.W_Q, self.W_K, self.W_V, self.W_O)
        return out[:, 0] if self.n_out == 1 else out  # (B,) or (B, n_out)

    def forward_autograd(self, Z: torch.Tensor) -> torch.Tensor:
        """:meth:`forward` written literally through autograd (the reference of its tests)."""
        L = Z.shape[2] - 1
        tok = Z.transpose(1, 2)  # (B, L+1, D)
        vals = tok if self.query_self_attend else tok[:, :L]  # (B, L, D)
        p = self.attention(Z)  # (B, H, L)
        u = torch.bmm(p, vals)  # (B, H, D)  Σ_i p_i^h z_i
        out = torch.einsum("bhj,hoj->bo", u, self.ov())  # (B, n_out)  Σ_h OV^h Σ_i p_i^h z_i
        return out[:, 0] if self.n_out == 1 else out
