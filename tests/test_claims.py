"""Every claim record is sourced: printed quotes occur in the paper's text, and rows carry
registered claims.

The paper texts live in ``../shared/papers/`` beside the repository on our machines; where that
folder is absent (a user's clone) the quote test is skipped, the structural tests still run.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from sims.registry import PAPERS, all_claims

PAPERS_DIR = Path(__file__).resolve().parents[2] / "shared" / "papers"
#: Paper key -> the file of its text in ``PAPERS_DIR``.
PAPER_FILES = {
    "czz24": "000_chen-zhao-zou-2024-multihead-sparse-icl.txt",
    "hpcy25": "001_he-pan-chen-yang-2025-multihead-softmax-icl.txt",
    "zwb24": "002_zhang-wu-bartlett-2024-linear-transformer-block.txt",
    "collins24": "003_collins-et-al-2024-softmax-lipschitz.txt",
    "zfb24": "004_zhang-frei-bartlett-2024-trained-lsa.txt",
}
LIGATURES = {"ﬁ": "fi", "ﬂ": "fl", "ﬀ": "ff", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"}


def normalise(text: str) -> str:
    """Ligatures split, NFKC, hyphenation at line ends joined, all whitespace dropped.

    >>> normalise("the distri-\\n bution  of ﬁve") == normalise("the distribution of five")
    True
    """
    for k, v in LIGATURES.items():
        text = text.replace(k, v)
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"(?<=\w)[-\u00ad]\s+(?=\w)", "", text)
    return re.sub(r"\s+", "", text)


def test_paper_files_cover_every_paper() -> None:
    assert set(PAPER_FILES) == set(PAPERS)


CLAIMS = all_claims()
QUOTED = [(k, c) for k, c in CLAIMS.items() if c.quote.strip() and c.provenance != "derived"]


@pytest.mark.skipif(not PAPERS_DIR.is_dir(), reason=f"no paper texts at {PAPERS_DIR}")
@pytest.mark.parametrize(("key", "claim"), QUOTED, ids=[k for k, _ in QUOTED])
def test_quote_occurs_in_the_paper(key: str, claim) -> None:
    paper = key.split(":", 1)[0]
    files = PAPER_FILES.values() if paper == "base" else [PAPER_FILES[paper]]
    texts = [normalise((PAPERS_DIR / f).read_text(encoding="utf-8")) for f in files]
    assert any(normalise(claim.quote) in t for t in texts), (
        f"{key}: quote not found in the paper text ({claim.where}): {claim.quote!r}"
    )


@pytest.mark.skipif(not PAPERS_DIR.is_dir(), reason=f"no paper texts at {PAPERS_DIR}")
def test_quote_check_rejects_an_invented_quote() -> None:
    """Negative control: a quote altered by one word is not found."""
    text = normalise((PAPERS_DIR / PAPER_FILES["zfb24"]).read_text(encoding="utf-8"))
    real = "linear self-attention"
    assert normalise(real) in text
    assert normalise("linear self-attention is provably suboptimal forever") not in text
