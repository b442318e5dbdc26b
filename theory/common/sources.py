"""What a claim record or a PAPER / DERIVED row cites, checked against the text it cites.

* :func:`illegible_tokens` -- the OCR tokens of a quote that cannot be what the paper prints
  (``®``, ``©``, ``¢``, ``™``, a ``%`` after a letter, a stray ``"`` or ``\\``, mojibake);
  :func:`claim_label_problems` asks a quote holding one to name it verbatim in ``lost``, or the
  claim to be ``reconstructed``;
* :func:`paper_row_problems` -- a PAPER row's literal(s) must stand in the quote of its printed
  claim, and the quote in the paper's text;
* :func:`derived_row_problems` -- a DERIVED row's literal(s) must stand in the docs page section
  its ``derived_in`` cites.

The paper texts are not part of the repository (``tests/test_claims.py`` reads them from beside it
and skips what needs them where they are absent); these functions take the text they check.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from theory.common.protocols import Claim

__all__ = [
    "PAPER_FILES",
    "normalise",
    "illegible_tokens",
    "claim_label_problems",
    "literal_in",
    "paper_row_problems",
    "markdown_section",
    "derived_row_problems",
]

#: Paper key -> the file of its text (our OCR copy) in the papers folder.
PAPER_FILES: dict[str, str] = {
    "czz24": "000_chen-zhao-zou-2024-multihead-sparse-icl.txt",
    "hpcy25": "001_he-pan-chen-yang-2025-multihead-softmax-icl.txt",
    "zwb24": "002_zhang-wu-bartlett-2024-linear-transformer-block.txt",
    "collins24": "003_collins-et-al-2024-softmax-lipschitz.txt",
    "zfb24": "004_zhang-frei-bartlett-2024-trained-lsa.txt",
}
_LIGATURES = {"ﬁ": "fi", "ﬂ": "fl", "ﬀ": "ff", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"}


def normalise(text: str) -> str:
    """Ligatures split, NFKC, hyphenation at line ends joined, all whitespace dropped.

    >>> normalise("the distri-\\n bution  of ﬁve") == normalise("the distribution of five")
    True
    """
    for k, v in _LIGATURES.items():
        text = text.replace(k, v)
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"(?<=\w)[-\u00ad]\s+(?=\w)", "", text)
    return re.sub(r"\s+", "", text)


#: An OCR token that is not what the paper prints: a registered / copyright / cent / trade mark
#: sign, a per cent sign after a letter (an exponent read as ``%``), a straight double quote or a
#: backslash inside math, the replacement character or UTF-8 read as Latin-1 (``â€``, ``Ã``),
#: with the word characters around it.
ILLEGIBLE = re.compile(r"\w*(?:[®©¢™\"\\\ufffd]|(?<=[^\W\d])%|â€|Ã)+\w*")


def illegible_tokens(quote: str) -> list[str]:
    """The illegible OCR tokens of ``quote`` (:data:`ILLEGIBLE`), in order, without repeats.

    >>> illegible_tokens("(Case 1) Q(A®) < |wio go(A%), 50% of it")
    ['A®', 'A%']
    >>> illegible_tokens("Lemma D.1. The noise term is bounded")
    []
    """
    return list(dict.fromkeys(m.group(0) for m in ILLEGIBLE.finditer(quote)))


def claim_label_problems(key: str, claim: Claim) -> list[str]:
    """What the label of a claim record misses: a quote holding an illegible OCR token names it
    verbatim in ``lost``, unless the claim is ``reconstructed`` (its ``lost`` then says what is
    lost as a whole).

    >>> c = Claim(where="Thm 1", quote="Q(A®) < w", provenance="printed")
    >>> claim_label_problems("x:thm1", c)  # doctest: +ELLIPSIS
    ["x:thm1: the quote's illegible token 'A®' is not named in lost ..."]
    >>> claim_label_problems("x:thm1", Claim("Thm 1", "Q(A®) < w", "printed", lost="'A®' is Λ^α"))
    []
    """
    if claim.provenance == "reconstructed":
        return []
    return [
        f"{key}: the quote's illegible token {tok!r} is not named in lost (name it verbatim and "
        f"say what pins it down, or label the claim reconstructed)"
        for tok in illegible_tokens(claim.quote)
        if tok not in claim.lost
    ]


def literal_in(literal: str, text: str) -> bool:
    """Whether the number written ``literal`` stands in ``text`` as a whole number (not as a part
    of a longer one); whitespace is ignored on both sides.

    >>> literal_in("0.88", "| 0.8871 | 1.0035 |"), literal_in("0.8871", "| 0.8871 | 1.0035 |")
    (False, True)
    >>> literal_in("1", "c = 1, 0.5"), literal_in("-0.0316", "| Head 1 | -0.0316 |")
    (True, True)
    """
    lit, txt = normalise(literal), normalise(text)
    return re.search(r"(?<![\d.])" + re.escape(lit) + r"(?![\d])", txt) is not None


def _literals(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return list(value)
    return []


def paper_row_problems(
    row: Any, claims: Mapping[str, Claim], texts: Mapping[str, str] | None = None
) -> list[str]:
    """What a PAPER row (an :class:`~theory.common.protocols.Evidence`) lacks: its
    ``details["printed"]`` literal(s), each standing in the quote of its ``details["claim"]``; that
    claim printed and registered (``claims``: :func:`sims.registry.all_claims`); and,
    given ``texts`` (paper key -> its text), the quote in the text of the claim's paper: the
    number is found in the paper at the location the row cites.  Empty when complete.

    >>> from theory.common.protocols import Evidence
    >>> claim = Claim(where="Thm 1", quote="the risk is 0.0343", provenance="printed")
    >>> def row(printed):
    ...     return Evidence("risk", "PAPER", 0.0343, 0.0343, 1e-4, 0.0, True,
    ...                     details={"printed": printed, "claim": claim.to_json()})
    >>> paper_row_problems(row("0.0343"), {"x:thm1": claim})
    []
    >>> paper_row_problems(row("0.034"), {"x:thm1": claim})
    ["PAPER row 'risk': the printed '0.034' is not in its claim's quote 'the risk is 0.0343'"]
    """
    d = row.details
    name = f"PAPER row {row.name!r}"
    claim = d.get("claim")
    literals = _literals(d.get("printed"))
    if not literals:
        return [f"{name}: no printed literal (details['printed'])"]
    if not isinstance(claim, dict) or claim.get("provenance") != "printed":
        return [f"{name}: no printed claim (details['claim'])"]
    keys = [k for k, c in claims.items() if c.to_json() == claim]
    if not keys:
        return [f"{name}: its claim ({claim.get('where')!r}) is not a registered claim record"]
    out = [
        f"{name}: the printed {lit!r} is not in its claim's quote {claim['quote']!r}"
        for lit in literals
        if not literal_in(lit, claim["quote"])
    ]
    paper = keys[0].split(":", 1)[0]
    if texts is not None and paper in texts:
        if normalise(claim["quote"]) not in normalise(texts[paper]):
            out.append(f"{name}: its quote is not in the text of {paper} ({claim['where']})")
    return out


def _slug(heading: str) -> str:
    """A Markdown heading's anchor as GitHub writes it.

    >>> _slug("Derived values"), _slug("Trained runs (quick: 1000 steps)")
    ('derived-values', 'trained-runs-quick-1000-steps')
    """
    s = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return s.replace(" ", "-")


def markdown_section(page: str, anchor: str) -> str | None:
    """The text of the section of Markdown ``page`` whose heading has the anchor ``anchor``, up to
    the next heading of the same or a higher level (``None`` if there is none).

    >>> markdown_section("# A\\nx\\n## Derived values\\n1.5\\n## B\\n2", "derived-values")
    '1.5'
    """
    lines = page.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"(#+)\s+(.*)", line)
        if m and _slug(m.group(2)) == anchor:
            level = len(m.group(1))
            body = []
            for nxt in lines[i + 1 :]:
                h = re.match(r"(#+)\s", nxt)
                if h and len(h.group(1)) <= level:
                    break
                body.append(nxt)
            return "\n".join(body).strip()
    return None


def derived_row_problems(row: Any, root: Path) -> list[str]:
    """What a DERIVED row lacks: its ``details["derived"]`` literal(s), each standing in the docs
    page section its ``details["derived_in"]`` cites (``docs/<page>.md#<anchor>`` under the
    repository ``root``), and no claim of the paper.  Empty when complete.

    >>> import tempfile
    >>> from theory.common.protocols import Evidence
    >>> def row(derived):
    ...     return Evidence("limit", "DERIVED", 1.5, 1.5, 1e-9, 0.0, True,
    ...                     details={"derived": derived, "derived_in": "docs/p.md#limits"})
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = (Path(tmp) / "docs").mkdir()
    ...     _ = (Path(tmp) / "docs" / "p.md").write_text("## Limits\\nE → 1.5 as n → ∞\\n")
    ...     derived_row_problems(row("1.5"), Path(tmp)), derived_row_problems(row("2.5"), Path(tmp))
    ([], ["DERIVED row 'limit': '2.5' is not in docs/p.md#limits (the page that derives it)"])
    """
    d = row.details
    name = f"DERIVED row {row.name!r}"
    literals = _literals(d.get("derived"))
    cite = d.get("derived_in", "")
    if not literals or not isinstance(cite, str) or "#" not in cite:
        return [f"{name}: no derived literal or no derived_in 'docs/<page>.md#<anchor>'"]
    if "claim" in d:
        return [f"{name}: carries a paper claim (a number the paper prints is a PAPER row)"]
    page, anchor = cite.split("#", 1)
    path = root / page
    if not path.is_file():
        return [f"{name}: {page} does not exist"]
    section = markdown_section(path.read_text(encoding="utf-8"), anchor)
    if section is None:
        return [f"{name}: {page} has no section #{anchor}"]
    return [
        f"{name}: {lit!r} is not in {cite} (the page that derives it)"
        for lit in literals
        if not literal_in(lit, section)
    ]
