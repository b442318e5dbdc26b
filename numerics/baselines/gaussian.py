"""Checks of the Gaussian / Wishart moment identities (``base:isserlis``, ``base:wishart``,
``base:sample-cov``).

Every check takes the shared layer's :class:`~theory.common.settings.GaussianSetting` first; the
Monte Carlo routes of the Wishart and sample-covariance identities run at its prompt length N
(on the pinned general Σ, non-symmetric A at d = 3); the exact routes (symbolic Σ, A, N at
d = 1, 2) and the Isserlis MC (one x, the pinned Σ and A) read no setting and are declared fixed
in :mod:`sims.common.results`."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from numerics.baselines.cases import (
    A_GENERAL,
    B_RANK2,
    SIGMA_GENERAL,
)
from numerics.montecarlo import mc_means
from numerics.sampling import check_rng, gaussian_rows
from numerics.testing import (
    exact_agreement,
    mc_agreement,
)
from theory.common import gaussian as G
from theory.common.protocols import Evidence
from theory.common.settings import GaussianSetting
from theory.settings import check_choice


def _matrix_mc(
    name: str,
    predicted: np.ndarray,
    draw: Callable[[np.random.Generator, int], np.ndarray],
    n: int,
    rng: np.random.Generator,
    details: dict[str, Any],
) -> list[Evidence]:
    """Compare every entry of a matrix expectation (draw returns (b, d, d)) at z = Z_MC; the power
    scale of an entry is the Frobenius norm of the predicted matrix."""
    d = predicted.shape[0]
    ests = mc_means(lambda rng, b: draw(rng, b).reshape(b, d * d), n, rng=rng)
    scale = float(np.linalg.norm(predicted))
    out = []
    for (i, j), est in zip(itertools.product(range(d), range(d)), ests, strict=True):
        out.append(
            mc_agreement(
                f"{name}[{i},{j}]", float(predicted[i, j]), est, scale=scale, details=details
            )
        )
    return out


def _case_sigma(kind: str) -> np.ndarray:
    check_choice("sigma", kind, ("general", "rank-deficient", "identity"))
    if kind == "general":
        return np.array(SIGMA_GENERAL)
    if kind == "rank-deficient":
        Bm = np.array(B_RANK2)
        return Bm @ Bm.T
    return np.eye(3)


def check_isserlis_mc(
    setting: GaussianSetting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_moment_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """MC: entries of ``E[x xᵀ A x xᵀ]`` (x ~ N(0, Σ), the pinned general Σ, non-symmetric A,
    d = 3) vs :func:`~theory.common.gaussian.isserlis_fourth_moment` (or a faulted
    ``fault_moment_fn``): :func:`isserlis_mc` at the general Σ (declared fixed: one x at pinned
    generic matrices, no setting enters)."""
    return isserlis_mc("general", quick=quick, seed=seed, fault_moment_fn=fault_moment_fn)


def isserlis_mc(
    sigma: str,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_moment_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """The Isserlis MC at the pinned Σ of kind ``sigma`` (``"general"``, ``"rank-deficient"``,
    ``"identity"``), one random stream per kind."""
    fn = fault_moment_fn or G.isserlis_fourth_moment
    S, A = _case_sigma(sigma), np.array(A_GENERAL)
    n = 200_000 if quick else 2_000_000

    def draw(rng: np.random.Generator, b: int) -> np.ndarray:
        x = gaussian_rows(rng, (b,), S)  # (b, d)
        q = np.einsum("bi,ij,bj->b", x, A, x)  # x^T A x
        return q[:, None, None] * x[:, :, None] * x[:, None, :]

    return _matrix_mc(
        "E[x x^T A x x^T]",
        np.asarray(fn(A, S), float),
        draw,
        n,
        check_rng(seed, f"{__name__}:check_isserlis_mc", sigma),
        {"sigma": sigma, "d": 3, "n": n},
    )


def check_wishart_mc(
    setting: GaussianSetting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_moment_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """MC: entries of ``E[XᵀX A XᵀX]`` (the setting's N rows, the pinned general Σ and
    non-symmetric A at d = 3) vs the Wishart identity."""
    fn = fault_moment_fn or G.wishart_fourth_moment
    sigma, N = "general", setting.N
    S, A = _case_sigma(sigma), np.array(A_GENERAL)
    n = 100_000 if quick else 1_000_000

    def draw(rng: np.random.Generator, b: int) -> np.ndarray:
        X = gaussian_rows(rng, (b, N), S)  # (b, N, d)
        W = np.einsum("bni,bnj->bij", X, X)  # X^T X
        return W @ A @ W

    det = {"sigma": sigma, "d": 3, "N": N, "n": n}
    return _matrix_mc(
        "E[X^T X A X^T X]",
        np.asarray(fn(A, S, N), float),
        draw,
        n,
        check_rng(seed, f"{__name__}:check_wishart_mc", sigma),
        det,
    )


def _mgf_fourth(d: int) -> tuple[sp.Matrix, Callable[[int, int, int, int], sp.Expr]]:
    """Symbolic Σ (d = 1, 2) and ``E[x_a x_b x_c x_e]`` as 4th derivatives of ``exp(tᵀΣt/2)`` at 0
    (an exact route that does not use Isserlis' pairing formula)."""
    names = [[f"s{min(i, j)}{max(i, j)}" for j in range(d)] for i in range(d)]
    S = sp.Matrix(d, d, lambda i, j: sp.Symbol(names[i][j], real=True))
    t = sp.symbols(f"t0:{d}", real=True)
    tv = sp.Matrix(t)
    mgf = sp.exp((tv.T * S * tv)[0, 0] / 2)

    @functools.cache
    def m4(a: int, b: int, c: int, e: int) -> sp.Expr:
        return sp.expand(sp.diff(mgf, t[a], t[b], t[c], t[e]).subs({ti: 0 for ti in t}))

    return S, m4


def check_isserlis_exact(
    setting: GaussianSetting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_moment_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """EXACT at d = 1, 2 with symbolic Σ and A: the identity vs MGF fourth moments."""
    fn = fault_moment_fn or G.isserlis_fourth_moment
    out = []
    for d in (1, 2):
        S, m4 = _mgf_fourth(d)
        A = sp.Matrix(d, d, lambda i, j: sp.Symbol(f"a{i}{j}", real=True))
        truth = sp.Matrix(
            d,
            d,
            lambda a, e, A=A, m4=m4, d=d: sum(
                A[b, c] * m4(a, b, c, e) for b in range(d) for c in range(d)
            ),
        )
        out.append(
            exact_agreement(
                f"Isserlis at d={d} vs MGF derivatives",
                sp.expand(fn(A, S)),
                truth,
                details={"d": d},
            )
        )
    return out


def check_wishart_exact(
    setting: GaussianSetting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_moment_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """EXACT at d = 1, 2, symbolic N: ``Σ_{i,j} E[x_i x_iᵀ A x_j x_jᵀ]`` from the MGF (N diagonal
    terms) and independence (N(N−1) off-diagonal terms ``ΣAΣ``) vs the Wishart identity."""
    fn = fault_moment_fn or G.wishart_fourth_moment
    Nn = sp.Symbol("N", integer=True, positive=True)
    out = []
    for d in (1, 2):
        S, m4 = _mgf_fourth(d)
        A = sp.Matrix(d, d, lambda i, j: sp.Symbol(f"a{i}{j}", real=True))
        diag = sp.Matrix(
            d,
            d,
            lambda a, e, A=A, m4=m4, d=d: sum(
                A[b, c] * m4(a, b, c, e) for b in range(d) for c in range(d)
            ),
        )
        truth = Nn * diag + Nn * (Nn - 1) * S * A * S
        out.append(
            exact_agreement(
                f"Wishart at d={d} vs MGF + independence",
                sp.expand(fn(A, S, Nn)),
                sp.expand(truth),
                details={"d": d},
            )
        )
    return out


def check_sample_cov_exact(
    setting: GaussianSetting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_moment_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """``E[Λ̂²] = ((N+1)/N)Σ² + (trΣ/N)Σ`` ([zfb24] §1.1): EXACT against our reference
    printed form (symbolic 2×2 Σ, symbolic N; no setting enters)."""
    fn = fault_moment_fn or G.sample_cov_second_moment
    Nn = sp.Symbol("N", integer=True, positive=True)
    s11, s12, s22 = sp.symbols("s11 s12 s22", real=True)
    Ss = sp.Matrix([[s11, s12], [s12, s22]])
    printed = (Nn + 1) / Nn * Ss * Ss + Ss.trace() / Nn * Ss  # spec 004 §1.1
    return [
        exact_agreement(
            "E[Lambda_hat^2] vs ((N+1)/N)Σ² + (tr Σ/N)Σ (d=2, symbolic N)", fn(Ss, Nn), printed
        )
    ]


def check_sample_cov(
    setting: GaussianSetting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_moment_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """``E[Λ̂²] = ((N+1)/N)Σ² + (trΣ/N)Σ``: MC entries at the setting's N (the pinned general Σ,
    d = 3) against the identity (:func:`check_sample_cov_exact` checks the printed form)."""
    fn = fault_moment_fn or G.sample_cov_second_moment
    N = setting.N
    S = np.array(SIGMA_GENERAL)
    n = 100_000 if quick else 1_000_000

    def draw(rng: np.random.Generator, b: int) -> np.ndarray:
        X = gaussian_rows(rng, (b, N), S)
        L = np.einsum("bni,bnj->bij", X, X) / N  # sample covariance
        return L @ L

    return _matrix_mc(
        "E[Lambda_hat^2]",
        np.asarray(fn(S, N), float),
        draw,
        n,
        check_rng(seed, f"{__name__}:check_sample_cov"),
        {"N": N},
    )
