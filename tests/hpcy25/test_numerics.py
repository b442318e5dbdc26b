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


@pytest.mark.ode
@pytest.mark.result("hpcy25:obs4")
def test_phases_fall_judged_on_the_late_laws_clock_at_d_1() -> None:
    """At d = 1 (L = 40, σ² = 0.1) ω peaks (≈ 0.7) and falls, but App. B's late phase runs about
    70 times slower than at d = 5 (μ⁶ ∝ ξ(1+σ²)d²t/κ⁶): at the figure's t = 2000 ω is still above
    half its peak.  The "falls" row is judged where the late law puts ω at a third of its peak
    (t ≈ 3e4), where the flow is below half of it; every row of the check passes."""
    from numerics.hpcy25.appB_flow import check_appb_phases_ode
    from numerics.hpcy25.flows import STIFF, reduced_flow
    from theory.hpcy25.settings import Setting

    rows = check_appb_phases_ode(Setting(d=1), quick=True, seed=0)
    assert_passed(rows)
    (fall,) = [r for r in rows if "falls after its peak" in r.name]
    T, w_max = fall.details["T"], fall.details["omega_max"]
    assert 2e4 < T < 5e4 and fall.name.endswith(f"(omega({T:.6g})/omega_max)")
    assert fall.observed <= 0.5
    # the figure's horizon alone would not show the fall at d = 1 (what the row once judged)
    early = float(reduced_flow(2000.0, d=1, L=40, sigma2=0.1, solver=STIFF).final[0]) / w_max
    assert early > 0.5


@pytest.mark.mc
@pytest.mark.result("hpcy25:eq4.6")
def test_eq4_6_band_skipped_where_the_finite_L_shift_exceeds_it() -> None:
    """At L = 2 (d = 5, σ² = 0.1) the true optimum's leading shift from m*(ω) that Prop. 4.1's
    O(1/L) error allows, ω²(d+2)(κL+4)/(κL²), is 9.1 % at ω = 0.13 and 48 % at ω = 0.3, beyond
    the 3 % band (set at L = 40, where it is ≤ 1.7 %): those rows are skipped with the number;
    at ω = 0.05 (1.3 %) the band is judged and holds."""
    from numerics.hpcy25.sec4_2_manifold import check_eq4_6_mc
    from theory.hpcy25.settings import Setting

    rows = check_eq4_6_mc(Setting(L=2), quick=True, seed=0)
    assert [r.status for r in rows] == ["pass", "skipped", "skipped"], [r.describe() for r in rows]
    for r, shift in zip(rows[1:], (0.0907, 0.483), strict=True):
        assert abs(r.details["leading_shift"] - shift) < 5e-4
        assert "O(1/L) shift" in r.details["why"]


@pytest.mark.mc
@pytest.mark.result("hpcy25:eq4.6")
def test_exact_step_shift_against_mc() -> None:
    """[derived] κη_ex(ω) − 1 = ω²(d+2)(κL+4)/(κL²) + O(ω⁴), η_ex = 2ω m_ex the true loss's
    optimal step of the ± pair: at a generic point (d = 3, L = 4, σ² = 0.2, ω = 0.1: 1.9 %) the
    Rao–Blackwellised MC optimum agrees within 5 se plus the O(ω⁴) term (bounded by the square of
    the leading one), and rejects L̃'s own step (no ω² term: shift 0) and half the shift."""
    import numpy as np

    import theory.hpcy25 as th
    from numerics.hpcy25.mc import pair_step_optimum
    from numerics.hpcy25.sec4_2_manifold import exact_step_shift

    d, L, s2, om = 3, 4, 0.2, 0.1
    k = float(th.kappa(d, L, s2))
    pred = exact_step_shift(om, d, L, s2)
    est = pair_step_optimum(om, d=d, L=L, sigma2=s2, n=400_000, rng=np.random.default_rng(7))
    got, se = k * est.mean - 1, k * est.se
    tol = 5 * se + pred**2
    assert se <= 0.1 * pred, se  # resolves the ω² term
    assert abs(got - pred) <= tol, (got, pred, se)
    for alt in (0.0, pred / 2):  # L̃'s step (4.8), and a factor-2 slip
        assert abs(got - alt) > tol, (got, alt)


