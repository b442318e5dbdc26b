"""Baselines (theory.common.baselines): GD family, ridge/Bayes, OLS, proportional limits.

Each family: the check passes, the same check with an injected fault fails, plus cheap exact
property tests (Hypothesis) and bad-input tests.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from numerics import baselines as nb
from numerics.baselines.faults import bayes_risk_noise_scaled, ridge_lambda_doubled
from numerics.sampling import psd_sqrt
from numerics.testing import FLOAT_RTOL, Z_MC, assert_fails, assert_passed, float_agreement
from sims.common.results import RESULTS
from theory.common import baselines as B
from theory.common.settings import PRESETS
from theory.settings import LinearRegressionICL
from theory.strategies import designs, dims, linear_regression_settings, psd_matrices


def _square(d: int, scale: float = 1.5):
    return st.lists(
        st.floats(-scale, scale, allow_nan=False, allow_infinity=False),
        min_size=d * d,
        max_size=d * d,
    ).map(lambda v: np.array(v).reshape(d, d))


def _vec(d: int, scale: float = 2.0):
    return st.lists(
        st.floats(-scale, scale, allow_nan=False, allow_infinity=False), min_size=d, max_size=d
    ).map(np.array)


# --------------------------------------------------------------------------- GD family: MC


# ------------------------------------------------------------------ GD family: exact / float
@pytest.mark.float
@pytest.mark.result("base:gd-beta")
@given(linear_regression_settings(singular=False), st.data())
def test_gd_beta_whitening_invariance(s, data):
    """Structural law (spec 002 §1.8): the risk depends on (Γ, β0, H, β*, Ψ) only through the
    whitened quantities: R(Γ, β0; H, β*, Ψ) = R(H^{1/2}ΓH^{1/2}, H^{1/2}β0; I, H^{1/2}β*,
    H^{1/2}ΨH^{1/2})."""
    d = s.d
    G, b = data.draw(_square(d)), data.draw(_vec(d))
    Hh = psd_sqrt(s.Sigma_x)
    r = B.gd_beta_risk(G, b, s.Sigma_x, s.task_mean, s.task_cov, s.noise_var, s.N)
    w = B.gd_beta_risk(
        Hh @ G @ Hh, Hh @ b, np.eye(d), Hh @ s.task_mean, Hh @ s.task_cov @ Hh, s.noise_var, s.N
    )
    cond = np.linalg.cond(s.Sigma_x)
    assert_passed(float_agreement("whitening", w, r, rtol=FLOAT_RTOL * 100 * cond**2))


@pytest.mark.float
@pytest.mark.result("base:gd-beta")
@given(linear_regression_settings(), st.data())
def test_gd_beta_special_cases(s, data):
    """Γ = 0 gives σ² + tr(HΨ_β); the risk never falls below σ² (it includes the query noise);
    batched Γ evaluates elementwise."""
    d = s.d
    b = data.draw(_vec(d))
    G = data.draw(_square(d))
    zero = B.gd_beta_risk(np.zeros((d, d)), b, s.Sigma_x, s.task_mean, s.task_cov, s.noise_var, s.N)
    m = s.task_mean - b
    expect = s.noise_var + np.trace(s.Sigma_x @ (s.task_cov + np.outer(m, m)))
    assert_passed(float_agreement("Gamma = 0", zero, expect, atol=FLOAT_RTOL * (1 + abs(expect))))
    r = B.gd_beta_risk(G, b, s.Sigma_x, s.task_mean, s.task_cov, s.noise_var, s.N)
    assert r >= s.noise_var * (1 - FLOAT_RTOL) - FLOAT_RTOL
    batch = B.gd_beta_risk(
        np.stack([G, np.zeros((d, d))]), b, s.Sigma_x, s.task_mean, s.task_cov, s.noise_var, s.N
    )
    assert_passed(float_agreement("batched", batch, [r, zero], atol=FLOAT_RTOL * (1 + abs(r))))


@pytest.mark.float
@pytest.mark.result("base:gd-beta")
@pytest.mark.result("base:dgd")
@given(linear_regression_settings(), st.data(), st.floats(0.2, 5.0))
def test_scale_consistency(s, data, c):
    """Structural law (STYLE R11): x → c x and ε → c ε with Γ → Γ/c² (P → P/c²) rescale the
    prediction error by c, so the GD-β and DGD risks by c²."""
    d = s.d
    G, b = data.draw(_square(d)), data.draw(_vec(d))
    eta = data.draw(st.floats(-2, 2))
    r = B.gd_beta_risk(G, b, s.Sigma_x, s.task_mean, s.task_cov, s.noise_var, s.N)
    rc = B.gd_beta_risk(
        G / c**2, b, c**2 * s.Sigma_x, s.task_mean, s.task_cov, c**2 * s.noise_var, s.N
    )
    q = B.dgd_risk(G, eta, s.Sigma_x, s.task_cov, s.noise_var, s.N, task_mean=s.task_mean)
    qc = B.dgd_risk(
        G / c**2, eta, c**2 * s.Sigma_x, s.task_cov, c**2 * s.noise_var, s.N, task_mean=s.task_mean
    )
    assert_passed(
        [
            float_agreement(
                "GD-beta scale", rc, c**2 * r, rtol=100 * FLOAT_RTOL, atol=100 * FLOAT_RTOL * c**2
            ),
            float_agreement(
                "DGD scale", qc, c**2 * q, rtol=100 * FLOAT_RTOL, atol=100 * FLOAT_RTOL * c**2
            ),
        ]
    )


@pytest.mark.float
@pytest.mark.result("base:dgd")
@given(linear_regression_settings(), st.data())
def test_dgd_is_gd_with_one_sample_less(s, data):
    """[derived] DGD(P, η; N) = GD(η (N−1)/N Pᵀ; N − 1) for every setting (numeric, drawn)."""
    d = s.d
    P, eta = data.draw(_square(d)), data.draw(st.floats(-2, 2))
    lhs = B.dgd_risk(P, eta, s.Sigma_x, s.task_cov, s.noise_var, s.N, task_mean=s.task_mean)
    rhs = B.gd_risk(
        eta * (s.N - 1) / s.N * P.T, s.Sigma_x, s.task_mean, s.task_cov, s.noise_var, s.N - 1
    )
    assert_passed(
        float_agreement("DGD = GD(N-1)", lhs, rhs, rtol=100 * FLOAT_RTOL, atol=100 * FLOAT_RTOL)
    )


# ----------------------------------------------------------------------------- ridge/Bayes
@pytest.mark.symbolic
@pytest.mark.result("base:ridge-bayes")
def test_ridge_equals_posterior_mean_negative_control():
    """λ doubled must fail, in the exact part (at d = 1, N = 2: simplifying a *non-zero* 2×2
    difference takes ~10 s) and in the float part."""
    ev = nb.check_ridge_bayes(PRESETS["default"], fault_ridge_fn=ridge_lambda_doubled)
    assert not ev[0].passed and ev[0].kind == "EXACT"
    assert_fails(ev[1:])


@pytest.mark.float
@pytest.mark.result("base:ridge-bayes")
@given(st.data(), st.floats(0.05, 4.0), st.floats(0.05, 4.0))
def test_ridge_equals_posterior_mean_drawn(data, tau2, sigma2):
    d = data.draw(dims)
    N = data.draw(st.integers(1, 12))
    X = data.draw(designs(d, N))
    y = data.draw(_vec(N))
    a = B.ridge_predictor(X, y, sigma2 / tau2)
    b = B.bayes_posterior_mean(X, y, np.zeros(d), tau2 * np.eye(d), sigma2)
    cond = np.linalg.cond(X.T @ X + sigma2 / tau2 * np.eye(d))
    assert_passed(
        float_agreement("ridge == Bayes", a, b, atol=FLOAT_RTOL * cond * (1 + np.abs(b).max()))
    )


@pytest.mark.float
@pytest.mark.result("base:bayes-risk")
@given(st.data(), st.floats(0.05, 3.0), st.floats(0.0, 20.0))
def test_bayes_conditional_risk_is_minimal(data, sigma2, lam):
    """Given X, Bayes ≤ ridge(λ) for every λ (the posterior mean minimises the conditional risk),
    with equality at Ψ = τ²I, β* = 0, λ = σ²/τ²; general Σ_x, Ψ (singular allowed)."""
    d = data.draw(dims)
    N = data.draw(st.integers(d, 12))
    X = data.draw(designs(d, N))
    S = data.draw(psd_matrices(d))
    Psi = data.draw(psd_matrices(d))
    bayes = B.bayes_conditional_risk(X, S, Psi, sigma2)
    if lam == 0 and np.linalg.matrix_rank(X) < d:
        return
    ridge = B.ridge_conditional_risk(X, lam, S, np.zeros(d), Psi, sigma2)
    assert ridge >= bayes - 1e3 * FLOAT_RTOL * (1 + ridge)


@pytest.mark.float
@pytest.mark.result("base:bayes-risk")
def test_ridge_conditional_risk_on_numerically_singular_designs():
    """X = [[5.8e-280]] has full rank by ``matrix_rank`` but XᵀX underflows; at
    λ = 0 the risk (≈ 3e558) is not a float64, so OLS refuses with a ValueError.  A rank-deficient
    X at a subnormal λ > 0 (where the direct (XᵀX + λI)⁻¹ overflows, inf·0 = NaN) is finite and
    equals the value at a small normal λ (a continuous function of λ on the row space)."""
    with pytest.raises(ValueError, match="lam = 0"):
        B.ridge_conditional_risk([[5.8e-280]], 0.0, [[1.0]], [0.0], [[1.0]], 1.0)
    Xr = np.array([[1.0, 2.0], [2.0, 4.0], [0.5, 1.0]])  # rank 1
    args = (np.eye(2), [0.3, 0.0], np.diag([1.0, 0.5]), 0.7)
    tiny = B.ridge_conditional_risk(Xr, 5e-324, *args)
    small = B.ridge_conditional_risk(Xr, 1e-12, *args)
    # λ-dependence near 0: row-space shrink λ/(s²+λ) and amplitude s²/(s²+λ)² move by O(λ/s²)
    assert np.isfinite(tiny) and abs(tiny - small) <= 1e-9 * small


@pytest.mark.mc
@pytest.mark.result("base:bayes-risk")
def test_bayes_conditional_risk_mc_negative_control():
    """The planted Bayes fault fails the Bayes row and leaves the ridge row passing."""
    ev = nb.check_bayes_risk_mc(PRESETS["bayes"], fault_risk_fn=bayes_risk_noise_scaled)
    assert not ev[0].passed and ev[1].passed


@pytest.mark.mc
@pytest.mark.result("base:bayes-risk")
def test_bayes_risk_mc_isotropic_vs_raw_prompts():
    """hpcy25's setting (Ψ = I/d, Σ = I, d = 5, L = 40, σ² = 0.1): E_X[L_Bayes] (MC over X) agrees
    with the raw-prompt MC of the ridge(λ = dσ²) predictor's squared error (independent samples),
    and lies above σ²."""
    from numerics.montecarlo import mc_mean
    from numerics.sampling import sample_prompts
    from numerics.testing import mc_difference_agreement
    from theory.common.protocols import Estimate

    s = LinearRegressionICL.isotropic(d=5, N=40, noise_var=0.1, task_var=1 / 5)
    rb = nb.bayes_risk_mc(s, 4_000, rng=np.random.default_rng(1))

    def draw(rng, b):
        pb = sample_prompts(s, b, rng=rng)
        w = B.ridge_predictor(pb.X, pb.y, s.d * s.noise_var)
        return (np.einsum("bd,bd->b", w, pb.xq) - pb.yq) ** 2

    raw = mc_mean(draw, 60_000, rng=np.random.default_rng(2))
    diff = Estimate(rb.mean - raw.mean, float(np.hypot(rb.se, raw.se)), raw.n)
    assert_passed(mc_difference_agreement("E_X[L_Bayes] vs raw MC", 0.0, diff, scale=raw.mean))
    assert rb.mean > s.noise_var


# -------------------------------------------------------------------------------------- OLS
@pytest.mark.mc
@pytest.mark.result("base:ols")
def test_ols_mc_short_prompt():
    """The OLS check also passes at the short prompt (d = 3, N = 8) where its declared control
    (denominator d/(N − d)) is planted."""
    assert_passed(nb.check_ols_mc(dataclasses.replace(PRESETS["ols"], N=8)))


@pytest.mark.symbolic
@pytest.mark.result("base:ols")
def test_ols_limits_and_bad_input():
    d, N, s2 = sp.Symbol("d", positive=True), sp.Symbol("N", positive=True), sp.Symbol("s2")
    expr = B.ols_risk(d, N, s2)
    assert sp.limit(expr, N, sp.oo) == s2  # N → ∞: only the query noise is left
    with pytest.raises(ValueError, match="N"):
        B.ols_risk(3, 4, 1.0)
    with pytest.raises(ValueError, match="sigma"):
        B.ols_risk(3, 10, -1.0)


# ------------------------------------------------------------------- proportional limit
@pytest.mark.float
@pytest.mark.result("base:mp-limit")
def test_bayes_limit_matches_hpcy25():
    """Cross-check with the hpcy25 module's R_B∞ if it is present, else with spec 001 R9's printed
    formula (transcribed here as the fixture)."""
    xi = np.array([0.01, 0.125, 0.2, 1.0, 2.0, 10.0])
    s2 = np.array([0.1, 0.1, 3.0, 0.5, 0.01, 1.0])
    try:
        from theory.hpcy25 import bayes_risk_limit as hp

        other = np.array([float(hp(x, v)) for x, v in zip(xi, s2, strict=True)])
    except ImportError:
        other = 0.5 * (s2 + 1 - 1 / xi + np.sqrt(4 * s2 + (s2 - 1 + 1 / xi) ** 2))
    assert_passed(
        float_agreement(
            "R_Binf vs hpcy25", B.bayes_risk_limit_mp(xi, s2), other, rtol=100 * FLOAT_RTOL
        )
    )


@pytest.mark.float
@pytest.mark.result("base:ridge-limit")
@given(st.floats(1e-3, 1e3), st.floats(1e-3, 1e2), st.floats(0.05, 10.0), st.floats(0.01, 100.0))
def test_ridge_limit_at_least_bayes(xi, s2, signal, f):
    """The proportional ridge risk at any λ is ≥ the Bayes limit (equality at λ*), and m solves
    the MP self-consistency equation."""
    lam_star = s2 * xi / signal
    r = B.ridge_risk_limit(xi, f * lam_star, s2, signal)
    b = B.bayes_risk_limit_mp(xi, s2, signal)
    assert r >= b * (1 - 1e3 * FLOAT_RTOL)
    m = B.mp_stieltjes(xi, f * lam_star)
    lam = f * lam_star
    assert abs(xi * lam * m**2 + (1 - xi + lam) * m - 1) <= 1e3 * FLOAT_RTOL * (1 + xi * lam * m**2)


# ---------------------------------------------------------------------------- bad input
@pytest.mark.result("base:gd")
def test_bad_input_raises():
    s = LinearRegressionICL.isotropic(d=2, N=4)
    with pytest.raises(ValueError, match="Sigma_x"):
        B.gd_risk(np.eye(2), [[1.0, 2.0], [2.0, 1.0]], s.task_mean, s.task_cov, 0.1, 4)
    with pytest.raises(ValueError, match="task_cov"):
        B.gd_risk(np.eye(2), np.eye(2), s.task_mean, -np.eye(2), 0.1, 4)
    with pytest.raises(ValueError, match="noise_var"):
        B.gd_beta_risk(np.eye(2), [0, 0], np.eye(2), s.task_mean, np.eye(2), -0.1, 4)
    with pytest.raises(ValueError, match="N"):
        B.gd_risk(np.eye(2), np.eye(2), s.task_mean, np.eye(2), 0.1, 0)
    with pytest.raises(ValueError, match="N"):
        B.dgd_risk(np.eye(2), 1.0, np.eye(2), np.eye(2), 0.1, 1)
    with pytest.raises(ValueError, match="Gamma"):
        B.gd_risk(np.eye(3), np.eye(2), s.task_mean, np.eye(2), 0.1, 4)
    with pytest.raises(ValueError, match="noise_var"):
        B.bayes_conditional_risk(np.ones((3, 2)), np.eye(2), np.eye(2), 0.0)
    with pytest.raises(ValueError, match="lam"):
        B.ridge_risk_limit(0.5, 0.0, 1.0)
    with pytest.raises(ValueError, match="xi"):
        B.bayes_risk_limit_mp(-0.5, 1.0)
    with pytest.raises(ValueError, match="singular"):
        B.ridge_predictor(np.ones((3, 2)), np.ones(3), 0.0)


@pytest.mark.float
@pytest.mark.result("base:gd")
@given(st.data())
def test_gd_risk_reduces_to_spec_isotropic(data):
    """Γ = ηI, H = I, Ψ = I/d reproduces hpcy25's R_V (spec 001 R9) numerically too."""
    d, L = data.draw(dims), data.draw(st.integers(1, 64))
    eta, s2 = data.draw(st.floats(-2, 2)), data.draw(st.floats(0, 4))
    RV = 1 + s2 - 2 * eta + eta**2 * (1 + (d * (1 + s2) + 1) / L)
    r = B.gd_risk(eta * np.eye(d), np.eye(d), np.zeros(d), np.eye(d) / d, s2, L)
    assert_passed(float_agreement("R_V", r, RV, atol=10 * FLOAT_RTOL * (1 + abs(RV))))


