"""A config-keyed cache for expensive results (trained models), shared by tests and the report.

Entries live in memory for the process and on disk under ``$ICL_VERIFY_CACHE`` (default
``~/.cache/icl-verify``).  The key is a hash of ``(namespace, repr(key), code fingerprint)``.  The
fingerprint hashes the source of the module that defines ``compute`` and of every ``sims`` module it
imports, transitively, into ``theory.settings`` too (so one paper's model, loop, data, experiment
and setting -- not another paper's), plus the entry format ``sims/cache_format.py``; editing any of
them invalidates old entries.  This module (where and how entries are stored) is left out of the
fingerprint: editing it retrains nothing.  The fingerprint hashes code, not prose: docstrings
and comments are left out (:func:`code_text`), so editing documentation retrains nothing.
``ICL_VERIFY_CACHE_LOG=<file>`` appends one line per computed entry (``pid namespace digest
seconds [pytest test id]``) to count trainings, e.g. a model two test workers trained at once.
Processes that share the cache directory compute an entry once: the first to miss takes an
exclusive lock on ``<digest>.lock`` beside the entry (``fcntl.flock``; the kernel releases it when
the process ends, however it ends) while it computes and writes; another that misses the same entry
meanwhile waits for the lock and then reads the entry (two pytest-xdist workers that need one
model train it once).  A process that already holds a lock (a nested entry) never waits for one,
so two processes cannot wait on each other; where ``fcntl`` is missing (Windows) nothing waits.
Writes are atomic (temporary file + ``os.replace``): nothing written is left half-written.  Each
file starts with a magic tag and the SHA-256 of its payload; an entry whose checksum does not
match (a truncated or corrupted file) is reported with a warning and recomputed, never unpickled.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import importlib.util
import io
import os
import tempfile
import time
import tokenize
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from sims.cache_format import pack_entry, unpack_entry

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: entries are computed without a lock
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "cache_dir",
    "cached",
    "is_cached",
    "atomic_write_bytes",
    "code_fingerprint",
    "code_text",
    "module_closure",
    "module_fingerprint",
    "clear_memory",
    "pack_entry",
    "unpack_entry",
    "remove_stale_temporaries",
    "exclusive_lock",
]

T = TypeVar("T")
_MEMORY: dict[str, Any] = {}
_FINGERPRINT_DIRS = ("models", "experiments")
#: The entry format: fingerprinted; this module (the store) is not (see the module docstring).
_FORMAT_FILE = "cache_format.py"
_FINGERPRINT_FILES = ("train.py", "data.py", _FORMAT_FILE)
_STORE_MODULE = "sims.cache"


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
    paths += sorted((root.parent / "theory" / "settings").glob("*.py"))
    # papers laid out by their key: sims/<key>/train.py and theory/<key>/settings.py
    paths += sorted(root.glob("*/train.py")) + sorted(
        (root.parent / "theory").glob("*/settings.py")
    )
    return _hash_sources(p for p in paths if p.exists())


def code_text(source: str) -> str:
    r"""The code of a Python source without its comments and docstrings: its tokens, with
    comments, blank lines and every statement that is a lone string literal (module, class and
    function docstrings, attribute docs) left out.  Editing prose leaves it unchanged; editing
    code changes it.  (Tokens, not the syntax tree: a fresh process fingerprints its training
    code at every start, and tokenizing costs a fraction of parsing and dumping the tree.)

    >>> code_text("def f(x):\n    'Doc.'\n    return x + 1  # one") == code_text(
    ...     "def f(x):\n\n    return x + 1")
    True
    >>> code_text("def f(x):\n    return x + 1") == code_text("def f(x):\n    return x + 2")
    False
    >>> code_text("x = 'a'\n") == code_text("x = 'b'\n")  # a string that is data is code
    False
    """
    skip = (tokenize.COMMENT, tokenize.NL, tokenize.ENCODING)
    toks = [
        (t.type, t.string)
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
        if t.type not in skip
    ]
    starts = (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
    out: list[str] = []
    i = 0
    while i < len(toks):
        j = i
        while j < len(toks) and toks[j][0] == tokenize.STRING:
            j += 1
        lone = (
            j > i
            and (i == 0 or toks[i - 1][0] in starts)
            and (j == len(toks) or toks[j][0] in (tokenize.NEWLINE, tokenize.ENDMARKER))
        )
        if lone:  # a statement that is only a string: prose
            i = j + 1 if j < len(toks) and toks[j][0] == tokenize.NEWLINE else j
            continue
        out.append(f"{toks[i][0]}:{toks[i][1]}")
        i += 1
    return "\n".join(out)


def _hash_sources(paths: Iterable[Path]) -> str:
    """sha256 over (repo-relative name, code without docstrings and comments) of each file, in
    sorted order (:func:`code_text`: editing prose retrains nothing)."""
    repo = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for p in sorted(set(paths)):
        h.update(str(p.resolve().relative_to(repo)).encode())
        h.update(code_text(p.read_text(encoding="utf-8")).encode())
    return h.hexdigest()[:16]


def _sims_imports(path: Path, module: str) -> list[str]:
    """Modules under ``sims`` imported by the file (absolute or relative imports)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = (
                importlib.util.resolve_name("." * node.level + (node.module or ""), package)
                if node.level
                else (node.module or "")
            )
            out.append(base)
            out += [f"{base}.{a.name}" for a in node.names]
    return [
        m
        for m in out
        if m == "sims" or m.startswith(("sims.", "theory.settings")) or _is_settings(m)
    ]


