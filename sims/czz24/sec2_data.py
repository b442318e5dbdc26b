"""czz24 §2 data model in torch: the experiments' sampler against the closed forms, and the
compressed prompts (moment tokens) the S1/S2 presets train on against the token prompts."""

from __future__ import annotations

import numpy as np
import torch

from numerics.montecarlo import mc_means
from numerics.testing import (
    float_agreement,
    mc_agreement,
)
from sims.czz24.moments import context_moment_tokens
from sims.czz24.train import (
    sample_sparse_tokens,
)
from sims.models.sparse_multihead import MaskedLinearTF, PreGDTF
from theory.common.protocols import Evidence
from theory.czz24 import (
    task_second_moment,
)
from theory.czz24.settings import SparseRegressionICL

__all__ = ["check_sec2_torch", "check_sec2_torch_moment_tokens"]


def check_sec2_torch(*, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """The torch sampler of the experiments against the closed forms: ``E[w_1²] = c`` for both
    priors and ``E[y²] = E[w*ᵀΣw*] + σ² = c·Tr Σ + σ²`` (Σ = I + 0.3·𝟙𝟙ᵀ)."""
    out = []
    g = torch.Generator().manual_seed(seed)
    for prior in ("sign", "gauss"):
        st = SparseRegressionICL(d=6, s=2, n=3, sigma2=0.25, prior=prior, zeta=0.3)

        def draw(_r: np.random.Generator, B: int, st: SparseRegressionICL = st) -> np.ndarray:
            E, _, w, X = sample_sparse_tokens(st, B, generator=g)
            y = E[:, -1, 0].numpy()
            return np.column_stack([w[:, 0].numpy() ** 2, y**2])

        ew, ey = mc_means(draw, 40_000 if quick else 400_000, rng=np.random.default_rng(seed))
        c = float(task_second_moment(6, 2, prior))
        out.append(mc_agreement(f"torch sampler E[w_1²] = c ({prior})", c, ew))
        out.append(
            mc_agreement(
                f"torch sampler E[y²] = c·Tr Σ + σ² ({prior}, ζ = 0.3)",
                c * float(np.trace(st.Sigma_x_array)) + 0.25,
                ey,
            )
        )
    return out


#: float64 round-off of the models' forward (and loss gradient) on a context against its moment
#: tokens (observed ≤ 2e-15 relative: the same polynomial in the context moment, summed in
#: another order)
MOMENT_FORWARD_RTOL = 1e-9


def check_sec2_torch_moment_tokens(
    *,
    quick: bool = True,
    seed: int = 0,
    fault_unnormalised: bool | None = None,
    fault_drop_token: bool | None = None,
) -> list[Evidence]:
    """The S1/S2 presets train on compressed prompts
    (:func:`sims.czz24.moments.context_moment_tokens`, [derived]): each
    context as the ``d + 1`` Cholesky tokens of ``Σ_j e_j e_jᵀ``.  FLOAT, on 64 prompts of a
    generic setting (d = 6, s = 2, n = 9, q = 2, Σ = I + 0.3·𝟙𝟙ᵀ, σ² = 0.25): the pre-GD model
    (Alg. 1 and raw, steps η = e^{(−1.3, −0.9, −0.6)}) and the masked linear transformer (heads
    (2, 1), d_hid = 8, random weights) give the same query predictions and the same gradient of
    the query MSE in every parameter on the prompts and on their compressed form, to round-off
    (``quick`` and --full alike: an identity).  ``fault_unnormalised`` feeds the pre-GD model
    unscaled moment tokens; ``fault_drop_token`` drops the last moment token (a rank-deficient
    moment) (negative controls)."""
    out = []
    g = torch.Generator().manual_seed(seed)
    st = SparseRegressionICL(d=6, s=2, n=9, sigma2=0.25, prior="gauss", zeta=0.3, q=2)
    E, yq, _, _ = sample_sparse_tokens(st, 64, generator=g)
    models: list[tuple[str, torch.nn.Module]] = [
        (f"pre-GD ({'Alg. 1' if pre else 'raw'})", PreGDTF(3, preprocess=pre))
        for pre in (True, False)
    ]
    models.append(("masked linear TF (2, 1)", MaskedLinearTF(6, (2, 1), 8, generator=g)))
    for name, model in models:
        pregd = isinstance(model, PreGDTF)
        if pregd:
            with torch.no_grad():
                model.theta.copy_(torch.tensor([-1.3, -0.9, -0.6], dtype=torch.float64))
        Em = context_moment_tokens(E, st.n, normalised=pregd and not fault_unnormalised)
        if fault_drop_token:
            Em = torch.cat([Em[:, :, : st.d], Em[:, :, st.d + 1 :]], dim=2)
        m_ctx = Em.shape[2] - st.q
        preds, grads = [], []
        for prompts, n_ctx in ((E, st.n), (Em, m_ctx)):
            model.zero_grad()
            pred = model(prompts, n_ctx)
            pred = pred if pregd else pred[:, n_ctx:]
            torch.mean((pred - yq) ** 2).backward()
            preds.append(pred.detach().numpy())
            grads.append(
                np.concatenate(
                    [p.grad.numpy().ravel() for p in model.parameters() if p.grad is not None]
                )
            )
        out += [
            float_agreement(
                f"{name}: query predictions on a context = on its moment tokens",
                preds[1],
                preds[0],
                rtol=MOMENT_FORWARD_RTOL,
            ),
            float_agreement(
                f"{name}: gradient of the query MSE on a context = on its moment tokens",
                grads[1],
                grads[0],
                rtol=MOMENT_FORWARD_RTOL,
            ),
        ]
    return out
