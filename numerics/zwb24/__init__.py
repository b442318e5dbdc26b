"""[zwb24] numerics: routes and checks of Zhang, Wu, Bartlett (2024).

Routes (no checks): :mod:`.sampling` (random settings, spectra), :mod:`.optim` (BFGS on the exact
risks, complex-step gradients), :mod:`.flow` (the GD-β flow ODE), :mod:`.fixtures` (reference
values, generic points).  Checks, by paper section (keys of :data:`theory.zwb24.SECTIONS`):
:mod:`.sec3_model` (§3), :mod:`.sec4_mlp_gap` (§4 Thm 4.1), :mod:`.table1` (§4 Table 1),
:mod:`.sec5_gd_beta` (§5), :mod:`.cross_zfb24` (§5 Thm 5.2 vs zfb24), :mod:`.sec6_rates` and
:mod:`.sec6_flow` (§6, App. G).  Random streams keep the labels of the modules' first names
(string literals), so moving a file moves no random stream.
"""

from __future__ import annotations

from numerics.zwb24.fixtures import APPENDIX_A
from numerics.zwb24.flow import FLOW_SOLVER, flow_trajectory
from numerics.zwb24.optim import (
    OptResult,
    cs_grad,
    gap_grid,
    inf_lsa,
    min_gd_beta,
    min_ltb,
    polish,
    risk_plain_complex,
)
from numerics.zwb24.sampling import power_law_spectrum, random_setting

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
