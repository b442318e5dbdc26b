"""[hpcy25] numerics: route modules (:mod:`~numerics.hpcy25.predictors`,
:mod:`~numerics.hpcy25.mc`, :mod:`~numerics.hpcy25.flows`, :mod:`~numerics.hpcy25.landscape`,
:mod:`~numerics.hpcy25.bands`, :mod:`~numerics.hpcy25.faults`) and the check functions declared
in :mod:`sims.hpcy25.results`, one module per paper section, named as the section's file on every
floor (keys of :data:`theory.hpcy25.SECTIONS`): ``sec3_sharp_head``, ``sec4_1_approx_loss``,
``sec4_2_manifold``, ``appD_optimality``, ``appB_flow``, ``sec5_extensions``, ``appA``.  Import
the modules directly.  Random streams keep the modules' first paths as labels (``_STREAM`` in
each module), so moving a file moves no random stream.
"""
