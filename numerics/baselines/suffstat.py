"""``base:suffstat-mc`` [derived]: the sufficient-statistic engine of :mod:`numerics.mc_fast`
checked against literal raw prompts and against the baseline closed forms.

Pinned settings (d = 4) cover one-step GD, GD-β with a task mean and a non-symmetric Γ, a
rank-deficient Σ, hpcy25's debiased GD, the general LTB statistic φ and a singular Wishart
(N < d + 1).  The raw route samples prompts with :func:`numerics.sampling.sample_prompts` and
applies :func:`numerics.mc_fast.gd_family_predict`; it never calls a theory risk function.
``fault_dof_offset`` / ``fault_diagonal`` inject faults into the fast sampler (negative
controls); the declared check :func:`check_fast_vs_raw` takes them as :class:`SamplerFault`
objects, each named once in :data:`SAMPLER_FAULTS` with the pinned case and method where it
shows.  Its cases are generic points, not a setting: it is declared fixed
(:mod:`sims.common.results`).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from numerics.mc_fast import gd_family_risk_mc, gd_family_risk_raw
from numerics.sampling import check_rng
from numerics.testing import mc_agreement, mc_difference_agreement
from theory.common.protocols import Estimate, Evidence
from theory.common.settings import GaussianSetting
from theory.settings import check_choice, check_int

__all__ = [
    "CASES",
    "case_params",
    "closed_form_risk",
    "SamplerFault",
    "SAMPLER_FAULTS",
    "check_fast_vs_raw",
    "fast_vs_raw",
    "check_fast_vs_closed_form",
]

_SIGMA_GENERAL = (
    (1.0, 0.3, 0.0, 0.2),
    (0.3, 1.5, 0.4, 0.0),
    (0.0, 0.4, 0.8, 0.1),
    (0.2, 0.0, 0.1, 0.6),
)
_PSI_GENERAL = (
    (0.5, 0.1, 0.0, 0.0),
    (0.1, 0.3, 0.05, 0.0),
    (0.0, 0.05, 0.4, 0.1),
    (0.0, 0.0, 0.1, 0.2),
)
_GAMMA_GENERAL = (
    (0.6, 0.1, 0.0, -0.1),
    (0.05, 0.4, 0.1, 0.0),
    (0.0, -0.1, 0.5, 0.1),
    (0.1, 0.0, 0.05, 0.3),
)
_B_RANK2 = ((1.0, 0.2), (0.5, -0.7), (0.0, 1.1), (-0.4, 0.3))  # Σ = B Bᵀ has rank 2 in d = 4


def case_params(name: str) -> dict[str, Any]:
    """Pinned settings (d = 4) at which the fast engine is checked against the raw route.

    Returns the keyword arguments of :func:`numerics.mc_fast.gd_family_risk_mc` (``Sigma_x``,
    ``task_cov``, ``Gamma`` are ``(4, 4)``, ``task_mean`` is ``(4,)``):

    >>> sorted(case_params("isotropic"))
    ['Gamma', 'N', 'Sigma_x', 'noise_var', 'task_cov', 'task_mean']
    """
    I4 = np.eye(4)
    S = np.array(_SIGMA_GENERAL)
    Psi = np.array(_PSI_GENERAL)
    G = np.array(_GAMMA_GENERAL)
    mu = np.array([0.5, -0.3, 0.2, 0.1])
    beta0 = np.array([0.3, -0.1, 0.0, 0.2])
    cases: dict[str, dict[str, Any]] = {
        # one-step GD (von Oswald), isotropic
        "isotropic": dict(
            Sigma_x=I4, task_mean=np.zeros(4), task_cov=I4, noise_var=0.25, N=8, Gamma=0.5 * I4
        ),
        "diagonal": dict(
            Sigma_x=np.diag([0.5, 1.0, 1.5, 2.0]),
            task_mean=np.zeros(4),
            task_cov=I4 / 4,
            noise_var=0.1,
            N=6,
            Gamma=np.diag([0.8, 0.6, 0.5, 0.3]),
        ),
        # GD-β with a task mean, Ψ ≠ I, general PSD Σ and a non-symmetric Γ
        "general": dict(
            Sigma_x=S, task_mean=mu, task_cov=Psi, noise_var=0.3, N=6, Gamma=G, a=beta0, b=beta0
        ),
        "rank_deficient": dict(
            Sigma_x=np.array(_B_RANK2) @ np.array(_B_RANK2).T,
            task_mean=mu,
            task_cov=I4,
            noise_var=0.2,
            N=5,
            Gamma=G,
            a=beta0,
            b=beta0,
        ),
        # hpcy25 debiased GD with a preconditioner: Γ = η Pᵀ
        "debiased": dict(
            Sigma_x=S,
            task_mean=mu,
            task_cov=I4 / 4,
            noise_var=0.1,
            N=6,
            Gamma=0.7 * G.T,
            debias=True,
        ),
        # general (★): a ≠ b and the quadratic statistic φ
        "ltb": dict(
            Sigma_x=S,
            task_mean=mu,
            task_cov=Psi,
            noise_var=0.3,
            N=6,
            Gamma=G,
            a=beta0,
            b=-beta0,
            phi=np.array([0.05, -0.02, 0.03, 0.01]),
        ),
        "ltb_debiased": dict(
            Sigma_x=S,
            task_mean=mu,
            task_cov=Psi,
            noise_var=0.3,
            N=6,
            Gamma=G,
            a=beta0,
            b=-beta0,
            phi=np.array([0.05, -0.02, 0.03, 0.01]),
            debias=True,
        ),
        # N < d + 1: singular Wishart
        "short_prompt": dict(
            Sigma_x=S,
            task_mean=mu,
            task_cov=Psi,
            noise_var=0.3,
            N=2,
            Gamma=0.5 * G,
            a=beta0,
            b=beta0,
        ),
    }
    check_choice("case", name, tuple(cases))
    return cases[name]


CASES = (
    "isotropic",
    "diagonal",
    "general",
    "rank_deficient",
    "debiased",
    "ltb",
    "ltb_debiased",
    "short_prompt",
)


def closed_form_risk(case: str) -> float | None:
    """The baseline closed form for a pinned case (``None`` for the LTB cases, which have none
    in :mod:`theory.common.baselines`).

    Example, by hand: one-step GD ``Γ = γI`` at ``Σ = Ψ = I``, ``E[S²] = (1 + (d + 1)/N) I`` for
    ``S = XᵀX/N``, gives ``σ² + d(1 − 2γ + γ²(1 + (d + 1)/N)) + γ²σ²d/N``; at the isotropic case
    (``d = 4``, ``N = 8``, ``γ = 1/2``, ``σ² = 1/4``) that is ``1/4 + 13/8 + 1/32``:

    >>> closed_form_risk("isotropic"), 1 / 4 + 13 / 8 + 1 / 32
    (1.90625, 1.90625)
    """
    from theory.common import baselines

    c = case_params(case)
    common = (c["Sigma_x"], c["task_mean"], c["task_cov"], c["noise_var"], c["N"])
    if c.get("phi") is not None:
        return None
    if c.get("debias"):
        # hpcy25's ŷ = (η/N) Σ yᵢ (xᵢ − x̄)ᵀ P x is g = (1/N) Γ X_cᵀ y with Γ = η Pᵀ
        return float(
            baselines.dgd_risk(
                np.asarray(c["Gamma"]).T,
                1.0,
                c["Sigma_x"],
                c["task_cov"],
                c["noise_var"],
                c["N"],
                task_mean=c["task_mean"],
            )
        )
    if c.get("a") is not None:
        return float(baselines.gd_beta_risk(c["Gamma"], c["a"], *common))
    return float(baselines.gd_risk(c["Gamma"], *common))


def _diff(fast: Estimate, raw: Estimate) -> Estimate:
    return Estimate(fast.mean - raw.mean, math.hypot(fast.se, raw.se), min(fast.n, raw.n))


@functools.lru_cache(maxsize=32)
def _raw_estimate(case: str, n: int, seed: int) -> Estimate:
    """Raw-route risk of a pinned case (memoised: deterministic in its arguments, and shared by the
    positive checks and the negative controls, which differ only in the fast sampler)."""
    rng = check_rng(seed, f"{__name__}:check_fast_vs_raw", "raw", case)
    return gd_family_risk_raw(**case_params(case), n=n, rng=rng)


@dataclass(frozen=True, slots=True)
class SamplerFault:
    """A planted fault of the fast sampler and the pinned case / method where it shows: the χ
    degrees of freedom shifted by ``dof_offset``, or ``diagonal="normal"`` (normals instead of χ on
    the Bartlett diagonal; the vector sampler's c ~ N(0, 1))."""

    case: str
    method: str = "vector"
    dof_offset: int = 0
    diagonal: str = "chi"


#: The declared negative controls of :func:`check_fast_vs_raw`, by name: a Wishart with one degree
#: of freedom too few (N − 1; debiased: N − 2), and normals instead of χ on the diagonal.
SAMPLER_FAULTS: dict[str, SamplerFault] = {
    "dof_minus_1_isotropic": SamplerFault("isotropic", dof_offset=-1),
    "dof_minus_1_debiased": SamplerFault("debiased", dof_offset=-1),
    "dof_minus_1_short_prompt": SamplerFault("short_prompt", dof_offset=-1),
    "normal_diagonal_isotropic_vector": SamplerFault("isotropic", "vector", diagonal="normal"),
    "normal_diagonal_isotropic_bartlett": SamplerFault("isotropic", "bartlett", diagonal="normal"),
    "normal_diagonal_general_vector": SamplerFault("general", "vector", diagonal="normal"),
    "normal_diagonal_general_bartlett": SamplerFault("general", "bartlett", diagonal="normal"),
}


def check_fast_vs_raw(
    setting: GaussianSetting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_sampler: SamplerFault | None = None,
) -> list[Evidence]:
    """:func:`fast_vs_raw` at the pinned general case (vector sampler; declared fixed: the pinned
    cases are generic points, d = 4).  ``fault_sampler`` plants a :class:`SamplerFault` at its own
    case and method."""
    if fault_sampler is None:
        return fast_vs_raw(quick=quick, seed=seed)
    f = fault_sampler
    return fast_vs_raw(
        quick=quick,
        seed=seed,
        case=f.case,
        method=f.method,
        fault_dof_offset=f.dof_offset or None,
        fault_diagonal=None if f.diagonal == "chi" else f.diagonal,
    )


def fast_vs_raw(
    *,
    quick: bool = True,
    seed: int = 0,
    case: str = "general",
    method: str = "vector",
    integrate_query: bool = True,
    fault_dof_offset: int | None = None,
    fault_diagonal: str | None = None,
) -> list[Evidence]:
    """MC (difference): the fast engine agrees with literal raw prompts, ``|Δ| ≤ 5·√(se_f²+se_r²)``.

    Independent route: :func:`gd_family_risk_raw` (``sample_prompts`` + :func:`gd_family_predict`).
    ``fault_dof_offset`` / ``fault_diagonal`` inject faults into the fast sampler (negative
    controls): χ degrees of freedom shifted, normals instead of χ on the Bartlett diagonal.
    """
    dof_offset, diagonal = fault_dof_offset or 0, fault_diagonal or "chi"
    c = case_params(case)
    n = 200_000 if quick else 2_000_000
    raw = _raw_estimate(case, n, seed)
    rng_fast = check_rng(seed, f"{__name__}:check_fast_vs_raw", "fast", case)
    fast = gd_family_risk_mc(
        **c,
        n=n,
        rng=rng_fast,
        method=method,
        integrate_query=integrate_query,
        dof_offset=dof_offset,
        diagonal=diagonal,
    )
    return [
        mc_difference_agreement(
            f"fast ({method}, integrate_query={integrate_query}) − raw risk, case {case}",
            0.0,
            _diff(fast, raw),
            scale=raw.mean,
            details={
                "case": case,
                "fast": fast.mean,
                "fast_se": fast.se,
                "raw": raw.mean,
                "raw_se": raw.se,
                "seed": seed,
                "dof_offset": dof_offset,
                "diagonal": diagonal,
            },
        )
    ]


def check_fast_vs_closed_form(
    *,
    quick: bool = True,
    seed: int = 0,
    case: str = "general",
    method: str = "vector",
    dtype: str = "float64",
    d: int = 0,
    N: int = 0,
    fault_dof_offset: int | None = None,
    fault_diagonal: str | None = None,
) -> list[Evidence]:
    """MC: the fast engine agrees with ``gd_risk`` / ``gd_beta_risk`` / ``dgd_risk`` at z = 5.

    ``d > 0`` (and ``N``) switches to isotropic one-step GD at that size (e.g. the benchmark's
    d = 20, N = 40) instead of a pinned case.  ``fault_*`` as in :func:`check_fast_vs_raw`.
    """
    dof_offset, diagonal = fault_dof_offset or 0, fault_diagonal or "chi"
    from theory.common import baselines

    if d:
        N = check_int("N", N, minimum=1)
        c: dict[str, Any] = dict(
            Sigma_x=np.eye(d),
            task_mean=np.zeros(d),
            task_cov=np.eye(d) / d,
            noise_var=0.25,
            N=N,
            Gamma=np.eye(d) * N / (N + d + 1),
        )
        expected = float(
            baselines.gd_risk(
                c["Gamma"], c["Sigma_x"], c["task_mean"], c["task_cov"], c["noise_var"], N
            )
        )
        label = f"isotropic d={d}, N={N}"
    else:
        c = case_params(case)
        cf = closed_form_risk(case)
        if cf is None:
            raise ValueError(f"case {case!r} has no closed form in theory.common.baselines")
        expected, label = cf, f"case {case}"
    n = 400_000 if quick else 4_000_000
    rng = check_rng(seed, f"{__name__}:check_fast_vs_closed_form", case, d, N)
    est = gd_family_risk_mc(
        **c, n=n, rng=rng, method=method, dtype=dtype, dof_offset=dof_offset, diagonal=diagonal
    )
    return [
        mc_agreement(
            f"fast MC ({method}, {dtype}) vs closed-form risk, {label}",
            expected,
            est,
            details={"seed": seed, "n": n, "dof_offset": dof_offset, "diagonal": diagonal},
        )
    ]
