"""Session 12 triage (helper c3): pinned values, messages and precision checks for
theory.common.baselines.limits and theory.common.gaussian.

Expected values come from independent routes: the Isserlis/Wick pairing sum written entry by
entry, the MP self-consistency equation ξλm² + (1 − ξ + λ)m − 1 = 0 solved by hand and
differentiated implicitly for m' (never SymPy's derivative of the closed form), and 50-digit
mpmath evaluations of those hand formulas.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import pytest
import sympy as sp

from numerics.testing import assert_passed, float_agreement
from theory.common import baselines as B
from theory.common.gaussian import (
    isserlis_fourth_moment,
    sample_cov_second_moment,
    wishart_fourth_moment,
)

R = sp.Rational


# ------------------------------------------------------------------ independent references
def _wick(A, S):
    """E[x xᵀ A x xᵀ]_il = Σ_jk A_jk E[x_i x_j x_k x_l], with Wick's three pairings."""
    d = len(S)
    out = [[0] * d for _ in range(d)]
    for i, j, k, l in itertools.product(range(d), repeat=4):
        e4 = S[i][j] * S[k][l] + S[i][k] * S[j][l] + S[i][l] * S[j][k]
        out[i][l] += A[j][k] * e4
    return out


def _wishart_ref(A, S, N):
    """N diagonal (Isserlis) terms plus N(N − 1) independent pairs E[x xᵀ] A E[x xᵀ] = SAS."""
    W = sp.Matrix(_wick(A, S))
    SAS = sp.Matrix(S) * sp.Matrix(A) * sp.Matrix(S)
    return sp.expand(N * W + N * (N - 1) * SAS)


A2 = [[1, 2], [-1, 3]]  # not symmetric
S2 = [[2, 1], [1, 3]]  # PSD, not diagonal


def _mp_hand(xi, lam, s2, signal, sqrt):
    """m, m' and the ridge risk from the self-consistency equation (implicit differentiation)."""
    b = 1 - xi + lam
    m = (sqrt(b * b + 4 * xi * lam) - b) / (2 * xi * lam)
    mprime = (xi * m * m + m) / (2 * xi * lam * m + b)
    risk = s2 + signal * lam**2 * mprime + s2 * xi * (m - lam * mprime)
    return m, mprime, risk


def _mp_ref(xi, lam, s2=0.0, signal=1.0):
    with mpmath.workdps(50):
        args = (mpmath.mpf(xi), mpmath.mpf(lam), mpmath.mpf(s2), mpmath.mpf(signal))
        m, _, risk = _mp_hand(*args, sqrt=mpmath.sqrt)
        return float(m), float(risk)


# ---------------------------------------------------------------------------- gaussian
@pytest.mark.result("base:isserlis")
def test_isserlis_pinned_nonsymmetric_a():
    """Non-symmetric A, non-diagonal Σ: float64 and exact SymPy both equal the Wick sum."""
    ref = np.array(_wick(A2, S2), dtype=float)
    got = isserlis_fourth_moment(np.array(A2), np.array(S2))
    assert_passed(float_agreement("isserlis", got, ref))
    exact = isserlis_fourth_moment(sp.Matrix(A2), sp.Matrix(S2))
    assert isinstance(exact, sp.MatrixBase)
    assert exact == sp.Matrix(_wick(A2, S2))
    # a list with a symbol is symbolic too (A symbolic, Σ a plain list)
    a = sp.Symbol("a")
    A_sym = [[a, 2], [-1, 3]]
    assert sp.expand(isserlis_fourth_moment(A_sym, S2) - sp.Matrix(_wick(A_sym, S2))) == sp.zeros(
        2, 2
    )
    S_sym = [[a, 1], [1, 3]]
    assert sp.expand(isserlis_fourth_moment(A2, S_sym) - sp.Matrix(_wick(A2, S_sym))) == sp.zeros(
        2, 2
    )


