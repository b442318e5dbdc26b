"""Shared theory: symbols, protocols, evaluators, Gaussian identities, baselines, registry."""
