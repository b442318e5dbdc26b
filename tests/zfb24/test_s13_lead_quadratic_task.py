"""Session 13 (lead): ``quadratic_task_moments`` takes w₀ as a (1, d) row as well as a vector.

Its body flattens w₀ (``reshape(-1)``); a (1, d) row, which the validator admits (a (d, 1)
column it refuses), must give the same moments, and ``a`` comes back as a flat (d,) vector.
Values written out by hand from the docstring's formula at a generic point (c = 0.3, s² = 0.2,
non-diagonal Λ).
"""

from __future__ import annotations

import numpy as np

from numerics.testing import FLOAT_RTOL
from theory.zfb24 import quadratic_task_moments

L = np.array([[1.5, 0.25], [0.25, 0.75]])
W = np.array([0.5, -0.3])


def test_quadratic_task_moments_row_w0_is_the_vector_w0() -> None:
    c, s2 = 0.3, 0.2
    Lw, l = L @ W, L[:, 0]
    want = (
        np.outer(Lw, Lw)
        + (W @ Lw) * L
        + 2 * c**2 * L[0, 0] ** 2 * L
        + 8 * c**2 * L[0, 0] * np.outer(l, l)
        + s2 * L
    )
    for w0 in (W, W.reshape(1, -1), W.tolist()):
        S, a, best = quadratic_task_moments(L, w0, s2, coef=c)
        np.testing.assert_allclose(S, want, rtol=FLOAT_RTOL, atol=0)
        assert a.shape == (2,)
        np.testing.assert_array_equal(a, W)
        assert best == 2 * c**2 * L[0, 0] ** 2 + s2
