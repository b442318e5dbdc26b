"""Check functions of the zwb24 slice that need no torch (spec 002 §3: C3–C16, cross-paper).

Each ``check_*(*, quick=True, seed=0, ...) -> list[Evidence]`` is referenced from
``theory.ltb.RESULTS`` and called by ``tests/ltb`` and by ``icl-verify report``.  Fault-injection
parameters (``finite_sample_factor``, ``theory_sigma2``, ``theory_phi_scale``, ``gamma_fn``) exist
only for the negative-control tests.  Monte Carlo routes sample prompts and apply the predictor
(:func:`numerics.mc_fast.gd_family_risk_raw`); they never call a theory risk function.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from numerics.ltb.optim import cs_grad, inf_lsa, min_gd_beta, min_ltb
from numerics.mc_fast import gd_family_predict, gd_family_risk_raw
from numerics.montecarlo import mc_means
from numerics.ode import VERIFY, SolverConfig, integrate
from numerics.sampling import gaussian_rows
from numerics.testing import (
    FLOAT_RTOL,
    OPTIM_ARG_ATOL,
    OPTIM_RTOL,
    SOLVER_ATOL,
    SOLVER_BOUND,
    Z_MC,
    close_agreement,
    exact_agreement,
    fixture_atol,
    float_agreement,
    mc_agreement,
    ordering,
    rate_agreement,
    solver_agreement,
)
from theory.common.baselines import gd_beta_risk
from theory.common.gaussian import isserlis_fourth_moment, wishart_fourth_moment
from theory.common.protocols import Evidence
from theory.ltb import core, flow, gap
from theory.ltb._ops import NP, psd_projector, psd_sqrt
from theory.ltb.core import _ltb_risk_w

__all__ = [
    "random_setting",
    "check_data_model_mc",
    "check_isserlis_mc",
    "check_gd_beta_risk_mc",
    "check_ltb_risk_mc",
    "check_thm52_forms",
    "check_thm52_symbolic",
    "check_thm52_bfgs",
    "check_thm52_mc",
    "check_thm52_minimiser_set",
    "check_thm53_bfgs",
    "check_thm41_floor",
    "check_thm41_gap",
    "check_thm41_scaling",
    "check_cor62",
    "check_corG1_excess",
    "check_lemG2_rhs",
    "check_thm63_flow",
    "check_cross_zfb24",
    "check_lem61_bayes",
    "APPENDIX_A",
]

#: spec 002 Appendix A (H = Ψ = I_d, β* = μ·1/√d): d, N, σ, μ, γ*, R*, inf_LSA, gap, L, U, GD0gap
#: as printed (strings: their number of decimals sets the fixture tolerance).
APPENDIX_A = (
    (1, 5, 0.0, 2.0, "0.714286", "0.285714", "1.428571", "1.142857", "1.142857", "1.142857",
     "1.142857"),
    (1, 5, 1.0, 2.0, "0.625", "1.375", "2.453510", "1.078510", "1.053571", "1.142857",
     "1.152778"),
    (2, 10, 0.5, 3.0, "0.754717", "0.740566", "2.535387", "1.794821", "1.342767", "2.076923",
     "1.812573"),
    (3, 20, 1.0, 4.0, "0.8", "1.6", "3.633257", "2.033257", "1.127273", "2.666667", "2.092825"),
    (5, 20, 0.5, 3.0, "0.761905", "1.440476", "2.884775", "1.444299", "0.082251", "2.076923",
     "1.621403"),
)


# ------------------------------------------------------------------------------- helpers
def random_setting(rng: np.random.Generator, d: int = 3, *, singular_H: bool = False,
                   rank_Psi: int | None = None, mean_scale: float = 1.0,
                   H_eigs: tuple[float, float] | None = None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random ``(H, Ψ, β*)``: ``H = AAᵀ/d + 0.1 I`` (or rank ``d − 1`` without ridge; or a random
    rotation of eigenvalues uniform in ``H_eigs``, the last one 0 if ``singular_H``), ``Ψ``
    Wishart-like (optionally of rank ``rank_Psi``), ``β* ~ N(0, mean_scale² I)``."""
    A = rng.standard_normal((d, d))
    H = A @ A.T / d + 0.1 * np.eye(d)
    if singular_H:
        B = rng.standard_normal((d, d - 1))
        H = B @ B.T / d
    if H_eigs is not None:
        V, _ = np.linalg.qr(rng.standard_normal((d, d)))
        w = rng.uniform(*H_eigs, size=d)
        if singular_H:
            w[-1] = 0.0
        H = (V * w) @ V.T
        H = 0.5 * (H + H.T)
    k = d if rank_Psi is None else rank_Psi
    C = rng.standard_normal((d, k))
    Psi = C @ C.T / k
    return H, Psi, mean_scale * rng.standard_normal(d)


def _leq(name: str, lhs: float, rhs: float, *, atol: float, details: dict | None = None
         ) -> Evidence:
    """``lhs ≤ rhs`` up to ``atol`` (violation ``max(0, lhs − rhs)`` compared with 0)."""
    return close_agreement(name, max(0.0, float(lhs) - float(rhs)), 0.0, kind="FLOAT", atol=atol,
                           details={"lhs": float(lhs), "rhs": float(rhs), **(details or {})})


def _fixture(name: str, observed: float, printed: str, **kw: Any) -> Evidence:
    return close_agreement(name, observed, float(printed), kind="FLOAT", atol=fixture_atol(printed),
                           details={"printed": printed, "source": "spec 002 Appendix A", **kw})


def _n(quick: bool, q: int, full: int) -> int:
    return q if quick else full


# --------------------------------------------------------------------- Assumption 3.1 (C-data)
def check_data_model_mc(*, quick: bool = True, seed: int = 0, d: int = 3, N: int = 6,
                        sigma2: float = 0.49) -> list[Evidence]:
    """Assumption 3.1: MC of the sampled prompts vs ``E[y²] = tr(H(Ψ+β*β*ᵀ)) + σ²`` and
    ``E[x_i y_i] = Hβ*`` (the sampler implements the data model), for regular and singular H."""
    from numerics.sampling import sample_prompts
    from theory.settings import LinearRegressionICL

    rng = np.random.default_rng(seed)
    out: list[Evidence] = []
    for sing in (False, True):
        H, Psi, bs = random_setting(rng, d, singular_H=sing)
        st = LinearRegressionICL.from_arrays(Sigma_x=H, N=N, task_mean=bs, task_cov=Psi,
                                             noise_var=sigma2)

        def draw(r: np.random.Generator, B: int, st: LinearRegressionICL = st) -> np.ndarray:
            p = sample_prompts(st, B, rng=r)
            return np.column_stack([p.yq**2, p.X[:, 0, :] * p.y[:, :1]])

        ests = mc_means(draw, _n(quick, 200_000, 1_000_000), rng=rng)
        ey2 = core.label_second_moment(H, Psi, bs, sigma2)
        out.append(mc_agreement(f"E[y^2] = tr(H(Psi+b*b*^T)) + sigma^2 (singular H={sing})",
                                ey2, ests[0]))
        Hb = H @ bs
        for i in range(d):
            out.append(mc_agreement(f"E[x_i y_i]_{i} = (H beta*)_{i} (singular H={sing})", Hb[i],
                                    ests[1 + i], scale=float(np.sqrt(ey2 * np.trace(H)))))
    return out


