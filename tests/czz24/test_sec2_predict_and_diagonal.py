"""czz24 §2: the read-out of :func:`predict` (a numpy column ``W_O``, head masks passed through to
the forward pass) and :meth:`SparseRegressionICL.diagonal` (its fields and its messages)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from numerics.testing import ROUTES_ATOL, ROUTES_RTOL
from theory.czz24 import (
    apply_layer,
    forward,
    gd_layer,
    layer_operator,
    predict,
    pregd_coefficient,
    pregd_transformer,
    task_second_moment,
)
from theory.czz24.sec2_data import population_correlation
from theory.czz24.sec2_model import LayerWeights, LinTFWeights
from theory.czz24.settings import SparseRegressionICL

# a generic context: n = 3 rows in d = 2, two queries (label slot 0)
X = np.array([[1.0, 0.25], [-0.5, 1.0], [0.75, 1.5]])
Y = np.array([1.0, -0.5, 0.25])
XQ = np.array([[1.0, 2.0], [-1.5, 0.5]])
E = np.vstack([np.vstack([X, XQ]).T, np.append(Y, [0.0, 0.0])])
ETA = 0.5


@pytest.mark.result("czz24:eq2.2")
def test_predict_reads_out_through_a_numpy_column_w_o() -> None:
    # W_O given as a d_hid × 1 numpy column (LinTFWeights: "column d_hid × 1, or 1-D numpy"):
    # the same 1 × m read-out as the 1-D vector, Props. 4.1 + 4.2's pre-GD prediction (Eq. (4.3))
    model = pregd_transformer(2, 3, ETA, 2)
    col = LinTFWeights(W_E=model.W_E, layers=model.layers, W_O=model.W_O.reshape(-1, 1))
    yhat = predict(col, E, 3)
    assert yhat.shape == (5,), yhat.shape
    want = XQ @ pregd_coefficient(X, Y, ETA, 2)
    np.testing.assert_allclose(yhat[3:], want, rtol=ROUTES_RTOL, atol=ROUTES_ATOL)


@pytest.mark.result("czz24:eq2.2")
@pytest.mark.result("czz24:prop4.2")
def test_predict_passes_head_masks_to_the_forward_pass() -> None:
    # Prop. 4.2's GD layer has one head and W_1 = I: masking it skips that GD step, so the
    # (1 + 2)-layer model with its last head masked predicts 1 pre-GD step, not 2 (Eq. (4.3))
    model = pregd_transformer(2, 3, ETA, 2)
    yhat = predict(model, E, 3, head_masks=[None, None, [False]])
    one, two = XQ @ pregd_coefficient(X, Y, ETA, 1), XQ @ pregd_coefficient(X, Y, ETA, 2)
    np.testing.assert_allclose(yhat[3:], one, rtol=ROUTES_RTOL, atol=ROUTES_ATOL)
    assert not np.allclose(one, two, rtol=ROUTES_RTOL, atol=ROUTES_ATOL)


@pytest.mark.result("czz24:sec2")
def test_diagonal_keeps_its_diagonal_prior_and_queries() -> None:
    st = SparseRegressionICL.diagonal([0.5, 2.0, 1.25], s=2, n=5, sigma2=0.25)
    assert (st.d, st.Sigma_diag, st.prior, st.q) == (3, (0.5, 2.0, 1.25), "sign", 1)
    g = SparseRegressionICL.diagonal((0.5, 2.0, 1.25), s=2, n=5, sigma2=0.25, prior="gauss", q=4)
    assert (g.prior, g.q, g.signal) == ("gauss", 4, 2.0)


@pytest.mark.result("czz24:sec2")
def test_diagonal_messages_name_sigma_diag() -> None:
    with pytest.raises(
        ValueError,
        match=r"^Sigma_diag \(diagonal of Σ\) must have a 1-D array, got shape \(1, 2\)$",
    ):
        bad: object = [[1.0, 2.0]]  # a matrix where Σ's diagonal is expected
        SparseRegressionICL.diagonal(bad, s=1, n=3, sigma2=0.0)  # pyright: ignore[reportArgumentType]
    with pytest.raises(
        ValueError,
        match=r"^Sigma_diag \(diagonal of Σ\) must have finite entries, got \[1\.0, nan\]$",
    ):
        SparseRegressionICL.diagonal([1.0, float("nan")], s=1, n=3, sigma2=0.0)


def _two_unit_heads() -> LayerWeights:
    # d_hid = 2, two 1 × 2 heads reading one row each (head k: W_Q = W_K = W_V = e_kᵀ), W_1 = I
    e = np.eye(2)
    return LayerWeights(WQ=[e[:1], e[1:]], WK=[e[:1], e[1:]], WV=[e[:1], e[1:]], W1=np.eye(2))


# H = [[1, 2, 1], [1, −1, 2]], n = 2: head 0 adds (1² + 2²)·[1, 2, 1] = [5, 10, 5] to row 0,
# head 1 adds (1² + (−1)²)·[1, −1, 2] = [2, −2, 4] to row 1 (Eq. (2.2) by hand)
H2 = np.array([[1.0, 2.0, 1.0], [1.0, -1.0, 2.0]])


@pytest.mark.result("czz24:eq2.2")
def test_apply_layer_head_mask_drops_only_the_masked_heads() -> None:
    layer = _two_unit_heads()
    assert apply_layer(H2, layer, 2).tolist() == [[6.0, 12.0, 6.0], [3.0, -3.0, 6.0]]
    assert apply_layer(H2, layer, 2, head_mask=[False, True]).tolist() == [
        [1.0, 2.0, 1.0],
        [3.0, -3.0, 6.0],
    ]
    assert apply_layer(H2, layer, 2, head_mask=[True, False]).tolist() == [
        [6.0, 12.0, 6.0],
        [1.0, -1.0, 2.0],
    ]
    with pytest.raises(ValueError, match=r"^n \(context columns\) must be ≤ m = 3 columns, got 4$"):
        apply_layer(H2, layer, 4)


@pytest.mark.result("czz24:eq2.2")
def test_forward_applies_attn_scale_and_head_masks() -> None:
    # attn_scale = 1/2 halves both heads' terms; head_masks[0] = [True, False] drops head 1
    w = LinTFWeights(W_E=np.eye(2), layers=(_two_unit_heads(),), W_O=np.ones(2), attn_scale=0.5)
    assert forward(w, H2, 2)[-1].tolist() == [[3.5, 7.0, 3.5], [2.0, -2.0, 4.0]]
    assert forward(w, H2, 2, head_masks=[[True, False]])[-1].tolist() == [
        [3.5, 7.0, 3.5],
        [1.0, -1.0, 2.0],
    ]


@pytest.mark.result("czz24:eq2.2")
@pytest.mark.result("czz24:prop4.2")
def test_layer_operator_of_an_exact_gd_layer_is_exact() -> None:
    # Prop. 4.2's GD layer at d = 1 (d_hid = 3): W_V = −(η/n) e_2e_2ᵀ, W_K = W_Q = e_1e_1ᵀ, W_1 = I,
    # so A = I + W_V Ĉ W_Kᵀ W_Q = I − (η/n) Ĉ_21 e_2e_1ᵀ; η = 1/3, n = 3, Ĉ_21 = 2: A_21 = −2/9
    C = sp.Matrix([[5, 2, 0], [2, 7, 1], [0, 1, 3]])
    A = layer_operator(gd_layer(1, sp.Rational(1, 3), 3, exact=True), C)
    assert isinstance(A, sp.MatrixBase) and all(isinstance(a, sp.Rational) for a in A), A
    assert A == sp.Matrix([[1, 0, 0], [sp.Rational(-2, 9), 1, 0], [0, 0, 1]])


@pytest.mark.result("czz24:sec2")
def test_population_correlation_of_exact_entries_is_float64() -> None:
    # r = Σw* (§4.1) with Σ or w* given exactly (Fraction entries): a float64 vector
    from fractions import Fraction

    S = [[Fraction(2), Fraction(1, 2)], [Fraction(1, 2), Fraction(1)]]
    for Sigma, w in ((S, [1.0, -2.0]), ([[2.0, 0.5], [0.5, 1.0]], [Fraction(1), Fraction(-2)])):
        r = population_correlation(Sigma, w)
        assert r.dtype == np.float64 and r.tolist() == [1.0, -1.5], r


@pytest.mark.result("czz24:sec2")
def test_task_second_moment_values_and_sparsity_message() -> None:
    # c = 1/d (sign prior, Thm 5.3) and s/d (Gaussian slab, Sec. 3) at d = 8, s = 2
    assert task_second_moment(8, 2, "sign") == task_second_moment(8, 2) == 0.125  # default: sign
    assert task_second_moment(8, 2, "gauss") == 0.25
    with pytest.raises(
        ValueError, match=r"^s \(sparsity\) must be ≤ d = 3 \(\[czz24\] §2\), got s = 4$"
    ):
        task_second_moment(3, 4, "sign")


@pytest.mark.result("czz24:sec2")
def test_setting_validates_prior_zeta_q_and_passes_zeta_and_a_scalar_diagonal() -> None:
    from theory.czz24.settings import Setting

    for kw, msg in (({"prior": "laplace"}, "^prior"), ({"zeta": -1.0}, "^zeta"), ({"q": 0}, "^q")):
        with pytest.raises(ValueError, match=msg):
            Setting(**kw)  # pyright: ignore[reportArgumentType]
    assert Setting(d=1, s=1, Sigma_diag=2.0).Sigma_diag == (2.0,)  # pyright: ignore[reportArgumentType]
    assert Setting(zeta=0.5).data().zeta == 0.5
