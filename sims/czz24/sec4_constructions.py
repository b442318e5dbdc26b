"""czz24 Props. 4.1 / 4.2 in torch ([czz24] §4.1, App. C.1, Eq. (C.7)): the constructed weights
loaded into the torch model, whose forward pass is Alg. 1 (Prop. 4.1) and then the pre-GD
recursion (Prop. 4.2), and the S1 model :class:`~sims.models.sparse_multihead.PreGDTF` at a fixed
step against the same recursion.
"""

from __future__ import annotations

import numpy as np
import torch

from numerics.czz24.contexts import setting_context
from numerics.czz24.predictors import pregd_path
from numerics.testing import (
    float_agreement,
)
from sims.models.sparse_multihead import MaskedLinearTF, PreGDTF
from theory.common.protocols import Evidence
from theory.czz24 import (
    LinTFWeights,
    alg1,
    pregd_transformer,
)
from theory.czz24.settings import Setting

__all__ = [
    "check_prop4_1_torch",
    "check_prop4_1_torch_cases",
    "check_prop4_2_torch",
    "check_prop4_2_torch_cases",
    "TORCH_ATOL",
    "load_weights",
    "prompt_tokens",
]

#: R12 and the constructions: forward pass vs extraction, relative to 1 + |ŷ| (spec: 1e-10).
TORCH_ATOL = 1e-10


def load_weights(model: MaskedLinearTF, W: LinTFWeights) -> MaskedLinearTF:
    """Copy theory weights (e.g. :func:`pregd_transformer`) into a torch model of that shape."""
    with torch.no_grad():
        model.W_E.copy_(torch.as_tensor(np.asarray(W.W_E, dtype=float)))
        model.W_O.copy_(torch.as_tensor(np.asarray(W.W_O, dtype=float).reshape(-1)))
        for i, L in enumerate(W.layers):
            for dst, src in ((model.WQ, L.WQ), (model.WK, L.WK), (model.WV, L.WV)):
                dst[i].copy_(torch.as_tensor(np.stack([np.asarray(m, dtype=float) for m in src])))
            model.W1[i].copy_(torch.as_tensor(np.asarray(L.W1, dtype=float)))
    return model


def prompt_tokens(X: np.ndarray, y: np.ndarray, Xq: np.ndarray) -> torch.Tensor:
    q = Xq.shape[0]
    E = np.vstack([np.hstack([X.T, Xq.T]), np.hstack([y, np.zeros(q)])[None]])
    return torch.as_tensor(E)[None]


def _constructed(d: int, n: int, eta: float, k: int, sign: int) -> MaskedLinearTF:
    model = MaskedLinearTF(d, (d,) + (1,) * k, 3 * d, generator=torch.Generator().manual_seed(0))
    return load_weights(model, pregd_transformer(d, n, eta, k, readout_sign=sign))


def _prop4_1_torch_row(X: np.ndarray, y: np.ndarray, Xq: np.ndarray) -> Evidence:
    """Prop. 4.1's weights in the torch model on one context: ``H^(1)`` rows 1..d = Alg. 1."""
    n, d = X.shape
    model = _constructed(d, n, 0.1, 1, -1)
    with torch.no_grad():
        H1 = model.hidden(prompt_tokens(X, y, Xq), n)[1][0].numpy()
    ref = alg1(X, y, np.vstack([X, Xq])).T
    return float_agreement(
        f"torch H^(1)[1:d] = Alg. 1 (d={d}, n={n})",
        H1[:d],
        ref,
        rtol=0.0,
        atol=TORCH_ATOL * (1 + np.abs(ref).max()),
    )


def check_prop4_1_torch(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
) -> list[Evidence]:
    """Prop. 4.1 weights loaded into the torch model: ``H^(1)`` rows 1..d equal Alg. 1 (1e-10), on
    one context of the setting's data model (d, s, n, σ², prior, Σ, q queries)."""
    X, y, Xq, _ = setting_context(setting, seed, "czz24 prop4.1 torch at the setting")
    return [_prop4_1_torch_row(X, y, Xq)]


def check_prop4_1_torch_cases(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
) -> list[Evidence]:
    """:func:`check_prop4_1_torch` on dense random contexts of the generic shapes (d, n, q) =
    (3, 7, 2), (6, 12, 4) (declared fixed)."""
    rng = np.random.default_rng(seed)
    out = []
    for d, n, q in ((3, 7, 2), (6, 12, 4)):
        X, y, Xq = rng.standard_normal((n, d)), rng.standard_normal(n), rng.standard_normal((q, d))
        out.append(_prop4_1_torch_row(X, y, Xq))
    return out


#: GD layers of the Prop. 4.2 torch check
PROP4_2_TORCH_LAYERS = 4


def _prop4_2_torch_rows(X: np.ndarray, y: np.ndarray, Xq: np.ndarray, sign: int) -> list[Evidence]:
    """The constructed (1 + k)-layer torch model and the S1 model at a fixed η against the pre-GD
    recursion on one context."""
    k = PROP4_2_TORCH_LAYERS
    n, d = X.shape
    r = X.T @ y / n
    eta = 0.9 / np.linalg.eigvalsh((X * r).T @ (X * r) / n)[-1]
    ref = pregd_path(X[None], y[None], eta, k)[-1, 0] @ Xq.T
    with torch.no_grad():
        pred = _constructed(d, n, eta, k, sign)(prompt_tokens(X, y, Xq), n)[0, n:].numpy()
        s1 = PreGDTF(k, log_eta_init=float(np.log(eta)))
        pred_s1 = s1(prompt_tokens(X, y, Xq), n)[0].numpy()
    scale = TORCH_ATOL * (1 + np.abs(ref).max())
    return [
        float_agreement(
            f"constructed torch model = pre-GD (d={d}, n={n}, k={k})",
            pred,
            ref,
            rtol=0.0,
            atol=scale,
        ),
        float_agreement(
            f"S1 PreGDTF(fixed η) = pre-GD (d={d}, n={n}, k={k})",
            pred_s1,
            ref,
            rtol=0.0,
            atol=scale,
        ),
    ]


def check_prop4_2_torch(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_readout_sign: int | None = None,
) -> list[Evidence]:
    """Props. 4.1 + 4.2 in torch: the (1 + k)-layer constructed model's query predictions equal the
    pre-GD recursion ``⟨ŵ^k, x⟩`` (η = 0.9/λ_max), and the S1 model :class:`PreGDTF` at the same
    fixed η agrees too (an independent re-implementation), on one context of the setting's data
    model (d, s, n, σ², prior, Σ, q queries)."""
    sign = -1 if fault_readout_sign is None else fault_readout_sign
    X, y, Xq, _ = setting_context(setting, seed, "czz24 prop4.2 torch at the setting")
    return _prop4_2_torch_rows(X, y, Xq, sign)


def check_prop4_2_torch_cases(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_readout_sign: int | None = None,
) -> list[Evidence]:
    """:func:`check_prop4_2_torch` on dense random contexts of the generic shapes (d, n, q) =
    (3, 9, 2), (5, 14, 3) (declared fixed)."""
    rng = np.random.default_rng(seed)
    sign = -1 if fault_readout_sign is None else fault_readout_sign
    out = []
    for d, n, q in ((3, 9, 2), (5, 14, 3)):
        X = rng.standard_normal((n, d))
        y = X @ rng.standard_normal(d) + 0.3 * rng.standard_normal(n)
        Xq = rng.standard_normal((q, d))
        out += _prop4_2_torch_rows(X, y, Xq, sign)
    return out
