"""czz24 Props. 4.1 / 4.2 in torch ([czz24] §4.1, App. C.1, Eq. (C.7)): the constructed weights
loaded into the torch model, and the constructed pre-GD transformer (Alg. 1 + k GD layers, the S1
model of Props. 4.1, 4.2 and Thm 5.3) trained with tied steps at a drawn setting (the S1 rows of
:func:`sims.czz24.evidence.s1_rows_at_setting` read it).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from numerics.czz24.contexts import setting_context
from numerics.czz24.optimum import GD_LAYERS, s1_gram
from numerics.czz24.predictors import pregd_path
from numerics.testing import (
    float_agreement,
)
from sims.cache import cached
from sims.models.sparse_multihead import MaskedLinearTF, PreGDTF
from theory.common.protocols import Evidence
from theory.czz24 import (
    LinTFWeights,
    alg1,
    pregd_transformer,
)
from theory.czz24.settings import Setting, SparseRegressionICL

__all__ = [
    "check_prop4_1_torch",
    "check_prop4_1_torch_cases",
    "check_prop4_2_torch",
    "check_prop4_2_torch_cases",
    "TORCH_ATOL",
    "load_weights",
    "prompt_tokens",
    "TiedRun",
    "train_tied",
    "tied_forward_errors",
    "tied_start_risk",
    "describe_run",
]

#: R12 and the constructions: forward pass vs extraction, relative to 1 + |ŷ| (spec: 1e-10).
TORCH_ATOL = 1e-10


def load_weights(model: MaskedLinearTF, W: LinTFWeights) -> MaskedLinearTF:
    """Copy theory weights (e.g. :func:`pregd_transformer`) into a torch model of that shape."""
    with torch.no_grad():
        model.W_E.copy_(torch.as_tensor(np.asarray(W.W_E, dtype=float)))
        model.W_O.copy_(torch.as_tensor(np.asarray(W.W_O, dtype=float).reshape(-1)))
        for i, L in enumerate(W.layers):
            for dst, src in ((model.WQ, L.WQ), (model.WK, L.WK), (model.WV, L.WV)):
                dst[i].copy_(torch.as_tensor(np.stack([np.asarray(m, dtype=float) for m in src])))
            model.W1[i].copy_(torch.as_tensor(np.asarray(L.W1, dtype=float)))
    return model


def prompt_tokens(X: np.ndarray, y: np.ndarray, Xq: np.ndarray) -> torch.Tensor:
    q = Xq.shape[0]
    E = np.vstack([np.hstack([X.T, Xq.T]), np.hstack([y, np.zeros(q)])[None]])
    return torch.as_tensor(E)[None]


def _constructed(d: int, n: int, eta: float, k: int, sign: int) -> MaskedLinearTF:
    model = MaskedLinearTF(d, (d,) + (1,) * k, 3 * d, generator=torch.Generator().manual_seed(0))
    return load_weights(model, pregd_transformer(d, n, eta, k, readout_sign=sign))


def _prop4_1_torch_row(X: np.ndarray, y: np.ndarray, Xq: np.ndarray) -> Evidence:
    """Prop. 4.1's weights in the torch model on one context: ``H^(1)`` rows 1..d = Alg. 1."""
    n, d = X.shape
    model = _constructed(d, n, 0.1, 1, -1)
    with torch.no_grad():
        H1 = model.hidden(prompt_tokens(X, y, Xq), n)[1][0].numpy()
    ref = alg1(X, y, np.vstack([X, Xq])).T
    return float_agreement(
        f"torch H^(1)[1:d] = Alg. 1 (d={d}, n={n})",
        H1[:d],
        ref,
        rtol=0.0,
        atol=TORCH_ATOL * (1 + np.abs(ref).max()),
    )


def check_prop4_1_torch(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
) -> list[Evidence]:
    """Prop. 4.1 weights loaded into the torch model: ``H^(1)`` rows 1..d equal Alg. 1 (1e-10), on
    one context of the setting's data model (d, s, n, σ², prior, Σ, q queries)."""
    X, y, Xq, _ = setting_context(setting, seed, "czz24 prop4.1 torch at the setting")
    return [_prop4_1_torch_row(X, y, Xq)]


def check_prop4_1_torch_cases(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
) -> list[Evidence]:
    """:func:`check_prop4_1_torch` on dense random contexts of the generic shapes (d, n, q) =
    (3, 7, 2), (6, 12, 4) (declared fixed)."""
    rng = np.random.default_rng(seed)
    out = []
    for d, n, q in ((3, 7, 2), (6, 12, 4)):
        X, y, Xq = rng.standard_normal((n, d)), rng.standard_normal(n), rng.standard_normal((q, d))
        out.append(_prop4_1_torch_row(X, y, Xq))
    return out


#: GD layers of the Prop. 4.2 torch check
PROP4_2_TORCH_LAYERS = 4


