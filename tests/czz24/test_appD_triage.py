"""[czz24] App. D: the error decomposition (D.1)-(D.3) and Lemma D.2 at generic points, on exact
entries and on refused inputs (session 11 mutation triage)."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest

from numerics.testing import FLOAT_RTOL, ROUTES_ATOL, ROUTES_RTOL, SOLVER_RTOL
from theory.czz24 import error_decomposition, excess_from_parts

F = Fraction
#: A generic 4×3 context, task and noise, exact (support {0, 2}).
XQ = [[F(1), F(0), F(1, 2)], [F(0), F(1), F(-1)], [F(1), F(1), F(0)], [F(2, 3), F(-1), F(1)]]
WQ = [F(1, 2), F(0), F(-3, 4)]
EQ = [F(1, 10), F(-1, 5), F(1, 20), F(0)]


def _floats(v: list) -> np.ndarray:
    return np.array(v, dtype=float)


def test_error_decomposition_of_exact_entries_is_the_float_decomposition() -> None:
    # X, w* or ε given as Fractions (exact rationals): the same float64 vectors as the float
    # context, each part a float64 d-vector
    Xf, wf, ef = _floats(XQ), _floats(WQ), _floats(EQ)
    want = error_decomposition(Xf, wf, ef, 0.4, 3)
    for args in ((XQ, wf, ef), (Xf, WQ, ef), (Xf, wf, EQ), (XQ, WQ, EQ)):
        got = error_decomposition(*args, 0.4, 3)
        for key in ("bias", "noise", "Rbar_w", "rhat"):
            assert got[key].dtype == np.float64, (key, got[key].dtype)
            assert got[key].shape == (3,), key
            np.testing.assert_allclose(got[key], want[key], rtol=ROUTES_RTOL, atol=ROUTES_ATOL)


def test_error_decomposition_refuses_a_zero_correlation_on_the_support() -> None:
    # X = I₂, w* = (1, 0), ε = (−1, 1/2): y = (0, 1/2), r̂ = Xᵀy/n = (0, 1/4), so r̂₀ = 0 with
    # 0 ∈ S and R̄ = diag(1/r̂_j) is undefined
    msg = r"^r̂_j = 0 on the support: R̄ is undefined \(\[czz24\] App\. D\)$"
    with pytest.raises(ValueError, match=msg):
        error_decomposition(np.eye(2), [1.0, 0.0], [-1.0, 0.5], 0.3, 2)
    # r̂ = (1, 1/4) (ε = (1, 1/2)): defined, R̄w* = (1/1, 0)
    p = error_decomposition(np.eye(2), [1.0, 0.0], [1.0, 0.5], 0.3, 2)
    np.testing.assert_allclose(p["rhat"], [1.0, 0.25], rtol=FLOAT_RTOL)
    np.testing.assert_allclose(p["Rbar_w"], [1.0, 0.0], rtol=FLOAT_RTOL)


def _parts() -> dict[str, np.ndarray]:
    return {
        "bias": np.array([0.3, -0.2, 0.5]),
        "noise": np.array([0.1, 0.4, -0.25]),
        "rhat": np.array([0.5, -1.5, 2.0]),
    }


SIG = np.array([[2.0, 0.5, 0.0], [0.5, 1.0, 0.25], [0.0, 0.25, 1.5]])


def test_excess_from_parts_at_a_generic_sigma_pins_the_cross_term() -> None:
    # u_b = r̂ ⊙ bias, u_v = r̂ ⊙ noise: Bias = u_bᵀΣu_b, Var = u_vᵀΣu_v, cross = 2u_bᵀΣu_v
    # (no square root needed on this route)
    p = _parts()
    ub, uv = p["rhat"] * p["bias"], p["rhat"] * p["noise"]
    e = excess_from_parts(p, SIG)
    assert e["bias"] == pytest.approx(ub @ SIG @ ub, rel=FLOAT_RTOL)
    assert e["variance"] == pytest.approx(uv @ SIG @ uv, rel=FLOAT_RTOL)
    assert e["cross"] == pytest.approx(2 * ub @ SIG @ uv, rel=FLOAT_RTOL)
    assert e["cross"] != pytest.approx(0.0, abs=ROUTES_ATOL)
    assert e["excess"] == pytest.approx((ub + uv) @ SIG @ (ub + uv), rel=FLOAT_RTOL)


def test_excess_from_parts_of_exact_entries_is_the_float_excess() -> None:
    # Σ or the parts given as exact rationals (Fraction entries): the float excess of the float
    # inputs
    want = excess_from_parts(_parts(), SIG)
    sq = [[F(repr(v)) for v in row] for row in SIG.tolist()]
    pq = {k: np.array([F(repr(x)) for x in v.tolist()], dtype=object) for k, v in _parts().items()}
    for parts, Sigma in ((_parts(), sq), (pq, SIG)):
        got = excess_from_parts(parts, Sigma)
        for key, val in want.items():
            assert type(got[key]) is float, key
            assert got[key] == pytest.approx(val, rel=ROUTES_RTOL, abs=ROUTES_ATOL), key


def test_excess_from_parts_refuses_a_wrong_length_or_a_non_finite_part() -> None:
    for key, bad in (
        ("noise", np.array([0.1, 0.4])),  # finite, length 2 ≠ d = 3
        ("rhat", np.array([0.5, np.nan, 2.0])),  # length d, not finite
        ("bias", np.array([0.3, np.inf, 0.5])),
    ):
        parts = {**_parts(), key: bad}
        msg = (
            rf"^parts\['{key}'\] must be a finite vector of length d = 3 "
            rf"\(error_decomposition's output\), got {re.escape(repr(bad))}$"
        )
        with pytest.raises(ValueError, match=msg):
            excess_from_parts(parts, SIG)


def test_excess_from_parts_message_is_cut_at_300_characters() -> None:
    # a long wrong-length part: the message is the first 300 characters of the full one
    bad = np.linspace(0.0, 1.0, 200)
    full = (
        "parts['bias'] must be a finite vector of length d = 3 (error_decomposition's output), "
        f"got {bad!r}"
    )
    assert len(full) > 301
    with pytest.raises(ValueError) as err:
        excess_from_parts({**_parts(), "bias": bad}, SIG)
    assert str(err.value) == full[:300]


def test_error_decomposition_paper_variant_drops_only_eta() -> None:
    # the printed D.1's noise term lacks η: paper noise = corrected noise / η, same bias and R̄w*;
    # the corrected parts rebuild the pre-GD iterate of Eq. (4.3)
    from theory.czz24 import pregd_iterate

    X, w, eps, eta = _floats(XQ), _floats(WQ), _floats(EQ), 0.4
    cor = error_decomposition(X, w, eps, eta, 3)
    pap = error_decomposition(X, w, eps, eta, 3, variant="paper")
    np.testing.assert_allclose(pap["noise"], cor["noise"] / eta, rtol=FLOAT_RTOL)
    np.testing.assert_allclose(pap["bias"], cor["bias"], rtol=FLOAT_RTOL)
    np.testing.assert_allclose(
        cor["bias"] + cor["noise"] + cor["Rbar_w"],
        pregd_iterate(X, X @ w + eps, eta, 3),
        rtol=FLOAT_RTOL,
    )


def test_lemma_rates_refuse_delta_at_or_above_d_by_name() -> None:
    # log(d/δ) must be > 0: δ = d (log 1 = 0, the boundary) and δ > d are refused, naming d, δ
    # and the assumption; δ just below d is accepted (a small positive log)
    from theory.czz24 import lemD1_rate, lemD2_sample_size, lemD7_rate

    for d, delta in ((4, 4.0), (4, 6.5)):
        msg = (
            r"^delta must be < d so that log\(d/δ\) > 0 \(\[czz24\] App\. D\), "
            rf"got d = {d}, delta = {delta}$"
        )
        with pytest.raises(ValueError, match=msg):
            lemD2_sample_size(2, d, delta, 0.5)
        with pytest.raises(ValueError, match=msg):
            lemD1_rate([1.0, 0.0, 0.0, 0.0], 1.0, 0.5, 8, d, delta)
        with pytest.raises(ValueError, match=msg):
            lemD7_rate(1.0, 2.0, 1, 0.5, 8, d, delta)
    assert lemD2_sample_size(2, 4, 3.5, 0.5) == pytest.approx(
        2 * np.log(4 / 3.5) / 0.25, rel=FLOAT_RTOL
    )


def test_concentration_shapes_at_a_generic_point() -> None:
    # Lemma D.7's shape, E_ε of its noise term, E r̂ and Lemma D.1's shape by hand at log(d/δ) =
    # log 20 ≠ 1 and C ≠ 1 ([czz24] App. D)
    from theory.czz24 import lemD1_rate, lemD7_rate, noise_term_mean, rhat_mean

    L = np.log(20.0)
    got = lemD7_rate(1.3, 2.2, 3, 0.4, 5, 10, 0.5, C=1.7)
    want = 1.7 * (0.4 * 1.3 * L / 5 + 0.4 * 3 * 2.2 * L**2 / 25)
    assert got == pytest.approx(want, rel=FLOAT_RTOL)
    assert lemD7_rate(1.3, 2.2, 3, 0.4, 5, 10, 0.5) == pytest.approx(want / 1.7, rel=FLOAT_RTOL)
    # K = 1.5 + 0.4, ‖w*‖₁ + 1 = 2.5, d/δ = 3/0.15 = 20
    want = 1.7 * 1.9 * 2.5 * np.sqrt(L / 5)
    assert lemD1_rate([0.5, -1.0, 0.0], 1.5, 0.4, 5, 3, 0.15, C=1.7) == pytest.approx(
        want, rel=FLOAT_RTOL
    )
    # Tr(RΣ̂R) = Σ r_i² Σ̂_ii = 0.25·2 + 2.25·1 + 4·1.5 = 8.75 for a diagonal R
    R = np.diag([0.5, -1.5, 2.0])
    assert noise_term_mean(R, SIG, 0.3, 7) == pytest.approx(0.3 / 7 * 8.75, rel=FLOAT_RTOL)
    Rq = [[F(1, 2), 0, 0], [0, F(-3, 2), 0], [0, 0, F(2)]]
    assert noise_term_mean(Rq, SIG, 0.3, 7) == pytest.approx(0.3 / 7 * 8.75, rel=FLOAT_RTOL)
    # E r̂ = Σw*: (2·0.5 + 0.5·(−1), 0.5·0.5 − 1, 0.25·(−1)) on exact entries too
    for S, w in ((SIG, [0.5, -1.0, 0.0]), ([[F(repr(v)) for v in r] for r in SIG.tolist()], WQ)):
        m = rhat_mean(S, w)
        assert m.dtype == np.float64
        np.testing.assert_allclose(m, SIG @ np.array(w, dtype=float), rtol=FLOAT_RTOL)
    np.testing.assert_allclose(rhat_mean(SIG, [0.5, -1.0, 0.0]), [0.5, -0.75, -0.25])


def test_appF_lower_bound_and_lmmse_lambda_at_generic_points() -> None:
    # Thm 5.3's λ-dependent lower-bound shapes ([czz24] App. F.4, F.8) and λ* = σ²d/(nα²), by hand
    from theory.czz24 import linear_lower_bound, ridge_lmmse_lambda

    assert linear_lower_bound(3, 7, 0.3, 0.4) == pytest.approx(0.9 / (1.96 * 7), rel=FLOAT_RTOL)
    assert linear_lower_bound(3, 7, 0.3) == pytest.approx(0.9 / 7, rel=FLOAT_RTOL)
    want = 1 - 4 / 9 + 0.3 * 4 / (1.96 * 9)
    assert linear_lower_bound(9, 4, 0.3, 0.4) == pytest.approx(want, rel=FLOAT_RTOL)
    assert linear_lower_bound(9, 4, 0.3) == pytest.approx(1 - 4 / 9 + 1.2 / 9, rel=FLOAT_RTOL)
    # n = d: σ²/(1 + λ)² (both branches agree there)
    assert linear_lower_bound(5, 5, 0.3, 0.4) == pytest.approx(0.3 / 1.96, rel=FLOAT_RTOL)
    assert ridge_lmmse_lambda(6, 5, 0.3, 2.0) == pytest.approx(0.18, rel=FLOAT_RTOL)


def test_noise_term_mean_of_decimal_entries_is_the_float_value() -> None:
    # R or Σ̂ with Decimal entries (an exact reference the domain accepts): the float value
    from decimal import Decimal

    from theory.czz24 import noise_term_mean

    R = np.diag([0.5, -1.5, 2.0])
    dec = [[Decimal(repr(v)) for v in row] for row in R.tolist()]
    sdec = [[Decimal(repr(v)) for v in row] for row in SIG.tolist()]
    for Ri, Si in ((dec, SIG), (R, sdec)):
        assert noise_term_mean(Ri, Si, 0.3, 7) == pytest.approx(0.3 / 7 * 8.75, rel=FLOAT_RTOL)


def test_ridge_star_limit_scales_with_the_signal() -> None:
    # the ridge* excess is homogeneous: E(γ, σ², α²) = α² E(γ, σ²/α², 1) (w* → w*/α, y → y/α)
    from theory.czz24 import ridge_star_limit

    got = ridge_star_limit(0.5, 0.3, 2.0)
    assert got == pytest.approx(2.0 * ridge_star_limit(0.5, 0.15, 1.0), rel=SOLVER_RTOL)
    assert got != pytest.approx(ridge_star_limit(0.5, 0.3, 1.0), rel=SOLVER_RTOL)
