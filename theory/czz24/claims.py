"""[czz24] §3, App. D, Fig. 1b: claim records, what each row that compares with the paper
compares with.  (Fig. 1b's OLS values are our closed form, computed by us: those rows are
DERIVED and cite ``docs/papers/czz24.md#derived-values``, not a claim.)

``where`` is the paper's own location; ``quote`` the span of our OCR copy there (garbled as it
is; checked by ``tests/test_claims.py``); ``provenance`` says whether the paper prints the
statement (``printed``) or the row tests our summary of a figure (``paraphrase``); ``spec`` the
maintainers' section behind our reading.
"""

from __future__ import annotations

from theory.common.protocols import Claim

__all__ = ["CLAIMS"]

CLAIMS: dict[str, Claim] = {
    # D.1 as printed: the recursion line above it carries η·(1/n)X̃ᵀε, the closed form drops the η
    # on the noise sum (a printed error: the recursion two lines above pins it down).
    "eqD.1": Claim(
        where="App. D, Eq. (D.1)",
        quote="I−ηbΣbwt−Rw⋆ +η·1 neX⊤ϵ. Hence, we have bwt= I− I−ηbΣt Rw⋆+1 ntX i=1 "
        "I−ηbΣi−1eX⊤ϵ. (D.1)",
        provenance="printed",
        spec="000 §6 item 8, R3 (corrected D.1)",
    ),
    # D.3 as printed: an equality E = Bias + Variance, dropping the cross term 2⟨bias, noise⟩,
    # which is non-zero for a given ε and, through R̂ = diag(r̂(ε)), even on average over ε.
    "eqD.3": Claim(
        where="App. D, Eq. (D.3)",
        quote="=Σ1/2bR I−ηbΣt Rw⋆2 2| {z } Bias+η2Σ1/2bR 1 ntX i=1 I−ηbΣi−1eX⊤ϵ!2 2| {z } "
        "Variance. (D.3)",
        provenance="printed",
        spec="000 §6 item 9 (E ≤ 2(Bias + Var))",
    ),
    # Fig. 1b's trained models against the baselines (the paper: GPT-2-style encoders).
    "fig1b-transformers": Claim(
        where="§3, Fig. 1b",
        quote="We can observe that given few-shot in-context examples, transformers can "
        "outperform OLS and ridge.",
        provenance="printed",
        spec="000 §4 Fig. 1b table, V-sims S2",
    ),
    # "More heads lower the risk" (S2): §3 on Fig. 1b, and App. B on Fig. 3.
    "more-heads": Claim(
        where="§3, Fig. 1b (and App. B, Fig. 3)",
        quote="Moreover, we can also clearly observe the benefit of using multiple heads, which "
        "leads to lower excess risk when increasing 4the number of heads.",
        provenance="printed",
        spec="000 V-sims S2 (negative finding at CPU scale)",
    ),
    # "h = 1 is worse" under probing (Fig. 1d).
    "probe-single-head": Claim(
        where="§3, Fig. 1d",
        quote="Additionally, compared to the model with single-head attention, we observe that "
        "the probing result is largely different between single-head transformers",
        provenance="printed",
        spec="000 R13, §6 item 32",
    ),
}

#: The paper's training scale (App. B), for the ``needed`` field of the untested trained rows.
PAPER_TRAINING_SCALE = (
    "encoder-only transformers, d_hid = 256, h ∈ {1, 2, 4, 8}, "
    "L ∈ {3, ..., 6}, Adam 1e-4 for 320000 updates, batch 64 (App. B; about "
    "two GPU-hours each)"
)
#: The paper's probing protocol (App. B, "Pruning and Probing"), for the probe rows' ``needed``.
PAPER_PROBING_PROTOCOL = (
    "App. B's pruning and probing: n = 10, q = 1, 8192 evaluation prompts; the first layer's "
    "heads all kept and one head per later layer, the pruned model retrained 60000 steps; "
    "h ∈ {4, 8}"
)
