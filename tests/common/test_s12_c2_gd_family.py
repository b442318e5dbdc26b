"""GD family (theory.common.baselines.gd): pinned values at a generic point, every route, messages.

Issue 35 (mutation testing), session 12, helper c2.  Expected values come from the printed
displays of the docstrings (zwb24 eq. (5.1)'s closed form for GD-β; the derived ``R_D`` display for
debiased GD), evaluated here in exact ``Fraction`` arithmetic - an independent route from the
implementation, which goes through ``E[Ŝ A Ŝ]`` (:func:`theory.common.gaussian.wishart_identity`).
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import numpy as np
import pytest
import sympy as sp

from numerics.testing import FLOAT_RTOL
from theory.common.baselines import dgd_risk, gd_beta_risk, gd_risk
from theory.common.baselines.gd import float_out, setting_kwargs
from theory.settings import LinearRegressionICL

# A generic point: d = 2, non-symmetric Γ and P, correlated H and Ψ, non-zero β*, β0, σ², η.
H = [[F(2), F(1, 2)], [F(1, 2), F(1)]]
PSI = [[F(7, 10), F(1, 5)], [F(1, 5), F(2, 5)]]
MU = [F(3, 10), F(-4, 5)]
BETA0 = [F(1, 2), F(1, 4)]
GAMMA = [[F(2, 5), F(-3, 10)], [F(1, 10), F(3, 5)]]
P_Q = [[F(9, 10), F(1, 5)], [F(-1, 10), F(7, 10)]]
S2 = F(7, 20)
ETA = F(3, 5)
N_GD = 3
N_DGD = 4


def _m(a: Any) -> np.ndarray:
    return np.array(a, dtype=object)


def _tr(a: np.ndarray) -> Any:
    return sum(a[i, i] for i in range(a.shape[0]))


def _outer(v: Any) -> np.ndarray:
    v = _m(v)
    return _m([[x * y for y in v] for x in v])


def _gd_beta_display(G: Any, b0: Any, Hm: Any, mu: Any, Psi: Any, s2: Any, N: int) -> F:
    """zwb24 eq. (5.1)'s risk, the display of :func:`gd_beta_risk`, in exact arithmetic."""
    G, Hm = _m(G), _m(Hm)
    Pb = _m(Psi) + _outer([m - b for m, b in zip(mu, b0, strict=True)])
    c = _tr(Hm @ Pb) + s2
    return (
        s2
        + _tr(Hm @ Pb)
        - 2 * _tr(Hm @ G @ Hm @ Pb)
        + F(N + 1, N) * _tr(Hm @ G.T @ Hm @ G @ Hm @ Pb)
        + c / N * _tr(G.T @ Hm @ G @ Hm)
    )


def _dgd_display(P: Any, eta: Any, Hm: Any, Psi: Any, s2: Any, N: int, mu: Any) -> F:
    """The ``R_D`` display of :func:`dgd_risk` (n = N − 1, G = (η/N) Pᵀ), exact arithmetic."""
    Hm = _m(Hm)
    n = N - 1
    G = _m(P).T * (F(eta) / N)
    P0 = _m(Psi) + _outer(mu)
    return (
        s2
        + _tr(Hm @ P0)
        - 2 * n * _tr(Hm @ G @ Hm @ P0)
        + n * (n + 1) * _tr(Hm @ G.T @ Hm @ G @ Hm @ P0)
        + n * (_tr(Hm @ P0) + s2) * _tr(G.T @ Hm @ G @ Hm)
    )


def _fl(a: Any) -> Any:
    """Nested Fractions -> nested floats (the numeric route's input)."""
    return [_fl(x) for x in a] if isinstance(a, list) else float(a)


