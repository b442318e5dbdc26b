"""[czz24] §5 Thms 5.1–5.3 checks (constants unspecified): orderings, bounded ratios and slopes of
oracle-tuned Monte Carlo risks, each unspecified constant fitted and reported.

Rows are Σ = I, ±1/√s prior, σ = 0.5 unless stated; fixed η-grid and λ-grid; t ≤ 100 (quick)
or 200 (full).  The MC route samples contexts and runs the predictors (:mod:`.risk`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from numerics.czz24.figures import compute_bounds_rates
from numerics.czz24.risk import TunedRisks, tuned_risks_cached, tuned_risks_gram
from numerics.czz24.tolerances import ORDER_MARGIN, ROUNDOFF_MARGIN
from numerics.sampling import check_rng
from numerics.testing import (
    exact_agreement,
    float_agreement,
    informational,
    loglog_slope,
    ordering,
    rate_agreement,
    skipped,
)
from theory.common.protocols import Evidence
from theory.common.symbols import d as d_sym
from theory.common.symbols import n as n_sym
from theory.common.symbols import s as s_sym
from theory.czz24 import (
    bound_ratio_isotropic,
    eta_t_star_51,
    thm51_bound,
    thm52_bound,
    thm53_rate,
    thm53_steps,
)
from theory.czz24.settings import Setting

__all__ = [
    "check_thm5_3_order",
    "check_thm5_3_rate",
    "check_thm5_1_rate",
    "check_thm5_2_rate",
    "check_rem5_2_symbolic",
    "check_rem5_2_order",
    "check_rem5_2_order_flips",
    "thm5_hypotheses",
    "ROWS_QUICK",
    "ROWS_FULL",
    "GENERIC",
    "VALUE_RTOL",
    "generic_log",
    "check_thm5_1_float_bound",
    "check_thm5_2_float_bound",
    "check_rem5_2_float_generic",
    "check_thm5_3_float_generic",
]

#: the MC slope must be below −0.5 by 0.05 (MC slope se about 0.02)
SLOW_RATE_MARGIN = 0.05
#: two-point local slope (n = 256 → 512) between the regimes: wider band
LOCAL_SLOPE_BAND = 0.3
#: the spec's slope between −1.0 and −1.2 (spec 000 V-R6 item 2)
SPEC_SLOPE_BAND = 0.1
#: strictness of MC/bound ≤ 1.2 × the previous ratio
RATIO_STEP_MARGIN = 1e-6

SIGMA2 = 0.25
#: (d, s, n, trials): quick rows, then the spec table's rows (full).  The d = 64 rows of the full
#: tier run 1000 contexts (the spec's 40–60 leave the local slopes ±0.15 apart from seed to seed:
#: n = 1024 → 4096 came out −0.94) through the sufficient-statistic route
#: (:func:`tuned_risks_gram`, chunks of 25 contexts: memory O(25·n·d)).
ROWS_QUICK = ((32, 2, 64, 100), (32, 2, 128, 100), (32, 2, 256, 100))
ROWS_FULL = ROWS_QUICK + (
    (64, 4, 128, 1000),
    (64, 4, 256, 1000),
    (64, 4, 512, 1000),
    (64, 4, 1024, 1000),
    (64, 4, 2048, 1000),
    (64, 4, 4096, 1000),
    (256, 2, 64, 40),
    (256, 2, 128, 40),
)
#: Rows run through the sufficient-statistic route.
_GRAM_D = 64


#: the n grid of the Thm 5.1–5.3 checks at a setting's (d, s, σ²), and its contexts per n
GRID_NS = (64, 128, 256)
GRID_TRIALS = 100


@functools.lru_cache(maxsize=32)
def _gram_row(
    d: int, s: int, n: int, trials: int, seed: int, steps: int, sigma2: float = SIGMA2
) -> TunedRisks:
    return tuned_risks_gram(d=d, s=s, n=n, sigma2=sigma2, trials=trials, seed=seed, steps=steps)


def _rows(
    setting: Setting, quick: bool, seed: int
) -> list[tuple[tuple[int, int, int], TunedRisks]]:
    """Oracle-tuned MC risks at the setting's (d, s, σ²) over :data:`GRID_NS` (our reference
    (32, 2) rows at the preset); --full appends our reference table's own rows (d, s) = (64, 4),
    (256, 2) at σ² = 0.25 (its printed slopes)."""
    steps = 100 if quick else 200
    grid = [(setting.d, setting.s, n, GRID_TRIALS, setting.sigma2) for n in GRID_NS]
    if not quick:
        grid += [(d, s, n, tr, SIGMA2) for d, s, n, tr in ROWS_FULL[len(ROWS_QUICK) :]]
    return [
        (
            (d, s, n),
            _gram_row(d, s, n, tr, seed, steps, s2)
            if d == _GRAM_D
            else tuned_risks_cached(d, s, n, s2, tr, seed, "sign", steps),
        )
        for d, s, n, tr, s2 in grid
    ]


def thm5_hypotheses(setting: Setting) -> None:
    """Thms 5.1–5.3 are checked on Thm 5.3's data model: Σ = I and the ±1/√s prior (β = 1/√s,
    Tr(RΣR) = 1, Tr Σ = d in the bounds' shapes), with label noise σ² > 0: Thms 5.1 and 5.2 tune
    ηt ≃ (σ²Tr(RΣR)log(d/δ)/n + σ²sTr(Σ)log²(d/δ)/n²)^(-1/2) (resp. (σ²Tr(Σ)log(d/δ)/n)^(-1/2)),
    infinite at σ² = 0, and Thm 5.3's bound has a factor log²(ns/σ²).

    >>> from theory.czz24.settings import Setting
    >>> s1 = Setting(d=8, s=2, n=32, sigma2=0.0, prior="sign", Sigma_diag=(1.0,) * 8)
    >>> thm5_hypotheses(s1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: sigma2=0.0: Thms 5.1-5.3 need label noise σ² > 0 ([czz24] Thm 5.1, 5.2 tune ηt ...
    """
    if not setting.sigma2 > 0:
        raise ValueError(
            f"sigma2={setting.sigma2!r}: Thms 5.1-5.3 need label noise σ² > 0 ([czz24] Thm 5.1, "
            "5.2 tune ηt ≃ (σ²…)^(-1/2), infinite at σ² = 0; Thm 5.3's bound has log²(ns/σ²))"
        )
    if setting.prior != "sign":
        raise ValueError(
            f"prior={setting.prior!r}: the bounds' shapes here take β = 1/√s, Tr(RΣR) = 1 "
            "([czz24] Thm 5.3's ±1/√s prior), prior=sign"
        )
    diag = setting.Sigma_diag
    if setting.zeta != 0.0 or diag is None or any(v != 1.0 for v in diag):
        raise ValueError(
            f"Sigma_diag={diag!r}, zeta={setting.zeta!r}: the bounds' shapes here take Σ = I "
            "([czz24] Thm 5.3)"
        )


#: Random-stream label of check_rem5_2_order (its registered path before the module was named by
#: its section: fixed, so the stream is unchanged).
_REM52_STREAM = "numerics.sparse_multihead.checks_theorems:check_rem5_2_order"


#: Where the comparison after Thm 5.2 puts pre-GD ahead: ``B_5.1²/B_5.2² = s/d + s²/n`` below
#: this (Σ = I, ±1/√s prior; :func:`check_rem5_2_order` orders pre-GD* < GD* there too).
SPARSE_RATIO_CUT = 0.5


def _not_compared(row: Evidence, d: int, s: int, n: int) -> Evidence:
    """``row`` (pre-GD* < GD*) ``skipped`` where the paper makes no comparison: its bounds'
    ratio ``s/d + s²/n`` is not small (e.g. the dense s = d, where Thm 5.3's s/n is OLS's d/n)."""
    q = s / d + s * s / n
    why = (
        f"no comparison claimed here: B_5.1²/B_5.2² = s/d + s²/n = {q:.3f} ≥ {SPARSE_RATIO_CUT} "
        f"(d = {d}, s = {s}, n = {n}); [czz24] §5 after Thm 5.2 orders pre-GD ahead only for "
        'a sparse w* ("s = o(min{d, √n})"), and after Thm 5.3 its s/n beats OLS\'s d/n only '
        "for s < d"
    )
    return skipped(row, why=why, bound_ratio=q)


def check_thm5_3_order(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_swap_pregd: bool | None = None
) -> list[Evidence]:
    """pre-GD* < GD* ≈ ridge* ≤ OLS (Thms 5.1–5.3) at the setting's (d, s, σ²) over
    n ∈ {64, 128, 256}: pre-GD*/ridge* < 0.5 at our reference (32, 2, 128) (full: also (64, 4, 256),
    (256, 2, 64)), 0.97 ≤ GD*/ridge* ≤ 1.7 and ridge* ≤ OLS on every row.  pre-GD* < GD* is
    the paper's claim for a sparse w* only (§5 after Thm 5.2: ``s = o(min{d, √n})``): where the
    bounds' ratio ``s/d + s²/n`` is ≥ 0.5 (e.g. the dense s = d) that row is ``skipped`` saying
    so, as :func:`check_rem5_2_order` does.
    ``fault_swap_pregd`` puts GD* in pre-GD*'s place (negative control)."""
    out = []
    for (d, s, n), r in _rows(setting, quick, seed):
        pre = r.gd if fault_swap_pregd else r.pre_gd
        info = {
            "d": d,
            "s": s,
            "n": n,
            "pre_gd": pre.mean,
            "pre_gd_arg": r.pre_gd_arg,
            "gd": r.gd.mean,
            "gd_arg": r.gd_arg,
            "ridge": r.ridge.mean,
            "ridge_lambda": r.ridge_arg,
            "diverged_eta": r.diverged_eta,
        }
        if (d, s, n) in ((32, 2, 128), (64, 4, 256), (256, 2, 64)):
            out.append(
                ordering(
                    f"pre-GD*/ridge* < 0.5 (d={d}, s={s}, n={n})",
                    pre.mean / r.ridge.mean,
                    0.5,
                    margin=ORDER_MARGIN,
                    details=info,
                )
            )
        row = ordering(
            f"pre-GD* < GD* (d={d}, s={s}, n={n})",
            pre.mean,
            r.gd.mean,
            margin=3 * (pre.se + r.gd.se),
            details=info,
        )
        out.append(row if s / d + s * s / n < SPARSE_RATIO_CUT else _not_compared(row, d, s, n))
        ratio = r.gd.mean / r.ridge.mean
        out.append(
            ordering(
                f"GD*/ridge* ≥ 0.97 (d={d}, n={n})", 0.97, ratio, margin=ORDER_MARGIN, details=info
            )
        )
        out.append(
            ordering(
                f"GD*/ridge* ≤ 1.7 (d={d}, n={n})", ratio, 1.7, margin=ORDER_MARGIN, details=info
            )
        )
        if r.ols is not None:
            out.append(
                ordering(
                    f"ridge* ≤ OLS (d={d}, n={n})",
                    r.ridge.mean,
                    r.ols.mean + 1e-12,
                    margin=ROUNDOFF_MARGIN,
                    details=info,
                )
            )
    return out


def check_thm5_3_rate(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_rate_fn: Callable[..., float] | None = None,
) -> list[Evidence]:
    """Thm 5.3's two-term rate at the setting's (d, s, σ²) over n ∈ {64, 128, 256}:
    pre-GD*/[σ²(s/n + ds²/n²)] in [0.5, 4] on every row (fitted
    constant = geometric mean of the ratios, reported); full tier adds the local slopes (−2 ± 0.3
    for n = 256 → 512 at d = 64, s = 4; our reference "between −1.0 and −1.2" for n = 1024 → 4096,
    1000 contexts per row).
    ``fault_rate_fn`` replaces the rate (negative control)."""
    rate = fault_rate_fn or thm53_rate
    rows = _rows(setting, quick, seed)
    s2s = [setting.sigma2] * len(GRID_NS) + [SIGMA2] * (len(rows) - len(GRID_NS))
    ratios = [
        r.pre_gd.mean / float(rate(n, d, s, s2))
        for ((d, s, n), r), s2 in zip(rows, s2s, strict=True)
    ]
    C = float(np.exp(np.mean(np.log(ratios))))
    out = [
        informational(
            "fitted constant of Thm 5.3 (geometric mean of MC/rate)",
            None,
            C,
            details={"ratios": ratios, "rows": [k for k, _ in rows]},
        )
    ]
    for ((d, s, n), _r), q in zip(rows, ratios, strict=True):
        out.append(ordering(f"MC/rate ≥ 0.5 (d={d}, s={s}, n={n})", 0.5, q, margin=ORDER_MARGIN))
        out.append(ordering(f"MC/rate ≤ 4 (d={d}, s={s}, n={n})", q, 4.0, margin=ORDER_MARGIN))
    if not quick:
        by = {k: r for k, r in rows}
        sl = loglog_slope([256, 512], [by[(64, 4, 256)].pre_gd.mean, by[(64, 4, 512)].pre_gd.mean])
        out.append(
            rate_agreement(
                "local slope n = 256 → 512 (d s²/n² dominates)",
                [256, 512],
                [by[(64, 4, 256)].pre_gd.mean, by[(64, 4, 512)].pre_gd.mean],
                -2.0,
                band=LOCAL_SLOPE_BAND,
                details={"slope": sl},
            )
        )
        ns = [1024, 2048, 4096]
        out.append(
            rate_agreement(
                "slope n = 1024 → 4096 (s/n dominates)",
                ns,
                [by[(64, 4, m)].pre_gd.mean for m in ns],
                -1.1,
                band=SPEC_SLOPE_BAND,
                details={
                    "expected": "between −1.0 and −1.2 (the s/n term dominates)",
                    "trials": 1000,
                },
            )
        )
    return out


def _bound_ratio_rows(
    setting: Setting, quick: bool, seed: int, which: str
) -> tuple[list[float], list[float], list[float]]:
    """The setting's (d, s, σ²) over n ∈ {64, 128, 256}: n, the MC risk and MC/bound, by the
    figure's :func:`numerics.czz24.figures.compute_bounds_rates` (its rows at the preset)."""
    fig = compute_bounds_rates(
        quick=quick,
        seed=seed,
        ns=np.array(GRID_NS),
        trials=GRID_TRIALS,
        steps=100 if quick else 200,
        d=setting.d,
        s=setting.s,
        sigma2=setting.sigma2,
    )
    mc = fig["pre_gd"] if which == "pre" else fig["gd"]
    B = fig["bounds"]["Thm 5.1" if which == "pre" else "Thm 5.2"]["shape"]
    ns = [float(n) for n in GRID_NS]
    return ns, [float(v) for v in mc], [float(v) / float(b) for v, b in zip(mc, B, strict=True)]


def _slow_rate_checks(
    name: str, ns: list[float], mc: list[float], ratio: list[float]
) -> list[Evidence]:
    sl = loglog_slope(ns, mc)
    out = [
        informational(
            f"{name}: fitted constant (max MC/bound, logs dropped, C = 1)",
            None,
            max(ratio),
            details={"ratios": ratio, "n": ns},
        ),
        ordering(
            f"{name}: MC slope in n ≤ −0.5 (the bound is a slow rate)",
            sl,
            -0.5,
            margin=SLOW_RATE_MARGIN,
            details={"slope": sl},
        ),
    ]
    for i in range(1, len(ratio)):
        out.append(
            ordering(
                f"{name}: MC/bound non-increasing, n = {ns[i - 1]:g} → {ns[i]:g}",
                ratio[i],
                1.2 * ratio[i - 1],
                margin=RATIO_STEP_MARGIN,
            )
        )
    return out


def check_thm5_1_rate(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Thm 5.1 at the setting's (d, s, σ²) over n ∈ {64, 128, 256} (Σ = I, β = 1/√s,
    Tr(RΣR) = 1, Tr Σ = d, logs dropped): pre-GD* decays at least as fast as the bound
    (slope ≤ −0.5) and MC/B_5.1 does not increase with n (20 % noise)."""
    return _slow_rate_checks("Thm 5.1", *_bound_ratio_rows(setting, quick, seed, "pre"))


def check_thm5_2_rate(setting: Setting, *, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Thm 5.2 (raw GD, Σ = I) at the setting's (d, s, σ²) over n ∈ {64, 128, 256}: GD* slope
    ≤ −0.5 and MC/B_5.2 non-increasing in n."""
    return _slow_rate_checks("Thm 5.2", *_bound_ratio_rows(setting, quick, seed, "gd"))


def check_rem5_2_symbolic(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_ratio_fn: Callable[..., object] | None = None,
) -> list[Evidence]:
    """The comparison after Thm 5.2: ``B_5.1²/B_5.2² = s/d + s²/n`` for Σ = I."""
    f = fault_ratio_fn or bound_ratio_isotropic
    return [
        exact_agreement(
            "B_5.1²/B_5.2² = s/d + s²/n (Σ = I)",
            f(n_sym, d_sym, s_sym),
            s_sym / d_sym + s_sym**2 / n_sym,
        )
    ]


def check_rem5_2_order(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_swap_pregd: bool | None = None
) -> list[Evidence]:
    """Where s/d + s²/n < 0.5, pre-GD* < GD* (MC), at the setting's (d, s, σ²) over
    n ∈ {64, 128, 256} (skipped where no n of the grid has s/d + s²/n < 0.5)."""
    out = []
    for (d, s, n), r in _rows(setting, quick, seed):
        pre = r.gd if fault_swap_pregd else r.pre_gd
        if s / d + s * s / n < SPARSE_RATIO_CUT:
            out.append(
                ordering(
                    f"s/d + s²/n = {s / d + s * s / n:.3f} < 0.5 ⇒ pre-GD* < GD* (d={d}, n={n})",
                    pre.mean,
                    r.gd.mean,
                    margin=3 * (pre.se + r.gd.se),
                )
            )
    if not out:
        d, s = setting.d, setting.s
        row = informational(f"pre-GD* < GD* where s/d + s²/n < 0.5 (d={d}, s={s})", None, None)
        why = f"s/d + s²/n ≥ 0.5 at every n ∈ {GRID_NS} for d = {d}, s = {s}: no row to order"
        out.append(skipped(row, why=why))
    return out


def check_rem5_2_order_flips(
    setting: Setting, *, quick: bool = True, seed: int = 0, fault_swap_pregd: bool | None = None
) -> list[Evidence]:
    """Remark 5.2's flips at their own settings (declared fixed): dense
    s = d = 16 (n = 32) gives pre-GD* > ridge*; tiny correlations (Σ_ii = 0.05 on S, d = 32,
    s = 2, n = 128) give pre-GD* > ridge*; a flat spectrum Σ_ii ~ U[0.25, 1] keeps
    pre-GD* < GD*."""
    out = []
    steps = 100 if quick else 200
    dense = tuned_risks_cached(16, 16, 32, SIGMA2, 100, seed, "sign", steps)
    out.append(
        ordering(
            "dense s = d = 16: pre-GD* > ridge*",
            dense.ridge.mean,
            dense.pre_gd.mean,
            margin=3 * (dense.ridge.se + dense.pre_gd.se),
            details={"pre_gd": dense.pre_gd.mean, "ridge": dense.ridge.mean},
        )
    )
    small = tuned_risks_cached(32, 2, 128, SIGMA2, 100, seed, "sign", steps, None, 0.05)
    out.append(
        ordering(
            "tiny correlations (Σ_ii = 0.05 on S): pre-GD* > ridge*",
            small.ridge.mean,
            small.pre_gd.mean,
            margin=3 * (small.ridge.se + small.pre_gd.se),
            details={"pre_gd": small.pre_gd.mean, "ridge": small.ridge.mean},
        )
    )
    flat_rng = check_rng(seed, _REM52_STREAM, "flat")
    flat = tuple(float(v) for v in flat_rng.uniform(0.25, 1.0, 32))
    fl = tuned_risks_cached(32, 2, 128, SIGMA2, 100, seed, "sign", steps, flat)
    fpre = fl.gd if fault_swap_pregd else fl.pre_gd
    out.append(
        ordering(
            "flat spectrum Σ_ii ~ U[0.25, 1]: pre-GD* < GD*",
            fpre.mean,
            fl.gd.mean,
            margin=3 * (fpre.se + fl.gd.se),
            details={"pre_gd": fl.pre_gd.mean, "gd": fl.gd.mean, "ridge": fl.ridge.mean},
        )
    )
    _ = sp
    return out


#: The generic point: no parameter 0 or 1, δ ≠ d/e (log(d/δ) = log(11/0.07) ≈ 5.06), s ≠ d,
#: β² ≠ 1/s, Tr(RΣR) ≠ ‖w‖² = 1, Tr Σ ≠ d.
GENERIC: dict[str, float] = {
    "n": 37.0,
    "t": 5.0,
    "sigma2": 0.3,
    "s": 3.0,
    "beta": 0.6,
    "trRSR": 0.8,
    "trS": 7.5,
    "d": 11.0,
    "delta": 0.07,
    "C": 1.3,
}
#: float64 round-off of a few logs, square roots and products.
VALUE_RTOL = 1e-12


def generic_log(g: dict[str, float]) -> float:
    """The ``log(d/δ)`` of [czz24] Thm 5.1 at the point ``g`` (keys ``d``, ``delta``).

    >>> round(generic_log({"d": 100.0, "delta": 0.01}), 6), round(math.log(1e4), 6)
    (9.21034, 9.21034)
    """
    return math.log(g["d"] / g["delta"])


def check_thm5_1_float_bound(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_thm51_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """Thm 5.1 as printed, ``C (log t/β) sqrt(σ²Tr(RΣR)log(d/δ)/n + σ² s Tr(Σ)log²(d/δ)/n²)``, and
    its ``(ηt)* = (1/β)[σ²Tr(RΣR)log(d/δ)/n + σ² s TrΣ log²(d/δ)/n²]^{−1/2}`` at :data:`GENERIC`
    (and at a second point with n < s·TrΣ·log(d/δ)/Tr(RΣR), where the second term dominates)."""
    f = fault_thm51_fn or thm51_bound
    out = []
    for label, g in (("GENERIC", GENERIC), ("second term dominant", {**GENERIC, "n": 9.0})):
        L = generic_log(g)
        inner = (
            g["sigma2"] * g["trRSR"] * L / g["n"]
            + g["sigma2"] * g["s"] * g["trS"] * L**2 / g["n"] ** 2
        )
        ref = g["C"] * math.log(g["t"]) / g["beta"] * math.sqrt(inner)
        args = [g[k] for k in ("n", "t", "sigma2", "s", "beta", "trRSR", "trS", "d", "delta")]
        out.append(
            float_agreement(
                f"Thm 5.1 bound at a generic point ({label}, log(d/δ) = {L:.3f})",
                float(f(*args, C=g["C"])),
                ref,
                rtol=VALUE_RTOL,
            )
        )
        eargs = [g[k] for k in ("n", "sigma2", "s", "beta", "trRSR", "trS", "d", "delta")]
        out.append(
            float_agreement(
                f"Thm 5.1 (ηt)* at a generic point ({label})",
                float(eta_t_star_51(*eargs)),
                1.0 / (g["beta"] * math.sqrt(inner)),
                rtol=VALUE_RTOL,
            )
        )
    return out


def check_thm5_2_float_bound(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_thm52_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """Thm 5.2 as printed, ``C log t · sqrt(σ² Tr(Σ) log(d/δ)/n)``, at :data:`GENERIC`."""
    f = fault_thm52_fn or thm52_bound
    g = GENERIC
    ref = g["C"] * math.log(g["t"]) * math.sqrt(g["sigma2"] * g["trS"] * generic_log(g) / g["n"])
    val = f(g["n"], g["t"], g["sigma2"], g["trS"], g["d"], g["delta"], C=g["C"])
    return [
        float_agreement(
            f"Thm 5.2 bound at a generic point (log(d/δ) = {generic_log(g):.3f})",
            float(val),
            ref,
            rtol=VALUE_RTOL,
        )
    ]


def check_rem5_2_float_generic(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_thm51_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """Rem. 5.2's comparison at a generic point [derived]: ``B_5.1²/B_5.2² = Tr(RΣR)/(β² TrΣ) +
    s log(d/δ)/(n β²)`` (the log(t)², σ² and C cancel), which is ``s/d + s²/n`` at Σ = I,
    β² = 1/s, ‖w*‖ = 1, δ = d/e (:func:`bound_ratio_isotropic`)."""
    f = fault_thm51_fn or thm51_bound
    g = GENERIC
    b51 = float(
        f(
            *[g[k] for k in ("n", "t", "sigma2", "s", "beta", "trRSR", "trS", "d", "delta")],
            C=g["C"],
        )
    )
    b52 = float(thm52_bound(g["n"], g["t"], g["sigma2"], g["trS"], g["d"], g["delta"], C=g["C"]))
    ref = g["trRSR"] / (g["beta"] ** 2 * g["trS"]) + g["s"] * generic_log(g) / (
        g["n"] * g["beta"] ** 2
    )
    return [
        float_agreement(
            "Rem. 5.2: B_5.1²/B_5.2² = Tr(RΣR)/(β²TrΣ) + s log(d/δ)/(nβ²) at a generic point",
            b51**2 / b52**2,
            ref,
            rtol=VALUE_RTOL,
        )
    ]


def check_thm5_3_float_generic(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_rate_fn: Callable[..., Any] | None = None,
    fault_steps_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """Thm 5.3's rate ``σ²(s/n + d s²/n²)`` (logs dropped) and its step count ``t ≳ s·log(ns/σ²)/η``
    at the setting's d, s, n, σ² (its preset: :data:`GENERIC`'s d = 11,
    s = 3, n = 37, σ² = 0.3) and η = 0.7, against the printed expressions written out again
    here.  The rate is otherwise seen only through MC/rate ratios in [0.5, 4] at s = 2 (a
    factor 2 in s or d passes those), and the step count by no check at all."""
    f = fault_rate_fn or thm53_rate
    h = fault_steps_fn or thm53_steps
    n, d, s, s2 = (float(v) for v in (setting.n, setting.d, setting.s, setting.sigma2))
    eta = 0.7
    rate_ref = s2 * (s / n + d * s**2 / n**2)
    steps_ref = s * math.log(n * s / s2) / eta
    where = f"d = {setting.d}, s = {setting.s}, n = {setting.n}, σ² = {setting.sigma2:g}"
    return [
        float_agreement(
            f"Thm 5.3 rate σ²(s/n + d s²/n²) at a generic point ({where})",
            float(f(n, d, s, s2)),
            rate_ref,
            rtol=VALUE_RTOL,
        ),
        float_agreement(
            "Thm 5.3 step count s·log(ns/σ²)/η at a generic point (η = 0.7)",
            float(h(n, s, s2, eta)),
            steps_ref,
            rtol=VALUE_RTOL,
        ),
    ]
