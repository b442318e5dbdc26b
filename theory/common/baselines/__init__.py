"""Baseline predictors and their closed-form risks under the general Gaussian ICL model.

Data model (:class:`theory.settings.LinearRegressionICL`): ``β ~ N(task_mean, task_cov)``,
``x_i, x ~ N(0, Sigma_x)``, ``y_i = ⟨β, x_i⟩ + ε_i``, ``y = ⟨β, x⟩ + ε``, ``ε ~ N(0, noise_var)``.
Every risk here is the ICL risk ``E (ŷ − y)²`` **including** the query noise σ² (zwb24 (3.5),
hpcy25 (2.5)); czz24's excess risk ``E(w)`` is ``risk − σ²``.

Matrix formulas are written once over the small backend of :mod:`theory.common.gaussian` (numpy,
batched over leading axes of ``Gamma``/``beta0``; or SymPy ``Matrix``/``MatrixSymbol`` giving an
expression).  Scalar formulas (OLS, proportional limits) are SymPy expressions with a cached
``lambdified`` twin (numpy for floats; the mpmath backend gives the FLOAT references).

NOTATION
========

==================  =================  =====================================================
paper symbol        code name          canonical meaning
==================  =================  =====================================================
H (zwb24), Λ, Σ     ``Sigma_x``        covariate covariance
β* (zwb24)          ``task_mean``      prior mean of the task vector
Ψ (zwb24), I, I/d   ``task_cov``       prior covariance of the task vector
σ²                  ``noise_var``      label-noise variance (context and query)
N (hpcy25: L)       ``N``              prompt length
Γ (zwb24 §1.5)      ``Gamma``          GD preconditioner / matrix step size (not zfb24's Γ)
β (zwb24 GD-β)      ``beta0``          learnable GD initialisation
η, P (hpcy25)       ``eta``, ``P``     DGD step size and query preconditioner
λ                   ``lam``            ridge penalty (unnormalised: (XᵀX + λI)⁻¹Xᵀy)
ξ = d/N (hpcy25),   ``xi``             aspect ratio in the proportional limit
γ (czz24)
α² (czz24), 1       ``signal``         E‖β‖² = signal in the proportional limit
==================  =================  =====================================================
"""

from __future__ import annotations

from theory.common.baselines.gd import dgd_risk, gd_beta_risk, gd_risk, setting_kwargs
from theory.common.baselines.limits import (
    bayes_risk_limit_mp,
    mp_m_stable_parts,
    mp_stieltjes,
    ridge_risk_limit,
    signal_sym,
)
from theory.common.baselines.ridge import (
    bayes_conditional_risk,
    bayes_posterior_mean,
    ols_risk,
    ols_risk_expr,
    ridge_conditional_risk,
    ridge_predictor,
)
from theory.common.protocols import Check, Ref, Result

_ = (mp_m_stable_parts, signal_sym)  # used by numerics.baselines (exact branch check)

__all__ = [
    "setting_kwargs",
    "gd_beta_risk",
    "gd_risk",
    "dgd_risk",
    "ridge_predictor",
    "bayes_posterior_mean",
    "bayes_conditional_risk",
    "ridge_conditional_risk",
    "ols_risk",
    "ols_risk_expr",
    "mp_stieltjes",
    "ridge_risk_limit",
    "bayes_risk_limit_mp",
    "RESULTS",
]

_NB = "numerics.baselines:"
_TB = "theory.common.baselines:"
_F = "numerics.baselines.faults:"

_GD_FAMILY_EXACT = Check(
    _NB + "check_gd_family_exact",
    faults={
        "gd_beta_noise_doubled": {"fault_gd_beta_fn": Ref(_F + "gd_beta_noise_doubled")},
        "dgd_one_sample_more": {"fault_dgd_fn": Ref(_F + "dgd_one_sample_more")},
    },
)
_MP_FLOAT = Check(
    _NB + "check_mp_float",
    faults={"inverted_ratio": {"fault_bayes_fn": Ref(_F + "bayes_limit_inverted_ratio")}},
)
_MP_WISHART = Check(
    _NB + "check_mp_wishart",
    faults={"without_lam_mprime": {"fault_limit_fn": Ref(_F + "ridge_limit_without_lam_mprime")}},
)
# the Wishart route at a generic point (E‖β‖² = 1.7, not 1)
_MP_WISHART_GENERIC = Check(
    _NB + "check_mp_wishart_generic",
    faults={"signal_squared": {"fault_limit_fn": Ref(_F + "ridge_limit_signal_squared")}},
)

