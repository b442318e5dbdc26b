"""Checks the mutation triage of issue 35 asked for in [zfb24] §4.1–§4.2 (session 13, helper z1):
the covariate-scaling limit with a SymPy Λ beside a plain number c is exact, and the isotropic
prior risk of plain numbers is a float.

Expected values by hand: ``(c² − 1)²c² trΛ`` at c = 3, trΛ = 1/2 + 3/2 = 2 is 64·9·2 = 1152;
``d(d+1)[N²/M + d + 1]/(N + d + 1)²`` at d = 3, N = 7, M = 5 is 12·(49/5 + 4)/121 = 828/605.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
import sympy as sp

from numerics.testing import FLOAT_RTOL
from theory.zfb24 import covariate_scaling_limit, prior_risk_isotropic


def test_covariate_scaling_limit_sympy_lambda_beside_a_number_is_exact() -> None:
    L = sp.Matrix([[sp.Rational(1, 2), sp.Rational(1, 5)], [sp.Rational(1, 5), sp.Rational(3, 2)]])
    got = covariate_scaling_limit(3, L)
    assert isinstance(got, sp.Basic)
    assert got == 1152


def test_prior_risk_isotropic_of_numbers_is_a_float() -> None:
    got = prior_risk_isotropic(3, 7, 5)
    assert type(got) is float
    assert got == pytest.approx(float(F(828, 605)), rel=FLOAT_RTOL)
