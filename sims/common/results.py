"""[base] results: the shared layer's verifiable results (Gaussian identities, the baselines'
closed forms, the sufficient-statistic Monte Carlo engine), declared with the check functions
themselves and their negative controls as objects (the planted faults of
:mod:`numerics.baselines.faults` and :data:`numerics.baselines.suffstat.SAMPLER_FAULTS`).

Every check takes :class:`theory.common.settings.GaussianSetting` first; ``--set`` moves the keys
a result's checks read (e.g. ``icl-verify check base:ols --set d=3 --set N=6``), and the checks
that read none -- symbolic identities, float references on their grids, pinned generic cases --
are declared fixed with their reason.
"""

from __future__ import annotations

from numerics.baselines import faults
from numerics.baselines.gaussian import (
    check_isserlis_exact,
    check_isserlis_mc,
    check_sample_cov,
    check_sample_cov_exact,
    check_wishart_exact,
    check_wishart_mc,
)
from numerics.baselines.gd import (
    check_dgd_mc,
    check_gd_beta_mc,
    check_gd_family_exact,
    check_gd_family_float,
    check_gd_mc,
)
from numerics.baselines.mp import (
    check_mp_exact,
    check_mp_float,
    check_mp_wishart,
    check_mp_wishart_generic,
    check_wishart_sampler,
)
from numerics.baselines.ridge import (
    check_bayes_risk_mc,
    check_ols_float,
    check_ols_mc,
    check_ridge_bayes,
    check_ridge_ordering,
)
from numerics.baselines.suffstat import SAMPLER_FAULTS, check_fast_vs_raw
from sims.figures.baselines import fig_baseline_risks
from theory.common.baselines import (
    bayes_conditional_risk,
    bayes_posterior_mean,
    bayes_risk_limit_mp,
    dgd_risk,
    gd_beta_risk,
    gd_risk,
    mp_stieltjes,
    ols_risk,
    ridge_conditional_risk,
    ridge_predictor,
    ridge_risk_limit,
)
from theory.common.gaussian import (
    isserlis_fourth_moment,
    sample_cov_second_moment,
    wishart_fourth_moment,
)
from theory.common.protocols import Check, Result
from theory.common.settings import PRESETS, GaussianSetting

__all__ = ["RESULTS"]

#: The symmetric-A form N(N+1)ΣAΣ + N tr(AΣ)Σ (wrong for non-symmetric A): both Wishart checks
#: reject it.
WISHART_SYMMETRIC_FORM = {"symmetric_form": {"fault_moment_fn": faults.wishart_symmetric_form}}
#: Where ``--set`` starts for a result whose checks read no key (every check fixed).
DEFAULT = PRESETS["default"]

# ---------------------------------------------------------------------- why a check is fixed
SYMBOLIC = "an exact identity in symbolic matrices (d = 1, 2) and symbolic N: no numeric setting"
PINNED_D3 = (
    "one x ~ N(0, Σ) at the pinned general Σ and non-symmetric A (d = 3): a generic point; "
    "no prompt length enters"
)
GD_EXACT = (
    "symbolic reductions (d = 2 and symbolic d, N, η, σ²) and exact rational draws: no numeric "
    "setting"
)
GD_FLOAT = "float64 vs exact rationals at the pinned cases (d = 3, N = 8): generic points"
RIDGE_BAYES = (
    "an identity: symbolic at (d, N) = (2, 2) and on random designs of random shapes "
    "(d ≤ 5, N ≤ 11): generic points, not a setting"
)
OLS_FLOAT = "float64 vs 50-digit references on a grid of (d, N, σ²): grid points, not a setting"
MP_SYMBOLIC = "exact identities of the limits (symbolic ξ, λ, σ², α², rational points)"
MP_FLOAT = "float64 twins vs 50-digit references on a grid of (ξ, σ², α², λ) incl. the ends"
MP_GENERIC = (
    "a generic point of the limits (ξ = 0.7, σ² = 0.3, α² = 1.7, λ = λ* and 0.6 λ*) where α² vs "
    "α⁴ shows: not a setting"
)
SUFFSTAT_CASES = (
    "the fast engine against raw prompts at pinned generic cases (d = 4: GD, GD-β, DGD, LTB φ, "
    "singular Wishart); its planted faults at the cases where they show"
)


