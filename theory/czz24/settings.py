"""[czz24] settings: :class:`Setting`, the one setting every converted czz24 check takes (settings
first), with its named :data:`PRESETS`; and §2's data model :class:`SparseRegressionICL` (sparse
linear regression in context) that the samplers and trained models build from.

* covariates ``x ~ N(0, Σ)`` with ``Σ = diag(Sigma_diag) + zeta·𝟙𝟙ᵀ`` (diagonal Σ: ``zeta = 0``,
  the theory's Sec. 2; ``Σ = I + ζ𝟙𝟙ᵀ``: App. G, Fig. 11);
* an ``s``-sparse task ``w*`` with a uniformly random support of size ``s`` and either the theory
  prior (``prior="sign"``: ``w*_i = ±1/√s`` on the support, Thm 5.3) or the experimental prior
  (``prior="gauss"``: ``w*_i ~ N(0, 1)`` on the support, Sec. 3 / App. B);
* labels ``y = ⟨w*, x⟩ + ε``, ``ε ~ N(0, σ²)``; ``n`` context pairs and ``q`` queries.

Only the standard library and numpy are imported (``sims`` may use this module).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from theory.common.setting import param
from theory.settings.validators import (
    Vector,
    VectorLike,
    as_vector,
    check_choice,
    check_int,
    check_real,
    readonly,
)

__all__ = [
    "Setting",
    "PRESETS",
    "SPARSE_PRIORS",
    "SparseRegressionICL",
]

#: The two task priors of [czz24]: the theory prior (±1/√s, Thm 5.3) and the experimental one.
SPARSE_PRIORS = ("sign", "gauss")


@dataclass(frozen=True, kw_only=True, slots=True)
class SparseRegressionICL:
    """Sparse linear regression in context ([czz24] §2, Thm 5.3, App. B, App. G).

    >>> st = SparseRegressionICL.isotropic(d=16, s=4, n=12, sigma2=0.01, prior="gauss")
    >>> st.task_second_moment, st.signal
    (0.25, 4.0)
    """

    d: int  # feature dimension d ≥ 1
    s: int  # sparsity s = |supp w*|, 1 ≤ s ≤ d
    n: int  # context length n ≥ 1 (number of labelled examples)
    sigma2: float  # label-noise variance σ² ≥ 0 (the paper's σ is the standard deviation)
    prior: str = "sign"  # "sign": w*_i = ±1/√s (theory); "gauss": w*_i ~ N(0, 1) (experiments)
    Sigma_diag: Vector = ()  # diagonal part of Σ (length d, entries > 0); () means all ones
    zeta: float = 0.0  # Σ = diag(Sigma_diag) + zeta·𝟙𝟙ᵀ, zeta ≥ 0 (App. G non-orthogonal design)
    q: int = 1  # query tokens per prompt (1 in theory, 4 in training)

    def __post_init__(self) -> None:
        where = "[czz24] §2"
        d = check_int("d", self.d, minimum=1, paper=where)
        s = check_int("s (sparsity)", self.s, minimum=1, paper=where)
        if s > d:
            raise ValueError(
                f"s (sparsity) must be ≤ d = {d} ([czz24] §2: ‖w*‖_0 ≤ s ≤ d), got s = {s}"
            )
        check_int("n (context length)", self.n, minimum=1, paper=where)
        check_int("q (queries per prompt)", self.q, minimum=1, paper=where)
        check_real("sigma2 (noise variance σ²)", self.sigma2, lower=0.0, paper=where)
        check_choice("prior", self.prior, SPARSE_PRIORS, paper=where)
        diag = (
            (1.0,) * d
            if len(self.Sigma_diag) == 0
            else as_vector("Sigma_diag (diagonal of Σ)", self.Sigma_diag, d=d, paper=where)
        )
        for j, v in enumerate(diag):
            check_real(
                f"Sigma_diag[{j}] (Σ_jj)",
                v,
                lower=0.0,
                lower_open=True,
                paper=where + ": Σ positive definite",
            )
        check_real("zeta (Σ = D + ζ𝟙𝟙ᵀ)", self.zeta, lower=0.0, paper="[czz24] App. G")
        object.__setattr__(self, "Sigma_diag", tuple(float(v) for v in diag))
        object.__setattr__(self, "sigma2", float(self.sigma2))
        object.__setattr__(self, "zeta", float(self.zeta))

    @classmethod
    def isotropic(
        cls, *, d: int, s: int, n: int, sigma2: float, prior: str = "sign", q: int = 1
    ) -> SparseRegressionICL:
        """``Σ = I_d`` (Thm 5.3 and the experiments)."""
        return cls(d=d, s=s, n=n, sigma2=sigma2, prior=prior, q=q)

    @classmethod
    def diagonal(
        cls, diag: VectorLike, *, s: int, n: int, sigma2: float, prior: str = "sign", q: int = 1
    ) -> SparseRegressionICL:
        """Diagonal ``Σ = diag(diag)`` (Thm 5.1)."""
        v = as_vector("Sigma_diag (diagonal of Σ)", diag)
        return cls(d=len(v), s=s, n=n, sigma2=sigma2, prior=prior, Sigma_diag=v, q=q)

    @property
    def Sigma_x_array(self) -> np.ndarray:
        """``Σ = diag(Sigma_diag) + zeta·𝟙𝟙ᵀ`` (read-only, d×d)."""
        return readonly(np.diag(self.Sigma_diag) + self.zeta * np.ones((self.d, self.d)))

    @property
    def diagonal_design(self) -> bool:
        """True when Σ is diagonal (``zeta = 0``): then ``r_j ≠ 0 ⇔ j ∈ S``."""
        return self.zeta == 0.0

    @property
    def slab_var(self) -> float:
        """Per-coordinate second moment of ``w*_i`` on the support: ``1/s`` (sign) or 1."""
        return 1.0 / self.s if self.prior == "sign" else 1.0

    @property
    def task_second_moment(self) -> float:
        """``E[w*w*ᵀ] = c·I_d`` with ``c = (s/d)·slab_var``: ``1/d`` (sign), ``s/d`` (gauss)."""
        return self.s / self.d * self.slab_var

    @property
    def signal(self) -> float:
        """``E‖w*‖² = s·slab_var``: 1 for the sign prior, ``s`` for the Gaussian one."""
        return self.s * self.slab_var

    @property
    def beta_min(self) -> float:
        """Lower bound ``min_j Σ_jj/√s`` of ``β = min_{i∈S} |r_i|`` (sign prior, diagonal Σ)."""
        return min(self.Sigma_diag) / math.sqrt(self.s)


@dataclass(frozen=True, kw_only=True, slots=True)
class Setting:
    """A setting of [czz24]: §2's sparse linear regression in context (``x ~ N(0, Σ)`` with
    ``Σ = diag(Sigma_diag) + ζ𝟙𝟙ᵀ``, an ``s``-sparse ``w*`` under ``prior``, ``y = ⟨w*, x⟩ + ε``,
    ``ε ~ N(0, σ²)``, ``n`` context pairs, ``q`` queries).  Defaults: the paper's Fig. 1b setting
    (d = 16, s = 4, σ = 0.1, Gaussian slab prior, Σ = I; n = 12 as trained).

    ``Sigma_diag`` ``()`` means Σ's diagonal is all ones; ``None`` means a generic diagonal Σ,
    ``diag(U[0.5, 2])`` drawn from the check's seed (the rows say which).  Every value
    is validated here, before any work; a result's own hypotheses (e.g. a diagonal Σ) are checked
    by the result.

    >>> Setting().data().signal
    4.0
    >>> Setting(d=3, s=4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: s (sparsity) must be ≤ d = 3 ([czz24] §2: ‖w*‖_0 ≤ s ≤ d), got s = 4
    """

    d: int = param(16, "d: feature dimension", domain="d >= 1")
    s: int = param(4, "s: sparsity |supp w*|", domain="1 <= s <= d")
    n: int = param(12, "n: context length (labelled examples per prompt)", domain="n >= 1")
    sigma2: float = param(
        0.01, "σ²: label-noise variance (the paper's σ is its root)", domain="σ² >= 0"
    )
    prior: str = param(
        "gauss",
        "prior of w* on its support: sign (±1/√s, Thm 5.3) or gauss (N(0, 1), §3 / App. B)",
        domain="sign or gauss",
    )
    Sigma_diag: tuple[float, ...] | None = param(
        (),
        "diagonal of Σ (d values); empty: all ones; none: diag(U[0.5, 2]) drawn from the seed",
        domain="d values > 0, empty, or none",
    )
    zeta: float = param(0.0, "ζ: Σ = diag(Sigma_diag) + ζ𝟙𝟙ᵀ (App. G)", domain="ζ >= 0")
    q: int = param(1, "q: query tokens per prompt", domain="q >= 1")

    def __post_init__(self) -> None:
        diag = self.Sigma_diag
        if diag is not None and not isinstance(diag, (tuple, list)):
            diag = (diag,)
        # the data model validates every field (one set of messages); a generic Σ is checked
        # with its all-ones stand-in
        SparseRegressionICL(
            d=self.d,
            s=self.s,
            n=self.n,
            sigma2=self.sigma2,
            prior=self.prior,
            Sigma_diag=() if diag is None else tuple(diag),
            zeta=self.zeta,
            q=self.q,
        )
        if diag is not None:
            diag = tuple(float(v) for v in diag)
        object.__setattr__(self, "Sigma_diag", diag)
        object.__setattr__(self, "sigma2", float(self.sigma2))
        object.__setattr__(self, "zeta", float(self.zeta))

    @property
    def generic_sigma(self) -> bool:
        """Σ's diagonal is drawn from the check's seed (``Sigma_diag=None``)."""
        return self.Sigma_diag is None

    def data(self, Sigma_diag: VectorLike | None = None) -> SparseRegressionICL:
        """The §2 data model at this setting (``Sigma_diag`` supplies a generic Σ's draw)."""
        diag = self.Sigma_diag if Sigma_diag is None else tuple(float(v) for v in Sigma_diag)
        if diag is None:
            raise ValueError("a generic Σ (Sigma_diag=None) needs its drawn diagonal ([czz24] §2)")
        return SparseRegressionICL(
            d=self.d,
            s=self.s,
            n=self.n,
            sigma2=self.sigma2,
            prior=self.prior,
            Sigma_diag=diag,
            zeta=self.zeta,
            q=self.q,
        )


#: Named settings: the paper's reference setting first, then the settings the checks run at by
#: default (spec 000: V-R4 / V-R5 for App. D's lemmas, V-sims S1 / S2).
PRESETS: dict[str, Setting] = {
    "paper": Setting(),
    # App. D Lemmas D.1 / D.2 (spec V-R4): d = 16, s = 4, ±1/√s task, Σ = diag(U[0.5, 2])
    "lemD1": Setting(d=16, s=4, n=50, sigma2=0.25, prior="sign", Sigma_diag=None),
    # App. D Lemmas D.3-D.7 (spec V-R5): as V-R4 with n = 40
    "lemD7": Setting(d=16, s=4, n=40, sigma2=0.25, prior="sign", Sigma_diag=None),
    # S1 (spec V-sims S1): the Thm 5.3 data model, d = 32, s = 2, n = 128, σ² = 0.25
    "s1": Setting(d=32, s=2, n=128, sigma2=0.25, prior="sign"),
    # S2 (spec V-sims S2): d = 8, s = 2, n = 32, σ = 0.5, Gaussian slab prior, q = 8 (trained)
    "s2": Setting(d=8, s=2, n=32, sigma2=0.25, prior="gauss", q=8),
    # Fig. 1b's calibrated MC values (spec 000 §4 table) are printed at n = 10
    "fig1b_n10": Setting(n=10),
    # Fig. 2c: d = 16, s = 4, n = 10, Gaussian slab prior; σ ∈ {0, 0.2, 0.8} (σ = 0 here)
    "fig2c": Setting(n=10, sigma2=0.0),
}
