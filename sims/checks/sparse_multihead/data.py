"""czz24 §2 data model in torch: the experiments' sampler against the closed forms."""

from __future__ import annotations

import numpy as np
import torch

from numerics.montecarlo import mc_means
from numerics.testing import (
    mc_agreement,
)
from sims.experiments.sparse_multihead import (
    sample_sparse_tokens,
)
from theory.common.protocols import Evidence
from theory.settings import SparseRegressionICL
from theory.sparse_multihead import (
    task_second_moment,
)

__all__ = ["check_sec2_torch"]


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
