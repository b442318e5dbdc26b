"""[zfb24] settings: :class:`Setting`, the one setting every zfb24 check takes (settings first),
with its named :data:`PRESETS`; and the paper's data model of a trained LSA (§3.3 fixed
covariance Λ; §4.3 Definition 7 random covariance Λ_τ = diag(Exp(1)) per prompt) and the setting
(Λ, N, σ, Θ) of Assumption 3 / Theorem 4, validated at construction.

The training knobs (σ of Assumption 3's initialisation, Θ's seed, the run mode, the lr drop) are
the experiment's (:class:`sims.zfb24.train.LSAFlowSetting` adds them to this class).
Only the standard library, numpy and :mod:`theory.settings.validators` are imported (the trained
models of ``sims`` build their data from here without seeing a prediction).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from theory.common.setting import param
from theory.settings.validators import MatrixLike, as_matrix, check_int, check_real, readonly

__all__ = ["Setting", "PRESETS", "LSAFlowData", "Assumption3Setting", "THETA_NORM_ATOL"]

_WHERE = "zfb24 §3.3"


@dataclass(frozen=True, kw_only=True, slots=True)
class Setting:
    """A setting of [zfb24]: the data model of §3.3 (x ~ N(0, Λ), w ~ N(0, I_d), prompts of
    length N), the test prompt length M of §4.1, Assumption 3's initialisation scale σ, and the
    two derived extensions' knobs (label noise σ², the random-covariance test scaling δ).

    ``spectrum`` gives Λ = diag(spectrum); ``None`` means a generic Λ: a random non-diagonal
    symmetric positive definite matrix drawn from the check's seed (the point of a generic-point
    check; the row names say which).  Every value is validated here, before any work; a result's
    own hypotheses (e.g. Theorem 4's σ²‖Γ‖_op√d < 2) are checked by the result.

    >>> Setting(d=3, N=6, spectrum=(0.5, 1.0, 2.0)).Lambda.tolist()
    [[0.5, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 2.0]]
    >>> Setting(d=3, spectrum=(1.0, 2.0))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: spectrum=(1.0, 2.0) has 2 eigenvalues but d = 3: Λ = diag(spectrum) is d×d ...
    """

    d: int = param(4, "d: covariate dimension", domain="d >= 1")
    N: int = param(16, "N: training prompt length (ρ = N)", domain="N >= 1")
    spectrum: tuple[float, ...] | None = param(
        (0.5, 1.0, 1.5, 2.0),
        "eigenvalues of the covariate covariance Λ = diag(spectrum); none: a generic Λ drawn "
        "from the seed",
        domain="d values > 0, or none",
    )
    sigma_init: float = param(
        0.3, "σ: Assumption 3's initialisation scale (not a noise level)", domain="σ > 0"
    )
    M: int = param(5, "M: test prompt length (§4.1 Theorem 5)", domain="M >= 1")
    noise_var: float = param(
        0.5, "σ²: label-noise variance of the derived label-noise extension", domain="σ² >= 0"
    )
    delta: float | None = param(
        None,
        "δ: the random-covariance read-out scale of r(δ, c, M) [derived]; none: Theorem 8's δ",
        domain="finite, or none",
    )

    def __post_init__(self) -> None:
        check_int("d", self.d, minimum=1, paper="zfb24 covariate dimension")
        check_int("N", self.N, minimum=1, paper="zfb24 prompt length")
        check_int("M", self.M, minimum=1, paper="zfb24 §4.1 test prompt length")
        if self.spectrum is not None:
            spec = tuple(
                check_real(
                    f"spectrum[{i}]", v, lower=0.0, lower_open=True, paper=_WHERE + ": Λ ≻ 0"
                )
                for i, v in enumerate(
                    self.spectrum if isinstance(self.spectrum, (tuple, list)) else (self.spectrum,)
                )
            )
            if len(spec) != self.d:
                raise ValueError(
                    f"spectrum={spec!r} has {len(spec)} eigenvalues but d = {self.d}: "
                    f"Λ = diag(spectrum) is d×d ({_WHERE})"
                )
            object.__setattr__(self, "spectrum", spec)
        check_real(
            "sigma_init (σ)",
            self.sigma_init,
            lower=0.0,
            lower_open=True,
            paper="zfb24 Assumption 3",
        )
        object.__setattr__(self, "sigma_init", float(self.sigma_init))
        object.__setattr__(
            self,
            "noise_var",
            check_real("noise_var (σ²)", self.noise_var, lower=0.0, paper="label-noise variance"),
        )
        if self.delta is not None:
            object.__setattr__(self, "delta", check_real("delta (δ)", self.delta))

    @property
    def Lambda(self) -> np.ndarray | None:
        """Λ = diag(spectrum) as a read-only float64 array (``None`` for a generic Λ)."""
        return None if self.spectrum is None else readonly(np.diag(self.spectrum))


#: Named settings: the paper's reference setting and the presets the checks run at by default.
#: Each check declares the preset it runs at (``Check(..., at=PRESETS[name])``): its former
#: keyword defaults, so that a run without ``--set`` is the run it always was.  ``d3_N*`` are
#: generic points: a random non-diagonal Λ (d = 3) drawn from the check's seed.
PRESETS: dict[str, Setting] = {
    "paper": Setting(),  # the spec's reference: Λ = diag(0.5, 1, 1.5, 2), N = 16, σ = 0.3, M = 5
    "thm4_train": Setting(N=4),  # the trained Theorem 4 runs (sims.zfb24.train "thm4_*")
    **{f"d3_N{n}": Setting(d=3, N=n, spectrum=None) for n in (5, 6, 7, 8, 10, 16)},
    "thm5": Setting(d=3, N=10, M=5, spectrum=None),  # spec T-R5's nonlinear task (its own Λ)
    "thm8_ode": Setting(d=3, N=8, spectrum=None, sigma_init=0.15),  # spec T-R12, Exp(1)
    "thm8_bounds": Setting(d=3, N=5, spectrum=None, sigma_init=0.12),  # Gamma(2, 0.7) law
    "thm8_train": Setting(d=5, N=3, spectrum=None),  # sims.zfb24.train "thm8_random_cov"
    "shifts": Setting(d=3, N=12, M=6, spectrum=(0.5, 1.0, 2.0)),  # spec T-R11
    "fn2": Setting(d=3, N=20, spectrum=(0.5, 1.0, 2.0)),  # footnote 2, one GD step at n = N
    "fig1": Setting(d=20, spectrum=None),  # Figure 1 (d = 20; Λ random per prompt)
    "rdm_risk": Setting(d=5, N=20, spectrum=None),  # r(δ, c, M) by MC (Definition 7)
}

#: ‖ΘΘᵀ‖_F = 1 of Assumption 3 up to float64 rounding of the normalisation.
THETA_NORM_ATOL = 1e-10


@dataclass(frozen=True, kw_only=True, slots=True)
class LSAFlowData:
    """zfb24's data model: ``d``, the training prompt length ``N`` (ρ = N), and either a fixed
    covariance ``Lambda`` (symmetric positive definite, §3.3) or ``random_cov=True`` (Definition 7).

    >>> LSAFlowData(d=2, N=4, random_cov=True).random_cov
    True
    >>> LSAFlowData(d=2, N=4)
    Traceback (most recent call last):
    ...
    ValueError: give Lambda for fixed covariance, or random_cov=True (not both)
    """

    d: int  # covariate dimension
    N: int  # training prompt length (ρ = N)
    Lambda: MatrixLike | None = None  # fixed covariance Λ (None with random_cov)
    random_cov: bool = False  # Definition 7: Λ_τ = diag(Exp(1)) per prompt

    def __post_init__(self) -> None:
        check_int("d", self.d, minimum=1)
        check_int("N", self.N, minimum=1)
        if self.random_cov == (self.Lambda is not None):
            raise ValueError("give Lambda for fixed covariance, or random_cov=True (not both)")
        if self.Lambda is not None:
            object.__setattr__(
                self,
                "Lambda",
                as_matrix("Lambda", self.Lambda, d=self.d, definite=True, paper="zfb24 §3.3"),
            )


@dataclass(frozen=True, kw_only=True, slots=True)
class Assumption3Setting:
    """The setting of [zfb24] Theorem 4: data model (§3.3) and initialisation (Assumption 3).

    Matrices are stored as tuples of row tuples (hashable; any matrix-like input is accepted);
    :attr:`Lambda_array` and :attr:`Theta_array` give read-only float64 arrays.

    >>> s = Assumption3Setting(Lambda=[[1.0]], N=2, sigma_init=0.3, Theta=[[1.0]])
    >>> s.Lambda, s.d
    (((1.0,),), 1)
    """

    Lambda: MatrixLike  # covariate covariance Λ (d×d, symmetric positive definite)
    N: int  # training prompt length N ≥ 1
    sigma_init: float  # σ > 0 of Assumption 3 (initialisation scale, not a noise level)
    Theta: MatrixLike  # Θ (d×d) with ‖ΘΘᵀ‖_F = 1 (Assumption 3)

    def __post_init__(self) -> None:
        L = as_matrix("Lambda", self.Lambda, definite=True, paper="zfb24 §3.3")
        object.__setattr__(self, "Lambda", L)
        check_int("N", self.N, minimum=1, paper="zfb24 prompt length")
        check_real(
            "sigma_init (σ)",
            self.sigma_init,
            lower=0.0,
            lower_open=True,
            paper="zfb24 Assumption 3",
        )
        T = np.asarray(self.Theta, dtype=float)
        if T.shape != (len(L), len(L)):
            raise ValueError(
                f"Theta must have shape ({len(L)}, {len(L)}) (zfb24 Assumption 3), "
                f"got shape {T.shape}"
            )
        nrm = float(np.linalg.norm(T @ T.T))
        if abs(nrm - 1.0) > THETA_NORM_ATOL:
            raise ValueError(f"‖ΘΘᵀ‖_F must be 1 (Assumption 3), got {nrm:.6g}")
        object.__setattr__(self, "Theta", tuple(tuple(float(v) for v in row) for row in T))

    @property
    def d(self) -> int:
        """The covariate dimension d."""
        return len(self.Lambda)

    @property
    def Lambda_array(self) -> np.ndarray:
        """Λ as a read-only float64 array."""
        return readonly(self.Lambda)

    @property
    def Theta_array(self) -> np.ndarray:
        """Θ as a read-only float64 array."""
        return readonly(self.Theta)
