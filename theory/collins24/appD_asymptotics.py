"""[collins24] §3.1 and App. D: the noise and signal terms for large n and 1 ≪ ω ≪ n^{2/(d−1)},
the true exponents, and the paper's (off-by-one) ω^{d/2} scaling [derived].

The cap of angular radius ~ω^{−1/2} on S^{d−1} has measure ∝ ω^{−(d−1)/2}, so the number of
points in the softmax window is ~ n ω^{−(d−1)/2} and N(ω) ≈ c_d ω^{(d−1)/2}/n.  The paper writes
ω^{d/2}/n (Lemma D.1, Cor. G.5, §3.1), which would give the affine optimum Λ^{2/(d+4)} instead of
the true Λ^{2/(d+3)}.
"""

from __future__ import annotations

from typing import Any

import mpmath as mp
import sympy as sp

from theory.collins24.domains import checked
from theory.common.backend import dual

__all__ = [
    "noise_constant",
    "noise_asymptote",
    "noise_exponent",
    "paper_noise_exponent",
    "rad_asymptote",
    "orth_asymptote",
    "affine_optimum_asymptote",
    "affine_optimum_exponent",
    "paper_affine_optimum_exponent",
]


#: Symbols of the scalar builders below (one SymPy expression each, evaluated by :func:`dual`).
_D, _LAM = sp.symbols("d Lambda", positive=True)
#: Working digits of the mpmath evaluations (float64 results correctly rounded).
_DPS = 30


def _noise_constant(d: Any) -> Any:
    return 2 ** (2 - d) * sp.sqrt(sp.pi) / sp.gamma(d / 2)


def _affine_optimum_asymptote(Lam: Any, d: Any) -> Any:
    base = (d - 1) * 2 ** (d - 2) * sp.gamma(d / 2) * Lam / (3 * d * sp.sqrt(sp.pi))
    return base ** (2 / (d + 3))


@checked
def noise_constant(d: Any) -> Any:
    """c_d = 2^{2−d} √π / Γ(d/2) [derived].

    Source: [derived] for [collins24] (c_3 = 1).

    >>> noise_constant(sp.Integer(3))
    1
    """
    with mp.workdps(_DPS):  # float(c_d) correctly rounded (c_3 = 1 exactly)
        out = dual(_noise_constant, (_D,), (d,), backend="mpmath")
    return out if isinstance(out, sp.Expr) else float(out)


@checked
def noise_exponent(d: Any) -> Any:
    """True exponent of N(ω) in ω: (d−1)/2 (cap measure on S^{d−1}) [derived].

    >>> noise_exponent(5)
    2.0
    """
    return dual(lambda d: (d - 1) / 2, (_D,), (d,))


@checked
def paper_noise_exponent(d: Any) -> Any:
    """The paper's exponent of the noise term, d/2 (Lemma D.1, Cor. G.5, §3.1) -- off by one half;
    kept as the claim our routes contradict.

    >>> paper_noise_exponent(5)
    2.5
    """
    return dual(lambda d: d / 2, (_D,), (d,))


@checked
def noise_asymptote(omega: Any, n: Any, d: Any, *, exponent: Any = None) -> Any:
    """N(ω) ≈ c_d ω^{(d−1)/2}/n for n large and 1 ≪ ω ≪ n^{2/(d−1)} [derived].

    Source: [collins24] Lemma D.1 (shape); [derived] constant and corrected exponent.
    ``exponent`` overrides (d−1)/2 (the paper's d/2 is a negative control).

    >>> noise_asymptote(10.0, 100000, 3)
    0.0001
    """
    e = noise_exponent(d) if exponent is None else exponent
    return noise_constant(d) * omega**e / n


@checked
def rad_asymptote(omega: Any, d: Any) -> Any:
    """rad(ω) ≈ ((d−1)/(2ω))² (the sphere's curvature bias of the window's centre of mass)
    [derived].

    Source: [collins24] Lemma C.4/C.5 (shape L²/ω²).

    >>> round(rad_asymptote(10.0, 3), 12)
    0.01
    """
    return ((d - 1) / (2 * omega)) ** 2


@checked
def orth_asymptote(N: Any, omega: Any, d: Any) -> Any:
    """orth(ω) ≈ N(ω)·(d−1)/(2ω) [derived].

    Source: [collins24] Lemma C.4 decomposition (10).

    >>> orth_asymptote(0.1, 10.0, 3)
    0.01
    """
    return N * (d - 1) / (2 * omega)


@checked
def affine_optimum_exponent(d: Any) -> Any:
    """True exponent of ω*_aff in Λ: 2/(d+3) [derived].

    >>> affine_optimum_exponent(sp.Integer(3))
    1/3
    """
    return dual(lambda d: 2 / (d + 3), (_D,), (d,))


@checked
def paper_affine_optimum_exponent(d: Any) -> Any:
    """The exponent implied by the paper's ω^{d/2} noise with the affine L²/ω² signal, 2/(d+4)
    ("tight" in §3.1 / Theorem 3.4 Case 1); our quadrature shows it is off.

    >>> paper_affine_optimum_exponent(sp.Integer(3))
    2/7
    """
    return dual(lambda d: 2 / (d + 4), (_D,), (d,))


@checked
def affine_optimum_asymptote(Lam: Any, d: Any) -> Any:
    """ω*_aff(Λ) ≈ [(d−1) 2^{d−2} Γ(d/2) Λ / (3d√π)]^{2/(d+3)} in the noise-dominated regime
    [derived]: minimise (L²/3d)((d−1)/2ω)² + σ² c_d ω^{(d−1)/2}/n.

    Source: [collins24] Theorem 3.4 (Case 1); [derived] (d = 3, Λ = 2e5: 35.4).

    >>> round(affine_optimum_asymptote(2e5, 3), 1)
    35.4
    """
    return dual(_affine_optimum_asymptote, (_LAM, _D), (Lam, d))
