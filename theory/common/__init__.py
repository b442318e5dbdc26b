"""Shared theory: symbols, protocols, evaluators, Gaussian identities, baselines, the shared
layer's Setting (its results are declared in ``sims/common/results.py``)."""
