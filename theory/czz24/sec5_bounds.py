"""[czz24] §5 Thms 5.1–5.3: the excess-risk bounds (constants unspecified, exposed as ``C``).

Square roots restored where our copy lost them.  Only rates, orderings and bounded ratios of
these are checked; the constants ``C`` are fitted and reported.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from theory.common.backend import dual
from theory.common.symbols import d as d_sym
from theory.common.symbols import n as n_sym
from theory.common.symbols import s as s_sym
from theory.common.symbols import sigma2 as sigma2_sym
from theory.czz24.domains import checked

__all__ = [
    "thm51_bound",
    "thm52_bound",
    "thm53_rate",
    "bound_ratio_isotropic",
    "eta_t_star_51",
    "thm53_steps",
]


def _check_log(d: Any, delta: Any) -> None:
    """``log(d/δ) > 0``: otherwise the bounds' square roots are of negatives (for SymPy input the
    relation stays undecided: the caller's assumption)."""
    if sp.Le(d, delta) == sp.true:
        raise ValueError(
            f"delta must be < d so that log(d/δ) > 0 ([czz24] §5), got d = {d}, delta = {delta}"
        )


@checked
def thm51_bound(
    n: Any,
    t: Any,
    sigma2: Any,
    s: Any,
    beta: Any,
    trRSR: Any,
    trS: Any,
    d: Any,
    delta: Any,
    C: Any = 1,
) -> Any:
    r"""Thm 5.1 (pre-GD, diagonal Σ).

    .. math:: \mathcal E(\tilde w^t) \lesssim \frac{\log t}{\beta}\sqrt{
        \frac{\sigma^2\mathrm{Tr}(R\Sigma R)\log(d/\delta)}{n}
        + \frac{\sigma^2 s\,\mathrm{Tr}(\Sigma)\log^2(d/\delta)}{n^2}}.

    Source: [czz24] Thm 5.1 (with probability ≥ 1 − δ; ``β = min_{i∈S}|r_i|``; the square root
    is restored where our copy lost it).  Scalars in, float out (SymPy in, expression out).

    At ``t = e``, ``δ = d/e`` (both logs 1), β = 1: ``sqrt(4/4 + 48/16) = 2``:

    >>> import math
    >>> round(float(thm51_bound(4, math.e, 1.0, 1, 1.0, 4.0, 48.0, 2, 2 / math.e)), 6)
    2.0
    """

    def b(
        n: Any, t: Any, s2: Any, s: Any, beta: Any, a: Any, trS: Any, d: Any, dl: Any, C: Any
    ) -> sp.Expr:
        L = sp.log(d / dl)
        return C * sp.log(t) / beta * sp.sqrt(s2 * a * L / n + s2 * s * trS * L**2 / n**2)

    _check_log(d, delta)
    syms = sp.symbols("n t sigma2 s beta trRSR trS d delta C", positive=True)
    return dual(b, syms, (n, t, sigma2, s, beta, trRSR, trS, d, delta, C))


@checked
def thm52_bound(n: Any, t: Any, sigma2: Any, trS: Any, d: Any, delta: Any, C: Any = 1) -> Any:
    r"""Thm 5.2 (raw GD): ``E(w^t) ≲ log t · sqrt(σ² Tr Σ log(d/δ)/n)``.

    Source: [czz24] Thm 5.2 (with probability ≥ 1 − δ; constant ``C`` unspecified).

    >>> import math
    >>> round(float(thm52_bound(4, math.e, 1.0, 4.0, 2, 2 / math.e)), 6)   # sqrt(4/4)
    1.0
    """

    def b(n: Any, t: Any, s2: Any, trS: Any, d: Any, dl: Any, C: Any) -> sp.Expr:
        return C * sp.log(t) * sp.sqrt(s2 * trS * sp.log(d / dl) / n)

    _check_log(d, delta)
    syms = sp.symbols("n t sigma2 trS d delta C", positive=True)
    return dual(b, syms, (n, t, sigma2, trS, d, delta, C))


def _rate53(n: Any, d: Any, s: Any, s2: Any) -> sp.Expr:
    return s2 * (s / n + d * s**2 / n**2)


@checked
def thm53_rate(n: Any, d: Any, s: Any, sigma2: Any) -> Any:
    r"""Thm 5.3 (Σ = I, ±1/√s prior), logs dropped: ``σ²(s/n + d s²/n²)``.

    >>> thm53_rate(64, 64, 4, 0.25)
    0.078125
    """
    return dual(_rate53, (n_sym, d_sym, s_sym, sigma2_sym), (n, d, s, sigma2))


@checked
def bound_ratio_isotropic(n: Any, d: Any, s: Any) -> Any:
    r"""``B_{5.1}²/B_{5.2}² = s/d + s²/n`` for Σ = I, ``β = 1/√s``, ‖w*‖ = 1 (logs dropped)
    [derived]: pre-GD's bound is smaller iff ``s/d + s²/n < 1``.

    Source: [czz24] Thms 5.1, 5.2 and Remark 5.2 (the comparison of the two bounds).

    >>> import sympy as sp
    >>> n, d, s = sp.symbols("n d s", positive=True)
    >>> bound_ratio_isotropic(n, d, s)
    s**2/n + s/d
    >>> bound_ratio_isotropic(16, 64, 4)   # 4/64 + 16/16
    1.0625
    """

    def b(n: Any, d: Any, s: Any) -> sp.Expr:
        B51 = thm51_bound(n, 2, 1, s, 1 / sp.sqrt(s), 1, d, d, d / sp.E)
        B52 = thm52_bound(n, 2, 1, d, d, d / sp.E)
        return sp.expand(B51**2 / B52**2)

    return dual(b, (n_sym, d_sym, s_sym), (n, d, s))


@checked
def eta_t_star_51(
    n: Any, sigma2: Any, s: Any, beta: Any, trRSR: Any, trS: Any, d: Any, delta: Any
) -> Any:
    r"""Thm 5.1's ``(ηt)* = (1/β)[σ²Tr(RΣR)log(d/δ)/n + σ² s Tr(Σ)log²(d/δ)/n²]^{−1/2}``.

    Source: [czz24] Thm 5.1 (the stopping time at which its bound holds).  At the inputs of
    :func:`thm51_bound`'s example the bracket is 4:

    >>> import math
    >>> round(float(eta_t_star_51(4, 1.0, 1, 1.0, 4.0, 48.0, 2, 2 / math.e)), 6)
    0.5
    """

    def b(n: Any, s2: Any, s: Any, beta: Any, a: Any, trS: Any, d: Any, dl: Any) -> sp.Expr:
        L = sp.log(d / dl)
        return 1 / (beta * sp.sqrt(s2 * a * L / n + s2 * s * trS * L**2 / n**2))

    _check_log(d, delta)
    syms = sp.symbols("n sigma2 s beta trRSR trS d delta", positive=True)
    return dual(b, syms, (n, sigma2, s, beta, trRSR, trS, d, delta))


@checked
def thm53_steps(n: Any, s: Any, sigma2: Any, eta: Any) -> Any:
    """Thm 5.3 step count ``t ≳ s·log(ns/σ²)/η``.

    Source: [czz24] Thm 5.3 (the number of pre-GD steps for the upper bound).

    >>> import math
    >>> round(float(thm53_steps(50, 2, 100 / math.e, 0.5)), 6)   # log(ns/σ²) = 1: 2/0.5
    4.0
    """
    return dual(
        lambda n, s, s2, e: s * sp.log(n * s / s2) / e,
        sp.symbols("n s sigma2 eta", positive=True),
        (n, s, sigma2, eta),
    )
