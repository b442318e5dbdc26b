"""Domains of the parameters of [czz24]'s public functions, declared once by name.

``checked`` (a :class:`theory.settings.domains.Checker` of this table) decorates every public
function where it is defined; the package exports those same objects.  Hot loops in numerics
call ``f.raw`` (the unchecked function); the bad-input harness reads the same table.

Names that mean something else here than in :data:`theory.settings.domains.COMMON` or between
functions:

* ``n`` is the context length (≥ 1), but the number of context *columns* (≥ 0) in
  :func:`~theory.czz24.apply_layer`, ``forward`` and ``predict``;
* ``t`` is a number of GD steps (an integer ≥ 0) in the pre-GD forms, and the real ``t ≥ 1`` of
  the ``log t`` factor in the bounds of Thms 5.1 / 5.2;
* ``delta`` is the failure probability δ > 0 of the bounds (the checks use δ = d/e, which drops
  the logs, so it is not capped at 1), but the ΔE(i, j) table in ``head_importance``;
* ``weights`` is a :class:`~theory.czz24.LinTFWeights` model (``layer`` a
  :class:`~theory.czz24.LayerWeights`: their domains are declared in
  :mod:`~theory.czz24.sec2_model`, where the classes are), but the positive weights ω of
  ``minnorm_interpolator``;
* ``lam`` is a ridge penalty λ ≥ 0, but any eigenvalue in ``phi``.

The examples are at ``d = 2``, ``n = 10`` (six hidden rows: ``d_hid = 3d``; one query column).
"""

from __future__ import annotations

import numpy as np

from theory.czz24.settings import SparseRegressionICL
from theory.settings.domains import COMMON, Checker, Domain

__all__ = ["DOMAINS", "GENERIC_EXEMPT", "OVERRIDES", "checked"]

_PSD = np.array([[1.0, 0.3], [0.3, 2.0]])
_X = np.arange(20.0).reshape(10, 2) % 7 - 3  # n × d context (COMMON's example)
_Y = np.linspace(-1.0, 1.0, 10)
_H = (np.arange(66.0).reshape(6, 11) % 5 - 2) / 4  # d_hid × (n + 1) token matrix
_E = (np.arange(33.0).reshape(3, 11) % 7 - 3) / 3  # (d + 1) × (n + 1) embedded prompt


def _real(valid: float, what: str, lower: float | None = None, *, open_: bool = False) -> Domain:
    return Domain("real", valid, lower=lower, lower_open=open_, what=what)


def _pos(valid: float, what: str) -> Domain:
    return _real(valid, what, 0.0, open_=True)


def _nonneg(valid: float, what: str) -> Domain:
    return _real(valid, what, 0.0)


_STEPS = Domain("count", 3, minimum=0, what="a number of GD steps t, an integer ≥ 0")
_COLUMNS = Domain("count", 10, minimum=0, what="a number of context columns n, an integer ≥ 0")
_LOG_T = _real(2.0, "a step count t ≥ 1 (the bound's log t; a real)", 1.0)
_SIGMA2_POS = _pos(0.25, "a noise variance σ² > 0")

