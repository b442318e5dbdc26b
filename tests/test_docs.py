"""The README and the documentation site: what a newcomer reads agrees with what CI runs.

* the README is short (at most 200 lines), carries no dates, and its quick-start, test and docs
  commands are the ones ``.ci/run`` runs;
* numbers quoted in both places agree (the test-suite budget);
* the generated API reference (``docs/api/*.md``, mkdocstrings) names every module of each paper's
  floors, so a new module cannot drop out of the reference unnoticed;
* the gallery (``examples/plot_*.py``, run by mkdocs-gallery at build time) has the four examples
  the documentation promises, each with a title, a figure and no absolute output path.

The site itself is built by ``.ci/run`` (``mkdocs build --strict``); these tests need no MkDocs.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
CI = ROOT / ".ci" / "run"
KEYS = ("zfb24", "hpcy25", "zwb24", "czz24", "collins24")
#: Modules the reference leaves out on purpose: planted faults (negative controls) and the
#: parameter domains behind the validators (their messages are what a user sees).
NOT_DOCUMENTED = {"faults", "domains", "__init__"}
#: A date as the README must not carry one: ISO dates and "Month YYYY" / "DD Month".
DATE = re.compile(
    r"\b(19|20)\d\d-\d\d-\d\d\b|\b(January|February|March|April|May|June|July|August|"
    r"September|October|November|December)\s+(\d{1,2}|(19|20)\d\d)\b"
)


def _fenced(text: str) -> list[str]:
    """The lines inside fenced code blocks of a Markdown ``text``."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            inside = not inside
            continue
        if inside:
            out.append(line.strip())
    return out


