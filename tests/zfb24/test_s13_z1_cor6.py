"""Checks the mutation triage of issue 35 asked for in [zfb24] Corollary 6 (session 13, helper z1):
the error floor η and the bound at a generic point (d = 3, κ = 5, N = 7, M = 5).

Expected values by hand: Λ = diag(1/2, 3/2, 5/2) has trΛ = 9/2 and κ = 5, so
η = (1 + 2d + d²κ)trΛ/N² = (1 + 6 + 45)(9/2)/49 = 234/49 and the bound
(d + 1)trΛ/M + η = 18/5 + 234/49.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from numerics.testing import FLOAT_RTOL
from theory.zfb24 import cor6_bound, cor6_eta

_L = np.diag([0.5, 1.5, 2.5])


def test_cor6_eta_generic() -> None:
    assert cor6_eta(_L, 7) == pytest.approx(float(F(234, 49)), rel=FLOAT_RTOL)


def test_cor6_bound_generic() -> None:
    assert cor6_bound(_L, 7, 5) == pytest.approx(float(F(18, 5) + F(234, 49)), rel=FLOAT_RTOL)
