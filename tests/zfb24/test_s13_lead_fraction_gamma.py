"""Session 13 (lead): an exact Γ is read as float64 before any product in ``loss_of_P_fn``.

Two entries of the equivalent list said an exact (Fraction) Γ gives the same float, bit for bit,
whether or not it is converted first (measured at a 2 × 2 point).  At d = 3 it does not: the
object-dtype products sum in another order than float64 matmul, so the loss moves in its last bits.
The numpy twin promises float64 arithmetic (STYLE R3), so an exact Γ must give exactly the value of
its float64 rounding.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np

from theory.zfb24 import loss_of_P_fn

#: Γ symmetric positive definite with exact entries (A Aᵀ + I/2 for a rational A)
GAMMA = [
    [F(1469, 400), F(-21, 8), F(103, 20)],
    [F(-21, 8), F(15, 4), F(-3, 2)],
    [F(103, 20), F(-3, 2), F(371, 18)],
]
LAMBDA = np.diag([0.5, 1.25, 2.0])
P = [[1.25, 1.0, -2.75], [-1.875, -0.125, -0.5], [0.25, 0.25, 2.125]]


def test_loss_of_P_fn_reads_an_exact_gamma_as_float64_first() -> None:
    exact = np.array(GAMMA, dtype=object)
    rounded = np.array([[float(x) for x in row] for row in GAMMA])
    for s2 in (0.0, 0.25):
        got = loss_of_P_fn(P, LAMBDA, 5, Gamma=exact, s2=s2)
        assert isinstance(got, float)
        assert got == loss_of_P_fn(P, LAMBDA, 5, Gamma=rounded, s2=s2)
