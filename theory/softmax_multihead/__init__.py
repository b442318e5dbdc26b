"""hpcy25 — He, Pan, Chen, Yang (2025): multi-head softmax attention for in-context linear regression.

Closed forms (SymPy builders with float64 twins) for the approximate loss ``L̃`` (Prop. 4.1), its
solution manifold and optimality reduction (Thm 4.2), the closed-form risks of vanilla / debiased
one-step GD and the Bayes limit, the two-head gradient flow of App. B, and the §5 extensions.
The paper's displayed math was lost in extraction; spec 001 (``../shared/specs/
001_multihead_softmax.md``) rebuilt it and is the authority.  Each docstring cites it.

NOTATION (paper symbol → code name → canonical cross-paper name)

=================  =================  ============================================
paper              code               canonical (theory.settings)
=================  =================  ============================================
L (examples)       ``L``              ``N``
L' (test length)   ``Lp``             ``M``
d                  ``d``              ``d``
σ²                 ``sigma2``         ``noise_var``
β ~ N(0, I/d)      (prior)            ``task_cov = I/d``
H                  ``H``              ``n_heads``
ω_h (KQ scale)     ``omega``          --
μ_h (OV weight)    ``mu``             --
η (= 2ωμ)          ``eta``            GD step (not the optimiser lr: ``lr``)
ξ = d/L            ``xi``             aspect ratio
κ = 1 + ξ(1+σ²)    ``kappa``          --
c_L = (1+σ²)/L     ``c_L``            --
Σ (KMS ρ^|i-j|)    ``Sigma``          ``Sigma_x``
Γ, P               ``Gamma``, ``P``   preconditioner (zfb24's Γ)
=================  =================  ============================================

Public API named in the issue: :func:`dgd_risk` and :func:`bayes_risk_limit`.
"""

from theory.softmax_multihead.core import *  # noqa: F403
from theory.softmax_multihead.core import A2_matrix
from theory.softmax_multihead.core import __all__ as _core_all
from theory.softmax_multihead.extensions import *  # noqa: F403
from theory.softmax_multihead.extensions import __all__ as _ext_all
from theory.softmax_multihead.flow import *  # noqa: F403
from theory.softmax_multihead.flow import __all__ as _flow_all
from theory.softmax_multihead.results import RESULTS

__all__ = [*_core_all, *_ext_all, *_flow_all, "A2_matrix", "RESULTS"]
