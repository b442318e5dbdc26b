"""czz24 checks on torch models: the exact effective predictor (R12) against a random model's
forward pass, the constructed weights of Props. 4.1 / 4.2 loaded into the torch model, the torch
sampler, and the trained S1 / S2 models (spec 000 V-R12, V-R1/R2 (d), V-sims)."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from numerics.montecarlo import estimate_from_samples, mc_means
from numerics.sampling import check_rng, check_seed
from numerics.sparse_multihead.heads import head_deltas, to_weights
from numerics.sparse_multihead.predictors import pregd_path, ridge_fit
from numerics.sparse_multihead.sampling import sample_sparse_prompts
from numerics.sparse_multihead.threads import one_blas_thread
from numerics.testing import (
    float_agreement,
    informational,
    mc_agreement,
    ordering,
    over_seeds,
    train_discrimination,
    untested,
)
from sims.checks.sparse_multihead_s1 import (
    S1_DEFAULTS,
    S1_PRESET_RTOL_PRE,
    TIED_STEPS_RTOL,
    _ridge_star_errors,  # pyright: ignore[reportPrivateUsage]
    s1_rows_at_setting,
    validate_s1_setting,
)
from sims.experiments.sparse_multihead import PRESETS, sample_sparse_tokens, trained
from sims.models.sparse_multihead import MaskedLinearTF, PreGDTF
from theory.common.protocols import Evidence, validates_setting
from theory.settings import SparseRegressionICL
from theory.sparse_multihead import (
    LinTFWeights,
    alg1,
    head_importance,
    pregd_transformer,
    task_second_moment,
)
from theory.sparse_multihead.bayes import bayes_posterior_mean  # unwrapped: per-context loops
from theory.sparse_multihead.claims import CLAIMS, PAPER_TRAINING_SCALE
from theory.sparse_multihead.model import effective_predictor

__all__ = ["check_eq2_2_torch", "check_prop4_1_torch", "check_prop4_2_torch", "check_sec2_torch",
           "check_s1_train", "check_s2_train", "check_eq3_1_train", "load_weights",
           "s1_eta_curve"]

#: float64 round-off of a normalised row sum
ROW_SUM_RTOL = 1e-12
#: strictness of diverged fraction < 1 %
DIVERGED_MARGIN = 1e-4
#: the forward-pass MC must resolve a 10 % change of the trained risk
FORWARD_MC_POWER = 0.1

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


def _tokens(X: np.ndarray, y: np.ndarray, Xq: np.ndarray) -> torch.Tensor:
    q = Xq.shape[0]
    E = np.vstack([np.hstack([X.T, Xq.T]), np.hstack([y, np.zeros(q)])[None]])
    return torch.as_tensor(E)[None]


def check_eq2_2_torch(*, quick: bool = True, seed: int = 0,
                      fault_attn_scale: float | None = None) -> list[Evidence]:
    """R12 [derived]: for random masked linear transformers (heads (2, 3, 1), (4, 1), d_hid 12),
    the torch forward pass at random queries equals ``⟨ŵ_eff, x⟩`` with ``ŵ_eff`` from
    :func:`effective_predictor` (also with a head masked), to 1e-10·(1 + |ŷ|).
    ``fault_attn_scale`` extracts with a wrong attention scale (negative control)."""
    g = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    out = []
    for heads, d, n, q in (((2, 3, 1), 4, 7, 3), ((4, 1), 3, 5, 2)):
        model = MaskedLinearTF(d, heads, 12, generator=g, attn_scale=1.0 / n)
        with torch.no_grad():  # far from identity: the test would miss an error hidden by 0.02
            for p in list(model.WQ) + list(model.WK) + list(model.WV):
                p.mul_(25.0)
        W = to_weights(model)
        if fault_attn_scale is not None:
            W = LinTFWeights(W_E=W.W_E, layers=W.layers, W_O=W.W_O, attn_scale=fault_attn_scale)
        X, y, Xq = rng.standard_normal((n, d)), rng.standard_normal(n), rng.standard_normal((q, d))
        masks: list[Any] = [None, [[True] * h if i else [False] + [True] * (h - 1)
                                   for i, h in enumerate(heads)]]
        for hm in masks:
            with torch.no_grad():
                pred = model(_tokens(X, y, Xq), n, head_mask=hm)[0, n:].numpy()
            w_eff = effective_predictor(W, X, y, head_masks=hm)
            ref = Xq @ w_eff
            out.append(float_agreement(
                f"forward vs ⟨ŵ_eff, x⟩ (heads {heads}, masked={hm is not None})", pred, ref,
                rtol=TORCH_ATOL, atol=TORCH_ATOL))
    return out


def _constructed(d: int, n: int, eta: float, k: int, sign: int) -> MaskedLinearTF:
    model = MaskedLinearTF(d, (d,) + (1,) * k, 3 * d, generator=torch.Generator().manual_seed(0))
    return load_weights(model, pregd_transformer(d, n, eta, k, readout_sign=sign))


def check_prop4_1_torch(*, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Prop. 4.1 weights loaded into the torch model: ``H^(1)`` rows 1..d equal Alg. 1 (1e-10)."""
    rng = np.random.default_rng(seed)
    out = []
    for d, n, q in ((3, 7, 2), (6, 12, 4)):
        X, y, Xq = rng.standard_normal((n, d)), rng.standard_normal(n), rng.standard_normal((q, d))
        model = _constructed(d, n, 0.1, 1, -1)
        with torch.no_grad():
            H1 = model.hidden(_tokens(X, y, Xq), n)[1][0].numpy()
        ref = alg1(X, y, np.vstack([X, Xq])).T
        out.append(float_agreement(f"torch H^(1)[1:d] = Alg. 1 (d={d}, n={n})", H1[:d], ref,
                                   rtol=0.0, atol=TORCH_ATOL * (1 + np.abs(ref).max())))
    return out


