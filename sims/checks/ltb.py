"""zwb24 checks that involve the torch models (spec 002 C1, C2, C17, C18, token matrix / mask).

Trained runs come from :func:`sims.experiments.ltb.trained` (config-keyed cache shared with the
tests and the report).  Fault switches are the keyword-only ``fault_*`` parameters.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from numerics.ltb.optim import polish, table1_levels
from numerics.mc_fast import gd_family_predict
from numerics.testing import (
    FLOAT_RTOL,
    OPTIM_RTOL,
    Z_MC,
    close_agreement,
    informational,
    mc_agreement,
    ordering,
    train_agreement,
)
from sims.data import embed, sample_prompts
from sims.experiments.ltb import PRESETS, trained
from sims.models.ltb import LTB
from theory.common.backend import psd_sqrt
from theory.common.baselines import gd_beta_risk
from theory.common.protocols import Estimate, Evidence
from theory.ltb import effective_params, lemma51_weights, omega, optimal_gamma, optimal_risk, whiten
from theory.settings import LinearRegressionICL

__all__ = ["check_asm3_1_torch_mask", "check_eq3_3_torch", "check_lem5_1_torch", "table1_runs",
           "check_table1_train", "check_table1_train_zero_mean", "check_thm6_3_train"]

# Spec 002 §3 pass criteria, stricter than TRAIN_RTOL (5 %), so they win (developer guide):
#: C17: trained LTB test risk within 2 % of R*.
C17_LTB_RTOL = 0.02
#: C17: trained LSA test risk within 3 % of inf_LSA.
C17_LSA_RTOL = 0.03
#: C18: relative excess risk of the trained GD-β parameters ≤ 0.5 %.
C18_EXCESS_RTOL = 0.005


def _random_ltb(rng: np.random.Generator, d: int, k: int, m: int, *, mlp: bool = True,
                **kw: Any) -> LTB:
    model = LTB(d, k=k, v=k, m=m, mlp=mlp, dtype=torch.float64, **kw)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.from_numpy(rng.standard_normal(tuple(p.shape))))
    return model


def _prompts(rng: np.random.Generator, d: int, N: int, B: int):
    st = LinearRegressionICL.from_arrays(Sigma_x=np.eye(d), N=N, task_mean=rng.standard_normal(d),
                                         noise_var=0.25)
    g = torch.Generator().manual_seed(int(rng.integers(2**31)))
    return sample_prompts(st, B, generator=g)


def check_asm3_1_torch_mask(*, quick: bool = True, seed: int = 0, d: int = 3, N: int = 6,
                            fault_unmasked_query: bool | None = None) -> list[Evidence]:
    """(3.1)/(3.2): with the token matrix of :func:`sims.data.embed` and the model's mask,
    ``Z M Zᵀ = [[XᵀX, Xᵀy], [yᵀX, ‖y‖²]]`` (the query column is dropped).
    ``fault_unmasked_query=True`` (fault) lets the query column in."""
    mask_query = not fault_unmasked_query
    rng = np.random.default_rng(seed)
    p = _prompts(rng, d, N, 32)
    Z = embed(p.X, p.y, p.xq)
    G = (LTB(d, mask_query=mask_query).gram(Z) * N).numpy()
    X, y = p.X.numpy(), p.y.numpy()
    Xty = np.einsum("bni,bn->bi", X, y)
    top = np.concatenate([np.einsum("bni,bnj->bij", X, X), Xty[:, :, None]], axis=2)
    bot = np.concatenate([np.einsum("bni,bn->bi", X, y), np.sum(y**2, axis=1)[:, None]], axis=1)
    ref = np.concatenate([top, bot[:, None, :]], axis=1)
    return [close_agreement("Z M Z^T == [[X^T X, X^T y],[y^T X, |y|^2]] (mask (3.2))", G, ref,
                            kind="FLOAT", atol=FLOAT_RTOL * (1 + float(np.max(np.abs(ref)))),
                            details={"mask_query": mask_query})]


def check_eq3_3_torch(*, quick: bool = True, seed: int = 0, cases: int = 12,
                      fault_no_mlp_residual: bool | None = None,
                      fault_unmasked_query: bool | None = None) -> list[Evidence]:
    """(★) (spec C1): the raw torch LTB (3.3) and LSA (3.4) forward passes equal the effective
    predictor ``xᵀ[a + (1/N)(ΓXᵀ + φyᵀ)(y − Xb)]`` with ``(a, b, Γ, φ)`` from
    :func:`theory.ltb.effective_params`, for random raw float64 matrices (d ∈ [1, 5],
    N ∈ [1, 12], k ∈ [d, d+2], m ∈ [1, 4]).
    Faults: ``fault_no_mlp_residual=True`` (MLP ``W_2W_1U`` without the residual),
    ``fault_unmasked_query=True`` (the query column enters ``Z M Zᵀ``)."""
    mlp_residual, mask_query = not fault_no_mlp_residual, not fault_unmasked_query
    rng = np.random.default_rng(seed)
    out: list[Evidence] = []
    for c in range(cases if quick else 5 * cases):
        d, N = int(rng.integers(1, 6)), int(rng.integers(1, 13))
        k, m = int(rng.integers(d, d + 3)), int(rng.integers(1, 5))
        for mlp in (True, False):
            model = _random_ltb(rng, d, k, m, mlp=mlp, mlp_residual=mlp_residual,
                                mask_query=mask_query)
            W = {n: p.detach().numpy() for n, p in model.named_parameters()}
            eff = effective_params(W["attn.W_K"], W["attn.W_Q"], W["attn.W_V"],
                                        W["attn.W_P"], W.get("W_1"), W.get("W_2"))
            p = _prompts(rng, d, N, 32)
            with torch.no_grad():
                f = model(embed(p.X, p.y, p.xq)).numpy()
            star = gd_family_predict(p.X.numpy(), p.y.numpy(), p.xq.numpy(), Gamma=eff["Gamma"],
                                     a=eff["a"], b=eff["b"], phi=eff["phi"])
            out.append(close_agreement(
                f"{'LTB' if mlp else 'LSA'} forward == effective form (star), case {c}: d={d}, "
                f"N={N}, k={k}, m={m}", f, star, kind="FLOAT",
                atol=FLOAT_RTOL * 1e3 * (1 + np.max(np.abs(star))),
                details={"mlp_residual": mlp_residual, "mask_query": mask_query}))
    return out


def check_lem5_1_torch(*, quick: bool = True, seed: int = 0, cases: int = 8) -> list[Evidence]:
    """Lemma 5.1 (spec C2): the explicit raw weights of :func:`theory.ltb.lemma51_weights`, loaded
    into the torch LTB, reproduce the GD-β predictor ``f_{Γ,β}`` on random prompts."""
    rng = np.random.default_rng(seed)
    out: list[Evidence] = []
    for c in range(cases if quick else 5 * cases):
        d, N = int(rng.integers(1, 6)), int(rng.integers(1, 13))
        k, v, m = int(rng.integers(d, d + 3)), int(rng.integers(1, 3)), int(rng.integers(1, 5))
        G, b = rng.standard_normal((d, d)), rng.standard_normal(d)
        W = lemma51_weights(G, b, k=k, v=v, m=m)
        model = LTB(d, k=k, v=v, m=m)
        with torch.no_grad():
            for name, key in (("attn.W_K", "W_K"), ("attn.W_Q", "W_Q"), ("attn.W_V", "W_V"),
                              ("attn.W_P", "W_P"), ("W_1", "W_1"), ("W_2", "W_2")):
                model.get_parameter(name).copy_(torch.from_numpy(W[key]))
        p = _prompts(rng, d, N, 32)
        with torch.no_grad():
            f = model(embed(p.X, p.y, p.xq)).numpy()
        ref = gd_family_predict(p.X.numpy(), p.y.numpy(), p.xq.numpy(), Gamma=G, a=b, b=b)
        out.append(close_agreement(f"LTB with Lemma 5.1 weights == GD-beta, case {c}: d={d}, "
                                   f"N={N}, k={k}, v={v}, m={m}", f, ref,
                                   kind="FLOAT", atol=FLOAT_RTOL * 1e3 * (1 + np.max(np.abs(ref)))))
    return out


# ------------------------------------------------------------------------------ training
def _eff_from_params(P: dict[str, np.ndarray]) -> dict[str, Any]:
    return effective_params(P["attn.W_K"], P["attn.W_Q"], P["attn.W_V"], P["attn.W_P"],
                                 P.get("W_1"), P.get("W_2"))


def table1_runs(*, quick: bool = True, seed: int = 0) -> dict[str, Any]:
    """The four C17 runs (LTB / LSA at ‖β*‖ = 3 and at β* = 0) with the theory lines."""
    out: dict[str, Any] = {}
    for key, suffix in (("shared", ""), ("zero", "_zero")):
        st = PRESETS["c17_ltb" + suffix][0].setting
        out[key] = {
            "ltb": trained("c17_ltb" + suffix, seed=seed),
            "lsa": trained("c17_lsa" + suffix, seed=seed),
            **table1_levels(st, rng=np.random.default_rng(seed)),
            "beta_norm": float(np.linalg.norm(st.task_mean)),
            "setting": st,
        }
    return out


def check_table1_train(*, quick: bool = True, seed: int = 0, fault_no_mlp: bool | None = None
                       ) -> list[Evidence]:
    """Table 1 at CPU scale (spec C17): the trained LTB reaches ``R*`` and learns ``β*`` in its MLP
    row (effective ``a ≈ b ≈ β*``, ``Γ ≈ Γ*``, ``φ ≈ 0``); the trained LSA stalls at ``inf_LSA``
    and never goes below the LSA floor.  ``fault_no_mlp=True`` (fault) puts the LSA run in the
    LTB's place."""
    runs = table1_runs(quick=quick, seed=seed)["shared"]
    ltb = runs["lsa"] if fault_no_mlp else runs["ltb"]
    lsa = runs["lsa"]
    st = runs["setting"]
    out = [
        train_agreement("trained LTB test risk vs R*", ltb.extra["test_risk"][0], runs["R_star"],
                        ltb.extra["init_test_risk"][0], rtol=C17_LTB_RTOL,
                        details={"se": ltb.extra["test_risk"][1]}),
        train_agreement("trained LSA test risk vs inf_LSA", lsa.extra["test_risk"][0],
                        runs["inf_lsa"],
                        lsa.extra["init_test_risk"][0], rtol=C17_LSA_RTOL,
                        details={"se": lsa.extra["test_risk"][1]}),
        ordering("LSA floor (Thm 4.1 ii) < trained LSA risk + 5 se", runs["floor"],
                 lsa.extra["test_risk"][0] + Z_MC * lsa.extra["test_risk"][1],
                 margin=Z_MC * lsa.extra["test_risk"][1]),
        ordering("trained LTB risk < trained LSA risk", ltb.extra["test_risk"][0],
                 lsa.extra["test_risk"][0],
                 margin=Z_MC * (ltb.extra["test_risk"][1] + lsa.extra["test_risk"][1])),
    ]
    eff, eff0 = _eff_from_params(ltb.params), _eff_from_params(ltb.extra["init_params"])
    Gs = optimal_gamma(st.Sigma_x, st.task_cov, st.noise_var, st.N)
    bs = st.task_mean
    d = st.d

    def vec(e: dict[str, Any]) -> np.ndarray:
        if e["b"] is None:
            return np.full(3 * d + d * d, np.nan)
        return np.concatenate([e["a"], e["b"], np.ravel(e["Gamma"]), e["phi"]])

    out.append(train_agreement("trained LTB effective (a, b, Gamma, phi) vs (beta*, beta*, "
                               "Gamma*, 0)", vec(eff), np.concatenate([bs, bs, Gs.ravel(),
                                                                      np.zeros(d)]), vec(eff0),
                               details={"a": eff["a"], "b": eff["b"], "Gamma": eff["Gamma"],
                                        "phi": eff["phi"]}))
    return out


