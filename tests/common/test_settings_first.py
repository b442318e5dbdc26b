"""Settings first: one Setting per run, built once from ``--set``, reaches every check of a result
but the declared fixed ones; every row carries the setting it ran at.

The result here is a throw-away one (its own Setting type and checks, in a temporary module), so
the machinery is tested apart from any paper.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from sims import cli, registry
from sims.sweep import plan
from sims.sweep_grid import SweepSpec, parse_grid, point_settings
from sims.verify import build_setting, parse_setting_value, run_control, verify_result
from theory.common.protocols import Check, Result

MODULE = textwrap.dedent("""
    from dataclasses import dataclass
    from numerics.testing import float_agreement
    from theory.common.setting import param
    from theory.settings.validators import check_int, check_real

    @dataclass(frozen=True, kw_only=True, slots=True)
    class S:
        d: int = param(3, "d: dimension", domain="d >= 1")
        scale: float = param(2.0, "c: a scale", domain="c > 0")
        spectrum: tuple[float, ...] | None = param((1.0, 2.0, 3.0), "eigenvalues")
        unused: int = param(0, "a field no check reads")

        def __post_init__(self):
            check_int("d", self.d, minimum=1, paper="toy")
            check_real("scale", self.scale, lower=0.0, lower_open=True, paper="toy")
            if self.spectrum is not None and len(self.spectrum) != self.d:
                raise ValueError(f"spectrum has {len(self.spectrum)} values but d = {self.d}")

    def hyp(s):
        if s.d > 5:
            raise ValueError(f"d={s.d} > 5 is outside the toy theorem's hypotheses")

    def moving(setting, *, quick=True, seed=0, fault_scale=None):
        c = setting.scale if fault_scale is None else fault_scale * setting.scale
        return [float_agreement(f"d·c = {setting.d * setting.scale:g}", setting.d * c,
                                setting.d * setting.scale)]

    def pinned(setting, *, quick=True, seed=0):
        return [float_agreement("pinned d == 3", float(setting.d), 3.0)]
