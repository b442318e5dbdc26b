"""zwb24 §6 / App. G (the GD-β flow): one matrix or vector alone symbolic, exact-number entries,
the forms of ē, and the β-rate bound at H = 0 (mutation triage, issue 35)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
import sympy as sp

import theory.zwb24 as T
from numerics.testing import ROUTES_RTOL, SYMBOLIC_ATOL, SYMBOLIC_RTOL

# A generic d = 2 point (lists: the numbers beside a SymPy argument).
_POINT = {
    "Gamma": [[0.6, 0.1], [-0.2, 0.4]],
    "beta": [0.2, 0.1],
    "H": [[1.0, 0.3], [0.3, 2.0]],
    "Psi": [[0.5, 0.1], [0.1, 0.8]],
    "beta_star": [0.5, -0.3],
}
_X, _XV = sp.Symbol("x"), 0.37


def _with_x(name: str, value: Any) -> tuple[Any, Any]:
    """``value`` with one entry replaced by the symbol x (symmetric for H, Ψ), and the same
    numbers with x = 0.37."""
    if isinstance(value[0], list):
        sym, num = sp.Matrix(value), np.array(value)
        sym[0, 1], num[0, 1] = _X, _XV
        if name in ("H", "Psi"):
            sym[1, 0], num[1, 0] = _X, _XV
        return sym, num.tolist()
    return [_X, *value[1:]], [_XV, *value[1:]]


def _numbers(out: Any) -> np.ndarray:
    if isinstance(out, tuple):
        return np.concatenate([_numbers(v).ravel() for v in out])
    if isinstance(out, sp.MatrixBase):
        return np.array(out.subs(_X, _XV).evalf(), dtype=float)
    if isinstance(out, sp.Basic):
        return np.array(float(out.subs(_X, _XV)))
    return np.asarray(out, dtype=float)


@pytest.mark.symbolic
@pytest.mark.result("zwb24:corG.1")
@pytest.mark.result("zwb24:lemG.2")
@pytest.mark.parametrize("fn", ["excess_risk", "flow_rhs"])
@pytest.mark.parametrize("name", list(_POINT))
def test_one_sympy_argument_among_numbers_takes_the_symbolic_branch(fn: str, name: str) -> None:
    """Γ, β, H, Ψ or β* alone a SymPy object with a symbol x (the rest numbers): the output is
    symbolic and equals the numeric value at x = 0.37 (a generic point)."""
    f = getattr(T, fn)
    sym, num = _with_x(name, _POINT[name])
    out = f(*{**_POINT, name: sym}.values(), 0.25, 7)
    parts = out if isinstance(out, tuple) else (out,)
    assert all(isinstance(p, (sp.Basic, sp.MatrixBase)) for p in parts), f"{fn}: numeric output"
    assert any(_X in sp.sympify(p).free_symbols for p in parts)  # dβ/dt does not depend on Ψ
    ref = f(*{**_POINT, name: num}.values(), 0.25, 7)
    np.testing.assert_allclose(_numbers(out), _numbers(ref), rtol=SYMBOLIC_RTOL, atol=SYMBOLIC_ATOL)


def _exact(kind: type, x: Any) -> Any:
    """Nested lists of ``kind`` numbers (Fraction / Decimal) equal to the floats ``x``."""
    if isinstance(x, (list, tuple, np.ndarray)):
        return [_exact(kind, v) for v in x]
    return kind(str(float(x)))


@pytest.mark.float
@pytest.mark.result("zwb24:thm6.3")
@pytest.mark.result("zwb24:lemG.2")
@pytest.mark.parametrize("kind", [Fraction, Decimal])
def test_exact_number_entries_give_the_float64_result(kind: type) -> None:
    """Fraction or Decimal entries (@checked accepts them: high-precision references) give the
    float64 arrays of the float input, equal, in the invariants, the flow limit (also with a
    ``gamma_fn`` returning such entries), the β-rate bound and the whitened flow."""
    G, b = np.array([[0.6, 0.1], [-0.2, 0.4]]), np.array([0.2, 0.1])
    H, Psi, bs = np.diag([1.3, 0.0]), np.array([[0.5, 0.1], [0.1, 0.8]]), np.array([0.5, -0.3])
    s2, N = 0.25, 7
    ex = lambda x: _exact(kind, x)  # noqa: E731

    def exact_gamma(*a: Any) -> Any:
        return ex(T.optimal_gamma(*a))

    limit = T.flow_limit(G, b, H, Psi, bs, s2, N)
    pairs = [
        (T.invariants(ex(G), ex(b), ex(H)), T.invariants(G, b, H)),
        (T.flow_limit(ex(G), ex(b), ex(H), ex(Psi), ex(bs), s2, N), limit),
        (T.flow_limit(G, b, H, Psi, bs, s2, N, gamma_fn=exact_gamma), limit),
        (
            (T.beta_rate_bound(1.5, ex(b), ex(H), ex(bs), N),),
            (T.beta_rate_bound(1.5, b, H, bs, N),),
        ),
        (
            T.flow_rhs_whitened(ex(G), ex(b - bs), ex(H), ex(Psi), s2, N),
            T.flow_rhs_whitened(G, b - bs, H, Psi, s2, N),
        ),
    ]
    for i, (got, want) in enumerate(pairs):
        for g, w in zip(got, want, strict=True):
            assert np.asarray(g).dtype == np.float64, (i, np.asarray(g).dtype)
            np.testing.assert_array_equal(g, w)


@pytest.mark.float
@pytest.mark.result("zwb24:lemG.2")
def test_flow_rhs_whitened_takes_e_bar_as_a_column() -> None:
    """ē as a column (d × 1; @checked admits it where its last axis is d, i.e. d = 1) is the
    vector ē: the same (dΓ̄/dt, dē/dt), with dē/dt of shape (d,)."""
    args = ([[1.3]], [[0.5]], 0.25, 7)
    dG, de = T.flow_rhs_whitened([[0.6]], [[0.3]], *args)
    dG1, de1 = T.flow_rhs_whitened([[0.6]], [0.3], *args)
    assert de.shape == de1.shape == (1,) and dG.shape == (1, 1)
    np.testing.assert_array_equal(de, de1)
    np.testing.assert_array_equal(dG, dG1)


@pytest.mark.float
@pytest.mark.result("zwb24:thm6.3")
def test_beta_rate_bound_at_h_zero_is_zero() -> None:
    """H = 0 (PSD, in the domain): P_H = 0, so the bound on ‖P_H(β(t) − β*)‖² is 0 at every t
    (no positive eigenvalue to take the minimum of)."""
    t = np.array([0.0, 0.5, 2.0])
    out = T.beta_rate_bound(t, [1.0, -2.0], np.zeros((2, 2)), [0.3, 0.1], 4)
    np.testing.assert_array_equal(out, np.zeros(3))
    assert T.beta_rate_bound(1.0, [1.0, -2.0], np.zeros((2, 2)), [0.3, 0.1], 4) == 0.0


@pytest.mark.float
@pytest.mark.result("zwb24:thm6.3")
def test_beta_rate_bound_keeps_a_small_eigenvalue_that_p_h_keeps() -> None:
    """An eigenvalue of H just above the rank cut (1.5e-10 beside 1: kept by P_H) is λ⁺_min: along
    its direction β barely moves, so the bound stays ≈ ‖P_H(β_0 − β*)‖² = 1 (a rate from the
    next eigenvalue, e^{-4t/(N+1)} = e^{-1} here, would be a false bound)."""
    out = T.beta_rate_bound(3.0, [0.0, 1.0], np.diag([1.0, 1.5e-10]), [0.0, 0.0], 11)
    assert out == pytest.approx(np.exp(-4 * 1.5e-10 * 3.0 / 12), rel=1e-12)


@pytest.mark.symbolic
@pytest.mark.result("zwb24:corG.1")
@pytest.mark.parametrize("name", ["Gamma", "H"])
def test_k_matrix_with_one_sympy_matrix(name: str) -> None:
    """K(Γ) with Γ or H alone a SymPy matrix with a symbol x: symbolic, and equal to the numeric
    K at x = 0.37."""
    sym, num = _with_x(name, _POINT[name])
    args = {"Gamma": _POINT["Gamma"], "H": _POINT["H"]}
    K = T.K_matrix(*{**args, name: sym}.values(), 7)
    assert isinstance(K, sp.MatrixBase) and _X in K.free_symbols
    np.testing.assert_allclose(
        _numbers(K),
        T.K_matrix(*{**args, name: num}.values(), 7),
        rtol=SYMBOLIC_RTOL,
        atol=SYMBOLIC_ATOL,
    )


@pytest.mark.float
@pytest.mark.result("zwb24:thm6.3")
@pytest.mark.parametrize("kind", [Fraction, Decimal])
def test_beta_rate_bound_takes_an_exact_time(kind: type) -> None:
    """t as a Fraction / Decimal (a real t ≥ 0; @checked admits exact numbers), alone or in a list:
    the float64 bound of the float t, exp(−4·1.3·t/8)·‖P_H(β_0 − β*)‖² with λ⁺_min(H) = 1.3."""
    b, H, bs, N = [0.2, 0.1], np.diag([1.3, 0.0]), [0.5, -0.3], 7
    ts = [0.0, 0.5, 1.5]
    want = np.exp(-4 * 1.3 * np.array(ts) / (N + 1)) * 0.3**2
    for t, w in ((kind("1.5"), want[2]), ([kind(str(s)) for s in ts], want)):
        got = T.beta_rate_bound(t, b, H, bs, N)
        assert np.asarray(got).dtype == np.float64
        np.testing.assert_allclose(got, w, rtol=ROUTES_RTOL, atol=0)
        np.testing.assert_array_equal(got, T.beta_rate_bound(np.asarray(t, float), b, H, bs, N))