# ---------------------------------------------------------------------------- Lemma H.4 (C3)
def check_isserlis_mc(*, quick: bool = True, seed: int = 0, d: int = 3, N: int = 5
                      ) -> list[Evidence]:
    """Lemma H.4 (shared :mod:`theory.common.gaussian`) vs Monte Carlo, general (non-symmetric)
    ``A`` and random ``H`` (spec C3: d = 3, N = 5)."""
    rng = np.random.default_rng(seed)
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

    ests = mc_means(draw, _n(quick, 400_000, 2_000_000), rng=rng)
    out = []
    # scalar corollary (spec §2.0): E[(u^T S v)^2] = ((N+1)/N)(u^T H v)^2 + (u^T H u)(v^T H v)/N,
    # S = X^T X / N -- against the shared Wishart identity (exact algebra, float64)
    u, v = rng.standard_normal(d), rng.standard_normal(d)
    scal = (N + 1) / N * (u @ H @ v) ** 2 + (u @ H @ u) * (v @ H @ v) / N
    via = float(u @ np.asarray(wishart_fourth_moment(np.outer(v, v), H, N)) @ u) / N**2
    out.append(float_agreement("E[(u^T S v)^2] scalar form == u^T E[S vv^T S] u (Lemma H.4)",
                               scal, via, rtol=FLOAT_RTOL * 100))
    s1, s2 = float(np.max(np.abs(pred1))), float(np.max(np.abs(pred2)))
    for k in range(d * d):
        i, j = divmod(k, d)
        out.append(mc_agreement(f"E[x x^T A x x^T]_{i}{j}", pred1[i, j], ests[k], scale=s1))
        out.append(mc_agreement(f"E[X^T X A X^T X]_{i}{j}", pred2[i, j], ests[d * d + k],
                                scale=s2))
    return out


# ------------------------------------------------------------------------- §2.1 GD-β risk (C4)
def check_gd_beta_risk_mc(*, quick: bool = True, seed: int = 0, d: int = 3, N: int = 6,
                          sigma2: float = 0.49, theory_sigma2: float | None = None
                          ) -> list[Evidence]:
    """§2.1: closed-form GD-β risk (shared ``gd_beta_risk``) vs raw-prompt MC at random
    ``(Γ, β)`` (spec C4).  ``theory_sigma2`` (fault) is the σ² given to the closed form."""
    rng = np.random.default_rng(seed)
    H, Psi, bs = random_setting(rng, d)
    G = 0.5 * np.eye(d) + 0.2 * rng.standard_normal((d, d))
    beta = rng.standard_normal(d)
    s2t = sigma2 if theory_sigma2 is None else theory_sigma2
    pred = float(gd_beta_risk(G, beta, H, bs, Psi, s2t, N))
    est = gd_family_risk_raw(Sigma_x=H, task_mean=bs, task_cov=Psi, noise_var=sigma2, N=N,
                             Gamma=G, a=beta, b=beta, n=_n(quick, 200_000, 2_000_000), rng=rng)
    return [mc_agreement(f"GD-beta risk (spec 2.1) vs MC, d={d}, N={N}", pred, est,
                         details={"sigma2": sigma2, "theory_sigma2": s2t})]


# ------------------------------------------------------------------- §2.2 LTB risk (C5)
def check_ltb_risk_mc(*, quick: bool = True, seed: int = 0, d: int = 3, N: int = 6,
                      sigma2: float = 0.49, phi_size: float = 0.2, theory_phi_scale: float = 1.0
                      ) -> list[Evidence]:
    """§2.2: closed-form risk of the general LTB (★) vs MC at random ``(a, b, Γ, φ)`` and random
    non-identity ``H``; reductions (``a = b, φ = 0`` → §2.1; LSA = ``a = 0``) to FLOAT precision,
    also for singular ``H`` (spec C5).  ``theory_phi_scale`` (fault) scales φ in the formula."""
    rng = np.random.default_rng(seed)
    H, Psi, bs = random_setting(rng, d)
    a, b = rng.standard_normal(d), rng.standard_normal(d)
    G = 0.5 * np.eye(d) + 0.2 * rng.standard_normal((d, d))
    phi = phi_size * rng.standard_normal(d) / np.sqrt(d)
    pred = core.ltb_risk(a, b, G, theory_phi_scale * phi, H, Psi, bs, sigma2, N)
    est = gd_family_risk_raw(Sigma_x=H, task_mean=bs, task_cov=Psi, noise_var=sigma2, N=N,
                             Gamma=G, a=a, b=b, phi=phi, n=_n(quick, 200_000, 2_000_000), rng=rng)
    out = [mc_agreement(f"LTB risk (spec 2.2) vs MC, d={d}, N={N}, |phi|~{phi_size}", pred, est,
                        details={"theory_phi_scale": theory_phi_scale})]
    for sing in (False, True):
        H2, Psi2, bs2 = random_setting(rng, d, singular_H=sing)
        r_ltb = core.ltb_risk(b, b, G, np.zeros(d), H2, Psi2, bs2, sigma2, N)
        r_gd = float(gd_beta_risk(G, b, H2, bs2, Psi2, sigma2, N))
        out.append(float_agreement(f"LTB risk at a=b, phi=0 == GD-beta risk (singular H={sing})",
                                   r_ltb, r_gd, rtol=FLOAT_RTOL * 10))
    r_lsa = core.lsa_risk(b, G, phi, H, Psi, bs, sigma2, N)
    out.append(float_agreement("LSA risk == LTB risk at a = 0", r_lsa,
                               core.ltb_risk(np.zeros(d), b, G, phi, H, Psi, bs, sigma2, N),
                               rtol=FLOAT_RTOL))
    return out


# ------------------------------------------------------------------ Theorem 5.2 (C6, C7)
def check_thm52_forms(*, quick: bool = True, seed: int = 0, d: int = 3, N: int = 5,
                      sigma2: float = 0.49) -> list[Evidence]:
    """Thm 5.2: the forms of Γ* and R* agree (matrix / whitened ``Ψ̄Ω⁻¹`` / regularised Newton /
    eigen form), Γ* is symmetric with ``Im ⊆ Im H`` for singular H, special cases Ψ = I (Wu et
    al.), Appendix A fixtures for ``H = Ψ = I`` (spec C6)."""
    rng = np.random.default_rng(seed)
    out: list[Evidence] = []
    tol = FLOAT_RTOL * 100  # different float64 algebra routes (inverse vs eigendecomposition)
    for sing in (False, True):
        H, Psi, _ = random_setting(rng, d, singular_H=sing)
        Gs = core.optimal_gamma(H, Psi, sigma2, N)
        Hh = psd_sqrt(H)
        P = Hh @ Psi @ Hh
        Gbar = np.asarray(core.optimal_gamma_whitened(P, sigma2, N))
        scale = float(np.max(np.abs(Gbar)))
        out.append(close_agreement(f"H^1/2 Gamma* H^1/2 == Psi_bar Omega^-1 (singular H={sing})",
                                   Hh @ Gs @ Hh, Gbar, kind="FLOAT", atol=tol * scale))
        out.append(close_agreement(f"Gamma* symmetric (singular H={sing})", Gs, Gs.T,
                                   kind="FLOAT", atol=tol * float(np.max(np.abs(Gs)))))
        PH = psd_projector(H)
        out.append(close_agreement(f"Im Gamma* in Im H (singular H={sing})", PH @ Gs @ PH, Gs,
                                   kind="FLOAT", atol=tol * float(np.max(np.abs(Gs)))))
        lam = np.clip(np.linalg.eigvalsh(P), 0, None)
        R = core.optimal_risk(H, Psi, sigma2, N)
        out.append(float_agreement(f"R* matrix form == eigen form (singular H={sing})", R,
                                   core.optimal_risk_eig(lam, sigma2, N), rtol=tol))
        Om = np.asarray(core.omega(P, sigma2, N))
        out.append(float_agreement(f"R* == sigma^2 + tr Psi_bar - tr(Psi_bar Omega^-1 Psi_bar) "
                                   f"(singular H={sing})", R,
                                   sigma2 + np.trace(P) - np.trace(P @ np.linalg.inv(Om) @ P),
                                   rtol=tol))
    H, Psi, _ = random_setting(rng, d)
    c = np.trace(H @ Psi) + sigma2
    Gs = core.optimal_gamma(H, Psi, sigma2, N)
    newton = np.linalg.inv((N + 1) / N * H + c / N * np.linalg.inv(Psi))
    out.append(close_agreement("Gamma* == ((N+1)/N H + c/N Psi^-1)^-1 (regularised Newton)", Gs,
                               newton, kind="FLOAT", atol=tol * float(np.max(np.abs(Gs)))))
    wu = np.linalg.inv((N + 1) / N * H + (np.trace(H) + sigma2) / N * np.eye(d))
    out.append(close_agreement("Psi = I: Gamma* == Wu et al. ((N+1)/N H + (trH+s2)/N I)^-1",
                               core.optimal_gamma(H, np.eye(d), sigma2, N), wu,
                               kind="FLOAT", atol=tol * float(np.max(np.abs(wu)))))
    for row in APPENDIX_A:
        dd, NN, s, mu = row[:4]
        I = np.eye(dd)
        out.append(_fixture(f"Appendix A gamma* (d={dd}, N={NN}, sigma={s})",
                            float(core.optimal_gamma(I, I, s * s, NN)[0, 0]), row[4]))
        out.append(_fixture(f"Appendix A R* (d={dd}, N={NN}, sigma={s})",
                            core.optimal_risk(I, I, s * s, NN), row[5]))
    return out


