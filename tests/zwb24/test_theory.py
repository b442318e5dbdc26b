"""zwb24 theory: closed forms, special cases, validation, SymPy/numpy agreement (spec 002)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import sympy as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st

import theory.zwb24 as T
from numerics.testing import FLOAT_RTOL, SYMBOLIC_ATOL, SYMBOLIC_RTOL, fixture_atol
from numerics.zwb24.fixtures import APPENDIX_A
from theory.settings import LinearRegressionICL
from theory.strategies import zwb24_settings

_WRITTEN_OUT_TOL = (
    1e-13  # a block written out in numpy vs the effective form: round-off of a few products
)


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


@pytest.mark.float
@pytest.mark.result("zwb24:eq-ltb-risk")
@pytest.mark.parametrize("shape", ["flat", "row"])
def test_ltb_risk_whitened_takes_vectors_as_rows(shape: str) -> None:
    """``a, b, φ, μ̄`` as ``1×d`` rows (vectors of the domain, whose trailing axis is ``d``) are
    flattened like ``(d,)`` ones: at the GD-β point ``a = b = β, φ = 0`` (d = 2, generic Γ, Ψ̄)
    the risk is the float of the shared §2.1 GD-β risk with ``H = I`` (an independent closed
    form).  Left 2-D, ``m·m`` is a ``(1, d) @ (1, d)`` product and fails."""
    from theory.common.baselines import gd_beta_risk

    beta, mu = [0.3, -0.15], [0.8, -0.4]
    G = np.array([[0.5, 0.1], [-0.2, 0.35]])
    P = np.array([[0.6, 0.1], [0.1, 0.9]])
    ref = float(gd_beta_risk(G, np.array(beta), np.eye(2), np.array(mu), P, 0.3, 7))
    wrap = (lambda v: [v]) if shape == "row" else (lambda v: v)
    r = T.ltb_risk_whitened(wrap(beta), wrap(beta), G, wrap([0.0, 0.0]), P, wrap(mu), 0.3, 7)
    assert isinstance(r, float)
    assert r == pytest.approx(ref, rel=FLOAT_RTOL, abs=0)


@pytest.mark.float
@pytest.mark.result("zwb24:thm5.2")
def test_omega_condition_error_names_the_whitened_trace() -> None:
    with pytest.raises(ValueError) as err:
        T.optimal_gamma_whitened(np.zeros((2, 2)), 0.0, 5)
    assert str(err.value) == (
        "tr(Psi_bar) + sigma2 must be > 0 (zwb24 Thm 5.2: Omega invertible), got "
        "tr(Psi_bar)=0, sigma2=0"
    )


@pytest.mark.float
@pytest.mark.result("zwb24:eq3.3")
def test_effective_params_off_the_chart_v2_zero() -> None:
    """``v_2 = 0`` (here ``W_P``'s last row is zero): ``a`` is still read, the chart parameters
    ``b, Γ, φ`` are all ``None`` and the keys are the documented ones."""
    I = np.eye(2)
    W_P = np.array([[1.0, 0.0], [0.0, 0.0]])
    p = T.effective_params(I, I, I, W_P)
    assert set(p) == {"u", "v", "W", "w", "a", "b", "Gamma", "phi"}
    assert p["b"] is None and p["Gamma"] is None and p["phi"] is None
    assert np.allclose(p["a"], [0.0])


#: One symbol among numbers: each public formula at d = 1 (eigen forms at two eigenvalues) as a
#: function of (σ², N); the symbolic branch must be taken and agree with the numeric one.  The
#: numeric matrices come as lists or (``_mixed(np.asarray)``) as numpy arrays.
_P, _H, _B, _G, _L = [[0.6]], [[1.3]], [0.8], [[0.5]], [0.3, 0.9]


def _mixed(c: Callable[[Any], Any]) -> dict[str, Callable[[Any, Any], Any]]:
    P, H, G = c(_P), c(_H), c(_G)
    B, L = _B, _L
    return {
        "omega": lambda s2, N: T.omega(P, s2, N),
        "optimal_gamma_whitened": lambda s2, N: T.optimal_gamma_whitened(P, s2, N),
        "optimal_gamma": lambda s2, N: T.optimal_gamma(H, P, s2, N),
        "optimal_risk": lambda s2, N: T.optimal_risk(H, P, s2, N),
        "optimal_risk_eig": lambda s2, N: T.optimal_risk_eig(L, s2, N),
        "gd0_gap": lambda s2, N: T.gd0_gap(H, P, B, s2, N),
        "lsa_risk_floor": lambda s2, N: T.lsa_risk_floor(H, P, B, s2, N),
        "gap_lower_bound": lambda s2, N: T.gap_lower_bound(H, P, B, s2, N),
        "gap_upper_bound_eig": lambda s2, N: T.gap_upper_bound_eig(L, [0.8, -0.5], s2, N),
        "gap_exact_d1_noiseless": lambda s2, N: T.gap_exact_d1_noiseless(0.7, N),
        "label_second_moment": lambda s2, N: T.label_second_moment(H, P, B, s2),
        "K_matrix": lambda s2, N: T.K_matrix(G, H, N),
        "excess_risk": lambda s2, N: T.excess_risk(G, [0.2], H, P, B, s2, N),
        "flow_rhs": lambda s2, N: T.flow_rhs(G, [0.2], H, P, B, s2, N),
        "ltb_risk_whitened": lambda s2, N: T.ltb_risk_whitened([0.1], [0.3], G, [0.2], P, B, s2, N),
    }


#: How the numeric matrices (2-D lists) are passed: as lists or as numpy arrays.
CONTAINERS: dict[str, Callable[[Any], Any]] = {"list": lambda x: x, "ndarray": np.asarray}


def _numbers(x: object, at: dict) -> np.ndarray:
    if isinstance(x, tuple):
        return np.concatenate([_numbers(v, at).ravel() for v in x])
    if isinstance(x, sp.MatrixBase):
        return np.array(x.subs(at).evalf(), dtype=float)
    if isinstance(x, sp.Basic):
        return np.array(float(x.subs(at)))
    return np.asarray(x, dtype=float)


@pytest.mark.symbolic
@pytest.mark.result("zwb24:thm5.2")
@pytest.mark.result("zwb24:corG.1")
@pytest.mark.parametrize("container", list(CONTAINERS))
@pytest.mark.parametrize("which", ["sigma2", "N"])
def test_one_symbol_among_numbers_takes_the_symbolic_branch(which: str, container: str) -> None:
    """SymPy in -> expression out, whichever argument is the symbol: σ² or N alone symbolic (the
    matrices numeric, as lists or numpy arrays) gives an expression equal to the numeric value
    there (``x`` and ``x²`` would both pass at σ² = 0 or N = 1, so the point is generic).  A numpy
    Γ, H or Ψ in the symbolic branch was once ``sympify``-ed into an N-dim ``Array`` inside a 1×1
    ``Matrix`` (``sym_mat``): a TypeError / ValueError instead of the expression."""
    s2v, Nv = 0.3, 7
    sym = sp.Symbol(which, positive=True)
    args = (sym, Nv) if which == "sigma2" else (s2v, sym)
    at = {sym: s2v if which == "sigma2" else Nv}
    bad = []
    for name, f in _mixed(CONTAINERS[container]).items():
        out = f(*args)
        depends = name not in (
            ("gap_exact_d1_noiseless", "K_matrix")
            if which == "sigma2"
            else ("label_second_moment",)
        )
        if depends and not any(isinstance(v, (sp.Basic, sp.MatrixBase)) for v in np.ravel([out])):
            bad.append(f"{name}: numeric output for a symbolic {which}")
            continue
        sym_value, num_value = _numbers(out, at), _numbers(f(s2v, Nv), {})
        if not np.allclose(sym_value, num_value, rtol=1e-9, atol=1e-12):  # SymPy vs float64 paths
            bad.append(f"{name}: symbolic value differs from the numeric one")
    assert not bad, bad


@pytest.mark.float
@pytest.mark.result("zwb24:thm6.3")
def test_thm63_data_model_is_the_c18_preset_and_fixed() -> None:
    """Spec C18's data model: at the preset it is :func:`c18_preset_setting` (H with eigenvalues
    .32/.85/3.7, Ψ = diag(1, .5, .25), β* = (2, −1, .5), σ² = .25, N = 5); at another d its
    rotation is fixed (the same H twice) and its spectrum runs geometrically from .32 to 3.7."""
    from theory.zwb24.settings import C18_SETTING, c18_preset_setting, thm63_setting

    a, b = thm63_setting(**C18_SETTING), c18_preset_setting()
    for name in ("Sigma_x", "task_cov", "task_mean"):
        assert np.allclose(getattr(a, name), getattr(b, name)), name
    assert (a.N, a.noise_var) == (b.N, b.noise_var) == (5, 0.25)
    assert np.allclose(np.linalg.eigvalsh(b.Sigma_x), [0.32, 0.85, 3.7])
    assert np.allclose(b.task_cov, np.diag([1.0, 0.5, 0.25]))
    assert np.allclose(b.task_mean, [2.0, -1.0, 0.5])
    kw = {"d": 4, "N": 6, "sigma2": 0.3, "beta_norm": 1.7}
    c, e = thm63_setting(**kw), thm63_setting(**kw)
    assert np.array_equal(c.Sigma_x, e.Sigma_x)
    assert np.allclose(np.linalg.eigvalsh(c.Sigma_x), np.geomspace(0.32, 3.7, 4))
    assert np.allclose(c.task_cov, np.diag(2.0 ** -np.arange(4)))
    assert np.isclose(np.linalg.norm(c.task_mean), 1.7) and (c.N, c.noise_var) == (6, 0.3)


@pytest.mark.float
@pytest.mark.result("zwb24:table1")
def test_table1_data_model_and_the_trained_hypothesis() -> None:
    from theory.zwb24.settings import PRESETS, Setting, hypotheses_trained, table1_setting

    s = table1_setting(d=3, N=4, sigma2=0.2, beta_norm=2.5)
    assert np.allclose(s.Sigma_x, np.eye(3)) and np.allclose(s.task_cov, np.eye(3))
    assert np.allclose(s.task_mean, 2.5 * np.ones(3) / np.sqrt(3))
    assert (s.N, s.noise_var) == (4, 0.2)
    for key in ("table1", "thm6.3"):
        hypotheses_trained(PRESETS[key])
    with pytest.raises(ValueError, match="N = 1"):
        hypotheses_trained(Setting(N=1))


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"d": 0}, "d must be ≥ 1 (zwb24 Assumption 3.1: covariate dimension), got 0"),
        ({"N": 0}, "N must be ≥ 1 (zwb24 Assumption 3.1: prompt length), got 0"),
        ({"N": 2.5}, "N must be an integer (zwb24 Assumption 3.1: prompt length), got 2.5"),
        ({"sigma2": -0.1}, "sigma2 (σ²) must be ≥ 0 (zwb24 Assumption 3.1: σ² >= 0), got -0.1"),
        ({"beta_norm": -1.0}, "beta_norm (‖β*‖) must be ≥ 0 (zwb24 Assumption 3.1), got -1.0"),
    ],
)
def test_setting_names_the_value_and_the_assumption(bad: dict, message: str) -> None:
    """Every field of the zwb24 Setting is validated, and the error names the field, the value
    and the assumption, exactly."""
    from theory.zwb24.settings import Setting

    with pytest.raises(ValueError) as err:
        Setting(**bad)
    assert str(err.value) == message
    s = Setting(d=2, N=3, sigma2=0.0, beta_norm=0.0)
    assert (s.d, s.N, s.sigma2, s.beta_norm) == (2, 3, 0.0, 0.0)
    assert isinstance(Setting(N=np.int64(4)).N, int)


@pytest.mark.float
@pytest.mark.result("zwb24:lem5.1")
def test_lemma51_widths_are_validated_by_name() -> None:
    with pytest.raises(ValueError) as err:
        T.lemma51_weights([[0.5, 0.0], [0.0, 1.0]], [1.0, 2.0], k=1)
    assert str(err.value) == "k must be ≥ 2 (zwb24 Lemma 5.1 needs k ≥ d), got 1"


@pytest.mark.symbolic
@pytest.mark.result("zwb24:eq3.3")
def test_effective_params_symbolic_when_only_the_mlp_is() -> None:
    """A symbolic ``W_1`` alone (the attention weights numeric) takes the SymPy branch:
    ``a = u_1`` is the MLP's last-row entry ``w_1`` as an expression."""
    w1, w2 = sp.symbols("w1 w2")
    I = np.eye(2)
    p = T.effective_params(I, I, I, I, sp.Matrix([[w1, w2]]), [[0.0], [1.0]])
    assert isinstance(p["a"], sp.MatrixBase)
    assert sp.simplify(p["a"][0] - w1) == 0
    assert sp.simplify(p["v"][1] - (1 + w2)) == 0


