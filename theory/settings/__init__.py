"""The validated building blocks of every paper's Setting: frozen, keyword-only dataclasses.

* :mod:`.validators` -- ``check_real``, ``check_int``, ``check_choice``, ``as_vector``,
  ``as_matrix``: every bad value raises a :class:`ValueError` naming the symbol, the value and the
  assumption it violates;
* :mod:`.linear` -- the shared Gaussian linear-regression model: :class:`GaussianCovariates`,
  :class:`GaussianTaskPrior`, :class:`LinearRegressionICL`;
* :mod:`.kinds`, :mod:`.domains`, :mod:`.checker` -- parameter domains declared once per name
  and the validation of every public formula's arguments at its definition;
* :mod:`.arguments` -- the recorder of the arguments validated functions receive (the
  generic-point scan of the tests).

Each paper's own ``Setting`` and presets live in ``theory/<key>/settings.py``.  Only the standard
library and numpy are imported here, so the trained models of ``sims`` can use the settings
without seeing any prediction.
"""

from __future__ import annotations

from theory.settings.linear import GaussianCovariates, GaussianTaskPrior, LinearRegressionICL
from theory.settings.validators import (
    PSD_RTOL,
    Matrix,
    MatrixLike,
    Vector,
    VectorLike,
    as_matrix,
    as_vector,
    check_choice,
    check_int,
    check_real,
    readonly,
)

__all__ = [
    "Matrix",
    "Vector",
    "MatrixLike",
    "VectorLike",
    "GaussianCovariates",
    "GaussianTaskPrior",
    "LinearRegressionICL",
    "as_matrix",
    "as_vector",
    "check_int",
    "check_real",
    "check_choice",
    "readonly",
    "PSD_RTOL",
]
