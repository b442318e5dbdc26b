"""Single-layer linear self-attention (LSA): zfb24 eq. (3)/(5) and zwb24 (3.4), one class.

Source: [zfb24] eq. (3), (5), (6); [zwb24] eq. (3.4).

.. math::

    f(Z) = Z + W^{PV} Z \\, M \\, (Z^\\top W^{KQ} Z) / \\rho, \\qquad
    \\hat y = f(Z)_{d+1, n+1}

with ``Z`` the ``(d+1)×(n+1)`` token matrix of :func:`sims.data.embed` and ``ρ = n`` the prompt
length (zfb24: ρ = N in training, ρ = M at test; zwb24: 1/N).  ``M`` is ``I_{n+1}`` for zfb24 (the
query column is part of ``Z Zᵀ``) and ``diag(I_n, 0)`` for zwb24's mask (3.2) (``mask_query=True``).

Two parameterisations of the same function class:

* ``merged`` (zfb24): ``W^{KQ}, W^{PV} ∈ R^{(d+1)×(d+1)}`` are the parameters (all entries).
* ``factored`` (zwb24): ``W^{KQ} = W_Kᵀ W_Q`` with ``W_K, W_Q ∈ R^{k×(d+1)}``, and
  ``W^{PV} = W_P W_V`` with ``W_V ∈ R^{v×(d+1)}``, ``W_P ∈ R^{(d+1)×v}``.

Only the bottom-right entry is ever used, so the forward pass computes just that entry:
``ŷ = (last row of W^{PV}) · (Z M Zᵀ/ρ) · W^{KQ} · z_q`` — literally eq. (6) of zfb24.
"""

from __future__ import annotations

import torch
from torch import nn

__all__ = ["LSA"]


class LSA(nn.Module):
    def __init__(
        self,
        d: int,
        *,
        parameterisation: str = "merged",
        mask_query: bool = False,
        k: int | None = None,
        v: int | None = None,
        dtype: torch.dtype = torch.float64,
        device: torch.device | str = "cpu",
    ) -> None:
        super().__init__()
        if parameterisation not in ("merged", "factored"):
            raise ValueError(
                f"parameterisation must be 'merged' or 'factored', got {parameterisation!r}"
            )
        D = d + 1
        self.d, self.parameterisation, self.mask_query = d, parameterisation, mask_query
        kw = {"dtype": dtype, "device": device}
        if parameterisation == "merged":
            self.W_KQ = nn.Parameter(torch.zeros(D, D, **kw))  # (d+1, d+1)
            self.W_PV = nn.Parameter(torch.zeros(D, D, **kw))  # (d+1, d+1)
        else:
            k, v = k or D, v or D
            self.W_K = nn.Parameter(torch.zeros(k, D, **kw))  # (k, d+1)
            self.W_Q = nn.Parameter(torch.zeros(k, D, **kw))  # (k, d+1)
            self.W_V = nn.Parameter(torch.zeros(v, D, **kw))  # (v, d+1)
            self.W_P = nn.Parameter(torch.zeros(D, v, **kw))  # (d+1, v)

    def kq(self) -> torch.Tensor:
        """Effective ``W^{KQ}`` (d+1, d+1)."""
        return self.W_KQ if self.parameterisation == "merged" else self.W_K.T @ self.W_Q

    def pv(self) -> torch.Tensor:
        """Effective ``W^{PV}`` (d+1, d+1)."""
        return self.W_PV if self.parameterisation == "merged" else self.W_P @ self.W_V

    def forward(self, Z: torch.Tensor) -> torch.Tensor:
        """``ŷ = [W^{PV} Z M Zᵀ W^{KQ} Z / ρ]_{d+1, n+1}`` for ``Z`` (B, d+1, n+1); returns (B,)."""
        n = Z.shape[2] - 1  # prompt length ρ
        Zc = Z[:, :, :n] if self.mask_query else Z  # columns entering Z M Zᵀ
        zq = Z[:, :, n]  # (B, d+1) query token (x_q; 0)
        r = self.pv()[-1]  # (d+1,)  last row of W^{PV}
        # rᵀ (Z M Zᵀ/ρ) W^{KQ} z_q = Σ_c (rᵀz_c)(z_cᵀ W^{KQ} z_q)/ρ over the columns c of Z M: two
        # (B, cols) contractions instead of the (B, d+1, d+1) Gram matrix (1.5× faster fw+bw)
        a = torch.einsum("bic,i->bc", Zc, r)  # rᵀ z_c
        b = torch.einsum("bic,bi->bc", Zc, zq @ self.kq().T)  # z_cᵀ W^{KQ} z_q
        return (a * b).sum(1) / n  # (B,)
