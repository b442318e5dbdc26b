"""Mutation testing of the formula floor (issue 35), per paper, with mutmut (``mutation`` extra).

    python -m benchmarks.mutation zwb24 [--sample N] [--fresh] [--jobs K] [--retest STATUS ...]
    python -m benchmarks.mutation all
    python -m benchmarks.mutation zwb24 --retest survived "no tests" [--recollect]
    python -m benchmarks.mutation zwb24 --report      # rewrite the results file, run nothing

Each target (:data:`TARGETS`) names the files whose functions are mutated (``theory/<key>/``, or
the closed-form parts of ``theory/common/``) and the fast tests a mutant is run against: the
paper's tests, the doctests of its floors and the registry test's runs of its declared checks, all
without the ``train``/``slow``/``thorough`` marks -- so one mutant costs seconds, not a training
run.  mutmut (pinned in ``pyproject.toml``) writes every mutant of a function into a copy of the
tree and picks one at run time; it runs only the tests that reach the mutated function, and
remembers every verdict, so a run stopped at any point resumes where it stopped; a new copy (a
clean checkout) resumes from the checked-in results file, whose verdicts carry the hash of the
function they are about (:func:`recorded_statuses`).

The copy lives in ``.mutation/<key>/`` (ignored by git): the repository's ``theory``, ``numerics``,
``sims``, ``tests``, ``docs``, ``conftest.py`` and ``pyproject.toml`` with a ``[tool.mutmut]``
table for the target appended.  One change is made to the mutated files in the copy: mutmut
leaves decorated functions alone, so a top-level ``@checked`` (the validation every public
formula carries) is applied after the definition instead, ``f = checked(f)`` -- the same object,
now one mutmut mutates (:func:`undecorate`).

The run writes ``benchmarks/mutation/<key>.json`` (checked in): every mutant's verdict, the
mutated line of each one that is not killed, and the counts in and outside the formulas the
paper's results name (every function a ``Result`` lists in ``objects``, with the functions of the
target they call).  A mutant that cannot change any result is listed in ``equivalent.toml`` beside
this file with its mutated line and a one-line reason; the run reads that list (an entry whose
line no longer matches, or whose mutant a test kills, is reported as stale and not counted).
The copy's ``conftest.py`` also empties the code's caches where they would hide which test
reaches a function (:data:`CACHE_HOOK`).  None of this runs in the default ``pytest`` or in
``.ci/run``.
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
SCRATCH = ROOT / ".mutation"
EQUIVALENT = HERE / "equivalent.toml"
#: The tool, pinned in pyproject.toml's ``mutation`` extra.
TOOL = "mutmut==3.8.1"
#: What the scratch copy holds (repository-relative prefixes).
COPIED = ("theory/", "numerics/", "sims/", "tests/", "docs/", "conftest.py", "pyproject.toml")
#: Marks of the tests a mutant is never run against (training, slow, thorough tiers).
FAST = "not train and not slow and not thorough"


@dataclass(frozen=True)
class Target:
    """One mutation target: the files mutated, the tests run, the results that name objects."""

    key: str
    #: Globs (repository-relative) of the files whose functions are mutated.
    mutate: tuple[str, ...]
    #: Globs of files left unmutated although ``mutate`` matches them.
    exclude: tuple[str, ...]
    #: pytest paths of the fast tests (doctest modules included).
    tests: tuple[str, ...]
    #: ``-k`` expression narrowing the shared tests (the registry test) to the target.
    select: str
    #: The module files that declare the RESULTS whose ``objects`` name this target's formulas.
    results: tuple[str, ...]
    #: The package whose ``"<package>:<name>"`` object strings name functions of this target.
    package: str


#: Files whose functions run only while the module is imported (the domain tables' builders):
#: mutmut switches a mutant on at call time, after the import, so it can never reach them.
IMPORT_TIME_ONLY = ("theory/*/domains.py",)

#: The papers (``theory/<key>``); ``common`` is the shared layer.
PAPERS = ("zfb24", "hpcy25", "zwb24", "collins24", "czz24")

TARGETS: dict[str, Target] = {
    "zwb24": Target(
        key="zwb24",
        mutate=("theory/zwb24/*.py",),
        exclude=IMPORT_TIME_ONLY,
        tests=(
            "tests/zwb24",
            "tests/test_registry.py",
            "theory/zwb24",
            "numerics/zwb24",
            "sims/zwb24",
        ),
        select="zwb24",
        results=("sims/zwb24/results.py",),
        package="theory.zwb24",
    ),
    **{
        key: Target(
            key=key,
            mutate=(f"theory/{key}/*.py",),
            exclude=IMPORT_TIME_ONLY,
            tests=(
                f"tests/{key}",
                "tests/test_registry.py",
                f"theory/{key}",
                f"numerics/{key}",
                f"sims/{key}",
            ),
            select=key,
            results=(f"sims/{key}/results.py",),
            package=f"theory.{key}",
        )
        for key in ("zfb24", "hpcy25", "collins24", "czz24")
    },
    # the closed-form parts of the shared layer: the Gaussian moments and the baselines' risks,
    # against their own tests, the doctests and the declared checks of the base results
    # (numerics.baselines.*); the objects are named by every paper's results
    "common": Target(
        key="common",
        mutate=("theory/common/gaussian.py", "theory/common/baselines/*.py"),
        exclude=(),
        tests=(
            "tests/common/test_gaussian.py",
            "tests/common/test_baselines.py",
            # the triage's checks of the shared formulas (session 12)
            "tests/common/test_s12_c1_ridge.py",
            "tests/common/test_s12_c2_gd_family.py",
            "tests/common/test_s12_c3_limits_gaussian.py",
            "tests/test_registry.py",
            "theory/common/gaussian.py",
            "theory/common/baselines",
            "numerics/baselines",
        ),
        select="common or baselines or gaussian",
        results=tuple(f"sims/{k}/results.py" for k in ("common", *PAPERS)),
        package="theory.common",
    ),
}


# ------------------------------------------------------------------------------ the scratch copy
def undecorate(source: str, decorator: str = "checked") -> str:
    """``source`` with each top-level ``@<decorator>`` (or ``@<decorator>(...)``) function
    rewritten as the bare definition followed by ``name = <decorator>(name)``: the same object,
    but one that mutmut (which skips decorated functions) mutates.  Line numbers inside the
    function are kept (the decorator line becomes blank).

    >>> print(undecorate("@checked\\ndef f(x):\\n    return x\\n\\n\\ny = f(1)\\n"))
    <BLANKLINE>
    def f(x):
        return x
    f = checked(f)
    <BLANKLINE>
    <BLANKLINE>
    y = f(1)
    <BLANKLINE>
    """
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    after: dict[int, str] = {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or len(node.decorator_list) != 1:
            continue
        dec = node.decorator_list[0]
        head = dec.func if isinstance(dec, ast.Call) else dec
        if not (isinstance(head, ast.Name) and head.id == decorator):
            continue
        if dec.lineno != dec.end_lineno:
            raise ValueError(f"{node.name}: a multi-line @{decorator}(...) is not supported")
        text = lines[dec.lineno - 1].strip()
        lines[dec.lineno - 1] = "\n"
        end = node.end_lineno if node.end_lineno is not None else node.lineno
        after[end - 1] = f"{node.name} = {text[1:]}({node.name})\n"
    out = []
    for i, line in enumerate(lines):
        out.append(line if line.endswith("\n") else line + "\n")
        if i in after:
            out.append(after[i])
    return "".join(out)


def repository_files() -> list[str]:
    """The repository's tracked and untracked (not ignored) files that the copy holds."""
    res = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    names = [n for n in res.stdout.splitlines() if n.startswith(COPIED)]
    return sorted(n for n in names if (ROOT / n).is_file())


