"""[collins24] tolerances shared by several of the paper's check modules, each defined once.

The shared kinds (float round-off, solver, Monte Carlo z, power, rate band) are in
:mod:`numerics.testing`; these are collins24's own, each with its reason.
"""

from __future__ import annotations

#: an ordering must hold by more than float round-off on O(1) quantities.
STRICT_GAP = 1e-09

#: ordering of exactly computed quantities: a gap above double-precision round-off.
EXACT_GAP = 1e-12

#: two double-precision evaluations of the same closed form.
DOUBLE_RTOL = 1e-12

#: a strict ordering of risks or scales by at least 1e-3 (beyond quadrature/optimiser error).
ORDER_GAP = 0.001

#: fitted exponent vs paper/ours half a unit apart: 0.05.
EXPONENT_ATOL = 0.05

#: fitted slope over the stated range: 0.02 (pre-asymptotic curvature ~0.01).
SLOPE_ATOL = 0.02

#: log-log slope band: 0.02 (pre-asymptotic curvature ~0.01).
SLOPE_BAND = 0.02

#: values at argmins found to 1e-8/1e-9: agreement to 1e-6 relative.
ENVELOPE_RTOL = 1e-06

#: S2's criterion (spec 003 §3.2): ReLU ω̂ within 10 % of the MC optimum.
RELU_RTOL = 0.10
