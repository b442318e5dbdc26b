"""Data models of the five papers, as frozen, validated, keyword-only dataclasses.

* :mod:`.validators` -- ``check_real``, ``check_int``, ``check_choice``, ``as_vector``,
  ``as_matrix``: every bad value raises a :class:`ValueError` naming the symbol, the value and the
  assumption it violates;
* :mod:`.linear` -- the shared Gaussian linear-regression model: :class:`GaussianCovariates`,
  :class:`GaussianTaskPrior`, :class:`LinearRegressionICL`;
* one module per paper slug holding that paper's own settings, and only those (the objects its
  strategies in :mod:`theory.strategies` draw and its training presets build their data from;
  training knobs live in the experiments' configs).  Import them from
  ``theory.settings.<slug>``: this package does not re-export them (apart from one older
  paper's names), so one paper's settings never enter another paper's model-cache fingerprint.

Only the standard library and numpy are imported here, so the trained models of ``sims`` can use
these settings without seeing any prediction.
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
