"""[zwb24] random settings of Assumption 3.1 and power-law spectra (route: setting samplers).

Used by the checks and the figures; the draws (their order and number) are part of the evidence
for a seed, so keep them stable.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from numerics.mc_fast import gd_family_predict
from numerics.montecarlo import DEFAULT_BATCH, Target, mc_mean
from numerics.sampling import sample_prompts
from theory.common.protocols import Estimate
from theory.settings import LinearRegressionICL

__all__ = ["random_setting", "power_law_spectrum", "raw_risk_at"]


def random_setting(
    rng: np.random.Generator,
    d: int = 3,
    *,
    singular_H: bool = False,
    rank_Psi: int | None = None,
    mean_scale: float = 1.0,
    H_eigs: tuple[float, float] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random ``(H, Ψ, β*)``: ``H = AAᵀ/d + 0.1 I`` (or rank ``d − 1`` without ridge; or a random
    rotation of eigenvalues uniform in ``H_eigs``, the last one 0 if ``singular_H``), ``Ψ``
    Wishart-like (optionally of rank ``rank_Psi``), ``β* ~ N(0, mean_scale² I)``.

    Returns
    -------
    ``(H (d, d), Ψ (d, d), β* (d,))``.

    Examples
    --------
    >>> H, Psi, bs = random_setting(np.random.default_rng(0), 3, singular_H=True)
    >>> H.shape, bs.shape, int(np.linalg.matrix_rank(H))
    ((3, 3), (3,), 2)
    """
    A = rng.standard_normal((d, d))
    H = A @ A.T / d + 0.1 * np.eye(d)
    if singular_H:
        B = rng.standard_normal((d, d - 1))
        H = B @ B.T / d
    if H_eigs is not None:
        V, _ = np.linalg.qr(rng.standard_normal((d, d)))
        w = rng.uniform(*H_eigs, size=d)
        if singular_H:
            w[-1] = 0.0
        H = (V * w) @ V.T
        H = 0.5 * (H + H.T)
    k = d if rank_Psi is None else rank_Psi
    C = rng.standard_normal((d, k))
    Psi = C @ C.T / k
    return H, Psi, mean_scale * rng.standard_normal(d)


def raw_risk_at(
    env: tuple[np.ndarray, np.ndarray, np.ndarray],
    sigma2: float,
    N: int,
    params: tuple[Any, ...],
    n: int,
    rng: np.random.Generator,
    *,
    target_se: Target = None,
) -> Estimate:
    """The raw-prompt MC risk (the route of :func:`numerics.mc_fast.gd_family_risk_raw`: literal
    prompts, the predictor applied, ``(ŷ − y_q)²`` averaged; ``n`` prompts) of the GD-family
    predictor ``params = (Γ, a, b)`` or ``(Γ, a, b, φ)`` at ``env = (H, Ψ, β*)`` (a
    :func:`random_setting` draw), noise ``sigma2``, prompt length ``N``.  ``target_se`` asks for
    power (:func:`numerics.montecarlo.mc_means`): the same stream draws on, up to 4·n prompts,
    while the standard error exceeds it; the estimate then records ``requested = n``.

    Source: [zwb24] eq. (5.1) (the GD-β / LTB predictor family) under Assumption 3.1.

    Returns
    -------
    Estimate (mean, se, n).

    Examples
    --------
    Γ = 0 with a = b = β* predicts x_qᵀβ*: risk tr(HΨ) + σ² (here 2 + 0.25):

    >>> env = (np.eye(2), np.eye(2), np.array([1.0, -1.0]))
    >>> est = raw_risk_at(env, 0.25, 4, (np.zeros((2, 2)), env[2], env[2]), 2000,
    ...                   np.random.default_rng(0))
    >>> bool(abs(est.mean - 2.25) < 5 * est.se)
    True
    """
    H, Psi, bs = env
    G, a, b, *phi = params
    st = LinearRegressionICL.from_arrays(
        Sigma_x=H, N=N, task_mean=bs, task_cov=Psi, noise_var=sigma2
    )
    Gm, av, bv = (np.array(v, dtype=float) for v in (G, a, b))
    ph = np.array(phi[0], dtype=float) if phi and phi[0] is not None else None

    def draw(r: np.random.Generator, B: int) -> np.ndarray:
        pb = sample_prompts(st, B, rng=r)
        yhat = gd_family_predict(pb.X, pb.y, pb.xq, Gamma=Gm, a=av, b=bv, phi=ph)
        return (yhat - pb.yq) ** 2

    return mc_mean(draw, n, rng=rng, batch=DEFAULT_BATCH, target_se=target_se)


def power_law_spectrum(d: int, alpha: float, total: float) -> np.ndarray:
    """``λ_i ∝ i^{−α}`` normalised to ``Σλ_i = total``: ``(d,)``, decreasing for ``α > 0``.

    By hand, ``α = 1``, ``d = 3``: ``(1, 1/2, 1/3)·11/(11/6)``:

    >>> power_law_spectrum(3, 1.0, 11.0)
    array([6., 3., 2.])
    """
    lam = np.arange(1, d + 1, dtype=float) ** (-alpha)
    return lam * total / lam.sum()