def check_thm52_symbolic(*, quick: bool = True, seed: int = 0,
                         finite_sample_factor: bool = True) -> list[Evidence]:
    """Thm 5.2 exactly (SymPy): at d = 1 the gradient of the GD-β risk (shared closed form)
    vanishes at ``(Γ*, β*)`` and ``R(Γ*, β*) = R*``; ``H = Ψ = I_d`` closed forms for d = 1, 2, 3;
    ``N → ∞`` limit ``Γ* → H⁻¹``.  ``finite_sample_factor=False`` (fault) drops ``(N+1)/N``."""
    N, s2, h, psi, bst, g, b = sp.symbols("N sigma2 h psi beta_s g b", positive=True)
    out: list[Evidence] = []
    Gs = core.optimal_gamma(sp.Matrix([[h]]), sp.Matrix([[psi]]), s2, N,
                            finite_sample_factor=finite_sample_factor)[0, 0]
    R = gd_beta_risk(sp.Matrix([[g]]), sp.Matrix([[b]]), sp.Matrix([[h]]), sp.Matrix([[bst]]),
                     sp.Matrix([[psi]]), s2, N)
    R = R[0, 0] if isinstance(R, sp.MatrixBase) else R
    at = {g: Gs, b: bst}
    out.append(exact_agreement("d=1: dR/dGamma = 0 at (Gamma*, beta*)",
                               sp.diff(R, g).subs(at), 0))
    out.append(exact_agreement("d=1: dR/dbeta = 0 at (Gamma*, beta*)", sp.diff(R, b).subs(at), 0))
    out.append(exact_agreement("d=1: R(Gamma*, beta*) == R*", R.subs(at),
                               core.optimal_risk(sp.Matrix([[h]]), sp.Matrix([[psi]]), s2, N)))
    for dd in (1, 2, 3) if not quick else (1, 2):
        I = sp.eye(dd)
        out.append(exact_agreement(
            f"H=Psi=I_{dd}: Gamma* == N/(N+1+d+sigma^2) I",
            core.optimal_gamma(I, I, s2, N, finite_sample_factor=finite_sample_factor),
            N / (N + 1 + dd + s2) * I))
        out.append(exact_agreement(f"H=Psi=I_{dd}: R* == s2 + d(1+d+s2)/(N+1+d+s2)",
                                   core.optimal_risk(I, I, s2, N),
                                   s2 + dd * (1 + dd + s2) / (N + 1 + dd + s2)))
    out.append(exact_agreement("N -> oo: Gamma* -> H^-1 (d=1)", sp.limit(Gs, N, sp.oo), 1 / h))
    h2 = sp.Symbol("h2", positive=True)
    G2 = core.optimal_gamma(sp.diag(h, h2), sp.diag(psi, 0), s2, N,
                            finite_sample_factor=finite_sample_factor)
    out.append(exact_agreement("N -> oo, singular Psi: Gamma* -> H^-1/2 P_{Im Psi_bar} H^-1/2",
                               G2.applyfunc(lambda e: sp.limit(e, N, sp.oo)),
                               sp.diag(1 / h, 0)))
    return out


def check_thm52_bfgs(*, quick: bool = True, seed: int = 0, d: int = 3, N: int = 5,
                     sigma2: float = 0.49, finite_sample_factor: bool = True) -> list[Evidence]:
    """Thm 5.2 by optimisation: BFGS over ``(Γ, β)`` of the exact GD-β risk reaches ``R*`` at
    ``(Γ*, β*)`` (spec C6); singular ``H``: the minimum value is still ``R*``."""
    rng = np.random.default_rng(seed)
    out: list[Evidence] = []
    for sing in (False, True):
        H, Psi, bs = random_setting(rng, d, singular_H=sing)
        P, mu = core.whiten(H, Psi, bs)
        res = min_gd_beta(P, mu, sigma2, N, rng=rng, restarts=_n(quick, 1, 4))
        R = core.optimal_risk(H, Psi, sigma2, N)
        out.append(float_agreement(f"min GD-beta risk (BFGS) == R* (singular H={sing})", res.value,
                                   R, rtol=OPTIM_RTOL))
        if not sing:
            Hh = psd_sqrt(H)
            Gs = core.optimal_gamma(H, Psi, sigma2, N, finite_sample_factor=finite_sample_factor)
            out.append(close_agreement("argmin Gamma_bar == H^1/2 Gamma* H^1/2", res.parts["Gamma"],
                                       Hh @ Gs @ Hh, kind="FLOAT", atol=OPTIM_ARG_ATOL))
            out.append(close_agreement("argmin beta_bar == H^1/2 beta*", res.parts["beta"], mu,
                                       kind="FLOAT", atol=OPTIM_ARG_ATOL))
    return out


def check_thm52_mc(*, quick: bool = True, seed: int = 0, d: int = 3, N: int = 5,
                   sigma2: float = 0.49, finite_sample_factor: bool = True) -> list[Evidence]:
    """Thm 5.2 (a): MC risk of ``f*`` (GD-β at ``(Γ*, β*)``) vs ``R*`` (spec C7)."""
    rng = np.random.default_rng(seed)
    H, Psi, bs = random_setting(rng, d)
    Gs = core.optimal_gamma(H, Psi, sigma2, N, finite_sample_factor=finite_sample_factor)
    est = gd_family_risk_raw(Sigma_x=H, task_mean=bs, task_cov=Psi, noise_var=sigma2, N=N,
                             Gamma=Gs, a=bs, b=bs, n=_n(quick, 400_000, 2_000_000), rng=rng)
    return [mc_agreement(f"R* (Thm 5.2) vs MC risk of f*, d={d}, N={N}",
                         core.optimal_risk(H, Psi, sigma2, N), est,
                         details={"finite_sample_factor": finite_sample_factor})]