def check_prop4_2_torch(*, quick: bool = True, seed: int = 0, k: int = 4,
                        fault_readout_sign: int | None = None) -> list[Evidence]:
    """Props. 4.1 + 4.2 in torch: the (1 + k)-layer constructed model's query predictions equal the
    pre-GD recursion ``⟨ŵ^k, x⟩`` (η = 0.9/λ_max), and the S1 model :class:`PreGDTF` at the same
    fixed η agrees too (an independent re-implementation)."""
    rng = np.random.default_rng(seed)
    sign = -1 if fault_readout_sign is None else fault_readout_sign
    out = []
    for d, n, q in ((3, 9, 2), (5, 14, 3)):
        X = rng.standard_normal((n, d))
        y = X @ rng.standard_normal(d) + 0.3 * rng.standard_normal(n)
        Xq = rng.standard_normal((q, d))
        r = X.T @ y / n
        eta = 0.9 / np.linalg.eigvalsh((X * r).T @ (X * r) / n)[-1]
        ref = pregd_path(X[None], y[None], eta, k)[-1, 0] @ Xq.T
        with torch.no_grad():
            pred = _constructed(d, n, eta, k, sign)(_tokens(X, y, Xq), n)[0, n:].numpy()
            s1 = PreGDTF(k, log_eta_init=float(np.log(eta)))
            pred_s1 = s1(_tokens(X, y, Xq), n)[0].numpy()
        scale = TORCH_ATOL * (1 + np.abs(ref).max())
        out.append(float_agreement(f"constructed torch model = pre-GD (d={d}, n={n}, k={k})", pred,
                                   ref, rtol=0.0, atol=scale))
        out.append(float_agreement(f"S1 PreGDTF(fixed η) = pre-GD (d={d}, n={n}, k={k})", pred_s1,
                                   ref, rtol=0.0, atol=scale))
    return out


