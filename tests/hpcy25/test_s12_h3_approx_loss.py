"""hpcy25 §4.1 approximate loss: head-count checks, symbolic dispatch per argument, exact entries,
silent overflow, gradient branches and the truncated power series at a generic point."""

from __future__ import annotations

import warnings
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
import sympy as sp

import theory.hpcy25 as th
from numerics.testing import FLOAT_RTOL, ROUTES_RTOL, SYMBOLIC_ATOL, SYMBOLIC_RTOL

pytestmark = pytest.mark.symbolic

#: a generic point of two heads (unequal |ω_h|, Σμ ≠ 0) and of (d, L, σ²)
_OM, _MU = [0.1, -0.2], [1.0, 0.5]
_ARGS = {"d": 5, "L": 40, "sigma2": 0.1}


def _ltilde_by_hand(om: list, mu: list, d: Any, L: Any, s2: Any, ks: Any = None) -> Any:
    """Prop. 4.1 written out here as the double sum over heads (independent of the module)."""
    ks = d if ks is None else ks
    cL = (1 + s2) / L
    H = len(om)
    lin = sum(mu[h] * om[h] for h in range(H))
    quad = sum(
        mu[h] * mu[g] * (om[h] * om[g] + cL * sp.exp(ks * om[h] * om[g]))
        for h in range(H)
        for g in range(H)
    )
    return 1 + s2 - 2 * lin + quad


@pytest.mark.result("hpcy25:prop4.1")
@pytest.mark.parametrize(
    ("om", "mu", "got"), [([], [], "0 and 0"), ([0.1], [1.0, 2.0], "1 and 2")], ids=["empty", "1v2"]
)
def test_s12_ltilde_refuses_empty_or_unequal_heads_naming_both_lengths(
    om: list, mu: list, got: str
) -> None:
    with pytest.raises(
        ValueError,
        match=rf"^omega and mu must have the same length H ≥ 1 \(hpcy25 \(3.1\)\), got {got}$",
    ):
        th.ltilde(om, mu, **_ARGS)


@pytest.mark.result("hpcy25:prop4.1")
def test_s12_ltilde_expr_refuses_unequal_head_counts() -> None:
    """The builder pairs ω_h with μ_h: one ω for two μ is refused, not truncated to one head."""
    m1, m2, w = sp.symbols("m1 m2 w", real=True)
    with pytest.raises(ValueError, match="zip"):
        th.ltilde_expr((w,), (m1, m2), 5, 40, sp.Rational(1, 10))


@pytest.mark.result("hpcy25:prop4.1")
@pytest.mark.parametrize("which", ["omega", "mu"])
def test_s12_ltilde_omega_or_mu_alone_symbolic_gives_the_expression(which: str) -> None:
    x = sp.Symbol("x", real=True)
    om: list[Any] = list(_OM)
    mu: list[Any] = list(_MU)
    (om if which == "omega" else mu)[0] = x
    expr = th.ltilde(om, mu, **_ARGS)
    assert isinstance(expr, sp.Expr) and expr.free_symbols == {x}
    at = 0.3  # a generic value of the symbol
    om_n = [at if v is x else v for v in om]
    mu_n = [at if v is x else v for v in mu]
    want = float(_ltilde_by_hand(om_n, mu_n, 5, 40, 0.1))
    assert float(expr.subs(x, at)) == pytest.approx(want, rel=FLOAT_RTOL)


