"""icl-verify theory layer: closed forms (SymPy, with numeric twins), settings and the registry.

Imports only the standard library, sympy, mpmath and numpy (STYLE R16); ``theory.strategies``
also imports hypothesis.
"""
