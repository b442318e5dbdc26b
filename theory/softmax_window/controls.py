"""[collins24] §3 (Thm 3.4, 3.6), §4 (Thm 4.4), App. B.1, Figs. 3-4: shared negative controls.

The declared checks of :mod:`theory.softmax_window.results` name these planted faults; values are
literals or :class:`~theory.common.protocols.Ref` strings resolved when a control runs, so
``theory`` imports nothing from ``numerics`` or ``sims``.
"""

from __future__ import annotations

from theory.common.protocols import Ref

__all__ = [
    "SPLIT_L_LINEAR",
    "LAMBDA_LINEAR_IN_L",
    "LA_FLOOR_OVER_4",
    "THM44_CU_LINEAR",
    "THM34_ALTERNATIVES",
    "THM34_RELU_ALTERNATIVES",
    "FIG34_ALTERNATIVES",
    "FIG34_ACG_ALTERNATIVES",
    "alternatives",
]

#: Module of the planted formula faults named by the declared controls.
FAULTS = "numerics.softmax_window.faults:"

#: The affine split with L instead of L² in front of A(ω) (App. B.1, eq. (10)).
SPLIT_L_LINEAR = {"fault_split_fn": Ref(FAULTS + "affine_split_L_linear")}
#: Λ = nL/σ² (one power of L lost; Theorem 3.4's Λ = nL²/σ²).
LAMBDA_LINEAR_IN_L = {"fault_lambda_fn": Ref(FAULTS + "lambda_linear_in_L")}
#: Theorem 3.6's floor L²/3 replaced by L²/4.
LA_FLOOR_OVER_4 = {"fault_floor_fn": Ref(FAULTS + "la_floor_over_4")}
#: Theorem 4.4's scale bound C_b/c_u² with c_u to the first power.
THM44_CU_LINEAR = {"fault_bound_fn": Ref(FAULTS + "thm44_bound_cu_linear")}

#: Named neighbours of the trained affine S1 ω* (sims.checks.softmax_window.optimum).
THM34_ALTERNATIVES = (
    "1-NN limit (omega = inf)",
    "eq. (9) convention 2 omega*",
    "eq. (9) convention omega*/2",
    "label average (omega = 0)",
    "optimum at sigma = 0.01",
    "optimum at sigma = 0.1",
    "optimum at sigma = 0.3",
    "optimum at sigma = 1",
    "§3.1 surrogate (2 Lambda/d)^{2/(d+2)} (paper's exponent)",
)
#: Named neighbours of the trained ReLU ω*.
THM34_RELU_ALTERNATIVES = (
    "affine class's optimum (quadrature)",
    "eq. (9) 2 omega*",
    "eq. (9) omega*/2",
    "label average (omega = 0)",
)
#: Named neighbours of the Figs. 3-4 end points (uniform sphere).
FIG34_ALTERNATIVES = (
    "1-NN limit (omega = inf)",
    "eq. (9) 2 omega*",
    "eq. (9) omega*/2",
    "label average (omega = 0)",
    "optimum at L = 0.03",
    "optimum at L = 0.1",
    "optimum at L = 1",
    "optimum at n = 10",
    "optimum at n = 20",
    "optimum at n = 5",
    "§3.1 surrogate (2 Lambda/d)^{2/(d+2)} (paper's exponent)",
)
#: Named neighbours of the Figs. 3-4 end points on U^d_S.
FIG34_ACG_ALTERNATIVES = (
    "U^d_S optimum at L = 0.01",
    "U^d_S optimum at L = 0.1",
    "best isotropic omega I (Lemma B.5's form)",
    "best omega Sigma^-1, Sigma = E xx^T",
    "uniform-sphere optimum omega*(U^d) I",
)


def alternatives(*names: str) -> dict[str, dict[str, str]]:
    """Negative controls of a TRAIN check: each named alternative passed as the prediction
    (``fault_alternative``) must fail the rows that name it."""
    return {f"alt:{name}": {"fault_alternative": name} for name in names}
