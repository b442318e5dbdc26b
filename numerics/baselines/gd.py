"""Checks of the GD-family risks (``base:gd``, ``base:gd-beta``, ``base:dgd``): raw-prompt Monte
Carlo, exact symbolic reductions, float64 vs exact rationals.

Every check takes :class:`~theory.common.settings.GaussianSetting` first: the Monte Carlo routes
run the pinned cases (d = 3) at its prompt length N; the exact and float routes (symbolic
matrices, the pinned cases at N = 8 in exact rationals) read no setting and are declared fixed in
:mod:`sims.common.results`."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import sympy as sp

from numerics import references as ref
from numerics.baselines.cases import (
    CASES,
    case_setting,
    dgd_predict,
    gd_beta_predict,
)
from numerics.montecarlo import mc_means
from numerics.sampling import check_rng, sample_prompts
from numerics.testing import (
    exact_agreement,
    float_agreement,
    mc_agreement,
)
from theory.common import baselines as B
from theory.common.protocols import Estimate, Evidence
from theory.common.settings import GaussianSetting
from theory.settings import LinearRegressionICL


# ------------------------------------------------------------------------ GD family vs MC
@functools.lru_cache(maxsize=32)
def _gd_family_mc(case: str, N: int, n: int, seed: int) -> tuple[Estimate, Estimate, Estimate]:
    """Squared query errors of GD, GD-β and DGD on the same raw prompts (common random numbers)."""
    s, p = case_setting(case, N)

    def draw(rng: np.random.Generator, b: int) -> np.ndarray:
        pb = sample_prompts(s, b, rng=rng)
        gd = gd_beta_predict(p["Gamma"], np.zeros(s.d), pb.X, pb.y, pb.xq)
        gdb = gd_beta_predict(p["Gamma"], p["beta0"], pb.X, pb.y, pb.xq)
        dgd = dgd_predict(p["P"], p["eta"], pb.X, pb.y, pb.xq)
        return np.stack([(gd - pb.yq) ** 2, (gdb - pb.yq) ** 2, (dgd - pb.yq) ** 2], axis=1)

    # one stream for the three GD-family checks: common random numbers across GD, GD-β, DGD
    est = mc_means(draw, n, rng=check_rng(seed, f"{__name__}:_gd_family_mc", case, N))
    return est[0], est[1], est[2]


def _n_gd(quick: bool) -> int:
    return 120_000 if quick else 1_000_000


def _gd_family_check(
    which: int,
    label: str,
    theory: Callable[[LinearRegressionICL, dict], float],
    *,
    quick: bool,
    seed: int,
    cases: Sequence[str],
    N: int,
) -> list[Evidence]:
    out = []
    for case in cases:
        s, p = case_setting(case, N)
        est = _gd_family_mc(case, N, _n_gd(quick), seed)[which]
        pred = float(theory(s, p))
        out.append(
            mc_agreement(
                f"{label} risk, {case}, N={N}", pred, est, details={"case": case, "N": N, "d": s.d}
            )
        )
    return out


def check_gd_mc(
    setting: GaussianSetting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_risk_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """MC (raw prompts, the pinned cases at the setting's N): one-step preconditioned GD (von
    Oswald) vs :func:`gd_risk`."""
    fn = fault_risk_fn or B.gd_risk
    return _gd_family_check(
        0,
        "GD",
        lambda s, p: fn(p["Gamma"], s.Sigma_x, s.task_mean, s.task_cov, s.noise_var, s.N),
        quick=quick,
        seed=seed,
        cases=CASES,
        N=setting.N,
    )


def check_gd_beta_mc(
    setting: GaussianSetting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_risk_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """MC (raw prompts, the pinned cases at the setting's N): GD with learnable initialisation
    (GD-β) vs :func:`gd_beta_risk`."""
    fn = fault_risk_fn or B.gd_beta_risk
    return _gd_family_check(
        1,
        "GD-beta",
        lambda s, p: fn(
            p["Gamma"], p["beta0"], s.Sigma_x, s.task_mean, s.task_cov, s.noise_var, s.N
        ),
        quick=quick,
        seed=seed,
        cases=CASES,
        N=setting.N,
    )


def check_dgd_mc(
    setting: GaussianSetting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_risk_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """MC (raw prompts, the pinned cases at the setting's N ≥ 2): preconditioned debiased GD vs
    :func:`dgd_risk` (task mean included)."""
    fn = fault_risk_fn or B.dgd_risk
    return _gd_family_check(
        2,
        "DGD",
        lambda s, p: fn(
            p["P"], p["eta"], s.Sigma_x, s.task_cov, s.noise_var, s.N, task_mean=s.task_mean
        ),
        quick=quick,
        seed=seed,
        cases=CASES,
        N=setting.N,
    )


def _sym_spd2(prefix: str) -> sp.Matrix:
    a, b, c = sp.symbols(f"{prefix}11 {prefix}12 {prefix}22", real=True)
    return sp.Matrix([[a, b], [b, c]])


def check_gd_family_exact(
    setting: GaussianSetting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_gd_beta_fn: Callable[..., Any] | None = None,
    fault_dgd_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """EXACT: (i) GD-β risk = our derived display (d = 2, symbolic symmetric H, Ψ,
    general Γ, β0, β*, σ², N); (ii) GD at ``Γ = ηI, H = I, Ψ = I/d`` = hpcy25's ``R_V`` and
    (iii) DGD = hpcy25's ``R_D`` (symbolic d, N, η, σ²); (iv) DGD(P, η; N) =
    GD(η(N−1)/N Pᵀ; N − 1) at d = 2 (the reduction behind [derived] DGD)."""
    gdb = fault_gd_beta_fn or B.gd_beta_risk
    dgd = fault_dgd_fn or B.dgd_risk
    Nn = sp.Symbol("N", integer=True, positive=True)
    s2, eta = sp.Symbol("sigma2", nonnegative=True), sp.Symbol("eta", real=True)
    H, Psi = _sym_spd2("h"), _sym_spd2("p")
    Gm = sp.Matrix(2, 2, lambda i, j: sp.Symbol(f"g{i}{j}", real=True))
    b0 = sp.Matrix(sp.symbols("b0:2", real=True))
    mu = sp.Matrix(sp.symbols("m0:2", real=True))
    Psib = Psi + (mu - b0) * (mu - b0).T
    c = (H * Psib).trace() + s2
    printed = (
        s2
        + (H * Psib).trace()
        - 2 * (H * Gm * H * Psib).trace()
        + (Nn + 1) / Nn * (H * Gm.T * H * Gm * H * Psib).trace()
        + c / Nn * (Gm.T * H * Gm * H).trace()
    )  # spec 002 §2.1
    out = [
        exact_agreement(
            "GD-beta risk vs the closed form of [zwb24]'s GD-β model (5.1) (d=2)",
            sp.expand(gdb(Gm, b0, H, mu, Psi, s2, Nn) - printed),
            0,
        )
    ]
    dd = sp.Symbol("d", integer=True, positive=True)
    Id = sp.Identity(dd)
    L = Nn
    RV = 1 + s2 - 2 * eta + eta**2 * (1 + (dd * (1 + s2) + 1) / L)  # spec 001 R9 R_V
    RD = 1 + s2 - 2 * eta * (L - 1) / L + eta**2 * (L - 1) * (L + dd * (1 + s2)) / L**2  # R_D
    gdv = gdb(eta * Id, sp.ZeroMatrix(dd, 1), Id, sp.ZeroMatrix(dd, 1), Id / dd, s2, Nn)
    out.append(exact_agreement("GD(eta I) vs hpcy25 R_V (symbolic d, L)", sp.simplify(gdv - RV), 0))
    out.append(
        exact_agreement(
            "DGD(I, eta) vs hpcy25 R_D (symbolic d, L)",
            sp.simplify(dgd(Id, eta, Id, Id / dd, s2, Nn) - RD),
            0,
        )
    )
    # (iv) at exact rational matrices (full symbolic expansion of the 2×2 difference is
    # slow), keeping N, eta, sigma2 symbolic; three fixed rational draws.
    rng = np.random.default_rng(7)
    for k in range(2 if quick else 4):

        def rat(shape: tuple[int, int], sym: bool = False) -> sp.Matrix:
            v = rng.integers(-6, 7, size=shape)
            M = sp.Matrix(shape[0], shape[1], lambda i, j: sp.Rational(int(v[i, j]), 5))
            return M * M.T + sp.eye(shape[0]) / 7 if sym else M

        Hk, Pk, Psik, muk = rat((2, 2), True), rat((2, 2)), rat((2, 2), True), rat((2, 1))
        lhs = dgd(Pk, eta, Hk, Psik, s2, Nn, task_mean=muk)
        rhs = gdb(eta * (Nn - 1) / Nn * Pk.T, sp.zeros(2, 1), Hk, muk, Psik, s2, Nn - 1)
        out.append(
            exact_agreement(
                f"DGD(P, eta; N) = GD(eta (N-1)/N P^T; N-1), d=2, draw {k}", sp.cancel(lhs - rhs), 0
            )
        )
    return out


def check_gd_family_float(
    setting: GaussianSetting, *, quick: bool = True, seed: int = 0
) -> list[Evidence]:
    """FLOAT: the float64 GD / GD-β / DGD risks vs their exact values at the same (rational)
    inputs, for the pinned cases; ``rtol = FLOAT_RTOL``."""
    out = []
    for case in CASES:
        s, p = case_setting(case)
        args = (s.Sigma_x, s.task_mean, s.task_cov, s.noise_var)
        out.append(
            float_agreement(
                f"gd_beta_risk float64 vs exact, {case}",
                B.gd_beta_risk(p["Gamma"], p["beta0"], *args, s.N),
                ref.exact_rational(B.gd_beta_risk, p["Gamma"], p["beta0"], *args, s.N, ints=(6,)),
            )
        )
        out.append(
            float_agreement(
                f"dgd_risk float64 vs exact, {case}",
                B.dgd_risk(
                    p["P"], p["eta"], s.Sigma_x, s.task_cov, s.noise_var, s.N, task_mean=s.task_mean
                ),
                ref.exact_rational(
                    lambda P, e, S, Psi, v, N, mu: B.dgd_risk(P, e, S, Psi, v, N, task_mean=mu),
                    p["P"],
                    p["eta"],
                    s.Sigma_x,
                    s.task_cov,
                    s.noise_var,
                    s.N,
                    s.task_mean,
                    ints=(5,),
                ),
            )
        )
    return out
