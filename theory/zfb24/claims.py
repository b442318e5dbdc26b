"""[zfb24] §4.3, eq. (23) and Figure 1: claim records, what the rows that compare with the paper
compare with.  ``where`` is the paper's own location,
``quote`` the text there as our OCR copy has it (tests/test_claims.py finds it in the paper
text), ``spec`` the maintainers' section behind our reading.

The zfb24 rows compare the toolkit's closed forms with independent routes (ODE, Monte Carlo,
trained models); two compare with the paper's own content: Figure 1's reading of the LSA limit
against the zero estimator (a paraphrase of the figure: the paper plots the two dashed lines and
states no inequality between them), and §5.1's count of the negative eigenvalues of Lemma 9's H
(printed: "at least d + 1"; a ``discrepancy`` at prompt lengths N < d, where E Eᵀ has rank N + 1
and H has exactly N + 1 negative eigenvalues).
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
    "lem9_negative_eigenvalues": Claim(
        where="§5.1, after Lemma 9 (why the quadratic form (24) is non-convex)",
        quote="has at least d + 1 negative eigenvalues, and hence the quadratic form",
        provenance="printed",
    ),
}