@pytest.mark.result("base:wishart")
def test_wishart_pinned_nonsymmetric_a():
    """N = 3 and N = 1 (the minimum) numerically; symbolic N with list matrices."""
    for N in (3, 1, np.int64(5)):
        ref = np.array(_wishart_ref(A2, S2, int(N)), dtype=float)
        assert_passed(
            float_agreement(
                f"wishart N={N}", wishart_fourth_moment(np.array(A2), np.array(S2), N), ref
            )
        )
    n = sp.Symbol("N", integer=True, positive=True)
    got = wishart_fourth_moment(A2, S2, n)
    assert sp.expand(got - _wishart_ref(A2, S2, n)) == sp.zeros(2, 2)
    assert wishart_fourth_moment(sp.Matrix(A2), sp.Matrix(S2), 3) == _wishart_ref(A2, S2, 3)


@pytest.mark.result("base:sample-cov")
def test_sample_cov_pinned():
    """E[Λ̂²] = (N+1)/N Σ² + tr(Σ)/N Σ at N = 3 (numeric, exact) and symbolic N."""
    S = sp.Matrix(S2)
    for N in (3, 1):
        ref = R(N + 1, N) * S * S + R(S.trace(), N) * S
        got = sample_cov_second_moment(np.array(S2), N)
        assert_passed(float_agreement(f"sample cov N={N}", got, np.array(ref, dtype=float)))
        exact = sample_cov_second_moment(S, N)
        assert isinstance(exact, sp.MatrixBase)
        assert sp.expand(exact - ref) == sp.zeros(2, 2)
    n = sp.Symbol("N", integer=True, positive=True)
    ref = (n + 1) / n * S * S + S.trace() / n * S
    assert sp.simplify(sample_cov_second_moment(S2, n) - ref) == sp.zeros(2, 2)


@pytest.mark.result("base:isserlis")
def test_gaussian_messages():
    """Every refused input names the argument (and the assumption) in the whole message."""
    S = sp.Matrix(S2)
    n = sp.Symbol("N", integer=True, positive=True)
    sym_a = r"(?s)^A must be a SymPy Matrix or MatrixSymbol when symbolic, got array\(.*\)$"
    sym_s = r"(?s)^Sigma must be a SymPy Matrix or MatrixSymbol when symbolic, got array\(.*\)$"
    with pytest.raises(ValueError, match=sym_a):
        isserlis_fourth_moment(np.eye(2), S)
    with pytest.raises(ValueError, match=sym_s):
        isserlis_fourth_moment(S, np.eye(2))
    with pytest.raises(ValueError, match=sym_a):
        wishart_fourth_moment(np.eye(2), S, 2)
    with pytest.raises(ValueError, match=sym_s):
        wishart_fourth_moment(S, np.eye(2), 2)
    with pytest.raises(ValueError, match=sym_a):
        wishart_fourth_moment(np.eye(2), np.eye(2), n)
    with pytest.raises(ValueError, match=sym_s):
        sample_cov_second_moment(np.eye(2), n)
    not_psd = r"^Sigma must be positive semidefinite, got smallest eigenvalue -1$"
    for call in (
        lambda: isserlis_fourth_moment(np.eye(2), [[1.0, 2.0], [2.0, 1.0]]),
        lambda: wishart_fourth_moment(np.eye(2), [[1.0, 2.0], [2.0, 1.0]], 2),
        lambda: sample_cov_second_moment([[1.0, 2.0], [2.0, 1.0]], 2),
    ):
        with pytest.raises(ValueError, match=not_psd):
            call()
    shape = r"^A must have trailing shape \(2, 2\), got shape \(3, 3\)$"
    with pytest.raises(ValueError, match=shape):
        isserlis_fourth_moment(np.eye(3), np.eye(2))
    with pytest.raises(ValueError, match=shape):
        wishart_fourth_moment(np.eye(3), np.eye(2), 2)
    for f in (
        lambda N: wishart_fourth_moment(np.eye(2), np.eye(2), N),
        lambda N: sample_cov_second_moment(np.eye(2), N),
    ):
        with pytest.raises(ValueError, match=r"^N must be ≥ 1 \(number of rows of X\), got 0$"):
            f(0)
        with pytest.raises(
            ValueError, match=r"^N must be an integer \(number of rows of X\), got 2\.5$"
        ):
            f(2.5)


