"""[hpcy25] §4.1 Proposition 4.1 checks: identities of ``L̃`` (EXACT), the landscape against
the true loss (MC), Stein's lemma, and the O(1/L) gap on the manifold (MC + RATE)."""

from __future__ import annotations

import dataclasses
import math
import time

import mpmath
import numpy as np
import sympy as sp

import theory.hpcy25 as th
from numerics.hpcy25.bands import band
from numerics.hpcy25.figures import compute_6
from numerics.hpcy25.mc import (
    ltilde_landscape_mc,
    risk_mc,
)
from numerics.hpcy25.predictors import (
    sample_covariates,
    softmax,
    tf_weights,
)
from numerics.montecarlo import MAX_RAISE, mc_means
from numerics.sampling import check_rng
from numerics.testing import (
    FLOAT_RTOL,
    MC_POWER,
    Z_MC,
    exact_agreement,
    float_agreement,
    loglog_slope,
    mc_agreement,
    needed_samples,
    rate_agreement,
    underpowered,
)
from numerics.verdicts import skipped
from theory.common.protocols import Evidence
from theory.hpcy25.settings import Setting

__all__ = [
    "check_prop4_1_symbolic",
    "check_prop4_1_mc",
    "check_prop4_1_mc_stein",
    "check_prop4_1_mc_gap",
]

#: The label of this module's random streams: its registered path before the sections
#: (kept fixed so the streams do not move).
_STREAM = "numerics.softmax_multihead.checks_sec4_1"  # stream label: fixed

_w, _m = sp.Symbol("omega", positive=True), sp.Symbol("m", real=True)
_d, _L = sp.Symbol("d", positive=True), sp.Symbol("L", positive=True)
_s2 = sp.Symbol("sigma2", nonnegative=True)
_eta = sp.Symbol("eta", real=True)
_xi = sp.Symbol("xi", positive=True)


def check_prop4_1_symbolic(
    setting: Setting, *, quick: bool = True, seed: int = 0
) -> list[Evidence]:
    """Prop. 4.1: gradients of ``L̃`` (hand formula vs ``sp.diff``) and exactness at ω = 0 in the
    symbols ``d, L, σ²``; the Stage-II power-series rewrite (float vs an 80-term 50-digit series)
    at random points of ``setting``'s ``(d, L, σ²)``."""
    d, L, sigma2 = setting.d, setting.L, setting.sigma2
    ev: list[Evidence] = []
    om = sp.symbols("w1 w2", real=True)
    mu = sp.symbols("m1 m2", real=True)
    F = th.ltilde(om, mu, _d, _L, _s2)
    g_om, g_mu = th.ltilde_grad(om, mu, _d, _L, _s2)
    for i in range(2):
        ev.append(
            exact_agreement(
                f"dLtilde/domega_{i + 1} (closed-form gradient vs sp.diff)",
                g_om[i],
                sp.diff(F, om[i]),
            )
        )
        ev.append(
            exact_agreement(
                f"dLtilde/dmu_{i + 1} (closed-form gradient vs sp.diff)", g_mu[i], sp.diff(F, mu[i])
            )
        )
    mus = sp.symbols("m1:4", real=True)
    ev.append(
        exact_agreement(
            "Ltilde(0, mu) = 1+σ² + (1+σ²)(Σμ)²/L (exact at ω = 0)",
            th.ltilde((0, 0, 0), mus, _d, _L, _s2),
            1 + _s2 + (1 + _s2) * sum(mus) ** 2 / _L,
        )
    )
    rng = check_rng(seed, f"{_STREAM}:check_prop4_1_symbolic")
    for _ in range(3 if quick else 20):
        H = int(rng.integers(1, 5))
        w = rng.uniform(-0.3, 0.3, H)
        m = rng.uniform(-4, 4, H)
        with mpmath.workdps(50):
            ref = th.ltilde_series(
                [mpmath.mpf(v) for v in w],
                [mpmath.mpf(v) for v in m],
                d,
                L,
                mpmath.mpf(repr(sigma2)),  # the decimal σ² (0.1 exactly, not its binary double)
                80,
            )
        ev.append(
            float_agreement(
                f"Ltilde closed form vs power series (H={H})",
                th.ltilde(list(w), list(m), d, L, sigma2),
                float(ref),
                rtol=FLOAT_RTOL,
                details={"omega": w, "mu": m},
            )
        )
    return ev


