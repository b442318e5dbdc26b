"""[hpcy25] §2 and §3 (3.1)–(3.2): the validated paper setting of the closed forms (data model and a
head configuration ``(ω, μ)`` of the reparametrised softmax heads).  The training knobs of the
trained checks (optimiser, steps, batch, stop criterion) are the experiment's
(:mod:`sims.hpcy25.train`: ``HpcyExperiment``, ``TrainConfig``).

Spec 001 §1.1–§1.4 (``../shared/specs/001_multihead_softmax.md``).
"""

from __future__ import annotations

from dataclasses import dataclass

from theory.settings.validators import check_int, check_real

__all__ = ["HpcySetting"]


@dataclass(frozen=True, kw_only=True, slots=True)
class HpcySetting:
    """One hpcy25 setting: isotropic data (``x ~ N(0, I_d)``, ``β ~ N(0, I/d)``, noise ``σ²``) and
    an H-head configuration of the reparametrised model (3.1)–(3.2).

    >>> HpcySetting(d=5, L=40, sigma2=0.1, omega=(0.13, -0.13), mu=(3.45, -3.45)).H
    2
    """

    d: int  # covariate dimension d ≥ 1
    L: int  # prompt length L ≥ 2 (context examples)
    sigma2: float  # label-noise variance σ² ≥ 0
    omega: tuple[float, ...]  # KQ scales ω_h, one per head
    mu: tuple[float, ...]  # OV weights μ_h, one per head

    def __post_init__(self) -> None:
        check_int("d", self.d, minimum=1, paper="hpcy25 §1.1: dimension d ≥ 1")
        check_int("L", self.L, minimum=2, paper="hpcy25 §1.1: prompt length L ≥ 2")
        check_real("sigma2", self.sigma2, lower=0.0, paper="hpcy25 §1.1: noise variance σ² ≥ 0")
        object.__setattr__(self, "omega", tuple(float(v) for v in self.omega))
        object.__setattr__(self, "mu", tuple(float(v) for v in self.mu))
        if len(self.omega) != len(self.mu) or not self.omega:
            raise ValueError(
                f"omega and mu must have the same length H ≥ 1 (hpcy25 (3.1)), got "
                f"{len(self.omega)} and {len(self.mu)}"
            )
        for h, (w, m) in enumerate(zip(self.omega, self.mu, strict=True)):
            check_real(f"omega[{h}]", w, paper="hpcy25 (3.1): KQ scale ω_h")
            check_real(f"mu[{h}]", m, paper="hpcy25 (3.2): OV weight μ_h")

    @property
    def H(self) -> int:
        """Number of heads H."""
        return len(self.omega)
