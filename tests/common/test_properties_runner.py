"""The property runner (``sims.properties``) on a synthetic trained check whose answer is known:
it counts passes and not-separable draws, and shrinks a failure to the minimal setting."""

from __future__ import annotations

import sys
import types

from hypothesis import strategies as st

from numerics.testing import skipped, train_discrimination
from sims.properties import classify, margin, run_property
from theory.common.protocols import TrainedProperty

_MOD = types.ModuleType("_icl_verify_property_fixture")


def _check(*, quick: bool = True, seed: int = 0, d: int = 2, bias: float = 0.0):
    """'Trained' estimate = prediction + 0.01 (+ bias at d >= 5): passes below d = 5, fails from
    it; at d = 4 the alternative sits 1 unit away, so the row says not separable."""
    pred = 1.0
    alt = 1.0 + (0.05 if d == 4 else 0.5)
    observed = pred + 0.01 + (0.2 if d >= 5 else 0.0) + bias
    row = train_discrimination("toy", observed, pred, 3.0, alternatives={"alt": alt})
    if d == 4:
        return [skipped(row, why="not separable at this setting: alternative 1 unit away")]
    return [row]


def _settings():
    return st.fixed_dictionaries({"d": st.integers(1, 8)})


_MOD.check = _check  # type: ignore[attr-defined]
_MOD.settings = _settings  # type: ignore[attr-defined]
sys.modules[_MOD.__name__] = _MOD

PROP = TrainedProperty(
    result="zfb24:thm4",
    name="toy",
    check=f"{_MOD.__name__}:check",
    strategy=f"{_MOD.__name__}:settings",
    pinned=({"d": 2},),
)


def _ok_property() -> TrainedProperty:
    """A property over d ∈ {1, …, 4} (never failing), its d = 4 preset pinned (not separable)."""
    _MOD.settings_small = lambda: st.fixed_dictionaries({"d": st.integers(1, 4)})  # type: ignore
    return TrainedProperty(
        result="zfb24:thm4",
        name="toy-ok",
        check=f"{_MOD.__name__}:check",
        strategy=f"{_MOD.__name__}:settings_small",
        pinned=({"d": 4},),
    )


def test_runner_finds_and_shrinks_a_failure() -> None:
    out = run_property(PROP, examples=30)
    assert not out.passed
    assert out.minimal_failing == {"d": 5}  # shrunk to the smallest failing setting
    assert out.drawn >= 1 and out.passed_count >= 1


def test_runner_counts_passes_and_not_separable() -> None:
    out = run_property(_ok_property(), examples=5)
    assert out.passed, out.to_json()
    assert out.not_separable >= 1  # the pinned d = 4 draw
    assert out.passed_count == 3  # d = 1, 2, 3: the strategy is exhausted
    # margin: 1 - 0.2 units inside the band, alternative 9.8 units away
    assert abs(out.worst_margin - (1 - 0.01 / 0.05)) < 1e-12
    # seconds: the pinned preset's draw is flagged and left out of the drawn settings' cost
    rec = out.to_json()
    pinned = [s for s in rec["settings"] if s["pinned"]]
    assert [s["setting"] for s in pinned] == [{"d": 4}]
    drawn = sum(s["seconds"] for s in rec["settings"] if not s["pinned"])
    assert rec["seconds_drawn"] == round(drawn, 3) or abs(rec["seconds_drawn"] - drawn) < 5e-3
    assert all(s["seconds"] >= 0 for s in rec["settings"])


def test_classify_and_margin() -> None:
    rows = _check(d=2)
    assert classify(rows) == "pass" and margin(rows) is not None
    assert classify(_check(d=4)) == "not_separable"
    assert classify(_check(d=6)) == "fail"
    trapped = [skipped(_check(d=2)[0], why="trapped: no +/- pair formed", trapped=True)]
    assert classify(trapped) == "trapped"


def test_classify_findings_are_not_passes() -> None:
    """A row that passed only through its verdict is not the TRAIN contract holding: ``untested``
    is discarded and counted apart; ``discrepancy`` / ``unconfirmed`` contradict the asserted
    claim and fail the draw (each row has ``passed=True``, so a classifier that read ``passed``
    alone would call all three a pass)."""
    from numerics.testing import untested, with_verdict
    from theory.common.protocols import Claim

    row = _check(d=6)[0]  # outside its band
    claim = Claim(where="Thm 1", quote="q", provenance="printed")
    for verdict, want in (("discrepancy", "fail"), ("unconfirmed", "fail")):
        found = with_verdict(row, verdict, why="routes agree, paper differs", claim=claim)
        assert found.passed and classify([found]) == want, verdict
    lost = untested(_check(d=2)[0], reached="1e4 steps", needed="5e5 steps (the paper's)")
    assert lost.passed and classify([lost]) == "untested"
    assert classify([_check(d=2)[0], lost]) == "untested"


