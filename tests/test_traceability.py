"""Every registered result has a test (STYLE R2), checks resolve, and the layering holds (R16)."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from sims.registry import all_results, markdown_table, resolve

ROOT = Path(__file__).resolve().parents[1]


def _marked_ids() -> set[str]:
    """Result ids named by ``@pytest.mark.result("...")`` under tests/ (parsed, not run)."""
    ids: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "result"
            ):
                for arg in node.args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        ids.add(arg.value)
    return ids


def test_every_result_has_a_test() -> None:
    """A result is tested by a ``@pytest.mark.result`` test, or by ``tests/test_registry.py``,
    which runs every declared check of every result (marked with the results that list it)."""
    marked = _marked_ids()
    registry_test = (ROOT / "tests" / "test_registry.py").read_text()
    assert "def test_declared_check(" in registry_test and "pytest.mark.result(" in registry_test
    missing = [r.id for r in all_results() if r.id not in marked and not r.checks]
    assert not missing, f"results without a test: {missing}"


def test_markers_name_registered_results() -> None:
    known = {r.id for r in all_results()}
    unknown = sorted(_marked_ids() - known)
    assert not unknown, f"tests mark unregistered result ids: {unknown}"


def test_every_result_has_checks_that_resolve() -> None:
    for r in all_results():
        assert r.checks, f"{r.id} has no check"
        for path in r.checks + r.figures + r.object_paths:
            obj = resolve(path)
            assert callable(obj), f"{r.id}: {path} is not callable"
        for path in r.checks:
            sig = inspect.signature(resolve(path))
            for name in ("quick", "seed"):
                assert name in sig.parameters, f"{path} lacks keyword parameter {name!r}"
                assert sig.parameters[name].kind is inspect.Parameter.KEYWORD_ONLY, path


def _imported_modules(path: Path) -> list[str]:
    """Every module named by an ``import`` / ``from … import`` anywhere in the file."""
    mods: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            mods += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            mods.append(node.module)
    return mods


FORBIDDEN_IN_SIMS_TRAINING = ("theory.", "numerics")
ALLOWED = ("theory.settings", "theory.common.protocols", "theory.common.setting")
#: A paper's own Setting module (``theory.<key>.settings``; ``theory.common.settings`` for base).
PAPER_SETTINGS = re.compile(r"^theory\.\w+\.settings$")


TRAINING_CODE = [
    "models",
    "train.py",
    "data.py",
    *sorted(str(p.relative_to(ROOT / "sims")) for p in (ROOT / "sims").glob("*/train.py")),
]


def _only_constants_from(path: Path, module: str) -> bool:
    """Every name ``path`` imports from ``module`` is an UPPER_CASE constant (no function)."""
    names = [
        a.name
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom) and node.module == module
        for a in node.names
    ]
    return bool(names) and all(re.fullmatch(r"[A-Z][A-Z0-9_]*", a) for a in names)


@pytest.mark.parametrize("sub", TRAINING_CODE)
def test_layering_trained_models_import_no_prediction(sub: str) -> None:
    """The code that builds and trains models (sims/models, data, train and every paper's
    trainer ``sims/<key>/train.py``) imports only theory.settings / protocols: a trained model
    never sees a prediction."""
    base = ROOT / "sims" / sub
    files = [base] if base.suffix == ".py" else sorted(base.glob("*.py"))
    assert files, f"sims/{sub} holds no Python file: the layering scan would see nothing"
    for f in files:
        for n in _imported_modules(f):
            if n == "numerics.testing" and _only_constants_from(f, n):
                continue  # a tolerance kind (a stopping rule's threshold), not a prediction
            if n.startswith(FORBIDDEN_IN_SIMS_TRAINING) or n == "theory":
                assert n.startswith(ALLOWED) or PAPER_SETTINGS.match(n), (
                    f"{f.relative_to(ROOT)} imports {n}"
                )


def test_theory_imports_no_numerics_or_sims() -> None:
    for f in (ROOT / "theory").rglob("*.py"):
        for m in _imported_modules(f):
            assert not m.startswith(("numerics", "sims", "torch", "scipy")), (
                f"{f.relative_to(ROOT)} imports {m} (theory may use stdlib, sympy, mpmath, numpy)"
            )


#: Paper folders of theory/ whose results are still declared in theory by dotted paths: none
#: since hpcy25's layout moved its declarations to sims/hpcy25/results.py.  Every folder, and the
#: shared layer, must name no module of the floors above.
NOT_YET_CONVERTED: tuple[str, ...] = ()
#: A string naming a module (or ``module:attr``) of numerics/ or sims/.
UPPER_FLOOR_NAME = re.compile(r"^(numerics|sims)(\.\w+)+(:[\w.]*)?$|^(numerics|sims)(\.\w+)*:")


def _upper_floor_names(path: Path) -> list[str]:
    """String constants of one file (f-string pieces included) that name a module above theory."""
    return [
        f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and UPPER_FLOOR_NAME.match(node.value.strip())
    ]


def test_theory_names_no_module_of_the_floors_above() -> None:
    """theory/ holds no ``"numerics....:..."`` or ``"sims....:..."`` string (a check, a fault, a
    figure named by its path): results are declared on the top floor with the functions
    themselves, so the import graph shows every dependency.  Every converted paper and the shared
    layer are held to it; only the papers in :data:`NOT_YET_CONVERTED` are left out."""
    files = [
        f
        for f in sorted((ROOT / "theory").rglob("*.py"))
        if f.relative_to(ROOT / "theory").parts[0] not in NOT_YET_CONVERTED
    ]
    assert any(f.parts[-2] == "common" for f in files)  # the shared layer is scanned
    bad = [hit for f in files for hit in _upper_floor_names(f)]
    assert not bad, "theory names modules of numerics/sims by path:\n" + "\n".join(bad)
    # the pattern finds what it must (a declared check, a Ref'd fault, a module prefix)
    for text in ("numerics.baselines:check_ols_mc", "numerics.baselines.faults:", "sims.x.y"):
        assert UPPER_FLOOR_NAME.match(text), text
    assert not UPPER_FLOOR_NAME.match("numerics are computed here: see theory.common")


GLOBAL_RNG_CALLS = (
    "np.random.seed(",
    "numpy.random.seed(",
    "torch.manual_seed(",
    "random.seed(",
    "torch.cuda.manual_seed",
    "np.random.rand(",
    "np.random.randn(",
    "np.random.normal(",
    "np.random.uniform(",
    "np.random.choice(",
    "np.random.standard_normal(",
)


def test_no_library_code_uses_a_global_rng() -> None:
    """Randomness is explicit (STYLE R8): generators are passed in, never global state."""
    offenders = []
    for pkg in ("theory", "numerics", "sims", "benchmarks"):
        for f in (ROOT / pkg).rglob("*.py"):
            text = f.read_text()
            for call in GLOBAL_RNG_CALLS:
                if call in text:
                    offenders.append(f"{f.relative_to(ROOT)}: {call}")
    assert not offenders, offenders


def test_results_page_lists_every_result() -> None:
    """docs/results.md's table is regenerated (python -m sims.registry --readme docs/results.md)."""
    page = (ROOT / "docs" / "results.md").read_text()
    missing = [r.id for r in all_results() if f"`{r.id}`" not in page]
    assert not missing, f"docs/results.md's table is stale; missing {missing}"
    assert markdown_table() in page, (
        "docs/results.md's table differs from the registry's summaries: "
        "python -m sims.registry --readme docs/results.md"
    )


def test_docs_name_no_machine_path() -> None:
    """No page in docs/ nor the README (nor the site's configuration and the gallery's scripts)
    names an absolute path of one machine (a run log, a scratch script): a reader of a clone has
    none of them (``~/.cache/icl-verify``, the documented
    cache, is not one)."""
    import re

    machine = re.compile(r"(?<![\w.~])/(?:work|home|root|tmp|Users|mnt|scratch)/[\w.-]")
    pages = [
        ROOT / "README.md",
        ROOT / "mkdocs.yml",
        *(p for p in sorted((ROOT / "docs").rglob("*.md")) if "generated" not in p.parts),
        *sorted((ROOT / "examples").glob("*.py")),  # the gallery's sources
        *sorted((ROOT / "examples").glob("*.md")),
    ]
    found = [
        f"{p.relative_to(ROOT)}:{i}: {m.group(0)}"
        for p in pages
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if (m := machine.search(line))
    ]
    assert not found, "absolute machine paths in docs:\n" + "\n".join(found)
    assert machine.search("see /work/runs/s20/x.py") and not machine.search("~/.cache/icl-verify")
