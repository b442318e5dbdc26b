"""[hpcy25] §3, Obs. 1 and Fig. 14: which heads of a trained model the pattern rows judge.

The paper: "dummy heads may emerge, where KQ ≈ 0 and OV ≈ 0 ... dummy heads do not affect the
statistical properties of the learned attention model and thus can be ignored" (Obs. 1; Fig. 14:
a dummy head's KQ is chaotic early, then decays over 500k steps).  A head is *dummy* here when it
does not contribute to the prediction at the resolution of the rows that judge the model, measured
on the trained model and fresh prompts only (no prediction imported):

* head ``h``'s output on a prompt is ``ŷ_h = OV^h Z_{1:L} softmax(Z_{1:L}ᵀ KQ^h z_q)``, the model's
  ``ŷ = Σ_h ŷ_h``;
* removing the head (``OV^h → 0``, the rest fixed) changes the risk by
  ``ΔR_h = E[ŷ_h²] − 2 E[ŷ_h (ŷ − y)]``, and at a stationary point of the head's own OV scale the
  second term vanishes (it is that scale's gradient), so ``ΔR_h = E[ŷ_h²]`` (removing it costs
  what an error ``share_h`` in the scale of the whole prediction would: ``E[ŷ²] share_h²``);
* the model without it predicts ``ŷ − ŷ_h``: it differs from the trained model's prediction by
  ``share_h = ‖ŷ_h‖/‖ŷ‖`` of its RMS (``‖·‖`` the RMS over prompts) -- as much as a relative error
  ``share_h`` in the scale of the whole prediction would move it; the rows judge the model's
  effective step ``⟨ω, μ⟩`` (that scale) to a relative tolerance ``rtol``.

So head ``h`` is dummy when the model with it and the model without it are within one tolerance
unit of each other: ``share_h² = E[ŷ_h²]/E[ŷ²] ≤ rtol²`` [*derived*], decided on the upper end
``share_h² + Z_MC·se`` (the ratio's delta-method standard error over :data:`HEAD_PROMPTS` fresh
prompts), so a head is called dummy only when the prompts show it negligible.  Every other head
*contributes* and is judged by the pattern rows -- whatever its ``|μ_h|`` (a head with a large
x-part of OV and a small ``μ_h`` contributes).  The measured
ablation ``ΔR_h`` (paired, with its standard error) is recorded beside it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch

from numerics.sampling import check_seed
from numerics.testing import Z_MC
from sims.hpcy25.sec3_convergence import STOP_FRACTION
from sims.hpcy25.train import HpcyExperiment, load_model, sample_batch
from sims.models.softmax_attention import SoftmaxAttention
from sims.train import make_generator

__all__ = [
    "HEAD_PROMPTS",
    "head_shares",
    "judged_heads",
    "judge_heads",
    "inject_offpattern_head",
    "OFFPATTERN_MU_FRACTION",
    "pattern_trap",
    "pattern_residual",
    "ideal_params",
]

#: Fresh prompts of the head shares: the ratio E[ŷ_h²]/E[ŷ²] then has a relative standard error
#: of about 1-2 % (its per-prompt terms have kurtosis ≲ 10), so the dummy test resolves shares
#: down to a fraction of the rtol² threshold.
HEAD_PROMPTS = 20_000


@torch.no_grad()
def head_shares(
    exp: HpcyExperiment, params: dict[str, np.ndarray], *, seed: int, path: str
) -> dict[str, np.ndarray]:
    """Each head's contribution to the trained model's prediction on :data:`HEAD_PROMPTS` fresh
    prompts (first output; float64): ``share2`` = ``E[ŷ_h²]/E[ŷ²]`` and its standard error
    ``share2_se`` (delta method on the per-prompt terms ``ŷ_h² − share2·ŷ²``), and the ablation
    ``dR`` = ``R(OV^h → 0) − R`` with its paired standard error ``dR_se``; and the model's own
    optimal output scale ``scale`` = ``E[y ŷ]/E[ŷ²]`` with ``scale_se`` (1 at a stationary point of
    the risk along the scale of every head's OV together, the direction (4.3) is the
    stationarity of)."""
    model = load_model(exp, params)
    if not isinstance(model, SoftmaxAttention):
        raise ValueError(f"head shares need a softmax model, got model={exp.model!r}")
    gen = make_generator(check_seed(seed, path, "heads", exp.d, exp.L, float(exp.sigma2), exp.H))
    Z, target = sample_batch(exp, HEAD_PROMPTS, generator=gen, dtype=torch.float64)
    L = Z.shape[2] - 1
    p = model.attention(Z)  # (B, H, L)
    u = torch.bmm(p, Z.transpose(1, 2)[:, :L])  # (B, H, D)  Σ_i p_i^h z_i
    ov = model.ov()[:, 0, :]  # (H, D) first output
    yh = torch.einsum("bhd,hd->bh", u, ov).numpy()  # (B, H) per-head outputs
    tgt = target.numpy() if target.ndim == 1 else target[:, 0].numpy()
    yhat = yh.sum(axis=1)
    n = yh.shape[0]
    b = float(np.mean(yhat**2))
    share2 = np.mean(yh**2, axis=0) / b
    terms = yh**2 - share2[None, :] * yhat[:, None] ** 2
    share2_se = terms.std(axis=0, ddof=1) / (math.sqrt(n) * b)
    base = (yhat - tgt) ** 2
    diff = (yhat[:, None] - yh - tgt[:, None]) ** 2 - base[:, None]  # (B, H) paired ablation
    cross = tgt * yhat
    scale = float(np.mean(cross)) / b  # the model's own optimal output scale E[y ŷ]/E[ŷ²]
    scale_terms = cross - scale * yhat**2
    return {
        "scale": np.asarray(scale),
        "scale_se": np.asarray(scale_terms.std(ddof=1) / (math.sqrt(n) * b)),
        "share2": share2,
        "share2_se": share2_se,
        "dR": diff.mean(axis=0),
        "dR_se": diff.std(axis=0, ddof=1) / math.sqrt(n),
        "E_yhat2": np.asarray(b),
    }


def judged_heads(shares: dict[str, np.ndarray], rtol: float) -> np.ndarray:
    """The contributing heads (the pattern rows judge these): every head but the dummy ones,
    ``share2 + Z_MC·share2_se ≤ rtol²`` (module docstring, *derived*)."""
    bound = rtol**2
    return ~(shares["share2"] + Z_MC * shares["share2_se"] <= bound)


def judge_heads(
    m: dict[str, np.ndarray],
    exp: HpcyExperiment,
    params: dict[str, np.ndarray],
    *,
    rtol: float,
    seed: int,
    path: str,
) -> dict[str, Any]:
    """``m`` (``evidence.circuit_metrics``) with ``"active"`` replaced by the contributing heads
    (:func:`judged_heads`; the 5 % cut ``|μ_h| ≥ 0.05 max|μ|`` kept as ``"mu_5pct"`` for the
    record) and the shares, their standard errors and the ablations (``"share"`` is
    ``√share2``)."""
    sh = head_shares(exp, params, seed=seed, path=path)
    judged = judged_heads(sh, rtol)
    return {
        **m,
        "mu_5pct": m["active"],
        "active": judged,
        "share": np.sqrt(np.maximum(sh["share2"], 0.0)),
        "share2_se": sh["share2_se"],
        "dummy_bound_share": np.asarray(rtol),
        "ablation_dR": sh["dR"],
        "ablation_dR_se": sh["dR_se"],
    }


def ideal_params(exp: HpcyExperiment, omega: np.ndarray, mu: np.ndarray) -> dict[str, np.ndarray]:
    """Parameters of the model in Observation 1's pattern with the head scales ``(ω_h, μ_h)``:
    ``KQ^h = ω_h diag(I_d, 0)``, ``OV^h = (0, μ_h)`` exactly (``W_K^h = I``,
    ``W_Q^h = ω_h √D diag(I_d, 0)``, ``W_V^h = I``, ``W_O^h = μ_h e_D``) -- the reparametrisation
    in which (4.3) and its finite-ω prediction are stated."""
    H, D, d = exp.H, exp.d + exp.n_out, exp.d
    px = np.diag([1.0] * d + [0.0] * exp.n_out)
    W_O = np.zeros((exp.n_out, H * D))
    for h in range(H):
        W_O[0, h * D + d] = float(mu[h])
    return {
        "W_Q": np.stack([float(w) * math.sqrt(D) * px for w in omega]),
        "W_K": np.stack([np.eye(D)] * H),
        "W_V": np.stack([np.eye(D)] * H),
        "W_O": W_O,
    }


@torch.no_grad()
def pattern_residual(
    exp: HpcyExperiment,
    params: dict[str, np.ndarray],
    omega: np.ndarray,
    mu: np.ndarray,
    *,
    seed: int,
    path: str,
) -> dict[str, float]:
    """The trained model against its pattern model (:func:`ideal_params` at its own
    ``(ω_h, μ_h)``) on the same :data:`HEAD_PROMPTS` fresh prompts (first output): the optimal
    output scales ``scale = E[y ŷ]/E[ŷ²]`` (the trained model's; 1 at a stationary point along
    the scale of every head's OV together) and ``scale_pattern`` (the pattern model's, the
    quantity the finite-ω prediction ``s*`` estimates), their difference ``dscale`` with its paired
    delta-method standard error ``dscale_se`` (the two predictions are close, so the pairing
    removes most of the label noise), and the relative residual ``E[(ŷ − ŷ_pattern)²]/E[ŷ²]``."""
    gen = make_generator(check_seed(seed, path, "pattern", exp.d, exp.L, float(exp.sigma2), exp.H))
    Z, target = sample_batch(exp, HEAD_PROMPTS, generator=gen, dtype=torch.float64)
    y_m = load_model(exp, params)(Z).numpy()
    y_p = load_model(exp, ideal_params(exp, omega, mu))(Z).numpy()
    tgt = target.numpy()
    if y_m.ndim == 2:
        y_m, y_p, tgt = y_m[:, 0], y_p[:, 0], tgt[:, 0]
    b_m, b_p = float(np.mean(y_m**2)), float(np.mean(y_p**2))
    s_m, s_p = float(np.mean(tgt * y_m)) / b_m, float(np.mean(tgt * y_p)) / b_p
    infl = (tgt * y_m - s_m * y_m**2) / b_m - (tgt * y_p - s_p * y_p**2) / b_p
    n = tgt.size
    return {
        "scale": s_m,
        "scale_pattern": s_p,
        "dscale": s_m - s_p,
        "dscale_se": float(infl.std(ddof=1) / math.sqrt(n)),
        "residual": float(np.mean((y_m - y_p) ** 2)) / b_m,
    }


def pattern_trap(
    exp: HpcyExperiment,
    params: dict[str, np.ndarray],
    m: dict[str, Any],
    *,
    rtol: float,
    seed: int,
    path: str,
) -> str | None:
    """The named trap of a trained model whose head scales ``(ω_h, μ_h)`` do not describe its
    optimal output scale at the resolution of a row of tolerance ``rtol``.  The finite-ω
    prediction of (4.3) is ``s*⟨ω, μ⟩`` with ``s*`` the optimal scale of the pattern model at the
    trained ``(ω_h, μ_h)``; the row's error is ``(1 − s*)/rtol`` units, and ``1 − s* =
    (1 − ŝ) + (ŝ − s*)``: the trained model's own distance from stationarity along its scale plus
    what the pattern coordinates misattribute.  Where the latter, ``|ŝ − s*|``
    (:func:`pattern_residual`, paired), exceeds :data:`~.convergence.STOP_FRACTION` of a unit on
    its lower end (``|dscale| − Z_MC·se > rtol/4``, the allowance the stop gives the invariant's
    drift) [*derived*], the model is outside Observation 1's pattern at this resolution (a
    contributing head with an x-part of OV, a K11 far from ``ω I`` or a label part of KQ), and the
    (4.3) rows report it in this trap, never passed (its Obs-1 rows judge the pattern itself)."""
    pr = pattern_residual(exp, params, m["omega"], m["mu"], seed=seed, path=path)
    if not abs(pr["dscale"]) - Z_MC * pr["dscale_se"] > STOP_FRACTION * rtol:
        return None
    off = [
        f"head {h}: share {float(m['share'][h]):.3g}, diag_ratio {float(m['diag_ratio'][h]):.3f}, "
        f"ov_ratio {float(m['ov_ratio'][h]):.3f}, max|k21| {float(m['k21'][h]):.3g}"
        for h in np.flatnonzero(np.asarray(m["active"]))
    ]
    return (
        f"Obs-1 pattern not formed (optimal output scale of the trained model {pr['scale']:.4f} vs "
        f"its pattern model at the trained (omega_h, mu_h) {pr['scale_pattern']:.4f}: differ by "
        f"{pr['dscale']:+.4f} +- {pr['dscale_se']:.1g}, > rtol/{1 / STOP_FRACTION:g} = "
        f"{STOP_FRACTION * rtol:.3g}; contributing " + "; ".join(off) + ")"
    )


#: The injected head's ``μ_h`` as a fraction of the largest ``|μ|`` (below the 5 % cut, so a
#: ``|μ|``-based mask would not judge it).
OFFPATTERN_MU_FRACTION = 0.01


def inject_offpattern_head(
    exp: HpcyExperiment, params: dict[str, np.ndarray], size: float
) -> dict[str, np.ndarray]:
    """FAULT (negative control only): ``params`` with the head of least ``|μ_h|`` made an
    off-pattern head that contributes: its OV row becomes ``(size·max|μ| e_1, 0.01·max|μ|·sign)``
    -- a small ``μ_h`` and an x-part of ``size`` times the largest ``|μ|`` -- through ``W_V^h``
    (``OV^h = W_O^h W_V^h``; ``W_V^h += W_O^{h⊤}(target − OV^h)/‖W_O^h‖²``; a head with
    ``W_O^h = 0`` first gets ``W_O^h = e_1``)."""
    H, D, d = exp.H, exp.d + exp.n_out, exp.d
    W_O = params["W_O"].reshape(exp.n_out, H, D)
    W_V = params["W_V"].copy()
    ov = np.einsum("ohk,hkj->hoj", W_O, W_V)[:, 0, :]  # (H, D)
    mu = ov[:, d]
    h = int(np.argmin(np.abs(mu)))
    big = float(np.abs(mu).max())
    target = np.zeros(D)
    target[0] = size * big
    target[d] = OFFPATTERN_MU_FRACTION * big * (1.0 if mu[h] >= 0 else -1.0)
    W_O = W_O.copy()
    if not float(W_O[0, h] @ W_O[0, h]) > 0:  # a head with W_O^h = 0: route it through e_1
        W_O[0, h, 0] = 1.0
        ov[h] = W_V[h][0]
    w = W_O[0, h]  # (D,)
    W_V[h] += np.outer(w, target - ov[h]) / float(w @ w)
    return {**params, "W_V": W_V, "W_O": W_O.reshape(params["W_O"].shape)}
