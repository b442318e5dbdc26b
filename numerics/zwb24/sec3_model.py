"""[zwb24] §3 Setting: checks of the data model (Assumption 3.1), the Gaussian moments
(Lemma H.4) and the closed-form risks of GD-β (5.1) and of the general LTB.

Monte Carlo routes sample prompts and apply the predictor (:func:`numerics.mc_fast.
gd_family_risk_raw`); they never call a theory risk function.
"""

from __future__ import annotations

import numpy as np

from numerics.montecarlo import mc_means
from numerics.sampling import check_rng, gaussian_rows
from numerics.testing import (
    FLOAT_RTOL,
    MC_POWER,
    float_agreement,
    informational,
    mc_agreement,
)
from numerics.verdicts import skipped
from numerics.zwb24.fixtures import quick_n
from numerics.zwb24.sampling import random_setting, raw_risk_at
from theory.common.baselines import gd_beta_risk
from theory.common.gaussian import isserlis_fourth_moment, wishart_fourth_moment
from theory.common.protocols import Evidence
from theory.zwb24 import (
    label_second_moment,
    lsa_risk,
    ltb_risk,
)
from theory.zwb24.settings import Setting

__all__ = [
    "check_asm3_1_mc",
    "check_lemh_4_mc",
    "check_eq_gdbeta_risk_mc",
    "check_eq_ltb_risk_mc",
]