#: A stationary point of the exact β* = 0 LSA risk that is not the global minimum (found by BFGS
#: from where seeds 2 and 4 of ``c17_lsa_zero`` stop): b ≈ (−3.03, 2.44), risk 1.3510 > R*.
SPURIOUS_LSA_START = {"b": np.array([-2.979, 2.395]), "Gamma": np.array([[0.107, 0.217],
                                                                         [0.212, 0.19]]),
                      "phi": np.array([0.125, -0.099])}


def check_table1_train_zero_mean(*, quick: bool = True, seed: int = 0,
                                 allow_local_min: bool = False) -> list[Evidence]:
    """β* = 0 control (spec C17): the trained LTB and LSA both reach ``R*`` (no gap), and
    ``inf_LSA = R*`` by BFGS.

    Finding (not in the spec): at β* = 0 the exact LSA (and LTB) risk has spurious local minima
    in the centring ``b`` (reported as an INFO row); from the spec's N(0, 0.1²) init some seeds
    stop there (seed 0 does not).  ``allow_local_min=True`` (used for extra seeds) replaces "reaches
    R*" by the statement that holds for every seed: the trained model sits at a stationary point of
    the exact risk (BFGS polishing from its effective parameters moves the risk by < 5 %) and
    never below ``R*``."""
    both = table1_runs(quick=quick, seed=seed)
    runs, sh = both["zero"], both["shared"]
    st = runs["setting"]
    P, mu = whiten(st.Sigma_x, st.task_cov, st.task_mean)
    s2, N = st.noise_var, st.N
    out = [ordering("Table 1 ordering: no-MLP risk at beta* != 0 >> at beta* = 0",
                    runs["lsa"].extra["test_risk"][0], sh["lsa"].extra["test_risk"][0],
                    margin=Z_MC * (runs["lsa"].extra["test_risk"][1]
                                   + sh["lsa"].extra["test_risk"][1])),
           close_agreement("beta* = 0: inf_LSA == R* (BFGS)", runs["inf_lsa"], runs["R_star"],
                           kind="FLOAT", atol=OPTIM_RTOL * runs["R_star"])]
    for k in ("ltb", "lsa"):
        r = runs[k]
        if not allow_local_min:
            out.append(train_agreement(f"beta* = 0: trained {k.upper()} test risk vs R*",
                                       r.extra["test_risk"][0], runs["R_star"],
                                       r.extra["init_test_risk"][0],
                                       details={"se": r.extra["test_risk"][1]}))
            continue
        eff = _eff_from_params(r.params)
        pol = polish(P, mu, s2, N, eff, lsa=(k == "lsa"))
        out.append(train_agreement(f"beta* = 0: trained {k.upper()} risk vs the stationary point "
                                   "of the exact risk in its basin", r.extra["test_risk"][0],
                                   pol.value,
                                   r.extra["init_test_risk"][0],
                                   details={"stationary_value": pol.value,
                                            "R_star": runs["R_star"]}))
        se = r.extra["test_risk"][1]
        out.append(ordering(f"beta* = 0: trained {k.upper()} risk not below R* (beyond 5 se)",
                            runs["R_star"] - 2 * Z_MC * se, r.extra["test_risk"][0],
                            margin=Z_MC * se))
    spur = polish(P, mu, s2, N, SPURIOUS_LSA_START, lsa=True)
    out.append(informational("beta* = 0: spurious local minimum of the exact LSA risk (BFGS "
                             "polish from the stuck point of seeds 2, 4)", runs["R_star"],
                             spur.value, details={"b": spur.parts["b"]}))
    return out


