"""Invariants of the layout that carry meaning (the shape of files is not policed here).

* every paper's training presets are (frozen Setting, TrainConfig) pairs and ``python -m sims``
  runs them;
* a check's fault switches are keyword-only ``fault_*`` parameters, and every declared negative
  control plants its fault through one of them (or a setting);
* formulas are written once (no ``is_symbolic`` branch) and exported as their validated
  definitions; no module imports another module's private name; figures never import checks;
* the public strategies draw the validated Setting objects; ``icl-verify show`` points at files
  that exist.

Layering (which floor may import which) and traceability live in ``tests/test_traceability.py``.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sims.config import TrainConfig
from sims.registry import PAPERS, all_results, resolve, trainer_module
from sims.show import MAX_RESULT_FILES, format_map, is_result_file, reached_files, result_map
from sims.train import TrainResult

ROOT = Path(__file__).resolve().parents[1]
SLUGS = sorted(PAPERS.items())  # (key, slug)
MAX_LINES = 500
#: The routes a check may be named after (``check_<result>_<route>[_<qualifier>]``).
ROUTES = (
    "symbolic",
    "float",
    "ode",
    "mc",
    "quad",
    "optim",
    "torch",
    "train",
    "paper",
    "rate",
    "order",
)
SECTION_CITE = re.compile(r"§|Appendix|App\.|Section|Sec\.")


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _py_files(*pkgs: str) -> list[Path]:
    return sorted(f for p in pkgs for f in (ROOT / p).rglob("*.py") if "__pycache__" not in f.parts)


def _registered_checks() -> dict[str, list[str]]:
    """``module:function`` -> ids of the results that list it."""
    out: dict[str, list[str]] = {}
    for r in all_results():
        for c in r.checks:
            out.setdefault(c, []).append(r.id)
    return out


# -------------------------------------------------------------------------------- sims side


@pytest.mark.parametrize("key,slug", SLUGS)
def test_presets_are_setting_config_pairs(key: str, slug: str) -> None:
    mod = importlib.import_module(trainer_module(slug))
    assert isinstance(mod.PRESETS, dict) and "smoke" in mod.PRESETS
    for name, pair in mod.PRESETS.items():
        assert isinstance(pair, tuple) and len(pair) == 2, f"{slug} PRESETS[{name!r}]"
        setting, cfg = pair
        assert dataclasses.is_dataclass(setting) and not isinstance(setting, type), name
        assert setting.__dataclass_params__.frozen, f"{slug} PRESETS[{name!r}] setting not frozen"
        assert isinstance(cfg, TrainConfig), f"{slug} PRESETS[{name!r}] config"
    for fn in ("run", "trained"):
        assert callable(getattr(mod, fn, None)), f"{trainer_module(slug)}.{fn} missing"


@pytest.mark.slow
@pytest.mark.parametrize("key,slug", SLUGS)
def test_python_m_sims_smoke(
    key: str, slug: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """``python -m sims <slug> smoke`` runs (a few steps) and ``run`` returns a TrainResult.  In
    process (``sims.__main__.main``; the first paper's also as a real ``python -m sims``
    subprocess: the entry point itself, ~8 s of imports each)."""
    from sims.__main__ import main

    if slug == SLUGS[0][1]:
        env = {"ICL_VERIFY_CACHE": "off", "ICL_VERIFY_TORCH_THREADS": "1", "PATH": "/usr/bin:/bin"}
        proc = subprocess.run(
            [sys.executable, "-m", "sims", slug, "smoke", "--steps=3"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert "final loss" in proc.stdout
    monkeypatch.setenv("ICL_VERIFY_CACHE", "off")
    assert main([slug, "smoke", "--steps=3"]) == 0
    assert "final loss" in capsys.readouterr().out
    mod = importlib.import_module(trainer_module(slug))
    assert isinstance(mod.run("smoke", steps=3), TrainResult)


# ------------------------------------------------------------------------- fault switches
def _all_check_functions() -> list[tuple[str, object]]:
    return [(p, resolve(p)) for p in sorted(_registered_checks())]


def test_fault_switches_are_named_fault() -> None:
    """A check's fault switch is a keyword-only ``fault_<what>=None``; a callable or ``*_fn``
    parameter of a check is always a fault switch."""
    bad = []
    for path, fn in _all_check_functions():
        for name, p in inspect.signature(fn).parameters.items():  # type: ignore[arg-type]
            looks_like_fault = name.endswith("_fn") or "Callable" in str(p.annotation)
            if name.startswith("fault_"):
                if p.kind is not p.KEYWORD_ONLY or p.default not in (None, False):
                    bad.append(f"{path}: {name} must be keyword-only with default None")
            elif looks_like_fault:
                bad.append(f"{path}: {name} injects a fault; name it fault_{name}")
    assert not bad, "\n".join(bad)


def test_negative_controls_use_fault_switches_or_settings() -> None:
    """Every ``assert_fails(check_x(...))`` in the tests passes only ``fault_*`` switches or
    numeric setting parameters of that check (a changed setting that breaks an assumption)."""
    checks = {getattr(fn, "__name__", ""): fn for _, fn in _all_check_functions()}
    bad = []
    for f in sorted((ROOT / "tests").rglob("test_*.py")):
        for node in ast.walk(_tree(f)):
            if not (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", "") == "assert_fails"
                and node.args
                and isinstance(node.args[0], ast.Call)
            ):
                continue
            inner = node.args[0]
            name = getattr(inner.func, "attr", None) or getattr(inner.func, "id", "")
            if name not in checks:
                continue
            params = inspect.signature(checks[name]).parameters  # type: ignore[arg-type]
            faulted = False  # the fault itself goes through a fault_* switch or a numeric setting
            choices = []  # string settings (which case, which sampler) only pick where
            for kw in inner.keywords:
                if kw.arg is None or kw.arg.startswith("fault_"):
                    faulted = True
                    continue
                p = params.get(kw.arg)
                numeric = (
                    p is not None
                    and isinstance(p.default, (int, float))
                    and not isinstance(p.default, bool)
                )
                if numeric:
                    faulted = True
                elif p is not None and isinstance(p.default, str):
                    choices.append(kw.arg)
                else:
                    bad.append(f"{f.relative_to(ROOT)}:{node.lineno} {name}({kw.arg}=...)")
            if choices and not faulted:
                bad.append(
                    f"{f.relative_to(ROOT)}:{node.lineno} {name}({choices[0]}=...) with "
                    "no fault_* switch or numeric setting"
                )
    assert not bad, "negative controls must inject faults through fault_* switches:\n" + "\n".join(
        bad
    )


# ------------------------------------------------------------------------- sections (house)
#: Modules of ``theory/<slug>/`` that are not paper sections.
NOT_SECTIONS = {"__init__", "results", "claims", "domains", "controls"}
#: Words that name a file by its history or size, not by its paper section.
HISTORY_NAMES = re.compile(
    r"_(more|rows|train|settings|extra|misc|new|old|part\d*)$|(^|_)round(\d|_|$)"
)
#: History notes that belong to git, not to code or docs.
HISTORY_NOTES = re.compile(r"\b[Ii]ssue[- ]?\d+\b|\bround[- ]\d\b|\b[Ww]ave \d\b|split for size")


def test_no_history_notes_in_code_or_docs() -> None:
    files = (
        _py_files("theory", "numerics", "sims")
        + [p for p in sorted((ROOT / "docs").rglob("*.md")) if "generated" not in p.parts]
        + [ROOT / "README.md"]
    )
    bad = [
        f"{f.relative_to(ROOT)}:{i}: {line.strip()[:80]}"
        for f in files
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
        if HISTORY_NOTES.search(line)
    ]
    assert not bad, "history belongs to git:\n" + "\n".join(bad)


@pytest.mark.parametrize("key,slug", SLUGS)
def test_no_is_symbolic_branch_in_formulas(key: str, slug: str) -> None:
    files = sorted((ROOT / "theory" / slug).glob("*.py"))
    bad = [
        f"{f.relative_to(ROOT)}:{n.lineno}"
        for f in files
        for n in ast.walk(_tree(f))
        if isinstance(n, ast.Call)
        and getattr(n.func, "id", getattr(n.func, "attr", "")) == "is_symbolic"
    ]
    assert not bad, (
        "write a scalar formula once with backend.dual, a matrix formula once with "
        "ops_for; no is_symbolic branches:\n" + "\n".join(bad)
    )


@pytest.mark.parametrize("key,slug", SLUGS)
def test_exports_are_the_validated_definitions(key: str, slug: str) -> None:
    """Validation at the definition: ``theory.<slug>.f`` *is* the section module's ``f`` and is
    validated (``__domains__``); no export is replaced at import."""
    pkg = importlib.import_module(f"theory.{slug}")
    init = (ROOT / "theory" / slug / "__init__.py").read_text(encoding="utf-8")
    assert "validate_exports" not in init, f"theory/{slug}/__init__.py replaces its exports"
    sections = [
        importlib.import_module(f"theory.{slug}.{f.stem}")
        for f in sorted((ROOT / "theory" / slug).glob("*.py"))
        if f.stem != "__init__"
    ]
    bad = []
    for name in pkg.__all__:
        obj = getattr(pkg, name)
        if not callable(obj) or isinstance(obj, type):
            continue
        homes = [m for m in sections if name in vars(m)]
        if not homes or any(vars(m)[name] is not obj for m in homes):
            bad.append(f"{name}: theory.{slug}.{name} is not the function of its section module")
        if not hasattr(obj, "__domains__"):
            bad.append(f"{name}: not validated at its definition (@checked)")
    assert not bad, "\n".join(bad)


# ----------------------------------------------------------------------------- repository


def test_no_module_imports_a_private_name() -> None:
    bad = []
    for f in _py_files("theory", "numerics", "sims", "tests"):
        for node in ast.walk(_tree(f)):
            if isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if a.name.startswith("_") and not (
                        a.name.startswith("__") and a.name.endswith("__")
                    ):
                        bad.append(f"{f.relative_to(ROOT)}:{node.lineno} {node.module}.{a.name}")
                    if a.name == "__all__":
                        bad.append(f"{f.relative_to(ROOT)}:{node.lineno} imports __all__")
    assert not bad, "private names imported across modules:\n" + "\n".join(bad)


def test_figures_never_import_checks() -> None:
    bad = []
    for f in sorted((ROOT / "sims" / "figures").glob("*.py")):
        for node in ast.walk(_tree(f)):
            mods = (
                [node.module]
                if isinstance(node, ast.ImportFrom) and node.module
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            if isinstance(node, ast.ImportFrom) and node.module in ("sims", "numerics"):
                mods += [f"{node.module}.{a.name}" for a in node.names]
            for m in mods:
                if m.startswith("sims.checks") or re.search(r"\.checks(_|$)", m):
                    # a figure that trains gets its numbers from the compute_* function of its
                    # section module (its check calls it too); never a check function
                    names = [a.name for a in node.names] if isinstance(node, ast.ImportFrom) else []
                    if (
                        m.startswith("sims.checks.")
                        and names
                        and all(n.startswith("compute_") for n in names)
                    ):
                        continue
                    bad.append(f"{f.relative_to(ROOT)}:{node.lineno} imports {m}")
    assert not bad, (
        "figures import routes, experiments, metrics and the compute_* functions of "
        "trained sections, never checks:\n" + "\n".join(bad)
    )


def test_every_slug_has_a_public_strategy() -> None:
    import theory.strategies as S

    for key, slug in SLUGS:
        name = f"{key}_settings"
        assert name in S.__all__, f"theory.strategies.__all__ lacks {name} ({slug})"


@pytest.mark.parametrize("key,slug", SLUGS)
def test_strategy_draws_the_validated_setting_object(key: str, slug: str) -> None:
    """``<key>_settings()`` draws that slice's frozen setting dataclass, not a tuple or dict."""
    from hypothesis import HealthCheck, given, settings

    import theory.strategies as S

    seen: list[object] = []

    @settings(max_examples=3, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(getattr(S, f"{key}_settings")())
    def draw(setting: object) -> None:
        seen.append(setting)

    draw()
    assert seen
    for setting in seen:
        assert dataclasses.is_dataclass(setting) and not isinstance(setting, type), (
            f"{key}_settings drew {type(setting).__name__}, not a setting object"
        )
        assert setting.__dataclass_params__.frozen, f"{key}_settings: setting not frozen"  # type: ignore[attr-defined]


# ------------------------------------------------------------------------------ show ID
def test_show_prints_existing_locations_for_every_result() -> None:
    for r in all_results():
        m = result_map(r)
        text = format_map(m)
        assert r.source in text
        for loc in m.objects + m.checks + m.figures:
            path = ROOT / loc.file
            assert path.is_file(), f"{r.id}: {loc}"
            assert 1 <= loc.line <= len(path.read_text(encoding="utf-8").splitlines()), loc
        assert m.tests, f"{r.id}: show found no test"
        for node in m.tests:
            file, _, rest = node.partition("::")
            assert (ROOT / file).is_file() and rest, node


def test_a_result_lives_in_at_most_ten_files() -> None:
    """A result's own pieces (declaration, checks, figures, strategies, Setting, trainer
    and the section files they import, derived from imports by ``show``) are found in at most
    ``MAX_RESULT_FILES`` files; the paper's shared engines are listed apart."""
    over = {}
    for r in all_results():
        own = [f for f in reached_files(r) if is_result_file(f)]
        assert own, f"{r.id}: show reached no file of its own"
        if len(own) > MAX_RESULT_FILES:
            over[r.id] = own
    assert not over, f"results spread over more than {MAX_RESULT_FILES} files: {over}"


def test_show_tells_a_section_file_from_an_engine() -> None:
    """The classification ``show`` counts by: section files by the paper's numbering and role
    files are the result's own; samplers, Monte Carlo, tolerances and package inits are engines."""
    own = [
        "numerics/zfb24/sec4_1_convergence.py",
        "theory/collins24/appG.py",
        "sims/czz24/fig1b.py",
        "sims/zwb24/table1.py",
        "sims/hpcy25/train.py",
        "theory/hpcy25/settings.py",
        "theory/strategies/zfb24.py",
        "numerics/zwb24/neighbours.py",
    ]
    engines = [
        "numerics/hpcy25/mc.py",
        "numerics/czz24/tolerances.py",
        "sims/zfb24/__init__.py",
        "theory/strategies/common.py",
        "numerics/zfb24/sampling.py",
        "theory/czz24/claims.py",
    ]
    assert all(is_result_file(f) for f in own)
    assert not any(is_result_file(f) for f in engines)


#: What trains: an optimizer, a backward pass, or the training cache.
TRAINING = re.compile(
    r"\btorch\.optim\b|\.backward\(|\bfrom sims\.cache import\b|\bsims\.cache\.cached\b"
)


def trainer_files(key: str) -> set[Path]:
    """``sims/<key>/train.py`` and the modules of ``sims/<key>/`` it imports (its engines)."""
    train = ROOT / "sims" / key / "train.py"
    out = {train}
    for node in ast.walk(_tree(train)):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.startswith(f"sims.{key}.")
        ):
            out.add(ROOT / (node.module.replace(".", "/") + ".py"))
    return out


def training_outside_trainer(key: str) -> list[str]:
    """The files of ``sims/<key>/`` that train but are neither its ``train.py`` nor an engine it
    imports: a check that trains for itself."""
    allowed = trainer_files(key)
    return sorted(
        str(f.relative_to(ROOT))
        for f in _py_files(f"sims/{key}")
        if f not in allowed and TRAINING.search(f.read_text(encoding="utf-8"))
    )


@pytest.mark.parametrize("key,slug", SLUGS)
def test_training_lives_in_the_papers_trainer(key: str, slug: str) -> None:
    """Training in one place: within ``sims/<key>/`` only ``train.py`` and the engines it imports
    use an optimizer, a backward pass or the training cache; checks obtain models through
    ``trained(setting, recipe, seed=...)`` and judge them."""
    assert training_outside_trainer(key) == []


def test_training_scan_catches_a_check_that_trains() -> None:
    """Negative control: the pattern sees each way a module trains, and ignores prose."""
    for planted in (
        "opt = torch.optim.Adam(ps)",
        "loss.backward()",
        "from sims.cache import cached",
    ):
        assert TRAINING.search(planted), planted
    assert not TRAINING.search("the check judges what trained() returned; it never trains")
