"""[zfb24] settings: the paper's data model of a trained LSA (§3.3 fixed covariance Λ; §4.3
Definition 7 random covariance Λ_τ = diag(Exp(1)) per prompt), validated at construction.

The training knobs (σ of Assumption 3's initialisation, Θ's seed, the run mode, the lr drop) are
the experiment's (:class:`sims.experiments.lsa_flow.LSAFlowSetting` adds them to this class).
Only the standard library, numpy and :mod:`theory.settings.validators` are imported (the trained
models of ``sims`` build their data from here without seeing a prediction).
"""

from __future__ import annotations

from dataclasses import dataclass

from theory.settings.validators import MatrixLike, as_matrix, check_int

__all__ = ["LSAFlowData"]


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
