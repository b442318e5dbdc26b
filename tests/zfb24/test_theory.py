"""zfb24 theory: public API, validation, exact identities, structural laws (spec 004).  The
symbolic checks and their negative controls run from the registry (tests/test_registry.py)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import example, given, settings

import theory.zfb24 as T
from numerics.testing import FLOAT_RTOL
from theory.strategies import zfb24_settings

SPEC_L = np.diag([0.5, 1.0, 1.5, 2.0])
THETA_SPEC = np.eye(4) / np.sqrt(2)


# ------------------------------------------------------------------------------ public API
@pytest.mark.float
@pytest.mark.result("zfb24:cor16")
def test_public_api_numeric_and_symbolic() -> None:
    G = np.asarray(T.gamma(SPEC_L, 16), dtype=float)  # spec T-R5 fixture
    np.testing.assert_allclose(np.diag(G), [0.84375, 1.375, 1.90625, 2.4375], rtol=FLOAT_RTOL)
    assert abs(float(np.asarray(T.optimal_loss(SPEC_L, 16), dtype=float)) - 0.5775387) < 5e-8
    assert float(np.asarray(T.optimal_loss([[2.0]], 3), dtype=float)) > 0
    N = sp.Symbol("N", positive=True)
    lam = sp.Symbol("lambda", positive=True)
    g = T.gamma(sp.Matrix([[lam]]), N)
    assert isinstance(g, sp.MatrixBase) and sp.simplify(g[0, 0] - (lam * (N + 2) / N)) == 0
    Ls = sp.MatrixSymbol("Lambda", 3, 3)
    assert isinstance(T.gamma(Ls, N), sp.matrices.expressions.MatrixExpr)
    Lstar = T.optimal_loss(sp.eye(2) * lam, N)
    assert isinstance(Lstar, sp.Expr) and sp.simplify(Lstar - 3 * lam / (N + 3)) == 0
    assert sp.simplify(Lstar.subs(lam, 1) - T.optimal_loss_isotropic(2, N)) == 0


@pytest.mark.float
@pytest.mark.result("zfb24:cor16")
def test_optimal_loss_float_vs_mpmath() -> None:
    """FLOAT: the float64 path against an exact-rational SymPy evaluation at 50 digits."""
    L = np.array([[2.0, 0.5, 0.0], [0.5, 1.0, 0.25], [0.0, 0.25, 0.75]])
    Lq = sp.Matrix(L.tolist()).applyfunc(sp.nsimplify)
    for N in (1, 7, 40):
        ref = sp.N(T.optimal_loss(Lq, N), 50)
        with mpmath.workdps(50):
            assert abs(float(T.optimal_loss(L, N)) - float(ref)) <= FLOAT_RTOL * abs(float(ref))


@pytest.mark.symbolic
@pytest.mark.result("zfb24:cor16")
@pytest.mark.parametrize(
    "bad",
    [
        ({"Lambda": [[1.0, 2.0], [2.0, 1.0]], "N": 3}, "Sigma_x|Lambda"),
        ({"Lambda": [[1.0, 0.0], [0.0, 0.0]], "N": 3}, "definite"),
        ({"Lambda": [[1.0]], "N": 0}, "N"),
        ({"Lambda": [[1.0]], "N": 2.5}, "N"),
    ],
)
def test_bad_input_raises(bad: tuple) -> None:
    kw, pat = bad
    with pytest.raises(ValueError, match=pat):
        T.gamma(**kw)
    with pytest.raises(ValueError):
        T.optimal_loss(**kw)


@pytest.mark.symbolic
@pytest.mark.result("zfb24:thm4")
def test_assumption3_validation() -> None:
    with pytest.raises(ValueError, match="ΘΘᵀ"):
        T.initial_state(np.eye(2), 0.3)  # ‖ΘΘᵀ‖_F = √2 ≠ 1
    with pytest.raises(ValueError, match="sigma_init"):
        T.initial_state(np.eye(1), 0.0)
    with pytest.raises(ValueError, match="variant"):
        T.flow_rhs(np.eye(2), 1.0, np.eye(2), 3, variant="sym")


@pytest.mark.symbolic
@pytest.mark.result("zfb24:thm4")
def test_u_min_outside_assumption3_names_it() -> None:
    # Lemma 19's bound exists only under Assumption 3: the error names it and the offending value.
    # Λ = I_4, N = 16: Γ = (1 + 1/16) I + (4/16) I = 1.3125 I, so σ²‖Γ‖_op√d = 2.25·1.3125·2
    msg = (
        r"^u_min needs σ²‖Γ‖_op√d < 2 \(Theorem 4\), "
        r"got σ²‖Γ‖_op√d = 5\.90625 \(sigma_init = 1\.5\)$"
    )
    with pytest.raises(ValueError, match=msg):
        T.u_min(np.eye(4), 16, 1.5, np.eye(4) / 2)


@pytest.mark.symbolic
@pytest.mark.result("zfb24:thm8")
def test_rdm_u_min_outside_condition_21_names_sigma2_and_the_bound() -> None:
    # Lemma 27 at m1 = 1, Θ = I_3/√3 (‖EΛΘ‖_F² = 1), E‖Γ_τ‖‖Λ_τ‖² = 5: condition (21) reads
    # σ² < 2/(√3·5) = 0.23094; σ = 3 gives σ² = 9
    msg = r"condition \(21\).*got σ² = 9 ≥ 0\.23094 \(sigma_init = 3\.0\)$"
    with pytest.raises(ValueError, match=msg):
        T.rdm_u_min(np.ones(3), 2 * np.ones(3), np.eye(3) / np.sqrt(3), 3.0, 5.0)


@pytest.mark.symbolic
@pytest.mark.result("zfb24:shifts")
def test_covariate_scaling_limit_one_symbol_among_numbers_is_exact() -> None:
    # a symbolic c with a numeric Λ takes the SymPy route: trΛ stays an exact integer
    c = sp.Symbol("c", positive=True)
    got = T.covariate_scaling_limit(c, np.diag([1, 2, 4]))
    assert not got.atoms(sp.Float), got
    assert sp.expand(got - 7 * c**2 * (c**2 - 1) ** 2) == 0


@pytest.mark.symbolic
@pytest.mark.result("zfb24:label_noise")
def test_gamma_noisy_special_cases() -> None:
    N, s2 = sp.symbols("N s2", positive=True)
    L = sp.diag(*sp.symbols("l1 l2", positive=True))
    assert sp.simplify(T.gamma_noisy(L, N, 0) - T.gamma(L, N)) == sp.zeros(2, 2)
    # Γ_s = (1+1/N)Λ + (trΛ + s²)/N I
    assert sp.simplify(
        T.gamma_noisy(L, N, s2) - ((1 + 1 / N) * L + (L.trace() + s2) / N * sp.eye(2))
    ) == sp.zeros(2, 2)
    assert float(T.optimal_loss_noisy(SPEC_L, 16, 0.0)) == pytest.approx(
        T.optimal_loss_fn(SPEC_L, 16), rel=FLOAT_RTOL
    )


# ---------------------------------------------------------------------- Lemma 9 and eq. (6)
# ------------------------------------------------------------- Lemma 15, Lemma 10, Lemma 17
@pytest.mark.float
@pytest.mark.result("zfb24:thm4")
@settings(max_examples=25)
@given(zfb24_settings())
@example(T.Assumption3Setting(Lambda=SPEC_L, N=16, sigma_init=0.3, Theta=THETA_SPEC))
def test_limit_is_a_fixed_point_and_balanced(s: T.Assumption3Setting) -> None:
    """Structural laws: flow_rhs vanishes at the Theorem 4 limit, which is balanced, attains
    min ℓ̃ = −½tr(Λ²Γ⁻¹), and the init condition holds for the drawn σ."""
    L, N, sigma = s.Lambda_array, s.N, s.sigma_init
    U, u = T.limit_params_fn(L, N)
    dU, du = T.flow_rhs_fn(U, u, L, T.gamma_fn(L, N))
    scale = 1 + np.max(np.abs(L)) ** 3
    assert np.max(np.abs(dU)) <= 1e3 * FLOAT_RTOL * scale and abs(
        du
    ) <= 1e3 * FLOAT_RTOL * scale * len(L)
    assert abs(float(T.balancedness(U, u))) <= 1e2 * FLOAT_RTOL * u**2
    lmin = -0.5 * np.trace(L @ L @ np.linalg.inv(T.gamma_fn(L, N)))
    assert T.reduced_loss_fn(U, u, L, N) == pytest.approx(
        lmin, rel=1e3 * FLOAT_RTOL, abs=1e3 * FLOAT_RTOL
    )
    assert float(T.init_condition(L, N, sigma)) < 2
    G = T.gamma_fn(L, N)
    np.testing.assert_allclose(G @ L, L @ G, atol=1e2 * FLOAT_RTOL * scale)  # Γ commutes with Λ
    assert np.min(np.linalg.eigvalsh(G - L)) > 0  # Γ ⪰ Λ (strictly, trΛ/N > 0)
    assert float(T.prior_risk(L, N, N)) == pytest.approx(
        2 * T.optimal_loss_fn(L, N), rel=1e2 * FLOAT_RTOL
    )


# --------------------------------------------------------------------- Theorem 5, Cor 6
@pytest.mark.symbolic
@pytest.mark.result("zfb24:cor6")
def test_limits_of_the_risk() -> None:
    """N → ∞ of W^KQ_* is ‖Λ⁻¹‖^(-1/2)Λ⁻¹-shaped; M, N → ∞ risk → 0 (eq. 14), special cases."""
    l1, l2 = sp.symbols("l1 l2", positive=True)
    N, M = sp.symbols("N M", positive=True)
    L = sp.diag(l1, l2)
    assert sp.limit(sp.limit(T.prior_risk(L, N, M), M, sp.oo), N, sp.oo) == 0
    G = T.gamma(L, N)
    assert sp.simplify(G.applyfunc(lambda e: sp.limit(e, N, sp.oo)) - L) == sp.zeros(2, 2)
    # R(∞, N) for d = 1 is O(1/N²): N² R(∞, N) → finite non-zero
    r1 = T.prior_risk(sp.Matrix([[l1]]), N, sp.oo)
    assert sp.simplify(sp.limit(N**2 * r1, N, sp.oo)) == 4 * l1  # (λ+λ)²λ/λ² = 4λ
    assert math.isclose(
        float(T.prior_risk(np.eye(2), 3, math.inf)),
        float(T.prior_risk_isotropic(2, 3, sp.oo)),
        rel_tol=FLOAT_RTOL,
    )


@pytest.mark.symbolic
@pytest.mark.result("zfb24:shifts")
def test_shift_risk_reduces_to_prior_risk() -> None:
    l1, l2 = sp.symbols("l1 l2", positive=True)
    N, M = sp.symbols("N M", positive=True)
    L = sp.diag(l1, l2)
    P = T.gamma(L, N).inv()
    assert sp.simplify(T.shift_risk(P, L, L, M) - T.prior_risk(L, N, M)) == 0
    # with M = N the exact risk of any P is twice the population loss (8) at P (spec R11)
    Pm = sp.Matrix(2, 2, sp.symbols("p0:4", real=True))
    assert sp.simplify(T.shift_risk(Pm, L, L, N) - 2 * T.loss_of_P(Pm, L, N)) == 0


# ------------------------------------------------------------------------ random covariance
@pytest.mark.symbolic
@pytest.mark.result("zfb24:rdm_risk")
def test_rdm_risk_special_cases() -> None:
    d, N = sp.symbols("d N", positive=True)
    dR = T.delta_exp(N, d)
    assert sp.simplify(T.rdm_test_risk(dR, 1, N, 1, 2, 6, d) - (1 - 2 * dR)) == 0
    # fixed test covariance cI: r_I = the isotropic prior risk of P = δI, divided by d
    dl, c, M = sp.symbols("delta c M", positive=True)
    lhs = T.fixed_test_risk(dl, c, M, 3)
    rhs = T.shift_risk(dl * sp.eye(3), c * sp.eye(3), c * sp.eye(3), M) / 3
    assert sp.simplify(lhs - rhs) == 0
    assert float(T.delta_exp(40, 20)) == pytest.approx(0.2759, abs=5e-5)  # spec §4


@pytest.mark.float
@pytest.mark.result("zfb24:cor6")
def test_numpy_twins_equal_the_general_formulas_at_a_generic_point() -> None:
    # the float twins (Γ from Λ and N, or a given Γ) against the general formulas
    A = np.random.default_rng(5).standard_normal((3, 3))
    L = A @ A.T / 3 + 0.4 * np.eye(3)
    N, M = 7, 5
    G = T.gamma_fn(L, N) + 0.1 * np.eye(3)
    for Gamma in (None, G):
        assert T.prior_risk_fn(L, N, M, Gamma) == pytest.approx(
            float(T.prior_risk(L, N, M, Gamma=Gamma)), rel=FLOAT_RTOL
        )
    P = np.linalg.inv(T.gamma_fn(L, N)) + 0.05 * A
    for Gamma in (None, G):
        assert T.loss_of_P_fn(P, L, N, Gamma, 0.3) == pytest.approx(
            float(T.loss_of_P(P, L, N, Gamma=Gamma, s2=0.3)), rel=FLOAT_RTOL
        )


@pytest.mark.symbolic
@pytest.mark.result("zfb24:lem9")
@pytest.mark.result("zfb24:eq6")
def test_lsa_formulas_one_symbol_among_numbers_take_the_symbolic_branch() -> None:
    # "SymPy in, expression out" with one argument alone symbolic (the others numeric, generic):
    # the result is a SymPy object whose value at a generic point is the numeric formula's
    rng = np.random.default_rng(11)
    E = rng.standard_normal((3, 4))
    E[2, 3] = 0.0  # d = 2, N = 3, query label 0
    K, R = rng.standard_normal((3, 3)), rng.standard_normal((3, 3))
    z, rho = sp.Symbol("z", real=True), sp.Symbol("rho", positive=True)
    at = {z: 0.7, rho: 1.7}  # a generic point

    def symbolic_entry(A: np.ndarray) -> tuple[sp.Matrix, np.ndarray]:
        """A with its (1, 0) entry the symbol z, and A with z's value there."""
        S, V = sp.Matrix(A.tolist()), A.copy()
        S[1, 0], V[1, 0] = z, at[z]
        return S, V

    (Es, Ev), (Ks, Kv), (Rs, Rv) = symbolic_entry(E), symbolic_entry(K), symbolic_entry(R)
    cases = {  # the one symbolic argument: (symbolic arguments, their numeric values)
        "rho": ((E, K, R, rho), (E, K, R, at[rho])),
        "E": ((Es, K, R, 3), (Ev, K, R, 3)),
        "W_KQ": ((E, Ks, R, 3), (E, Kv, R, 3)),
        "W_PV": ((E, K, Rs, 3), (E, K, Rv, 3)),
    }
    for name, (sym, num) in cases.items():
        calls = [(f, sym, num) for f in (T.lsa_output, T.prediction_eq6)]
        if name in ("rho", "E"):
            calls.append((T.lemma9_H, (sym[0], sym[3]), (num[0], num[3])))
        for f, s_args, n_args in calls:
            got = f(*s_args)
            assert isinstance(got, (sp.Basic, sp.MatrixBase)), (name, f.__name__, type(got))
            np.testing.assert_allclose(
                np.asarray(got.subs(at), dtype=float),
                np.asarray(f(*n_args), dtype=float),
                rtol=FLOAT_RTOL,
                err_msg=f"{f.__name__} with {name} alone symbolic",
            )