def check_thm52_minimiser_set(*, quick: bool = True, seed: int = 0, d: int = 3, N: int = 5,
                              sigma2: float = 0.49) -> list[Evidence]:
    """Thm 5.2 (b), (c): with singular ``H`` every ``(Γ* + A, β* + n)`` with ``P_HAP_H = 0``,
    ``Hn = 0`` has risk ``R*`` and the same predictions as ``f*`` on sampled prompts; ``Ψ̄ = 0``
    gives ``Γ* = 0``."""
    rng = np.random.default_rng(seed)
    H, Psi, bs = random_setting(rng, d, singular_H=True)
    PH = psd_projector(H)
    Q = np.eye(d) - PH
    B = rng.standard_normal((d, d))
    A = Q @ B + PH @ B @ Q
    n = Q @ rng.standard_normal(d)
    Gs = core.optimal_gamma(H, Psi, sigma2, N)
    R = core.optimal_risk(H, Psi, sigma2, N)
    out = [float_agreement("R(Gamma* + A, beta* + n) == R* (A in Null(H^1/2 (x) H^1/2), n in "
                           "Null H)", float(gd_beta_risk(Gs + A, bs + n, H, bs, Psi, sigma2, N)),
                           R, rtol=FLOAT_RTOL * 100)]
    from numerics.sampling import sample_prompts
    from theory.settings import LinearRegressionICL

    st = LinearRegressionICL.from_arrays(Sigma_x=H, N=N, task_mean=bs, task_cov=Psi,
                                         noise_var=sigma2)
    p = sample_prompts(st, 256, rng=rng)
    X, xq = p.X @ PH, p.xq @ PH  # x ∈ Im H almost surely (removes sampler round-off off Im H)
    f1 = gd_family_predict(X, p.y, xq, Gamma=Gs, a=bs, b=bs)
    f2 = gd_family_predict(X, p.y, xq, Gamma=Gs + A, a=bs + n, b=bs + n)
    out.append(close_agreement("function-level uniqueness: f_{Gamma*+A, beta*+n} == f* on 256 "
                               "prompts", f2, f1, kind="FLOAT", atol=FLOAT_RTOL * 1e3 * (1 + np.max(np.abs(f1)))))
    # Psi_bar = 0: Psi supported on Null(H)
    Psi0 = np.outer(Q @ rng.standard_normal(d), Q @ rng.standard_normal(d))
    Psi0 = Psi0 + Psi0.T + 4 * np.outer(Q[:, 0], Q[:, 0])
    Psi0 = Psi0 @ Psi0.T
    out.append(close_agreement("Psi_bar = 0 => Gamma* = 0", core.optimal_gamma(H, Psi0, sigma2, N),
                               np.zeros((d, d)), kind="FLOAT", atol=FLOAT_RTOL * 100))
    return out


# ---------------------------------------------------------------------- Theorem 5.3 (C8)
def check_thm53_bfgs(*, quick: bool = True, seed: int = 0, d: int = 3, N: int = 5,
                     sigma2: float = 0.49) -> list[Evidence]:
    """Thm 5.3: BFGS over all LTB effective parameters ``(a, b, Γ, φ)`` of the exact §2.2 risk
    reaches ``R*``; argmin ``a = b = β*, φ = 0, Γ = Γ*`` (rank ≥ 2); rank-deficient cases (rank-one
    Ψ, singular H) still reach ``R*`` (spec C8)."""
    rng = np.random.default_rng(seed)
    out: list[Evidence] = []
    cases = [("PD", dict()), ("rank-one Psi", dict(rank_Psi=1)), ("singular H",
                                                                  dict(singular_H=True))]
    for name, kw in cases if not quick else cases[:2]:
        H, Psi, bs = random_setting(rng, d, **kw)
        P, mu = core.whiten(H, Psi, bs)
        res = min_ltb(P, mu, sigma2, N, rng=rng, restarts=_n(quick, 1, 6))
        R = core.optimal_risk(H, Psi, sigma2, N)
        out.append(float_agreement(f"min LTB risk (BFGS) == R* ({name})", res.value, R,
                                   rtol=OPTIM_RTOL))
        if name == "PD":
            Gbar = np.asarray(core.optimal_gamma_whitened(P, sigma2, N))
            for k, v in (("a", mu), ("b", mu), ("Gamma", Gbar), ("phi", np.zeros(d))):
                out.append(close_agreement(f"LTB argmin {k} == optimum (a=b=beta*, phi=0, "
                                           "Gamma=Gamma*)", res.parts[k], v, kind="FLOAT", atol=OPTIM_ARG_ATOL))
    out += _thm53_raw_characterisation(rng, d, N, sigma2)
    return out


def _raw_risk(W: dict, H: np.ndarray, Psi: np.ndarray, bs: np.ndarray, s2: float, N: int) -> float:
    e = core.effective_params(**W)
    return core.ltb_risk(e["a"], e["b"], e["Gamma"], e["phi"], H, Psi, bs, s2, N)


def _thm53_raw_characterisation(rng: np.random.Generator, d: int, N: int, s2: float
                                ) -> list[Evidence]:
    """Thm 5.3 (b) in raw weights: the Lemma 5.1 weights at ``(Γ*, β*)`` are optimal, also after
    the rescaling ``(v, W) ↦ (s v, W/s)`` and, for singular H, with ``u_1 = β* + n``,
    ``n ∈ Null H``;
    switching on ``H^{1/2}w ≠ 0`` (the ‖y‖² term) makes the LTB sub-optimal."""
    out: list[Evidence] = []
    H, Psi, bs = random_setting(rng, d, singular_H=True)
    R = core.optimal_risk(H, Psi, s2, N)
    W = core.lemma51_weights(core.optimal_gamma(H, Psi, s2, N), bs)
    out.append(float_agreement("raw Lemma 5.1 weights at (Gamma*, beta*) have risk R*",
                               _raw_risk(W, H, Psi, bs, s2, N), R, rtol=FLOAT_RTOL * 100))
    s = 3.7
    Ws = {**W, "W_V": s * W["W_V"], "W_Q": W["W_Q"] / s}
    out.append(float_agreement("rescaling (v, W) -> (s v, W/s) keeps risk R*",
                               _raw_risk(Ws, H, Psi, bs, s2, N), R, rtol=FLOAT_RTOL * 100))
    n = (np.eye(d) - psd_projector(H)) @ rng.standard_normal(d)
    Wn = {**W, "W_1": W["W_1"].copy()}
    Wn["W_1"][0, :d] += n
    out.append(float_agreement("u_1 = beta* + n (n in Null H) keeps risk R* (singular H)",
                               _raw_risk(Wn, H, Psi, bs, s2, N), R, rtol=FLOAT_RTOL * 100))
    Ww = {**W, "W_Q": W["W_Q"].copy(), "W_K": W["W_K"].copy()}
    Ww["W_K"][-1, d] = 1.0
    Ww["W_Q"][-1, :d] = 0.05 * (H @ rng.standard_normal(d))  # w with H^1/2 w != 0
    out.append(ordering("H^1/2 w != 0 (||y||^2 term on) is sub-optimal", R,
                        _raw_risk(Ww, H, Psi, bs, s2, N), margin=OPTIM_RTOL * R))
    return out


