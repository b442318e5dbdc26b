"""[collins24] the exact 1-D quadrature of the softmax ICL risk on the sphere ([derived]; a route).

Source: [derived].  With ``Σ = I``, ``M = ωI`` and ``x ~ U^d``, condition on
``x_{n+1} = e₁``: the ``s_i = 1 − x_iᵀx`` are iid with density
``q_d(s) = c'_d [s(2−s)]^{(d−3)/2}`` on ``(0, 2]`` and ``π = softmax(−ω s)``.  Put ``u = e^{−ωs}``,
``a = λu = e^{y − ωs}`` (``λ = e^y``) and ``φ = E_s e^{−a}``; then ``1/S = ∫ e^{−λS} dλ`` and
``1/S² = ∫ λ e^{−λS} dλ`` give

.. math::

    N(ω) = n∫ E_s[a²e^{−a}] φ^{n−1} dy, \\quad
    \\mathrm{rad}(ω) = ∫ \\{ nE_s[s²a²e^{−a}]φ^{n−1} + n(n−1)(E_s[s a e^{−a}])² φ^{n−2}\\} dy,

    \\mathrm{orth}(ω) = n∫ E_s[s(2−s)a²e^{−a}] φ^{n−1} dy, \\quad
    E\\textstyle\\sum π_i t_i = n∫ E_s[(1−s) a e^{−a}] φ^{n−1} dy.

Inner integrals: Gauss–Legendre in ``z = log s`` on ``[log s_lo, log s_c]`` and linear in ``s`` on
``[s_c, 1]`` (``s_c ≈ 4/ω``, so the transition of ``e^{−a}``, of width ``1/ω`` in ``s``, is resolved
everywhere) and in ``v = √(2 − s)`` on ``[1, 2]`` (smooth at ``s = 2`` for every ``d ≥ 2``).  Outer
integral: Gauss–Legendre in ``y`` on a range found from a coarse grid.  ``theory`` may not import
scipy, so this evaluator lives in numerics (the issue's rule); the incomplete beta of the 1-NN
limit is :func:`scipy.special.betainc` here and mpmath in :mod:`theory.collins24.limits`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import integrate, optimize, special

from theory.collins24.sec2_reductions import affine_risk_split

__all__ = [
    "WindowTerms",
    "gl_nodes",
    "s_nodes",
    "window_terms",
    "affine_risk_quad",
    "a_infinity",
    "t_cdf",
    "optimal_scale_affine",
    "noise_term",
]

#: Default relative tolerance of the 1-D argmin search of the affine risk.
ARGMIN_RTOL = 1e-5

#: A(ω) and N(ω) beyond this ω are not integrated (the spec's recipe stops at 1e3).
OMEGA_MAX = 1000.0


@functools.cache
def gl_nodes(m: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss–Legendre nodes and weights on [-1, 1] (cached; :func:`scipy.special.roots_legendre`,
    since numpy's ``leggauss(800)`` takes seconds).

    Examples
    --------
    Three nodes integrate x² on [−1, 1] exactly:

    >>> x, w = gl_nodes(3)
    >>> round(float(w.sum()), 12), round(float(w @ x**2), 12)
    (2.0, 0.666666666667)
    """
    x, w = special.roots_legendre(m)
    x.setflags(write=False)
    w.setflags(write=False)
    return x, w


#: The node counts used (quantised, so the cache of :func:`gl_nodes` stays small).
SIZES = (120, 240, 480, 960, 1920, 3840)


def _size(m: float) -> int:
    return next((k for k in SIZES if k >= m), SIZES[-1])


def _gl(a: float, b: float, m: int) -> tuple[np.ndarray, np.ndarray]:
    x, w = gl_nodes(m)
    return 0.5 * (b - a) * x + 0.5 * (b + a), 0.5 * (b - a) * w


