"""Session 13 (lead): the flow's variants and exact input of its numpy twin, at a generic point.

The symmetrised variant ("a balanced flow's U̇₁₁ kept symmetric") had no value check: a mutant that
doubled or anti-symmetrised it survived.  Here each variant is written out by hand from eq. (41):
U̇₁₁ = −u² ΓΛU₁₁Λ + uΛ² (paper), with U₁₁ᵀ in the product (transposed), and the symmetric part
of the paper field (symmetrised); u̇ = −tr(uΓΛU₁₁ΛU₁₁ᵀ − Λ²U₁₁ᵀ) in each.  Γ and Λ do not
commute and U₁₁ is not symmetric, so every factor is seen.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from numerics.testing import FLOAT_RTOL
from theory.zfb24 import flow_rhs_fn

U = np.array([[0.3, -0.7], [0.45, 1.1]])
UF = [[F(3, 10), F(-7, 10)], [F(9, 20), F(11, 10)]]
LAM = np.array([[1.5, 0.25], [0.25, 0.75]])
GAM = np.array([[2.0, -0.4], [-0.4, 1.25]])
GF = [[F(2), F(-2, 5)], [F(-2, 5), F(5, 4)]]
u = 0.8


def _hand(variant: str) -> tuple[np.ndarray, float]:
    V = U.T if variant == "transposed" else U
    dU = -(u**2) * GAM @ LAM @ V @ LAM + u * LAM @ LAM
    if variant == "symmetrised":
        dU = (dU + dU.T) / 2
    du = -np.trace(u * GAM @ LAM @ U @ LAM @ U.T - LAM @ LAM @ U.T)
    return dU, du


@pytest.mark.parametrize("variant", ["paper", "transposed", "symmetrised"])
def test_flow_rhs_fn_each_variant_written_out(variant: str) -> None:
    dU, du = flow_rhs_fn(U, u, LAM, GAM, variant=variant)
    want_U, want_u = _hand(variant)
    np.testing.assert_allclose(dU, want_U, rtol=FLOAT_RTOL, atol=0)
    assert du == pytest.approx(want_u, rel=FLOAT_RTOL)
    if variant == "symmetrised":
        np.testing.assert_array_equal(dU, dU.T)
        assert not np.allclose(_hand("paper")[0], dU)  # the point tells the variants apart


def test_flow_rhs_fn_reads_exact_u11_and_gamma_as_float64() -> None:
    """Fraction U₁₁ and Γ: float64 arrays out, equal to the float input's field."""
    for args in ((UF, GAM), (U, GF), (UF, GF)):
        dU, du = flow_rhs_fn(args[0], u, LAM, np.array(args[1], dtype=object))
        assert dU.dtype == np.float64 and isinstance(du, float)
        want_U, want_u = flow_rhs_fn(U, u, LAM, GAM)
        np.testing.assert_array_equal(dU, want_U)
        assert du == want_u
