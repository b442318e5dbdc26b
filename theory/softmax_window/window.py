"""[collins24] §3.1 and App. G: the hard window of the proof sketch, its mass p_ω by the regularised
incomplete beta (mpmath), spherical caps and their bounds (G.1), Stirling/Kershaw (G.6), G.7, and
the noise monotonicity of Lemma D.2 via Lemma I.3.
"""

from __future__ import annotations

import math
from typing import Any

import mpmath as mp
import numpy as np

from theory.common.backend import check_scalar
from theory.settings import check_int

__all__ = ["window_mass", "cap_measure", "cap_bounds", "stirling_bounds", "kershaw_ratio",
           "g7_lhs", "i3_ratio", "window_threshold", "window_mean_s", "msa_risk"]


def _d(d: int) -> None:
    check_int("d", d, minimum=2, paper="[collins24] x ∈ S^(d-1), d ≥ 2")


def window_threshold(omega: float) -> float:
    """The hard window ‖x_i − x‖ ≤ 1/√ω is s_i ≤ 1/(2ω) on the sphere (s = ½‖x_i − x‖²).

    Source: [collins24] §3.1 ("modified softmax"); spec 003 §1.4.

    >>> window_threshold(2.0)
    0.25
    """
    check_scalar("omega", omega, lower=0.0, lower_open=True)
    return 1 / (2 * omega)


def cap_measure(eps: float, d: int) -> float:
    """σ_ε = P(x'ᵀx ≥ 1 − ε) = ½ I_{2ε−ε²}((d−1)/2, ½) for 0 ≤ ε ≤ 1 (mpmath).

    Source: [collins24] App. G.1 (reconstructed); spec 003 R11 (d = 5, ε = 0.3: 0.06075).

    >>> round(cap_measure(0.3, 5), 5)
    0.06075
    """
    _d(d)
    check_scalar("eps", eps, lower=0.0, upper=1.0)
    r2 = 2 * eps - eps * eps
    return float(mp.betainc((d - 1) / mp.mpf(2), mp.mpf(1) / 2, 0, r2, regularized=True) / 2)


def window_mass(omega: float, d: int) -> float:
    """p_ω = P(s ≤ 1/(2ω)) = ½ I_{1/ω − 1/(4ω²)}((d−1)/2, ½) for ω ≥ ½ (mpmath).

    Source: [collins24] §3.1; spec 003 R10 (the cap with ε = 1/(2ω)).

    >>> round(window_mass(1.0, 3), 6)
    0.25
    """
    check_scalar("omega", omega, lower=0.5, paper="[collins24] §3.1: p_ω formula needs ω ≥ 1/2")
    return cap_measure(1 / (2 * omega), d)


def window_mean_s(omega: float, d: int) -> float:
    """m₁(ω) = E[s | s ≤ 1/(2ω)] inside the hard window, s = 1 − x_iᵀx = 2B with
    B ~ Beta(a, a), a = (d−1)/2: m₁ = I_{1/(4ω)}(a+1, a)/I_{1/(4ω)}(a, a) (mpmath; ω ≥ ½).

    Source: [collins24] §3.1 ("the centre of mass of the window"); spec 003 R10 [derived].

    >>> round(window_mean_s(1.0, 3), 12)  # d = 3: s | s ≤ ½ is uniform on [0, ½]
    0.25
    """
    check_scalar("omega", omega, lower=0.5, paper="[collins24] §3.1: hard window, ω ≥ 1/2")
    _d(d)
    a, x = (d - 1) / mp.mpf(2), 1 / (4 * mp.mpf(omega))
    return float(mp.betainc(a + 1, a, 0, x, regularized=True)
                 / mp.betainc(a, a, 0, x, regularized=True))