@pytest.mark.symbolic
@pytest.mark.result("zfb24:lem9")
def test_vec_bad_order_names_the_parameter_and_the_choices() -> None:
    msg = r"^order must be one of \('column', 'row'\), got 'diag'$"
    with pytest.raises(ValueError, match=msg):
        T.vec([[1.0, 2.0], [3.0, 4.0]], order="diag")


@pytest.mark.symbolic
@pytest.mark.result("zfb24:thm5")
@pytest.mark.result("zfb24:shifts")
def test_risk_formulas_stay_exact_in_the_test_length() -> None:
    # the 1/M of the SymPy route is exact (no float 1.0/M): a symbolic M gives no Float, an
    # integer M a rational value equal to the float route's at the same point, M = ∞ the floor
    Ms = sp.Symbol("M", positive=True, integer=True)
    L, w = sp.diag(sp.Rational(1, 2), 2), sp.Matrix([1, sp.Rational(-1, 2)])
    Lf, wf = np.diag([0.5, 2.0]), np.array([1.0, -0.5])
    P = sp.Matrix([[sp.Rational(1, 3), sp.Rational(1, 5)], [0, sp.Rational(2, 7)]])
    Pf = np.array(P.tolist(), dtype=float)
    c = sp.Rational(3, 2)
    routes = {
        "theorem5_excess": (
            lambda M: T.theorem5_excess(L, 7, M, T.noiseless_Sigma(w, L), w),
            lambda M: T.theorem5_excess(Lf, 7, M, T.noiseless_Sigma(wf, Lf), wf),
        ),
        "noiseless_risk": (
            lambda M: T.noiseless_risk(w, L, 7, M),
            lambda M: T.noiseless_risk(wf, Lf, 7, M),
        ),
        "prior_risk": (lambda M: T.prior_risk(L, 7, M), lambda M: T.prior_risk(Lf, 7, M)),
        "shift_risk": (
            lambda M: T.shift_risk(P, L, 2 * L, M),
            lambda M: T.shift_risk(Pf, Lf, 2 * Lf, M),
        ),
        "covariate_scaling_risk": (
            lambda M: T.covariate_scaling_risk(L, 7, M, c),
            lambda M: T.covariate_scaling_risk(Lf, 7, M, 1.5),
        ),
    }
    for name, (exact, num) in routes.items():
        got = exact(Ms)
        assert not got.atoms(sp.Float), (name, got)
        at5, floor = exact(sp.Integer(5)), exact(sp.oo)
        assert isinstance(at5, sp.Rational) and isinstance(floor, sp.Rational), (name, at5, floor)
        assert got.subs(Ms, 5) == at5, name
        assert float(at5) == pytest.approx(float(num(5)), rel=FLOAT_RTOL), name
        assert float(floor) == pytest.approx(float(num(math.inf)), rel=FLOAT_RTOL), name


