"""Every claim record is sourced and labelled by what the text shows: printed quotes occur in the
paper's text, a quote holding an illegible OCR token names it in ``lost`` (or the claim is
reconstructed), PAPER rows quote the number where the paper prints it, DERIVED rows cite the docs
page that derives it, and rows carry registered claims.

The paper texts live in ``../shared/papers/`` beside the repository on our machines; where that
folder is absent (a user's clone) the tests that read them are skipped, the structural tests still
run.  The registry test (``tests/test_registry.py``) applies the same row checks to every row of
every declared check.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from numerics.testing import derived_agreement, paper_agreement
from sims.registry import PAPERS, all_claims
from theory.common.protocols import Claim
from theory.common.sources import (
    PAPER_FILES,
    claim_label_problems,
    derived_row_problems,
    illegible_tokens,
    normalise,
    paper_row_problems,
)

ROOT = Path(__file__).resolve().parents[1]
PAPERS_DIR = ROOT.parent / "shared" / "papers"
NO_PAPERS = pytest.mark.skipif(not PAPERS_DIR.is_dir(), reason=f"no paper texts at {PAPERS_DIR}")


def paper_texts() -> dict[str, str] | None:
    """Paper key -> our OCR copy of its text, or ``None`` where the texts are absent."""
    if not PAPERS_DIR.is_dir():
        return None
    return {k: (PAPERS_DIR / f).read_text(encoding="utf-8") for k, f in PAPER_FILES.items()}


def test_paper_files_cover_every_paper() -> None:
    assert set(PAPER_FILES) == set(PAPERS)


CLAIMS = all_claims()
QUOTED = [(k, c) for k, c in CLAIMS.items() if c.quote.strip() and c.provenance != "derived"]


def test_claim_keys_carry_one_paper_prefix() -> None:
    """``all_claims()`` prefixes each slice's keys with its paper key: a slice whose own keys
    already carry it comes out doubled (``collins24:collins24:...``)."""
    doubled = [k for k in CLAIMS if k.split(":", 1)[1].split(":", 1)[0] in (*PAPERS, "base")]
    assert not doubled, f"claim keys with the paper prefix twice: {doubled}"


@NO_PAPERS
@pytest.mark.parametrize(("key", "claim"), QUOTED, ids=[k for k, _ in QUOTED])
def test_quote_occurs_in_the_paper(key: str, claim) -> None:
    paper = key.split(":", 1)[0]
    files = PAPER_FILES.values() if paper == "base" else [PAPER_FILES[paper]]
    texts = [normalise((PAPERS_DIR / f).read_text(encoding="utf-8")) for f in files]
    assert any(normalise(claim.quote) in t for t in texts), (
        f"{key}: quote not found in the paper text ({claim.where}): {claim.quote!r}"
    )


@NO_PAPERS
def test_quote_check_rejects_an_invented_quote() -> None:
    """Negative control: a quote altered by one word is not found."""
    text = normalise((PAPERS_DIR / PAPER_FILES["zfb24"]).read_text(encoding="utf-8"))
    real = "linear self-attention"
    assert normalise(real) in text
    assert normalise("linear self-attention is provably suboptimal forever") not in text


@pytest.mark.parametrize(("key", "claim"), QUOTED, ids=[k for k, _ in QUOTED])
def test_claim_label_names_what_the_ocr_lost(key: str, claim: Claim) -> None:
    """A quoted line with an illegible token (``illegible_tokens``) names it verbatim in ``lost``
    and says what pins it down, or the claim is labelled ``reconstructed``."""
    problems = claim_label_problems(key, claim)
    assert not problems, "\n".join(problems)


def test_claim_label_check_catches_an_unnamed_illegible_token() -> None:
    """Negative control: collins24's Theorem 3.4 Case 1 line labelled printed with nothing in
    ``lost`` (its label until it named them) is caught, token by token; naming them, or the
    reconstructed label, passes."""
    quote = CLAIMS["collins24:thm3.4-case1-bracket"].quote
    assert illegible_tokens(quote) == ["A®", "A%"]
    bare = Claim(where="Theorem 3.4", quote=quote, provenance="printed")
    assert len(claim_label_problems("collins24:bare", bare)) == 2
    named = Claim(where="Theorem 3.4", quote=quote, provenance="printed", lost="'A®', 'A%': …")
    assert claim_label_problems("collins24:named", named) == []
    assert CLAIMS["collins24:thm3.4-case1-bracket"].provenance == "reconstructed"
    optimum = CLAIMS["collins24:sec3.1-optimum"]
    assert illegible_tokens(optimum.quote) and optimum.provenance == "printed"
    assert claim_label_problems("x", Claim(optimum.where, optimum.quote, "printed")) != []


# ------------------------------------------------------------------ PAPER and DERIVED rows
@pytest.mark.result("hpcy25:table1")
@pytest.mark.result("hpcy25:def5.1")
def test_hpcy25_tables_are_paper_rows_found_where_they_are_printed(declared_run) -> None:
    """hpcy25's Tables 1 and 2, the numbers the papers print that the toolkit compares with, are
    PAPER rows: each literal stands in its claim's quote (a table line) and, with the texts, the
    quote in the paper.  The spec's arithmetic on them (implied c, the Table 2 sums, R14's optima)
    is DERIVED and stands in the docs page it cites."""
    texts = paper_texts()
    kinds: dict[str, int] = {}
    for path in (
        "numerics.hpcy25.sec5_extensions:check_table1_paper",
        "numerics.hpcy25.sec5_extensions:check_def5_1_values",
    ):
        rows, error = declared_run(path)
        assert error is None, error
        for e in rows:
            kinds[e.kind] = kinds.get(e.kind, 0) + 1
            if e.kind == "PAPER":
                assert not paper_row_problems(e, CLAIMS, texts), paper_row_problems(
                    e, CLAIMS, texts
                )
            if e.kind == "DERIVED":
                problems = derived_row_problems(e, ROOT)
                assert not problems, problems
    # Table 1: omega and mu rows, eight 2c omega mu columns; Table 2: three heads
    assert kinds["PAPER"] == 2 + 8 + 3 and kinds["DERIVED"] == 1 + 4 + 8


def test_paper_row_check_rejects_a_number_not_where_it_is_printed() -> None:
    """Negative controls: a PAPER row whose number is not in its claim's quote (0.8872 for
    Table 1's printed 0.8871), whose claim is not registered, or whose quote is not in the paper
    fails; paper_agreement refuses a claim that is not printed, so a number our specs computed
    cannot pass as PAPER."""
    claim = CLAIMS["hpcy25:table1-2c-omega-mu"]
    ok = paper_agreement("column 1", 0.8871, "0.8871", claim=claim)
    assert paper_row_problems(ok, CLAIMS) == []
    moved = paper_agreement("column 1", 0.8872, "0.8872", claim=claim)
    assert "not in its claim's quote" in paper_row_problems(moved, CLAIMS)[0]
    stray = Claim(where="Table 9", quote="| 0.8871 |", provenance="printed")
    assert (
        "not a registered"
        in paper_row_problems(paper_agreement("c", 0.8871, "0.8871", claim=stray), CLAIMS)[0]
    )
    texts = {"hpcy25": "a paper without the table"}
    assert "not in the text" in paper_row_problems(ok, CLAIMS, texts)[0]
    with pytest.raises(ValueError, match="printed Claim"):
        paper_agreement("m*", 0.102, "0.1020", claim=Claim("Thm 3.6", "", "derived"))


def test_derived_row_check_rejects_a_value_its_page_does_not_derive(tmp_path: Path) -> None:
    """Negative controls: a DERIVED row citing a missing page, a missing section, or a value the
    section does not hold fails; the real page holds collins24's m*."""
    cite = "docs/papers/collins24.md#derived-values"
    assert (
        derived_row_problems(derived_agreement("m*", 0.10203, "0.1020", derived_in=cite), ROOT)
        == []
    )
    wrong = derived_agreement("m*", 0.10213, "0.1021", derived_in=cite)
    assert "is not in" in derived_row_problems(wrong, ROOT)[0]
    page = tmp_path / "docs" / "p.md"
    page.parent.mkdir()
    page.write_text("# P\n## Other\n0.1020\n", encoding="utf-8")
    nosec = derived_agreement("m*", 0.102, "0.1020", derived_in="docs/p.md#derived-values")
    assert "no section" in derived_row_problems(nosec, tmp_path)[0]
    gone = derived_agreement("m*", 0.102, "0.1020", derived_in="docs/q.md#derived-values")
    assert "does not exist" in derived_row_problems(gone, tmp_path)[0]
    with pytest.raises(ValueError, match="derived_in"):
        derived_agreement("m*", 0.102, "0.1020", derived_in="spec 003 R8")
