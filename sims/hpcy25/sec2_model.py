"""[hpcy25] §2 eqs. (2.2)-(2.3): the torch H-head softmax attention model is the paper's
predictor (its forward against the effective circuits computed in numpy)."""

from __future__ import annotations

import torch

from numerics.hpcy25.predictors import full_attention_predict
from numerics.testing import float_agreement
from sims.hpcy25.train import (
    HpcyExperiment,
    build_model,
    circuits,
    sample_batch,
)
from sims.models.softmax_attention import SoftmaxAttention
from sims.train import make_generator
from theory.common.protocols import Evidence
from theory.hpcy25.settings import Setting

__all__ = ["check_eq2_3_torch", "FORWARD_RTOL", "FORWARD_ATOL"]

#: torch and numpy float64 forwards of eq. (2.3): the same sums in another order, through exp of
#: scores up to ~30
FORWARD_RTOL = 1e-10
#: absolute floor for outputs near 0 in the same comparison
FORWARD_ATOL = 1e-12


def check_eq2_3_torch(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_double_softmax: bool | None = None,
    fault_query_self_attend: bool | None = None,
) -> list[Evidence]:
    """The torch model is eq. (2.3): its forward equals
    ``Σ_h OV^h Z_{1:L} softmax(Z_{1:L}ᵀ KQ^h z_q)``
    computed in numpy from its effective circuits (query attends to the context only, one softmax),
    for a model with ``setting.H`` heads on prompts of ``setting``'s ``(d, L, σ²)``.
    The fault switches (a second softmax, the
    query attending to itself) must break this."""
    double_softmax = bool(fault_double_softmax)
    query_self_attend = bool(fault_query_self_attend)
    s = setting
    exp = HpcyExperiment(
        d=s.d,
        L=s.L,
        sigma2=s.sigma2,
        H=s.H,
        double_softmax=double_softmax,
        query_self_attend=query_self_attend,
    )
    gen = make_generator(seed)
    model = build_model(exp, generator=gen, dtype=torch.float64)
    assert isinstance(model, SoftmaxAttention)
    with torch.no_grad():
        for p in (model.W_Q, model.W_K):  # larger scores so the softmax is far from uniform
            p.mul_(3.0)
        Z, _ = sample_batch(exp, 256, generator=gen, dtype=torch.float64)
        out = model(Z).numpy()
    params = {k: v.detach().numpy() for k, v in model.state_dict().items()}
    KQ, OV = circuits(exp, params)
    ref = full_attention_predict(Z.numpy(), KQ, OV)[:, 0]
    return [
        float_agreement(
            "torch forward = eq. (2.3) from the effective KQ, OV (numpy)",
            out,
            ref,
            rtol=FORWARD_RTOL,
            atol=FORWARD_ATOL,
            details={"double_softmax": double_softmax, "query_self_attend": query_self_attend},
        ),
    ]