@pytest.mark.float
@pytest.mark.result("zfb24:lem10")
def test_flow_rhs_with_a_given_gamma_is_the_twins() -> None:
    # Gamma= replaces Γ (the label-noise hook): the general formula against the float twin, at a
    # generic state and a Γ other than Γ(Λ, N)
    A = np.random.default_rng(7).standard_normal((3, 3))
    L = A @ A.T / 3 + 0.4 * np.eye(3)
    U, u, N = 0.3 * A + 0.1, 0.8, 6
    G = T.gamma_noisy_fn(L, N, 0.3)
    assert not np.allclose(G, T.gamma_fn(L, N))
    dU, du = T.flow_rhs(U, u, L, N, Gamma=G)
    dU_fn, du_fn = T.flow_rhs_fn(U, u, L, G)
    np.testing.assert_allclose(dU, dU_fn, rtol=FLOAT_RTOL)
    assert float(du) == pytest.approx(du_fn, rel=FLOAT_RTOL)
    gU, gu = T.reduced_loss_grad(U, u, L, N, Gamma=G)
    np.testing.assert_allclose(dU, -gU, rtol=FLOAT_RTOL)


@pytest.mark.symbolic
@pytest.mark.result("zfb24:thm4")
def test_setting_errors_name_the_value_and_the_assumption() -> None:
    from theory.zfb24.settings import LSAFlowData, Setting

    for make, msg in (
        (lambda: Setting(N=0), r"^N must be ≥ 1 \(zfb24 prompt length\), got 0$"),
        (lambda: Setting(M=0), r"^M must be ≥ 1 \(zfb24 §4\.1 test prompt length\), got 0$"),
        (
            lambda: Setting(d=2, spectrum=(1.0, 0.0)),
            r"^spectrum\[1\] must be > 0 \(zfb24 §3\.3: Λ ≻ 0\), got 0\.0$",
        ),
        (lambda: LSAFlowData(d=0, N=4, random_cov=True), r"^d must be ≥ 1, got 0$"),
        (lambda: LSAFlowData(d=2, N=0, random_cov=True), r"^N must be ≥ 1, got 0$"),
    ):
        with pytest.raises(ValueError, match=msg):
            make()
