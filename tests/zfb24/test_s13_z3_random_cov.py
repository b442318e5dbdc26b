"""Mutation triage of issue 35 for [zfb24] §4.3 (session 13, helper z3): the random-covariance
formulas pinned at a non-iid law, against an independent route.

Corollary 22's γ_i, ζ_ij, ξ_i are E[g_iλ_iλ_j] and E[λ_i²] with g_i = (N+1)/N λ_i + Σ_kλ_k/N (the
diagonal of Γ_τ for diagonal Λ_τ): here computed by exact enumeration (fractions) of three
independent two-point laws with different moments, so no factor is hidden by iid or Exp(1)
moments (m1 = 1).  The flow, the loss and the Theorem 8 quantities are then written out again
entry by entry from their printed formulas."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import numpy as np
import pytest
import sympy as sp

import theory.zfb24 as T
from numerics.testing import FLOAT_RTOL

#: (a, b, P(λ = a)) per coordinate: λ_i ∈ {a, b}, independent, different laws.
LAWS = (
    (F(1, 2), F(2), F(1, 4)),
    (F(1), F(3), F(1, 2)),
    (F(1, 5), F(3, 2), F(3, 5)),
)
N5 = 5


def _law_moments() -> tuple[list[F], list[F], list[F]]:
    """E λ_i, E λ_i², E λ_i³ of :data:`LAWS`."""
    return tuple(  # type: ignore[return-value]
        [p * a**k + (1 - p) * b**k for a, b, p in LAWS] for k in (1, 2, 3)
    )


def _prob(law: tuple[F, F, F], o: int) -> F:
    return law[2] if o == 0 else 1 - law[2]


def _enumerate(N: int, laws: tuple[tuple[F, F, F], ...] = LAWS) -> tuple[list[list[F]], list[F]]:
    """Zc_ij = E[g_iλ_iλ_j] and ξ_i = E[λ_i²] by summing over the 2^d outcomes of independent
    two-point ``laws`` (default :data:`LAWS`)."""
    d = len(laws)
    Zc = [[F(0)] * d for _ in range(d)]
    xi = [F(0)] * d
    for pick in itertools.product((0, 1), repeat=d):
        lam = [law[o] for law, o in zip(laws, pick, strict=True)]
        p = F(1)
        for law, o in zip(laws, pick, strict=True):
            p *= _prob(law, o)
        s = sum(lam, F(0))
        for i in range(d):
            g = F(N + 1, N) * lam[i] + s / N
            xi[i] += p * lam[i] ** 2
            for j in range(d):
                Zc[i][j] += p * g * lam[i] * lam[j]
    return Zc, xi


def _floats(v):  # noqa: ANN001, ANN202
    return np.array(v, dtype=float)


M1, M2, M3 = (_floats(v) for v in _law_moments())
ZC_EX, XI_EX = _enumerate(N5)
ZC, XI = _floats(ZC_EX), _floats(XI_EX)
#: a generic state: non-symmetric U₁₁, u₋₁ ≠ 1
U_GEN = np.array([[0.7, -0.3, 0.2], [0.5, 1.1, -0.4], [-0.6, 0.25, 0.9]])
U_M1 = 0.8


def test_rdm_moments_equal_exact_enumeration_of_a_non_iid_law() -> None:
    g, xi, z = T.rdm_moments(M1, M2, M3, N5)
    np.testing.assert_allclose(g, np.diag(ZC), rtol=FLOAT_RTOL)
    np.testing.assert_allclose(xi, XI, rtol=FLOAT_RTOL)
    off = ~np.eye(3, dtype=bool)
    np.testing.assert_allclose(z[off], ZC[off], rtol=FLOAT_RTOL)
    Zc, xi2 = T.rdm_coefficients(M1, M2, M3, N5)
    np.testing.assert_allclose(Zc, ZC, rtol=FLOAT_RTOL)
    np.testing.assert_allclose(xi2, XI, rtol=FLOAT_RTOL)


def test_rdm_moments_of_constant_entries() -> None:
    """λ_i ≡ c_i a.s. (m2 = m1², the edge of Def. 7, accepted): γ_i = (N+1)/N c_i³ + c_i²Σc/N,
    ζ_ij = (N+1)/N c_i²c_j + c_ic_jΣc/N; N = 4, c = (1, 2, 3)."""
    c = np.array([1.0, 2.0, 3.0])
    g, xi, z = T.rdm_moments(c, c**2, c**3, 4)
    np.testing.assert_allclose(g, [1.25 + 1.5, 10 + 6, 33.75 + 13.5], rtol=FLOAT_RTOL)
    np.testing.assert_allclose(xi, [1.0, 4.0, 9.0], rtol=FLOAT_RTOL)
    # ζ_01 = 5/4·1·2 + 2·6/4 = 5.5; ζ_10 = 5/4·4·1 + 2·6/4 = 8; ζ_21 = 5/4·9·2 + 6·6/4 = 31.5
    assert (z[0, 1], z[1, 0], z[2, 1]) == pytest.approx((5.5, 8.0, 31.5), rel=FLOAT_RTOL)


def test_rdm_moments_xi_is_not_the_callers_array() -> None:
    m2 = M2.copy()
    _, xi, _ = T.rdm_moments(M1, m2, M3, N5)
    xi[0] = -1.0
    assert m2[0] == M2[0]


_MOMENTS_MSG = (
    r"^moments must come from a\.s\. positive laws: m1 > 0, m2 ≥ m1², m3 > 0 \(Def\. 7\)$"
)


@pytest.mark.parametrize(
    ("m", "msg"),
    [
        (([0.0, 1.0], [1.0, 2.0], [1.0, 6.0]), _MOMENTS_MSG),
        (([1.0, 1.0], [0.99, 2.0], [1.0, 6.0]), _MOMENTS_MSG),
        (([1.0, 1.0], [2.0, 2.0], [0.0, 6.0]), _MOMENTS_MSG),
        (
            ([[1.0]], [[2.0]], [[6.0]]),
            r"^m1, m2, m3 must be \(d,\) vectors, got \(1, 1\), \(1, 1\), \(1, 1\)$",
        ),
    ],
)
def test_rdm_moments_refusals_name_the_assumption(m: tuple, msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        T.rdm_moments(*m, 4)


def test_rdm_loss_and_flow_written_out_entrywise() -> None:
    U, u = U_GEN, U_M1
    d = 3
    loss = 0.5 * sum(ZC[i, j] * u**2 * U[i, j] ** 2 for i in range(d) for j in range(d))
    loss -= sum(XI[i] * U[i, i] * u for i in range(d))
    assert T.rdm_loss(U, u, ZC, XI) == pytest.approx(loss, rel=FLOAT_RTOL)
    dU, du = T.rdm_flow_rhs(U, u, ZC, XI)
    want = np.array(
        [
            [-ZC[i, j] * u**2 * U[i, j] + (XI[i] * u if i == j else 0.0) for j in range(d)]
            for i in range(d)
        ]
    )
    np.testing.assert_allclose(dU, want, rtol=FLOAT_RTOL)
    want_du = -sum(ZC[i, j] * u * U[i, j] ** 2 for i in range(d) for j in range(d))
    want_du += sum(XI[i] * U[i, i] for i in range(d))
    assert du == pytest.approx(want_du, rel=FLOAT_RTOL)


def test_rdm_loss_of_integer_state() -> None:
    """An integer U₁₁ (documented: a finite d×d state) gives the float loss of the same values."""
    Ui = np.array([[2, -1, 0], [1, 3, 0], [0, 1, -2]])
    assert T.rdm_loss(Ui, 3, ZC, XI) == pytest.approx(
        T.rdm_loss(Ui.astype(float), 3.0, ZC, XI), rel=FLOAT_RTOL
    )


def test_theorem8_limit_quantities_at_a_non_iid_law() -> None:
    ratio = [XI_EX[i] / ZC_EX[i][i] for i in range(3)]
    D = np.diag(_floats(ratio))
    np.testing.assert_allclose(T.rdm_D(M1, M2, M3, N5), D, rtol=FLOAT_RTOL)
    u_inf = float(sum(r**2 for r in ratio)) ** 0.25
    U_inf, u = T.rdm_limit(M1, M2, M3, N5)
    assert u == pytest.approx(u_inf, rel=FLOAT_RTOL)
    np.testing.assert_allclose(U_inf, D / u_inf, rtol=FLOAT_RTOL)
    lmin = -0.5 * float(sum(XI_EX[i] ** 2 / ZC_EX[i][i] for i in range(3)))
    assert T.rdm_min_loss(M1, M2, M3, N5) == pytest.approx(lmin, rel=FLOAT_RTOL)
    assert T.rdm_optimal_loss(M1, M2, M3, N5) == pytest.approx(
        0.5 * float(sum(_law_moments()[0])) + lmin, rel=FLOAT_RTOL
    )


def _theta4() -> np.ndarray:
    A = np.array(
        [[0.9, 0.2, -0.1, 0.3], [0.0, 1.1, 0.4, -0.2], [0.5, -0.3, 0.8, 0.1], [0.2, 0.1, 0.0, 1.2]]
    )
    return A / np.sqrt(np.linalg.norm(A @ A.T))


M1_4 = np.array([1.5, 0.5, 2.0, 1.0])
M2_4 = np.array([3.0, 0.5, 5.0, 1.5])


def test_condition_21_bound_and_lemma27_u_min_written_out() -> None:
    """d = 4 (√d = 2), Θ generic with ‖ΘΘᵀ‖_F = 1, m1 and m2 differing per coordinate."""
    Th = _theta4()
    E = 7.0
    a = 2 * sum((M1_4[i] * Th[i, j]) ** 2 for i in range(4) for j in range(4))
    assert T.rdm_init_bound(M1_4, Th, E) == pytest.approx(a / (2 * E), rel=FLOAT_RTOL)
    s = 0.3
    want = math.sqrt(s**2 * (a - 2 * s**2 * E) / (2 * 2 * 5.0))  # ‖EΛ²‖_op = max m2 = 5
    assert T.rdm_u_min(M1_4, M2_4, Th, s, E) == pytest.approx(want, rel=FLOAT_RTOL)


def test_u_min_refusal_message_whole() -> None:
    Th = _theta4()
    E = 7.0
    bound = T.rdm_init_bound(M1_4, Th, E)
    s = math.sqrt(1.5 * bound)
    msg = (
        r"^Lemma 27 needs condition \(21\): σ² < 2‖EΛΘ‖²/\(√d E‖Γ_τ‖‖Λ_τ‖²\), "
        rf"got σ² = {1.5 * bound:.6g} ≥ {bound:.6g} \(sigma_init = {s!r}\)$"
    )
    with pytest.raises(ValueError, match=msg):
        T.rdm_u_min(M1_4, M2_4, Th, s, E)


@pytest.mark.parametrize("d", [1, 2, 3])
def test_pl_constant_eta_is_the_least_coefficient(d: int) -> None:
    """η = min{γ_i, ζ_ij}: at d = 1 it is γ; at d = 2, 3 (the non-iid law) the least ζ_ij."""
    m = (M1[:d], M2[:d], M3[:d])
    Zc, _ = _enumerate(N5, LAWS[:d])
    Th = np.eye(d) / d**0.25
    s, E = 0.2, 3.0
    eta = float(min(Zc[i][j] for i in range(d) for j in range(d)))
    um = T.rdm_u_min(m[0], m[1], Th, s, E)
    assert T.rdm_pl_constant(*m, N5, Th, s, E) == pytest.approx(eta * um**2, rel=FLOAT_RTOL)


def test_random_and_fixed_test_risk_at_a_generic_point() -> None:
    """r(δ, c, M) and r_I(δ, c, M) written out from their printed forms at δ = 3/10, c = 17/10,
    M = 7, Gamma(2, 0.7) moments, d = 5; exact on the SymPy route, FLOAT on the numpy twin."""
    dl, c, M, d = sp.Rational(3, 10), sp.Rational(17, 10), 7, 5
    m1, m2, m3 = T.gamma_law_moments(2, sp.Rational(7, 10))
    r = dl**2 * c**3 * m3 - 2 * dl * c**2 * m2 + c * m1 + dl**2 * c**3 / M * (2 * m3 + 4 * m1 * m2)
    assert sp.simplify(T.rdm_test_risk(dl, c, M, m1, m2, m3, d) - r) == 0
    num = T.rdm_test_risk_fn(0.3, 1.7, 7, float(m1), float(m2), float(m3), 5)
    assert float(num) == pytest.approx(float(r), rel=FLOAT_RTOL)
    r_inf = r - dl**2 * c**3 / M * (2 * m3 + 4 * m1 * m2)
    assert float(T.rdm_test_risk_fn(0.3, 1.7, np.inf, float(m1), float(m2), float(m3), 5)) == (
        pytest.approx(float(r_inf), rel=FLOAT_RTOL)
    )
    rI = c * (1 - dl * c) ** 2 + dl**2 * c**3 * (d + 1) / M
    assert sp.simplify(T.fixed_test_risk(dl, c, M, d) - rI) == 0
    assert float(T.fixed_test_risk(0.3, 1.7, 7, 5)) == pytest.approx(float(rI), rel=FLOAT_RTOL)


def test_lsa_limit_random_at_a_generic_c() -> None:
    # c = 5/2: 5/2·(2·25/12 − 10/3 + 1) = 5/2·11/6 = 55/12
    assert T.lsa_limit_random(sp.Rational(5, 2)) == sp.Rational(55, 12)


_IID_MSG = (
    r"^m1, m2, m3 must be the moments of an a\.s\. positive law: m1 > 0, m2 ≥ m1², m3 > 0 "
    r"\(zfb24 Def\. 7\), got "
)


def test_iid_moments_edge_and_refusal() -> None:
    """m2 = m1² (constant entries λ ≡ 2) is accepted: γ = 8 + (16 + 2·2·4)/N; m2 < m1² names all
    three moments."""
    g, xi, z = T.moments_iid(2, 4, 8, 3, 4)
    assert (g, xi, z) == (16, 4, 8 + (24 + 8) / sp.Integer(4))
    with pytest.raises(ValueError, match=_IID_MSG + r"1, 0\.5, 6$"):
        T.moments_iid(1, 0.5, 6, 3, 4)


def test_u_min_with_bracket_below_one() -> None:
    """0 < bracket < 1 (σ² just inside condition (21)): u_min² = σ²·½/(2√d max m2), d = 4."""
    Th = _theta4()
    E = 7.0
    a = 2 * sum((M1_4[i] * Th[i, j]) ** 2 for i in range(4) for j in range(4))
    s2 = (a - 0.5) / (2 * E)  # bracket a − √d σ² E = 0.5
    want = math.sqrt(s2 * 0.5 / (2 * 2 * 5.0))
    assert T.rdm_u_min(M1_4, M2_4, Th, math.sqrt(s2), E) == pytest.approx(want, rel=FLOAT_RTOL)


#: a skewed two-point law λ ∈ {1/10, 5}, P(λ = 1/10) = 9/10: E λ³ ≫ E λ² E λ, so ζ_ij < γ_i.
SKEW = (F(1, 10), F(5), F(9, 10))


@pytest.mark.parametrize("d", [2, 3])
def test_pl_constant_eta_is_an_off_diagonal_zeta_for_a_skewed_law(d: int) -> None:
    """iid skewed entries: η = ζ = E[g_1λ_1λ_2] (enumerated), below γ; ν = η u_min²."""
    Zc, _ = _enumerate(N5, (SKEW,) * d)
    assert Zc[0][1] < Zc[0][0]
    m = tuple(
        np.full(d, float(SKEW[2] * SKEW[0] ** k + (1 - SKEW[2]) * SKEW[1] ** k)) for k in (1, 2, 3)
    )
    Th = np.eye(d) / d**0.25
    s, E = 0.2, 3.0
    um = T.rdm_u_min(m[0], m[1], Th, s, E)
    assert T.rdm_pl_constant(*m, N5, Th, s, E) == pytest.approx(
        float(Zc[0][1]) * um**2, rel=FLOAT_RTOL
    )


@pytest.mark.parametrize(
    ("m", "ok"),
    [
        ((1, sp.Rational(3, 2), 3), True),  # m2 between m1² and 2m1
        ((sp.Rational(1, 2), sp.Rational(1, 2), sp.Rational(3, 4)), True),  # Exp(1/2): m3 < 1
        ((3, 7, 30), False),  # m2 < m1² (though m2 > 2m1)
    ],
)
def test_iid_moments_condition_m2_ge_m1_squared(m: tuple, ok: bool) -> None:
    if ok:
        g, xi, _ = T.moments_iid(*m, 3, 4)
        assert xi == m[1]
        assert g == m[2] + (2 * m[2] + 2 * m[0] * m[1]) / 4
    else:
        with pytest.raises(ValueError, match=_IID_MSG + r"3, 7, 30$"):
            T.moments_iid(*m, 3, 4)


def test_iid_moments_refuse_a_nonpositive_symbol() -> None:
    """A symbolic m1 or m3 whose assumptions make it ≤ 0 is refused (m ≤ 0 decided True)."""
    x = sp.Symbol("x", nonpositive=True)
    with pytest.raises(ValueError, match=_IID_MSG + r"x, 2, 6$"):
        T.moments_iid(x, 2, 6, 3, 4)
    with pytest.raises(ValueError, match=_IID_MSG + r"1, 2, x$"):
        T.moments_iid(1, 2, x, 3, 4)


#: λ scaled by 2³³: integer moments whose int64 squares overflow (m1² = 2⁶⁶).
BIG = 2**33


def test_integer_moments_beyond_int64_squares() -> None:
    """Integer m1 = 2³³ (a law scaled by 2³³): the float value, not int64 wrap-around."""
    m1 = np.array([BIG, 2 * BIG, 3 * BIG])
    m2 = 2.0 * m1.astype(float) ** 2
    m3 = 6.0 * m1.astype(float) ** 3
    g, xi, z = T.rdm_moments(m1, m2, m3, N5)
    gf, xf, zf = T.rdm_moments(m1.astype(float), m2, m3, N5)
    np.testing.assert_allclose(z, zf, rtol=FLOAT_RTOL)
    np.testing.assert_allclose(g, gf, rtol=FLOAT_RTOL)
    mi = np.array([2**62, 2**62])
    m2i, m3i = 2.0 * mi.astype(float) ** 2, 6.0 * mi.astype(float) ** 3
    assert T.rdm_optimal_loss(mi, m2i, m3i, 4) == pytest.approx(
        T.rdm_optimal_loss(mi.astype(float), m2i, m3i, 4), rel=FLOAT_RTOL
    )


def test_rdm_loss_of_a_large_integer_state() -> None:
    """U₁₁ with an integer entry 2³² (its int64 square wraps to 0): the float loss."""
    Ui = np.array([[2**32, 1], [0, 3]])
    Zc = np.array([[2.0, 0.5], [0.75, 3.0]])
    xi = np.array([1.0, 2.0])
    want = 0.5 * 0.25 * (2.0 * 2.0**64 + 0.5 + 3.0 * 9) - 0.5 * (2.0**32 + 6.0)
    assert T.rdm_loss(Ui, 0.5, Zc, xi) == pytest.approx(want, rel=FLOAT_RTOL)


@pytest.mark.parametrize("kind", ["fraction", "rational", "int"])
def test_bounds_with_exact_entries_equal_the_float_value(kind: str) -> None:
    """Exact (Fraction, SymPy Rational) or integer m1, m2, Θ give bit for bit the float result."""
    conv = {"fraction": F, "rational": sp.Rational, "int": int}[kind]
    m1 = [conv(3), conv(1), conv(2)] if kind == "int" else [conv(3, 2), conv(1, 3), conv(2, 7)]
    m2 = [conv(5), conv(1), conv(6)] if kind == "int" else [conv(5, 2), conv(1, 7), conv(3, 2)]
    Th = [[conv(1), conv(0), conv(0)], [conv(0), conv(0), conv(0)], [conv(0), conv(0), conv(0)]]
    f1, f2 = np.array(m1, dtype=float), np.array(m2, dtype=float)
    Tf = np.array(Th, dtype=float)
    assert T.rdm_init_bound(m1, Th, 3.0) == T.rdm_init_bound(f1, Tf, 3.0)
    assert T.rdm_u_min(m1, m2, Th, 0.5, 3.0) == T.rdm_u_min(f1, f2, Tf, 0.5, 3.0)
    Tg = _theta4()[:3, :3] / np.sqrt(np.linalg.norm(_theta4()[:3, :3] @ _theta4()[:3, :3].T))
    assert T.rdm_init_bound(m1, Tg, 3.0) == T.rdm_init_bound(f1, Tg, 3.0)
    assert T.rdm_u_min(m1, m2, Tg, 0.3, 3.0) == T.rdm_u_min(f1, f2, Tg, 0.3, 3.0)


@pytest.mark.parametrize("conv", [F, sp.Rational])
def test_bounds_with_an_exact_theta_equal_the_float_value(conv) -> None:  # noqa: ANN001
    """An exact Θ with ‖ΘΘᵀ‖_F = 1 (rows (3,2,1,1)/5, (0,2,−4,0)/5: ΘΘᵀ = diag(3/5, 4/5, 0, 0)) and
    exact m1, m2: bit for bit the float result (the exact values are converted first, as the float
    route; an exact sum rounded once differs in the last bit at this m1)."""
    rows = [[3, 2, 1, 1], [0, 2, -4, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    Th = [[conv(v, 5) for v in r] for r in rows]
    m1 = [conv(15), conv(99, 26), conv(70, 71), conv(15, 26)]  # float64 sums round here
    m2 = [conv(5, 2), conv(1, 7), conv(3, 2), conv(2)]
    f1, f2, Tf = (np.array(v, dtype=float) for v in (m1, m2, Th))
    assert T.rdm_init_bound(m1, Th, 3.0) == T.rdm_init_bound(f1, Tf, 3.0)
    assert T.rdm_u_min(m1, m2, Th, 0.3, 3.0) == T.rdm_u_min(f1, f2, Tf, 0.3, 3.0)
