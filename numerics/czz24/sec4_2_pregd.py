"""[czz24] §4.2 Eq. (4.3) checks: the spectral closed form of pre-GD against the step-by-step
recursion, the one-step cube identity, the t → ∞ limits, the equivariances, gradient flow (ODE)
and the population limit (Monte Carlo at large n)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from numerics.czz24.contexts import random_context
from numerics.czz24.predictors import gd_path, ols_fit, pregd_path
from numerics.czz24.sampling import sample_sparse_prompts
from numerics.czz24.sec5_bounds import VALUE_RTOL
from numerics.montecarlo import mc_means
from numerics.ode import integrate
from numerics.testing import (
    MC_POWER,
    close_agreement,
    float_agreement,
    informational,
    mc_agreement,
    skipped,
    solver_agreement,
)
from theory.common.protocols import Evidence
from theory.czz24 import (
    excess_from_parts,
    gd_coefficient,
    minnorm_interpolator,
    one_step_prediction,
    pregd_coefficient,
    pregd_flow,
    pregd_gram,
    pregd_limit,
    pregd_population,
    rhat_cov,
    ridge_lmmse_lambda,
)
from theory.czz24.settings import Setting, SparseRegressionICL

__all__ = [
    "check_eq4_3_float",
    "check_eq4_3_float_shapes",
    "check_eq4_3_float_limits",
    "check_eq4_3_float_limits_shapes",
    "check_eq4_3_float_equivariance",
    "check_eq4_3_ode",
    "check_eq4_3_ode_cases",
    "check_eq4_3_mc",
    "eq4_3_hypotheses",
    "PREGD_RTOL",
    "check_eq4_3_float_generic",
]

#: float64 round-off of an exact population identity
EXACT_ATOL = 1e-15
#: the spec's 0.01 for one pre-GD step at large n (spec 000 V-R3)
ONE_STEP_MC_ATOL = 0.01
#: float64 of the one-step identity ŵ = η r̂³ (a few products)
ONE_STEP_RTOL = 1e-12
#: absolute floor of the same comparison
ONE_STEP_ATOL = 1e-14
#: float64 of an eigendecomposition against an iteration or a limit
CLOSED_FORM_RTOL = 1e-9
#: absolute floor of the same comparison
CLOSED_FORM_ATOL = 1e-12

#: Spectral closed form vs the recursion (spec V-R3: 1e-10 relative).
PREGD_RTOL = 1e-10
#: Limits at t = 1e5, η = 1/λ_max (spec V-R3: relative error < 1e-6).
LIMIT_RTOL = 1e-6


#: pre-GD / GD step η = ETA_SCALE/λ_max (< 2/λ_max: a stable step)
ETA_SCALE = 1.5
#: the generic shapes (d, n) of the Eq. (4.3) float check beside the setting's (n < d, n > d)
FLOAT_SHAPES = ((6, 4), (8, 20))


#: the steps t at which the spectral closed forms meet the recursions
FLOAT_STEPS = (0, 1, 5, 20, 50)


def _spectral_row(
    method: str,
    X: np.ndarray,
    y: np.ndarray,
    eta: float,
    off: int,
    path: Callable[..., np.ndarray],
    coefficient: Callable[..., np.ndarray],
) -> tuple[Evidence, np.ndarray]:
    """``method``'s spectral closed form (``coefficient``, at ``t + off``) against its recursion
    (``path``) at :data:`FLOAT_STEPS`; also returns the recursion's iterates."""
    (n, d), ts = X.shape, FLOAT_STEPS
    rec = path(X[None], y[None], eta, max(ts))[:, 0]
    cf = np.array([coefficient(X, y, eta, t + off) for t in ts])
    row = float_agreement(
        f"{method} spectral vs recursion (d={d}, n={n})",
        cf,
        rec[list(ts)],
        rtol=PREGD_RTOL,
        atol=PREGD_RTOL * np.abs(rec).max(),
    )
    return row, rec


