"""[zwb24] §4, Table 1: claim records of the rows that compare with the paper.

``where`` is the paper's own location; ``quote`` the span of our OCR copy there (checked by
``tests/test_claims.py``); ``provenance`` says whether the paper prints the statement or the row
tests our reading of it; ``spec`` the maintainers' section behind our reading.
"""

from __future__ import annotations

from theory.common.protocols import Claim

__all__ = ["CLAIMS"]

CLAIMS: dict[str, Claim] = {
    # The beta* = 0 control of the CPU proxy of Table 1.  The paper prints an observation about
    # GPT2-small models (6 layers, 4 heads) trained as in Garg et al.; the control that the
    # one-layer LTB and LSA, trained from N(0, 0.1^2) at d = 2, N = 5, both reach R* is the
    # spec's (002 C17) paraphrase of it at CPU scale, not a statement the paper makes.
    "table1-zero-mean": Claim(
        where="§4, discussion of Table 1",
        quote="From Table 1, we observe that both models (with or without the MLP component) "
        "achieve a nearly zero loss when the task mean is zero.",
        provenance="paraphrase",
        spec="002 C17 (beta* = 0 control: trained LTB and LSA both reach R*)",
    ),
}

#: The paper's training scale for Table 1 (§4 "Experiments on GPT2", App. I), what a seed-trap
#: fraction would have to be measured at; our copy strips the learning rate, step count and batch
#: size of App. I.
PAPER_TRAINING_SCALE = (
    "GPT2-small models, 6 layers with 4 heads each, with and without the MLP component, trained "
    "as in Garg et al. (2022) on the token matrix (3.1) (§4, App. I: Adam, a fresh batch of tasks "
    "each step; the dimensions, learning rate, step count and batch size are stripped from our "
    "copy)"
)
