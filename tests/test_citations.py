"""Nothing a user reads cites our internal guides or spec rule numbers.

A row's source is the paper's location, or the docs page that derives the value; the spec
sections a maintainer reads stay in ``Result.spec`` and ``Claim.spec`` (never printed, never in
``results.json``).  Three scans:

* what the registry exposes without running anything: every result's summary, source, statement
  and fixed-check reasons, every claim's location and what it says is lost (printed with the row),
  every Setting field's meaning and domain (``check --params``);
* every string literal of ``theory/``, ``numerics/`` and ``sims/`` that can reach a row or a
  message (docstrings, comments and ``spec=`` cross-references excluded), so a check of any tier
  is covered;
* the rows of every default-tier declared check (the session's shared ``declared_run``): names,
  details keys and values, claims, fixed reasons.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sims.registry import all_claims, all_results
from sims.verify import declared_checks
from theory.common.protocols import Claim, Evidence

ROOT = Path(__file__).resolve().parents[1]

#: An internal citation: a spec ("spec 001 R9", "the spec's", "spec Λ"), a spec rule or item
#: number ("R12", "R0.7", "T-R5", "V-R1"), a spec tag ("[COMPUTED]", "[R-derived-bound]",
#: "[V-num]"), or our guides ("STYLE R13", "GUIDE.md", "DEVELOPERS.md").
INTERNAL = re.compile(
    r"\bspecs?\b|(?-i:\bSTYLE\b)|\b[TV]-R\d|(?-i:\bR\d+(?:\.\d+)?\b)|\[COMPUTED|\[R-derived|\[V-num\]"
    r"|\bGUIDE(?:\.md)?\b|DEVELOPERS\.md",
    re.IGNORECASE,
)


def internal(text: str) -> list[str]:
    """The internal citations in ``text``.

    >>> internal("R_Binf(0.2, 3.0) vs spec 001 R9's 3.40512")
    ['spec', 'R9']
    >>> internal("R(M=16, N=16) at Λ = diag(0.5, 1, 1.5, 2) (Cor. 6); spectrum; R²")
    []
    """
    return [m.group(0) for m in INTERNAL.finditer(text)]


def strings(x: Any, where: str = "") -> Iterator[tuple[str, str]]:
    """``(where, text)`` of every string in a row's JSON-able value, dict keys included; a
    claim's ``quote`` (the paper's own text, garbled as our copy has it) is not ours."""
    if isinstance(x, str):
        yield where, x
    elif isinstance(x, dict):
        for k, v in x.items():
            yield f"{where}.{k} (key)", str(k)
            if not (k == "quote" and where.endswith("claim")):
                yield from strings(v, f"{where}.{k}")
    elif isinstance(x, (list, tuple)):
        for i, v in enumerate(x):
            yield from strings(v, f"{where}[{i}]")


def row_citations(row: Evidence) -> list[str]:
    """``"where: text"`` for each internal citation a row shows (``--verbose`` and ``--json``
    included).

    >>> row = Evidence("x vs spec R9", "FLOAT", 1.0, 1.0, 0.1, 0.0, True, details={"spec": "a"})
    >>> [s.split(":")[0] for s in row_citations(row)]
    ['name', 'details.spec (key)']
    """
    out = []
    for where, text in [
        ("name", row.name),
        ("fixed", row.fixed),
        *strings(row.to_json()["details"], "details"),
        *(strings(row.predicted, "predicted") if isinstance(row.predicted, str) else []),
        *(strings(row.observed, "observed") if isinstance(row.observed, str) else []),
    ]:
        if internal(text):
            out.append(f"{where}: {text}")
    return out


# ----------------------------------------------------------------- what the registry exposes
def registry_texts() -> Iterator[tuple[str, str]]:
    """``(where, text)`` of everything ``list``, ``show``, ``check --params`` and the report print
    about a result and its claims without running a check."""
    from theory.common.setting import setting_fields

    for r in all_results():
        yield f"{r.id} summary", r.summary
        yield f"{r.id} source", r.source
        yield f"{r.id} statement", r.statement
        for c in r.checks:
            yield f"{r.id} {c.path} fixed", c.fixed
        if r.setting is not None:
            for name, f in setting_fields(type(r.setting)).items():
                yield f"{r.id} --params {name}", f"{f.doc} {f.domain}"
    for key, c in all_claims().items():
        shown = c.to_json()
        assert "spec" not in shown, f"{key}: Claim.to_json shows the maintainers' spec"
        yield f"claim {key} where", c.where
        yield f"claim {key} lost", c.lost


def test_nothing_the_registry_shows_cites_a_spec_or_guide() -> None:
    bad = [f"{w}: {t}" for w, t in registry_texts() if internal(t)]
    assert not bad, (
        "user-facing text cites an internal spec or guide (cite the paper's location or the docs "
        "page deriving the value; spec sections go in Result.spec / Claim.spec):\n" + "\n".join(bad)
    )


# --------------------------------------------------------------------- every string literal
LAYERS = ("theory", "numerics", "sims")


#: Literals exempt from the scan, by file, each with its reason (none today).
PENDING: dict[str, tuple[str, ...]] = {}


def literal_citations(source: str, file: str = "<string>") -> list[str]:
    """``file:line: text`` of each string literal of ``source`` that cites a spec or guide, but
    docstrings, bare string statements (attribute docs) and ``spec=`` keyword values.

    >>> literal_citations('x = f("R(M, N) vs spec R10")\\nResult(spec="spec 004 R10")')
    ["<string>:1: 'R(M, N) vs spec R10'"]
    """
    tree = ast.parse(source)
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip.add(id(node.value))
        elif isinstance(node, ast.keyword) and node.arg == "spec":
            skip.update(id(n) for n in ast.walk(node.value))
    return [
        f"{file}:{node.lineno}: {node.value[:160]!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and internal(node.value)
        and not node.value.startswith(PENDING.get(file, ()))
    ]


def test_no_string_literal_that_can_reach_a_user_cites_a_spec_or_guide() -> None:
    bad = [
        hit
        for layer in LAYERS
        for file in sorted((ROOT / layer).rglob("*.py"))
        for hit in literal_citations(file.read_text(encoding="utf-8"), str(file.relative_to(ROOT)))
    ]
    assert not bad, (
        "string literals cite an internal spec or guide (rows, details, messages are read by "
        "users: cite the paper or the docs page; keep spec sections in spec=... or comments):\n"
        + "\n".join(bad)
    )


# ------------------------------------------------------------------------ the rows themselves


@pytest.mark.reads_every_declared_run
def test_no_row_of_a_default_check_cites_a_spec_or_guide(declared_run) -> None:
    bad = []
    for check in declared_checks(all_results()).values():
        if check.tier != "default":
            continue
        rows, _ = declared_run(check.path)
        bad += [f"{check.path}: {c}" for row in rows for c in row_citations(row)]
    assert not bad, "rows cite an internal spec or guide:\n" + "\n".join(bad)


def test_the_scans_catch_planted_citations() -> None:
    """Negative controls: each form the issue found is caught, a paper location is not."""
    for text in (
        "STYLE R13",
        "spec Λ: ℓ̃(0) < 0",
        "spec 003 R6 item 1 [COMPUTED]",
        "(spec R12)",
        "spec T-R5: Γ",
        "exact risk (R12) = forward-pass risk",
        "R0.7's second case",
        "encoded bounds are the spec's [R-derived-bound]",
    ):
        assert internal(text), text
    for text in ("[zfb24] Theorem 4, eq. (11); Lemmas 18-20", "Cor. 22 iid moments", "R(M=4)"):
        assert not internal(text), text
    assert literal_citations('details={"spec": "1.5"}')
    claim = Claim(where="Theorem 1", quote="q", provenance="printed", spec="spec 000 R1")
    row = Evidence("ok", "PAPER", 1.0, 1.0, 0.1, 0.0, True, details={"claim": claim.to_json()})
    assert not row_citations(row)
    planted = Evidence("ok", "FLOAT", 1.0, 1.0, 0.1, 0.0, True, details={"source": "spec 001"})
    assert row_citations(planted)