def _float_rows(rng: np.random.Generator, d: int, n: int, off: int) -> list[Evidence]:
    """Spectral vs recursion and the one-step identity on one random context of shape (d, n)."""
    X, y, Xq = random_context(rng, d, n, 1)
    G, _, _ = pregd_gram(X, y)
    eta = ETA_SCALE / np.linalg.eigvalsh(G)[-1]
    pre, rec = _spectral_row("pre-GD", X, y, eta, off, pregd_path, pregd_coefficient)
    eg = ETA_SCALE / np.linalg.eigvalsh(X.T @ X / n)[-1]
    raw, _ = _spectral_row("raw GD", X, y, eg, off, gd_path, gd_coefficient)
    y1 = float(rec[1 + off if off < max(FLOAT_STEPS) else 1] @ Xq[0])
    one = float_agreement(
        f"one step cubes the correlations (d={d}, n={n})",
        y1,
        one_step_prediction(X, y, Xq[0], eta),
        rtol=ONE_STEP_RTOL,
        atol=ONE_STEP_ATOL,
    )
    return [pre, raw, one]


def check_eq4_3_float(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_steps_offset: int | None = None,
) -> list[Evidence]:
    """``w̃^t`` spectral = recursion (t ∈ {0, 1, 5, 20, 50}, η = 1.5/λ_max(Ĝ) < 2/λ_max) for
    pre-GD and raw GD, and the one-step identity ``ŷ¹ = η Σ r̂_j³ x_j`` to 1e-12, on a random
    context of the setting's shape (d, n) (an identity: any context).
    ``fault_steps_offset`` evaluates the closed form at ``t + offset`` (off-by-one control)."""
    rng = np.random.default_rng(seed)
    return _float_rows(rng, setting.d, setting.n, fault_steps_offset or 0)


def check_eq4_3_float_shapes(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_steps_offset: int | None = None,
) -> list[Evidence]:
    """:func:`check_eq4_3_float` on random contexts of the generic shapes (d, n) = (6, 4) (n < d)
    and (8, 20) (declared fixed); their stream follows the draw of the setting's context."""
    rng = np.random.default_rng(seed)
    random_context(rng, setting.d, setting.n, 1)  # the setting's context comes first
    out = []
    for d, n in FLOAT_SHAPES:
        out += _float_rows(rng, d, n, fault_steps_offset or 0)
    return out


#: the iteration count standing in for t → ∞ (at η = 1/λ_max)
LIMIT_STEPS = 100_000
#: the generic shapes (d, n) of the limits beside the setting's: OLS branch, then min-norm branch
LIMIT_SHAPES = ((4, 30), (5, 3), (6, 2))


def _limit_rows(rng: np.random.Generator, d: int, n: int) -> list[Evidence]:
    """The t → ∞ limit rows of one random context of shape (d, n): pre-GD → OLS for n ≥ d + 2;
    → the r̂-weighted min-norm interpolator (which fits the context) for n ≤ d − 2, where raw GD →
    the min-ℓ2 interpolator."""
    t = LIMIT_STEPS
    X, y, _ = random_context(rng, d, n, 1)
    if n >= d + 2:
        G, _, _ = pregd_gram(X, y)
        w = pregd_coefficient(X, y, 1.0 / np.linalg.eigvalsh(G)[-1], t)
        ols = ols_fit(X[None], y[None])[0]
        return [
            float_agreement(
                f"pre-GD(t=1e5) = OLS (d={d}, n={n})",
                w,
                ols,
                rtol=LIMIT_RTOL,
                atol=LIMIT_RTOL * np.abs(ols).max(),
            )
        ]
    G, _, r = pregd_gram(X, y)
    w = pregd_coefficient(X, y, 1.0 / np.linalg.eigvalsh(G)[-1], t)
    lim = pregd_limit(X, y)
    S = X.T @ X / n
    wg = gd_coefficient(X, y, 1.0 / np.linalg.eigvalsh(S)[-1], t)
    mn = ols_fit(X[None], y[None])[0]
    return [
        float_agreement(
            f"pre-GD(t=1e5) = r̂-weighted min-norm (d={d}, n={n})",
            w,
            lim,
            rtol=LIMIT_RTOL,
            atol=LIMIT_RTOL * np.abs(lim).max(),
        ),
        float_agreement(
            f"weighted interpolator fits the context (d={d}, n={n})",
            X @ lim,
            y,
            rtol=LIMIT_RTOL,
            atol=LIMIT_RTOL,
        ),
        float_agreement(
            f"raw GD(t=1e5) = min-ℓ2 interpolator (d={d}, n={n})",
            wg,
            mn,
            rtol=LIMIT_RTOL,
            atol=LIMIT_RTOL * np.abs(mn).max(),
        ),
        float_agreement(
            f"min-ℓ2 interpolator (theory vs pinv) (d={d}, n={n})",
            minnorm_interpolator(X, y),
            mn,
            rtol=CLOSED_FORM_RTOL,
            atol=CLOSED_FORM_ATOL,
        ),
    ]


