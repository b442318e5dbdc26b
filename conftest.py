"""Repository-wide pytest configuration: Hypothesis profiles and torch threads (STYLE R12).

It sits at the root so that every collected test -- ``tests/``, the doctests of ``theory``,
``numerics`` and ``sims``, and the user example in ``docs/examples`` -- runs under the same
profile: ``ci`` (derandomised, the default), ``dev`` or ``thorough``, chosen by
``HYPOTHESIS_PROFILE``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

from sims.parallel import limit_threads

settings.register_profile("dev", max_examples=20, deadline=None)
settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=50,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.load_profile(PROFILE)

# Tiny models and batched small-matrix algebra run fastest on one thread per process on these
# 2-core machines (pytest-xdist runs one worker per core): the same policy as the CLI and the
# report's workers (ICL_VERIFY_TORCH_THREADS and ICL_VERIFY_BLAS_THREADS override).
limit_threads()