def _sp(a: Any) -> Any:
    """Nested Fractions -> SymPy: a ``Matrix`` (vectors as columns) or a ``Rational``."""
    if isinstance(a, list):
        return (
            sp.Matrix([[sp.Rational(x.numerator, x.denominator)] for x in a])
            if not isinstance(a[0], list)
            else sp.Matrix([[sp.Rational(x.numerator, x.denominator) for x in r] for r in a])
        )
    return sp.Rational(a.numerator, a.denominator)


GD_BETA_ARGS = (GAMMA, BETA0, H, MU, PSI, S2, N_GD)
GD_BETA_EXPECTED = _gd_beta_display(*GD_BETA_ARGS)
GD_EXPECTED = _gd_beta_display(GAMMA, [F(0), F(0)], H, MU, PSI, S2, N_GD)
DGD_EXPECTED = _dgd_display(P_Q, ETA, H, PSI, S2, N_DGD, MU)
DGD_EXPECTED_MEAN0 = _dgd_display(P_Q, ETA, H, PSI, S2, N_DGD, [F(0), F(0)])


def test_the_generic_point_is_not_degenerate() -> None:
    # the three pinned values differ from each other and from the GD-0 / η = 0 special cases
    assert len({GD_BETA_EXPECTED, GD_EXPECTED, DGD_EXPECTED, DGD_EXPECTED_MEAN0}) == 4


def test_gd_beta_risk_numeric_equals_the_display_at_a_generic_point() -> None:
    r = gd_beta_risk(*(_fl(a) if not isinstance(a, int) else a for a in GD_BETA_ARGS))
    assert type(r) is np.float64
    assert float(r) == pytest.approx(float(GD_BETA_EXPECTED), rel=FLOAT_RTOL)


def test_gd_beta_risk_integer_n_one_and_batched_gamma() -> None:
    # N = 1 is in the domain (prompt length ≥ 1); a batch of two Γ gives a (2,) float64 array
    e1 = _gd_beta_display(GAMMA, BETA0, H, MU, PSI, S2, 1)
    r1 = gd_beta_risk(_fl(GAMMA), _fl(BETA0), _fl(H), _fl(MU), _fl(PSI), float(S2), 1)
    assert float(r1) == pytest.approx(float(e1), rel=FLOAT_RTOL)
    G2 = [[F(-1, 5), F(1, 2)], [F(3, 10), F(1, 10)]]
    e2 = _gd_beta_display(G2, BETA0, H, MU, PSI, S2, N_GD)
    rb = gd_beta_risk(
        np.array([_fl(GAMMA), _fl(G2)]), _fl(BETA0), _fl(H), _fl(MU), _fl(PSI), float(S2), N_GD
    )
    assert isinstance(rb, np.ndarray) and rb.dtype == np.float64 and rb.shape == (2,)
    np.testing.assert_allclose(rb, [float(GD_BETA_EXPECTED), float(e2)], rtol=FLOAT_RTOL)


def test_gd_risk_numeric_equals_the_display_at_beta0_zero() -> None:
    r = gd_risk(_fl(GAMMA), _fl(H), _fl(MU), _fl(PSI), float(S2), N_GD)
    assert type(r) is np.float64
    assert float(r) == pytest.approx(float(GD_EXPECTED), rel=FLOAT_RTOL)


def test_dgd_risk_numeric_equals_the_display_with_and_without_task_mean() -> None:
    r = dgd_risk(_fl(P_Q), float(ETA), _fl(H), _fl(PSI), float(S2), N_DGD, task_mean=_fl(MU))
    assert type(r) is np.float64
    assert float(r) == pytest.approx(float(DGD_EXPECTED), rel=FLOAT_RTOL)
    r0 = dgd_risk(_fl(P_Q), float(ETA), _fl(H), _fl(PSI), float(S2), N_DGD)  # default β* = 0
    assert float(r0) == pytest.approx(float(DGD_EXPECTED_MEAN0), rel=FLOAT_RTOL)
    # N = 2 is the smallest admissible prompt (one centred degree of freedom)
    e2 = _dgd_display(P_Q, ETA, H, PSI, S2, 2, MU)
    r2 = dgd_risk(_fl(P_Q), float(ETA), _fl(H), _fl(PSI), float(S2), 2, task_mean=_fl(MU))
    assert float(r2) == pytest.approx(float(e2), rel=FLOAT_RTOL)


