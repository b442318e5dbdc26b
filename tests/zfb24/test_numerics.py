"""zfb24 numerics beyond pass/fail: Theorem 4 outside Assumption 3 is informational only, and the
Theorem 4 limit for Hypothesis-drawn settings (SOLVER).  Every check's pass status and its negative
controls (wrong Γ, symmetrised/transposed ODE term, Λ⁻¹ in place of Γ⁻¹) are declared in
``theory/zfb24/results.py`` and run by ``tests/test_registry.py``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings

import numerics.zfb24 as NL
import theory.zfb24 as T
from numerics.testing import assert_passed, solver_agreement
from numerics.zfb24.ode import flow_horizon, slowest_time_constant
from numerics.zfb24.sec4_1_convergence import check_thm4_ode
from theory.strategies import zfb24_settings
from theory.zfb24.settings import PRESETS, Setting


@pytest.mark.ode
@pytest.mark.result("zfb24:thm4")
def test_thm4_beyond_condition_is_informational(declared_run) -> None:
    ev, error = declared_run("numerics.zfb24.sec4_1_convergence:check_thm4_ode_beyond_condition")
    assert error is None
    assert ev and all(e.informational for e in ev)


@pytest.mark.ode
@pytest.mark.result("zfb24:thm4")
@settings(max_examples=3)
@given(zfb24_settings(d=2))
@example(
    T.Assumption3Setting(Lambda=np.diag([0.5, 2.0]), N=4, sigma_init=0.3, Theta=np.eye(2) / 2**0.25)
)
def test_thm4_limit_for_drawn_settings(s: T.Assumption3Setting) -> None:
    """Theorem 4 limit in solver units and balancedness for Hypothesis-drawn settings (d = 2)."""
    L, N, sigma, Th = s.Lambda_array, s.N, s.sigma_init, s.Theta_array
    U0, u0 = T.initial_state(Th, sigma)
    tr = NL.integrate_flow(L, N, U0, u0, 4000.0, solver=NL.STIFF)
    Uf, uf = NL.unpack(tr.final, 2)
    Ue, ue = T.limit_params_fn(L, N)
    assert_passed(
        [
            solver_agreement("limit", NL.pack(Uf, uf), NL.pack(Ue, ue)),
            solver_agreement("balance", uf**2, float(np.sum(Uf**2))),
        ]
    )


#: Issue 30 (c): a setting inside Theorem 4's hypotheses whose slow direction (λ_min = 0.15)
#: outran the fixed horizon t_end = 500 (SOLVER row 2.3 units before the horizon came from it).
SLOW_SETTING = Setting(d=3, N=6, spectrum=(0.15, 1.0, 2.0), sigma_init=0.3)


def test_slowest_time_constant_of_a_linear_flow() -> None:
    """ẏ = Ay with A's eigenvalues 0 (excluded: the zero mode), −3, −0.02 in a rotated basis:
    τ_slow = 1/0.02; a flow without a zero mode is refused."""
    Q = np.linalg.qr(np.random.default_rng(1).standard_normal((3, 3)))[0]
    A = Q @ np.diag([0.0, -3.0, -0.02]) @ Q.T
    y0 = np.array([0.3, -1.2, 2.0])
    assert slowest_time_constant(lambda y: A @ (y - y0), y0) == pytest.approx(50.0, rel=1e-6)
    B = Q @ np.diag([-1.0, -3.0, -0.02]) @ Q.T
    with pytest.raises(ValueError, match="no zero mode"):
        slowest_time_constant(lambda y: B @ (y - y0), y0)


@pytest.mark.ode
@pytest.mark.result("zfb24:thm4")
def test_flow_horizon_time_constant_is_the_late_decay_rate() -> None:
    """τ_slow of flow_horizon (Jacobian at the limit) against the integrated flow itself: the
    distance to the limit decays late as e^(−t/τ_slow) (log-ratio between t = 250 and 350)."""
    L, N = np.diag([0.15, 1.0, 2.0]), SLOW_SETTING.N
    t_end, tau = flow_horizon(L, N, 500.0)
    assert t_end == pytest.approx(40 * tau) and t_end > 500
    U0, u0 = T.initial_state(np.eye(3) / 3**0.25, 0.3)
    tr = NL.integrate_flow(L, N, U0, u0, 350.0, t_eval=[250.0, 350.0], solver=NL.STIFF)
    Ue, ue = T.limit_params_fn(L, N)
    dist = [float(np.linalg.norm(y[:10] - NL.pack(Ue, ue))) for y in tr.y]
    assert np.log(dist[0] / dist[1]) / 100.0 == pytest.approx(1.0 / tau, rel=0.02)


@pytest.mark.ode
@pytest.mark.result("zfb24:thm4")
def test_thm4_ode_horizon_comes_from_the_setting() -> None:
    """At the slow setting the horizon is 40 τ_slow (> 500) and the limit row passes; at the
    paper's setting it stays 500 (its rows unchanged)."""
    ev = check_thm4_ode(SLOW_SETTING)
    assert_passed(ev)
    (row,) = [e for e in ev if e.kind == "SOLVER"]
    assert row.details["t_end"] > 500
    (paper,) = [e for e in check_thm4_ode(PRESETS["paper"]) if e.kind == "SOLVER"]
    assert paper.details["t_end"] == 500.0


@pytest.mark.mc
@pytest.mark.result("zfb24:lem15")
def test_mc_row_raises_its_sample_before_it_skips() -> None:
    """Issue 31: an MC row never fails or skips for power before raising its own sample.  At
    d = 2, N = 1 and a spread Λ = diag(0.05, 20) the quick tier's 200 000 prompts miss se ≤ 2 % of
    L; each row draws on (the raise recorded) and passes at the shared 2 % power."""
    from numerics.zfb24.sec5_flow import check_lem15_mc

    rows = check_lem15_mc(Setting(d=2, N=1, spectrum=(0.05, 20.0)))
    assert len(rows) == 2
    for r in rows:
        assert r.status == "pass", r.describe()
        assert r.details["raised_from"] == 200_000 and 200_000 < r.details["n"] <= 800_000
        assert r.details["se_over_scale"] <= 0.02


@pytest.mark.mc
@pytest.mark.result("zfb24:cor16")
def test_mc_row_skips_with_its_numbers_past_four_times_its_sample() -> None:
    """At d = 1, N = 1 a loss increase ½ε²γλ²e² along a 1×1 direction e is small against the
    paired difference's spread: 4 × 200 000 prompts still miss the 2 % power, so those rows are
    skipped (never failed) with se/scale, the sample drawn and the sample and seconds needed."""
    from numerics.zfb24.sec5_flow import check_cor16_mc

    rows = check_cor16_mc(Setting(d=1, N=1, spectrum=None))
    steps = [r for r in rows if r.name.startswith("loss increase")]
    assert len(steps) == 2 and not [r for r in rows if r.status == "fail"]
    for r in steps:
        assert r.status == "skipped", r.describe()
        assert r.details["raised_from"] == 200_000 and r.details["n"] == 800_000
        assert r.details["needed_n"] > 800_000 and r.details["se_over_scale"] > 0.02
        assert "raised from 200000" in r.details["why"] and r.details["why"].endswith(" s)")
