"""[zfb24] the trained floor of Zhang, Frei, Bartlett (2024), one module per paper section (the
keys of :data:`theory.zfb24.SECTIONS`), the same file names as ``theory/zfb24`` and
``numerics/zfb24``:

* :mod:`.train` -- the one trainer, ``trained(setting, recipe, seed=...)``, cached by all three:
  the merged-parameter LSA by torch SGD or full-batch GD (a ``Recipe``: the presets, and SGD at
  any setting), or by the moment-statistics route (a ``MomentRecipe``); every route stops on the
  convergence of P = u₋₁U₁₁ within a step bound.  The checks judge what it returns and never
  train;
* :mod:`.moments` -- the engine of the moment-statistics route (GD on the factors with the loss
  written through sufficient statistics of sampled prompts, and the pilot statistics that size
  its batch), called by ``trained``;
* :mod:`.sec3_model` -- §3.2 eq. (6) (torch forward) and §4.1 eq. (12) (trained predictions);
* :mod:`.sec4_1_convergence` -- §4.1 Theorem 4 by SGD and full-batch GD;
* :mod:`.sec4_2_shifts` -- §4.2 distribution shifts on fresh prompts;
* :mod:`.sec4_3_random_cov` -- §4.3 Theorem 8 (random covariance);
* :mod:`.sec5_flow` -- §5 / App. A Lemma 10: GD factors at matched times = the ODE;
* :mod:`.evidence` -- what those share (the presets' runs, tolerance planning against Γ's
  neighbours, the separability rule, the ``skipped`` rows of an unconverged run).

Invariant coordinates: the identifiable product ``P = u₋₁U₁₁`` (u₋₁ = w^{PV}_{22},
U₁₁ = W^{KQ}_{11}), the blocks ``u₁₂ = w^{PV}_{21}``, ``u₂₁ = w^{KQ}_{21}``, the factors
``(U₁₁, u₋₁)`` only where balancedness is (approximately) conserved (full-batch GD), and
predictions on fresh prompts.  Every TRAIN row is a :func:`~numerics.testing.train_discrimination`
against Γ's named neighbours (:data:`numerics.zfb24.faults.GAMMA_ALTERNATIVES`; for Theorem 8,
δ's: ``delta_alternatives``).  Random streams keep the labels of the modules' first names
(``"sims.checks.lsa_flow:<check>"``, string literals), so moving a file moves no random stream.
"""
