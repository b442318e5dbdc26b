"""zwb24 theory: closed forms, special cases, validation, SymPy/numpy agreement (spec 002)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st

import theory.zwb24 as T
from numerics.testing import FLOAT_RTOL, fixture_atol
from numerics.zwb24.fixtures import APPENDIX_A
from theory.settings import LinearRegressionICL
from theory.strategies import zwb24_settings


@pytest.mark.float
@pytest.mark.result("zwb24:thm5.2")
@pytest.mark.parametrize("row", APPENDIX_A, ids=lambda r: f"d{r[0]}N{r[1]}s{r[2]}")
def test_public_api_appendix_a(row: tuple) -> None:
    """The public API reproduces the spec's printed gamma*, R* (Appendix A fixtures)."""
    d, N, s = row[0], row[1], row[2]
    I = np.eye(d)
    R = T.optimal_risk(I, I, s * s, N)
    G = np.asarray(T.optimal_gamma(I, I, s * s, N), dtype=float)
    assert isinstance(R, float)
    assert abs(R - float(row[5])) <= fixture_atol(row[5])
    assert np.allclose(G, float(row[4]) * I, rtol=0, atol=fixture_atol(row[4]))


@pytest.mark.symbolic
@pytest.mark.result("zwb24:thm5.2")
def test_public_api_symbolic_matches_numeric() -> None:
    N, s2 = sp.symbols("N sigma2", positive=True)
    H = sp.Matrix([[2, 1], [1, 3]])
    Psi = sp.Matrix([[1, 0], [0, sp.Rational(1, 2)]])
    R = T.optimal_risk(H, Psi, s2, N)
    G = T.optimal_gamma(H, Psi, s2, N)
    assert isinstance(R, sp.Expr) and isinstance(G, sp.MatrixBase)
    Rn = T.optimal_risk(np.array(H, float), np.array(Psi, float), 0.3, 7)
    assert abs(float(R.subs({N: 7, s2: sp.Rational(3, 10)})) - Rn) <= FLOAT_RTOL * 10 * Rn
    Gn = T.optimal_gamma(np.array(H, float), np.array(Psi, float), 0.3, 7)
    Gsub = np.array(G.subs({N: 7, s2: sp.Rational(3, 10)}), dtype=float)
    assert np.allclose(Gsub, Gn, rtol=FLOAT_RTOL * 10, atol=0)


@pytest.mark.float
@pytest.mark.result("zwb24:thm5.2")
@settings(max_examples=25)
@given(zwb24_settings())
@example(
    LinearRegressionICL.from_arrays(
        Sigma_x=np.eye(2), N=10, task_mean=[3.0, 0.0], task_cov=np.eye(2), noise_var=0.25
    )
)
def test_optimal_risk_below_any_gd_beta(s: LinearRegressionICL) -> None:
    """R* ≤ R(f_{Γ,β}) for perturbed parameters, R* ≥ σ², and R* is independent of β*."""
    from theory.common.baselines import gd_beta_risk

    H, Psi, bs, s2, N = s.Sigma_x, s.task_cov, s.task_mean, s.noise_var, s.N
    R = T.optimal_risk(H, Psi, s2, N)
    G = T.optimal_gamma(H, Psi, s2, N)
    assert R >= s2 - FLOAT_RTOL * 10
    assert abs(float(gd_beta_risk(G, bs, H, bs, Psi, s2, N)) - R) <= FLOAT_RTOL * 1e3 * (1 + R)
    d = len(bs)
    for eps in (1e-2, 1e-1):
        Rp = float(gd_beta_risk(G + eps * np.eye(d), bs + eps, H, bs, Psi, s2, N))
        assert Rp >= R - FLOAT_RTOL * 1e3 * (1 + R)


@pytest.mark.float
@pytest.mark.result("zwb24:thm4.1")
@settings(max_examples=40)
@given(zwb24_settings(), st.integers(0, 2**32 - 1), st.sampled_from([0.0, 0.1, 1.0]))
@example(
    LinearRegressionICL.from_arrays(
        Sigma_x=np.eye(1), N=5, task_mean=[2.0], task_cov=np.eye(1), noise_var=1e-12
    ),
    0,
    0.0,
)
def test_lsa_floor_property(s: LinearRegressionICL, seed: int, phi_scale: float) -> None:
    """Thm 4.1 (ii) [derived floor] on the exact §2.2 formula at drawn LSA parameters (spec C9)."""
    H, Psi, bs, s2, N = s.Sigma_x, s.task_cov, s.task_mean, s.noise_var, s.N
    rng = np.random.default_rng(seed)
    d = len(bs)
    b, G = 2 * rng.standard_normal(d), rng.standard_normal((d, d))
    phi = phi_scale * rng.standard_normal(d)
    R = T.lsa_risk(b, G, phi, H, Psi, bs, s2, N)
    assert R >= T.lsa_risk_floor(H, Psi, bs, s2, N) - FLOAT_RTOL * 1e3 * R


@pytest.mark.float
@pytest.mark.result("zwb24:thm5.2")
def test_validation_errors_name_symbol() -> None:
    with pytest.raises(ValueError, match="sigma2"):
        T.optimal_risk(np.eye(2), np.eye(2), -1.0, 5)
    with pytest.raises(ValueError, match="Psi"):
        T.optimal_gamma(np.eye(2), -np.eye(2), 0.1, 5)
    with pytest.raises(ValueError, match="N"):
        T.optimal_risk(np.eye(2), np.eye(2), 0.1, 0)
    with pytest.raises(ValueError, match=r"tr\(H Psi\) \+ sigma2"):
        T.optimal_risk(np.eye(2), np.zeros((2, 2)), 0.0, 5)


@pytest.mark.float
@pytest.mark.result("zwb24:lem5.1")
def test_lemma51_effective_params_roundtrip() -> None:
    rng = np.random.default_rng(0)
    G, b = rng.standard_normal((3, 3)), rng.standard_normal(3)
    w = T.lemma51_weights(G, b, k=4, v=2, m=3)
    p = T.effective_params(w["W_K"], w["W_Q"], w["W_V"], w["W_P"], w["W_1"], w["W_2"])
    assert np.allclose(p["a"], b) and np.allclose(p["b"], b)
    assert np.allclose(p["Gamma"], G) and np.allclose(p["phi"], 0)


@pytest.mark.symbolic
@pytest.mark.result("zwb24:eq-ltb-risk")
def test_ltb_risk_symbolic_d1_reduces_to_gd_beta() -> None:
    """§2.2 at a = b, φ = 0 is exactly the shared §2.1 GD-β risk (d = 1, symbols)."""
    from theory.common.baselines import gd_beta_risk

    b, g, p, m, s2, N = sp.symbols("b g p m sigma2 N", positive=True)
    r = T.ltb_risk_whitened([b], [b], [[g]], [0], [[p]], [m], s2, N)
    ref = gd_beta_risk(
        sp.Matrix([[g]]), sp.Matrix([[b]]), sp.eye(1), sp.Matrix([[m]]), sp.Matrix([[p]]), s2, N
    )
    ref = ref[0, 0] if isinstance(ref, sp.MatrixBase) else ref
    assert sp.simplify(r - ref) == 0
