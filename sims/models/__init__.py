"""Literal torch models of the papers' parameterisations."""
