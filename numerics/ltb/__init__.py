"""[zwb24] numerics: routes and checks of the ltb slice.

Routes (no checks): :mod:`.sampling` (random settings, spectra), :mod:`.optim` (BFGS on the exact
risks, complex-step gradients), :mod:`.flow` (the GD-β flow ODE), :mod:`.fixtures` (spec 002
Appendix A, the generic points).  Checks, by paper section (keys of :data:`theory.ltb.SECTIONS`):
:mod:`.checks_model` (§3), :mod:`.checks_mlp_gap` (§4 Thm 4.1), :mod:`.checks_table1` (§4
Table 1), :mod:`.checks_gd_beta` (§5), :mod:`.checks_cross_zfb24` (§5 Thm 5.2 vs zfb24),
:mod:`.checks_rates` and :mod:`.checks_flow` (§6, App. G).

Old module name: ``numerics.ltb.checks_pinned`` is this package (:data:`MOVED`); its three checks
now live in their sections and resolve here by name (``numerics.ltb.checks_pinned:check_...``).
"""

from __future__ import annotations

import importlib
from typing import Any

from numerics.ltb.fixtures import APPENDIX_A
from numerics.ltb.flow import FLOW_SOLVER, flow_trajectory
from numerics.ltb.optim import (
    OptResult,
    cs_grad,
    gap_grid,
    inf_lsa,
    min_gd_beta,
    min_ltb,
    polish,
    risk_plain_complex,
)
from numerics.ltb.sampling import power_law_spectrum, random_setting
from theory.common.aliases import alias_modules

__all__ = [
    "APPENDIX_A",
    "FLOW_SOLVER",
    "flow_trajectory",
    "OptResult",
    "cs_grad",
    "gap_grid",
    "inf_lsa",
    "min_gd_beta",
    "min_ltb",
    "polish",
    "risk_plain_complex",
    "power_law_spectrum",
    "random_setting",
]

#: Old module name -> its new module (the pinned-value checks moved to their sections).
MOVED: dict[str, str] = {"numerics.ltb.checks_pinned": "numerics.ltb"}
alias_modules(MOVED)

#: The checks of the old module, by name -> the section module that defines them.
_PINNED: dict[str, str] = {
    "check_thm4_1_float_pinned": "numerics.ltb.checks_mlp_gap",
    "check_cor6_2_float_pinned": "numerics.ltb.checks_rates",
    "check_thm6_3_rate_pinned": "numerics.ltb.checks_flow",
}


def __getattr__(name: str) -> Any:
    """The old ``numerics.ltb.checks_pinned:<check>`` paths: the section's function itself."""
    module = _PINNED.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
