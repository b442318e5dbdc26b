"""czz24 compressed training prompts (the S1/S2 presets): bad input is refused, the Fig. 1b presets
(n < d + 1) stay on token prompts, and the moment tokens carry the context's moment.  The models'
forward and gradient equivalence is the declared check
``sims.czz24.sec2_data:check_sec2_torch_moment_tokens`` (with its negative
controls)."""

from __future__ import annotations

import dataclasses

import pytest
import torch

from sims.czz24.moments import context_moment_tokens
from sims.czz24.train import (
    FIG1B_H4,
    FIG1B_TRAIN,
    PRESETS,
    S1_PRE,
    Recipe,
    data_of,
    recipe_for,
    sample_sparse_tokens,
    trained,
)
from theory.czz24.settings import PRESETS as SETTINGS
from theory.czz24.settings import SparseRegressionICL

#: float64 round-off of a Cholesky factor's product against the moment it factors
CHOLESKY_RTOL = 1e-12


def test_compressed_prompts_need_a_full_rank_context() -> None:
    st = SparseRegressionICL.isotropic(d=8, s=2, n=8, sigma2=0.25, prior="gauss", q=2)
    E, _, _, _ = sample_sparse_tokens(st, 4, generator=torch.Generator().manual_seed(0))
    with pytest.raises(ValueError, match="n ≥ d \\+ 1"):
        context_moment_tokens(E, st.n)
    assert FIG1B_H4.train_prompts == "tokens"
    compressed = dataclasses.replace(FIG1B_H4, train_prompts="compressed")
    with pytest.raises(ValueError, match="n ≥ d \\+ 1"):
        data_of(FIG1B_TRAIN, compressed)
    with pytest.raises(ValueError, match="n ≥ d \\+ 1"):  # refused before any work
        trained(FIG1B_TRAIN, compressed)
    assert recipe_for(FIG1B_TRAIN, compressed).train_prompts == "tokens"
    assert recipe_for(SETTINGS["s1"], S1_PRE) is S1_PRE
    with pytest.raises(ValueError, match="train_prompts"):
        Recipe(train_prompts="gram")
    assert {PRESETS[p][1].train_prompts for p in ("s1_pre", "s1_raw", "s2_h1", "s2_h8")} == {
        "compressed"
    }


def test_moment_tokens_carry_the_context_moment() -> None:
    st = SparseRegressionICL(d=5, s=2, n=11, sigma2=0.3, prior="sign", zeta=0.2, q=3)
    E, _, _, _ = sample_sparse_tokens(st, 7, generator=torch.Generator().manual_seed(1))
    for normalised, scale in ((False, 1.0), (True, (st.d + 1) / st.n)):
        Em = context_moment_tokens(E, st.n, normalised=normalised)
        assert Em.shape == (7, st.d + 1, st.d + 1 + st.q)
        T, C = Em[:, :, : st.d + 1], E[:, :, : st.n]
        assert torch.equal(T, T.tril())  # Cholesky columns
        torch.testing.assert_close(
            T @ T.transpose(1, 2),
            scale * (C @ C.transpose(1, 2)),
            rtol=CHOLESKY_RTOL,
            atol=CHOLESKY_RTOL,
        )
        assert torch.equal(Em[:, :, st.d + 1 :], E[:, :, st.n :])  # the queries are kept
