"""czz24 Eq. (2.2) in torch: the exact effective predictor against a random model's
forward pass.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from numerics.czz24.contexts import setting_context
from numerics.czz24.sec3_heads import to_weights
from numerics.sampling import check_seed
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

__all__ = ["check_eq2_2_torch", "check_eq2_2_torch_cases"]


def _eq2_2_rows(
    model: MaskedLinearTF,
    X: np.ndarray,
    y: np.ndarray,
    Xq: np.ndarray,
    fault_attn_scale: float | None,
    where: str = "",
) -> list[Evidence]:
    """The forward pass of ``model`` on one context against ``⟨ŵ_eff, x⟩``, without and with the
    first head of layer 1 masked (``where`` ends the rows' names)."""
    n = X.shape[0]
    heads = model.heads
    with torch.no_grad():  # far from identity: the test would miss an error hidden by 0.02
        for p in list(model.WQ) + list(model.WK) + list(model.WV):
            p.mul_(25.0)
    W = to_weights(model)
    if fault_attn_scale is not None:
        W = LinTFWeights(W_E=W.W_E, layers=W.layers, W_O=W.W_O, attn_scale=fault_attn_scale)
    masks: list[Any] = [
        None,
        [[True] * h if i else [False] + [True] * (h - 1) for i, h in enumerate(heads)],
    ]
    out = []
    for hm in masks:
        with torch.no_grad():
            pred = model(prompt_tokens(X, y, Xq), n, head_mask=hm)[0, n:].numpy()
        w_eff = effective_predictor(W, X, y, head_masks=hm)
        ref = Xq @ w_eff
        out.append(
            float_agreement(
                f"forward vs ⟨ŵ_eff, x⟩ (heads {heads}, masked={hm is not None}{where})",
                pred,
                ref,
                rtol=TORCH_ATOL,
                atol=TORCH_ATOL,
            )
        )
    return out


#: The random model of the check at a setting: heads per layer and hidden width (d_hid 12, as in
#: the generic cases: it divides every head count).
SETTING_HEADS, SETTING_D_HID = (2, 3, 1), 12


def check_eq2_2_torch(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_attn_scale: float | None = None,
) -> list[Evidence]:
    """Eq. (2.2) [derived]: a random masked linear transformer (heads (2, 3, 1), d_hid 12, attention
    scale 1/n) at the setting's d, on one context of its data model (d, s, n, σ², prior, Σ,
    q queries): the torch forward pass equals ``⟨ŵ_eff, x⟩`` with ``ŵ_eff`` from
    :func:`effective_predictor` (also with a head masked), to 1e-10·(1 + |ŷ|) (an identity in
    the weights and the context: any setting).
    ``fault_attn_scale`` extracts with a wrong attention scale (negative control)."""
    label = "czz24 eq2.2 at the setting"
    X, y, Xq, _ = setting_context(setting, seed, label)
    g = torch.Generator().manual_seed(check_seed(seed, label, "model"))
    d, n = setting.d, setting.n
    model = MaskedLinearTF(d, SETTING_HEADS, SETTING_D_HID, generator=g, attn_scale=1.0 / n)
    return _eq2_2_rows(model, X, y, Xq, fault_attn_scale, f", d={d}, n={n}")


def check_eq2_2_torch_cases(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_attn_scale: float | None = None,
) -> list[Evidence]:
    """:func:`check_eq2_2_torch` for random models of the generic shapes heads (2, 3, 1) at d = 4,
    n = 7, q = 3 and heads (4, 1) at d = 3, n = 5, q = 2 (d_hid 12) on dense Gaussian contexts
    (declared fixed)."""
    g = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    out = []
    for heads, d, n, q in (((2, 3, 1), 4, 7, 3), ((4, 1), 3, 5, 2)):
        model = MaskedLinearTF(d, heads, 12, generator=g, attn_scale=1.0 / n)
        X, y, Xq = rng.standard_normal((n, d)), rng.standard_normal(n), rng.standard_normal((q, d))
        out += _eq2_2_rows(model, X, y, Xq, fault_attn_scale)
    return out
