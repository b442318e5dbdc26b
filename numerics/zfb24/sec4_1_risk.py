"""[zfb24] §4.1 checks: Theorem 5 (MC on a nonlinear task, symbolic structure) and Corollary 6
(reference values, bounds, MC of R(M, N), rates).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import sympy as sp

from numerics.montecarlo import mc_mean, mc_means
from numerics.sampling import check_rng
from numerics.testing import (
    FLOAT_RTOL,
    MC_POWER,
    close_agreement,
    exact_agreement,
    mc_agreement,
    ordering,
    rate_agreement,
)
from numerics.zfb24.evidence import spec_ref
from numerics.zfb24.faults import GammaFn, gamma_or_fault
from numerics.zfb24.figures import compute_risk_rates
from numerics.zfb24.predictors import predictor_predict
from numerics.zfb24.sampling import (
    SPEC_LAMBDA,
    sample_quadratic_task,
    setting_Lambda,
    spec_Lambda,
)
from theory import zfb24 as T
from theory.common.protocols import Evidence
from theory.zfb24.settings import Setting

__all__ = [
    "check_thm5_mc",
    "check_thm5_symbolic",
    "check_cor6_float",
    "check_cor6_mc",
    "check_cor6_rate",
    "check_cor6_float_threshold",
    "check_cor6_float_threshold_generic",
    "check_thm5_float_generic_values",
]

#: Corollary 6's bounds are strict on the grid: the smallest gap must exceed float64 rounding of
#: O(1) risks by a wide margin.
STRICT_BOUND_MARGIN = 1e-6
#: R − η ≤ ε at the threshold M: an inequality of exact closed forms, up to float64 rounding.
THRESHOLD_MARGIN = 1e-9
#: Closed forms against the same expressions written out by hand (float64, a few matrix products
#: and an inverse of a well-conditioned Γ): the float evaluator's tolerance times 100.
GENERIC_RTOL = 100 * FLOAT_RTOL


#: The quadratic coefficient of Theorem 5's nonlinear task, spec T-R9:
#: y = ⟨w₀,x⟩ + ½(x₁² − Λ₁₁) + sε.
THM5_TASK_COEF = 0.5


def _thm5_config() -> tuple[np.ndarray, np.ndarray, float]:
    A = np.random.default_rng(2).standard_normal((3, 3))
    return A @ A.T / 3 + 0.5 * np.eye(3), np.array([1.0, -0.5, 0.3]), 0.16


def check_thm5_mc(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_gamma_fn: GammaFn | None = None,
    fault_p_fn: GammaFn | None = None,
    fault_task_coef: float | None = None,
) -> list[Evidence]:
    """Theorem 5 on our reference nonlinear task (d = 3, N = 10, M = 5): MC of the risk of the
    trained predictor x_qᵀΓ⁻¹ĝ (applied to sampled prompts) vs the closed form; also at 8M.  The
    setting gives N and M; Λ, w₀ and the noise are our reference task (d = 3).

    The theorem's inputs for this task (``quadratic_task_moments``: a, Σ = Cov(xy) and the best
    linear error) are checked first by MC of single (x, y) draws, at a generic direction v:
    E[y vᵀx] = vᵀΛa, E[(y vᵀx − vᵀΛa)²] = vᵀΣv, E[(y − aᵀx)²] = best linear error.
    ``fault_task_coef``: the moments of the task with this quadratic coefficient in place of the
    sampled one (½)."""
    N, M = setting.N, setting.M
    rng = np.random.default_rng(seed)
    L, w0, s2 = _thm5_config()
    P = (
        np.linalg.inv(T.gamma_fn(L, N))
        if fault_p_fn is None
        else np.asarray(fault_p_fn(L, N), dtype=float)
    )
    coef = THM5_TASK_COEF if fault_task_coef is None else float(fault_task_coef)
    Sig, a, best = T.quadratic_task_moments(L, w0, s2, coef=coef)
    n = 800_000 if quick else 8_000_000
    v = np.array([0.7, -1.1, 0.4])
    La_v = float(v @ L @ a)

    def draw_moments(r: np.random.Generator, b: int) -> np.ndarray:
        X, y, _, _ = sample_quadratic_task(r, b, 1, L, w0, s2, coef=THM5_TASK_COEF)
        x, yy = X[:, 0], y[:, 0]
        yv = yy * (x @ v)
        return np.stack([yv, (yv - La_v) ** 2, (yy - x @ a) ** 2], axis=1)

    sig_v = float(v @ Sig @ v)
    # power: se ≤ 2 % of each row's scale (raised up to 4× where the first sample misses it)
    e_lin, e_sig, e_best = mc_means(
        draw_moments,
        n,
        rng=rng,
        target_se=[MC_POWER * math.sqrt(sig_v), MC_POWER * sig_v, MC_POWER * best],
    )
    out = [
        mc_agreement("Theorem 5 input: E[y vᵀx] = vᵀΛa", La_v, e_lin, scale=math.sqrt(sig_v)),
        mc_agreement("Theorem 5 input: Var(y vᵀx) = vᵀΣv", sig_v, e_sig),
        mc_agreement("Theorem 5 input: E[(y − aᵀx)²] = best linear error", best, e_best),
    ]
    for m in (M, 8 * M):

        def draw(r: np.random.Generator, b: int, m: int = m) -> np.ndarray:
            X, y, xq, yq = sample_quadratic_task(r, b, m, L, w0, s2)
            return (predictor_predict(P, X, y, xq) - yq) ** 2

        pred = T.theorem5_risk(L, N, m, Sig, a, best, Gamma=gamma_or_fault(fault_gamma_fn, L, N))
        est = mc_mean(draw, n if m == M else n // 4, rng=rng, target_se=MC_POWER * abs(float(pred)))
        out.append(
            mc_agreement(
                f"Theorem 5 risk, nonlinear task, N={N}, M={m}",
                float(pred),
                est,
                details={"best_linear": best},
            )
        )
    return out


def check_thm5_symbolic(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Theorem 5 structure (EXACT, d = 2 diagonal symbolic Λ): noiseless specialisation = the §4.1
    display; bias bracket = aᵀΓ⁻²Λ(Λ+trΛI)²a/N²; R(N,N) = 2L*; isotropic R(M,N) (d = 3)."""
    l1, l2 = sp.symbols("l1 l2", positive=True)
    L = sp.diag(l1, l2)
    N, M = sp.symbols("N M", positive=True)
    w = sp.Matrix(sp.symbols("w1 w2", real=True))
    out = [
        exact_agreement(
            "Theorem 5 with Σ = ‖w‖²_ΛΛ + ΛwwᵀΛ = noiseless display",
            T.theorem5_risk(L, N, M, T.noiseless_Sigma(w, L), w, 0),
            T.noiseless_risk(w, L, N, M),
        )
    ]
    G = T.gamma(L, N)
    Gi = G.inv()
    K = L + L.trace() * sp.eye(2)
    out.append(
        exact_agreement(
            "1/N² bracket = aᵀΓ⁻²Λ(Λ+trΛI)²a/N²",
            T.theorem5_excess(L, N, sp.oo, sp.zeros(2, 2), w),
            (w.T * Gi * Gi * L * K * K * w)[0, 0] / N**2,
        )
    )
    out.append(exact_agreement("R(N, N) = 2L*", T.prior_risk(L, N, N), 2 * T.optimal_loss(L, N)))
    out.append(
        exact_agreement(
            "isotropic R(M,N) = d(d+1)[N²/M + d + 1]/(N+d+1)², d=3",
            T.prior_risk(sp.eye(3), N, M),
            T.prior_risk_isotropic(3, N, M),
        )
    )
    return out


