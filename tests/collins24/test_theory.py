"""collins24 theory: exact identities (SymPy), structural laws, settings and bad input."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.collins24.tolerances import DOUBLE_RTOL
from numerics.testing import FLOAT_RTOL, ROUTES_ATOL
from theory import collins24 as T
from theory.collins24.settings import LipschitzTasks, SoftmaxWindowSetting, SphereCovariates
from theory.common.symbols import Lip, d, n, sigma2
from theory.strategies import collins24_settings


@pytest.mark.symbolic
@pytest.mark.result("collins24:limits")
def test_zero_scale_terms_exact() -> None:
    z = T.zero_scale_terms(n, d)
    assert sp.simplify(z["A"] - (1 + 1 / n)) == 0
    assert sp.simplify(z["N"] - 1 / n) == 0
    risk = T.affine_risk_at_zero(d, n, Lip, sigma2)
    assert sp.simplify(risk - (Lip**2 / (3 * d) * (1 + 1 / n) + sigma2 / n)) == 0


@pytest.mark.symbolic
@pytest.mark.result("collins24:thm3.6")
def test_linear_attention_optimum_tends_to_floor() -> None:
    """R8: 𝓛_LA* = c − b²/a ↓ L²/3 as n → ∞ (sp.limit), and m* = b/a minimises a m² − 2bm + c."""
    m = sp.Symbol("m", real=True)
    m_star, la_star = T.la_optimum(d, n, Lip, sigma2)
    assert sp.simplify(sp.limit(la_star, n, sp.oo) - Lip**2 / 3) == 0
    assert sp.simplify(sp.diff(T.la_risk(m, d, n, Lip, sigma2), m).subs(m, m_star)) == 0
    assert sp.simplify(la_star - T.la_floor(Lip)) != 0


@pytest.mark.symbolic
@pytest.mark.result("collins24:asymptotics")
def test_asymptotic_optimum_is_the_minimiser_of_the_asymptotic_risk() -> None:
    """ω*_aff(Λ) minimises (L²/3d)((d−1)/2ω)² + σ² c_d ω^{(d−1)/2}/n (d = 3, 5 exactly)."""
    w, lam = sp.symbols("omega Lambda", positive=True)
    for dd in (3, 5):
        risk = (
            sp.Rational(1, 3 * dd) * T.rad_asymptote(w, sp.Integer(dd))
            + T.noise_constant(sp.Integer(dd)) * w ** T.noise_exponent(sp.Integer(dd)) / lam
        )
        w_star = T.affine_optimum_asymptote(lam, sp.Integer(dd))
        assert sp.simplify(sp.diff(risk, w).subs(w, w_star)) == 0
    assert T.affine_optimum_exponent(sp.Integer(3)) != T.paper_affine_optimum_exponent(
        sp.Integer(3)
    )


@pytest.mark.symbolic
@pytest.mark.result("collins24:thm3.4")
def test_bracket_contains_true_exponents() -> None:
    for dd in range(2, 12):
        lo, hi = T.thm34_bracket(sp.Integer(dd))
        assert lo < T.affine_optimum_exponent(sp.Integer(dd)) < hi
        blo, bhi = T.thm34_bracket(sp.Integer(dd), "relu")
        assert blo < sp.Rational(2, dd + 2) <= bhi


@pytest.mark.result("collins24:thm3.5")
def test_transfer_curve_quadratic() -> None:
    Lp, S, N = sp.symbols("Lp S N", positive=True)
    assert sp.degree(T.transfer_risk(Lp, S, N, sigma2), Lp) == 2


@pytest.mark.result("collins24:risk-affine")
@settings(max_examples=30, deadline=None)
@given(collins24_settings(task="affine"), st.floats(0.1, 10.0))
@example(SoftmaxWindowSetting.isotropic(d=5, n=20, L=1.0, sigma2=1e-4), 3.0)
def test_risk_split_scales_as_c_squared(setting: SoftmaxWindowSetting, c: float) -> None:
    A, N = 0.7, 0.2
    r = T.affine_risk_split(A, N, setting.d, setting.L, setting.sigma2)
    rc = T.affine_risk_split(A, N, setting.d, c * setting.L, c * c * setting.sigma2)
    assert np.isclose(rc, T.risk_scale(c) * r, rtol=DOUBLE_RTOL)


@pytest.mark.result("collins24:limits")
def test_settings_validate() -> None:
    with pytest.raises(ValueError, match="d"):
        SphereCovariates(d=1)
    with pytest.raises(ValueError, match="Sigma_diag"):
        SphereCovariates(d=3, kind="ellipsoid", Sigma_diag=(1.0, -1.0, 1.0))
    with pytest.raises(ValueError, match="k"):
        SphereCovariates(d=3, kind="lowrank", k=3)
    with pytest.raises(ValueError, match="L"):
        LipschitzTasks(L=-1.0)
    with pytest.raises(ValueError, match="sigma2"):
        SoftmaxWindowSetting.isotropic(d=3, n=5, sigma2=-0.1)
    with pytest.raises(ValueError, match="n"):
        SoftmaxWindowSetting.isotropic(d=3, n=0)
    with pytest.raises(ValueError, match="omega"):
        T.window_mass(0.25, 3)
    with pytest.raises(ValueError, match="sigma2"):
        T.Lambda(20, 1.0, 0.0)
    with pytest.raises(ValueError, match="B"):
        T.rho_metric(np.eye(3), np.ones((3, 1)))


@pytest.mark.result("collins24:lemD.2")
@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.floats(0.01, 10.0), min_size=2, max_size=8),
    st.lists(st.floats(0.01, 10.0), min_size=8, max_size=8),
)
def test_lemma_i3_property(a_list: list[float], b_list: list[float]) -> None:
    """Lemma I.3: same-ordered positive a, b give Σa²/(Σa)² ≤ Σ(ab)²/(Σab)²."""
    a = np.sort(np.array(a_list))
    b = np.sort(np.array(b_list[: len(a)]))
    assert T.i3_ratio(a) <= T.i3_ratio(a * b) * (1 + 1e-12)


@pytest.mark.result("collins24:limits")
def test_settings_messages_name_the_value_and_the_assumption() -> None:
    from theory.collins24.settings import Setting

    with pytest.raises(ValueError, match="sigma2"):
        Setting(sigma2=-0.1)
    with pytest.raises(
        ValueError, match=r"^Sigma_diag must be given for kind='ellipsoid' \(Assumption 3.3\)$"
    ):
        SphereCovariates(d=3, kind="ellipsoid")
    with pytest.raises(
        ValueError, match=r"^k must be given for kind='lowrank' \(Assumption 4.3\)$"
    ):
        SphereCovariates(d=3, kind="lowrank")
    with pytest.raises(ValueError, match=r"^k must be ≥ 1 \(Assumption 4.3\)"):
        SphereCovariates(d=3, kind="lowrank", k=0)
    with pytest.raises(ValueError, match=r"^c_v must be .*Assumption 4.3: \|c_v\| < ∞"):
        SphereCovariates(d=3, kind="lowrank", k=1, c_v=float("inf"))


@pytest.mark.symbolic
@pytest.mark.result("collins24:lemB.5")
@pytest.mark.parametrize("stacked", ["M", "Sigma"])
def test_whitened_m_refuses_a_stack_naming_its_shape(stacked: str) -> None:
    """Lemma B.5's M′ = Σ^{1/2} M Σ^{1/2} is one d×d matrix: a (2, 2, 2) stack is an error, from
    the domain check of the export (a matrix parameter takes one matrix unless its domain says
    ``stack=True``) and from the function's own guard on the unchecked ``.raw``."""
    one, stack = np.diag([4.0, 1.0]), np.stack([np.eye(2), 2 * np.eye(2)])
    M, Sigma = (stack, one) if stacked == "M" else (one, stack)
    with pytest.raises(
        ValueError, match=rf"^{stacked} must be .*got a stack of matrices of shape \(2, 2, 2\)$"
    ):
        T.whitened_M(M, Sigma)
    with pytest.raises(
        ValueError, match=rf"^{stacked} must be one d×d matrix .*got shape \(2, 2, 2\)$"
    ):
        T.whitened_M.raw(M, Sigma)