def check_eq4_3_float_limits(
    setting: Setting, *, quick: bool = True, seed: int = 0
) -> list[Evidence]:
    """t → ∞ at η = 1/λ_max on a random context of the setting's shape (d, n): pre-GD → OLS
    (n ≥ d + 2), → the r̂-weighted min-norm interpolator (n ≤ d − 2; raw GD → the min-ℓ2
    interpolator, numpy ``pinv``), relative error < 1e-6; skipped at |n − d| ≤ 1 (neither
    branch: Ĝ is nearly singular there and 1e5 steps do not reach the limit)."""
    d, n = setting.d, setting.n
    if abs(n - d) <= 1:
        row = informational(f"t → ∞ limits of pre-GD (d={d}, n={n})", None, None)
        why = f"neither limit branch applies at n = {n}, d = {d} (needs n ≥ d + 2 or n ≤ d − 2)"
        return [skipped(row, why=why)]
    return _limit_rows(np.random.default_rng(seed), d, n)


def check_eq4_3_float_limits_shapes(
    setting: Setting, *, quick: bool = True, seed: int = 0
) -> list[Evidence]:
    """:func:`check_eq4_3_float_limits` on random contexts of the generic shapes (d, n) = (4, 30)
    (OLS branch), (5, 3), (6, 2) (min-norm branch) (declared fixed: both branches are checked
    whatever the setting); their stream follows the draw of the setting's context."""
    rng = np.random.default_rng(seed)
    random_context(rng, setting.d, setting.n, 1)  # the setting's context comes first
    out = []
    for d, n in LIMIT_SHAPES:
        out += _limit_rows(rng, d, n)
    return out


def check_eq4_3_float_equivariance(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_label_exponent: float | None = None,
) -> list[Evidence]:
    """Equivariances [derived] on random contexts of the setting's shape (d, n):
    ``ŵ(X, cy; η/c²) = cŵ(X, y; η)``; coordinate permutations permute ŵ; a feature sign flip
    flips ŵ_j; permuting examples changes nothing (to 1e-9).
    ``fault_label_exponent`` replaces the step rescaling ``η/c²`` by ``η/c^p``."""
    d, n = setting.d, setting.n
    rng = np.random.default_rng(seed)
    p = 2.0 if fault_label_exponent is None else fault_label_exponent
    out = []
    for c in (-3.0, 0.4, 7.5):
        X, y, _ = random_context(rng, d, n, 1)
        eta = 0.7 / np.linalg.eigvalsh(pregd_gram(X, y)[0])[-1]
        base = pregd_coefficient(X, y, eta, 7)
        out.append(
            float_agreement(
                f"label scaling c = {c}",
                pregd_coefficient(X, c * y, eta / abs(c) ** p, 7),
                c * base,
                rtol=CLOSED_FORM_RTOL,
                atol=CLOSED_FORM_ATOL,
            )
        )
        perm = rng.permutation(d)
        out.append(
            float_agreement(
                f"coordinate permutation (c = {c} case)",
                pregd_coefficient(X[:, perm], y, eta, 7),
                base[perm],
                rtol=CLOSED_FORM_RTOL,
                atol=CLOSED_FORM_ATOL,
            )
        )
        flip = np.ones(d)
        flip[rng.integers(d)] = -1.0
        out.append(
            float_agreement(
                "feature sign flip",
                pregd_coefficient(X * flip, y, eta, 7),
                base * flip,
                rtol=CLOSED_FORM_RTOL,
                atol=CLOSED_FORM_ATOL,
            )
        )
        ex = rng.permutation(n)
        out.append(
            float_agreement(
                "example permutation",
                pregd_coefficient(X[ex], y[ex], eta, 7),
                base,
                rtol=CLOSED_FORM_RTOL,
                atol=CLOSED_FORM_ATOL,
            )
        )
    return out


