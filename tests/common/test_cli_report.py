"""The CLI and the report: list / check --json / --set / report files, determinism, failure exit."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from sims import cli, registry
from sims.report import write_report
from sims.verify import parse_set_options, verify_result
from theory.common.protocols import Result


def _cheap_id() -> str:
    """A foundation result (key ``base``): cheap enough to run here."""
    return next(r.id for r in registry.all_results() if r.paper == "base")


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    for r in registry.all_results():
        assert r.id in out


def test_check_json(capsys: pytest.CaptureFixture[str]) -> None:
    rid = _cheap_id()
    assert cli.main(["check", rid, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["id"] == rid and data["pass"] and data["evidence"]
    for e in data["evidence"]:
        assert {"predicted", "observed", "tolerance", "pass", "se"} <= set(e)


def test_check_rejects_unknown_keys_and_ids(capsys: pytest.CaptureFixture[str]) -> None:
    rid = _cheap_id()
    assert cli.main(["check", rid, "--set", "no_such_parameter=1"]) == 2
    assert "takes no key 'no_such_parameter'" in capsys.readouterr().err
    assert cli.main(["check", "nope:none"]) == 2


@pytest.fixture
def fake_results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Result, Result]:
    """Two results backed by a throw-away module: one passing, one failing, one raising."""
    (tmp_path / "fake_checks.py").write_text(
        textwrap.dedent("""
        from numerics.testing import float_agreement
        def ok(*, quick=True, seed=0, x: float = 1.0):
            return [float_agreement("x == 1", x, 1.0)]
        def bad(*, quick=True, seed=0):
            return [float_agreement("1 == 2", 1.0, 2.0)]
        def boom(*, quick=True, seed=0):
            raise RuntimeError("kaput")
    """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    good = Result(
        id="fake:ok", kind="identity", summary="ok", source="test", checks=("fake_checks:ok",)
    )
    bad = Result(
        id="fake:bad",
        kind="identity",
        summary="bad",
        source="test",
        checks=("fake_checks:bad", "fake_checks:boom"),
    )
    monkeypatch.setattr(registry, "all_results", lambda: (good, bad))
    return good, bad


def test_set_options_are_typed(fake_results: tuple[Result, Result]) -> None:
    good, _ = fake_results
    assert parse_set_options(good, ["x=2"]) == {"fake_checks:ok": {"x": 2.0}}
    assert not verify_result(good, overrides=parse_set_options(good, ["x=2"])).passed
    with pytest.raises(ValueError, match="expected"):
        parse_set_options(good, ["x=abc"])


def test_report_fails_on_failing_check_and_records_errors(
    fake_results: tuple[Result, Result], tmp_path: Path
) -> None:
    out = tmp_path / "rep"
    summary = write_report(out, progress=False)
    assert not summary.passed and summary.n_failed_results == 1
    data = json.loads((out / "results.json").read_text())
    bad = next(r for r in data["results"] if r["id"] == "fake:bad")
    assert not bad["pass"] and any("kaput" in e for e in bad["errors"])
    for name in ("report.md", "report.html", "timings.json", "figures/agreement.png"):
        assert (out / name).exists()
    # serial: the fake registry is patched into this process only
    assert cli.main(["report", "--jobs", "1", "--out", str(tmp_path / "rep2")]) == 1


def test_report_resume_reuses_partial_outcomes(
    fake_results: tuple[Result, Result], tmp_path: Path
) -> None:
    out = tmp_path / "rep"
    write_report(out, ids=["fake:ok"], progress=False)
    first = (out / "results.json").read_text()
    partial = next((out / ".partial").glob("fake_ok*.json"))
    data = json.loads(partial.read_text())
    data["evidence"][0]["name"] = "edited to prove reuse"
    partial.write_text(json.dumps(data))
    write_report(out, ids=["fake:ok"], progress=False, resume=True)
    assert "edited to prove reuse" in (out / "results.json").read_text()
    write_report(out, ids=["fake:ok"], progress=False)  # no resume: recomputed
    assert (out / "results.json").read_text() == first


def test_report_json_is_deterministic_for_a_seed(tmp_path: Path) -> None:
    rid = _cheap_id()
    a = write_report(tmp_path / "a", ids=[rid], seed=3, progress=False, figures=False)
    b = write_report(tmp_path / "b", ids=[rid], seed=3, progress=False, figures=False)
    assert a.passed and b.passed
    ra, rb = tmp_path / "a" / "results.json", tmp_path / "b" / "results.json"
    assert ra.read_bytes() == rb.read_bytes()


def test_python_m_sims_trains_a_preset(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``python -m sims <slug> <preset> --field=value`` (STYLE R18), typed overrides applied."""
    from sims.__main__ import main as sims_main

    monkeypatch.setenv("ICL_VERIFY_CACHE", "off")
    assert sims_main(["zfb24", "smoke", "--steps=5"]) == 0
    assert "final loss" in capsys.readouterr().out
    assert sims_main(["zfb24", "no-such-preset"]) == 2
    capsys.readouterr()
    assert sims_main(["zfb24", "smoke", "--stepz=5"]) == 2  # a usage error, one line
    assert "unknown field" in capsys.readouterr().err


