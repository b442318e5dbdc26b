"""hpcy25 closed forms: public API, identities (EXACT), float twins, spec values, properties."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import example, given
from hypothesis import strategies as st

import theory.hpcy25 as th
from numerics.testing import FLOAT_RTOL, ROUTES_ATOL, assert_passed, float_agreement
from theory.hpcy25.settings import HpcySetting
from theory.strategies import hpcy25_settings

#: the slice's formula vs the foundation's general form of the same quantity (float64, different
#: algebra)
SLICE_TWIN_RTOL = 1e-10
#: absolute floor of the float-vs-50-digit comparison where R_D crosses 0
MPMATH_ATOL = 1e-15
#: float64 Ltilde (exp of d omega omega^T, sums over heads) vs 50 digits
LTILDE_50_DIGIT_RTOL = 1e-11
#: absolute floor where Ltilde is near 0
LTILDE_50_DIGIT_ATOL = 1e-13

pytestmark = pytest.mark.symbolic


# ------------------------------------------------------------------------- public API
@pytest.mark.result("hpcy25:eqD.29")
def test_dgd_risk_public_api_numbers_and_symbols() -> None:
    """Floats in → float out; SymPy in → expression (the shared public API)."""
    v = th.dgd_risk(0.897, 5, 40, 0.1)
    assert isinstance(float(v), float)
    e, d, L, s2 = sp.symbols("eta d L sigma2", positive=True)
    expr = th.dgd_risk(e, d, L, s2)
    assert isinstance(expr, sp.Expr)
    at = float(expr.subs({e: sp.Float(0.897, 30), d: 5, L: 40, s2: sp.Float(0.1, 30)}))
    assert abs(at - v) < 1e-14
    # spec R9 MC-verified values (printed to 5 digits)
    assert abs(th.dgd_risk(0.897, 5, 100, 0.1) - 0.16431) < 5e-6
    assert abs(th.gd_risk(0.897, 5, 100, 0.1) - 0.16291) < 5e-6


@pytest.mark.result("hpcy25:thm4.2iii")
def test_bayes_risk_limit_public_api() -> None:
    assert abs(th.bayes_risk_limit(0.125, 0.1) - 0.114057) < 5e-7  # spec R9
    x, s2 = sp.symbols("xi sigma2", positive=True)
    expr = th.bayes_risk_limit(x, s2)
    assert isinstance(expr, sp.Expr)
    # σ² → 0 limit: max(0, 1 - 1/ξ) (ξ = 2 → 1/2)
    assert sp.limit(expr.subs(x, 2), s2, 0) == sp.Rational(1, 2)


@pytest.mark.result("hpcy25:thm4.2iii")
@pytest.mark.parametrize("xi", [0.5, sp.Symbol("xi", positive=True)], ids=["number", "symbol"])
def test_bayes_risk_limit_rejects_zero_noise_and_names_the_limit(xi: object) -> None:
    """One check of σ² > 0 for numbers and SymPy alike; its message says what σ² = 0 means."""
    with pytest.raises(ValueError, match=r"sigma2 must be .*σ² → 0⁺: max\(0, 1 − 1/ξ\).*got 0$"):
        th.bayes_risk_limit(xi, 0)


#: σ² at which R_B∞ is compared with its σ² → 0⁺ limit; away from ξ = 1 the gap is O(σ²)
NEAR_ZERO_NOISE = 1e-10


@pytest.mark.result("hpcy25:thm4.2iii")
@pytest.mark.parametrize("xi", [0.4, 1.7, 3.0])
def test_bayes_risk_limit_approaches_the_noiseless_limit(xi: float) -> None:
    """The limit the σ² = 0 message names: R_B∞ → max(0, 1 − 1/ξ) as σ² → 0⁺."""
    got = th.bayes_risk_limit(xi, NEAR_ZERO_NOISE)
    assert abs(got - max(0.0, 1.0 - 1.0 / xi)) < 100 * NEAR_ZERO_NOISE


@pytest.mark.result("hpcy25:eqD.29")
@pytest.mark.parametrize("bad", [{"d": 0}, {"L": -1}, {"sigma2": -0.1}, {"d": float("nan")}])
def test_bad_input_raises_valueerror_naming_symbol(bad: dict) -> None:
    kw = {"eta": 0.5, "d": 5, "L": 40, "sigma2": 0.1, **bad}
    name = next(iter(bad))
    with pytest.raises(ValueError, match=name):
        th.dgd_risk(**kw)


@pytest.mark.result("hpcy25:thm4.2iii")
def test_bayes_limit_bad_xi() -> None:
    with pytest.raises(ValueError, match="xi"):
        th.bayes_risk_limit(0.0, 0.1)
    with pytest.raises(ValueError, match="sigma2"):
        th.bayes_risk_limit(0.1, -1.0)


@pytest.mark.result("hpcy25:eqD.29")
def test_dgd_risk_agrees_with_foundation_general_form() -> None:
    """Cross-check: the isotropic R_D equals theory.common.baselines.dgd_risk at P = I,
    β ~ N(0, I/d)."""
    base = pytest.importorskip("theory.common.baselines")
    for d, L, eta in ((5, 40, 0.897), (3, 10, 0.5), (20, 100, 1.2)):
        gen = base.dgd_risk(np.eye(d), eta, np.eye(d), np.eye(d) / d, 0.1, L)
        assert_passed(
            float_agreement(
                f"R_D isotropic vs general at d={d}, L={L}",
                th.dgd_risk(eta, d, L, 0.1),
                float(gen),
                rtol=SLICE_TWIN_RTOL,
            )
        )


@pytest.mark.result("hpcy25:thm4.2iii")
def test_bayes_limit_agrees_with_foundation_mp_form() -> None:
    base = pytest.importorskip("theory.common.baselines")
    for xi, s2 in ((0.125, 0.1), (0.2, 3.0), (2.0, 0.5)):
        assert_passed(
            float_agreement(
                f"R_B∞ vs MP form at xi={xi}",
                th.bayes_risk_limit(xi, s2),
                float(base.bayes_risk_limit_mp(xi, s2)),
                rtol=SLICE_TWIN_RTOL,
            )
        )


# ---------------------------------------------------------------- float twins vs mpmath
@pytest.mark.float
@pytest.mark.result("hpcy25:eqD.29")
@given(e=st.floats(-2, 2), d=st.integers(1, 6), L=st.integers(2, 64), s2=st.floats(0, 4))
@example(e=0.897, d=5, L=40, s2=0.1)
def test_dgd_risk_float_vs_mpmath(e: float, d: int, L: int, s2: float) -> None:
    with mpmath.workdps(50):
        ref = th.dgd_risk(sp.Float(e, 50), d, L, sp.Float(s2, 50))
    assert_passed(
        float_agreement(
            "R_D float vs 50 digits",
            th.dgd_risk(e, d, L, s2),
            float(sp.N(ref, 50)),
            rtol=FLOAT_RTOL,
            atol=MPMATH_ATOL,
        )
    )


@pytest.mark.float
@pytest.mark.result("hpcy25:prop4.1")
@given(hpcy25_settings())
@example(HpcySetting(d=5, L=40, sigma2=0.1, omega=(0.13, -0.13), mu=(3.45, -3.45)))
def test_ltilde_float_vs_symbolic(s: HpcySetting) -> None:
    sym = th.ltilde(
        [sp.Float(v, 50) for v in s.omega],
        [sp.Float(v, 50) for v in s.mu],
        s.d,
        s.L,
        sp.Float(s.sigma2, 50),
    )
    assert_passed(
        float_agreement(
            "Ltilde float vs 50 digits",
            th.ltilde(s.omega, s.mu, s.d, s.L, s.sigma2),
            float(sp.N(sym, 50)),
            rtol=LTILDE_50_DIGIT_RTOL,
            atol=LTILDE_50_DIGIT_ATOL,
        )
    )


@pytest.mark.result("hpcy25:eq4.5")
@given(hpcy25_settings(small_omega=False))
@example(HpcySetting(d=5, L=40, sigma2=0.1, omega=(0.13, -0.13), mu=(3.45, -3.45)))
def test_lower_bound_property(s: HpcySetting) -> None:
    """(4.5) holds for every sign-matched configuration drawn (μ_h ↦ sign(ω_h)|μ_h|)."""
    w = np.array(s.omega)
    m = np.sign(w) * np.abs(s.mu)
    if np.abs(m).sum() < 1e-100:  # the bound is 0/0 at mu = 0 (x = d s²/‖μ‖₁² underflows)
        return
    lt = th.ltilde(list(w), list(m), s.d, s.L, s.sigma2)
    lb = th.lower_bound_45(w @ m, np.abs(m).sum(), s.d, s.L, s.sigma2)
    assert lt >= lb - 1e-9 * max(1.0, abs(lt))


@pytest.mark.result("hpcy25:prop4.1")
@given(hpcy25_settings())
def test_ltilde_gradient_numeric_matches_finite_differences(s: HpcySetting) -> None:
    w, m = np.array(s.omega), np.array(s.mu)
    g_w, g_m = th.ltilde_grad(w, m, s.d, s.L, s.sigma2)
    h = 1e-6
    for i in range(len(w)):
        e = np.zeros(len(w))
        e[i] = h
        fd_w = (
            th.ltilde(list(w + e), list(m), s.d, s.L, s.sigma2)
            - th.ltilde(list(w - e), list(m), s.d, s.L, s.sigma2)
        ) / (2 * h)
        fd_m = (
            th.ltilde(list(w), list(m + e), s.d, s.L, s.sigma2)
            - th.ltilde(list(w), list(m - e), s.d, s.L, s.sigma2)
        ) / (2 * h)
        scale = 1 + abs(fd_w) + abs(fd_m)
        assert abs(fd_w - g_w[i]) < 1e-5 * scale and abs(fd_m - g_m[i]) < 1e-5 * scale


# ------------------------------------------------------- formula-level controls, structure


@pytest.mark.result("hpcy25:prop4.1")
def test_ltilde_without_factor_d_is_a_different_function() -> None:
    """Negative control at the formula level: exp(ωωᵀ) without d changes L̃ off ω = 0."""
    a = th.ltilde([0.2, -0.2], [3.0, -3.0], 5, 40, 0.1)
    b = th.ltilde([0.2, -0.2], [3.0, -3.0], 5, 40, 0.1, kernel_scale=1)
    assert abs(a - b) > 0.1


@pytest.mark.result("hpcy25:appB")
def test_reduced_flow_limits() -> None:
    """Structural: the flow vanishes at the origin; at c_L = 0 (L → ∞) the imbalance is
    conserved."""
    w, m, d, s = sp.symbols("omega mu d s", positive=True)
    L = sp.Symbol("L", positive=True)
    rate = th.imbalance_rate(w, m, d, L, sp.Rational(1, 10), s)
    assert sp.limit(rate, L, sp.oo) == 0
    assert th.reduced_rhs(0.0, 0.0, 5, 40, 0.1) == (0.0, 0.0)


def test_package_reexports_exactly_the_section_apis() -> None:
    """``theory.hpcy25.__all__`` is derived from the section modules' ``__all__``; the
    explicit imports of ``__init__`` must name exactly those (no stale or missing re-export)."""
    import ast
    import importlib
    from pathlib import Path

    tree = ast.parse(Path(th.__file__).read_text(encoding="utf-8"))
    imported: dict[str, set[str]] = {}
    for node in tree.body:
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.startswith("theory.hpcy25.")
        ):
            public = {a.name for a in node.names if not (a.asname or a.name).startswith("_")}
            if public:
                imported.setdefault(node.module, set()).update(public)
    sections = {m: set(importlib.import_module(m).__all__) for m in imported}
    for m in imported:
        assert imported[m] == sections[m], (m, imported[m] ^ sections[m])
    names = set().union(*sections.values())
    assert sorted(th.__all__) == sorted(names | {"NOTATION", "SECTIONS"})
    assert len(th.__all__) == len(set(th.__all__))


@pytest.mark.result("hpcy25:prop4.1")
def test_validation_messages_name_the_value_and_the_assumption() -> None:
    th.check_dLs(5, 40, 0.0)  # d, L > 0 and σ² ≥ 0 pass
    for args, msg in (
        ((0, 40, 0.1), r"d_ must be a dimension d > 0 \(hpcy25 §1.1\) \(hpcy25\), got 0"),
        ((5, 0, 0.1), r"L_ must be a prompt length L > 0 \(hpcy25 §1.1\) \(hpcy25\), got 0"),
        ((5, 40, -0.1), r"sigma2_ must be a noise variance σ² ≥ 0 \(hpcy25 §1.1\)"),
    ):
        with pytest.raises(ValueError, match=msg):
            th.check_dLs(*args)
    with pytest.raises(ValueError, match=r"omega must be > 0 \(NW bandwidth needs ω > 0\), got -1"):
        th.nw_bandwidth(-1.0)
    with pytest.raises(
        ValueError,
        match=r"omega and mu must have the same length H ≥ 1 \(hpcy25 \(3.1\)\), got 1 and 2",
    ):
        HpcySetting(d=5, L=40, sigma2=0.1, omega=(0.1,), mu=(1.0, 2.0))
    with pytest.raises(
        ValueError, match=r"sigma2 must be ≥ 0 \(hpcy25 §1.1: noise variance σ² ≥ 0\), got -0.1"
    ):
        HpcySetting(d=5, L=40, sigma2=-0.1, omega=(0.1,), mu=(1.0,))


@pytest.mark.result("hpcy25:prop4.1")
def test_ltilde_one_symbol_among_numbers_takes_the_symbolic_branch() -> None:
    # d alone symbolic (then L, then σ²): an expression, equal to the numeric value where it is put
    om, mu = [0.1, -0.2], [1.0, 0.5]
    args = {"d": 5, "L": 40, "sigma2": 0.1}
    want = th.ltilde(om, mu, **args)
    for name in args:
        sym = sp.Symbol(name, positive=True)
        expr = th.ltilde(om, mu, **{**args, name: sym})
        assert isinstance(expr, sp.Expr) and sym in expr.free_symbols, name
        assert float(sp.lambdify(sym, expr)(args[name])) == pytest.approx(want, rel=FLOAT_RTOL), (
            name
        )


# ------------------------------------------- §5.3 and (D.34) at a generic point, both branches
#: a generic point of §5.3: KMS Σ with ρ = 2/5 (eigenvalues far from 1), a non-symmetric Γ,
#: L = 7, σ² = 3/10 (exact rationals, so the SymPy routes compare exactly)
_D3, _L7, _S2_310 = 3, 7, sp.Rational(3, 10)
_SIGMA_KMS = sp.Matrix(3, 3, lambda i, j: sp.Rational(2, 5) ** abs(i - j))
_GAMMA_GENERIC = sp.Matrix([[5, 2, -1], [3, 6, 1], [-2, 1, 4]]) / 8


def _shared_gd_risk(G: sp.Matrix, S: sp.Matrix, L: object, s2: object) -> sp.Expr:
    """The shared layer's one-step GD risk (derived for zwb24, general Σ, Ψ) at hpcy25's prior
    ``β ~ N(0, I/d)``: the independent route for Lemma E.4's ``R(Γ)``."""
    from theory.common import baselines

    d = S.shape[0]
    return baselines.gd_risk(G, S, sp.zeros(d, 1), sp.eye(d) / d, s2, L)