RESULTS: tuple[Result, ...] = (
    Result(
        id="base:gd",
        kind="baseline",
        summary="exact finite-N risk of one-step preconditioned GD (von Oswald), general Σ, β*, Ψ",
        source="[zwb24] eq. (5.1) at β0 = 0 (GD-0 baseline); [hpcy25] App. D, eqs. (D.28)–(D.29) "
        "(vanilla GD risk, isotropic case)",
        spec="spec 002 §2.1 (GD-0 baseline); spec 001 R9 R_V",
        statement="R = σ² + tr(HΨ0) − 2tr(HΓHΨ0) + ((N+1)/N)tr(HΓᵀHΓHΨ0) + (c0/N)tr(ΓᵀHΓH), "
        "Ψ0 = Ψ + β*β*ᵀ, c0 = tr(HΨ0) + σ²",
        objects=(_TB + "gd_risk",),
        checks=(
            Check(
                _NB + "check_gd_mc",
                faults={"no_wishart_correction": {"fault_risk_fn": Ref(_F + "gd_no_correction")}},
            ),
            _GD_FAMILY_EXACT,
        ),
        figures=("sims.figures.baselines:fig_baseline_risks",),
    ),
    Result(
        id="base:gd-beta",
        kind="baseline",
        summary="exact finite-N risk of GD with learnable initialisation β0 (GD-β)",
        source="[zwb24] eq. (5.1) (closed form from Lemma H.4)",
        spec="spec 002 §2.1",
        statement="R(f_{Γ,β0}) = σ² + tr(HΨ_β) − 2tr(HΓHΨ_β) + ((N+1)/N)tr(HΓᵀHΓHΨ_β) "
        "+ (c_β/N)tr(ΓᵀHΓH), Ψ_β = Ψ + (β* − β0)(β* − β0)ᵀ",
        objects=(_TB + "gd_beta_risk",),
        checks=(
            Check(
                _NB + "check_gd_beta_mc",
                faults={
                    "no_wishart_correction": {"fault_risk_fn": Ref(_F + "gd_beta_no_correction")},
                    "noise_doubled": {"fault_risk_fn": Ref(_F + "gd_beta_noise_doubled")},
                },
            ),
            _GD_FAMILY_EXACT,
            Check(_NB + "check_gd_family_float"),
        ),
    ),
    Result(
        id="base:dgd",
        kind="derived",
        summary="exact finite-N risk of preconditioned debiased GD = GD with N−1 samples, "
        "Γ = η(N−1)/N Pᵀ",
        source="[hpcy25] eq. (4.11) (estimator) and App. D, Step 2 (debiased GD risk, isotropic); "
        "general Σ, Ψ, P, β* derived here",
        spec="spec 001 R9 R_D",
        statement="R_D(P, η; N) = R_GD(η (N−1)/N Pᵀ; N − 1); isotropic: 1 + σ² − 2η(L−1)/L "
        "+ η²(L−1)(L + d(1+σ²))/L²",
        objects=(_TB + "dgd_risk",),
        checks=(
            Check(
                _NB + "check_dgd_mc",
                faults={"uncentred": {"fault_risk_fn": Ref(_F + "dgd_uncentred")}},
            ),
            _GD_FAMILY_EXACT,
            Check(_NB + "check_gd_family_float"),
        ),
        derived=True,
    ),
    Result(
        id="base:ridge-bayes",
        kind="baseline",
        summary="ridge with λ = σ²/τ² equals the Bayes posterior mean (Ψ = τ²I, β* = 0)",
        source="[zwb24] Lemma 6.1(a), eq. (F.1); [hpcy25] App. D, Step 3 (λ = dσ² for Ψ = I/d)",
        spec="spec 002 §2.7; spec 001 §1.7; STYLE R11",
        statement="(XᵀX + σ²/τ² I)⁻¹Xᵀy = E[β | X, y] for β ~ N(0, τ²I)",
        objects=(_TB + "ridge_predictor", _TB + "bayes_posterior_mean"),
        checks=(
            Check(
                _NB + "check_ridge_bayes",
                faults={
                    # exact part at d = 1, N = 2: simplifying a non-zero 2×2 difference takes ~10 s
                    "lambda_doubled": {
                        "exact_shape": (1, 2),
                        "fault_ridge_fn": Ref(_F + "ridge_lambda_doubled"),
                    }
                },
            ),
        ),
    ),
    Result(
        id="base:bayes-risk",
        kind="baseline",
        summary="exact conditional risk of the Bayes predictor given X; Bayes < ridge(λ ≠ λ*), OLS",
        source="[zwb24] Lemma 6.1(a); [hpcy25] App. D, eq. (D.34); ridge conditional risk: [czz24] "
        "App. F.2 (general Σ, β*, Ψ derived)",
        spec="spec 002 §2.7; spec 001 R9 R_B; spec 000 R10",
        statement="L(β̂_Bayes; X) = σ² + σ² tr(Σ_x (ΨXᵀX + σ²I)⁻¹Ψ)",
        objects=(_TB + "bayes_conditional_risk", _TB + "ridge_conditional_risk"),
        checks=(
            Check(
                _NB + "check_bayes_risk_mc",
                faults={
                    "bayes_noise_scaled": {"fault_risk_fn": Ref(_F + "bayes_risk_noise_scaled")},
                    "ridge_lambda_doubled": {
                        "fault_ridge_risk_fn": Ref(_F + "ridge_risk_lambda_doubled")
                    },
                },
            ),
            Check(
                _NB + "check_ridge_ordering",
                faults={
                    "bayes_sigma_scaled": {"fault_risk_fn": Ref(_F + "bayes_risk_sigma_scaled")}
                },
            ),
        ),
    ),
    Result(
        id="base:ols",
        kind="baseline",
        summary="expected OLS risk σ²(1 + d/(N − d − 1)), any PD Σ_x, N > d + 1",
        source="[czz24] App. F.4 (OLS; + query noise σ²)",
        spec="spec 000 R10 exact closed forms",
        statement="E(⟨(XᵀX)⁻¹Xᵀy, x⟩ − y)² = σ²(1 + d/(N − d − 1))",
        objects=(_TB + "ols_risk",),
        checks=(
            Check(
                _NB + "check_ols_mc",
                faults={
                    # at a short prompt (d = 3, N = 8)
                    "denominator_off_by_one": {
                        "N": 8,
                        "fault_risk_fn": Ref(_F + "ols_denominator_off_by_one"),
                    }
                },
            ),
            Check(_NB + "check_ols_float"),
        ),
    ),
    Result(
        id="base:mp-limit",
        kind="baseline",
        summary="proportional-limit Bayes risk R_B∞ via the Marchenko–Pastur Stieltjes transform",
        source="[hpcy25] App. D, eqs. (D.34)–(D.36); [czz24] App. F.2 (optimally tuned ridge)",
        spec="spec 001 R9; spec 000 R10 R_ridge*",
        statement="R_B∞ = σ² + σ²ξ m(−σ²ξ) = ½[σ² + 1 − 1/ξ + √(4σ² + (σ² − 1 + 1/ξ)²)]",
        objects=(_TB + "bayes_risk_limit_mp", _TB + "mp_stieltjes"),
        checks=(
            Check(_NB + "check_mp_exact"),
            _MP_FLOAT,
            _MP_WISHART,
            _MP_WISHART_GENERIC,
            Check(_NB + "check_wishart_sampler", faults={"dof_minus_1": {"dof_shift": -1}}),
        ),
    ),
    Result(
        id="base:ridge-limit",
        kind="derived",
        summary="proportional-limit ridge risk at any λ > 0: σ² + α²λ²m' + σ²ξ(m − λm')",
        source="assembled from [czz24] App. F.2's conditional ridge risk and the MP transform "
        "(Dobriban & Wager 2018)",
        spec="spec 000 R10",
        statement="R_λ = σ² + α² λ² m'(−λ) + σ² ξ (m(−λ) − λ m'(−λ)); minimised at λ* = σ²ξ/α²",
        objects=(_TB + "ridge_risk_limit",),
        checks=(Check(_NB + "check_mp_exact"), _MP_FLOAT, _MP_WISHART, _MP_WISHART_GENERIC),
        derived=True,
    ),
)
