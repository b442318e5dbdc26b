"""[czz24] the two deterministic fits behind :func:`sims.czz24.train.trained` (an implementation
module: checks call ``trained``, never these).  Both fit the S1 model of [czz24] Thm 5.3
(Alg. 1 or the identity, then k = 4 GD layers with steps ``η_ℓ = e^{θ_ℓ}``; Σ = I, ±1/√s prior)
on a fixed sample of contexts, whose loss is the exact conditional excess risk ``‖ŵ − w*‖²`` of
each context from its sufficient statistics (Gram ``X̃ᵀX̃/n`` and moment ``X̃ᵀy/n``: the PreGDTF
forward at the d unit queries is ``scale ⊙ v`` with ``v ← v − η_ℓ(Gv − b)`` from 0, the query
noise integrated out), so a fixed sample replaces fresh prompts:

* :func:`fit_tied` (:class:`~sims.czz24.train.TiedRecipe`): the k steps tied (``θ_ℓ = φ``), by
  Newton steps in φ (the curvature a forward difference of autograd gradients), each at most
  ``max_step`` and halved until the loss decreases; where the curvature is not positive (far
  below the optimum) a step of ``max_step`` downhill.  Start ``η_0 = start_fraction / median
  λ_max`` of the sample's Gram matrices (its risk ≈ the zero predictor's).
* :func:`fit_free` (:class:`~sims.czz24.train.FreeRecipe`): the k steps free, by L-BFGS (strong
  Wolfe) from the tuned constant-η step of the same contexts plus a spread across the layers
  (the tied point is a critical point of the symmetric risk, so a tied start never leaves it).

Both stop on their invariant, the training risk, with the rule of :class:`~sims.czz24.train.Stop`
(a step bound ``max_steps``; converged when the risk moved by less than ``fraction · tol``,
relative, over the last ``window`` steps).  Newton stops at the first step where that holds.
L-BFGS runs to its own convergence (loss change below ``tolerance_change`` between iterations or
gradient below ``tolerance_grad``) within the bound, one iteration at a time (the same iterates
as one call: the line-search budget is carried over), and is converged when the rule holds at its
end.  A run's ``stop`` record carries the numbers; the judging rows are ``skipped`` with them
when unconverged (:func:`sims.czz24.evidence.if_converged`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from numerics.czz24.optimum import GD_LAYERS, constant_eta_optimum, s1_gram
from numerics.czz24.sampling import SparseBatch, sample_sparse_prompts
from numerics.sampling import check_rng, check_seed
from theory.czz24.settings import Setting, SparseRegressionICL

if TYPE_CHECKING:
    from sims.czz24.train import FreeRecipe, Stop, TiedRecipe

__all__ = [
    "TiedRun",
    "FreeRun",
    "s1_hypotheses",
    "s1_data",
    "tied_contexts",
    "free_contexts",
    "gram_errors",
    "schedule_errors",
    "fit_tied",
    "fit_free",
]


def s1_hypotheses(setting: Setting) -> None:
    """S1 is the Thm 5.3 data model ([czz24] Thm 5.3: Σ = I, ±1/√s prior): a ``ValueError``
    names the assumption another prior or Σ breaks."""
    if setting.prior != "sign":
        raise ValueError(
            f"prior={setting.prior!r}: S1 trains on Thm 5.3's ±1/√s prior ([czz24] Thm 5.3), "
            "so prior must be 'sign'"
        )
    if (
        setting.zeta != 0.0
        or setting.Sigma_diag is None
        or any(v != 1.0 for v in setting.Sigma_diag)
    ):
        raise ValueError(
            f"Sigma_diag={setting.Sigma_diag!r}, zeta={setting.zeta!r}: S1 trains on Thm 5.3's "
            "Σ = I ([czz24] Thm 5.3), so Sigma_diag must be all ones (or empty) and ζ = 0"
        )


def s1_data(setting: Setting) -> SparseRegressionICL:
    """The S1 data model of ``setting`` ([czz24] §2 with Thm 5.3's Σ = I and ±1/√s prior; one
    query: the loss is exact per context); a ``ValueError`` names a broken hypothesis."""
    s1_hypotheses(setting)
    return SparseRegressionICL.isotropic(
        d=int(setting.d), s=int(setting.s), n=int(setting.n), sigma2=float(setting.sigma2), q=1
    )


def tied_contexts(setting: Setting, recipe: TiedRecipe, seed: int) -> SparseBatch:
    """The fixed sample a tied fit trains on: ``recipe.contexts`` contexts of the S1 data model
    from the stream ``(seed, recipe.stream, "contexts")`` (the judging rows evaluate on it)."""
    rng = np.random.default_rng(check_seed(seed, recipe.stream, "contexts"))
    return sample_sparse_prompts(s1_data(setting), recipe.contexts, rng=rng)


def free_contexts(setting: Setting, recipe: FreeRecipe, seed: int, part: str) -> SparseBatch:
    """The contexts of a free-schedule fit (``part="fit"``) or of its held-out evaluation
    (``part="held-out"``): ``recipe.contexts`` each, from the stream ``(seed, recipe.stream,
    part)``."""
    rng = check_rng(seed, recipe.stream, part)
    return sample_sparse_prompts(s1_data(setting), recipe.contexts, rng=rng)


def gram_errors(
    phi: torch.Tensor,
    G: torch.Tensor,
    b: torch.Tensor,
    scale: torch.Tensor,
    w: torch.Tensor,
    k: int = GD_LAYERS,
) -> torch.Tensor:
    """Per-context exact risk of the tied model ``θ_ℓ = φ`` from the sufficient statistics of
    each context (Gram ``G = X̃ᵀX̃/n``, moment ``b = X̃ᵀy/n``): ``scale ⊙ v`` with
    ``v ← v − η(Gv − b)`` k times from 0 (the residual update of the GD layers read in the
    coefficient basis); O(B d²) per layer instead of the forward pass's O(B n (n + d))."""
    eta = torch.exp(phi)
    v = torch.zeros_like(b)
    for _ in range(k):
        v = v - eta * ((G * v[:, None, :]).sum(dim=2) - b)
    return ((scale * v - w) ** 2).sum(dim=1)


