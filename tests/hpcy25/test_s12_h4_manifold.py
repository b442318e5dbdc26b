"""Checks the mutation triage of issue 35 asked for in [hpcy25] §4.2 (session 12): the manifold's
closed forms ``m*(ω)``, ``L̃*(ω)``, ``η(ω)``, the reduced loss ``L̃(ω, m)`` and the single-head
optimum (4.12), pinned at a generic point against the displays written out by hand (mpmath) and
tied to each other by independent routes (``m*`` minimises the reduced loss, ``L̃*`` is its value
there, ``η = 2ω m*``, the single-head optimum minimises ``L̃₁``); their ``ω > 0`` refusals with the
message whole; their SymPy routes."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import sympy as sp
from scipy.optimize import minimize

import theory.hpcy25 as th
from numerics.testing import FLOAT_RTOL, OPTIM_ARG_ATOL, OPTIM_RTOL, SYMBOLIC_RTOL

#: BFGS stop tolerance of the minimisation routes: far below OPTIM_ARG_ATOL and OPTIM_RTOL, so the
#: comparisons measure the closed forms, not the optimiser
_BFGS_STOP = 1e-14

# a generic point: no parameter at 0 or 1, c_L = (1 + σ²)/L = 1/24, d ω² = 0.36
W, D, L, S2 = 0.3, 4, 30, 0.25


def _hand_m_star() -> float:
    # [hpcy25] (4.6)-(4.7): m*(ω) = ω / (2(ω² + c_L sinh(d ω²))), c_L = (1 + σ²)/L (Prop. 4.1)
    with mpmath.workdps(50):
        w = mpmath.mpf("0.3")
        c = (1 + mpmath.mpf("0.25")) / 30
        return float(w / (2 * (w**2 + c * mpmath.sinh(4 * w**2))))


def _hand_ratio() -> float:
    # c_L sinh(d ω²)/ω², the correction of (4.6)/(4.8)
    with mpmath.workdps(50):
        w = mpmath.mpf("0.3")
        c = (1 + mpmath.mpf("0.25")) / 30
        return float(c * mpmath.sinh(4 * w**2) / w**2)


def test_manifold_closed_forms_pinned_at_a_generic_point() -> None:
    r = _hand_ratio()
    assert th.m_star(W, D, L, S2) == pytest.approx(_hand_m_star(), rel=FLOAT_RTOL)
    assert th.eta_of_omega(W, D, L, S2) == pytest.approx(1 / (1 + r), rel=FLOAT_RTOL)
    assert th.ltilde_star(W, D, L, S2) == pytest.approx(1 + S2 - 1 / (1 + r), rel=FLOAT_RTOL)
    # the numeric twins agree with the public forms
    assert th.m_star_fn(W, D, L, S2) == pytest.approx(_hand_m_star(), rel=FLOAT_RTOL)
    assert th.eta_of_omega_fn(W, D, L, S2) == pytest.approx(1 / (1 + r), rel=FLOAT_RTOL)
    assert th.ltilde_star_fn(W, D, L, S2) == pytest.approx(1 + S2 - 1 / (1 + r), rel=FLOAT_RTOL)


def test_reduced_loss_pinned_and_minimised_by_m_star() -> None:
    m = 1.7
    with mpmath.workdps(50):
        w, mm, s2 = mpmath.mpf("0.3"), mpmath.mpf("1.7"), mpmath.mpf("0.25")
        c = (1 + s2) / 30
        hand = float(1 + s2 - 4 * w * mm + 4 * mm**2 * (w**2 + c * mpmath.sinh(4 * w**2)))
    assert th.ltilde_reduced(W, m, D, L, S2) == pytest.approx(hand, rel=FLOAT_RTOL)
    # an independent route: minimise the reduced loss over m numerically
    res = minimize(
        lambda x: th.ltilde_reduced(W, float(x[0]), D, L, S2),
        x0=[1.0],
        method="BFGS",
        tol=_BFGS_STOP,
    )
    m_star = th.m_star(W, D, L, S2)
    assert float(res.x[0]) == pytest.approx(m_star, abs=OPTIM_ARG_ATOL)
    # L̃* is the reduced loss at m*, and η = 2 ω m* (4.8)
    assert th.ltilde_star(W, D, L, S2) == pytest.approx(float(res.fun), rel=OPTIM_RTOL)
    assert th.ltilde_star(W, D, L, S2) == pytest.approx(
        th.ltilde_reduced(W, m_star, D, L, S2), rel=FLOAT_RTOL
    )
    assert th.eta_of_omega(W, D, L, S2) == pytest.approx(2 * W * m_star, rel=FLOAT_RTOL)


@pytest.mark.parametrize("fn", [th.m_star, th.ltilde_star, th.eta_of_omega])
@pytest.mark.parametrize("omega", [0, -0.5])
def test_manifold_refuses_nonpositive_omega_with_the_whole_message(fn, omega) -> None:
    with pytest.raises(
        ValueError, match=rf"^omega must be > 0 \(manifold needs ω > 0\), got {omega}$"
    ):
        fn(omega, D, L, S2)


def test_manifold_forms_symbolic_in_omega() -> None:
    w = sp.Symbol("w", positive=True)
    s2 = sp.Rational(1, 4)
    c = sp.Rational(1, 24)
    exact = {
        th.m_star: w / (2 * (w**2 + c * sp.sinh(4 * w**2))),
        th.eta_of_omega: 1 / (1 + c * sp.sinh(4 * w**2) / w**2),
        th.ltilde_star: 1 + s2 - 1 / (1 + c * sp.sinh(4 * w**2) / w**2),
    }
    for fn, want in exact.items():
        got = fn(w, D, L, s2)
        assert isinstance(got, sp.Expr)
        assert sp.simplify(got - want) == 0
        assert float(got.subs(w, sp.Rational(3, 10))) == pytest.approx(
            fn(W, D, L, S2), rel=SYMBOLIC_RTOL
        )
    m = sp.Symbol("m", real=True)
    red = th.ltilde_reduced(w, m, D, L, s2)
    assert sp.simplify(red - (1 + s2 - 4 * w * m + 4 * m**2 * (w**2 + c * sp.sinh(4 * w**2)))) == 0


def test_single_head_optimum_pinned_and_minimising() -> None:
    d, L1, s2 = 3, 17, 0.3
    with mpmath.workdps(50):
        k = 1 + mpmath.e * (1 + mpmath.mpf("0.3")) * 3 / 17
        hand = (
            float(1 / mpmath.sqrt(3)),
            float(mpmath.sqrt(3) / k),
            float(1 + mpmath.mpf("0.3") - 1 / k),
        )
    w, m, v = th.single_head_optimum(d, L1, s2)
    assert (w, m, v) == pytest.approx(hand, rel=FLOAT_RTOL)
    # an independent route: minimise L̃₁(ω, μ) numerically
    res = minimize(
        lambda x: th.single_head_ltilde(float(x[0]), float(x[1]), d, L1, s2),
        x0=[0.5, 1.0],
        method="BFGS",
        tol=_BFGS_STOP,
    )
    assert np.allclose(res.x, [w, m], rtol=0, atol=OPTIM_ARG_ATOL)
    assert v == pytest.approx(float(res.fun), rel=OPTIM_RTOL)
    assert v == pytest.approx(th.single_head_ltilde(w, m, d, L1, s2), rel=FLOAT_RTOL)


def test_single_head_optimum_symbolic() -> None:
    w, m, v = th.single_head_optimum(sp.Integer(3), 17, sp.Rational(3, 10))
    k = 1 + sp.E * sp.Rational(13, 10) * 3 / 17
    assert sp.simplify(w - 1 / sp.sqrt(3)) == 0
    assert sp.simplify(m - sp.sqrt(3) / k) == 0
    assert sp.simplify(v - (sp.Rational(13, 10) - 1 / k)) == 0