@pytest.mark.symbolic
@pytest.mark.result("zwb24:thm5.2")
def test_a_sympy_covariance_alone_takes_the_symbolic_branch() -> None:
    """``H`` a SymPy matrix, everything else numbers: Γ* and R* come back as SymPy objects equal
    to the numeric values (d = 1, h = 13/10, ψ = 0.6, σ² = 0.3, N = 7)."""
    H = sp.Matrix([[sp.Rational(13, 10)]])
    G = T.optimal_gamma(H, [[0.6]], 0.3, 7)
    assert isinstance(G, sp.MatrixBase)
    assert np.isclose(float(G[0, 0]), float(T.optimal_gamma([[1.3]], [[0.6]], 0.3, 7)[0, 0]))
    R = T.optimal_risk(H, [[0.6]], 0.3, 7)
    assert isinstance(R, sp.Basic)
    assert np.isclose(float(R), T.optimal_risk([[1.3]], [[0.6]], 0.3, 7))


#: One SymPy argument among numbers, for every argument the backend dispatch (``ops_for``) reads:
#: (function, numeric arguments at a generic d = 2 point (d = 1 where the formula inverts a
#: matrix), index of the argument made symbolic).  That argument becomes a SymPy ``Matrix`` whose
#: first entry is the symbol ``x`` (the eigen forms take a list with ``x`` first); the output must
#: be SymPy and equal the numeric output at ``x`` = the replaced entry.
_H2, _P2, _B2 = [[1.3, 0.3], [0.3, 2.1]], [[0.6, 0.1], [0.1, 0.9]], [0.8, -0.4]
_G2 = [[0.5, 0.1], [-0.2, 0.35]]
_LTB = ([0.1, -0.2], [0.3, 0.15], _G2, [0.2, 0.05], _P2, _B2, 0.3, 7)
ONE_SYMBOLIC_ARGUMENT = {
    "label_second_moment-H": (T.label_second_moment, (_H2, _P2, _B2, 0.3), 0),
    "label_second_moment-Psi": (T.label_second_moment, (_H2, _P2, _B2, 0.3), 1),
    "label_second_moment-beta_star": (T.label_second_moment, (_H2, _P2, _B2, 0.3), 2),
    **{
        f"ltb_risk_whitened-{name}": (T.ltb_risk_whitened, _LTB, i)
        for i, name in enumerate(("a", "b", "Gamma", "phi", "Psi_bar", "mu_bar"))
    },
    "gd0_gap-H": (T.gd0_gap, (_H, _P, _B, 0.3, 7), 0),
    "gd0_gap-Psi": (T.gd0_gap, (_H, _P, _B, 0.3, 7), 1),
    "gd0_gap-beta_star": (T.gd0_gap, (_H, _P, _B, 0.3, 7), 2),
    "lsa_risk_floor-H": (T.lsa_risk_floor, (_H2, _P2, _B2, 0.3, 7), 0),
    "lsa_risk_floor-Psi": (T.lsa_risk_floor, (_H2, _P2, _B2, 0.3, 7), 1),
    "lsa_risk_floor-beta_star": (T.lsa_risk_floor, (_H2, _P2, _B2, 0.3, 7), 2),
    "gap_upper_bound_eig-lams": (T.gap_upper_bound_eig, ([0.3, 0.9], [0.8, -0.5], 0.3, 7), 0),
    "gap_upper_bound_eig-mu_coords": (
        T.gap_upper_bound_eig,
        ([0.3, 0.9], [0.8, -0.5], 0.3, 7),
        1,
    ),
}


