"""[collins24] App. G: spherical caps and their bounds (G.1), the sum γ(d, α, m) and its bounds
(G.2, G.3), the kernel sums g_p(r) of the noise and signal lemmas (G.4, G.5: their expectation,
exact and asymptotic), Stirling/Kershaw (G.6) and G.7 [reconstructed].

``γ(d, α, m) := Σ_{i=0}^m i^d e^{−αi}`` (G.2/G.3, d ≥ 5, 1 ≤ α ≤ 2 in the paper) and
``g_p(r) := Σ_i ‖x_i − x‖^p e^{−r‖x_i − x‖²}`` (G.4/G.5, p ≤ 2).  The OCR of G.2/G.3 is partly
illegible: the bounds below are our reading; failures are reported, never "fixed".
"""

from __future__ import annotations

import math

import mpmath as mp

from theory.collins24.domains import checked
from theory.collins24.sec2_reductions import t_density_constant

__all__ = [
    "cap_measure",
    "cap_bounds",
    "gamma_sum",
    "g2_bounds",
    "g3_scale",
    "gp_mean",
    "gp_mean_asymptote",
    "gp_exponent",
    "paper_gp_exponent",
    "stirling_bounds",
    "kershaw_ratio",
    "g7_lhs",
]


@checked
def cap_measure(eps: float, d: int) -> float:
    """σ_ε = P(x'ᵀx ≥ 1 − ε) = ½ I_{2ε−ε²}((d−1)/2, ½) for 0 ≤ ε ≤ 1 (mpmath).

    Source: [collins24] App. G.1 (reconstructed); [derived] check value (d = 5, ε = 0.3: 0.06075).

    >>> round(cap_measure(0.3, 5), 5)
    0.06075
    """
    r2 = 2 * eps - eps * eps
    return float(mp.betainc((d - 1) / mp.mpf(2), mp.mpf(1) / 2, 0, r2, regularized=True) / 2)


@checked
def cap_bounds(eps: float, d: int) -> tuple[float, float, float]:
    """G.1: r^{d−1}Γ(d/2)/(2√π Γ((d+1)/2)) ≤ σ_ε ≤ ½ r^{d−1} ≤ ½(2ε)^{(d−1)/2}e^{−ε(d−1)/4},
    with r = √(2ε − ε²) (flat disk below, hemisphere of radius r above).

    Source: [collins24] Lemma G.1 (reconstructed).  Returns (lower, upper,
    paper's simplified upper).

    >>> [round(v, 4) for v in cap_bounds(0.3, 5)]
    [0.0488, 0.13, 0.1333]
    """
    r = math.sqrt(2 * eps - eps * eps)
    lo = r ** (d - 1) * math.gamma(d / 2) / (2 * math.sqrt(math.pi) * math.gamma((d + 1) / 2))
    return lo, 0.5 * r ** (d - 1), 0.5 * (2 * eps) ** ((d - 1) / 2) * math.exp(-eps * (d - 1) / 4)


@checked
def gamma_sum(d: int, alpha: float, m: int) -> float:
    """γ(d, α, m) = Σ_{i=0}^m i^d e^{−αi} (mpmath, exact to double precision).

    Source: [collins24] Lemmas G.2, G.3 (reconstructed).

    >>> round(gamma_sum(5, 1.0, 1), 6) == round(math.exp(-1.0), 6)
    True
    """
    return float(mp.fsum(mp.mpf(i) ** d * mp.exp(-alpha * i) for i in range(1, int(m) + 1)))


@checked
def g2_bounds(d: int, alpha: float, m: int) -> tuple[float, float]:
    """Lemma G.3, first case (m < (d + √d)/α): m^d e^{−αm−1/2} ≤ γ(d, α, m) ≤ m^{d+1} e^{−αm−1/2}
    as printed; returns (lower, upper).  (The name keeps our old numbering: γ is the
    paper's Definition G.2.)  The printed upper bound fails at 95 of 481 points of the grid d =
    5..15, α ∈ {1, 1.25, .., 2}: every m = 1 (γ(d, α, 1)/bound = e^{1/2}) and 40 points with m ≥ 2;
    with +1/2 in the exponent none fails (``check_appg_float_gamma``).

    Source: [collins24] Def. G.2, Lemma G.3.

    >>> lo, hi = g2_bounds(5, 1.0, 1); round(hi / math.exp(-1.5), 12)
    1.0
    """
    e = math.exp(-alpha * m - 0.5)
    return float(m) ** d * e, float(m) ** (d + 1) * e