#: Domains by parameter name ([czz24] notation; ``d = 2`` examples).
DOMAINS: dict[str, Domain] = {
    **COMMON,
    "d": Domain("count", 2, dim="d", what="a dimension d, an integer ≥ 1"),
    "n": Domain("count", 10, what="a context length n, an integer ≥ 1"),
    "s": Domain("count", 1, what="a sparsity s, an integer ≥ 1 (s ≤ d)"),
    "k": Domain("count", 1, minimum=0, what="a number of GD layers k, an integer ≥ 0"),
    "h": Domain("count", 1, minimum=0, what="a number of heads h, an integer ≥ 0"),
    "t": _STEPS,
    "sigma2": _nonneg(0.25, "a noise variance σ² ≥ 0"),
    "eta": Domain("real", 0.3, what="a finite step size η"),
    "lam": _nonneg(0.5, "a ridge penalty λ ≥ 0"),
    "tau": _nonneg(1.5, "a flow time τ ≥ 0"),
    "tau2": _pos(1.0, "a slab variance τ² > 0"),
    "alpha2": _pos(1.0, "a signal E‖w*‖² = α² > 0"),
    "gamma": _pos(0.5, "an aspect ratio γ = d/n > 0"),
    "w_norm2": _nonneg(1.0, "a squared norm ‖w‖² ≥ 0"),
    "delta": _pos(0.1, "a failure probability δ > 0 (log(d/δ) > 0 needs δ < d)"),
    "beta": _pos(0.7, "β = min_S |r_j| > 0"),
    "C": _pos(1.0, "an (unspecified) constant C > 0"),
    "trRSR": _nonneg(0.5, "Tr(RΣR) ≥ 0"),
    "trS": _pos(2.0, "Tr Σ > 0"),
    "Sigma_max": _nonneg(1.0, "max_i Σ_ii ≥ 0"),
    "prior": Domain("choice", "sign", choices=("sign", "gauss")),
    "variant": Domain("choice", "corrected", choices=("corrected", "paper")),
    "X": Domain("matrix", _X, dim="d", what="a context X (n × d, finite)"),
    "y": Domain("vector", _Y, what="context labels y (length n, finite)"),
    "X_ctx": Domain("matrix", _X, dim="d", what="a context X (n × d, finite)"),
    "y_ctx": Domain("vector", _Y, what="context labels y (length n, finite)"),
    "X_all": Domain("matrix", _X[:3], dim="d", what="tokens to preprocess (m × d, finite)"),
    "x_query": Domain("vector", np.array([0.5, -1.0]), dim="d", what="a query x (length d)"),
    "eps": Domain("vector", _Y / 10, what="context noise ε (length n, finite)"),
    "w": Domain("vector", np.array([0.7, 0.0]), dim="d", what="a task vector w* (length d)"),
    "Sigma": Domain("psd", _PSD, dim="d", what="a covariance Σ (symmetric PSD, d×d)"),
    "Sigma_hat": Domain("psd", _PSD, dim="d", what="a sample covariance Σ̂ (symmetric PSD)"),
    "Sigma_diag": Domain(
        "vector",
        np.array([1.0, 2.0]),
        dim="d",
        lower=0.0,
        what="the diagonal of Σ (length d, entries ≥ 0)",
    ),
    "R": Domain("square", np.diag([0.5, -0.2]), dim="d", what="R = diag(r) (finite d×d)"),
    "H": Domain("matrix", _H, what="a token matrix H (d_hid × m, finite)"),
    "E": Domain("matrix", _E, what="an embedded prompt E ((d+1) × m, finite)"),
    "C_hat": Domain("square", np.eye(6), what="a context moment Ĉ (d_hid × d_hid, finite)"),
    "setting": Domain(
        "object",
        SparseRegressionICL.isotropic(d=2, s=1, n=10, sigma2=0.25),
        cls=SparseRegressionICL,
    ),
    "parts": Domain(
        "object",
        {
            "bias": np.array([0.1, 0.0]),
            "noise": np.array([0.02, -0.01]),
            "rhat": np.array([0.5, -0.3]),
        },
        cls=dict,
        what="a dict of finite d-vectors 'bias', 'noise', 'rhat'",
    ),
    "W": Domain(
        "matrix",
        np.array([[0.3, 0.7], [0.9, 0.1]]),
        what="a head-importance table W (layers × heads, finite)",
    ),
    "Ws": Domain(
        "array",
        np.array([[0.3, 0.7], [0.9, 0.1]]),
        what="importance tables (layers × heads, or models × layers × heads, finite)",
    ),
}

_BOUND = {"t": _LOG_T}

#: Per-function changes to :data:`DOMAINS`.
OVERRIDES: dict[str, dict[str, Domain]] = {
    "apply_layer": {"n": _COLUMNS},
    "forward": {"n": _COLUMNS},
    "predict": {"n": _COLUMNS},
    "layer_operator": {"C": DOMAINS["C_hat"]},
    "phi": {"lam": Domain("real", 0.5, what="an eigenvalue λ (finite real)")},
    "thm51_bound": _BOUND,
    "thm52_bound": _BOUND,
    "eta_t_star_51": {"sigma2": _SIGMA2_POS},
    "thm53_steps": {"sigma2": _SIGMA2_POS, "eta": _pos(0.3, "a step size η > 0")},
    "ridge_excess_conditional": {"alpha2": _nonneg(1.0, "a signal E‖w*‖² = α² ≥ 0")},
    "bayes_posterior_mean": {
        "sigma2": _SIGMA2_POS.with_(what="a noise variance σ² > 0 (the posterior needs σ² > 0)")
    },
    "minnorm_interpolator": {
        "X": DOMAINS["X"].with_(valid=np.array([[1.0, 2.0]])),
        "y": DOMAINS["y"].with_(valid=np.array([0.5])),
        "weights": Domain(
            "vector",
            np.array([1.0, 2.0]),
            dim="d",
            lower=0.0,
            lower_open=True,
            optional=True,
            what="weights ω (length d, entries > 0) or None",
        ),
    },
    "head_importance": {
        "delta": Domain(
            "matrix", np.array([[1.0, 3.0], [2.0, 2.0]]), what="a ΔE table (layers × heads, finite)"
        )
    },
}

#: The validation at the definition: ``@checked`` on every public function of the sections.
checked = Checker(DOMAINS, paper="czz24", overrides=OVERRIDES)

#: Parameters the default checks may see only at 0 or 1, with the reason.
GENERIC_EXEMPT: dict[str, str] = {
    "theory.czz24.sec2_model:layer_operator.head_mask": (
        "a head mask is 0/1 by definition (Sec. 3: keep or zero head k); no factor multiplies it"
    ),
}
