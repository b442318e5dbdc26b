"""[zfb24] §4.1 Theorem 4 on trained LSAs: SGD from Assumption 3 and full-batch GD (the
population-gradient proxy at the preset, the moment-statistics route at any other setting) reach
u₋₁U₁₁ = Γ⁻¹ and the factor limits of eq. (11), told apart from Γ's named neighbours.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from numerics.montecarlo import estimate_from_samples
from numerics.sampling import check_seed
from numerics.testing import (
    FLOAT_RTOL,
    TRAIN_RTOL,
    close_agreement,
    exact_agreement,
    informational,
    mc_agreement,
    ordering,
    skipped,
    train_discrimination,
)
from numerics.zfb24.evidence import over_seeds, seeds
from numerics.zfb24.faults import (
    GAMMA_ALTERNATIVES,
    GammaFn,
    gamma_or_fault,
    inverse_alternatives,
)
from sims.train import TrainResult
from sims.zfb24.evidence import (
    DRIFT_MARGIN,
    NONZERO_MARGIN,
    SEPARATION_UNITS,
    THM4_D,
    THM4_N,
    THM4_SIGMA,
    THM4_SPECTRUM,
    TRAIN_ORDER_MARGIN,
    factors,
    is_thm4_preset,
    not_separable,
    off_preset_moment_rows,
    rel,
    row_rtol,
    thm4_moments,
    thm4_setting,
    trained_fixed_batch,
    trained_sgd,
    unconverged,
)
from sims.zfb24.train import (
    PRESETS,
    Stop,
    blocks,
    curvature_range,
    final_weights,
    initial_weights,
    pilot,
    recipe_of,
    setting_of,
    theta,
    trained,
)
from theory import zfb24 as T
from theory.common.protocols import Evidence
from theory.zfb24.hypotheses import thm4_hypotheses
from theory.zfb24.settings import Setting

__all__ = ["check_thm4_train_sgd", "check_thm4_train_population_gd", "SGD_WORK_CAP"]


#: Safety factor on the slowest time constant that the pilot curvature predicts
#: (``1/(lr·h_min)``, :func:`sims.zfb24.train.curvature_range`).  Measured at d = 3, N = 6,
#: Λ = diag(0.15, 1, 2), σ = 0.3, lr 0.0323: the estimate is ~1 200 steps, the SGD run's slowest
#: entry of P relaxes with a time constant of ~4 500–8 000 steps (the estimate is 4–7× optimistic:
#: it is the batch quadratic's curvature at the minimiser, while SGD crosses the slow direction
#: with smaller factors), so 8.
SGD_STEP_SAFETY = 8.0


#: The run must bring P within this fraction of the row's tolerance of its limit (what is left for
#: SGD's noise): it needs ln(start distance / (tolerance·SGD_TOL_FRACTION)) time constants.
SGD_TOL_FRACTION = 0.25


#: Step size off the preset as a fraction of the curvature-scaled preset lr.  At d = 2, N = 3,
#: Λ = diag(0.5, 2) (inside Theorem 4's hypotheses) the full curvature-scaled lr (0.057) lets
#: SGD's noise carry the run off the invariant set u₁₂ = u₂₁ = 0 after ~1 600 steps: P collapses
#: to ≈ 0 while the rank-one product u₁₂u₂₁ᵀ (a second path to the same read-out, x_qᵀu₂₁u₁₂ᵀĝ)
#: takes over the fast direction (P₂₂ ≈ 0.288 ≈ Γ⁻¹₂₂) and drops the slow one (Γ⁻¹₁₁ = 0.667):
#: 20 tolerance units from Γ⁻¹.  The preset's own lr sits close to that edge; at half of it the
#: run stays on the set and ends 0.1 units from Γ⁻¹ (seed 0), at twice the (planned) steps.
SGD_LR_SAFETY = 0.5


#: Step cap of the SGD route at a non-preset setting, in work units steps·batch·(N+1)·(d+1)²
#: (a count, the same on every machine and under any load): 2.56e9 units are the 20 000 steps at
#: the preset's batch 1 024 and (d, N) = (4, 4) that the former 120-s bound bought there.
SGD_WORK_CAP = 2.56e9


#: The low-lr tail's step bound in multiples of its planned steps (within the step cap): the
#: stopping rule (P's drift over a window below a tenth of the row's tolerance) normally ends it
#: at the planned steps.
SGD_BOUND_FACTOR = 4


def _sgd_run(
    d: int, N: int, spectrum: tuple[float, ...], sigma_init: float, sd: int, rtol: float
) -> tuple[TrainResult | None, dict[str, float]]:
    """The SGD run of the preset's recipe at (Λ = diag(spectrum), N, σ): step sizes scaled by the
    preset's curvature over this setting's (pilot statistics of sampled prompts) and by
    SGD_LR_SAFETY, the batch raised
    by (TRAIN_RTOL/rtol)² where the row is tightened (SGD's error ∝ 1/√batch at a fixed schedule).

    Steps from the setting: the main (high-lr) phase runs at least max(the preset's, the
    estimate) steps, the estimate being SGD_STEP_SAFETY time constants ``1/(lr·h_min)`` of the
    slowest curvature ``h_min`` of a pilot batch times the ln(start / (rtol·SGD_TOL_FRACTION))
    time constants needed to come within the tolerance (start: relF(P(0), Γ⁻¹) of Assumption 3's
    start); the low-lr tail runs the preset's steps and then stops on P's convergence
    (:class:`sims.zfb24.train.Stop`, tolerance ``rtol``) within SGD_BOUND_FACTOR times them.
    The step cap is SGD_WORK_CAP work units.  ``None`` with the numbers when the planned steps
    exceed the cap."""
    path = "sims.checks.lsa_flow:_sgd_run"
    s = thm4_setting(d, N, spectrum, sigma_init)
    ref = thm4_setting(THM4_D, THM4_N, THM4_SPECTRUM, THM4_SIGMA)
    _, _, curv = pilot(s, check_seed(sd, path, "pilot"))
    _, _, curv_ref = pilot(ref, check_seed(sd, path, "pilot"))
    h_min, _ = curvature_range(s, check_seed(sd, path, "curvature"))
    _, rc0 = PRESETS["thm4_sgd"]
    lr = SGD_LR_SAFETY * rc0.lr * curv_ref / curv
    batch = int(np.ceil(rc0.batch_size * max(1.0, (TRAIN_RTOL / rtol) ** 2)))
    low = rc0.lr_drop[0]
    cap = int(SGD_WORK_CAP / (batch * (N + 1) * (d + 1) ** 2))
    L = np.diag([float(v) for v in spectrum])
    Th = theta(s)
    start = rel(sigma_init**2 * Th @ Th.T, np.linalg.inv(T.gamma_fn(L, N)))  # P(0) = σ²ΘΘᵀ
    tau = 1.0 / (lr * h_min)
    n_tau = max(0.0, math.log(start / (rtol * SGD_TOL_FRACTION)))
    estimate = math.ceil(SGD_STEP_SAFETY * n_tau * tau)
    main = max(rc0.steps, estimate)
    steps = main + low
    numbers = {
        "lr": lr,
        "batch": batch,
        "steps": steps,
        "estimated_steps": estimate,
        "low_lr_steps": low,
        "step_bound": cap,
        "work_cap": SGD_WORK_CAP,
        "slowest_curvature": h_min,
        "time_constant_steps": tau,
        "time_constants": n_tau,
        "safety_factor": SGD_STEP_SAFETY,
        "start_distance": start,
        "needs_tolerance": rtol,
        "needs_prompts": batch,
        "separation": rtol * SEPARATION_UNITS,
    }
    if steps > cap:
        return None, numbers
    bound = min(SGD_BOUND_FACTOR * low, cap - main)
    recipe = dataclasses.replace(
        rc0,
        lr=lr,
        batch_size=batch,
        steps=main,
        stop=dataclasses.replace(
            rc0.stop or Stop(tol=rtol, max_steps=bound), tol=rtol, max_steps=bound
        ),
    )
    return trained(s, recipe, seed=sd), numbers


def _too_slow(name: str, numbers: dict[str, float], L: np.ndarray, N: int, sd: int) -> Evidence:
    """The ``skipped`` TRAIN row of a setting whose planned SGD steps exceed the step cap (the
    record of the prediction and its named alternatives at the needed tolerance; not trained)."""
    n = numbers
    why = (
        f"SGD cannot reach the tolerance within its step cap at this setting: about "
        f"{n['estimated_steps']:.0f} steps needed at lr {n['lr']:.3g} (slowest curvature "
        f"{n['slowest_curvature']:.3g} of a pilot batch: time constant "
        f"{n['time_constant_steps']:.0f} steps, ×{n['safety_factor']:g} safety, × "
        f"{n['time_constants']:.2f} time constants from relF {n['start_distance']:.3f} to a "
        f"quarter of the tolerance {n['needs_tolerance']:.3%}), plus {n['low_lr_steps']:.0f} "
        f"low-lr steps: {n['steps']:.0f} steps on batches of {n['batch']:.0f}; bound "
        f"{n['step_bound']:.0f} steps ({n['work_cap']:.3g} work units steps·batch·(N+1)(d+1)²); "
        f"the moment-statistics route (check_thm4_train_population_gd) resolves this setting"
    )
    Gi = np.linalg.inv(T.gamma_fn(L, N))
    ev = train_discrimination(
        name,
        Gi,
        Gi,
        Gi,
        rtol=n["needs_tolerance"],
        alternatives=inverse_alternatives(L, N),
        seeds=[sd],
        details=dict(n),
    )
    return skipped(ev, why=why, **n)


def check_thm4_train_sgd(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_gamma_fn: GammaFn | None = None,
) -> list[Evidence]:
    """Theorem 4 by SGD on fresh prompts (at N = 4; all (d+1)² entries trainable):
    P = u₋₁W^{KQ}₁₁ → Γ⁻¹ and not to any of Γ's neighbours (TRAIN); u₁₂, u₂₁ stay small although
    they received nonzero gradients (ORDER: they start at exactly 0); the blocks that cannot affect
    ŷ got exactly zero gradient; the final training loss matches the population loss at the
    learned P (loss plateau).  At another setting (Λ = diag(spectrum), N, σ) the run is the
    preset's recipe with the step size scaled by the curvature and the batch by the tightened
    tolerance, its steps planned from the slowest curvature and ended by P's convergence
    (:func:`_sgd_run`); where the plan exceeds the step cap (SGD_WORK_CAP), one ``skipped``
    TRAIN row gives the numbers, without training (the moment-statistics route of
    check_thm4_train_population_gd resolves them); a run that reaches its step bound
    unconverged is one ``skipped`` TRAIN row with its numbers.  A converged run that misses is a
    ``fail``."""
    thm4_hypotheses(setting)
    d, N, sigma_init = setting.d, setting.N, setting.sigma_init
    spectrum = tuple(setting.spectrum or ())
    preset = is_thm4_preset(d, N, spectrum, sigma_init)

    def name(N: int, d: int) -> str:
        return f"P = u₋₁W^KQ_11 → Γ⁻¹ (SGD, fresh prompts, N = {N})" + (
            "" if preset else f", d = {d}"
        )

    def rows(sd: int) -> list[Evidence]:
        numbers: dict[str, float] = {}
        if preset:
            r, rtol = trained_sgd(sd), TRAIN_RTOL
        else:
            L0 = np.diag([float(v) for v in spectrum])
            rtol = row_rtol(np.linalg.inv(T.gamma_fn(L0, N)), inverse_alternatives(L0, N))
            r_, numbers = _sgd_run(d, N, tuple(spectrum), sigma_init, sd, rtol)
            if r_ is None:
                return [_too_slow(name(N, d), numbers, L0, N, sd)]
            r = r_
        s = setting_of(r)
        L = np.array(s.Lambda)
        b, b0 = blocks(*final_weights(r)), blocks(*initial_weights(r))
        Gi = np.linalg.inv(gamma_or_fault(fault_gamma_fn, L, s.N))
        miss = unconverged(
            name(s.N, s.d), r, b["P"], Gi, b0["P"], inverse_alternatives(L, s.N), sd, numbers
        )
        if miss is not None:
            return [miss]
        Li = np.linalg.inv(L)
        rc = recipe_of(r)
        tail = r.losses[-(rc.lr_drop[0] // rc.log_every) :]  # the low-lr phase
        away = (
            [  # the preset's extra margin from Λ⁻¹ (elsewhere Λ⁻¹ is a named alternative)
                ordering(
                    "P clearly away from Λ⁻¹: relF(P,Λ⁻¹) − relF(P,Γ⁻¹) ≥ 5·TRAIN_RTOL",
                    rel(b["P"], Gi) + 5 * TRAIN_RTOL,
                    rel(b["P"], Li),
                    margin=TRAIN_ORDER_MARGIN,
                )
            ]
            if preset
            else []
        )
        return [
            train_discrimination(
                name(s.N, s.d),
                b["P"],
                Gi,
                b0["P"],
                rtol=rtol,
                alternatives=inverse_alternatives(L, s.N),
                seeds=[sd],
                details=numbers or None,
            ),
            *away,
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
                "balancedness under SGD (not conserved: drifts along (cK, r/c))",
                0.0,
                b["balance_full"],
            ),
        ]

    return over_seeds(rows, seeds(seed, quick))


def check_thm4_train_population_gd(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_gamma_fn: GammaFn | None = None,
) -> list[Evidence]:
    """At any other setting (Λ = diag(spectrum), N, σ of Assumption 3) the model is trained by the
    moment-statistics route (:func:`sims.zfb24.train.trained` with a ``MomentRecipe``; see
    :func:`_thm4_population_rows`).
    At the preset: Theorem 4 by full-batch GD on one large antithetic batch (our
    population-gradient proxy, see sims.zfb24.train; N = 4): u₁₂ = u₂₁ = 0 exactly;
    balancedness moves exactly by Σ lr²(‖g_r‖² − ‖g_K‖²) and only O(lr) (≤ 2·lr·(L₀ − L_T),
    descent lemma); GD reaches the batch minimiser; the factors (U₁₁, u₋₁) reach Theorem 4's limits
    and P the batch minimiser ≈ Γ⁻¹, each told apart from the limits that Γ's neighbours would
    give."""
    off = off_preset_moment_rows(
        setting, _thm4_population_rows, quick=quick, seed=seed, fault_gamma_fn=fault_gamma_fn
    )
    if off is not None:
        return off

    def rows(sd: int) -> list[Evidence]:
        r = trained_fixed_batch(sd)
        s, cfg = setting_of(r), r.config
        L = np.array(s.Lambda)
        d = s.d
        b, b0 = blocks(*final_weights(r)), blocks(*initial_weights(r))
        A, bv = r.extra["normal_eq"]
        Pemp = np.linalg.solve(A, bv).reshape(d, d)
        G = gamma_or_fault(fault_gamma_fn, L, s.N)
        Gpop, inv_alts = np.linalg.inv(T.gamma_fn(L, s.N)), inverse_alternatives(L, s.N)
        miss = unconverged(
            "GD converged to the batch minimiser P_emp",
            r,
            b["P"],
            Pemp,
            b0["P"],
            {"Γ⁻¹ (population, not batch, minimiser)": Gpop, **inv_alts},
            sd,
        )
        if miss is not None:
            return [miss]
        drift = b["balance_full"] - b0["balance_full"]
        L0, LT = r.extra["loss_init_final"]

        def factors(Gam: np.ndarray) -> np.ndarray:
            Ue, ue = T.limit_params_fn(L, s.N, Gamma=Gam)
            return np.append(Ue.ravel(), ue)

        alts = {n: fn(L, s.N) for n, fn in GAMMA_ALTERNATIVES.items()}
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


def _thm4_population_rows(
    d: int,
    N: int,
    spectrum: tuple[float, ...],
    sigma_init: float,
    sd: int,
    fault_gamma_fn: GammaFn | None,
) -> list[Evidence]:
    """Theorem 4 at (Λ = diag(spectrum), N, σ) by the moment-statistics route: GD on the factors
    (U₁₁, u₋₁) from Assumption 3 on the batch loss of sampled prompts; P = u₋₁U₁₁ → Γ⁻¹ and not any
    of Γ's neighbours; GD reached the batch minimiser; the factors reach Theorem 4's limits.  Each
    row's tolerance is the preset's unless a neighbour is closer than SEPARATION_UNITS of it (then
    tightened); the batch is derived from the tightest; beyond the budget the rows are skipped."""
    L = np.diag([float(v) for v in spectrum])
    r, numbers, tols = thm4_moments(d, N, spectrum, sigma_init, sd)
    name = f"P = u₋₁W^KQ_11 → Γ⁻¹ (moment statistics, d = {d}, N = {N})"
    if r is None:
        return [
            not_separable(
                name, numbers, np.linalg.inv(T.gamma_fn(L, N)), inverse_alternatives(L, N), sd
            )
        ] * 3
    G = gamma_or_fault(fault_gamma_fn, L, N)
    inv_alts = inverse_alternatives(L, N)
    alts = {n: fn(L, N) for n, fn in GAMMA_ALTERNATIVES.items()}
    info = {**r.details(), **numbers, "balance_final": r.balance}
    start_f = np.append(r.U11_0.ravel(), r.u_0)
    return [
        train_discrimination(
            name,
            r.P,
            np.linalg.inv(G),
            r.P0,
            rtol=tols["P"],
            alternatives=inv_alts,
            seeds=[sd],
            details=info,
        ),
        train_discrimination(
            "GD converged to the batch minimiser P_emp (moment statistics)",
            r.P,
            r.P_batch,
            r.P0,
            rtol=tols["P"] / 100,
            alternatives=inv_alts,
            seeds=[sd],
            details={"steps": r.steps, "converged": r.converged, "final_drift": r.drift},
        ),
        train_discrimination(
            "factor limits (U₁₁, u₋₁) → (‖Γ⁻¹‖^(-1/2)Γ⁻¹, ‖Γ⁻¹‖^(1/2)) (Theorem 4, moment "
            "statistics)",
            np.append(r.U11.ravel(), r.u),
            factors(L, N, G),
            start_f,
            rtol=tols["factors"],
            alternatives={n: factors(L, N, a) for n, a in alts.items()},
            seeds=[sd],
            details={"balance_final": r.balance},
        ),
    ]
