"""numpy samplers implementing the data models of :mod:`theory.settings`.

A :class:`PromptBatch` holds ``B`` independent prompts of one length: contexts ``X`` (B, n, d),
labels ``y`` (B, n), query ``xq`` (B, d), query label ``yq`` (B,) and the task ``beta`` (B, d).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from theory.common.backend import psd_sqrt  # the one PSD square root (rank cut RANK_RTOL)
from theory.settings import LinearRegressionICL, check_int

__all__ = [
    "PromptBatch",
    "sample_prompts",
    "psd_sqrt",
    "gaussian_rows",
    "stream_key",
    "check_rng",
    "check_seed",
]


def stream_key(seed: int, path: str, *labels: object) -> list[int]:
    """The entropy of one random stream: ``[seed, crc32(path[/label...])]``.

    A check's sampling and Monte Carlo streams come from the run's ``seed`` and the check's own
    path (``"package.module:function"``, plus a label per stream when a check draws several), not
    from hand-picked ``seed + K`` offsets: two checks never share a stream by accident, and a
    renamed check announces that its stream changed.

    >>> stream_key(0, "numerics.x:check_y") == stream_key(0, "numerics.x:check_y")
    True
    >>> stream_key(0, "numerics.x:check_y", "mc") != stream_key(0, "numerics.x:check_y")
    True
    """
    import zlib

    if int(seed) < 0:
        raise ValueError(f"seed must be >= 0 (numpy SeedSequence entropy), got {seed}")
    text = "/".join([path, *(str(x) for x in labels)])
    return [int(seed), zlib.crc32(text.encode())]


def check_rng(seed: int, path: str, *labels: object) -> np.random.Generator:
    """``np.random.default_rng(stream_key(seed, path, *labels))``: a check's numpy stream.

    >>> path = "numerics.x:check_y"
    >>> a = check_rng(0, path).random()
    >>> a == check_rng(0, path).random(), a == check_rng(1, path).random()
    (True, False)
    """
    return np.random.default_rng(stream_key(seed, path, *labels))


def check_seed(seed: int, path: str, *labels: object) -> int:
    """A 63-bit integer seed from :func:`stream_key`, for ``torch.Generator().manual_seed``.

    >>> s = check_seed(0, "numerics.x:check_y")
    >>> 0 <= s < 2**63, s == check_seed(0, "numerics.x:check_y")
    (True, True)
    """
    ss = np.random.SeedSequence(stream_key(seed, path, *labels))
    return int(ss.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


@dataclass(frozen=True, slots=True)
class PromptBatch:
    """``B`` prompts of one length: ``X`` (B, n, d), ``y`` (B, n), ``xq`` (B, d), ``yq`` (B,) and
    the tasks ``beta`` (B, d), as :func:`sample_prompts` draws them (rows are tokens).

    >>> from theory.settings import LinearRegressionICL
    >>> st = LinearRegressionICL.from_arrays(Sigma_x=np.eye(3), N=5)
    >>> pb = sample_prompts(st, 4, rng=np.random.default_rng(0))
    >>> pb.B, pb.X.shape, pb.y.shape, pb.xq.shape, pb.yq.shape, pb.beta.shape
    (4, (4, 5, 3), (4, 5), (4, 3), (4,), (4, 3))
    """

    X: np.ndarray  # (B, n, d) context covariates x_i
    y: np.ndarray  # (B, n) context labels
    xq: np.ndarray  # (B, d) query covariate
    yq: np.ndarray  # (B,) noisy query label
    beta: np.ndarray  # (B, d) task vectors

    @property
    def B(self) -> int:
        return self.X.shape[0]


def gaussian_rows(rng: np.random.Generator, shape: tuple[int, ...], cov: np.ndarray) -> np.ndarray:
    """Draws of ``N(0, cov)`` with leading shape ``shape`` (last axis is d).

    >>> cov = np.array([[1.0, 0.5], [0.5, 2.0]])
    >>> z = gaussian_rows(np.random.default_rng(0), (5000,), cov)   # entry se ≲ 0.04
    >>> z.shape, bool(np.allclose(np.cov(z.T), cov, atol=0.2))
    ((5000, 2), True)
    """
    d = cov.shape[0]
    z = rng.standard_normal((*shape, d))
    if np.array_equal(cov, np.eye(d)):
        return z
    return z @ psd_sqrt(cov)  # psd_sqrt is symmetric, so rows have covariance cov


def sample_prompts(
    setting: LinearRegressionICL, B: int, *, rng: np.random.Generator, n: int | None = None
) -> PromptBatch:
    """Draw ``B`` prompts with ``n`` context pairs (default ``setting.N``).

    ``beta ~ N(task_mean, task_cov)``, ``x ~ N(0, Sigma_x)``, noise ``N(0, noise_var)`` on every
    label including the query's.  Shapes: see :class:`PromptBatch`.

    >>> from theory.settings import LinearRegressionICL
    >>> st = LinearRegressionICL.from_arrays(Sigma_x=np.eye(2), N=3, noise_var=0.0)
    >>> pb = sample_prompts(st, 8, rng=np.random.default_rng(0))
    >>> bool(np.allclose(pb.y, np.einsum("bnd,bd->bn", pb.X, pb.beta)))   # σ² = 0: y = Xβ
    True
    """
    B = check_int("B (number of prompts)", B, minimum=1)
    n = setting.N if n is None else check_int("n (prompt length)", n, minimum=1)
    d = setting.d
    beta = setting.task_mean + gaussian_rows(rng, (B,), setting.task_cov)
    X = gaussian_rows(rng, (B, n), setting.Sigma_x)
    xq = gaussian_rows(rng, (B,), setting.Sigma_x)
    sd = np.sqrt(setting.noise_var)
    y = np.einsum("bnd,bd->bn", X, beta) + sd * rng.standard_normal((B, n))
    yq = np.einsum("bd,bd->b", xq, beta) + sd * rng.standard_normal(B)
    assert X.shape == (B, n, d)
    return PromptBatch(X=X, y=y, xq=xq, yq=yq, beta=beta)
