"""[zwb24] settings: the data models of Table 1 (spec 002 C17) and Thm 6.3 (spec 002 C18) as
functions of ``d, N, sigma2, beta_norm``, their validators, and the presets' values.

Only the standard library, numpy and :mod:`theory.settings.linear` are imported (the trained models
of ``sims`` build their data from here without seeing a prediction).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from theory.settings.linear import LinearRegressionICL

__all__ = [
    "C17_SETTING",
    "C18_SETTING",
    "C18_BETA_NORM",
    "C18_H",
    "c18_preset_setting",
    "table1_setting",
    "thm63_setting",
    "validate_table1",
    "validate_thm63",
]

#: ‖β*‖ of spec C18's preset β* = (2, −1, 0.5) (Thm 6.3's trained family varies it along β*/‖β*‖).
C18_BETA_NORM = math.sqrt(2.0**2 + 1.0**2 + 0.5**2)
#: The presets of the trained families: Thm 6.3 (spec C18 at N = 5) and Table 1 (spec C17 at
#: N = 5); the trained checks' defaults and the properties' pinned examples.
C18_SETTING = {"d": 3, "N": 5, "sigma2": 0.25, "beta_norm": C18_BETA_NORM}
C17_SETTING = {"d": 2, "N": 5, "sigma2": 0.25, "beta_norm": 3.0}

#: Spec C18's H: random PD with eigenvalues ≈ .32/.85/3.7 in a fixed rotation (not symmetrised).
C18_H = (lambda V: (V * np.array([0.32, 0.85, 3.7])) @ V.T)(
    np.linalg.qr(np.array([[1.0, 0.3, -0.2], [0.4, 1.0, 0.5], [-0.3, 0.2, 1.0]]))[0]
)


def _check_setting(d: Any, N: Any, sigma2: Any, beta_norm: Any) -> None:
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
        raise ValueError(f"d = {d!r}: the dimension is an integer >= 1 ([zwb24] Assumption 3.1)")
    if isinstance(N, bool) or not isinstance(N, (int, np.integer)) or N < 2:
        raise ValueError(
            f"N = {N!r}: the prompt length is an integer >= 2 (Assumption 3.1 needs "
            "N >= 1; the trained rows tell R* and Gamma* from their N - 1 neighbours, "
            "which need N - 1 >= 1)"
        )
    for name, v in (("sigma2", sigma2), ("beta_norm", beta_norm)):
        if (
            isinstance(v, bool)
            or not isinstance(v, (int, float, np.floating, np.integer))
            or not math.isfinite(float(v))
            or float(v) < 0
        ):
            raise ValueError(
                f"{name} = {v!r}: a finite real >= 0 (Assumption 3.1: sigma^2 >= 0; "
                "beta_norm = |beta*| >= 0)"
            )


def validate_table1(d: int, N: int, sigma2: float, beta_norm: float) -> None:
    """[zwb24] Assumption 3.1 for the Table 1 family (H = Ψ = I, β* = beta_norm·1/√d)."""
    _check_setting(d, N, sigma2, beta_norm)


def validate_thm63(d: int, N: int, sigma2: float, beta_norm: float) -> None:
    """[zwb24] Assumption 3.1 and Thm 6.3's H ≻ 0 (true by construction) for the C18 family."""
    _check_setting(d, N, sigma2, beta_norm)


def table1_setting(*, d: int, N: int, sigma2: float, beta_norm: float) -> LinearRegressionICL:
    """Spec C17's data model at ``(d, N, σ², ‖β*‖)``: H = Ψ = I, β* = ‖β*‖·(1, …, 1)/√d (the
    presets' data model: the defaults give the preset's setting)."""
    validate_table1(d, N, sigma2, beta_norm)
    return LinearRegressionICL.from_arrays(
        Sigma_x=np.eye(d),
        N=N,
        task_mean=beta_norm * np.ones(d) / math.sqrt(d),
        task_cov=np.eye(d),
        noise_var=sigma2,
    )


def c18_preset_setting() -> LinearRegressionICL:
    """Spec C18's preset: d = 3, N = 5 (spec: 10), σ = .5, H = :data:`C18_H` symmetrised,
    Ψ = diag(1, .5, .25), β* = (2, −1, 0.5)."""
    return LinearRegressionICL.from_arrays(
        Sigma_x=0.5 * (C18_H + C18_H.T),
        N=5,
        task_mean=[2.0, -1.0, 0.5],
        task_cov=np.diag([1.0, 0.5, 0.25]),
        noise_var=0.25,
    )


def thm63_setting(*, d: int, N: int, sigma2: float, beta_norm: float) -> LinearRegressionICL:
    """Spec C18's data model at ``(d, N, σ², ‖β*‖)``.  At d = 3 H is the preset's (eigenvalues
    ≈ .32/.85/3.7 in a fixed rotation); at other d, eigenvalues geometric from .32 to 3.7 in a
    fixed rotation (seeded QR).  Ψ = diag(2⁻ⁱ), β* = ‖β*‖·v/‖v‖ with vᵢ = 2·(−1/2)ⁱ (the preset's
    (2, −1, 0.5) at d = 3)."""
    validate_thm63(d, N, sigma2, beta_norm)
    i = np.arange(d)
    if d == 3:
        H = 0.5 * (C18_H + C18_H.T)
    else:
        Q = np.linalg.qr(np.random.default_rng(18).standard_normal((d, d)))[0]
        H = (Q * np.geomspace(0.32, 3.7, d)) @ Q.T
        H = 0.5 * (H + H.T)
    v = 2.0 * (-0.5) ** i
    return LinearRegressionICL.from_arrays(
        Sigma_x=H,
        N=N,
        task_mean=v * (float(beta_norm) / float(np.linalg.norm(v))),
        task_cov=np.diag(2.0**-i),
        noise_var=sigma2,
    )
