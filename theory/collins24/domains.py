"""Domains of the parameters of [collins24]'s public functions, declared once by name.

:data:`checked` validates at the definition: every public function of a section module is
decorated ``@checked`` (its parameters' domains from :data:`DOMAINS`, updated by
:data:`OVERRIDES`); the package exports those same objects, and ``f.raw`` is the unchecked body
for hot loops (quadrature integrands, optimiser objectives).  The bad-input harness reads the same
table.  Names that mean something else here than in :data:`theory.settings.domains.COMMON`:
``L`` is the Lipschitz constant (a real ≥ 0, not hpcy25's prompt length), ``N`` is the noise
functional N(ω) = E Σπ_i² (a real, not a context length), ``A`` is the signal functional
A(ω) = E‖Σπ_i x_i − x‖² (a real, not a matrix), ``d ≥ 2`` (x ∈ S^{d−1}) and ``omega`` is the
attention scale ω ≥ 0 (M = ωI).
"""

from __future__ import annotations

import numpy as np

from theory.settings.domains import COMMON, Checker, Domain

__all__ = ["DOMAINS", "OVERRIDES", "GENERIC_EXEMPT", "checked"]

_PSD = np.array([[1.0, 0.3], [0.3, 2.0]])
_SQ = np.array([[0.6, 0.1], [-0.2, 0.4]])


def _nonneg(valid: float, what: str) -> Domain:
    return Domain("real", valid, lower=0.0, what=what)


def _pos(valid: float, what: str) -> Domain:
    return Domain("real", valid, lower=0.0, lower_open=True, what=what)


_OMEGA_POS = _pos(2.0, "an attention scale ω > 0")

#: Domains by parameter name ([collins24] notation; ``d = 2`` examples).
DOMAINS: dict[str, Domain] = {
    **COMMON,
    "d": Domain("count", 2, minimum=2, dim="d", what="an integer d ≥ 2 (x ∈ S^(d-1))"),
    "n": Domain("count", 10, what="a context length n, an integer ≥ 1"),
    "L": _nonneg(1.0, "a Lipschitz constant L ≥ 0 (a real; not hpcy25's prompt length)"),
    "Lp": _nonneg(2.0, "a test Lipschitz constant L' ≥ 0"),
    "sigma2": _nonneg(0.25, "a noise variance σ² ≥ 0"),
    "omega": _nonneg(2.0, "an attention scale ω ≥ 0"),
    "A": _nonneg(1.0, "the signal functional A(ω) = E‖Σπ_i x_i − x‖² ≥ 0"),
    "N": _nonneg(0.3, "the noise functional N(ω) = E Σπ_i² ≥ 0 (not a context length)"),
    "S": _nonneg(0.01, "the signal functional S(ω) ≥ 0"),
    "S_min": _pos(0.005, "min_ω S(ω) > 0"),
    "tau": Domain("real", 0.5, lower=-1.0, upper=1.0, what="a cosine τ = x_iᵀx in [−1, 1]"),
    "t": Domain("real", 0.0, lower=-1.0, upper=1.0, what="a cosine t = x_iᵀx in [−1, 1]"),
    "c": _pos(3.0, "a scale factor c > 0"),
    "Lam": _pos(5.0, "a signal-to-noise budget Λ = nL²/σ² > 0"),
    "m": Domain("real", 0.1, what="a finite real scale m (M = mI)"),
    "eps": Domain("real", 0.3, lower=0.0, upper=1.0, what="a cap depth ε in [0, 1]"),
    "a": Domain(
        "vector",
        np.array([1.0, 2.0]),
        lower=0.0,
        lower_open=True,
        what="a finite vector with positive entries (Lemma I.3: a_i > 0)",
    ),
    "x": Domain(
        "vector", np.array([[1.0, 0.0]]), dim="d", what="queries x of shape (B, d), finite"
    ),
    "X": Domain(
        "array",
        np.array([[[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]]]),
        what="contexts X of shape (B, n, d), finite",
    ),
    "y": Domain("array", np.array([[1.0, -1.0, 0.5]]), what="labels y of shape (B, n), finite"),
    "M": Domain("square", _SQ, dim="d", what="a d×d attention matrix M (finite)"),
    "Sigma": Domain("psd", _PSD, dim="d", what="a covariance Σ (symmetric PSD, d×d)"),
    "B": Domain(
        "matrix", np.eye(2)[:, :1], what="a d×k matrix B with orthonormal columns (Def. 4.2)"
    ),
    "c1": Domain("real", 1.0, what="a finite real c₁"),
    "c2": Domain("real", 0.0, what="a finite real c₂"),
    "c_u": _pos(1.0, "a scale c_u > 0"),
    "case": Domain("choice", "sigma0", choices=("sigma0", "n2")),
    "task": Domain("choice", "affine", choices=("affine", "relu")),
    "exponent": Domain("real", 1.0, optional=True, what="a finite exponent (or None)"),
    "dps": Domain("count", 20, what="a number of decimal digits ≥ 1"),
    "alpha": _pos(1.0, "a decay rate α > 0 (App. G.2)"),
    "p": Domain("real", 1.0, lower=0.0, upper=2.0, what="a power p in [0, 2] (App. G.4: p ≤ 2)"),
    "r": _nonneg(3.0, "a kernel rate r ≥ 0 (g_p(r))"),
    "inv_count": Domain(
        "real", 0.5, lower=0.0, upper=1.0, lower_open=True, what="E[1/K | K ≥ 1] in (0, 1]"
    ),
}

