"""[zwb24] §6 Rates: Lemma 6.1 (Bayes-optimal ICL) and Corollary 6.2 (optimal GD-β is within
constants of Bayes), in the spectral form ``Σ_i min(λ_i, σ²/N)``.

The paper states the rates with ``≂`` only; the explicit constants of :func:`cor62_bounds` are
derived here.  The Bayes predictor and its conditional risk are the shared
:func:`theory.common.baselines.bayes_posterior_mean` / ``bayes_conditional_risk``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from theory.common.backend import dual
from theory.zwb24.domains import checked

__all__ = ["sum_min", "cor62_bounds"]


@checked
def sum_min(lams: Any, sigma2: Any, N: Any) -> Any:
    r"""``Σ_i min(λ_i, σ²/N)`` — the rate of Lemma 6.1 / Corollary 6.2.

    Source: [zwb24] Lemma 6.1 (b), Corollary 6.2 [derived].

    >>> sum_min([1.0, 0.01], 1.0, 10)
    0.11
    """
    lam = np.asarray(lams, dtype=float)
    return float(np.sum(np.minimum(lam, sigma2 / N)))


@checked
def cor62_bounds(lams: Any, sigma2: Any, N: Any) -> tuple[float, float]:
    r"""Corollary 6.2 with explicit constants [derived]: with ``κ = Σλ_i/σ²``,

    .. math::

        \tfrac14\sum_i\min(\lambda_i,\sigma^2/N) \le R^*-\sigma^2
        \le 2(1+\kappa)\sum_i\min(\lambda_i,\sigma^2/N).

    Source: [zwb24] Corollary 6.2 (``≂`` only); constants [derived].
    Needs σ² > 0.

    >>> lo, hi = cor62_bounds([1.0, 0.5], 1.0, 20)
    >>> round(lo, 6), round(hi, 6)
    (0.025, 0.5)
    """
    s = sum_min(lams, sigma2, N)
    trace = float(np.sum(lams))
    vals = (s, trace, sigma2)
    return dual(_cor62_lower, (_S, _T, _S2), vals), dual(_cor62_upper, (_S, _T, _S2), vals)


_S, _T, _S2 = sp.symbols("s t sigma2", nonnegative=True)


def _cor62_lower(s: Any, trace: Any, sigma2: Any) -> Any:
    """``Σmin/4`` (Corollary 6.2, derived constant)."""
    del trace, sigma2
    return s / 4


def _cor62_upper(s: Any, trace: Any, sigma2: Any) -> Any:
    """``2(1 + κ) Σmin`` with ``κ = trΨ̄/σ²`` (Corollary 6.2, derived constant)."""
    return 2 * (1 + trace / sigma2) * s
