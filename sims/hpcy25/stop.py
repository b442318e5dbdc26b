"""hpcy25 training at a drawn setting: the stop criteria and the plateau schedule that read the
traced invariant ``⟨ω, μ⟩`` and the heads' pattern statistics (re-exported by
:mod:`sims.hpcy25.train`).

The statistics are computed from the model's own circuits at each logging step; this module
imports nothing from the theory side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from sims.train import PlateauCosine, window_values
from theory.settings import check_choice, check_int, check_real

__all__ = [
    "InvariantStop",
    "MeanDriftStop",
    "PatternStop",
    "PatternPlateau",
    "PATTERN_KEYS",
    "pattern_snapshot",
    "window_drift",
    "PAPER_STEPS",
    "head_change",
    "projected_omega",
    "CONTINUATION_KEYS",
    "ContinuationStop",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class InvariantStop:
    """Stop when the invariant ``⟨ω, μ⟩ = Σ_h ω_h μ_h`` (recorded as ``"inv"`` at every logging
    step of a run that has a stop criterion) has stopped drifting: the means of its last two
    windows of ``window`` steps differ by at most ``rel_drift`` times their magnitude, and its
    standard deviation over the last window (the minibatch noise of the iterate, which the cosine
    decay of the lr shrinks) is at most ``rel_drift`` times its mean, after at least ``min_steps``
    steps (the
    ± pair forms in the first ~30 % of a 3000-step run, Obs. 4).  The checks set
    ``rel_drift`` to a small fraction of the row's tolerance.  Frozen, so it keys the cache."""

    rel_drift: float
    window: int = 500
    min_steps: int = 1000

    def __post_init__(self) -> None:
        check_real("rel_drift", self.rel_drift, lower=0.0, lower_open=True)
        check_int("window", self.window, minimum=100)
        check_int("min_steps", self.min_steps, minimum=0)

    def drift(self, trace: list[dict[str, float]], last: int) -> float | None:
        """The statistic compared with ``rel_drift`` at step ``last`` (``None``: two windows not
        filled): :func:`window_drift` of ``"inv"``, relative."""
        return window_drift(trace, "inv", last, self.window, relative=True)

    def __call__(self, trace: list[dict[str, float]]) -> bool:
        last = trace[-1]["step"] if trace else 0
        if last < max(self.min_steps, 2 * self.window):
            return False
        drift = self.drift(trace, int(last))
        return drift is not None and drift <= self.rel_drift


@dataclass(frozen=True, kw_only=True, slots=True)
class MeanDriftStop(InvariantStop):
    """The stop of a preset (a planned cosine schedule, then on at its final lr): the invariant
    ``⟨ω, μ⟩`` has converged when the means of its last two windows of ``window`` steps differ by
    at most ``rel_drift`` times their magnitude.  The window mean removes the iterate's
    step-to-step minibatch noise, not its slow motion (as zfb24's stop); that noise, which at a
    preset's final lr stays at 0.7–0.9 % of ⟨ω, μ⟩ (h2, batch 128, lr 5e-4) whatever the number
    of steps, is what the judging row's tolerance absorbs, not a sign of a run still moving.
    Frozen, so it keys the cache."""

    def drift(self, trace: list[dict[str, float]], last: int) -> float | None:
        cur, prev = window_values(trace, "inv", last, self.window)
        if not cur or not prev:
            return None
        a, b = float(np.mean(cur)), float(np.mean(prev))
        scale = 0.5 * (abs(a) + abs(b))
        if not (math.isfinite(a) and math.isfinite(b)) or scale == 0:
            return math.inf
        return abs(a - b) / scale


#: The head-pattern statistics a :class:`PatternStop` traces (besides ``"inv"``), computed from
#: the model's own circuits at each logging step (:func:`pattern_snapshot`): ``"diag"`` the least
#: diag_ratio ``‖diag K11‖/‖K11‖_F`` and ``"ov"`` the least ov_ratio ``|μ_h|/‖OV_h‖`` over the
#: active heads (``|μ_h| ≥ 0.05 max|μ|``), ``"spread"`` the active heads' ``max|ω_h|/min|ω_h| − 1``
#: -- the statistics the Obs-1 pattern rows judge.
PATTERN_KEYS: tuple[str, ...] = ("diag", "ov", "spread")
#: A head is active when ``|μ_h|`` is at least this fraction of the largest (the Obs-1 rows' mask).
_ACTIVE_FRACTION = 0.05