def check_asm3_1_mc(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Assumption 3.1: MC of the sampled prompts vs ``E[y²] = tr(H(Ψ+β*β*ᵀ)) + σ²`` and
    ``E[x_i y_i] = Hβ*`` (the sampler implements the data model), for regular and singular H
    (Assumption 3.1 allows H ⪰ 0).  Each estimate is drawn for power (se ≤ 2 % of its row's
    scale, up to 4× the sample).  At d = 1 the singular H (rank d − 1 = 0) is H = 0: then
    x ≡ 0, so ``x_i y_i ≡ 0 = (Hβ*)_i`` holds with nothing to estimate (MC scale
    √(E[y²] tr H) = 0) and those rows are ``skipped`` with the numbers."""
    d = setting.d
    N = setting.N
    sigma2 = setting.sigma2
    from numerics.sampling import sample_prompts
    from theory.settings import LinearRegressionICL

    rng = check_rng(seed, "numerics.ltb.checks_model:check_asm3_1_mc")
    out: list[Evidence] = []
    for sing in (False, True):
        H, Psi, bs = random_setting(rng, d, singular_H=sing)
        st = LinearRegressionICL.from_arrays(
            Sigma_x=H, N=N, task_mean=bs, task_cov=Psi, noise_var=sigma2
        )

        def draw(r: np.random.Generator, B: int, st: LinearRegressionICL = st) -> np.ndarray:
            p = sample_prompts(st, B, rng=r)
            return np.column_stack([p.yq**2, p.X[:, 0, :] * p.y[:, :1]])

        ey2 = label_second_moment(H, Psi, bs, sigma2)
        xy_scale = float(np.sqrt(ey2 * np.trace(H)))
        target = MC_POWER * np.array([abs(ey2)] + [xy_scale] * d)
        ests = mc_means(draw, quick_n(quick, 200_000, 1_000_000), rng=rng, target_se=target)
        out.append(
            mc_agreement(f"E[y^2] = tr(H(Psi+b*b*^T)) + sigma^2 (singular H={sing})", ey2, ests[0])
        )
        Hb = H @ bs
        for i in range(d):
            name = f"E[x_i y_i]_{i} = (H beta*)_{i} (singular H={sing})"
            if xy_scale == 0.0:
                why = (
                    f"H = 0 at d = {d} (the singular H has rank d - 1 = 0): x = 0, so "
                    f"x_i y_i = 0 = (H beta*)_i on every prompt (MC mean {ests[1 + i].mean:g}, "
                    f"se {ests[1 + i].se:g}); the row's scale sqrt(E[y^2] tr H) is 0: nothing "
                    "to estimate"
                )
                out.append(skipped(informational(name, float(Hb[i]), ests[1 + i].mean), why=why))
                continue
            out.append(mc_agreement(name, Hb[i], ests[1 + i], scale=xy_scale))
    return out


def check_lemh_4_mc(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Lemma H.4 (shared :mod:`theory.common.gaussian`) vs Monte Carlo, general (non-symmetric)
    ``A`` and random ``H`` (d = 3, N = 5)."""
    d = setting.d
    N = setting.N
    rng = check_rng(seed, "numerics.ltb.checks_model:check_lemh_4_mc")
    H, _, _ = random_setting(rng, d)
    A = rng.standard_normal((d, d))
    pred1 = np.asarray(isserlis_fourth_moment(A, H))
    pred2 = np.asarray(wishart_fourth_moment(A, H, N))

    def draw(r: np.random.Generator, B: int) -> np.ndarray:
        x = gaussian_rows(r, (B,), H)
        m1 = np.einsum("bi,bj,jk,bk,bl->bil", x, x, A, x, x).reshape(B, -1)
        X = gaussian_rows(r, (B, N), H)
        S = np.einsum("bni,bnj->bij", X, X)
        m2 = (S @ A @ S).reshape(B, -1)
        return np.column_stack([m1, m2])

    s1, s2 = float(np.max(np.abs(pred1))), float(np.max(np.abs(pred2)))
    target = MC_POWER * np.repeat([s1, s2], d * d)  # the rows' scales, column by column
    ests = mc_means(draw, quick_n(quick, 400_000, 2_000_000), rng=rng, target_se=target)
    out = []
    # scalar corollary (spec §2.0): E[(u^T S v)^2] = ((N+1)/N)(u^T H v)^2 + (u^T H u)(v^T H v)/N,
    # S = X^T X / N -- against the shared Wishart identity (exact algebra, float64)
    u, v = rng.standard_normal(d), rng.standard_normal(d)
    scal = (N + 1) / N * (u @ H @ v) ** 2 + (u @ H @ u) * (v @ H @ v) / N
    via = float(u @ np.asarray(wishart_fourth_moment(np.outer(v, v), H, N)) @ u) / N**2
    out.append(
        float_agreement(
            "E[(u^T S v)^2] scalar form == u^T E[S vv^T S] u (Lemma H.4)",
            scal,
            via,
            rtol=FLOAT_RTOL * 100,
        )
    )
    for k in range(d * d):
        i, j = divmod(k, d)
        out.append(mc_agreement(f"E[x x^T A x x^T]_{i}{j}", pred1[i, j], ests[k], scale=s1))
        out.append(mc_agreement(f"E[X^T X A X^T X]_{i}{j}", pred2[i, j], ests[d * d + k], scale=s2))
    return out


def check_eq_gdbeta_risk_mc(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_sigma2: float | None = None
) -> list[Evidence]:
    """§2.1: closed-form GD-β risk (shared ``gd_beta_risk``) vs raw-prompt MC at random
    ``(Γ, β)``.  ``fault_sigma2`` (fault) is the σ² given to the closed form."""
    d = setting.d
    N = setting.N
    sigma2 = setting.sigma2
    rng = check_rng(seed, "numerics.ltb.checks_model:check_eq_gdbeta_risk_mc")
    H, Psi, bs = random_setting(rng, d)
    G = 0.5 * np.eye(d) + 0.2 * rng.standard_normal((d, d))
    beta = rng.standard_normal(d)
    s2t = sigma2 if fault_sigma2 is None else fault_sigma2
    pred = float(gd_beta_risk(G, beta, H, bs, Psi, s2t, N))
    est = raw_risk_at(
        (H, Psi, bs),
        sigma2,
        N,
        (G, beta, beta),
        quick_n(quick, 200_000, 2_000_000),
        rng,
        target_se=MC_POWER * abs(pred),  # the row's scale: |prediction|
    )
    return [
        mc_agreement(
            f"GD-beta risk (closed form) vs MC, d={d}, N={N}",
            pred,
            est,
            details={"sigma2": sigma2, "theory_sigma2": s2t},
        )
    ]


def check_eq_ltb_risk_mc(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_phi_scale: float | None = None
) -> list[Evidence]:
    """§2.2: closed-form risk of the general LTB (★) vs MC at random ``(a, b, Γ, φ)`` and random
    non-identity ``H``; reductions (``a = b, φ = 0`` → §2.1; LSA = ``a = 0``) to FLOAT precision,
    also for singular ``H``.  ``fault_phi_scale`` (fault) scales φ in the formula."""
    d = setting.d
    N = setting.N
    sigma2 = setting.sigma2
    phi_size = 0.2  # size of the φ draw (a method knob)
    rng = check_rng(seed, "numerics.ltb.checks_model:check_eq_ltb_risk_mc")
    H, Psi, bs = random_setting(rng, d)
    a, b = rng.standard_normal(d), rng.standard_normal(d)
    G = 0.5 * np.eye(d) + 0.2 * rng.standard_normal((d, d))
    phi = phi_size * rng.standard_normal(d) / np.sqrt(d)
    phi_t = phi if fault_phi_scale is None else fault_phi_scale * phi
    pred = ltb_risk(a, b, G, phi_t, H, Psi, bs, sigma2, N)
    est = raw_risk_at(
        (H, Psi, bs),
        sigma2,
        N,
        (G, a, b, phi),
        quick_n(quick, 200_000, 2_000_000),
        rng,
        target_se=MC_POWER * abs(pred),  # the row's scale: |prediction|
    )
    out = [
        mc_agreement(
            f"LTB risk (closed form) vs MC, d={d}, N={N}, |phi|~{phi_size}",
            pred,
            est,
            details={"fault_phi_scale": fault_phi_scale},
        )
    ]
    for sing in (False, True):
        H2, Psi2, bs2 = random_setting(rng, d, singular_H=sing)
        r_ltb = ltb_risk(b, b, G, np.zeros(d), H2, Psi2, bs2, sigma2, N)
        r_gd = float(gd_beta_risk(G, b, H2, bs2, Psi2, sigma2, N))
        out.append(
            float_agreement(
                f"LTB risk at a=b, phi=0 == GD-beta risk (singular H={sing})",
                r_ltb,
                r_gd,
                rtol=FLOAT_RTOL * 10,
            )
        )
    r_lsa = lsa_risk(b, G, phi, H, Psi, bs, sigma2, N)
    out.append(
        float_agreement(
            "LSA risk == LTB risk at a = 0",
            r_lsa,
            ltb_risk(np.zeros(d), b, G, phi, H, Psi, bs, sigma2, N),
            rtol=FLOAT_RTOL,
        )
    )
    return out