@pytest.mark.result("collins24:lemB.5")
@pytest.mark.parametrize("shape", [(3, 2, 2), (2, 3, 2, 2)])
def test_whitened_m_raw_blames_a_stacked_m_not_sigma(shape: tuple[int, ...]) -> None:
    """A stack of 2×2 matrices M whose leading size is not d = 2, with one 2×2 Σ, is M's fault:
    the unchecked ``.raw`` names M and its shape (d is M's trailing size, not its leading one;
    the old code asked Σ to be 3×3 for the (3, 2, 2) stack)."""
    with pytest.raises(
        ValueError,
        match=rf"^M must be one d×d matrix .*got shape {re.escape(str(shape))}$",
    ):
        T.whitened_M.raw(np.zeros(shape), np.eye(2))


@pytest.mark.result("collins24:lemB.5")
def test_lemb5_raw_bodies_name_the_bad_matrix() -> None:
    """The unchecked bodies of Lemma B.5's M′ = Σ^{1/2} M Σ^{1/2} and M* = ω Σ⁻¹ name the
    argument at fault: a non-square M or Σ, and a Σ of another size than M's d×d."""
    with pytest.raises(
        ValueError, match=r"^M must have trailing shape square, got shape \(2, 3\)$"
    ):
        T.whitened_M.raw(np.ones((2, 3)), np.eye(2))
    with pytest.raises(
        ValueError, match=r"^Sigma must have trailing shape \(2, 2\), got shape \(3, 3\)$"
    ):
        T.whitened_M.raw(np.eye(2), np.diag([1.0, 2.0, 3.0]))
    with pytest.raises(
        ValueError, match=r"^Sigma must have trailing shape square, got shape \(2, 3\)$"
    ):
        T.lemB5_optimum.raw(2.0, np.ones((2, 3)))


