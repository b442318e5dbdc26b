"""czz24 theory: constructions (symbolic and hypothesis float64), pre-GD closed forms, the OLS API,
bounds, settings validation (spec 000 V-R1..R3, R8, R10)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.czz24 import sec4_constructions as CC
from numerics.czz24.contexts import token_matrix
from numerics.czz24.predictors import pregd_path
from numerics.testing import FLOAT_RTOL, ROUTES_ATOL, ROUTES_RTOL, assert_passed
from theory.common.symbols import d as d_sym
from theory.common.symbols import n as n_sym
from theory.common.symbols import sigma2 as s2_sym
from theory.czz24 import (
    alg1,
    alg1_layer,
    apply_layer,
    effective_predictor,
    forward,
    head_importance,
    minnorm_interpolator,
    ols_excess_expr,
    ols_excess_risk,
    phi,
    pregd_coefficient,
    pregd_transformer,
    pruning_keep,
    sorted_importance,
    task_second_moment,
)
from theory.czz24.settings import PRESETS, SparseRegressionICL
from theory.strategies import czz24_settings

#: float64 round-off of the label row carried through layer 1
LABEL_ROW_ATOL = 1e-12
#: float64 round-off: columns the mask hides must not move
MASK_ATOL = 1e-14
#: float64 of two pre-GD runs related by label scaling
EQUIVARIANCE_RTOL = 1e-9
#: float64 through k layers against the numpy GD residuals
RESIDUAL_RTOL = 1e-9
#: absolute floor of the same comparison
RESIDUAL_ATOL = 1e-9


@pytest.mark.float
@pytest.mark.result("czz24:prop4.1")
@pytest.mark.result("czz24:prop4.2")
@settings(max_examples=30)
@given(
    d=st.integers(1, 8),
    n=st.integers(1, 20),
    q=st.integers(1, 4),
    k=st.integers(1, 6),
    eta_frac=st.floats(0.05, 0.99),
    sigma=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**32 - 1),
)
@example(d=5, n=7, q=3, k=5, eta_frac=0.9, sigma=0.5, seed=0)
def test_constructions_hypothesis(
    d: int, n: int, q: int, k: int, eta_frac: float, sigma: float, seed: int
) -> None:
    """Spec V-R1/R2 (d): rows 1..d of H^(1) = X̃ᵀ (1e-10), row d+1 = (y, 0), and for every ℓ ≤ k
    and query −H^(ℓ)_{d+1,n+j} = ⟨w̃^ℓ, x̃_{n+j}⟩ (1e-9(1 + |ŷ|)), η ∈ (0, 1/λ_max(Ĝ))."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = X @ rng.standard_normal(d) + sigma * rng.standard_normal(n)
    Xq = rng.standard_normal((q, d))
    r = X.T @ y / n
    lmax = float(np.linalg.eigvalsh((X * r).T @ (X * r) / n)[-1])
    eta = eta_frac / max(lmax, 1e-12)
    Hs = forward(pregd_transformer(d, n, eta, k), token_matrix(X, y, Xq), n)
    ref = alg1(X, y, np.vstack([X, Xq])).T
    assert np.max(np.abs(Hs[1][:d] - ref)) <= 1e-10 * (1 + np.abs(ref).max())
    assert np.allclose(Hs[1][d], np.hstack([y, np.zeros(q)]), rtol=0, atol=LABEL_ROW_ATOL)
    path = pregd_path(X[None], y[None], eta, k)[:, 0]
    for l in range(1, k + 1):
        yhat = path[l] @ Xq.T
        assert np.all(np.abs(-Hs[1 + l][d, n:] - yhat) <= 1e-9 * (1 + np.abs(yhat)))
        assert np.allclose(
            Hs[1 + l][d, :n], y - path[l] @ X.T, rtol=RESIDUAL_RTOL, atol=RESIDUAL_ATOL
        )


@pytest.mark.result("czz24:eq2.2")
def test_apply_layer_mask_ignores_query_columns() -> None:
    """Only context columns act as keys/values: changing a query column changes only itself."""
    rng = np.random.default_rng(1)
    W_E, layer = alg1_layer(3, 4)
    E = rng.standard_normal((4, 6))
    E2 = E.copy()
    E2[:, 5] = rng.standard_normal(4)
    H, H2 = apply_layer(W_E @ E, layer, 4), apply_layer(W_E @ E2, layer, 4)
    assert np.allclose(H[:, :5], H2[:, :5], rtol=0, atol=MASK_ATOL)