""")


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Result:
    (tmp_path / "toy_settings_first.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    mod = importlib.import_module("toy_settings_first")
    base = mod.S()
    res = Result(
        id="toy:thm1",
        kind="theorem",
        summary="toy",
        source="test",
        checks=(
            Check(
                mod.moving, at=mod.S(d=2, spectrum=(1.0, 2.0)), faults={"x2": {"fault_scale": 2}}
            ),
            Check(mod.pinned, at=base, fixed="a number printed for d = 3"),
        ),
        setting=base,
        keys=("d", "scale", "spectrum"),
        hypotheses=mod.hyp,
    )
    monkeypatch.setattr(registry, "all_results", lambda: (res,))
    import sims.verify as V

    V._declared_by_path.cache_clear()
    yield res
    V._declared_by_path.cache_clear()


def test_default_run_uses_each_checks_declared_setting(toy: Result) -> None:
    out = verify_result(toy)
    assert out.passed
    moving, pinned = out.evidence
    assert moving.setting == {"d": 2, "scale": 2.0, "spectrum": [1.0, 2.0], "unused": 0}
    assert not moving.fixed
    assert pinned.fixed == "a number printed for d = 3" and pinned.setting["d"] == 3


def test_a_given_setting_reaches_every_check_but_the_fixed(toy: Result) -> None:
    s = build_setting(toy, ["d=4", "scale=0.5", "spectrum=1,2,3,4"])
    assert (s.d, s.scale, s.spectrum) == (4, 0.5, (1.0, 2.0, 3.0, 4.0))
    out = verify_result(toy, setting=s)
    moving, pinned = out.evidence
    assert moving.setting["d"] == 4 and moving.observed == pytest.approx(2.0)
    assert pinned.setting["d"] == 3  # fixed: its own setting, said so
    # the controls run at the same setting, and the planted fault is rejected there
    assert run_control(toy.checks[0], "x2", setting=s).rejected


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["d=4", "d=5"], "given twice"),
        (["nope=1"], "takes no key 'nope'"),
        (["unused=1"], "no check of toy:thm1 reads it"),
        (["d=9", "spectrum=none"], "outside the toy theorem's hypotheses"),
        (["d=4"], "spectrum has 3 values but d = 4"),
        (["scale=nan"], "scale must be finite"),
        (["scale=-1"], "scale must be > 0"),
        (["scale=inf"], "scale must be finite"),
        (["d=2.5"], "expected an integer"),
        (["d="], "empty value"),
        (["spectrum=1,,2"], "comma-separated"),
        (["scale=abc"], "expected a real number"),
        (["d"], "must look like key=value"),
    ],
)
def test_bad_settings_name_the_key_before_any_work(
    toy: Result, options: list[str], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        build_setting(toy, options)


def test_cli_check_exit_codes_and_rows(toy: Result, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", "toy:thm1", "--set", "d=4", "--set", "spectrum=1,2,3,4"]) == 0
    out = capsys.readouterr().out
    assert "setting: d=4, scale=2, spectrum=1,2,3,4, unused=0" in out
    assert "runs at the paper's setting (a number printed for d = 3)" in out
    assert cli.main(["check", "toy:thm1", "--set", "d=4", "--set", "d=4"]) == 2
    assert "given twice" in capsys.readouterr().err
    assert cli.main(["check", "toy:thm1", "--set", "d=9", "--set", "spectrum=none"]) == 2
    assert (
        cli.main(["check", "toy:thm1", "--set", "d=4", "--json", "--set", "spectrum=1,2,3,4"]) == 0
    )
    rows = json.loads(capsys.readouterr().out)["evidence"]
    assert rows[0]["setting"]["d"] == 4 and "fixed" not in rows[0]
    assert rows[1]["setting"]["d"] == 3 and rows[1]["fixed"]
    assert cli.main(["check", "toy:thm1", "--params"]) == 0
    params = capsys.readouterr().out
    assert "scale (float; c > 0) = 2.0" in params and "c: a scale" in params
    assert "'x2' of moving" in params and "unused" not in params


def test_sweep_builds_one_setting_per_point(toy: Result) -> None:
    grid = parse_grid("toy:thm1", ["scale=0.5,1"])
    spec = SweepSpec(target="toy:thm1", grid=grid, fixed=(("d", 2), ("spectrum", (1.0, 2.0))))
    settings = point_settings(spec)
    assert [(s.d, s.scale) for s in settings] == [(2, 0.5), (2, 1.0)]
    cells, layout = plan(spec)
    moving = [c for c in cells if c.base is not None]
    fixed = [c for c in cells if c.base is None]
    assert len(moving) == 2 and len(fixed) == 1  # the fixed check runs once per seed
    bad = SweepSpec(
        target="toy:thm1", grid=parse_grid("toy:thm1", ["d=2,9"]), fixed=(("spectrum", None),)
    )
    with pytest.raises(ValueError, match="outside the toy theorem's hypotheses"):
        point_settings(bad)
    with pytest.raises(ValueError, match="takes no key"):
        parse_grid("toy:thm1", ["unused=1,2"])


def test_parse_setting_value_types() -> None:
    assert parse_setting_value("s", "(0.5, 1)", tuple[float, ...]) == (0.5, 1.0)
    assert parse_setting_value("s", "none", tuple[float, ...] | None) is None
    assert parse_setting_value("N", "1e3", int) == 1000
    with pytest.raises(ValueError, match="expected an integer"):
        parse_setting_value("N", "inf", int)


@pytest.mark.parametrize("rid", [r.id for r in registry.all_results() if r.hypotheses is not None])
def test_every_declared_setting_meets_its_results_hypotheses(rid: str) -> None:
    """A run without ``--set`` validates each check's declared setting against the result's
    hypotheses before any work (``icl-verify check``); a declared setting they refuse makes the
    default run exit 2."""
    from sims.verify import check_hypotheses

    result = registry.get(rid)
    for c in result.checks:
        if c.takes_setting and not c.fixed:
            check_hypotheses(result, c.at)