def _is_settings(module: str) -> bool:
    """A paper's settings module laid out by its key, ``theory.<key>.settings``."""
    parts = module.split(".")
    return len(parts) == 3 and parts[0] == "theory" and parts[2] == "settings"


@functools.cache
def module_closure(module: str) -> tuple[Path, ...]:
    """Source files of ``module`` and of the ``sims`` and ``theory.settings`` modules it imports,
    transitively."""
    root = Path(__file__).resolve().parent
    settings_root = root.parent / "theory" / "settings"
    seen: set[str] = set()
    files: set[Path] = set()
    stack = [module]
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            continue
        if name == _STORE_MODULE:  # the store, not what it stores (module docstring)
            continue
        path = Path(spec.origin).resolve()
        if (
            root not in path.parents
            and settings_root not in path.parents
            and not _is_settings(name)
        ):
            continue
        files.add(path)
        stack += _sims_imports(path, name)
    return tuple(sorted(files))


@functools.cache
def module_fingerprint(module: str) -> str:
    """Hash of :func:`module_closure` (which follows imports into ``theory.settings``, and leaves
    out this module) plus the entry format ``sims/cache_format.py``."""
    root = Path(__file__).resolve().parent
    return _hash_sources([*module_closure(module), root / _FORMAT_FILE])


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (readers see the old file or the new one), with the
    mode an ordinary new file gets (0666 less the umask: 0644 by default), not mkstemp's 0600."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def remove_stale_temporaries(directory: Path) -> list[Path]:
    """Delete the temporary files :func:`atomic_write_bytes` leaves when its process is killed
    (SIGKILL skips its clean-up) under ``directory``; called when a run resumes.  The files they
    were to replace are intact: a write is only ever visible through ``os.replace``."""
    if not directory.is_dir():
        return []
    stale = [p for p in directory.rglob(".*.tmp") if p.is_file()]
    for p in stale:
        p.unlink(missing_ok=True)
    return stale


def _digest(namespace: str, key: Any, module: str | None) -> str:
    h = hashlib.sha256()
    h.update(namespace.encode())
    h.update(repr(key).encode())
    fp = module_fingerprint(module) if module and module.startswith("sims.") else code_fingerprint()
    h.update(fp.encode())
    return h.hexdigest()[:24]


def cached(namespace: str, key: Any, compute: Callable[[], T], *, lock: bool = True) -> T:
    """Return the cached value for ``(namespace, key)`` or compute, store and return it.

    ``key`` must have a deterministic ``repr`` (frozen dataclasses, tuples, numbers, strings).
    When ``compute`` is defined in a ``sims`` module, only that module's import closure enters the
    code fingerprint; otherwise all training code does (:func:`code_fingerprint`).  With ``lock``
    (the default) a process that misses an entry another process is computing waits for it and
    reads it (module docstring); ``lock=False`` computes at once (a test's negative control).
    """
    digest = _digest(namespace, key, getattr(compute, "__module__", None))
    if digest in _MEMORY:
        return _MEMORY[digest]
    path = cache_dir() / namespace.replace(":", "_").replace("/", "_") / f"{digest}.pkl"
    found = _read(path)
    if found is not None:
        _MEMORY[digest] = found[0]
        return found[0]
    with _compute_lock(path, lock) as waited:
        found = _read(path) if waited else None  # computed by the process we waited for
        if found is not None:
            _MEMORY[digest] = found[0]
            return found[0]
        t0 = time.perf_counter()
        value = compute()
        _log_computed(namespace, digest, time.perf_counter() - t0)
        _MEMORY[digest] = value
        if _disk_enabled():
            try:
                _store_entry(path, pack_entry(value))
            except OSError:  # read-only home etc.: memory cache still works
                pass
    return value


