"""czz24 Props. 4.1 / 4.2 in torch: the constructed weights loaded into the torch model."""

from __future__ import annotations

import numpy as np
import torch

from numerics.sparse_multihead.predictors import pregd_path
from numerics.testing import (
    float_agreement,
)
from sims.checks.sparse_multihead.evidence import (
    TORCH_ATOL,
    load_weights,
    prompt_tokens,
)
from sims.models.sparse_multihead import MaskedLinearTF, PreGDTF
from theory.common.protocols import Evidence
from theory.sparse_multihead import (
    alg1,
    pregd_transformer,
)

__all__ = ["check_prop4_1_torch", "check_prop4_2_torch"]


def _constructed(d: int, n: int, eta: float, k: int, sign: int) -> MaskedLinearTF:
    model = MaskedLinearTF(d, (d,) + (1,) * k, 3 * d, generator=torch.Generator().manual_seed(0))
    return load_weights(model, pregd_transformer(d, n, eta, k, readout_sign=sign))


def check_prop4_1_torch(*, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Prop. 4.1 weights loaded into the torch model: ``H^(1)`` rows 1..d equal Alg. 1 (1e-10)."""
    rng = np.random.default_rng(seed)
    out = []
    for d, n, q in ((3, 7, 2), (6, 12, 4)):
        X, y, Xq = rng.standard_normal((n, d)), rng.standard_normal(n), rng.standard_normal((q, d))
        model = _constructed(d, n, 0.1, 1, -1)
        with torch.no_grad():
            H1 = model.hidden(prompt_tokens(X, y, Xq), n)[1][0].numpy()
        ref = alg1(X, y, np.vstack([X, Xq])).T
        out.append(
            float_agreement(
                f"torch H^(1)[1:d] = Alg. 1 (d={d}, n={n})",
                H1[:d],
                ref,
                rtol=0.0,
                atol=TORCH_ATOL * (1 + np.abs(ref).max()),
            )
        )
    return out


def check_prop4_2_torch(
    *, quick: bool = True, seed: int = 0, k: int = 4, fault_readout_sign: int | None = None
) -> list[Evidence]:
    """Props. 4.1 + 4.2 in torch: the (1 + k)-layer constructed model's query predictions equal the
    pre-GD recursion ``⟨ŵ^k, x⟩`` (η = 0.9/λ_max), and the S1 model :class:`PreGDTF` at the same
    fixed η agrees too (an independent re-implementation)."""
    rng = np.random.default_rng(seed)
    sign = -1 if fault_readout_sign is None else fault_readout_sign
    out = []
    for d, n, q in ((3, 9, 2), (5, 14, 3)):
        X = rng.standard_normal((n, d))
        y = X @ rng.standard_normal(d) + 0.3 * rng.standard_normal(n)
        Xq = rng.standard_normal((q, d))
        r = X.T @ y / n
        eta = 0.9 / np.linalg.eigvalsh((X * r).T @ (X * r) / n)[-1]
        ref = pregd_path(X[None], y[None], eta, k)[-1, 0] @ Xq.T
        with torch.no_grad():
            pred = _constructed(d, n, eta, k, sign)(prompt_tokens(X, y, Xq), n)[0, n:].numpy()
            s1 = PreGDTF(k, log_eta_init=float(np.log(eta)))
            pred_s1 = s1(prompt_tokens(X, y, Xq), n)[0].numpy()
        scale = TORCH_ATOL * (1 + np.abs(ref).max())
        out.append(
            float_agreement(
                f"constructed torch model = pre-GD (d={d}, n={n}, k={k})",
                pred,
                ref,
                rtol=0.0,
                atol=scale,
            )
        )
        out.append(
            float_agreement(
                f"S1 PreGDTF(fixed η) = pre-GD (d={d}, n={n}, k={k})",
                pred_s1,
                ref,
                rtol=0.0,
                atol=scale,
            )
        )
    return out
