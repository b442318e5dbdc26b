"""[czz24] figure data that needs no trained model: Fig. 2c (pre-GD vs GD over steps, spectral
closed form per context) and the Thm 5.1–5.3 bound shapes against the oracle-tuned Monte Carlo
risks.

Each ``compute_<figure>(*, quick=True, seed=0) -> dict`` returns the numbers
:mod:`sims.figures.czz24` draws.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from numerics.czz24.risk import blown_up, tuned_risks_cached
from numerics.czz24.sampling import sample_sparse_prompts
from numerics.testing import loglog_slope
from theory.czz24 import pregd_gram, rhat, thm51_bound, thm52_bound, thm53_rate
from theory.czz24.settings import SparseRegressionICL

__all__ = ["FIG2C_SPEC", "spectral_path", "spectral_errors", "compute_2c", "compute_bounds_rates"]

#: Spec §4 Fig. 2c reproduction (n = 10): σ -> {method: (η, risks at 0, 1k, ..., 9k)}.
FIG2C_SPEC = {
    0.0: {
        "gd": (0.1, (4.00,) + (1.52,) * 9),
        "pre_gd": (1e-3, (3.97, 1.50, 1.29, 1.19, 1.13, 1.09, 1.05, 1.03, 1.01, 0.99)),
    },
    0.2: {
        "gd": (1e-2, (3.98, 1.57) + (1.56,) * 8),
        "pre_gd": (1e-2, (4.10, 1.06, 1.01, 1.00, 1.00, 1.00, 1.01, 1.01, 1.02, 1.02)),
    },
    0.8: {
        "gd": (1e-4, (4.05, 3.43, 3.05, 2.81, 2.64, 2.52, 2.44, 2.37, 2.32, 2.29)),
        "pre_gd": (1e-3, (4.09, 1.83, 1.71, 1.68, 1.67, 1.68, 1.69, 1.70, 1.72, 1.74)),
    },
}
#: Eigenvalues below this are treated as 0 in the spectral filter (the filter's limit ηt there).
_ZERO_EIG = 1e-300


def spectral_path(
    X: np.ndarray, y: np.ndarray, eta: float, ts: np.ndarray, preprocess: bool
) -> np.ndarray:
    """Coefficients at the steps ``ts`` by the spectral closed form (one eigh per context).

    Source: [czz24] Eq. (4.3) (pre-GD, ``preprocess=True``) and Eq. (E.3) (GD), spectral form.
    ``X`` n×d, ``y`` (n,), ``ts`` integer steps; returns ``(len(ts), d)``.

    >>> from numerics.czz24.predictors import pregd_path
    >>> X, y = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.array([1.0, -0.5, 1.0])
    >>> w = spectral_path(X, y, 0.5, np.array([0, 2, 5]), True)
    >>> bool(np.allclose(w, pregd_path(X[None], y[None], 0.5, 5)[[0, 2, 5], 0]))
    True
    """
    r = rhat.raw(X, y)
    if preprocess:
        G, b, _ = pregd_gram.raw(X, y)
    else:
        G, b = X.T @ X / X.shape[0], r
    lam, U = np.linalg.eigh(G)
    c = U.T @ b
    safe = np.where(np.abs(lam) < _ZERO_EIG, 1.0, lam)
    with np.errstate(over="ignore", invalid="ignore"):
        phi = np.where(
            np.abs(lam) < _ZERO_EIG, eta * ts[:, None], (1 - (1 - eta * safe) ** ts[:, None]) / safe
        )
    w = (phi * c) @ U.T
    return w * r if preprocess else w


def spectral_errors(
    p: Any, eta: float, ts: np.ndarray, preprocess: bool, blown: np.ndarray | None = None
) -> np.ndarray:
    """Per-context ‖ŵ^t − w‖² (shape ``(contexts, len(ts))``) at the steps ``ts`` of the prompts
    ``p`` (``X, y, w``) by :func:`spectral_path`.  ``blown`` (same shape), if given, is filled
    with the divergence flag of :func:`numerics.czz24.risk.blown_up` (the iterate not
    finite, or above ``DIVERGENCE_GROWTH`` times the bound ``t η ‖r̂‖_∞‖r̂ ⊙ r̂‖`` resp.
    ``t η ‖r̂‖`` that a non-divergent run obeys).

    >>> from numerics.czz24.predictors import gd_path
    >>> from numerics.czz24.sampling import sample_sparse_prompts
    >>> st = SparseRegressionICL.isotropic(d=4, s=2, n=12, sigma2=0.25)
    >>> p = sample_sparse_prompts(st, 5, rng=np.random.default_rng(0))
    >>> e = spectral_errors(p, 0.3, np.array([3]), False)
    >>> ref = np.sum((gd_path(p.X, p.y, 0.3, 3)[3] - p.w) ** 2, axis=1)
    >>> e.shape, bool(np.allclose(e[:, 0], ref))
    ((5, 1), True)
    """
    X, y, W = p.X, p.y, p.w
    out = np.empty((len(X), len(ts)))
    for i in range(len(X)):
        w = spectral_path(X[i], y[i], eta, ts, preprocess)
        with np.errstate(over="ignore", invalid="ignore"):
            out[i] = np.sum((w - W[i]) ** 2, axis=1)
            if blown is not None:
                r = rhat.raw(X[i], y[i])
                per = np.max(np.abs(r)) * np.linalg.norm(r * r) if preprocess else np.linalg.norm(r)
                blown[i] = blown_up(np.linalg.norm(w, axis=1), eta * ts * per)
    return out


def compute_2c(
    *,
    quick: bool = True,
    seed: int = 0,
    sigmas: tuple[float, ...] = (0.0, 0.2, 0.8),
    ts: np.ndarray | None = None,
    trials: int | None = None,
    etas: Mapping[float, Mapping[str, float]] | None = None,
    rng: np.random.Generator | None = None,
    fault_no_preprocess: bool | None = None,
) -> dict[str, Any]:
    """Fig. 2c data: for σ ∈ {0, 0.2, 0.8} and each method, the MC risk over steps 0, 1k, …, 9k
    (d = 16, s = 4, n = 10, experimental prior, η of our reference table).

    Knobs (defaults: the figure's): ``sigmas``, the steps ``ts``, the contexts per σ ``trials``
    (200, full 2000), the step sizes ``etas`` (σ -> {method: η}; the methods run are its keys;
    ``None``: our reference table's), the stream ``rng`` (``None``: a fresh ``default_rng(seed)``
    per σ; given: one stream through the σs) and ``fault_no_preprocess`` (raw GD in pre-GD's place:
    a negative control).  Per σ and method: ``eta``, ``risk`` (mean over contexts), ``spec``
    (our reference table's risks, or ``None``), the per-context ``errors`` and divergence flags
    ``blown`` (:func:`spectral_errors`)."""
    ts = np.arange(0, 10_000, 1000) if ts is None else np.asarray(ts)
    trials = (200 if quick else 2000) if trials is None else trials
    if etas is None:
        etas = {sig: {m: eta for m, (eta, _) in FIG2C_SPEC[sig].items()} for sig in sigmas}
    curves: dict[float, dict[str, dict[str, Any]]] = {}
    for sig in sigmas:
        st = SparseRegressionICL.isotropic(d=16, s=4, n=10, sigma2=sig**2, prior="gauss")
        g = np.random.default_rng(seed) if rng is None else rng
        p = sample_sparse_prompts(st, trials, rng=g)
        curves[sig] = {}
        for method, eta in etas[sig].items():
            pre = method == "pre_gd" and not fault_no_preprocess
            blown = np.zeros((trials, len(ts)), bool)
            err = spectral_errors(p, eta, ts, pre, blown=blown)
            curves[sig][method] = {
                "eta": eta,
                "risk": np.mean(err, axis=0),
                "reference": FIG2C_SPEC.get(sig, {}).get(method, (None, None))[1],
                "errors": err,
                "blown": blown,
            }
    return {"steps": ts, "curves": curves}


def compute_bounds_rates(
    *,
    quick: bool = True,
    seed: int = 0,
    ns: np.ndarray | None = None,
    trials: int = 100,
    steps: int | None = None,
    d: int = 32,
    s: int = 2,
    sigma2: float = 0.25,
) -> dict[str, Any]:
    """Thms 5.1–5.3 data: oracle-tuned pre-GD* and GD* (MC) and the bound shapes at d = 32,
    s = 2, σ = 0.5 (Σ = I, ±1/√s prior) over n, each bound's constant fitted (5.1 / 5.2: the max
    ratio; 5.3: the geometric mean), with the log-log slopes.

    Knobs (defaults: the figure's): the context lengths ``ns`` (64, 128, 256; full to 512), the
    contexts per n ``trials`` and the GD ``steps`` of the tuning (100, full 200) of
    :func:`numerics.czz24.risk.tuned_risks_cached`; ``d``, ``s``, ``sigma2`` (a check's
    setting)."""
    s2 = sigma2
    if ns is None:
        ns = np.array([64, 128, 256] if quick else [64, 128, 256, 512])
    ns = np.asarray(ns)
    st = (100 if quick else 200) if steps is None else steps
    rows = [tuned_risks_cached(d, s, int(m), s2, trials, seed, "sign", st) for m in ns]
    pre = np.array([r.pre_gd.mean for r in rows])
    gd = np.array([r.gd.mean for r in rows])
    shapes = {
        "Thm 5.1": np.array(
            [
                float(thm51_bound(int(m), np.e, s2, s, 1 / np.sqrt(s), 1.0, d, d, d / np.e))
                for m in ns
            ]
        ),
        "Thm 5.2": np.array([float(thm52_bound(int(m), np.e, s2, d, d, d / np.e)) for m in ns]),
        "Thm 5.3": np.array([float(thm53_rate(int(m), d, s, s2)) for m in ns]),
    }
    bounds = {}
    for name, b in shapes.items():
        ref = pre if name != "Thm 5.2" else gd
        C = float(np.max(ref / b)) if name != "Thm 5.3" else float(np.exp(np.mean(np.log(ref / b))))
        bounds[name] = {"shape": b, "C": C, "slope": loglog_slope(ns, b) if len(ns) >= 2 else None}
    return {
        "ns": ns,
        "pre_gd": pre,
        "gd": gd,
        "slope_pre_gd": loglog_slope(ns, pre),
        "slope_gd": loglog_slope(ns, gd),
        "bounds": bounds,
    }
