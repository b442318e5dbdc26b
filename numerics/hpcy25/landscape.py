"""hpcy25 pattern-family risk landscape by Monte Carlo [*derived*]: the population risk of heads in
Observation 1's pattern (per-head ``K11^h = ω_h I``, ``OV^h = (0, μ_h)``, eq. (3.2)) at given
kernel scales ``ω``, each head's ``μ`` at its exact optimum, and the optimisers of the sharp-head
study (``theory.hpcy25.SECTIONS["sec3_sharp_head"]``).

The predictor of heads ``ω = (ω_1 … ω_K)`` with weights ``μ`` is label-linear,
``ŷ = Σ_h μ_h Σ_i softmax(ω_h X x_q)_i y_i`` (the query attends to the ``L`` context columns only,
eq. (2.3)); given the covariates, β ~ N(0, I/d) and the label noise (context *and* query, σ²) are
integrated exactly (Rao–Blackwell, as ``predictors.conditional_risk`` does) with
``p^h = softmax(ω_h X x_q)`` and ``a^h = Xᵀp^h``,

``E[(y_q − ŷ)² | X, x_q] = A0 − 2 μᵀb + μᵀGμ``, ``A0 = τ²‖x_q‖² + σ²``, ``b_h = τ² x_qᵀa^h``,
``G_hk = τ² a^hᵀa^k + σ² p^hᵀp^k``,  τ² = 1/d,

in units of ``E(ŷ − y)²`` (noise included, no ½).  The population risk at ``ω`` with the best
``μ`` is ``E A0 − E bᵀ (E G)⁻¹ E b``; the optimisers search ``ω`` on one sample of covariates and
the checks re-evaluate what they found on an independent one (paired, per prompt), so the
comparison carries no optimiser bias.  No theory function is called here.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.optimize import minimize, minimize_scalar

from numerics.hpcy25.predictors import sample_covariates, softmax
from numerics.montecarlo import MAX_RAISE
from numerics.testing import MC_POWER, needed_samples
from theory.settings import check_int, check_real

__all__ = [
    "PatternSample",
    "sample_pattern",
    "OMEGA_GRID",
    "PAIR_BOUNDS",
    "SHARP_BOUNDS",
    "grid_moments",
    "moments",
    "profile_risk",
    "per_prompt",
    "best_pair",
    "best_extra_head",
    "best_free",
    "Fit",
    "SharpHeadStudy",
    "SMALL_OMEGA",
    "sharp_head_study",
]

#: The kernel scales |ω| of the coarse search (both signs): the pair's regime (Prop. 4.1's
#: |ω| ≲ d^{-1/2}) and beyond it up to nearly hard attention.
OMEGA_GRID: tuple[float, ...] = (
    0.02, 0.04, 0.07, 0.1, 0.15, 0.25, 0.4, 0.6, 1.0, 1.5, 2.5, 4.0, 6.0,
)  # fmt: skip
#: The refinement's range of the homogeneous pair's |ω| ...
PAIR_BOUNDS = (0.005, 1.0)
#: ... and of an added head's |ω|.
SHARP_BOUNDS = (0.02, 12.0)
#: Prompts per chunk of the grid's moments (memory: K·chunk·L floats).
_CHUNK = 2048
#: The refinements' resolution in log|ω| (0.2 % of ω; the risk is flat to O(δ²) there).
_XATOL = 2e-3
#: Relative least-squares cut of the μ solve (equal ω's make G singular).
_RCOND = 1e-12


@dataclass
class PatternSample:
    """One Monte Carlo sample of covariates: contexts ``X`` (n, L, d), queries ``xq`` (n, d), the
    scores ``s = X x_q`` and ``‖x_q‖²``; the noise σ², the prior variance τ² = 1/d.  The fault
    flags (negative controls only) make the query attend to itself (its label slot 0 enters the
    softmax, score ``ω‖x_q‖²``) or leave the noise out of the context labels.

    By construction ``s[n, l] = X[n, l]·xq[n]`` and τ² = 1/d ([hpcy25] §2, β ~ N(0, I/d)):

    >>> X = np.arange(12.0).reshape(1, 3, 4)
    >>> S = PatternSample(X, np.ones((1, 4)), 0.25)
    >>> S.s, S.q2, S.tau2, S.n
    (array([[ 6., 22., 38.]]), array([4.]), 0.25, 1)
    """

    X: np.ndarray
    xq: np.ndarray
    sigma2: float
    query_self_attend: bool = False
    noiseless_labels: bool = False
    s: np.ndarray = field(init=False)
    q2: np.ndarray = field(init=False)
    _feat: dict[float, tuple[np.ndarray, np.ndarray]] = field(init=False, default_factory=dict)
    _grid: tuple[np.ndarray, float, np.ndarray, np.ndarray] | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.s = np.einsum("nld,nd->nl", self.X, self.xq)
        self.q2 = np.einsum("nd,nd->n", self.xq, self.xq)

    @property
    def n(self) -> int:
        return int(self.X.shape[0])

    @property
    def tau2(self) -> float:
        return 1.0 / self.X.shape[2]

    @property
    def label_var(self) -> float:
        """The noise variance of the context labels (σ², or 0 with the fault)."""
        return 0.0 if self.noiseless_labels else float(self.sigma2)

    def weights(self, omega: float, rows: slice = slice(None)) -> np.ndarray:
        """``softmax(ω X x_q)`` over the context (n, L) for the prompts ``rows``."""
        z = float(omega) * self.s[rows]
        if not self.query_self_attend:
            return softmax(z)
        zq = float(omega) * self.q2[rows]  # FAULT: the query's own column in the softmax
        m = np.maximum(z.max(axis=1), zq)
        e = np.exp(z - m[:, None])
        return e / (e.sum(axis=1) + np.exp(zq - m))[:, None]

    def features(self, omega: float) -> tuple[np.ndarray, np.ndarray]:
        """``(p, a)`` of one head on the whole sample (cached for the last few ω)."""
        key = float(omega)
        got = self._feat.get(key)
        if got is None:
            p = self.weights(key)
            got = (p, np.einsum("nl,nld->nd", p, self.X))
            if len(self._feat) >= 6:
                self._feat.pop(next(iter(self._feat)))
            self._feat[key] = got
        return got


def sample_pattern(
    rng: np.random.Generator,
    n: int,
    *,
    d: int,
    L: int,
    sigma2: float,
    fault_query_self_attend: bool = False,
    fault_noiseless_labels: bool = False,
) -> PatternSample:
    """``n`` prompts' covariates (x ~ N(0, I_d), [hpcy25] §2) at ``(d, L, σ²)``: contexts
    ``X (n, L, d)``, queries ``xq (n, d)``.  E‖x_q‖² = d, so E τ²‖x_q‖² = 1 (se √(2/(d n))):

    >>> S = sample_pattern(np.random.default_rng(0), 2000, d=2, L=4, sigma2=0.25)
    >>> S.X.shape, S.xq.shape, bool(abs(S.tau2 * S.q2.mean() - 1) < 5 * np.sqrt(2 / (2 * 2000)))
    ((2000, 4, 2), (2000, 2), True)
    """
    check_int("n", n, minimum=2)
    check_int("d", d, minimum=1)
    check_int("L", L, minimum=2)
    check_real("sigma2", sigma2, lower=0.0)
    X, xq = sample_covariates(rng, n, L, d)
    return PatternSample(
        X,
        xq,
        float(sigma2),
        query_self_attend=bool(fault_query_self_attend),
        noiseless_labels=bool(fault_noiseless_labels),
    )


def grid_moments(
    S: PatternSample, omegas: Sequence[float] | np.ndarray
) -> tuple[float, np.ndarray, np.ndarray]:
    """Population means ``(E A0, E b, E G)`` of the heads ``omegas`` (K of them) on ``S``:
    shapes, (K,), (K, K); in chunks of prompts, for a grid of many ω.

    Agrees with the per-head route :func:`moments`; a head at ``ω = 0`` averages the context
    (``p = 1/L``), so ``G = τ² E‖x̄‖² + σ²/L = 1/L + σ²/L`` (``0.3125`` at ``L = 4``, σ² = 0.25;
    se ≈ 0.006 at n = 1000):

    >>> S = sample_pattern(np.random.default_rng(0), 1000, d=2, L=4, sigma2=0.25)
    >>> A0, b, G = grid_moments(S, [0.0, 0.5])
    >>> bool(np.allclose(G, moments(S, [0.0, 0.5])[2])), bool(abs(G[0, 0] - 0.3125) < 0.03)
    (True, True)
    """
    om = [float(w) for w in omegas]
    K = len(om)
    b = np.zeros(K)
    G = np.zeros((K, K))
    for start in range(0, S.n, _CHUNK):
        rows = slice(start, min(start + _CHUNK, S.n))
        P = np.stack([S.weights(w, rows) for w in om])  # (K, c, L)
        A = np.einsum("kcl,cld->kcd", P, S.X[rows])
        b += S.tau2 * np.einsum("kcd,cd->k", A, S.xq[rows])
        Af, Pf = A.reshape(K, -1), P.reshape(K, -1)
        G += S.tau2 * (Af @ Af.T) + S.label_var * (Pf @ Pf.T)
    A0 = float(np.mean(S.tau2 * S.q2 + S.sigma2))
    return A0, b / S.n, G / S.n


def profile_risk(A0: float, b: np.ndarray, G: np.ndarray) -> tuple[float, np.ndarray]:
    """``min_μ A0 − 2μᵀb + μᵀGμ`` and its ``μ`` (least squares: equal ω's make ``G`` singular).

    ``b (K,)``, ``G (K, K)`` → ``(float, (K,))``. By hand, ``μ = G⁻¹b``, risk ``A0 − bᵀG⁻¹b``;
    two equal heads (singular ``G``) give the one-head answer split evenly:

    >>> profile_risk(1.0, np.array([0.5]), np.array([[1.0]]))
    (0.75, array([0.5]))
    >>> r, mu = profile_risk(1.0, np.array([0.5, 0.5]), np.ones((2, 2)))
    >>> round(r, 12), np.round(mu, 12)
    (0.75, array([0.25, 0.25]))
    """
    mu = np.linalg.lstsq(G, b, rcond=_RCOND)[0]
    return float(A0 - b @ mu), mu


def moments(S: PatternSample, omegas: Sequence[float]) -> tuple[float, np.ndarray, np.ndarray]:
    """:func:`grid_moments` for a few heads, from the cached whole-sample features: ``(E A0, E b
    (K,), E G (K, K))``.  ``E A0 = τ² E‖x_q‖² + σ² = 1 + σ²`` (se √(2/(d n))):

    >>> S = sample_pattern(np.random.default_rng(1), 1000, d=2, L=4, sigma2=0.25)
    >>> A0, b, G = moments(S, [0.3, -0.3])
    >>> b.shape, G.shape, bool(abs(A0 - 1.25) < 5 * np.sqrt(2 / 2000))
    ((2,), (2, 2), True)
    """
    F = [S.features(w) for w in omegas]
    K = len(F)
    b = np.array([S.tau2 * float(np.mean(np.einsum("nd,nd->n", S.xq, a))) for _, a in F])
    G = np.empty((K, K))
    for i in range(K):
        for j in range(i, K):
            g = S.tau2 * np.einsum("nd,nd->", F[i][1], F[j][1])
            g += S.label_var * np.einsum("nl,nl->", F[i][0], F[j][0])
            G[i, j] = G[j, i] = g / S.n
    return float(np.mean(S.tau2 * S.q2 + S.sigma2)), b, G


def per_prompt(
    S: PatternSample, omegas: Sequence[float]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-prompt ``(A0, b, G)`` of the heads ``omegas``: shapes (n,), (n, K), (n, K, K).  The
    conditional risk of weights ``μ`` is ``A0 − 2 b μ + μᵀGμ``; the second moment of head ``h``'s
    output is ``μ_h² G_hh`` and of the whole prediction ``μᵀGμ``.

    Its prompt means are :func:`moments`:

    >>> S = sample_pattern(np.random.default_rng(2), 300, d=2, L=4, sigma2=0.25)
    >>> A0, b, G = per_prompt(S, [0.3, -0.3])
    >>> A0.shape, b.shape, G.shape
    ((300,), (300, 2), (300, 2, 2))
    >>> m = moments(S, [0.3, -0.3])
    >>> all(bool(np.allclose(x.mean(axis=0), y)) for x, y in zip((A0, b, G), m))
    True
    """
    F = [S.features(w) for w in omegas]
    K = len(F)
    b = np.stack([S.tau2 * np.einsum("nd,nd->n", S.xq, a) for _, a in F], axis=1)
    G = np.empty((S.n, K, K))
    for i in range(K):
        for j in range(i, K):
            g = S.tau2 * np.einsum("nd,nd->n", F[i][1], F[j][1])
            g = g + S.label_var * np.einsum("nl,nl->n", F[i][0], F[j][0])
            G[:, i, j] = G[:, j, i] = g
    return S.tau2 * S.q2 + S.sigma2, b, G


@dataclass(frozen=True)
class Fit:
    """Heads found by an optimiser on the search sample: ``omega``, ``mu`` (optimal given
    ``omega``), the profile ``risk`` there, and ``evals`` (risk evaluations spent).

    ``risk`` is :func:`profile_risk` of ``omega``'s :func:`moments` on the search sample:

    >>> S = sample_pattern(np.random.default_rng(0), 300, d=2, L=4, sigma2=0.25)
    >>> f = best_pair(S)
    >>> bool(np.isclose(f.risk, profile_risk(*moments(S, f.omega))[0])), len(f.mu)
    (True, 2)
    """

    omega: tuple[float, ...]
    mu: tuple[float, ...]
    risk: float
    evals: int
    details: dict[str, Any] = field(default_factory=dict)


def _fit(S: PatternSample, omegas: Sequence[float], evals: int, **details: Any) -> Fit:
    risk, mu = profile_risk(*moments(S, omegas))
    return Fit(tuple(float(w) for w in omegas), tuple(float(m) for m in mu), risk, evals, details)


def _grid(S: PatternSample) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """:data:`OMEGA_GRID` (both signs) and its moments on ``S`` (computed once per sample)."""
    if S._grid is None:
        grid = np.array([*(-w for w in reversed(OMEGA_GRID)), *OMEGA_GRID])
        S._grid = (grid, *grid_moments(S, grid))
    return S._grid


def _sub(A0: float, b: np.ndarray, G: np.ndarray, idx: Sequence[int]) -> float:
    ix = np.asarray(idx)
    return profile_risk(A0, b[ix], G[np.ix_(ix, ix)])[0]


def best_pair(S: PatternSample) -> Fit:
    """The best homogeneous ± pair ``(ω, −ω)`` (its two μ free; a dummy head adds nothing):
    the grid's best |ω|, then a bounded scalar search on ``log ω`` in :data:`PAIR_BOUNDS`.

    Source: the homogeneous pair of [hpcy25] Observation 1 / Prop. 4.1.  The search beats its
    grid start and the pair at |ω| = :data:`SMALL_OMEGA` (debiased GD to O(ω²), eq. (4.10)):

    >>> S = sample_pattern(np.random.default_rng(0), 300, d=2, L=4, sigma2=0.25)
    >>> f = best_pair(S)
    >>> w0 = f.details["grid_best"]
    >>> f.omega[0] == -f.omega[1], f.risk <= profile_risk(*moments(S, (w0, -w0)))[0]
    (True, True)
    >>> f.risk < profile_risk(*moments(S, (SMALL_OMEGA, -SMALL_OMEGA)))[0]
    True
    """
    grid, A0, b, G = _grid(S)
    pos = {w: i for i, w in enumerate(grid)}
    vals = [_sub(A0, b, G, (pos[w], pos[-w])) for w in OMEGA_GRID]
    k = int(np.argmin(vals))
    lo = math.log(OMEGA_GRID[k - 1]) if k > 0 else math.log(PAIR_BOUNDS[0])
    hi = math.log(OMEGA_GRID[k + 1]) if k + 1 < len(OMEGA_GRID) else math.log(PAIR_BOUNDS[1])
    count = [0]

    def f(t: float) -> float:
        count[0] += 1
        w = math.exp(t)
        return profile_risk(*moments(S, (w, -w)))[0]

    r: Any = minimize_scalar(f, bounds=(lo, hi), method="bounded", options={"xatol": _XATOL})
    w = math.exp(float(r.x))
    return _fit(S, (w, -w), count[0] + len(vals), grid_best=float(OMEGA_GRID[k]))


def best_extra_head(S: PatternSample, pair: Fit) -> Fit:
    """``pair``'s heads plus one free head ``ω_3`` (every μ re-optimised): the best ω_3 on the
    grid (both signs) beside the grid's pair nearest ``pair`` (the grid's moments), then a bounded
    scalar search on ``log|ω_3|`` at that sign in :data:`SHARP_BOUNDS` beside ``pair`` itself.

    Source: the sharp-head question of [hpcy25] §3 (an extra head beside Observation 1's pair).
    On the search sample a third head can only lower the profile risk (``μ_3 = 0`` is allowed):

    >>> S = sample_pattern(np.random.default_rng(0), 300, d=2, L=4, sigma2=0.25)
    >>> pair = best_pair(S)
    >>> three = best_extra_head(S, pair)
    >>> len(three.omega), three.omega[:2] == pair.omega, three.risk <= pair.risk + 1e-12
    (3, True, True)
    """
    base = list(pair.omega)
    grid, A0, b, G = _grid(S)
    near = [int(np.argmin(np.abs(grid - w))) for w in base]
    vals = [_sub(A0, b, G, (*near, j)) if j not in near else math.inf for j in range(len(grid))]
    j = int(np.argmin(vals))
    sign = 1.0 if grid[j] > 0 else -1.0
    k = OMEGA_GRID.index(abs(float(grid[j])))
    lo = math.log(OMEGA_GRID[k - 1]) if k > 0 else math.log(SHARP_BOUNDS[0])
    hi = math.log(OMEGA_GRID[k + 1]) if k + 1 < len(OMEGA_GRID) else math.log(SHARP_BOUNDS[1])
    count = [0]

    def f(t: float) -> float:
        count[0] += 1
        return profile_risk(*moments(S, (*base, sign * math.exp(t))))[0]

    r: Any = minimize_scalar(f, bounds=(lo, hi), method="bounded", options={"xatol": _XATOL})
    w3 = sign * math.exp(float(r.x))
    return _fit(S, (*base, w3), count[0] + len(vals), grid_best=float(grid[j]))


def best_free(S: PatternSample, H: int = 2) -> Fit:
    """``H`` free heads (every ω and μ): the grid's best configuration of ``H`` distinct grid
    values (both signs), then Nelder–Mead on ``(log|ω_h|)`` at those signs.

    Nelder–Mead never ends above its grid start (``details["grid_best"]``):

    >>> S = sample_pattern(np.random.default_rng(0), 300, d=2, L=4, sigma2=0.25)
    >>> f = best_free(S, 2)
    >>> len(f.omega), f.risk <= profile_risk(*moments(S, f.details["grid_best"]))[0]
    (2, True)
    """
    if check_int("H", H, minimum=1) > 3:
        raise ValueError(f"H = {H}: the grid search enumerates at most 3 free heads")
    grid, A0, b, G = _grid(S)

    combos = list(itertools.combinations(range(len(grid)), H))
    vals = [_sub(A0, b, G, c) for c in combos]
    start = grid[list(combos[int(np.argmin(vals))])]
    signs = np.sign(start)
    count = [0]

    def f(t: np.ndarray) -> float:
        count[0] += 1
        return profile_risk(*moments(S, tuple(signs * np.exp(t))))[0]

    r: Any = minimize(
        f,
        np.log(np.abs(start)),
        method="Nelder-Mead",
        options={"xatol": _XATOL, "fatol": 1e-10, "maxfev": 40 * H},
    )
    om = tuple(float(x) for x in signs * np.exp(r.x))
    return _fit(S, om, count[0] + len(vals), grid_best=[float(x) for x in start])


@dataclass(frozen=True)
class SharpHeadStudy:
    """What :func:`sharp_head_study` found at one setting: the fits on the search sample and, on
    the independent evaluation sample (paired, per prompt), ``gain`` = R(pair + extra head) −
    R(pair), ``free2_gain`` = R(best two free heads) − R(pair), the extra head's ``share``
    (``√(E[ŷ_3²]/E[ŷ²])``, delta-method se), ``pair_risk`` (R of the pair) and ``small_pair_risk``
    (R of the pair at |ω| = :data:`SMALL_OMEGA` with its best μ: debiased GD to O(ω²), (4.10)).
    Estimates are ``(mean, se, n)``.

    >>> r = sharp_head_study(2, 4, 0.25, rng=np.random.default_rng(0), n_search=300, n_eval=300)
    >>> r.setting, len(r.three.omega), r.gain[2] >= 300, 0 <= r.share[0] <= 1
    ((2, 4, 0.25), 3, True, True)
    """

    setting: tuple[int, int, float]
    pair: Fit
    three: Fit
    free2: Fit
    small_pair: Fit
    gain: tuple[float, float, int]
    free2_gain: tuple[float, float, int]
    share: tuple[float, float, int]
    pair_risk: tuple[float, float, int]
    small_pair_risk: tuple[float, float, int]
    n_search: int
    #: the evaluation sample asked for when it was raised for power (else 0), and its wall time
    n_requested: int = 0
    eval_seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        def fit(f: Fit) -> dict[str, Any]:
            return {"omega": list(f.omega), "mu": list(f.mu), "search_risk": f.risk}

        return {
            "setting": list(self.setting),
            "pair": fit(self.pair),
            "pair_plus_head": fit(self.three),
            "free_two_heads": fit(self.free2),
            "n_search": self.n_search,
            "n_eval": self.gain[2],
            **({"raised_from": self.n_requested} if self.n_requested else {}),
        }


#: The pair's |ω| at which the homogeneous pair is debiased GD to O(ω²) ((4.10), Thm 4.2(i)):
#: the landscape's anchor to the closed form R_D* (D.29).
SMALL_OMEGA = 0.01
#: Prompts per chunk of the evaluation sample.
EVAL_CHUNK = 20_000


def _mean_se(x: np.ndarray) -> tuple[float, float, int]:
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(x.size)), int(x.size)