def check_prop4_1_mc(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_kernel_scale: float | None = None,
    fault_task_var: float | None = None,
) -> list[Evidence]:
    """Prop. 4.1 on the Fig. 6 grid (ω ∈ [0, 0.2], μ ∈ [0, 6], symmetric pair): bands
    ``|Loss − L̃| ≤ 0.10`` everywhere and ``≤ 0.03`` in the valley ``L̃ ≤ 0.6``; exactness at ω = 0
    (MC, z = 5).  ``fault_kernel_scale=1`` (exp(ωωᵀ) without the factor d) is the negative control;
    ``fault_task_var`` changes the β prior of the sampled prompts.  At ``setting``'s
    ``(d, L, σ²)``."""
    d, L, sigma2 = setting.d, setting.L, setting.sigma2
    rng = check_rng(seed, f"{_STREAM}:check_prop4_1_mc")
    n = 20_000 if quick else 100_000
    t0 = time.perf_counter()
    fig = compute_6(  # the figure's landscape on this check's grid, sample size and stream
        omegas=np.linspace(0, 0.2, 5 if quick else 20),
        mus=np.linspace(0, 6, 7 if quick else 20),
        n=n,
        rng=rng,
        d=d,
        L=L,
        sigma2=sigma2,
        task_var=fault_task_var,
        kernel_scale=fault_kernel_scale,
    )
    omegas, mus, mc, se, lt = (fig[k] for k in ("omegas", "mus", "mc", "se", "ltilde"))
    # the grid's power scale (its own losses) is known only after sampling: a grid short of
    # se/Loss ≤ 2 % draws on, on the same stream, up to MAX_RAISE times its sample
    n_grid = n
    worst = np.unravel_index(int((se / mc).argmax()), se.shape)
    if se[worst] > MC_POWER * mc[worst]:
        need = needed_samples(n, float(se[worst]), float(mc[worst]))
        goal = min(MAX_RAISE * n, math.ceil(1.1 * need))
        while n_grid < goal:
            b = min(n, goal - n_grid)
            mc_b, se_b = ltilde_landscape_mc(
                omegas, mus, d=d, L=L, sigma2=sigma2, n=b, rng=rng, task_var=fault_task_var
            )
            # the mean of the pooled sample and its standard error (each part's own variance)
            tot = n_grid + b
            se = np.sqrt((n_grid * se) ** 2 + (b * se_b) ** 2) / tot
            mc = (n_grid * mc + b * mc_b) / tot
            n_grid = tot
    grid_seconds = time.perf_counter() - t0
    W, M = np.meshgrid(omegas, mus, indexing="ij")
    diff = mc - lt
    valley = lt <= 0.6
    k = int(np.abs(diff).argmax())
    # Spec V-R1: |Loss − L̃| ≤ 0.10 on the whole grid.  The max over a noisy grid is biased up
    # (each point has se ≈ 0.02 at the corner with 2e4 prompts), so the criterion is judged at the
    # grid's argmax on a fresh, larger sample: |diff| ≤ 0.10 + 5 se.  (800k prompts give
    # −0.1013 ± 0.0030 at the corner (0.2, 6): on the 0.10 boundary; the spec's reference −0.084
    # is 5.7 se away.)
    w_k, m_k = float(W.ravel()[k]), float(M.ravel()[k])
    fine, fine_se = ltilde_landscape_mc(
        [w_k],
        [m_k],
        d=d,
        L=L,
        sigma2=sigma2,
        n=5 * n if quick else 40 * n,
        rng=rng,
        task_var=fault_task_var,
    )
    lt_k = float(th.ltilde_fn([w_k, -w_k], [m_k, -m_k], d, L, sigma2, fault_kernel_scale))
    diff_k, se_k = float(fine[0, 0]) - lt_k, float(fine_se[0, 0])
    ev = [
        band(
            "|Loss - Ltilde| at the grid argmax on a fresh sample ≤ 0.10 + 5 se (band: "
            "≤ 0.10 everywhere)",
            abs(diff_k),
            None,
            0.10 + Z_MC * se_k,
            kind="MC",
            details={
                "argmax": [w_k, m_k],
                "diff": diff_k,
                "se": se_k,
                "grid_max_abs_diff": float(np.abs(diff).max()),
                "grid_se_at_argmax": float(se.ravel()[k]),
                "spec_reference_diff": -0.084,
            },
        ),
        band(
            "max |Loss - Ltilde| where Ltilde ≤ 0.6 (band: ≤ 0.03)",
            float(np.abs(diff[valley]).max()) if valley.any() else float("inf"),
            None,
            0.03,
        ),
    ]
    # The proposition's own O(1/L) term: on the symmetric pair with η = 2ωμ the gap tends to
    # η(2 − ηκ)/L as ω → 0 (spec 001 R1, "size of the error", MC-checked by
    # check_prop4_1_mc_gap).  The bands are spec 001 V-R1's at d = 5, L = 40, σ² = 0.1, where that
    # term is 0.044 at the corner and 0.022 in the valley; where it exceeds a band, the band is not
    # the proposition's claim at this setting and its row is skipped, with the numbers.
    eta_grid = 2 * W * M
    lead = np.abs(eta_grid * (2 - eta_grid * float(th.kappa(d, L, sigma2))) / L)
    at = f"(d, L, σ²) = ({d}, {L}, {sigma2:g})"
    lead_all = float(lead.max())
    if lead_all > 0.10:
        ev[0] = skipped(
            ev[0],
            why=f"the O(1/L) gap Prop. 4.1 allows, |η(2 − ηκ)/L| = {lead_all:.3g} on the grid at "
            f"{at}, exceeds the band 0.10 (set at d = 5, L = 40, where it is 0.044)",
            leading_gap=lead_all,
        )
    if not valley.any():
        ev[1] = skipped(
            ev[1],
            why=f"no grid point has Ltilde ≤ 0.6 at {at} (min Ltilde on the grid "
            f"{float(lt.min()):.3g})",
        )
    elif (lead_valley := float(lead[valley].max())) > 0.03:
        ev[1] = skipped(
            ev[1],
            why=f"the O(1/L) gap Prop. 4.1 allows, |η(2 − ηκ)/L| = {lead_valley:.3g} in the "
            f"valley at {at}, exceeds the band 0.03 (set at d = 5, L = 40, where it is 0.022)",
            leading_gap=lead_valley,
        )
    ratio = se / mc
    j = int(ratio.argmax())
    power = band(
        "MC power on the grid: max se/Loss ≤ 2 %",
        float(ratio.ravel()[j]),
        None,
        MC_POWER,
        details={
            "n": n_grid,
            "at": [float(W.ravel()[j]), float(M.ravel()[j])],
            **({"raised_from": n} if n_grid > n else {}),
        },
    )
    if not power.passed:  # not resolvable at this setting: skipped with the sample it needs
        power = underpowered(
            power,
            se=float(se.ravel()[j]),
            scale=float(mc.ravel()[j]),
            n=n_grid,
            requested=n if n_grid > n else 0,
            seconds=grid_seconds,
        )
        valley_se = float(se[valley].max()) if valley.any() else 0.0
        if ev[1].status == "fail" and ev[1].error * ev[1].tolerance <= Z_MC * valley_se:
            ev[1] = dataclasses.replace(  # the valley's miss is within the grid's own noise
                ev[1],
                passed=True,
                verdict="skipped",
                details={**ev[1].details, "why": power.details["why"]},
            )
    ev.append(power)
    # exactness at ω = 0 (one head, μ = 1.5: the prediction is μ·ȳ)
    exact0 = float(th.ltilde_fn([0.0], [1.5], d, L, sigma2, fault_kernel_scale))
    (e0,) = risk_mc(
        [lambda X, q: np.full(X.shape[:2], 1.5 / X.shape[1])],
        d=d,
        L=L,
        sigma2=sigma2,
        n=n,
        rng=rng,
        task_var=fault_task_var,
        target_se=MC_POWER * abs(exact0),
    )
    ev.append(mc_agreement("Loss(0, mu=1.5) = Ltilde(0, 1.5) (exact at omega = 0)", exact0, e0))
    return ev


