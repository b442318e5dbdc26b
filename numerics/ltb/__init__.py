"""[zwb24] numerics: routes and checks of the ltb slice.

Routes (no checks): :mod:`.sampling` (random settings, spectra), :mod:`.optim` (BFGS on the exact
risks, complex-step gradients), :mod:`.flow` (the GD-β flow ODE), :mod:`.fixtures` (spec 002
Appendix A).  Checks, by paper section: :mod:`.checks_model` (§3), :mod:`.checks_mlp_gap` (§4),
:mod:`.checks_gd_beta` (§5), :mod:`.checks_rates` and :mod:`.checks_flow` (§6, App. G).
"""

from __future__ import annotations

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