@pytest.mark.result("hpcy25:eq5.6")
def test_precond_gd_risk_is_the_shared_gd_risk_at_a_generic_point_in_both_branches() -> None:
    """Lemma E.4's ``R(Γ)`` at a generic (Σ, Γ, L, σ²) equals the shared layer's GD risk at
    ``Ψ = I/d``: exactly through SymPy (a SymPy Γ, a SymPy Σ, ``L`` or ``σ²`` alone symbolic),
    to float64 through numpy; the debiased ``R_D(P)`` likewise equals the shared ``dgd_risk``."""
    from theory.common import baselines

    S, G, L, s2 = _SIGMA_KMS, _GAMMA_GENERIC, _L7, _S2_310
    Gn = np.array(G, dtype=float)
    Ls, ss = sp.symbols("L sigma2", positive=True)
    # the debiased twin: DGD with step η = 1 and the (non-symmetric) query preconditioner P = Γ
    ref_d = baselines.dgd_risk(G, 1, S, sp.eye(_D3) / _D3, s2, L)
    for risk, ref in (
        (th.precond_gd_risk, _shared_gd_risk(G, S, L, s2)),
        (th.precond_dgd_risk, ref_d),
    ):
        for got in (
            risk(G, S, L, s2),
            risk(Gn, S, L, s2),  # Σ alone SymPy
            risk(G, np.array(S, dtype=float), L, s2),  # Γ alone SymPy
            risk(Gn, S, Ls, s2).subs(Ls, L),  # L symbolic
            risk(Gn, S, L, ss).subs(ss, s2),  # σ² symbolic
        ):
            assert isinstance(got, sp.Expr)
            assert float(got) == pytest.approx(float(ref), rel=1e-12), risk.__name__
        assert sp.simplify(risk(G, S, L, s2) - ref) == 0, risk.__name__
        num = risk(Gn, np.array(S, dtype=float), L, float(s2))
        assert num == pytest.approx(float(ref), rel=1e-12), risk.__name__
    # Γ's transpose is another risk at this point (the non-symmetric Γ is generic)
    assert abs(float(_shared_gd_risk(G.T, S, L, s2) - _shared_gd_risk(G, S, L, s2))) > 1e-4
    assert abs(float(baselines.dgd_risk(G.T, 1, S, sp.eye(_D3) / _D3, s2, L) - ref_d)) > 1e-4