def mutated(target: Target, rel: str) -> bool:
    """Whether mutmut mutates the repository file ``rel`` for ``target``."""
    return any(fnmatch.fnmatch(rel, g) for g in target.mutate) and not any(
        fnmatch.fnmatch(rel, g) for g in target.exclude
    )


def mutmut_table(target: Target) -> str:
    """The ``[tool.mutmut]`` table appended to the copy's pyproject.toml."""
    only = [g.replace("*.py", "*") if g.endswith("*.py") else g for g in target.mutate]
    conf = {
        "source_paths": ["theory", "numerics", "sims"],
        "only_mutate": only,
        "do_not_mutate": list(target.exclude),
        "also_copy": ["docs", "conftest.py"],
        "pytest_add_cli_args": ["-n0", "-p", "no:cacheprovider", "-m", FAST],
        # not the doctests of mutmut's copies of each function (``x_f__mutmut_3``): the same
        # examples again, once per mutant
        "pytest_add_cli_args_test_selection": [
            "-k",
            f"({target.select}) and not __mutmut_",
            *target.tests,
        ],
        "process_isolation": "forkserver",
        "forkserver_warmup": "collect",
        "use_git_change_detection": False,
        "use_setproctitle": False,
    }
    body = "\n".join(f"{k} = {json.dumps(v)}" for k, v in conf.items())
    return f"\n\n[tool.mutmut]\n{body}\n"


