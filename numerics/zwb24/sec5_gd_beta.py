"""[zwb24] §5 GD-β: checks of Theorem 5.2 (optimal GD-β) and Theorem 5.3 (optimal LTB = optimal
GD-β).  The cross-check of Theorem 5.2 with zfb24 is in
:mod:`numerics.zwb24.cross_zfb24` (its check also resolves here).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from numerics.mc_fast import gd_family_predict
from numerics.sampling import check_rng
from numerics.testing import (
    FLOAT_RTOL,
    MC_POWER,
    OPTIM_ARG_ATOL,
    OPTIM_RTOL,
    close_agreement,
    exact_agreement,
    float_agreement,
    informational,
    mc_agreement,
    ordering,
)
from numerics.verdicts import skipped
from numerics.zwb24.cross_zfb24 import check_cross_zfb24_float
from numerics.zwb24.fixtures import APPENDIX_A, fixture_evidence, quick_n
from numerics.zwb24.optim import (
    min_gd_beta,
    min_ltb,
)
from numerics.zwb24.sampling import random_setting, raw_risk_at
from theory.common.backend import psd_projector, psd_sqrt
from theory.common.baselines import gd_beta_risk
from theory.common.protocols import Evidence
from theory.zwb24 import (
    effective_params,
    lemma51_weights,
    ltb_risk,
    omega,
    optimal_gamma,
    optimal_gamma_whitened,
    optimal_risk,
    optimal_risk_eig,
    whiten,
)
from theory.zwb24.settings import Setting

__all__ = [
    "check_thm5_2_float_forms",
    "check_thm5_2_symbolic",
    "check_thm5_2_optim",
    "check_thm5_2_mc",
    "check_thm5_2_float_minimiser_set",
    "check_thm5_3_optim",
    "check_cross_zfb24_float",
]


#: A replacement for ``optimal_gamma(H, Psi, sigma2, N)`` (the Γ* fault switches).
GammaFn = Callable[..., Any]


def check_thm5_2_float_forms(
    setting: Setting, *, quick: bool = True, seed: int = 0
) -> list[Evidence]:
    """Thm 5.2: the forms of Γ* and R* agree (matrix / whitened ``Ψ̄Ω⁻¹`` / regularised Newton /
    eigen form), Γ* is symmetric with ``Im ⊆ Im H`` for singular H, special cases Ψ = I (Wu et
    al.), Appendix A fixtures for ``H = Ψ = I``."""
    d = setting.d
    N = setting.N
    sigma2 = setting.sigma2
    rng = np.random.default_rng(seed)
    out: list[Evidence] = []
    tol = FLOAT_RTOL * 100  # different float64 algebra routes (inverse vs eigendecomposition)
    for sing in (False, True):
        H, Psi, _ = random_setting(rng, d, singular_H=sing)
        Gs = optimal_gamma(H, Psi, sigma2, N)
        Hh = psd_sqrt(H)
        P = Hh @ Psi @ Hh
        Gbar = np.asarray(optimal_gamma_whitened(P, sigma2, N))
        scale = float(np.max(np.abs(Gbar)))
        out.append(
            close_agreement(
                f"H^1/2 Gamma* H^1/2 == Psi_bar Omega^-1 (singular H={sing})",
                Hh @ Gs @ Hh,
                Gbar,
                kind="FLOAT",
                atol=tol * scale,
            )
        )
        out.append(
            close_agreement(
                f"Gamma* symmetric (singular H={sing})",
                Gs,
                Gs.T,
                kind="FLOAT",
                atol=tol * float(np.max(np.abs(Gs))),
            )
        )
        PH = psd_projector(H)
        out.append(
            close_agreement(
                f"Im Gamma* in Im H (singular H={sing})",
                PH @ Gs @ PH,
                Gs,
                kind="FLOAT",
                atol=tol * float(np.max(np.abs(Gs))),
            )
        )
        lam = np.clip(np.linalg.eigvalsh(P), 0, None)
        R = optimal_risk(H, Psi, sigma2, N)
        out.append(
            float_agreement(
                f"R* matrix form == eigen form (singular H={sing})",
                R,
                optimal_risk_eig(lam, sigma2, N),
                rtol=tol,
            )
        )
        Om = np.asarray(omega(P, sigma2, N))
        out.append(
            float_agreement(
                f"R* == sigma^2 + tr Psi_bar - tr(Psi_bar Omega^-1 Psi_bar) (singular H={sing})",
                R,
                sigma2 + np.trace(P) - np.trace(P @ np.linalg.inv(Om) @ P),
                rtol=tol,
            )
        )
    H, Psi, _ = random_setting(rng, d)
    c = np.trace(H @ Psi) + sigma2
    Gs = optimal_gamma(H, Psi, sigma2, N)
    newton = np.linalg.inv((N + 1) / N * H + c / N * np.linalg.inv(Psi))
    out.append(
        close_agreement(
            "Gamma* == ((N+1)/N H + c/N Psi^-1)^-1 (regularised Newton)",
            Gs,
            newton,
            kind="FLOAT",
            atol=tol * float(np.max(np.abs(Gs))),
        )
    )
    wu = np.linalg.inv((N + 1) / N * H + (np.trace(H) + sigma2) / N * np.eye(d))
    out.append(
        close_agreement(
            "Psi = I: Gamma* == Wu et al. ((N+1)/N H + (trH+s2)/N I)^-1",
            optimal_gamma(H, np.eye(d), sigma2, N),
            wu,
            kind="FLOAT",
            atol=tol * float(np.max(np.abs(wu))),
        )
    )
    for row in APPENDIX_A:
        dd, NN, s, mu = row[:4]
        I = np.eye(dd)
        out.append(
            fixture_evidence(
                f"reference gamma* (d={dd}, N={NN}, sigma={s})",
                float(optimal_gamma(I, I, s * s, NN)[0, 0]),
                row[4],
            )
        )
        out.append(
            fixture_evidence(
                f"reference R* (d={dd}, N={NN}, sigma={s})", optimal_risk(I, I, s * s, NN), row[5]
            )
        )
    return out


def check_thm5_2_symbolic(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_gamma_fn: GammaFn | None = None
) -> list[Evidence]:
    """Thm 5.2 exactly (SymPy): at d = 1 the gradient of the GD-β risk (shared closed form)
    vanishes at ``(Γ*, β*)`` and ``R(Γ*, β*) = R*``; ``H = Ψ = I_d`` closed forms for d = 1, 2, 3;
    ``N → ∞`` limit ``Γ* → H⁻¹``.  ``fault_gamma_fn`` (fault) replaces Γ*, e.g. by one without
    ``(N+1)/N``."""
    del setting  # declared fixed: it runs at its own points (see the declaration)
    gamma_fn = optimal_gamma if fault_gamma_fn is None else fault_gamma_fn
    N, s2, h, psi, bst, g, b = sp.symbols("N sigma2 h psi beta_s g b", positive=True)
    out: list[Evidence] = []
    Gs = gamma_fn(sp.Matrix([[h]]), sp.Matrix([[psi]]), s2, N)[0, 0]
    R = gd_beta_risk(
        sp.Matrix([[g]]),
        sp.Matrix([[b]]),
        sp.Matrix([[h]]),
        sp.Matrix([[bst]]),
        sp.Matrix([[psi]]),
        s2,
        N,
    )
    R = R[0, 0] if isinstance(R, sp.MatrixBase) else R
    at = {g: Gs, b: bst}
    out.append(exact_agreement("d=1: dR/dGamma = 0 at (Gamma*, beta*)", sp.diff(R, g).subs(at), 0))
    out.append(exact_agreement("d=1: dR/dbeta = 0 at (Gamma*, beta*)", sp.diff(R, b).subs(at), 0))
    out.append(
        exact_agreement(
            "d=1: R(Gamma*, beta*) == R*",
            R.subs(at),
            optimal_risk(sp.Matrix([[h]]), sp.Matrix([[psi]]), s2, N),
        )
    )
    for dd in (1, 2, 3) if not quick else (1, 2):
        I = sp.eye(dd)
        out.append(
            exact_agreement(
                f"H=Psi=I_{dd}: Gamma* == N/(N+1+d+sigma^2) I",
                gamma_fn(I, I, s2, N),
                N / (N + 1 + dd + s2) * I,
            )
        )
        out.append(
            exact_agreement(
                f"H=Psi=I_{dd}: R* == s2 + d(1+d+s2)/(N+1+d+s2)",
                optimal_risk(I, I, s2, N),
                s2 + dd * (1 + dd + s2) / (N + 1 + dd + s2),
            )
        )
    out.append(exact_agreement("N -> oo: Gamma* -> H^-1 (d=1)", sp.limit(Gs, N, sp.oo), 1 / h))
    h2 = sp.Symbol("h2", positive=True)
    G2 = gamma_fn(sp.diag(h, h2), sp.diag(psi, 0), s2, N)
    out.append(
        exact_agreement(
            "N -> oo, singular Psi: Gamma* -> H^-1/2 P_{Im Psi_bar} H^-1/2",
            G2.applyfunc(lambda e: sp.limit(e, N, sp.oo)),
            sp.diag(1 / h, 0),
        )
    )
    return out


def check_thm5_2_optim(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_gamma_fn: GammaFn | None = None
) -> list[Evidence]:
    """Thm 5.2 by optimisation: BFGS over ``(Γ, β)`` of the exact GD-β risk reaches ``R*`` at
    ``(Γ*, β*)``; singular ``H``: the minimum value is still ``R*``."""
    d = setting.d
    N = setting.N
    sigma2 = setting.sigma2
    gamma_fn = optimal_gamma if fault_gamma_fn is None else fault_gamma_fn
    rng = np.random.default_rng(seed)
    out: list[Evidence] = []
    for sing in (False, True):
        H, Psi, bs = random_setting(rng, d, singular_H=sing)
        P, mu = whiten(H, Psi, bs)
        res = min_gd_beta(P, mu, sigma2, N, rng=rng, restarts=quick_n(quick, 1, 4))
        R = optimal_risk(H, Psi, sigma2, N)
        out.append(
            float_agreement(
                f"min GD-beta risk (BFGS) == R* (singular H={sing})", res.value, R, rtol=OPTIM_RTOL
            )
        )
        if not sing:
            Hh = psd_sqrt(H)
            Gs = gamma_fn(H, Psi, sigma2, N)
            out.append(
                close_agreement(
                    "argmin Gamma_bar == H^1/2 Gamma* H^1/2",
                    res.parts["Gamma"],
                    Hh @ Gs @ Hh,
                    kind="FLOAT",
                    atol=OPTIM_ARG_ATOL,
                )
            )
            out.append(
                close_agreement(
                    "argmin beta_bar == H^1/2 beta*",
                    res.parts["beta"],
                    mu,
                    kind="FLOAT",
                    atol=OPTIM_ARG_ATOL,
                )
            )
    return out


def check_thm5_2_mc(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_gamma_fn: GammaFn | None = None
) -> list[Evidence]:
    """Thm 5.2 (a): MC risk of ``f*`` (GD-β at ``(Γ*, β*)``) vs ``R*``."""
    d = setting.d
    N = setting.N
    sigma2 = setting.sigma2
    gamma_fn = optimal_gamma if fault_gamma_fn is None else fault_gamma_fn
    rng = check_rng(seed, "numerics.ltb.checks_gd_beta:check_thm5_2_mc")
    H, Psi, bs = random_setting(rng, d)
    Gs = gamma_fn(H, Psi, sigma2, N)
    Rs = optimal_risk(H, Psi, sigma2, N)
    est = raw_risk_at(
        (H, Psi, bs),
        sigma2,
        N,
        (Gs, bs, bs),
        quick_n(quick, 400_000, 2_000_000),
        rng,
        target_se=MC_POWER * abs(Rs),  # the row's scale: |R*|
    )
    return [
        mc_agreement(
            f"R* (Thm 5.2) vs MC risk of f*, d={d}, N={N}",
            Rs,
            est,
            details={"fault_gamma_fn": getattr(fault_gamma_fn, "__name__", None)},
        )
    ]


def check_thm5_2_float_minimiser_set(
    setting: Setting, *, quick: bool = True, seed: int = 0
) -> list[Evidence]:
    """Thm 5.2 (b), (c): with singular ``H`` every ``(Γ* + A, β* + n)`` with ``P_HAP_H = 0``,
    ``Hn = 0`` has risk ``R*`` and the same predictions as ``f*`` on sampled prompts; ``Ψ̄ = 0``
    gives ``Γ* = 0``."""
    d = setting.d
    N = setting.N
    sigma2 = setting.sigma2
    rng = np.random.default_rng(seed)
    H, Psi, bs = random_setting(rng, d, singular_H=True)
    PH = psd_projector(H)
    Q = np.eye(d) - PH
    B = rng.standard_normal((d, d))
    A = Q @ B + PH @ B @ Q
    n = Q @ rng.standard_normal(d)
    Gs = optimal_gamma(H, Psi, sigma2, N)
    R = optimal_risk(H, Psi, sigma2, N)
    out = [
        float_agreement(
            "R(Gamma* + A, beta* + n) == R* (A in Null(H^1/2 (x) H^1/2), n in Null H)",
            float(gd_beta_risk(Gs + A, bs + n, H, bs, Psi, sigma2, N)),
            R,
            rtol=FLOAT_RTOL * 100,
        )
    ]
    from numerics.sampling import sample_prompts
    from theory.settings import LinearRegressionICL

    st = LinearRegressionICL.from_arrays(
        Sigma_x=H, N=N, task_mean=bs, task_cov=Psi, noise_var=sigma2
    )
    p = sample_prompts(st, 256, rng=rng)
    X, xq = p.X @ PH, p.xq @ PH  # x ∈ Im H almost surely (removes sampler round-off off Im H)
    f1 = gd_family_predict(X, p.y, xq, Gamma=Gs, a=bs, b=bs)
    f2 = gd_family_predict(X, p.y, xq, Gamma=Gs + A, a=bs + n, b=bs + n)
    out.append(
        close_agreement(
            "function-level uniqueness: f_{Gamma*+A, beta*+n} == f* on 256 prompts",
            f2,
            f1,
            kind="FLOAT",
            atol=FLOAT_RTOL * 1e3 * (1 + np.max(np.abs(f1))),
        )
    )
    # Psi_bar = 0: Psi supported on Null(H)
    Psi0 = np.outer(Q @ rng.standard_normal(d), Q @ rng.standard_normal(d))
    Psi0 = Psi0 + Psi0.T + 4 * np.outer(Q[:, 0], Q[:, 0])
    Psi0 = Psi0 @ Psi0.T
    if sigma2 == 0.0:
        why = (
            "σ² = 0 with Ψ̄ = 0: Ω = ((N+1)/N)Ψ̄ + ((tr(HΨ) + σ²)/N)I = 0 is not invertible "
            "(Thm 5.2's Ω, eq. (A.3), needs tr(HΨ) + σ² > 0): the risk is σ² = 0 for every Γ, "
            "so Γ* is not defined"
        )
        out.append(skipped(informational("Psi_bar = 0 => Gamma* = 0", None, None), why=why))
        return out
    out.append(
        close_agreement(
            "Psi_bar = 0 => Gamma* = 0",
            optimal_gamma(H, Psi0, sigma2, N),
            np.zeros((d, d)),
            kind="FLOAT",
            atol=FLOAT_RTOL * 100,
        )
    )
    return out


def check_thm5_3_optim(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Thm 5.3: BFGS over all LTB effective parameters ``(a, b, Γ, φ)`` of the exact §2.2 risk
    reaches ``R*``; argmin ``a = b = β*, φ = 0, Γ = Γ*`` (rank ≥ 2); rank-deficient cases (rank-one
    Ψ, singular H) still reach ``R*``."""
    d = setting.d
    N = setting.N
    sigma2 = setting.sigma2
    rng = np.random.default_rng(seed)
    out: list[Evidence] = []
    cases = [
        ("PD", dict()),
        ("rank-one Psi", dict(rank_Psi=1)),
        ("singular H", dict(singular_H=True)),
    ]
    for name, kw in cases if not quick else cases[:2]:
        H, Psi, bs = random_setting(rng, d, **kw)
        P, mu = whiten(H, Psi, bs)
        res = min_ltb(P, mu, sigma2, N, rng=rng, restarts=quick_n(quick, 1, 6))
        R = optimal_risk(H, Psi, sigma2, N)
        out.append(
            float_agreement(f"min LTB risk (BFGS) == R* ({name})", res.value, R, rtol=OPTIM_RTOL)
        )
        if name == "PD":
            Gbar = np.asarray(optimal_gamma_whitened(P, sigma2, N))
            for k, v in (("a", mu), ("b", mu), ("Gamma", Gbar), ("phi", np.zeros(d))):
                out.append(
                    close_agreement(
                        f"LTB argmin {k} == optimum (a=b=beta*, phi=0, Gamma=Gamma*)",
                        res.parts[k],
                        v,
                        kind="FLOAT",
                        atol=OPTIM_ARG_ATOL,
                    )
                )
    out += _thm53_raw_characterisation(rng, d, N, sigma2)
    return out


