"""Checks the mutation triage of issue 35 asked for in [zfb24] §4.1 (session 13, helper z1):
``Σ = Cov(xy) = ‖w‖²_Λ Λ + Λwwᵀ Λ`` (:func:`noiseless_Sigma`, after Theorem 5) with one SymPy
argument among plain numbers is exact and SymPy, whichever argument it is.

Expected entries by hand in exact arithmetic: Λ = [[2, 1], [1, 3]], w = (1, −2) give Λw = (0, −5),
‖w‖²_Λ = wᵀΛw = 2 − 4 + 12 = 10, so Σ = 10Λ + (0, −5)(0, −5)ᵀ = [[20, 10], [10, 55]].
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from theory.zfb24 import noiseless_Sigma

_L = [[2, 1], [1, 3]]
_W = [1, -2]
_WANT = sp.Matrix([[20, 10], [10, 55]])


@pytest.mark.parametrize("which", ["w", "Lambda"])
def test_noiseless_sigma_one_sympy_argument_is_exact(which: str) -> None:
    w = sp.Matrix(_W) if which == "w" else np.array(_W)
    L = sp.Matrix(_L) if which == "Lambda" else np.array(_L)
    got = noiseless_Sigma(w, L)
    assert isinstance(got, sp.MatrixBase)
    assert got == _WANT
