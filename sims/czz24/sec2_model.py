"""czz24 Eq. (2.2) in torch: the exact effective predictor (R12) against a random model's
forward pass.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from numerics.czz24.sec3_heads import to_weights
from numerics.testing import (
    float_agreement,
)
from sims.czz24.evidence import (
    TORCH_ATOL,
    prompt_tokens,
)
from sims.models.sparse_multihead import MaskedLinearTF
from theory.common.protocols import Evidence
from theory.czz24 import (
    LinTFWeights,
)
from theory.czz24.sec2_model import effective_predictor
from theory.czz24.settings import Setting

__all__ = ["check_eq2_2_torch"]


def check_eq2_2_torch(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_attn_scale: float | None = None,
) -> list[Evidence]:
    """R12 [derived]: for random masked linear transformers (heads (2, 3, 1), (4, 1), d_hid 12),
    the torch forward pass at random queries equals ``⟨ŵ_eff, x⟩`` with ``ŵ_eff`` from
    :func:`effective_predictor` (also with a head masked), to 1e-10·(1 + |ŷ|).
    ``fault_attn_scale`` extracts with a wrong attention scale (negative control)."""
    g = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    out = []
    for heads, d, n, q in (((2, 3, 1), 4, 7, 3), ((4, 1), 3, 5, 2)):
        model = MaskedLinearTF(d, heads, 12, generator=g, attn_scale=1.0 / n)
        with torch.no_grad():  # far from identity: the test would miss an error hidden by 0.02
            for p in list(model.WQ) + list(model.WK) + list(model.WV):
                p.mul_(25.0)
        W = to_weights(model)
        if fault_attn_scale is not None:
            W = LinTFWeights(W_E=W.W_E, layers=W.layers, W_O=W.W_O, attn_scale=fault_attn_scale)
        X, y, Xq = rng.standard_normal((n, d)), rng.standard_normal(n), rng.standard_normal((q, d))
        masks: list[Any] = [
            None,
            [[True] * h if i else [False] + [True] * (h - 1) for i, h in enumerate(heads)],
        ]
        for hm in masks:
            with torch.no_grad():
                pred = model(prompt_tokens(X, y, Xq), n, head_mask=hm)[0, n:].numpy()
            w_eff = effective_predictor(W, X, y, head_masks=hm)
            ref = Xq @ w_eff
            out.append(
                float_agreement(
                    f"forward vs ⟨ŵ_eff, x⟩ (heads {heads}, masked={hm is not None})",
                    pred,
                    ref,
                    rtol=TORCH_ATOL,
                    atol=TORCH_ATOL,
                )
            )
    return out
