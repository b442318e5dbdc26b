"""BFGS on the exact zwb24 risk formulas.

Gradients are forward-mode derivatives of the same closed form,
:func:`theory.zwb24.sec3_risk.ltb_risk_expr` evaluated once on :class:`Jet` objects carrying
all ``p`` directional derivatives at once (:data:`GRADIENT`), instead of one risk evaluation per
parameter for the complex-step derivative :func:`cs_grad` (exact to machine precision too, the
formula is bilinear and never conjugates; kept as the independent route of the stationarity checks).
Argmins are accurate to ~1e-9.  Everything is in whitened coordinates: parameters
``(a, b, Γ̄, φ)``, data ``(Ψ̄, μ̄)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import minimize

from theory.common.backend import NP, psd_sqrt
from theory.settings import LinearRegressionICL
from theory.zwb24 import lsa_risk_floor, optimal_gamma_whitened, optimal_risk, whiten
from theory.zwb24.sec3_risk import ltb_risk_expr

__all__ = [
    "GRADIENT",
    "Jet",
    "OptResult",
    "minimise",
    "min_gd_beta",
    "min_ltb",
    "inf_lsa",
    "polish",
    "newton_polish",
    "fd_hessian",
    "NEWTON_HESS_STEP",
    "NEWTON_RCOND",
    "NEWTON_STEPS",
    "cs_grad",
    "gap_grid",
    "risk_plain_complex",
    "table1_levels",
    "value_and_grad",
]

_H = 1e-30  # complex step

#: How :func:`minimise` differentiates the risk (recorded in the rows that use its minima).
GRADIENT = "forward-mode (all directions in one pass) of the closed-form risk"


@dataclass(frozen=True, slots=True)
class OptResult:
    """A multi-start minimum: ``value`` (best minimum), ``x`` (flat argmin, ``(p,)``), ``values``
    (the minimum of every restart) and ``parts`` (the argmin split into named parameters, e.g.
    ``a, b (d,)``, ``Gamma (d, d)``, ``phi (d,)`` in whitened coordinates).

    >>> rng = np.random.default_rng(0)
    >>> r = min_gd_beta(np.eye(1), np.array([2.0]), 0.0, 5, rng=rng, restarts=1)
    >>> sorted(r.parts), r.x.shape, len(r.values)
    (['Gamma', 'beta'], (2,), 1)
    """

    value: float  # best minimum found
    x: np.ndarray  # argmin (flat)
    values: tuple[float, ...]  # minimum of every restart
    parts: dict  # argmin split into named parameters


def cs_grad(f: Callable[[np.ndarray], complex], x: np.ndarray) -> np.ndarray:
    """Complex-step gradient ``Im f(x + i h e_k)/h`` (exact for analytic ``f``).

    ``x (p,)`` → ``(p,)``. By hand, ``f = x₀² x₁ + sin x₁`` at ``(2, 0)``: ``∇f = (2x₀x₁, x₀² +
    cos x₁) = (0, 5)``:

    >>> cs_grad(lambda x: x[0] ** 2 * x[1] + np.sin(x[1]), np.array([2.0, 0.0]))
    array([0., 5.])
    """
    g = np.empty(x.size)
    for k in range(x.size):
        xc = x.astype(complex)
        xc[k] += 1j * _H
        g[k] = np.imag(f(xc)) / _H
    return g


class Jet:
    """A value with its derivatives along ``p`` directions (forward mode, all directions in one
    pass): ``val`` of shape ``S`` and ``tan`` of shape ``(p,) + S``.  Supports the operations of
    :func:`~theory.zwb24.sec3_risk.ltb_risk_expr` on vectors and matrices (``+ − * / ** @ .T``,
    slicing, ``reshape``), with plain arrays and scalars as constants.

    By hand, ``d(x²)/dx = 2x`` and ``d(x₀x₁)/dx = (x₁, x₀)``:

    >>> (Jet.seed(np.array([3.0])) ** 2).tan.ravel()
    array([6.])
    >>> x = Jet.seed(np.array([2.0, 5.0]))
    >>> float((x[0] * x[1]).val), (x[0] * x[1]).tan
    (10.0, array([5., 2.]))
    """

    __array_ufunc__ = None  # ndarray (op) Jet defers to Jet's reflected operation

    def __init__(self, val: Any, tan: Any) -> None:
        self.val, self.tan = np.asarray(val), np.asarray(tan)

    @staticmethod
    def seed(x: np.ndarray) -> Jet:
        """The independent variables ``x``: derivative the identity."""
        return Jet(np.asarray(x, dtype=float), np.eye(np.size(x)))

    @property
    def shape(self) -> tuple[int, ...]:
        return self.val.shape

    @property
    def T(self) -> Jet:
        return Jet(self.val.T, np.swapaxes(self.tan, -1, -2))

    def reshape(self, *shape: int) -> Jet:
        return Jet(self.val.reshape(*shape), self.tan.reshape(self.tan.shape[0], *shape))

    def __getitem__(self, k: Any) -> Jet:
        return Jet(self.val[k], self.tan[(slice(None), k)])

    def _t(self, ndim: int) -> np.ndarray:
        """``tan`` broadcast against a value of ``ndim`` axes."""
        return self.tan.reshape(self.tan.shape[:1] + (1,) * (ndim - self.val.ndim) + self.val.shape)

    def __add__(self, o: Any) -> Jet:
        if not isinstance(o, Jet):
            return Jet(self.val + o, self.tan)
        v = self.val + o.val
        return Jet(v, self._t(v.ndim) + o._t(v.ndim))

    __radd__ = __add__

    def __neg__(self) -> Jet:
        return Jet(-self.val, -self.tan)

    def __sub__(self, o: Any) -> Jet:
        return self + (-o)

    def __rsub__(self, o: Any) -> Jet:
        return (-self) + o

    def __mul__(self, o: Any) -> Jet:
        if not isinstance(o, Jet):
            o = np.asarray(o)
            v = self.val * o
            return Jet(v, self._t(v.ndim) * o)
        v = self.val * o.val
        return Jet(v, self._t(v.ndim) * o.val + self.val * o._t(v.ndim))

    __rmul__ = __mul__

    def __truediv__(self, o: float) -> Jet:
        return self * (1.0 / o)

    def __pow__(self, n: int) -> Jet:
        v = self.val**n
        return Jet(v, self.tan * (n * self.val ** (n - 1)))

    def __matmul__(self, o: Any) -> Jet:
        if not isinstance(o, Jet):
            return Jet(self.val @ o, self.tan @ o)
        return Jet(self.val @ o.val, self.tan @ o.val + _const_matmul(self.val, o.tan))

    def __rmatmul__(self, o: Any) -> Jet:
        return Jet(o @ self.val, _const_matmul(np.asarray(o), self.tan))


def _const_matmul(A: np.ndarray, tB: np.ndarray) -> np.ndarray:
    """``A @ B`` for each of the ``p`` tangents ``tB`` of ``B`` (``B`` a vector or a matrix)."""
    return tB @ A.T if tB.ndim == 2 else np.matmul(A, tB)


class _JetOps:
    """The backend operations :func:`~theory.zwb24.sec3_risk.ltb_risk_expr` uses, on :class:`Jet`
    objects (so the gradient is the formula as written, differentiated in forward mode)."""

    symbolic = False

    @staticmethod
    def eye(d: int) -> np.ndarray:
        return np.eye(d)

    @staticmethod
    def tr(M: Any) -> Any:
        if not isinstance(M, Jet):
            return np.trace(M)
        return Jet(np.trace(M.val), np.trace(M.tan, axis1=-2, axis2=-1))

    @staticmethod
    def dot(u: Any, v: Any) -> Any:
        return u @ v

    @staticmethod
    def outer(u: Jet, v: Jet | None = None) -> Jet:
        w = u if v is None else v
        return u.reshape(-1, 1) * w.reshape(1, -1)


Risk = Callable[..., Any]  # risk(ops, x, *data) -> scalar, written once for NP and Jet


def value_and_grad(
    risk: Risk, *data: np.ndarray
) -> Callable[[np.ndarray], tuple[float, np.ndarray]]:
    """``x ↦ (risk(x), ∇risk(x))`` in one forward-mode pass of ``risk`` on :class:`Jet` objects (all
    ``x.size`` directions at once, exact like the complex step, at about the cost of a few risk
    evaluations instead of one per parameter).

    ``risk(ops, x, *data)`` with ``x (p,)`` → ``(float, (p,))``. By hand, ``R(x) = x·x`` at
    ``(1, 2)``: ``R = 5``, ``∇R = 2x = (2, 4)``:

    >>> value_and_grad(lambda ops, x: x @ x)(np.array([1.0, 2.0]))
    (5.0, array([2., 4.]))
    """

    def vg(x: np.ndarray) -> tuple[float, np.ndarray]:
        r = risk(_JetOps, Jet.seed(x), *data)
        return float(r.val), np.array(r.tan, dtype=float)

    return vg


def _numpy_risk(risk: Risk, *data: np.ndarray) -> Callable[[np.ndarray], complex]:
    return lambda x: risk(NP, x, *data)


def minimise(
    f: Callable[[np.ndarray], complex],
    starts: list[np.ndarray],
    *,
    grad: Callable[[np.ndarray], tuple[float, np.ndarray]] | None = None,
) -> tuple[np.ndarray, list[float]]:
    """BFGS from every start; returns the best argmin and all restart minima.  ``grad``: value and
    gradient (:func:`value_and_grad`); without it, the complex-step gradient of ``f``.

    ``starts``: list of ``(p,)`` → (argmin ``(p,)``, list of restart minima). By hand, the
    quadratic ``(x₀ − 1)² + (x₁ + 2)²`` has its minimum 0 at ``(1, −2)``:

    >>> x, vals = minimise(lambda x: (x[0] - 1) ** 2 + (x[1] + 2) ** 2, [np.zeros(2)])
    >>> bool(np.allclose(x, [1.0, -2.0])), bool(vals[0] < 1e-20)
    (True, True)
    """
    best, vals = None, []
    for x0 in starts:
        if grad is not None:
            fun, jac = grad, True
        else:
            fun, jac = (lambda x: float(np.real(f(x)))), (lambda x: cs_grad(f, x))
        res = minimize(fun, x0, jac=jac, method="BFGS", options={"gtol": 1e-13, "maxiter": 20000})
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
    """``min over (Γ̄, β̄)`` of the GD-β risk (= LTB risk at ``a = b = β̄, φ = 0``).

    Whitened data ``P = Ψ̄ (d, d)``, ``mu = μ̄ (d,)``; parts ``Gamma (d, d)``, ``beta (d,)``.
    Source: [zwb24] Theorem 5.2, eq. (5.2): the minimum is ``R*``
    (:func:`theory.zwb24.optimal_risk`), for ``d = 1``, ``Ψ̄ = 1``, ``σ = 0``, ``N = 5``:
    ``R* = 2/7``, whatever ``μ̄``:

    >>> rng = np.random.default_rng(0)
    >>> r = min_gd_beta(np.eye(1), np.array([2.0]), 0.0, 5, rng=rng, restarts=1)
    >>> round(r.value, 9), round(2 / 7, 9)
    (0.285714286, 0.285714286)
    """
    d = P.shape[0]

    def risk(ops: Any, x: Any, P: Any, mu: Any) -> Any:
        p = _split(x, d, ("Gamma", "beta"))
        return ltb_risk_expr(ops, p["beta"], p["beta"], p["Gamma"], 0 * p["beta"], P, mu, s2, N)

    f = _numpy_risk(risk, P, mu)
    starts = _starts(rng, d * d + d, restarts, [])
    x, vals = minimise(f, starts, grad=value_and_grad(risk, P, mu))
    return OptResult(float(np.real(f(x))), x, tuple(vals), _split(x, d, ("Gamma", "beta")))


def min_ltb(
    P: np.ndarray, mu: np.ndarray, s2: float, N: int, *, rng: np.random.Generator, restarts: int = 3
) -> OptResult:
    """``min over (a, b, Γ̄, φ)`` of the general LTB risk.

    Whitened data ``P = Ψ̄ (d, d)``, ``mu = μ̄ (d,)``; parts ``a, b, phi (d,)``, ``Gamma (d, d)``.
    Source: [zwb24] Theorem 5.3: the LTB minimum equals GD-β's ``R*`` (Theorem 5.2, eq. (5.2)),
    ``2/7`` at ``d = 1``, ``Ψ̄ = 1``, ``σ = 0``, ``N = 5`` (the orbit of minima is flat, so BFGS
    stops ~1e-7 above it from some starts):

    >>> r = min_ltb(np.eye(1), np.array([2.0]), 0.0, 5, rng=np.random.default_rng(1), restarts=1)
    >>> round(r.value, 6), round(2 / 7, 6)
    (0.285714, 0.285714)
    """
    d = P.shape[0]
    names = ("a", "b", "Gamma", "phi")

    def risk(ops: Any, x: Any, P: Any, mu: Any) -> Any:
        p = _split(x, d, names)
        return ltb_risk_expr(ops, p["a"], p["b"], p["Gamma"], p["phi"], P, mu, s2, N)

    f = _numpy_risk(risk, P, mu)
    starts = _starts(rng, 3 * d + d * d, restarts, [])
    x, vals = minimise(f, starts, grad=value_and_grad(risk, P, mu))
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
    """``inf over (b, Γ̄, φ)`` of the LSA risk (``a = 0``), multi-start (Appendix A).

    Structured starts: the optimal GD-0 (``b = 0``, ``Γ̄`` optimal for ``Ψ̄ + μ̄μ̄ᵀ``, ``φ = 0``) and
    the centred start (``b = μ̄``, ``Γ̄ = Γ̄*``); plus ``restarts`` random ones.  ``phi_zero``:
    the sub-family without the quadratic statistic (``φ = 0``; Thm 4.1 (vi)).

    Whitened data ``P = Ψ̄ (d, d)``, ``mu = μ̄ (d,)``; parts ``b (d,)``, ``Gamma (d, d)``,
    ``phi (d,)``. At ``d = 1``, ``σ = 0`` the LSA floor ``σ² + 2(‖μ̄‖² + tr Ψ̄)/(N + 2)``
    ([zwb24] Theorem 4.1) is attained: ``10/7`` at ``Ψ̄ = 1``, ``μ̄ = 2``, ``N = 5``:

    >>> r = inf_lsa(np.eye(1), np.array([2.0]), 0.0, 5, rng=np.random.default_rng(0), restarts=0)
    >>> round(r.value, 9), round(10 / 7, 9)
    (1.428571429, 1.428571429)
    """
    d = P.shape[0]
    names = ("b", "Gamma") if phi_zero else ("b", "Gamma", "phi")
    z = np.zeros(d)

    def risk(ops: Any, x: Any, P: Any, mu: Any) -> Any:
        p = _split(x, d, names)
        zero = 0 * p["b"]
        return ltb_risk_expr(ops, zero, p["b"], p["Gamma"], p.get("phi", zero), P, mu, s2, N)

    f = _numpy_risk(risk, P, mu)
    G0 = np.asarray(optimal_gamma_whitened(P + np.outer(mu, mu), s2, N))
    Gs = np.asarray(optimal_gamma_whitened(P, s2, N))
    tail = [] if phi_zero else [z]
    structured = [np.concatenate([z, G0.ravel(), *tail]), np.concatenate([mu, Gs.ravel(), *tail])]
    starts = _starts(rng, d + d * d + len(tail) * d, restarts, structured)
    x, vals = minimise(f, starts, grad=value_and_grad(risk, P, mu))
    return OptResult(float(np.real(f(x))), x, tuple(vals), _split(x, d, names))


def polish(
    P: np.ndarray, mu: np.ndarray, s2: float, N: int, start: dict, *, lsa: bool
) -> OptResult:
    """BFGS on the exact (whitened) LTB / LSA risk from the given effective parameters: finds the
    stationary point whose basin ``start`` lies in (used to classify trained models that stop at a
    spurious local minimum).  Gradient: the complex step (:func:`cs_grad`).  Near the degenerate
    (orbit) minima it polishes, BFGS ends on a line-search precision loss whose stopping point
    depends on the gradient's last-bit rounding (|∇R| ≈ 1e-12 at the spurious β* = 0 minimum with
    this gradient, ≈ 3e-7 with :data:`GRADIENT`), so :func:`newton_polish` finishes the job
    (|∇R| ≈ 3e-14 there).

    Whitened data ``P (d, d)``, ``mu (d,)``; ``start``: the named parameters (``b, Gamma, phi``
    for ``lsa``, else also ``a``). From a start in the global basin at ``d = 1``, ``Ψ̄ = 1``,
    ``μ̄ = 2``, ``σ = 0``, ``N = 5``: the LTB reaches ``R* = 2/7`` ([zwb24] Theorems 5.2-5.3), the
    LSA its floor ``10/7`` (Theorem 4.1):

    >>> P, mu = np.eye(1), np.array([2.0])
    >>> s = {"a": [0.5], "b": [0.5], "Gamma": [[0.5]], "phi": [0.0]}
    >>> round(polish(P, mu, 0.0, 5, s, lsa=False).value, 9), round(2 / 7, 9)
    (0.285714286, 0.285714286)
    >>> round(polish(P, mu, 0.0, 5, s, lsa=True).value, 9), round(10 / 7, 9)
    (1.428571429, 1.428571429)
    """
    d = P.shape[0]
    names = ("b", "Gamma", "phi") if lsa else ("a", "b", "Gamma", "phi")

    def risk(ops: Any, x: Any, P: Any, mu: Any) -> Any:
        p = _split(x, d, names)
        a = p["a"] if "a" in p else 0 * p["b"]
        return ltb_risk_expr(ops, a, p["b"], p["Gamma"], p["phi"], P, mu, s2, N)

    f = _numpy_risk(risk, P, mu)
    x0 = np.concatenate([np.ravel(start[n]) for n in names])
    x, vals = minimise(f, [x0])
    x = newton_polish(f, x)
    return OptResult(float(np.real(f(x))), x, tuple(vals), _split(x, d, names))


#: Newton polish after BFGS (:func:`newton_polish`): central-difference step of the Hessian of the
#: complex-step gradient (error O(h²) ≈ 1e-10 relative), ...
NEWTON_HESS_STEP = 1e-5
#: ... the relative cut-off of its pseudo-inverse (the symmetry orbit's null direction, whose
#: eigenvalue is at the finite-difference error, is not inverted), ...
NEWTON_RCOND = 1e-7
#: ... and at most this many steps (quadratic convergence from BFGS's |∇R| ≲ 1e-7).
NEWTON_STEPS = 4


def fd_hessian(f: Callable[[np.ndarray], complex], x: np.ndarray, h: float) -> np.ndarray:
    """The symmetrised central-difference Hessian (step ``h``) of the complex-step gradient
    :func:`cs_grad` of ``f`` at ``x`` (error O(h²)).

    ``x (p,)`` → ``(p, p)``. By hand, ``f = x₀² x₁ + sin x₁`` at ``(2, 0)``: the Hessian is
    ``[[2x₁, 2x₀], [2x₀, −sin x₁]] = [[0, 4], [4, 0]]``:

    >>> H = fd_hessian(lambda x: x[0] ** 2 * x[1] + np.sin(x[1]), np.array([2.0, 0.0]), 1e-3)
    >>> bool(np.allclose(H, [[0.0, 4.0], [4.0, 0.0]], atol=1e-8))
    True
    """
    Hs = np.empty((x.size, x.size))
    for k in range(x.size):
        e = np.zeros_like(x)
        e[k] = h
        Hs[:, k] = (cs_grad(f, x + e) - cs_grad(f, x - e)) / (2 * h)
    return 0.5 * (Hs + Hs.T)


def newton_polish(f: Callable[[np.ndarray], complex], x: np.ndarray) -> np.ndarray:
    """Newton steps ``x ← x − H⁺ ∇R`` on a BFGS end point, each kept only if it lowers the
    complex-step gradient's norm: BFGS stops on a line-search precision loss whose |∇R| depends on
    the last bits of its gradient (1e-12 … 3e-7 at the β* = 0 orbit minimum, by gradient route);
    from there Newton converges quadratically to machine precision.  ``H⁺`` is the pseudo-inverse
    of the symmetrised central-difference Hessian (cut-off :data:`NEWTON_RCOND`), so a flat
    symmetry direction is left alone rather than amplified.

    ``x (p,)`` → ``(p,)``. On a quadratic one Newton step is exact: ``(x₀ − 1)² + 3(x₁ + 2)²``
    from the origin lands on ``(1, −2)``:

    >>> newton_polish(lambda x: (x[0] - 1) ** 2 + 3 * (x[1] + 2) ** 2, np.zeros(2))
    array([ 1., -2.])
    """
    x = np.asarray(x, dtype=float)
    g = cs_grad(f, x)
    for _ in range(NEWTON_STEPS):
        Hs = fd_hessian(f, x, NEWTON_HESS_STEP)
        step = np.linalg.pinv(Hs, rcond=NEWTON_RCOND, hermitian=True) @ g
        x_new = x - step
        g_new = cs_grad(f, x_new)
        if not np.linalg.norm(g_new) < np.linalg.norm(g):
            break
        x, g = x_new, g_new
    return x


def gap_grid(
    Ns: tuple[int, ...],
    mus: tuple[float, ...],
    *,
    sigma2: float = 0.25,
    d: int = 2,
    seed: int = 0,
    restarts: int = 1,
) -> np.ndarray:
    """``inf_LSA − R*`` for ``H = Ψ = I_d``, ``β* = μ·1/√d`` on a grid (rows N, columns μ).

    Returns ``(len(Ns), len(mus))``. Source: [zwb24] Section 4 / Appendix A; at ``d = 1``,
    ``σ = 0`` the gap is exactly ``2μ²/(N + 2)`` (``8/7`` at ``N = 5``, ``μ = 2``):

    >>> bool(np.allclose(gap_grid((5,), (2.0,), sigma2=0.0, d=1, restarts=0), [[8 / 7]]))
    True
    """
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
    """The GD-β risk in plain (unwhitened) coordinates, ``x = (vec Γ (d·d), β (d,)) ↦ R``, as a
    function accepting complex ``x`` (for :func:`cs_grad`). Data ``H, Psi (d, d)``,
    ``bs = β* (d,)``.

    Source: [zwb24] the LTB risk (Section 3) at ``a = b = β``, ``φ = 0``. At ``Γ = 0``, ``β = 0``
    the prediction is 0 and the risk is ``E y² = σ² + tr(HΨ) + ‖β*‖_H²`` (``5`` for ``d = 1``,
    ``H = Ψ = 1``, ``β* = 2``, ``σ = 0``):

    >>> f = risk_plain_complex(np.eye(1), np.eye(1), np.array([2.0]), 0.0, 5)
    >>> float(np.real(f(np.zeros(2))))
    5.0
    """
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
    random restarts) and the LSA floor (Thm 4.1 (ii)), keyed ``R_star``, ``inf_lsa``, ``floor``.

    Appendix A's last case (``d = 1``, ``σ = 0``, ``N = 20``, ``μ = 4``): the gap
    ``inf_LSA − R*`` is ``1.454545`` and the floor is attained:

    >>> from theory.zwb24.settings import table1_setting
    >>> s = table1_setting(d=1, N=20, sigma2=0.0, beta_norm=4.0)
    >>> lv = table1_levels(s, rng=np.random.default_rng(0))
    >>> round(lv["inf_lsa"] - lv["R_star"], 6), bool(np.isclose(lv["inf_lsa"], lv["floor"]))
    (1.454545, True)
    """
    H, Psi, bs = setting.Sigma_x, setting.task_cov, setting.task_mean
    s2, N = setting.noise_var, setting.N
    P, mu = whiten(H, Psi, bs)
    return {
        "R_star": optimal_risk(H, Psi, s2, N),
        "inf_lsa": inf_lsa(P, mu, s2, N, rng=rng).value,
        "floor": lsa_risk_floor(H, Psi, bs, s2, N),
    }