@pytest.mark.result("collins24:corC.6")
@pytest.mark.parametrize(
    ("omega", "n", "d", "expected"),
    [
        # 1/16 + 4^{3/2}/8 + 1/8 = 1/16 + 1 + 1/8
        (4.0, 8, 5, 19 / 16),
        # 1/9 + 3^2/10 + 1/10 = 1/9 + 1
        (3.0, 10, 6, 10 / 9),
    ],
)
def test_c6_upper_shape_pinned_at_generic_points(
    omega: float, n: int, d: int, expected: float
) -> None:
    """Corollary C.6's upper shape 1/ω² + ω^{d/2−1}/n + 1/n (eq. (13)) at ω ≠ 1, odd and even d:
    hand arithmetic (the doctest's ω = 1 makes every power of ω equal 1)."""
    assert T.c6_upper_shape(omega, n, d) == pytest.approx(expected, rel=DOUBLE_RTOL)


@pytest.mark.parametrize("bad", ["x_width", "x_batch"])
def test_small_omega_prediction_names_the_shapes(bad: str) -> None:
    """Remark 2.2's predictor needs X (B, n, d), y (B, n), x (B, d): a query of the wrong width
    or batch (X and y right) is an error that names the three shapes."""
    X, y = np.zeros((2, 3, 4)), np.zeros((2, 3))
    x = np.zeros((2, 5)) if bad == "x_width" else np.zeros((3, 4))
    with pytest.raises(
        ValueError,
        match=rf"^small_omega_prediction needs X \(B, n, d\), y \(B, n\), x \(B, d\); got "
        rf"\(2, 3, 4\), \(2, 3\), {re.escape(str(x.shape))}$",
    ):
        T.small_omega_prediction(X, y, x, 0.1)


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"n": 0}, r"^n must be ≥ 1 \(\[collins24\] §2 .*: n ≥ 1 context examples\), got 0$"),
        (
            {"n": 2, "sigma2": -1.0},
            r"^sigma2 must be ≥ 0 \(\[collins24\] §2 .*: noise variance σ² ≥ 0\), got -1.0$",
        ),
    ],
    ids=["n", "sigma2"],
)
def test_softmax_window_setting_errors_name_the_value_and_its_assumption(
    kw: dict, message: str
) -> None:
    """An ICL problem with no context example or a negative noise variance is refused with a
    message naming the value and §2's assumption."""
    with pytest.raises(ValueError, match=message):
        SoftmaxWindowSetting(covariates=SphereCovariates(d=3), tasks=LipschitzTasks(), **kw)


