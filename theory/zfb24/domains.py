"""Domains of the parameters of [zfb24]'s exported functions, declared once by name.

:data:`checked` applies them where each public function is defined (``@checked``), so
``theory.zfb24.f is theory.zfb24.<section>.f``; hot loops (the ODE right-hand sides in
:mod:`numerics.zfb24.ode`) call ``f.raw``.  The bad-input harness reads the same table.
"""

from __future__ import annotations

import numpy as np

from theory.settings.domains import COMMON, Checker, Domain

__all__ = ["DOMAINS", "OVERRIDES", "checked"]

_PSD = np.array([[1.0, 0.3], [0.3, 2.0]])
_SQ = np.array([[0.6, 0.1], [-0.2, 0.4]])
_VEC = np.array([0.5, -0.3])
_D1 = np.array([[0.5, 0.1, 0.0], [0.2, 0.4, 0.1], [0.0, 0.3, 0.6]])  # (d+1)×(d+1) at d = 2
_POS = Domain("real", 1.0, lower=0.0, lower_open=True)
_NONNEG = Domain("real", 0.5, lower=0.0)

#: Domains by parameter name ([zfb24] notation; ``d = 2`` examples).
DOMAINS: dict[str, Domain] = {
    **COMMON,
    "M": Domain("count", 12, inf_ok=True, what="a test length: an integer ≥ 1 or inf"),
    "Lambda": Domain("pd", _PSD, dim="d", what="a covariance Λ (symmetric positive definite)"),
    "Lambda_test": Domain("psd", _PSD, dim="d", what="a covariance Λ' (symmetric PSD)"),
    "S_q": Domain("psd", _PSD, dim="d", what="a second moment E[x_q x_qᵀ] (symmetric PSD)"),
    "Omega": Domain("psd", _PSD, dim="d", optional=True, what="a task covariance Ω (PSD)"),
    "Sigma": Domain("psd", _PSD, dim="d", what="Σ = Cov(xy) (symmetric PSD)"),
    "Gamma": Domain(
        "pd", _PSD, dim="d", optional=True, what="Γ (symmetric positive definite), or None"
    ),
    "U11": Domain("square", _SQ, dim="d", what="the state block U₁₁ (finite d×d)"),
    "P": Domain("square", _SQ, dim="d", what="an effective matrix P (finite d×d)"),
    "Zc": Domain("square", _PSD, dim="d", what="the coefficient matrix Zc (finite d×d)"),
    "u": Domain("real", 0.7, what="the state entry u₋₁ (finite real)"),
    "Theta": Domain("square", np.eye(2) / 2**0.25, dim="d", what="Θ (d×d with ‖ΘΘᵀ‖_F = 1)"),
    "W_KQ": Domain("square", _D1, dim="d+1"),
    "W_PV": Domain("square", _D1, dim="d+1"),
    "U": Domain("square", _D1, dim="d+1"),
    "E": Domain(
        "matrix",
        np.arange(12.0).reshape(3, 4) % 5 - 2,
        what="an embedding matrix E ((d+1)×(N+1), finite)",
    ),
    "rho": _POS.with_(valid=4.0, what="the normaliser ρ > 0"),
    "a": Domain("vector", _VEC, dim="d", what="the best linear predictor a (length d)"),
    "w": Domain("vector", _VEC, dim="d", what="a task vector w (length d)"),
    "w0": Domain("vector", _VEC, dim="d", what="a task vector w₀ (length d)"),
    "best_linear_error": _NONNEG.with_(what="an error ≥ 0"),
    "t": _NONNEG.with_(valid=1.5, what="a time t ≥ 0"),
    "eps": _POS.with_(valid=0.1, what="a tolerance ε > 0"),
    "c": _POS.with_(valid=1.5, what="a scale c > 0"),
    "delta": _NONNEG.with_(valid=0.3, what="a scalar δ ≥ 0"),
    "m1": Domain("vector", np.array([1.0, 2.0]), dim="d", what="E[λ_i] per coordinate"),
    "m2": Domain("vector", np.array([2.0, 8.0]), dim="d", what="E[λ_i²] per coordinate"),
    "m3": Domain("vector", np.array([6.0, 48.0]), dim="d", what="E[λ_i³] per coordinate"),
    "xi": Domain("vector", np.array([2.0, 8.0]), dim="d", what="the vector ξ (length d)"),
    "E_opG_fro2L": _POS.with_(valid=3.0, what="E[‖Γ_τ‖_op‖Λ_τ‖_F²] > 0"),
    "k": _POS.with_(valid=2.0, what="a shape k > 0"),
    "theta": _POS.with_(valid=0.5),
    "u0_ij": Domain("real", 0.2),
    "g_i": _POS.with_(valid=1.2),
    "lam_i": _NONNEG.with_(valid=1.0),
    "lam_j": _NONNEG.with_(valid=2.0),
    "int_u2": _NONNEG.with_(valid=0.7),
}

_IID = {  # the iid-entry formulas take scalar moments
    "m1": _POS.with_(valid=1.0, what="the moment E[λ] > 0"),
    "m2": _POS.with_(valid=2.0, what="the moment E[λ²] > 0"),
    "m3": _POS.with_(valid=6.0, what="the moment E[λ³] > 0"),
}

#: Per-function changes to :data:`DOMAINS`.
OVERRIDES: dict[str, dict[str, Domain]] = {
    "cor6_M_threshold": {
        "eps": Domain(
            "real",
            0.1,
            lower=0.0,
            lower_open=True,
            upper=1.0,
            upper_open=True,
            what="a tolerance ε ∈ (0, 1) (Corollary 6)",
        )
    },
    "moments_iid": _IID,
    "delta_iid": _IID,
    "rdm_test_risk": _IID,
    "rdm_test_risk_fn": _IID,
}

#: The validation at the definition: ``@checked`` on every public function of the section modules.
checked = Checker(DOMAINS, paper="zfb24", overrides=OVERRIDES)