#: Appended to the copy's ``conftest.py``.  A function reached only through a cached builder
#: (``@functools.cache def _fn(): return lambdified(..., _expr(...))``) is reached by the first
#: test that fills the cache, and the later tests read the cache: mutmut's stats would record only
#: that first test as reaching ``_expr``, so a mutant of ``_expr`` that only a later test kills
#: survives (found in session 13: ``_ridge_limit_expr``'s branch conditions).  So every cache of
#: ``theory``/``numerics``/``sims`` is emptied before each test while the stats are collected, and
#: before the first test of each mutant's run (its fork server imported the test modules, which
#: may fill a cache with the unmutated code).  ``_lambdify_cached`` is keyed by the expression
#: itself, so it is left warm.
CACHE_HOOK = """

# ---- appended by benchmarks.mutation (the copy only): caches must not hide which test reaches what
import functools as _mm_functools
import sys as _mm_sys

import pytest as _mm_pytest

_mm_first = [True]
_MM_KEEP = {"_lambdify_cached"}


def _mm_clear_caches() -> int:
    n = 0
    for name, mod in list(_mm_sys.modules.items()):
        if name.partition(".")[0] not in ("theory", "numerics", "sims"):
            continue
        for v in list(vars(mod).values()):
            inner = list(vars(v).values()) if isinstance(v, type) else []
            for o in (v, *inner):
                o = getattr(o, "__func__", o)
                if isinstance(o, _mm_functools._lru_cache_wrapper) and (
                    o.__name__ not in _MM_KEEP
                ):
                    o.cache_clear()
                    n += 1
    return n


@_mm_pytest.fixture(autouse=True)
def _mm_cold_caches():
    from mutmut.mutation.trampoline import get_mutant_under_test

    if _mm_first[0] or get_mutant_under_test() == "stats":
        _mm_first[0] = False
        _mm_clear_caches()
    yield
"""