def _prop4_2_torch_rows(X: np.ndarray, y: np.ndarray, Xq: np.ndarray, sign: int) -> list[Evidence]:
    """The constructed (1 + k)-layer torch model and the S1 model at a fixed η against the pre-GD
    recursion on one context."""
    k = PROP4_2_TORCH_LAYERS
    n, d = X.shape
    r = X.T @ y / n
    eta = 0.9 / np.linalg.eigvalsh((X * r).T @ (X * r) / n)[-1]
    ref = pregd_path(X[None], y[None], eta, k)[-1, 0] @ Xq.T
    with torch.no_grad():
        pred = _constructed(d, n, eta, k, sign)(prompt_tokens(X, y, Xq), n)[0, n:].numpy()
        s1 = PreGDTF(k, log_eta_init=float(np.log(eta)))
        pred_s1 = s1(prompt_tokens(X, y, Xq), n)[0].numpy()
    scale = TORCH_ATOL * (1 + np.abs(ref).max())
    return [
        float_agreement(
            f"constructed torch model = pre-GD (d={d}, n={n}, k={k})",
            pred,
            ref,
            rtol=0.0,
            atol=scale,
        ),
        float_agreement(
            f"S1 PreGDTF(fixed η) = pre-GD (d={d}, n={n}, k={k})",
            pred_s1,
            ref,
            rtol=0.0,
            atol=scale,
        ),
    ]


def check_prop4_2_torch(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_readout_sign: int | None = None,
) -> list[Evidence]:
    """Props. 4.1 + 4.2 in torch: the (1 + k)-layer constructed model's query predictions equal the
    pre-GD recursion ``⟨ŵ^k, x⟩`` (η = 0.9/λ_max), and the S1 model :class:`PreGDTF` at the same
    fixed η agrees too (an independent re-implementation), on one context of the setting's data
    model (d, s, n, σ², prior, Σ, q queries)."""
    sign = -1 if fault_readout_sign is None else fault_readout_sign
    X, y, Xq, _ = setting_context(setting, seed, "czz24 prop4.2 torch at the setting")
    return _prop4_2_torch_rows(X, y, Xq, sign)


def check_prop4_2_torch_cases(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_readout_sign: int | None = None,
) -> list[Evidence]:
    """:func:`check_prop4_2_torch` on dense random contexts of the generic shapes (d, n, q) =
    (3, 9, 2), (5, 14, 3) (declared fixed)."""
    rng = np.random.default_rng(seed)
    sign = -1 if fault_readout_sign is None else fault_readout_sign
    out = []
    for d, n, q in ((3, 9, 2), (5, 14, 3)):
        X = rng.standard_normal((n, d))
        y = X @ rng.standard_normal(d) + 0.3 * rng.standard_normal(n)
        Xq = rng.standard_normal((q, d))
        out += _prop4_2_torch_rows(X, y, Xq, sign)
    return out


#: Start step as a fraction of 1 / median λ_max (the start's risk is near the zero predictor's).
START_FRACTION = 0.02
#: Newton: largest step in φ = log η.
NEWTON_MAX_STEP = 0.5
#: Convergence: relative loss drift over the window below this fraction of the tolerance.
CONVERGED_FRACTION = 0.01
#: Convergence window (Newton steps).
CONVERGED_WINDOW = 2
#: Curvature by a forward difference of autograd gradients in φ (a double backward through the
#: batched recursion costs 10x more).
CURVATURE_STEP = 0.05
#: Newton steps at most (a run that does not converge says so in its details).
MAX_NEWTON_STEPS = 60


# ------------------------------------------------ the S1 construction trained at a drawn setting
@dataclass(frozen=True, slots=True)
class TiedRun:
    """A trained tied-step S1 model: ``θ_ℓ = log_eta`` for every layer."""

    log_eta: float
    log_eta_init: float
    steps: int
    converged: bool
    batch: int
    history: tuple[float, ...]  # training loss after each accepted step
    seconds: float