def pattern_snapshot(kq: torch.Tensor, ov: torch.Tensor, d: int) -> dict[str, float]:
    """The :data:`PATTERN_KEYS` statistics of effective circuits ``kq`` (H, D, D), ``ov``
    (H, n_out, D) (first output), as ``sims.hpcy25.evidence.circuit_metrics``
    defines the per-head metrics."""
    k11 = kq[:, :d, :d]
    diag = k11.diagonal(dim1=1, dim2=2)
    om, mu = diag.mean(dim=1), ov[:, 0, d]
    act = mu.abs() >= _ACTIVE_FRACTION * mu.abs().max()
    dr = diag.norm(dim=1) / k11.flatten(1).norm(dim=1)
    ovr = mu.abs() / ov[:, 0, :].norm(dim=1)
    w = om[act].abs()
    return {
        "diag": float(dr[act].min()),
        "ov": float(ovr[act].min()),
        "spread": float(w.max() / w.min() - 1) if float(w.min()) > 0 else math.inf,
    }


def window_drift(
    trace: list[dict[str, float]], key: str, last: int, window: int, *, relative: bool
) -> float | None:
    """The drift of ``trace[key]`` at step ``last``: the larger of the change of its mean between
    the two windows of ``window`` steps before ``last`` and its standard deviation over the last
    window (divided by the mean magnitude if ``relative``); ``None`` without two filled windows."""
    cur, prev = window_values(trace, key, last, window)
    if not cur or not prev:
        return None
    a, b = float(np.mean(cur)), float(np.mean(prev))
    sd = float(np.std(cur))
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(sd)):
        return math.inf
    if not relative:
        return max(abs(a - b), sd)
    scale = 0.5 * (abs(a) + abs(b))
    return math.inf if a == 0 or scale == 0 else max(abs(a - b) / scale, sd / abs(a))