# ---------------------------------------------------------------- SymPy route, exact values
def test_sympy_routes_are_exact_at_the_generic_point() -> None:
    r = gd_beta_risk(*(_sp(a) if not isinstance(a, int) else sp.Integer(a) for a in GD_BETA_ARGS))
    assert sp.nsimplify(r) == _sp(GD_BETA_EXPECTED)
    r = gd_risk(_sp(GAMMA), _sp(H), _sp(MU), _sp(PSI), _sp(S2), sp.Integer(N_GD))
    assert sp.simplify(r - _sp(GD_EXPECTED)) == 0
    r = dgd_risk(
        _sp(P_Q), _sp(ETA), _sp(H), _sp(PSI), _sp(S2), sp.Integer(N_DGD), task_mean=_sp(MU)
    )
    assert sp.simplify(r - _sp(DGD_EXPECTED)) == 0
    r = dgd_risk(_sp(P_Q), _sp(ETA), _sp(H), _sp(PSI), _sp(S2), sp.Integer(N_DGD))
    assert sp.simplify(r - _sp(DGD_EXPECTED_MEAN0)) == 0
    # a symbolic β0 = 0 (SymPy zero) and task_mean = 0 are the zero vector
    r = gd_beta_risk(_sp(GAMMA), sp.Integer(0), _sp(H), _sp(MU), _sp(PSI), _sp(S2), N_GD)
    assert sp.simplify(r - _sp(GD_EXPECTED)) == 0


_GD_BETA_NAMES = ("Gamma", "beta0", "Sigma_x", "task_mean", "task_cov", "noise_var", "N")


@pytest.mark.parametrize("which", range(7), ids=_GD_BETA_NAMES)
def test_gd_beta_risk_one_sympy_argument_among_floats_takes_the_sympy_route(which: int) -> None:
    args: list[Any] = [_fl(a) if not isinstance(a, int) else a for a in GD_BETA_ARGS]
    a = GD_BETA_ARGS[which]
    args[which] = sp.Integer(a) if isinstance(a, int) else _sp(a)
    r = gd_beta_risk(*args)
    assert isinstance(r, sp.Expr)
    assert float(r) == pytest.approx(float(GD_BETA_EXPECTED), rel=FLOAT_RTOL)


_GD_ARGS = (GAMMA, H, MU, PSI, S2, N_GD)


@pytest.mark.parametrize("which", range(6), ids=("Gamma", *_GD_BETA_NAMES[2:]))
def test_gd_risk_one_sympy_argument_among_floats_takes_the_sympy_route(which: int) -> None:
    args: list[Any] = [_fl(a) if not isinstance(a, int) else a for a in _GD_ARGS]
    a = _GD_ARGS[which]
    args[which] = sp.Integer(a) if isinstance(a, int) else _sp(a)
    r = gd_risk(*args)
    assert isinstance(r, sp.Expr)
    assert float(r) == pytest.approx(float(GD_EXPECTED), rel=FLOAT_RTOL)


_DGD_ARGS = (P_Q, ETA, H, PSI, S2, N_DGD, MU)


@pytest.mark.parametrize(
    "which", range(7), ids=("P", "eta", "Sigma_x", "task_cov", "noise_var", "N", "task_mean")
)
def test_dgd_risk_one_sympy_argument_among_floats_takes_the_sympy_route(which: int) -> None:
    args: list[Any] = [_fl(a) if not isinstance(a, int) else a for a in _DGD_ARGS]
    a = _DGD_ARGS[which]
    args[which] = sp.Integer(a) if isinstance(a, int) else _sp(a)
    *pos, mu = args
    r = dgd_risk(*pos, task_mean=mu)
    assert isinstance(r, sp.Expr)
    assert float(r) == pytest.approx(float(DGD_EXPECTED), rel=FLOAT_RTOL)


