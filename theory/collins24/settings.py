"""[collins24] settings: :class:`Setting`, the one setting every settings-first collins24 check
takes, with its named :data:`PRESETS`; and the data models: sphere covariates,
Lipschitz task classes, the ICL setting of one softmax attention unit.

Only the standard library, numpy and the shared validators are imported (the trained models of
``sims`` build their samplers from these objects without seeing a prediction).
"""

from __future__ import annotations

from dataclasses import dataclass

from theory.common.setting import param
from theory.settings.validators import Vector, as_vector, check_choice, check_int, check_real

__all__ = [
    "Setting",
    "PRESETS",
    "S1_SIGMA2",
    "COVARIATE_KINDS",
    "TASK_KINDS",
    "SphereCovariates",
    "LipschitzTasks",
    "SoftmaxWindowSetting",
]

#: Covariate laws on the (whitened) sphere: ``"uniform"`` x ~ U^d; ``"ellipsoid"`` x = Σ^{1/2}x̃,
#: x̃ ~ U^d (Assumption 3.3 / B.2); ``"acg"`` the experiments' U^d_S, x = Sx̃/‖Sx̃‖, x̃ ~ N(0, I),
#: S = diag(1..d) (NOT of the form Σ^{1/2}U^d); ``"lowrank"`` Assumption 4.3,
#: x = c_u B u + c_v B⊥ v.
COVARIATE_KINDS = ("uniform", "ellipsoid", "acg", "lowrank")
#: Task classes (Def 3.2, C.1, C.2, 4.2, §3.2, Remark 2.1, App. J): affine, 2-ReLU, cosine,
#: linear, low-rank linear, constant, and Fig. 1's "hills" f = cos(νθ − b) on the circle (d = 2,
#: ν = L, b ~ Unif[−π, π]; our reading of the figure, the alternative ν cos(θ − b) is
#: not used).
TASK_KINDS = ("affine", "relu", "cos", "linear", "lowrank", "constant", "hills")

_P = "[collins24] §2 (Preliminaries)"

#: S1's noise levels σ² for σ ∈ {1, .3, .1, .01} (Figs. 3-4's σ panel): what a
#: Setting with ``sigma2=None`` stands for.
S1_SIGMA2 = (1.0, 0.09, 0.01, 1e-4)


@dataclass(frozen=True, kw_only=True, slots=True)
class Setting:
    """A setting of [collins24]: x ~ U^d on S^(d-1), n labelled context examples of an
    L-Lipschitz task (affine class unless a check says otherwise), label noise σ² on the context
    labels; M = ωI scales the softmax window ([collins24] §2; docs/papers/collins24.md).

    ``sigma2=None`` stands for S1's noise sweep σ ∈ {1, .3, .1, .01} (:data:`S1_SIGMA2`, the
    paper's Figs. 3-4): a check that needs one σ² runs each (:attr:`sigma2s`).
    Every value is validated here, before any work; a result's own hypotheses (e.g. Theorem 3.4's
    L > 0, σ² > 0) are checked by the result.

    >>> Setting().sigma2s
    (1.0, 0.09, 0.01, 0.0001)
    >>> Setting(d=1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: d must be ≥ 2 ...
    """

    d: int = param(5, "d: covariate dimension, x ∈ S^(d-1)", domain="d >= 2")
    n: int = param(20, "n: context length (the query is example n+1)", domain="n >= 1")
    L: float = param(1.0, "L: Lipschitz constant of the task class", domain="L >= 0")
    sigma2: float | None = param(
        None,
        "σ²: label-noise variance; none: S1's sweep σ ∈ {1, .3, .1, .01}",
        domain="σ² >= 0, or none",
    )

    def __post_init__(self) -> None:
        check_int("d", self.d, minimum=2, paper=f"{_P}: x lies on S^(d-1), d ≥ 2")
        check_int("n", self.n, minimum=1, paper=f"{_P}: n ≥ 1 context examples")
        object.__setattr__(
            self, "L", check_real("L", self.L, lower=0.0, paper=f"{_P}: Lipschitz constant L ≥ 0")
        )
        if self.sigma2 is not None:
            object.__setattr__(
                self,
                "sigma2",
                check_real("sigma2", self.sigma2, lower=0.0, paper=f"{_P}: noise variance σ² ≥ 0"),
            )

    @property
    def sigma2s(self) -> tuple[float, ...]:
        """The noise levels this setting stands for: ``(sigma2,)``, or S1's sweep."""
        return S1_SIGMA2 if self.sigma2 is None else (self.sigma2,)