def _ci_commands() -> list[str]:
    return [
        line.strip()
        for line in CI.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def test_readme_is_short_and_undated() -> None:
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= 200, f"README has {len(lines)} lines; at most 200 (details go to docs/)"
    dated = [f"{i}: {line}" for i, line in enumerate(lines, 1) if DATE.search(line)]
    assert not dated, (
        "README carries dates (measurements go to docs/performance.md):\n" + "\n".join(dated)
    )
    assert DATE.search("measured 2026-11-27") and DATE.search("on November 27")  # the scan works


def test_readme_quick_start_is_what_ci_runs() -> None:
    """The README's two quick-start commands and its docs build are run by ``.ci/run``
    (``python -m pip`` there is the README's ``pip``; CI's report is the quick tier, the
    default)."""
    blocks = _fenced(README.read_text(encoding="utf-8"))
    ci = _ci_commands()
    install, report = next(b for b in blocks if "constraints.txt" in b).split(" && ")
    assert f"python -m {install}" in ci, f"README's install {install!r} is not CI's"
    assert report.startswith("icl-verify report")
    assert any(c.startswith("icl-verify report") for c in ci), "CI runs no report"
    assert "python -m pytest" in blocks and "python -m pytest" in ci
    docs_install = 'pip install -c constraints.txt -e ".[docs]"'
    assert docs_install in blocks and f"python -m {docs_install}" in ci
    assert "mkdocs build --strict" in " ".join(blocks)
    assert any("mkdocs build --strict" in c for c in ci), ".ci/run must build the docs strictly"


def _budget_minutes(text: str) -> set[int]:
    """Minutes quoted as the default test suite's budget in ``text``."""
    return {int(m) for m in re.findall(r"budget[^.\n]*?(\d+)\s*min", text)}


def test_test_budget_agrees_between_readme_and_docs() -> None:
    readme = _budget_minutes(README.read_text(encoding="utf-8"))
    testing = _budget_minutes((ROOT / "docs" / "testing.md").read_text(encoding="utf-8"))
    assert readme and testing, "the README and docs/testing.md both state the suite's budget"
    assert readme == testing, f"README says {readme} min, docs/testing.md says {testing} min"
    assert _budget_minutes("its budget is 12 minutes on 2 cores") == {12}


def _documented() -> set[str]:
    found: set[str] = set()
    for page in (ROOT / "docs" / "api").glob("*.md"):
        found |= set(re.findall(r"^::: ([\w.]+)", page.read_text(encoding="utf-8"), re.M))
    return found


@pytest.mark.parametrize("key", KEYS)
def test_api_reference_names_every_module_of_a_paper(key: str) -> None:
    documented = _documented()
    expected = [
        f"{pkg}.{key}.{f.stem}"
        for pkg in ("theory", "numerics")
        for f in sorted((ROOT / pkg / key).glob("*.py"))
        if f.stem not in NOT_DOCUMENTED
    ] + [f"sims.{key}.train"]
    missing = [m for m in expected if m not in documented]
    assert not missing, f"docs/api/ does not document {missing} (add a '::: module' block)"


def test_api_reference_names_the_shared_layer() -> None:
    documented = _documented()
    shared = [
        "numerics.ode",
        "numerics.testing",
        "numerics.montecarlo",
        "numerics.sampling",
        "theory.strategies",
        "theory.settings.linear",
        "sims.verify",
        "sims.registry",
        "sims.sweep",
        "sims.figures.sweep",
        *(f"theory.{k}.settings" for k in KEYS),
        *(f"theory.strategies.{k}" for k in KEYS),
    ]
    missing = [m for m in shared if m not in documented]
    assert not missing, f"docs/api/ does not document {missing}"
    assert "numerics.zfb24.ode" in documented and "numerics.hpcy25.flows" in documented


def test_api_reference_names_only_modules_that_exist() -> None:
    gone = [
        m
        for m in _documented()
        if not (ROOT / (m.replace(".", "/") + ".py")).exists()
        and not (ROOT / m.replace(".", "/") / "__init__.py").exists()
    ]
    assert not gone, f"docs/api/ names modules that do not exist: {gone}"


GALLERY = sorted((ROOT / "examples").glob("plot_*.py"))


def test_gallery_has_the_promised_examples() -> None:
    names = " ".join(p.stem for p in GALLERY)
    for topic in ("flows", "trained_sweep", "check_a_theorem", "own_property"):
        assert topic in names, f"the gallery lacks its {topic!r} example"


@pytest.mark.parametrize("path", GALLERY, ids=[p.name for p in GALLERY])
def test_gallery_example_has_title_figure_and_relative_outputs(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    doc = ast.get_docstring(ast.parse(source)) or ""
    title = doc.strip().splitlines()
    assert len(title) >= 2 and set(title[1]) == {"="}, f"{path.name}: a '====' title first"
    assert "plt.subplots" in source or "plt.figure" in source, f"{path.name} draws no figure"
    absolute = re.findall(r"""(?:savefig|open|Path|out_dir|--out)\(?\s*["'](/[^"']*)""", source)
    assert not absolute, f"{path.name} writes to absolute paths {absolute}"


def test_griffe_extension_renders_rst_as_markdown() -> None:
    """The build's docstring converter (docs/_ext): roles become code, loose doctests fenced."""
    pytest.importorskip("griffe")
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "griffe_docstrings", ROOT / "docs" / "_ext" / "griffe_docstrings.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.convert(":func:`~numerics.ode.integrate`") == "`integrate`"
    assert mod.convert("S.\n\n>>> 1\n1").splitlines()[2:] == ["```pycon", ">>> 1", "1", "```"]
    kept = "S.\n\nExamples\n--------\n>>> 1\n1"
    assert mod.convert(kept) == kept  # an Examples section is Griffe's to render
    assert "```text" in mod.convert(".. math::\n\n    a = b\n")


#: What a user cannot follow in a docstring of the reference: the maintainers' style-rule and
#: spec-rule numbers ("STYLE R16", "T-R8(d1)", "V-R6", "spec 003 R0.8", "R0.7", "(R12)",
#: "spec §6 item 14", "spec 002 C17", "V-sims S1"), a spec tag ("[COMPUTED]"), and paths
#: outside the repository.
INTERNAL = re.compile(
    r"STYLE\s+R\d|\b[TV]-R\d|\bV-sims\b|\.\./shared|shared/specs|\[COMPUTED\]"
    r"|\b[Ss]pec (?:\d{3}|[A-Z]?-?R\d|[A-Z]\d|§|``\d{3})|(?<![\w.])R\d+(?:\.\d+)?\b"
)


def _docstrings(path: Path) -> list[tuple[str, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                out.append((getattr(node, "name", "<module>"), doc))
    return out


def _internal_docstrings(files: list[Path]) -> list[str]:
    """``"file:name: match"`` for each module, class or function docstring of ``files`` citing an
    internal rule (comments and ``spec=`` fields are not docstrings: maintainers' text)."""
    return [
        f"{f.relative_to(ROOT) if f.is_relative_to(ROOT) else f.name}:{name}: {m.group(0)}"
        for f in files
        for name, doc in _docstrings(f)
        for m in INTERNAL.finditer(doc)
    ]


def test_reference_docstrings_cite_no_internal_rule() -> None:
    """The docstrings of theory/, numerics/ and sims/ (what the API reference and ``help()``
    show) name no internal rule number and no path outside the repository: a source is the
    paper's location, [derived], or the docs page deriving the value."""
    files = [
        f for pkg in ("theory", "numerics", "sims") for f in sorted((ROOT / pkg).rglob("*.py"))
    ]
    assert len(files) > 100, "the scan must see the three packages"
    bad = _internal_docstrings(files)
    assert not bad, "internal references in docstrings:\n" + "\n".join(bad)


@pytest.mark.parametrize(
    "planted",
    [
        "(STYLE R13)",
        "spec T-R11 values",
        "spec 003 R0.8 (d = 3)",
        "spec V-R6 target 1",
        "(spec §6 item 14)",
        "spec 002 C17",
        "Spec 001 R9's closed form",
        "0.7479 (spec [COMPUTED])",
        "see ../shared/specs/003.md",
        "in invariant coordinates (STYLE\n    R10)",
        "R0.7: argmin ω depends on L/σ only",
        "the effective predictor (R12)",
    ],
)
def test_docstring_scan_catches_a_planted_citation(tmp_path: Path, planted: str) -> None:
    """Negative control: a citation planted in a module, class or function docstring is caught,
    while a paper location in the same places is not."""
    f = tmp_path / "planted.py"
    f.write_text(
        f'"""Module: Source: [zfb24] Theorem 4, eq. (11)."""\n\n\n'
        f'class K:\n    """Class: [derived] (docs/papers/zfb24.md)."""\n\n\n'
        f'def g():\n    """Function: {planted}."""\n    # comment: spec 003 R0.8 is fine here\n',
        encoding="utf-8",
    )
    bad = _internal_docstrings([f])
    assert bad and all(b.startswith("planted.py:g: ") for b in bad), bad
    assert not INTERNAL.search("Source: [zfb24] Theorem 4, eq. (11); the spectrum; Spec. 3")
    assert not INTERNAL.search("R(M, N), R_B∞, R², ``rho.R2``, Figs. 3-4 (R) and R̂ w̃")


def test_docstrings_parse_as_numpydoc_without_a_warning() -> None:
    """The API pages' parser (griffe, numpy style, as mkdocs.yml sets it) reads every docstring
    of theory, numerics and sims without a warning: ``mkdocs build --strict`` (CI) aborts on one,
    e.g. a continuation line of a parameter read as a parameter of its own."""
    import logging

    griffe = pytest.importorskip("griffe")

    class Collect(logging.Handler):
        def __init__(self) -> None:
            super().__init__()
            self.messages: list[str] = []

        def emit(self, record: logging.LogRecord) -> None:
            self.messages.append(record.getMessage())

    seen = Collect()
    logger = logging.getLogger("griffe")
    logger.addHandler(seen)
    try:

        def walk(obj) -> None:
            for member in obj.members.values():
                if member.is_alias:
                    continue
                if member.docstring:
                    member.docstring.parsed  # noqa: B018  (parsing is what warns)
                if member.is_module or member.is_class:
                    walk(member)

        for pkg in ("theory", "numerics", "sims"):
            walk(
                griffe.load(
                    pkg,
                    docstring_parser="numpy",
                    search_paths=[str(ROOT)],
                    resolve_aliases=False,
                )
            )
    finally:
        logger.removeHandler(seen)
    assert not seen.messages, seen.messages