@pytest.mark.result("hpcy25:prop4.1")
def test_s12_ltilde_symbolic_kernel_scale_is_used_in_the_exponent() -> None:
    """kernel_scale alone symbolic: an expression in k, equal at k = 1 to the hand formula with
    factor 1 (which differs from the paper's factor d = 5 there)."""
    k = sp.Symbol("k", positive=True)
    om, mu = [0.2, -0.2], [3.0, -3.0]
    expr = th.ltilde(om, mu, **_ARGS, kernel_scale=k)
    assert isinstance(expr, sp.Expr) and expr.free_symbols == {k}
    want = float(_ltilde_by_hand(om, mu, 5, 40, 0.1, ks=1))
    paper = float(_ltilde_by_hand(om, mu, 5, 40, 0.1))
    assert abs(want - paper) > 0.1
    assert float(expr.subs(k, 1)) == pytest.approx(want, rel=FLOAT_RTOL)
    # and the symbolic ltilde of a symbolic omega with a numeric kernel_scale uses it too
    w = sp.Symbol("w", real=True)
    e2 = th.ltilde([w, -0.2], mu, **_ARGS, kernel_scale=1)
    assert float(e2.subs(w, 0.2)) == pytest.approx(want, rel=FLOAT_RTOL)


@pytest.mark.result("hpcy25:prop4.1")
def test_s12_ltilde_of_exact_fraction_entries_is_the_float_value() -> None:
    om = [Fraction(1, 10), Fraction(-1, 5)]
    mu = [Fraction(1), Fraction(1, 2)]
    got = th.ltilde(om, mu, 5, 40, Fraction(1, 10))
    exact = _ltilde_by_hand(
        [sp.Rational(v) for v in om], [sp.Rational(v) for v in mu], 5, 40, sp.Rational(1, 10)
    )
    assert isinstance(got, float)
    assert got == pytest.approx(float(sp.N(exact, 30)), rel=FLOAT_RTOL)
    grid = th.ltilde_fn(
        [np.full(3, v) for v in om], [np.full(3, v) for v in mu], 5, 40, Fraction(1, 10)
    )
    assert grid.dtype == np.float64 and grid.shape == (3,)
    np.testing.assert_allclose(grid, float(sp.N(exact, 30)), rtol=FLOAT_RTOL)


@pytest.mark.result("hpcy25:prop4.1")
def test_s12_ltilde_of_decimal_entries_is_the_float_value() -> None:
    """Decimal ω and μ entries (d, L, σ² plain numbers): the float value of the exact formula,
    on a scalar point and on a grid."""
    om = [Decimal("0.1"), Decimal("-0.2")]
    mu = [Decimal("1"), Decimal("0.5")]
    exact = _ltilde_by_hand(
        [sp.Rational(str(v)) for v in om], [sp.Rational(str(v)) for v in mu], 5, 40, 0.1
    )
    want = float(sp.N(exact, 30))
    got = th.ltilde(om, mu, 5, 40, 0.1)
    assert isinstance(got, float) and got == pytest.approx(want, rel=FLOAT_RTOL)
    grid = th.ltilde_fn(
        [np.full(3, v, dtype=object) for v in om],
        [np.full(3, v, dtype=object) for v in mu],
        5,
        40,
        0.1,
    )
    assert grid.dtype == np.float64 and grid.shape == (3,)
    np.testing.assert_allclose(grid, want, rtol=FLOAT_RTOL)


