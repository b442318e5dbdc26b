"""Checks the mutation triage of issue 35 asked for in [hpcy25]'s ``mp_stieltjes(z, xi)``
(App. D (D.34)–(D.36)), session 12: the backend for mixed SymPy/number inputs, arrays of ``z``,
and an integer ``z`` whose negation overflows in its own dtype.

Expected values are solved by hand from the quadratic ``ξλm² + (1 − ξ + λ)m − 1 = 0`` at
``λ = −z`` (the docstring's closed form ``m(z)`` gives the same roots):
``ξ = 2, z = −3``: ``6m² + 2m − 1 = 0`` → ``m = (√7 − 1)/6``;
``ξ = 2, z = −1``: ``2m² − 1 = 0`` → ``m = 1/√2``;
``ξ = 2, z = −128``: ``256m² + 127m − 1 = 0`` → ``m = (√17153 − 127)/512``.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from numerics.testing import FLOAT_RTOL
from theory.hpcy25.appD_optimality import mp_stieltjes

_M_XI2_Z3 = (sp.sqrt(7) - 1) / 6


@pytest.mark.parametrize(
    ("z", "xi"),
    [
        (sp.Integer(-3), 2),  # SymPy z, Python-int ξ
        (-3, sp.Integer(2)),  # Python-int z, SymPy ξ
    ],
)
def test_mp_stieltjes_mixed_inputs_give_exact_sympy(z: object, xi: object) -> None:
    """One SymPy argument (either one) makes the whole evaluation SymPy: exact ``(√7 − 1)/6``."""
    got = mp_stieltjes(z, xi)
    assert isinstance(got, sp.Expr)
    assert got.is_Float is False
    assert sp.simplify(got - _M_XI2_Z3) == 0


def test_mp_stieltjes_array_z_pinned_values() -> None:
    """An array ``z`` broadcasts (numbers): ``m`` at ``z = −3, −1`` for ``ξ = 2``."""
    got = mp_stieltjes(np.array([-3.0, -1.0]), 2.0)
    want = np.array([(np.sqrt(7.0) - 1.0) / 6.0, 1.0 / np.sqrt(2.0)])
    assert isinstance(got, np.ndarray)
    assert got.shape == (2,)
    np.testing.assert_allclose(got, want, rtol=FLOAT_RTOL)


_M_XI2_Z128 = (np.sqrt(17153.0) - 127.0) / 512.0


@pytest.mark.parametrize(
    ("z", "want"),
    [
        (np.int8(-128), _M_XI2_Z128),
        (np.array([-128, -3], dtype=np.int8), np.array([_M_XI2_Z128, float(_M_XI2_Z3)])),
    ],
)
def test_mp_stieltjes_int8_z_negated_as_float(
    z: np.generic | np.ndarray, want: float | np.ndarray
) -> None:
    """``−z`` is taken in floats: ``z = np.int8(−128)`` is ``λ = 128`` (int8 negation wraps)."""
    np.testing.assert_allclose(mp_stieltjes(z, 2.0), want, rtol=FLOAT_RTOL)
