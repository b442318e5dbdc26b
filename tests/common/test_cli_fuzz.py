"""The command line never answers bad input with a traceback: ``--set`` values fuzzed for every
settings-first result (nan, inf, negatives, zero, wrong lengths and types, empty and huge values,
unknown and duplicate keys).  Each refusal exits 2 and names the key, the value as given and the
assumption it breaks; a value that builds a valid Setting is not run here (that is what the
registry test does at the declared settings).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sims import cli, registry
from sims.verify import build_setting

RESULTS = [r for r in registry.all_results() if r.settings_first]
BAD_TEXT = [
    "nan",
    "inf",
    "-inf",
    "-1",
    "0",
    "-0.5",
    "",
    " ",
    "abc",
    "1e400",
    "1,,2",
    "()",
    "[]",
    "none",
    "True",
    "1.5",
    "99999999999",
    "1,2,3,4,5,6,7,8,9,10",
    "0.5,-1",
    "nan,1",
]


def _refusal_ok(key: str, text: str, message: str) -> bool:
    return key in message and (text.strip() == "" or text.strip() in message)


@pytest.mark.skipif(not RESULTS, reason="no settings-first result registered")
@pytest.mark.parametrize("result", RESULTS, ids=[r.id for r in RESULTS])
def test_every_key_refuses_bad_text_by_name(result: object) -> None:
    for key in result.keys:  # type: ignore[attr-defined]
        for text in BAD_TEXT:
            try:
                build_setting(result, [f"{key}={text}"])  # type: ignore[arg-type]
            except ValueError as exc:
                assert _refusal_ok(key, text, str(exc)), (key, text, str(exc))


@pytest.mark.skipif(not RESULTS, reason="no settings-first result registered")
@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    r=st.sampled_from(RESULTS) if RESULTS else st.nothing(),
    text=st.text(max_size=12),
    which=st.integers(0, 50),
)
def test_fuzzed_text_never_escapes_as_anything_but_a_named_refusal(
    r: object, text: str, which: int
) -> None:
    keys = r.keys  # type: ignore[attr-defined]
    if not keys or "\n" in text:
        return
    key = keys[which % len(keys)]
    try:
        build_setting(r, [f"{key}={text}"])  # type: ignore[arg-type]
    except ValueError as exc:
        assert key in str(exc)


@pytest.mark.skipif(not RESULTS, reason="no settings-first result registered")
def test_cli_exits_2_naming_the_key(capsys: pytest.CaptureFixture[str]) -> None:
    r = next(r for r in RESULTS if r.keys)  # a result with a key to misuse
    key = r.keys[0]
    for argv, needle in (
        (["--set", f"{key}=1", "--set", f"{key}=2"], "given twice"),
        (["--set", "no_such_key=1"], "no_such_key"),
        (["--set", f"{key}="], key),
        (["--set", "novalue"], "key=value"),
    ):
        assert cli.main(["check", r.id, *argv]) == 2, argv
        err = capsys.readouterr().err
        assert needle in err and "Traceback" not in err, (argv, err)
