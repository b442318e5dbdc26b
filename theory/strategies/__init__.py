"""Public Hypothesis strategies for every setting: build your own property tests.

Small dimensions (``d`` 1–6, ``N`` 2–64, ``H`` 1–4), bounded finite floats, variances in [0, 4].
Each paper has one composite strategy ``<key>_settings`` that draws that paper's validated setting
object (the same class its closed forms and training presets take); the shared building blocks are
in :mod:`.common`.  ``docs/your-own-checks.md`` walks through a property test built on them.

>>> from hypothesis import given, settings
>>> from theory.strategies import linear_regression_settings
>>> @settings(max_examples=10)  # a quick look; a test file would keep the profile's default
... @given(linear_regression_settings())
... def test_noise_is_nonnegative(setting):
...     assert setting.noise_var >= 0
>>> test_noise_is_nonnegative()
"""

from __future__ import annotations

from theory.strategies.collins24 import collins24_settings
from theory.strategies.common import (
    designs,
    dims,
    linear_regression_settings,
    pd_matrices,
    prompt_lengths,
    psd_matrices,
    variances,
)
from theory.strategies.czz24 import czz24_settings
from theory.strategies.hpcy25 import hpcy25_settings
from theory.strategies.zfb24 import zfb24_settings
from theory.strategies.zwb24 import zwb24_settings

__all__ = [
    "dims",
    "prompt_lengths",
    "variances",
    "psd_matrices",
    "pd_matrices",
    "designs",
    "linear_regression_settings",
    "zfb24_settings",
    "hpcy25_settings",
    "zwb24_settings",
    "czz24_settings",
    "collins24_settings",
]
