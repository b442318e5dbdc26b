"""[zwb24] §5 Theorem 5.2 against [zfb24] Theorem 4: at β* = 0, Ψ = I, H = Λ the GD-β optimum
Γ* is zfb24's Γ⁻¹ (σ = 0) and its derived Γ_s⁻¹ (label noise s²) (the cross-paper
check).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from numerics.testing import FLOAT_RTOL, close_agreement, exact_agreement
from theory.common.protocols import Evidence
from theory.zwb24 import optimal_gamma
from theory.zwb24.settings import Setting

__all__ = ["check_cross_zfb24_float"]


def check_cross_zfb24_float(
    setting: Setting,
    *,
    quick: bool = True,
    seed: int = 0,
    fault_gamma_fn: Callable[..., Any] | None = None,
) -> list[Evidence]:
    """zwb24 ↔ zfb24: at ``β* = 0, σ = 0, Ψ = I, H = Λ`` the GD-β optimum Γ* equals zfb24's
    ``Γ⁻¹`` (``theory.zfb24.gamma``), and with label noise s² it equals zfb24's derived
    ``Γ_s⁻¹`` (``theory.zfb24.gamma_noisy``); exact at d = 1 with symbols."""
    d = setting.d
    N = setting.N
    s2 = setting.sigma2
    gamma_fn = optimal_gamma if fault_gamma_fn is None else fault_gamma_fn
    from theory import zfb24 as lsa_flow

    rng = np.random.default_rng(seed)
    A = rng.standard_normal((d, d))
    Lam = A @ A.T / d + 0.2 * np.eye(d)
    I = np.eye(d)
    G0 = gamma_fn(Lam, I, 0.0, N)
    ref0 = np.linalg.inv(np.asarray(lsa_flow.gamma(Lam, N), float))
    out = [
        close_agreement(
            "Gamma*(H=Lambda, Psi=I, sigma=0) == zfb24 Gamma^-1",
            G0,
            ref0,
            kind="FLOAT",
            atol=FLOAT_RTOL * 100 * float(np.max(np.abs(ref0))),
        )
    ]
    Gs = gamma_fn(Lam, I, s2, N)
    refs = np.linalg.inv(np.asarray(lsa_flow.gamma_noisy(Lam, N, s2), float))
    out.append(
        close_agreement(
            f"Gamma*(H=Lambda, Psi=I, sigma^2={s2}) == zfb24 Gamma_s^-1",
            Gs,
            refs,
            kind="FLOAT",
            atol=FLOAT_RTOL * 100 * float(np.max(np.abs(refs))),
        )
    )
    Ns, lam, ss = sp.symbols("N lambda s2", positive=True)
    out.append(
        exact_agreement(
            "d=1 symbolic: Gamma*(lambda, 1, s2, N) == 1/Gamma_s(lambda, N, s2)",
            gamma_fn(sp.Matrix([[lam]]), sp.eye(1), ss, Ns)[0, 0],
            1 / lsa_flow.gamma_noisy(sp.Matrix([[lam]]), Ns, ss)[0, 0],
        )
    )
    return out
