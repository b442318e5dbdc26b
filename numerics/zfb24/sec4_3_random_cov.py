"""[zfb24] §4.3 checks: Theorem 8 (Corollary 22 moments, the eq.-(52) flow, Lemma 23 loss), the
[derived] random-covariance risk r(δ, c, M) and the Figure 1 proxies.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from numerics.montecarlo import mc_mean, mc_means
from numerics.sampling import check_rng
from numerics.testing import (
    FLOAT_RTOL,
    MC_POWER,
    SOLVER_ATOL,
    close_agreement,
    evidence_row,
    exact_agreement,
    mc_agreement,
    ordering,
    skipped,
    solver_agreement,
)
from numerics.zfb24.evidence import solver_scale_atol, spec_ref
from numerics.zfb24.fig1 import (  # noqa: F401 - re-exported: old paths
    check_fig1_mc,
    check_fig1_symbolic_limit,
    check_rdm_risk_mc,
)
from numerics.zfb24.ode import integrate_rdm_flow, pack, rdm_flow_horizon, unpack
from numerics.zfb24.predictors import lsa_predict, weights_from_P
from numerics.zfb24.sampling import (
    random_theta,
    sample_random_cov,
)
from theory import zfb24 as T
from theory.common.protocols import Evidence
from theory.zfb24.hypotheses import thm8_hypotheses
from theory.zfb24.settings import Setting

__all__ = [
    "check_thm8_symbolic",
    "check_thm8_mc_moments",
    "check_thm8_ode",
    "check_thm8_ode_spec_values",
    "check_thm8_mc_loss",
    "check_rdm_risk_mc",
    "check_fig1_mc",
    "check_fig1_symbolic_limit",
    "check_thm8_float_bounds",
]

#: The asymmetry of ζ at two non-identical laws is O(1); 0.1 separates it from round-off and MC
#: noise.
ZETA_ASYMMETRY_MARGIN = 0.1
#: Closed forms against the same expressions written out by hand (float64, a few operations):
#: the float evaluator's tolerance times 10 for the square roots and sums.
HAND_SUM_RTOL = 10 * FLOAT_RTOL


_GAMMA_LAW = (
    np.array([1.0, 2.0, 3.0]),
    np.array([1.0, 0.5, 0.4]),
)  # Gamma(k_i, θ_i), per coordinate


def _gamma_law_m(k: np.ndarray, th: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    m = [
        np.array([float(v) for v in col])
        for col in zip(
            *(T.gamma_law_moments(float(a), float(b)) for a, b in zip(k, th, strict=True)),
            strict=True,
        )
    ]
    return m[0], m[1], m[2]


def check_thm8_symbolic(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Corollary 22 (EXACT): Exp(1) γ, ζ, δ = N/(3N+d+5), the iid formulas equal the general
    per-coordinate ones, Gamma(k, θ) shrink factor k/(k+2), and
    r(δ_R, 1, N) = 1 − 2δ_R = 2L*_rdm/d."""
    d, N, k, th, M = sp.symbols("d N k theta M", positive=True)
    g, xi, z = T.moments_iid(1, 2, 6, d, N)
    out = [
        exact_agreement("Exp(1): γ = 6 + (2d+10)/N", g, 6 + (2 * d + 10) / N),
        exact_agreement("Exp(1): ζ = 2 + (d+4)/N", z, 2 + (d + 4) / N),
        exact_agreement(
            "Exp(1): δ = ξ/γ = N/(3N+d+5)", T.delta_iid(1, 2, 6, d, N), T.delta_exp(N, d)
        ),
    ]
    m1, m2, m3 = T.gamma_law_moments(k, th)
    out.append(
        exact_agreement(
            "Gamma(k,θ): lim_N E[δλ] = m1m2/m3 = k/(k+2)",
            sp.limit(T.delta_iid(m1, m2, m3, 3, N), N, sp.oo) * m1,
            k / (k + 2),
        )
    )
    dR = T.delta_exp(N, d)
    out.append(
        exact_agreement(
            "r(δ_R, 1, N) = 1 − 2δ_R", T.rdm_test_risk(dR, 1, N, 1, 2, 6, d), 1 - 2 * dR
        )
    )
    gv, xv, zv = T.rdm_moments([1.0] * 4, [2.0] * 4, [6.0] * 4, 10)
    gi, xi_i, zi = (float(e.subs({d: 4, N: 10})) for e in T.moments_iid(1, 2, 6, d, N))
    out.append(
        close_agreement(
            "per-coordinate rdm_moments = iid closed form (d=4, N=10)",
            [gv[0], xv[0], zv[0, 1]],
            [gi, xi_i, zi],
            kind="FLOAT",
            atol=0.0,
            rtol=FLOAT_RTOL,
        )
    )
    out.append(
        close_agreement(
            "2L*_rdm/d = 1 − 2δ (Exp(1), d=4, N=10)",
            2 * T.rdm_optimal_loss([1] * 4, [2] * 4, [6] * 4, 10) / 4,
            1 - 2 * float(T.delta_exp(10, 4)),
            kind="FLOAT",
            atol=0.0,
            rtol=FLOAT_RTOL,
        )
    )
    out.append(
        exact_agreement(
            "Figure 1 'LSA limit' (δ = 1/3): fixed panel 4/9",
            T.fixed_test_risk(sp.Rational(1, 3), 1, sp.oo, 20),
            sp.Rational(4, 9),
        )
    )
    for c, v in ((1, sp.Rational(1, 3)), (4, sp.Rational(76, 3)), (9, 387)):
        out.append(
            exact_agreement(
                f"Figure 1 'LSA limit' random panel c={c}",
                T.rdm_test_risk(sp.Rational(1, 3), c, sp.oo, 1, 2, 6, 20),
                v,
            )
        )
    return out