#: Per-function changes to :data:`DOMAINS`.
OVERRIDES: dict[str, dict[str, Domain]] = {
    "Lambda": {"sigma2": _pos(0.25, "a noise variance σ² > 0 (Λ = nL²/σ²)")},
    "rad_asymptote": {"omega": _OMEGA_POS},
    "orth_asymptote": {"omega": _OMEGA_POS},
    "window_threshold": {"omega": _OMEGA_POS},
    "c6_upper_shape": {"omega": _OMEGA_POS},
    "c8_upper_shape": {"omega": _OMEGA_POS},
    "window_mass": {
        "omega": Domain(
            "real", 1.0, lower=0.5, what="ω ≥ 1/2 (§3.1: the p_ω formula needs ω ≥ 1/2)"
        )
    },
    "lemB5_optimum": {
        "Sigma": Domain(
            "pd", _PSD, dim="d", what="a covariance Σ (symmetric positive definite: Σ⁻¹)"
        )
    },
    "stirling_bounds": {"d": Domain("real", 5.0, lower=1.0, what="a real d ≥ 1 (Γ(d+1))")},
    "g7_lhs": {"d": Domain("real", 4.0, lower=1.0, what="a real d ≥ 1")},
    "kershaw_ratio": {"x": _pos(2.0, "a real x > 0")},
    "window_mean_s": {"omega": Domain("real", 1.0, lower=0.5, what="ω ≥ 1/2 (§3.1 hard window)")},
    "msa_risk": {"omega": Domain("real", 1.0, lower=0.5, what="ω ≥ 1/2 (§3.1 hard window)")},
    "gamma_sum": {
        "m": Domain("count", 3, minimum=0, what="an integer m ≥ 0 (App. G.2)"),
        "d": Domain("count", 5, what="an integer power d ≥ 1 (App. G.2)"),
    },
    "g2_bounds": {
        "m": Domain("count", 3, what="an integer m ≥ 1 (App. G.2)"),
        "d": Domain("count", 5, what="an integer power d ≥ 1 (App. G.2)"),
    },
    "g3_scale": {"d": Domain("count", 5, what="an integer power d ≥ 1 (App. G.3)")},
    "gp_mean_asymptote": {"r": _pos(50.0, "a kernel rate r > 0")},
}

#: Validation at the definition: ``@checked`` on every public function of the section modules.
checked = Checker(DOMAINS, paper="collins24", overrides=OVERRIDES)


#: Parameters the default checks meet only at 0/1 entries, with the reason.
GENERIC_EXEMPT: dict[str, str] = {
    "theory.collins24.sec4_lowrank:rho_metric.B": (
        "B is an orthonormal basis of the task subspace (Def. 4.2); the checks use coordinate "
        "bases (0/1 entries), and rho is invariant under a common rotation of M and B"
    ),
    "theory.collins24.sec4_lowrank:lowrank_M.B": (
        "B is an orthonormal basis (Def. 4.2); coordinate bases are the theorem's setting up to "
        "a rotation, under which c1 BB^T + c2 B_perp B_perp^T is equivariant"
    ),
}
