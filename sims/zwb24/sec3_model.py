"""[zwb24] §3 the torch LTB (3.3) / LSA (3.4): the token matrix (3.1) and mask (3.2), and the
forward pass reduced to the effective predictor (★) (token matrix / mask of §3).
"""

from __future__ import annotations

import numpy as np
import torch

from numerics.mc_fast import gd_family_predict
from numerics.testing import FLOAT_RTOL, close_agreement
from sims.data import embed
from sims.models.ltb import LTB
from sims.zwb24.evidence import random_ltb, random_prompts
from theory.common.protocols import Evidence
from theory.zwb24 import effective_params
from theory.zwb24.settings import Setting

__all__ = ["check_asm3_1_torch_mask", "check_eq3_3_torch"]


def check_asm3_1_torch_mask(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_unmasked_query: bool | None = None
) -> list[Evidence]:
    """(3.1)/(3.2): with the token matrix of :func:`sims.data.embed` and the model's mask,
    ``Z M Zᵀ = [[XᵀX, Xᵀy], [yᵀX, ‖y‖²]]`` (the query column is dropped).
    ``fault_unmasked_query=True`` (fault) lets the query column in."""
    d = setting.d
    N = setting.N
    mask_query = not fault_unmasked_query
    rng = np.random.default_rng(seed)
    p = random_prompts(rng, d, N, 32)
    Z = embed(p.X, p.y, p.xq)
    G = (LTB(d, mask_query=mask_query).gram(Z) * N).numpy()
    X, y = p.X.numpy(), p.y.numpy()
    Xty = np.einsum("bni,bn->bi", X, y)
    top = np.concatenate([np.einsum("bni,bnj->bij", X, X), Xty[:, :, None]], axis=2)
    bot = np.concatenate([np.einsum("bni,bn->bi", X, y), np.sum(y**2, axis=1)[:, None]], axis=1)
    ref = np.concatenate([top, bot[:, None, :]], axis=1)
    return [
        close_agreement(
            "Z M Z^T == [[X^T X, X^T y],[y^T X, |y|^2]] (mask (3.2))",
            G,
            ref,
            kind="FLOAT",
            atol=FLOAT_RTOL * (1 + float(np.max(np.abs(ref)))),
            details={"mask_query": mask_query},
        )
    ]


def check_eq3_3_torch(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_no_mlp_residual: bool | None = None,
    fault_unmasked_query: bool | None = None,
) -> list[Evidence]:
    """(★) (§3): the raw torch LTB (3.3) and LSA (3.4) forward passes equal the effective
    predictor ``xᵀ[a + (1/N)(ΓXᵀ + φyᵀ)(y − Xb)]`` with ``(a, b, Γ, φ)`` from
    :func:`theory.zwb24.effective_params`, for random raw float64 matrices (d ∈ [1, 5],
    N ∈ [1, 12], k ∈ [d, d+2], m ∈ [1, 4]).
    Faults: ``fault_no_mlp_residual=True`` (MLP ``W_2W_1U`` without the residual),
    ``fault_unmasked_query=True`` (the query column enters ``Z M Zᵀ``)."""
    cases = 12  # random raw-weight cases (a method knob)
    mlp_residual, mask_query = not fault_no_mlp_residual, not fault_unmasked_query
    rng = np.random.default_rng(seed)
    out: list[Evidence] = []
    for c in range(cases if quick else 5 * cases):
        d, N = int(rng.integers(1, 6)), int(rng.integers(1, 13))
        k, m = int(rng.integers(d, d + 3)), int(rng.integers(1, 5))
        for mlp in (True, False):
            model = random_ltb(
                rng, d, k, m, mlp=mlp, mlp_residual=mlp_residual, mask_query=mask_query
            )
            W = {n: p.detach().numpy() for n, p in model.named_parameters()}
            eff = effective_params(
                W["attn.W_K"],
                W["attn.W_Q"],
                W["attn.W_V"],
                W["attn.W_P"],
                W.get("W_1"),
                W.get("W_2"),
            )
            p = random_prompts(rng, d, N, 32)
            with torch.no_grad():
                f = model(embed(p.X, p.y, p.xq)).numpy()
            star = gd_family_predict(
                p.X.numpy(),
                p.y.numpy(),
                p.xq.numpy(),
                Gamma=eff["Gamma"],
                a=eff["a"],
                b=eff["b"],
                phi=eff["phi"],
            )
            out.append(
                close_agreement(
                    f"{'LTB' if mlp else 'LSA'} forward == effective form (star), case {c}: d={d}, "
                    f"N={N}, k={k}, m={m}",
                    f,
                    star,
                    kind="FLOAT",
                    atol=FLOAT_RTOL * 1e3 * (1 + np.max(np.abs(star))),
                    details={"mlp_residual": mlp_residual, "mask_query": mask_query},
                )
            )
    return out
