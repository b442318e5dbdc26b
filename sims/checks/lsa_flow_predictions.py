"""[zfb24] §4 eq. (12) and §4.2 distribution shifts: trained checks on fresh prompts (split from
:mod:`sims.checks.lsa_flow`, which re-exports them under their registered paths).
"""

from __future__ import annotations

import numpy as np
import torch

from numerics.lsa_flow.evidence import over_seeds, seeds
from numerics.lsa_flow.faults import (
    GammaFn,
    gamma_or_fault,
    inverse_alternatives,
)
from numerics.lsa_flow.predictors import lsa_predict, predictor_predict
from numerics.lsa_flow.sampling import sample_linear
from numerics.montecarlo import mc_mean
from numerics.sampling import check_rng
from numerics.testing import (
    FLOAT_RTOL,
    close_agreement,
    mc_agreement,
    train_discrimination,
)
from sims.checks import lsa_flow_train as MT
from sims.checks.lsa_flow_common import (
    THM4_D,
    THM4_N,
    THM4_SIGMA,
    THM4_SPECTRUM,
    eq12_prompts,
    is_thm4_preset,
    not_separable,
    thm4_moments,
    tokens,
    trained_sgd,
)
from sims.experiments.lsa_flow import (
    blocks,
    final_weights,
    initial_weights,
    load_model,
    setting_of,
)
from theory import lsa_flow as T
from theory.common.protocols import Evidence, validates_setting
from theory.lsa_flow.hypotheses import validate_thm4_setting

__all__ = ["check_eq12_train", "check_shifts_train", "SHIFT_MS"]


