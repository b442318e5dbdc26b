"""Data models of the five papers, as frozen, validated, keyword-only dataclasses (STYLE R6).

* :mod:`.validators` -- ``check_real``, ``check_int``, ``check_choice``, ``as_vector``,
  ``as_matrix``: every bad value raises a :class:`ValueError` naming the symbol, the value and the
  assumption it violates (STYLE R19);
* :mod:`.linear` -- the shared Gaussian linear-regression model: :class:`GaussianCovariates`,
  :class:`GaussianTaskPrior`, :class:`LinearRegressionICL`;
* one module per paper slug holding that paper's own settings, and only those (the objects its
  strategies in :mod:`theory.strategies` draw and its training presets build their data from;
  training knobs live in the experiments' configs).

Only the standard library and numpy are imported here, so the trained models of ``sims`` can use
these settings without seeing any prediction (STYLE R16).
"""

from __future__ import annotations

from theory.settings.linear import GaussianCovariates, GaussianTaskPrior, LinearRegressionICL
from theory.settings.lsa_flow import THETA_NORM_ATOL, Assumption3Setting, LSAFlowData
from theory.settings.ltb import (
    C17_SETTING,
    C18_BETA_NORM,
    C18_H,
    C18_SETTING,
    c18_preset_setting,
    table1_setting,
    thm63_setting,
    validate_table1,
    validate_thm63,
)
from theory.settings.softmax_multihead import HpcySetting
from theory.settings.softmax_window import (
    LipschitzTasks,
    SoftmaxWindowSetting,
    SphereCovariates,
)
from theory.settings.sparse_multihead import (
    SPARSE_PRIORS,
    SparseRegressionICL,
    czz24_fig1b_setting,
    czz24_s1_setting,
    czz24_s2_setting,
)
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
    "SphereCovariates",
    "LipschitzTasks",
    "SoftmaxWindowSetting",
    "SparseRegressionICL",
    "SPARSE_PRIORS",
    "czz24_s1_setting",
    "czz24_s2_setting",
    "czz24_fig1b_setting",
    "LSAFlowData",
    "Assumption3Setting",
    "THETA_NORM_ATOL",
    "HpcySetting",
    "C17_SETTING",
    "C18_SETTING",
    "C18_BETA_NORM",
    "C18_H",
    "c18_preset_setting",
    "table1_setting",
    "thm63_setting",
    "validate_table1",
    "validate_thm63",
    "as_matrix",
    "as_vector",
    "check_int",
    "check_real",
    "check_choice",
    "readonly",
    "PSD_RTOL",
]
