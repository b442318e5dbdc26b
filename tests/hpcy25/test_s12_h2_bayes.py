"""Checks the mutation triage of issue 35 asked for in [hpcy25]'s Bayes comparison (App. D
(D.34)–(D.36)), session 12: ``bayes_risk_limit``'s backend for mixed SymPy/number inputs, and the
return types of ``bayes_risk_limit_fn`` and ``bayes_risk_given_design`` (a ``float`` for one
point/design, an array for many), with pinned values.

Expected values by hand:

* ``R_B∞ = σ² + σ²ξ m(−σ²ξ)`` at ``ξ = 2, σ² = 3`` (``λ = 6``): the Marchenko–Pastur quadratic
  ``ξλm² + (1 − ξ + λ)m − 1 = 12m² + 5m − 1 = 0`` gives ``m = (√73 − 5)/24``, so
  ``R_B∞ = 3 + (√73 − 5)/4 = (7 + √73)/4``.  At ``ξ = 1/2, σ² = 3`` (``λ = 3/2``):
  ``(3/4)m² + 2m − 1 = 0``, ``m = (−4 + 2√7)/3``, ``R_B∞ = 3 + (3/2)m = 1 + √7``.
* ``σ² + σ² tr[(XᵀX + dσ²I)⁻¹]`` for ``X = [[1, 0], [0, 1], [1, 1]]``, ``d = 2``, ``σ² = 1``:
  ``XᵀX + 2I = [[4, 1], [1, 4]]``, inverse trace ``8/15``, risk ``23/15``; at ``σ² = 1/2``:
  ``XᵀX + I = [[3, 1], [1, 3]]``, inverse trace ``6/8``, risk ``1/2 + 3/8 = 7/8``.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from numerics.testing import FLOAT_RTOL
from theory.hpcy25.appD_optimality import (
    bayes_risk_given_design,
    bayes_risk_limit,
    bayes_risk_limit_fn,
)

_R_XI2_S3 = (7 + sp.sqrt(73)) / 4
_R_XIHALF_S3 = 1 + sp.sqrt(7)
_X = np.array([[1, 0], [0, 1], [1, 1]])


@pytest.mark.parametrize(
    ("xi", "sigma2"),
    [
        (sp.Integer(2), 3),  # SymPy ξ, Python-int σ²
        (2, sp.Integer(3)),  # Python-int ξ, SymPy σ²
    ],
)
def test_bayes_risk_limit_mixed_inputs_give_exact_sympy(xi: object, sigma2: object) -> None:
    """One SymPy argument (either one) gives the exact SymPy value ``(7 + √73)/4``."""
    got = bayes_risk_limit(xi, sigma2)
    assert isinstance(got, sp.Expr)
    assert got.is_Float is False
    assert sp.simplify(got - _R_XI2_S3) == 0


def test_bayes_risk_limit_fn_float_for_a_point_array_for_many() -> None:
    """A scalar point gives a Python ``float``; an array of ξ gives an array (values pinned)."""
    one = bayes_risk_limit_fn(2.0, 3.0)
    assert type(one) is float
    np.testing.assert_allclose(one, float(_R_XI2_S3), rtol=FLOAT_RTOL)
    many = bayes_risk_limit_fn(np.array([2.0, 0.5]), 3.0)
    assert isinstance(many, np.ndarray)
    assert many.shape == (2,)
    np.testing.assert_allclose(many, [float(_R_XI2_S3), float(_R_XIHALF_S3)], rtol=FLOAT_RTOL)


def test_bayes_risk_given_design_float_for_one_design_array_for_a_batch() -> None:
    """One integer design gives a Python ``float`` (``23/15``); a batch of two gives an array."""
    one = bayes_risk_given_design(_X, 1.0)
    assert type(one) is float
    np.testing.assert_allclose(one, 23 / 15, rtol=FLOAT_RTOL)
    batch = bayes_risk_given_design(np.stack([_X, _X]), 1.0)
    assert isinstance(batch, np.ndarray)
    assert batch.shape == (2,)
    np.testing.assert_allclose(batch, [23 / 15, 23 / 15], rtol=FLOAT_RTOL)
    np.testing.assert_allclose(bayes_risk_given_design(_X, 0.5), 7 / 8, rtol=FLOAT_RTOL)