@validates_setting(validate_thm4_setting)
def check_eq12_train(
    *,
    quick: bool = True,
    seed: int = 0,
    d: int = THM4_D,
    N: int = THM4_N,
    spectrum: tuple[float, ...] = THM4_SPECTRUM,
    sigma_init: float = THM4_SIGMA,
    fault_gamma_fn: GammaFn | None = None,
) -> list[Evidence]:
    """At a setting other than the preset, the model is the moment-statistics run of
    (Λ = diag(spectrum), N, σ) shared with check_thm4_train_population_gd (each row's tolerance
    tightened where a neighbour's predictions are closer than SEPARATION_UNITS of it).  At the
    preset: eq. (12) for the SGD-trained model on fresh prompts of length M ∈ {4, 16, 64} with
    ρ = M: (i) with u₁₂, u₂₁ zeroed the model computes exactly x_qᵀP(1/M)Σyᵢxᵢ (FLOAT); (ii) the
    unmodified model's predictions agree with x_qᵀΓ⁻¹(1/M)Σyᵢxᵢ and not with the predictions of Γ's
    neighbours (TRAIN, start = the initial model)."""
    validate_thm4_setting(d, N, spectrum, sigma_init)
    if not is_thm4_preset(d, N, spectrum, sigma_init):
        return over_seeds(
            lambda sd: _eq12_moment_rows(d, N, tuple(spectrum), sigma_init, sd, fault_gamma_fn),
            seeds(seed, quick),
        )

    def rows(sd: int) -> list[Evidence]:
        r = trained_sgd(sd)
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
                close_agreement(
                    f"u₁₂ = u₂₁ = 0: model = x_qᵀP_learned ĝ at M={M} (ρ = M)",
                    y_zeroed,
                    ref,
                    kind="FLOAT",
                    atol=1e3 * FLOAT_RTOL * float(np.max(np.abs(ref))),
                    rtol=0.0,
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
    d: int, N: int, spectrum: tuple[float, ...], sigma_init: float, sd: int,
    fault_gamma_fn: GammaFn | None,
) -> list[Evidence]:
    """eq. (12) at (Λ = diag(spectrum), N, σ) for the moment-statistics model (its torch LSA)."""
    L = np.diag([float(v) for v in spectrum])
    r, numbers, tols = thm4_moments(d, N, spectrum, sigma_init, sd)
    prompts = eq12_prompts(sd, L)
    if r is None:
        Gi0, alts0 = np.linalg.inv(T.gamma_fn(L, N)), inverse_alternatives(L, N)
        return [not_separable(f"eq. (12) at M={M} (moment statistics)", numbers,
                               predictor_predict(Gi0, X, y, xq),
                               {n: predictor_predict(a, X, y, xq) for n, a in alts0.items()}, sd)
                for M, (X, y, xq) in prompts.items() for _ in (0, 1)]
    Gi = np.linalg.inv(gamma_or_fault(fault_gamma_fn, L, N))
    alts = inverse_alternatives(L, N)
    model = MT.moment_model(d, r.U11, r.u)
    out = []
    for M, (X, y, xq) in prompts.items():
        with torch.no_grad():
            y_model = model(tokens(X, y, xq)).numpy()
        ref = predictor_predict(r.P, X, y, xq)
        out.append(
            close_agreement(
                f"trained LSA (u₁₂ = u₂₁ = 0) = x_qᵀP_learned ĝ at M={M} (ρ = M)",
                y_model,
                ref,
                kind="FLOAT",
                atol=1e3 * FLOAT_RTOL * float(np.max(np.abs(ref))),
                rtol=0.0,
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


def check_shifts_train(
    *, quick: bool = True, seed: int = 0, fault_gamma_fn: GammaFn | None = None
) -> list[Evidence]:
    """§4.2 with the SGD-trained model itself (spec T-R11(d)): its MC risk (torch forward, ρ = M)
    under no shift, a query shift and covariate scaling x ↦ 2x equals the exact
    R(P_learned; Λ', S_q, M) (MC), and the risk curve R(P_learned; M), M ∈ SHIFT_MS, is within
    TRAIN_RTOL of that of the theoretical limit Γ⁻¹ and outside it of those of Γ's neighbours."""
    Sq = np.diag([2.0, 0.5, 1.0, 0.25]) + 0.2
    M = 16

    def rows(sd: int) -> list[Evidence]:
        r = trained_sgd(sd)
        s = setting_of(r)
        L = np.array(s.Lambda)
        P = blocks(*final_weights(r))["P"]
        P0 = blocks(*initial_weights(r))["P"]
        Gi = np.linalg.inv(gamma_or_fault(fault_gamma_fn, L, s.N))
        alts = inverse_alternatives(L, s.N)
        model = load_model(r)
        rng = check_rng(sd, "sims.checks.lsa_flow:check_shifts_train", "risk")
        out = []
        for tag, Lp, S in (
            ("no shift", L, L),
            ("query shift", L, Sq),
            ("covariate scaling x ↦ 2x", 4 * L, 4 * L),
        ):

            def draw(g: np.random.Generator, n: int, Lp=Lp, S=S) -> np.ndarray:
                X, y, xq, yq, _ = sample_linear(g, n, M, Lp, Sq=S)
                with torch.no_grad():
                    return (model(tokens(X, y, xq)).numpy() - yq) ** 2

            est = mc_mean(draw, 40_000 if quick else 400_000, rng=rng)
            R = T.shift_risk_fn(P, Lp, S, M)
            name = f"trained model risk, {tag} (M={M}) = R(P_learned; Λ', S_q, M)"
            out.append(mc_agreement(name, R, est))

            def curve(Q: np.ndarray, Lp=Lp, S=S) -> np.ndarray:  # the risk at each M in SHIFT_MS
                return np.array([T.shift_risk_fn(Q, Lp, S, m) for m in SHIFT_MS])

            out.append(
                train_discrimination(
                    f"R(P_learned) ≈ R(Γ⁻¹) under {tag}, M ∈ {SHIFT_MS}",
                    curve(P),
                    curve(Gi),
                    curve(P0),
                    alternatives={n: curve(a) for n, a in alts.items()},
                    seeds=[sd],
                )
            )
        return out

    return over_seeds(rows, seeds(seed, quick))


#: Test lengths of the risk curves in check_shifts_train (one risk can coincide for Γ⁻¹ and a
#: neighbour, e.g. Λ⁻¹ under the query shift at M = 16; the curve over M separates them).
SHIFT_MS = (1, 16, 256)