@pytest.mark.symbolic
@pytest.mark.result("zwb24:asm3.1")
@pytest.mark.result("zwb24:eq-ltb-risk")
@pytest.mark.result("zwb24:thm4.1")
@pytest.mark.parametrize("container", [*CONTAINERS, "ndarray-vectors-too"])
@pytest.mark.parametrize("case", list(ONE_SYMBOLIC_ARGUMENT))
def test_each_argument_alone_symbolic_takes_the_symbolic_branch(case: str, container: str) -> None:
    """SymPy in -> expression out whichever argument is the SymPy one (a covariance, β*, a
    parameter vector or matrix of the LTB, an eigen-coordinate), the others numbers (matrices as
    lists or numpy arrays, and vectors too): the value at the replaced entry is the numeric one
    (generic point, so a dropped term shows).  A numpy vector (d = 2) in the symbolic branch was
    once a 1×d row (``SympyOps.vec``): a ShapeError instead of the expression."""
    f, args, i = ONE_SYMBOLIC_ARGUMENT[case]
    c = CONTAINERS["ndarray" if container == "ndarray-vectors-too" else container]
    dims = (1, 2) if container == "ndarray-vectors-too" else (2,)
    args = tuple(c(a) if isinstance(a, list) and np.ndim(a) in dims else a for a in args)
    x = sp.Symbol("x", real=True)
    arg = args[i]
    if f is T.gap_upper_bound_eig:
        sym_arg, x0 = [x, *arg[1:]], arg[0]
    else:
        sym_arg = sp.Matrix(arg)
        x0 = float(np.ravel(arg)[0])
        sym_arg[0] = x
    out = f(*args[:i], sym_arg, *args[i + 1 :])
    assert isinstance(out, sp.Basic) and out.has(x), out
    assert np.isclose(float(out.subs(x, x0)), f(*args), rtol=SYMBOLIC_RTOL, atol=0)


