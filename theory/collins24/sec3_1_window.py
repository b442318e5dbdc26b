"""[collins24] §3.1: the hard window of the proof sketch (its threshold, its mass p_ω -- a spherical
cap of App. G.1 -- the centre of mass of the window and the modified-softmax risk), and the noise
monotonicity of Lemma D.2 via Lemma I.3.
"""

from __future__ import annotations

from typing import Any

import mpmath as mp
import numpy as np

from theory.collins24.appG import (  # noqa: F401  (App. G names, also importable here)
    cap_bounds,
    cap_measure,
    g7_lhs,
    kershaw_ratio,
    stirling_bounds,
)
from theory.collins24.domains import checked

__all__ = ["window_mass", "i3_ratio", "window_threshold", "window_mean_s", "msa_risk"]


@checked
def window_threshold(omega: float) -> float:
    """The hard window ‖x_i − x‖ ≤ 1/√ω is s_i ≤ 1/(2ω) on the sphere (s = ½‖x_i − x‖²).

    Source: [collins24] §3.1 ("modified softmax").

    >>> window_threshold(2.0)
    0.25
    """
    return 1 / (2 * omega)


@checked
def window_mass(omega: float, d: int) -> float:
    """p_ω = P(s ≤ 1/(2ω)) = ½ I_{1/ω − 1/(4ω²)}((d−1)/2, ½) for ω ≥ ½ (mpmath).

    Source: [collins24] §3.1; [derived] (the cap with ε = 1/(2ω)).

    >>> round(window_mass(1.0, 3), 6)
    0.25
    """
    return cap_measure(1 / (2 * omega), d)


@checked
def window_mean_s(omega: float, d: int) -> float:
    """m₁(ω) = E[s | s ≤ 1/(2ω)] inside the hard window, s = 1 − x_iᵀx = 2B with
    B ~ Beta(a, a), a = (d−1)/2: m₁ = I_{1/(4ω)}(a+1, a)/I_{1/(4ω)}(a, a) (mpmath; ω ≥ ½).

    Source: [collins24] §3.1 ("the centre of mass of the window"); [derived].

    >>> round(window_mean_s(1.0, 3), 12)  # d = 3: s | s ≤ ½ is uniform on [0, ½]
    0.25
    """
    a, x = (d - 1) / mp.mpf(2), 1 / (4 * mp.mpf(omega))
    return float(
        mp.betainc(a + 1, a, 0, x, regularized=True) / mp.betainc(a, a, 0, x, regularized=True)
    )


@checked
def msa_risk(omega: float, d: int, L: float, sigma2: float, inv_count: float) -> float:
    """§3.1's modified-softmax risk on F^lin_L (f = L vᵀx, v ~ U^d), given K ≥ 1 points in the
    window and ``inv_count`` = E[1/K | K ≥ 1]: the K window points are iid in the cap, so
    E‖x̄ − x‖² = m₁² + (2m₁ − m₁²)/K and

    .. math:: 𝓛_{MSA}(ω) = (L^2/d)[m_1^2 + (2m_1 − m_1^2) E(1/K)] + σ^2 E(1/K).

    Source: [collins24] §3.1; [derived exact form].

    >>> round(msa_risk(1.0, 3, 0.0, 1.0, 0.5), 12)
    0.5
    """
    m1 = window_mean_s(omega, d)
    return L * L / d * (m1 * m1 + (2 * m1 - m1 * m1) * inv_count) + sigma2 * inv_count


@checked
def i3_ratio(a: Any) -> np.ndarray:
    """Σa_i²/(Σa_i)² along the last axis: Lemma I.3 says it does not decrease when a is multiplied
    by a same-ordered positive b, hence N(ω) is increasing (Lemma D.2).

    Source: [collins24] Lemmas I.3, D.2.

    >>> float(i3_ratio([1.0, 1.0]))
    0.5
    """
    a = np.asarray(a, dtype=float)
    return np.sum(a * a, axis=-1) / np.sum(a, axis=-1) ** 2