def schedule_errors(
    phi: torch.Tensor, G: torch.Tensor, b: torch.Tensor, sc: torch.Tensor, w: torch.Tensor
) -> torch.Tensor:
    """:func:`gram_errors` with a step per layer, ``η_ℓ = e^{φ_ℓ}`` (k = ``len(phi)``)."""
    v = torch.zeros_like(b)
    for ell in range(len(phi)):
        v = v - torch.exp(phi[ell]) * ((G * v[:, None, :]).sum(dim=2) - b)
    return ((sc * v - w) ** 2).sum(dim=1)


def _drift(history: list[float], window: int) -> float:
    """Relative change of the training risk over the last ``window`` steps (``inf`` before)."""
    if len(history) <= window:
        return math.inf
    return abs(history[-1 - window] - history[-1]) / max(abs(history[-1]), 1e-300)


def _record(stop: Stop, drift: float, steps: int, invariant: str) -> dict[str, Any]:
    """A fit's stopping record, in the fields of the online runs' (:mod:`sims.czz24.train`)."""
    return {
        "converged": bool(drift < stop.threshold),
        "invariant": invariant,
        "drift": drift,
        "threshold": stop.threshold,
        "tol": stop.tol,
        "window": stop.window,
        "steps": steps,
        "planned_steps": stop.max_steps,
        "max_steps": stop.max_steps,
    }


# ------------------------------------------------------------------------- tied steps: Newton
@dataclass(frozen=True, slots=True)
class TiedRun:
    """A fitted tied-step S1 model: ``θ_ℓ = log_eta`` for every layer."""

    log_eta: float
    log_eta_init: float
    steps: int
    converged: bool
    batch: int
    history: tuple[float, ...]  # training risk after each step
    seconds: float
    stop: dict[str, Any]  # the stopping rule's record (fields of sims.czz24.train.stop_record)


def fit_tied(setting: Setting, recipe: TiedRecipe, seed: int) -> TiedRun:
    """Fit the tied-step S1 model of ``recipe`` on its contexts (:func:`tied_contexts`) by Newton
    steps in ``φ = log η`` (module docstring), stopping on the risk's drift (uncached: see
    :func:`sims.czz24.train.trained`)."""
    t0 = time.perf_counter()
    p = tied_contexts(setting, recipe, seed)
    X, y, w = torch.as_tensor(p.X), torch.as_tensor(p.y), torch.as_tensor(p.w)
    batch, n = X.shape[0], setting.n
    r = torch.einsum("bnd,bn->bd", X, y) / n
    Xf = X * r[:, None, :] if recipe.method == "pre" else X
    G = Xf.transpose(1, 2) @ Xf / n
    b = torch.einsum("bnd,bn->bd", Xf, y) / n
    scale = r if recipe.method == "pre" else torch.ones_like(r)
    lmax = torch.linalg.eigvalsh(G)[:, -1]
    phi0 = float(math.log(recipe.start_fraction / float(torch.median(lmax))))

    def loss_of(q: float) -> float:
        with torch.no_grad():
            e = gram_errors(torch.tensor(q, dtype=torch.float64), G, b, scale, w, k)
            v = float(e.mean())
        return v if math.isfinite(v) else math.inf

    def grad_of(q: float) -> float:
        t = torch.tensor(q, dtype=torch.float64, requires_grad=True)
        (g1,) = torch.autograd.grad(gram_errors(t, G, b, scale, w, k).mean(), t)
        return float(g1)

    stop, h, k = recipe.stop, recipe.curvature_step, recipe.gd_layers
    phi, cur = phi0, loss_of(phi0)
    hist = [cur]
    steps = 0
    while steps < stop.max_steps:
        gr = grad_of(phi)
        cv = (grad_of(phi + h) - gr) / h
        step = -gr / cv if cv > 0 else -math.copysign(recipe.max_step, gr)
        step = max(-recipe.max_step, min(recipe.max_step, step))
        new = loss_of(phi + step)
        while new > cur and abs(step) > 1e-8:
            step /= 2
            new = loss_of(phi + step)
        steps += 1
        if new <= cur:
            phi, cur = phi + step, new
        hist.append(cur)
        if _drift(hist, stop.window) < stop.threshold:
            break
    record = _record(stop, _drift(hist, stop.window), steps, "training risk (Newton in log η)")
    return TiedRun(
        log_eta=phi,
        log_eta_init=phi0,
        steps=steps,
        converged=record["converged"],
        batch=batch,
        history=tuple(hist),
        seconds=time.perf_counter() - t0,
        stop=record,
    )


