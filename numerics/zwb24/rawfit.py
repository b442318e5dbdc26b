"""[zwb24] §4 Table 1: the raw LTB's (3.3) / LSA's (3.4) squared loss in
sufficient statistics, its closed-form gradient and the curvature of its Hessian (numpy; the routes
of the raw-weight fit in :mod:`sims.zwb24.train`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["RawLoss", "np_unpack", "curvature"]


def np_unpack(x: np.ndarray, d: int, mlp: bool) -> dict[str, np.ndarray]:
    """The raw weights ``W_K, W_Q, W_V, W_P[, W_1, W_2]`` ((d+1)×(d+1) each) of the flat ``x``
    (``(4(d+1)²,)``, or ``(6(d+1)²,)`` with the MLP; row-major, in that order): [zwb24] (3.3)/(3.4).

    >>> P = np_unpack(np.arange(16.0), 1, False)
    >>> list(P), P["W_Q"]
    (['W_K', 'W_Q', 'W_V', 'W_P'], array([[4., 5.],
           [6., 7.]]))
    """
    D = d + 1
    names = ("W_K", "W_Q", "W_V", "W_P") + (("W_1", "W_2") if mlp else ())
    return {n: x[i * D * D : (i + 1) * D * D].reshape(D, D) for i, n in enumerate(names)}


class RawLoss:
    """The raw LTB's loss ``θ ↦ E[(y_q − ŷ)²] − σ² = tr(H (ttᵀ − C Ftᵀ − tFᵀCᵀ + C FFᵀ Cᵀ))`` in
    the context sample moments ``FFᵀ, Ftᵀ, ttᵀ`` (query averaged over x_q ~ N(0, H); ``ŷ = x_qᵀ
    C(θ) F``) and its gradient in closed form (numpy; chain rule through ``C(θ)``: ``∂L/∂C =
    2H(C FFᵀ − (Ftᵀ))``), ~50x faster than autograd at these sizes (compared in tests/zwb24).

    Moments: ``FF (p, p)``, ``Ft (p, d)``, ``tt (d, d)`` with ``p = d² + d + 2``; ``H (d, d)``.
    At zero weights the prediction is 0 and the loss is ``tr(H ttᵀ)``; the gradient matches a
    central difference:

    >>> rng = np.random.default_rng(0)
    >>> F, t = rng.standard_normal((4, 50)), rng.standard_normal((1, 50))
    >>> m = {"FF": F @ F.T / 50, "Ft": F @ t.T / 50, "tt": t @ t.T / 50}
    >>> L = RawLoss(m, np.eye(1), 1, False)
    >>> bool(np.isclose(L.value(np.zeros(16)), (t @ t.T / 50)[0, 0]))
    True
    >>> x, e = 0.3 * rng.standard_normal(16), 1e-6 * np.eye(16)[3]
    >>> bool(np.isclose(L.grad(x)[1][3], (L.value(x + e) - L.value(x - e)) / 2e-6, rtol=1e-6))
    True
    """

    def __init__(self, m: Mapping[str, np.ndarray], H: np.ndarray, d: int, mlp: bool) -> None:
        self.FF, self.Ft, self.tt = (np.array(m[k], dtype=float) for k in ("FF", "Ft", "tt"))
        self.H, self.d, self.mlp = np.array(H, dtype=float), d, mlp

    def _parts(self, x: np.ndarray) -> tuple[Any, ...]:
        d, D = self.d, self.d + 1
        P = np_unpack(x, d, self.mlp)
        U = np.eye(D) + (P["W_2"] @ P["W_1"] if self.mlp else 0.0)
        u = U[d, :]
        PV = P["W_P"] @ P["W_V"]
        v = PV.T @ u
        Q = P["W_K"].T @ P["W_Q"]
        W, w, v1, v2 = Q[:d, :d], Q[d, :d], v[:d], v[d]
        C = np.concatenate(
            [
                u[:d, None],
                np.einsum("ji,k->ijk", W, v1).reshape(d, d * d),
                v2 * W.T + np.outer(w, v1),
                (v2 * w)[:, None],
            ],
            axis=1,
        )
        return P, u, PV, v, W, w, v1, v2, C

    def value(self, x: np.ndarray) -> float:
        C = self._parts(x)[-1]
        CFt = C @ self.Ft
        return float(np.trace(self.H @ (self.tt - CFt - CFt.T + C @ self.FF @ C.T)))

    def grad(self, x: np.ndarray) -> tuple[float, np.ndarray]:
        d, D = self.d, self.d + 1
        P, u, PV, _, W, w, v1, v2, C = self._parts(x)
        CFt = C @ self.Ft
        f = float(np.trace(self.H @ (self.tt - CFt - CFt.T + C @ self.FF @ C.T)))
        GC = 2.0 * self.H @ (C @ self.FF - self.Ft.T)
        G1, GS = GC[:, 0], GC[:, 1 : 1 + d * d].reshape(d, d, d)
        Gs, Gq = GC[:, 1 + d * d : 1 + d * d + d], GC[:, -1]
        dW = (np.einsum("ijk,k->ij", GS, v1) + v2 * Gs).T
        dw = Gs @ v1 + v2 * Gq
        dv = np.concatenate(
            [np.einsum("ijk,ji->k", GS, W) + Gs.T @ w, [float(np.sum(Gs * W.T) + Gq @ w)]]
        )
        dQ = np.zeros((D, D))
        dQ[:d, :d], dQ[d, :d] = dW, dw
        du = PV @ dv
        du[:d] += G1
        dPV = np.outer(u, dv)
        g = {
            "W_K": P["W_Q"] @ dQ.T,
            "W_Q": P["W_K"] @ dQ,
            "W_V": P["W_P"].T @ dPV,
            "W_P": dPV @ P["W_V"].T,
        }
        if self.mlp:
            dM = np.zeros((D, D))
            dM[d, :] = du
            g["W_1"], g["W_2"] = P["W_2"].T @ dM, dM @ P["W_1"].T
        return f, np.concatenate([g[k].ravel() for k in np_unpack(x, d, self.mlp)])


def curvature(
    L: RawLoss, x: np.ndarray, rng: np.random.Generator, iters: int = 20
) -> tuple[float, float]:
    """``(ρ, λ_min)``: spectral radius and smallest eigenvalue of the loss Hessian at ``x``, by
    power iteration on central-difference Hessian-vector products of the closed-form gradient
    (λ_min from the PSD ``ρI − Hess``).

    Against the dense central-difference Hessian of the gradient (d = 1, 16 weights; power
    iteration, 20 steps, to ~1e-4):

    >>> rng = np.random.default_rng(0)
    >>> F, t = rng.standard_normal((4, 50)), rng.standard_normal((1, 50))
    >>> m = {"FF": F @ F.T / 50, "Ft": F @ t.T / 50, "tt": t @ t.T / 50}
    >>> L = RawLoss(m, np.eye(1), 1, False)
    >>> x, E = 0.3 * rng.standard_normal(16), 1e-5 * np.eye(16)
    >>> Hs = np.array([(L.grad(x + e)[1] - L.grad(x - e)[1]) / 2e-5 for e in E])
    >>> ev = np.linalg.eigvalsh((Hs + Hs.T) / 2)
    >>> rho, lmin = curvature(L, x, np.random.default_rng(0))
    >>> bool(np.isclose(rho, np.abs(ev).max(), rtol=1e-3)), bool(np.isclose(lmin, ev[0], rtol=1e-3))
    (True, True)
    """
    eps = 1e-6 * max(1.0, float(np.linalg.norm(x)))

    def hv(v: np.ndarray) -> np.ndarray:
        return (L.grad(x + eps * v)[1] - L.grad(x - eps * v)[1]) / (2 * eps)

    def power(op: Any) -> float:
        v = rng.standard_normal(x.size)
        v /= np.linalg.norm(v)
        lam = 0.0
        for _ in range(iters):
            w = op(v)
            lam = float(v @ w)
            nv = float(np.linalg.norm(w))
            if nv == 0.0:
                break
            v = w / nv
        return lam

    rho = abs(power(hv))  # spectral radius (>= lambda_max: the GD step 1/rho is stable)
    lmin = rho - power(lambda v: rho * v - hv(v))
    return rho, lmin