#: A 4×4 orthogonal matrix with exact dyadic entries ±1/2 (Sylvester's Hadamard matrix / 2): its
#: first two columns are an orthonormal basis B of a generic (not coordinate) 2-plane of R⁴.
_H4 = [[1, 1, 1, 1], [1, 1, -1, -1], [1, -1, 1, -1], [1, -1, -1, 1]]


def _basis(exact: bool) -> np.ndarray:
    """The first two columns of _H4 / 2, as exact Fractions (an object array: the domain
    takes Fraction entries as high-precision references) or as float64."""
    half = Fraction(1, 2) if exact else 0.5
    return np.array([[half * v for v in row[:2]] for row in _H4], dtype=object if exact else float)


@pytest.mark.result("collins24:thm4.4")
@pytest.mark.parametrize("exact", [False, True], ids=["float", "fraction"])
def test_lowrank_M_is_c1_on_the_subspace_and_c2_off_it(exact: bool) -> None:
    """Lemma H.2's family M = c₁BBᵀ + c₂B⊥B⊥ᵀ at c₁ = 1.5, c₂ = −0.4 and a rotated basis
    (B = two columns of the Hadamard matrix / 2).  By hand: (BBᵀ)_ij = (1 + s_i s_j)/4 with
    s = (1, 1, −1, −1), so BBᵀ = (I + G)/2, G the swap 1↔2, 3↔4, and M = c₂I + (c₁ − c₂)BBᵀ =
    (c₁ + c₂)/2 I + (c₁ − c₂)/2 G.  The result is float64 with eigenvalues c₂ (×2) and c₁ (×2);
    B with exact Fraction entries gives the same float matrix."""
    c1, c2 = 1.5, -0.4
    G = np.array([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]], dtype=float)
    expected = (c1 + c2) / 2 * np.eye(4) + (c1 - c2) / 2 * G
    M = T.lowrank_M(c1, c2, _basis(exact))
    assert M.dtype == np.float64
    np.testing.assert_allclose(M, expected, rtol=FLOAT_RTOL, atol=ROUTES_ATOL)
    np.testing.assert_allclose(np.linalg.eigvalsh(M), [c2, c2, c1, c1], rtol=FLOAT_RTOL)


@pytest.mark.result("collins24:thm4.4")
def test_lowrank_M_refuses_a_basis_that_is_not_orthonormal() -> None:
    """A 2-D B with unit but non-orthogonal columns (0.6, 0.8, 0), (0, 0.6, 0.8) (inner product
    0.48) is not Def. 4.2's basis: the error names B, the assumption and the shape."""
    B = np.array([[0.6, 0.0], [0.8, 0.6], [0.0, 0.8]])
    with pytest.raises(
        ValueError,
        match=r"^B must be d×k with orthonormal columns \(Def 4.2\), got shape \(3, 2\)$",
    ):
        T.lowrank_M(1.0, 0.5, B)


