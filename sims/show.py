"""Where a result lives: ``icl-verify show ID``.

For one registered result this prints its statement and source, then the ``file:line`` of each
theory object, each check function and each figure function, and the pytest node ids of the tests
marked ``@pytest.mark.result(ID)`` -- everything a reader needs to audit the result, found from the
registry and by parsing the test files (nothing is imported from ``tests/`` or run).
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import inspect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sims.registry import resolve
from theory.common.protocols import Result

__all__ = [
    "ROOT",
    "MAX_RESULT_FILES",
    "Location",
    "ResultMap",
    "locate",
    "result_map",
    "test_nodes",
    "format_map",
    "reached_files",
    "is_result_file",
]

#: The repository root (the folder holding ``theory/``, ``numerics/``, ``sims/`` and ``tests/``).
ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True, slots=True)
class Location:
    """A dotted path and where it is defined (``file`` relative to :data:`ROOT` when inside it)."""

    path: str
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True, slots=True)
class ResultMap:
    """Everything ``show`` prints for one result."""

    result: Result
    objects: tuple[Location, ...]
    checks: tuple[Location, ...]
    figures: tuple[Location, ...]
    tests: tuple[str, ...]


def _rel(file: str) -> str:
    p = Path(file).resolve()
    try:
        return str(p.relative_to(ROOT))
    except ValueError:
        return str(p)


def _assignment_line(module: Any, name: str) -> int:
    """Line of ``name = ...`` (or ``name: T = ...``) at module level, for constants."""
    src = inspect.getsource(module)
    for node in ast.parse(src).body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return node.lineno
    return 1


def locate(path: str) -> Location:
    """``file:line`` of the object at a dotted path ``"pkg.module:attr"``."""
    obj = resolve(path)
    target = inspect.unwrap(obj)
    try:
        file = inspect.getsourcefile(target)
        _, line = inspect.getsourcelines(target)
    except TypeError:  # a constant (a table, a tuple): find its assignment in the module
        mod_name = path.split(":", 1)[0] if ":" in path else path.rpartition(".")[0]
        module = importlib.import_module(mod_name)
        attr = path.split(":", 1)[1] if ":" in path else path.rpartition(".")[2]
        file = inspect.getsourcefile(module)
        line = _assignment_line(module, attr.split(".")[-1])
    if file is None:
        raise ValueError(f"{path}: no source file")
    return Location(path, _rel(file), max(int(line), 1))


def _marker_ids(decorators: list[ast.expr]) -> list[str]:
    ids: list[str] = []
    for dec in decorators:
        for node in ast.walk(dec):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "result"
            ):
                ids += [
                    a.value
                    for a in node.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)
                ]
    return ids


@functools.cache
def test_nodes(tests_dir: str | None = None) -> dict[str, tuple[str, ...]]:
    """Result id -> pytest node ids (``tests/x.py::Class::test_fn``) of the tests marked with it.

    A ``pytestmark = pytest.mark.result(...)`` at module or class level marks every test below it.
    """
    base = Path(tests_dir) if tests_dir else ROOT / "tests"
    out: dict[str, list[str]] = {}
    if not base.is_dir():
        return {}
    for file in sorted(base.rglob("test_*.py")):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        rel = _rel(str(file))

        def module_marks(body: list[ast.stmt]) -> list[str]:
            marks: list[str] = []
            for st in body:
                if isinstance(st, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "pytestmark" for t in st.targets
                ):
                    marks += _marker_ids([st.value])
            return marks

        def visit(body: list[ast.stmt], prefix: str, inherited: list[str]) -> None:
            for st in body:
                if isinstance(st, ast.ClassDef) and st.name.startswith("Test"):
                    marks = inherited + _marker_ids(st.decorator_list) + module_marks(st.body)
                    visit(st.body, f"{prefix}::{st.name}", marks)
                elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name.startswith(
                    "test"
                ):
                    for rid in inherited + _marker_ids(st.decorator_list):
                        out.setdefault(rid, []).append(f"{prefix}::{st.name}")

        visit(tree.body, rel, module_marks(tree.body))
    return {k: tuple(dict.fromkeys(v)) for k, v in out.items()}


def result_map(result: Result) -> ResultMap:
    """Locate every object, check and figure of ``result`` and its tests."""
    return ResultMap(
        result=result,
        objects=tuple(locate(p) for p in result.object_paths),
        checks=tuple(locate(p) for p in result.checks),
        figures=tuple(locate(p) for p in result.figures),
        tests=test_nodes().get(result.id, ()) + registry_nodes(result),
    )


def registry_nodes(result: Result) -> tuple[str, ...]:
    """The ``tests/test_registry.py`` nodes that run ``result``'s declared checks and their
    negative controls (parametrized by path, so the static marker scan does not see them)."""
    out = []
    for check in result.checks:
        out.append(f"tests/test_registry.py::test_declared_check[{check.path}]")
        out += [
            f"tests/test_registry.py::test_declared_control[{check.path}[{fault}]]"
            for fault in check.faults
        ]
    return tuple(out)


def format_map(m: ResultMap) -> str:
    """The text ``icl-verify show`` prints."""
    r = m.result
    tag = " [derived: a toolkit extension, not stated in the paper]" if r.derived else ""
    lines = [f"{r.id} ({r.kind}){tag}", f"  {r.summary}", f"  source: {r.source}"]
    if r.statement:
        lines += ["  statement:"] + [f"    {s}" for s in r.statement.strip().splitlines()]
    for title, locs in (("objects", m.objects), ("checks", m.checks), ("figures", m.figures)):
        lines.append(f"  {title}:" + ("" if locs else " (none)"))
        for i, loc in enumerate(locs):
            lines.append(f"    {loc.path}  ->  {loc}")
            if title != "checks":
                continue
            check = r.checks[i]
            if check.expect != "pass" or check.tier != "default":
                lines.append(f"      expect {check.expect}, tier {check.tier}")
            if not check.faults:
                lines.append("      negative controls: none declared")
            for fault, kw in check.faults.items():
                args = ", ".join(f"{k}={v!r}" for k, v in kw.items())
                lines.append(f"      negative control {fault!r}: {args}")
    files = reached_files(r)
    own = [f for f in files if is_result_file(f)]
    engines = [f for f in files if f not in own]
    lines.append(
        f"  its files ({len(own)}: declaration, checks, figures, strategies, Setting, trainer "
        "and the sections they import; derived from imports):" + ("" if own else " (none)")
    )
    lines += [f"    {f}" for f in own]
    if engines:
        lines.append(f"  the paper's engines they use ({len(engines)}; shared across its results):")
        lines += [f"    {f}" for f in engines]
    lines.append("  tests:" + ("" if m.tests else " (none found)"))
    lines += [f"    {t}" for t in m.tests]
    return "\n".join(lines)


# ------------------------------------------------------------------ the files a result reaches
#: Shared engines, not counted as a result's own files: the floors' top-level modules, the shared
#: layer, the torch models and the tolerance/agreement helpers.
_SHARED_PREFIXES = ("theory/common/", "theory/settings/", "sims/models/", "numerics/baselines/")


#: A section file is named by the paper's own numbering (``sec4_1_convergence``, ``appG``,
#: ``fig1b``, ``table1``), the same name on every floor.
_SECTION = re.compile(r"^(sec|app|fig|table|eq)[0-9A-Z]")
#: The files every result has a role in: its declaration, Setting and hypotheses, strategies,
#: trainer, figure functions and named alternatives.  (``claims.py``, the paper's printed words
#: for all its results, is read like an engine: one module per paper, shared.)
_ROLES = frozenset({"results", "settings", "hypotheses", "train", "figures", "neighbours"})
#: The maximum number of a result's own files (``icl-verify show``), asserted over the registry.
MAX_RESULT_FILES = 10


def is_result_file(rel: str) -> bool:
    """Whether a reached file is one of the result's own pieces (a section file named by the
    paper's numbering, or a file with a role: declaration, Setting, hypotheses, trainer, figures,
    alternatives, the paper's strategies) rather than an engine the paper's results share (its
    sampler, Monte Carlo, predictors, tolerances, ODE integrator, quoted claims, package
    ``__init__``)."""
    stem = Path(rel).stem
    if rel.startswith("theory/strategies/"):
        return stem != "common"
    return bool(_SECTION.match(stem)) or stem in _ROLES


def _own(rel: str) -> bool:
    parts = rel.split("/")
    if len(parts) < 2 or rel.startswith(_SHARED_PREFIXES):
        return False
    return not (len(parts) == 2 and parts[0] in ("theory", "numerics", "sims"))


def _module_file(module: str) -> str | None:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    rel = _rel(spec.origin)
    return None if rel.startswith("/") else rel


def _imports_of(rel: str) -> list[str]:
    """Project modules imported by one file (absolute and relative imports)."""
    path = ROOT / rel
    module = rel[:-3].replace("/", ".").removesuffix(".__init__")
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = (
                importlib.util.resolve_name("." * node.level + (node.module or ""), package)
                if node.level
                else (node.module or "")
            )
            out.append(base)
            out += [f"{base}.{a.name}" for a in node.names]
    return [m for m in out if m.split(".")[0] in ("theory", "numerics", "sims")]


def reached_files(result: Result) -> tuple[str, ...]:
    """The project files a result's checks reach, derived from imports: its declaration, the
    modules of its checks, figures and properties' strategies, its Setting's module, and the
    paper's own modules those import directly (shared engines excluded: the floors' top-level
    modules, ``theory/common``, ``theory/settings``, ``sims/models``)."""
    from sims import registry

    seeds: list[str] = []
    for r_mod in registry.MODULES:
        mod = importlib.import_module(r_mod)
        if result in getattr(mod, "RESULTS", ()):
            seeds.append(r_mod)
    seeds += [p.partition(":")[0] for p in (*result.checks, *result.figures)]
    seeds += [
        p.strategy.partition(":")[0] for p in registry.all_properties() if p.result == result.id
    ]
    if result.setting is not None:
        seeds.append(type(result.setting).__module__)
    files: dict[str, None] = {}
    for m in seeds:
        f = _module_file(m)
        if f is not None and _own(f):
            files.setdefault(f)
    # the declaration imports every check of the paper: only the result's own modules are expanded
    declarations = {_module_file(m) for m in registry.MODULES}
    for f in [f for f in files if f not in declarations]:
        for m in _imports_of(f):
            g = _module_file(m)
            if g is not None and _own(g):
                files.setdefault(g)
    return tuple(files)
