"""[czz24] §2 data-model checks: the numpy sampler against the closed-form moments of both priors
(E[w*w*ᵀ], ‖w*‖, support size), r = E[xy] = Σw* and E[y²] for diagonal Σ and Σ = I + ζ𝟙𝟙ᵀ."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from numerics.czz24.sampling import sample_sparse_prompts, sample_sparse_tasks
from numerics.montecarlo import mc_means
from numerics.testing import close_agreement, mc_agreement
from theory.common.protocols import Evidence
from theory.czz24 import population_correlation, task_second_moment
from theory.czz24.settings import SparseRegressionICL

__all__ = ["check_sec2_mc", "check_sec2_float"]

#: float64 round-off of O(1) moments computed two ways
MOMENT_ATOL = 1e-12


def check_sec2_mc(
    *,
    quick: bool = True,
    seed: int = 0,
    d: int = 6,
    s: int = 2,
    fault_second_moment: Callable[..., float] | None = None,
) -> list[Evidence]:
    """Sampler vs closed forms: ``E[w_j²] = c`` and ``E[w_j w_k] = 0`` (c = 1/d sign, s/d gauss),
    ``E‖w‖² = s·slab``; for a fixed task, ``E[x y] = Σw*`` and ``E[y²] = w*ᵀΣw* + σ²`` with
    diagonal Σ and with Σ = I + ζ𝟙𝟙ᵀ (ζ = 0.3).  ``fault_second_moment`` replaces
    :func:`theory.czz24.task_second_moment` (negative control)."""
    moment = fault_second_moment or task_second_moment
    rng = np.random.default_rng(seed)
    N = 200_000 if quick else 1_000_000
    out: list[Evidence] = []
    for prior in ("sign", "gauss"):
        st = SparseRegressionICL.isotropic(d=d, s=s, n=1, sigma2=0.0, prior=prior)

        def draw(r: np.random.Generator, B: int, st: SparseRegressionICL = st) -> np.ndarray:
            w = sample_sparse_tasks(st, B, rng=r)
            return np.column_stack([w[:, 0] ** 2, w[:, 0] * w[:, 1], np.sum(w**2, axis=1)])

        e_jj, e_jk, e_norm = mc_means(draw, N, rng=rng)
        c = float(moment(d, s, prior))
        out.append(mc_agreement(f"E[w_1²] = c ({prior} prior)", c, e_jj))
        out.append(mc_agreement(f"E[w_1 w_2] = 0 ({prior} prior)", 0.0, e_jk, scale=c))
        if prior == "gauss":
            out.append(mc_agreement(f"E‖w‖² = d·c ({prior} prior)", d * c, e_norm))
        else:  # ‖w*‖² = 1 for every draw: the mean is exact, no MC tolerance applies
            out.append(
                close_agreement(
                    "E‖w‖² = d·c (sign prior, exact per draw)",
                    e_norm.mean,
                    d * c,
                    kind="FLOAT",
                    atol=MOMENT_ATOL,
                )
            )
    for zeta, diag in ((0.0, (0.5, 1.0, 2.0, 1.5, 0.7, 1.2)), (0.3, (1.0,) * 6)):
        st = SparseRegressionICL(
            d=d, s=s, n=1, sigma2=0.25, prior="gauss", Sigma_diag=diag, zeta=zeta
        )
        w = sample_sparse_tasks(st, 1, rng=rng)[0]

        def draw2(
            r: np.random.Generator, B: int, st: SparseRegressionICL = st, w: np.ndarray = w
        ) -> np.ndarray:
            p = sample_sparse_prompts(st, B, rng=r)
            y = np.einsum("bnd,d->bn", p.X, w) + p.eps
            return np.column_stack([p.X[:, 0, :] * y[:, :1], y[:, 0] ** 2])

        ests = mc_means(draw2, N, rng=rng)
        S = st.Sigma_x_array
        r_pop = population_correlation(S, w)
        ey2 = float(w @ S @ w) + st.sigma2
        for j in range(d):
            out.append(
                mc_agreement(
                    f"E[x_j y]_{j} = (Σw*)_{j} (ζ = {zeta})",
                    r_pop[j],
                    ests[j],
                    scale=float(np.sqrt(ey2 * S[j, j])),
                )
            )
        out.append(mc_agreement(f"E[y²] = w*ᵀΣw* + σ² (ζ = {zeta})", ey2, ests[d]))
    return out


def check_sec2_float(*, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Exact sampler invariants: every sign-prior task has ‖w*‖₂ = 1, ‖w*‖₁ = √s and exactly s
    nonzeros; the Gaussian prior has exactly s nonzeros; r_j ≠ 0 ⇔ j ∈ S for diagonal Σ."""
    rng = np.random.default_rng(seed)
    st = SparseRegressionICL.isotropic(d=9, s=3, n=1, sigma2=0.0, prior="sign")
    w = sample_sparse_tasks(st, 5000, rng=rng)
    wg = sample_sparse_tasks(
        SparseRegressionICL.isotropic(d=9, s=3, n=1, sigma2=0.0, prior="gauss"), 5000, rng=rng
    )
    diag = np.array([0.5, 1.0, 2.0, 1.5, 0.7, 1.2, 3.0, 0.9, 1.1])
    r = w * diag[None, :]
    return [
        close_agreement(
            "sign prior: ‖w*‖₂ = 1",
            np.linalg.norm(w, axis=1),
            np.ones(5000),
            kind="FLOAT",
            atol=MOMENT_ATOL,
        ),
        close_agreement(
            "sign prior: ‖w*‖₁ = √s",
            np.abs(w).sum(axis=1),
            np.full(5000, np.sqrt(3)),
            kind="FLOAT",
            atol=MOMENT_ATOL,
        ),
        close_agreement(
            "sign prior: |S| = s", (w != 0).sum(axis=1), np.full(5000, 3.0), kind="EXACT", atol=0.0
        ),
        close_agreement(
            "gauss prior: |S| = s",
            (wg != 0).sum(axis=1),
            np.full(5000, 3.0),
            kind="EXACT",
            atol=0.0,
        ),
        close_agreement(
            "diagonal Σ: supp r = supp w*",
            (r != 0).astype(float),
            (w != 0).astype(float),
            kind="EXACT",
            atol=0.0,
        ),
    ]