@pytest.mark.result("hpcy25:eq5.6")
def test_gamma_star_and_pd_star_zero_the_shared_risks_gradient_at_a_generic_point() -> None:
    """(5.6)'s ``Γ* = M^{-1}`` and the debiased ``P_D*`` are the stationary points of the shared
    layer's GD / DGD risks at the generic KMS point (the risks are quadratic in the matrix, so the
    central difference ``R(G + E_ij) − R(G − E_ij)`` is exactly twice the gradient's entry),
    whichever argument is SymPy; the numpy branch gives the same matrix, for float, int and
    Fraction entries (the domain's high-precision references) alike."""
    from fractions import Fraction

    from theory.common import baselines

    S, L, s2 = _SIGMA_KMS, _L7, _S2_310
    Ls, ss = sp.symbols("L sigma2", positive=True)
    Sn = np.array(S, dtype=float)
    for opt, risk in (
        (th.gamma_star, lambda G: _shared_gd_risk(G, S, L, s2)),
        (th.pd_star, lambda G: baselines.dgd_risk(G, 1, S, sp.eye(_D3) / _D3, s2, L)),
    ):
        G = opt(S, L, s2)
        assert isinstance(G, sp.MatrixBase)
        for i in range(_D3):
            for j in range(_D3):
                E = sp.zeros(_D3, _D3)
                E[i, j] = 1
                assert risk(G + E) - risk(G - E) == 0, (opt.__name__, i, j)
        Gf = np.array(G, dtype=float)
        for sym in (opt(Sn, Ls, s2).subs(Ls, L), opt(Sn, L, ss).subs(ss, s2)):
            assert isinstance(sym, sp.MatrixBase)
            np.testing.assert_allclose(
                np.array(sym, dtype=float), Gf, rtol=FLOAT_RTOL, atol=ROUTES_ATOL
            )
        frac = [[Fraction(2, 5) ** abs(i - j) for j in range(3)] for i in range(3)]
        for Sigma in (Sn, frac):
            got = opt(Sigma, L, float(s2))
            assert got.dtype == np.float64
            np.testing.assert_allclose(got, Gf, rtol=FLOAT_RTOL, atol=ROUTES_ATOL)
    np.testing.assert_array_equal(
        th.gamma_star(np.eye(3, dtype=int), 7, 0.3), th.gamma_star(np.eye(3), 7, 0.3)
    )