def check_sec2_torch(*, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """The torch sampler of the experiments against the closed forms: ``E[w_1²] = c`` for both
    priors and ``E[y²] = E[w*ᵀΣw*] + σ² = c·Tr Σ + σ²`` (Σ = I + 0.3·𝟙𝟙ᵀ)."""
    out = []
    g = torch.Generator().manual_seed(seed)
    for prior in ("sign", "gauss"):
        st = SparseRegressionICL(d=6, s=2, n=3, sigma2=0.25, prior=prior, zeta=0.3)

        def draw(_r: np.random.Generator, B: int, st: SparseRegressionICL = st) -> np.ndarray:
            E, _, w, X = sample_sparse_tokens(st, B, generator=g)
            y = E[:, -1, 0].numpy()
            return np.column_stack([w[:, 0].numpy() ** 2, y**2])

        ew, ey = mc_means(draw, 40_000 if quick else 400_000, rng=np.random.default_rng(seed))
        c = float(task_second_moment(6, 2, prior))
        out.append(mc_agreement(f"torch sampler E[w_1²] = c ({prior})", c, ew))
        out.append(mc_agreement(f"torch sampler E[y²] = c·Tr Σ + σ² ({prior}, ζ = 0.3)",
                                c * float(np.trace(st.Sigma_x_array)) + 0.25, ey))
    return out


def s1_eta_curve(*, preprocess: bool, seed: int, trials: int = 4000,
                 etas: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """MC risk of the constant-η k-step (pre-)GD of the S1 setting over an η grid (numpy; the
    Gram matrix of each context is formed once and reused for every η)."""
    exp, _ = PRESETS["s1_pre"]
    st = exp.setting
    p = sample_sparse_prompts(st, trials, rng=check_rng(seed, f"{__name__}:s1_eta_curve"))
    etas = np.round(np.arange(0.5, 1.41, 0.05), 4) if etas is None else etas
    n = st.n
    Xf = p.X * (np.einsum("bni,bn->bi", p.X, p.y) / n)[:, None, :] if preprocess else p.X
    G = np.swapaxes(Xf, 1, 2) @ Xf / n
    b = np.einsum("bni,bn->bi", Xf, p.y)[..., None] / n
    scale = (np.einsum("bni,bn->bi", p.X, p.y) / n) if preprocess else 1.0
    risks = []
    for e in etas:
        w = np.zeros_like(b)
        for _ in range(exp.gd_layers):
            w = w - e * (G @ w - b)
        risks.append(np.mean(np.sum((scale * w[..., 0] - p.w) ** 2, axis=1)))
    return etas, np.array(risks)


def _s1_risks(eta: float, preprocess: bool, seed: int, trials: int
              ) -> tuple[np.ndarray, np.ndarray]:
    """Per-context exact risks of the trained S1 model (forward on unit queries) and the
    divergence mask ``η λ_max ≥ 2`` on a fixed test set."""
    exp, _ = PRESETS["s1_pre"]
    st = exp.setting
    g = torch.Generator().manual_seed(check_seed(seed, f"{__name__}:_s1_risks"))
    E, _, w, X = sample_sparse_tokens(st, trials, generator=g)
    model = PreGDTF(exp.gd_layers, preprocess=preprocess, log_eta_init=float(np.log(eta)))
    d, n = st.d, st.n
    Eu = torch.cat([E[:, :, :n], torch.cat([torch.eye(d), torch.zeros(1, d)]).double()[None]
                    .expand(trials, -1, -1)], dim=2)
    with torch.no_grad():
        w_hat = model(Eu, n)
    err = ((w_hat - w) ** 2).sum(dim=1).numpy()
    Xn, yn = X.numpy(), E[:, -1, :n].numpy()
    Xf = Xn * (np.einsum("bni,bn->bi", Xn, yn) / n)[:, None, :] if preprocess else Xn
    lmax = np.linalg.eigvalsh(np.einsum("bni,bnj->bij", Xf, Xf) / n)[:, -1]
    return err, eta * lmax >= 2.0


#: S1 TRAIN tolerances on the risk (relative to the tuned constant-η optimum of the same method):
#: Adam on the heavy-tailed query loss stops short of the flat optimum (learned η ≈ 1.0 vs
#: argmin ≈ 1.15), so pre-GD gets 0.35; raw GD 0.15 (its start is only ~4 of these units away).
S1_RTOL = {"pre": S1_PRESET_RTOL_PRE, "raw": 0.15}


@validates_setting(validate_s1_setting)
@one_blas_thread
def check_s1_train(*, quick: bool = True, seed: int = 0, d: int = 32, s: int = 2, n: int = 128,
                   sigma2: float = 0.25,
                   fault_swap_prediction: bool | None = None) -> list[Evidence]:
    """S1 (spec V-sims): Alg. 1 + 4 GD layers with learnable η_ℓ = e^{θ_ℓ} (θ = −1 at start),
    trained online.  TRAIN (risk coordinates): the trained model's exact risk on a test set is near
    the oracle constant-η 4-step optimum of its own method (numpy MC over an η grid) and away from
    the other method's optimum (named alternative); ORDER: trained pre-GD-TF < 0.7 × trained
    raw-GD-TF and < ridge*; contexts where the learned fixed step diverges (η λ_max(R̂Σ̂R̂) ≥ 2)
    are counted and must stay below 1 %.  One seed in the quick tier, three in --full, folded by
    :func:`numerics.testing.over_seeds` (a row passes iff it passes on every seed; ``seeds``,
    ``seeds_passed``, ``per_seed`` and the traps in the details).  ``fault_swap_prediction`` passes
    the alternative as the prediction (negative control).

    The setting ``d, s, n, sigma2`` (issue 19; ±1/√s prior, Σ = I) defaults to the preset
    (d = 32, s = 2, n = 128, σ² = 0.25), where the rows above are produced with the preset's
    cached models.  At any other setting the rows come from
    :func:`sims.checks.sparse_multihead_s1.s1_rows_at_setting`: the tied-step S1 model trained
    with Newton steps on sufficient statistics, against the tuned constant-η optimum of the same
    contexts, the other method's optimum the named alternative, ``skipped`` with its numbers where
    the setting cannot be resolved (one seed in both tiers)."""
    st_set = validate_s1_setting(d, s, n, sigma2)
    if {"d": d, "s": s, "n": n, "sigma2": float(sigma2)} != S1_DEFAULTS:
        return s1_rows_at_setting(st_set, seed=seed, path=f"{__name__}:check_s1_train",
                                  fault_swap_prediction=fault_swap_prediction)
    seeds = (seed,) if quick else (seed, seed + 1, seed + 2)
    curves = {m: s1_eta_curve(preprocess=m == "pre", seed=seed,
                              trials=1000 if quick else 10_000) for m in ("pre", "raw")}
    best = {m: float(np.min(curves[m][1])) for m in curves}
    trials = 800 if quick else 10_000
    st = PRESETS["s1_pre"][0].setting
    p = sample_sparse_prompts(st, trials, rng=check_rng(
        seed, f"{__name__}:check_s1_train", "ridge"))
    ridge = float(np.mean(_ridge_star_errors(p.X, p.y, p.w)))  # every λ at once (eigen)
    init = {m: float(np.mean(_s1_risks(float(np.exp(-1.0)), m == "pre", seed, trials)[0]))
            for m in ("pre", "raw")}

    def rows_of(sd: int) -> list[Evidence]:
        runs = {m: trained(f"s1_{m}", seed=sd) for m in ("pre", "raw")}
        risk, div = {}, {}
        for m in ("pre", "raw"):
            err, dv = _s1_risks(float(np.mean(runs[m].extra["eta"])), m == "pre", sd, trials)
            risk[m], div[m] = estimate_from_samples(err), dv
        out = []
        for m, other in (("pre", "raw"), ("raw", "pre")):
            pred, alt = (best[other], best[m]) if fault_swap_prediction else (best[m], best[other])
            out.append(train_discrimination(
                f"S1 {m}-GD-TF: trained risk vs the tuned constant-η optimum",
                [risk[m].mean], [pred], [init[m]], alternatives={f"{other}-GD optimum": [alt]},
                rtol=S1_RTOL[m], seeds=list(seeds),
                details={"eta_learned": runs[m].extra["eta"].tolist(),
                         "eta_argmin": float(curves[m][0][np.argmin(curves[m][1])]),
                         "spec_eta": {"pre": 0.93, "raw": 0.75}[m], "risk_se": risk[m].se,
                         "spec_risk": {"pre": 0.046, "raw": 0.083}[m],
                         "forward_test_excess": runs[m].extra["test_excess"]}))
        info = {"seed": sd, "pre": risk["pre"].mean, "raw": risk["raw"].mean,
                "ridge*": float(ridge), "diverged_fraction_pre": float(np.mean(div["pre"])),
                "spec": {"pre": 0.046, "raw": 0.083, "ridge*": 0.075}}
        out.append(ordering("S1 trained pre-GD-TF < 0.7 × raw-GD-TF",
                            risk["pre"].mean, 0.7 * risk["raw"].mean,
                            margin=3 * (risk["pre"].se + 0.7 * risk["raw"].se), details=info))
        out.append(ordering("S1 trained pre-GD-TF < ridge*", risk["pre"].mean,
                            float(ridge), margin=3 * risk["pre"].se, details=info))
        for m in ("pre", "raw"):  # the k steps' risk is symmetric: a tied start stays tied
            eta = np.asarray(runs[m].extra["eta"], dtype=float)
            spread = float((eta.max() - eta.min()) / eta.mean())
            out.append(ordering(f"S1 preset {m}-GD-TF: Adam's per-layer steps stay tied "
                                "(symmetric risk, tied start)", spread, TIED_STEPS_RTOL,
                                margin=0.0, details={"seed": sd, "eta_learned": eta.tolist(),
                                                     "relative_spread": spread}))
        out.append(ordering("S1 diverged contexts of the learned step < 1 %",
                            float(np.mean(div["pre"])), 0.01, margin=DIVERGED_MARGIN, details=info))
        return out

    return over_seeds(rows_of, seeds)


def _exact_risk(model: MaskedLinearTF, st: SparseRegressionICL, trials: int, seed: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    W = to_weights(model)
    p = sample_sparse_prompts(st, trials, rng=check_rng(seed, f"{__name__}:_exact_risk"))
    wh = np.stack([effective_predictor(W, p.X[i], p.y[i]) for i in range(trials)])
    return np.sum((wh - p.w) ** 2, axis=1), p.X, p.y, p.w


@one_blas_thread
def check_s2_train(*, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """S2 (spec V-sims, negative finding): trained masked linear TFs with heads (1,1,1) and
    (8,1,1), d = 8, s = 2, n = 32, σ = 0.5, Gaussian prior.  Sanity only: finite, risk < 0.2·E‖w‖²
    (= 0.4), within 3× ridge*, and above the Bayes floor (MC, exact risk via R12).  The h = 8 vs
    h = 1 difference is reported (INFO), not asserted: the spec found no benefit at CPU scale.
    The quick tier trains only the (8, 1, 1) model, seed ``seed`` (the report's time budget);
    --full both models on three seeds."""
    st = PRESETS["s2_h1"][0].setting
    trials = 300 if quick else 2000
    out = []
    risks: dict[str, list[float]] = {}
    runs = [("s2_h8", seed)] if quick else [(nm, sd) for sd in (seed, seed + 1, seed + 2)
                                            for nm in ("s2_h1", "s2_h8")]
    for name, sd in runs:
        res = trained(name, seed=sd)
        model = MaskedLinearTF(st.d, PRESETS[name][0].heads, PRESETS[name][0].d_hid,
                               generator=torch.Generator().manual_seed(0), attn_scale=1.0 / st.n)
        model.load_state_dict({k: torch.as_tensor(v) for k, v in res.params.items()})
        err, X, y, w = _exact_risk(model, st, trials, seed)
        est = estimate_from_samples(err)
        risks.setdefault(name, []).append(est.mean)
        name = f"{name} (seed {sd})"
        eb = np.sum((np.stack([bayes_posterior_mean(X[i], y[i], st.s, st.sigma2, "gauss")
                               for i in range(trials)]) - w) ** 2, axis=1)
        lam = 0.25 * st.d / (st.n * st.signal)  # LMMSE λ* = σ²d/(nα²), normalised
        rr = estimate_from_samples(np.sum((ridge_fit(X, y, lam) - w) ** 2, axis=1))
        diff = estimate_from_samples(err - eb)
        info = {"risk": est.mean, "se": est.se, "ridge*": rr.mean, "bayes": float(eb.mean()),
                "forward_test_excess": res.extra["test_excess"],
                "spec": "(1,1,1) → 0.091/0.093; (8,1,1) → 0.095/0.099; ridge* ≈ 0.08"}
        out.append(ordering(f"{name}: risk < 0.2·E‖w‖² = 0.4", est.mean, 0.2 * st.signal,
                            margin=3 * est.se, details=info))
        out.append(ordering(f"{name}: risk < 3 × ridge*", est.mean, 3 * rr.mean,
                            margin=3 * (est.se + 3 * rr.se), details=info))
        out.append(ordering(f"{name}: trained risk above the Bayes floor (paired)", 0.0, diff.mean,
                            margin=3 * diff.se, details=info))
        out.append(mc_agreement(f"{name}: exact risk (R12) = forward-pass test risk",
                                res.extra["test_excess"][0], est, scale=est.mean,
                                    power=FORWARD_MC_POWER,
                                details={"forward_se": res.extra["test_excess"][1]},
                                bias=3 * res.extra["test_excess"][1]))
    h1 = float(np.mean(risks["s2_h1"])) if "s2_h1" in risks else None
    h8 = float(np.mean(risks["s2_h8"]))
    steps = {nm: PRESETS[nm][1].steps for nm in risks}
    row = Evidence(name="S2: more heads lower the risk (h = 8 minus h = 1, mean over seeds)",
                   kind="ORDER", predicted="< 0 (paper)", observed=None if h1 is None else h8 - h1,
                   tolerance=0.0, error=0.0, passed=True,
                   details={"h1": risks.get("s2_h1"), "h8": risks["s2_h8"]})
    out.append(untested(
        row, claim=CLAIMS["more-heads"],
        reached=(f"masked linear-attention TFs, d = {st.d}, s = {st.s}, n = {st.n}, heads "
                 f"(h, 1, 1) with h ∈ {sorted(PRESETS[nm][0].heads[0] for nm in risks)}, "
                 f"{max(steps.values())} CPU Adam steps, {len(risks[next(iter(risks))])} "
                 f"seed(s) (h = 8 minus h = 1: "
                 f"{'not trained in the quick tier' if h1 is None else f'{h8 - h1:+.4f}'})"),
        needed=PAPER_TRAINING_SCALE))
    return out


@one_blas_thread
def check_eq3_1_train(*, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Eq. (3.1) on the trained S2 (8, 1, 1) model: ΔE by exact head masking (R12), the layer-1
    row of W normalised to sum 1 (FLOAT), the pattern reported (INFO, not asserted; spec §3)."""
    res = trained("s2_h8", seed=seed)
    exp = PRESETS["s2_h8"][0]
    model = MaskedLinearTF(exp.setting.d, exp.heads, exp.d_hid,
                           generator=torch.Generator().manual_seed(0),
                           attn_scale=1.0 / exp.setting.n)
    model.load_state_dict({k: torch.as_tensor(v) for k, v in res.params.items()})
    D = head_deltas(to_weights(model), exp.heads, exp.setting, 200 if quick else 1000, seed)
    W1 = head_importance(D[:1, :exp.heads[0]])
    return [float_agreement("Eq. 3.1 layer-1 row sums to 1", W1.sum(), 1.0, rtol=ROW_SUM_RTOL),
            informational("Eq. 3.1 layer-1 head importance (trained (8,1,1), sorted desc.)", None,
                          np.sort(W1[0])[::-1].tolist(), details={"delta": D.tolist()})]
