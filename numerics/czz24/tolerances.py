"""[czz24] tolerances shared by several of the paper's check modules, each defined once.

The shared kinds (float round-off, solver, Monte Carlo z, power, rate band) are in
:mod:`numerics.testing`; these are czz24's own, each with its reason.
"""

from __future__ import annotations

#: strictness of an ordering of O(1) ratios or slopes
ORDER_MARGIN = 1e-3

#: float64 round-off of a difference that may be exactly 0 (ridge* = OLS; a paired MC difference)
ROUNDOFF_MARGIN = 1e-12