@pytest.mark.result("hpcy25:thm4.2iii")
def test_bayes_risk_given_design_at_a_generic_design_in_both_branches() -> None:
    """(D.34) ``σ² + σ² tr[(XᵀX + dσ² I)^{-1}]`` (written out here) at a generic 5×3 design:
    exact through SymPy (a SymPy X, or σ² alone symbolic) and to float64 through numpy; the
    prior ``I/d`` matters (``I`` gives ``σ² + σ² tr[(XᵀX + σ² I)^{-1}]``, another value)."""
    X = sp.Matrix([[3, -1, 2], [0, 4, -3], [1, 1, 5], [-2, 3, 0], [4, -2, 1]]) / 3
    s2 = _S2_310
    d = X.shape[1]
    ref = s2 + s2 * ((X.T * X + d * s2 * sp.eye(d)).inv()).trace()
    assert sp.simplify(th.bayes_risk_given_design(X, s2) - ref) == 0
    ss = sp.Symbol("sigma2", positive=True)
    Xn = np.array(X, dtype=float)
    assert sp.simplify(th.bayes_risk_given_design(Xn, ss).subs(ss, s2) - ref) == 0
    assert th.bayes_risk_given_design(Xn, float(s2)) == pytest.approx(float(ref), rel=1e-12)
    wrong_prior = s2 + s2 * ((X.T * X + s2 * sp.eye(d)).inv()).trace()
    assert abs(float(ref - wrong_prior)) > 1e-3
    with pytest.raises(ValueError, match=r"X must be one \(L, d\) design when σ² is symbolic"):
        th.bayes_risk_given_design(np.stack([Xn, Xn]), ss)


