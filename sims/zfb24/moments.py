"""[zfb24] the fast trained route at any setting: gradient descent on the LSA's factors with the
loss written through moment estimates of sampled prompts (sufficient statistics).

Imports no theory of ``theory.zfb24`` (the trained model never sees a prediction): the loss,
its gradient and the batch are built from sampled data only.

The route (named ``"moment statistics"`` in every row that uses it):

* **The model.** The merged LSA (:class:`sims.models.lsa.LSA`, ρ = N, query column included) on
  its invariant set ``u₁₂ = u₂₁ = 0`` (first d rows of W^{PV} and last column of W^{KQ} zero):
  ``ŷ = u ĝᵀU₁₁x_q`` with ``ĝ = (1/N)Σᵢyᵢxᵢ = Λ̂w``, ``Λ̂ = XᵀX/N``.  The set is invariant under
  gradient descent on the w ↦ −w symmetric loss (an exact symmetry of the data law, not a
  prediction); the full-parameter presets (``sims.zfb24.train``) check that it is.  Every
  run verifies, on sampled prompts, that the torch LSA's forward at the trained weights equals
  ``u ĝᵀU₁₁x_q`` (float64 rounding).
* **The loss.** Integrating the task ``w ~ N(0, I)`` exactly (the data's own prior), the
  ½-MSE of a prompt is ``½‖(Λ̂P − I)x_q‖²`` with ``P = uU₁₁``; averaging over the query given the
  prompt's covariance gives ``½ tr((Λ̂P − I) C (Λ̂P − I)ᵀ)`` with ``C`` the query covariance:
  for fixed Λ the pooled sample covariance of the sampled queries (independent of the prompt), for
  random covariance (Definition 7) the prompt's own sampled ``Λ_τ``.  So the batch loss is a
  quadratic in ``P`` whose coefficients are batch means of ``Λ̂²``, ``Λ̂`` (fixed Λ: two d×d
  matrices) or ``λ_k Λ̂²``, ``λ_k Λ̂`` (random Λ_τ = diag(λ): d of each): the sufficient
  statistics.  A step costs O(d³), independent of the batch.
* **Step size** from the curvature of the factored loss at the current point,
  ``lr = LR_FRACTION / (h·(u² + ‖U₁₁‖²_F) + ‖∇_P‖_F)`` (h the top curvature in P, from the
  statistics); **steps** until the invariant P drifts by less than ``DRIFT_FRACTION·rtol``
  (relative) over ``DRIFT_WINDOW`` steps; **batch** from the tolerance: a pilot batch's
  sampling error (spread of the per-group minimisers) gives the error constant c of
  ``err ≈ c/√B``, and ``B = (BATCH_Z·c/rtol)²``.

The engine of :func:`sims.zfb24.train.trained` for a :class:`MomentRecipe` (checks train through
``trained``, which caches by setting, recipe and seed; the pilot statistics here are cached by
setting and seed).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from sims.cache import cached
from sims.config import DriftStop
from sims.data import embed
from sims.models.lsa import LSA
from sims.train import make_generator
from theory.settings import check_real
from theory.zfb24.settings import LSAFlowData

__all__ = [
    "LSAFlowSetting",
    "theta",
    "MomentRecipe",
    "moment_recipe",
    "MomentResult",
    "moment_statistics",
    "pilot",
    "pilot_error_constant",
    "curvature_range",
    "derive_batch",
    "train_moments",
    "moment_model",
    "ROUTE",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class LSAFlowSetting(LSAFlowData):
    """What is trained: zfb24's data model (:class:`theory.zfb24.settings.LSAFlowData`: ``d``,
    ``N``, ``Lambda`` / ``random_cov``) plus Assumption 3's start: the initialisation scale and
    Θ's seed.  How it is trained is the recipe's (:class:`sims.zfb24.train.Recipe`)."""

    sigma_init: float = 0.3  # σ of Assumption 3 (initialisation scale, not a noise level)
    theta_seed: int = 0  # seeds M₀ of Θ = M₀/‖M₀M₀ᵀ‖_F^{1/2}

    def __post_init__(self) -> None:
        LSAFlowData.__post_init__(self)
        check_real(
            "sigma_init (σ)",
            self.sigma_init,
            lower=0.0,
            lower_open=True,
            paper="zfb24 Assumption 3",
        )


def theta(setting: LSAFlowSetting) -> np.ndarray:
    """Θ of Assumption 3's random scheme (numpy generator seeded by ``theta_seed``)."""
    M0 = np.random.default_rng(setting.theta_seed).standard_normal((setting.d, setting.d))
    return M0 / np.sqrt(np.linalg.norm(M0 @ M0.T))


