"""Domains of the parameters of [zwb24]'s public functions, declared once by name.

:data:`checked` validates a public section function where it is defined (``@checked``); the
package re-exports the same object, and ``fn.raw`` is the unchecked function.  The bad-input
harness reads the same table.  Here ``H`` is the feature covariance (not a number of heads) and
``omega`` is a function, not a parameter.
"""

from __future__ import annotations

import numpy as np

from theory.settings.domains import COMMON, Checker, Domain

__all__ = ["DOMAINS", "OVERRIDES", "checked"]

_PSD = np.array([[1.0, 0.3], [0.3, 2.0]])
_PSI = np.array([[0.5, 0.1], [0.1, 0.8]])
_SQ = np.array([[0.6, 0.1], [-0.2, 0.4]])
_NONNEG = Domain("real", 0.5, lower=0.0)


def _vec(*v: float, what: str = "") -> Domain:
    return Domain("vector", np.array(v), dim="d", what=what or "a finite vector of length d")


def _mat(rows: int, cols: int, dim: str | None, what: str) -> Domain:
    return Domain(
        "matrix",
        (np.arange(rows * cols, dtype=float).reshape(rows, cols) % 5 - 2) / 4,
        dim=dim,
        what=what,
    )


#: Domains by parameter name ([zwb24] notation; ``d = 2`` examples).
DOMAINS: dict[str, Domain] = {
    **COMMON,
    "H": Domain("psd", _PSD, dim="d", what="a feature covariance H (symmetric PSD)"),
    "Psi": Domain("psd", _PSI, dim="d", what="a task covariance Ψ (symmetric PSD)"),
    "Psi_bar": Domain("psd", _PSI, dim="d", what="a whitened task covariance Ψ̄ (symmetric PSD)"),
    "Gamma": Domain("square", _SQ, dim="d", what="a step-size matrix Γ (finite d×d)"),
    "Gamma_bar": Domain("square", _SQ, dim="d", what="a whitened Γ̄ (finite d×d)"),
    "Gamma0": Domain("square", _SQ, dim="d", what="an initial Γ(0) (finite d×d)"),
    "beta": _vec(0.2, 0.1, what="β (length d)"),
    "beta0": _vec(0.2, 0.1, what="β(0) (length d)"),
    "beta_star": _vec(0.5, -0.3, what="β* (length d)"),
    "a": _vec(0.1, 0.2, what="a (length d)"),
    "b": _vec(0.3, -0.1, what="b (length d)"),
    "phi": _vec(0.2, 0.4, what="φ (length d)"),
    "mu_bar": _vec(0.4, -0.2, what="μ̄ (length d)"),
    "e_bar": _vec(0.1, -0.1, what="ē (length d)"),
    "mu_coords": _vec(0.4, -0.2, what="coordinates of μ̄ (length d)"),
    "lams": Domain(
        "vector", np.array([0.5, 0.8]), dim="d", lower=0.0, what="eigenvalues λ_i ≥ 0 (length d)"
    ),
    "beta_star_H_norm2": _NONNEG.with_(what="‖β*‖_H² ≥ 0"),
    "t": _NONNEG.with_(valid=1.5, what="a time t ≥ 0"),
    "W_K": _mat(2, 3, "d+1", "W_K (k×(d+1), finite)"),
    "W_Q": _mat(2, 3, "d+1", "W_Q (k×(d+1), finite)"),
    "W_V": _mat(2, 3, "d+1", "W_V (v×(d+1), finite)"),
    "W_P": _mat(3, 2, None, "W_P ((d+1)×v, finite)"),
}

#: Per-function changes to :data:`DOMAINS`.
OVERRIDES: dict[str, dict[str, Domain]] = {
    "cor62_bounds": {
        "sigma2": _NONNEG.with_(
            valid=0.25, lower_open=True, what="a noise variance σ² > 0 (κ = trΨ̄/σ²)"
        )
    },
}

#: The validation at the definition: ``@checked`` on every public section function.
checked = Checker(DOMAINS, paper="zwb24", overrides=OVERRIDES)
