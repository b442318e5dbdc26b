"""zwb24 numerics: BFGS on the exact risks, the GD-β flow, Monte Carlo routes, check functions."""

from numerics.ltb.checks import *  # noqa: F401,F403
from numerics.ltb.checks import __all__ as _checks_all
from numerics.ltb.optim import OptResult, inf_lsa, min_gd_beta, min_ltb  # noqa: F401

__all__ = [*_checks_all, "OptResult", "inf_lsa", "min_gd_beta", "min_ltb"]
