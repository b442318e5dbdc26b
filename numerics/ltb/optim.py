"""BFGS on the exact zwb24 risk formulas (spec 002 C6, C8, C10, C11).

Gradients are complex-step derivatives of :func:`theory.ltb.ltb_risk_whitened` (exact to machine
precision, the formula is bilinear and never conjugates), so argmins are accurate to ~1e-9.
Everything is in whitened coordinates (spec §1.8): parameters ``(a, b, Γ̄, φ)``, data ``(Ψ̄, μ̄)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize

from theory.common.backend import NP, psd_sqrt
from theory.ltb import lsa_risk_floor, optimal_gamma_whitened, optimal_risk, whiten
from theory.ltb.risk import ltb_risk_expr
from theory.settings import LinearRegressionICL

__all__ = [
    "OptResult",
    "minimise",
    "min_gd_beta",
    "min_ltb",
    "inf_lsa",
    "polish",
    "cs_grad",
    "gap_grid",
    "risk_plain_complex",
    "table1_levels",
]

_H = 1e-30  # complex step


@dataclass(frozen=True, slots=True)
class OptResult:
    value: float  # best minimum found
    x: np.ndarray  # argmin (flat)
    values: tuple[float, ...]  # minimum of every restart
    parts: dict  # argmin split into named parameters


def cs_grad(f: Callable[[np.ndarray], complex], x: np.ndarray) -> np.ndarray:
    """Complex-step gradient ``Im f(x + i h e_k)/h`` (exact for analytic ``f``)."""
    g = np.empty(x.size)
    for k in range(x.size):
        xc = x.astype(complex)
        xc[k] += 1j * _H
        g[k] = np.imag(f(xc)) / _H
    return g


def minimise(
    f: Callable[[np.ndarray], complex], starts: list[np.ndarray]
) -> tuple[np.ndarray, list[float]]:
    """BFGS from every start; returns the best argmin and all restart minima."""
    best, vals = None, []
    for x0 in starts:
        res = minimize(
            lambda x: float(np.real(f(x))),
            x0,
            jac=lambda x: cs_grad(f, x),
            method="BFGS",
            options={"gtol": 1e-13, "maxiter": 20000},
        )
        vals.append(float(res.fun))
        if best is None or res.fun < best.fun:
            best = res
    assert best is not None
    return best.x, vals


def _split(x: np.ndarray, d: int, names: tuple[str, ...]) -> dict:
    out, i = {}, 0
    for n in names:
        k = d * d if n == "Gamma" else d
        out[n] = x[i : i + k].reshape(d, d) if n == "Gamma" else x[i : i + k]
        i += k
    return out


def _starts(
    rng: np.random.Generator, n_params: int, restarts: int, structured: list[np.ndarray]
) -> list[np.ndarray]:
    return structured + [0.5 * rng.standard_normal(n_params) for _ in range(restarts)]


def min_gd_beta(
    P: np.ndarray, mu: np.ndarray, s2: float, N: int, *, rng: np.random.Generator, restarts: int = 3
) -> OptResult:
    """``min over (Γ̄, β̄)`` of the GD-β risk (= LTB risk at ``a = b = β̄, φ = 0``)."""
    d = P.shape[0]
    z = np.zeros(d)

    def f(x: np.ndarray) -> complex:
        p = _split(x, d, ("Gamma", "beta"))
        return ltb_risk_expr(NP, p["beta"], p["beta"], p["Gamma"], z, P, mu, s2, N)

    x, vals = minimise(f, _starts(rng, d * d + d, restarts, []))
    return OptResult(float(np.real(f(x))), x, tuple(vals), _split(x, d, ("Gamma", "beta")))


def min_ltb(
    P: np.ndarray, mu: np.ndarray, s2: float, N: int, *, rng: np.random.Generator, restarts: int = 3
) -> OptResult:
    """``min over (a, b, Γ̄, φ)`` of the general LTB risk (Thm 5.3, spec C8)."""
    d = P.shape[0]
    names = ("a", "b", "Gamma", "phi")

    def f(x: np.ndarray) -> complex:
        p = _split(x, d, names)
        return ltb_risk_expr(NP, p["a"], p["b"], p["Gamma"], p["phi"], P, mu, s2, N)

    x, vals = minimise(f, _starts(rng, 3 * d + d * d, restarts, []))
    return OptResult(float(np.real(f(x))), x, tuple(vals), _split(x, d, names))


def inf_lsa(
    P: np.ndarray,
    mu: np.ndarray,
    s2: float,
    N: int,
    *,
    rng: np.random.Generator,
    restarts: int = 2,
    phi_zero: bool = False,
) -> OptResult:
    """``inf over (b, Γ̄, φ)`` of the LSA risk (``a = 0``), multi-start (spec C10, Appendix A).

    Structured starts: the optimal GD-0 (``b = 0``, ``Γ̄`` optimal for ``Ψ̄ + μ̄μ̄ᵀ``, ``φ = 0``) and
    the centred start (``b = μ̄``, ``Γ̄ = Γ̄*``); plus ``restarts`` random ones.  ``phi_zero``:
    the sub-family without the quadratic statistic (``φ = 0``; Thm 4.1 (vi)).
    """
    d = P.shape[0]
    names = ("b", "Gamma") if phi_zero else ("b", "Gamma", "phi")
    z = np.zeros(d)

    def f(x: np.ndarray) -> complex:
        p = _split(x, d, names)
        return ltb_risk_expr(NP, z, p["b"], p["Gamma"], p.get("phi", z), P, mu, s2, N)

    G0 = np.asarray(optimal_gamma_whitened(P + np.outer(mu, mu), s2, N))
    Gs = np.asarray(optimal_gamma_whitened(P, s2, N))
    tail = [] if phi_zero else [z]
    structured = [np.concatenate([z, G0.ravel(), *tail]), np.concatenate([mu, Gs.ravel(), *tail])]
    x, vals = minimise(f, _starts(rng, d + d * d + len(tail) * d, restarts, structured))
    return OptResult(float(np.real(f(x))), x, tuple(vals), _split(x, d, names))


def polish(
    P: np.ndarray, mu: np.ndarray, s2: float, N: int, start: dict, *, lsa: bool
) -> OptResult:
    """BFGS on the exact (whitened) LTB / LSA risk from the given effective parameters: finds the
    stationary point whose basin ``start`` lies in (used to classify trained models that stop at a
    spurious local minimum)."""
    d = P.shape[0]
    names = ("b", "Gamma", "phi") if lsa else ("a", "b", "Gamma", "phi")
    z = np.zeros(d)

    def f(x: np.ndarray) -> complex:
        p = _split(x, d, names)
        return ltb_risk_expr(NP, p.get("a", z), p["b"], p["Gamma"], p["phi"], P, mu, s2, N)

    x0 = np.concatenate([np.ravel(start[n]) for n in names])
    x, vals = minimise(f, [x0])
    return OptResult(float(np.real(f(x))), x, tuple(vals), _split(x, d, names))


def gap_grid(
    Ns: tuple[int, ...],
    mus: tuple[float, ...],
    *,
    sigma2: float = 0.25,
    d: int = 2,
    seed: int = 0,
    restarts: int = 1,
) -> np.ndarray:
    """``inf_LSA − R*`` for ``H = Ψ = I_d``, ``β* = μ·1/√d`` on a grid (rows N, columns μ)."""
    rng = np.random.default_rng(seed)
    I = np.eye(d)
    out = np.empty((len(Ns), len(mus)))
    for i, N in enumerate(Ns):
        Rs = optimal_risk(I, I, sigma2, N)
        for j, m in enumerate(mus):
            mu = m * np.ones(d) / np.sqrt(d)
            out[i, j] = inf_lsa(I, mu, sigma2, N, rng=rng, restarts=restarts).value - Rs
    return out


def risk_plain_complex(H: np.ndarray, Psi: np.ndarray, bs: np.ndarray, s2: float, N: int):
    Hh = psd_sqrt(H)
    P, mu = Hh @ Psi @ Hh, Hh @ bs
    d = H.shape[0]

    def f(x: np.ndarray) -> complex:
        G, beta = x[: d * d].reshape(d, d), x[d * d :]
        bb = Hh @ beta
        return ltb_risk_expr(NP, bb, bb, Hh @ G @ Hh, np.zeros(d), P, mu, s2, N)

    return f


def table1_levels(setting: LinearRegressionICL, *, rng: np.random.Generator) -> dict[str, float]:
    """Table 1's reference lines for one data model: ``R*`` (Thm 5.2), ``inf_LSA`` (BFGS, 2
    random restarts) and the LSA floor (Thm 4.1 (ii)), keyed ``R_star``, ``inf_lsa``, ``floor``."""
    H, Psi, bs = setting.Sigma_x, setting.task_cov, setting.task_mean
    s2, N = setting.noise_var, setting.N
    P, mu = whiten(H, Psi, bs)
    return {
        "R_star": optimal_risk(H, Psi, s2, N),
        "inf_lsa": inf_lsa(P, mu, s2, N, rng=rng).value,
        "floor": lsa_risk_floor(H, Psi, bs, s2, N),
    }
