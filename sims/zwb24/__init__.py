"""[zwb24] the trained floor of Zhang, Wu, Bartlett (2024), one module per paper section (the keys
of :data:`theory.zwb24.SECTIONS`), the same file names as ``theory/zwb24`` and ``numerics/zwb24``:

* :mod:`.results` -- the paper's RESULTS and PROPERTIES, declared with the check functions
  themselves, their faults (objects) and the Setting each runs at;
* :mod:`.train` -- the one trainer, ``trained(setting, recipe, seed=...)``, cached by all three:
  the presets' online runs (raw-matrix LTB and LSA, GD-β; a ``Recipe``) and the fits in
  sufficient statistics at a drawn setting (a ``RawFitRecipe``: Table 1's raw LTB and LSA; a
  ``GdBetaFitRecipe``: App. G's GD-β); every route stops when what its checks judge has settled,
  within a step bound.  The checks judge what it returns and never train;
* :mod:`.rawfit` -- the engine of the raw LTB / LSA fit in sufficient statistics (and the
  sampling the fits share), called by ``trained``;
* :mod:`.gd_beta_fit` -- the engine of the GD-β fit in sufficient statistics, called by
  ``trained``;
* :mod:`.sec3_model` -- §3 token matrix (3.1), mask (3.2), forward pass = effective predictor (★);
* :mod:`.sec5_gd_beta` -- §5 Lemma 5.1: the explicit weights implement GD-β;
* :mod:`.table1` -- §4 Table 1 at CPU scale (trained LTB vs LSA, and the β* = 0 control);
* :mod:`.sec6_flow` -- §6 / App. G Theorem 6.3: GD-β trained directly reaches (Γ*, β*);
* :mod:`.evidence` -- the recipes those share (per-seed TRAIN rows, row plans at a drawn setting).

Random streams keep the labels of the modules' first names (string literals), so moving a file
moves no random stream.
"""
