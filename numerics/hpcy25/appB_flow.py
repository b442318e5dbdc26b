"""[hpcy25] App. B checks: the two-head gradient flow (B.1)–(B.4), its phases (B.5)–(B.18), and
Stages I/II of Obs. 2 on ``L̃`` (SOLVER tolerance)."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import sympy as sp

import theory.hpcy25 as th
from numerics.hpcy25.bands import band
from numerics.hpcy25.figures import compute_22
from numerics.hpcy25.flows import (
    STIFF,
    augmented_rhs,
    reduced_flow,
    stage_flow,
    two_head_flow,
)
from numerics.ode import integrate
from numerics.testing import (
    RATE_BAND,
    SOLVER_ATOL,
    claim_agreement,
    close_agreement,
    exact_agreement,
    float_agreement,
    loglog_slope,
    rate_agreement,
    solver_agreement,
)
from numerics.verdicts import skipped
from theory.common.protocols import Evidence
from theory.hpcy25.claims import CLAIMS
from theory.hpcy25.settings import Setting

#: two solutions integrated separately (each within its own solver tolerance) agree within this
#: many solver-tolerance units (solver_agreement's bound)
FLOW_PAIR_BOUND = 100.0
#: spec R10 prints the snapshots to 5 decimals: half a unit of the 5th decimal, plus 1e-9 for the
#: float rounding of the printed value
SNAPSHOT_ATOL = 5e-6 + 1e-9
#: the phase-I values are printed to 3-4 digits (0.5763, 3.843, 0.631): two half-units of the
#: coarsest (3rd) decimal
PHASE1_PRINTED_ATOL = 1e-3
#: half a unit of the 3rd decimal of the printed late-phase mu (7.637; the 4-decimal values are
#: held to the same band, the stiff solve over 1e6 time units resolves ~1e-4)
LATE_MU_PRINTED_ATOL = 5e-4
#: a lambdified float64 twin vs the exact expression at 30 digits (sinh/cosh of d omega^2 ~ 0.14)
TWIN_RTOL = 1e-12
#: absolute floor for the same comparison
TWIN_ATOL = 1e-14
#: peak ratios printed to 3 decimals: half a unit, plus 1e-9 for the float rounding of the printed
#: value
PEAK_RATIO_PRINTED_ATOL = 5e-4 + 1e-9

__all__ = [
    "check_appb_ode",
    "SNAPSHOTS",
    "check_appb_phases_ode",
    "fall_horizon",
    "check_appb_phases_ode_paper",
    "check_appb_phases_ode_late",
    "check_appb_phases_ode_late_paper",
    "check_appb_phases_ode_peak",
    "check_appb_phases_ode_peak_paper",
    "check_obs2_ode",
    "check_obs2_ode_more_heads",
]


def check_appb_ode(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_reduced_rhs_fn: Any = None,
) -> list[Evidence]:
    """(B.1)–(B.4): the symmetric orbit is invariant (ω₁+ω₂ = μ₁+μ₂ = 0); 4-D and reduced flows
    agree; (B.4) = −(s/2)∇L̃_red; the imbalance identity d(ω²−μ²)/dt (symbolic and integrated);
    semigroup law; time rescaling s = 1/2 ↔ 2t.  The flows start at ``setting``'s ``ε`` (Def.
    B.1) and run at its ``(d, L, σ²)``."""
    eps, d, L, sigma2 = setting.eps, setting.d, setting.L, setting.sigma2
    ev: list[Evidence] = []
    w, m, dd, LL, s2, s = sp.symbols("omega mu d L sigma2 s", positive=True)
    red = th.reduced_rhs(w, m, dd, LL, s2, s)
    F = th.ltilde_reduced(w, m, dd, LL, s2)
    ev.append(
        exact_agreement("(B.4) omega' = -(s/2) dLtilde_red/domega", red[0], -s / 2 * sp.diff(F, w))
    )
    ev.append(exact_agreement("(B.4) mu' = -(s/2) dLtilde_red/dmu", red[1], -s / 2 * sp.diff(F, m)))
    ev.append(
        exact_agreement(
            "d/dt (omega^2 - mu^2) = 8 s c_L mu^2 (sinh x - x cosh x)",
            2 * w * red[0] - 2 * m * red[1],
            th.imbalance_rate(w, m, dd, LL, s2, s),
        )
    )
    # the float twin at a generic point and time scale (s = 0.37, not 1) against the
    # exact -(s/2) grad Ltilde_red; ``fault_reduced_rhs_fn`` replaces the twin (negative control)
    rhs_fn = th.reduced_rhs_fn if fault_reduced_rhs_fn is None else fault_reduced_rhs_fn
    pt = {
        w: sp.Float("0.17"),
        m: sp.Float("2.3"),
        dd: d,
        LL: L,
        s2: sp.Float(sigma2),
        s: sp.Float("0.37"),
    }
    exact = [float(sp.N((-s / 2 * sp.diff(F, v)).subs(pt), 30)) for v in (w, m)]
    ev.append(
        float_agreement(
            "(B.4) float twin at s=0.37, (omega, mu)=(0.17, 2.3) = -(s/2) grad Ltilde_red",
            rhs_fn(2.5, np.array([0.17, 2.3]), d, L, sigma2, 0.37),
            exact,
            rtol=TWIN_RTOL,
            atol=TWIN_ATOL,
        )
    )
    # the reduced flow is the 4-D flow restricted to the orbit (ω, −ω, μ, −μ)
    w1, w2, m1, m2 = sp.symbols("w1 w2 m1 m2", real=True)
    full = [
        e.subs({w1: w, w2: -w, m1: m, m2: -m})
        for e in th.flow_rhs([w1, w2], [m1, m2], dd, LL, s2, s)
    ]
    ev.append(
        exact_agreement(
            "4-D flow on the symmetric orbit = reduced flow (omega_1)",
            full[0].rewrite(sp.exp),
            red[0].rewrite(sp.exp),
        )
    )
    ev.append(
        exact_agreement(
            "4-D flow on the symmetric orbit = reduced flow (mu_1)",
            full[2].rewrite(sp.exp),
            red[1].rewrite(sp.exp),
        )
    )
    T = 100.0 if quick else 2000.0
    ts = np.linspace(0, T, 401)
    tr4 = two_head_flow(T, eps=eps, d=d, L=L, sigma2=sigma2, t_eval=ts)
    tr2 = integrate(augmented_rhs, [eps, eps, 0.0], (0.0, T), args=(d, L, sigma2, 1.0), t_eval=ts)
    ev.append(
        solver_agreement(
            "omega_1 + omega_2 = 0 and mu_1 + mu_2 = 0 along the 4-D flow",
            np.c_[tr4.y[:, 0] + tr4.y[:, 1], tr4.y[:, 2] + tr4.y[:, 3]],
            np.zeros((len(ts), 2)),
        )
    )
    ev.append(
        solver_agreement(
            "4-D flow (omega_1, mu_1) = reduced flow",
            tr4.y[:, [0, 2]],
            tr2.y[:, :2],
            bound=FLOW_PAIR_BOUND,
            details={"note": "two solutions, each within its own tolerance"},
        )
    )
    imb = tr2.y[:, 0] ** 2 - tr2.y[:, 1] ** 2
    ev.append(
        solver_agreement(
            "omega^2 - mu^2 - (its initial value) = integrated rate",
            imb - imb[0],
            tr2.y[:, 2],
            bound=FLOW_PAIR_BOUND,
        )
    )
    ev.append(
        band(
            "omega^2 - mu^2 non-increasing (max successive increase ≤ solver atol)",
            float(np.diff(imb).max()),
            None,
            SOLVER_ATOL,
        )
    )
    t1 = T / 4
    a = two_head_flow(t1, eps=eps, d=d, L=L, sigma2=sigma2).final
    b = integrate(th.flow_rhs_fn, a, (t1, T), args=(d, L, sigma2, 1.0)).final
    ev.append(
        solver_agreement(
            "semigroup: flow to t1 then to T = flow to T", b, tr4.final, bound=FLOW_PAIR_BOUND
        )
    )
    half = two_head_flow(2 * T, eps=eps, d=d, L=L, sigma2=sigma2, s=0.5)
    ev.append(
        solver_agreement(
            "s = 1/2 at time 2T equals s = 1 at time T",
            half.final,
            tr4.final,
            bound=FLOW_PAIR_BOUND,
        )
    )
    return ev


SNAPSHOTS = {  # spec 001 R10 snapshot table (s = 1, eps = 1e-3, d=5, L=40, σ²=0.1): (ω, μ, L̃)
    1.0: (0.00739, 0.00739, None),
    2.0: (0.05441, 0.05441, None),
    3.0: (0.34427, 0.34449, None),
    4.0: (0.57371, 0.65044, 0.2805),
    5.0: (0.53435, 0.73540, None),
    10.0: (0.43819, 0.95172, 0.23857),
    100.0: (0.27308, 1.59632, 0.22338),
    2000.0: (0.16264, 2.69979, 0.22119),
}


@functools.lru_cache(maxsize=4)
def _phase_flow(eps: float, d: int, L: int, sigma2: float) -> dict[str, Any]:
    """The figure's flow and grids on the phases checks' horizon (t = 2000) and grids: one
    integration shared by :func:`check_appb_phases_ode` and :func:`check_appb_phases_ode_paper`."""
    return compute_22(
        T=2000.0,
        eps=eps,
        d=d,
        L=L,
        sigma2=sigma2,
        te=np.linspace(0, 12, 2401),
        tt=np.r_[np.linspace(0, 20, 2001), np.linspace(20, 2000, 2001)[1:]],
    )


def _peak(tr: Any) -> tuple[np.ndarray, int]:
    """The flow on the peak's window t ∈ [3, 5] (4001 points) and the index of ω's maximum."""
    yy = tr(np.linspace(3.0, 5.0, 4001))
    return yy, int(np.argmax(yy[:, 0]))


#: Phase I's window: the linearisation (B.5)-(B.6) is judged while ω is below this.
PHASE1_OMEGA = 0.02
#: The figure's horizon, where the paper's setting has ω at 0.28 of its peak (ω(2000) = 0.163).
PHASE_HORIZON = 2000.0
#: The fraction of its peak at which the late law puts ω at the horizon of the "falls" row: that
#: row asks the flow for at most half the peak (its band), the law predicts a third.
FALL_FRACTION = 1.0 / 3.0


def fall_horizon(omega_max: float, d: float, L: float, sigma2: float, s: float = 1.0) -> float:
    """The horizon of Obs. 4's "|ω| falls after its peak" row [derived]: the later of
    :data:`PHASE_HORIZON` and the time at which App. B's late law (Phase III: ``ω ≈ 1/(2κμ)`` on
    the nullcline, ``μ⁶ ≈ sξ(1+σ²)d²t/(8κ⁶)``, :func:`theory.hpcy25.late_mu_law`) puts ω at
    :data:`FALL_FRACTION` of ``omega_max``.  The late phase's clock runs as ``κ⁶/(ξ(1+σ²)d²)``:
    about 70 times slower at d = 1 than at the paper's d = 5 (L = 40, σ² = 0.1), where the law's
    time is 724 and the figure's horizon is kept.

    >>> fall_horizon(0.5763, 5, 40, 0.1)
    2000.0
    >>> round(fall_horizon(0.69, 1, 40, 0.1))  # d = 1: the fall takes ~3e4 time units
    30705
    """
    mu = 1.0 / (2.0 * float(th.kappa(d, L, sigma2)) * FALL_FRACTION * omega_max)  # ω ≈ 1/(2κμ)
    rate = float(th.late_mu_law(1.0, d, L, sigma2, s)) ** 6  # μ⁶ = rate·t
    return max(PHASE_HORIZON, mu**6 / rate)


@functools.lru_cache(maxsize=4)
def _fall_flow(T: float, eps: float, d: int, L: int, sigma2: float) -> Any:
    """The reduced flow (B.4) to ``T`` (the stiff solver of the figure's flow), for the "falls"
    row where its horizon is beyond the figure's."""
    return reduced_flow(T, eps=eps, d=d, L=L, sigma2=sigma2, solver=STIFF)


def _flow_peak(fig: dict[str, Any]) -> tuple[float, float]:
    """``(ω_max, its time)``: on :func:`_peak`'s fine window t ∈ [3, 5] when the figure's linear
    grid peaks inside it (the paper's setting: t = 3.843), else on a fine window of ±1 about the
    grid's peak (a peak outside [3, 5], e.g. at small d)."""
    tt, Y = fig["tt"], fig["yy"]
    t0 = float(tt[int(np.argmax(Y[:, 0]))])
    if 3.0 < t0 < 5.0:
        yy, k = _peak(fig["flow"])
        return float(yy[k, 0]), float(np.linspace(3.0, 5.0, 4001)[k])
    fine = np.linspace(max(t0 - 1.0, 0.0), t0 + 1.0, 4001)
    w = fig["flow"](fine)[:, 0]
    k = int(np.argmax(w))
    return float(w[k]), float(fine[k])


def check_appb_phases_ode(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """App. B phases I–II at ``setting``'s ``(ε, d, L, σ²)``: exponential start ``ε e^{2st}``
    (ratio within 1 % while ω < 0.02); L̃ is a Lyapunov function decreasing towards
    ``1 + σ² − 1/κ``; Obs. 4 shape (|ω| rises then falls, |μ| rises).  The fall is judged at
    :func:`fall_horizon` (the figure's t = 2000, or later where App. B's late phase runs slower,
    e.g. at d = 1).  Our reference snapshots and peak: :func:`check_appb_phases_ode_paper`."""
    eps, d, L, sigma2 = setting.eps, setting.d, setting.L, setting.sigma2
    ev: list[Evidence] = []
    fig = _phase_flow(eps, d, L, sigma2)
    ts, y = fig["te"], fig["ye"]
    early = y[:, 0] < PHASE1_OMEGA
    ratio = y[early, 0] / th.phase1_omega(ts[early], eps)
    row = band(
        "Phase I: omega(t)/(eps e^{2st}) - 1 while omega < 0.02 (band: ±1 %)",
        float(np.abs(ratio - 1).max()) if early.any() else 0.0,
        None,
        0.01,
    )
    if not early.any():  # the flow starts above the linear regime: no Phase I to judge
        row = skipped(
            row,
            why=f"the flow starts at ω = ε = {eps:g} ≥ {PHASE1_OMEGA:g}: no point of it lies in "
            "Phase I's window ω < 0.02 (the linearisation (B.5)-(B.6) needs a small start)",
        )
    ev.append(row)
    w_max, t_max = _flow_peak(fig)
    Y, lt = fig["yy"], fig["ltilde"]
    ev.append(
        band(
            "Ltilde non-increasing along the flow (max successive increase)",
            float(np.diff(lt).max()),
            None,
            1e-12,
        )
    )
    ev.append(
        band(
            "Ltilde(t=2000) - inf Ltilde ≥ 0 and small (Lyapunov, → 1+σ²-1/kappa)",
            float(lt[-1] - th.ltilde_inf(d, L, sigma2)),
            0.0,
            1e-3,
        )
    )
    ev.append(
        band("Obs 4: |mu| non-decreasing along the flow", float(np.diff(Y[:, 1]).min()), 0.0, None)
    )
    T = fall_horizon(w_max, d, L, sigma2)
    late = T > PHASE_HORIZON
    w_T = float(_fall_flow(T, eps, d, L, sigma2).final[0]) if late else float(Y[-1, 0])
    ev.append(
        band(
            f"Obs 4: |omega| falls after its peak (omega({T:.6g})/omega_max)",
            w_T / w_max,
            None,
            0.5,
            details={"T": T, "omega_max": w_max, "t_peak": t_max, "omega_T": w_T},
        )
    )
    return ev


def check_appb_phases_ode_paper(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_flow_sigma2: float | None = None,
) -> list[Evidence]:
    """App. B phases I–II: our snapshot table (5 decimals) and peak (ω_max = 0.5763 at
    t = 3.843, μ = 0.631), printed for ``ε = 1e-3, d = 5, L = 40, σ² = 0.1`` (``setting``:
    declared fixed there).  ``fault_flow_sigma2`` integrates the flow at another σ² than the
    printed table's (negative control)."""
    eps, d, L, sigma2 = setting.eps, setting.d, setting.L, setting.sigma2
    if fault_flow_sigma2 is not None:  # FAULT: the flow at another noise level
        sigma2 = fault_flow_sigma2
    ev: list[Evidence] = []
    tr = _phase_flow(eps, d, L, sigma2)["flow"]
    for t_, (wr, mr, lr) in SNAPSHOTS.items():
        wv, mv = tr(t_)
        ev.append(
            close_agreement(
                f"snapshot t={t_:g}: (omega, mu) vs reference (5 decimals)",
                [wv, mv],
                [wr, mr],
                atol=SNAPSHOT_ATOL,
                kind="FLOAT",
            )
        )
        if lr is not None:
            dig = 4 if t_ == 4.0 else 5
            ev.append(
                close_agreement(
                    f"snapshot t={t_:g}: Ltilde_red vs reference",
                    th.ltilde_reduced(wv, mv, d, L, sigma2),
                    lr,
                    atol=0.5 * 10.0**-dig + 1e-9,
                    kind="FLOAT",
                )
            )
    fine = np.linspace(3.0, 5.0, 4001)
    yy, k = _peak(tr)
    ev.append(
        close_agreement(
            "omega peak value and time, mu at peak (reference: 0.5763, 3.843, 0.631)",
            [yy[k, 0], fine[k], yy[k, 1]],
            [0.5763, 3.843, 0.631],
            atol=PHASE1_PRINTED_ATOL,
            kind="FLOAT",
        )
    )
    return ev


@functools.lru_cache(maxsize=4)
def _late_flow(d: int, L: int, sigma2: float) -> dict[str, Any]:
    """The figure's flow to t = 1e6 on the late-phase grid ``logspace(4, 6, 9)``: one integration
    shared by :func:`check_appb_phases_ode_late` and :func:`check_appb_phases_ode_late_paper`."""
    return compute_22(T=1e6, d=d, L=L, sigma2=sigma2, t=np.logspace(4, 6, 9))


def check_appb_phases_ode_late(
    setting: Setting, *, quick: bool = True, seed: int = 0
) -> list[Evidence]:
    """Phase III at ``setting``'s ``(d, L, σ²)``: ``2ωμ → 1/κ`` (|·| < 1e-3 at t = 1e4); late
    slope of log μ on [1e4, 1e6] in [0.15, 0.19] and = 1/6 (RATE); μ against the derived law
    ``μ⁶ ≈ sξ(1+σ²)d²t/(8κ⁶)`` at t = 1e6; our reading ω ~ t^{-1/2} of the paper heuristic
    (exponent lost in the OCR) vs the measured t^{-1/6} (an ``unconfirmed`` row).  Our reference
    values: :func:`check_appb_phases_ode_late_paper`."""
    d, L, sigma2 = setting.d, setting.L, setting.sigma2
    ev: list[Evidence] = []
    tl = np.logspace(4, 6, 9)
    fig = _late_flow(d, L, sigma2)  # the figure's flow, to t = 1e6
    tr = fig["flow"]
    Y = tr(np.array([1e3, 1e4, 1e5, 1e6]))
    ev.append(
        band(
            "|2 omega mu - 1/kappa| at t = 1e4 (band: < 1e-3)",
            abs(2 * Y[1, 0] * Y[1, 1] - th.eta_star(d, L, sigma2)),
            None,
            1e-3,
        )
    )
    mu = fig["y"][:, 1]
    om = fig["y"][:, 0]
    slope = loglog_slope(tl, mu)
    ev.append(
        band("late slope of log mu vs log t on [1e4, 1e6] (band: [0.15, 0.19])", slope, 0.15, 0.19)
    )
    ev.append(
        rate_agreement(
            "mu ~ t^{1/6} late [D]", tl.tolist(), mu.tolist(), float(th.LATE_MU_EXPONENT)
        )
    )
    ev.append(
        band(
            "mu(t)/law(t) - 1 at t = 1e6 (law is asymptotic)",
            float(mu[-1] / th.late_mu_law(1e6, d, L, sigma2) - 1),
            -2e-3,
            2e-3,
        )
    )
    # The flow at speed s is the s = 1 flow at time s·t (check_appb_ode's s = 1/2 row), so the
    # late law must read s only through s·t: at a generic s the law at (t, s) is the law at s·t.
    ev.append(
        float_agreement(
            "late law's speed s enters as s*t: law(t = 1e6, s = 0.37) = law(t = 3.7e5, s = 1)",
            float(th.late_mu_law(1e6, d, L, sigma2, 0.37)),
            float(th.late_mu_law(0.37e6, d, L, sigma2)),
        )
    )
    om_slope = loglog_slope(tl, om)
    # Paper heuristic after (B.17)-(B.18): its omega exponent is lost in the OCR; the spec reads
    # omega ~ t^{-1/2}.  Our routes (this ODE fit and the derived nullcline law
    # omega ≈ 1/(2 kappa mu), mu ~ t^{1/6}) give t^{-1/6}: a reading not reproduced (unconfirmed).
    ev.append(
        claim_agreement(
            "Phase III rate of omega: t^{-1/2} (our reading of the paper heuristic) vs fitted ODE "
            "slope on [1e4, 1e6]",
            kind="RATE",
            paper=float(th.HEURISTIC_OMEGA_EXPONENT),
            ours=-float(th.LATE_MU_EXPONENT),
            observed=om_slope,
            atol=RATE_BAND,
            source="[hpcy25] App. B, Phase III heuristic after (B.17)-(B.18)",
            claim=CLAIMS["appB-phase3-omega-rate"],
            details={
                "mu_slope": slope,
                "why": "the heuristic slaves mu to m*(omega); the true flow "
                "has omega fast, giving mu ~ t^{1/6} and omega ≈ 1/(2 kappa mu) ~ t^{-1/6}",
            },
        )
    )
    return ev


def check_appb_phases_ode_late_paper(
    setting: Setting, *, quick: bool = True, seed: int = 0
) -> list[Evidence]:
    """Phase III: μ(t) at t = 1e3 … 1e6 and the derived law's μ(1e6) against our reference
    values (2.3996, 3.5398, 5.2013, 7.6362; 7.637), for ``d = 5, L = 40, σ² = 0.1``
    (``setting``: declared fixed there)."""
    d, L, sigma2 = setting.d, setting.L, setting.sigma2
    Y = _late_flow(d, L, sigma2)["flow"](np.array([1e3, 1e4, 1e5, 1e6]))
    return [
        close_agreement(
            "mu(t) at t = 1e3..1e6 (reference: 2.3996, 3.5398, 5.2013, 7.6362)",
            Y[:, 1],
            [2.3996, 3.5398, 5.2013, 7.6362],
            atol=LATE_MU_PRINTED_ATOL,
            kind="FLOAT",
        ),
        close_agreement(
            "mu(1e6) vs the derived law (reference: 7.637)",
            th.late_mu_law(1e6, d, L, sigma2),
            7.637,
            atol=LATE_MU_PRINTED_ATOL,
            kind="FLOAT",
        ),
    ]


@functools.lru_cache(maxsize=4)
def _peak_ratios(sigma2: float, xi: float, quick: bool) -> list[float]:
    """``ω_max √d / √W(L/(1+σ²))`` of the reduced flow for d ∈ {5, 20, 80} (full tier: and 320)
    at ``L = d/ξ``: shared by :func:`check_appb_phases_ode_peak` and its ``_paper`` twin."""
    ds = (5, 20, 80) if quick else (5, 20, 80, 320)
    ratios = []
    for d in ds:
        L = d / xi
        tr = reduced_flow(8.0, d=d, L=L, sigma2=sigma2)
        ts = np.linspace(1.0, 8.0, 14001)
        wmax = float(tr(ts)[:, 0].max())
        ratios.append(wmax / th.peak_omega_lambert(d, L, sigma2))
    return ratios


def check_appb_phases_ode_peak(
    setting: Setting, *, quick: bool = True, seed: int = 0
) -> list[Evidence]:
    """Phase II: ``ω_max √d / √W(L/(1+σ²))`` increases towards 1 along d at ``setting``'s fixed
    ``ξ = d/L`` and ``σ²`` (d ∈ {5, 20, 80}, full tier also 320), and stays ≤ 1.  Our reference
    ratios: :func:`check_appb_phases_ode_peak_paper`."""
    ratios = _peak_ratios(setting.sigma2, setting.xi, quick)
    return [
        band(
            "omega_max / Lambert-W prediction increases with d",
            float(np.diff(ratios).min()),
            0.0,
            None,
            details={"ratios": ratios},
        ),
        band("ratio ≤ 1 (the prediction bounds the peak)", max(ratios), None, 1.0),
    ]


def check_appb_phases_ode_peak_paper(
    setting: Setting, *, quick: bool = True, seed: int = 0
) -> list[Evidence]:
    """Phase II: the peak ratios at d = 5, 20, 80 against our reference values (
    0.795, 0.932, 0.973), for ``ξ = 1/8, σ² = 0.1`` (``setting``: declared fixed there)."""
    ratios = _peak_ratios(setting.sigma2, setting.xi, quick)
    return [
        close_agreement(
            "ratios at d = 5, 20, 80 (reference: 0.795, 0.932, 0.973)",
            ratios[:3],
            [0.795, 0.932, 0.973],
            atol=PEAK_RATIO_PRINTED_ATOL,
            kind="FLOAT",
        ),
    ]


def _obs2_rows(H: int, seed: int, d: int, L: int, sigma2: float) -> list[Evidence]:
    """Stage I/II rows of the gradient flow of L̃ with ``H`` heads from a small random init."""
    y = stage_flow(H, seed=seed, d=d, L=L, sigma2=sigma2)
    w, m = y[:H], y[H:]
    act = np.abs(m) >= 0.05 * np.abs(m).max()
    big = np.abs(m) > 0.05
    tag = f"H={H}"
    return [
        band(
            f"{tag}: |sum mu| / ||mu||_1 ≤ 0.01 (zero-sum OV)",
            abs(m.sum()) / np.abs(m).sum(),
            None,
            0.01,
        ),
        band(
            f"{tag}: sign matching on |mu_h| > 0.05 (min omega_h mu_h)",
            float((w * m)[big].min()),
            0.0,
            None,
        ),
        band(
            f"{tag}: max/min |omega_h| over active heads ≤ 1.05 (homogeneous KQ)",
            float(np.abs(w[act]).max() / np.abs(w[act]).min()),
            1.0,
            1.05,
        ),
        band(
            f"{tag}: |<omega, mu> - 1/kappa| ≤ 0.01",
            abs(w @ m - th.eta_star(d, L, sigma2)),
            None,
            0.01,
        ),
        band(
            f"{tag}: Ltilde - inf Ltilde ≤ 2e-3",
            th.ltilde(list(w), list(m), d, L, sigma2) - th.ltilde_inf(d, L, sigma2),
            0.0,
            2e-3,
        ),
    ]


def check_obs2_ode(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Stage I/II on L̃ with ``setting``'s H ≥ 2 heads at its ``(d, L, σ²)``: from
    a small random init, zero-sum ``|Σμ| ≤ 0.01‖μ‖₁``, sign matching on ``|μ_h| > 0.05``,
    homogeneity ``max/min |ω_h| ≤ 1.05`` on active heads (``|μ_h| ≥ 0.05 max|μ|``),
    ``|⟨ω,μ⟩ − 1/κ| ≤ 0.01``, ``L̃ − inf L̃ ≤ 2e-3``.  More head counts:
    :func:`check_obs2_ode_more_heads`."""
    return _obs2_rows(setting.H, seed, setting.d, setting.L, setting.sigma2)


def check_obs2_ode_more_heads(
    setting: Setting, *, quick: bool = True, seed: int = 0
) -> list[Evidence]:
    """:func:`check_obs2_ode`'s rows at our further head counts, H = 4 (full tier: 3, 4,
    8), at ``setting``'s ``(d, L, σ²)`` (declared fixed at the paper's setting: the head counts are
    generic cases beside the setting's H, not a setting)."""
    return [
        e
        for H in ((4,) if quick else (3, 4, 8))
        for e in _obs2_rows(H, seed, setting.d, setting.L, setting.sigma2)
    ]
