"""[hpcy25] settings: :class:`Setting`, the one setting every settings-first hpcy25 check takes,
with its named :data:`PRESETS` (the paper's first) and :func:`pair_hypothesis`; and
:class:`HpcySetting`, §2 and §3 (3.1)–(3.2)'s data model with a head configuration ``(ω, μ)`` of
the reparametrised softmax heads (the closed forms' property tests draw it).  The training knobs
of the trained checks (optimiser, steps, batch, stop criterion) are the experiment's
(:mod:`sims.hpcy25.train`: ``HpcyExperiment``, ``TrainConfig``).

Source: [hpcy25] §2, §3 (3.1)–(3.2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from theory.common.setting import param
from theory.settings.validators import check_int, check_real

__all__ = ["Setting", "PRESETS", "pair_hypothesis", "HpcySetting", "PROP4_1_MIN_L", "prop4_1_min_L"]


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


_WHERE = "hpcy25 §2"


@dataclass(frozen=True, kw_only=True, slots=True)
class Setting:
    """A setting of [hpcy25], the one setting every settings-first hpcy25 check takes: the data
    model of §2 (``x ~ N(0, I_d)``, or §5.3's KMS covariance ``Σ_ij = ρ^|i−j|``; ``β ~ N(0, I/d)``;
    label noise ``σ²`` on the context and query labels; prompts of ``L`` context examples), the
    number of heads ``H`` of the softmax attention model (2.2)-(2.3), and the points at which the
    closed forms are evaluated: the KQ scale ``ω`` of a homogeneous ± pair on the manifold
    ``M(ω)`` (4.6)-(4.10), the step ``η`` of the debiased GD such a pair implements
    (Theorem 4.2(i)) and App. B's initial scale ``ε`` (Def. B.1).

    Every value is validated here, before any work; a result's own hypotheses (e.g. Obs. 2's
    ``H ≥ 2``: :func:`pair_hypothesis`) are checked by the result.

    >>> Setting().H, Setting(d=3, L=25, sigma2=0.05).L
    (2, 25)
    >>> Setting(L=1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: L must be ≥ 2 (hpcy25 §2: the prompt length ...), got 1
    """

    d: int = param(5, "d: covariate dimension", domain="d >= 1")
    L: int = param(40, "L: prompt length (context examples)", domain="L >= 2")
    sigma2: float = param(0.1, "σ²: label-noise variance", domain="σ² >= 0")
    H: int = param(2, "H: number of attention heads", domain="H >= 1")
    omega: float = param(
        0.13, "ω: KQ scale of a homogeneous ± head pair on the manifold M(ω) (4.6)", domain="ω > 0"
    )
    eta: float = param(
        0.879,
        "η: step of the debiased GD (4.11) a ± pair implements, 2ω Σ_{H+} μ_h = η "
        "(Theorem 4.2(i)); 0.879 ≈ 1/κ at d = 5, L = 40, σ² = 0.1",
        domain="η > 0",
    )
    eps: float = param(
        1e-3,
        "ε: initial scale of App. B's two-head flow, ω_1 = −ω_2 = μ_1 = −μ_2 = ε (Def. B.1)",
        domain="ε > 0",
    )
    rho: float = param(
        0.0,
        "ρ: KMS correlation of the covariates, Σ_ij = ρ^|i−j| (§5.3); 0: isotropic (§2)",
        domain="-1 < ρ < 1",
    )

    def __post_init__(self) -> None:
        check_int("d", self.d, minimum=1, paper=f"{_WHERE}: the covariate dimension")
        check_int(
            "L",
            self.L,
            minimum=2,
            paper=f"{_WHERE}: the prompt length (the softmax over one context token is constant)",
        )
        check_int("H", self.H, minimum=1, paper="hpcy25 (2.2): the number of heads")
        for name, lower, open_, why in (
            ("sigma2", 0.0, False, f"{_WHERE}: the label-noise variance σ² ≥ 0"),
            ("omega", 0.0, True, "hpcy25 (4.6): the pair's KQ scale ω > 0"),
            ("eta", 0.0, True, "hpcy25 (4.11): a GD step η > 0"),
            ("eps", 0.0, True, "hpcy25 Def. B.1: the initial scale ε > 0"),
        ):
            v = check_real(name, getattr(self, name), lower=lower, lower_open=open_, paper=why)
            object.__setattr__(self, name, v)
        rho = check_real(
            "rho",
            self.rho,
            lower=-1.0,
            upper=1.0,
            lower_open=True,
            upper_open=True,
            paper="hpcy25 §5.3: the KMS covariance is positive definite for |ρ| < 1",
        )
        object.__setattr__(self, "rho", rho)

    @property
    def xi(self) -> float:
        """The aspect ratio ``ξ = d/L``."""
        return self.d / self.L


def pair_hypothesis(setting: Setting) -> None:
    """A ± head pair (Obs. 2, (4.3), the manifold (4.6), App. B's two-head flow): ``H ≥ 2``.

    >>> pair_hypothesis(Setting(H=1))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: H = 1: ... needs H ≥ 2 ...
    """
    if setting.H < 2:
        raise ValueError(
            f"H = {setting.H}: a ± head pair (hpcy25 Obs. 2, (4.3), (4.6)) needs H ≥ 2 heads"
        )


#: Named settings: the paper's own first (§3 and App. A.1: d = 5, L = 40, σ² = 0.1, the
#: two-head model), then the presets the checks run at by default where they differ from it (each
#: a check's former keyword defaults, so that a run without ``--set`` is the run it always was).
PRESETS: dict[str, Setting] = {
    "paper": Setting(),
    "h1": Setting(H=1),  # the single head (4.12)
    "h3": Setting(H=3),
    "h4": Setting(H=4),
    "vgd": Setting(L=24),  # (4.3) against vanilla GD: η_V* far enough from 1/κ (sims "h2_L24")
    "noniso": Setting(rho=0.5),  # §5.3's KMS covariance
    "fig4b": Setting(eta=0.897),  # Fig. 4(b)'s and spec 001 §3's GD/DGD step η = 0.897
    "low_noise": Setting(d=3, L=25, sigma2=0.05, H=3),  # where training forms a sharp head
    "noniso_train": Setting(L=20, rho=0.5),  # the trained §5.3 preset (L halved: Γ* resolvable)
    "multitask": Setting(d=6, L=48, H=4),  # §5.4: two tasks on supports of 4 of 6 coordinates
}


#: Prop. 4.1's regime.  [hpcy25] Proposition 4.1 (Informal; formal: Prop. C.1, §C.2) states that
#: "under certain scaling assumptions, the true loss can be well approximated by a simplified
#: formulation ... with the approximation error vanishing as the ICL sample size increases", and
#: §4.1 uses it "under the proportional regime" of L and d with small ω, μ; the manifold M(ω), the
#: homogeneity of Obs. 2 and the stationarity (4.3) are statements about that approximate loss L̃.
#: The paper's conditions are asymptotic (their constants are lost in the OCR); the finite
#: thresholds here are our reading of "L large, d/L bounded": L ≥ 16 and L ≥ 2 d (1 + σ²), i.e.
#: 1/κ ≥ 2/3 (the finite-L correction of (4.3) at most half the step).  Outside the regime the
#: measured rows leave L̃'s description: at (d, L, σ², H) = (1, 2, 0, 2) the heads' |ω| differ by
#: 2200 %.  H is not restricted: Obs. 1-2 and (4.3) are stated for every H ≥ 2.
PROP4_1_MIN_L = 16


def prop4_1_min_L(d: int, sigma2: float) -> int:
    """The smallest ``L`` of Prop. 4.1's regime at ``(d, σ²)``: ``max(16, ⌈2d(1 + σ²)⌉)``
    (``1/κ ≥ 2/3``; our reading of "L large, d/L bounded", docs/papers/hpcy25.md).

    >>> prop4_1_min_L(5, 0.1), prop4_1_min_L(8, 0.9)
    (16, 31)
    """
    return max(PROP4_1_MIN_L, math.ceil(2 * d * (1 + sigma2)))