def _write_if_changed(path: Path, data: bytes) -> bool:
    if path.is_file() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def sync(target: Target) -> Path:
    """Bring ``.mutation/<key>/`` up to date with the repository (only changed files are
    rewritten, so mutmut keeps every verdict of an unchanged function); unmutated files are also
    refreshed inside ``mutants/``, which mutmut copies only once."""
    work = SCRATCH / target.key
    work.mkdir(parents=True, exist_ok=True)
    keep = set()
    for rel in repository_files():
        data = (ROOT / rel).read_bytes()
        if rel == "pyproject.toml":
            data += mutmut_table(target).encode()
        elif rel == "conftest.py":
            data += CACHE_HOOK.encode()
        elif rel.endswith(".py") and mutated(target, rel):
            data = undecorate(data.decode()).encode()
        keep.add(rel)
        _write_if_changed(work / rel, data)
        inside = work / "mutants" / rel
        if not mutated(target, rel) and inside.parent.is_dir():
            if _write_if_changed(inside, data) and rel == "conftest.py":
                # which tests reach which function may change with the hooks: collect it again
                (work / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    for base in (work, work / "mutants"):
        for prefix in COPIED:
            top = base / prefix
            if not top.is_dir():
                continue
            for f in top.rglob("*.py"):
                rel = f.relative_to(base).as_posix()
                if rel not in keep and "__pycache__" not in rel:
                    f.unlink()
    return work


# ------------------------------------------------------------------------------ running mutmut
#: Run in the copy by the mutation environment's Python: generate the mutants (no test runs).
_GENERATE = """
import os
from mutmut.__main__ import copy_src_dir, copy_also_copy_files, create_mutants
from mutmut.mutation.trampoline import set_mutant_under_test
set_mutant_under_test("mutant_generation")
os.makedirs("mutants", exist_ok=True)
copy_src_dir()
copy_also_copy_files()
create_mutants(1)
"""

#: Run in the copy: every mutant's exit code, duration and (unless killed) its diff, as JSON.
_EXPORT = """
import json, sys
from mutmut.mutation.data import SourceFileMutationData
from mutmut.mutation.diff_apply import get_diff_for_mutant
from mutmut.stats import status_by_exit_code
from mutmut.utils.file_utils import walk_mutatable_files
out = {}
for path in walk_mutatable_files():
    m = SourceFileMutationData(path=path)
    m.load()
    for k, v in m.exit_code_by_key.items():
        status = status_by_exit_code[v]
        rec = {"status": status, "path": str(path), "seconds": m.durations_by_key.get(k)}
        if status not in ("killed", "timeout", "not checked"):
            rec["diff"] = get_diff_for_mutant(k, path=path)
        out[k] = rec
json.dump(out, sys.stdout)
"""

#: Run in the copy: every mutated function's hash (mutmut's, of its source), by the qualified
#: name its mutants' names start with.
_HASHES = """
import json, sys
from mutmut.mutation.data import SourceFileMutationData
from mutmut.utils.file_utils import walk_mutatable_files
from mutmut.utils.format_utils import get_mutant_name
out = {}
for path in walk_mutatable_files():
    m = SourceFileMutationData(path=path)
    m.load()
    out.update({get_mutant_name(path, f): h for f, h in m.hash_by_function_name.items()})
json.dump(out, sys.stdout)
"""

#: Run in the copy with the path of a JSON file {mutant name: mutmut status}: each mutant of the
#: copy not yet checked gets that status's exit code (what mutmut itself would have stored).
_SEED = """
import json, sys
from mutmut.mutation.data import SourceFileMutationData
from mutmut.stats import status_by_exit_code
from mutmut.utils.file_utils import walk_mutatable_files
given = json.load(open(sys.argv[1]))
code = {}
for c, status in status_by_exit_code.items():
    if c is not None:
        code.setdefault(status, c)
n = 0
for path in walk_mutatable_files():
    m = SourceFileMutationData(path=path)
    m.load()
    hit = [k for k, v in m.exit_code_by_key.items() if v is None and k in given]
    for k in hit:
        m.exit_code_by_key[k] = code[given[k]]
    if hit:
        m.save()
        n += len(hit)
print(n)
"""


def mutmut_python() -> str:
    """The Python that has mutmut: this one, or the worktree's ``.venv`` (see docs/mutation.md)."""
    try:
        import mutmut  # noqa: F401

        return sys.executable
    except ImportError:
        venv = ROOT / ".venv" / "bin" / "python"
        if venv.is_file():
            return str(venv)
        raise SystemExit(
            f"mutmut is not installed: pip install -e '.[mutation]' (pins {TOOL})"
        ) from None


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MUTANT_UNDER_TEST")}
    env.update(OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    env.setdefault("MPLBACKEND", "Agg")
    return env


def _python(work: Path, code: str, *args: str) -> str:
    res = subprocess.run(
        [mutmut_python(), "-c", code, *args],
        cwd=work,
        env=_env(),
        capture_output=True,
        text=True,
    )
    if res.returncode != 0:
        raise SystemExit(
            f"mutmut step failed in {work}:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
        )
    return res.stdout


def _json_out(text: str) -> dict:
    """The JSON object a copy's script printed (after whatever mutmut printed first)."""
    return json.loads(text[text.index("{") :]) if "{" in text else {}


def export(work: Path) -> dict[str, dict]:
    """Every generated mutant of the copy: status, source path, seconds, diff (unless killed)."""
    return _json_out(_python(work, _EXPORT))


def function_hashes(work: Path) -> dict[str, str]:
    """mutmut's hash of every mutated function of the copy, by qualified name (a mutant's name is
    its function's qualified name, ``__mutmut_`` and a number)."""
    return _json_out(_python(work, _HASHES))


def recorded_statuses(previous: dict, hashes: dict[str, str]) -> dict[str, str]:
    """The mutmut status of every mutant a results file decided, for the functions whose hash is
    still the one the file recorded: the verdicts a fresh copy resumes from.

    A function whose source changed since (its hash differs, or the file predates hashes) gives
    nothing: its mutants may be renumbered, and they run again.

    >>> prev = {"function_hashes": {"m.x_f": "h1", "m.x_g": "h2"},
    ...         "verdicts": {"m.x_f__mutmut_1": "killed", "m.x_f__mutmut_2": "surviving",
    ...                      "m.x_g__mutmut_1": "killed", "m.x_f__mutmut_3": "not checked"},
    ...         "surviving": {"m.x_f__mutmut_2": {"status": "no tests"}}, "equivalent": {}}
    >>> recorded_statuses(prev, {"m.x_f": "h1", "m.x_g": "changed"})
    {'m.x_f__mutmut_1': 'killed', 'm.x_f__mutmut_2': 'no tests'}
    """
    recorded = previous.get("function_hashes") or {}
    out: dict[str, str] = {}
    for name, verdict in previous.get("verdicts", {}).items():
        fn = name.rsplit("__mutmut_", 1)[0]
        if verdict == "not checked" or fn not in recorded or recorded[fn] != hashes.get(fn):
            continue
        if verdict == "killed":
            out[name] = "killed"
        else:
            rec = previous.get(verdict, {}).get(name, {})
            out[name] = rec.get("status", "survived")
    return out


def seed(work: Path, statuses: dict[str, str]) -> int:
    """Store ``statuses`` in the copy's mutmut data for the mutants not yet checked; how many."""
    if not statuses:
        return 0
    path = work / "seed.json"
    path.write_text(json.dumps(statuses))
    return int(_python(work, _SEED, str(path)).split()[-1])


def run_mutmut(work: Path, names: list[str], jobs: int, log: Path) -> int:
    """``mutmut run --max-children jobs NAMES`` in the copy, its output appended to ``log``."""
    exe = str(Path(mutmut_python()).parent / "mutmut")
    with log.open("a") as fh:
        fh.write(f"\n=== {time.strftime('%Y-%m-%d %H:%M:%S')} run of {len(names)} mutants\n")
        fh.flush()
        res = subprocess.run(
            [exe, "run", "--max-children", str(jobs), *names],
            cwd=work,
            env=_env(),
            stdout=fh,
            stderr=subprocess.STDOUT,
        )
    return res.returncode


# ------------------------------------------------------------------------------ what a mutant hits
def top_functions(target: Target) -> dict[str, tuple[str, set[str]]]:
    """Every function of the target's mutated files (methods as ``Class.method``) -> (module,
    names of the target's functions it references)."""
    files = [rel for rel in repository_files() if rel.endswith(".py") and mutated(target, rel)]
    defs: dict[str, tuple[str, ast.AST]] = {}
    for rel in files:
        mod = rel[:-3].replace("/", ".").removesuffix(".__init__")
        tree = ast.parse((ROOT / rel).read_text())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                defs[node.name] = (mod, node)
            elif isinstance(node, ast.ClassDef):
                for sub in node.body:
                    if isinstance(sub, ast.FunctionDef):
                        defs[f"{node.name}.{sub.name}"] = (mod, sub)
    out: dict[str, tuple[str, set[str]]] = {}
    for name, (mod, node) in defs.items():
        used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        used |= {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
        out[name] = (mod, {u for u in used if u in defs and u != name})
    return out


def result_objects(target: Target) -> set[str]:
    """Names of the target's functions (and classes) that some Result lists in ``objects``: the
    ``"<module>:<name>"`` strings of the target's package, and the names a results file imports
    from that package and lists in an ``objects=`` tuple."""
    names: set[str] = set()

    def ours(module: str) -> bool:
        return module == target.package or module.startswith(target.package + ".")

    for rel in target.results:
        tree = ast.parse((ROOT / rel).read_text())
        imported = {
            (a.asname or a.name)
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module and ours(node.module)
            for a in node.names
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                pkg, _, name = node.value.partition(":")
                if name and ours(pkg):
                    names.add(name)
            elif isinstance(node, ast.keyword) and node.arg == "objects":
                names |= {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)} & imported
    return names


def object_scope(target: Target) -> set[str]:
    """The functions a Result names, and every function of the target they reach by name."""
    graph = top_functions(target)
    named = result_objects(target)
    # a class named as an object: its methods
    todo = [n for n in graph if n in named or n.partition(".")[0] in named]
    seen: set[str] = set()
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        todo += sorted(graph[n][1] - seen)
    return seen


def function_of(mutant: str) -> str:
    """``theory.zwb24.sec5_gd_beta.x_optimal_risk__mutmut_3`` -> ``optimal_risk``;
    ``...xǁSettingǁ__post_init____mutmut_2`` -> ``Setting.__post_init__``."""
    mangled = mutant.rpartition(".")[2].partition("__mutmut_")[0]
    if mangled.startswith("xǁ"):
        _, cls, meth = mangled.split("ǁ")
        return f"{cls}.{meth}"
    return mangled.removeprefix("x_")


def changed_line(diff: str) -> str:
    r"""The mutated code of a diff: its ``+`` lines (without the ``+++`` header), stripped; a
    mutant that only deletes (an argument's line dropped) as ``removed: `` and its ``-`` lines.

    >>> changed_line("--- a\n+++ b\n-    x = f(a, b)\n+    x = f(a, None)\n")
    'x = f(a, None)'
    >>> changed_line("--- a\n+++ b\n     WQ=[f(M) for M in WQ],\n-    WK=[f(M) for M in WK],\n")
    'removed: WK=[f(M) for M in WK],'
    """
    lines = diff.splitlines()
    plus = [ln[1:].strip() for ln in lines if ln.startswith("+") and not ln.startswith("+++")]
    if plus:
        return " / ".join(plus)
    minus = [ln[1:].strip() for ln in lines if ln.startswith("-") and not ln.startswith("---")]
    return "removed: " + " / ".join(minus) if minus else ""


def equivalents(key: str) -> dict[str, dict[str, str]]:
    """The checked-in equivalent mutants of ``key``: name -> {line, reason}."""
    if not EQUIVALENT.is_file():
        return {}
    data = tomllib.loads(EQUIVALENT.read_text())
    table = data.get(key, {})
    for name, rec in table.items():
        if not rec.get("reason") or not rec.get("line"):
            raise ValueError(f"{EQUIVALENT.name}: {key} {name} needs a line and a one-line reason")
    return table


# ------------------------------------------------------------------------------ the results file
_KILLED = ("killed", "timeout", "segfault", "caught by type check")


def _counts(recs: list[dict]) -> dict[str, int]:
    c = {
        "generated": len(recs),
        "checked": sum(r["verdict"] != "not checked" for r in recs),
        "killed": sum(r["verdict"] == "killed" for r in recs),
        "equivalent": sum(r["verdict"] == "equivalent" for r in recs),
        "surviving": sum(r["verdict"] == "surviving" for r in recs),
        "not checked": sum(r["verdict"] == "not checked" for r in recs),
    }
    return c


def summarise(
    target: Target,
    raw: dict[str, dict],
    sample: list[str] | None,
    hashes: dict[str, str] | None = None,
) -> dict:
    """The results file of ``target`` from the copy's verdicts and the equivalent list
    (``hashes``: mutmut's hash of each mutated function, kept so that a fresh copy resumes)."""
    eq = equivalents(target.key)
    scope = object_scope(target)
    recs: dict[str, dict] = {}
    stale = []
    for name, rec in sorted(raw.items()):
        fn = function_of(name)
        line = changed_line(rec.get("diff", ""))
        status = rec["status"]
        if status in _KILLED:
            verdict = "killed"
            if name in eq:
                # a test tells it from the original: the entry (an old numbering, or a fix
                # since) is wrong
                stale.append(name)
        elif status == "not checked":
            verdict = "not checked"
        elif name in eq and eq[name]["line"] == line:
            verdict = "equivalent"
        else:
            verdict = "surviving"
            if name in eq:
                stale.append(name)
        out = {"function": fn, "status": status, "verdict": verdict}
        if verdict in ("surviving", "equivalent"):
            out["line"] = line
        if verdict == "equivalent":
            out["reason"] = eq[name]["reason"]
        out["in_objects"] = fn in scope
        recs[name] = out
    unknown = sorted(set(eq) - set(raw))
    allr = list(recs.values())
    return {
        "paper": target.key,
        "tool": TOOL,
        "command": f"python -m benchmarks.mutation {target.key}",
        # the commands whose verdicts the file holds, oldest first (a sample is reproduced by
        # running them in order: verdicts are kept between runs)
        "runs": [],
        "mutated": list(target.mutate),
        "tests": f"-k {target.select} -m '{FAST}' " + " ".join(target.tests),
        "sample": len(sample) if sample is not None else None,
        "counts": _counts(allr),
        "counts_in_objects": _counts([r for r in allr if r["in_objects"]]),
        "counts_elsewhere": _counts([r for r in allr if not r["in_objects"]]),
        "objects_scope": sorted(scope),
        "stale_equivalents": stale,
        "unknown_equivalents": unknown,
        "surviving": {n: r for n, r in recs.items() if r["verdict"] == "surviving"},
        "equivalent": {n: r for n, r in recs.items() if r["verdict"] == "equivalent"},
        "verdicts": {n: r["verdict"] for n, r in recs.items()},
        # the source each verdict is about: a fresh copy (another machine, a new checkout)
        # resumes from the verdicts of the functions whose hash is unchanged
        "function_hashes": dict(sorted((hashes or {}).items())),
    }


def draw(key: str, names: list[str], n: int) -> list[str]:
    """The ``n`` mutants of ``key`` with the smallest ``sha256("mutation:<key>:<name>")``: a
    seeded sample that a change elsewhere does not reshuffle (a function whose mutants change
    moves only its own mutants in or out, so a resumed sample keeps its verdicts).

    >>> old = ["f__mutmut_1", "f__mutmut_2", "g__mutmut_1", "g__mutmut_2"]
    >>> set(draw("k", old, 2)) <= set(draw("k", old + ["h__mutmut_1"], 3))  # a new mutant
    True
    """

    def rank(name: str) -> str:
        return hashlib.sha256(f"mutation:{key}:{name}".encode()).hexdigest()

    return sorted(sorted(names, key=rank)[: max(0, n)])


def results_path(key: str) -> Path:
    return HERE / f"{key}.json"


def write_results(res: dict) -> Path:
    path = results_path(res["paper"])
    path.write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n")
    return path


#: The docs page whose results table :func:`table` writes (between these two markers).
DOCS = ROOT / "docs" / "mutation.md"
TABLE_MARKERS = ("<!-- mutation-results:start -->", "<!-- mutation-results:end -->")


def table() -> str:
    """The docs' results table, from the checked-in results files: per target, all of it, the
    results' formulas and the rest, with the commands whose verdicts the file holds."""
    head = (
        "| target | scope | generated | run | killed | equivalent | surviving | not run |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- |\n"
    )
    rows, cmds = [], []
    for key in sorted(TARGETS, key=lambda k: (k == "common", k)):
        path = results_path(key)
        if not path.is_file():
            continue
        res = json.loads(path.read_text())
        for label, part in (
            (f"all of `{', '.join(res['mutated'])}`", "counts"),
            ("in the results' formulas", "counts_in_objects"),
            ("elsewhere", "counts_elsewhere"),
        ):
            c = res[part]
            rows.append(
                f"| {key} | {label} | {c['generated']} | {c['checked']} | {c['killed']} | "
                f"{c['equivalent']} | {c['surviving']} | {c['not checked']} |\n"
            )
        runs = "; ".join(f"`{r}`" for r in res.get("runs", [])) or "(not recorded)"
        cmds.append(f"* {key}: {runs}\n")
    lead = "\nThe commands whose verdicts each results file holds, in order:\n\n"
    return head + "".join(rows) + lead + "".join(cmds)


def write_docs_table() -> Path:
    """Rewrite the results table of docs/mutation.md from the results files."""
    text = DOCS.read_text()
    start, end = TABLE_MARKERS
    i, j = text.index(start) + len(start), text.index(end)
    DOCS.write_text(text[:i] + "\n" + table() + text[j:])
    return DOCS


def print_summary(res: dict) -> None:
    print(f"{res['paper']}: {res['tool']}")
    for label, key in (
        ("all", "counts"),
        ("in objects", "counts_in_objects"),
        ("elsewhere", "counts_elsewhere"),
    ):
        c = res[key]
        print(f"  {label:11s} " + ", ".join(f"{k} {v}" for k, v in c.items()))
    for n, r in res["surviving"].items():
        where = "OBJECT" if r["in_objects"] else "other"
        print(f"  surviving [{where}] {n}: {r['line']}")
    if res["stale_equivalents"] or res["unknown_equivalents"]:
        print(f"  stale equivalents: {res['stale_equivalents'] + res['unknown_equivalents']}")


# ------------------------------------------------------------------------------ command line
def run_target(
    target: Target,
    *,
    sample: int | None,
    fresh: bool,
    jobs: int,
    retest: tuple[str, ...],
    report: bool,
    recollect: bool = False,
    functions: tuple[str, ...] = (),
    command: str = "",
) -> dict:
    work = SCRATCH / target.key
    if fresh and work.exists():
        shutil.rmtree(work)
    previous = results_path(target.key)
    prev = json.loads(previous.read_text()) if previous.is_file() else {}
    if not report:
        work = sync(target)
        _python(work, _GENERATE)
    hashes = function_hashes(work)
    if not report and not fresh:
        # the checked-in verdicts of unchanged functions: a new checkout resumes, as the copy does
        n = seed(work, recorded_statuses(prev, hashes))
        if n:
            print(f"{target.key}: {n} verdicts resumed from {previous.relative_to(ROOT)}")
    raw = export(work)
    names = sorted(raw)
    drawn = sample is not None or bool(functions)
    chosen = draw(target.key, names, sample) if sample is not None else names
    if functions:
        # every mutant of the named functions, beside the sample (or alone): the way to cover a
        # new formula first
        named = [n for n in names if any(fnmatch.fnmatch(function_of(n), g) for g in functions)]
        if not named:
            raise SystemExit(f"{target.key}: no mutant of a function matching {list(functions)}")
        chosen = sorted(set(named) | (set(chosen) if sample is not None else set()))
    if retest and not drawn:
        # --retest alone reruns the mutants with those statuses, whatever sample found them
        chosen = []
    pending: list[str] = []
    if not report:
        eq = equivalents(target.key)
        pending = [n for n in chosen if raw[n]["status"] == "not checked"]
        pending += [n for n in names if raw[n]["status"] in retest and n not in eq]
        if pending and recollect:
            # a strengthened test keeps its id, so mutmut would still run each mutant against
            # the tests that reached it before: recollect which tests reach which function (a
            # new test is found without this: mutmut collects the stats of new test ids)
            (work / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
        if pending:
            t0 = time.time()
            rc = run_mutmut(work, pending, jobs, work / "mutmut.log")
            print(
                f"{target.key}: mutmut ran {len(pending)} mutants in "
                f"{time.time() - t0:.0f} s (rc {rc})"
            )
            raw = export(work)
    res = summarise(target, raw, chosen if drawn else None, hashes)
    res["runs"] = prev.get("runs", [])
    if not report and pending and command:
        res["runs"].append(command)
    write_results(res)
    return res


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.mutation", description=(__doc__ or "").splitlines()[0]
    )
    p.add_argument("target", nargs="?", default=None, help=f"one of {sorted(TARGETS)}, or 'all'")
    p.add_argument(
        "--sample",
        type=int,
        default=None,
        help="run only N mutants: the N with the smallest sha256('mutation:<key>:<name>') (a "
        "change elsewhere does not reshuffle them)",
    )
    p.add_argument("--fresh", action="store_true", help="forget every verdict (default: resume)")
    p.add_argument("--jobs", type=int, default=1, help="mutants run at once (default 1)")
    p.add_argument(
        "--retest",
        nargs="*",
        default=(),
        metavar="STATUS",
        help="rerun every mutant with these mutmut statuses (e.g. survived 'no tests'); alone, "
        "runs nothing else (with --sample/--functions, their unrun mutants too)",
    )
    p.add_argument(
        "--recollect",
        action="store_true",
        help="with --retest: recollect which tests reach which function first (needed when a "
        "strengthened test keeps its id; a new test is picked up without it)",
    )
    p.add_argument(
        "--functions",
        nargs="+",
        default=(),
        metavar="GLOB",
        help="also run every mutant of the functions matching these globs (methods as "
        "'Class.method'), e.g. late_mu_law 'Setting.*'",
    )
    p.add_argument("--report", action="store_true", help="only rewrite the results file")
    p.add_argument(
        "--docs",
        action="store_true",
        help="rewrite docs/mutation.md's results table from the checked-in results files (alone: "
        "nothing else runs)",
    )
    args = p.parse_args(argv)
    if args.target is None and not args.docs:
        p.error("name a target (or 'all'), or give --docs alone")
    keys = [] if args.target is None else sorted(TARGETS) if args.target == "all" else [args.target]
    for key in keys:
        if key not in TARGETS:
            p.error(f"unknown target {key!r}; known: {sorted(TARGETS)}")
        res = run_target(
            TARGETS[key],
            sample=args.sample,
            fresh=args.fresh,
            jobs=args.jobs,
            retest=tuple(args.retest),
            report=args.report,
            recollect=args.recollect,
            functions=tuple(args.functions),
            command="python -m benchmarks.mutation "
            + shlex.join(argv if argv is not None else sys.argv[1:]),
        )
        print_summary(res)
    if args.docs:
        print(f"wrote {write_docs_table().relative_to(ROOT)}")
    return 0
