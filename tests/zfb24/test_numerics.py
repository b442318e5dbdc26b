"""zfb24 numerics beyond pass/fail: Theorem 4 outside Assumption 3 is informational only, and the
Theorem 4 limit for Hypothesis-drawn settings (SOLVER).  Every check's pass status and its negative
controls (wrong Γ, symmetrised/transposed ODE term, Λ⁻¹ in place of Γ⁻¹) are declared in
``theory/zfb24/results.py`` and run by ``tests/test_registry.py``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings

import numerics.zfb24 as NL
import theory.zfb24 as T
from numerics.testing import assert_passed, solver_agreement
from theory.strategies import zfb24_settings


@pytest.mark.ode
@pytest.mark.result("zfb24:thm4")
def test_thm4_beyond_condition_is_informational(declared_run) -> None:
    ev, error = declared_run("numerics.zfb24.sec4_1_convergence:check_thm4_ode_beyond_condition")
    assert error is None
    assert ev and all(e.informational for e in ev)


@pytest.mark.ode
@pytest.mark.result("zfb24:thm4")
@settings(max_examples=3)
@given(zfb24_settings(d=2))
@example(
    T.Assumption3Setting(Lambda=np.diag([0.5, 2.0]), N=4, sigma_init=0.3, Theta=np.eye(2) / 2**0.25)
)
def test_thm4_limit_for_drawn_settings(s: T.Assumption3Setting) -> None:
    """Theorem 4 limit in solver units and balancedness for Hypothesis-drawn settings (d = 2)."""
    L, N, sigma, Th = s.Lambda_array, s.N, s.sigma_init, s.Theta_array
    U0, u0 = T.initial_state(Th, sigma)
    tr = NL.integrate_flow(L, N, U0, u0, 4000.0, solver=NL.STIFF)
    Uf, uf = NL.unpack(tr.final, 2)
    Ue, ue = T.limit_params_fn(L, N)
    assert_passed(
        [
            solver_agreement("limit", NL.pack(Uf, uf), NL.pack(Ue, ue)),
            solver_agreement("balance", uf**2, float(np.sum(Uf**2))),
        ]
    )
