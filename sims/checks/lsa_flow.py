"""[zfb24] checks that compare trained LSAs (sims.experiments.lsa_flow) with the theory.

Invariant coordinates (STYLE R10): the identifiable product ``P = u₋₁U₁₁`` (u₋₁ = w^{PV}_{22},
U₁₁ = W^{KQ}_{11}), the blocks ``u₁₂ = w^{PV}_{21}``, ``u₂₁ = w^{KQ}_{21}``, the factors
``(U₁₁, u₋₁)`` only where balancedness is (approximately) conserved (full-batch GD), and
predictions on fresh prompts.  Fault switches (``fault_gamma_fn=``, ``fault_alternative=``) are for
the negative controls.

Every TRAIN row is a :func:`~numerics.testing.train_discrimination` against Γ's named neighbours
(:data:`numerics.lsa_flow.faults.GAMMA_ALTERNATIVES`; for Theorem 8, δ's: ``delta_alternatives``).
Trained claims run on ``seeds(seed, quick)``, merged by :func:`~numerics.testing.over_seeds`.
"""

from __future__ import annotations

import numpy as np
import torch

from numerics.lsa_flow.evidence import over_seeds, seeds
from numerics.lsa_flow.faults import (
    GAMMA_ALTERNATIVES,
    GammaFn,
    delta_alternatives,
    gamma_or_fault,
    inverse_alternatives,
    swap_alternative,
)
from numerics.lsa_flow.montecarlo import condition21_expectation, random_cov_slope
from numerics.lsa_flow.ode import integrate_flow
from numerics.lsa_flow.predictors import lsa_predict, predictor_predict
from numerics.lsa_flow.sampling import sample_linear
from numerics.montecarlo import estimate_from_samples, mc_mean
from numerics.sampling import check_rng
from numerics.testing import (
    FLOAT_RTOL,
    TRAIN_RTOL,
    close_agreement,
    exact_agreement,
    informational,
    mc_agreement,
    ordering,
    train_discrimination,
)
from sims.data import embed
from sims.experiments.lsa_flow import (
    blocks,
    final_weights,
    initial_weights,
    load_model,
    setting_of,
    theta,
    trained,
)
from sims.train import TrainResult
from theory import lsa_flow as T
from theory.common.protocols import Evidence

__all__ = [
    "check_eq6_torch",
    "check_thm4_train_sgd",
    "check_thm4_train_population_gd",
    "check_eq12_train",
    "check_shifts_train",
    "check_lem10_train_flow_vs_gd",
    "check_thm8_train_sgd",
    "trained_sgd",
    "trained_fixed_batch",
    "trained_random_cov",
]

#: Margin of the trained orderings against TRAIN_RTOL-scale bands (relative quantities): small
#: against the band, above float64 noise of the ratios.
TRAIN_ORDER_MARGIN = 1e-3
#: A gradient norm counts as nonzero above this (unchanged from the inline value it replaces).
NONZERO_MARGIN = 1e-6
#: Balancedness drift of full-batch GD vs its O(lr) bound: the margin only absorbs rounding.
DRIFT_MARGIN = 1e-6
#: Condition (21) at the preset: σ² must be below the bound with room for the MC error of E.
CONDITION21_MARGIN = 1e-3


def _rel(a: np.ndarray, b: np.ndarray) -> float:  # relative Frobenius distance
    return float(np.linalg.norm(a - b) / np.linalg.norm(b))


def _tokens(X: np.ndarray, y: np.ndarray, xq: np.ndarray) -> torch.Tensor:
    """The embedded prompts (eq. 4) of numpy samples, for the torch model."""
    return embed(*(torch.as_tensor(a) for a in (X, y, xq)))


def trained_sgd(seed: int = 0) -> TrainResult:
    """The spec T-R8(d1) run (cached; shared by tests, checks, figures and the report)."""
    return trained("thm4_sgd", seed=seed)


def trained_fixed_batch(seed: int = 0) -> TrainResult:
    """The spec T-R8(d2) proxy run: full-batch GD on one antithetic batch (cached)."""
    return trained("thm4_fixed_batch", seed=seed)


def trained_random_cov(seed: int = 0) -> TrainResult:
    """The spec T-R12(d) run on Exp(1) random covariance (cached)."""
    return trained("thm8_random_cov", seed=seed)


def check_eq6_torch(*, quick: bool = True, seed: int = 0, d: int = 3, N: int = 6) -> list[Evidence]:
    """The torch ``LSA(d, parameterisation="merged")`` forward equals eq. (6) / the full f_LSA entry
    for random weights and prompts (ρ = prompt length, query column included)."""
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