ROUTE = (
    "moment statistics: GD on the factors (U₁₁, u₋₁) of the LSA on its invariant set, loss from "
    "batch means of Λ̂², Λ̂ of sampled prompts (task integrated exactly), step size from the "
    "curvature, steps from the drift of P, batch from the tolerance"
)

#: Step size as a fraction of 1/curvature of the factored loss (GD is stable below 2) once the
#: gradient has fallen below LR_SWITCH of its largest value; LR_FRACTION_EARLY before.  GD moves
#: the balancedness ‖U₁₁‖²_F − u² (conserved by the flow) by Σ lr²(‖g_u‖² − ‖g_U‖²): the small
#: early steps keep that drift ~10⁻⁴ while the gradients are large; late, the gradients are small
#: and the large steps only shorten the linear convergence.
LR_FRACTION = 0.5
LR_FRACTION_EARLY = 0.02
LR_SWITCH = 1e-2
#: Drift of P over DRIFT_WINDOW steps, as a fraction of the row tolerance, that ends training.
DRIFT_FRACTION = 1e-3
#: Steps over which the drift of P is measured.
DRIFT_WINDOW = 100
#: Upper bound on GD steps (a run that has not met the drift criterion by then says so).
MAX_STEPS = 200_000
#: Batch = (BATCH_Z · c / rtol)²: the batch's sampling error is 1/BATCH_Z of the tolerance.
BATCH_Z = 3.0
#: Pilot batch (prompts) and its number of groups for the sampling-error constant c.
PILOT_BATCH = 2**13
PILOT_GROUPS = 8
#: Smallest batch of a run (prompts).
MIN_BATCH = 2**14
#: Prompts per sampling chunk.
CHUNK = 2**15
#: The torch forward at the trained weights equals u ĝᵀU₁₁x_q up to float64 rounding.
LSA_FORWARD_RTOL = 1e-9


@dataclass(frozen=True, kw_only=True, slots=True)
class MomentRecipe:
    """How a moment-statistics run trains (part of the cache key of
    :func:`sims.zfb24.train.trained`): the prompts in its statistics and its stopping rule --
    P's relative change over ``stop.window`` GD steps at most ``stop.fraction · stop.tol``
    (``stop.tol``: the tolerance the run serves), within ``stop.max_steps`` steps (the bound: a
    run that reaches it records ``converged = False``).  :func:`moment_recipe` builds the
    route's own rule."""

    batch: int  # prompts in the statistics
    stop: DriftStop

    def __post_init__(self) -> None:
        if isinstance(self.batch, bool) or not isinstance(self.batch, int) or self.batch < 2:
            raise ValueError(f"batch (prompts) must be an integer >= 2, got {self.batch!r}")


def moment_recipe(batch: int, rtol: float) -> MomentRecipe:
    """The route's recipe serving tolerance ``rtol``: ``batch`` prompts, P's drift over
    DRIFT_WINDOW steps below DRIFT_FRACTION·rtol, at most MAX_STEPS steps.

    >>> r = moment_recipe(2**14, 0.05)
    >>> r.stop.threshold == 0.05 * DRIFT_FRACTION, r.stop.window == DRIFT_WINDOW
    (True, True)
    """
    stop = DriftStop(tol=rtol, max_steps=MAX_STEPS, fraction=DRIFT_FRACTION, window=DRIFT_WINDOW)
    return MomentRecipe(batch=int(batch), stop=stop)