@pytest.mark.mc
@pytest.mark.result("hpcy25:thm4.2iii")
def test_mc_rows_raise_their_sample_then_skip_with_the_numbers(monkeypatch) -> None:
    """Raise before skip: a draw short of its power (se ≤ 2 % of its scale) draws on, on the same
    stream, up to 4 times its mode's sample (recorded as ``raised_from``), then reports
    ``skipped`` with the sample and seconds it would need -- never a fail.  Each site at a sample
    made small for the test: the paired ridge/Bayes-formula difference (Thm 4.2(iii), at L = 2),
    §5.4's per-task risk, and the sharp-head study's units row (the small-ω pair's risk)."""
    import numpy as np

    from numerics.hpcy25 import appD_optimality, landscape, sec5_extensions
    from numerics.hpcy25.sec3_sharp_head import sharp_head_rows
    from theory.hpcy25.settings import Setting

    monkeypatch.setattr(appD_optimality, "BAYES_MC_PROMPTS", {True: 50, False: 50})
    monkeypatch.setattr(sec5_extensions, "DEF5_1_MC_PROMPTS", {True: 20, False: 20})
    (diff, _) = appD_optimality.check_thm4_2iii_mc(Setting(L=2), quick=True, seed=0)
    (risk,) = [
        r
        for r in sec5_extensions.check_def5_1_mc(Setting(d=6, L=48), quick=True, seed=0)
        if r.name.startswith("per-task restricted DGD risk")
    ]
    for r, n in ((diff, 50), (risk, 20)):
        assert r.status == "skipped", r.describe()
        assert r.details["raised_from"] == n and r.details["n"] == 4 * n, r.describe()
        assert r.details["needed_n"] > 4 * n and r.details["why"].endswith(" s)"), r.describe()
    study = landscape.sharp_head_study(
        2, 4, 0.25, rng=np.random.default_rng(0), n_search=300, n_eval=50
    )
    assert study.n_requested == 50 and study.gain[2] == 200
    (units,) = [r for r in sharp_head_rows(study) if r.name.startswith("landscape units")]
    assert units.details["n"] == 200 and units.details["raised_from"] == 50, units.describe()
    assert units.status in ("pass", "skipped"), units.describe()


@pytest.mark.ode
@pytest.mark.result("hpcy25:appB-phases")
def test_phases_peak_found_wherever_it_falls_and_phase1_needs_a_small_start() -> None:
    """From ε = 1e-6 Phase I lasts longer and ω peaks at t ≈ 7.3, outside the fine window
    [3, 5] of the paper's ε = 1e-3: the peak is found on the flow's grid, and its value is the
    saturation's 0.5763 (our reference, independent of ε to 1e-3).  From ε = 0.05 ≥ 0.02 no point
    lies in Phase I's window: that row is skipped with the number, never an error."""
    from numerics.hpcy25.appB_flow import check_appb_phases_ode
    from theory.hpcy25.settings import Setting

    rows = check_appb_phases_ode(Setting(eps=1e-6), quick=True, seed=0)
    assert_passed(rows)
    (fall,) = [r for r in rows if "falls after its peak" in r.name]
    assert 7.0 < fall.details["t_peak"] < 7.6 and abs(fall.details["omega_max"] - 0.5763) < 1e-3
    rows = check_appb_phases_ode(Setting(eps=0.05), quick=True, seed=0)
    assert [r.status for r in rows] == ["skipped", "pass", "pass", "pass", "pass"]
    assert "ε = 0.05" in rows[0].details["why"]
