"""icl-verify sims: torch models of the papers, one training loop, verification and the report.

``sims.models``, ``sims.data``, ``sims.train`` and ``sims.experiments`` import only
``theory.settings`` and ``theory.common.protocols``: the trained model is an independent
implementation of what the theory predicts.  ``sims.verify``, ``sims.report``, ``sims.figures`` and
``sims.cli`` bring predictions and trained results together.
"""