@pytest.mark.symbolic
@pytest.mark.result("zwb24:eq3.3")
@pytest.mark.parametrize("which", ["W_K", "W_Q", "W_V", "W_P", "W_1", "W_2"])
def test_effective_params_one_symbolic_weight(which: str) -> None:
    """One raw weight a SymPy ``Matrix`` with the symbol ``x`` as an entry (the others numbers,
    d = 2 at a seeded generic point): every chart parameter is SymPy and equals the numeric one
    at ``x`` = the replaced entry."""
    names = ("W_K", "W_Q", "W_V", "W_P", "W_1", "W_2")
    shapes = ((2, 3), (2, 3), (2, 3), (3, 2), (2, 3), (3, 2))
    rng = np.random.default_rng(35)
    vals = [rng.standard_normal(shape) for shape in shapes]
    num = T.effective_params(*vals)
    i = names.index(which)
    x = sp.Symbol("x", real=True)
    weights: list = list(vals)
    entry = (2, 0) if which == "W_2" else (0, 0)  # only the last row of W_2W_1 matters
    weights[i] = sp.Matrix(vals[i])
    weights[i][entry] = x
    sym = T.effective_params(*weights)
    assert any(sym[key].has(x) for key in ("a", "b", "Gamma", "phi"))
    x0 = vals[i][entry]
    for key in ("a", "b", "Gamma", "phi"):
        assert isinstance(sym[key], sp.MatrixBase), key
        value = np.array(sym[key].subs(x, x0), dtype=float).reshape(np.shape(num[key]))
        assert np.allclose(value, num[key], rtol=SYMBOLIC_RTOL, atol=SYMBOLIC_ATOL), key