def check_cor6_float(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Corollary 6 (closed forms): our reference values of R(M,N), R(N,N) = 2L*, the
    orderings R ≤ tight bound ≤ κ bound (R and the κ bound: the figure's
    :func:`numerics.zfb24.figures.compute_risk_rates` on this check's grid), and the
    M-threshold ``R − η ≤ ε``."""
    L = spec_Lambda()
    out = []
    refs = {1: "14.13231", 4: "3.750524", 16: "1.155077", 64: "0.506216", math.inf: "0.289929"}
    for M, ref in refs.items():
        out.append(
            spec_ref(
                f"reference R(M={M}, N=16) at Λ = diag(0.5, 1, 1.5, 2) (Cor. 6)",
                float(T.prior_risk(L, 16, M)),
                ref,
                where="Theorem 5, eq. (16), averaged over w ~ N(0, I) (derived)",
            )
        )
    for M, ref in {5: "3.816568", 20: "1.153846", 80: "0.488166"}.items():
        out.append(
            spec_ref(
                f"reference R(M={M}, N=20) at Λ = I, d=5 (Cor. 6)",
                float(T.prior_risk(np.eye(5), 20, M)),
                ref,
                where="Theorem 5, eq. (16), averaged over w ~ N(0, I) (derived)",
            )
        )
    out.append(
        spec_ref(
            "reference tight bound at M = N = 16, Λ = diag(0.5, 1, 1.5, 2) (Cor. 6)",
            T.tight_bound(L, 16, 16),
            "2.145182",
            where="§4.1, the bound before Corollary 6, averaged over w ~ N(0, I)",
        )
    )
    out.append(
        spec_ref(
            "reference κ bound at M = N = 16, Λ = diag(0.5, 1, 1.5, 2) (Cor. 6)",
            T.cor6_bound(L, 16, 16),
            "2.988281",
            where="Corollary 6",
        )
    )
    out.append(
        spec_ref(
            "reference η at N = 16, Λ = diag(0.5, 1, 1.5, 2) (Cor. 6)",
            T.cor6_eta(L, 16),
            "1.42578",
            where="Corollary 6",
        )
    )
    out.append(
        close_agreement(
            "R(N,N) = 2L* (N = 16)",
            float(T.prior_risk(L, 16, 16)),
            2 * T.optimal_loss_fn(L, 16),
            kind="FLOAT",
            atol=0.0,
            rtol=FLOAT_RTOL,
        )
    )
    # R(M, N) and the κ bound: the figure's curves (compute_risk_rates) on this check's grid
    grid_Ns, grid_Ms = (4, 16, 64, 256), (1, 4, 16, 64, 256, 1024)
    fig = compute_risk_rates(
        quick=quick,
        seed=seed,
        Ns=grid_Ns,
        Ms=np.array(grid_Ms),
        mc_Ms=(),
        floor_Ns=np.array([], dtype=int),
    )
    gaps_a, gaps_b = [], []
    for N in grid_Ns:
        cv = fig["curves"][N]
        for M, R, kappa in zip(grid_Ms, cv["R"], cv["bound"], strict=True):
            tb = T.tight_bound(L, N, M)
            gaps_a.append(tb - float(R))
            gaps_b.append(float(kappa) - tb)
    out.append(
        ordering("R(M,N) < tight bound (grid)", 0.0, min(gaps_a), margin=STRICT_BOUND_MARGIN)
    )
    out.append(
        ordering("tight bound < κ bound (grid)", 0.0, min(gaps_b), margin=STRICT_BOUND_MARGIN)
    )
    for eps in (0.5, 0.1):
        Mth = T.cor6_M_threshold(L, eps)
        for N in (16, 64):
            R = float(T.prior_risk(L, N, Mth))
            out.append(
                ordering(
                    f"Corollary 6: R − η ≤ ε at M = {Mth} (ε={eps}, N={N})",
                    R - T.cor6_eta(L, N),
                    eps,
                    margin=THRESHOLD_MARGIN,
                )
            )
    return out


def check_cor6_mc(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_p_fn: GammaFn | None = None
) -> list[Evidence]:
    """MC of R(M, N) (w ~ N(0, I), noiseless) for the predictor x_qᵀΓ⁻¹ĝ at M ∈ {1, 4, 16, 64}:
    the figure's numbers (:func:`numerics.zfb24.figures.compute_risk_rates`) at this check's
    sample sizes; the setting gives N (Λ is the figure's, our reference)."""
    N = setting.N
    Ms = (1, 4, 16, 64)
    sizes = tuple(n if quick else 10 * n for n in (200_000, 150_000, 100_000, 50_000))
    r = compute_risk_rates(
        quick=quick,
        seed=seed,
        Ns=(),
        Ms=np.array(Ms),
        mc_Ms=Ms,
        mc_N=N,
        mc_n=sizes,
        floor_Ns=np.array([], dtype=int),
        p_fn=fault_p_fn,
        rng=np.random.default_rng(seed),
        # power: se ≤ 2 % of the risk; the figure knows its scale only after sampling
        mc_target_se=lambda m: MC_POWER * abs(m),
    )
    return [
        mc_agreement(f"R(M={M}, N={N}) closed form vs MC", float(R), est)
        for M, R, est in zip(Ms, r["mc_R"], r["mc"], strict=True)
    ]


def check_cor6_rate(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Rates: MC risk at N = 10⁴ has log-log slope −1 in M (floor negligible); the finite-N floor
    (MC of the M → ∞ predictor x_qᵀΓ⁻¹Λw) has slope −2 in N ∈ [50, 5000].  The numbers are the
    figure's (:func:`numerics.zfb24.figures.compute_risk_rates`) on this check's grids."""
    Ms = [4, 8, 16, 32, 64]
    Ns = [50, 150, 500, 1500, 5000]
    r = compute_risk_rates(
        quick=quick,
        seed=seed,
        Ns=(),
        Ms=np.array(Ms),
        mc_Ms=tuple(Ms),
        mc_N=10_000,
        mc_n=100_000 if quick else 1_000_000,
        floor_Ns=np.array(Ns),
        floor_mc_n=200_000 if quick else 2_000_000,
        rng=np.random.default_rng(seed),
    )
    Rs = [e.mean for e in r["mc"]]
    out = [rate_agreement("R(M, N=10⁴) ∝ M^(−1) (MC)", Ms, Rs, -1.0)]
    floors = [e.mean for e in r["floor_mc"]]
    out.append(rate_agreement("floor R(∞, N) ∝ N^(−2) (MC of the M→∞ predictor)", Ns, floors, -2.0))
    return out


def check_cor6_float_threshold(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_threshold_fn: Callable[[np.ndarray, float], int] | None = None,
) -> list[Evidence]:
    """Corollary 6's test-length threshold as the *smallest* M that works (a threshold pinned, not
    only "holds"), at the setting's Λ = diag(spectrum) and N (ε = 0.37, 0.13, not round): (i)
    ``cor6_M_threshold`` equals ``⌈(d+1)trΛ/ε⌉`` written out again from Λ's eigenvalues (EXACT);
    (ii) at M = threshold the κ bound's M-term ``cor6_bound − η ≤ ε`` and (iii) at M = threshold
    − 1 it is ``> ε`` (ORDER).  ``fault_threshold_fn(Λ, ε)`` replaces the threshold (negative
    control: d in place of d+1)."""
    spec = SPEC_LAMBDA if setting.spectrum is None else tuple(setting.spectrum)
    tag = "Λ = diag(0.5, 1, 1.5, 2)" if spec == SPEC_LAMBDA else f"setting Λ = diag{spec}"
    L = spec_Lambda() if spec == SPEC_LAMBDA else np.diag(np.asarray(spec, dtype=float))
    return _cor6_threshold_rows(tag, L, setting.N, fault_threshold_fn)


def check_cor6_float_threshold_generic(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_threshold_fn: Callable[[np.ndarray, float], int] | None = None,
) -> list[Evidence]:
    """:func:`check_cor6_float_threshold` at a generic point: a random non-diagonal Λ (d = 3)
    drawn from the seed, N of the setting (fixed: a generic point, not a setting)."""
    rng = check_rng(
        seed, "numerics.lsa_flow.checks_risk:check_cor6_threshold_float"
    )  # its first name: same stream
    L = setting_Lambda(setting, rng)
    return _cor6_threshold_rows(f"random Λ (d={setting.d})", L, setting.N, fault_threshold_fn)


def _cor6_threshold_rows(
    tag: str,
    L: np.ndarray,
    N: int,
    fault_threshold_fn: Callable[[np.ndarray, float], int] | None,
) -> list[Evidence]:
    out: list[Evidence] = []
    lam = np.linalg.eigvalsh(L)
    d = len(lam)
    eta = T.cor6_eta(L, N)
    for eps in (0.37, 0.13):
        Mth = (
            T.cor6_M_threshold(L, eps)
            if fault_threshold_fn is None
            else int(fault_threshold_fn(L, eps))
        )
        out.append(
            exact_agreement(
                f"{tag}: Cor. 6 threshold = ⌈(d+1)Σλ/ε⌉ (ε={eps})",
                Mth,
                math.ceil((d + 1) * float(np.sum(lam)) / eps),
            )
        )
        out.append(
            ordering(
                f"{tag}: κ bound − η ≤ ε at M = threshold = {Mth} (ε={eps}, N={N})",
                T.cor6_bound(L, N, Mth) - eta,
                eps,
                margin=THRESHOLD_MARGIN,
            )
        )
        out.append(
            ordering(
                f"{tag}: κ bound − η > ε at M = threshold − 1 = {Mth - 1} (smallest M)",
                eps,
                T.cor6_bound(L, N, Mth - 1) - eta,
                margin=THRESHOLD_MARGIN,
            )
        )
    return out


def check_thm5_float_generic_values(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_gamma_fn: GammaFn | None = None
) -> list[Evidence]:
    """Generic-point values of the objects the other checks evaluate only at Λ = I, P = I
    or Σ = 0: at a random non-diagonal Λ (d = 3), N = 7, a random P, a random PSD Σ, a random a,
    M = 5, (i) ``optimal_loss`` = ½[trΛ − tr(Λ²Γ⁻¹)] (Corollary 16), (ii) ``shift_risk(P, Λ, Λ, N)``
    = 2·``loss_of_P(P, Λ, N)`` ([derived] identity), (iii) ``theorem5_excess`` = eq. (16) written
    out, tr(ΣΓ⁻²Λ)/M + aᵀΓ⁻²Λ(Λ + trΛI)²a/N², with Γ = (N+1)/N·Λ + trΛ/N·I built here.
    ``fault_gamma_fn`` replaces the hand-built Γ (negative control: N → N+1)."""
    rng = check_rng(
        seed, "numerics.lsa_flow.checks_risk:check_generic_values_float"
    )  # its first name: same stream
    N, d, M = setting.N, setting.d, 5  # M = 5: a test length unlike N (generic)
    L = setting_Lambda(setting, rng)
    P = rng.standard_normal((d, d))
    B = rng.standard_normal((d, d))
    Sig = B @ B.T / d
    a = rng.standard_normal(d)
    I = np.eye(d)
    G = (
        (N + 1) / N * L + np.trace(L) / N * I
        if fault_gamma_fn is None
        else np.asarray(fault_gamma_fn(L, N), dtype=float)
    )
    Gi = np.linalg.inv(G)
    K = L + np.trace(L) * I
    excess_hand = np.trace(Sig @ Gi @ Gi @ L) / M + a @ Gi @ Gi @ L @ K @ K @ a / N**2

    def row(name: str, ours: object, hand: object) -> Evidence:
        return close_agreement(name, ours, hand, kind="FLOAT", atol=0.0, rtol=GENERIC_RTOL)

    return [
        row(
            f"Cor. 16 L* = ½[trΛ − tr(Λ²Γ⁻¹)], random Λ, N = {N}",
            float(T.optimal_loss(L, N)),
            0.5 * (np.trace(L) - np.trace(L @ L @ Gi)),
        ),
        row(
            "R(P; Λ, Λ, N) = 2·L(P), random P (risk = twice the loss)",
            float(T.shift_risk(P, L, L, N)),
            2 * float(T.loss_of_P(P, L, N)),
        ),
        row(
            "Theorem 5 excess = eq. (16) written out, random Σ, a, M = 5",
            float(T.theorem5_excess(L, N, M, Sig, a)),
            float(excess_hand),
        ),
    ]
