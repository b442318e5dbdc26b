"""Domains of the parameters of [hpcy25]'s public functions, declared once by name.

:data:`checked` (:class:`theory.settings.domains.Checker`) reads this table where each function is
defined (``@checked`` in the section modules; ``checked(twin(...), args=TWIN_ARGS[name])`` for the
lambdified twins), so the package exports the validated functions themselves and ``f.raw`` is the
unchecked one (ODE right-hand sides and optimiser objectives in ``numerics`` call ``.raw``); the
bad-input harness reads the same table.  The paper's closed forms are analytic in ``d`` and ``L``
(the proportional limit ``d/L → ξ`` uses them at real values), so ``d``, ``L`` and ``L'`` are
positive reals here, as ``check_dLs`` says.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from theory.settings.domains import COMMON, Checker, Domain

__all__ = ["DOMAINS", "GENERIC_EXEMPT", "OVERRIDES", "TWIN_ARGS", "checked"]

_PSD = np.array([[1.0, 0.3], [0.3, 2.0]])
_SQ = np.array([[0.6, 0.1], [0.1, 0.4]])
_POS = Domain("real", 1.0, lower=0.0, lower_open=True)
_NONNEG = Domain("real", 0.5, lower=0.0)
_REAL = Domain("real", 0.5)
_D = _POS.with_(valid=2, what="a dimension d > 0 (hpcy25 §1.1)")
_L = _POS.with_(valid=10, what="a prompt length L > 0 (hpcy25 §1.1)")
_S2 = _NONNEG.with_(valid=0.25, what="a noise variance σ² ≥ 0 (hpcy25 §1.1)")
_HEADS = Domain("real", np.array([0.4, -0.4]), what="finite per-head values (head axis first)")

#: Domains by parameter name ([hpcy25] notation; the builders' ``*_`` aliases share them).
DOMAINS: dict[str, Domain] = {
    **COMMON,
    "d": _D,
    "d_": _D,
    "L": _L,
    "L_": _L,
    "Lp": _L.with_(what="a test length L' > 0"),
    "sigma2": _S2,
    "sigma2_": _S2,
    "s2": _S2,
    "omega": _REAL.with_(valid=0.4, what="a finite KQ scale ω"),
    "mu": _REAL.with_(valid=1.5, what="a finite OV weight μ"),
    "m": _REAL.with_(valid=1.5, what="a finite aggregate OV weight m"),
    "eta": _REAL.with_(valid=0.8, what="a finite step η"),
    "e": _REAL.with_(valid=0.8),
    "xi": _POS.with_(valid=0.125, what="an aspect ratio ξ = d/L > 0"),
    "z": Domain("real", -0.0125, upper=0.0, upper_open=True, what="a real z < 0"),
    "t_": _REAL.with_(valid=1.0, what="a finite time t"),
    "y": Domain("vector", np.array([0.1, -0.1, 0.1, -0.1]), what="the flow state (ω…, μ…)"),
    "s": _POS.with_(valid=1.0, what="a time scale s > 0"),
    "eps": _POS.with_(valid=1e-3, what="an initial scale ε > 0"),
    "K": Domain("count", 6, minimum=0, what="a truncation order K ≥ 0"),
    "mu_l1": _NONNEG.with_(valid=2.0, what="‖μ‖₁ ≥ 0"),
    "c": _REAL.with_(valid=1.0, what="a finite activation coefficient c"),
    "rho": Domain(
        "real",
        0.5,
        lower=-1.0,
        upper=1.0,
        lower_open=True,
        upper_open=True,
        what="a KMS correlation |ρ| < 1",
    ),
    "Gamma": Domain("square", _SQ, dim="d", what="a preconditioner Γ (finite d×d)"),
    "P": Domain("square", _SQ, dim="d", what="a preconditioner P (finite d×d)"),
    "Sigma": Domain("psd", _PSD, dim="d", what="a covariance Σ (symmetric PSD)"),
    "X": Domain("matrix", np.arange(20.0).reshape(10, 2) % 7 - 3, what="a design (L×d, finite)"),
    "s_k": Domain("count", 4, what="a support size |S_k| ≥ 1"),
    "n_j": Domain("count", 2, minimum=0, what="a task count n_j ≥ 0"),
    "n": Domain("count", 4, what="a number of tasks n ≥ 1"),
    "om": _HEADS,
    "mu_": _HEADS.with_(valid=np.array([1.5, -1.5])),
    "ks": _REAL.with_(optional=True, valid=None),
    "kernel_scale": _POS.with_(optional=True, valid=None),
    "H": Domain("count", 2, what="a number of heads H ≥ 1"),
}

_VEC_HEADS = {"omega": _HEADS, "mu": _HEADS.with_(valid=np.array([1.5, -1.5]))}
_INT_D = {"d": Domain("count", 3, what="an integer dimension d ≥ 1")}
#: The debiased (DGD) risks use L − 1 centred samples (R_D(P; L) = R((L−1)Pᵀ/L; L−1)): L > 1.
_DGD_L = _L.with_(lower=1.0, what="a prompt length L > 1 (debiasing uses L − 1 samples)")

#: Per-function changes to :data:`DOMAINS`.
OVERRIDES: dict[str, dict[str, Domain]] = {
    "ltilde": _VEC_HEADS,
    "ltilde_fn": _VEC_HEADS,
    "ltilde_grad": _VEC_HEADS,
    "ltilde_series": _VEC_HEADS,
    "flow_rhs": {
        "omega": Domain("symbols", sp.symbols("w1 w2"), what="SymPy symbols ω_h"),
        "mu": Domain("symbols", sp.symbols("m1 m2"), what="SymPy symbols μ_h"),
    },
    "lower_bound_45": {"s": _REAL.with_(valid=0.8, what="a finite ⟨ω, μ⟩")},
    "mt_shared_p": {"s": Domain("count", 2, what="a support size s ≥ 1")},
    "kms_covariance": _INT_D,
    "kms_inverse": {
        "d": Domain("count", 3, minimum=2, what="an integer d ≥ 2 (the tridiagonal closed form)")
    },
    "dgd_risk": {"L": _DGD_L},
    "dgd_risk_fn": {"L": _DGD_L},
    "dgd_risk_expr": {"L_": _DGD_L},
    "precond_dgd_risk": {"L": _DGD_L},
    "softmax_length_risk": {"Lp": _DGD_L},
    "bayes_risk_limit": {
        "sigma2": _POS.with_(
            valid=0.25,
            what="a noise variance σ² > 0 (σ² = 0 is the limit σ² → 0⁺: max(0, 1 − 1/ξ))",
        )
    },
    "bayes_risk_limit_fn": {"sigma2": _POS.with_(valid=0.25, what="a noise variance σ² > 0")},
    "bayes_risk_given_design": {
        "sigma2": _POS.with_(valid=0.25, what="a noise variance σ² > 0"),
        # documented batched: one risk per design of a (B, L, d) stack
        "X": DOMAINS["X"].with_(stack=True, what="a design (L×d, or a (B, L, d) stack; finite)"),
    },
}

#: Parameter names of the lambdified ``*_fn`` twins (which take ``*args``).
TWIN_ARGS: dict[str, tuple[str, ...]] = {
    "m_star_fn": ("omega", "d", "L", "sigma2"),
    "ltilde_star_fn": ("omega", "d", "L", "sigma2"),
    "eta_of_omega_fn": ("omega", "d", "L", "sigma2"),
    "ltilde_inf_fn": ("d", "L", "sigma2"),
    "eta_star_fn": ("d", "L", "sigma2"),
    "gd_risk_fn": ("eta", "d", "L", "sigma2"),
    "dgd_risk_fn": ("eta", "d", "L", "sigma2"),
    "gd_risk_limit_fn": ("xi", "sigma2"),
    "bayes_gap_bound_fn": ("xi", "sigma2"),
}

#: parameters of public theory functions that the default checks evaluate only at 0 or 1, with
#: the reason no generic point is owed (tests/test_generic_points.py)
GENERIC_EXEMPT: dict[str, str] = {
    "theory.hpcy25.appB_flow:reduced_rhs_fn.t_": (
        "the time argument of solve_ivp's fun(t, y): the flow (B.4) is autonomous, the "
        "right-hand side does not read it (the checks pass t = 0 when they validate the inputs "
        "once; the integrator then calls it at every t)"
    ),
}

#: The slice's validation at the definition: ``@checked`` on every public function of the section
#: modules, ``checked(twin(...), args=TWIN_ARGS[name])`` on the lambdified twins; the package
#: exports those same objects (``f.raw`` is the unchecked function, for hot loops).
checked = Checker(DOMAINS, paper="hpcy25", overrides=OVERRIDES)
