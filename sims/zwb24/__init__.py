"""[zwb24] the trained floor of Zhang, Wu, Bartlett (2024), one module per paper section (the keys
of :data:`theory.zwb24.SECTIONS`), the same file names as ``theory/zwb24`` and ``numerics/zwb24``:

* :mod:`.results` -- the paper's RESULTS and PROPERTIES, declared with the check functions
  themselves, their faults (objects) and the Setting each runs at;
* :mod:`.train` -- the training presets and runs (raw-matrix LTB and LSA, GD-β): the only place
  this paper trains a torch model online;
* :mod:`.rawfit` -- the raw LTB / LSA fit on sufficient statistics at a drawn Table 1 setting;
* :mod:`.sec3_model` -- §3 token matrix (3.1), mask (3.2), forward pass = effective predictor (★);
* :mod:`.sec5_gd_beta` -- §5 Lemma 5.1: the explicit weights implement GD-β;
* :mod:`.table1` -- §4 Table 1 at CPU scale (trained LTB vs LSA, and the β* = 0 control);
* :mod:`.sec6_flow` -- §6 / App. G Theorem 6.3: GD-β trained directly reaches (Γ*, β*);
* :mod:`.evidence` -- the recipes those share (per-seed TRAIN rows, row plans at a drawn setting).

Random streams keep the labels of the modules' first names (string literals), so moving a file
moves no random stream.
"""