# ---------------------------------------------------------------- bad input: whole messages
_NOT_PSD = r" must be positive semidefinite, got smallest eigenvalue -1$"
_NUM = {
    "Gamma": _fl(GAMMA),
    "beta0": _fl(BETA0),
    "Sigma_x": _fl(H),
    "task_mean": _fl(MU),
    "task_cov": _fl(PSI),
    "noise_var": float(S2),
    "N": N_GD,
}
_BAD_GD_BETA = [
    ("Sigma_x", [[1.0, 2.0], [2.0, 1.0]], "^Sigma_x" + _NOT_PSD),
    ("Gamma", np.eye(3), r"^Gamma must have trailing shape \(2, 2\), got shape \(3, 3\)$"),
    ("beta0", [1.0, 2.0, 3.0], r"^beta0 must have trailing length d = 2, got shape \(3,\)$"),
    ("task_mean", [1.0, 2.0, 3.0], r"^task_mean must have shape \(2,\), got shape \(3,\)$"),
    ("task_cov", np.eye(3), r"^task_cov must have shape \(2, 2\), got shape \(3, 3\)$"),
    ("task_cov", [[1.0, 0.0], [0.0, -1.0]], "^task_cov" + _NOT_PSD),
    ("noise_var", -0.1, r"^noise_var \(sigma\^2\) must be ≥ 0, got -0\.1$"),
    ("N", 0, r"^N must be ≥ 1 \(prompt length\), got 0$"),
    ("N", 2.5, r"^N must be an integer \(prompt length\), got 2\.5$"),
]


@pytest.mark.parametrize(("field", "value", "message"), _BAD_GD_BETA)
def test_gd_beta_risk_bad_numeric_input_messages(field: str, value: Any, message: str) -> None:
    kw = dict(_NUM, **{field: value})
    with pytest.raises(ValueError, match=message):
        gd_beta_risk(**kw)
    if field != "beta0":
        del kw["beta0"]
        with pytest.raises(ValueError, match=message):
            gd_risk(**kw)


_DNUM = {
    "P": _fl(P_Q),
    "eta": float(ETA),
    "Sigma_x": _fl(H),
    "task_cov": _fl(PSI),
    "noise_var": float(S2),
    "N": N_DGD,
    "task_mean": _fl(MU),
}
_BAD_DGD = [
    ("Sigma_x", [[1.0, 2.0], [2.0, 1.0]], "^Sigma_x" + _NOT_PSD),
    ("P", np.eye(3), r"^P must have trailing shape \(2, 2\), got shape \(3, 3\)$"),
    ("eta", float("nan"), r"^eta must be finite, got nan$"),
    (
        "task_mean",
        [1.0, 2.0, 3.0],
        r"^task_mean must have trailing length d = 2, got shape \(3,\)$",
    ),
    ("task_cov", np.eye(3), r"^task_cov must have shape \(2, 2\), got shape \(3, 3\)$"),
    ("task_cov", [[1.0, 0.0], [0.0, -1.0]], "^task_cov" + _NOT_PSD),
    ("noise_var", -0.1, r"^noise_var \(sigma\^2\) must be ≥ 0, got -0\.1$"),
    ("N", 1, r"^N must be ≥ 2 \(debiased GD needs N ≥ 2\), got 1$"),
]


@pytest.mark.parametrize(("field", "value", "message"), _BAD_DGD)
def test_dgd_risk_bad_numeric_input_messages(field: str, value: Any, message: str) -> None:
    kw = dict(_DNUM, **{field: value})
    with pytest.raises(ValueError, match=message):
        dgd_risk(**kw)


