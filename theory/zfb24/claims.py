"""[zfb24] §4.3, eq. (23) and Figure 1: claim records, what the rows that compare with the paper
compare with.  ``where`` is the paper's own location,
``quote`` the text there as our OCR copy has it (tests/test_claims.py finds it in the paper
text), ``spec`` the maintainers' section behind our reading.

The zfb24 rows compare the toolkit's closed forms with independent routes (ODE, Monte Carlo,
trained models); none compares with a number the paper prints, so no row here has a
``discrepancy``, ``unconfirmed`` or ``untested`` verdict.  The one comparison with the paper's
own content is Figure 1's reading of the LSA limit against the zero estimator (a paraphrase of
the figure: the paper plots the two dashed lines and states no inequality between them).
"""

from __future__ import annotations

from theory.common.protocols import Claim

__all__ = ["CLAIMS"]

CLAIMS: dict[str, Claim] = {
    "fig1_lsa_limit_vs_zero": Claim(
        where="Figure 1 (caption) and §4.3, eq. (23)",
        quote=(
            "The gray dashed line shows the prediction error of zero estimator and the black "
            "dashed line the prediction error"
        ),
        provenance="paraphrase",
        spec="spec 004 §4 (P1), §6.15",
    ),
}