def check_thm6_3_train(*, quick: bool = True, seed: int = 0) -> list[Evidence]:
    """Direct GD-β training (spec C18): the learned ``(Γ, β)`` has risk ≈ ``R*`` (closed form of the
    learned parameters), reaches ``(Γ*, β*)`` in the Ω-weighted whitened coordinates
    ``(Γ̄Ω^{1/2}, H^{1/2}β)``, and its MC test risk matches the closed-form risk of its
    parameters."""
    r = trained("c18_gd_beta", seed=seed)
    st = PRESETS["c18_gd_beta"][0].setting
    H, Psi, bs, s2, N = st.Sigma_x, st.task_cov, st.task_mean, st.noise_var, st.N
    G, b = r.params["Gamma"], r.params["beta"]
    G0, b0 = r.extra["init_params"]["Gamma"], r.extra["init_params"]["beta"]
    Rs = optimal_risk(H, Psi, s2, N)
    R = float(gd_beta_risk(G, b, H, bs, Psi, s2, N))
    R0 = float(gd_beta_risk(G0, b0, H, bs, Psi, s2, N))
    Hh = psd_sqrt(H)
    P = Hh @ Psi @ Hh
    Oh = psd_sqrt(np.asarray(omega(P, s2, N)))
    Gs = optimal_gamma(H, Psi, s2, N)

    def coords(Gm: np.ndarray, bm: np.ndarray) -> np.ndarray:
        return np.concatenate([(Hh @ Gm @ Hh @ Oh).ravel(), Hh @ bm])

    n = PRESETS["c18_gd_beta"][0].test_size
    return [
        train_agreement("trained GD-beta: closed-form risk of learned (Gamma, beta) vs R*", R, Rs,
                        R0, rtol=C18_EXCESS_RTOL, details={"relative_excess": (R - Rs) / Rs}),
        train_agreement("trained GD-beta: Omega-weighted whitened (Gamma, beta) vs optimum",
                        coords(G, b), coords(Gs, bs), coords(G0, b0),
                        details={"beta": b, "beta_star": bs, "max|beta-beta*|":
                                 float(np.max(np.abs(b - bs)))}),
        mc_agreement("trained GD-beta MC test risk vs closed-form risk of its parameters", R,
                     Estimate(r.extra["test_risk"][0], r.extra["test_risk"][1], n)),
    ]
