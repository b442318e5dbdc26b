"""Session 13 triage (z4): Theorem 4's condition and Lemmas 18–20 (init_condition,
initial_loss_bound, u_min, pl_constant) pinned at a generic point: a non-diagonal Λ, a
non-identity Θ, d = 2, N = 5, σ = 0.3.

Independent route (exact, by hand from the eigenvalues; the functions use matrices):
Λ = [[2, 1], [1, 4]] has eigenvalues λ± = 3 ± √2, tr Λ = 6, det Λ = 7, so Γ = (6/5)(Λ + I) with
eigenvalues γ± = 6(λ± + 1)/5, ‖Γ‖_op = γ₊ = 6(4 + √2)/5, ‖Λ‖_op = λ₊.
Θ = 7^(-1/4)[[1, 1], [0, 1]] (ΘΘᵀ = [[2, 1], [1, 1]]/√7, so ‖ΘΘᵀ‖_F = 1):
ΛΘ = 7^(-1/4)[[2, 3], [1, 5]], ‖ΛΘ‖_F² = 39/√7.
tr Λ⁻¹ = tr Λ/det Λ = 6/7 (not 1: a factor tr Λ⁻¹ is seen), tr(Γ⁻¹Λ⁻¹) = Σ 1/(γλ) (Γ and Λ
commute)."""

from __future__ import annotations

import re

import mpmath
import numpy as np
import pytest
import sympy as sp

import theory.zfb24 as T
from numerics.testing import FLOAT_RTOL

LAM = np.array([[2.0, 1.0], [1.0, 4.0]])
THETA = 7.0**-0.25 * np.array([[1.0, 1.0], [0.0, 1.0]])
N = 5
SIGMA = 0.3

_s2 = sp.Rational(9, 100)
_lp, _lm = 3 + sp.sqrt(2), 3 - sp.sqrt(2)
_gp, _gm = 6 * (_lp + 1) / 5, 6 * (_lm + 1) / 5
COND = _s2 * _gp * sp.sqrt(2)  # σ²‖Γ‖_op√d
LT2 = 39 / sp.sqrt(7)  # ‖ΛΘ‖_F²
BOUND = _s2 / 2 * LT2 * (COND - 2)  # Lemma 18
UMIN2 = _s2 * LT2 * (2 - COND) / (2 * sp.sqrt(2) * _lp**2)  # Lemma 19
MU = 2 * UMIN2 / ((1 / (_gp * _lp) + 1 / (_gm * _lm)) * (1 / _lp + 1 / _lm))  # Lemma 20


def test_init_condition_exact_at_a_generic_point() -> None:
    got = T.init_condition(sp.Matrix([[2, 1], [1, 4]]), 5, sp.Rational(3, 10))
    assert sp.simplify(got - COND) == 0
    assert sp.simplify(COND - sp.Rational(27, 250) * (4 * sp.sqrt(2) + 2)) == 0
    assert float(T.init_condition(LAM, N, SIGMA)) == pytest.approx(float(COND), rel=FLOAT_RTOL)


def test_initial_loss_bound_pinned_at_a_generic_point() -> None:
    assert float(BOUND) < 0
    got = T.initial_loss_bound(LAM, N, SIGMA, THETA)
    assert got == pytest.approx(float(BOUND), rel=FLOAT_RTOL)


def test_u_min_pinned_at_a_generic_point() -> None:
    got = T.u_min(LAM, N, SIGMA, THETA)
    assert got == pytest.approx(float(sp.sqrt(UMIN2)), rel=FLOAT_RTOL)


def test_pl_constant_pinned_at_a_generic_point() -> None:
    got = T.pl_constant(LAM, N, SIGMA, THETA)
    assert got == pytest.approx(float(MU), rel=FLOAT_RTOL)


def test_u_min_refuses_the_edge_of_the_condition() -> None:
    """At d = 1, Λ = 1, N = 2: Γ = λ(N + 2)/N = 2, so σ = 1 gives σ²‖Γ‖_op√d = 2 exactly, where
    u_min² = 0: the strict condition of Theorem 4 fails and u_min refuses (not 0)."""
    msg = r"^u_min needs σ²‖Γ‖_op√d < 2 \(Theorem 4\), got σ²‖Γ‖_op√d = 2 \(sigma_init = 1\.0\)$"
    with pytest.raises(ValueError, match=msg):
        T.u_min(np.eye(1), 2, 1.0, np.eye(1))


@pytest.mark.parametrize(
    ("d", "N", "sigma", "cond"),
    [
        (1, 2, 1.0, "2"),  # the edge: σ²λ(N + 2)/N = 1·1·4/2 = 2, where μ = 0
        (1, 4, 1.5, "3.375"),  # beyond: 2.25·1·6/4 = 3.375, where μ < 0
        (2, 2, 1.0, "3.53553"),  # d = 2, Λ = I: Γ = (3/2 + 1)I, 1·2.5·√2 = 3.5355339
    ],
)
def test_pl_constant_refuses_outside_the_condition(d: int, N: int, sigma: float, cond: str) -> None:
    """Defect fixed in session 13: pl_constant returned μ ≤ 0 silently where σ²‖Γ‖_op√d ≥ 2
    (Λ = I_d: Γ = ((N + 1 + d)/N)I); it now refuses, as u_min does."""
    msg = (
        r"^pl_constant needs σ²‖Γ‖_op√d < 2 \(Lemma 20 / Theorem 4\), got σ²‖Γ‖_op√d = "
        + re.escape(cond)
        + r" \(sigma_init = "
        + re.escape(repr(sigma))
        + r"\)$"
    )
    with pytest.raises(ValueError, match=msg):
        T.pl_constant(np.eye(d), N, sigma, np.eye(d) / d**0.25)


def test_a_high_precision_theta_is_read_as_float64() -> None:
    """Θ with mpmath entries (the domain's high-precision input; ΘΘᵀ = I/2 to 30 digits) is read
    as float64: each bound equals, to the last bit, its value at the float64 Θ (not a value
    computed in mixed float64/mpmath arithmetic, which differs in the last bits)."""
    L = np.diag([0.5, 1.0, 1.5, 2.0])
    with mpmath.workdps(30):
        th = (mpmath.eye(4) / mpmath.sqrt(2)).tolist()
        th64 = np.array(th, dtype=float)
        for fn in (T.initial_loss_bound, T.u_min, T.pl_constant):
            assert fn(L, 5, 0.3, th) == fn(L, 5, 0.3, th64), fn.__name__