@pytest.mark.symbolic
@pytest.mark.result("zwb24:eq3.3")
def test_effective_params_of_matrix_symbols_are_explicit() -> None:
    """``MatrixSymbol`` weights (d = 2, k = v = m = 2): ``a, b, φ`` are explicit d-columns and
    ``Γ`` a d×d ``Matrix`` of the entries ``W[i, j]``, equal to the numeric chart at a seeded
    generic point (a ``MatrixSymbol`` left as an expression made ``b`` a 1×1 matrix around a
    slice)."""
    names = ("W_K", "W_Q", "W_V", "W_P", "W_1", "W_2")
    shapes = ((2, 3), (2, 3), (2, 3), (3, 2), (2, 3), (3, 2))
    syms = [sp.MatrixSymbol(n, *shape) for n, shape in zip(names, shapes, strict=True)]
    sym = T.effective_params(*syms)
    rng = np.random.default_rng(36)
    vals = [rng.standard_normal(shape) for shape in shapes]
    num = T.effective_params(*vals)
    at = {
        S[i, j]: float(V[i, j])
        for S, V in zip(syms, vals, strict=True)
        for i in range(V.shape[0])
        for j in range(V.shape[1])
    }
    for key, shape in (("a", (2, 1)), ("b", (2, 1)), ("Gamma", (2, 2)), ("phi", (2, 1))):
        assert isinstance(sym[key], sp.MatrixBase) and sym[key].shape == shape, key
        value = np.array(sym[key].xreplace(at), dtype=float).reshape(np.shape(num[key]))
        assert np.allclose(value, num[key], rtol=SYMBOLIC_RTOL, atol=SYMBOLIC_ATOL), key


@pytest.mark.float
@pytest.mark.result("zwb24:eq-ltb-risk")
@pytest.mark.parametrize("kind", ["Fraction", "mpf"])
def test_whitening_of_exact_numbers_is_float64(kind: str) -> None:
    """Exact or high-precision numbers (``fractions.Fraction``, ``mpmath.mpf``; accepted by the
    domain check) in β* (:func:`whiten`) and in a, b, Γ, φ (:func:`whiten_params`): the whitened
    vectors and matrices are the documented float64 arrays, equal to those of the same floats
    (d = 2, H with a rotation so H^{1/2} is not diagonal)."""
    from fractions import Fraction

    import mpmath

    conv = Fraction if kind == "Fraction" else mpmath.mpf
    H, Psi = [[1.3, 0.3], [0.3, 2.1]], [[0.6, 0.1], [0.1, 0.9]]
    a, b, G, phi = [0.125, -0.25], [0.375, 0.5], [[0.5, 0.25], [-0.75, 0.125]], [0.625, -0.5]
    exact = T.whiten_params(
        H,
        [conv(v) for v in a],
        [conv(v) for v in b],
        [[conv(v) for v in row] for row in G],
        [conv(v) for v in phi],
    )
    ref = T.whiten_params(H, a, b, G, phi)
    exact += T.whiten(H, Psi, [conv(v) for v in b])
    ref += T.whiten(H, Psi, b)
    names = ("a", "b", "Gamma", "phi", "Psi_bar", "mu_bar")
    for name, e, r in zip(names, exact, ref, strict=True):
        assert e.dtype == np.float64, (name, e.dtype)
        assert np.array_equal(e, r), name


@pytest.mark.float
@pytest.mark.result("zwb24:thm4.1")
def test_gap_upper_bound_eig_at_a_zero_task_covariance() -> None:
    """Ψ̄ = 0 (all λ_i = 0, σ² > 0): Γ* = 0, the bound's LSA predicts 0, so U = ‖μ̄‖², the LSA
    risk at Γ = 0, φ = 0 minus R* = σ² (the general LTB risk, another route; d = 2).  With σ² = 0
    as well Ω is singular: the error names sum(lams) and σ²."""
    mu = [0.8, -0.5]
    U = T.gap_upper_bound_eig([0.0, 0.0], mu, 0.3, 7)
    Z, I = np.zeros((2, 2)), np.eye(2)
    lsa = T.lsa_risk([0.0, 0.0], Z, [0.0, 0.0], I, Z, mu, 0.3, 7)
    assert U == pytest.approx(0.89, rel=1e-12)
    assert U == pytest.approx(lsa - T.optimal_risk(I, Z, 0.3, 7), rel=1e-12)
    with pytest.raises(ValueError) as err:
        T.gap_upper_bound_eig([0.0, 0.0], mu, 0.0, 7)
    assert str(err.value) == (
        "sum(lams) + sigma2 must be > 0 (zwb24 Thm 5.2: Omega invertible), got "
        "sum(lams)=0, sigma2=0"
    )


