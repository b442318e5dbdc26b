"""[czz24] §3 head tables and §5 supports: exact (Fraction) entries, later layers, s = d.

Expected values are worked by hand (exact fractions, then the correctly rounded float64).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from theory.czz24 import head_importance, pruning_keep, sorted_importance, supports

F = Fraction


@pytest.mark.result("czz24:eq3.1")
def test_head_importance_of_exact_entries_is_float64() -> None:
    # Eq. (3.1) on a ΔE table of exact fractions (accepted by the domain as high-precision
    # input): rows 1/2 : 3/2 and 1 : 4 normalise to 1/4 : 3/4 and 1/5 : 4/5, returned as float64
    # (an object array of Fractions would not be: np.isfinite refuses it)
    W = head_importance([[F(1, 2), F(3, 2)], [F(1), F(4)]])
    assert W.dtype == np.float64
    assert np.isfinite(W).all()
    assert W.tolist() == [[0.25, 0.75], [0.2, 0.8]]


@pytest.mark.result("czz24:eq3.1")
def test_sorted_importance_of_exact_entries_is_float64() -> None:
    # App. B: two models' rows sorted descending, then averaged: ((4/5 + 3/5)/2, (1/5 + 2/5)/2)
    # = (7/10, 3/10), as float64 (the mean of the two float64 sorted rows)
    out = sorted_importance([[[F(1, 5), F(4, 5)]], [[F(3, 5), F(2, 5)]]])
    assert out.dtype == np.float64
    assert np.isfinite(out).all()
    assert out.tolist() == [[(0.8 + 0.6) / 2, (0.2 + 0.4) / 2]]


@pytest.mark.result("czz24:eq3.1")
def test_pruning_keep_picks_each_later_layers_own_head() -> None:
    # Sec. 3 pruning with three layers: all of layer 1, then the top head of layer 2 (the third,
    # 0.6) and of layer 3 (the first, 0.7) - each later layer its own argmax, not one shared one
    W = [[0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.7, 0.2, 0.1], [0.25, 0.45, 0.3]]
    assert pruning_keep(W).tolist() == [
        [True, True, True],
        [False, False, True],
        [True, False, False],
        [False, True, False],
    ]


@pytest.mark.result("czz24:eq3.1")
def test_pruning_keep_compares_exact_entries_at_float64() -> None:
    # W is read as float64 (like head_importance's output): 1/3 and 1/3 + 10⁻³⁰ round to the same
    # double, so layer 2's heads tie and np.argmax keeps the first one
    W = [[F(1, 2), F(1, 2)], [F(1, 3), F(1, 3) + F(1, 10**30)]]
    assert float(W[1][0]) == float(W[1][1])
    assert pruning_keep(W).tolist() == [[True, True], [True, False]]


@pytest.mark.result("czz24:bayes")
def test_supports_at_s_equal_d() -> None:
    # s ≤ d is allowed: s = d has the one support C(d, d) = 1, every coordinate
    assert supports(3, 3).tolist() == [[0, 1, 2]]
    assert supports(1, 1).tolist() == [[0]]
