"""The fast GD-family Monte Carlo engine (numerics.mc_fast) against independent routes.

* fast vs literal raw prompts (numerics.sampling + the predictor applied literally), difference
  test with the combined SE, at pinned settings (isotropic, diagonal, general PSD with task mean
  and Ψ ≠ I, rank-deficient Σ, debiased GD, the general (★) with φ, N < d + 1);
* fast vs the closed forms of theory.common.baselines (gd_risk, gd_beta_risk, dgd_risk);
* the Wishart samplers' first and second moments vs theory.common.gaussian.wishart_fourth_moment;
* negative controls: wrong degrees of freedom (N − 1) and normals instead of χ on the Bartlett
  diagonal must fail the same checks;
* the literal predictor vs a per-prompt transcription of the spec formulas; reproducibility;
  bad input; the benchmark script runs.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from numerics.baselines.suffstat import (
    CASES,
    check_fast_vs_closed_form,
    closed_form_risk,
    fast_vs_raw,
)
from numerics.mc_fast import (
    bartlett_factor,
    bartlett_times_vector,
    gd_family_predict,
    gd_family_risk_mc,
    gd_family_risk_raw,
    psd_factor,
    wishart_sample,
    wishart_times_vector,
)
from numerics.montecarlo import estimate_from_samples
from numerics.testing import FLOAT_RTOL, assert_fails, assert_passed, float_agreement, mc_agreement
from theory.common.gaussian import wishart_fourth_moment

ROOT = Path(__file__).resolve().parents[2]

# ------------------------------------------------------------------ fast vs raw prompts (MC)
VARIANTS = [("vector", True), ("bartlett", False)]


@pytest.mark.mc
@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize(("method", "integrate_query"), VARIANTS)
def test_fast_agrees_with_raw_prompts(case: str, method: str, integrate_query: bool) -> None:
    assert_passed(fast_vs_raw(case=case, method=method, integrate_query=integrate_query))


@pytest.mark.mc
@pytest.mark.parametrize("case", ["general", "ltb_debiased"])
@pytest.mark.parametrize(("method", "integrate_query"), [("vector", False), ("bartlett", True)])
def test_fast_other_variants_agree_with_raw_prompts(
    case: str, method: str, integrate_query: bool
) -> None:
    assert_passed(fast_vs_raw(case=case, method=method, integrate_query=integrate_query))


# ------------------------------------------------------------------ fast vs closed forms (MC)
CLOSED = [c for c in CASES if closed_form_risk(c) is not None]


@pytest.mark.mc
@pytest.mark.parametrize("case", CLOSED)
def test_fast_agrees_with_baseline_closed_forms(case: str) -> None:
    assert_passed(check_fast_vs_closed_form(case=case))


@pytest.mark.mc
def test_fast_agrees_with_gd_risk_at_benchmark_size() -> None:
    """d = 20, N = 40 (the benchmark's size): fast MC vs gd_risk."""
    assert_passed(check_fast_vs_closed_form(d=20, N=40))


@pytest.mark.mc
def test_float32_draws_keep_float64_accuracy_of_the_estimate() -> None:
    """float32 draws (upcast; float64 arithmetic) still agree with the closed form at z = 5."""
    assert_passed(check_fast_vs_closed_form(case="general", dtype="float32"))
    assert_passed(check_fast_vs_closed_form(case="general", dtype="float32", method="bartlett"))


@pytest.mark.mc
def test_negative_control_wrong_dof_fails_closed_form() -> None:
    assert_passed(check_fast_vs_closed_form(case="debiased"))
    assert_fails(check_fast_vs_closed_form(case="debiased", fault_dof_offset=1))


# ------------------------------------------------------------------ Wishart moments (MC)
def _matrix_evidence(name: str, samples: np.ndarray, expected: np.ndarray) -> list:
    """Entrywise MC agreement; the power scale is the largest |expected entry|."""
    scale = float(np.max(np.abs(expected)))
    flat = samples.reshape(samples.shape[0], -1)
    return [
        mc_agreement(f"{name}[{k}]", float(e), estimate_from_samples(flat[:, k]), scale=scale)
        for k, e in enumerate(np.asarray(expected).ravel())
    ]


_S3 = np.array([[1.0, 0.3, 0.1], [0.3, 0.8, -0.2], [0.1, -0.2, 0.5]])
_A3 = np.array([[0.5, 1.0, 0.0], [-0.3, 0.2, 0.4], [0.1, 0.0, -0.6]])  # not symmetric
_R3 = np.array([[1.0, 0.5], [0.5, 0.25 + 1.0], [0.0, 1.0]])
_S3_RANK2 = _R3 @ _R3.T


def _wishart_moment_evidence(Sigma: np.ndarray, N: int, **fault) -> list:
    W = wishart_sample(np.random.default_rng(7), 100_000, Sigma, N, **fault)
    WAW = W @ _A3 @ W
    return _matrix_evidence("mean XᵀX vs NΣ", W, N * Sigma) + _matrix_evidence(
        "E[XᵀX A XᵀX] vs wishart_fourth_moment", WAW, wishart_fourth_moment(_A3, Sigma, N)
    )


@pytest.mark.mc
@pytest.mark.parametrize("Sigma", [_S3, _S3_RANK2], ids=["general", "rank2"])
@pytest.mark.parametrize("N", [2, 5])
def test_bartlett_wishart_first_and_second_moments(Sigma: np.ndarray, N: int) -> None:
    assert_passed(_wishart_moment_evidence(Sigma, N))


@pytest.mark.mc
def test_negative_control_bartlett_moments() -> None:
    assert_fails(_wishart_moment_evidence(_S3, 5, dof_offset=-1))
    assert_fails(_wishart_moment_evidence(_S3, 5, diagonal="normal"))


@pytest.mark.mc
@pytest.mark.parametrize("sampler", [wishart_times_vector, bartlett_times_vector])
@pytest.mark.parametrize(("p", "dof"), [(4, 6), (5, 2)])
def test_wishart_times_vector_moments(sampler, p: int, dof: int) -> None:
    """``Mh`` for M ~ Wishart(dof, I_p): E[Mh] = dof·h, E[Mh(Mh)ᵀ] = E[M hhᵀ M] (Lemma H.4)."""
    h = np.linspace(-1.0, 1.5, p)
    v = sampler(np.random.default_rng(3), np.tile(h, (100_000, 1)), dof)
    outer = v[:, :, None] * v[:, None, :]
    assert_passed(
        _matrix_evidence("E[Mh]", v, dof * h)
        + _matrix_evidence(
            "E[Mh hᵀM]", outer, wishart_fourth_moment(np.outer(h, h), np.eye(p), dof)
        )
    )


def test_bartlett_factor_structure() -> None:
    A = bartlett_factor(np.random.default_rng(0), 3, 5, 2)  # dof < p: lower trapezoidal
    assert A.shape == (3, 5, 2)
    assert np.all(np.triu(A, 1) == 0)
    assert np.all(np.diagonal(A, axis1=1, axis2=2) > 0)
    assert bartlett_factor(np.random.default_rng(0), 2, 3, 0).shape == (2, 3, 0)


def test_psd_factor_reconstructs_rank_deficient_matrices() -> None:
    C = psd_factor(_S3_RANK2)
    assert C.shape == (3, 2)
    assert_passed(float_agreement("C Cᵀ = Σ", C @ C.T, _S3_RANK2, atol=FLOAT_RTOL))


# ------------------------------------------------------------------ the literal predictor
def _predict_one(X, y, xq, Gamma, a, b, phi, debias):
    """Spec transcription for one prompt: g = a + (1/N)(Γ Xᵀ + φ yᵀ)(y − X b)."""
    N = X.shape[0]
    if debias:
        X = X - X.mean(axis=0)
    res = y - X @ b
    g = a + (Gamma @ X.T @ res + phi * (y @ res)) / N
    return xq @ g


@pytest.mark.parametrize("debias", [False, True])
def test_literal_predictor_matches_per_prompt_formula(debias: bool) -> None:
    r = np.random.default_rng(11)
    B, N, d = 7, 5, 3
    X, y, xq = r.standard_normal((B, N, d)), r.standard_normal((B, N)), r.standard_normal((B, d))
    G, a, b, phi = (
        r.standard_normal((d, d)),
        r.standard_normal(d),
        r.standard_normal(d),
        r.standard_normal(d),
    )
    got = gd_family_predict(X, y, xq, Gamma=G, a=a, b=b, phi=phi, debias=debias)
    want = [_predict_one(X[k], y[k], xq[k], G, a, b, phi, debias) for k in range(B)]
    assert_passed(
        float_agreement("batched predictor vs per-prompt formula", got, want, atol=FLOAT_RTOL)
    )


def test_debiased_predictor_is_hpcy25_dgd() -> None:
    """[hpcy25] (4.11): DGD = (η/L) Σ_i y_i (x_i − x̄)ᵀ P x_q equals (★) with Γ = η Pᵀ, debias."""
    r = np.random.default_rng(12)
    L, d, eta = 6, 3, 0.7
    X, y, xq, P = (
        r.standard_normal((L, d)),
        r.standard_normal(L),
        r.standard_normal(d),
        r.standard_normal((d, d)),
    )
    xbar = X.mean(axis=0)
    dgd = eta / L * sum(y[i] * (X[i] - xbar) @ P @ xq for i in range(L))
    got = gd_family_predict(
        X[None], y[None], xq[None], Gamma=eta * P.T, a=np.zeros(d), b=np.zeros(d), debias=True
    )
    assert_passed(float_agreement("(★) debiased vs hpcy25 DGD", got[0], dgd, atol=FLOAT_RTOL))


# ------------------------------------------------------------------ reproducibility, input
_KW: dict[str, Any] = dict(
    Sigma_x=np.eye(2),
    task_mean=np.zeros(2),
    task_cov=np.eye(2),
    noise_var=0.1,
    N=4,
    Gamma=0.5 * np.eye(2),
)


@pytest.mark.parametrize("method", ["vector", "bartlett"])
def test_same_seed_same_estimate(method: str) -> None:
    e1 = gd_family_risk_mc(**_KW, n=5000, rng=np.random.default_rng(5), method=method, batch=999)
    e2 = gd_family_risk_mc(**_KW, n=5000, rng=np.random.default_rng(5), method=method, batch=999)
    e3 = gd_family_risk_mc(**_KW, n=5000, rng=np.random.default_rng(6), method=method, batch=999)
    assert e1 == e2
    assert e1.mean != e3.mean
    r1 = gd_family_risk_raw(**_KW, n=5000, rng=np.random.default_rng(5))
    assert r1 == gd_family_risk_raw(**_KW, n=5000, rng=np.random.default_rng(5))


@pytest.mark.parametrize(
    ("override", "symbol"),
    [
        (dict(Gamma=np.eye(3)), "Gamma"),
        (dict(a=np.ones(3)), "a"),
        (dict(phi=[np.nan, 0.0]), "phi"),
        (dict(noise_var=-0.1), "noise_var"),
        (dict(N=0), "N"),
        (dict(Sigma_x=[[1.0, 2.0], [2.0, 1.0]]), "Sigma_x"),
        (dict(task_mean=[np.nan, 0.0]), "task_mean"),
        (dict(method="qr"), "method"),
        (dict(dtype="float16"), "dtype"),
        (dict(dof_offset=-10), "dof_offset"),
        (dict(n=1), "n"),
        (dict(rng=0), "rng"),
    ],
)
def test_bad_input_raises_value_error_naming_the_symbol(override: dict, symbol: str) -> None:
    kw = dict(_KW, n=100, rng=np.random.default_rng(0)) | override
    with pytest.raises(ValueError, match=symbol):
        gd_family_risk_mc(**kw)


# ------------------------------------------------------------------ the benchmark runs
@pytest.mark.mc
def test_benchmark_script_runs_on_a_tiny_size(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = importlib.util.spec_from_file_location(
        "mc_benchmark", ROOT / "benchmarks" / "mc_benchmark.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "mc_benchmark", mod)  # dataclasses look their module up
    spec.loader.exec_module(mod)
    res = mod.main(
        ["--d", "3", "--N", "4", "--n", "4000", "--n-loop", "50", "--setting", "general"]
    )
    out = capsys.readouterr().out
    assert "prompts/s" in out and "ratio fast / per-prompt loop" in out
    assert len(res["rows"]) == 6
    assert all(math.isfinite(r.rate) and r.rate > 0 for r in res["rows"])