def _sym_refusal(name: str) -> str:
    return rf"^{name} must be a SymPy Matrix or MatrixSymbol when symbolic, got array\("


@pytest.mark.parametrize("field", ["Gamma", "beta0", "Sigma_x", "task_mean", "task_cov"])
def test_gd_beta_risk_sympy_route_names_a_numpy_array_it_refuses(field: str) -> None:
    # symbolic σ² sends every argument down the SymPy route, which takes lists, Matrix and
    # MatrixSymbol but not a numpy array: the refusal names the argument
    kw: dict[str, Any] = {
        k: _sp(v) if k != "N" else v for k, v in zip(_GD_BETA_NAMES, GD_BETA_ARGS, strict=True)
    }
    exact: dict[str, Any] = dict(zip(_GD_BETA_NAMES, GD_BETA_ARGS, strict=True))
    kw[field] = np.array(_fl(exact[field]))
    with pytest.raises(ValueError, match=_sym_refusal(field)):
        gd_beta_risk(**kw)


@pytest.mark.parametrize("field", ["P", "Sigma_x", "task_mean", "task_cov"])
def test_dgd_risk_sympy_route_names_a_numpy_array_it_refuses(field: str) -> None:
    names = ("P", "eta", "Sigma_x", "task_cov", "noise_var", "N", "task_mean")
    kw: dict[str, Any] = {
        k: _sp(v) if k != "N" else v for k, v in zip(names, _DGD_ARGS, strict=True)
    }
    exact: dict[str, Any] = dict(zip(names, _DGD_ARGS, strict=True))
    kw[field] = np.array(_fl(exact[field]))
    with pytest.raises(ValueError, match=_sym_refusal(field)):
        dgd_risk(**kw)


def test_sympy_route_takes_task_mean_zero_as_the_zero_vector() -> None:
    # hpcy25's isotropic specialisation calls gd_risk(ηI, I, 0, I/d, σ², L) symbolically
    # (theory/hpcy25/appD_optimality.py::_isotropic_risk): β* = 0 is the scalar 0 there
    zero = [F(0), F(0)]
    r = gd_beta_risk(_sp(GAMMA), _sp(BETA0), _sp(H), 0, _sp(PSI), _sp(S2), sp.Integer(N_GD))
    assert r == _sp(_gd_beta_display(GAMMA, BETA0, H, zero, PSI, S2, N_GD))
    r = gd_risk(_sp(GAMMA), _sp(H), 0, _sp(PSI), _sp(S2), sp.Integer(N_GD))
    assert r == _sp(_gd_beta_display(GAMMA, zero, H, zero, PSI, S2, N_GD))


def test_float_out_makes_integer_input_float64() -> None:
    # a 0-d result is an np.float64, anything else a float64 array (integer input included)
    x = float_out(np.int64(3))
    assert type(x) is np.float64 and x == 3.0
    a = float_out([[1, 2], [3, 4]])
    assert isinstance(a, np.ndarray) and a.dtype == np.float64 and a.shape == (2, 2)
    assert a.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert float_out([7]).dtype == np.float64


def test_setting_kwargs_feed_the_risks_at_a_generic_setting() -> None:
    s = LinearRegressionICL.from_arrays(
        N=N_GD,
        Sigma_x=_fl(H),
        task_mean=_fl(MU),
        task_cov=_fl(PSI),
        noise_var=float(S2),
    )
    kw = setting_kwargs(s)
    assert set(kw) == {"Sigma_x", "task_mean", "task_cov", "noise_var", "N"}
    assert float(gd_risk(_fl(GAMMA), **kw)) == pytest.approx(float(GD_EXPECTED), rel=FLOAT_RTOL)
    r = gd_beta_risk(_fl(GAMMA), _fl(BETA0), **kw)
    assert float(r) == pytest.approx(float(GD_BETA_EXPECTED), rel=FLOAT_RTOL)