@pytest.mark.float
@pytest.mark.result("zwb24:thm4.1")
def test_gap_upper_bound_eig_zero_task_covariance_large_integer_mu() -> None:
    """Ψ̄ = 0 with integer eigen-coordinates whose squares exceed int64 (μ̄ = (4·10⁹, 3), a
    finite vector of Python ints): U = ‖μ̄‖² = 1.6·10¹⁹ + 9, computed in floats.  μ̄ kept as an
    int64 array wraps ‖μ̄‖² round to -2.4·10¹⁸."""
    U = T.gap_upper_bound_eig([0.0, 0.0], [4 * 10**9, 3], 0.3, 7)
    assert U == pytest.approx(16 * 10**18 + 9, rel=FLOAT_RTOL)


@pytest.mark.symbolic
@pytest.mark.result("zwb24:thm4.1")
def test_gap_upper_bound_eig_exact_when_only_sigma2_is_sympy() -> None:
    """σ² a SymPy number, λ and μ̄ Python ints (d = 2, λ = (3, 1), μ̄ = (2, 1), σ² = 1/2, N = 4):
    U is the exact rational, no float in it.  By hand: c = 9/2, g = (8/13, 8/19),
    f = 33920/61009, the direction factors (g² + f)/(5g² + f) = 891/2335 and 699/1375, so
    U = 4·891/2335 + 699/1375 = 1306533/642125.  μ̄ turned into float64 puts Floats in U."""
    U = T.gap_upper_bound_eig([3, 1], [2, 1], sp.Rational(1, 2), 4)
    assert isinstance(U, sp.Rational), U
    assert U == sp.Rational(1306533, 642125)


@pytest.mark.float
@pytest.mark.result("zwb24:thm4.1")
def test_gap_upper_bound_of_a_round_off_negative_eigenvalue() -> None:
    """A Ψ the PSD check accepts with a round-off negative eigenvalue (−9·10⁻¹¹ ≥ −PSD_RTOL·1 at
    a scale below 1, d = 3, H = I): U is that of its PSD projection, λ = (2, 1, 0)·10⁻⁹ with
    σ² = 10⁻⁹, N = 4, μ̄ = (2, 1, 1).  U is invariant under (λ, σ²) → t(λ, σ²), so by hand at
    λ = (2, 1, 0), σ² = 1: c = 4, g = (4/7, 4/9, 0), f = 2080/3969, direction factors
    211/535, 179/375, 1: U = 4·211/535 + 179/375 + 1 = 122578/40125.  The negative eigenvalue
    left in would shrink c by 2% and make its direction's g_i ≈ −0.15 (U ≈ 2.9988)."""
    Psi = np.diag([2e-9, 1e-9, -9e-11])
    U = T.gap_upper_bound(np.eye(3), Psi, [2.0, 1.0, 1.0], 1e-9, 4)
    assert U == pytest.approx(122578 / 40125, rel=FLOAT_RTOL)


@pytest.mark.float
@pytest.mark.result("zwb24:thm4.1")
def test_gap_lower_bound_simplified_rank_is_the_backend_rank_cut() -> None:
    """r = rank(Ψ̄) is counted with the backend's cut (``rank_mask``: λ > RANK_RTOL·max(1, λ_max);
    β* = (2, 1), σ² = 1/4, N = 10, bound 2(‖β*‖_H² − (r+1) tr HΨ − rσ²)/12):

    * Ψ = diag(1, 10⁻¹⁰), H = I: the small eigenvalue sits exactly at the cut and counts as zero,
      r = 1: 2(5 − 2(1 + 10⁻¹⁰) − 1/4)/12;
    * Ψ = diag(1, 1.5·10⁻¹⁰): above the cut, r = 2: 2(5 − 3(1 + 1.5·10⁻¹⁰) − 1/2)/12;
    * Ψ = t·uuᵀ (u = (0.6, 0.8), rank 1) with H = [[1.3, 0.3], [0.3, 2.1]], β* = √t (2, 1),
      σ² = t/4: uᵀHu = 2.1, ‖β*‖_H² = 8.5t, r = 1 and the bound is homogeneous of degree 1:
      2t(8.5 − 2·2.1 − 0.25)/12 = 0.675t, at t = 1 and at t = 10⁶ (where the round-off null
      eigenvalue of Ψ̄, ~10⁻¹⁰, is far below the relative cut 2.1·10⁻⁴)."""
    b = [2.0, 1.0]
    at_cut = T.gap_lower_bound_simplified(np.eye(2), np.diag([1.0, 1e-10]), b, 0.25, 10)
    assert at_cut == pytest.approx(2 * (5 - 2 * (1 + 1e-10) - 0.25) / 12, rel=FLOAT_RTOL)
    above = T.gap_lower_bound_simplified(np.eye(2), np.diag([1.0, 1.5e-10]), b, 0.25, 10)
    assert above == pytest.approx(2 * (5 - 3 * (1 + 1.5e-10) - 0.5) / 12, rel=FLOAT_RTOL)
    H, u = np.array([[1.3, 0.3], [0.3, 2.1]]), np.array([0.6, 0.8])
    for t in (1.0, 1e6):
        value = T.gap_lower_bound_simplified(
            H, t * np.outer(u, u), np.sqrt(t) * np.array(b), 0.25 * t, 10
        )
        assert value == pytest.approx(0.675 * t, rel=FLOAT_RTOL), t


