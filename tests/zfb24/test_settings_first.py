"""[zfb24] settings first: every check takes the zfb24 Setting as its first parameter, the Setting
refuses bad values naming the key, and a researcher's ``--set`` builds one Setting that reaches
every check of the result but the fixed ones (which keep their own and say why)."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from sims.registry import all_results
from sims.verify import build_setting, run_check, setting_for
from theory.common.setting import setting_json
from theory.zfb24.settings import PRESETS, Setting

ZFB24 = [r for r in all_results() if r.paper == "zfb24"]
CHECKS = {c.path: c for r in ZFB24 for c in r.checks}


def _result(rid: str):
    return next(r for r in ZFB24 if r.id == rid)


def test_every_result_is_settings_first() -> None:
    assert len(ZFB24) == 17
    for r in ZFB24:
        assert isinstance(r.setting, Setting), r.id
        for c in r.checks:
            assert isinstance(c.at, Setting), (r.id, c.path)
            assert c.at in PRESETS.values(), (r.id, c.path)  # a named preset


@pytest.mark.parametrize("path", sorted(CHECKS))
def test_check_takes_the_setting_first(path: str) -> None:
    """``check(setting: Setting, *, quick, seed, fault_...)``: no other keyword parameter."""
    fn = CHECKS[path].function
    params = list(inspect.signature(fn).parameters.values())
    first, rest = params[0], params[1:]
    assert first.name == "setting" and first.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert first.annotation in (Setting, "Setting"), path
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in rest), path
    extra = [p.name for p in rest if p.name not in ("quick", "seed")]
    assert all(n.startswith("fault_") for n in extra), (path, extra)
    for fault in CHECKS[path].faults.values():
        assert set(fault) <= set(extra), (path, fault)


def test_fixed_checks_say_why() -> None:
    fixed = {c.path: c.fixed for c in CHECKS.values() if c.fixed}
    assert len(fixed) >= 10
    assert all(len(reason) > 20 for reason in fixed.values())


@pytest.mark.parametrize(
    ("kw", "key"),
    [
        ({"d": 0, "spectrum": None}, "d"),
        ({"N": 0}, "N"),
        ({"M": 0}, "M"),
        ({"spectrum": (1.0, 2.0)}, "spectrum"),
        ({"spectrum": (0.5, 1.0, -1.0, 2.0)}, "spectrum[2]"),
        ({"sigma_init": 0.0}, "sigma_init"),
        ({"noise_var": -0.5}, "noise_var"),
        ({"d": 2.5, "spectrum": None}, "d"),
    ],
)
def test_setting_rejects_bad_values_naming_the_key(kw: dict, key: str) -> None:
    with pytest.raises(ValueError, match=key.replace("[", r"\[").replace("]", r"\]")):
        Setting(**kw)


THM4_SET = ["d=3", "spectrum=0.5,1,2", "N=6"]


def test_build_setting_thm4() -> None:
    s = build_setting(_result("zfb24:thm4"), THM4_SET)
    assert s == Setting(d=3, spectrum=(0.5, 1.0, 2.0), N=6)
    assert s.sigma_init == PRESETS["paper"].sigma_init


def test_thm4_checks_run_at_the_given_setting_fixed_ones_at_theirs() -> None:
    """Every non-fixed check of Theorem 4 is given the researcher's Setting; the fixed ones keep
    their declared one.  The closed-form and ODE checks are run (the trained ones are run at
    drawn settings by tests/zfb24/test_settings.py): their rows carry the setting they ran at."""
    r = _result("zfb24:thm4")
    s = build_setting(r, THM4_SET)
    moved = [c for c in r.checks if not c.fixed]
    assert {c.path.rsplit(":", 1)[1] for c in moved} >= {
        "check_thm4_ode",
        "check_thm4_train_sgd",
        "check_thm4_train_population_gd",
    }
    for c in r.checks:
        assert setting_for(c, s) == (c.at if c.fixed else s), c.path
    for c in r.checks:
        if "train" in c.path:
            continue
        rows = run_check(c, setting=s)
        want = c.at if c.fixed else s
        assert all(e.setting == setting_json(want) for e in rows), c.path
        assert all(e.fixed == c.fixed for e in rows), c.path
        assert all(e.passed for e in rows), [e.describe() for e in rows if not e.passed]
    ode = run_check(next(c for c in moved if c.path.endswith(":check_thm4_ode")), setting=s)
    assert all(e.name.startswith("setting Λ = diag(0.5, 1.0, 2.0)") for e in ode)


@pytest.mark.parametrize(
    ("sets", "key"),
    [
        (["N=6", "N=7"], "N"),  # given twice
        (["noise_var=0.1"], "noise_var"),  # a field no check of Theorem 4 reads
        (["alpha=1"], "alpha"),  # not a field
        (["sigma_init=1.2", "d=3", "N=6", "spectrum=0.5,1,2"], "sigma_init"),  # σ²‖Γ‖√d ≥ 2
        (["d=3"], "spectrum"),  # Λ = diag(spectrum) must be d×d
        (["spectrum=none"], "spectrum"),  # Theorem 4's checks need a diagonal Λ
    ],
)
def test_bad_set_raises_naming_the_key(sets: list[str], key: str) -> None:
    with pytest.raises(ValueError, match=key):
        build_setting(_result("zfb24:thm4"), sets)


def test_hypotheses_called_by_the_checks_too() -> None:
    """A check refuses an out-of-hypothesis Setting itself (not only build_setting)."""
    r = _result("zfb24:thm4")
    c = next(c for c in r.checks if c.path.endswith(":check_thm4_ode"))
    bad = dataclasses.replace(PRESETS["paper"], sigma_init=3.0)
    with pytest.raises(ValueError, match="sigma_init"):
        c.function(bad)
