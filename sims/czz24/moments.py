"""czz24 training prompts compressed to sufficient statistics [derived]: a context of ``n`` tokens
``e_j = (x_j, y_j)`` replaced by ``d + 1`` *moment tokens* with the same second-moment matrix
``M = Σ_j e_j e_jᵀ`` (the columns of its Cholesky factor).

Both trained models see a context only through ``M``:

- the masked linear transformer (Eq. 2.2, ``sims.models.sparse_multihead.MaskedLinearTF``):
  every column, context or query, is mapped by the same matrix in each layer
  (``h ↦ W_1(h + Concat_k[V_k (Σ_j h_j h_jᵀ) K_kᵀ Q_k h]·scale)``, the attention scale fixed at
  ``1/n`` of the setting), so the hidden context moment of layer ``ℓ + 1`` is a function of that
  of layer ``ℓ``, and the query predictions a function of ``M``;
- the pre-GD transformer of S1 (``PreGDTF``): ``r̂ = Xᵀy/n``, and the query read-out after the
  ``k`` GD layers is ``⟨x̃_q, v_k⟩`` with ``v_{ℓ+1} = v_ℓ − η_ℓ(X̃ᵀX̃/n · v_ℓ − X̃ᵀy/n)``, a function of
  ``XᵀX/n`` and ``Xᵀy/n`` (it normalises by the number of context columns it is given, so the
  ``d + 1`` tokens are scaled by ``√((d + 1)/n)``).

So on a sampled batch the models' outputs, the loss and every gradient are the same on the moment
tokens as on the context tokens (exact arithmetic; round-off aside), while the forward costs
``d + 1`` context columns instead of ``n`` (plus one ``(d+1) × n`` Gram product and a Cholesky
factorisation per context).  The prompts are drawn as before (same generator stream), so a model
trained on the compressed prompts is the token-trained model up to round-off.
"""

from __future__ import annotations

import math

import torch

__all__ = ["context_moment_tokens"]


def context_moment_tokens(E: torch.Tensor, n: int, *, normalised: bool = False) -> torch.Tensor:
    """The prompts ``E`` (B, d+1, n+q) with their ``n`` context columns replaced by the ``d + 1``
    columns of the Cholesky factor of ``Σ_j e_j e_jᵀ`` (lower triangular; needs ``n ≥ d + 1``
    for a full-rank moment), the ``q`` query columns kept.  ``normalised``: scale the moment
    tokens by ``√((d + 1)/n)``, for a model that divides by the number of context columns it is
    given (``PreGDTF``); otherwise the attention's own ``1/n`` applies (``MaskedLinearTF``)."""
    p = E.shape[1]
    if n < p:
        raise ValueError(
            f"moment tokens need n ≥ d + 1 (a full-rank context moment), got n = {n}, d + 1 = {p}"
        )
    C = E[:, :, :n]
    T = torch.linalg.cholesky(C @ C.transpose(1, 2))
    if normalised:
        T = T * math.sqrt(p / n)
    return torch.cat([T, E[:, :, n:]], dim=2)
