"""[hpcy25] numerics: route modules (:mod:`~numerics.softmax_multihead.predictors`,
:mod:`~numerics.softmax_multihead.mc`, :mod:`~numerics.softmax_multihead.flows`,
:mod:`~numerics.softmax_multihead.bands`, :mod:`~numerics.softmax_multihead.faults`) and the check
functions referenced by ``theory.softmax_multihead.RESULTS``, one ``checks_<section>`` module per
paper section (keys of :data:`theory.softmax_multihead.SECTIONS`): ``checks_approx_loss``,
``checks_manifold``, ``checks_optimality``, ``checks_flow``, ``checks_extensions``,
``checks_appa``.  Import the modules directly.

:data:`MOVED`: the old module names, which still import as the same module objects; random
streams keep the old paths as labels (``_STREAM`` in each module).
"""

from __future__ import annotations

from theory.common.aliases import alias_modules

#: Old module name -> its section module.
MOVED: dict[str, str] = {
    "numerics.softmax_multihead.checks_sec4_1": "numerics.softmax_multihead.checks_approx_loss",
    "numerics.softmax_multihead.checks_sec4_2": "numerics.softmax_multihead.checks_manifold",
    "numerics.softmax_multihead.checks_appd": "numerics.softmax_multihead.checks_optimality",
    "numerics.softmax_multihead.checks_appb": "numerics.softmax_multihead.checks_flow",
    "numerics.softmax_multihead.checks_sec5": "numerics.softmax_multihead.checks_extensions",
}

alias_modules(MOVED)