def _store_entry(path: Path, data: bytes) -> None:
    """Where :func:`cached` writes an entry: :func:`atomic_write_bytes`, looked up at call time.
    A report worker's task replaces this name (:func:`sims.parallel.call_unit` captures entries
    instead of writing them); ``atomic_write_bytes`` itself is never replaced, so a module that
    imports it -- even during such a task -- always writes to disk (a training checkpoint)."""
    atomic_write_bytes(path, data)


def _read(path: Path) -> tuple[Any] | None:
    """``(value,)`` of the entry at ``path``; None when absent, disabled or unreadable (warned)."""
    if not (_disk_enabled() and path.exists()):
        return None
    try:
        return (unpack_entry(path.read_bytes()),)
    except Exception as exc:  # noqa: BLE001 - corrupt or incompatible: recompute, overwrite
        warnings.warn(
            f"cache entry {path} is unreadable ({type(exc).__name__}: {exc}); recomputing",
            RuntimeWarning,
            stacklevel=3,
        )
        return None


#: Locks this process holds now (a process holding one never waits for another: no deadlock).
_HELD = [0]
#: Whether :func:`cached` locks entries across processes; a report worker's task turns it off
#: (:func:`sims.parallel.call_unit`: its broker claims entries, its writes are captured, not
#: written, so a lock file would be the only trace it leaves in the cache directory).
_LOCK_ENTRIES = [True]


@contextlib.contextmanager
def exclusive_lock(path: Path) -> Iterator[bool]:
    """Hold an exclusive ``fcntl.flock`` on the file ``path`` (created if missing) for the body:
    another process taking the same lock waits; the kernel releases it when the holder ends,
    however it ends.  Yields False without taking it where ``fcntl`` is missing (Windows) or the
    file cannot be created (a read-only directory); True once held.  Also the lock of the test
    suite's shared declared runs (tests/conftest.py).

    >>> import tempfile
    >>> with exclusive_lock(Path(tempfile.mkdtemp()) / "entry.lock") as held:
    ...     held
    True
    """
    if fcntl is None:
        yield False
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)  # the umask applies
    except OSError:
        yield False
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield True
    finally:
        os.close(fd)  # releases the lock


@contextlib.contextmanager
def _compute_lock(path: Path, lock: bool) -> Iterator[bool]:
    """Hold the exclusive lock on ``path``'s ``.lock`` file while the body computes the entry;
    yields whether a lock was taken (then the entry may have appeared while this process waited).
    No lock (yields False) without ``lock``, with the disk cache off, while this process already
    holds one, or where :func:`exclusive_lock` takes none."""
    if not (lock and _LOCK_ENTRIES[0]) or _HELD[0] or not _disk_enabled():
        yield False
        return
    with exclusive_lock(path.with_suffix(".lock")) as held:
        _HELD[0] += held
        try:
            yield held
        finally:
            _HELD[0] -= held


def is_cached(namespace: str, key: Any, module: str) -> bool:
    """Whether :func:`cached` would find ``(namespace, key)`` (in memory or on disk) for a
    ``compute`` defined in ``module`` -- without reading or computing it (a caller with a time
    budget decides before it starts an expensive entry)."""
    digest = _digest(namespace, key, module)
    if digest in _MEMORY:
        return True
    path = cache_dir() / namespace.replace(":", "_").replace("/", "_") / f"{digest}.pkl"
    return _disk_enabled() and path.exists()


def _log_computed(namespace: str, digest: str, seconds: float) -> None:
    """Append ``pid namespace digest seconds [test]`` to ``$ICL_VERIFY_CACHE_LOG`` (if set): one
    line per computed entry, written in one ``write`` (atomic for short appends); ``test`` is
    pytest's ``PYTEST_CURRENT_TEST`` when set (which tests share a model)."""
    log = os.environ.get("ICL_VERIFY_CACHE_LOG")
    if not log:
        return
    try:
        with open(log, "a", encoding="utf-8") as fh:
            test = os.environ.get("PYTEST_CURRENT_TEST", "")
            fh.write(f"{os.getpid()} {namespace} {digest} {seconds:.3f} {test}".rstrip() + "\n")
    except OSError:  # an unwritable log never fails a computation
        pass


def clear_memory() -> None:
    _MEMORY.clear()