@dataclass(frozen=True, slots=True)
class MomentResult:
    """A trained moment-statistics run."""

    setting: LSAFlowSetting
    recipe: MomentRecipe
    seed: int
    U11: np.ndarray  # trained W^{KQ}_{11}
    u: float  # trained w^{PV}_{22}
    U11_0: np.ndarray  # Assumption 3 start
    u_0: float
    P_batch: np.ndarray  # the batch minimiser of the same quadratic (normal equations)
    steps: int
    converged: bool
    lr_range: tuple[float, float]
    drift: float  # last relative drift of P over DRIFT_WINDOW steps
    balance: float  # ‖U₁₁‖²_F − u² at the end (0 at the start)
    seconds: float
    forward_error: float  # max |LSA forward − u ĝᵀU₁₁x_q| / max|ŷ| on sampled prompts

    @property
    def P(self) -> np.ndarray:
        return self.u * self.U11

    @property
    def P0(self) -> np.ndarray:
        return self.u_0 * self.U11_0

    def details(self) -> dict[str, Any]:
        """Step size, batch and steps for a row's details."""
        return {
            "route": ROUTE,
            "batch": self.recipe.batch,
            "steps": self.steps,
            "lr_min": self.lr_range[0],
            "lr_max": self.lr_range[1],
            "converged": self.converged,
            "final_drift": self.drift,
            "train_seconds": self.seconds,
        }


def _stats_chunk(s: LSAFlowSetting, m: int, gen: torch.Generator) -> tuple[torch.Tensor, ...]:
    """One chunk of ``m`` prompts: (Λ̂ (m,d,d), query covariance C (m,d) diag or None, x_q)."""
    d, n = s.d, s.N
    if s.random_cov:
        lam = torch.empty(m, d, dtype=torch.float64).exponential_(1.0, generator=gen)
        X = torch.randn((m, n, d), generator=gen).to(torch.float64) * lam.sqrt()[:, None, :]
        xq = torch.randn((m, d), generator=gen).to(torch.float64) * lam.sqrt()
    else:
        ev, V = torch.linalg.eigh(torch.as_tensor(s.Lambda, dtype=torch.float64))
        R = (V * ev.sqrt()) @ V.T
        X = torch.randn((m, n, d), generator=gen).to(torch.float64) @ R
        xq = torch.randn((m, d), generator=gen).to(torch.float64) @ R
        lam = torch.empty(0)
    Lh = X.transpose(1, 2) @ X / n
    return Lh, lam, xq, X


def moment_statistics(
    s: LSAFlowSetting, B: int, gen: torch.Generator, groups: int = 1
) -> list[dict[str, np.ndarray]]:
    """Batch means of the sufficient statistics over ``B`` sampled prompts, split into ``groups``
    equal groups: fixed Λ -- ``M2 = mean Λ̂²``, ``M1 = mean Λ̂``, ``C = mean x_q x_qᵀ``; random
    covariance -- ``A[k] = mean λ_k Λ̂²``, ``c[k] = mean λ_k Λ̂[:, k]``, ``e = mean Σλ_k``."""
    out = []
    per = B // groups
    for _ in range(groups):
        d = s.d
        acc: dict[str, torch.Tensor] = {}
        done = 0
        while done < per:
            m = min(CHUNK, per - done)
            Lh, lam, xq, _ = _stats_chunk(s, m, gen)
            L2 = Lh @ Lh
            if s.random_cov:
                parts = {
                    "A": torch.einsum("bk,bij->kij", lam, L2),
                    "c": torch.einsum("bk,bik->ki", lam, Lh),
                    "e": lam.sum()[None],
                }
            else:
                parts = {"M2": L2.sum(0), "M1": Lh.sum(0), "C": xq.T @ xq}
            for k, v in parts.items():
                acc[k] = acc[k] + v if k in acc else v.clone()
            done += m
        out.append({k: (v / per).numpy() for k, v in acc.items()})
        del d
    return out


def _minimiser(st: dict[str, np.ndarray], random_cov: bool) -> np.ndarray:
    """The minimiser of the batch quadratic in P (its normal equations)."""
    if random_cov:
        return np.stack(
            [np.linalg.solve(A, c) for A, c in zip(st["A"], st["c"], strict=True)], axis=1
        )
    # ∇_P = M2 P C − M1 C = 0  ⇔  M2 P = M1 (C invertible)
    return np.linalg.solve(st["M2"], st["M1"])