# -------------------------------------------------------------------- free steps: L-BFGS
@dataclass(frozen=True, slots=True)
class FreeRun:
    """A fitted free per-layer schedule of the S1 model (``θ_ℓ = log_eta[ℓ]``) and the tuned
    constant step of the same contexts it started from."""

    log_eta: tuple[float, ...]
    eta_tied: float  # the tuned constant-η step of the fit contexts (the start's centre)
    fit_tied: float  # its risk on the fit contexts
    iterations: int
    history: tuple[float, ...]  # training risk after each L-BFGS iteration (the start first)
    stop: dict[str, Any]

    @property
    def eta_free(self) -> list[float]:
        """The fitted steps ``η_ℓ``."""
        return torch.exp(torch.tensor(self.log_eta, dtype=torch.float64)).tolist()


def fit_free(setting: Setting, recipe: FreeRecipe, seed: int) -> FreeRun:
    """Fit the free per-layer schedule of ``recipe`` on its fit contexts by L-BFGS from the tuned
    constant step plus ``recipe.start_spread`` (module docstring; uncached: see
    :func:`sims.czz24.train.trained`)."""
    fit = free_contexts(setting, recipe, seed, "fit")
    pre = recipe.method == "pre"
    opt = constant_eta_optimum(fit.X, fit.y, fit.w, preprocess=pre)
    G, b, sc = (torch.as_tensor(a) for a in s1_gram(fit.X, fit.y, pre))
    w = torch.as_tensor(fit.w)
    spread = torch.tensor(recipe.start_spread, dtype=torch.float64)
    phi = (math.log(opt.eta) + spread).requires_grad_(True)
    stop = recipe.stop
    # the evaluation budget of one L-BFGS call of max_steps iterations (torch's default)
    budget = stop.max_steps * 5 // 4
    lbfgs = torch.optim.LBFGS(
        [phi],
        max_iter=1,
        max_eval=budget,
        line_search_fn="strong_wolfe",
        tolerance_grad=recipe.tolerance_grad,
        tolerance_change=recipe.tolerance_change,
    )

    def closure() -> torch.Tensor:
        lbfgs.zero_grad()
        loss = schedule_errors(phi, G, b, sc, w).mean()
        loss.backward()
        return loss

    with torch.no_grad():
        hist = [float(schedule_errors(phi, G, b, sc, w).mean())]
    state = lbfgs.state[phi]
    evals = 0  # line-search evaluations so far (one call's ``current_evals`` − 1)
    while int(state.get("n_iter", 0)) < stop.max_steps:
        lbfgs.param_groups[0]["max_eval"] = budget - evals
        before = int(state.get("func_evals", 0))
        lbfgs.step(closure)  # type: ignore[arg-type]
        if int(state.get("n_iter", 0)) < len(hist):  # optimal at the start: no iteration taken
            break
        evals += int(state["func_evals"]) - before - 1
        with torch.no_grad():
            hist.append(float(schedule_errors(phi, G, b, sc, w).mean()))
        # torch's own ends of one call (a gradient below tolerance_grad ends the next call at
        # its start, above): the evaluation budget, lack of progress
        if 1 + evals >= budget:
            break
        d, t = state["d"], state["t"]
        if float(d.mul(t).abs().max()) <= recipe.tolerance_change:
            break
        if abs(hist[-1] - hist[-2]) < recipe.tolerance_change:
            break
    iters = int(state.get("n_iter", 0))
    record = _record(stop, _drift(hist, stop.window), iters, "training risk (L-BFGS)")
    return FreeRun(
        log_eta=tuple(phi.detach().tolist()),
        eta_tied=opt.eta,
        fit_tied=opt.risk,
        iterations=iters,
        history=tuple(hist),
        stop=record,
    )