def ols_hypotheses(s: GaussianSetting) -> None:
    """The OLS risk σ²(1 + d/(N − d − 1)) is finite only for N > d + 1 ([czz24] App. F.4)."""
    if s.N <= s.d + 1:
        raise ValueError(
            f"the OLS risk is finite only for N > d + 1 ([czz24] App. F.4), got N={s.N}, d={s.d}"
        )


def dgd_hypotheses(s: GaussianSetting) -> None:
    """Debiased GD centres the context: it needs N ≥ 2 rows ([hpcy25] eq. (4.11))."""
    if s.N < 2:
        raise ValueError(
            f"debiased GD needs N ≥ 2 rows to centre ([hpcy25] eq. (4.11)), got N={s.N}"
        )


def mp_hypotheses(s: GaussianSetting) -> None:
    """The Bayes-optimal ridge λ* = σ²ξ/α² of the limits is > 0 only for σ² > 0."""
    if s.sigma2 <= 0:
        raise ValueError(
            f"the limits' Bayes ridge λ* = σ²ξ/α² needs σ² > 0 (ridge at λ > 0), "
            f"got sigma2={s.sigma2}"
        )


# ------------------------------------------------------------- checks shared by several results
GD_FAMILY_EXACT = Check(
    check_gd_family_exact,
    at=DEFAULT,
    fixed=GD_EXACT,
    faults={
        "gd_beta_noise_doubled": {"fault_gd_beta_fn": faults.gd_beta_noise_doubled},
        "dgd_one_sample_more": {"fault_dgd_fn": faults.dgd_one_sample_more},
    },
)
GD_FAMILY_FLOAT = Check(check_gd_family_float, at=DEFAULT, fixed=GD_FLOAT)
MP_EXACT = Check(check_mp_exact, at=DEFAULT, fixed=MP_SYMBOLIC)
MP_FLOAT_CHECK = Check(
    check_mp_float,
    at=DEFAULT,
    fixed=MP_FLOAT,
    faults={"inverted_ratio": {"fault_bayes_fn": faults.bayes_limit_inverted_ratio}},
)
MP_WISHART = Check(
    check_mp_wishart,
    at=DEFAULT,
    faults={"without_lam_mprime": {"fault_limit_fn": faults.ridge_limit_without_lam_mprime}},
)
# the Wishart route at a generic point (E‖β‖² = 1.7, not 1)
MP_WISHART_GENERIC = Check(
    check_mp_wishart_generic,
    at=PRESETS["mp_generic"],
    fixed=MP_GENERIC,
    faults={"signal_squared": {"fault_limit_fn": faults.ridge_limit_signal_squared}},
)