def _grad_P(st: dict[str, np.ndarray], P: np.ndarray, random_cov: bool) -> np.ndarray:
    if random_cov:
        return np.einsum("kij,jk->ik", st["A"], P) - st["c"].T
    return st["M2"] @ P @ st["C"] - st["M1"] @ st["C"]


def _curvature(st: dict[str, np.ndarray], random_cov: bool) -> float:
    """Top eigenvalue of the Hessian of the batch quadratic in P."""
    if random_cov:
        return float(max(np.linalg.eigvalsh(A)[-1] for A in st["A"]))
    return float(np.linalg.eigvalsh(st["M2"])[-1] * np.linalg.eigvalsh(st["C"])[-1])


def pilot(s: LSAFlowSetting, seed: int) -> tuple[float, float, float]:
    """``(c, seconds per prompt, curvature)`` from a pilot batch, cached by (setting, seed): c of
    :func:`pilot_error_constant`, the statistics' cost per prompt (measured), and the top curvature
    of the loss in the factors near the batch minimiser, ``h·‖P_batch‖_F`` (h the top curvature in
    P) -- the scale an SGD step size is set against."""

    def compute() -> tuple[float, float, float]:
        old = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            t0 = time.perf_counter()
            c, curv = _pilot(s, seed)
            return c, (time.perf_counter() - t0) / PILOT_BATCH, curv
        finally:
            torch.set_num_threads(old)

    return cached("lsa_flow_pilot", (s, seed), compute)


def _pilot(s: LSAFlowSetting, seed: int) -> tuple[float, float]:
    gen = make_generator(seed)
    groups = moment_statistics(s, PILOT_BATCH, gen, groups=PILOT_GROUPS)
    Ps = np.array([_minimiser(g, s.random_cov) for g in groups])
    mean = Ps.mean(axis=0)
    spread = float(
        np.sqrt(np.mean([np.sum((p - mean) ** 2) for p in Ps]) * PILOT_GROUPS / (PILOT_GROUPS - 1))
    )
    c = spread / float(np.linalg.norm(mean)) * math.sqrt(PILOT_BATCH / PILOT_GROUPS)
    curv = float(np.mean([_curvature(g, s.random_cov) for g in groups])) * float(
        np.linalg.norm(mean)
    )
    return c, curv


def curvature_range(s: LSAFlowSetting, seed: int) -> tuple[float, float]:
    """``(smallest, largest)`` curvature of the loss in the factors near the batch minimiser of a
    pilot batch (``h·‖P_batch‖_F`` for the smallest and the largest curvature h of the batch
    quadratic in P), cached by (setting, seed): at step size lr, ``1/(lr·smallest)`` steps is the
    time constant of the slowest direction, the length an SGD phase must cover.  Sampled data
    only."""

    def compute() -> tuple[float, float]:
        gen = make_generator(seed)
        old = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            st = moment_statistics(s, PILOT_BATCH, gen)[0]
        finally:
            torch.set_num_threads(old)
        scale = float(np.linalg.norm(_minimiser(st, s.random_cov)))
        if s.random_cov:
            ev = np.concatenate([np.linalg.eigvalsh(A) for A in st["A"]])
            lo, hi = float(ev.min()), float(ev.max())
        else:
            m2, c = np.linalg.eigvalsh(st["M2"]), np.linalg.eigvalsh(st["C"])
            lo, hi = float(m2[0] * c[0]), float(m2[-1] * c[-1])
        return lo * scale, hi * scale

    return cached("lsa_flow_curvature", (s, seed), compute)


def pilot_error_constant(s: LSAFlowSetting, seed: int) -> float:
    """c in ``relF(P_batch, P_population) ≈ c/√B``: from a pilot batch of PILOT_BATCH prompts in
    PILOT_GROUPS groups, the spread of the groups' minimisers (relative Frobenius, RMS) times
    √(group size).  Sampled data only."""
    return _pilot(s, seed)[0]