def check_thm8_mc_moments(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Lemma 21 → Corollary 22: MC of E[Γ_τΛ_τUΛ_τ] (sampled Λ_τ, independent Gamma(k_i, θ_i)
    entries with different laws so ζ is not symmetric; d = 3 by the law) equals Zc ∘ U
    entrywise; E[Λ_τ²] = diag(ξ); at the setting's N."""
    N = setting.N
    rng = np.random.default_rng(seed)
    k, th = _GAMMA_LAW
    m1, m2, m3 = _gamma_law_m(k, th)
    Zc, xi = T.rdm_coefficients(m1, m2, m3, N)
    d = 3
    U = rng.standard_normal((d, d))

    def draw(r: np.random.Generator, b: int) -> np.ndarray:
        lam = r.gamma(k, th, size=(b, d))
        g = (N + 1) / N * lam + lam.sum(axis=1, keepdims=True) / N
        A = g[:, :, None] * lam[:, :, None] * U[None] * lam[:, None, :]
        return np.concatenate([A.reshape(b, -1), lam**2], axis=1)

    pred = np.concatenate([(Zc * U).ravel(), xi])
    scale = float(np.max(np.abs(pred)))
    ests = mc_means(draw, 1_000_000 if quick else 10_000_000, rng=rng, target_se=MC_POWER * scale)
    out = [
        mc_agreement(
            f"E[Γ_τΛ_τUΛ_τ]_{i // d}{i % d} = (Zc∘U)" if i < d * d else f"E[λ_{i - d * d}²] = ξ",
            float(p),
            e,
            scale=scale,
        )
        for i, (p, e) in enumerate(zip(pred, ests, strict=True))
    ]
    out.append(
        ordering(
            "ζ is not symmetric for non-identical laws",
            0.0,
            abs(Zc[0, 1] - Zc[1, 0]),
            margin=ZETA_ASYMMETRY_MARGIN,
        )
    )
    return out


#: A σ given with a (d, N) where it breaks condition (21) is lowered to
#: √(SIGMA21_FRACTION · bound): below check_thm8_ode's 20 % margin on the bound, with room for
#: the MC error of its expectation.
SIGMA21_FRACTION = 0.7


def _sigma_within_21(sigma_init: float, bound: float) -> float:
    """``sigma_init`` if it meets condition (21) (σ² < bound), else √(SIGMA21_FRACTION·bound): at a
    (d, N) given with ``--set`` the theorem's own hypothesis sets σ (the defaults meet it)."""
    return sigma_init if sigma_init**2 < bound else float(np.sqrt(SIGMA21_FRACTION * bound))


def check_thm8_ode_spec_values(
    setting: Setting, *, quick: bool = True, seed: int = 0
) -> list[Evidence]:
    """Corollary 22 / Theorem 8 against our reference values γ = 8, ζ = 2.875, ξ = 2,
    u₋₁(∞) = 0.658037, u_ii(∞) = 0.379918 (fixed: derived reference values for Exp(1),
    d = 3, N = 8)."""
    d, N = 3, 8
    m = tuple(np.full(d, float(v)) for v in T.exp_moments())
    _, xi = T.rdm_coefficients(*m, N)
    g, _, z = T.rdm_moments(*m, N)
    Ul, ul = T.rdm_limit(*m, N)
    return [
        close_agreement(
            "reference γ, ζ, ξ = 8, 2.875, 2 (Exp(1) features, d = 3, N = 8)",
            [g[0], z[0, 1], xi[0]],
            [8, 2.875, 2],
            kind="FLOAT",
            atol=FLOAT_RTOL,
            details={
                "source": "[zfb24] Corollary 22 (γ, ζ) and Theorem 8 (ξ) for Exp(1) features, "
                "evaluated at the stated point (the paper prints no value)"
            },
        ),
        spec_ref(
            "reference u₋₁(∞) (Exp(1) features, d = 3, N = 8)",
            ul,
            "0.658037",
            where="Lemma 28, eq. (63), Theorem 8",
        ),
        spec_ref(
            "reference u_ii(∞) (Exp(1) features, d = 3, N = 8)",
            Ul[0, 0],
            "0.379918",
            where="Lemma 28, eq. (63), Theorem 8",
        ),
    ]


def check_thm8_ode(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Corollary 22 / Lemmas 25–28 / Theorem 8: eq. (52) from Assumption 3 (Exp(1)) at the
    setting's d, N and σ: balancedness, off-diagonal decay u_ij(0)exp(−ζ_ij∫u²), condition (21)
    (MC expectation; a σ beyond it is replaced by √0.7 of the bound), Lemma 27 bound, limit."""
    thm8_hypotheses(setting)
    d, N, sigma_init = setting.d, setting.N, setting.sigma_init
    rng = np.random.default_rng(seed)
    m1, m2, m3 = (np.full(d, float(v)) for v in T.exp_moments())
    m = (m1, m2, m3)
    Zc, xi = T.rdm_coefficients(*m, N)
    _, _, z = T.rdm_moments(*m, N)
    out = []
    Th = random_theta(d, rng)

    # condition (21): E[‖Γ_τ‖_op ‖Λ_τ‖_F²] by MC (no closed form)
    def draw(r: np.random.Generator, b: int) -> np.ndarray:
        lam = r.exponential(1.0, size=(b, d))
        gmax = ((N + 1) / N * lam + lam.sum(1, keepdims=True) / N).max(axis=1)
        return gmax * (lam**2).sum(axis=1)

    Eq = mc_mean(draw, 400_000, rng=rng)
    bound = T.rdm_init_bound(m[0], Th, Eq.mean)
    sigma_init = _sigma_within_21(sigma_init, bound)
    out.append(
        ordering(
            "condition (21): σ² < 2‖EΛΘ‖²/(√d E‖Γ_τ‖‖Λ_τ‖²)",
            sigma_init**2,
            bound,
            margin=0.2 * bound,
            details={"E_mc": Eq.mean, "se": Eq.se},
        )
    )
    U0, u0 = T.initial_state(Th, sigma_init)
    ts = np.linspace(0, 200, 401)
    tr = integrate_rdm_flow(Zc, xi, U0, u0, 200.0, t_eval=ts)
    Us = tr.y[:, : d * d].reshape(-1, d, d)
    us = tr.y[:, d * d]
    out.append(solver_agreement("balancedness (Lemma 25)", us**2, np.sum(Us**2, axis=(1, 2))))
    umin = T.rdm_u_min(m[0], m[1], Th, sigma_init, Eq.mean)
    out.append(ordering("Lemma 27: u₋₁(t) ≥ u_min", umin, float(us.min()), margin=SOLVER_ATOL))
    lmin = T.rdm_min_loss(*m, N)
    ell = np.array([T.rdm_loss(U, u, Zc, xi) for U, u in zip(Us, us, strict=True)]) - lmin
    nu = T.rdm_pl_constant(*m, N, Th, sigma_init, Eq.mean)
    slack = ell[0] * np.exp(-nu * tr.t[1:]) - ell[1:]
    out.append(
        ordering(
            "Lemma 28: PL envelope ℓ_rdm(t) − min ≤ e^(−νt)(ℓ_rdm(0) − min)",
            0.0,
            float(slack.min()) + solver_scale_atol(abs(lmin)),
            margin=SOLVER_ATOL,
            details={"nu": nu},
        )
    )
    offd = ~np.eye(d, dtype=bool)
    pred = U0[offd][None, :] * np.exp(-z[offd][None, :] * tr.y[:, -1][:, None])
    if d > 1:
        out.append(
            solver_agreement(
                "off-diagonals u_ij(0)exp(−ζ_ij∫u²)",
                Us[:, offd],
                pred,
                atol=solver_scale_atol(np.max(np.abs(U0))),
            )
        )
    else:  # U₁₁ is 1×1: no off-diagonal entry to follow
        out.append(
            skipped(
                evidence_row(
                    "off-diagonals u_ij(0)exp(−ζ_ij∫u²)", "SOLVER", [], [], 0.0, 0.0, True
                ),
                why="not resolvable at d = 1: U₁₁ is 1×1 and has d(d − 1) = 0 off-diagonal entries",
                offdiagonal_entries=0,
            )
        )
    Ul, ul = T.rdm_limit(*m, N)
    t_end, tau_slow = rdm_flow_horizon(Zc, xi, Ul, ul, 500.0)  # 500, or 40 τ_slow if longer
    tr2 = integrate_rdm_flow(Zc, xi, U0, u0, t_end)
    Uf, uf = unpack(tr2.final, d)
    out.append(
        solver_agreement(
            "limit: u₋₁U₁₁ → D = diag(ξ/γ), factors of Lemma 28",
            pack(Uf, uf),
            pack(Ul, ul),
            details={"t_end": t_end, "tau_slow": tau_slow},
        )
    )
    out.append(
        close_agreement(
            "D = δI with δ = N/(3N+d+5)",
            np.diag(T.rdm_D(*m, N)),
            np.full(d, float(T.delta_exp(N, d))),
            kind="FLOAT",
            atol=0.0,
            rtol=FLOAT_RTOL,
        )
    )
    out.append(
        solver_agreement(
            "ℓ_rdm(T) = −½Σξ²/γ (Lemma 24)", T.rdm_loss(Uf, uf, Zc, xi), T.rdm_min_loss(*m, N)
        )
    )
    return out


def check_thm8_mc_loss(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Lemma 23: MC population loss (full eq.-(6) read-out, Exp(1) random covariance) at a
    non-diagonal
    U₁₁ equals ℓ_rdm + ½ΣEλ_i; and at the minimiser it equals L*_rdm; at the
    setting's d and N."""
    thm8_hypotheses(setting)
    d, N = setting.d, setting.N
    rng = np.random.default_rng(seed)
    m1, m2, m3 = (np.full(d, float(v)) for v in T.exp_moments())
    m = (m1, m2, m3)
    Zc, xi = T.rdm_coefficients(*m, N)
    # The non-diagonal U₁₁ is a pinned setting (seed 0's draw), not re-drawn per seed: at some
    # draws the loss is so heavy-tailed that 600k prompts miss the power check (seed robustness
    # sweep: seeds 9 and 13 had se/scale 4 % and 2.2 %).  The MC stream stays where it was.
    rng.standard_normal((d, d))
    U = 0.4 * np.eye(d) + 0.15 * np.random.default_rng(0).standard_normal((d, d))
    u = 0.9
    Ul, ul = T.rdm_limit(*m, N)
    out = []
    # prompts per row: the non-diagonal row's loss is heavier-tailed (its se/scale ranged up to
    # 2.0 % over 40 seeds at 600k prompts, against the 2 % power check), so it gets twice as many
    for tag, (UU, uu), pred, n_quick in (
        ("non-diagonal U₁₁", (U, u), T.rdm_loss(U, u, Zc, xi) + 0.5 * m[0].sum(), 1_200_000),
        ("minimiser D", (Ul, ul), T.rdm_optimal_loss(*m, N), 600_000),
    ):
        K, R = weights_from_P(UU, uu)

        def draw(r: np.random.Generator, b: int, K=K, R=R) -> np.ndarray:
            X, y, xq, yq, _, _ = sample_random_cov(r, b, N, d)
            return 0.5 * (lsa_predict(X, y, xq, K, R) - yq) ** 2

        out.append(
            mc_agreement(
                f"random-cov population loss at {tag} (d={d}, N={N})",
                pred,
                mc_mean(
                    draw,
                    n_quick if quick else 10 * n_quick,
                    rng=rng,
                    target_se=MC_POWER * abs(float(pred)),
                ),
            )
        )
    return out


#: Generic Gamma(k, θ) law of the diagonal entries in ``check_thm8_float_bounds`` (m1 = 1.4 ≠ 1).
_GENERIC_LAW = (2.0, 0.7)


def check_thm8_float_bounds(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_u_min_fn: Callable[..., float] | None = None,
) -> list[Evidence]:
    """Theorem 8's bounds and moment closed forms pinned at a generic law (bounds are
    otherwise only checked as "holds", and every random-covariance formula only at Exp(1), whose
    m1 = 1 hides a factor m1): D, δ, the Lemma 28 limit, min ℓ_rdm, L*_rdm and r(δ, c, M) at this
    law against their expressions written out here; iid Gamma(2, 0.7) entries (m1 = 1.4, m2 = 2.94,
    m3 = 8.232), d = 3, N = 5, random Θ.  Condition (21)'s bound, Lemma 27's u_min and Lemma 28's
    ν = min{γ_i, ζ_ij}·u_min² against the printed expressions written out again here, with
    Corollary 22's γ_i, ζ_ij for iid entries expanded by hand (γ = (N+1)/N m3 + (m3 + (d−1)m1m2)/N,
    ζ = (N+1)/N m1m2 + (2m1m2 + (d−2)m1³)/N); E[‖Γ_τ‖_op‖Λ_τ‖_F²] by MC (shared by both sides).
    ``fault_u_min_fn`` replaces ``rdm_u_min`` (negative control: d in place of √d)."""
    # the stream keeps this check's first name, so moving the file moves no random stream
    thm8_hypotheses(setting)
    d, N, sigma_init = setting.d, setting.N, setting.sigma_init
    path = "numerics.lsa_flow.checks_random_cov:check_thm8_bounds_generic"
    rng = check_rng(seed, path)
    k, th = _GENERIC_LAW
    m1s, m2s, m3s = (float(v) for v in T.gamma_law_moments(k, th))
    m1, m2, m3 = (np.full(d, v) for v in (m1s, m2s, m3s))
    Th = random_theta(d, rng)

    def draw(r: np.random.Generator, b: int) -> np.ndarray:
        lam = r.gamma(k, th, size=(b, d))
        gmax = ((N + 1) / N * lam + lam.sum(1, keepdims=True) / N).max(axis=1)
        return gmax * (lam**2).sum(axis=1)

    E = mc_mean(draw, 100_000 if quick else 1_000_000, rng=check_rng(seed, path, "E")).mean
    g, _, z = T.rdm_moments(m1, m2, m3, N)
    g_hand = (N + 1) / N * m3s + (m3s + (d - 1) * m1s * m2s) / N
    z_hand = (N + 1) / N * m1s * m2s + (2 * m1s * m2s + (d - 2) * m1s**3) / N
    fro = float(np.sum((m1s * Th) ** 2))  # ‖E[Λ_τ]Θ‖_F²
    bound_hand = 2 * fro / (np.sqrt(d) * E)
    sigma_init = _sigma_within_21(sigma_init, bound_hand)
    umin_hand = np.sqrt(
        sigma_init**2 * (2 * fro - np.sqrt(d) * sigma_init**2 * E) / (2 * np.sqrt(d) * m2s)
    )
    umin_fn = T.rdm_u_min if fault_u_min_fn is None else fault_u_min_fn
    offd = ~np.eye(d, dtype=bool)

    def row(name: str, ours: Any, hand: Any) -> Evidence:
        return close_agreement(name, ours, hand, kind="FLOAT", atol=0.0, rtol=HAND_SUM_RTOL)

    D_hand = m2s / g_hand  # δ = ξ/γ
    U_lim, u_lim = T.rdm_limit(m1, m2, m3, N)
    gi, xii, zi = T.moments_iid(m1s, m2s, m3s, d, N)
    dl, cg, Mg = 0.29, 2.7, 7
    r_hand = (
        dl**2 * cg**3 * m3s
        - 2 * dl * cg**2 * m2s
        + cg * m1s
        + dl**2 * cg**3 * (2 * m3s + (d - 1) * m1s * m2s) / Mg
    )
    return [
        row(
            "Cor. 22 iid moments (γ, ξ, ζ), Gamma(2, 0.7)",
            [float(gi), float(xii), float(zi)],
            [g_hand, m2s, z_hand],
        ),
        row(
            "Theorem 8 D = diag(ξ/γ), Gamma(2, 0.7)",
            np.diag(T.rdm_D(m1, m2, m3, N)),
            np.full(d, D_hand),
        ),
        row("δ = ξ/γ (iid), Gamma(2, 0.7)", float(T.delta_iid(m1s, m2s, m3s, d, N)), D_hand),
        row(
            "Lemma 28 limit: u₋₁ = ‖D‖_F^(1/2), u₋₁U₁₁ = D",
            [u_lim, *np.diag(u_lim * U_lim)],
            [(d * D_hand**2) ** 0.25, *np.full(d, D_hand)],
        ),
        row(
            "Lemma 24 min ℓ_rdm = −½Σξ²/γ",
            T.rdm_min_loss(m1, m2, m3, N),
            -0.5 * d * m2s**2 / g_hand,
        ),
        row(
            "L*_rdm = ½[ΣEλ − Σξ²/γ]",
            T.rdm_optimal_loss(m1, m2, m3, N),
            0.5 * (d * m1s - d * m2s**2 / g_hand),
        ),
        row(
            "r(δ, c, M) at Gamma(2, 0.7), δ = 0.29, c = 2.7, M = 7",
            float(T.rdm_test_risk(dl, cg, Mg, m1s, m2s, m3s, d)),
            r_hand,
        ),
        row(
            "r(δ, c, M) numpy twin at the same point",
            float(T.rdm_test_risk_fn(dl, cg, Mg, m1s, m2s, m3s, d)),
            r_hand,
        ),
        row("Cor. 22 γ_i, iid Gamma(2, 0.7), N = 5", g, np.full(d, g_hand)),
        row("Cor. 22 ζ_ij (i ≠ j), iid Gamma(2, 0.7), N = 5", z[offd], np.full(d * d - d, z_hand)),
        row(
            "condition (21) bound 2‖EΛΘ‖²/(√d E‖Γ_τ‖‖Λ_τ‖²)",
            T.rdm_init_bound(m1, Th, E),
            bound_hand,
        ),
        row("Lemma 27 u_min", umin_fn(m1, m2, Th, sigma_init, E), umin_hand),
        row(
            "Lemma 28 ν = min{γ_i, ζ_ij}·u_min²",
            T.rdm_pl_constant(m1, m2, m3, N, Th, sigma_init, E),
            (min(g_hand, z_hand) if d > 1 else g_hand) * umin_hand**2,  # no ζ_ij at d = 1
        ),
    ]