# --------------------------------------------------------------------- proportional limit
# (ξ, λ): b = 1 − ξ + λ > 0, b < 0, b = 0 exactly, 0 < b < 1
EXACT_POINTS = [(R(1, 2), R(1, 2)), (R(2), R(1, 2)), (R(3, 2), R(1, 2)), (R(3, 4), R(1, 3))]


@pytest.mark.symbolic
@pytest.mark.result("base:ridge-limit")
@pytest.mark.parametrize("xi,lam", EXACT_POINTS)
def test_limits_exact_rationals(xi, lam):
    """m(−λ), the ridge risk (σ² = 1/3, signal = 5/2 and the default signal 1) and the Bayes limit
    at exact rationals equal the hand solution of the self-consistency equation."""
    s2, signal = R(1, 3), R(5, 2)
    m, _, risk = _mp_hand(xi, lam, s2, signal, sqrt=sp.sqrt)
    assert sp.simplify(xi * lam * m**2 + (1 - xi + lam) * m - 1) == 0  # the root is right
    assert sp.simplify(B.mp_stieltjes(xi, lam) - m) == 0
    assert sp.simplify(B.ridge_risk_limit(xi, lam, s2, signal) - risk) == 0
    _, _, risk1 = _mp_hand(xi, lam, s2, 1, sqrt=sp.sqrt)
    assert sp.simplify(B.ridge_risk_limit(xi, lam, s2) - risk1) == 0
    lam_b = s2 * xi / signal
    m_b, _, _ = _mp_hand(xi, lam_b, s2, signal, sqrt=sp.sqrt)
    assert sp.simplify(B.bayes_risk_limit_mp(xi, s2, signal) - (s2 + s2 * xi * m_b)) == 0
    m_1, _, _ = _mp_hand(xi, s2 * xi, s2, 1, sqrt=sp.sqrt)
    assert sp.simplify(B.bayes_risk_limit_mp(xi, s2) - (s2 + s2 * xi * m_1)) == 0
    # the float64 twins at the same points (the Piecewise branches of the stable form)
    assert_passed(
        [
            float_agreement("m", B.mp_stieltjes(float(xi), float(lam)), float(m)),
            float_agreement(
                "ridge",
                B.ridge_risk_limit(float(xi), float(lam), float(s2), float(signal)),
                float(risk),
            ),
            float_agreement(
                "ridge signal=1",
                B.ridge_risk_limit(float(xi), float(lam), float(s2)),
                float(risk1),
            ),
            float_agreement(
                "bayes",
                B.bayes_risk_limit_mp(float(xi), float(s2), float(signal)),
                float(s2 + s2 * xi * m_b),
            ),
            float_agreement(
                "bayes signal=1",
                B.bayes_risk_limit_mp(float(xi), float(s2)),
                float(s2 + s2 * xi * m_1),
            ),
        ]
    )


@pytest.mark.symbolic
@pytest.mark.result("base:ridge-limit")
def test_limits_symbolic_and_mixed_input():
    """Any SymPy argument gives a SymPy result; symbols give the branch-free closed form."""
    x, l, v, a = sp.symbols("xi lam v a", positive=True)
    m, _, risk = _mp_hand(x, l, v, a, sqrt=sp.sqrt)
    got = B.ridge_risk_limit(x, l, v, a)
    assert not got.has(sp.Piecewise)
    for pt in ({x: R(1, 2), l: R(1, 2), v: R(1, 3), a: R(5, 2)}, {x: 2, l: R(1, 5), v: 3, a: 7}):
        assert sp.simplify(got.subs(pt) - risk.subs(pt)) == 0
    assert sp.simplify(B.mp_stieltjes(x, l) - m) == 0
    bayes = B.bayes_risk_limit_mp(x, v, a)
    m_b = _mp_hand(x, v * x / a, v, a, sqrt=sp.sqrt)[0]
    pt = {x: R(2), v: R(1, 3), a: R(5, 2)}
    assert sp.simplify(bayes.subs(pt) - (v + v * x * m_b).subs(pt)) == 0
    # one SymPy argument in any position makes the whole call symbolic
    half = R(1, 2)
    assert isinstance(B.mp_stieltjes(half, 0.5), sp.Basic)
    assert isinstance(B.mp_stieltjes(0.5, half), sp.Basic)
    args = [0.5, 0.5, 0.25, 2.0]
    for i in range(4):
        mixed: list[Any] = list(args)
        mixed[i] = sp.nsimplify(args[i])
        assert isinstance(B.ridge_risk_limit(*mixed), sp.Basic)
    args = [0.5, 0.25, 2.0]
    for i in range(3):
        mixed: list[Any] = list(args)
        mixed[i] = sp.nsimplify(args[i])
        assert isinstance(B.bayes_risk_limit_mp(*mixed), sp.Basic)


