"""[zfb24] §2 and eq. (12): the torch LSA forward is eq. (6); a trained LSA predicts eq. (12) on
fresh prompts of any length M.
"""

from __future__ import annotations

import numpy as np
import torch

from numerics.sampling import check_rng
from numerics.testing import (
    FLOAT_RTOL,
    close_agreement,
    train_discrimination,
)
from numerics.zfb24.evidence import over_seeds, seeds
from numerics.zfb24.faults import (
    GammaFn,
    gamma_or_fault,
    inverse_alternatives,
)
from numerics.zfb24.predictors import lsa_predict, predictor_predict
from numerics.zfb24.sampling import sample_linear
from sims.zfb24.evidence import (
    eq12_prompts,
    not_separable,
    off_preset_moment_rows,
    thm4_moments,
    thm4_unconverged,
    tokens,
    trained_sgd,
)
from sims.zfb24.train import (
    blocks,
    final_weights,
    initial_weights,
    load_model,
    moment_model,
    setting_of,
)
from theory import zfb24 as T
from theory.common.protocols import Evidence
from theory.zfb24.settings import Setting

__all__ = ["check_eq6_torch", "check_eq12_train"]


def check_eq6_torch(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """The torch ``LSA(d, parameterisation="merged")`` forward equals eq. (6) / the full f_LSA entry
    for random weights and prompts (ρ = prompt length, query column included), at the setting's d
    and prompt lengths N, 2N + 1."""
    d, N = setting.d, setting.N
    from sims.models.lsa import LSA

    rng = np.random.default_rng(seed)
    m = LSA(d, parameterisation="merged")
    K, R = rng.standard_normal((d + 1, d + 1)), rng.standard_normal((d + 1, d + 1))
    with torch.no_grad():
        m.W_KQ.copy_(torch.as_tensor(K))
        m.W_PV.copy_(torch.as_tensor(R))
    out = []
    for n in (N, 2 * N + 1):
        E = rng.standard_normal((8, d + 1, n + 1))
        E[:, d, n] = 0.0
        with torch.no_grad():
            yt = m(torch.as_tensor(E)).numpy()
        ref = np.array([T.lsa_output(e, K, R, n)[d, n] for e in E])
        out.append(
            close_agreement(
                f"torch LSA forward = [f_LSA(E)]_(d+1,n+1), n={n}",
                yt,
                ref,
                kind="FLOAT",
                atol=1e2 * FLOAT_RTOL * float(np.max(np.abs(ref))),
                rtol=0.0,
            )
        )
    return out


def _forward_row(name: str, y_model: np.ndarray, ref: np.ndarray) -> Evidence:
    """A trained LSA on its invariant set (u₁₂ = u₂₁ = 0) computes x_qᵀPĝ exactly: FLOAT, to
    float64 rounding of the forward's sums (10³ ulps of the largest prediction)."""
    return close_agreement(
        name,
        y_model,
        ref,
        kind="FLOAT",
        atol=1e3 * FLOAT_RTOL * float(np.max(np.abs(ref))),
        rtol=0.0,
    )


def check_eq12_train(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_gamma_fn: GammaFn | None = None,
) -> list[Evidence]:
    """At a setting other than the preset, the model is the moment-statistics run of
    (Λ = diag(spectrum), N, σ) shared with check_thm4_train_population_gd (each row's tolerance
    tightened where a neighbour's predictions are closer than SEPARATION_UNITS of it).  At the
    preset: eq. (12) for the SGD-trained model on fresh prompts of length M ∈ {4, 16, 64} with
    ρ = M: (i) with u₁₂, u₂₁ zeroed the model computes exactly x_qᵀP(1/M)Σyᵢxᵢ (FLOAT); (ii) the
    unmodified model's predictions agree with x_qᵀΓ⁻¹(1/M)Σyᵢxᵢ and not with the predictions of Γ's
    neighbours (TRAIN, start = the initial model)."""
    off = off_preset_moment_rows(
        setting, _eq12_moment_rows, quick=quick, seed=seed, fault_gamma_fn=fault_gamma_fn
    )
    if off is not None:
        return off

    def rows(sd: int) -> list[Evidence]:
        r = trained_sgd(sd)
        miss = thm4_unconverged("eq. (12): the SGD model's P → Γ⁻¹", r, sd, fault_gamma_fn)
        if miss is not None:
            return miss
        s = setting_of(r)
        L = np.array(s.Lambda)
        d = s.d
        b = blocks(*final_weights(r))
        Gi = np.linalg.inv(gamma_or_fault(fault_gamma_fn, L, s.N))
        alts = inverse_alternatives(L, s.N)
        K0, R0 = (w.copy() for w in final_weights(r))
        K0[d, :d] = 0.0
        R0[d, :d] = 0.0
        rng = check_rng(sd, "sims.checks.lsa_flow:check_eq12_train", "prompts")
        out = []
        for M in (4, 16, 64):
            X, y, xq, _, _ = sample_linear(rng, 2000, M, L)
            model, Z = load_model(r), tokens(X, y, xq)
            with torch.no_grad():
                y_model = model(Z).numpy()
                model.W_KQ.copy_(torch.as_tensor(K0))
                model.W_PV.copy_(torch.as_tensor(R0))
                y_zeroed = model(Z).numpy()
            ref = predictor_predict(b["P"], X, y, xq)
            out.append(
                _forward_row(
                    f"u₁₂ = u₂₁ = 0: model = x_qᵀP_learned ĝ at M={M} (ρ = M)", y_zeroed, ref
                )
            )
            out.append(
                train_discrimination(
                    f"trained model ≈ x_qᵀΓ⁻¹(1/M)Σyᵢxᵢ on fresh prompts, M={M}",
                    y_model,
                    predictor_predict(Gi, X, y, xq),
                    lsa_predict(X, y, xq, *initial_weights(r)),
                    alternatives={n: predictor_predict(a, X, y, xq) for n, a in alts.items()},
                    seeds=[sd],
                )
            )
        return out

    return over_seeds(rows, seeds(seed, quick))


def _eq12_moment_rows(
    d: int,
    N: int,
    spectrum: tuple[float, ...],
    sigma_init: float,
    sd: int,
    fault_gamma_fn: GammaFn | None,
) -> list[Evidence]:
    """eq. (12) at (Λ = diag(spectrum), N, σ) for the moment-statistics model (its torch LSA)."""
    L = np.diag([float(v) for v in spectrum])
    r, numbers, tols = thm4_moments(d, N, spectrum, sigma_init, sd)
    prompts = eq12_prompts(sd, L)
    if r is None:
        Gi0, alts0 = np.linalg.inv(T.gamma_fn(L, N)), inverse_alternatives(L, N)
        return [
            not_separable(
                f"eq. (12) at M={M} (moment statistics)",
                numbers,
                predictor_predict(Gi0, X, y, xq),
                {n: predictor_predict(a, X, y, xq) for n, a in alts0.items()},
                sd,
            )
            for M, (X, y, xq) in prompts.items()
            for _ in (0, 1)
        ]
    Gi = np.linalg.inv(gamma_or_fault(fault_gamma_fn, L, N))
    alts = inverse_alternatives(L, N)
    model = moment_model(d, r.U11, r.u)
    out = []
    for M, (X, y, xq) in prompts.items():
        with torch.no_grad():
            y_model = model(tokens(X, y, xq)).numpy()
        ref = predictor_predict(r.P, X, y, xq)
        out.append(
            _forward_row(
                f"trained LSA (u₁₂ = u₂₁ = 0) = x_qᵀP_learned ĝ at M={M} (ρ = M)", y_model, ref
            )
        )
        out.append(
            train_discrimination(
                f"trained model ≈ x_qᵀΓ⁻¹(1/M)Σyᵢxᵢ on fresh prompts, M={M} (moment statistics, "
                f"d = {d}, N = {N})",
                y_model,
                predictor_predict(Gi, X, y, xq),
                predictor_predict(r.P0, X, y, xq),
                rtol=tols[f"eq12 M={M}"],
                alternatives={n: predictor_predict(a, X, y, xq) for n, a in alts.items()},
                seeds=[sd],
                details={**r.details(), **numbers},
            )
        )
    return out
