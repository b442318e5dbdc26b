"""The shared layer's setting (results ``base:*``): :class:`GaussianSetting`, the one setting every
settings-first ``base`` check takes, with its named :data:`PRESETS`.

The baselines' checks run on pinned generic matrices (Σ, Ψ, β*, Γ of
:mod:`numerics.baselines.cases`); what a researcher may move is the size of the problem -- the
dimension d, the prompt length N, the label noise σ² -- and the proportional limit's ξ = d/N and
signal α² = E‖β‖².  A check that reads none of them is declared fixed, with its reason, in
:mod:`sims.common.results`.  (The fields of every Setting type are built with
:func:`theory.common.setting.param`.)

Only the standard library and the shared validators are imported.
"""

from __future__ import annotations

from dataclasses import dataclass

from theory.common.setting import param
from theory.settings.validators import check_int, check_real

__all__ = ["GaussianSetting", "PRESETS"]

_P = "the Gaussian linear-regression ICL model of theory.common.baselines"


@dataclass(frozen=True, kw_only=True, slots=True)
class GaussianSetting:
    """A setting of the shared baselines: x ~ N(0, Σ) in dimension d, prompts of N labelled rows,
    label noise σ²; in the proportional limit d, N → ∞ with d/N = ξ and E‖β‖² = α².

    >>> GaussianSetting(d=3, N=6).N
    6
    >>> GaussianSetting(N=0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: N must be ≥ 1 ...
    """

    d: int = param(3, "d: dimension of x", domain="d >= 1")
    N: int = param(8, "N: prompt length (labelled rows of X)", domain="N >= 1")
    sigma2: float = param(0.5, "σ²: label-noise variance", domain="σ² >= 0")
    xi: float = param(0.5, "ξ = d/N: aspect ratio of the proportional limit", domain="ξ > 0")
    signal: float = param(1.0, "α² = E‖β‖²: signal of the proportional limit", domain="α² > 0")

    def __post_init__(self) -> None:
        check_int("d", self.d, minimum=1, paper=f"{_P}: x ∈ R^d, d ≥ 1")
        check_int("N", self.N, minimum=1, paper=f"{_P}: N ≥ 1 labelled rows")
        for name, open_, assumption in (
            ("sigma2", False, "noise variance σ² ≥ 0"),
            ("xi", True, "aspect ratio ξ = d/N > 0"),
            ("signal", True, "signal α² = E‖β‖² > 0"),
        ):
            v = check_real(
                name, getattr(self, name), lower=0.0, lower_open=open_, paper=f"{_P}: {assumption}"
            )
            object.__setattr__(self, name, v)


#: Named settings: the defaults first, then the presets checks run at where they differ (each
#: reproduces a check's former keyword defaults).
PRESETS: dict[str, GaussianSetting] = {
    "default": GaussianSetting(),
    "wishart": GaussianSetting(N=4),
    "sample_cov": GaussianSetting(N=5),
    "bayes": GaussianSetting(N=6),
    "ridge_ordering": GaussianSetting(N=10),
    "ols": GaussianSetting(N=12, sigma2=0.49),
    "mp_generic": GaussianSetting(xi=0.7, sigma2=0.3, signal=1.7),
    "wishart_sampler": GaussianSetting(d=5, N=8),
}
