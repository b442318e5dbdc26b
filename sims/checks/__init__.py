"""Checks on torch models (constructed or trained) against theory predictions: one package per
paper slug, one module per paper section (``sims/checks/<slug>/<section>.py``, the keys of
``theory.<slug>.SECTIONS``).

:data:`MOVED` lists the modules that moved to their section, old dotted name -> new; the old names
still import, as the same module objects (:func:`theory.common.aliases.alias_modules`).
"""

from __future__ import annotations

from theory.common.aliases import alias_modules

#: Old module name -> its section module (one block per slice; each slice edits only its block).
MOVED: dict[str, str] = {
    # --- softmax_multihead (hpcy25)
    "sims.checks.softmax_multihead_rows": "sims.checks.softmax_multihead.evidence",
    "sims.checks.softmax_multihead_settings": "sims.checks.softmax_multihead",
    "sims.checks.softmax_multihead_setting_rows": "sims.checks.softmax_multihead",
}

alias_modules(MOVED)
