"""hpcy25 Monte Carlo and ODE routes: what the registry test (``tests/test_registry.py``) does not
assert.  Each check's pass/fail and its negative controls are declared in
``sims/hpcy25/results.py``; the tests here assert more than pass/fail (an independent
route, the exact rows a verdict lands on)."""

from __future__ import annotations

import pytest

from numerics.testing import assert_fails, assert_passed, assert_status

_APPB = "numerics.hpcy25.appB_flow"
_APPD = "numerics.hpcy25.appD_optimality"


@pytest.mark.mc
@pytest.mark.result("hpcy25:eqD.29")
def test_dgd_risk_vs_foundation_fast_mc() -> None:
    """Independent route: the foundation's sufficient-statistic MC (debias=True) vs R_D."""
    import numpy as np

    import theory.hpcy25 as th
    from numerics.testing import mc_agreement

    fast = pytest.importorskip("numerics.mc_fast")
    for d, L, eta in ((5, 40, 0.897), (5, 10, 0.5)):
        est = fast.gd_family_risk_mc(
            Sigma_x=np.eye(d),
            task_mean=np.zeros(d),
            task_cov=np.eye(d) / d,
            noise_var=0.1,
            N=L,
            Gamma=eta * np.eye(d),
            debias=True,
            n=20_000,
            rng=np.random.default_rng(1),
        )
        assert_passed(
            mc_agreement(
                f"R_D vs mc_fast (debias) at d={d}, L={L}", th.dgd_risk(eta, d, L, 0.1), est
            )
        )
        if L == 10:  # control: the vanilla-GD formula is not the debiased risk
            assert_fails(
                mc_agreement("R_V (fault) vs mc_fast (debias)", th.gd_risk(eta, d, L, 0.1), est)
            )


@pytest.mark.ode
@pytest.mark.result("hpcy25:appB-phases")
def test_flow_late_phase_reading_unconfirmed(declared_run) -> None:
    """The spec's reading ω ~ t^{-1/2} of the Phase III heuristic (whose exponent the OCR lost) is
    a pinned ``unconfirmed`` row: the fitted ODE slope agrees with our derived −1/6 (RATE band)
    and not with −1/2; the row names the reconstructed claim and what is lost."""
    ev, error = declared_run(f"{_APPB}:check_appb_phases_ode_late")
    assert error is None, error
    assert_status(ev, "unconfirmed")
    rows = [e for e in ev if e.status == "unconfirmed"]
    assert [e.name for e in rows] == [
        "Phase III rate of omega: t^{-1/2} (our reading of the paper heuristic) vs fitted ODE "
        "slope on [1e4, 1e6]"
    ]
    assert rows[0].details["claim"]["provenance"] == "reconstructed"
    assert abs(rows[0].details["units_to_ours"]) <= 1.0 < rows[0].details["units_to_paper"]
    assert not any(e.status == "discrepancy" for e in ev)


@pytest.mark.result("hpcy25:thm4.2iii")
def test_bayes_limit_at_xi_0_05_matches_corrected_spec(declared_run) -> None:
    """R_B∞(0.05, 0.1): the 50-digit MP route and the float64 display give 0.1052342, the spec's
    corrected 0.105234 (its 0.10524 was a rounding slip; the paper prints no value): the row once
    reported as a paper error now passes with both routes' values in it, and no row of the check
    is a discrepancy."""
    ev, error = declared_run(f"{_APPD}:check_thm4_2iii_symbolic")
    assert error is None, error
    assert_passed(ev)
    assert not any(e.verdict for e in ev)
    row = next(e for e in ev if e.name.startswith("R_B∞(xi=0.05, σ²=0.1)"))
    assert row.passed and abs(row.details["mp_50_digits"] - 0.1052342) < 1e-7


@pytest.mark.mc
@pytest.mark.result("hpcy25:prop4.1")
def test_prop4_1_bands_skipped_where_the_O_1_over_L_gap_exceeds_them() -> None:
    """At L = 2, d = 1 the gap Prop. 4.1 allows, |η(2 − ηκ)/L| = 2.06 on the Fig.-6 grid (0.32 in
    the valley), exceeds spec 001 V-R1's bands 0.10 and 0.03 (set at d = 5, L = 40): both band
    rows are skipped with that number, never failed (the measured gap, −2.57 at the corner, is
    the O(1/L) term, not a disagreement of our routes)."""
    from numerics.hpcy25.sec4_1_approx_loss import check_prop4_1_mc
    from theory.hpcy25.settings import Setting

    rows = check_prop4_1_mc(Setting(d=1, L=2), quick=True, seed=0)
    assert_status(rows, "skipped")
    bands = [r for r in rows if "0.10" in r.name or "0.6" in r.name]
    assert len(bands) == 2
    for r in bands:
        assert r.status == "skipped", r.describe()
        assert "O(1/L) gap" in r.details["why"]
        assert r.details["leading_gap"] > (0.10 if "0.10" in r.name else 0.03)
    # the grid's and Stein's power scales are known only after sampling: each raises its sample
    # (up to 4x, recorded) before it reports skipped, with the sample and seconds it would need
    (grid,) = [r for r in rows if r.name.startswith("MC power on the grid")]
    assert grid.details["raised_from"] == 20_000 and grid.details["n"] > 20_000
    for r in (r for r in rows if r.name.startswith("Stein") and r.status == "skipped"):
        assert r.details["raised_from"] == 20_000 and r.details["n"] == 80_000, r.describe()
        assert r.details["needed_n"] > 80_000 and r.details["why"].endswith(" s)"), r.describe()
