"""One BLAS thread for the czz24 checks' batched small linear algebra.

Batched ``eigh`` / ``solve`` on thousands of 32 × 32 matrices with OpenBLAS's threads on a loaded
2-core machine spends its time spinning: measured here (load ≈ 9) 26 s for 800 ``eigh`` with 2
threads against 0.26 s with 1, and the warm ``check_s1_train`` 44.6 s against 10.9 s.  The checks
below run under ``threadpool_limits(1)`` (their values are the same to float64 round-off).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from threadpoolctl import threadpool_limits

__all__ = ["one_blas_thread"]

P = ParamSpec("P")
R = TypeVar("R")


def one_blas_thread(fn: Callable[P, R]) -> Callable[P, R]:
    """Run ``fn`` with the BLAS/LAPACK thread pools limited to one thread (signature kept)."""
    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with threadpool_limits(limits=1, user_api="blas"):
            return fn(*args, **kwargs)

    return wrapper