@pytest.mark.float
@pytest.mark.result("zwb24:table1")
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            (2, 1, 0.25, 3.0),
            "N = 1: the prompt length is an integer >= 2 (Assumption 3.1 needs N >= 1; the "
            "trained rows tell R* and Gamma* from their N - 1 neighbours, which need N - 1 >= 1)",
        ),
        (
            (2, 5, True, 3.0),
            "sigma2 = True: a finite real >= 0 (Assumption 3.1: sigma^2 >= 0; "
            "beta_norm = |beta*| >= 0)",
        ),
        (
            (2, 5, 0.25, "3.0"),
            "beta_norm = '3.0': a finite real >= 0 (Assumption 3.1: sigma^2 >= 0; "
            "beta_norm = |beta*| >= 0)",
        ),
        ((0, 5, 0.25, 3.0), "d = 0: the dimension is an integer >= 1 ([zwb24] Assumption 3.1)"),
        ((2.0, 5, 0.25, 3.0), "d = 2.0: the dimension is an integer >= 1 ([zwb24] Assumption 3.1)"),
        (
            (2, True, 0.25, 3.0),
            "N = True: the prompt length is an integer >= 2 (Assumption 3.1 needs N >= 1; the "
            "trained rows tell R* and Gamma* from their N - 1 neighbours, which need N - 1 >= 1)",
        ),
        (
            (2, 3.0, 0.25, 3.0),
            "N = 3.0: the prompt length is an integer >= 2 (Assumption 3.1 needs N >= 1; the "
            "trained rows tell R* and Gamma* from their N - 1 neighbours, which need N - 1 >= 1)",
        ),
        (
            (2, 5, float("inf"), 3.0),
            "sigma2 = inf: a finite real >= 0 (Assumption 3.1: sigma^2 >= 0; "
            "beta_norm = |beta*| >= 0)",
        ),
        (
            (2, 5, 0.25, -0.5),
            "beta_norm = -0.5: a finite real >= 0 (Assumption 3.1: sigma^2 >= 0; "
            "beta_norm = |beta*| >= 0)",
        ),
    ],
    ids=[
        "N1",
        "bool-sigma2",
        "str-beta_norm",
        "d0",
        "float-d",
        "bool-N",
        "float-N",
        "inf-sigma2",
        "neg-beta",
    ],
)
def test_trained_family_validation_names_the_value(args: tuple, message: str) -> None:
    """The trained families' validators (Table 1, Thm 6.3) reject each bad field (N = 1, a bool,
    a string, a float d or N, inf, a negative norm) with the exact message, and accept the boundary
    d = 1, N = 2, σ² = 0, ‖β*‖ = 0 (numpy integers and Python ints for the reals too)."""
    from theory.zwb24.settings import validate_table1, validate_thm63

    for validate in (validate_table1, validate_thm63):
        with pytest.raises(ValueError) as err:
            validate(*args)
        assert str(err.value) == message
        validate(1, 2, 0.0, 0.0)
        validate(np.int64(1), np.int64(2), 0, np.float64(0.0))


@pytest.mark.float
@pytest.mark.result("zwb24:thm5.2")
@pytest.mark.parametrize("kind", ["Fraction", "Decimal", "mpf"])
def test_omega_condition_message_for_an_exact_zero_noise(kind: str) -> None:
    """σ² = 0 given as an exact or high-precision number (accepted by the domain check) with
    Ψ̄ = 0: the Ω condition fails with its own message, σ² formatted as a float (a ``Fraction``
    or ``mpf`` in the f-string, or ``Decimal`` added to a float array, raised an unrelated
    TypeError)."""
    from decimal import Decimal
    from fractions import Fraction

    import mpmath

    zero = {"Fraction": Fraction(0), "Decimal": Decimal(0), "mpf": mpmath.mpf(0)}[kind]
    calls = {
        "sum(lams)": lambda: T.gap_upper_bound_eig([0.0, 0.0], [0.8, -0.5], zero, 7),
        "tr(Psi_bar)": lambda: T.optimal_gamma_whitened(np.zeros((2, 2)), zero, 5),
    }
    for what, call in calls.items():
        with pytest.raises(ValueError) as err:
            call()
        assert str(err.value) == (
            f"{what} + sigma2 must be > 0 (zwb24 Thm 5.2: Omega invertible), got {what}=0, sigma2=0"
        )