def log_cd(d: int) -> float:
    """``log c'_d = log Γ(d/2) − ½ log π − log Γ((d−1)/2)`` (density of ``t = x_iᵀx``)."""
    return math.lgamma(d / 2) - 0.5 * math.log(math.pi) - math.lgamma((d - 1) / 2)


@functools.cache
def s_nodes(d: int, omega: float, m: int = 120) -> tuple[np.ndarray, np.ndarray]:
    """Nodes ``s`` and weights ``w`` with ``Σ w g(s) ≈ E_s g(s)`` for ``s ~ q_d`` (sum of weights 1
    to about 1e-12).  Three panels: log-s below ``s_c``, linear in s on ``[s_c, 1]`` with enough
    nodes for the ``1/ω`` transition, and ``v = √(2−s)`` on ``[1, 2]``.

    Examples
    --------
    The weights sum to 1 and E s = 1 (t = 1 − s has mean 0 on the sphere):

    >>> s, w = s_nodes(5, 2.0)
    >>> round(float(w.sum()), 10), round(float(w @ s), 10)
    (1.0, 1.0)
    """
    e = (d - 3) / 2
    lc = log_cd(d)
    s_lo = 1e-18 if d <= 3 else 1e-12
    s_c = min(0.5, 4.0 / max(omega, 1e-9))
    z, wz = _gl(math.log(s_lo), math.log(s_c), m)
    s1 = np.exp(z)
    w1 = wz * s1 * np.exp(lc + e * (np.log(s1) + np.log(2 - s1)))
    m2 = _size(max(m, 3 * omega))
    s2, w2 = _gl(s_c, 1.0, m2)
    w2 = w2 * np.exp(lc + e * (np.log(s2) + np.log(2 - s2)))
    v, wv = _gl(0.0, 1.0, _size(max(m, 1.5 * omega)))
    s3 = 2 - v**2
    # ds = 2v dv and (2 − s)^e = v^{2e}: integrand 2 v^{2e+1} s^e, smooth for d ≥ 2
    w3 = wv * 2 * v ** (2 * e + 1) * np.exp(lc + e * np.log(s3))
    s = np.concatenate([s1, s2, s3])
    w = np.concatenate([w1, w2, w3])
    s.setflags(write=False)
    w.setflags(write=False)
    return s, w


@dataclass(frozen=True, slots=True)
class WindowTerms:
    """The ω-dependent pieces of the risk: they depend on ``(ω, n, d)`` only.

    Source: [collins24] App. B.1 (A(ω) = E‖Σπᵢxᵢ − x‖², N(ω) = EΣπᵢ²), Lemma C.4.

    Examples
    --------
    >>> wt = window_terms(0.0, 4, 3)          # uniform weights: A = 1 + 1/n, N = 1/n
    >>> round(wt.A, 12), wt.N
    (1.25, 0.25)
    """

    omega: float
    n: int
    d: int
    N: float  # E Σ π_i²
    rad: float  # E (Σ π_i s_i)²
    orth: float  # E Σ π_i² s_i(2 − s_i)
    mean_t: float  # E Σ π_i t_i

    @property
    def A(self) -> float:
        """``A(ω) = E‖Σπ_i x_i − x‖² = rad + orth``."""
        return self.rad + self.orth


def _envelope(y: np.ndarray, s: np.ndarray, w: np.ndarray, omega: float, n: int) -> np.ndarray:
    la = np.clip(y[:, None] - omega * s[None, :], -745, 700)
    a = np.exp(la)
    ea = np.exp(-a)
    phi = np.clip(ea @ w, 1e-300, 1.0)
    lead = (np.exp(la - a) + np.exp(2 * la - a)) @ w
    return n * lead * np.exp((n - 1) * np.log(phi)) + n * n * lead**2 * np.exp(
        max(n - 2, 0) * np.log(phi)
    )


