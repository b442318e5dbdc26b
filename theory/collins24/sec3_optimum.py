"""[collins24] §3 Theorems 3.4 and 3.5 (= App. E.1-E.3): the optimal window scale ω* against
Λ = nL²/σ², its (reconstructed) brackets, and the exact transfer curve across Lipschitz constants.

Theorem 3.4 is an order-of-magnitude statement with unspecified constants: only the exponents are
encoded, and numerics checks inclusion of the fitted slope (our reading: α = 1/(d+4) and
β = 1/(d+2) are reconstructed, confidence medium / medium-low).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from theory.collins24.domains import checked
from theory.common.backend import dual

__all__ = [
    "alpha",
    "beta",
    "thm34_bracket",
    "surrogate_optimum",
    "transfer_risk",
    "transfer_ratio_limits",
]


#: Symbols of the scalar builders (one SymPy expression each, evaluated by :func:`dual`).
_D, _LAM = sp.symbols("d Lambda", positive=True)


@checked
def alpha(d: Any) -> Any:
    """α = 1/(d+4), Theorem 3.4 Case 1's lower exponent (OCR numerator lost).

    >>> alpha(sp.Integer(3))
    1/7
    """
    return dual(lambda d: 1 / (d + 4), (_D,), (d,))


@checked
def beta(d: Any) -> Any:
    """β = 1/(d+2), Theorem 3.4 Case 2's lower exponent.

    >>> beta(sp.Integer(3))
    1/5
    """
    return dual(lambda d: 1 / (d + 2), (_D,), (d,))


@checked
def thm34_bracket(d: Any, task: str = "affine") -> tuple[Any, Any]:
    """Exponents (lo, hi) with Ω(Λ^lo) ≤ ω* ≤ O(Λ^hi).

    Source: [collins24] Theorem 3.4 (E.1, E.2), eq. (15), (17); our reconstruction.

    * affine: [α, 2(d+2)/(d(d+4))];
    * ReLU: [β, 2β].

    >>> thm34_bracket(sp.Integer(3))
    (1/7, 10/21)
    """
    if task == "affine":
        return alpha(d), dual(lambda d: 2 * (d + 2) / (d * (d + 4)), (_D,), (d,))
    return beta(d), 2 * beta(d)


@checked
def surrogate_optimum(Lam: Any, d: Any) -> Any:
    """The §3.1 "tight" surrogate: minimiser of L²/ω + σ²ω^{d/2}/n, (2Λ/d)^{2/(d+2)}.

    Source: [collins24] §3.1 proof sketch.

    >>> round(surrogate_optimum(5.0, 5), 6)
    1.219014
    """
    return dual(lambda Lam, d: (2 * Lam / d) ** (2 / (d + 2)), (_LAM, _D), (Lam, d))


@checked
def transfer_risk(Lp: Any, S: Any, N: Any, sigma2: Any) -> Any:
    """Exact transfer curve of a unit pretrained at ω_L and tested on amplitude L′ [derived].

    Source: [collins24] Theorem 3.5 (= E.3).

    .. math:: 𝓛_{test}(L') = L'^2 S(ω_L) + σ^2 N(ω_L) ≥ \\min_ω [L'^2 S(ω) + σ^2 N(ω)]

    quadratic in L′, tangent to the envelope 𝓛*(L′) at L′ = L (for the affine class
    S = A/(3d)).

    >>> transfer_risk(2.0, 0.01, 0.3, 1e-4)
    0.04003
    """
    return Lp**2 * S + sigma2 * N


@checked
def transfer_ratio_limits(n: Any, N: Any, S: Any, S_min: Any) -> tuple[Any, Any]:
    """Limits of 𝓛_test/𝓛* as L′ → 0 (n·N(ω_L) > 1) and L′ → ∞ (S(ω_L)/min S ≥ 1) [derived].

    Source: [collins24] Theorem 3.5 interpretation.

    >>> transfer_ratio_limits(20, 0.1, 0.02, 0.01)
    (2.0, 2.0)
    """
    return n * N, S / S_min