#: The KQ scales of the Stein check (small, moderate, large against 1/√d).
STEIN_OMEGAS = (0.1, 0.2, 0.5)


def check_prop4_1_mc_stein(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_first_order: bool | None = None,
) -> list[Evidence]:
    """Stein's lemma behind the cross term of Prop. 4.1: exactly
    ``E[x_qᵀ Σ_i p_i x_i] = ω E[‖x_q‖²(1 − ‖p‖²)]``, ``p = softmax(ω X x_q)`` (paired MC, z = 5).
    ``fault_first_order=True`` drops the ``‖p‖²`` correction (the first-order form): negative
    control.  At ``setting``'s ``(d, L)``, ω ∈ :data:`STEIN_OMEGAS`.  The power scale is the
    sampled ``E[x_qᵀ Σ_i p_i x_i]``: a sample short of 2 % of it is raised (up to 4×) before the
    row is skipped."""
    d, L = setting.d, setting.L
    rng = check_rng(seed, f"{_STREAM}:check_prop4_1_mc_stein")
    ev = []
    for om in STEIN_OMEGAS:

        def draw(r: np.random.Generator, b: int, om: float = om) -> np.ndarray:
            X, xq = sample_covariates(r, b, L, d)
            p = softmax(om * np.einsum("bld,bd->bl", X, xq))
            lhs = np.einsum("bd,bl,bld->b", xq, p, X)
            corr = np.einsum("bl,bl->b", p, p) if not fault_first_order else 0.0
            rhs = om * np.einsum("bd,bd->b", xq, xq) * (1 - corr)
            return np.stack([lhs, lhs - rhs], axis=1)

        # the power scale is E[lhs], known only after sampling: raise on its running mean
        e_l, e_d = mc_means(
            draw,
            20_000 if quick else 200_000,
            rng=rng,
            target_se=lambda m: [0.0, MC_POWER * abs(float(m[0]))],
        )
        ev.append(
            mc_agreement(
                f"Stein: E[x_q^T sum p_i x_i] - omega E[|x_q|^2(1-|p|^2)] = 0 (omega={om})",
                0.0,
                e_d,
                scale=e_l.mean,
            )
        )
    return ev