@pytest.mark.result("czz24:thm5.3-lower")
def test_ols_api_builds_on_base_and_branches() -> None:
    assert sp.simplify(ols_excess_expr() - s2_sym * d_sym / (n_sym - d_sym - 1)) == 0
    assert math.isinf(ols_excess_risk(16, 17, 0.01, 4.0))
    assert ols_excess_risk(16, 16, 0.0, 4.0) == 0.0
    pw = ols_excess_risk(d_sym, n_sym, s2_sym, 1)
    assert isinstance(pw, sp.Piecewise)
    with pytest.raises(ValueError, match="sigma2"):
        ols_excess_risk(4, 10, -1.0, 1.0)


@pytest.mark.result("czz24:sec2")
def test_setting_validation_and_moments() -> None:
    with pytest.raises(ValueError, match="sparsity"):
        SparseRegressionICL.isotropic(d=3, s=4, n=5, sigma2=0.1)
    with pytest.raises(ValueError, match="prior"):
        SparseRegressionICL.isotropic(d=3, s=2, n=5, sigma2=0.1, prior="laplace")
    with pytest.raises(ValueError, match="Sigma_diag"):
        SparseRegressionICL.diagonal([1.0, -1.0], s=1, n=3, sigma2=0.0)
    assert task_second_moment(d_sym, sp.Symbol("s", positive=True), "sign") == 1 / d_sym
    assert task_second_moment(16, 4, "gauss") == 0.25


@pytest.mark.result("czz24:sec2")
@settings(max_examples=20)
@given(czz24_settings())
def test_strategy_draws_valid_settings(st_: SparseRegressionICL) -> None:
    S = st_.Sigma_x_array
    assert np.all(np.linalg.eigvalsh(S) > 0) and st_.s <= st_.d
    assert math.isclose(st_.task_second_moment * st_.d, st_.signal)