@pytest.mark.result("collins24:fig9")
@pytest.mark.parametrize("exact", [False, True], ids=["float", "fraction"])
def test_rho_metric_pinned_at_a_rotated_basis(exact: bool) -> None:
    """ρ(M, B) = ‖B⊥ᵀMB⊥‖₂ / σ_min(BᵀMB) at M = H D Hᵀ (H the orthogonal Hadamard matrix / 2,
    B = H[:, :2]): in H's basis the blocks are D's, BᵀMB = [[2.5, 0.5], [0.5, 2.5]] (eigenvalues
    3 and 2, σ_min = 2) and B⊥ᵀMB⊥ ≅ diag(0.3, 0.4) (spectral norm 0.4; Frobenius 0.5), so ρ =
    0.4/2 = 0.2 by hand (the cross blocks 0.7, −0.3, 0.1, 0.2 do not enter).  B with exact
    Fraction entries gives the same value."""
    H = np.array(_H4, dtype=float) / 2
    D = np.array(
        [[2.5, 0.5, 0.7, 0.0], [0.5, 2.5, 0.0, -0.3], [0.1, 0.0, 0.3, 0.0], [0.0, 0.2, 0.0, 0.4]]
    )
    rho = T.rho_metric(H @ D @ H.T, _basis(exact))
    assert rho == pytest.approx(0.2, rel=FLOAT_RTOL)


@pytest.mark.result("collins24:fig9")
def test_rho_metric_errors_name_the_value_and_the_assumption() -> None:
    """B with d′ ≠ d rows (orthonormal, 3 rows for a 2×2 M) is refused naming B, Def. 4.2 and
    its shape; a singular BᵀMB (the zero 2×2 block) is refused as making ρ undefined; a symbolic
    M (which the domain check lets through as SymPy) is refused naming M as a real matrix."""
    with pytest.raises(
        ValueError,
        match=r"^B must be d×k with orthonormal columns \(Def 4.2\), got shape \(3, 1\)$",
    ):
        T.rho_metric(np.array([[0.6, 0.1], [-0.2, 0.4]]), np.array([[0.6], [0.8], [0.0]]))
    M0 = np.array([[0.0, 0.0, 0.3], [0.0, 0.0, -0.2], [0.5, 0.1, 1.0]])
    with pytest.raises(
        ValueError,
        match=r"^rho_metric: BᵀMB is singular \(σ_min = 0\), ρ\(M, B\) is undefined$",
    ):
        T.rho_metric(M0, np.eye(3)[:, :2])
    x = sp.Symbol("x")
    with pytest.raises(ValueError, match=r"^M must be a real matrix, got Matrix\("):
        T.rho_metric(sp.Matrix([[x, 0], [0, 1]]), np.array([[0.6], [0.8]]))


_SEC2 = r"\(\[collins24\] §2 \(Preliminaries\)"


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"n": 0}, rf"^n must be ≥ 1 {_SEC2}: n ≥ 1 context examples\), got 0$"),
        ({"L": -0.5}, rf"^L must be ≥ 0 {_SEC2}: Lipschitz constant L ≥ 0\), got -0.5$"),
        ({"sigma2": -0.1}, rf"^sigma2 must be ≥ 0 {_SEC2}: noise variance σ² ≥ 0\), got -0.1$"),
    ],
    ids=["n", "L", "sigma2"],
)
def test_setting_errors_name_the_value_and_its_assumption(kw: dict, message: str) -> None:
    """The settings-first Setting refuses n = 0, L < 0 and σ² < 0 with a message naming the
    parameter, §2's assumption and the value."""
    from theory.collins24.settings import Setting

    with pytest.raises(ValueError, match=message):
        Setting(**kw)


def test_setting_accepts_its_boundary_and_a_generic_lipschitz_constant() -> None:
    """§2's domain is n ≥ 1, L ≥ 0, σ² ≥ 0: n = 1, L = 0 and σ² = 0 are settings, and so is a
    generic L = 0.5 in (0, 1); L is stored as a float."""
    from theory.collins24.settings import Setting

    s = Setting(n=1, L=0.5, sigma2=0.0)
    assert (s.n, s.L, s.sigma2s) == (1, 0.5, (0.0,))
    assert Setting(L=0).L == 0.0
    assert type(Setting(L=2).L) is float


