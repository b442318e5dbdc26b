"""[zfb24] §3.3 Assumption 3, §4.1 Theorem 4 and §4.3 Theorem 8: the hypotheses a trained
setting must meet, validators of the trained checks' ``--set`` values, called before any training
(:func:`theory.common.protocols.validates_setting`).

Each raises ``ValueError`` naming the symbol, its value and the assumption it breaks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from theory.zfb24.sec4_1_convergence import init_condition
from theory.zfb24.settings import Setting

__all__ = [
    "validate_thm4_setting",
    "validate_thm8_setting",
    "thm4_hypotheses",
    "thm8_hypotheses",
    "THM4_MAX_D",
    "THM8_MAX_D",
]

#: The trained routes run at d ≤ 8 (the d⁴ statistics and the CPU budget; not a hypothesis of
#: the theorems, a limit of this route, named so).
THM4_MAX_D = 8
THM8_MAX_D = 8


def _count(name: str, value: object, minimum: int, why: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{name}={value!r} must be an integer ≥ {minimum} ({why})")
    return int(value)


def validate_thm4_setting(d: int, N: int, spectrum: Sequence[float], sigma_init: float) -> None:
    """zfb24 §3.3 / Assumption 3 / Theorem 4 for the trained checks: ``spectrum`` = the eigenvalues
    of Λ = diag(spectrum), d of them, all > 0 (Λ ≻ 0, §3.3); N ≥ 2 (the trained rows tell Γ from
    Γ with N → N−1, which needs N − 1 ≥ 1); σ > 0 with σ²‖Γ‖_op√d < 2 (Theorem 4's condition on
    the Assumption 3 start).

    >>> validate_thm4_setting(3, 6, (0.5, 1.0, 2.0), 0.3)
    >>> validate_thm4_setting(3, 6, (0.5, 1.0, 2.0), 1.2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: sigma_init=1.2 breaks zfb24 Assumption 3 / Theorem 4: σ²‖Γ‖_op√d = 7.27 ...
    """
    d = _count("d", d, 1, "the covariate dimension")
    if d > THM4_MAX_D:
        raise ValueError(
            f"d={d} > {THM4_MAX_D}: beyond the trained route's range (d ≤ {THM4_MAX_D})"
        )
    N = _count(
        "N",
        N,
        2,
        "the training prompt length; the trained rows name Γ with N → N−1, which needs N ≥ 2",
    )
    spec = tuple(float(v) for v in spectrum)
    if len(spec) != d:
        raise ValueError(
            f"spectrum={spec!r} has {len(spec)} eigenvalues; Λ = diag(spectrum) "
            f"must be d×d with d = {d} (zfb24 §3.3)"
        )
    if not all(math.isfinite(v) and v > 0 for v in spec):
        raise ValueError(
            f"spectrum={spec!r}: Λ must be positive definite, every eigenvalue > 0 "
            "and finite (zfb24 §3.3)"
        )
    s = float(sigma_init)
    if not (math.isfinite(s) and s > 0):
        raise ValueError(f"sigma_init={sigma_init!r} must be > 0 (zfb24 Assumption 3)")
    cond = float(init_condition(np.diag(spec), N, s))
    if not cond < 2:
        raise ValueError(
            f"sigma_init={sigma_init!r} breaks zfb24 Assumption 3 / Theorem 4: "
            f"σ²‖Γ‖_op√d = {cond:.3g} must be < 2 (Λ = diag{spec}, N = {N})"
        )


def validate_thm8_setting(d: int, N: int) -> None:
    """zfb24 Definition 7 / Theorem 8 for the trained check: d ≥ 1, N ≥ 2 (δ's neighbour δ(N−1)
    needs N − 1 ≥ 1).  Condition (21) constrains σ, which the check derives from (d, N).

    >>> validate_thm8_setting(5, 3)
    >>> validate_thm8_setting(5, 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: N=1 must be an integer ≥ 2 (the training prompt length; ...
    """
    d = _count("d", d, 1, "the covariate dimension")
    if d > THM8_MAX_D:
        raise ValueError(
            f"d={d} > {THM8_MAX_D}: beyond the trained route's range (d ≤ {THM8_MAX_D})"
        )
    _count("N", N, 2, "the training prompt length; the trained rows name δ(N−1), which needs N ≥ 2")


def thm4_hypotheses(setting: Setting) -> None:
    """Theorem 4's hypotheses on a :class:`~theory.zfb24.settings.Setting` (``Result.hypotheses``
    of zfb24:thm4 and zfb24:eq12): Λ = diag(spectrum) given (the trained routes and the ODE run at
    a diagonal Λ), and :func:`validate_thm4_setting` on (d, N, spectrum, σ).

    >>> thm4_hypotheses(Setting(d=3, N=6, spectrum=(0.5, 1.0, 2.0)))
    >>> thm4_hypotheses(Setting(d=3, N=6, spectrum=None))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: spectrum=None: Theorem 4's checks run at Λ = diag(spectrum); give ...
    """
    if setting.spectrum is None:
        raise ValueError(
            "spectrum=None: Theorem 4's checks run at Λ = diag(spectrum); give d eigenvalues "
            "(zfb24 §3.3)"
        )
    validate_thm4_setting(setting.d, setting.N, setting.spectrum, setting.sigma_init)


def thm8_hypotheses(setting: Setting) -> None:
    """Theorem 8's hypotheses on a Setting (``Result.hypotheses`` of zfb24:thm8):
    :func:`validate_thm8_setting` on (d, N).

    >>> thm8_hypotheses(Setting(d=5, N=3, spectrum=None))
    """
    validate_thm8_setting(setting.d, setting.N)
