"""[collins24] checks of App. B-C: the value row (Lemma B.1), the Σ⁻¹ form of the optimum
(Assumption B.4, Lemma B.5), and the signal-term shapes (Corollary C.6, Lemmas C.8, C.9).

Constants the paper leaves unspecified are fitted and reported (INFO), never asserted; the
exact parts (C.2's 4L², C.9's ratio ½, slopes of the exact terms) are asserted.  Every check
takes the paper's :class:`~theory.collins24.settings.Setting` first; the ones tied to generic
points say so (declared fixed in :mod:`sims.collins24.results`).
"""

from __future__ import annotations

import numpy as np

from numerics.collins24.predictors import mc_risk, powered_samples, softmax_weights
from numerics.collins24.quadrature import affine_risk_quad, optimal_scale_affine, window_terms
from numerics.collins24.sampling import sample_prompts, sphere
from numerics.collins24.tolerances import STRICT_GAP
from numerics.montecarlo import estimate_from_samples
from numerics.testing import (
    MC_POWER,
    Z_MC,
    informational,
    loglog_slope,
    mc_agreement,
    mc_difference_agreement,
    ordering,
    rate_agreement,
)
from theory.collins24 import (
    C9_RATIO,
    c6_lower_shape,
    c6_upper_shape,
    c8_upper_shape,
    signal_bound_c2,
    signal_functional,
)
from theory.collins24.settings import (
    LipschitzTasks,
    Setting,
    SoftmaxWindowSetting,
    SphereCovariates,
)
from theory.common.protocols import Evidence

__all__ = [
    "check_lemb_1_mc",
    "check_lemb_5_mc",
    "check_lemb_5_mc_sigma",
    "check_corc_6_quad",
    "check_corc_6_rate",
    "check_lemc_8_mc",
    "check_lemc_9_mc",
]

#: the ReLU signal slope must clear -2 and -1 by 0.1 (MC fit error is ~0.03).
RELU_SLOPE_GAP = 0.1


def one_sigma2(setting: Setting) -> float:
    """The setting's one noise level σ² (``sigma2=None`` stands for S1's sweep: refused by name)."""
    if setting.sigma2 is None:
        raise ValueError(
            "sigma2=None stands for S1's sweep σ ∈ {1, .3, .1, .01}; this check runs at one "
            "noise level: give sigma2"
        )
    return setting.sigma2


def check_lemb_1_mc(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_fixed_direction: bool | None = None,
) -> list[Evidence]:
    """Lemma B.1: with a value row r, ŷ = Σβ_i(y_i + rᵀx_i); 𝓛(r) − 𝓛(0) = E(Σβ_i rᵀx_i)² ≥ 0
    because the cross term vanishes when f and −f are equally likely: paired MC of the cross
    term = 0 (5 SE) and 𝓛(r) − 𝓛(0) > 0 for r = 0.5 e₁ at ω = 3 (affine tasks at the setting's
    d, n, L and its one σ²; the preset is S1's d = 5, n = 20, σ = 0.3).
    ``fault_fixed_direction=True`` draws tasks with v = e₁ and l ∈ [0, L] (f, −f no longer
    equally likely): the cross term is then non-zero."""
    d, n, L, s2 = setting.d, setting.n, setting.L, one_sigma2(setting)
    omega = 3.0
    rng = np.random.default_rng(seed)
    reps = 100_000 if quick else 400_000
    st = SoftmaxWindowSetting.isotropic(d=d, n=n, L=L, sigma2=s2)
    r = 0.5 * np.eye(d)[0]

    def draw(g: np.random.Generator, b: int) -> tuple[np.ndarray, ...]:
        p = sample_prompts(st, b, g)
        X, xq, f = p.X, p.xq, p.fq
        y = p.y
        if fault_fixed_direction:
            lv = L * g.uniform(0, 1, b)
            fall = lv[:, None] * np.concatenate([X[..., 0], xq[:, None, 0]], axis=1)
            y, f = fall[:, :-1] + p.eps, fall[:, -1]
        beta = softmax_weights(X, xq, omega)
        resid = np.sum(beta * y, axis=1) - f
        shift = np.einsum("bn,bn->b", beta, X @ r)
        return resid**2, 2 * shift * resid, shift**2

    def target(m: np.ndarray) -> list[float]:
        """The cross term's row asks se <= 2 % of its scale, 𝓛(0) (the first column's mean)."""
        return [0.0, MC_POWER * abs(float(m[0])), 0.0]

    base, cross, shift2 = powered_samples(draw, reps, rng, target)
    return [
        mc_difference_agreement(
            "Lemma B.1: cross term 2E[(sum b_i r^T x_i)(y_hat - f)] = 0",
            0.0,
            cross,
            scale=base.mean,
        ),
        ordering(
            "L(r) - L(0) = E(sum b_i r^T x_i)^2 > 0",
            0.0,
            shift2.mean,
            margin=STRICT_GAP,
        ),
    ]