@pytest.mark.result("czz24:eq4.3")
@settings(max_examples=25)
@given(c=st.floats(0.1, 10.0), sign=st.sampled_from([-1.0, 1.0]), seed=st.integers(0, 2**32 - 1))
def test_label_scaling_equivariance_hypothesis(c: float, sign: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((7, 4))
    y = X @ rng.standard_normal(4) + 0.3 * rng.standard_normal(7)
    eta = 0.5
    a = pregd_coefficient(X, sign * c * y, eta / c**2, 5)
    b = sign * c * pregd_coefficient(X, y, eta, 5)
    assert np.allclose(a, b, rtol=EQUIVARIANCE_RTOL, atol=1e-12 * (1 + np.abs(b).max()))


@pytest.mark.result("czz24:eq3.1")
def test_head_importance_metric() -> None:
    W = head_importance([[1.0, 3.0, 0.0], [2.0, 2.0, 4.0]])
    assert np.allclose(W.sum(axis=1), 1.0)
    assert pruning_keep(W).tolist() == [[True, True, True], [False, False, True]]
    with pytest.raises(ValueError, match="sums to 0"):
        head_importance([[0.0, 0.0]])


@pytest.mark.slow
@pytest.mark.thorough
@pytest.mark.result("czz24:heads-alg1")
def test_head_count_lbfgs_fit_on_contexts() -> None:
    """Spec V-R11 (thorough tier only: minutes): L-BFGS fits of h free heads to r̂ ⊙ x."""
    assert_passed(CC.check_heads_alg1_optim_fit(PRESETS["paper"], quick=False))


def test_exported_functions_validate_their_domains() -> None:
    """The functions of theory.czz24 check their arguments where they are defined
    (domains declared once in ``theory/czz24/domains.py``) and name the parameter; the
    exports are those same objects, and ``f.raw`` is the unchecked function for hot loops."""
    import theory.czz24 as czz
    from theory.czz24 import sec4_2_pregd as pregd
    from theory.czz24 import sec4_constructions as constructions
    from theory.czz24 import sec5_bayes as bayes
    from theory.czz24 import sec5_bounds as bounds

    assert czz.rhat is constructions.rhat is pregd.rhat and callable(czz.rhat.raw)
    X, y = np.arange(20.0).reshape(10, 2) % 7 - 3, np.linspace(-1.0, 1.0, 10)
    assert np.array_equal(
        czz.pregd_coefficient(X, y, 0.3, 4), pregd.pregd_coefficient(X, y, 0.3, 4)
    )
    assert isinstance(czz.thm53_rate(n_sym, d_sym, 4, s2_sym), sp.Expr)  # SymPy input passes
    assert (
        czz.bayes_posterior_mean(X, y, 1, 0.25).shape
        == bayes.bayes_posterior_mean(X, y, 1, 0.25).shape
    )
    with pytest.raises(ValueError, match="sigma2 must be .*σ² > 0"):
        czz.bayes_posterior_mean(X, y, 1, 0.0)
    with pytest.raises(ValueError, match="X must be .*finite"):
        czz.pregd_gram(np.where(X > 2, np.nan, X), y)
    with pytest.raises(TypeError, match="n must be .*context length"):
        czz.ols_excess_risk(16, "24", 0.01, 1.0)
    with pytest.raises(ValueError, match="t must be .*GD steps"):
        czz.pregd_iterate(X, y, 0.3, -1)
    with pytest.raises(ValueError, match="shapes do not match"):
        czz.alg1(X, y, np.ones((3, 5)))
    with pytest.raises(ValueError, match="y must have one label per row"):
        czz.rhat(X, y[:5])
    with pytest.raises(ValueError, match="delta must be < d"):
        bounds.thm52_bound(100, 2.0, 0.1, 4.0, 4, 8.0)  # log(d/δ) < 0: no silent NaN
    with pytest.raises(ValueError, match="s .*must be ≤ d"):
        czz.supports(3, 4)


@pytest.mark.result("czz24:fig2c")
def test_phi_symbolic_branch_at_a_generic_point() -> None:
    # the SymPy branch of φ_t(λ) = (1 − (1 − ηλ)^t)/λ at λ ≠ 1, against the float branch
    lam, eta, t = sp.symbols("lam eta t", positive=True)
    expr = phi(lam, eta, t)
    at = {lam: sp.Rational(37, 100), eta: sp.Rational(4, 5), t: 3}
    assert float(expr.subs(at)) == pytest.approx(float(phi(0.37, 0.8, 3)), rel=FLOAT_RTOL)
    assert float(expr.subs(at)) == pytest.approx((1 - (1 - 0.8 * 0.37) ** 3) / 0.37, rel=FLOAT_RTOL)


@pytest.mark.result("czz24:eq3.1")
def test_sorted_importance_and_head_importance_messages() -> None:
    Ws = [[[0.3, 0.7, 0.1], [0.9, 0.05, 0.2]], [[0.5, 0.2, 0.4], [0.1, 0.6, 0.3]]]
    want = [[(0.7 + 0.5) / 2, (0.3 + 0.4) / 2, (0.1 + 0.2) / 2], [0.75, 0.25, 0.075]]
    assert np.allclose(sorted_importance(Ws), want, rtol=FLOAT_RTOL)
    with pytest.raises(ValueError, match=r"^a layer's ΔE sums to 0: Eq. \(3.1\) is undefined"):
        head_importance([[0.0, 0.0], [0.2, 0.1]])
    # a rank-3 table: refused by the export's domain check (a matrix parameter takes one matrix),
    # and by the function's own guard on the unchecked .raw
    with pytest.raises(ValueError, match=r"^delta must be .*got a stack of matrices of shape \("):
        head_importance([[[1.0]]])
    with pytest.raises(ValueError, match=r"^delta must be layers × heads, got shape \(1, 1, 1\)"):
        head_importance.raw([[[1.0]]])


@pytest.mark.result("czz24:prop4.1")
def test_alg1_layer_n_heads_message_and_exact_pregd_model() -> None:
    with pytest.raises(ValueError, match=r"^n_heads must be"):
        alg1_layer(2, 4, n_heads=-1)
    # exact=True builds every layer exactly, Alg. 1's first layer included
    w = pregd_transformer(2, 4, sp.Rational(1, 10), 1, exact=True)
    for layer in w.layers:
        for M in (*layer.WQ, *layer.WK, *layer.WV, layer.W1):
            assert isinstance(M, sp.MatrixBase), type(M)


@pytest.mark.result("czz24:eq3.1")
def test_sorted_importance_of_one_layers_by_heads_table() -> None:
    # App. B's sort for one model given as a layers × heads table (no models axis): rows sorted
    W = [[0.3, 0.7, 0.1], [0.9, 0.05, 0.2]]
    assert sorted_importance(W).tolist() == [[0.7, 0.3, 0.1], [0.9, 0.2, 0.05]]


@pytest.mark.result("czz24:eq4.3")
def test_minnorm_interpolator_takes_an_exact_rational_design() -> None:
    # a context of exact rationals (SymPy or Fraction entries, e.g. from a symbolic check) is
    # converted to float64: the same interpolator as the float design, and it interpolates
    from fractions import Fraction

    Xq = sp.Matrix([[1, 2, 0], [sp.Rational(1, 3), -1, 2]])
    Xf = np.array(Xq.tolist(), dtype=float)
    y, om = np.array([1.0, 2.0]), np.array([0.5, 2.0, 1.5])
    XF = [[Fraction(1), Fraction(2), Fraction(0)], [Fraction(1, 3), Fraction(-1), Fraction(2)]]
    for weights in (None, om):
        want = minnorm_interpolator(Xf, y, weights)
        np.testing.assert_allclose(Xf @ want, y, rtol=FLOAT_RTOL)
        for X in (Xq, XF):
            np.testing.assert_allclose(minnorm_interpolator(X, y, weights), want, rtol=FLOAT_RTOL)


@pytest.mark.result("czz24:prop4.2")
def test_effective_predictor_of_an_exact_model_is_float64_pregd() -> None:
    # an exact model (Props. 4.1 + 4.2 with exact=True, η rational) is evaluated in float64: the
    # same coefficient as pre-GD's closed form (Eq. (4.3)) at a generic context
    rng = np.random.default_rng(4)
    X, y = rng.standard_normal((5, 3)), rng.standard_normal(5)
    w = effective_predictor(pregd_transformer(3, 5, sp.Rational(2, 5), 2, exact=True), X, y)
    assert isinstance(w, np.ndarray) and w.dtype == np.float64 and w.shape == (3,), w
    np.testing.assert_allclose(w, pregd_coefficient(X, y, 0.4, 2), rtol=RESIDUAL_RTOL)


@pytest.mark.result("czz24:fig2c")
def test_phi_symbolic_branch_at_lambda_zero_is_eta_t() -> None:
    # φ_t(0) = ηt (t steps of size η on a flat direction), on the SymPy branch as on the float one
    eta, t = sp.symbols("eta t", positive=True)
    assert phi(sp.S(0), eta, t) == eta * t
    assert phi(sp.S(0), sp.Rational(1, 10), 3) == sp.Rational(3, 10)
    assert float(phi(0.0, 0.1, 3)) == pytest.approx(0.3, rel=FLOAT_RTOL)


@pytest.mark.float
@pytest.mark.result("czz24:thm5.3-lower")
def test_ridge_lambda_zero_rank_is_matrix_ranks_at_any_scale() -> None:
    # λ = 0: α²(d − rank Σ̂)/d + (σ²/n)Tr Σ̂⁺ with Σ̂'s rank as numpy.linalg.matrix_rank counts it
    from fractions import Fraction

    from theory.czz24 import ridge_excess_conditional as risk

    a2, s2 = 1.0, 0.5
    # X = 0: rank 0, no Tr Σ̂⁺ term: the risk is α²
    assert risk(np.zeros((2, 3)), 0.0, s2, a2) == a2
    # the rank does not depend on X's scale: x = c(2, 0) (n = 1, d = 2), Σ̂ = diag(4c², 0)
    for c in (1.0, 1e-20, 1e20):
        want = a2 / 2 + s2 / (4 * c**2)
        assert risk([[2 * c, 0.0]], 0.0, s2, a2) == pytest.approx(want, rel=FLOAT_RTOL), c
    # a singular value 2e-16 of X (below matrix_rank's cut σ_max·max(n, d)·eps) is round-off:
    # rank 1, Σ̂⁺ = diag(2, 0)
    X = np.diag([1.0, 2e-16])
    assert np.linalg.matrix_rank(X) == 1
    assert risk(X, 0.0, s2, a2) == pytest.approx(a2 / 2 + s2 / 2 * 2, rel=FLOAT_RTOL)
    # an exact-rational context (SymPy or Fraction entries) is the float context
    Xq = [[Fraction(1), Fraction(2), Fraction(0)], [Fraction(1, 3), Fraction(-1), Fraction(2)]]
    Xf = np.array(Xq, dtype=float)
    for lam in (0.0, 0.3):
        want = risk(Xf, lam, s2, a2)
        for X_ in (Xq, sp.Matrix(Xq)):
            assert risk(X_, lam, s2, a2) == pytest.approx(want, rel=FLOAT_RTOL), lam


@pytest.mark.result("czz24:sec2")
def test_setting_data_of_a_generic_sigma_needs_its_draw() -> None:
    msg = r"^a generic Σ \(Sigma_diag=None\) needs its drawn diagonal \(\[czz24\] §2\)$"
    with pytest.raises(ValueError, match=msg):
        PRESETS["lemD1"].data()


@pytest.mark.result("czz24:sec2")
def test_setting_validates_its_sigma_diagonal() -> None:
    from theory.czz24.settings import Setting

    for diag, msg in (
        (
            (1.0, -0.5),
            r"^Sigma_diag\[1\] \(Σ_jj\) must be > 0 \(\[czz24\] §2: Σ positive definite\), "
            r"got -0\.5$",
        ),
        (
            (1.0, 2.0, 3.0),
            r"^Sigma_diag \(diagonal of Σ\) must have shape \(2,\) \(\[czz24\] §2\), "
            r"got shape \(3,\)$",
        ),
    ):
        with pytest.raises(ValueError, match=msg):
            Setting(d=2, s=1, Sigma_diag=diag)


@pytest.mark.float
@pytest.mark.result("czz24:lemD.1")
def test_rhat_cov_of_an_exact_rational_task_is_a_float_covariance() -> None:
    # Isserlis' Cov(r̂) with w* given exactly (Fraction or SymPy entries): the float64 covariance
    # of the float task, usable by numpy.linalg
    from fractions import Fraction

    from theory.czz24 import rhat_cov

    S = np.array([[1.0, 0.3, 0.0], [0.3, 2.0, 0.1], [0.0, 0.1, 0.5]])
    wq = [Fraction(1, 2), Fraction(-1, 3), Fraction(0)]
    want = rhat_cov(S, np.array(wq, dtype=float), 0.25, 7)
    for w in (wq, sp.Matrix(wq)):
        got = rhat_cov(S, w, 0.25, 7)
        assert got.dtype == np.float64, got.dtype
        np.testing.assert_allclose(got, want, rtol=FLOAT_RTOL)
        assert np.all(np.linalg.eigvalsh(got) > 0)


@pytest.mark.result("czz24:sec2")
def test_data_model_errors_name_the_value_and_the_assumption() -> None:
    base = {"d": 4, "s": 2, "n": 8, "sigma2": 0.25}
    for change, msg in (
        ({"zeta": -0.1}, r"^zeta \(Σ = D \+ ζ𝟙𝟙ᵀ\) must be ≥ 0 \(\[czz24\] App\. G\), got -0\.1$"),
        ({"s": 0}, r"^s \(sparsity\) must be ≥ 1 \(\[czz24\] §2\), got 0$"),
        ({"n": 0}, r"^n \(context length\) must be ≥ 1 \(\[czz24\] §2\), got 0$"),
        (
            {"prior": "laplace"},
            r"^prior must be one of \('sign', 'gauss'\) \(\[czz24\] §2\), got 'laplace'$",
        ),
    ):
        with pytest.raises(ValueError, match=msg):
            SparseRegressionICL(**{**base, **change})


def test_effective_predictor_inputs_exact_numbers_a_column_and_a_wrong_length() -> None:
    # Decimal entries (an exact reference the domain accepts) and a column y give the float64
    # coefficient of the same context; a y of the wrong length is refused by name
    from decimal import Decimal

    rng = np.random.default_rng(7)
    X, y = rng.standard_normal((5, 3)), rng.standard_normal(5)
    model = pregd_transformer(3, 5, 0.4, 2)
    ref = effective_predictor(model, X, y)
    dec = np.vectorize(lambda v: Decimal(repr(float(v))), otypes=[object])
    for Xi, yi in ((dec(X).tolist(), y), (X, dec(y).tolist()), (X, y[:, None])):
        w = effective_predictor(model, Xi, yi)
        assert w.dtype == np.float64 and w.shape == (3,)
        np.testing.assert_allclose(w, ref, rtol=ROUTES_RTOL, atol=ROUTES_ATOL)
    with pytest.raises(ValueError) as err:
        effective_predictor(model, X, y[:4])
    assert str(err.value) == "y must have n = 5 entries, got 4"


def test_rhat_cov_of_decimal_entries_is_the_float_covariance() -> None:
    from decimal import Decimal

    from theory.czz24 import rhat_cov

    S = np.array([[1.0, 0.3], [0.3, 0.7]])
    w = np.array([0.8, -1.1])
    Sd = [[Decimal(repr(float(v))) for v in row] for row in S]
    got = rhat_cov(Sd, w, 0.2, 9)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, rhat_cov(S, w, 0.2, 9), rtol=ROUTES_RTOL)


def test_lemD2_sample_size_at_a_generic_point() -> None:
    # n ≳ C s log(d/δ)/β² ([czz24] App. D, Lemma D.2) at log(d/δ) = log 20 ≠ 1 and β = 0.3:
    # the sample size grows with the log (not 1/log) and with 1/β² (not 2/β), by hand
    from theory.czz24 import lemD2_sample_size

    got = lemD2_sample_size(3, 10, 0.5, 0.3)
    assert got == pytest.approx(3 * math.log(20) / 0.09, rel=FLOAT_RTOL)
    assert lemD2_sample_size(3, 10, 0.5, 0.3, C=2.5) == pytest.approx(2.5 * got, rel=FLOAT_RTOL)
