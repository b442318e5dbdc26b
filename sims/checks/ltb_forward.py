"""zwb24 checks of the torch forward pass (spec C1, C2, token matrix / mask): the raw LTB and LSA
against the effective form (★) and Lemma 5.1's weights.  Re-exported by :mod:`sims.checks.ltb`
(the declared paths ``sims.checks.ltb:check_*`` stay where they are).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from numerics.mc_fast import gd_family_predict
from numerics.testing import FLOAT_RTOL, close_agreement
from sims.data import embed, sample_prompts
from sims.models.ltb import LTB
from theory.common.protocols import Evidence
from theory.ltb import effective_params, lemma51_weights
from theory.settings import LinearRegressionICL

__all__ = ["check_asm3_1_torch_mask", "check_eq3_3_torch", "check_lem5_1_torch"]


def _random_ltb(rng: np.random.Generator, d: int, k: int, m: int, *, mlp: bool = True,
                **kw: Any) -> LTB:
    model = LTB(d, k=k, v=k, m=m, mlp=mlp, dtype=torch.float64, **kw)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.from_numpy(rng.standard_normal(tuple(p.shape))))
    return model


def _prompts(rng: np.random.Generator, d: int, N: int, B: int):
    st = LinearRegressionICL.from_arrays(Sigma_x=np.eye(d), N=N, task_mean=rng.standard_normal(d),
                                         noise_var=0.25)
    g = torch.Generator().manual_seed(int(rng.integers(2**31)))
    return sample_prompts(st, B, generator=g)


def check_asm3_1_torch_mask(*, quick: bool = True, seed: int = 0, d: int = 3, N: int = 6,
                            fault_unmasked_query: bool | None = None) -> list[Evidence]:
    """(3.1)/(3.2): with the token matrix of :func:`sims.data.embed` and the model's mask,
    ``Z M Zᵀ = [[XᵀX, Xᵀy], [yᵀX, ‖y‖²]]`` (the query column is dropped).
    ``fault_unmasked_query=True`` (fault) lets the query column in."""
    mask_query = not fault_unmasked_query
    rng = np.random.default_rng(seed)
    p = _prompts(rng, d, N, 32)
    Z = embed(p.X, p.y, p.xq)
    G = (LTB(d, mask_query=mask_query).gram(Z) * N).numpy()
    X, y = p.X.numpy(), p.y.numpy()
    Xty = np.einsum("bni,bn->bi", X, y)
    top = np.concatenate([np.einsum("bni,bnj->bij", X, X), Xty[:, :, None]], axis=2)
    bot = np.concatenate([np.einsum("bni,bn->bi", X, y), np.sum(y**2, axis=1)[:, None]], axis=1)
    ref = np.concatenate([top, bot[:, None, :]], axis=1)
    return [close_agreement("Z M Z^T == [[X^T X, X^T y],[y^T X, |y|^2]] (mask (3.2))", G, ref,
                            kind="FLOAT", atol=FLOAT_RTOL * (1 + float(np.max(np.abs(ref)))),
                            details={"mask_query": mask_query})]


def check_eq3_3_torch(*, quick: bool = True, seed: int = 0, cases: int = 12,
                      fault_no_mlp_residual: bool | None = None,
                      fault_unmasked_query: bool | None = None) -> list[Evidence]:
    """(★) (spec C1): the raw torch LTB (3.3) and LSA (3.4) forward passes equal the effective
    predictor ``xᵀ[a + (1/N)(ΓXᵀ + φyᵀ)(y − Xb)]`` with ``(a, b, Γ, φ)`` from
    :func:`theory.ltb.effective_params`, for random raw float64 matrices (d ∈ [1, 5],
    N ∈ [1, 12], k ∈ [d, d+2], m ∈ [1, 4]).
    Faults: ``fault_no_mlp_residual=True`` (MLP ``W_2W_1U`` without the residual),
    ``fault_unmasked_query=True`` (the query column enters ``Z M Zᵀ``)."""
    mlp_residual, mask_query = not fault_no_mlp_residual, not fault_unmasked_query
    rng = np.random.default_rng(seed)
    out: list[Evidence] = []
    for c in range(cases if quick else 5 * cases):
        d, N = int(rng.integers(1, 6)), int(rng.integers(1, 13))
        k, m = int(rng.integers(d, d + 3)), int(rng.integers(1, 5))
        for mlp in (True, False):
            model = _random_ltb(rng, d, k, m, mlp=mlp, mlp_residual=mlp_residual,
                                mask_query=mask_query)
            W = {n: p.detach().numpy() for n, p in model.named_parameters()}
            eff = effective_params(W["attn.W_K"], W["attn.W_Q"], W["attn.W_V"],
                                        W["attn.W_P"], W.get("W_1"), W.get("W_2"))
            p = _prompts(rng, d, N, 32)
            with torch.no_grad():
                f = model(embed(p.X, p.y, p.xq)).numpy()
            star = gd_family_predict(p.X.numpy(), p.y.numpy(), p.xq.numpy(), Gamma=eff["Gamma"],
                                     a=eff["a"], b=eff["b"], phi=eff["phi"])
            out.append(close_agreement(
                f"{'LTB' if mlp else 'LSA'} forward == effective form (star), case {c}: d={d}, "
                f"N={N}, k={k}, m={m}", f, star, kind="FLOAT",
                atol=FLOAT_RTOL * 1e3 * (1 + np.max(np.abs(star))),
                details={"mlp_residual": mlp_residual, "mask_query": mask_query}))
    return out


def check_lem5_1_torch(*, quick: bool = True, seed: int = 0, cases: int = 8) -> list[Evidence]:
    """Lemma 5.1 (spec C2): the explicit raw weights of :func:`theory.ltb.lemma51_weights`, loaded
    into the torch LTB, reproduce the GD-β predictor ``f_{Γ,β}`` on random prompts."""
    rng = np.random.default_rng(seed)
    out: list[Evidence] = []
    for c in range(cases if quick else 5 * cases):
        d, N = int(rng.integers(1, 6)), int(rng.integers(1, 13))
        k, v, m = int(rng.integers(d, d + 3)), int(rng.integers(1, 3)), int(rng.integers(1, 5))
        G, b = rng.standard_normal((d, d)), rng.standard_normal(d)
        W = lemma51_weights(G, b, k=k, v=v, m=m)
        model = LTB(d, k=k, v=v, m=m)
        with torch.no_grad():
            for name, key in (("attn.W_K", "W_K"), ("attn.W_Q", "W_Q"), ("attn.W_V", "W_V"),
                              ("attn.W_P", "W_P"), ("W_1", "W_1"), ("W_2", "W_2")):
                model.get_parameter(name).copy_(torch.from_numpy(W[key]))
        p = _prompts(rng, d, N, 32)
        with torch.no_grad():
            f = model(embed(p.X, p.y, p.xq)).numpy()
        ref = gd_family_predict(p.X.numpy(), p.y.numpy(), p.xq.numpy(), Gamma=G, a=b, b=b)
        out.append(close_agreement(f"LTB with Lemma 5.1 weights == GD-beta, case {c}: d={d}, "
                                   f"N={N}, k={k}, v={v}, m={m}", f, ref,
                                   kind="FLOAT", atol=FLOAT_RTOL * 1e3 * (1 + np.max(np.abs(ref)))))
    return out