@dataclass(frozen=True, kw_only=True, slots=True)
class PatternStop(InvariantStop):
    """:class:`InvariantStop` that also waits for the heads' patterns: stop when the invariant has
    settled (``rel_drift``, relative) *and* each traced pattern statistic ``key`` of ``pattern``
    (``(key, bound)`` pairs over :data:`PATTERN_KEYS`, absolute: they are ratios in [0, 1] or a
    spread) has drifted by at most ``bound`` -- the change of its mean between the last two
    windows and its standard deviation over the last window.  The checks set each bound to a small
    fraction of the tolerance of the row that judges the statistic.  The run traces the pattern
    statistics at every logging step when its stop is a ``PatternStop``.  Frozen, so it keys the
    cache."""

    pattern: tuple[tuple[str, float], ...] = ()

    def __post_init__(self) -> None:
        InvariantStop.__post_init__(self)
        for key, bound in self.pattern:
            check_choice("pattern key", key, PATTERN_KEYS)
            check_real(f"pattern bound of {key}", bound, lower=0.0, lower_open=True)

    def bounds(self) -> dict[str, float]:
        """Each traced statistic's drift bound, ``"inv"`` (relative) first."""
        return {"inv": self.rel_drift, **dict(self.pattern)}

    def drifts(self, trace: list[dict[str, float]], last: int) -> dict[str, float | None]:
        """Each traced statistic's drift at step ``last`` (``None``: two windows not filled)."""
        return {
            k: window_drift(trace, k, last, self.window, relative=k == "inv") for k in self.bounds()
        }

    def __call__(self, trace: list[dict[str, float]]) -> bool:
        last = trace[-1]["step"] if trace else 0
        if last < max(self.min_steps, 2 * self.window):
            return False
        bounds = self.bounds()
        return all(
            x is not None and x <= bounds[k] for k, x in self.drifts(trace, int(last)).items()
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class PatternPlateau(PlateauCosine):
    """:class:`sims.train.PlateauCosine` whose trigger also waits for the heads' patterns: besides
    the invariant's relative window-mean change ``≤ trigger``, each traced pattern statistic's
    window-mean change is at most its ``pattern`` bound (``(key, bound)`` pairs, absolute)."""

    pattern: tuple[tuple[str, float], ...] = ()

    def plateaued(self, trace: list[dict[str, float]], i: int) -> bool:
        if not PlateauCosine.plateaued(self, trace, i):
            return False
        last = int(trace[i]["step"])
        for key, bound in self.pattern:
            cur, prev = window_values(trace, key, last, self.window)
            if not cur or not prev:
                return False
            change = abs(float(np.mean(cur)) - float(np.mean(prev)))
            if not change <= bound:
                return False
        return True


#: The paper's training length (500 001 Adam steps, [hpcy25] App. A.1, the authors' code): a sharp
#: head is stable when its |ω|, carried on at its current rate of change, is still sharp there.
PAPER_STEPS = 500_001


def _abs_means(
    trace: list[dict[str, float]], key: str, last: int, window: int
) -> tuple[float, float] | None:
    """The means of ``|trace[key]|`` over the window of ``window`` steps ending at ``last`` and
    over the one before it (``None`` without two filled windows)."""
    cur, prev = window_values(trace, key, last, window)
    if not cur or not prev:
        return None
    return float(np.mean(np.abs(cur))), float(np.mean(np.abs(prev)))


def head_change(trace: list[dict[str, float]], h: int, window: int) -> tuple[float, float]:
    """``|ω_h|`` over the last window of ``window`` steps of ``trace`` (records with ``step`` and
    ``omega_<h>``; the window's mean) and its relative change from the window before,
    ``(now − before)/before``; ``(nan, nan)`` without two filled windows."""
    key = f"omega_{h}"
    steps = [r["step"] for r in trace if key in r]
    got = _abs_means(trace, key, int(steps[-1]), window) if steps else None
    if got is None or not got[1] > 0:
        return math.nan, math.nan
    a, b = got
    return a, (a - b) / b


def projected_omega(
    trace: list[dict[str, float]], h: int, window: int, steps: int
) -> tuple[float, float]:
    """``(|ω_h| at the paper's 500 001 steps, its relative change per window)``: the last window's
    |ω_h| (:func:`head_change`) carried on from ``steps`` to :data:`PAPER_STEPS` at its relative
    change per ``window`` steps when it decays, held when it grows; ``nan`` without two windows
    (not stable) [*derived*]."""
    now, rel = head_change(trace, h, window)
    if not (math.isfinite(now) and math.isfinite(rel)):
        return math.nan, rel
    if rel >= 0:
        return now, rel
    n = max(PAPER_STEPS - steps, 0) / window
    return now * (1 + rel) ** n, rel


#: The statistics a :class:`ContinuationStop` reads, each the change of a window mean between
#: the last two windows: ``"omega"`` the largest relative change of an active head's |ω_h| (the
#: rate :func:`projected_omega` carries on); ``"mu"`` the largest change of a head's μ_h in units
#: of the largest |μ| (which heads are active); ``"diag"``, ``"ov"``, ``"spread"`` the pattern
#: statistics of :func:`pattern_snapshot` (absolute); ``"projected"`` the change of the top
#: active head's |ω| carried to :data:`PAPER_STEPS` (:func:`projected_omega`) from one window to
#: the next.
CONTINUATION_KEYS: tuple[str, ...] = ("omega", "mu", "diag", "ov", "spread", "projected")


@dataclass(frozen=True, kw_only=True, slots=True)
class ContinuationStop:
    """The stop of a run continued at the paper's recipe in chunks: train ``planned`` steps; then,
    at each chunk's end, the run has converged when every statistic of ``tolerances`` (``(key,
    tol)`` pairs over :data:`CONTINUATION_KEYS`; ``tol`` the tolerance of the row that judges the
    statistic, in its units) has moved by at most ``fraction · tol`` between the means of the last
    two windows of ``window`` steps; at ``max_steps`` (the step bound, a count) unconverged, the
    run records it.  The trace holds the heads' ``omega_<h>``, ``mu_<h>`` and, at chunk ends, the
    :data:`PATTERN_KEYS` statistics.  A pure function of the trace: a resumed run stops where an
    uninterrupted one does.  Frozen.

    >>> st = ContinuationStop(tolerances=(("mu", 0.05),), fraction=0.25, window=2, planned=6,
    ...                       max_steps=10)
    >>> flat = [{"step": s, "mu_0": 1.0, "mu_1": -1.0} for s in range(1, 7)]
    >>> st(flat), st.criteria()
    (True, {'mu': 0.0125})
    >>> st(flat[:5])  # before the planned steps
    False
    """

    tolerances: tuple[tuple[str, float], ...]
    fraction: float
    window: int = 40_000
    planned: int = 200_000
    max_steps: int = 500_000

    def __post_init__(self) -> None:
        if not self.tolerances:
            raise ValueError("a ContinuationStop needs at least one (statistic, tolerance) pair")
        for key, tol in self.tolerances:
            check_choice("continuation statistic", key, CONTINUATION_KEYS)
            check_real(f"tolerance of {key}", tol, lower=0.0, lower_open=True)
        check_real("stop fraction", self.fraction, lower=0.0, lower_open=True, upper=1.0)
        check_int("stop window", self.window, minimum=1)
        check_int("planned steps", self.planned, minimum=2 * self.window)
        check_int("stop max_steps", self.max_steps, minimum=self.planned)

    def criteria(self) -> dict[str, float]:
        """Each statistic's criterion: ``fraction · tol``."""
        return {k: self.fraction * t for k, t in self.tolerances}

    def drifts(self, trace: list[dict[str, float]], last: int) -> dict[str, float]:
        """Each statistic's drift at step ``last`` (``inf`` while its windows are not filled)."""
        heads = sorted({int(k[3:]) for r in trace for k in r if k.startswith("mu_")})
        mus = {h: _means_of(trace, f"mu_{h}", last, self.window) for h in heads}
        top_mu = max((abs(m[0]) for m in mus.values() if m is not None), default=0.0)
        active = [
            h for h, m in mus.items() if m is not None and abs(m[0]) >= _ACTIVE_FRACTION * top_mu
        ]
        out: dict[str, float] = {}
        for key, _ in self.tolerances:
            if key == "mu":
                ch = [abs(m[0] - m[1]) for m in mus.values() if m is not None]
                ok = heads and len(ch) == len(heads) and top_mu > 0
                out[key] = max(ch) / top_mu if ok else math.inf
            elif key == "omega":
                ws = [_abs_means(trace, f"omega_{h}", last, self.window) for h in active]
                ok = active and all(w is not None and w[1] > 0 for w in ws)
                out[key] = max(abs(w[0] - w[1]) / w[1] for w in ws if w) if ok else math.inf
            elif key == "projected":
                out[key] = self._projected_drift(trace, last, active)
            else:
                m = _means_of(trace, key, last, self.window)
                out[key] = abs(m[0] - m[1]) if m is not None else math.inf
        return {k: v if math.isfinite(v) else math.inf for k, v in out.items()}

    def _projected_drift(
        self, trace: list[dict[str, float]], last: int, active: list[int]
    ) -> float:
        """The change of the top active head's |ω| carried to :data:`PAPER_STEPS` between step
        ``last − window`` and ``last``."""
        ws = {h: _abs_means(trace, f"omega_{h}", last, self.window) for h in active}
        if not ws or any(w is None for w in ws.values()):
            return math.inf
        top = max(ws, key=lambda h: ws[h][0])  # type: ignore[index]
        at = [
            projected_omega([r for r in trace if r["step"] <= t], top, self.window, t)[0]
            for t in (last, last - self.window)
        ]
        return abs(at[0] - at[1]) if all(math.isfinite(x) for x in at) else math.inf

    def worst(self, trace: list[dict[str, float]], last: int) -> tuple[str, float, float]:
        """The statistic furthest from its criterion at ``last``: ``(key, drift, criterion)``."""
        drifts, crit = self.drifts(trace, last), self.criteria()
        key = max(drifts, key=lambda k: drifts[k] / crit[k])
        return key, drifts[key], crit[key]

    def __call__(self, trace: list[dict[str, float]]) -> bool:
        last = int(trace[-1]["step"]) if trace else 0
        if last < self.planned:
            return False
        crit = self.criteria()
        return all(x <= crit[k] for k, x in self.drifts(trace, last).items())


def _means_of(
    trace: list[dict[str, float]], key: str, last: int, window: int
) -> tuple[float, float] | None:
    """The means of ``trace[key]`` over the window ending at ``last`` and the one before it."""
    cur, prev = window_values(trace, key, last, window)
    if not cur or not prev:
        return None
    return float(np.mean(cur)), float(np.mean(prev))
