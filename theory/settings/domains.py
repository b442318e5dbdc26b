"""Parameter domains, declared once per parameter name, and the public-boundary validation built
from them: no silent wrong answer on bad input.

A :class:`Domain` says what a parameter must be (an integer size, a real number in an interval, a
symmetric PSD covariance, a finite vector, ...) and gives a valid example at ``d = 2``.  Two users
read the same declaration:

* :class:`Checker` (one per slice, ``theory/<slug>/domains.py``: ``checked = Checker(DOMAINS,
  paper=..., overrides=...)``) validates a public function *where it is defined*: ``@checked``
  on a ``def``, ``checked(fn, args=(...))`` on a lambdified ``*args`` twin.  Every declared
  argument is checked at call time with the settings validators' rules (:func:`check_value`;
  ``ValueError``/``TypeError`` naming the parameter, the value and the assumption it breaks), and
  arguments sharing a dimension label (``dim="d"``) must agree in size.  SymPy input passes (it
  is symbolic); a Python string never does.  The package re-exports the same object, so there is
  one message per bad input whatever the import path.  Only the outermost validated call checks
  (a validated function calling another does not check again: the inner arguments are the
  outer's, already checked, or computed from them); ``fn.raw`` is the unchecked function, the
  fast path for ODE right-hand sides and optimisers called in a loop.
  (:func:`validate_exports` is the older form: it replaced the package's exports by wrappers at
  import; kept for code outside this repository.)
* the bad-input harness (``tests/common/bad_input.py``) reads ``fn.__domains__`` to build a valid
  call from the examples and derives the bad values from each domain's kind and bounds.

:data:`COMMON` holds the domains of the cross-paper names; a slice extends it with its own names
(``theory/<slug>/domains.py``) and overrides per function where a name means something else.
:class:`Domain` and :func:`check_value` are defined in :mod:`theory.settings.kinds`,
:class:`Checker` and :func:`validated` in :mod:`theory.settings.checker`; this module is where
they are imported from.
"""

from __future__ import annotations

import numpy as np

from theory.settings.arguments import degenerate, record_arguments
from theory.settings.checker import Checker, validate_exports, validated
from theory.settings.kinds import KINDS, Domain, check_value

__all__ = [
    "Domain",
    "COMMON",
    "check_value",
    "validated",
    "validate_exports",
    "KINDS",
    "record_arguments",
    "degenerate",
    "Checker",
]

_PSD = np.array([[1.0, 0.3], [0.3, 2.0]])
_SQ = np.array([[0.6, 0.1], [-0.2, 0.4]])
_VEC = np.array([0.5, -0.3])

#: Domains of the cross-paper names (the names the toolkit uses for the papers' symbols).
COMMON: dict[str, Domain] = {
    "d": Domain("count", 2, dim="d"),
    "N": Domain("count", 10),
    "M": Domain("count", 12),
    "L": Domain("count", 10),
    "H": Domain("count", 2),
    "n": Domain("count", 10),
    "sigma2": Domain("real", 0.25, lower=0.0),
    "noise_var": Domain("real", 0.25, lower=0.0),
    "s2": Domain("real", 0.25, lower=0.0),
    "tau2": Domain("real", 1.0, lower=0.0, lower_open=True),
    "lam": Domain("real", 0.5, lower=0.0),
    "xi": Domain("real", 0.5, lower=0.0, lower_open=True),
    "signal": Domain("real", 1.0, lower=0.0, lower_open=True),
    "omega": Domain("real", 0.4),
    "eta": Domain("real", 0.3),
    "sigma_init": Domain("real", 0.1, lower=0.0, lower_open=True),
    "Lambda": Domain("psd", _PSD, dim="d"),
    "Sigma": Domain("psd", _PSD, dim="d"),
    "Sigma_x": Domain("psd", _PSD, dim="d"),
    "Psi": Domain("psd", _PSD, dim="d"),
    "task_cov": Domain("psd", _PSD, dim="d"),
    "H_cov": Domain("psd", _PSD, dim="d"),
    "Gamma": Domain("square", _SQ, dim="d"),
    "P": Domain("square", _SQ, dim="d"),
    "A": Domain("square", _SQ, dim="d"),
    "beta_star": Domain("vector", _VEC, dim="d"),
    "task_mean": Domain("vector", _VEC, dim="d"),
    "beta0": Domain("vector", _VEC, dim="d"),
    "X": Domain("matrix", np.arange(20.0).reshape(10, 2) % 7 - 3, dim="d"),
    "y": Domain("vector", np.linspace(-1.0, 1.0, 10), length=10),
}
