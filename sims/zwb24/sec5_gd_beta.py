"""[zwb24] §5 Lemma 5.1 (App. B): the torch LTB loaded with the explicit raw weights implements
GD-β (§5).
"""

from __future__ import annotations

import numpy as np
import torch

from numerics.mc_fast import gd_family_predict
from numerics.testing import FLOAT_RTOL, close_agreement
from sims.data import embed
from sims.models.ltb import LTB
from sims.zwb24.evidence import random_prompts
from theory.common.protocols import Evidence
from theory.zwb24 import lemma51_weights
from theory.zwb24.settings import Setting

__all__ = ["check_lem5_1_torch"]


def check_lem5_1_torch(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Lemma 5.1: the explicit raw weights of :func:`theory.zwb24.lemma51_weights`, loaded
    into the torch LTB, reproduce the GD-β predictor ``f_{Γ,β}`` on random prompts."""
    cases = 8  # random GD-β cases (a method knob)
    rng = np.random.default_rng(seed)
    out: list[Evidence] = []
    for c in range(cases if quick else 5 * cases):
        d, N = int(rng.integers(1, 6)), int(rng.integers(1, 13))
        k, v, m = int(rng.integers(d, d + 3)), int(rng.integers(1, 3)), int(rng.integers(1, 5))
        G, b = rng.standard_normal((d, d)), rng.standard_normal(d)
        W = lemma51_weights(G, b, k=k, v=v, m=m)
        model = LTB(d, k=k, v=v, m=m)
        with torch.no_grad():
            for name, key in (
                ("attn.W_K", "W_K"),
                ("attn.W_Q", "W_Q"),
                ("attn.W_V", "W_V"),
                ("attn.W_P", "W_P"),
                ("W_1", "W_1"),
                ("W_2", "W_2"),
            ):
                model.get_parameter(name).copy_(torch.from_numpy(W[key]))
        p = random_prompts(rng, d, N, 32)
        with torch.no_grad():
            f = model(embed(p.X, p.y, p.xq)).numpy()
        ref = gd_family_predict(p.X.numpy(), p.y.numpy(), p.xq.numpy(), Gamma=G, a=b, b=b)
        out.append(
            close_agreement(
                f"LTB with Lemma 5.1 weights == GD-beta, case {c}: d={d}, "
                f"N={N}, k={k}, v={v}, m={m}",
                f,
                ref,
                kind="FLOAT",
                atol=FLOAT_RTOL * 1e3 * (1 + np.max(np.abs(ref))),
            )
        )
    return out
