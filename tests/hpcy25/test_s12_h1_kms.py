"""Mutation triage (issue 35, session 12) of [hpcy25] §5.3's KMS inverse: SymPy ``ρ`` gives the
exact SymPy inverse (the backend follows ``ρ``), checked against SymPy's own inverse of
``Σ_ij = ρ^{|i−j|}``."""

from __future__ import annotations

import pytest
import sympy as sp

import theory.hpcy25 as th


def _kms(d: int, rho: sp.Expr) -> sp.Matrix:
    return sp.Matrix(d, d, lambda i, j: rho ** abs(i - j))


@pytest.mark.parametrize("rho", [sp.Rational(1, 3), sp.Rational(-2, 5)])
def test_kms_inverse_exact_for_rational_rho(rho: sp.Rational) -> None:
    """A Rational ``ρ`` gives an exact SymPy Matrix equal to the inverse of the KMS matrix (a
    float array here would lose the exact entries, e.g. 9/8 and −3/8 at ρ = 1/3)."""
    got = th.kms_inverse(4, rho)
    assert isinstance(got, sp.MatrixBase)
    assert got == _kms(4, rho).inv()


def test_kms_inverse_symbolic_rho() -> None:
    """A symbol ``ρ`` gives the closed form as an expression: ``Σ⁻¹ Σ = I`` identically."""
    rho = sp.Symbol("rho", real=True)
    got = th.kms_inverse(3, rho)
    assert isinstance(got, sp.MatrixBase)
    assert sp.simplify(got * _kms(3, rho)) == sp.eye(3)
