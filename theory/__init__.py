"""icl-verify theory layer: closed forms (SymPy, with numeric twins), settings and the registry.

Imports only the standard library, sympy, mpmath and numpy; ``theory.strategies``
also imports hypothesis.
"""
