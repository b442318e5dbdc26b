"""Fast Monte Carlo risks of GD-family predictors from sufficient statistics.

The GD family of [zwb24] §1.7 (★) predicts ``ŷ = xᵀg``
with

.. math::

    g = a + \\tfrac1N\\,(\\Gamma X^\\top + \\varphi\\, y^\\top)(y - X b),

so ``a = b = φ = 0`` is one-step preconditioned GD (von Oswald), ``a = b = β₀, φ = 0`` is GD-β
([zwb24] (5.1)), and general ``(a, b, Γ, φ)`` is the LTB.  With ``debias=True`` every ``X`` in (★)
is replaced by the centred ``X_c = X − 1 x̄ᵀ``: for ``a = b = φ = 0`` this is the debiased GD of
[hpcy25] (4.11), ``(η/L) Σ yᵢ (xᵢ − x̄)ᵀ P x_q`` with
``Γ = η Pᵀ``; for general ``b`` it is one step from ``b`` on ``(1/2N) Σ (yᵢ − bᵀ(xᵢ − x̄))²``
[derived extension].

Why sufficient statistics suffice (exact, [derived] here, checked against raw prompts in
``tests/common/test_mc_fast.py``).  Write ``Σ_x = C Cᵀ`` with ``C`` of shape ``d×r`` (``r`` the
rank), ``xᵢ = C zᵢ``, ``εᵢ = σ ζᵢ`` and stack the standard rows ``(zᵢ, ζᵢ) ∈ R^{r+1}`` into ``Z_f``;
let ``M = Z_fᵀ Z_f ~ Wishart(N, I_{r+1})`` (debiased: the centred scatter ``M_c ~ Wishart(N−1)``,
independent of the row mean).  With ``h = (Cᵀ(β − b); σ)`` and ``h_β = (Cᵀβ; σ)``

.. math::

    X^\\top(y - Xb) = C\\,[M h]_{1:r}, \\qquad y^\\top(y - Xb) = h_\\beta^\\top M h
    \\quad(\\text{debiased: } h_\\beta^\\top M_c h + (\\xi_0 \\lVert h_\\beta\\rVert)^2,
    \\ \\xi_0 \\sim N(0,1)).

So ``g`` depends on the prompt only through the vector ``v = M h``.  Two exact samplers of ``v``:

* ``method="bartlett"``: the Bartlett factor ``A`` (χ diagonal, N(0,1) strictly lower triangle;
  lower-trapezoidal when ``N < r+1``) with ``A Aᵀ ~ Wishart``, then ``v = A (Aᵀ h)``;
  ``(r+1)(r+2)/2`` draws per prompt.
* ``method="vector"`` (default): for a fixed ``h``, ``M h = c² h + c (‖h‖ ξ − h hᵀξ/‖h‖)`` with
  ``c² ~ χ²_N`` and ``ξ ~ N(0, I_{r+1})`` independent (rotate ``h`` to ``e₁``: the first column of a
  Wishart matrix is ``(‖w‖², ‖w‖·N(0, I))`` with ``w ~ N(0, I_N)``).  ``r + 2`` draws per prompt.

The task ``β ~ N(β*, Ψ)`` is drawn; with ``integrate_query=True`` the query is integrated exactly,
``E[(xᵀg − y)² | g, β] = (g − β)ᵀ Σ_x (g − β) + σ²`` (Rao–Blackwellisation: a variance reduction,
not a theory risk function); ``integrate_query=False`` samples ``x`` and ``ε`` as well.  The values
go through :func:`numerics.montecarlo.mc_mean` (chunked float64 sums, ``se = sd/√n``).

The independent route :func:`gd_family_risk_raw` samples literal prompts with
:func:`numerics.sampling.sample_prompts` and applies the predictor :func:`gd_family_predict`.

Notation: paper ``H`` ([zwb24]) / ``Λ`` ([zfb24]) = ``Sigma_x``; ``β*`` = ``task_mean``; ``Ψ`` =
``task_cov``; ``σ²`` = ``noise_var``; ``L`` ([hpcy25]) = ``N``.

References: [zwb24] arXiv 2310.08391; [hpcy25] arXiv 2503.12734.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from numerics.montecarlo import DEFAULT_BATCH, mc_mean
from numerics.sampling import sample_prompts
from numerics.wishart import (
    DIAGONALS,
    bartlett_factor,
    bartlett_times_vector,
    draw_dtype,
    psd_factor,
    standard_normal,
    wishart_sample,
    wishart_times_vector,
)
from theory.common.protocols import Estimate
from theory.settings import (
    LinearRegressionICL,
    as_matrix,
    as_vector,
    check_choice,
    check_int,
)

__all__ = [
    "METHODS",
    "psd_factor",
    "bartlett_factor",
    "wishart_sample",
    "wishart_times_vector",
    "bartlett_times_vector",
    "gd_family_predict",
    "gd_family_risk_raw",
    "gd_family_risk_mc",
    "gd_family_draw",
    "FAST_BATCH",
]

#: Samplers of ``v = M h`` (see the module docstring).
METHODS = ("vector", "bartlett")
#: Prompts per chunk of the fast engine (measured on the 2-core machine: 8k–32k are equally fast;
#: larger chunks only cost memory).
FAST_BATCH = 16384


# ------------------------------------------------------------------------------ parameters
class _LinearMap:
    """Row-wise ``x ↦ x Mᵀ`` for a fixed small matrix, avoiding threaded BLAS on tall-skinny input.

    Diagonal ``M`` is applied elementwise.  Otherwise the rows are multiplied in stacked blocks of
    ``_BLOCK`` rows: OpenBLAS then runs each small GEMM on one thread, which on the shared 2-core
    machine was 2–10× faster than one threaded ``(B, r) @ (r, r)`` GEMM
    (measured: ``benchmarks/mc_benchmark.py``).
    """

    _BLOCK = 512

    def __init__(self, M: np.ndarray) -> None:
        M = np.asarray(M, dtype=float)
        self.diag = np.diag(M).copy() if np.array_equal(M, np.diag(np.diag(M))) else None
        self.MT = np.ascontiguousarray(M.T)
        self.identity = self.diag is not None and bool(np.all(self.diag == 1.0))

    def __call__(self, x: np.ndarray) -> np.ndarray:
        if self.identity and x.shape[1] == self.MT.shape[1]:
            return x
        if self.diag is not None and x.shape[1] == self.MT.shape[1]:
            return x * self.diag
        B = x.shape[0]
        k = B - B % self._BLOCK
        out = np.empty((B, self.MT.shape[1]))
        if k:
            np.matmul(
                x[:k].reshape(-1, self._BLOCK, x.shape[1]),
                self.MT,
                out=out[:k].reshape(-1, self._BLOCK, self.MT.shape[1]),
            )
        if k < B:
            out[k:] = x[k:] @ self.MT
        return out


def _params(
    Sigma_x: Any,
    task_mean: Any,
    task_cov: Any,
    noise_var: Any,
    N: Any,
    Gamma: Any,
    a: Any,
    b: Any,
    phi: Any,
) -> dict[str, Any]:
    setting = LinearRegressionICL.from_arrays(
        Sigma_x=Sigma_x, N=N, task_mean=task_mean, task_cov=task_cov, noise_var=noise_var
    )
    d = setting.d
    G = np.array(as_matrix("Gamma", Gamma, d=d, psd=False), dtype=float)

    def vec(name: str, v: Any) -> np.ndarray:
        return np.zeros(d) if v is None else np.array(as_vector(name, v, d=d), dtype=float)

    return dict(
        setting=setting,
        d=d,
        Gamma=G,
        a=vec("a", a),
        b=vec("b", b),
        phi=None if phi is None else vec("phi", phi),
    )


def gd_family_predict(
    X: np.ndarray,
    y: np.ndarray,
    xq: np.ndarray,
    *,
    Gamma: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    phi: np.ndarray | None = None,
    debias: bool = False,
) -> np.ndarray:
    """Literal predictions ``xqᵀ g`` (B,) of (★) on raw prompts ``X`` (B, N, d), ``y`` (B, N).

    Source: [zwb24] eq. (5.1)'s GD-β predictor; ``debias=True``: ``X → X − 1x̄ᵀ`` ([hpcy25] (4.11)).

    .. math::

        g = a + \\tfrac1N (\\Gamma X^\\top + \\varphi y^\\top)(y - X b)

    >>> X = np.ones((1, 2, 1)); y = np.array([[1.0, 3.0]]); xq = np.array([[2.0]])
    >>> gd_family_predict(X, y, xq, Gamma=np.eye(1), a=np.zeros(1), b=np.zeros(1))
    array([4.])
    """
    N = X.shape[1]
    Xs = X - X.mean(axis=1, keepdims=True) if debias else X
    r = y - np.einsum("bnd,d->bn", Xs, b)
    g = a + np.einsum("bnj,bn->bj", Xs, r) @ Gamma.T / N
    if phi is not None:
        g = g + np.einsum("bn,bn->b", y, r)[:, None] * phi / N
    return np.einsum("bd,bd->b", xq, g)


def gd_family_risk_raw(
    *,
    Sigma_x: Any,
    task_mean: Any,
    task_cov: Any,
    noise_var: float,
    N: int,
    Gamma: Any,
    a: Any = None,
    b: Any = None,
    phi: Any = None,
    debias: bool = False,
    n: int,
    rng: np.random.Generator,
    batch: int = DEFAULT_BATCH,
) -> Estimate:
    """The independent raw-prompt route: ``E(ŷ − y)²`` over literal prompts.

    Draws prompts with :func:`numerics.sampling.sample_prompts`, applies
    :func:`gd_family_predict`, averages ``(ŷ − y_q)²`` (query noise included) with
    :func:`numerics.montecarlo.mc_mean`.  About ``(N + 1)(d + 1) + d`` normals per prompt.
    Arguments as in :func:`gd_family_risk_mc`.

    One-step GD at ``d = N = 1``, ``σ² = 0``: ``R = E x_q² E β² E(x₁² − 1)² = 2``:

    >>> est = gd_family_risk_raw(Sigma_x=[[1.0]], task_mean=[0.0], task_cov=[[1.0]], noise_var=0.0,
    ...                          N=1, Gamma=[[1.0]], n=20_000, rng=np.random.default_rng(0))
    >>> bool(abs(est.mean - 2.0) < 5 * est.se)
    True
    """
    P = _params(Sigma_x, task_mean, task_cov, noise_var, N, Gamma, a, b, phi)
    setting = P["setting"]

    def draw(rng: np.random.Generator, B: int) -> np.ndarray:
        pb = sample_prompts(setting, B, rng=rng)
        yhat = gd_family_predict(
            pb.X, pb.y, pb.xq, Gamma=P["Gamma"], a=P["a"], b=P["b"], phi=P["phi"], debias=debias
        )
        return (yhat - pb.yq) ** 2

    return mc_mean(draw, n, rng=rng, batch=batch)


# ---------------------------------------------------------------------------------- fast route
def gd_family_draw(
    *,
    Sigma_x: Any,
    task_mean: Any,
    task_cov: Any,
    noise_var: float,
    N: int,
    Gamma: Any,
    a: Any = None,
    b: Any = None,
    phi: Any = None,
    debias: bool = False,
    method: str = "vector",
    dtype: str = "float64",
    integrate_query: bool = True,
    dof_offset: int = 0,
    diagonal: str = "chi",
) -> Callable[[np.random.Generator, int], np.ndarray]:
    """The per-prompt value sampler ``draw(rng, B) -> (B,)`` behind :func:`gd_family_risk_mc`.

    Exposed so that users can feed it to :func:`numerics.montecarlo.mc_means` alongside other
    columns (common random numbers), and for the benchmark's per-prompt loop.  Arguments as in
    :func:`gd_family_risk_mc`.

    One-step GD (risk 2, see :func:`gd_family_risk_mc`) and the null predictor ``Γ = 0`` (risk
    ``E β² x² = 1``) as two columns of one estimate:

    >>> from numerics.montecarlo import mc_means
    >>> kw = dict(Sigma_x=[[1.0]], task_mean=[0.0], task_cov=[[1.0]], noise_var=0.0, N=1)
    >>> gd, null = gd_family_draw(Gamma=[[1.0]], **kw), gd_family_draw(Gamma=[[0.0]], **kw)
    >>> both = lambda rng, b: np.stack([gd(rng, b), null(rng, b)], axis=1)
    >>> e_gd, e_null = mc_means(both, 20_000, rng=np.random.default_rng(0))
    >>> bool(abs(e_gd.mean - 2.0) < 5 * e_gd.se), bool(abs(e_null.mean - 1.0) < 5 * e_null.se)
    (True, True)
    """
    P = _params(Sigma_x, task_mean, task_cov, noise_var, N, Gamma, a, b, phi)
    check_choice("method", method, METHODS)
    check_choice("diagonal", diagonal, DIAGONALS)
    draw_dtype(dtype)
    dof_offset = check_int("dof_offset", dof_offset)
    setting: LinearRegressionICL = P["setting"]
    N = setting.N
    dof = N - 1 if debias else N
    dof = dof + dof_offset
    if dof < 0:
        raise ValueError(f"dof_offset={dof_offset} makes the Wishart degrees of freedom {dof} < 0")
    # Whitened coordinates ([zwb24] spec 002 §1.8): with Σ_x = C Cᵀ only Cᵀβ, Cᵀa, Cᵀb, Cᵀφ and
    # CᵀΓC enter, and the risk is ‖Cᵀ(g − β)‖² + σ².
    C = psd_factor(setting.Sigma_x)  # (d, r)
    Lt = psd_factor(setting.task_cov, name="task_cov")  # (d, s)
    r = C.shape[1]
    K = _LinearMap(C.T @ Lt)  # ξ ↦ Cᵀ Ψ^{1/2} ξ
    m_w = C.T @ np.array(setting.task_mean)
    a_w, b_w = C.T @ P["a"], C.T @ P["b"]
    phi_w = None if P["phi"] is None else C.T @ P["phi"]
    G_w = _LinearMap(C.T @ P["Gamma"] @ C)  # CᵀΓC
    sigma = math.sqrt(setting.noise_var)
    noise_var = setting.noise_var
    times_vector = wishart_times_vector if method == "vector" else bartlett_times_vector

    def draw(rng: np.random.Generator, B: int) -> np.ndarray:
        beta = K(standard_normal(rng, (B, Lt.shape[1]), dtype)) + m_w  # Cᵀβ, (B, r)
        h = np.empty((B, r + 1))
        np.subtract(beta, b_w, out=h[:, :r])
        h[:, r] = sigma
        v = times_vector(rng, h, dof, diagonal=diagonal, dtype=dtype)  # (B, r+1) = M h
        stat = G_w(v[:, :r])  # Cᵀ Γ Xᵀ(y − Xb)
        if phi_w is not None:
            q = np.einsum("bi,bi->b", beta, v[:, :r]) + sigma * v[:, r]  # yᵀ(y − Xb)
            if debias:
                hb2 = np.einsum("bi,bi->b", beta, beta) + noise_var
                q = q + standard_normal(rng, B, dtype) ** 2 * hb2
            stat += q[:, None] * phi_w
        stat *= 1.0 / N
        stat += a_w
        stat -= beta  # Cᵀ(g − β)
        if integrate_query:
            return np.einsum("bi,bi->b", stat, stat) + noise_var
        z = standard_normal(rng, (B, r), dtype)  # query x = C z
        eps = sigma * standard_normal(rng, B, dtype)
        return (np.einsum("bi,bi->b", z, stat) - eps) ** 2

    return draw


def gd_family_risk_mc(
    *,
    Sigma_x: Any,
    task_mean: Any,
    task_cov: Any,
    noise_var: float,
    N: int,
    Gamma: Any,
    a: Any = None,
    b: Any = None,
    phi: Any = None,
    debias: bool = False,
    n: int,
    rng: np.random.Generator,
    batch: int = FAST_BATCH,
    dtype: str = "float64",
    integrate_query: bool = True,
    method: str = "vector",
    dof_offset: int = 0,
    diagonal: str = "chi",
) -> Estimate:
    """Fast MC estimate of the ICL risk ``E(xᵀg − y)²`` (query noise included) of (★).

    Source: predictor [zwb24] §1.7 (★), risk [zwb24] (3.5); debiased GD [hpcy25] (4.11).  The
    sampler is [derived] (module docstring) and verified against the literal
    raw-prompt route :func:`gd_family_risk_raw` in ``tests/common/test_mc_fast.py``.

    .. math::

        R = \\mathbb E\\,(x^\\top g - y)^2,\\qquad
        g = a + \\tfrac1N(\\Gamma X^\\top + \\varphi y^\\top)(y - Xb)

    Parameters
    ----------
    Sigma_x : covariate covariance ``Σ_x`` (d, d), PSD (rank-deficient allowed).
    task_mean, task_cov : prior ``β ~ N(β*, Ψ)``; ``Ψ`` PSD.
    noise_var : label-noise variance ``σ² ≥ 0`` (context and query labels).
    N : prompt length ``≥ 1``.
    Gamma : step-size / preconditioner ``Γ`` (d, d), any real matrix.
    a, b, phi : vectors of length d (``None`` = 0); ``phi=None`` skips the quadratic statistic.
    debias : centre the covariates, ``X → X − 1x̄ᵀ`` ([hpcy25] debiased GD).
    n : number of prompts; rng : explicit generator; batch : prompts per chunk.
    dtype : ``"float32"`` draws the Gaussians / Gammas in float32 and upcasts (all arithmetic in
        float64; see ``docs/montecarlo.md``).
    integrate_query : integrate the query ``(x, ε)`` exactly (default) or sample it.
    method : ``"vector"`` (default, ``r + 2`` draws per prompt) or ``"bartlett"``.
    dof_offset, diagonal : fault injection for negative controls only (wrong degrees of freedom;
        ``"normal"`` replaces the χ variables of the Wishart sampler by N(0, 1)).

    Returns
    -------
    Estimate with ``se = sd/√n``.

    Notes
    -----
    ``debias=True`` centres ``X`` everywhere in (★) (also inside ``y − X b``); the paper defines
    only ``a = b = φ = 0``.  Rank-deficient ``Σ_x`` works through ``Σ_x = C Cᵀ`` with ``C`` of full
    column rank ``r``.  ``N < r + 1`` is allowed (singular Wishart).

    Examples
    --------
    One-step GD with ``Γ = I`` at ``d = 1``, ``N = 1``, ``σ² = 0``: ``g = x₁²β`` so
    ``R = E(x₁² − 1)² E β² E x² = 2``.

    >>> est = gd_family_risk_mc(Sigma_x=[[1.0]], task_mean=[0.0], task_cov=[[1.0]], noise_var=0.0,
    ...                         N=1, Gamma=[[1.0]], n=20_000, rng=np.random.default_rng(0))
    >>> abs(est.mean - 2.0) < 5 * est.se
    True
    """
    draw = gd_family_draw(
        Sigma_x=Sigma_x,
        task_mean=task_mean,
        task_cov=task_cov,
        noise_var=noise_var,
        N=N,
        Gamma=Gamma,
        a=a,
        b=b,
        phi=phi,
        debias=debias,
        method=method,
        dtype=dtype,
        integrate_query=integrate_query,
        dof_offset=dof_offset,
        diagonal=diagonal,
    )
    return mc_mean(draw, n, rng=rng, batch=batch)
