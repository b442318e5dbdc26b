"""Sources a user can follow: a result's ``source`` is the
paper's own location (spec sections live in ``Result.spec``, for maintainers), and nothing in the
README or ``docs/`` points outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sims.registry import all_results

ROOT = Path(__file__).resolve().parents[1]
#: What points outside the repository: the sibling ``shared`` folder (specs, papers, style).
OUTSIDE = re.compile(r"\.\./shared|shared/(specs|papers)|STYLE\.md")
#: A spec citation in a user-facing source ("spec 001 R9", "spec §6 item 5").
SPEC_REF = re.compile(r"\bspecs?\b\s*(\d{3}|§|R\d|V-|C\d)", re.IGNORECASE)


def outside_links(text: str) -> list[str]:
    """Lines of ``text`` that point outside the repository.

    >>> outside_links("see ../shared/specs/004.md\\nfine")
    ['see ../shared/specs/004.md']
    """
    return [line for line in text.splitlines() if OUTSIDE.search(line)]


#: The pages a reader sees (``docs/generated/``: the gallery as built, from ``examples/``).
DOCS = [
    ROOT / "README.md",
    *(p for p in sorted((ROOT / "docs").rglob("*.md")) if "generated" not in p.parts),
]


@pytest.mark.parametrize("path", DOCS, ids=[str(p.relative_to(ROOT)) for p in DOCS])
def test_docs_point_nowhere_outside_the_repository(path: Path) -> None:
    bad = outside_links(path.read_text(encoding="utf-8"))
    assert not bad, f"{path.relative_to(ROOT)} points outside the repository:\n" + "\n".join(bad)


def test_result_sources_cite_the_paper_not_the_spec() -> None:
    bad = [f"{r.id}: {r.source}" for r in all_results() if SPEC_REF.search(r.source)]
    assert not bad, (
        "Result.source cites a spec (move it to Result.spec; source is the paper's "
        "own location):\n" + "\n".join(bad)
    )


def test_spec_reference_pattern_catches_a_planted_spec_source() -> None:
    """Negative control for the source scan."""
    assert SPEC_REF.search("[hpcy25] Theorem 4.2(iii); spec 001 R9")
    assert SPEC_REF.search("spec §6 item 5")
    assert not SPEC_REF.search("[zfb24] Theorem 4, eq. (11); Lemmas 18-20")
