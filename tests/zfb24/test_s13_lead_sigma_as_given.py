"""Session 13 (lead): Theorem 5's excess uses Σ as given (it is a moment, not a covariance
we repair).

Σ = Cov_D(xy) may carry round-off asymmetry within the validator's tolerance (1e-10 of its
scale).  ``theorem5_excess`` reads it as given (``as_Lambda(Sigma, spd=False)``), as the SymPy
route does; symmetrising it would move the excess by ~9e-12 relative at an explicit Γ that does not
commute with Λ -- nine times FLOAT_RTOL -- so the float route is pinned to the exact SymPy value
at such a point.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from numerics.testing import FLOAT_RTOL
from theory.zfb24 import theorem5_excess

R = sp.Rational
EPS = R(1, 2 * 10**10)  # asymmetry 5e-11: inside the validator's tolerance
LAM = sp.Matrix([[R(3, 2), R(1, 4)], [R(1, 4), R(3, 4)]])
GAM = sp.Matrix([[2, R(-2, 5)], [R(-2, 5), R(5, 4)]])  # does not commute with Λ
SIG = sp.Matrix([[R(6, 5), R(3, 10) + EPS], [R(3, 10) - EPS, R(9, 10)]])
A = sp.Matrix([R(7, 10), R(-2, 5)])


def _f(m: sp.Matrix) -> np.ndarray:
    return np.array(m.tolist(), dtype=float)


def test_theorem5_excess_reads_sigma_as_given() -> None:
    exact = theorem5_excess(LAM, 7, 5, SIG, A, Gamma=GAM)
    assert isinstance(exact, sp.Basic)
    got = theorem5_excess(_f(LAM), 7, 5, _f(SIG), _f(A)[:, 0], Gamma=_f(GAM))
    assert float(got) == pytest.approx(float(exact), rel=FLOAT_RTOL)
    # the point sees the asymmetry: the symmetrised Σ gives another value beyond FLOAT_RTOL
    sym = theorem5_excess(LAM, 7, 5, (SIG + SIG.T) / 2, A, Gamma=GAM)
    assert abs(float(sym) - float(exact)) > 5 * FLOAT_RTOL * abs(float(exact))