def _unit_tokens(X: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    B, n, d = X.shape
    E = torch.zeros((B, d + 1, n + d), dtype=X.dtype)
    E[:, :d, :n] = X.transpose(1, 2)
    E[:, d, :n] = y
    E[:, :d, n:] = torch.eye(d, dtype=X.dtype)
    return E


def _gram_errors(
    phi: torch.Tensor, G: torch.Tensor, b: torch.Tensor, scale: torch.Tensor, w: torch.Tensor
) -> torch.Tensor:
    """Per-context exact risk of the tied model ``θ_ℓ = φ`` from the sufficient statistics of
    each context (Gram ``G = X̃ᵀX̃/n``, moment ``b = X̃ᵀy/n``): the PreGDTF forward at the d unit
    queries is ``scale ⊙ v`` with ``v ← v − η(Gv − b)`` k times from 0 (the residual update of its
    GD layers read in the coefficient basis); O(B d²) per layer instead of O(B n (n + d))."""
    eta = torch.exp(phi)
    v = torch.zeros_like(b)
    for _ in range(GD_LAYERS):
        v = v - eta * ((G * v[:, None, :]).sum(dim=2) - b)
    return ((scale * v - w) ** 2).sum(dim=1)


def train_tied(
    st: SparseRegressionICL,
    X: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    *,
    preprocess: bool,
    rtol: float,
    data_key: Any,
) -> TiedRun:
    """Train the tied-step S1 model on the contexts ``(X, y, w)`` (cached by configuration:
    ``data_key`` names the contexts, e.g. their stream and size)."""
    key = (
        "s1_tied",
        st,
        preprocess,
        GD_LAYERS,
        data_key,
        float(rtol),
        START_FRACTION,
        CONVERGED_FRACTION,
        CONVERGED_WINDOW,
        NEWTON_MAX_STEP,
        MAX_NEWTON_STEPS,
    )
    return cached(
        "sparse_multihead", key, lambda: _train_tied(st, X, y, w, preprocess, float(rtol))
    )


def _train_tied(
    st: SparseRegressionICL,
    Xn: np.ndarray,
    yn: np.ndarray,
    wn: np.ndarray,
    preprocess: bool,
    rtol: float,
) -> TiedRun:
    t0 = time.perf_counter()
    X, y, w = torch.as_tensor(Xn), torch.as_tensor(yn), torch.as_tensor(wn)
    batch, n = X.shape[0], st.n
    r = torch.einsum("bnd,bn->bd", X, y) / n
    Xf = X * r[:, None, :] if preprocess else X
    G = Xf.transpose(1, 2) @ Xf / n
    b = torch.einsum("bnd,bn->bd", Xf, y) / n
    scale = r if preprocess else torch.ones_like(r)
    lmax = torch.linalg.eigvalsh(G)[:, -1]
    phi0 = float(math.log(START_FRACTION / float(torch.median(lmax))))

    def loss_of(p: float) -> float:
        with torch.no_grad():
            v = float(_gram_errors(torch.tensor(p, dtype=torch.float64), G, b, scale, w).mean())
        return v if math.isfinite(v) else math.inf

    def grad_of(p: float) -> float:
        t = torch.tensor(p, dtype=torch.float64, requires_grad=True)
        (g1,) = torch.autograd.grad(_gram_errors(t, G, b, scale, w).mean(), t)
        return float(g1)

    phi, cur = phi0, loss_of(phi0)
    hist = [cur]
    steps, converged = 0, False
    while steps < MAX_NEWTON_STEPS:
        gr = grad_of(phi)
        cv = (grad_of(phi + CURVATURE_STEP) - gr) / CURVATURE_STEP
        step = -gr / cv if cv > 0 else -math.copysign(NEWTON_MAX_STEP, gr)
        step = max(-NEWTON_MAX_STEP, min(NEWTON_MAX_STEP, step))
        new = loss_of(phi + step)
        while new > cur and abs(step) > 1e-8:
            step /= 2
            new = loss_of(phi + step)
        steps += 1
        if new <= cur:
            phi, cur = phi + step, new
        hist.append(cur)
        if len(hist) > CONVERGED_WINDOW:
            drift = abs(hist[-1 - CONVERGED_WINDOW] - hist[-1]) / max(abs(hist[-1]), 1e-300)
            if drift < CONVERGED_FRACTION * rtol:
                converged = True
                break
    return TiedRun(
        log_eta=phi,
        log_eta_init=phi0,
        steps=steps,
        converged=converged,
        batch=batch,
        history=tuple(hist),
        seconds=time.perf_counter() - t0,
    )


def tied_forward_errors(
    log_eta: float,
    preprocess: bool,
    X: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    chunk: int = 20_000,
) -> np.ndarray:
    """Per-context exact risk of the tied model ``θ_ℓ = log_eta`` (torch forward, unit queries)."""
    model = PreGDTF(GD_LAYERS, preprocess=preprocess, log_eta_init=log_eta)
    out = []
    n = X.shape[1]
    with torch.no_grad():
        for a in range(0, len(X), chunk):
            Xt, yt = torch.as_tensor(X[a : a + chunk]), torch.as_tensor(y[a : a + chunk])
            w_hat = model(_unit_tokens(Xt, yt), n)
            out.append(((w_hat - torch.as_tensor(w[a : a + chunk])) ** 2).sum(dim=1).numpy())
    return np.concatenate(out)


def tied_start_risk(
    log_eta: float, preprocess: bool, X: np.ndarray, y: np.ndarray, w: np.ndarray
) -> float:
    """Risk of the untrained model (θ_ℓ = log_eta) on these contexts, from the sufficient
    statistics (the forward pass is evaluated at the trained step only: its cost is O(n²))."""
    G, b, scale = s1_gram(X, y, preprocess)
    with torch.no_grad():
        e = _gram_errors(
            torch.tensor(log_eta, dtype=torch.float64),
            torch.as_tensor(G),
            torch.as_tensor(b),
            torch.as_tensor(scale),
            torch.as_tensor(w),
        )
    return float(e.mean())


def describe_run(run: TiedRun) -> dict[str, Any]:
    """The training record of a run (for notes and benchmarks)."""
    return {
        "eta": math.exp(run.log_eta),
        "steps": run.steps,
        "converged": run.converged,
        "batch": run.batch,
        "seconds": run.seconds,
    }