@checked
def g3_scale(d: int, alpha: float) -> float:
    """Lemma G.3, second case (m ≥ (d + √d)/α): γ(d, α, m) is between constant multiples of
    Γ(d+1)/α^{d+1}; returns that scale.

    Source: [collins24] Lemma G.3.

    >>> g3_scale(5, 1.0)
    120.0
    """
    return math.gamma(d + 1) / alpha ** (d + 1)


@checked
def gp_mean(p: float, r: float, d: int, n: int) -> float:
    """E g_p(r) = n E[(2s)^{p/2} e^{−2rs}] with s = 1 − x_iᵀx of density
    c'_d [s(2−s)]^{(d−3)/2} on (0, 2], in closed form (s = 2x, x ~ Beta):

    E g_p(r) = n c'_d 2^{2a+1} B(a+1, e+1) ₁F₁(a+1; a+e+2; −4r),  e = (d−3)/2, a = e + p/2

    (mpmath's Kummer function keeps its relative accuracy at every r; the quadrature used until
    session 11 stopped on mpmath's absolute tolerance once E g_p was small: 40 % off at d = 5,
    r = 10⁶, 20 % at d = 8, r = 10⁴, up to 5e-10 relative at d = 2 for every r).

    Source: [collins24] App. G.4/G.5; [derived exact expectation].

    >>> round(gp_mean(0.0, 0.0, 3, 1), 12)
    1.0
    """
    c = t_density_constant(d)
    with mp.workdps(30):
        e = mp.mpf(d - 3) / 2
        a = e + mp.mpf(p) / 2
        kummer = mp.hyp1f1(a + 1, a + e + 2, -4 * mp.mpf(r))
        return float(n * c * 2 ** (2 * a + 1) * mp.beta(a + 1, e + 1) * kummer)


@checked
def gp_mean_asymptote(p: float, r: float, d: int, n: int) -> float:
    """E g_p(r) ~ n Γ((d−1+p)/2) c'_d 2^{(d−3+p)/2} (2r)^{−(d−1+p)/2} as r → ∞.

    Source: [derived] (Laplace at s = 0 of the exact expectation).

    >>> round(gp_mean_asymptote(0.0, 100.0, 3, 1) * 100, 12)
    0.25
    """
    k = (d - 1 + p) / 2
    return n * math.gamma(k) * t_density_constant(d) * 2 ** ((d - 3 + p) / 2) * (2 * r) ** (-k)


@checked
def gp_exponent(p: float, d: int) -> float:
    """The true large-r exponent of E g_p(r): −(d−1+p)/2 (the cap of S^{d−1} is (d−1)-dim).

    Source: [derived].

    >>> gp_exponent(0.0, 3)
    -1.0
    """
    return -(d - 1 + p) / 2


@checked
def paper_gp_exponent(p: float, d: int) -> float:
    """The paper's exponent of g_p(r) = Θ(n r^{−(d+p)/2}) for r ≳ d (Cor. G.5).

    Source: [collins24] Lemma G.4, Corollary G.5; our reading (our checks contradict it).

    >>> paper_gp_exponent(0.0, 3)
    -1.5
    """
    return -(d + p) / 2


@checked
def stirling_bounds(d: float) -> tuple[float, float]:
    """G.6: √(2πd)(d/e)^d ≤ Γ(d+1) ≤ e√(2πd)(d/e)^d (returns the two bounds).

    Source: [collins24] Lemma G.6.

    >>> lo, hi = stirling_bounds(5.0); lo < 120 < hi
    True
    """
    base = math.sqrt(2 * math.pi * d) * (d / math.e) ** d
    return base, math.e * base


@checked
def kershaw_ratio(x: float) -> tuple[float, float]:
    """G.6 (Kershaw): Γ(x+½)/Γ(x+1) ≤ 1/√(x+¼); returns (ratio, bound).

    Source: [collins24] Lemma G.6.

    >>> r, b = kershaw_ratio(2.0); r <= b
    True
    """
    return math.exp(math.lgamma(x + 0.5) - math.lgamma(x + 1)), 1 / math.sqrt(x + 0.25)


@checked
def g7_lhs(d: float) -> float:
    """G.7: (1 + 1/√d)^d e^{−√d} ≥ e^{−1/2}; returns the left side.

    Source: [collins24] Lemma G.7.

    >>> g7_lhs(4.0) >= math.exp(-0.5)
    True
    """
    return (1 + 1 / math.sqrt(d)) ** d * math.exp(-math.sqrt(d))
