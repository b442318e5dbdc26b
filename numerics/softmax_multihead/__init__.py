"""hpcy25 numerics: predictors on sampled prompts, Monte Carlo routes, ODE flows, and the check
functions referenced by ``theory.softmax_multihead.RESULTS``."""

from numerics.softmax_multihead.algebra import *  # noqa: F403
from numerics.softmax_multihead.flows import *  # noqa: F403
from numerics.softmax_multihead.mc import *  # noqa: F403
from numerics.softmax_multihead.tables import *  # noqa: F403
