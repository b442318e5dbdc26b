"""[collins24] App. B-C: the value row (Lemma B.1), the Σ⁻¹ form of the optimum (Assumption B.4,
Lemma B.5) and the shapes of the signal-term bounds (Lemma C.2, Corollary C.6, Lemmas C.8, C.9).

The lemmas' constants are unspecified: only shapes are encoded; numerics fits the constants and
reports them, never asserts them (the issue's rule).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from theory.collins24.domains import checked
from theory.common.backend import num_square, psd_sqrt

__all__ = [
    "signal_bound_c2",
    "c6_lower_shape",
    "c6_upper_shape",
    "c8_upper_shape",
    "C9_RATIO",
    "whitened_M",
    "lemB5_optimum",
]

#: Lemma C.9: 𝓛_signal(ω; F⁺_L) ≥ ½ 𝓛_signal(ω; F^aff_L) for every ω.
C9_RATIO = 0.5


@checked
def signal_bound_c2(L: Any) -> Any:
    """Lemma C.2: 𝓛_signal(ω) ≤ 4L² for every ω (|f(x_i) − f(x)| ≤ 2L on the unit sphere).

    Source: [collins24] Lemma C.2.

    >>> signal_bound_c2(0.5)
    1.0
    """
    return 4 * L**2


@checked
def c6_lower_shape(omega: Any) -> Any:
    """Corollary C.6's lower shape 1/(ω+1)² (𝓛_signal ≥ c L²/(ω+1)², c unspecified).

    Source: [collins24] Corollary C.6, eq. (13).

    >>> c6_lower_shape(1.0)
    0.25
    """
    return 1 / (omega + 1) ** 2


@checked
def c6_upper_shape(omega: Any, n: int, d: int) -> Any:
    """Corollary C.6's upper shape 1/ω² + ω^{d/2−1}/n + 1/n (constant unspecified; the paper's
    ω^{d/2−1} inherits the G1 off-by-one: the true orth term is ω^{(d−3)/2}/n).

    Source: [collins24] Corollary C.6, eq. (13).

    >>> round(c6_upper_shape(1.0, 10, 4), 12)
    1.2
    """
    return 1 / omega**2 + omega ** (d / 2 - 1) / n + 1 / n


@checked
def c8_upper_shape(omega: Any, n: int) -> Any:
    """Lemma C.8's upper shape for any L-Lipschitz class, 1/ω + 1/n (constant unspecified).

    Source: [collins24] Lemma C.8.

    >>> c8_upper_shape(2.0, 10)
    0.6
    """
    return 1 / omega + 1 / n


@checked
def whitened_M(M: Any, Sigma: Any) -> np.ndarray:
    """M′ = Σ^{1/2} M Σ^{1/2}: 𝓛_Σ(M) = 𝓛_I(M′) when the task class is defined in whitened
    coordinates [derived].

    Source: [collins24] Lemma B.5 proof.

    >>> whitened_M(np.eye(2), np.diag([4.0, 1.0])).tolist()
    [[4.0, 0.0], [0.0, 1.0]]

    One matrix at a time: a stack of matrices is refused (``M`` and ``Σ`` are both d×d).
    """
    M = num_square("M", M)
    S = num_square("Sigma", Sigma, M.shape[-1])
    for name, arr in (("M", M), ("Sigma", S)):
        if arr.ndim != 2:
            raise ValueError(
                f"{name} must be one d×d matrix (collins24 Lemma B.5: M′ = Σ^{{1/2}} M Σ^{{1/2}}), "
                f"got shape {arr.shape}"
            )
    R = psd_sqrt(S)
    return R @ M @ R


@checked
def lemB5_optimum(omega: float, Sigma: Any) -> np.ndarray:
    """Lemma B.5: every minimiser is M* = ω Σ⁻¹ (Assumption B.4; not claimed for U^d_S).

    Source: [collins24] Lemma B.5.

    >>> lemB5_optimum(2.0, np.diag([2.0, 1.0])).tolist()
    [[1.0, 0.0], [0.0, 2.0]]
    """
    S = num_square("Sigma", Sigma)
    return omega * np.linalg.inv(S)