def sharp_head_study(
    d: int,
    L: int,
    sigma2: float,
    *,
    rng: np.random.Generator,
    n_search: int,
    n_eval: int,
    fault_query_self_attend: bool = False,
    fault_noiseless_labels: bool = False,
    fault_homogeneous_extra: bool = False,
) -> SharpHeadStudy:
    """At ``(d, L, σ²)``: the best homogeneous ± pair (:func:`best_pair`), the same plus one
    optimised free head (:func:`best_extra_head`), the best two free heads (:func:`best_free`) and
    the pair at |ω| = :data:`SMALL_OMEGA`, searched on ``n_search`` prompts; then every one of
    them evaluated on ``n_eval`` fresh prompts with its μ fixed (common random numbers: the
    differences are paired per prompt; in chunks of :data:`EVAL_CHUNK`).  The gains' power scale,
    the pair's risk, is known only after sampling: an evaluation sample whose gains miss se ≤ 2 %
    of it (or whose small-ω pair's risk misses 2 % of its own mean) draws on, up to
    ``MAX_RAISE·n_eval`` prompts (recorded as ``n_requested``).  Faults (negative controls): the
    query attending to itself, the context labels without noise (:class:`PatternSample`), the
    added head held homogeneous (``ω_3 = ω``, the shape of L̃'s optimum (4.4)).

    Source: [hpcy25] §3 (the sharp-head study) and Observation 1 / eq. (3.2) (the pattern).
    The pair beats the trivial predictor (risk ``E y_q² = 1 + σ²``) by far more than 5 se:

    >>> r = sharp_head_study(2, 4, 0.25, rng=np.random.default_rng(0), n_search=300, n_eval=300)
    >>> m, se, n = r.pair_risk
    >>> bool(1.25 - m > 5 * se), r.pair.omega[0] == -r.pair.omega[1]
    (True, True)
    """
    faults = {
        "fault_query_self_attend": fault_query_self_attend,
        "fault_noiseless_labels": fault_noiseless_labels,
    }
    A = sample_pattern(rng, n_search, d=d, L=L, sigma2=sigma2, **faults)
    pair = best_pair(A)
    three = (
        _fit(A, (*pair.omega, pair.omega[0]), 0)  # FAULT: the added head held homogeneous
        if fault_homogeneous_extra
        else best_extra_head(A, pair)
    )
    free2 = best_free(A, 2)
    small = _fit(A, (SMALL_OMEGA, -SMALL_OMEGA), 1)
    del A
    fits = (pair, three, free2, small)
    cols: list[list[np.ndarray]] = [[] for _ in range(6)]
    t0 = time.perf_counter()
    done, goal = 0, n_eval
    while done < goal:  # the fresh sample, in chunks (bounded memory)
        size = min(EVAL_CHUNK, goal - done)
        size -= goal - done - size == 1  # never leave a last chunk of one prompt
        B = sample_pattern(rng, size, d=d, L=L, sigma2=sigma2, **faults)
        for k, f in enumerate(fits):
            A0, b, G = per_prompt(B, f.omega)
            mu = np.asarray(f.mu)
            quad = np.einsum("nij,i,j->n", G, mu, mu)
            cols[k].append(A0 - 2 * b @ mu + quad)
            if f is three:
                cols[4].append(quad)
                cols[5].append(G[:, -1, -1] * mu[-1] ** 2)
        done += size
        if done == goal == n_eval:
            goal = _powered_goal(cols, n_eval)
    r_pair, r_three, r_free, r_small, y2, y3 = (np.concatenate(c) for c in cols)
    seconds = time.perf_counter() - t0
    m2, m3 = float(y2.mean()), float(y3.mean())
    ratio = m3 / m2
    infl = (y3 - ratio * y2) / m2  # delta method for E[ŷ_3²]/E[ŷ²]
    r_se = float(infl.std(ddof=1) / math.sqrt(infl.size))
    share = math.sqrt(max(ratio, 0.0))
    share_se = r_se / (2 * share) if share > 0 else r_se
    return SharpHeadStudy(
        (int(d), int(L), float(sigma2)),
        pair,
        three,
        free2,
        small,
        _mean_se(r_three - r_pair),
        _mean_se(r_free - r_pair),
        (share, share_se, int(r_pair.size)),
        _mean_se(r_pair),
        _mean_se(r_small),
        int(n_search),
        n_eval if r_pair.size > n_eval else 0,
        seconds,
    )


def _powered_goal(cols: list[list[np.ndarray]], n_eval: int) -> int:
    """The evaluation sample the two paired gains need for se ≤ 2 % of the pair's risk (their
    power scale, known only after sampling), and the small-ω pair's risk for se ≤ 2 % of its own
    mean (the scale of the units row, R_D*, which it estimates), x1.1, capped at
    ``MAX_RAISE·n_eval``."""
    r_pair, r_three, r_free, r_small = (np.concatenate(c) for c in cols[:4])
    scale = float(r_pair.mean())
    need = n_eval
    for diff, sc in (
        (r_three - r_pair, scale),
        (r_free - r_pair, scale),
        (r_small, float(r_small.mean())),
    ):
        se = float(diff.std(ddof=1) / math.sqrt(diff.size))
        if sc > 0 and se > MC_POWER * sc:
            need = max(need, math.ceil(1.1 * needed_samples(diff.size, se, sc, MC_POWER)))
    goal = min(MAX_RAISE * n_eval, need)
    return goal + (goal == n_eval + 1)  # a raise draws at least two more prompts
