"""App. B flow right-hand sides against the hand-written gradient of L̃ (issue 35 triage,
session 12).

Independent route: :func:`theory.hpcy25.ltilde_grad` (Prop. 4.1's gradient written out by hand,
[derived]).  The flow (B.1) is ``−s ∇L̃``; on the symmetric orbit ``(ω, −ω, μ, −μ)`` it is the
reduced system (B.4) (ω̇ = ω̇₁, μ̇ = μ̇₁), and ``d/dt (ω² − μ²) = 2ωω̇ − 2μμ̇``.  Generic points: no
coordinate 0 or ±1, heads unequal, time scale s = 0.37 (not 1), σ² ≠ 0.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

import theory.hpcy25 as th
from numerics.testing import FLOAT_RTOL, ROUTES_ATOL, ROUTES_RTOL

pytestmark = pytest.mark.symbolic

D, L, S2, S = 3, 11, 0.3, 0.37


def _by_grad(om: list[float], mu: list[float]) -> np.ndarray:
    """``−s ∇L̃`` at (om, mu) from the hand-written gradient, in the order (ω…, μ…)."""
    g_om, g_mu = th.ltilde_grad(np.array(om), np.array(mu), D, L, S2)
    return -S * np.concatenate([np.ravel(g_om), np.ravel(g_mu)])


@pytest.mark.parametrize(
    ("om", "mu"),
    [([0.21, -0.43], [1.7, -0.6]), ([0.21, -0.43, 0.12], [1.7, -0.6, 0.35])],
    ids=["H2", "H3"],
)
def test_flow_rhs_fn_is_minus_s_grad_ltilde(om: list[float], mu: list[float]) -> None:
    """(B.1): the float twin at a non-symmetric point of 2 and 3 heads = −s ∇L̃ (by hand)."""
    got = th.flow_rhs_fn(1.3, np.array(om + mu), D, L, S2, S)
    np.testing.assert_allclose(got, _by_grad(om, mu), rtol=ROUTES_RTOL, atol=ROUTES_ATOL)


def test_flow_rhs_symbolic_is_minus_s_grad_ltilde() -> None:
    """(B.1) in SymPy (head symbols), at an exact non-symmetric point: each entry = −s ∇L̃ (by
    hand), exactly."""
    r = sp.Rational
    w1, w2, m1, m2 = sp.symbols("w1 w2 m1 m2")
    pt = {w1: r(1, 5), w2: r(-2, 5), m1: r(3, 2), m2: r(-3, 5)}
    d, L_, s2, s = 3, 11, r(3, 10), r(37, 100)
    rhs = th.flow_rhs([w1, w2], [m1, m2], d, L_, s2, s)
    g_om, g_mu = th.ltilde_grad(sp.Matrix([pt[w1], pt[w2]]), sp.Matrix([pt[m1], pt[m2]]), d, L_, s2)
    want = [-s * g for g in (*list(g_om), *list(g_mu))]
    assert len(rhs) == 4
    for a, b in zip(rhs, want, strict=True):
        assert sp.simplify(sp.expand(a.subs(pt) - b)) == 0


def test_reduced_rhs_and_imbalance_rate_on_the_symmetric_orbit() -> None:
    """(B.4) = the 4-D flow at (ω, −ω, μ, −μ) (float and SymPy routes, and the solve_ivp twin);
    the imbalance rate = 2ωω̇ − 2μμ̇ there."""
    w, m = 0.27, 1.9
    full = _by_grad([w, -w], [m, -m])
    w_dot, m_dot = full[0], full[2]
    got = th.reduced_rhs(w, m, D, L, S2, S)
    np.testing.assert_allclose(got, [w_dot, m_dot], rtol=ROUTES_RTOL, atol=ROUTES_ATOL)
    twin = th.reduced_rhs_fn(4.0, np.array([w, m]), D, L, S2, S)
    assert twin.shape == (2,)
    np.testing.assert_allclose(twin, [w_dot, m_dot], rtol=ROUTES_RTOL, atol=ROUTES_ATOL)
    rate = th.imbalance_rate(w, m, D, L, S2, S)
    # 2ωω̇ − 2μμ̇ cancels terms of size 4sωμ: round-off is relative to those
    cancel = ROUTES_RTOL * 4 * S * w * m
    np.testing.assert_allclose(rate, 2 * w * w_dot - 2 * m * m_dot, rtol=ROUTES_RTOL, atol=cancel)
    # the SymPy route at the same point (exact inputs), evaluated
    r = sp.Rational
    ex = th.reduced_rhs(r(27, 100), r(19, 10), 3, 11, r(3, 10), r(37, 100))
    assert all(isinstance(e, sp.Expr) for e in ex)
    np.testing.assert_allclose(
        [float(sp.N(e, 30)) for e in ex], [w_dot, m_dot], rtol=FLOAT_RTOL, atol=ROUTES_ATOL
    )


def test_flow_laws_default_time_scale_is_one() -> None:
    """Without ``s`` every App. B right-hand side is our flow s = 1: −∇L̃ (by hand)."""
    om, mu = [0.21, -0.43], [1.7, -0.6]
    g_om, g_mu = th.ltilde_grad(np.array(om), np.array(mu), D, L, S2)
    minus_grad = -np.concatenate([np.ravel(g_om), np.ravel(g_mu)])
    got = th.flow_rhs_fn(0.0, np.array(om + mu), D, L, S2)
    np.testing.assert_allclose(got, minus_grad, rtol=ROUTES_RTOL, atol=ROUTES_ATOL)
    w1, w2, m1, m2 = sp.symbols("w1 w2 m1 m2")
    pt = {w1: om[0], w2: om[1], m1: mu[0], m2: mu[1]}
    sym = [float(e.subs(pt)) for e in th.flow_rhs([w1, w2], [m1, m2], D, L, S2)]
    np.testing.assert_allclose(sym, minus_grad, rtol=FLOAT_RTOL, atol=ROUTES_ATOL)
    # on the symmetric orbit: the reduced system and the imbalance rate at s = 1
    w, m = 0.27, 1.9
    g_om, g_mu = th.ltilde_grad(np.array([w, -w]), np.array([m, -m]), D, L, S2)
    w_dot, m_dot = -g_om[0], -g_mu[0]
    np.testing.assert_allclose(
        th.reduced_rhs(w, m, D, L, S2), [w_dot, m_dot], rtol=ROUTES_RTOL, atol=ROUTES_ATOL
    )
    np.testing.assert_allclose(
        th.reduced_rhs_fn(0.0, np.array([w, m]), D, L, S2),
        [w_dot, m_dot],
        rtol=ROUTES_RTOL,
        atol=ROUTES_ATOL,
    )
    cancel = ROUTES_RTOL * 4 * w * m  # round-off of the cancelling 4ωμ terms
    np.testing.assert_allclose(
        th.imbalance_rate(w, m, D, L, S2),
        2 * w * w_dot - 2 * m * m_dot,
        rtol=ROUTES_RTOL,
        atol=cancel,
    )


def test_flow_twins_return_float64_for_float32_input() -> None:
    """The solve_ivp twins return float64 whatever real dtype the state and parameters have
    (float32 here: a finite real state, inside the documented domain)."""
    f32 = np.float32
    y = np.array([0.21, -0.43, 1.7, -0.6], dtype=f32)
    args = (f32(D), f32(L), f32(S2), f32(S))
    full = th.flow_rhs_fn(f32(0.0), y, *args)
    red = th.reduced_rhs_fn(f32(0.0), y[[0, 2]], *args)
    assert full.dtype == np.float64
    assert full.shape == (4,)
    assert red.dtype == np.float64
    assert red.shape == (2,)