#: The prompt lengths of the gap's 1/L law.
GAP_LENGTHS = (20, 40, 80, 160)


def check_prop4_1_mc_gap(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_kernel_scale: float | None = None,
) -> list[Evidence]:
    """The gap ``Loss − L̃`` on the manifold (ω, e.g. 0.13, μ = m*(ω)) scales like 1/L:
    ``(Loss − L̃)·L ∈ [0.5, 1.3]`` and within 0.15 of ``η(2 − ηκ)`` for L ∈ {20, 40, 80, 160}, and
    the log-log slope of the gap in L is −1 (RATE).  At ``setting``'s
    ``(d, σ², ω)``, L ∈ :data:`GAP_LENGTHS`."""
    d, omega, sigma2 = setting.d, setting.omega, setting.sigma2
    rng = check_rng(seed, f"{_STREAM}:check_prop4_1_mc_gap")
    n = 30_000 if quick else 400_000
    Ls, gaps, ev = GAP_LENGTHS, [], []
    for L in Ls:
        m = th.m_star(omega, d, L, sigma2)
        (e,) = risk_mc(
            [lambda X, q, m=m: tf_weights(X, q, [omega, -omega], [m, -m])],
            d=d,
            L=L,
            sigma2=sigma2,
            n=n,
            rng=rng,
        )
        lt = th.ltilde_fn([omega, -omega], [m, -m], d, L, sigma2, fault_kernel_scale)
        gap = e.mean - lt
        et = th.eta_of_omega(omega, d, L, sigma2)
        pred = et * (2 - et * th.kappa(d, L, sigma2))
        ev.append(
            band(
                f"(Loss - Ltilde)·L at L={L} in [0.5, 1.3]",
                gap * L,
                0.5,
                1.3,
                details={"se_of_gap_times_L": e.se * L},
            )
        )
        ev.append(
            band(
                f"(Loss - Ltilde)·L - eta(2 - eta kappa) at L={L} within ±0.15",
                gap * L - pred,
                -0.15,
                0.15,
                details={"prediction": pred},
            )
        )
        gaps.append(gap)
    if min(gaps) > 0:
        # expected exponent: the log-log slope of the leading-order gap η(2 − ηκ)/L over these L
        # (≈ −0.92: the prefactor still drifts with L); a pure 1/L law would be −1.
        pred = [
            th.eta_of_omega(omega, d, L, sigma2)
            * (2 - th.eta_of_omega(omega, d, L, sigma2) * th.kappa(d, L, sigma2))
            / L
            for L in Ls
        ]
        slope = loglog_slope(Ls, pred)
        ev.append(
            rate_agreement(
                "gap Loss - Ltilde ~ eta(2 - eta kappa)/L on the manifold", Ls, gaps, slope
            )
        )
    else:
        ev.append(band("gap Loss - Ltilde positive on the manifold", min(gaps), 0.0, None))
    return ev