def test_report_figures_drawn_once_and_every_figure_error_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "fake_figs.py").write_text(
        textwrap.dedent("""
        from matplotlib.figure import Figure
        from numerics.testing import float_agreement
        CALLS = []
        def ok(*, quick=True, seed=0):
            return [float_agreement("x == 1", 1.0, 1.0)]
        def fig(*, quick=True, seed=0):
            CALLS.append(1)
            return Figure()
        def broken1(*, quick=True, seed=0):
            raise RuntimeError("first")
        def broken2(*, quick=True, seed=0):
            raise RuntimeError("second")
    """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import fake_figs  # type: ignore[import-not-found]

    a = Result(
        id="fake:a",
        kind="identity",
        summary="a",
        source="t",
        checks=("fake_figs:ok",),
        figures=("fake_figs:fig",),
    )
    b = Result(
        id="fake:b",
        kind="identity",
        summary="b",
        source="t",
        checks=("fake_figs:ok",),
        figures=("fake_figs:fig", "fake_figs:broken1", "fake_figs:broken2"),
    )
    monkeypatch.setattr(registry, "all_results", lambda: (a, b))
    summary = write_report(tmp_path / "rep", progress=False)
    assert len(fake_figs.CALLS) == 1  # the shared figure is drawn once
    data = json.loads((tmp_path / "rep" / "results.json").read_text())
    errs = next(r for r in data["results"] if r["id"] == "fake:b")["errors"]
    assert not summary.passed and len(errs) == 2 and "first" in errs[0] and "second" in errs[1]


def test_show_prints_locations_and_tests(capsys: pytest.CaptureFixture[str]) -> None:
    rid = _cheap_id()
    assert cli.main(["show", rid]) == 0
    out = capsys.readouterr().out
    r = registry.get(rid)
    assert r.source in out and "tests/" in out
    for path in r.checks:
        assert path in out
    assert cli.main(["show", "nope:none"]) == 2


def test_compare_reports_changed_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``compare`` exits 0 on identical or round-off-close files and 1 on a changed row."""
    rid = _cheap_id()
    doc = {"results": [verify_result(registry.get(rid)).to_json()]}
    a, b, c = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"
    a.write_text(json.dumps(doc))
    ev = doc["results"][0]["evidence"][0]
    close = json.loads(json.dumps(doc))
    if isinstance(ev["observed"], float):
        close["results"][0]["evidence"][0]["observed"] = ev["observed"] * (1 + 1e-15)
    b.write_text(json.dumps(close))
    changed = json.loads(json.dumps(doc))
    changed["results"][0]["evidence"][0]["pass"] = not ev["pass"]
    c.write_text(json.dumps(changed))
    assert cli.main(["compare", str(a), str(b)]) == 0
    assert cli.main(["compare", str(a), str(c)]) == 1
    assert "[changed]" in capsys.readouterr().out


def test_a_shared_check_runs_once_and_counts_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Honest counts: a check listed by two results runs once; the headline counts its rows once;
    a discrepancy row is reported, listed, and does not fail the run."""
    (tmp_path / "shared_checks.py").write_text(
        textwrap.dedent("""
        from numerics.testing import claim_agreement, float_agreement
        from theory.common.protocols import Claim
        CALLS = []
        PRINTED = Claim(where="App. B", quote="a rate of t^-1/2", provenance="printed")
        def shared(*, quick=True, seed=0):
            CALLS.append(seed)
            return [float_agreement("a == a", 1.0, 1.0), float_agreement("b == b", 2.0, 2.0)]
        def claim(*, quick=True, seed=0):
            return [claim_agreement("printed rate", kind="RATE", paper=-0.5, ours=-1 / 6,
                                    observed=-0.17, atol=0.05, source="[p] App. B",
                                    claim=PRINTED)]
    """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import shared_checks  # type: ignore[import-not-found]

    one = Result(
        id="fake:one", kind="identity", summary="1", source="t", checks=("shared_checks:shared",)
    )
    two = Result(
        id="fake:two",
        kind="identity",
        summary="2",
        source="t",
        checks=("shared_checks:shared", "shared_checks:claim"),
    )
    monkeypatch.setattr(registry, "all_results", lambda: (one, two))
    summary = write_report(tmp_path / "rep", progress=False, figures=False)
    assert shared_checks.CALLS == [0]
    data = json.loads((tmp_path / "rep" / "results.json").read_text())
    assert (data["unique_checks"], data["unique_rows"]) == (2, 3)
    assert data["self_consistency_rows"] == 2 and data["discrepancies"] == ["fake:two"]
    assert summary.passed and summary.n_discrepancies == 1
    two_json = next(r for r in data["results"] if r["id"] == "fake:two")
    assert two_json["status"] == "discrepancy"
    assert two_json["evidence"][-1]["status"] == "discrepancy"
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "## Claims not reproduced" in md and "printed rate" in md


def test_report_shows_trained_claims_over_seeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report lists each TRAIN row's outcome over seeds and its traps."""
    (tmp_path / "seed_checks.py").write_text(
        textwrap.dedent("""
        import numpy as np
        from numerics.testing import over_seeds, train_discrimination
        def trained(*, quick=True, seed=0):
            def rows(s):
                final = np.eye(2) * (1.01 if s != 1 else 1.5)  # seed 1 ends in the rival
                return [train_discrimination("P -> I", final, np.eye(2), np.zeros((2, 2)),
                                             alternatives={"rival 1.5 I": 1.5 * np.eye(2),
                                                           "far": np.full((2, 2), np.inf)},
                                             seeds=[s], seeds_passed=[s] if s != 1 else [])]
            return over_seeds(rows, (0, 1, 2))
    """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import seed_checks  # type: ignore[import-not-found]  # noqa: F401

    res = Result(
        id="fake:seeds", kind="identity", summary="s", source="t", checks=("seed_checks:trained",)
    )
    monkeypatch.setattr(registry, "all_results", lambda: (res,))
    write_report(tmp_path / "rep", progress=False, figures=False)
    md = (tmp_path / "rep" / "report.md").read_text()
    section = md.split("## Trained claims over seeds", 1)[1].split("\n## ", 1)[0]
    assert "P -> I" in section and "2 of 3 [0, 2]" in section
    assert "seed 1: rival 1.5 I" in section
    html_text = (tmp_path / "rep" / "report.html").read_text()
    assert "Trained claims over seeds" in html_text and "seed 1: rival 1.5 I" in html_text


def test_full_tier_checks_run_only_in_the_full_tier(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A check declared ``tier="full"`` adds no row (and is not called) in a quick run, its
    declared controls neither; with ``quick=False`` it runs like any other check."""
    from sims.verify import tier_checks
    from theory.common.protocols import Check

    (tmp_path / "tier_checks.py").write_text(
        textwrap.dedent("""
        from numerics.testing import float_agreement
        CALLS = []
        def always(*, quick=True, seed=0):
            return [float_agreement("a == a", 1.0, 1.0)]
        def full_only(*, quick=True, seed=0, fault_x=None):
            CALLS.append(quick)
            return [float_agreement("b == b", 2.0, 2.0 if fault_x is None else 3.0)]
    """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import tier_checks as mod  # type: ignore[import-not-found]

    full = Check("tier_checks:full_only", tier="full", faults={"x": {"fault_x": True}})
    r = Result(
        id="fake:tiers",
        kind="identity",
        summary="t",
        source="t",
        checks=("tier_checks:always", full),
    )
    assert tier_checks(r, quick=True) == ("tier_checks:always",)
    assert tier_checks(r, quick=False) == r.checks
    quick = verify_result(r, quick=True, controls=True)
    assert [e.name for e in quick.evidence] == ["a == a"] and not quick.controls
    assert quick.passed and mod.CALLS == []
    full_run = verify_result(r, quick=False, controls=True)
    assert [e.name for e in full_run.evidence] == ["a == a", "b == b"]
    assert [c.rejected for c in full_run.controls] == [True] and mod.CALLS == [False, False]
    monkeypatch.setattr(registry, "all_results", lambda: (r,))
    write_report(tmp_path / "rep", progress=False, figures=False)
    data = json.loads((tmp_path / "rep" / "results.json").read_text())
    assert [e["name"] for e in data["results"][0]["evidence"]] == ["a == a"]
    assert mod.CALLS == [False, False]
