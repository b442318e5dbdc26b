"""[zwb24] settings: :class:`Setting`, the one setting every zwb24 check takes (settings first),
with its named :data:`PRESETS`; the data models of Table 1 and Thm 6.3 as functions of ``d, N,
sigma2, beta_norm``, their validators, and the presets' values.

Only the standard library, numpy and :mod:`theory.settings.linear` are imported (the trained models
of ``sims`` build their data from here without seeing a prediction).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from theory.common.setting import param
from theory.settings.linear import LinearRegressionICL
from theory.settings.validators import check_int, check_real

__all__ = [
    "Setting",
    "PRESETS",
    "hypotheses_trained",
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

#: ‖β*‖ of the Theorem 6.3 preset's β* = (2, −1, 0.5) (its trained family varies it along β*/‖β*‖).
C18_BETA_NORM = math.sqrt(2.0**2 + 1.0**2 + 0.5**2)
#: The presets of the trained families: Theorem 6.3 (App. G's data model at N = 5) and Table 1
#: (H = Ψ = I at N = 5); the trained checks' defaults and the properties' pinned examples.
C18_SETTING = {"d": 3, "N": 5, "sigma2": 0.25, "beta_norm": C18_BETA_NORM}
C17_SETTING = {"d": 2, "N": 5, "sigma2": 0.25, "beta_norm": 3.0}

#: The Theorem 6.3 preset's H: random PD with eigenvalues ≈ .32/.85/3.7 in a fixed rotation (not
#: symmetrised).
C18_H = (lambda V: (V * np.array([0.32, 0.85, 3.7])) @ V.T)(
    np.linalg.qr(np.array([[1.0, 0.3, -0.2], [0.4, 1.0, 0.5], [-0.3, 0.2, 1.0]]))[0]
)


_WHERE = "zwb24 Assumption 3.1"


@dataclass(frozen=True, kw_only=True, slots=True)
class Setting:
    """A setting of [zwb24] (Assumption 3.1): covariate dimension d, prompt length N, label-noise
    variance σ², and the size ‖β*‖ of the task mean (the shared signal).

    The generic-point checks draw H, Ψ and the direction of β* from their seed at (d, N, σ²);
    the trained families build their data model from all four fields (:func:`table1_setting`:
    H = Ψ = I, β* = ‖β*‖·1/√d; :func:`thm63_setting`: our H and Ψ, β* along (2, −1, ½, …)).
    Every value is validated here, before any work; a result's own hypotheses (e.g. the trained
    rows' N ≥ 2) are checked by the result.

    >>> Setting(d=3, N=6, sigma2=0.49).N
    6
    >>> Setting(d=0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: d must be ≥ 1 (zwb24 Assumption 3.1: covariate dimension), got 0
    """

    d: int = param(2, "d: covariate dimension", domain="d >= 1")
    N: int = param(5, "N: prompt length (context examples)", domain="N >= 1")
    sigma2: float = param(0.25, "σ²: label-noise variance (context and query)", domain="σ² >= 0")
    beta_norm: float = param(
        3.0, "‖β*‖: norm of the task mean (the shared signal)", domain="‖β*‖ >= 0"
    )

    def __post_init__(self) -> None:
        check_int("d", self.d, minimum=1, paper=_WHERE + ": covariate dimension")
        check_int("N", self.N, minimum=1, paper=_WHERE + ": prompt length")
        object.__setattr__(self, "d", int(self.d))
        object.__setattr__(self, "N", int(self.N))
        object.__setattr__(
            self,
            "sigma2",
            check_real("sigma2 (σ²)", self.sigma2, lower=0.0, paper=_WHERE + ": σ² >= 0"),
        )
        object.__setattr__(
            self,
            "beta_norm",
            check_real("beta_norm (‖β*‖)", self.beta_norm, lower=0.0, paper=_WHERE),
        )


def hypotheses_trained(setting: Setting) -> None:
    """The trained rows' hypothesis beyond the Setting's: N ≥ 2 (they tell R* and Γ* from their
    N − 1 neighbours, which need N − 1 ≥ 1).

    Raises ``ValueError`` naming the value otherwise.

    Examples
    --------
    >>> hypotheses_trained(Setting(d=3, N=5))          # passes silently
    >>> hypotheses_trained(Setting(d=3, N=1))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: N = 1: the prompt length is an integer >= 2 ...
    """
    _check_setting(setting.d, setting.N, setting.sigma2, setting.beta_norm)


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
    """[zwb24] Assumption 3.1 for the Table 1 family (H = Ψ = I, β* = beta_norm·1/√d).

    Raises ``ValueError`` naming the value and the assumption (d ≥ 1, N ≥ 2, σ² ≥ 0, ‖β*‖ ≥ 0).

    Examples
    --------
    >>> validate_table1(2, 5, 0.25, 3.0)                # Table 1's preset: passes silently
    >>> validate_table1(2, 5, -0.25, 3.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: sigma2 = -0.25: a finite real >= 0 ...
    """
    _check_setting(d, N, sigma2, beta_norm)


def validate_thm63(d: int, N: int, sigma2: float, beta_norm: float) -> None:
    """[zwb24] Assumption 3.1 and Thm 6.3's H ≻ 0 (true by construction) for the C18 family.

    Raises ``ValueError`` naming the value and the assumption (d ≥ 1, N ≥ 2, σ² ≥ 0, ‖β*‖ ≥ 0).

    Examples
    --------
    >>> validate_thm63(3, 5, 0.25, 2.29)                # passes silently
    >>> validate_thm63(0, 5, 0.25, 2.29)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: d = 0: the dimension is an integer >= 1 ...
    """
    _check_setting(d, N, sigma2, beta_norm)


def table1_setting(*, d: int, N: int, sigma2: float, beta_norm: float) -> LinearRegressionICL:
    """Table 1's data model at ``(d, N, σ², ‖β*‖)``: H = Ψ = I, β* = ‖β*‖·(1, …, 1)/√d (the
    presets' data model: the defaults give the preset's setting).

    Source: [zwb24] §6 / Table 1 (H = Ψ = I) and Assumption 3.1.

    Returns
    -------
    :class:`~theory.settings.linear.LinearRegressionICL` with ``Sigma_x`` (d, d),
    ``task_mean`` (d,), ``task_cov`` (d, d), ``noise_var = σ²``, ``N``.

    Examples
    --------
    >>> s = table1_setting(d=2, N=5, sigma2=0.25, beta_norm=3.0)
    >>> round(float(np.linalg.norm(s.task_mean)), 12), bool(s.task_mean[0] == s.task_mean[1])
    (3.0, True)
    >>> bool(np.allclose(s.Sigma_x, np.eye(2))), s.noise_var
    (True, 0.25)
    """
    validate_table1(d, N, sigma2, beta_norm)
    return LinearRegressionICL.from_arrays(
        Sigma_x=np.eye(d),
        N=N,
        task_mean=beta_norm * np.ones(d) / math.sqrt(d),
        task_cov=np.eye(d),
        noise_var=sigma2,
    )


def c18_preset_setting() -> LinearRegressionICL:
    """App. G's trained preset: d = 3, N = 5 (reference: 10), σ = .5, H = :data:`C18_H` symmetrised,
    Ψ = diag(1, .5, .25), β* = (2, −1, 0.5).

    Source: [zwb24] Theorem 6.3 and App. G (the trained preset of our Theorem 6.3 check).

    Returns
    -------
    :class:`~theory.settings.linear.LinearRegressionICL` at d = 3.

    Examples
    --------
    >>> s = c18_preset_setting()
    >>> np.round(np.linalg.eigvalsh(s.Sigma_x), 2).tolist(), s.task_mean.tolist(), s.N
    ([0.32, 0.85, 3.7], [2.0, -1.0, 0.5], 5)
    """
    return LinearRegressionICL.from_arrays(
        Sigma_x=0.5 * (C18_H + C18_H.T),
        N=5,
        task_mean=[2.0, -1.0, 0.5],
        task_cov=np.diag([1.0, 0.5, 0.25]),
        noise_var=0.25,
    )


def thm63_setting(*, d: int, N: int, sigma2: float, beta_norm: float) -> LinearRegressionICL:
    """App. G's data model at ``(d, N, σ², ‖β*‖)``.  At d = 3 H is the preset's (eigenvalues
    ≈ .32/.85/3.7 in a fixed rotation); at other d, eigenvalues geometric from .32 to 3.7 in a
    fixed rotation (seeded QR).  Ψ = diag(2⁻ⁱ), β* = ‖β*‖·v/‖v‖ with vᵢ = 2·(−1/2)ⁱ (the preset's
    (2, −1, 0.5) at d = 3).

    Source: [zwb24] Theorem 6.3 and App. G; Assumption 3.1.

    Returns
    -------
    :class:`~theory.settings.linear.LinearRegressionICL` of dimension d.

    Examples
    --------
    At d = 3 and ‖β*‖ = ‖(2, −1, ½)‖ it is the preset :func:`c18_preset_setting`:

    >>> s = thm63_setting(d=3, N=5, sigma2=0.25, beta_norm=C18_BETA_NORM)
    >>> p = c18_preset_setting()
    >>> bool(np.allclose(s.Sigma_x, p.Sigma_x) and np.allclose(s.task_mean, p.task_mean))
    True
    >>> s5 = thm63_setting(d=5, N=5, sigma2=0.25, beta_norm=2.0)
    >>> round(float(np.linalg.norm(s5.task_mean)), 12), s5.Sigma_x.shape
    (2.0, (5, 5))
    """
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


#: Named settings, the paper's Table 1 first (d = 2, N = 5: the CPU-scale proxy of the
#: paper's GPT2 setting), then the setting each family of checks runs at by default.
PRESETS: dict[str, Setting] = {
    "table1": Setting(**C17_SETTING),
    "thm6.3": Setting(**C18_SETTING),
    "gd_beta": Setting(d=3, N=5, sigma2=0.49),
    "model": Setting(d=3, N=6, sigma2=0.49),
    "flow": Setting(d=3, N=8, sigma2=0.25),
    "cross_zfb24": Setting(d=3, N=10, sigma2=0.3),
    "cor6.2_ratio": Setting(d=5, N=20, sigma2=0.03**2),
}
