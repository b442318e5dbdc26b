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


class DeclaredRuns:
    """``runs(path) -> (rows, error)``: a registered check run once per session at its defaults
    (``quick=True, seed=0``), shared by the registry test and any test that asserts more than
    pass/fail about the same run.  ``runs.arguments[path]`` is what the check passed to public
    theory functions while it ran (:func:`theory.settings.domains.record_arguments`)."""

    def __init__(self) -> None:
        self.memo: dict[str, tuple] = {}
        self.arguments: dict[str, dict[tuple[str, str], set[str]]] = {}

    def __call__(self, path: str) -> tuple:
        from sims.verify import run_check_safely
        from theory.settings.domains import record_arguments

        if path not in self.memo:
            with record_arguments() as rec:
                self.memo[path] = run_check_safely(path)
            self.arguments[path] = rec
        return self.memo[path]


@pytest.fixture(scope="session")
def declared_run() -> DeclaredRuns:
    """The session's :class:`DeclaredRuns`."""
    return DeclaredRuns()
