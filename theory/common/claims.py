"""``base`` claim records: what each row of the common layer that compares with a paper compares
with.

``where`` is the paper's own location; ``quote`` the span of our OCR copy there (checked by
``tests/test_claims.py`` against all five papers); ``provenance`` says whether the paper prints the
statement or the row tests our reading of it; ``spec`` the spec section a maintainer reads.
"""

from __future__ import annotations

from theory.common.protocols import Claim

__all__ = ["CLAIMS"]

CLAIMS: dict[str, Claim] = {
    # hpcy25 App. D, Step 3: the limiting Bayes risk.  Our OCR keeps the prose and the equation
    # numbers (D.34)-(D.36) but drops every formula, and the paper prints no numerical value of
    # R_B∞.  The closed form 1/2[σ² + 1 − 1/ξ + √(4σ² + (σ² − 1 + 1/ξ)²)] and its values
    # 0.114057 (ξ = 1/8, σ² = 0.1), 3.40512 (ξ = 0.2, σ² = 3) and 0.105234 (ξ = 0.05, σ² = 0.1)
    # are spec 001 R9's reading (corrected: an earlier spec printed 0.10524, its own rounding slip).
    "hpcy25:D.36-bayes-limit": Claim(
        where="[hpcy25] App. D, proof of Theorem 4.2(iii), Step 3, eqs. (D.34)–(D.36)",
        quote="In the following, we derive the Bayes risk which largely follows the main proof in "
        "Dobriban and Wager (2018).",
        provenance="reconstructed",
        lost="the formulas of (D.34)–(D.36) are lost in the OCR and the paper prints no value of "
        "R_B∞; spec 001 R9's reading (the Marchenko–Pastur closed form and its values at "
        "three (ξ, σ²)) fills them",
        spec="001 R9 (Bayes risk D.34–D.36; values)",
    ),
}