@pytest.mark.result("hpcy25:prop4.1")
def test_check_dLs_body_names_the_value_and_the_assumption() -> None:
    """``check_dLs.raw`` (the unchecked function, for hot loops) still validates, by its own
    messages."""
    for args, msg in (
        ((0, 40, 0.1), r"^d must be > 0 \(hpcy25 §1.1: dimension d > 0\), got 0$"),
        ((5, 0, 0.1), r"^L must be > 0 \(hpcy25 §1.1: prompt length L > 0\), got 0$"),
        ((5, 40, -0.1), r"^sigma2 must be ≥ 0 \(hpcy25 §1.1: noise variance σ² ≥ 0\), got -0.1$"),
    ):
        with pytest.raises(ValueError, match=msg):
            th.check_dLs.raw(*args)


@pytest.mark.result("hpcy25:eq5.6")
@pytest.mark.parametrize("name", ["gamma_star", "pd_star", "precond_gd_risk", "precond_dgd_risk"])
def test_section5_formulas_take_the_symbolic_branch_for_each_argument_alone(name: str) -> None:
    """(5.6)'s ``Γ*``, ``P_D*``, ``R(Γ)`` and ``R_D(P)``: each argument alone SymPy (a SymPy
    matrix, or a Symbol for ``L`` / ``σ²`` substituted afterwards), every other one a plain
    number or a float64 array, gives a SymPy result equal to the numeric one at the generic KMS
    point (the backend dispatch must read every argument: with the others SymPy numbers, as in
    the tests above, a dispatch that skips one cannot be told apart)."""
    f = getattr(th, name)
    Sn, Gn = np.array(_SIGMA_KMS, dtype=float), np.array(_GAMMA_GENERIC, dtype=float)
    L, s2 = 7, 0.3
    Ls, ss = sp.symbols("L sigma2", positive=True)
    lead = () if name in ("gamma_star", "pd_star") else (Gn,)
    ref = np.asarray(f(*lead, Sn, L, s2), dtype=float)
    calls = [(*lead, _SIGMA_KMS, L, s2), (*lead, Sn, Ls, s2), (*lead, Sn, L, ss)]
    if lead:
        calls.append((_GAMMA_GENERIC, Sn, L, s2))
    for args in calls:
        out = f(*args)
        assert isinstance(out, (sp.Basic, sp.MatrixBase)), (name, [type(a).__name__ for a in args])
        out = out.subs({Ls: L, ss: s2})
        np.testing.assert_allclose(
            np.array(out, dtype=float), ref, rtol=FLOAT_RTOL, atol=ROUTES_ATOL
        )