def _float_settings():
    return st.fixed_dictionaries(
        {"d": st.integers(1, 3), "x": st.floats(0.1, 0.9), "y": st.floats(0.1, 0.9)}
    )


def _passing(*, quick: bool = True, seed: int = 0, d: int = 2, x: float = 0.5, y: float = 0.5):
    return [train_discrimination("toy", 1.0, 1.0, 3.0, alternatives={"alt": 2.0})]


_MOD.float_settings = _float_settings  # type: ignore[attr-defined]
_MOD.passing = _passing  # type: ignore[attr-defined]

FLOAT_PROP = TrainedProperty(
    result="zfb24:thm4",
    name="toy-floats",
    check=f"{_MOD.__name__}:passing",
    strategy=f"{_MOD.__name__}:float_settings",
)

#: Examples drawn by the import-independence test: each float draw takes a source constant with
#: probability 0.05, so 2 x 60 draws almost surely take one when the pool is not pinned.
IMPORT_TEST_EXAMPLES = 60


def test_draws_do_not_depend_on_imported_modules(tmp_path, monkeypatch) -> None:
    """The same derandomised draws before and after a local module full of float constants in
    the strategy's range is imported; negative control: unpinned, that import changes them."""

    def settings(pin: bool) -> list[dict]:
        out = run_property(
            FLOAT_PROP, examples=IMPORT_TEST_EXAMPLES, shrink=False, pin_source_constants=pin
        )
        assert out.passed, out.error
        return [d.setting for d in out.draws]

    before, before_unpinned = settings(True), settings(False)
    consts = ", ".join(f"{0.1 + 0.8 * k / 97 + 1e-7 * k:.12f}" for k in range(1, 97))
    (tmp_path / "icl_constants_fixture.py").write_text(f"VALUES = [{consts}]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    importlib.import_module("icl_constants_fixture")
    try:
        assert settings(True) == before
        assert settings(False) != before_unpinned  # the fault: constants from the new module
    finally:
        sys.modules.pop("icl_constants_fixture", None)


def test_draws_do_not_depend_on_the_runners_source() -> None:
    """The runner's draws equal those of a separate Hypothesis test -- other source, same strategy
    and ``DRAW_SEED`` -- so editing ``sims/properties.py`` does not move every property's drawn
    settings; negative control: that separate test seeded from its own source (``derandomize``
    alone, the runner's former seeding) draws other settings."""
    from hypothesis import Phase, given, seed, settings

    from sims.properties import DRAW_SEED, source_constants_pinned

    ours = [d.setting for d in run_property(FLOAT_PROP, examples=12, shrink=False).draws]

    def draws(seeded: bool) -> list[dict]:
        seen: list[dict] = []

        def other_body(s: dict) -> None:  # deliberately not the runner's source
            seen.append(dict(s))

        test = given(_MOD.float_settings())(other_body)  # type: ignore[attr-defined]
        if seeded:
            test = seed(DRAW_SEED)(test)
        test = settings(max_examples=12, derandomize=True, database=None, phases=[Phase.generate])(
            test
        )
        with source_constants_pinned():
            test()
        return seen

    assert draws(seeded=True) == ours
    assert draws(seeded=False) != ours


def test_without_pinned_the_same_settings_are_drawn() -> None:
    """``include_pinned=False`` (the report) drops the pinned presets and nothing else: the drawn
    settings are those of the run with them, after them."""
    prop = _ok_property()
    with_pinned = run_property(prop, examples=5, shrink=False)
    without = run_property(prop, examples=5, shrink=False, include_pinned=False)
    assert [d.setting for d in with_pinned.draws if d.pinned] == [{"d": 4}]
    assert not any(d.pinned for d in without.draws)
    assert [d.setting for d in without.draws] == [
        d.setting for d in with_pinned.draws if not d.pinned
    ]


def test_every_pinned_preset_is_a_declared_checks_defaults() -> None:
    """The report leaves the pinned presets out of its property runs because its own checks run
    them: each pinned setting must be its check's defaults, and the check declared by the
    property's result (negative control: a pinned setting off the defaults is caught)."""
    import inspect

    from sims.registry import all_properties, all_results, resolve

    declared = {r.id: {str(c) for c in r.checks} for r in all_results()}
    from sims.verify import declared as declaration

    def off_defaults(check: str, pinned: dict) -> list[str]:
        c = declaration(check)
        if c.takes_setting:  # settings first: the check's defaults are its declared setting
            defaults = {k: getattr(c.at, k, inspect.Parameter.empty) for k in pinned}
        else:
            sig = inspect.signature(resolve(check))
            defaults = {
                k: sig.parameters[k].default if k in sig.parameters else inspect.Parameter.empty
                for k in pinned
            }
        out = []
        for k, v in pinned.items():
            default = defaults[k]
            same = default == v or (
                isinstance(v, (tuple, list))
                and isinstance(default, (tuple, list))
                and tuple(v) == tuple(default)
            )
            if not same:
                out.append(k)
        return out

    for p in all_properties():
        assert p.check in declared[p.result], p.id
        for pin in p.pinned:
            assert off_defaults(p.check, pin) == [], (p.id, pin)
    p = all_properties()[0]
    assert off_defaults(p.check, {**p.pinned[0], "d": 99}) == ["d"]


def test_classify_an_outcome_of_its_own() -> None:
    """An ``unconfirmed`` row that names its outcome (``details["outcome"]``) is that outcome,
    counted apart (never a pass); without a name it fails the draw; a failed row beside it still
    fails the draw."""
    from numerics.testing import with_verdict
    from theory.common.protocols import Claim

    claim = Claim(where="Obs 2", quote="q", provenance="paraphrase")
    row = _check(d=6)[0]
    named = with_verdict(row, "unconfirmed", why="sharp head", claim=claim, outcome="sharp head")
    bare = with_verdict(row, "unconfirmed", why="sharp head", claim=claim)
    assert classify([named, _check(d=2)[0]]) == "unconfirmed"
    assert classify([bare]) == "fail"
    assert classify([named, _check(d=6)[0]]) == "fail"


def _outcome_check(*, quick: bool = True, seed: int = 0, d: int = 2):
    """d = 3 ends in a named outcome of its own; every other d passes."""
    from numerics.testing import with_verdict
    from theory.common.protocols import Claim

    if d != 3:
        return _check(d=min(d, 2))
    claim = Claim(where="Obs 2", quote="q", provenance="paraphrase")
    return [with_verdict(_check(d=6)[0], "unconfirmed", why="why", claim=claim, outcome="toy")]


_MOD.outcome_check = _outcome_check  # type: ignore[attr-defined]


def test_explicit_settings_run_in_every_tier_and_outcomes_are_counted() -> None:
    """``explicit`` settings run after the pinned presets, with or without them (the report drops
    only the pinned ones); a draw with an outcome of its own is counted, noted and not a fail."""
    prop = TrainedProperty(
        result="zfb24:thm4",
        name="toy-explicit",
        check=f"{_MOD.__name__}:outcome_check",
        strategy=f"{_MOD.__name__}:settings_small",
        pinned=({"d": 1},),
        explicit=({"d": 3},),
    )
    _MOD.settings_small = lambda: st.fixed_dictionaries({"d": st.integers(1, 4)})  # type: ignore
    for include in (True, False):
        out = run_property(prop, examples=3, shrink=False, include_pinned=include)
        flags = [(d.setting, d.pinned, d.explicit) for d in out.draws][: 1 + include]
        want = [({"d": 1}, True, False)] if include else []
        assert flags == [*want, ({"d": 3}, False, True)]
        assert out.passed and out.unconfirmed >= 1
        rec = out.to_json()
        assert rec["unconfirmed"] == out.unconfirmed
        noted = [s for s in rec["settings"] if s["verdict"] == "unconfirmed"]
        assert noted and noted[0]["note"].startswith("toy: ")


def test_report_section_lists_outcomes_per_draw() -> None:
    """ "Trained claims over settings" lists each draw's outcome: an unconfirmed or untested draw
    with its note, an explicit setting marked, and the counts in their columns."""
    from sims.render_sections import PROPERTY_HEAD, properties_md

    rec = {
        "result": "hpcy25:obs1",
        "property": "p",
        "drawn": 3,
        "passed": 1,
        "not_separable": 0,
        "trapped": 0,
        "untested": 1,
        "unconfirmed": 1,
        "worst_margin": 0.5,
        "minimal_failing": None,
        "seconds": 3.0,
        "seconds_drawn": 3.0,
        "settings": [
            {"setting": {"H": 3}, "verdict": "pass", "seconds": 1.0, "explicit": True},
            {"setting": {"H": 4}, "verdict": "untested", "seconds": 1.0, "note": "3481 steps"},
            {"setting": {"H": 3}, "verdict": "unconfirmed", "seconds": 1.0, "note": "sharp head"},
        ],
    }
    md = "\n".join(properties_md([rec]))
    row = next(line for line in md.splitlines() if line.startswith("| hpcy25:obs1/p"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    head = dict(zip(PROPERTY_HEAD, cells, strict=True))
    assert (head["untested"], head["unconfirmed"]) == ("1", "1")
    drawn = head["settings drawn"]
    assert "explicit, pass" in drawn and "untested: 3481 steps" in drawn
    assert "unconfirmed: sharp head" in drawn