@pytest.mark.result("hpcy25:prop4.1")
def test_s12_ltilde_overflow_of_the_exponential_is_silent() -> None:
    """Far outside the small-ω regime exp(d ω_h ω_h') overflows: +inf, without a warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = th.ltilde([30.0, 30.0], [1.0, 1.0], **_ARGS)
    assert got == np.inf


@pytest.mark.result("hpcy25:prop4.1")
def test_s12_ltilde_grad_numeric_branch_returns_float_arrays() -> None:
    g_om, g_mu = th.ltilde_grad(np.array(_OM), np.array(_MU), **_ARGS)
    for g in (g_om, g_mu):
        assert isinstance(g, np.ndarray) and g.dtype == np.float64 and g.shape == (2,)


@pytest.mark.result("hpcy25:prop4.1")
@pytest.mark.parametrize("which", ["omega", "mu", "d", "L", "sigma2"])
def test_s12_ltilde_grad_one_symbolic_argument_gives_sympy_gradients(which: str) -> None:
    """Each argument alone symbolic (the rest numbers): SymPy gradients, equal to ``sp.diff`` of
    the hand formula at the same point (independent route)."""
    w1, w2, m1, m2 = sp.symbols("w1 w2 m1 m2", real=True)
    x = sp.Symbol("x", positive=True)
    vals = {"omega": list(_OM), "mu": list(_MU), **_ARGS}
    if which in ("omega", "mu"):
        vals[which][0] = x
    else:
        vals[which] = x
    g_om, g_mu = th.ltilde_grad(vals["omega"], vals["mu"], vals["d"], vals["L"], vals["sigma2"])
    assert all(isinstance(e, sp.Expr) and x in e.free_symbols for e in (*g_om, *g_mu))
    F = _ltilde_by_hand([w1, w2], [m1, m2], vals["d"], vals["L"], vals["sigma2"])
    at = {w1: vals["omega"][0], w2: vals["omega"][1], m1: vals["mu"][0], m2: vals["mu"][1]}
    x_at = 0.3 if which in ("omega", "mu") else {"d": 5, "L": 40, "sigma2": 0.1}[which] * 1.7
    for got, v in ((g_om, (w1, w2)), (g_mu, (m1, m2))):
        for i in range(2):
            want = float(sp.diff(F, v[i]).subs(at).subs(x, x_at))
            assert float(got[i].subs(x, x_at)) == pytest.approx(
                want, rel=SYMBOLIC_RTOL, abs=SYMBOLIC_ATOL
            )


def _series_by_hand(om: list, mu: list, d: Any, L: Any, s2: Any, K: int) -> Any:
    """L̃ with each exp(d ω_h ω_h') replaced by its Taylor polynomial of degree K (the double
    sum over heads; exact for Rational input)."""
    t = sp.Symbol("t")
    poly = sp.series(sp.exp(t), t, 0, K + 1).removeO()
    cL = sp.Rational(1) * (1 + s2) / L
    H = len(om)
    lin = sum(mu[h] * om[h] for h in range(H))
    quad = sum(
        mu[h] * mu[g] * (om[h] * om[g] + cL * poly.subs(t, d * om[h] * om[g]))
        for h in range(H)
        for g in range(H)
    )
    return 1 + s2 - 2 * lin + quad


@pytest.mark.result("hpcy25:prop4.1")
@pytest.mark.parametrize("K", [1, 2, 3, 4])
def test_s12_ltilde_series_truncated_at_K_is_exact_at_a_generic_point(K: int) -> None:
    """Exact Fraction entries: the series truncated after k = K equals L̃ with exp replaced by its
    degree-K Taylor polynomial (sympy, hand-built), with no round-off."""
    om = [Fraction(1, 10), Fraction(-1, 5), Fraction(3, 10)]
    mu = [Fraction(2), Fraction(1, 2), Fraction(-3, 4)]
    d, L, s2 = Fraction(5), Fraction(40), Fraction(1, 10)
    got = th.ltilde_series(om, mu, d, L, s2, K)
    want = _series_by_hand(
        [sp.Rational(v) for v in om],
        [sp.Rational(v) for v in mu],
        sp.Rational(d),
        sp.Rational(L),
        sp.Rational(s2),
        K,
    )
    assert isinstance(got, Fraction) and sp.Rational(got.numerator, got.denominator) == want


@pytest.mark.result("hpcy25:prop4.1")
def test_s12_ltilde_series_refuses_unequal_head_counts_even_without_tail_terms() -> None:
    with pytest.raises(ValueError, match="zip"):
        th.ltilde_series([0.1], [1.0, 2.0], 5, 40, 0.1, 1)


@pytest.mark.result("hpcy25:prop4.1")
def test_s12_kappa_and_c_l_at_a_generic_point() -> None:
    """κ = 1 + d(1+σ²)/L and c_L = (1+σ²)/L: exact by hand at d = 3, L = 7, σ² = 3/10."""
    s2 = Fraction(3, 10)
    assert th.c_L(7, s2) == pytest.approx(float(Fraction(13, 70)), rel=ROUTES_RTOL)
    assert th.kappa(3, 7, s2) == pytest.approx(float(1 + Fraction(39, 70)), rel=ROUTES_RTOL)
