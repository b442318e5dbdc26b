"""Test configuration: the ``thorough`` tier (profiles and torch threads: ../conftest.py)."""

from __future__ import annotations

import os

import pytest

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")  # profiles: ../conftest.py


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``thorough`` tests run only under HYPOTHESIS_PROFILE=thorough (the default skips them)."""
    if PROFILE == "thorough":
        return
    skip = pytest.mark.skip(reason="thorough tier: set HYPOTHESIS_PROFILE=thorough")
    for item in items:
        if item.get_closest_marker("thorough") is not None:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def thorough() -> bool:
    return PROFILE == "thorough"


@pytest.fixture(scope="session")
def declared_run():
    """``declared_run(path) -> (rows, error)``: a registered check run once per session at its
    defaults (``quick=True, seed=0``), shared by the registry test and any test that asserts more
    than pass/fail about the same run."""
    from sims.verify import run_check_safely

    memo: dict[str, tuple] = {}

    def run(path: str):
        if path not in memo:
            memo[path] = run_check_safely(path)
        return memo[path]

    return run
