"""[zwb24] reference values (our Appendix A, [derived]), the generic points of the pinned-value
checks and the evidence helpers the zwb24 checks share.

Generic points: no parameter at 0 or 1 where it is a factor (H, Ψ non-identity and non-diagonal,
N = 7, σ² = 0.37, λ_i spread on both sides of σ²/N), so every factor and exponent shows.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from numerics.testing import FLOAT_RTOL, close_agreement, fixture_atol
from theory.common.protocols import Evidence

__all__ = [
    "APPENDIX_A",
    "leq_evidence",
    "fixture_evidence",
    "quick_n",
    "PINNED_RTOL",
    "V_GENERIC",
    "H_GENERIC",
    "PSI_GENERIC",
    "BETA_GENERIC",
    "SIGMA2_GENERIC",
    "N_GENERIC",
]


#: spec 002 Appendix A (H = Ψ = I_d, β* = μ·1/√d): d, N, σ, μ, γ*, R*, inf_LSA, gap, L, U, GD0gap
#: as printed (strings: their number of decimals sets the fixture tolerance).
# fmt: off
APPENDIX_A = (
    (1, 5, 0.0, 2.0, "0.714286", "0.285714", "1.428571", "1.142857", "1.142857", "1.142857",
     "1.142857"),
    (1, 5, 1.0, 2.0, "0.625", "1.375", "2.453510", "1.078510", "1.053571", "1.142857",
     "1.152778"),
    (2, 10, 0.5, 3.0, "0.754717", "0.740566", "2.535387", "1.794821", "1.342767", "2.076923",
     "1.812573"),
    (3, 20, 1.0, 4.0, "0.8", "1.6", "3.633257", "2.033257", "1.127273", "2.666667", "2.092825"),
    (5, 20, 0.5, 3.0, "0.761905", "1.440476", "2.884775", "1.444299", "0.082251", "2.076923",
     "1.621403"),
)
# fmt: on


#: Relative tolerance of a closed form against the same expression written out again (float64).
PINNED_RTOL = 1e3 * FLOAT_RTOL

#: A generic orthonormal basis (no axis direction) for the pinned-value checks.
V_GENERIC = np.linalg.qr(np.array([[1.0, 0.4, -0.3], [0.2, 1.1, 0.5], [-0.6, 0.3, 0.9]]))[0]
#: A generic feature covariance (eigenvalues 0.45, 1.3, 2.2 in a non-axis basis).
H_GENERIC = V_GENERIC @ np.diag([0.45, 1.3, 2.2]) @ V_GENERIC.T
#: A generic task covariance (non-diagonal, not commuting with H).
PSI_GENERIC = np.array([[0.6, 0.15, -0.1], [0.15, 0.45, 0.05], [-0.1, 0.05, 0.8]])
BETA_GENERIC = np.array([1.3, -0.7, 0.4])
SIGMA2_GENERIC, N_GENERIC = 0.37, 7


def leq_evidence(
    name: str, lhs: float, rhs: float, *, atol: float, details: dict | None = None
) -> Evidence:
    """``lhs ≤ rhs`` up to ``atol`` (violation ``max(0, lhs − rhs)`` compared with 0).

    >>> leq_evidence("R* <= floor", 2 / 7, 10 / 7, atol=1e-9).passed
    True
    >>> e = leq_evidence("floor <= R*", 10 / 7, 2 / 7, atol=1e-9)
    >>> e.passed, round(float(e.observed), 6)
    (False, 1.142857)
    """
    return close_agreement(
        name,
        max(0.0, float(lhs) - float(rhs)),
        0.0,
        kind="FLOAT",
        atol=atol,
        details={"lhs": float(lhs), "rhs": float(rhs), **(details or {})},
    )


def fixture_evidence(name: str, observed: float, printed: str, **kw: Any) -> Evidence:
    """``observed`` vs a reference number ``printed`` (tolerance from its decimals).

    ``R* = 2/7`` ([zwb24] Theorem 5.2 at d = 1, N = 5, σ = 0) against a 6-decimal reference:

    >>> [fixture_evidence("R*", 2 / 7, ref).passed for ref in ("0.285714", "0.2857")]
    [True, True]
    >>> fixture_evidence("R*", 0.2858, "0.285714").passed
    False
    """
    return close_agreement(
        name,
        observed,
        float(printed),
        kind="FLOAT",
        atol=fixture_atol(printed),
        details={
            "reference": printed,
            "source": "reference values at H = Ψ = I_d, β* = μ·1/√d (the paper prints none)",
            **kw,
        },
    )


def quick_n(quick: bool, q: int, full: int) -> int:
    """``q`` in the quick tier, ``full`` otherwise.

    >>> quick_n(True, 200, 2000), quick_n(False, 200, 2000)
    (200, 2000)
    """
    return q if quick else full