def msa_risk(omega: float, d: int, L: float, sigma2: float, inv_count: float) -> float:
    """§3.1's modified-softmax risk on F^lin_L (f = L vᵀx, v ~ U^d), given K ≥ 1 points in the
    window and ``inv_count`` = E[1/K | K ≥ 1]: the K window points are iid in the cap, so
    E‖x̄ − x‖² = m₁² + (2m₁ − m₁²)/K and

    .. math:: 𝓛_{MSA}(ω) = (L^2/d)[m_1^2 + (2m_1 − m_1^2) E(1/K)] + σ^2 E(1/K).

    Source: [collins24] §3.1; spec 003 R10 [derived exact form].

    >>> round(msa_risk(1.0, 3, 0.0, 1.0, 0.5), 12)
    0.5
    """
    check_scalar("L", L, lower=0.0)
    check_scalar("sigma2", sigma2, lower=0.0)
    check_scalar("inv_count", inv_count, lower=0.0, upper=1.0, lower_open=True,
                 paper="E[1/K | K ≥ 1] in (0, 1]")
    m1 = window_mean_s(omega, d)
    return L * L / d * (m1 * m1 + (2 * m1 - m1 * m1) * inv_count) + sigma2 * inv_count


def cap_bounds(eps: float, d: int) -> tuple[float, float, float]:
    """G.1: r^{d−1}Γ(d/2)/(2√π Γ((d+1)/2)) ≤ σ_ε ≤ ½ r^{d−1} ≤ ½(2ε)^{(d−1)/2}e^{−ε(d−1)/4},
    with r = √(2ε − ε²) (flat disk below, hemisphere of radius r above).

    Source: [collins24] Lemma G.1 (reconstructed, spec 003 R11, G13).  Returns (lower, upper,
    paper's simplified upper).

    >>> [round(v, 4) for v in cap_bounds(0.3, 5)]
    [0.0488, 0.13, 0.1333]
    """
    _d(d)
    check_scalar("eps", eps, lower=0.0, upper=1.0)
    r = math.sqrt(2 * eps - eps * eps)
    lo = r ** (d - 1) * math.gamma(d / 2) / (2 * math.sqrt(math.pi) * math.gamma((d + 1) / 2))
    return lo, 0.5 * r ** (d - 1), 0.5 * (2 * eps) ** ((d - 1) / 2) * math.exp(-eps * (d - 1) / 4)


def stirling_bounds(d: float) -> tuple[float, float]:
    """G.6: √(2πd)(d/e)^d ≤ Γ(d+1) ≤ e√(2πd)(d/e)^d (returns the two bounds).

    Source: [collins24] Lemma G.6; spec 003 R11.

    >>> lo, hi = stirling_bounds(5.0); lo < 120 < hi
    True
    """
    check_scalar("d", d, lower=1.0)
    base = math.sqrt(2 * math.pi * d) * (d / math.e) ** d
    return base, math.e * base


def kershaw_ratio(x: float) -> tuple[float, float]:
    """G.6 (Kershaw): Γ(x+½)/Γ(x+1) ≤ 1/√(x+¼); returns (ratio, bound).

    Source: [collins24] Lemma G.6; spec 003 R11.

    >>> r, b = kershaw_ratio(2.0); r <= b
    True
    """
    check_scalar("x", x, lower=0.0, lower_open=True)
    return math.exp(math.lgamma(x + 0.5) - math.lgamma(x + 1)), 1 / math.sqrt(x + 0.25)


def g7_lhs(d: float) -> float:
    """G.7: (1 + 1/√d)^d e^{−√d} ≥ e^{−1/2}; returns the left side.

    Source: [collins24] Lemma G.7; spec 003 R11.

    >>> g7_lhs(4.0) >= math.exp(-0.5)
    True
    """
    check_scalar("d", d, lower=1.0)
    return (1 + 1 / math.sqrt(d)) ** d * math.exp(-math.sqrt(d))


def i3_ratio(a: Any) -> np.ndarray:
    """Σa_i²/(Σa_i)² along the last axis: Lemma I.3 says it does not decrease when a is multiplied
    by a same-ordered positive b, hence N(ω) is increasing (Lemma D.2).

    Source: [collins24] Lemmas I.3, D.2; spec 003 R5.

    >>> float(i3_ratio([1.0, 1.0]))
    0.5
    """
    a = np.asarray(a, dtype=float)
    if np.any(a <= 0) or not np.all(np.isfinite(a)):
        raise ValueError("a must be finite and positive (Lemma I.3: a_i > 0)")
    return np.sum(a * a, axis=-1) / np.sum(a, axis=-1) ** 2