def derive_batch(c: float, rtol: float) -> int:
    """The batch whose sampling error c/√B is rtol/BATCH_Z (a power of two, ≥ MIN_BATCH)."""
    need = (BATCH_Z * c / rtol) ** 2
    return max(MIN_BATCH, 2 ** math.ceil(math.log2(max(need, 1.0))))


def _init(s: LSAFlowSetting) -> tuple[np.ndarray, float]:
    """Assumption 3 (eq. 10): U₁₁(0) = σΘΘᵀ, u₋₁(0) = σ (Θ as in sims.zfb24.train)."""
    Th = theta(s)
    return s.sigma_init * Th @ Th.T, float(s.sigma_init)


def _forward_error(s: LSAFlowSetting, U: np.ndarray, u: float, gen: torch.Generator) -> float:
    """The torch LSA at the trained weights vs ``u ĝᵀU₁₁x_q`` on 256 sampled prompts."""
    m = moment_model(s.d, U, u)
    _, _, xq, X = _stats_chunk(s, 256, gen)
    w = torch.randn((256, s.d), generator=gen).to(torch.float64)
    y = torch.einsum("bnd,bd->bn", X, w)
    with torch.no_grad():
        yt = m(embed(X, y, xq))
    g = torch.einsum("bn,bnd->bd", y, X) / s.N
    ref = u * torch.einsum("bj,jk,bk->b", g, torch.as_tensor(U), xq)
    return float((yt - ref).abs().max() / ref.abs().max())


def moment_model(d: int, U11: np.ndarray, u: float) -> LSA:
    """The merged LSA with ``W^{KQ} = [[U₁₁, 0], [0, 0]]``, ``W^{PV} = u e eᵀ`` (invariant set)."""
    m = LSA(d, parameterisation="merged")
    with torch.no_grad():
        m.W_KQ.zero_()
        m.W_PV.zero_()
        m.W_KQ[:d, :d] = torch.as_tensor(U11)
        m.W_PV[d, d] = u
    return m


def train_moments(s: LSAFlowSetting, recipe: MomentRecipe, *, seed: int) -> MomentResult:
    """Train (uncached: checks call :func:`sims.zfb24.train.trained`)."""
    t0 = time.perf_counter()
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        gen = make_generator(seed)
        st = moment_statistics(s, recipe.batch, gen)[0]
        fe_gen = make_generator(seed + 1)
    finally:
        torch.set_num_threads(old)
    h = _curvature(st, s.random_cov)
    U, u = _init(s)
    U0, u0 = U.copy(), u
    P_prev = u * U
    lrs = [math.inf, 0.0]
    drift, converged, k = math.inf, False, 0
    tol, window = recipe.stop.threshold, recipe.stop.window
    g_max, frac = 0.0, LR_FRACTION_EARLY
    while k < recipe.stop.max_steps:
        P = u * U
        gP = _grad_P(st, P, s.random_cov)
        g_norm = float(np.linalg.norm(gP))
        g_max = max(g_max, g_norm)
        if g_norm < LR_SWITCH * g_max:
            frac = LR_FRACTION
        lr = frac / (h * (u * u + float(np.sum(U * U))) + g_norm)
        lrs = [min(lrs[0], lr), max(lrs[1], lr)]
        gU, gu = u * gP, float(np.sum(U * gP))
        U, u = U - lr * gU, u - lr * gu
        k += 1
        if k % window == 0:
            P = u * U
            drift = float(np.linalg.norm(P - P_prev) / np.linalg.norm(P))
            P_prev = P
            if drift < tol:
                converged = True
                break
    torch.set_num_threads(1)
    try:
        fe = _forward_error(s, U, u, fe_gen)
    finally:
        torch.set_num_threads(old)
    if not fe <= LSA_FORWARD_RTOL:
        raise RuntimeError(f"LSA forward differs from u ĝᵀU₁₁x_q by {fe:.3g} (relative)")
    return MomentResult(
        s,
        recipe,
        seed,
        U,
        u,
        U0,
        u0,
        _minimiser(st, s.random_cov),
        k,
        converged,
        (lrs[0], lrs[1]),
        drift,
        float(np.sum(U * U) - u * u),
        time.perf_counter() - t0,
        fe,
    )
