"""``base`` claim records: what each row of the common layer that compares with a paper compares
with.

``where`` is the paper's own location; ``quote`` the span of our OCR copy there (checked by
``tests/test_claims.py`` against all five papers); ``provenance`` says whether the paper prints the
statement or the row tests our reading of it; ``spec`` the section a maintainer reads.

No row of the common layer compares with a paper today.  The values of hpcy25's limiting Bayes
risk R_B∞ that ``base:mp-limit`` checks (0.114057, 3.40512, 0.105234) are our, of its
reading of (D.34)–(D.36), whose formulas our copy lost (the paper prints no value): they are
DERIVED rows, derived on ``docs/papers/hpcy25.md#derived-values``.
"""

from __future__ import annotations

from theory.common.protocols import Claim

__all__ = ["CLAIMS"]

CLAIMS: dict[str, Claim] = {}