#: Named settings: the paper's S1 setting first (Theorem 3.4's trained check, Figs. 3-4),
#: then the presets checks run at by default where they differ from it.
PRESETS: dict[str, Setting] = {
    "paper": Setting(),
    "d3": Setting(d=3),
    "generic": Setting(d=3, n=37, L=0.7, sigma2=0.3),
    # App. B's checks at one of S1's noise levels (σ = 0.3, σ = 0.1), Lemma B.5's Σ = diag(1, 2, 3)
    # at d = 3, and Lemma C.8's large-n point (d = 3, n = 1000)
    "s1_sigma0.3": Setting(sigma2=0.09),
    "s1_sigma0.1": Setting(sigma2=0.01),
    "d3_sigma0.3": Setting(d=3, sigma2=0.09),
    "c8": Setting(d=3, n=1000),
    "fig3_4": Setting(sigma2=1e-4),
}


@dataclass(frozen=True, kw_only=True, slots=True)
class SphereCovariates:
    """How ``x_1, …, x_{n+1}`` are drawn.

    Source: [collins24] §2 (x ~ U^d on the sphere), Assumption 3.3 / B.2 (``"ellipsoid"``),
    Assumption 4.3 (``"lowrank"``), the experiments' U^d_S (``"acg"``).

    Examples
    --------
    >>> SphereCovariates(d=3).kind
    'uniform'
    >>> SphereCovariates(d=3, kind="ellipsoid", Sigma_diag=(1, 2, 3)).Sigma_diag
    (1.0, 2.0, 3.0)
    >>> SphereCovariates(d=3, kind="lowrank", k=3)
    Traceback (most recent call last):
    ...
    ValueError: k must be < d (Assumption 4.3), got k=3, d=3
    """

    d: int  # covariate dimension (x ∈ R^d; tokens in R^{d+1}); d ≥ 2
    kind: str = "uniform"  # one of COVARIATE_KINDS
    Sigma_diag: Vector | None = None  # "ellipsoid": the diagonal of Σ ≻ 0 (x = Σ^{1/2} x̃)
    k: int | None = None  # "lowrank": rank k of B (1 ≤ k < d)
    c_u: float = 1.0  # "lowrank": scale of the col(B) part (c_u ≠ 0)
    c_v: float = 1.0  # "lowrank": scale of the col(B)^⊥ part (|c_v| < ∞)

    def __post_init__(self) -> None:
        check_int("d", self.d, minimum=2, paper=f"{_P}: x lies on S^(d-1), d ≥ 2")
        check_choice("kind", self.kind, COVARIATE_KINDS, paper=_P)
        if self.kind == "ellipsoid":
            if self.Sigma_diag is None:
                raise ValueError("Sigma_diag must be given for kind='ellipsoid' (Assumption 3.3)")
            v = as_vector("Sigma_diag", self.Sigma_diag, d=self.d, paper="Assumption 3.3")
            if min(v) <= 0:
                raise ValueError(f"Sigma_diag must be positive (Σ ≻ 0, Assumption 3.3), got {v}")
            object.__setattr__(self, "Sigma_diag", v)
        elif self.Sigma_diag is not None:
            raise ValueError(f"Sigma_diag is only used by kind='ellipsoid', got kind={self.kind!r}")
        if self.kind == "lowrank":
            if self.k is None:
                raise ValueError("k must be given for kind='lowrank' (Assumption 4.3)")
            check_int("k", self.k, minimum=1, paper="Assumption 4.3")
            if self.k >= self.d:
                raise ValueError(f"k must be < d (Assumption 4.3), got k={self.k}, d={self.d}")
            c_u = check_real("c_u", self.c_u, paper="Assumption 4.3")
            if c_u == 0:
                raise ValueError("c_u must be ≠ 0 (Assumption 4.3), got 0")
            check_real("c_v", self.c_v, paper="Assumption 4.3: |c_v| < ∞")