@pytest.mark.result("hpcy25:eq5.6")
@pytest.mark.parametrize("kind", ["Fraction", "Decimal"])
def test_section5_risks_of_exact_numbers_are_the_float_values(kind: str) -> None:
    """``R(Γ)`` and ``R_D(P)`` of Fraction or Decimal entries (exact references the domains
    accept) are the float64 values of the same matrices (an object array would carry them into
    the algebra: a Decimal times a float raises)."""
    from decimal import Decimal
    from fractions import Fraction

    def exact(q: sp.Rational) -> Fraction | Decimal:
        fr = Fraction(int(q.p), int(q.q))
        return fr if kind == "Fraction" else Decimal(fr.numerator) / Decimal(fr.denominator)

    Sx = [[exact(_SIGMA_KMS[i, j]) for j in range(3)] for i in range(3)]
    Gx = [[exact(_GAMMA_GENERIC[i, j]) for j in range(3)] for i in range(3)]
    Sn, Gn = np.array(_SIGMA_KMS, dtype=float), np.array(_GAMMA_GENERIC, dtype=float)
    for f in (th.precond_gd_risk, th.precond_dgd_risk):
        for G, S in ((Gx, Sn), (Gn, Sx), (Gx, Sx)):
            got = f(G, S, 7, 0.3)
            assert type(got) is float, (f.__name__, type(got))
            assert got == pytest.approx(f(Gn, Sn, 7, 0.3), rel=1e-14), f.__name__