# --------------------------------------------------------------- reproducibility / full tier
@pytest.mark.mc
@pytest.mark.result("base:ols")
def test_same_seed_same_evidence():
    """Same seed → identical evidence (JSON); a different seed → a different sample."""
    a = [e.to_json() for e in nb.check_ols_mc(PRESETS["ols"], seed=3)]
    b = [e.to_json() for e in nb.check_ols_mc(PRESETS["ols"], seed=3)]
    c = [e.to_json() for e in nb.check_ols_mc(PRESETS["ols"], seed=4)]
    assert a == b and a != c


_ALL_CHECKS = sorted(
    {c for r in RESULTS if r.id != "base:suffstat-mc" for c in r.checks}, key=lambda c: c.path
)


@pytest.mark.thorough
@pytest.mark.slow
@pytest.mark.result("base:gd")
@pytest.mark.parametrize("check", _ALL_CHECKS, ids=[c.path for c in _ALL_CHECKS])
def test_full_mode_checks(check):
    """The report's --full setting (larger samples, fully symbolic limits) of every base check,
    at its declared setting."""
    assert_passed(check.function(check.at, quick=False))


@pytest.mark.mc
@pytest.mark.result("base:gd")
def test_baseline_figure_closed_forms_sit_inside_mc_bars() -> None:
    """The figure's data: every closed-form point lies within 5 se of its MC marker."""
    from sims.figures.baselines import compute_baseline_risks

    data = compute_baseline_risks(quick=True, seed=0)
    for key in ("gd", "dgd", "ols"):
        ok = ~np.isnan(data[key])
        z = np.abs(data[f"{key}_mc"][ok] - data[key][ok]) / data[f"{key}_se"][ok]
        assert np.all(z <= Z_MC), (key, z)


