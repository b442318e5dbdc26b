"""A config-keyed cache for expensive results (trained models), shared by tests and the report.

Entries live in memory for the process and on disk under ``$ICL_VERIFY_CACHE`` (default
``~/.cache/icl-verify``).  The key is a hash of ``(namespace, repr(key), code fingerprint)``, where
the fingerprint hashes the source of ``sims/`` training code and ``theory/settings.py``, so editing
a model or the loop invalidates old entries.  Writes are atomic (temporary file + ``os.replace``):
nothing written is left half-written.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["cache_dir", "cached", "atomic_write_bytes", "code_fingerprint", "clear_memory"]

T = TypeVar("T")
_MEMORY: dict[str, Any] = {}
_FINGERPRINT_DIRS = ("models", "experiments")
_FINGERPRINT_FILES = ("train.py", "data.py", "cache.py")


def cache_dir() -> Path:
    """``$ICL_VERIFY_CACHE`` or ``~/.cache/icl-verify``; ``ICL_VERIFY_CACHE=off`` disables disk."""
    env = os.environ.get("ICL_VERIFY_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "icl-verify"


def _disk_enabled() -> bool:
    return os.environ.get("ICL_VERIFY_CACHE", "").lower() not in ("off", "0", "none")


@functools.cache
def code_fingerprint() -> str:
    """Hash of the training code's source (models, experiments, loop, data, settings)."""
    root = Path(__file__).resolve().parent
    paths = [root / f for f in _FINGERPRINT_FILES]
    for sub in _FINGERPRINT_DIRS:
        paths += sorted((root / sub).glob("*.py"))
    paths.append(root.parent / "theory" / "settings.py")
    h = hashlib.sha256()
    for p in paths:
        if p.exists():
            h.update(p.name.encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (readers see the old file or the new one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _digest(namespace: str, key: Any) -> str:
    h = hashlib.sha256()
    h.update(namespace.encode())
    h.update(repr(key).encode())
    h.update(code_fingerprint().encode())
    return h.hexdigest()[:24]


def cached(namespace: str, key: Any, compute: Callable[[], T]) -> T:
    """Return the cached value for ``(namespace, key)`` or compute, store and return it.

    ``key`` must have a deterministic ``repr`` (frozen dataclasses, tuples, numbers, strings).
    """
    digest = _digest(namespace, key)
    if digest in _MEMORY:
        return _MEMORY[digest]
    path = cache_dir() / namespace.replace(":", "_").replace("/", "_") / f"{digest}.pkl"
    if _disk_enabled() and path.exists():
        try:
            with open(path, "rb") as fh:
                value = pickle.load(fh)
            _MEMORY[digest] = value
            return value
        except Exception:  # corrupt or incompatible entry: recompute and overwrite
            pass
    value = compute()
    _MEMORY[digest] = value
    if _disk_enabled():
        try:
            atomic_write_bytes(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        except OSError:  # read-only home etc.: memory cache still works
            pass
    return value


def clear_memory() -> None:
    _MEMORY.clear()
