"""Shared SymPy symbols with assumptions.

Paper modules import these instead of creating their own, so the same letter is the same object
everywhere and assumptions (positivity, integrality) let SymPy simplify.
"""

from __future__ import annotations

import sympy as sp

__all__ = [
    "d",
    "N",
    "M",
    "L",
    "H",
    "k",
    "sigma2",
    "tau2",
    "lam",
    "eta",
    "omega",
    "mu",
    "xi",
    "t",
    "Lip",
    "n",
    "s",
]

d = sp.Symbol("d", integer=True, positive=True)  # covariate dimension
N = sp.Symbol("N", integer=True, positive=True)  # training prompt length
M = sp.Symbol("M", integer=True, positive=True)  # test prompt length
L = sp.Symbol("L", integer=True, positive=True)  # hpcy25's prompt length
H = sp.Symbol("H", integer=True, positive=True)  # number of heads
k = sp.Symbol("k", integer=True, positive=True)  # generic index / sparsity
sigma2 = sp.Symbol("sigma2", nonnegative=True)  # label-noise variance σ²
tau2 = sp.Symbol("tau2", positive=True)  # prior variance τ²
lam = sp.Symbol("lambda", nonnegative=True)  # ridge penalty / eigenvalue
eta = sp.Symbol("eta", real=True)  # step size
omega = sp.Symbol("omega", real=True)  # attention scale (hpcy25)
mu = sp.Symbol("mu", real=True)  # value scale (hpcy25)
xi = sp.Symbol("xi", positive=True)  # aspect ratio d/N in the proportional limit
t = sp.Symbol("t", nonnegative=True)  # (flow) time
#: collins24's Lipschitz constant L (a positive real, not hpcy25's integer prompt length ``L``).
Lip = sp.Symbol("L_lip", positive=True)
n = sp.Symbol("n", integer=True, positive=True)  # collins24 / czz24 context length
s = sp.Symbol("s", integer=True, positive=True)  # czz24 sparsity