def test_i3_ratio_of_large_integer_entries() -> None:
    """Σa²/(Σa)² is scale-free: integer entries 2³²·(1, 2, 3) (positive, in Lemma I.3's domain)
    give 14/36 = 7/18 by hand, where int64 arithmetic would overflow a² and (Σa)²; exact
    Fraction entries (1/3, 2/3) give the float 5/9."""
    from fractions import Fraction

    big = [2**32, 2 * 2**32, 3 * 2**32]
    assert np.isclose(T.i3_ratio(big), 7 / 18, rtol=DOUBLE_RTOL, atol=0.0)
    assert np.allclose(
        T.i3_ratio(np.array([big, [1, 1, 1]])), [7 / 18, 1 / 3], rtol=DOUBLE_RTOL, atol=0.0
    )
    r = T.i3_ratio([Fraction(1, 3), Fraction(2, 3)])
    assert isinstance(r, np.floating)
    assert np.isclose(r, 5 / 9, rtol=DOUBLE_RTOL, atol=0.0)


_P2 = "[collins24] §2 (Preliminaries)"
_COV = "('uniform', 'ellipsoid', 'acg', 'lowrank')"
_TASKS = "('affine', 'relu', 'cos', 'linear', 'lowrank', 'constant', 'hills')"


def _lowrank(**kw: object) -> SphereCovariates:
    return SphereCovariates(d=3, kind="lowrank", **kw)  # type: ignore[arg-type]


def _ellipsoid(diag: tuple) -> SphereCovariates:
    return SphereCovariates(d=3, kind="ellipsoid", Sigma_diag=diag)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: SphereCovariates(d=1), f"d must be ≥ 2 ({_P2}: x lies on S^(d-1), d ≥ 2), got 1"),
        (
            lambda: SphereCovariates(d=3, kind="gauss"),
            f"kind must be one of {_COV} ({_P2}), got 'gauss'",
        ),
        (
            lambda: _ellipsoid((1.0, 2.0)),
            "Sigma_diag must have shape (3,) (Assumption 3.3), got shape (2,)",
        ),
        (
            lambda: _ellipsoid((1.5, 0.0, 2.5)),
            "Sigma_diag must be positive (Σ ≻ 0, Assumption 3.3), got (1.5, 0.0, 2.5)",
        ),
        (
            lambda: SphereCovariates(d=3, kind="acg", Sigma_diag=(1.0, 2.0, 3.0)),
            "Sigma_diag is only used by kind='ellipsoid', got kind='acg'",
        ),
        (lambda: _lowrank(k=0), "k must be ≥ 1 (Assumption 4.3), got 0"),
        (lambda: _lowrank(k=3), "k must be < d (Assumption 4.3), got k=3, d=3"),
        (lambda: _lowrank(k=1, c_u=float("inf")), "c_u must be finite (Assumption 4.3), got inf"),
        (lambda: _lowrank(k=1, c_u=0), "c_u must be ≠ 0 (Assumption 4.3), got 0"),
        (
            lambda: _lowrank(k=1, c_v=float("nan")),
            "c_v must be finite (Assumption 4.3: |c_v| < ∞), got nan",
        ),
        (
            lambda: LipschitzTasks(kind="quadratic"),
            f"kind must be one of {_TASKS} ({_P2}), got 'quadratic'",
        ),
        (
            lambda: LipschitzTasks(L=-0.5),
            f"L must be ≥ 0 ({_P2}: Lipschitz constant L ≥ 0), got -0.5",
        ),
        (lambda: LipschitzTasks(offset=float("inf")), "offset must be finite (App. J.1), got inf"),
        (
            lambda: SoftmaxWindowSetting.isotropic(d=3, n=4, task="hills"),
            "tasks kind='hills' lives on the circle: needs d = 2 and uniform covariates "
            "(Fig. 1), got d=3, 'uniform'",
        ),
        (
            lambda: SoftmaxWindowSetting(
                covariates=SphereCovariates(d=2, kind="acg"),
                tasks=LipschitzTasks(kind="hills"),
                n=4,
            ),
            "tasks kind='hills' lives on the circle: needs d = 2 and uniform covariates "
            "(Fig. 1), got d=2, 'acg'",
        ),
        (
            lambda: SoftmaxWindowSetting.isotropic(d=3, n=4, task="lowrank"),
            "tasks kind='lowrank' needs covariates kind='lowrank' (Def 4.2 uses B)",
        ),
    ],
    ids=[
        "d",
        "cov_kind",
        "Sigma_len",
        "Sigma_zero",
        "Sigma_unused",
        "k0",
        "k_eq_d",
        "c_u_inf",
        "c_u_zero",
        "c_v_nan",
        "task_kind",
        "L",
        "offset",
        "hills_d3",
        "hills_acg",
        "lowrank_tasks",
    ],
)
def test_data_model_errors_name_the_value_and_the_assumption(make, message: str) -> None:
    """Each refusal of the covariate law, the task class and the ICL problem names the
    parameter, the assumption it breaks (§2, Assumption 3.3 / 4.3, Def 4.2, Fig. 1, App. J.1)
    and the value; the whole message is pinned."""
    with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
        make()


