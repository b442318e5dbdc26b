"""Public Hypothesis strategies for every setting (STYLE R12): build your own property tests.

Small dimensions (``d`` 1–6, ``N`` 2–64, ``H`` 1–4), bounded finite floats, variances in [0, 4].
One section per paper, below the shared ones.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from theory.settings import GaussianCovariates, GaussianTaskPrior, LinearRegressionICL

__all__ = [
    "dims",
    "prompt_lengths",
    "variances",
    "psd_matrices",
    "pd_matrices",
    "linear_regression_settings",
    "hpcy25_settings",
]

dims = st.integers(1, 6)
prompt_lengths = st.integers(2, 64)
variances = st.floats(0.0, 4.0, allow_nan=False, allow_infinity=False)


@st.composite
def psd_matrices(draw: st.DrawFn, d: int, *, rank: int | None = None, scale: float = 2.0) -> np.ndarray:
    """A d×d PSD matrix ``A Aᵀ / k`` with ``A`` of ``rank`` (default d) columns, bounded entries."""
    k = d if rank is None else rank
    entries = draw(st.lists(st.floats(-scale, scale, allow_nan=False, allow_infinity=False),
                            min_size=d * k, max_size=d * k))
    A = np.array(entries, dtype=float).reshape(d, k)
    return A @ A.T / max(k, 1)


@st.composite
def pd_matrices(draw: st.DrawFn, d: int, *, ridge: float = 0.1) -> np.ndarray:
    """A d×d positive-definite matrix: PSD + ``ridge·I``."""
    return draw(psd_matrices(d)) + ridge * np.eye(d)


@st.composite
def linear_regression_settings(
    draw: st.DrawFn, *, d: int | None = None, task_mean: bool = True, singular: bool = True
) -> LinearRegressionICL:
    """A :class:`LinearRegressionICL` with general PSD covariances, task mean and noise."""
    d = draw(dims) if d is None else d
    rank = draw(st.integers(1, d)) if singular else d
    Sigma = draw(psd_matrices(d, rank=rank)) if singular else draw(pd_matrices(d))
    Psi = draw(psd_matrices(d))
    mean = (np.array(draw(st.lists(st.floats(-2, 2, allow_nan=False), min_size=d, max_size=d)))
            if task_mean else np.zeros(d))
    return LinearRegressionICL(
        covariates=GaussianCovariates(Sigma_x=Sigma),
        prior=GaussianTaskPrior(task_mean=mean, task_cov=Psi),
        noise_var=draw(variances),
        N=draw(prompt_lengths),
        M=draw(st.none() | prompt_lengths),
    )


# ---- paper sections below (one composite per paper) ---------------------------------------


# ---- zwb24 (slug ltb): Zhang-Wu-Bartlett linear transformer block --------------------------
@st.composite
def zwb24_settings(draw: st.DrawFn, *, d: int | None = None, singular: bool = True
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, int]:
    """``(H, Psi, beta_star, sigma2, N)`` of zwb24 Assumption 3.1: PSD H (possibly singular),
    PSD Psi, task mean, sigma2 ≥ 0 with tr(H Psi) + sigma2 > 0, N ≥ 1."""
    d = draw(st.integers(1, 4)) if d is None else d
    rank = draw(st.integers(1, d)) if singular else d
    H = draw(psd_matrices(d, rank=rank)) if singular else draw(pd_matrices(d))
    Psi = draw(psd_matrices(d))
    bs = np.array(draw(st.lists(st.floats(-3, 3, allow_nan=False), min_size=d, max_size=d)))
    s2 = draw(st.floats(0.01, 2.0, allow_nan=False))
    N = draw(st.integers(1, 50))
    return H, Psi, bs, s2, N


# ---- zfb24 (slug lsa_flow): Zhang-Frei-Bartlett trained linear self-attention --------------
@st.composite
def zfb24_settings(draw: st.DrawFn, *, d: int | None = None
                   ) -> tuple[np.ndarray, int, float, np.ndarray]:
    """``(Lambda, N, sigma_init, Theta)`` of zfb24 Assumption 3 / Theorem 4 (spec 004 §3):
    ``Λ = Q diag(λ) Qᵀ`` with λ_i ∈ [0.2, 3] and Q orthogonal (QR of a drawn matrix), N ∈ [1, 60],
    Θ = M₀/‖M₀M₀ᵀ‖_F^{1/2} (the paper's random scheme), and σ ∈ (0, 0.9·√(2/(√d‖Γ‖_op))) so that
    σ²‖Γ‖_op√d < 2 (Theorem 4's condition)."""
    d = draw(st.integers(1, 5)) if d is None else d
    fl = st.floats(-2.0, 2.0, allow_nan=False, allow_infinity=False)
    A = np.array(draw(st.lists(fl, min_size=d * d, max_size=d * d))).reshape(d, d) + 3.0 * np.eye(d)
    Q, R = np.linalg.qr(A)
    Q = Q * np.sign(np.diag(R))
    lam = np.array(draw(st.lists(st.floats(0.2, 3.0), min_size=d, max_size=d)))
    Lambda = (Q * lam) @ Q.T
    Lambda = 0.5 * (Lambda + Lambda.T)
    N = draw(st.integers(1, 60))
    g_op = (1 + 1 / N) * lam.max() + lam.sum() / N
    s_max = 0.9 * float(np.sqrt(2.0 / (np.sqrt(d) * g_op)))
    sigma_init = draw(st.floats(0.05 * s_max, s_max))
    M0 = np.array(draw(st.lists(fl, min_size=d * d, max_size=d * d))).reshape(d, d) + np.eye(d)
    Theta = M0 / np.sqrt(np.linalg.norm(M0 @ M0.T))
    return Lambda, N, sigma_init, Theta


# ---- hpcy25 (slug softmax_multihead): He-Pan-Chen-Yang multi-head softmax attention --------
@st.composite
def hpcy25_settings(draw: st.DrawFn, *, H: int | None = None, small_omega: bool = True
                    ) -> dict[str, object]:
    """A hpcy25 setting: ``d`` (1–6), ``L`` (2–64), ``sigma2`` ∈ [0, 4], ``H`` heads (1–4) and a
    head configuration ``omega`` (|ω_h| ≤ 0.5 if ``small_omega``, the regime of Prop. 4.1; else ≤ 2)
    and ``mu`` (|μ_h| ≤ 6).  Returned as a dict of the paper's argument names."""
    H = draw(st.integers(1, 4)) if H is None else H
    bound = 0.5 if small_omega else 2.0
    fl = lambda lo, hi: st.floats(lo, hi, allow_nan=False, allow_infinity=False)  # noqa: E731
    return {
        "d": draw(dims),
        "L": draw(prompt_lengths),
        "sigma2": draw(variances),
        "H": H,
        "omega": draw(st.lists(fl(-bound, bound), min_size=H, max_size=H)),
        "mu": draw(st.lists(fl(-6.0, 6.0), min_size=H, max_size=H)),
    }
