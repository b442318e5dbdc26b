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
]
