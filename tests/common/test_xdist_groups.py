"""The suite's ``xdist_group`` marks take effect: under ``--dist loadgroup`` (pyproject's addopts)
a marked test's node ID carries its group, which is what keeps tests that share a trained model on
one worker.  pytest 9.2 silently broke this (pytest-dev/pytest-xdist#1386; constraints.txt pins
pytest below it): this test fails if the installed pair loses the groups again."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

_MODULE = """
import pytest

pytestmark = pytest.mark.xdist_group("shared")


def test_one():
    pass


def test_two():
    pass
"""


def _run(tmp_path: Path, *dist: str) -> str:
    (tmp_path / "test_grouped.py").write_text(_MODULE)
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", *dist, "-v"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def test_loadgroup_keeps_marked_tests_in_their_group(tmp_path: Path) -> None:
    lines = [ln for ln in _run(tmp_path, "--dist", "loadgroup").splitlines() if "PASSED" in ln]
    assert len(lines) == 2
    assert all("@shared" in ln for ln in lines), lines
    assert len({ln.split("]")[0] for ln in lines}) == 1, lines  # one worker ([gwN])
    # negative control: without loadgroup the node IDs carry no group
    plain = [ln for ln in _run(tmp_path, "--dist", "load").splitlines() if "PASSED" in ln]
    assert plain and not any("@shared" in ln for ln in plain), plain
