"""numerics.ode: structural laws (t = 0, semigroup), tight tolerances, clear failures (R11, R13)."""

from __future__ import annotations

import numpy as np
import pytest

from numerics import testing as T
from numerics.ode import VERIFY, IntegrationError, SolverConfig, flow_time, integrate

pytestmark = pytest.mark.ode


def logistic(t: float, y: np.ndarray, r: float = 1.0) -> np.ndarray:
    return r * y * (1 - y)


def sol_logistic(t: np.ndarray, y0: float, r: float = 1.0) -> np.ndarray:
    return y0 / (y0 + (1 - y0) * np.exp(-r * t))


def test_closed_form_in_solver_units() -> None:
    tr = integrate(logistic, [0.1], (0.0, 5.0), t_eval=np.linspace(0, 5, 11))
    T.assert_passed(T.solver_agreement("logistic", tr.y[:, 0], sol_logistic(tr.t, 0.1)))
    # negative control: the wrong growth rate is detected
    T.assert_fails(
        T.solver_agreement("logistic, r=1.001", tr.y[:, 0], sol_logistic(tr.t, 0.1, 1.001))
    )


def test_t0_and_semigroup() -> None:
    y0 = [0.2]
    assert integrate(logistic, y0, (0.0, 0.0)).final[0] == 0.2
    full = integrate(logistic, y0, (0.0, 3.0))
    half = integrate(logistic, y0, (0.0, 1.2))
    rest = integrate(logistic, half.final, (1.2, 3.0))
    T.assert_passed(T.solver_agreement("semigroup", rest.final, full.final))
    assert np.allclose(full(0.0), y0)


def test_default_is_the_verification_solver() -> None:
    assert VERIFY.rtol == T.SOLVER_RTOL and VERIFY.atol == T.SOLVER_ATOL
    assert flow_time(100, 0.01) == pytest.approx(1.0)


def test_failures_raise_with_message_and_time() -> None:
    with pytest.raises(IntegrationError, match=r"failed at t="):
        integrate(lambda t, y: y**2, [1.0], (0.0, 2.0))  # blows up at t = 1
    with pytest.raises(ValueError, match="t_span"):
        integrate(logistic, [0.1], (1.0, 0.0))
    with pytest.raises(ValueError, match="y0"):
        integrate(logistic, [np.nan], (0.0, 1.0))
    with pytest.raises(ValueError, match="method"):
        SolverConfig(method="Euler")
    with pytest.raises(ValueError, match="rtol"):
        SolverConfig(rtol=0.0)