# ---------------------------------------------------------------------- Theorem 4.1 (C9-C11)
def check_thm41_floor(*, quick: bool = True, seed: int = 0, draws: int = 200
                      ) -> list[Evidence]:
    """Thm 4.1 (ii): every LSA risk is ≥ ``σ² + 2(‖β*‖_H² + tr HΨ)/(N+2)`` at random parameters
    and settings (``d ≤ 4, N ≤ 50``; spec C9), and so is ``inf_LSA`` (BFGS)."""
    rng = np.random.default_rng(seed)
    worst, worst_info = -np.inf, {}
    for _ in range(_n(quick, draws, 5 * draws)):
        d = int(rng.integers(1, 5))
        N = int(rng.integers(1, 51))
        s2 = float(rng.choice([0.0, 0.09, 1.0]))
        H, Psi, bs = random_setting(rng, d, singular_H=bool(rng.integers(2)) and d > 1,
                                    mean_scale=float(rng.choice([0.3, 1.0, 3.0])))
        b = rng.standard_normal(d) * rng.choice([0.1, 1, 3])
        G = rng.standard_normal((d, d)) * rng.choice([0.1, 0.5, 1.0])
        phi = rng.standard_normal(d) * rng.choice([0.0, 0.05, 0.3])
        r = core.lsa_risk(b, G, phi, H, Psi, bs, s2, N)
        fl = gap.lsa_risk_floor(H, Psi, bs, s2, N)
        if (fl - r) / r > worst:
            worst, worst_info = (fl - r) / r, {"d": d, "N": N, "sigma2": s2, "R": r, "floor": fl}
    out = [close_agreement("max relative violation of the LSA floor over random LSA params",
                           max(worst, 0.0), 0.0, kind="FLOAT", atol=FLOAT_RTOL * 100, details=worst_info)]
    dd = _n(quick, 2, 3)
    H, Psi, bs = random_setting(rng, dd, mean_scale=2.0)
    P, mu = core.whiten(H, Psi, bs)
    inf = inf_lsa(P, mu, 0.49, 5, rng=rng, restarts=_n(quick, 1, 6)).value
    out.append(_leq(f"LSA floor <= inf_LSA (BFGS), d={dd}, N=5", gap.lsa_risk_floor(H, Psi, bs,
                                                                                   0.49, 5), inf,
                    atol=OPTIM_RTOL * inf))
    return out