# ξ → 0 with λ = O(1) (b ≫ ξλ: the rationalised branch), ξ > 1 + λ with λ ≪ 1 (the point mass
# split off), 0 < b < 1 with λ ≪ 1, moderate points on both sides, and b = 0 with λ ≪ 1
PRECISION_POINTS = [
    (1e-9, 2.0, 0.3, 1.5),
    (1e-6, 0.5, 0.0, 4.0),
    (10.0, 1e-6, 0.2, 1.0),
    (3.0, 1e-4, 1.0, 2.0),
    (1.5, 1e-6, 0.3, 1.0),  # −1 < b < 0
    (0.5, 1e-6, 0.1, 1.0),
    (0.9, 1e-5, 0.5, 3.0),
    (0.3, 0.7, 2.0, 0.5),
    (5.0, 2.0, 0.25, 1.0),
    (1 + 2.0**-36, 2.0**-36, 0.0, 1.0),  # b = 0 exactly (in float64 too): w = 1 − 1/ξ cancels
]


@pytest.mark.float
@pytest.mark.result("base:ridge-limit")
def test_limits_float64_precision():
    """float64 twins vs 50-digit mpmath of the hand formula at FLOAT_RTOL, where a wrong branch of
    the stable form loses digits to cancellation; arrays and exact Fractions are real input."""
    xi, lam, s2, sig = (np.array(c) for c in zip(*PRECISION_POINTS, strict=True))
    refs = [_mp_ref(*p) for p in PRECISION_POINTS]
    m_ref = np.array([r[0] for r in refs])
    r_ref = np.array([r[1] for r in refs])
    assert_passed(
        [
            float_agreement("m", B.mp_stieltjes(xi, lam), m_ref),
            float_agreement("ridge", B.ridge_risk_limit(xi, lam, s2, sig), r_ref),
        ]
    )
    fr = (Fraction(1, 3), Fraction(1, 4), Fraction(1, 2), Fraction(3, 2))
    m_fr, r_fr = _mp_ref(*(float(f) for f in fr))
    assert_passed(
        [
            float_agreement("m Fraction", B.mp_stieltjes(fr[0], fr[1]), m_fr),
            float_agreement("ridge Fraction", B.ridge_risk_limit(*fr), r_fr),
            float_agreement(
                "ridge int", B.ridge_risk_limit(2, 1, 0, 3), _mp_ref(2.0, 1.0, 0.0, 3.0)[1]
            ),
        ]
    )
    # Bayes at the same kinds of points: λ* = σ²ξ/signal
    pts = [
        (10.0, 1e-6, 1.0),
        (1e-6, 0.5, 2.0),
        (0.5, 2e-6, 1.0),
        (Fraction(1, 3), Fraction(1, 5), 2),
    ]
    for x, v, a in pts:
        ref = _mp_ref(float(x), float(v) * float(x) / float(a), float(v), float(a))[1]
        assert_passed(float_agreement(f"bayes {x, v, a}", B.bayes_risk_limit_mp(x, v, a), ref))


