"""What ``report``, ``figure`` and ``--params`` print for people: the compact report table (its
header, each paper's setting, one line per result, the rows that do not pass, the one-line
summary, every path written), details only with ``--verbose``; ``figure --set`` validated before
any drawing; fault hooks printed by name."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from sims import cli, registry
from theory.common.protocols import Result


@pytest.fixture
def fake_results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Result, Result]:
    """A passing and a failing result backed by a throw-away module."""
    (tmp_path / "fake_out_checks.py").write_text(
        textwrap.dedent("""
        from numerics.testing import float_agreement
        def ok(*, quick=True, seed=0):
            return [float_agreement("x == 1", 1.0, 1.0)]
        def bad(*, quick=True, seed=0):
            return [float_agreement("one equals two", 1.0, 2.0)]
    """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    good = Result(
        id="fake:ok",
        kind="identity",
        summary="holds",
        source="test",
        checks=("fake_out_checks:ok",),
    )
    bad = Result(
        id="fake:bad",
        kind="identity",
        summary="breaks",
        source="test",
        checks=("fake_out_checks:bad",),
    )
    monkeypatch.setattr(registry, "all_results", lambda: (good, bad))
    monkeypatch.setattr(registry, "all_properties", lambda: ())
    return good, bad


def test_report_prints_a_compact_table_summary_and_paths(
    fake_results: tuple[Result, Result], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rep"
    assert cli.main(["report", "--jobs", "1", "--no-properties", "--out", str(out)]) == 1
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert lines[0].startswith("icl-verify report: quick tier, seed 0, 2 results")
    assert any(line.startswith("fake — each check at its own values") for line in lines)
    assert any("fake:ok: holds" in line and line.split()[0] == "pass" for line in lines)
    assert any("fake:bad: breaks" in line and line.split()[0] == "fail" for line in lines)
    # the failing row is listed by its result and name; values and details only with --verbose
    assert "rows that do not pass" in text and "fake:bad: one equals two" in text
    assert "predicted" not in text and "{" not in text
    for name in ("report.html", "report.md", "results.json", "timings.json"):
        assert f"wrote {out / name}" in text
    assert f"wrote {out / 'figures' / 'agreement.png'}" in text
    assert lines[-1].startswith("FAIL: 1 fail") and "1 pass" in lines[-1]
    # all of it stays in results.json
    data = json.loads((out / "results.json").read_text())
    assert {r["id"] for r in data["results"]} == {"fake:ok", "fake:bad"}


def test_report_verbose_adds_each_results_rows(
    fake_results: tuple[Result, Result], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["report", "--jobs", "1", "--no-figures", "--no-properties", "--verbose"]
    assert cli.main([*argv, "--out", str(tmp_path / "rep")]) == 1
    text = capsys.readouterr().out
    assert "predicted" in text and "observed" in text and "x == 1" in text


def test_params_print_fault_functions_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    for r in registry.all_results():
        if any(callable(v) for c in r.checks for kw in c.faults.values() for v in kw.values()):
            break
    else:  # pragma: no cover - the registry declares function-valued faults today
        pytest.skip("no function-valued fault declared")
    assert cli.main(["check", r.id, "--params"]) == 0
    text = capsys.readouterr().out
    assert "<function" not in text and " at 0x" not in text
    fn = next(v for c in r.checks for kw in c.faults.values() for v in kw.values() if callable(v))
    if getattr(fn, "__name__", "<lambda>") != "<lambda>":
        assert fn.__qualname__ in text


def test_figure_set_refuses_bad_input_before_drawing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sims.report as report

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("drew a figure on bad input")

    monkeypatch.setattr(report, "save_figure", never)
    out = str(tmp_path / "figs")
    # an unknown key, a value outside the domain, a key no check of the result reads, a result
    # whose checks read no key: exit 2, nothing drawn
    assert cli.main(["figure", "zwb24:thm6.3", "--set", "nope=1", "--out", out]) == 2
    assert "nope" in capsys.readouterr().err
    assert cli.main(["figure", "zwb24:thm6.3", "--set", "d=0", "--out", out]) == 2
    assert "d" in capsys.readouterr().err
    assert cli.main(["figure", "base:gd", "--set", "d=3", "--out", out]) == 2
    assert "no check of base:gd reads it; keys: N" in capsys.readouterr().err
    assert cli.main(["figure", "hpcy25:eqD.29", "--set", "d=3", "--out", out]) == 2
    assert "keys: (none)" in capsys.readouterr().err
    # a settings-first result none of whose figures takes a setting says so
    assert cli.main(["figure", "zfb24:cor6", "--set", "N=8", "--out", out]) == 2
    assert "draws at a given setting" in capsys.readouterr().err


def test_figure_set_draws_at_the_setting_and_prints_the_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sims.report as report

    titles: list[str] = []
    real = report.save_figure

    def spy(fig: object, path: Path) -> None:
        titles.extend(ax.get_title() for ax in fig.axes)  # type: ignore[attr-defined]
        real(fig, path)

    monkeypatch.setattr(report, "save_figure", spy)
    out = tmp_path / "figs"
    argv = ["figure", "zwb24:thm6.3", "--set", "d=3", "--set", "N=6", "--out", str(out)]
    assert cli.main(argv) == 0
    printed = capsys.readouterr().out.split()
    pngs = sorted(out.glob("*.png"))
    assert pngs and all(str(p) in printed for p in pngs)
    assert any("$d = 3$" in t and "$N = 6$" in t for t in titles), titles


def test_figure_of_a_result_without_figures_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Nothing can answer it: exit 2 before any work, naming the results of that paper that do
    have figures (base:gd draws the baselines' risks)."""
    from sims import cli

    assert cli.main(["figure", "base:ols"]) == 2
    err = capsys.readouterr().err
    assert "base:ols has no figures" in err and "base:gd" in err and "Traceback" not in err