def test_shared_layer_messages_name_the_value_and_the_assumption() -> None:
    from theory.common.baselines import bayes_posterior_mean, ridge_conditional_risk
    from theory.common.baselines import ridge_predictor as ridge
    from theory.common.gaussian import sample_cov_second_moment

    X, y = [[1.0], [2.0]], [1.0, 2.0]
    with pytest.raises(ValueError, match=r"^lam \(ridge penalty\) must be ≥ 0, got -1.0"):
        ridge(X, y, -1.0)
    with pytest.raises(
        ValueError,
        match=r"^noise_var \(sigma\^2\) must be > 0 \(the Bayes posterior mean formula needs "
        r"sigma\^2 > 0\), got 0.0",
    ):
        bayes_posterior_mean(X, y, [0.0], [[1.0]], 0.0)
    with pytest.raises(ValueError, match=r"^task_mean must have finite entries"):
        ridge_conditional_risk(X, 2.0, [[1.0]], [np.nan], [[0.5]], 1.0)
    with pytest.raises(ValueError, match=r"^Sigma must be symmetric"):
        sample_cov_second_moment([[1.0, 2.0], [3.0, 1.0]], 5)


def test_symbolic_routes_at_a_generic_point_with_one_symbol_among_numbers() -> None:
    from theory.common.baselines import dgd_risk, ridge_conditional_risk

    # ridge: a symbolic λ with a generic numeric design takes the SymPy route (A − I at λ ≠ 0)
    lam = sp.Symbol("lam", positive=True)
    X = [[1.0, 0.3], [-0.4, 2.0], [0.7, -1.1]]
    S, mu, Psi = [[1.5, 0.2], [0.2, 0.8]], [0.3, -0.6], [[0.9, 0.1], [0.1, 0.4]]
    expr = ridge_conditional_risk(X, lam, S, mu, Psi, 0.25)
    assert float(expr.subs(lam, 0.7)) == pytest.approx(
        float(ridge_conditional_risk(X, 0.7, S, mu, Psi, 0.25)), rel=FLOAT_RTOL
    )
    # debiased GD: Σ_x alone symbolic (one entry a symbol) takes the SymPy route
    a = sp.Symbol("a", positive=True)
    P, Sx = [[1.0, 0.2], [0.2, 0.7]], [[1.3, 0.1], [0.1, 0.6]]
    expr = dgd_risk(P, 0.4, sp.Matrix([[a, 0.1], [0.1, 0.6]]), Psi, 0.25, 9)
    assert isinstance(expr, sp.Expr) and a in expr.free_symbols
    assert float(expr.subs(a, 1.3)) == pytest.approx(
        float(dgd_risk(P, 0.4, Sx, Psi, 0.25, 9)), rel=FLOAT_RTOL
    )