def check_thm4_train_sgd(
    *, quick: bool = True, seed: int = 0, fault_gamma_fn: GammaFn | None = None
) -> list[Evidence]:
    """Theorem 4 by SGD on fresh prompts (spec T-R8(d1) at N = 4; all (d+1)² entries trainable):
    P = u₋₁W^{KQ}₁₁ → Γ⁻¹ and not to any of Γ's neighbours (TRAIN); u₁₂, u₂₁ stay small although
    they received nonzero gradients (ORDER: they start at exactly 0); the blocks that cannot affect
    ŷ got exactly zero gradient; the final training loss matches the population loss at the
    learned P (loss plateau)."""

    def rows(sd: int) -> list[Evidence]:
        r = trained_sgd(sd)
        s = setting_of(r)
        L = np.array(s.Lambda)
        b, b0 = blocks(*final_weights(r)), blocks(*initial_weights(r))
        Gi = np.linalg.inv(gamma_or_fault(fault_gamma_fn, L, s.N))
        Li = np.linalg.inv(L)
        tail = r.losses[-(s.lr_drop[0] // r.config.log_every) :]  # the low-lr phase
        return [
            train_discrimination(
                f"P = u₋₁W^KQ_11 → Γ⁻¹ (SGD, fresh prompts, N = {s.N})",
                b["P"],
                Gi,
                b0["P"],
                alternatives=inverse_alternatives(L, s.N),
                seeds=[sd],
            ),
            ordering(
                "P clearly away from Λ⁻¹: relF(P,Λ⁻¹) − relF(P,Γ⁻¹) ≥ 5·TRAIN_RTOL",
                _rel(b["P"], Gi) + 5 * TRAIN_RTOL,
                _rel(b["P"], Li),
                margin=TRAIN_ORDER_MARGIN,
            ),
            ordering(
                "‖u₁₂‖/|u₋₁| < TRAIN_RTOL (u₁₂ starts at 0; SGD noise must not grow it)",
                float(np.linalg.norm(b["u12"])) / abs(b["u"]),
                TRAIN_RTOL,
                margin=TRAIN_ORDER_MARGIN,
            ),
            ordering(
                "‖u₂₁‖/‖U₁₁‖_F < TRAIN_RTOL (u₂₁ starts at 0; SGD noise must not grow it)",
                float(np.linalg.norm(b["u21"]) / np.linalg.norm(b["U11"])),
                TRAIN_RTOL,
                margin=TRAIN_ORDER_MARGIN,
            ),
            ordering(
                "u₁₂ received nonzero gradients", 0.0, r.extra["g_u12_max"], margin=NONZERO_MARGIN
            ),
            ordering(
                "u₂₁ received nonzero gradients", 0.0, r.extra["g_u21_max"], margin=NONZERO_MARGIN
            ),
            exact_agreement(
                "first d rows of W^PV and last column of W^KQ: zero gradient (eq. 6)",
                r.extra["g_irrelevant_max"],
                0,
            ),
            mc_agreement(
                "final minibatch loss = population loss L(P_learned) (plateau)",
                T.loss_of_P_fn(b["P"], L, s.N),
                estimate_from_samples(tail),
                details={"L_star": T.optimal_loss_fn(L, s.N)},
            ),
            informational(
                "balancedness under SGD (spec: not conserved, drifts along (cK, r/c))",
                0.0,
                b["balance_full"],
            ),
        ]

    return over_seeds(rows, seeds(seed, quick))


def check_thm4_train_population_gd(
    *, quick: bool = True, seed: int = 0, fault_gamma_fn: GammaFn | None = None
) -> list[Evidence]:
    """Theorem 4 by full-batch GD on one large antithetic batch (our population-gradient proxy,
    see sims.experiments.lsa_flow; N = 4): u₁₂ = u₂₁ = 0 exactly; balancedness moves exactly by
    Σ lr²(‖g_r‖² − ‖g_K‖²) and only O(lr) (≤ 2·lr·(L₀ − L_T), descent lemma); GD reaches the batch
    minimiser; the factors (U₁₁, u₋₁) reach Theorem 4's limits and P the batch minimiser ≈ Γ⁻¹, each
    told apart from the limits that Γ's neighbours would give."""

    def rows(sd: int) -> list[Evidence]:
        r = trained_fixed_batch(sd)
        s, cfg = setting_of(r), r.config
        L = np.array(s.Lambda)
        d = s.d
        b, b0 = blocks(*final_weights(r)), blocks(*initial_weights(r))
        A, bv = r.extra["normal_eq"]
        Pemp = np.linalg.solve(A, bv).reshape(d, d)
        G = gamma_or_fault(fault_gamma_fn, L, s.N)
        drift = b["balance_full"] - b0["balance_full"]
        L0, LT = r.extra["loss_init_final"]

        def factors(Gam: np.ndarray) -> np.ndarray:
            Ue, ue = T.limit_params_fn(L, s.N, Gamma=Gam)
            return np.append(Ue.ravel(), ue)

        alts = {n: fn(L, s.N) for n, fn in GAMMA_ALTERNATIVES.items()}
        Gpop, inv_alts = np.linalg.inv(T.gamma_fn(L, s.N)), inverse_alternatives(L, s.N)
        return [
            exact_agreement(
                "u₁₂ = u₂₁ = 0 exactly (antithetic batch: the w ↦ −w symmetry)",
                float(np.abs(np.r_[b["u12"], b["u21"]]).max()),
                0,
            ),
            close_agreement(
                "balancedness drift = Σ lr²(‖g_r‖² − ‖g_K‖²) (discrete conservation law)",
                drift,
                r.extra["balance_drift_predicted"],
                kind="FLOAT",
                atol=FLOAT_RTOL * cfg.steps * max(1.0, abs(b0["balance_full"]) + b["u"] ** 2),
            ),
            ordering(
                "balancedness drift is O(lr): |drift| < 2·lr·(L₀ − L_T)",
                abs(drift),
                2 * cfg.lr * (L0 - LT),
                margin=DRIFT_MARGIN,
                details={"drift": drift, "lr": cfg.lr},
            ),
            train_discrimination(
                "GD converged to the batch minimiser P_emp",
                b["P"],
                Pemp,
                b0["P"],
                rtol=TRAIN_RTOL / 100,
                alternatives={"Γ⁻¹ (population, not batch, minimiser)": Gpop, **inv_alts},
                seeds=[sd],
                details={"grad_norm_final": r.extra["grad_final"]},
            ),
            train_discrimination(
                "factor limits (U₁₁, u₋₁) → (‖Γ⁻¹‖^(-1/2)Γ⁻¹, ‖Γ⁻¹‖^(1/2)) (Theorem 4)",
                np.append(b["U11"].ravel(), b["u"]),
                factors(G),
                np.append(b0["U11"].ravel(), b0["u"]),
                rtol=TRAIN_RTOL / 2,
                alternatives={n: factors(a) for n, a in alts.items()},
                seeds=[sd],
            ),
            train_discrimination(
                f"batch minimiser P_emp ≈ Γ⁻¹ (batch of {cfg.batch_size} prompts, N = {s.N})",
                Pemp,
                np.linalg.inv(G),
                b0["P"],
                alternatives=inv_alts,
                seeds=[sd],
            ),
        ]

    return over_seeds(rows, seeds(seed, quick))


def check_lem10_train_flow_vs_gd(
    *, quick: bool = True, seed: int = 0, fault_gamma_fn: GammaFn | None = None
) -> list[Evidence]:
    """Lemma 10 against training at matched time τ = lr·steps: the full-batch GD run's factors
    (U₁₁, u₋₁) at τ ∈ LEM10_TAUS equal the ODE solution of the population flow from the same
    Assumption-3 start (TRAIN; the start is the initial state, the gap includes the O(B^{-1/2})
    batch error and the O(lr) discretisation), and differ from the ODE solutions with Γ's
    neighbours in place of Γ."""

    def rows(sd: int) -> list[Evidence]:
        r = trained_fixed_batch(sd)
        s, cfg = setting_of(r), r.config
        L = np.array(s.Lambda)
        d = s.d
        b0 = blocks(*initial_weights(r))
        start = np.append(b0["U11"].ravel(), b0["u"])
        steps = [int(round(t / cfg.lr)) for t in LEM10_TAUS]
        t_eval = [k * cfg.lr for k in steps]

        def flow(Gam: np.ndarray) -> np.ndarray:
            tr = integrate_flow(L, s.N, b0["U11"], b0["u"], t_eval[-1], t_eval=t_eval, Gamma=Gam)
            return tr.y[:, : d * d + 1]

        pred = flow(gamma_or_fault(fault_gamma_fn, L, s.N))
        alts = {n: flow(fn(L, s.N)) for n, fn in GAMMA_ALTERNATIVES.items()}
        return [
            train_discrimination(
                f"GD factors at τ = lr·steps = {k * cfg.lr:g} = ODE (Lemma 10)",
                r.extra["factor_trace"][k],
                pred[i],
                start,
                rtol=LEM10_RTOL,
                alternatives={n: a[i] for n, a in alts.items()},
                seeds=[sd],
                details={"steps": k},
            )
            for i, k in enumerate(steps)
        ]

    return over_seeds(rows, seeds(seed, quick))


#: Matched times of check_lem10_train_flow_vs_gd and its tolerance (the GD-vs-ODE gap is the batch
#: error plus O(lr); a tighter band than TRAIN_RTOL so that Γ's neighbours are ≥ 2 bands away).
LEM10_TAUS = (4.0, 8.0, 24.0)
LEM10_RTOL = TRAIN_RTOL / 2


def check_eq12_train(
    *, quick: bool = True, seed: int = 0, fault_gamma_fn: GammaFn | None = None
) -> list[Evidence]:
    """eq. (12) for the SGD-trained model on fresh prompts of length M ∈ {4, 16, 64} with ρ = M:
    (i) with u₁₂, u₂₁ zeroed the model computes exactly x_qᵀP(1/M)Σyᵢxᵢ (FLOAT); (ii) the unmodified
    model's predictions agree with x_qᵀΓ⁻¹(1/M)Σyᵢxᵢ and not with the predictions of Γ's
    neighbours (TRAIN, start = the initial model)."""

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
        rng = check_rng(sd, f"{__name__}:check_eq12_train", "prompts")
        out = []
        for M in (4, 16, 64):
            X, y, xq, _, _ = sample_linear(rng, 2000, M, L)
            model, Z = load_model(r), _tokens(X, y, xq)
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
        rng = check_rng(sd, f"{__name__}:check_shifts_train", "risk")
        out = []
        for tag, Lp, S in (
            ("no shift", L, L),
            ("query shift", L, Sq),
            ("covariate scaling x ↦ 2x", 4 * L, 4 * L),
        ):

            def draw(g: np.random.Generator, n: int, Lp=Lp, S=S) -> np.ndarray:
                X, y, xq, yq, _ = sample_linear(g, n, M, Lp, Sq=S)
                with torch.no_grad():
                    return (model(_tokens(X, y, xq)).numpy() - yq) ** 2

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


def check_thm8_train_sgd(
    *, quick: bool = True, seed: int = 0, fault_alternative: str | None = None
) -> list[Evidence]:
    """Theorem 8 by SGD on random-covariance prompts (Exp(1), d = 5, N = 3, σ = 0.14):
    P → D = δI with δ = N/(3N+d+5) (TRAIN), told apart from δ's named neighbours
    (:func:`~numerics.lsa_flow.faults.delta_alternatives`: δ(N±1), its N → ∞ value, δ_F of
    fixed-covariance training); off-diagonals stay small (ORDER: they start below the band);
    condition (21) (MC expectation); on fresh prompts the coefficient of ŷ on z = x_qᵀΛ_new w is δ
    (spec T-R12(d), §6.14: the pooled slope on x_qᵀw would be 2δ, not δ).
    ``fault_alternative=<name>`` makes that neighbour the prediction (negative control)."""

    def rows(sd: int) -> list[Evidence]:
        r = trained_random_cov(sd)
        s = setting_of(r)
        d, N = s.d, s.N
        delta, alts = swap_alternative(
            float(T.rdm_D([1.0] * d, [2.0] * d, [6.0] * d, N)[0, 0]),
            delta_alternatives(d, N),
            fault_alternative,
        )
        b, b0 = blocks(*final_weights(r)), blocks(*initial_weights(r))
        off = b["P"] - np.diag(np.diag(b["P"]))
        n_cond, n_slope = (200_000, 10_000) if quick else (2_000_000, 100_000)
        path = f"{__name__}:check_thm8_train_sgd"
        E = condition21_expectation(d, N, n_cond, check_rng(sd, path, "condition21"))

        def slope(P: np.ndarray) -> float:
            return random_cov_slope(P, 200, n_slope, check_rng(sd, path, "slope"))

        return [
            train_discrimination(
                f"P = u₋₁U₁₁ → D = δI, δ = N/(3N+d+5) (random covariance, N = {N})",
                b["P"],
                delta * np.eye(d),
                b0["P"],
                alternatives={n: a * np.eye(d) for n, a in alts.items()},
                seeds=[sd],
                details={"diag": np.diag(b["P"]).tolist(), "delta": delta},
            ),
            ordering(
                "max off-diagonal of P / δ < TRAIN_RTOL (P(0) is diagonal-dominant: the SGD noise "
                "must not grow them)",
                float(np.abs(off).max()) / delta,
                TRAIN_RTOL,
                margin=TRAIN_ORDER_MARGIN,
            ),
            ordering(
                "condition (21): σ² < 2‖EΛΘ‖²/(√d E‖Γ_τ‖_op‖Λ_τ‖_F²)",
                s.sigma_init**2,
                T.rdm_init_bound(np.ones(d), theta(s), E.mean),
                margin=CONDITION21_MARGIN,
                details={"E_mc": E.mean, "se": E.se},
            ),
            train_discrimination(
                "fresh prompts (M=200): pooled slope of ŷ on z = x_qᵀΛ_new w → δ (eq. 23)",
                slope(b["P"]),
                delta,
                slope(b0["P"]),
                alternatives=alts,
                seeds=[sd],
            ),
        ]

    return over_seeds(rows, seeds(seed, quick))
