"""[zwb24] §4 (Table 1), §5 (Thm 5.2), App. G (Thm 6.3): negative controls the checks share.

The declared checks of :mod:`theory.zwb24.results` share these planted faults, by name; values are
literals or :class:`~theory.common.protocols.Ref` strings resolved when a control runs, so
``theory`` imports nothing from ``numerics`` or ``sims``.
"""

from __future__ import annotations

from theory.common.protocols import Ref
from theory.zwb24.settings import C17_SETTING, C18_BETA_NORM, C18_SETTING

__all__ = [
    "C17_SETTING",
    "C18_SETTING",
    "C18_BETA_NORM",
    "NO_FACTOR",
    "TABLE1_ALTERNATIVES",
    "ZERO_MEAN_ALTERNATIVES",
    "THM63_ALTERNATIVES",
    "alternatives",
]

#: Γ* without the (N+1)/N factor of Ω (the one-token slip N+1 -> N): negative control of the exact
#: routes (symbolic, BFGS, flow, cross-paper).
NO_FACTOR = {"fault_gamma_fn": Ref("numerics.zwb24.faults:gamma_without_finite_sample_factor")}

#: Named neighbours of the trained-model predictions (``fault_alternative``): each, made the
#: prediction, must fail the trained check (sims.zwb24).
TABLE1_ALTERNATIVES = (
    "inf_LSA (LSA optimum, a = 0)",
    "beta* = 0 solution (optimal GD-0 risk, a = b = 0)",
    "R* off by one (N -> N+1)",
    "R* off by one (N -> N-1)",
    "R* (LTB optimum)",
    "LSA floor L + R* (Thm 4.1 (ii) bound)",
    "inf_LSA off by one (N -> N+1)",
    "LSA optimum and beta* = 0 solution (a = 0)",
    "beta* = 0 solution (GD-0: b = 0)",
    "LSA optimum's centring b_LSA",
    "Gamma* off by one (N -> N+1)",
    "Gamma* off by one (N -> N-1)",
    "Omega without its (N+1)/N",
    "no finite-N term (N -> inf: H^-1)",
    "beta* = 0 solution (GD-0 optimum: Gamma for Psi + beta* beta*^T)",
    "LSA optimum's Gamma",
    "LSA optimum's phi",
)
ZERO_MEAN_ALTERNATIVES = (
    "R* off by one (N -> N+1)",
    "R* off by one (N -> N-1)",
    "spurious local minimum of the exact LSA risk (interior)",
    "centring at infinity (v2 -> 0 boundary: |b| -> inf, Gamma -> 0)",
)
THM63_ALTERNATIVES = (
    "R* off by one (N -> N+1)",
    "R* off by one (N -> N-1)",
    "optimal GD-0 risk (beta = 0)",
    "Gamma* off by one (N -> N+1)",
    "Gamma* off by one (N -> N-1)",
    "Omega without its (N+1)/N",
    "no finite-N term (N -> inf: H^-1)",
    "beta* = 0 solution (GD-0 optimum: Gamma for Psi + beta* beta*^T)",
    "GD-0 (beta = 0)",
)


def alternatives(names: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """One declared fault per named alternative: ``fault_alternative=<name>``."""
    return {f"alternative: {n}": {"fault_alternative": n} for n in names}
