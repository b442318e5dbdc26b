"""Test configuration: the ``thorough`` tier (profiles and torch threads: ../conftest.py)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sims.cache import exclusive_lock

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")  # profiles: ../conftest.py


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``thorough`` tests run only under HYPOTHESIS_PROFILE=thorough (the default skips them).
    Tests marked ``reads_every_declared_run`` are collected last: pytest-xdist hands out work in
    collection order, so by the time one of them starts the other workers have run (or are
    running) most declared checks, and it reads their runs (``declared_run``) instead of running
    them all on one worker."""
    items.sort(key=lambda item: item.get_closest_marker("reads_every_declared_run") is not None)
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
    theory functions while it ran (:func:`theory.settings.domains.record_arguments`).

    Under pytest-xdist the workers of one run share the runs through ``shared`` (a directory of
    the run's temporary tree): a run is pickled there atomically when it ends, and a worker that
    finds it there reads it instead of running the check again (the run is deterministic: seed 0,
    its own random streams).  A worker holds an exclusive lock on the run's ``.lock`` file while
    it runs the check (``fcntl.flock``, released when the worker ends however it ends), so a
    worker that needs the same run meanwhile waits for it and reads it: each check runs once."""

    def __init__(self, shared: Path | None = None) -> None:
        self.memo: dict[str, tuple] = {}
        self.arguments: dict[str, dict[tuple[str, str], set[str]]] = {}
        self.shared = shared

    def _file(self, path: str) -> Path | None:
        if self.shared is None:
            return None
        return self.shared / (hashlib.sha256(path.encode()).hexdigest()[:24] + ".pkl")

    def __call__(self, path: str) -> tuple:
        from sims.verify import run_check_safely
        from theory.settings.domains import record_arguments

        # While mutmut records which tests reach which function (benchmarks/mutation) every test
        # that reads this run must reach the functions the check calls, or a mutant is run only
        # against the first such test (which may assert nothing the mutant changes): no reuse.
        recording = os.environ.get("MUTANT_UNDER_TEST") == "stats"
        if path in self.memo and not recording:
            return self.memo[path]
        file = None if recording else self._file(path)
        with exclusive_lock(file.with_suffix(".lock")) if file else contextlib.nullcontext():
            if file is not None and file.exists():
                self.memo[path], self.arguments[path] = pickle.loads(file.read_bytes())
                return self.memo[path]
            with record_arguments() as rec:
                self.memo[path] = run_check_safely(path)
            self.arguments[path] = rec
            if file is not None:
                tmp = file.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_bytes(pickle.dumps((self.memo[path], rec)))
                os.replace(tmp, file)
        return self.memo[path]


@pytest.fixture(scope="session")
def declared_run(tmp_path_factory: pytest.TempPathFactory) -> DeclaredRuns:
    """The session's :class:`DeclaredRuns` (shared between pytest-xdist workers)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return DeclaredRuns()
    shared = tmp_path_factory.getbasetemp().parent / "declared-runs"
    shared.mkdir(exist_ok=True)
    return DeclaredRuns(shared)


#: ``spy(module, name)``: the calls of ``module.name`` during a test (see :func:`spy`).
Spy = Callable[[object, str], list[tuple[dict[str, Any], Any]]]


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    """``spy(module, name)`` wraps ``module.name`` for the test and returns the list it fills with
    ``(keyword arguments, output)`` of every call -- how a check's test asserts that the check
    judges its figure's compute function, with the check's own grid and faults."""

    def install(module: object, name: str) -> list[tuple[dict[str, Any], Any]]:
        calls: list[tuple[dict[str, Any], Any]] = []
        real = getattr(module, name)

        def wrapper(*args: object, **kwargs: Any) -> Any:
            out = real(*args, **kwargs)
            calls.append((kwargs, out))
            return out

        monkeypatch.setattr(module, name, wrapper)
        return calls

    return install
