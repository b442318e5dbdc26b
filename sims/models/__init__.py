"""Literal torch models of the papers' parameterisations (STYLE R14)."""