RESULTS: tuple[Result, ...] = (
    Result(
        id="base:isserlis",
        kind="identity",
        summary="Gaussian fourth moment E[x x^T A x x^T] = ΣAΣ + ΣA^TΣ + tr(AΣ)Σ",
        source="[zwb24] Lemma H.4; [zfb24] Lemma 30",
        spec="spec 002 §2.0; spec 004 R13",
        statement="E[x x^T A x x^T] = Σ A Σ + Σ A^T Σ + tr(AΣ) Σ for x ~ N(0, Σ), any real A",
        objects=(isserlis_fourth_moment,),
        checks=(
            Check(
                check_isserlis_exact,
                at=DEFAULT,
                fixed=SYMBOLIC,
                faults={
                    "without_transpose": {"fault_moment_fn": faults.isserlis_without_transpose}
                },
            ),
            Check(
                check_isserlis_mc,
                at=DEFAULT,
                fixed=PINNED_D3,
                faults={"without_trace": {"fault_moment_fn": faults.isserlis_without_trace}},
            ),
        ),
        setting=DEFAULT,
        keys=(),
    ),
    Result(
        id="base:wishart",
        kind="identity",
        summary="Wishart fourth moment E[X^T X A X^T X] = N²ΣAΣ + N(ΣA^TΣ + tr(AΣ)Σ)",
        source="[zwb24] Lemma H.4 (general-A form)",
        spec="spec 002 §2.0",
        statement="E[X^T X A X^T X] = N^2 Σ A Σ + N (Σ A^T Σ + tr(AΣ) Σ), "
        "X with N iid N(0, Σ) rows",
        objects=(wishart_fourth_moment,),
        checks=(
            Check(
                check_wishart_exact,
                at=DEFAULT,
                fixed=SYMBOLIC,
                faults=WISHART_SYMMETRIC_FORM,
            ),
            Check(
                check_wishart_mc,
                at=PRESETS["wishart"],
                faults=WISHART_SYMMETRIC_FORM,
            ),
        ),
        setting=PRESETS["wishart"],
        keys=("N",),
    ),
    Result(
        id="base:sample-cov",
        kind="identity",
        summary="E[Λ̂²] = ((N+1)/N)Σ² + (trΣ/N)Σ = ΓΛ for the sample covariance Λ̂ = X^T X/N",
        source="[zfb24] §1.1 key identity (JMLR Lemma 30 corollary)",
        spec="spec 004 §1.1",
        statement="E[Λ̂^2] = ((N+1)/N) Λ^2 + (tr Λ / N) Λ",
        objects=(sample_cov_second_moment,),
        checks=(
            Check(
                check_sample_cov_exact,
                at=PRESETS["sample_cov"],
                fixed=SYMBOLIC,
                faults={
                    "without_correction": {"fault_moment_fn": faults.sample_cov_without_correction}
                },
            ),
            Check(
                check_sample_cov,
                at=PRESETS["sample_cov"],
                faults={
                    "without_correction": {"fault_moment_fn": faults.sample_cov_without_correction}
                },
            ),
        ),
        setting=PRESETS["sample_cov"],
        keys=("N",),
    ),
    Result(
        id="base:gd",
        kind="baseline",
        summary="exact finite-N risk of one-step preconditioned GD (von Oswald), general Σ, β*, Ψ",
        source="[zwb24] eq. (5.1) at β0 = 0 (GD-0 baseline); [hpcy25] App. D, eqs. (D.28)–(D.29) "
        "(vanilla GD risk, isotropic case)",
        spec="spec 002 §2.1 (GD-0 baseline); spec 001 R9 R_V",
        statement="R = σ² + tr(HΨ0) − 2tr(HΓHΨ0) + ((N+1)/N)tr(HΓᵀHΓHΨ0) + (c0/N)tr(ΓᵀHΓH), "
        "Ψ0 = Ψ + β*β*ᵀ, c0 = tr(HΨ0) + σ²",
        objects=(gd_risk,),
        checks=(
            Check(
                check_gd_mc,
                at=DEFAULT,
                faults={"no_wishart_correction": {"fault_risk_fn": faults.gd_no_correction}},
            ),
            GD_FAMILY_EXACT,
        ),
        figures=(fig_baseline_risks,),
        setting=DEFAULT,
        keys=("N",),
    ),
    Result(
        id="base:gd-beta",
        kind="baseline",
        summary="exact finite-N risk of GD with learnable initialisation β0 (GD-β)",
        source="[zwb24] eq. (5.1) (closed form from Lemma H.4)",
        spec="spec 002 §2.1",
        statement="R(f_{Γ,β0}) = σ² + tr(HΨ_β) − 2tr(HΓHΨ_β) + ((N+1)/N)tr(HΓᵀHΓHΨ_β) "
        "+ (c_β/N)tr(ΓᵀHΓH), Ψ_β = Ψ + (β* − β0)(β* − β0)ᵀ",
        objects=(gd_beta_risk,),
        checks=(
            Check(
                check_gd_beta_mc,
                at=DEFAULT,
                faults={
                    "no_wishart_correction": {"fault_risk_fn": faults.gd_beta_no_correction},
                    "noise_doubled": {"fault_risk_fn": faults.gd_beta_noise_doubled},
                },
            ),
            GD_FAMILY_EXACT,
            GD_FAMILY_FLOAT,
        ),
        setting=DEFAULT,
        keys=("N",),
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
        objects=(dgd_risk,),
        checks=(
            Check(
                check_dgd_mc,
                at=DEFAULT,
                faults={"uncentred": {"fault_risk_fn": faults.dgd_uncentred}},
            ),
            GD_FAMILY_EXACT,
            GD_FAMILY_FLOAT,
        ),
        derived=True,
        setting=DEFAULT,
        keys=("N",),
        hypotheses=dgd_hypotheses,
    ),
    Result(
        id="base:ridge-bayes",
        kind="baseline",
        summary="ridge with λ = σ²/τ² equals the Bayes posterior mean (Ψ = τ²I, β* = 0)",
        source="[zwb24] Lemma 6.1(a), eq. (F.1); [hpcy25] App. D, Step 3 (λ = dσ² for Ψ = I/d)",
        spec="spec 002 §2.7; spec 001 §1.7; STYLE R11",
        statement="(XᵀX + σ²/τ² I)⁻¹Xᵀy = E[β | X, y] for β ~ N(0, τ²I)",
        objects=(ridge_predictor, bayes_posterior_mean),
        checks=(
            Check(
                check_ridge_bayes,
                at=DEFAULT,
                fixed=RIDGE_BAYES,
                # planted, the exact part runs at d = 1, N = 2 (a non-zero 2×2 difference takes
                # ~10 s to simplify)
                faults={"lambda_doubled": {"fault_ridge_fn": faults.ridge_lambda_doubled}},
            ),
        ),
        setting=DEFAULT,
        keys=(),
    ),
    Result(
        id="base:bayes-risk",
        kind="baseline",
        summary="exact conditional risk of the Bayes predictor given X; Bayes < ridge(λ ≠ λ*), OLS",
        source="[zwb24] Lemma 6.1(a); [hpcy25] App. D, eq. (D.34); ridge conditional risk: [czz24] "
        "App. F.2 (general Σ, β*, Ψ derived)",
        spec="spec 002 §2.7; spec 001 R9 R_B; spec 000 R10",
        statement="L(β̂_Bayes; X) = σ² + σ² tr(Σ_x (ΨXᵀX + σ²I)⁻¹Ψ)",
        objects=(bayes_conditional_risk, ridge_conditional_risk),
        checks=(
            Check(
                check_bayes_risk_mc,
                at=PRESETS["bayes"],
                faults={
                    "bayes_noise_scaled": {"fault_risk_fn": faults.bayes_risk_noise_scaled},
                    "ridge_lambda_doubled": {
                        "fault_ridge_risk_fn": faults.ridge_risk_lambda_doubled
                    },
                },
            ),
            Check(
                check_ridge_ordering,
                at=PRESETS["ridge_ordering"],
                faults={"bayes_sigma_scaled": {"fault_risk_fn": faults.bayes_risk_sigma_scaled}},
            ),
        ),
        setting=PRESETS["ridge_ordering"],
        keys=("N",),
    ),
    Result(
        id="base:ols",
        kind="baseline",
        summary="expected OLS risk σ²(1 + d/(N − d − 1)), any PD Σ_x, N > d + 1",
        source="[czz24] App. F.4 (OLS; + query noise σ²)",
        spec="spec 000 R10 exact closed forms",
        statement="E(⟨(XᵀX)⁻¹Xᵀy, x⟩ − y)² = σ²(1 + d/(N − d − 1))",
        objects=(ols_risk,),
        checks=(
            Check(
                check_ols_mc,
                at=PRESETS["ols"],
                faults={
                    # at a short prompt (N = 8 at the preset's d = 3)
                    "denominator_off_by_one": {
                        "fault_N": 8,
                        "fault_risk_fn": faults.ols_denominator_off_by_one,
                    }
                },
            ),
            Check(check_ols_float, at=PRESETS["ols"], fixed=OLS_FLOAT),
        ),
        setting=PRESETS["ols"],
        keys=("d", "N", "sigma2"),
        hypotheses=ols_hypotheses,
    ),
    Result(
        id="base:mp-limit",
        kind="baseline",
        summary="proportional-limit Bayes risk R_B∞ via the Marchenko–Pastur Stieltjes transform",
        source="[hpcy25] App. D, eqs. (D.34)–(D.36); [czz24] App. F.2 (optimally tuned ridge)",
        spec="spec 001 R9; spec 000 R10 R_ridge*",
        statement="R_B∞ = σ² + σ²ξ m(−σ²ξ) = ½[σ² + 1 − 1/ξ + √(4σ² + (σ² − 1 + 1/ξ)²)]",
        objects=(bayes_risk_limit_mp, mp_stieltjes),
        checks=(
            MP_EXACT,
            MP_FLOAT_CHECK,
            MP_WISHART,
            MP_WISHART_GENERIC,
            Check(
                check_wishart_sampler,
                at=PRESETS["wishart_sampler"],
                faults={"dof_minus_1": {"fault_dof_shift": -1}},
            ),
        ),
        setting=PRESETS["wishart_sampler"],
        keys=("d", "N", "xi", "sigma2", "signal"),
        hypotheses=mp_hypotheses,
    ),
    Result(
        id="base:ridge-limit",
        kind="derived",
        summary="proportional-limit ridge risk at any λ > 0: σ² + α²λ²m' + σ²ξ(m − λm')",
        source="assembled from [czz24] App. F.2's conditional ridge risk and the MP transform "
        "(Dobriban & Wager 2018)",
        spec="spec 000 R10",
        statement="R_λ = σ² + α² λ² m'(−λ) + σ² ξ (m(−λ) − λ m'(−λ)); minimised at λ* = σ²ξ/α²",
        objects=(ridge_risk_limit,),
        checks=(MP_EXACT, MP_FLOAT_CHECK, MP_WISHART, MP_WISHART_GENERIC),
        derived=True,
        setting=DEFAULT,
        keys=("xi", "sigma2", "signal"),
        hypotheses=mp_hypotheses,
    ),
    Result(
        id="base:suffstat-mc",
        kind="derived",
        summary=(
            "Sufficient-statistic MC engine has the raw-prompt law (GD family, debiased, LTB φ)"
        ),
        source="[derived] numerics.mc_fast (Wishart / rotation-invariance sampling of M h)",
        statement=(
            "For x = C z, ε = σ ζ and M the Wishart matrix of the rows (z, ζ), M h has the law "
            "c² h + c (‖h‖ ξ − h hᵀξ/‖h‖) with c² ~ χ²_N, ξ ~ N(0, I) independent."
        ),
        checks=(
            # negative controls: a Wishart with one degree of freedom too few (N − 1; debiased:
            # N − 2), and normals instead of χ on the Bartlett diagonal (vector sampler: c ~ N(0,1))
            Check(
                check_fast_vs_raw,
                at=DEFAULT,
                fixed=SUFFSTAT_CASES,
                faults={name: {"fault_sampler": f} for name, f in SAMPLER_FAULTS.items()},
            ),
        ),
        derived=True,
        setting=DEFAULT,
        keys=(),
    ),
)