def check_thm41_gap(*, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Thm 4.1 (i)-(v): Appendix A fixtures (inf_LSA by BFGS, L, U, GD0gap), ``L ≤ gap ≤
    min(U, GD0gap)`` on random configurations incl. rank-deficient ones, ``β* = 0 ⇒ gap = 0``, and
    the exact case ``d = 1, σ = 0`` (spec C10)."""
    rng = np.random.default_rng(seed)
    out: list[Evidence] = []
    for row in APPENDIX_A if not quick else APPENDIX_A[:3]:
        d, N, s, m = row[:4]
        I = np.eye(d)
        bs = m * np.ones(d) / np.sqrt(d)
        inf = inf_lsa(I, bs, s * s, N, rng=rng, restarts=_n(quick, 1, 6)).value
        Rs = core.optimal_risk(I, I, s * s, N)
        tag = f"(d={d}, N={N}, sigma={s}, |beta*|={m})"
        out.append(_fixture(f"Appendix A inf_LSA {tag}", inf, row[6]))
        out.append(_fixture(f"Appendix A gap {tag}", inf - Rs, row[7]))
        out.append(_fixture(f"Appendix A L {tag}", gap.gap_lower_bound(I, I, bs, s * s, N), row[8]))
        out.append(_fixture(f"Appendix A U {tag}", gap.gap_upper_bound(I, I, bs, s * s, N), row[9]))
        out.append(_fixture(f"Appendix A GD0 gap {tag}", gap.gd0_gap(I, I, bs, s * s, N), row[10]))
    for dd, NN, s, m in ((1, 5, 0.0, 2.0), (1, 5, 1.0, 2.0)):
        I, bs = np.eye(dd), m * np.ones(dd) / np.sqrt(dd)
        full = inf_lsa(I, bs, s * s, NN, rng=rng, restarts=1).value
        nophi = inf_lsa(I, bs, s * s, NN, rng=rng, restarts=1, phi_zero=True).value
        if s == 0:
            out.append(float_agreement("sigma = 0: the phi term does not help the LSA", full, nophi,
                                       rtol=OPTIM_RTOL * 10))
        else:
            out.append(ordering("sigma > 0: the phi term helps the LSA (smaller inf_LSA)", full,
                                nophi, margin=OPTIM_RTOL * 10 * full))
        out.append(_leq(f"simplified bound <= L (d={dd}, N={NN}, sigma={s})",
                        gap.gap_lower_bound_simplified(I, I, bs, s * s, NN),
                        gap.gap_lower_bound(I, I, bs, s * s, NN), atol=FLOAT_RTOL * 100))
    worst_lo, worst_hi = -np.inf, -np.inf
    for k in range(_n(quick, 4, 40)):
        d = int(rng.integers(1, 4))
        N = int(rng.choice([2, 4, 10, 30]))
        s2 = float(rng.choice([0.0, 0.09, 1.0]))
        H, Psi, bs = random_setting(rng, d, singular_H=(k % 3 == 1) and d > 1,
                                    rank_Psi=1 if k % 3 == 2 else None, mean_scale=1.5)
        if np.trace(H @ Psi) + s2 <= 0:
            continue
        P, mu = core.whiten(H, Psi, bs)
        g = inf_lsa(P, mu, s2, N, rng=rng, restarts=_n(quick, 0, 4)).value \
            - core.optimal_risk(H, Psi, s2, N)
        L = gap.gap_lower_bound(H, Psi, bs, s2, N)
        up = min(gap.gap_upper_bound(H, Psi, bs, s2, N), gap.gd0_gap(H, Psi, bs, s2, N))
        worst_lo = max(worst_lo, L - g)
        worst_hi = max(worst_hi, g - up)
    out.append(close_agreement("max(L - gap) over random configs (gap >= L)", max(worst_lo, 0.0),
                               0.0, kind="FLOAT", atol=OPTIM_RTOL * 10))
    out.append(close_agreement("max(gap - min(U, GD0gap)) over random configs", max(worst_hi, 0.0),
                               0.0, kind="FLOAT", atol=OPTIM_RTOL * 10))
    H, Psi, _ = random_setting(rng, 2)
    P, mu = core.whiten(H, Psi, np.zeros(2))
    g0 = inf_lsa(P, mu, 0.25, 8, rng=rng, restarts=1).value - core.optimal_risk(H, Psi, 0.25, 8)
    out.append(close_agreement("beta* = 0 => gap = 0", g0, 0.0,
                               kind="FLOAT", atol=OPTIM_RTOL * core.optimal_risk(H, Psi, 0.25, 8)))
    h, psi, N, bst = 1.7, 0.6, 20, 1.3
    g1 = inf_lsa(np.array([[h * psi]]), np.array([np.sqrt(h) * bst]), 0.0, N, rng=rng,
                 restarts=1).value - core.optimal_risk([[h]], [[psi]], 0.0, N)
    ex = gap.gap_exact_d1_noiseless(h * bst**2, N)
    out.append(float_agreement("d=1, sigma=0: gap == 2|beta*|_H^2/(N+2)", g1, ex,
                               rtol=OPTIM_RTOL * 10))
    for name, val in (("L", gap.gap_lower_bound([[h]], [[psi]], [bst], 0.0, N)),
                      ("U", gap.gap_upper_bound([[h]], [[psi]], [bst], 0.0, N)),
                      ("GD0gap", gap.gd0_gap([[h]], [[psi]], [bst], 0.0, N))):
        out.append(float_agreement(f"d=1, sigma=0: {name} == exact gap", val, ex,
                                   rtol=FLOAT_RTOL * 100))
    out.append(_fixture("exact case N=20, |beta*|=4 (spec Appendix A)",
                        gap.gap_exact_d1_noiseless(16.0, 20), "1.454545"))
    return out


def gap_grid(Ns: tuple[int, ...], mus: tuple[float, ...], *, sigma2: float = 0.25, d: int = 2,
             seed: int = 0, restarts: int = 1) -> np.ndarray:
    """``inf_LSA − R*`` for ``H = Ψ = I_d``, ``β* = μ·1/√d`` on a grid (rows N, columns μ)."""
    rng = np.random.default_rng(seed)
    I = np.eye(d)
    out = np.empty((len(Ns), len(mus)))
    for i, N in enumerate(Ns):
        Rs = core.optimal_risk(I, I, sigma2, N)
        for j, m in enumerate(mus):
            mu = m * np.ones(d) / np.sqrt(d)
            out[i, j] = inf_lsa(I, mu, sigma2, N, rng=rng, restarts=restarts).value - Rs
    return out


def check_thm41_scaling(*, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Thm 4.1 (vi): gap ~ 1/N (log-log slope −1 at large N), ≈ ∝ ‖β*‖², strictly increasing in
    ‖β*‖ (``H = Ψ = I_2, σ = .5``; spec C11), plus the spec's measured grid at N = 5, 80."""
    Ns = (40, 80, 160)
    mus = (0.5, 1.0, 2.0, 4.0)
    r = _n(quick, 0, 2)  # quick: the two structured BFGS starts only (GD-0 optimum, centred)
    gN = gap_grid(Ns, (2.0,), seed=seed, restarts=r)[:, 0]
    out = [rate_agreement("gap vs N (|beta*| = 2), slope -1", Ns, gN, -1.0)]
    gm = gap_grid((20,), mus, seed=seed, restarts=r)[0]
    out.append(rate_agreement("gap vs |beta*| (N = 20), slope 2", mus, gm, 2.0))
    for j in range(len(mus) - 1):
        out.append(ordering(f"gap increasing in |beta*|: {mus[j]} < {mus[j + 1]}", gm[j],
                            gm[j + 1], margin=0.1 * gm[j]))
    if not quick:
        grid = gap_grid((5, 80), mus, seed=seed, restarts=4)
        printed = (("0.08321", "0.33342", "1.3189", "4.95724"),
                   ("0.00885", "0.03540", "0.14056", "0.52864"))
        for i, N in enumerate((5, 80)):
            for j, m in enumerate(mus):
                out.append(_fixture(f"spec C11 measured gap N={N}, |beta*|={m}", grid[i, j],
                                    printed[i][j]))
    return out


# ---------------------------------------------------------------- Lemma 6.1 / Cor 6.2 (C13)
def power_law_spectrum(d: int, alpha: float, total: float) -> np.ndarray:
    """``λ_i ∝ i^{−α}`` normalised to ``Σλ_i = total``."""
    lam = np.arange(1, d + 1, dtype=float) ** (-alpha)
    return lam * total / lam.sum()


def check_cor62(*, quick: bool = True, seed: int = 0, alpha: float = 2.0, d: int = 4000
                ) -> list[Evidence]:
    """Cor 6.2: ``(1/4)Σmin ≤ R* − σ² ≤ 2(1+κ)Σmin`` on random spectra (constants derived in the
    spec); power-law spectrum ``λ_i ∝ i^{−α}``, ``tr = σ²/2``: local slope of ``R* − σ²`` in N
    near N = 1000 is ``−(1 − 1/α)`` (spec C13)."""
    rng = np.random.default_rng(seed)
    lo_worst, hi_worst = -np.inf, -np.inf
    for _ in range(_n(quick, 2000, 20000)):
        k = int(rng.integers(1, 30))
        lam = rng.exponential(size=k) ** rng.uniform(0.5, 4)
        s2 = float(10 ** rng.uniform(-2, 1))
        N = int(rng.integers(1, 2000))
        ex = core.optimal_risk_eig(lam, s2, N) - s2
        lo, hi = gap.cor62_bounds(lam, s2, N)
        lo_worst = max(lo_worst, (lo - ex) / ex)
        hi_worst = max(hi_worst, (ex - hi) / ex)
    out = [close_agreement("max relative violation of (1/4) sum min <= R* - s2", max(lo_worst, 0),
                           0.0, kind="FLOAT", atol=FLOAT_RTOL * 100),
           close_agreement("max relative violation of R* - s2 <= 2(1+kappa) sum min",
                           max(hi_worst, 0), 0.0, kind="FLOAT", atol=FLOAT_RTOL * 100)]
    s2 = 1.0
    lam = power_law_spectrum(d, alpha, s2 / 2)
    Ns = np.array([700, 1000, 1400])
    ex = [core.optimal_risk_eig(lam, s2, int(n)) - s2 for n in Ns]
    out.append(rate_agreement(f"R* - s2 vs N, power law alpha={alpha}, d={d}: slope -(1-1/alpha)",
                              Ns, ex, -(1 - 1 / alpha)))
    sm = [gap.sum_min(lam, s2, int(n)) for n in Ns]
    out.append(rate_agreement("sum min(lambda_i, s2/N) vs N: slope -(1-1/alpha)", Ns, sm,
                              -(1 - 1 / alpha)))
    # without the SNR bound the ratio to Bayes is unbounded (spec §2.8: H = Psi = I_5, N = 20,
    # sigma 1 -> 0.03 takes (R* - s2)/(R_Bayes - s2) from ~4 to ~3578)
    from numerics.montecarlo import mc_mean
    from theory.common.baselines import bayes_conditional_risk

    ratios = {}
    for sig in (1.0, 0.03):
        def draw(r: np.random.Generator, B: int, s2b: float = sig**2) -> np.ndarray:
            X = r.standard_normal((B, 20, 5))
            return np.asarray(bayes_conditional_risk(X, np.eye(5), np.eye(5), s2b)) - s2b
        rb = mc_mean(draw, _n(quick, 2000, 20000), rng=rng)
        ratios[sig] = (core.optimal_risk(np.eye(5), np.eye(5), sig**2, 20) - sig**2) / rb.mean
    out.append(ordering("unbounded SNR: (R* - s2)/(R_Bayes - s2) grows > 100x as sigma 1 -> 0.03",
                        100 * ratios[1.0], ratios[0.03], margin=ratios[1.0],
                        details={"ratio_sigma_1": ratios[1.0], "ratio_sigma_0.03": ratios[0.03],
                                 "spec": "4 -> 3578"}))
    return out


# ---------------------------------------------------------------- Corollary G.1, Lemma G.2
def check_corG1_excess(*, quick: bool = True, seed: int = 0, d: int = 3, N: int = 8,
                       sigma2: float = 0.25) -> list[Evidence]:
    """Cor G.1: ``E(Γ, β)`` (decomposed form) == GD-β risk (shared closed form) − R* at random
    points, non-singular and singular ``H``; ``K(Γ) ⪰ H/(N+1)``."""
    rng = np.random.default_rng(seed)
    out: list[Evidence] = []
    for sing in (False, True):
        H, Psi, bs = random_setting(rng, d, singular_H=sing)
        for _ in range(_n(quick, 3, 20)):
            G = rng.standard_normal((d, d))
            beta = rng.standard_normal(d) * 2
            R = float(gd_beta_risk(G, beta, H, bs, Psi, sigma2, N))
            E = flow.excess_risk(G, beta, H, Psi, bs, sigma2, N)
            out.append(close_agreement(f"E(Gamma, beta) == R - R* (singular H={sing})", E,
                                       R - core.optimal_risk(H, Psi, sigma2, N),
                                       kind="FLOAT", atol=FLOAT_RTOL * 100 * R))
            K = np.asarray(flow.K_matrix(G, H, N))
            mineig = float(np.min(np.linalg.eigvalsh(K - H / (N + 1))))
            out.append(close_agreement(f"K(Gamma) - H/(N+1) is PSD (singular H={sing})",
                                       min(mineig, 0.0), 0.0,
                                       kind="FLOAT", atol=FLOAT_RTOL * 100 * float(np.max(np.abs(K)))))
    return out


def _risk_plain_complex(H: np.ndarray, Psi: np.ndarray, bs: np.ndarray, s2: float, N: int):
    Hh = psd_sqrt(H)
    P, mu = Hh @ Psi @ Hh, Hh @ bs
    d = H.shape[0]

    def f(x: np.ndarray) -> complex:
        G, beta = x[:d * d].reshape(d, d), x[d * d:]
        bb = Hh @ beta
        return _ltb_risk_w(NP, bb, bb, Hh @ G @ Hh, np.zeros(d), P, mu, s2, N)

    return f


def check_lemG2_rhs(*, quick: bool = True, seed: int = 0, d: int = 3, N: int = 8,
                    sigma2: float = 0.25) -> list[Evidence]:
    """Lemma G.2: the ODE right-hand sides equal ``−∇R`` (complex-step gradient of the exact risk)
    and the whitened system equals the transformed plain one (spec C14)."""
    rng = np.random.default_rng(seed)
    out: list[Evidence] = []
    for sing in (False, True):
        H, Psi, bs = random_setting(rng, d, singular_H=sing)
        G = rng.standard_normal((d, d))
        beta = rng.standard_normal(d)
        dG, db = flow.flow_rhs(G, beta, H, Psi, bs, sigma2, N)
        grad = cs_grad(_risk_plain_complex(H, Psi, bs, sigma2, N), np.concatenate([G.ravel(),
                                                                                  beta]))
        rhs = np.concatenate([np.asarray(dG).ravel(), np.asarray(db)])
        sc = float(np.max(np.abs(grad)))
        out.append(close_agreement(f"flow RHS == -grad R (complex step), singular H={sing}", rhs,
                                   -grad, kind="FLOAT", atol=FLOAT_RTOL * 100 * sc))
        Hh = psd_sqrt(H)
        dGw, dew = flow.flow_rhs_whitened(Hh @ G @ Hh, Hh @ (beta - bs), H, Hh @ Psi @ Hh,
                                          sigma2, N)
        out.append(close_agreement(f"whitened flow == transformed plain flow, singular H={sing}",
                                   np.concatenate([dGw.ravel(), dew]),
                                   np.concatenate([(Hh @ dG @ Hh).ravel(), Hh @ db]),
                                   kind="FLOAT", atol=FLOAT_RTOL * 100 * sc))
    return out


# ---------------------------------------------------------------------- Theorem 6.3 (C15, C16)
#: The verification tolerances (rtol 1e-10, atol 1e-12) with LSODA, as in spec 002 C15: the flow
#: becomes stiff near its limit (fast modes ~ λ_max(H)², slow ~ λ⁺_min(H)/(N+1)); DOP853 needs
#: ~30× more right-hand-side evaluations for the same accuracy.
FLOW_SOLVER = SolverConfig(method="LSODA", rtol=VERIFY.rtol, atol=VERIFY.atol)


def flow_trajectory(H: np.ndarray, Psi: np.ndarray, bs: np.ndarray, s2: float, N: int,
                    G0: np.ndarray, b0: np.ndarray, T: float, n_eval: int = 200):
    """Integrate the GD-β flow (Lemma G.2) with the verification solver; state ``(vec Γ, β)``."""
    d = H.shape[0]
    flow.flow_rhs(G0, b0, H, Psi, bs, s2, N)  # validates the setting once

    def rhs(t: float, y: np.ndarray) -> np.ndarray:
        dG, db = flow._flow_rhs(NP, y[:d * d].reshape(d, d), y[d * d:] - bs, H, Psi, s2, N)
        return np.concatenate([dG.ravel(), db])

    ts = (np.array([0.0, T]) if n_eval <= 2
          else np.concatenate([[0.0], np.geomspace(min(1e-2, T), T, n_eval - 1)]))
    return integrate(rhs, np.concatenate([G0.ravel(), b0]), (0.0, T), solver=FLOW_SOLVER,
                     t_eval=ts)


def check_thm63_flow(*, quick: bool = True, seed: int = 0, d: int = 3, N: int = 8,
                     sigma2: float = 0.25, gamma_fn: Any = None) -> list[Evidence]:
    """Thm 6.3: the GD-β flow from a random init converges to ``(Γ* + Γ0 − P_HΓ0P_H,
    P_Hβ* + (I − P_H)β0)`` (non-singular, T = 400, and singular H, T = 2000), conserves the
    invariants, has non-increasing excess risk ``E(t) → 0``, and obeys the β-rate bound
    (spec C15, C16).  ``gamma_fn`` (fault) replaces Γ* in the predicted limit."""
    rng = np.random.default_rng(seed)
    out: list[Evidence] = []
    for sing, T in ((False, 400.0), (True, 2000.0)):
        # spectrum of H in [0.5, 2.5] (plus an exact 0 if singular): the slowest mode then decays
        # like exp(-t/10) at N = 8, so T = 400 reaches the limit to solver precision
        H, Psi, bs = random_setting(rng, d, singular_H=sing, H_eigs=(0.5, 2.5))
        G0, b0 = 0.3 * rng.standard_normal((d, d)), rng.standard_normal(d)
        tr = flow_trajectory(H, Psi, bs, sigma2, N, G0, b0, T)
        y0 = np.concatenate([G0.ravel(), b0])
        out.append(solver_agreement(f"t = 0 returns the initial state (singular H={sing})",
                                    tr.y[0], y0))
        t1 = 0.05 * T  # semigroup: (0 -> t1) then (t1 -> 2 t1) == (0 -> 2 t1)
        a = flow_trajectory(H, Psi, bs, sigma2, N, G0, b0, 2 * t1, n_eval=2)
        m = flow_trajectory(H, Psi, bs, sigma2, N, G0, b0, t1, n_eval=2).final
        b2 = flow_trajectory(H, Psi, bs, sigma2, N, m[:d * d].reshape(d, d), m[d * d:], t1,
                             n_eval=2)
        out.append(solver_agreement(f"semigroup: flow(t1) then flow(t1) == flow(2 t1) (singular "
                                    f"H={sing})", b2.final, a.final))
        Gl, bl = flow.flow_limit(G0, b0, H, Psi, bs, sigma2, N, gamma_fn=gamma_fn)
        out.append(solver_agreement(f"flow(T={T:g}) == Thm 6.3 limit (singular H={sing})",
                                    tr.final, np.concatenate([Gl.ravel(), bl])))
        inv0 = np.concatenate([x.ravel() for x in flow.invariants(G0, b0, H)])
        invs = np.array([np.concatenate([x.ravel() for x in flow.invariants(
            y[:d * d].reshape(d, d), y[d * d:], H)]) for y in tr.y])
        out.append(solver_agreement(f"invariants conserved along the flow (singular H={sing})",
                                    np.max(np.abs(invs - inv0), axis=0) + inv0, inv0))
        Gs = core.optimal_gamma(H, Psi, sigma2, N)
        E = np.array([flow._excess(NP, y[:d * d].reshape(d, d), y[d * d:] - bs, Gs, H, Psi,
                                   sigma2, N) for y in tr.y])
        R0 = float(gd_beta_risk(G0, b0, H, bs, Psi, sigma2, N))
        out.append(close_agreement(f"E(t) non-increasing (max increase), singular H={sing}",
                                   max(float(np.max(np.diff(E))), 0.0), 0.0,
                                   kind="FLOAT", atol=SOLVER_BOUND * (FLOW_SOLVER.atol + FLOW_SOLVER.rtol * R0)))
        tail = (tr.t > 0.25 * T) & (E > 1e3 * SOLVER_ATOL * R0)
        if np.sum(tail) >= 3:
            from scipy import stats

            sl = float(stats.linregress(tr.t[tail], np.log(E[tail])).slope)
            out.append(ordering(f"log E(t) eventually linear with negative slope (singular "
                                f"H={sing})", sl, 0.0, margin=1.0 / T,
                                details={"slope": sl}))
        PH = psd_projector(H)
        e = (tr.y[:, d * d:] - bs) @ PH
        lhs = np.sum(e**2, axis=1)
        rhs_b = flow.beta_rate_bound(tr.t, b0, H, bs, N)
        out.append(close_agreement(f"beta-rate bound |P_H(beta(t)-beta*)|^2 <= exp(...) (max "
                                   f"violation), singular H={sing}",
                                   max(float(np.max(lhs - rhs_b)), 0.0), 0.0,
                                   kind="FLOAT", atol=SOLVER_BOUND * (FLOW_SOLVER.atol
                                                        + FLOW_SOLVER.rtol * float(lhs[0]))))
    return out


# ------------------------------------------------------------------------ cross-paper zfb24
def check_cross_zfb24(*, quick: bool = True, seed: int = 0, d: int = 3, N: int = 10,
                      s2: float = 0.3, finite_sample_factor: bool = True) -> list[Evidence]:
    """zwb24 ↔ zfb24: at ``β* = 0, σ = 0, Ψ = I, H = Λ`` the GD-β optimum Γ* equals zfb24's
    ``Γ⁻¹`` (``theory.lsa_flow.gamma``), and with label noise s² it equals zfb24's derived
    ``Γ_s⁻¹`` (``theory.lsa_flow.gamma_noisy``); exact at d = 1 with symbols."""
    from theory import lsa_flow

    rng = np.random.default_rng(seed)
    A = rng.standard_normal((d, d))
    Lam = A @ A.T / d + 0.2 * np.eye(d)
    I = np.eye(d)
    G0 = core.optimal_gamma(Lam, I, 0.0, N, finite_sample_factor=finite_sample_factor)
    ref0 = np.linalg.inv(np.asarray(lsa_flow.gamma(Lam, N), float))
    out = [close_agreement("Gamma*(H=Lambda, Psi=I, sigma=0) == zfb24 Gamma^-1", G0, ref0,
                           kind="FLOAT", atol=FLOAT_RTOL * 100 * float(np.max(np.abs(ref0))))]
    Gs = core.optimal_gamma(Lam, I, s2, N, finite_sample_factor=finite_sample_factor)
    refs = np.linalg.inv(np.asarray(lsa_flow.gamma_noisy(Lam, N, s2), float))
    out.append(close_agreement(f"Gamma*(H=Lambda, Psi=I, sigma^2={s2}) == zfb24 Gamma_s^-1", Gs,
                               refs, kind="FLOAT", atol=FLOAT_RTOL * 100 * float(np.max(np.abs(refs)))))
    Ns, lam, ss = sp.symbols("N lambda s2", positive=True)
    out.append(exact_agreement(
        "d=1 symbolic: Gamma*(lambda, 1, s2, N) == 1/Gamma_s(lambda, N, s2)",
        core.optimal_gamma(sp.Matrix([[lam]]), sp.eye(1), ss, Ns,
                           finite_sample_factor=finite_sample_factor)[0, 0],
        1 / lsa_flow.gamma_noisy(sp.Matrix([[lam]]), Ns, ss)[0, 0]))
    return out


# ------------------------------------------------------------------------- Lemma 6.1 (C12)
def check_lem61_bayes(*, quick: bool = True, seed: int = 0, d: int = 3, N: int = 6,
                      sigma2: float = 0.49) -> list[Evidence]:
    """Lemma 6.1 (spec C12): the Bayes predictor (shared ``bayes_posterior_mean``) has MC risk
    equal to ``E_X[L(β̂_Bayes; X)]`` (shared ``bayes_conditional_risk``, MC over X only), and
    ``R_Bayes < R*``; rate (b): under bounded SNR the log-log slope of ``R_Bayes − σ²`` in N
    matches that of ``Σ min(λ_i, σ²/N)`` (constants unspecified, so only the rate is tested)."""
    from numerics.montecarlo import mc_mean
    from numerics.sampling import sample_prompts
    from theory.common.baselines import bayes_conditional_risk, bayes_posterior_mean
    from theory.settings import LinearRegressionICL

    rng = np.random.default_rng(seed)
    H, Psi, bs = random_setting(rng, d)
    st = LinearRegressionICL.from_arrays(Sigma_x=H, N=N, task_mean=bs, task_cov=Psi,
                                         noise_var=sigma2)

    def full(r: np.random.Generator, B: int) -> np.ndarray:
        p = sample_prompts(st, B, rng=r)
        bh = bayes_posterior_mean(p.X, p.y, bs, Psi, sigma2)
        return (np.einsum("bd,bd->b", p.xq, bh) - p.yq) ** 2

    def semi(r: np.random.Generator, B: int) -> np.ndarray:
        X = gaussian_rows(r, (B, N), H)
        return np.asarray(bayes_conditional_risk(X, H, Psi, sigma2))

    p = sample_prompts(st, 64, rng=rng)
    ridge = bs + np.linalg.solve(np.einsum("bni,bnj->bij", p.X, p.X) + sigma2 * np.linalg.inv(Psi),
                                 np.einsum("bni,bn->bi", p.X, p.y - p.X @ bs)[:, :, None])[:, :, 0]
    bh = bayes_posterior_mean(p.X, p.y, bs, Psi, sigma2)
    out0 = [close_agreement("posterior mean == beta* + (X^TX + s2 Psi^-1)^-1 X^T(y - X beta*)",
                            bh, ridge, kind="FLOAT", atol=FLOAT_RTOL * 1e3 * (1 + float(np.max(np.abs(ridge)))))]
    n = _n(quick, 200_000, 1_000_000)
    e_full = mc_mean(full, n, rng=rng)
    e_semi = mc_mean(semi, n // 4, rng=rng)
    comb = type(e_full)(e_full.mean, float(np.hypot(e_full.se, e_semi.se)), e_full.n)
    Rs = core.optimal_risk(H, Psi, sigma2, N)
    out = out0 + [mc_agreement("Bayes predictor MC risk == E_X[conditional risk] (Lemma 6.1 a)",
                               e_semi.mean, comb),
           ordering("R_Bayes < R* (optimal GD-beta)", e_semi.mean, Rs, margin=Z_MC * e_semi.se)]
    # rate (b): bounded SNR, tr(H Psi) = sigma^2, lambda_i ∝ i^-1.5, d = 20
    dd, s2 = 20, 1.0
    lam = power_law_spectrum(dd, 1.5, s2)
    Ns = (20, 40, 80, 160)
    rb = []
    for NN in Ns:
        def draw(r: np.random.Generator, B: int, NN: int = NN) -> np.ndarray:
            X = r.standard_normal((B, NN, dd)) * np.sqrt(lam)
            return np.asarray(bayes_conditional_risk(X, np.diag(lam), np.eye(dd), s2)) - s2
        rb.append(mc_mean(draw, _n(quick, 1000, 5000), rng=rng).mean)
    sm = [gap.sum_min(lam, s2, NN) for NN in Ns]
    from scipy import stats
    slope = float(stats.linregress(np.log(Ns), np.log(sm)).slope)
    out.append(rate_agreement("R_Bayes - s2 vs N: slope of sum min(lambda_i, s2/N)", Ns, rb,
                              slope, details={"sum_min": sm}))
    return out
