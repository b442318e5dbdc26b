"""[czz24] linear probes on the hidden states of the masked linear transformer (Fig. 1d, Figs. 5–8,
App. B "Probing"; Fig. 2a/2b P-probing).

A probe is a model fitted on a trained model's states: least squares with an intercept from one
layer's query columns to a target, fitted on one split of prompts and evaluated on the other; the
P-probe is plain GD from 0 on ten labelled query representations.  Imports torch, numpy and the
model class only (no prediction).
"""

from __future__ import annotations

import numpy as np
import torch

from sims.models.sparse_multihead import MaskedLinearTF

__all__ = [
    "query_states",
    "linear_probe",
    "probe_targets",
    "probe_errors",
    "pprobe_curve",
    "PPROBE_STEPS",
    "PPROBE_ETAS",
    "PPROBE_IDEAL",
]

#: P-probing checkpoints (spec §4 Fig. 2b ideal reference) and the paper's η grid.
PPROBE_STEPS = (0, 10, 20, 30, 50, 90, 1000, 9000)
PPROBE_ETAS = (1.0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6)
#: Spec §4 Fig. 2b [calibrated]: the ideal Alg. 1 reference at PPROBE_STEPS, σ -> risks (a bound
#: on what a trained model could reach, not a target).
PPROBE_IDEAL = {
    0.0: (3.97, 2.51, 1.86, 1.49, 1.07, 0.70, 0.11, 0.05),
    0.8: (4.06, 2.57, 1.93, 1.56, 1.16, 0.81, 0.43, 0.93),
}


@torch.no_grad()
def query_states(
    model: MaskedLinearTF, X: np.ndarray, y: np.ndarray, xq: np.ndarray
) -> list[np.ndarray]:
    """The query columns of ``H^(0..L)``, each (B, q, d_hid), for contexts ``X`` (B, n, d), ``y``
    (B, n) and queries ``xq`` (B, q, d); attention scale ``1/n`` of these contexts."""
    B, n, d = X.shape
    q = xq.shape[1]
    E = torch.zeros((B, d + 1, n + q), dtype=torch.float64)
    E[:, :d, :n] = torch.as_tensor(X).transpose(1, 2)
    E[:, d, :n] = torch.as_tensor(y)
    E[:, :d, n:] = torch.as_tensor(xq).transpose(1, 2)
    old = model.attn_scale
    model.attn_scale = 1.0 / n
    try:
        return [H[:, :, n:].transpose(1, 2).numpy() for H in model.hidden(E, n)]
    finally:
        model.attn_scale = old


def linear_probe(F: np.ndarray, T: np.ndarray, n_train: int) -> np.ndarray:
    """Least-squares probe with an intercept fitted on prompts ``[:n_train]`` of ``F`` (B, q, p) to
    ``T`` (B, q, k) (normal equations, all k targets at once; ``F`` is float64 and the fit rows
    outnumber p + 1 many times); returns its predictions on prompts ``[n_train:]``."""
    p, k = F.shape[-1], T.shape[-1]
    A = np.concatenate([F[:n_train].reshape(-1, p), np.ones((n_train * F.shape[1], 1))], axis=1)
    coef = np.linalg.lstsq(A.T @ A, A.T @ T[:n_train].reshape(-1, k), rcond=None)[0]
    Fte = F[n_train:]
    return np.concatenate([Fte, np.ones((*Fte.shape[:2], 1))], axis=2) @ coef


def probe_targets(
    X: np.ndarray, y: np.ndarray, w: np.ndarray, xq: np.ndarray
) -> dict[str, np.ndarray]:
    """Probe targets at the queries, each (B, q, k): ``"y"`` = ⟨w*, x_q⟩ (noiseless label),
    ``"rhat*xq"`` = Alg. 1's r̂ ⊙ x_q (r̂ = Xᵀy/n of the context), ``"w*xq"`` = w* ⊙ x_q."""
    rhat = np.einsum("bnd,bn->bd", X, y) / X.shape[1]
    return {
        "y": np.einsum("bqd,bd->bq", xq, w)[..., None],
        "rhat*xq": rhat[:, None, :] * xq,
        "w*xq": w[:, None, :] * xq,
    }


def probe_errors(
    model: MaskedLinearTF,
    X: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    xq: np.ndarray,
    n_train: int,
    perm: np.ndarray | None,
) -> dict[str, list[np.ndarray]]:
    """Per target of :func:`probe_targets`, per layer (input, 1..L): the held-out squared error of
    the probe summed over the target's coordinates and averaged over the queries of each prompt,
    (B − n_train,).  ``perm`` permutes the probe's training targets across prompts (``None``: no
    permutation)."""
    T = probe_targets(X, y, w, xq)
    sizes = [t.shape[-1] for t in T.values()]
    cat = np.concatenate(list(T.values()), axis=2)
    fit = cat if perm is None else np.concatenate([cat[:n_train][perm], cat[n_train:]])
    out: dict[str, list[np.ndarray]] = {k: [] for k in T}
    for F in query_states(model, X, y, xq):
        err = (linear_probe(F, fit, n_train) - cat[n_train:]) ** 2
        for k, part in zip(T, np.split(err, np.cumsum(sizes)[:-1], axis=2), strict=True):
            out[k].append(part.sum(axis=2).mean(axis=1))
    return out


def pprobe_curve(
    model: MaskedLinearTF,
    X: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    xq: np.ndarray,
    yq: np.ndarray,
) -> tuple[float, np.ndarray, np.ndarray]:
    """Fig. 2b P-probing of ``model`` on prompts ``X`` (B, n, d), ``y`` (B, n), tasks ``w``,
    queries ``xq`` (B, q, d) with noisy labels ``yq`` (B, q) (the paper: n = 117, q = 11): GD from
    0 on ``(1/(2(q−1)))‖F v − y‖²`` over the first q − 1 layer-1 query columns, the last query's
    excess risk ``(ŷ − ⟨w*, x_q⟩)²``.  Returns ``(η, mean, se)`` at :data:`PPROBE_STEPS` for the η
    of the paper grid with the lowest mean over the checkpoints (diverged runs count as +inf)."""
    F = query_states(model, X, y, xq)[1]  # (B, q, d_hid)
    Ftr, ytr, Fte = F[:, :-1], yq[:, :-1], F[:, -1]
    target = np.einsum("bd,bd->b", xq[:, -1], w)
    U, S, Vt = np.linalg.svd(Ftr, full_matrices=False)  # (B,10,10), (B,10), (B,10,p)
    uy = np.einsum("bij,bi->bj", U, ytr)
    lam = S**2 / Ftr.shape[1]
    proj = np.einsum("bjp,bp->bj", Vt, Fte)
    best: tuple[float, float, np.ndarray] = (np.inf, np.nan, np.zeros((0, 0)))
    with np.errstate(over="ignore", invalid="ignore"):
        for eta in PPROBE_ETAS:
            errs = []
            for t in PPROBE_STEPS:
                shrink = np.where(
                    S > 1e-12, (1 - (1 - eta * lam) ** t) / np.maximum(S, 1e-300), 0.0
                )
                pred = np.einsum("bj,bj->b", proj, shrink * uy)
                errs.append((pred - target) ** 2)
            E = np.array(errs)  # (steps, B)
            score = float(np.mean(E)) if np.all(np.isfinite(E)) else np.inf
            if score < best[0]:
                best = (score, eta, E)
    _, eta, E = best
    se = E.std(axis=1, ddof=1) / np.sqrt(E.shape[1])
    return float(eta), E.mean(axis=1), se
