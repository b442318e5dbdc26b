"""collins24 trained unit and its data: the forward pass against the literal formula of spec 003
§1.4 (keys, queries and values as full (d+1)-vectors), the prompts' layout, the float32-drawn
normals, and the derived schedule's budget rule (a window longer than the budget is not run).
"""

from __future__ import annotations

import math

import pytest
import torch

from sims.collins24 import train as E
from sims.collins24.data import sample_batch
from sims.models.softmax_unit import LinearAttentionUnit, SoftmaxUnit, tokens
from theory.collins24.settings import SoftmaxWindowSetting

#: Agreement of two float64 evaluations of the same sums (different order): round-off only.
ROUNDOFF_ATOL = 1e-12
#: z-score of the Monte Carlo moment checks of the sampler.
MOMENT_Z = 5.0
#: The row tolerance of the schedule tests (the presets' 5 %: only sets the transient's stop).
SCHEDULE_RTOL = 0.05
#: The drift fraction f of the schedule tests (evidence.DRIFT_FRACTION's value).
SCHEDULE_FRACTION = 0.2


def literal_prediction(unit: SoftmaxUnit, Z: torch.Tensor) -> torch.Tensor:
    """h_{d+1} = [Σ_j (W_V z_j) softmax_j((W_K z_j)ᵀ(W_Q z_q))]_{d+1}, every product formed in
    full (spec 003 §1.4), context j ≤ n (j ≤ n+1 when the unit's query attends to itself)."""
    WK, WQ, WV = unit.weights()
    n = Z.shape[2] - 1
    m = n + 1 if unit.include_query else n
    out = torch.empty(Z.shape[0], dtype=Z.dtype)
    for b in range(Z.shape[0]):
        zq = Z[b, :, n]
        s = torch.stack([(WK @ Z[b, :, j]) @ (WQ @ zq) for j in range(m)])
        p = torch.exp(s - s.max())
        p = p / p.sum()
        h = sum(p[j] * (WV @ Z[b, :, j]) for j in range(m))
        out[b] = h[unit.d]  # type: ignore[index]
    return out


@pytest.mark.parametrize(
    "kw", [{}, {"tied": False}, {"include_query": True}, {"train_value": True}]
)
def test_forward_equals_the_literal_unit(kw: dict) -> None:
    d, n = 4, 7
    g = torch.Generator().manual_seed(11)
    unit = SoftmaxUnit(d, **kw)
    with torch.no_grad():
        unit.M_K.copy_(torch.randn(d, d, generator=g, dtype=torch.float64))
        if unit.M_Q is not None:
            unit.M_Q.copy_(torch.randn(d, d, generator=g, dtype=torch.float64))
        unit.value.fill_(0.7)
    X = torch.randn(9, n, d, generator=g, dtype=torch.float64)
    y = torch.randn(9, n, generator=g, dtype=torch.float64)
    xq = torch.randn(9, d, generator=g, dtype=torch.float64)
    Z = tokens(X, y, xq)
    got, want = unit(Z), literal_prediction(unit, Z)
    assert torch.allclose(got, want, rtol=0.0, atol=ROUNDOFF_ATOL)
    # the prediction reads the context labels (row d+1 of W_V z_j)
    Z2 = Z.clone()
    Z2[:, d, :n] += 5.0
    assert not torch.allclose(unit(Z2), got)


def test_linear_attention_equals_the_literal_sum() -> None:
    """ŷ_LA = Σ_j y_j x_jᵀ M x_q (Theorem 3.6's unit), summed term by term."""
    d, n = 3, 6
    g = torch.Generator().manual_seed(4)
    unit = LinearAttentionUnit(d)
    with torch.no_grad():
        unit.M_.copy_(torch.randn(d, d, generator=g, dtype=torch.float64))
    X = torch.randn(5, n, d, generator=g, dtype=torch.float64)
    y = torch.randn(5, n, generator=g, dtype=torch.float64)
    xq = torch.randn(5, d, generator=g, dtype=torch.float64)
    want = torch.stack(
        [
            torch.stack([y[b, j] * (X[b, j] @ unit.M_ @ xq[b]) for j in range(n)]).sum()
            for b in range(5)
        ]
    )
    assert torch.allclose(unit(tokens(X, y, xq)), want, rtol=0.0, atol=ROUNDOFF_ATOL)


def test_prompts_layout_and_sphere_moments() -> None:
    """Z's columns are [x_j; y_j] with x_j on the sphere and the query's label 0; the
    float32-drawn directions keep E x_k² = 1/d and E x_k x_l = 0 (z = 5)."""
    st = E.PRESETS["s1_sigma0.1"][0].setting
    g = torch.Generator().manual_seed(5)
    Z, fq = sample_batch(st, 4000, g)
    d, n = st.d, st.n
    assert Z.shape == (4000, d + 1, n + 1) and Z.dtype == torch.float64
    assert torch.all(Z[:, d, n] == 0)
    r = Z[:, :d, :].norm(dim=1)
    assert torch.allclose(r, torch.ones_like(r), atol=ROUNDOFF_ATOL)
    x = Z[:, :d, :].transpose(1, 2).reshape(-1, d)
    sq = x**2
    se = sq.std(dim=0) / math.sqrt(x.shape[0])
    assert torch.all((sq.mean(dim=0) - 1 / d).abs() <= MOMENT_Z * se)
    cross = x[:, 0] * x[:, 1]
    assert abs(float(cross.mean())) <= MOMENT_Z * float(cross.std()) / math.sqrt(x.shape[0])
    assert torch.isfinite(fq).all()


def test_a_window_over_the_budget_is_not_averaged(monkeypatch: pytest.MonkeyPatch) -> None:
    """run_derived: when the derived window exceeds MAX_AVERAGE no full window fits, so phase 2
    is not run and the run is unconverged (0 averaging steps, the transient's drift)."""
    monkeypatch.setattr(E, "derived_step", lambda *a: (0.001, E.MAX_AVERAGE + 10))
    exp = E.UnitExperiment(
        setting=SoftmaxWindowSetting.isotropic(d=2, n=8, L=1.0, sigma2=0.1, task="affine")
    )
    res = E.run_derived(exp, seed=0, rtol=SCHEDULE_RTOL, batch=64, fraction=SCHEDULE_FRACTION)
    sch = res.extra["schedule"]
    assert sch["average_steps"] == 0 and not sch["phase2_run"] and not sch["converged"]
    assert sch["steps"] == sch["transient_steps"] > 0
    assert math.isfinite(sch["omega_drift_over_window"])
    monkeypatch.setattr(E, "derived_step", lambda *a: (0.001, 100))
    res = E.run_derived(exp, seed=0, rtol=SCHEDULE_RTOL, batch=64, fraction=SCHEDULE_FRACTION)
    assert res.extra["schedule"]["average_steps"] > 0 and res.extra["schedule"]["phase2_run"]
