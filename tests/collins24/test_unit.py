"""collins24 trained unit and its data: the forward pass against the literal formula of spec 003
§1.4 (keys, queries and values as full (d+1)-vectors), the prompts' layout, the float32-drawn
normals, the derived schedule's budget rule (a window longer than the budget is not run), and
the planned schedule's stopping rule (its invariant's drift over a window, within a step bound).
"""

from __future__ import annotations

import math

import numpy as np
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
    st = E.PRESETS["s1_sigma0.1"][0]
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
    st = SoftmaxWindowSetting.isotropic(d=2, n=8, L=1.0, sigma2=0.1, task="affine")
    rc = E.derived_recipe(SCHEDULE_RTOL, 64)
    assert rc.stop is not None and rc.stop.fraction == SCHEDULE_FRACTION
    res = E.run_derived(st, rc)
    sch = res.extra["schedule"]
    assert sch["average_steps"] == 0 and not sch["phase2_run"] and not sch["converged"]
    assert sch["steps"] == sch["transient_steps"] > 0
    assert math.isfinite(sch["omega_drift_over_window"])
    monkeypatch.setattr(E, "derived_step", lambda *a: (0.001, 100))
    res = E.run_derived(st, rc)
    assert res.extra["schedule"]["average_steps"] > 0 and res.extra["schedule"]["phase2_run"]
    assert res.extra["stop"]["converged"] == res.extra["schedule"]["converged"]


def test_stop_drift_reads_the_window_halves() -> None:
    """Stop.drift: the distance between the invariant's means over the window's two halves,
    relative to the window mean (absolute when ``relative=False``); a constant M has none."""
    eye = [np.eye(3)] * 4
    grow = [np.eye(3) * v for v in (1.0, 1.0, 3.0, 3.0)]  # halves' ω: 1 and 3, mean 2
    stop = E.Stop(tol=SCHEDULE_RTOL, max_steps=10)
    assert stop.drift(eye) == 0.0 and stop.threshold == pytest.approx(0.01)
    assert stop.drift(grow) == pytest.approx(1.0)
    assert E.Stop(tol=SCHEDULE_RTOL, max_steps=10, relative=False).drift(grow) == pytest.approx(2.0)
    absolute_M = E.Stop(tol=SCHEDULE_RTOL, max_steps=10, invariant="M", relative=False)
    assert absolute_M.drift(grow) == pytest.approx(2.0 * math.sqrt(3.0))  # ‖2I‖_F, d = 3
    whitened = E.Stop(tol=SCHEDULE_RTOL, max_steps=10, invariant="whitened")
    assert whitened.drift(grow, x2=np.array([1.0, 0.0, 0.0])) == pytest.approx(1.0)
    flat_axis = [np.diag([1.0, v, v]) for v in (1.0, 1.0, 3.0, 3.0)]  # moves on unpopulated axes
    assert whitened.drift(flat_axis, x2=np.array([1.0, 0.0, 0.0])) == 0.0
    rho = E.Stop(tol=SCHEDULE_RTOL, max_steps=10, invariant="rho", relative=False)
    Ms = [np.diag([2.0, 0.1, 0.0])] * 2 + [np.diag([2.0, 0.2, 0.0])] * 2  # ρ 0.05 then 0.1
    assert rho.drift(Ms, k=1) == pytest.approx(0.05)
    with pytest.raises(ValueError, match="rank k"):
        rho.drift(Ms)
    with pytest.raises(ValueError, match="invariant"):
        E.Stop(tol=SCHEDULE_RTOL, max_steps=10, invariant="trace")


def test_planned_run_goes_on_until_its_invariant_settles() -> None:
    """The planned schedule: a run whose invariant still drifts after the planned steps goes on
    at the final lr, its averaging window growing, and stops at the first settled check or at the
    bound (then unconverged, with its numbers); without a stop rule it takes exactly the planned
    steps."""
    st = SoftmaxWindowSetting.isotropic(d=3, n=8, L=1.0, sigma2=0.01)
    plan = E.Recipe(optimizer="adam", lr=0.05, steps=60, batch_size=32, lr_decay=0.05)
    free = E.run((st, plan))
    assert "stop" not in free.extra or free.extra["stop"]["extra_steps"] == 0
    tight = E.run((st, E.judged_by(plan, 1e-9, max_steps=36)))  # unreachable: to the bound
    rec = tight.extra["stop"]
    assert not rec["converged"] and rec["extra_steps"] == 36 and rec["drift"] > rec["threshold"]
    assert rec["window"] == 12 + 36 and len(tight.extra["M_snapshots"]) == len(
        range(0, 60 + 36, 10)
    )
    loose = E.run((st, E.judged_by(plan, 1e3)))  # settled at the planned steps
    assert loose.extra["stop"]["converged"] and loose.extra["stop"]["extra_steps"] == 0
    assert np.array_equal(loose.extra["M_avg"], free.extra["M_avg"])


def test_trained_caches_by_setting_recipe_and_seed() -> None:
    """trained(setting, recipe, seed=...) and trained(preset name) are one cache entry; the
    presets' recipes carry their judging checks' tolerances (S2's ReLU: RELU_RTOL)."""
    from numerics.collins24.tolerances import RELU_RTOL
    from sims.collins24.sec3_linear import LA_RTOL

    assert E.ADAM_RELU.stop is not None and E.ADAM_RELU.stop.tol == RELU_RTOL
    assert E.ADAM_LINEAR.stop is not None and E.ADAM_LINEAR.stop.tol == LA_RTOL
    a = E.trained("smoke", seed=3)
    b = E.trained(*E.PRESETS["smoke"], seed=3)
    assert a is b and a.config.seed == 3 and E.setting_of(a) == E.PRESETS["smoke"][0]
    with pytest.raises(ValueError, match="needs its recipe"):
        E.trained(E.PRESETS["smoke"][0])
    with pytest.raises(ValueError, match="link"):
        E.run((E.PRESETS["smoke"][0], E.Recipe(link="square")))