def check_lemb_5_mc(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Lemma B.5 (Assumption B.4, affine class at the setting's d, n, L and its one σ²; the
    preset is S1's σ = 0.1): random symmetric perturbations M = ω*I + aG (G symmetric, ‖aG‖ a
    fraction of ω*) and negative-definite M never beat ω*I: paired MC 𝓛(M) − 𝓛(ω*I) ≥ −3 SE."""
    d, n, L, s2 = setting.d, setting.n, setting.L, one_sigma2(setting)
    rng = np.random.default_rng(seed)
    reps = 40_000 if quick else 200_000
    draws = 3 if quick else 10
    w, _ = optimal_scale_affine(d, n, L, s2)
    st = SoftmaxWindowSetting.isotropic(d=d, n=n, L=L, sigma2=s2)
    p = sample_prompts(st, reps, rng)

    def err(M: np.ndarray) -> np.ndarray:
        beta = softmax_weights(p.X, p.xq, M)
        return (np.sum(beta * p.y, axis=1) - p.fq) ** 2

    e0 = err(w * np.eye(d))
    out = []
    Ms = []
    for _ in range(draws):
        G = rng.standard_normal((d, d))
        G = (G + G.T) / 2
        Ms.append(w * np.eye(d) + 0.3 * w * G / np.linalg.norm(G, 2))
    Ms.append(-w * np.eye(d))
    for j, M in enumerate(Ms):
        diff = estimate_from_samples(err(M) - e0)
        out.append(
            ordering(
                f"L(M_{j}) - L(omega* I) >= -3 SE (M_{j} "
                f"{'negative definite' if j == len(Ms) - 1 else 'perturbed'})",
                -3 * diff.se,
                diff.mean,
                margin=0.0 if diff.se == 0 else 1e-12,
                details={"diff": diff.mean, "se": diff.se},
            )
        )
    return out


def check_lemb_5_mc_sigma(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_identity_on_ellipsoid: bool | None = None,
) -> list[Evidence]:
    """Σ-equivalence [derived]: with Σ = diag(1, …, d), x = Σ^{1/2}x̃ and tasks defined through
    Σ^{-1/2}x, 𝓛_Σ(ωΣ⁻¹) = 𝓛_I(ωI) at ω = 3 (MC vs quadrature, at the setting's d, n, L and
    its one σ²; the preset d = 3, n = 20, σ = 0.3 has Σ = diag(1, 2, 3)).
    ``fault_identity_on_ellipsoid=True`` uses M = ωI on the ellipsoid instead of ωΣ⁻¹."""
    d, n, L, s2 = setting.d, setting.n, setting.L, one_sigma2(setting)
    omega = 3.0
    rng = np.random.default_rng(seed)
    reps = 100_000 if quick else 400_000
    diag = tuple(float(k) for k in range(1, d + 1))
    st = SoftmaxWindowSetting(
        covariates=SphereCovariates(d=d, kind="ellipsoid", Sigma_diag=diag),
        tasks=LipschitzTasks(kind="affine", L=L),
        n=n,
        sigma2=s2,
    )
    M = omega * (np.eye(d) if fault_identity_on_ellipsoid else np.diag(1 / np.array(diag)))
    pred = affine_risk_quad(omega, d, n, L, s2)
    est = mc_risk(st, M, reps, rng, target_se=MC_POWER * abs(float(pred)))
    shown = ",".join(str(k) for k in range(1, d + 1))
    return [
        mc_agreement(
            f"L_Sigma(omega Sigma^-1) (MC) = L_I(omega I) (quadrature), Sigma = diag({shown})",
            pred,
            est,
        )
    ]


def check_corc_6_quad(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Corollary C.6 / Lemma C.2 on the exact affine signal S(ω) = A(ω)/(3d) (L = 1: the bound
    and the shapes are homogeneous in L²) at the setting's d and n: C.2's bound
    𝓛_signal ≤ 4L² on a grid ω ∈ [0.1, 100]; the constants of C.6's lower 1/(ω+1)² and upper
    1/ω² + ω^{d/2−1}/n + 1/n shapes fitted and reported (INFO).  The exact terms' slopes are
    :func:`check_corc_6_rate` (which rejects the paper's orth exponent)."""
    d, n = setting.d, setting.n
    grid = np.geomspace(0.1, 100.0, 12)
    S = np.array([signal_functional(window_terms(float(w), n, d).A, d) for w in grid])
    out = [
        ordering(
            "Lemma C.2: max_omega L_signal <= 4 L^2 (affine, L = 1)",
            float(S.max()),
            signal_bound_c2(1.0),
            margin=STRICT_GAP,
        )
    ]
    lo = float(np.min(S / c6_lower_shape(grid)))
    hi = float(np.max(S / np.array([c6_upper_shape(float(w), n, d) for w in grid])))
    out.append(
        informational(
            "C.6 fitted constants c (lower, 1/(omega+1)^2) and C (upper)",
            "unspecified",
            [lo, hi],
            details={"omega": grid, "S": S},
        )
    )
    return out


def check_corc_6_rate(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_orth_exponent: float | None = None
) -> list[Evidence]:
    """Corollary C.6's exact terms in their n → ∞ regime (n = 1e5, ω ∈ [10, 80]; generic points,
    declared fixed): rad ∝ ω⁻² (slope −2, d = 3) and orth ∝ ω^{(d−3)/2}/n (slope 1, d = 5) as
    RATE checks.  ``fault_orth_exponent`` expects another orth slope (the paper's shape
    ω^{d/2−1}: 1.5 at d = 5, an upper bound, not the rate)."""
    ws = np.array([10.0, 20.0, 40.0, 80.0])
    rad = [window_terms(float(w), 100_000, 3).rad for w in ws]
    out = [rate_agreement("rad(omega) slope -2 (d = 3, n = 1e5)", list(ws), rad, -2.0)]
    orth = [window_terms(float(w), 100_000, 5).orth for w in ws]
    e = 1.0 if fault_orth_exponent is None else float(fault_orth_exponent)
    out.append(
        rate_agreement(
            f"orth(omega) slope (d-3)/2 = 1 (d = 5, n = 1e5), expected {e:g}", list(ws), orth, e
        )
    )
    return out


def _relu_R(
    omega: float, n: int, d: int, reps: int, rng: np.random.Generator, *, linear: bool = False
) -> np.ndarray:
    X = sphere(rng, (reps, n), d)
    xq = sphere(rng, (reps,), d)
    v = sphere(rng, (reps,), d)
    beta = softmax_weights(X, xq, omega)
    h = np.einsum("bnd,bd->bn", X, v)
    hq = np.einsum("bd,bd->b", xq, v)
    if not linear:
        h, hq = np.maximum(h, 0), np.maximum(hq, 0)
    return (np.sum(beta * h, axis=1) - hq) ** 2


def check_lemc_8_mc(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_linear_task: bool | None = None
) -> list[Evidence]:
    """Lemma C.8 (any L-Lipschitz class): the ReLU signal (2L²/3)R(ω) decays with a slope between
    the paper's upper shape ω⁻¹ and the affine ω⁻² (d = 3, n = 1000, ω ∈ [6, 24]; reference: −1.52
    at n = 2000, ω ∈ [6, 34]);
    the constant of the upper shape 1/ω + 1/n is fitted and reported (INFO).
    The slope itself is asserted at −3/2 ± 0.15 [derived: the kink's bias² ~ h^{3/2}], a
    large-n regime statement: declared fixed at its generic point (d = 3, n = 1000).
    ``fault_linear_task=True`` drops the kink (h = vᵀx): the slope steepens toward −2."""
    rng = np.random.default_rng(seed)
    reps = 3_000 if quick else 12_000
    ws = np.array([6.0, 12.0, 24.0])
    R = np.array(
        [
            estimate_from_samples(
                _relu_R(float(w), 1000, 3, reps, rng, linear=bool(fault_linear_task))
            ).mean
            for w in ws
        ]
    )
    s = loglog_slope(ws, 2 / 3 * R)
    out = [
        ordering(
            "ReLU signal slope > -2 (steeper than affine is impossible)",
            -2.0,
            s,
            margin=RELU_SLOPE_GAP,
            details={"slope": s},
        ),
        ordering(
            "ReLU signal slope < -1 (the paper's upper shape omega^-1 is loose)",
            s,
            -1.0,
            margin=RELU_SLOPE_GAP,
        ),
    ]
    out.append(
        rate_agreement(
            "ReLU signal slope -3/2 (kink: bias^2 ~ h^{3/2}) [derived]",
            list(ws),
            list(2 / 3 * R),
            -1.5,
        )
    )
    C = float(np.max(2 / 3 * R / np.array([c8_upper_shape(float(w), 1000) for w in ws])))
    out.append(informational("C.8 fitted constant C of L^2 (1/omega + 1/n)", "unspecified", C))
    return out


def check_lemc_9_mc(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_ratio: float | None = None
) -> list[Evidence]:
    """Lemma C.9: 𝓛_signal(ω; F⁺_L) ≥ ½ 𝓛_signal(ω; F^aff_L), i.e. (2/3)R(ω) / (A(ω)/(3d)) ≥ ½
    − 5 SE on a grid ω ∈ {0.5, 6.7, 30} at the setting's d and n (the ratio is free of L; R by
    MC, A by quadrature; reference at d = 5, n = 20: 0.68 … 0.91).
    ``fault_ratio`` replaces the lemma's ½ (e.g. 1: the ReLU signal is not always larger)."""
    rng = np.random.default_rng(seed)
    reps = 100_000 if quick else 400_000
    bound = C9_RATIO if fault_ratio is None else float(fault_ratio)
    out = []
    d, n = setting.d, setting.n
    for w in (0.5, 6.7, 30.0):
        est = estimate_from_samples(_relu_R(w, n, d, reps, rng))
        S_aff = signal_functional(window_terms(w, n, d).A, d)
        ratio, se = 2 / 3 * est.mean / S_aff, 2 / 3 * est.se / S_aff
        out.append(
            ordering(
                f"C.9 ratio at omega = {w}: {ratio:.3f} >= {bound} - 5 SE",
                bound - Z_MC * se,
                ratio,
                margin=STRICT_GAP,
                details={"se": se},
            )
        )
    return out