@dataclass(frozen=True, kw_only=True, slots=True)
class LipschitzTasks:
    """The task distribution D(F) (``L`` is the Lipschitz constant, not a loss).

    Source: [collins24] Definition 3.2 (affine), C.1, C.2, 4.2, §3.2, Remark 2.1, App. J.

    Examples
    --------
    >>> LipschitzTasks(L=2.0)
    LipschitzTasks(kind='affine', L=2.0, intercept=True, offset=0.0)
    >>> LipschitzTasks(kind="quadratic")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: kind must be one of ('affine', 'relu', 'cos', 'linear', 'lowrank', 'constant', ...
    """

    kind: str = "affine"  # one of TASK_KINDS
    L: float = 1.0  # Lipschitz constant (cos: the frequency); ≥ 0
    intercept: bool = True  # affine/relu: draw b ~ Unif[−L, L] (False: b = 0)
    offset: float = 0.0  # lowrank: constant added to aᵀBᵀx (App. J.1's "+2", uncertain OCR)

    def __post_init__(self) -> None:
        check_choice("kind", self.kind, TASK_KINDS, paper=_P)
        check_real("L", self.L, lower=0.0, paper=f"{_P}: Lipschitz constant L ≥ 0")
        check_real("offset", self.offset, paper="App. J.1")


@dataclass(frozen=True, kw_only=True, slots=True)
class SoftmaxWindowSetting:
    """One ICL problem of [collins24]: n labelled points, noise σ², covariates and tasks.

    Source: [collins24] §2 (the ICL problem of one softmax attention unit).

    Examples
    --------
    >>> s = SoftmaxWindowSetting.isotropic(d=5, n=20, L=1.0, sigma2=0.01)
    >>> s.d, s.n, s.L, s.covariates.kind, s.tasks.kind
    (5, 20, 1.0, 'uniform', 'affine')
    >>> SoftmaxWindowSetting.isotropic(d=3, n=10, task="hills")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: tasks kind='hills' lives on the circle: needs d = 2 ...
    """

    covariates: SphereCovariates  # the law of x_i and of the query x_{n+1}
    tasks: LipschitzTasks  # the law of the task f
    n: int  # context length (the query is example n+1; it does not attend to itself)
    sigma2: float = 0.0  # label-noise variance σ² (context labels only; target noiseless)

    def __post_init__(self) -> None:
        check_int("n", self.n, minimum=1, paper=f"{_P}: n ≥ 1 context examples")
        check_real("sigma2", self.sigma2, lower=0.0, paper=f"{_P}: noise variance σ² ≥ 0")
        if self.tasks.kind == "hills" and (self.d != 2 or self.covariates.kind != "uniform"):
            raise ValueError(
                f"tasks kind='hills' lives on the circle: needs d = 2 and uniform "
                f"covariates (Fig. 1), got d={self.d}, {self.covariates.kind!r}"
            )
        if self.tasks.kind == "lowrank" and self.covariates.kind != "lowrank":
            raise ValueError(
                "tasks kind='lowrank' needs covariates kind='lowrank' (Def 4.2 uses B)"
            )

    @property
    def d(self) -> int:
        return self.covariates.d

    @property
    def L(self) -> float:
        return self.tasks.L

    @classmethod
    def isotropic(
        cls, *, d: int, n: int, L: float = 1.0, sigma2: float = 0.0, task: str = "affine"
    ) -> SoftmaxWindowSetting:
        """x ~ U^d with tasks of class ``task`` (the theorems' and S1-S4's setting)."""
        return cls(
            covariates=SphereCovariates(d=d),
            tasks=LipschitzTasks(kind=task, L=L),
            n=n,
            sigma2=sigma2,
        )
