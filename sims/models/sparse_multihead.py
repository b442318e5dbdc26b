"""[czz24] torch models: the masked multi-head linear transformer of Eq. (2.2) and the constructed
pre-GD transformer with learnable step sizes ([czz24] Eq. (4.3)).

Imports only torch (no prediction): the constructed model re-implements Alg. 1 + GD layers from
the paper's description, so comparing it with the theory's pre-GD is an independent route.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import torch
from torch import nn

__all__ = ["MaskedLinearTF", "PreGDTF"]


class MaskedLinearTF(nn.Module):
    """``ŷ = W_Oᵀ TF_L ∘ … ∘ TF_1 (W_E E)``, ``TF(H) = W_1(H + Concat_k[V_k M K_kᵀ Q_k])``.

    ``heads[i]`` heads in layer ``i``, each of width ``d_hid/heads[i]``; ``attn_scale`` multiplies
    every attention term (the trained models use ``1/n``; the constructions put ``1/n`` in W_K).
    Initialisation: ``W_1 = I + 0.02·N``, ``W_{Q,K,V} = 0.02·N``,
    ``W_E ~ N(0, 1/(d+1))``, ``W_O ~ N(0, 1/d_hid)``, from an explicit generator.
    """

    def __init__(
        self,
        d: int,
        heads: Sequence[int],
        d_hid: int,
        *,
        generator: torch.Generator,
        attn_scale: float = 1.0,
        dtype: torch.dtype = torch.float64,
    ) -> None:
        super().__init__()
        if d < 1 or d_hid < 1 or not heads or any(h < 1 or d_hid % h for h in heads):
            raise ValueError(
                f"need d ≥ 1 and every head count dividing d_hid = {d_hid}, got "
                f"d = {d}, heads = {tuple(heads)}"
            )
        self.d, self.heads, self.d_hid, self.attn_scale = d, tuple(heads), d_hid, attn_scale
        kw = {"generator": generator, "dtype": dtype}
        self.W_E = nn.Parameter(torch.randn(d_hid, d + 1, **kw) / math.sqrt(d + 1))
        self.W_O = nn.Parameter(torch.randn(d_hid, **kw) / math.sqrt(d_hid))
        self.WQ = nn.ParameterList()
        self.WK = nn.ParameterList()
        self.WV = nn.ParameterList()
        self.W1 = nn.ParameterList()
        for h in self.heads:
            for lst in (self.WQ, self.WK, self.WV):
                lst.append(nn.Parameter(0.02 * torch.randn(h, d_hid // h, d_hid, **kw)))
            self.W1.append(
                nn.Parameter(torch.eye(d_hid, dtype=dtype) + 0.02 * torch.randn(d_hid, d_hid, **kw))
            )

    def hidden(
        self, E: torch.Tensor, n: int, head_mask: Sequence[Sequence[bool]] | None = None
    ) -> list[torch.Tensor]:
        """Hidden states ``H^(0..L)``, each (B, d_hid, m); the first ``n`` columns are context."""
        H = torch.einsum("ij,bjm->bim", self.W_E, E)
        out = [H]
        for i in range(len(self.heads)):
            Hc = H[:, :, :n]
            Q = torch.einsum("kij,bjm->bkim", self.WQ[i], H)
            K = torch.einsum("kij,bjm->bkim", self.WK[i], Hc)
            V = torch.einsum("kij,bjm->bkim", self.WV[i], Hc)
            att = (V @ K.transpose(-1, -2)) @ Q * self.attn_scale  # (B, h, d_hid/h, m)
            if head_mask is not None:
                mask = torch.tensor(head_mask[i], dtype=att.dtype)
                att = att * mask[None, :, None, None]
            H = torch.einsum("ij,bjm->bim", self.W1[i], H + att.reshape(H.shape[0], -1, H.shape[2]))
            out.append(H)
        return out

    def forward(
        self, E: torch.Tensor, n: int, head_mask: Sequence[Sequence[bool]] | None = None
    ) -> torch.Tensor:
        """Predictions ``W_Oᵀ H^(L)`` at every column, (B, m)."""
        return torch.einsum("i,bim->bm", self.W_O, self.hidden(E, n, head_mask)[-1])


class PreGDTF(nn.Module):
    """S1: layer 1 = Alg. 1 (``x̃ = r̂ ⊙ x`` for every token, context r̂; the identity if
    ``preprocess=False``), then ``k`` single-head GD layers with learnable steps
    ``η_ℓ = exp(θ_ℓ)``: the label row holds residuals and is updated by
    ``res ← res − (η_ℓ/n) ⟨x̃_a, x̃_b⟩ res_ctx``; the read-out is ``−res`` at the queries.
    The Gram matrix of ``x̃`` is computed once (the x̃ rows never change)."""

    def __init__(
        self,
        k: int,
        *,
        preprocess: bool = True,
        log_eta_init: float = -1.0,
        dtype: torch.dtype = torch.float64,
    ) -> None:
        super().__init__()
        if k < 1:
            raise ValueError(f"k (GD layers) must be ≥ 1, got {k}")
        self.k, self.preprocess = k, preprocess
        self.theta = nn.Parameter(torch.full((k,), float(log_eta_init), dtype=dtype))

    def forward(self, E: torch.Tensor, n: int) -> torch.Tensor:
        """E (B, d+1, m) -> predictions (B, m − n) at the query columns."""
        X, y = E[:, :-1, :], E[:, -1, :]
        if self.preprocess:
            r = torch.einsum("bdi,bi->bd", X[:, :, :n], y[:, :n]) / n
            X = X * r[:, :, None]
        Kmat = torch.bmm(X[:, :, :n].transpose(1, 2), X) / n  # (B, n, m), once
        res = y[:, None, :]  # (B, 1, m)
        for eta in torch.exp(self.theta):
            res = res - eta * torch.bmm(res[:, :, :n], Kmat)
        return -res[:, 0, n:]