@pytest.mark.result("base:ridge-limit")
def test_limit_messages():
    """Each refused argument's whole message: name, bound (> or ≥) and the value."""
    pos = r"^{} must be finite and > 0 \(proportional limit\), got {}$"
    nonneg = r"^noise_var \(sigma\^2\) must be finite and ≥ 0 \(proportional limit\), got {}$"
    cases = [
        (lambda: B.mp_stieltjes(0.0, 1.0), pos.format("xi", r"0\.0")),
        (lambda: B.mp_stieltjes(-1.0, 1.0), pos.format("xi", r"-1\.0")),
        (lambda: B.mp_stieltjes(0.5, 0.0), pos.format("lam", r"0\.0")),
        (lambda: B.mp_stieltjes(0.5, np.inf), pos.format("lam", "inf")),
        (lambda: B.ridge_risk_limit(0.0, 1.0, 1.0), pos.format("xi", r"0\.0")),
        (lambda: B.ridge_risk_limit(0.5, 1.0, -0.5), nonneg.format(r"-0\.5")),
        (lambda: B.ridge_risk_limit(0.5, 1.0, np.nan), nonneg.format("nan")),
        (lambda: B.ridge_risk_limit(0.5, 1.0, 1.0, 0.0), pos.format("signal", r"0\.0")),
        (lambda: B.ridge_risk_limit(0.5, -1.0, 1.0), pos.format("lam", r"-1\.0")),
        (lambda: B.ridge_risk_limit(0.5, 0.0, 1.0), pos.format("lam", r"0\.0")),
        (lambda: B.bayes_risk_limit_mp(-0.5, 1.0), pos.format("xi", r"-0\.5")),
        (lambda: B.bayes_risk_limit_mp(0.5, -1.0), nonneg.format(r"-1\.0")),
        (lambda: B.bayes_risk_limit_mp(0.5, 1.0, -2.0), pos.format("signal", r"-2\.0")),
        (
            lambda: B.bayes_risk_limit_mp(0.5, 0.0),
            r"^noise_var \(sigma\^2\) must be > 0 for the Bayes limit, got 0\.0$",
        ),
        (
            lambda: B.bayes_risk_limit_mp(0.5, np.array([0.5, 0.0])),
            r"^noise_var \(sigma\^2\) must be > 0 for the Bayes limit, "
            r"got array\(\[0\.5, 0\. \]\)$",
        ),
    ]
    for call, msg in cases:
        with pytest.raises(ValueError, match=msg):
            call()
    bad_type = r"^{} must be a real number or array, got {}$"
    for call, msg in [
        (lambda: B.mp_stieltjes("0.5", 1.0), bad_type.format("xi", "'0.5'")),
        (
            lambda: B.ridge_risk_limit(0.5, 1.0, b"1"),
            bad_type.format(r"noise_var \(sigma\^2\)", "b'1'"),
        ),
        (
            lambda: B.ridge_risk_limit(0.5, np.array(["1"]), 1.0),
            bad_type.format("lam", r"array\(\['1'\], dtype='<U1'\)"),
        ),
        (
            lambda: B.bayes_risk_limit_mp(0.5, 1.0, np.array([1 + 0j])),
            bad_type.format("signal", r"array\(\[1\.\+0\.j\]\)"),
        ),
    ]:
        with pytest.raises(TypeError, match=msg):
            call()
    # the boundary values that ARE allowed: σ² = 0 (ridge), small positive ξ, λ, signal
    assert_passed(
        [
            float_agreement(
                "sigma2 = 0", B.ridge_risk_limit(0.5, 0.5, 0.0, 0.5), _mp_ref(0.5, 0.5, 0.0, 0.5)[1]
            ),
            float_agreement(
                "float arrays",
                B.ridge_risk_limit(
                    np.array([0.5]), np.array([0.5]), np.array([0.0]), np.array([0.5])
                ),
                np.array([_mp_ref(0.5, 0.5, 0.0, 0.5)[1]]),
            ),
            float_agreement(
                "bool/int arrays",
                B.mp_stieltjes(np.array([True]), np.array([2])),
                np.array([_mp_ref(1.0, 2.0)[0]]),
            ),
        ]
    )