@pytest.mark.result("hpcy25:thm4.2iii")
def test_bayes_risk_given_design_of_a_symbolic_design_beside_a_float_noise() -> None:
    """(D.34) with a SymPy design beside a plain float σ² is a SymPy number equal to the numeric
    value (the dispatch reads X, not only σ²)."""
    X = sp.Matrix([[3, -1, 2], [0, 4, -3], [1, 1, 5], [-2, 3, 0], [4, -2, 1]]) / 3
    out = th.bayes_risk_given_design(X, 0.3)
    assert isinstance(out, sp.Basic)
    assert float(out) == pytest.approx(
        th.bayes_risk_given_design(np.array(X, dtype=float), 0.3), rel=1e-12
    )


@pytest.mark.result("hpcy25:thm4.2iii")
def test_bayes_risk_given_design_refuses_a_stack_with_a_symbolic_noise() -> None:
    """A stack of designs with a symbolic σ² is refused, naming its shape (one design only)."""
    Xn = np.arange(15.0).reshape(5, 3) % 4 - 1.5
    with pytest.raises(ValueError) as err:
        th.bayes_risk_given_design(np.stack([Xn, Xn]), sp.Symbol("s", positive=True))
    assert str(err.value) == "X must be one (L, d) design when σ² is symbolic, got shape (2, 5, 3)"
