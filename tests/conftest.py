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