def _raw_forward(W: dict[str, np.ndarray], X: np.ndarray, y: np.ndarray, xq: np.ndarray, res: bool):
    """The raw block written out ((3.1)-(3.3)): ``Z = [[Xᵀ, x], [yᵀ, 0]]``, mask ``M`` (3.2),
    ``U = Z + W_PW_V Z M Zᵀ W_KᵀW_Q Z / N``, output ``[(I + W_2W_1)U]_{d+1,N+1}`` (``res``) or
    ``[W_2W_1U]_{d+1,N+1}``."""
    N, d = X.shape
    Z = np.zeros((d + 1, N + 1))
    Z[:d, :N], Z[d, :N], Z[:d, N] = X.T, y, xq
    M = np.diag([1.0] * N + [0.0])
    U = Z + W["W_P"] @ W["W_V"] @ Z @ M @ Z.T @ W["W_K"].T @ W["W_Q"] @ Z / N
    mlp = W["W_2"] @ W["W_1"] + (np.eye(d + 1) if res else 0.0)
    return float((mlp @ U)[d, N])


@pytest.mark.float
@pytest.mark.result("zwb24:eq3.3")
def test_effective_params_without_the_mlp_residual() -> None:
    """``mlp_residual=False`` (the negative control's model ``W_2W_1U``): ``u = (W_2W_1)ᵀe_{d+1}``
    and the chart predictor ``xᵀ[a + (1/N)(ΓXᵀ + φyᵀ)(y − Xb)]`` equals the raw no-residual block
    written out at a generic point (d = 2, k = 3, v = 2, m = 3, N = 5); the residual one differs.
    """
    rng = np.random.default_rng(35)
    d, N = 2, 5
    shapes = {
        "W_K": (3, 3),
        "W_Q": (3, 3),
        "W_V": (2, 3),
        "W_P": (3, 2),
        "W_1": (3, 3),
        "W_2": (3, 3),
    }
    W = {n: rng.standard_normal(s) for n, s in shapes.items()}
    X, y, xq = rng.standard_normal((N, d)), rng.standard_normal(N), rng.standard_normal(d)
    for res in (False, True):
        p = T.effective_params(*W.values(), mlp_residual=res)
        mlp = W["W_2"] @ W["W_1"] + (np.eye(d + 1) if res else 0.0)
        np.testing.assert_allclose(p["u"], mlp[d], rtol=_WRITTEN_OUT_TOL, atol=_WRITTEN_OUT_TOL)
        r = y - X @ p["b"]
        star = float(xq @ (p["a"] + (p["Gamma"] @ X.T @ r + p["phi"] * (y @ r)) / N))
        raw = _raw_forward(W, X, y, xq, res)
        assert star == pytest.approx(raw, rel=1e-11, abs=1e-12), res
    assert abs(_raw_forward(W, X, y, xq, True) - _raw_forward(W, X, y, xq, False)) > 0.1


@pytest.mark.float
@pytest.mark.result("zwb24:eq3.3")
@pytest.mark.parametrize("given", ["W_1", "W_2"])
def test_effective_params_without_the_residual_needs_both_mlp_matrices(given: str) -> None:
    """``mlp_residual=False`` with only W_1 or only W_2 (the other None): the exact message."""
    I3 = np.eye(3)
    mlp = {"W_1": None, "W_2": None, given: np.ones((3, 3))}
    with pytest.raises(ValueError) as err:
        T.effective_params(I3, I3, I3, I3, mlp["W_1"], mlp["W_2"], mlp_residual=False)
    assert str(err.value) == "mlp_residual=False needs W_1 and W_2"


@pytest.mark.float
@pytest.mark.result("zwb24:eq3.3")
@pytest.mark.parametrize("given", ["W_1", "W_2"])
def test_effective_params_rejects_one_mlp_matrix_alone(given: str) -> None:
    """W_1 or W_2 alone (the LTB with its residual): an error naming both, not the LSA's
    parameters with the given matrix dropped."""
    I3 = np.eye(3)
    mlp = {"W_1": None, "W_2": None, given: np.ones((3, 3))}
    missing = "W_2" if given == "W_1" else "W_1"
    with pytest.raises(ValueError) as err:
        T.effective_params(I3, I3, I3, I3, mlp["W_1"], mlp["W_2"])
    assert str(err.value) == (
        f"W_1 and W_2 go together (both None: the LSA), got {given} with {missing}=None"
    )


@pytest.mark.parametrize("kind", ["Fraction", "Decimal"])
def test_omega_condition_compares_an_exact_trace_as_a_float(kind: str) -> None:
    """``check_omega_invertible`` takes an exact trace (its docstring: compared and named as a
    float): a positive one passes, a negative one is refused with the float in the message."""
    from decimal import Decimal
    from fractions import Fraction

    from theory.zwb24.sec3_model import check_omega_invertible

    exact = (lambda v: Fraction(v)) if kind == "Fraction" else (lambda v: Decimal(v))
    check_omega_invertible(exact("0.25"), 0.1)
    with pytest.raises(ValueError) as err:
        check_omega_invertible(exact("-0.5"), 0.2)
    assert str(err.value) == (
        "tr(Psi_bar) + sigma2 must be > 0 (zwb24 Thm 5.2: Omega invertible), got "
        "tr(Psi_bar)=-0.5, sigma2=0.2"
    )