def _raw_risk(W: dict, H: np.ndarray, Psi: np.ndarray, bs: np.ndarray, s2: float, N: int) -> float:
    e = effective_params(**W)
    return ltb_risk(e["a"], e["b"], e["Gamma"], e["phi"], H, Psi, bs, s2, N)


def _thm53_raw_characterisation(
    rng: np.random.Generator, d: int, N: int, s2: float
) -> list[Evidence]:
    """Thm 5.3 (b) in raw weights: the Lemma 5.1 weights at ``(Γ*, β*)`` are optimal, also after
    the rescaling ``(v, W) ↦ (s v, W/s)`` and, for singular H, with ``u_1 = β* + n``,
    ``n ∈ Null H``;
    switching on ``H^{1/2}w ≠ 0`` (the ‖y‖² term) makes the LTB sub-optimal."""
    out: list[Evidence] = []
    H, Psi, bs = random_setting(rng, d, singular_H=True)
    R = optimal_risk(H, Psi, s2, N)
    W = lemma51_weights(optimal_gamma(H, Psi, s2, N), bs)
    out.append(
        float_agreement(
            "raw Lemma 5.1 weights at (Gamma*, beta*) have risk R*",
            _raw_risk(W, H, Psi, bs, s2, N),
            R,
            rtol=FLOAT_RTOL * 100,
        )
    )
    s = 3.7
    Ws = {**W, "W_V": s * W["W_V"], "W_Q": W["W_Q"] / s}
    out.append(
        float_agreement(
            "rescaling (v, W) -> (s v, W/s) keeps risk R*",
            _raw_risk(Ws, H, Psi, bs, s2, N),
            R,
            rtol=FLOAT_RTOL * 100,
        )
    )
    n = (np.eye(d) - psd_projector(H)) @ rng.standard_normal(d)
    Wn = {**W, "W_1": W["W_1"].copy()}
    Wn["W_1"][0, :d] += n
    out.append(
        float_agreement(
            "u_1 = beta* + n (n in Null H) keeps risk R* (singular H)",
            _raw_risk(Wn, H, Psi, bs, s2, N),
            R,
            rtol=FLOAT_RTOL * 100,
        )
    )
    Ww = {**W, "W_Q": W["W_Q"].copy(), "W_K": W["W_K"].copy()}
    Ww["W_K"][-1, d] = 1.0
    Ww["W_Q"][-1, :d] = 0.05 * (H @ rng.standard_normal(d))  # w with H^1/2 w != 0
    out.append(
        ordering(
            "H^1/2 w != 0 (||y||^2 term on) is sub-optimal",
            R,
            _raw_risk(Ww, H, Psi, bs, s2, N),
            margin=OPTIM_RTOL * R,
        )
    )
    return out
