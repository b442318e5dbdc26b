"""Hypothesis strategy for [zfb24] (slug lsa_flow) settings, Assumption 3 / Theorem 4."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from theory.lsa_flow.training import Assumption3Setting

__all__ = ["zfb24_settings"]


@st.composite
def zfb24_settings(draw: st.DrawFn, *, d: int | None = None) -> Assumption3Setting:
    """A validated :class:`~theory.lsa_flow.Assumption3Setting` ``(Lambda, N, sigma_init, Theta)``
    of zfb24 Assumption 3 / Theorem 4 (spec 004 §3):
    ``Λ = Q diag(λ) Qᵀ`` with λ_i ∈ [0.2, 3] and Q orthogonal (QR of a drawn matrix), N ∈ [1, 60],
    Θ = M₀/‖M₀M₀ᵀ‖_F^{1/2} (the paper's random scheme), and σ ∈ (0, 0.9·√(2/(√d‖Γ‖_op))) so that
    σ²‖Γ‖_op√d < 2 (Theorem 4's condition)."""
    d = draw(st.integers(1, 5)) if d is None else d
    fl = st.floats(-2.0, 2.0, allow_nan=False, allow_infinity=False)
    A = np.array(draw(st.lists(fl, min_size=d * d, max_size=d * d))).reshape(d, d) + 3.0 * np.eye(d)
    Q, R = np.linalg.qr(A)
    Q = Q * np.sign(np.diag(R))
    lam = np.array(draw(st.lists(st.floats(0.2, 3.0), min_size=d, max_size=d)))
    Lambda = (Q * lam) @ Q.T
    Lambda = 0.5 * (Lambda + Lambda.T)
    N = draw(st.integers(1, 60))
    g_op = (1 + 1 / N) * lam.max() + lam.sum() / N
    s_max = 0.9 * float(np.sqrt(2.0 / (np.sqrt(d) * g_op)))
    sigma_init = draw(st.floats(0.05 * s_max, s_max))
    M0 = np.array(draw(st.lists(fl, min_size=d * d, max_size=d * d))).reshape(d, d) + np.eye(d)
    Theta = M0 / np.sqrt(np.linalg.norm(M0 @ M0.T))
    return Assumption3Setting(Lambda=Lambda, N=N, sigma_init=sigma_init, Theta=Theta)