@functools.cache
def window_terms(omega: float, n: int, d: int, *, m_y: int = 0) -> WindowTerms:
    """``N, rad, orth, EΣπ_i t_i`` at ``M = ωI`` by the exact quadrature (exact at ω = 0).

    Source: [derived] quadrature of [collins24] App. B.1's window terms (see the module docstring).

    Examples
    --------
    At ω = 0 the values are exact; a small ω is close to them:

    >>> w0, w1 = window_terms(0.0, 4, 3), window_terms(1e-3, 4, 3)
    >>> w0.N, bool(abs(w1.N - w0.N) < 1e-3 and abs(w1.A - w0.A) < 1e-3)
    (0.25, True)
    """
    if not (math.isfinite(omega) and 0 <= omega <= OMEGA_MAX):
        raise ValueError(f"omega must be in [0, {OMEGA_MAX:g}] for the quadrature, got {omega!r}")
    if n < 1 or d < 2:
        raise ValueError(f"need n ≥ 1 and d ≥ 2 (sphere S^(d-1)), got n={n}, d={d}")
    if omega == 0.0:
        return WindowTerms(
            0.0, n, d, N=1 / n, rad=1 + 1 / (n * d), orth=(1 - 1 / d) / n, mean_t=0.0
        )
    s, w = s_nodes(d, float(omega))
    Eu = float(np.exp(-omega * s) @ w)
    y_lo = math.log(1e-7 / (n * Eu))
    y_top = 2 * omega + math.log(200.0) + 10
    yc = np.linspace(y_lo, y_top, 240)
    g = _envelope(yc, s, w, omega, n)
    keep = np.nonzero(g > 1e-16 * g.max())[0]
    y_a = float(yc[max(int(keep[0]) - 2, 0)])
    y_b = float(yc[min(int(keep[-1]) + 2, len(yc) - 1)])
    m = m_y or _size(max(120, 4 * (y_b - y_a)))
    y, wy = _gl(y_a, y_b, m)
    la = np.clip(y[:, None] - omega * s[None, :], -745, 700)
    a = np.exp(la)
    ea = np.exp(-a)
    phi = np.clip(ea @ w, 1e-300, 1.0)
    lphi = np.log(phi)
    p1 = np.exp((n - 1) * lphi)
    p2 = np.exp(max(n - 2, 0) * lphi) if n >= 2 else np.zeros_like(phi)
    a2e = np.exp(2 * la - a)
    ae = np.exp(la - a)
    N = n * float((a2e @ w) * p1 @ wy)
    rad = float((n * ((a2e * s**2) @ w) * p1 + n * (n - 1) * ((ae * s) @ w) ** 2 * p2) @ wy)
    orth = n * float(((a2e * s * (2 - s)) @ w) * p1 @ wy)
    mt = n * float(((ae * (1 - s)) @ w) * p1 @ wy)
    return WindowTerms(float(omega), n, d, N=N, rad=rad, orth=orth, mean_t=mt)


def noise_term(omega: float, n: int, d: int) -> float:
    """``N(ω) = E Σπ_i²`` (quadrature).

    Examples
    --------
    N(0) = 1/n, and N increases with ω (Lemma D.2):

    >>> noise_term(0.0, 4, 3), bool(noise_term(2.0, 4, 3) > 0.25)
    (0.25, True)
    """
    return window_terms(float(omega), int(n), int(d)).N


def affine_risk_quad(omega: float, d: int, n: int, L: float, sigma2: float) -> float:
    """``𝓛_aff(ω) = (L²/(3d)) A(ω) + σ² N(ω)`` with A, N by quadrature.

    Source: [collins24] App. B.1 and Lemma C.4 (the affine class's split); A, N by quadrature.

    Examples
    --------
    At ω = 0 (the label average): (L²/(3d))(1 + 1/n) + σ²/n = (1/9)(5/4) + 0.1/4.

    >>> round(affine_risk_quad(0.0, 3, 4, 1.0, 0.1), 12)
    0.163888888889
    """
    wt = window_terms(float(omega), int(n), int(d))
    return affine_risk_split.raw(wt.A, wt.N, d, L, sigma2)