def test_data_models_accept_their_boundaries_and_generic_values() -> None:
    """Inside the domains: d = 2; Σ = diag(1, 2, 3) given as integers is stored as floats;
    k = d − 1 with c_u = −0.5 (≠ 0) and c_v = 0; L = 0 and L = 0.5; n = 1, σ² = 0.5; hills on the
    uniform circle; low-rank tasks on low-rank covariates.  ``isotropic`` defaults to L = 1,
    σ² = 0 and affine tasks."""
    assert SphereCovariates(d=2).d == 2
    diag = _ellipsoid((1, 2, 3)).Sigma_diag
    assert diag is not None and diag == (1.0, 2.0, 3.0)
    assert all(type(v) is float for v in diag)
    low = _lowrank(k=2, c_u=-0.5, c_v=0.0)
    assert (low.k, low.c_u, low.c_v) == (2, -0.5, 0.0)
    assert (LipschitzTasks(L=0.0).L, LipschitzTasks(L=0.5, offset=2.0).offset) == (0.0, 2.0)
    s = SoftmaxWindowSetting(
        covariates=SphereCovariates(d=3), tasks=LipschitzTasks(L=0.7), n=1, sigma2=0.5
    )
    assert (s.d, s.L, s.n, s.sigma2) == (3, 0.7, 1, 0.5)
    hills = SoftmaxWindowSetting.isotropic(d=2, n=4, L=3.0, sigma2=0.25, task="hills")
    assert (hills.d, hills.L, hills.n, hills.sigma2, hills.tasks.kind) == (2, 3.0, 4, 0.25, "hills")
    assert hills.covariates == SphereCovariates(d=2)
    lr = SoftmaxWindowSetting(covariates=_lowrank(k=1), tasks=LipschitzTasks(kind="lowrank"), n=5)
    assert (lr.tasks.kind, lr.sigma2) == ("lowrank", 0.0)
    iso = SoftmaxWindowSetting.isotropic(d=3, n=5)
    assert iso == SoftmaxWindowSetting(
        covariates=SphereCovariates(d=3), tasks=LipschitzTasks(L=1.0), n=5, sigma2=0.0
    )
    assert (iso.L, iso.sigma2, iso.tasks.kind) == (1.0, 0.0, "affine")


@pytest.mark.result("collins24:thm3.4")
def test_relu_bracket_is_beta_to_two_beta() -> None:
    """Theorem 3.4 Case 2 (eq. (17), our reconstruction): the ReLU bracket is [β, 2β] with
    β = 1/(d+2): exactly (1/5, 2/5) at d = 3 (SymPy) and (1/8, 1/4) at d = 6 (float), by hand."""
    assert T.thm34_bracket(sp.Integer(3), "relu") == (sp.Rational(1, 5), sp.Rational(2, 5))
    lo, hi = T.thm34_bracket(6, "relu")
    assert np.allclose([lo, hi], [1 / 8, 1 / 4], rtol=DOUBLE_RTOL, atol=0.0)
