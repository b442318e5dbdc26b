"""[czz24] App. D Lemmas D.1, D.2, D.7: moments and concentration of r̂.

The lemmas carry unspecified constants; the closed forms here are the exact moments [derived,
Isserlis] and the rate shapes (constants exposed as ``C``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from theory.czz24.domains import checked

__all__ = [
    "rhat_mean",
    "rhat_cov",
    "lemD1_rate",
    "noise_term_mean",
    "lemD7_rate",
    "lemD2_sample_size",
]


def _log_d_delta(d: Any, delta: Any) -> float:
    """``log(d/δ)``, required > 0 (else the rate shapes are NaN or negative)."""
    if float(delta) >= float(d):
        raise ValueError(
            f"delta must be < d so that log(d/δ) > 0 ([czz24] App. D), got d = {d}, delta = {delta}"
        )
    return float(np.log(float(d) / float(delta)))


@checked
def rhat_mean(Sigma: Any, w: Any) -> np.ndarray:
    """``E r̂ = r = Σw*``: the population correlations ([czz24] Eq. (4.1), App. D Lemma D.1).

    ``Sigma`` is d×d, ``w`` (d,); returns (d,).

    >>> rhat_mean([[2.0, 0.0], [0.0, 1.0]], [1.0, -1.0]).tolist()
    [2.0, -1.0]
    """
    return np.asarray(Sigma, dtype=float) @ np.asarray(w, dtype=float)


@checked
def rhat_cov(Sigma: Any, w: Any, sigma2: float, n: int) -> np.ndarray:
    r"""Exact covariance of ``r̂`` for Gaussian x and ε [derived] (Isserlis).

    .. math:: \mathrm{Cov}(\hat r_j, \hat r_k) = \frac{\Sigma_{jk}(w^{*\top}\Sigma w^* + \sigma^2)
        + r_j r_k}{n}.

    >>> rhat_cov([[1.0]], [1.0], 0.0, 1).tolist()   # Var(x²) = 2
    [[2.0]]
    """
    S, w = np.asarray(Sigma, dtype=float), np.asarray(w, dtype=float).reshape(-1)  # a column too
    s2, n = float(sigma2), int(n)
    r = S @ w
    return (S * (w @ S @ w + s2) + np.outer(r, r)) / n


@checked
def lemD1_rate(
    w: Any, Sigma_max: float, sigma2: float, n: int, d: int, delta: float, C: float = 1.0
) -> float:
    r"""Lemma D.1 shape: ``‖R̂ − R‖₂ ≤ C K (‖w*‖₁ + 1) sqrt(log(d/δ)/n)``, ``K = max Σ_ii + σ²``
    (constants unspecified).

    Source: [czz24] App. D, Lemma D.1 (holds with probability ≥ 1 − δ).

    With ``δ = d/e`` the log is 1: ``K = 1``, ``‖w*‖₁ + 1 = 2``, ``sqrt(1/4)`` gives 1:

    >>> import math
    >>> round(lemD1_rate([1.0, 0.0], 1.0, 0.0, 4, 2, 2 / math.e), 6)
    1.0
    """
    K = float(Sigma_max) + float(sigma2)
    return C * K * (float(np.sum(np.abs(w))) + 1.0) * float(np.sqrt(_log_d_delta(d, delta) / n))


@checked
def lemD2_sample_size(s: int, d: int, delta: float, beta: float, C: float = 1.0) -> float:
    """Lemma D.2: ``P(|r̂_i| ≥ |r_i|/2 ∀i ∈ S) ≥ 1 − δ`` once ``n ≳ C s log(d/δ)/β²``.

    Source: [czz24] App. D, Lemma D.2 (``β = min_{i∈S} |r_i|``; the constant is unspecified).

    >>> import math
    >>> round(lemD2_sample_size(4, 8, 8 / math.e, 0.5), 6)   # 4·1/0.5²
    16.0
    """
    return C * s * _log_d_delta(d, delta) / beta**2


@checked
def noise_term_mean(R: Any, Sigma_hat: Any, sigma2: float, n: int) -> float:
    r"""``E_ε ‖(1/n) R Xᵀε‖² = (σ²/n) Tr(R Σ̂ R)`` exactly [derived] (the quantity [czz24]
    App. D, Lemma D.7 bounds).

    ``R`` and ``Sigma_hat`` (``Σ̂ = XᵀX/n``) are d×d.

    >>> noise_term_mean(np.eye(2), np.eye(2), 0.5, 4)   # (0.5/4)·Tr I_2
    0.25
    """
    R = np.asarray(R, dtype=float)
    return float(sigma2) / n * float(np.trace(R @ np.asarray(Sigma_hat, dtype=float) @ R))


@checked
def lemD7_rate(
    trRSR: float, trS: float, s: int, sigma2: float, n: int, d: int, delta: float, C: float = 1.0
) -> float:
    r"""Lemma D.7 shape: ``σ²Tr(RΣR)log(d/δ)/n + σ² s Tr(Σ) log²(d/δ)/n²`` (times ``C``).

    Source: [czz24] App. D, Lemma D.7 (the square of Thm 5.1's bound before the ``log t/β``).

    >>> import math
    >>> round(lemD7_rate(2.0, 2.0, 1, 1.0, 2, 2, 2 / math.e), 6)   # 2/2 + 2/4 at log(d/δ) = 1
    1.5
    """
    L = _log_d_delta(d, delta)
    return C * (sigma2 * trRSR * L / n + sigma2 * s * trS * L**2 / n**2)