def t_cdf(t: np.ndarray | float, d: int) -> np.ndarray:
    """CDF ``F_d`` of ``t = x_iᵀx``, via :func:`scipy.special.betainc`.

    Examples
    --------
    At d = 3 the inner product t is uniform on [−1, 1] (Archimedes): F₃(t) = (1 + t)/2.

    >>> float(t_cdf(0.5, 3)), float(t_cdf(0.0, 7))
    (0.75, 0.5)
    """
    t = np.asarray(t, dtype=float)
    half = 0.5 * special.betainc((d - 1) / 2, 0.5, np.clip(1 - t * t, 0.0, 1.0))
    return np.where(t >= 0, 1 - half, half)


def a_infinity(n: int, d: int) -> float:
    """1-NN limit ``A(∞) = 2∫_{−1}^{1} F_d(t)^n dt``, by adaptive quadrature.

    Source: [collins24] Remark 2.1 (ii) (the 1-NN limit ω → ∞).

    Examples
    --------
    n = 1: E‖x₁ − x‖² = 2; d = 5, n = 20: the value 0.47411 of our derived-values table.

    >>> round(a_infinity(1, 5), 10), round(a_infinity(20, 5), 5)
    (2.0, 0.47411)
    """
    val, _ = integrate.quad(
        lambda t: float(t_cdf(t, d)) ** n,
        -1,
        1,
        limit=400,
        epsabs=1e-13,
        epsrel=1e-11,
        points=[0.0, 0.9, 0.99],
    )
    return 2 * val


def optimal_scale_affine(
    d: int, n: int, L: float, sigma2: float, *, rtol: float = ARGMIN_RTOL
) -> tuple[float, float]:
    """``(ω*, 𝓛*)`` of the affine class over ``M = ωI``: a log-grid bracket (extended upward while
    the minimum sits at its top), then bounded Brent on ``log ω`` (``xatol = rtol``: the minimum is
    flat).  ``ω* = 0`` when the risk increases from ω = 0 (constant tasks, ``L = 0``).

    Source: [collins24] App. B.1 / Lemma C.4 (the affine risk :func:`affine_risk_quad`).
    Skipped in the doctests (the quadrature over the grid takes ~0.5 s cold; outputs verified
    once by running): at ``L = 0`` the best is ``ω = 0`` with the label-average risk ``σ²/n``; at
    ``L = 1`` a finite ω* beats ω = 0:

    >>> w, r = optimal_scale_affine(3, 10, 0.0, 0.1)  # doctest: +SKIP
    >>> w, round(r, 12)  # doctest: +SKIP
    (0.0, 0.01)
    >>> w, r = optimal_scale_affine(3, 10, 1.0, 0.1)  # doctest: +SKIP
    >>> round(w, 2), r < affine_risk_quad(0.0, 3, 10, 1.0, 0.1)  # doctest: +SKIP
    (2.69, True)
    """

    def f(lw: float) -> float:
        return affine_risk_quad(float(math.exp(lw)), d, n, L, sigma2)

    grid = list(np.linspace(math.log(1e-2), math.log(64.0), 19))
    vals = [f(g) for g in grid]
    step = grid[1] - grid[0]
    while int(np.argmin(vals)) == len(grid) - 1 and math.exp(grid[-1]) < OMEGA_MAX / 2:
        grid.append(grid[-1] + step)
        vals.append(f(grid[-1]))
    r0 = affine_risk_quad(0.0, d, n, L, sigma2)
    i = int(np.argmin(vals))
    if i == 0 and r0 <= vals[0]:
        return 0.0, r0
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    res: Any = optimize.minimize_scalar(
        f, bounds=(lo, hi), method="bounded", options={"xatol": rtol}
    )
    return float(math.exp(res.x)), float(res.fun)