def _flow_rows(rng: np.random.Generator, d: int, n: int) -> list[Evidence]:
    """Gradient flow of pre-GD on one random context of shape (d, n) against its closed form."""
    X, y, _ = random_context(rng, d, n, 1)
    G, b, _ = pregd_gram(X, y)
    taus = (0.1, 1.0, 10.0)
    tr = integrate(lambda _t, w, G=G, b=b: -(G @ w - b), np.zeros(d), (0.0, max(taus)))
    return [
        solver_agreement(f"pre-GD flow at τ = {tau} (d={d}, n={n})", tr(tau), pregd_flow(X, y, tau))
        for tau in taus
    ]


def check_eq4_3_ode(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Gradient flow ``dw̃/dτ = −(Ĝw̃ − b̃)`` integrated (DOP853, rtol 1e-10) against
    ``(I − e^{−τĜ})Ĝ⁺b̃`` at τ ∈ {0.1, 1, 10}, on a random context of the setting's shape (d, n)."""
    return _flow_rows(np.random.default_rng(seed), setting.d, setting.n)


def check_eq4_3_ode_cases(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """:func:`check_eq4_3_ode` on a random context of the generic shape (d, n) = (6, 3) (n < d:
    singular Ĝ), and the population flow ``ŵ_j(τ) = w*_j(1 − e^{−τ r_j²Σ_jj})`` at
    Σ = diag(0.5, 1, 2), w* = (0.8, −0.5, 0) (declared fixed: generic points); the stream follows
    the draw of the setting's context."""
    rng = np.random.default_rng(seed)
    random_context(rng, setting.d, setting.n, 1)  # the setting's context comes first
    out = _flow_rows(rng, 6, 3)
    Sd = np.array([0.5, 1.0, 2.0])
    w = np.array([0.8, -0.5, 0.0])
    r = Sd * w
    tr = integrate(lambda _t, v: -(r**2 * Sd * v - r**2), np.zeros(3), (0.0, 10.0))
    out.append(
        solver_agreement(
            "population flow ŵ = w*(1 − e^{−τ r²Σ})",
            r * tr(10.0),
            w * (1 - np.exp(-10.0 * r**2 * Sd)),
        )
    )
    return out


def check_eq4_3_mc(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_cov_scale: float | None = None,
) -> list[Evidence]:
    """Population limit at the setting's d, s, σ² and n (--full: 2.5 n; the preset
    n = 8000, full 20000), Σ = I, ±1/√s prior (the result's hypotheses): one pre-GD step with
    η = s is within 0.01 of w* (its population limit is exactly w*), while one raw GD step (η = 1,
    ŵ = r̂) has ``E‖r̂ − w*‖² = Tr Cov(r̂) = [d(1 + σ²) + 1]/n`` (Isserlis), checked by MC.
    ``fault_cov_scale`` rescales the predicted covariance (negative control)."""
    d, s, sigma2 = setting.d, setting.s, setting.sigma2
    n = setting.n if quick else int(2.5 * setting.n)
    st = SparseRegressionICL.isotropic(d=d, s=s, n=n, sigma2=sigma2)
    trials = 800 if quick else 2000  # se/scale ≈ 0.013 (400 gave 0.018, at the 0.02 power cut)

    def draw(rng: np.random.Generator, B: int) -> np.ndarray:
        p = sample_sparse_prompts(st, B, rng=rng)
        r = np.einsum("bni,bn->bi", p.X, p.y) / n
        pre = r * (float(s) * r * r)  # one step: ŵ = r̂ ⊙ (η r̂²)
        return np.column_stack([np.sum((r - p.w) ** 2, axis=1), np.sum((pre - p.w) ** 2, axis=1)])

    w1 = np.zeros(d)
    w1[:s] = 1 / np.sqrt(s)
    pred = float(np.trace(rhat_cov(np.eye(d), w1, sigma2, n))) * (fault_cov_scale or 1.0)
    # power: the raw step's se ≤ 2 % of its prediction, the sample raised up to 4× where it
    # falls short; the pre-GD step's row is a 0.01 band (no power target)
    raw, pre = mc_means(
        draw,
        trials,
        rng=np.random.default_rng(seed),
        batch=25,
        target_se=[MC_POWER * abs(pred), 0.0],
    )
    lim = pregd_population(w1, np.ones(d), float(s), 1)
    return [
        mc_agreement("one raw GD step: E‖r̂ − w*‖² = Tr Cov(r̂)", pred, raw),
        close_agreement(
            "population limit of one pre-GD step (η = s) is w*",
            float(np.sum((lim - w1) ** 2)),
            0.0,
            kind="EXACT",
            atol=EXACT_ATOL,
        ),
        _one_step_row(n, pre),
    ]


#: the least n at which spec V-R3's "one pre-GD step within 0.01 of w*" is claimed (its quick n)
ONE_STEP_MIN_N = 8000


def _one_step_row(n: int, pre: Any) -> Evidence:
    """§4.2's large-n claim: one pre-GD step within 0.01 of w* (skipped below n = 8000,
    where the claim is not made: the step's finite-n error is of order d/n)."""
    row = close_agreement(
        f"one pre-GD step at n = {n} within 0.01 of w*",
        pre.mean,
        0.0,
        kind="MC",
        atol=ONE_STEP_MC_ATOL,
    )
    if n < ONE_STEP_MIN_N:
        why = f"the 0.01 band is a large-n claim (n ≥ {ONE_STEP_MIN_N}); here n = {n}"
        return skipped(dataclasses.replace(row, passed=True), why=why)
    return row


def eq4_3_hypotheses(setting: Setting) -> None:
    """Eq. (4.3)'s population limit (:func:`check_eq4_3_mc`) is Thm 5.3's: Σ = I and the ±1/√s
    prior, so that one pre-GD step with η = s has the population limit w*.

    Raises ``ValueError`` naming the value and the hypothesis:

    >>> from theory.czz24.settings import SparseRegressionICL
    >>> eq4_3_hypotheses(SparseRegressionICL.isotropic(d=4, s=2, n=12, sigma2=0.25))  # passes
    >>> eq4_3_hypotheses(SparseRegressionICL.isotropic(d=4, s=2, n=12, sigma2=0.25, prior="gauss"))
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: prior='gauss': Eq. (4.3)'s population limit w* of one step η = s needs the ±1/√s ...
    """
    if setting.prior != "sign":
        raise ValueError(
            f"prior={setting.prior!r}: Eq. (4.3)'s population limit w* of one step η = s needs "
            "the ±1/√s prior ([czz24] Thm 5.3), prior=sign"
        )
    diag = setting.Sigma_diag
    if setting.zeta != 0.0 or diag is None or any(v != 1.0 for v in diag):
        raise ValueError(
            f"Sigma_diag={setting.Sigma_diag!r}, zeta={setting.zeta!r}: Eq. (4.3)'s population "
            "limit is checked at Σ = I ([czz24] Thm 5.3)"
        )


#: Relative tolerance of the scalar search for the ridge penalty minimising the conditional risk.
LAMBDA_SEARCH_RTOL = 1e-5


def check_eq4_3_float_generic(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_lambda_fn: Callable[..., Any] | None = None,
    fault_parts_fn: Callable[..., Any] | None = None,
    fault_population_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """Three values where the default checks only ever used 0 / 1 (``tests/test_generic_points``):

    * :func:`ridge_lmmse_lambda` at α² = 2.3 against the minimiser of ridge's conditional Bayes
      risk ``λ²(α²/d)Tr(A⁻²) + (σ²/n)Tr(A⁻²Σ̂)``, ``A = Σ̂ + λI`` (numpy, scalar search on a
      random X; the LMMSE penalty is the minimiser for every X);
    * :func:`excess_from_parts` at a non-identity Σ against ``uᵀΣu``, ``u = r̂ ⊙ (bias + noise)``
      (no square root);
    * :func:`pregd_population` at Σ_jj ∈ (0.6, 1.4, 2.1) and t ∈ {3, 7} against t steps of the
      population recursion ``v ← v − η(RΣR v − RΣ w*)``, ``ŵ = R v``, ``R = diag(Σ w*)``.
    """
    from scipy.optimize import minimize_scalar

    rng = np.random.default_rng(seed)
    out = []
    # ridge λ*
    d, n, sigma2, alpha2 = 5, 9, 0.4, 2.3
    X = rng.standard_normal((n, d))
    S_hat = X.T @ X / n

    def cond_risk(log_lam: float) -> float:
        lam = math.exp(log_lam)
        Ainv = np.linalg.inv(S_hat + lam * np.eye(d))
        A2 = Ainv @ Ainv
        return float(lam**2 * alpha2 / d * np.trace(A2) + sigma2 / n * np.trace(A2 @ S_hat))

    res = minimize_scalar(cond_risk, bounds=(-8.0, 4.0), method="bounded", options={"xatol": 1e-9})
    lam_star = math.exp(float(getattr(res, "x")))  # noqa: B009 (scipy stubs)
    f = fault_lambda_fn or ridge_lmmse_lambda
    out.append(
        float_agreement(
            "ridge λ* = σ²d/(nα²) at α² = 2.3 = argmin of the conditional Bayes risk",
            float(f(d, n, sigma2, alpha2)),
            lam_star,
            rtol=LAMBDA_SEARCH_RTOL,
        )
    )
    # excess_from_parts at a generic Σ
    M = rng.standard_normal((4, 4))
    Sigma = M @ M.T / 4 + 0.5 * np.eye(4)
    parts = {
        "rhat": rng.standard_normal(4),
        "bias": rng.standard_normal(4),
        "noise": rng.standard_normal(4),
    }
    g = fault_parts_fn or excess_from_parts
    val = g(parts, Sigma)
    u = parts["rhat"] * (parts["bias"] + parts["noise"])
    ub = parts["rhat"] * parts["bias"]
    out.append(
        float_agreement(
            "excess_from_parts at a non-identity Σ: E = uᵀΣu, Bias = u_bᵀΣu_b",
            [val["excess"], val["bias"]],
            [float(u @ Sigma @ u), float(ub @ Sigma @ ub)],
            rtol=VALUE_RTOL,
        )
    )
    # pregd_population at generic Σ_jj and t
    h = fault_population_fn or pregd_population
    w = np.array([0.7, -0.45, 0.3])
    S = np.array([0.6, 1.4, 2.1])
    r = S * w
    eta = 0.8
    for t in (3, 7):
        v = np.zeros(3)
        for _ in range(t):
            v = v - eta * (r * S * r * v - r * S * w)
        out.append(
            float_agreement(
                f"pregd_population at Σ_jj = (0.6, 1.4, 2.1), t = {t} = t population pre-GD steps",
                np.asarray(h(w, S, eta, t)),
                r * v,
                rtol=VALUE_RTOL,
                atol=VALUE_RTOL,
            )
        )
    return out
