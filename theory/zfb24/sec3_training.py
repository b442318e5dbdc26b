"""[zfb24] §3.3 training procedure and Assumption 3; Γ (§4.1 Theorem 4, Lemma 10); its label-noise
extension.

Every public function accepts numbers / numpy arrays (returns float64) or SymPy objects (returns
expressions), written once against :mod:`theory.common.backend`; ``<name>_fn`` is the numpy twin
without input validation.  The keyword ``Gamma=`` accepted by several functions of this package
replaces ``Γ``: it is the hook for the label-noise extension (pass :func:`gamma_noisy`) and for
fault injection in negative controls.

:class:`Assumption3Setting` (defined in :mod:`theory.zfb24.settings`, bound here) is the frozen,
validated setting ``(Λ, N, σ, Θ)`` of Assumption 3 / Theorem 4, the object
:func:`theory.strategies.zfb24_settings` draws.

The helpers :func:`prepare`, :func:`gamma_xp`, :func:`gamma_noisy_xp`, :func:`as_Lambda` and
:func:`as_N` are shared by the other section modules of this package.  They convert; they do not
validate: every public function is ``@checked`` at its definition (:mod:`theory.zfb24.domains`),
so an input is validated once, with one message, whatever the import path.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from theory.common.backend import NP, SP, ops_for
from theory.zfb24.domains import checked
from theory.zfb24.settings import Assumption3Setting

__all__ = [
    "gamma",
    "gamma_fn",
    "gamma_noisy",
    "gamma_noisy_fn",
    "initial_state",
    "Assumption3Setting",
]
# Also public, for the sibling section modules only (theory.zfb24 does not re-export them):
# prepare, gamma_xp, gamma_noisy_xp, as_Lambda, as_N.


# ------------------------------------------------------------------------------ conversion
def as_Lambda(A: Any, *, spd: bool = True) -> np.ndarray:
    """A float64 matrix for the numeric path (validated by the caller's ``@checked``); symmetrised
    when ``spd``, as the validators repair round-off asymmetry."""
    arr = np.array(A, dtype=float)
    return 0.5 * (arr + arr.T) if spd else arr


def as_N(N: Any) -> int:
    """A prompt length as ``int`` (validated by the caller's ``@checked``: an integer ≥ 1)."""
    return int(N)


def prepare(Lambda: Any, N: Any) -> tuple[Any, Any, Any]:
    """``(xp, Λ, N)``: the backend for the input, and Λ, N converted (numeric) or sympified."""
    xp = ops_for(Lambda, N)
    if xp is NP:
        return xp, as_Lambda(Lambda), as_N(N)
    return xp, SP.mat(Lambda), SP.S(N)


# --------------------------------------------------------------------------------------- Γ
def gamma_xp(Lambda: Any, N: Any, xp: Any) -> Any:
    """Γ on the backend ``xp`` (no validation)."""
    d = xp.dim(Lambda)
    return (1 + xp.S(1) / N) * Lambda + (xp.tr(Lambda) / N) * xp.eye(d)


@checked
def gamma(Lambda: Any, N: Any) -> Any:
    r"""The matrix ``Γ`` whose inverse the trained LSA learns.

    Source: [zfb24] Theorem 4 and Lemma 10 (also eq. (37) and Theorem 5).

    .. math:: \Gamma = \Big(1 + \frac1N\Big)\Lambda + \frac{\operatorname{tr}\Lambda}{N} I_d

    Parameters
    ----------
    Lambda : covariate covariance Λ (d×d, symmetric positive definite); SymPy Matrix/MatrixSymbol ok
    N : training prompt length N ≥ 1 (int or SymPy symbol)

    Returns
    -------
    (d, d) float64 array, or a SymPy matrix expression.

    Notes
    -----
    Γ commutes with Λ and Γ ⪰ Λ.  It is also E[Λ̂²]Λ⁻¹.  The paper writes it both as
    (1+1/N)Λ + trΛ/N·I and ((N+1)/N)Λ + trΛ/N·I: identical.

    References
    ----------
    Zhang, Frei, Bartlett (2024), JMLR 25(49); arXiv:2306.09927.

    Examples
    --------
    >>> gamma([[1.0]], 2).tolist()
    [[2.0]]
    >>> import sympy as sp
    >>> N = sp.Symbol("N", positive=True)
    >>> gamma(sp.Matrix([[1]]), N)
    Matrix([[1 + 2/N]])
    """
    xp, L, n = prepare(Lambda, N)
    return gamma_xp(L, n, xp)


@checked
def gamma_fn(Lambda: Any, N: Any) -> np.ndarray:
    """numpy twin of :func:`gamma` (no validation).

    Examples
    --------
    Λ = I₂, N = 4: Γ = (1 + 1/4)·I + (2/4)·I = 1.75·I.

    >>> gamma_fn(np.eye(2), 4).tolist()
    [[1.75, 0.0], [0.0, 1.75]]
    """
    return gamma_xp(np.asarray(Lambda, dtype=float), N, NP)


def gamma_noisy_xp(Lambda: Any, N: Any, s2: Any, xp: Any) -> Any:
    """Γ_s on the backend ``xp`` (no validation)."""
    return gamma_xp(Lambda, N, xp) + (s2 / N) * xp.eye(xp.dim(Lambda))


@checked
def gamma_noisy(Lambda: Any, N: Any, s2: Any) -> Any:
    r"""[derived] ``Γ_s``: the label-noise extension of ``Γ``.

    Source: [derived] "Label-noise extension" (not in [zfb24]).

    .. math:: \Gamma_s = \Gamma + \frac{s^2}{N} I = \Big(1+\frac1N\Big)\Lambda
              + \frac{\operatorname{tr}\Lambda + s^2}{N} I

    Parameters
    ----------
    Lambda : Λ (d×d SPD); N : training prompt length ≥ 1; s2 : training label-noise variance s² ≥ 0

    Notes
    -----
    With training labels y = ⟨w,x⟩ + ε, Var ε = s², E[ĝĝᵀ] = ΛΓ_s and E[ĝwᵀ] = Λ for
    ĝ = (1/N)Σ yᵢxᵢ, so ℓ̃, the flow and the minimiser P = Γ_s⁻¹ hold with Γ → Γ_s.  At zero task
    mean Γ_s⁻¹ should equal zwb24's optimal one-step-GD preconditioner Γ* (cross-check pending).
    (s² is the noise variance; σ is zfb24's initialisation scale, ``sigma_init``.)

    Examples
    --------
    >>> gamma_noisy([[1.0]], 2, 1.0).tolist()
    [[2.5]]
    """
    xp, L, n = prepare(Lambda, N)
    s2 = xp.S(s2) if xp is SP else float(s2)
    return gamma_noisy_xp(L, n, s2, xp)


@checked
def gamma_noisy_fn(Lambda: Any, N: Any, s2: float) -> np.ndarray:
    """numpy twin of :func:`gamma_noisy`.

    Examples
    --------
    >>> L = np.diag([0.5, 2.0])
    >>> bool(np.allclose(gamma_noisy_fn(L, 4, 0.8), gamma_fn(L, 4) + 0.8 / 4 * np.eye(2)))
    True
    """
    return gamma_noisy_xp(np.asarray(Lambda, dtype=float), N, s2, NP)


# ------------------------------------------------------------------------ Assumption 3
@checked
def initial_state(Theta: Any, sigma_init: float) -> tuple[np.ndarray, float]:
    r"""Assumption 3: ``U₁₁(0) = σΘΘᵀ``, ``u₋₁(0) = σ`` (u₁₂ = u₂₁ = 0), with ``‖ΘΘᵀ‖_F = 1``.

    Source: [zfb24] Assumption 3, eq. (10).  Raises ``ValueError`` if ‖ΘΘᵀ‖_F ≠ 1 or σ ≤ 0.

    Examples
    --------
    >>> U0, u0 = initial_state(np.eye(1), 0.5)
    >>> U0.tolist(), u0
    ([[0.5]], 0.5)
    """
    T = np.asarray(Theta, dtype=float)
    s = float(sigma_init)
    A = T @ T.T
    nrm = float(np.linalg.norm(A))
    if abs(nrm - 1.0) > 1e-10:
        raise ValueError(f"‖ΘΘᵀ‖_F must be 1 (Assumption 3), got {nrm:.6g}")
    return s * A, s
