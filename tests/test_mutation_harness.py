"""The mutation-testing harness (``benchmarks/mutation``, issue 35) without running it: the copy's
one source change keeps every function, the checked-in equivalent list is well formed and none of
its entries is stale, and each checked-in results file adds up.  (The mutation run itself is not
part of the default suite: ``python -m benchmarks.mutation <paper>``, docs/mutation.md.)
"""

from __future__ import annotations

import ast
import importlib.util
import json
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "benchmarks" / "mutation"


@pytest.fixture(scope="module")
def harness():
    spec = importlib.util.spec_from_file_location("benchmarks_mutation", HERE / "__init__.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["benchmarks_mutation"] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def _top_names(source: str) -> list[str]:
    return [
        n.name for n in ast.parse(source).body if isinstance(n, (ast.FunctionDef, ast.ClassDef))
    ]


def _only_checked(source: str) -> int:
    """Top-level functions whose one decorator is ``@checked`` (a stacked one is left alone)."""
    return sum(
        isinstance(n, ast.FunctionDef)
        and len(n.decorator_list) == 1
        and "checked" in ast.unparse(n.decorator_list[0])
        for n in ast.parse(source).body
    )


def test_undecorate_keeps_every_function_and_applies_checked_after_it(harness) -> None:
    for key, target in harness.TARGETS.items():
        files = [f for g in target.mutate for f in sorted(ROOT.glob(g))]
        assert files, f"{key}: no file matches {target.mutate}"
        for f in files:
            src = f.read_text()
            out = harness.undecorate(src)
            assert _top_names(out) == _top_names(src), f
            n = _only_checked(src)
            assert _only_checked(out) == 0, f
            assert out.count(" = checked(") == src.count(" = checked(") + n, f
            assert out.count("\n") == src.count("\n") + n, f


def test_undecorate_rebinds_the_validated_function(harness) -> None:
    src = "@checked\ndef f(x):\n    return 2 * x\n\n\ny = f(3)\n"
    seen: list[str] = []

    def checked(fn):
        seen.append(fn.__name__)
        return lambda x: fn(x) + 1

    ns: dict = {"checked": checked}
    exec(harness.undecorate(src), ns)
    assert seen == ["f"] and ns["y"] == 7


def test_equivalent_list_is_well_formed() -> None:
    path = HERE / "equivalent.toml"
    data = tomllib.loads(path.read_text())
    for key, table in data.items():
        for name, rec in table.items():
            assert set(rec) == {"line", "reason"}, (key, name)
            assert rec["line"].strip() and rec["reason"].strip(), (key, name)
            assert "\n" not in rec["reason"], f"{key} {name}: the reason is one line"
            assert name.startswith(("theory.",)), (key, name)


@pytest.mark.parametrize("path", sorted(HERE.glob("*.json")), ids=lambda p: p.stem)
def test_results_file_adds_up_and_no_equivalent_is_stale(path: Path) -> None:
    res = json.loads(path.read_text())
    for scope in ("counts", "counts_in_objects", "counts_elsewhere"):
        c = res[scope]
        parts = c["killed"] + c["equivalent"] + c["surviving"] + c["not checked"]
        assert parts == c["generated"], (scope, c)
        assert c["checked"] == c["generated"] - c["not checked"], (scope, c)
    both = res["counts_in_objects"]["generated"] + res["counts_elsewhere"]["generated"]
    assert both == res["counts"]["generated"]
    assert not res["stale_equivalents"] and not res["unknown_equivalents"]
    eq = tomllib.loads((HERE / "equivalent.toml").read_text()).get(res["paper"], {})
    for name, rec in res["equivalent"].items():
        assert eq[name]["line"] == rec["line"], name
    # a mutant a test kills is not equivalent: its entry is of an old numbering or predates a fix
    killed = {n for n, v in res["verdicts"].items() if v == "killed"}
    assert not set(eq) & killed, sorted(set(eq) & killed)
    # every decided verdict names the source it is about, so a fresh checkout resumes from it
    hashes = res["function_hashes"]
    decided = {n for n, v in res["verdicts"].items() if v != "not checked"}
    assert {n.rsplit("__mutmut_", 1)[0] for n in decided} <= set(hashes)


def test_a_fresh_copy_resumes_only_the_verdicts_of_unchanged_functions(harness) -> None:
    prev = {
        "function_hashes": {"m.x_f": "h1", "m.x_g": "h2", "m.x_k": "h4"},
        "verdicts": {
            "m.x_f__mutmut_1": "killed",
            "m.x_f__mutmut_2": "surviving",
            "m.x_f__mutmut_3": "not checked",
            "m.x_f__mutmut_4": "equivalent",
            "m.x_g__mutmut_1": "killed",
            "m.x_h__mutmut_1": "killed",
            "m.x_k__mutmut_1": "killed",
        },
        "surviving": {"m.x_f__mutmut_2": {"status": "no tests"}},
        "equivalent": {"m.x_f__mutmut_4": {"status": "survived"}},
    }
    now = {"m.x_f": "h1", "m.x_g": "changed", "m.x_h": "h3"}  # x_k is gone
    assert harness.recorded_statuses(prev, now) == {
        "m.x_f__mutmut_1": "killed",
        "m.x_f__mutmut_2": "no tests",
        "m.x_f__mutmut_4": "survived",
    }
    # a results file from before the hashes resumes nothing
    assert harness.recorded_statuses({**prev, "function_hashes": {}}, now) == {}


def test_docs_results_table_is_the_results_files(harness) -> None:
    """docs/mutation.md's table is written from the results files (``--docs``), never by hand."""
    text = (ROOT / "docs" / "mutation.md").read_text()
    start, end = harness.TABLE_MARKERS
    block = text[text.index(start) + len(start) : text.index(end)]
    assert block == "\n" + harness.table(), "rerun: python -m benchmarks.mutation --docs"


def test_cache_hook_empties_the_code_caches_but_not_the_expression_keyed_one(harness) -> None:
    """The hook appended to the copy's conftest.py (session 13): a cached builder hid which tests
    reach the function it calls, so mutants only a later test kills survived."""
    import functools
    import sys
    import types

    calls: list[int] = []

    @functools.cache
    def builder(x: int) -> int:
        calls.append(x)
        return x

    class Holder:
        @staticmethod
        @functools.lru_cache(maxsize=4)
        def build(x: int) -> int:
            calls.append(-x)
            return x

    @functools.lru_cache(maxsize=4)
    def _lambdify_cached(x: int) -> int:
        calls.append(100 + x)
        return x

    outside = functools.cache(lambda x: calls.append(1000 + x))
    mods = {
        "theory._mm_probe": types.ModuleType("theory._mm_probe"),
        "elsewhere_mm_probe": types.ModuleType("elsewhere_mm_probe"),
    }
    vars(mods["theory._mm_probe"]).update(builder=builder, Holder=Holder, lam=_lambdify_cached)
    vars(mods["elsewhere_mm_probe"]).update(outside=outside)
    ns: dict = {}
    sys.modules.update(mods)
    try:
        exec(harness.CACHE_HOOK, ns)
        for f in (builder, Holder.build, _lambdify_cached, outside):
            f(1)
            f(1)
        assert calls == [1, -1, 101, 1001]
        assert ns["_mm_clear_caches"]() >= 2
        for f in (builder, Holder.build, _lambdify_cached, outside):
            f(1)
        assert calls == [1, -1, 101, 1001, 1, -1]
    finally:
        for k in mods:
            sys.modules.pop(k)
