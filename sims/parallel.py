"""Executors for sweeps and the report: local processes, a Dask ``LocalCluster``, a Dask scheduler.

One interface, :class:`Runner`, over two existing engines (no scheduler of our own):

* ``ExecutorSpec(kind="processes", workers=N)`` -- :class:`concurrent.futures.ProcessPoolExecutor`
  (``spawn`` start method: torch and OpenMP are not fork-safe);
* ``ExecutorSpec(kind="dask-local", workers=N)`` -- a ``distributed.LocalCluster`` on loopback
  with ``N`` single-threaded worker processes;
* ``ExecutorSpec(kind="dask", address="tcp://HOST:PORT")`` -- an existing Dask cluster;
* ``ExecutorSpec(kind="serial")`` -- in this process (the reference behaviour).

Workers never write the cache or any output: :func:`call_unit` runs a task with the cache's disk
writes redirected into the task's return value (``UnitReturn.entries``: path relative to the cache
directory -> packed bytes), and the client writes them with :func:`store_entries` (atomically).  A
cluster therefore needs no shared filesystem.  The client can also *hand out* cache entries it
holds to later tasks (``handed_out``): a worker installs them in its memory cache before running,
so a model trained on one worker is not trained again on another.

Dask is an optional dependency (the ``cluster`` extra); it is imported only when asked for.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "ExecutorSpec",
    "Runner",
    "UnitReturn",
    "call_unit",
    "executor",
    "run_all",
    "store_entries",
    "spec_from_args",
    "default_jobs",
    "ManagerBroker",
    "DaskBroker",
    "limit_threads",
    "torch_threads",
]

Kind = Literal["serial", "processes", "dask-local", "dask"]


def default_jobs() -> int:
    """Cores available to this process (``os.sched_getaffinity`` where it exists)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True, kw_only=True, slots=True)
class ExecutorSpec:
    """Where tasks run."""

    kind: Kind = "serial"  # "serial", "processes", "dask-local" or "dask"
    workers: int = 1  # worker processes (processes, dask-local); ignored for "dask"
    address: str | None = None  # scheduler address for "dask", e.g. "tcp://10.0.0.5:8786"
    torch_threads: int = 1  # torch intra-op threads per worker (tiny models: 1 is fastest)

    def __post_init__(self) -> None:
        if self.kind not in ("serial", "processes", "dask-local", "dask"):
            raise ValueError(
                f"executor kind {self.kind!r} is not one of serial, processes, dask-local, dask"
            )
        if isinstance(self.workers, bool) or not isinstance(self.workers, int) or self.workers < 1:
            raise ValueError(f"workers must be an integer >= 1, got {self.workers!r}")
        if self.kind == "dask" and not self.address:
            raise ValueError("a 'dask' executor needs a scheduler address (tcp://HOST:PORT)")

    @property
    def parallel(self) -> bool:
        return self.kind != "serial"

    def describe(self) -> str:
        if self.kind == "dask":
            return f"dask scheduler {self.address}"
        if self.kind == "dask-local":
            return f"dask LocalCluster, {self.workers} workers"
        if self.kind == "processes":
            return f"{self.workers} local processes"
        return "serial (this process)"


def spec_from_args(
    jobs: int | None, dask_local: int | None, scheduler: str | None, *, default_parallel: bool
) -> ExecutorSpec:
    """The executor named by ``--jobs N`` / ``--dask-local N`` / ``--scheduler ADDR``.

    With none given: ``--jobs <cores>`` when ``default_parallel`` (sweeps and the report), serial
    otherwise.  ``--jobs 1`` is serial.
    """
    given = [x is not None for x in (jobs, dask_local, scheduler)]
    if sum(given) > 1:
        raise ValueError("give at most one of --jobs, --dask-local, --scheduler")
    if scheduler is not None:
        return ExecutorSpec(kind="dask", address=scheduler)
    if dask_local is not None:
        return ExecutorSpec(kind="dask-local", workers=dask_local)
    n = default_jobs() if jobs is None and default_parallel else (jobs or 1)
    if n < 1:
        raise ValueError(f"--jobs must be >= 1, got {n}")
    return ExecutorSpec(kind="processes", workers=n) if n > 1 else ExecutorSpec()


# ------------------------------------------------------------------------------ worker side
@dataclass(frozen=True, slots=True)
class UnitReturn:
    """What a task sends back to the client: its value, the cache entries it computed, the cache
    digests it used (for grouping later runs), its wall time on the worker and, of that, the
    seconds it waited for entries another worker was computing (``seconds − waited`` is the
    task's own cost: the model it waited for is counted once, in the task that trained it)."""

    value: Any
    entries: dict[str, bytes] = field(default_factory=dict)  # cache-relative path -> packed bytes
    used: tuple[str, ...] = ()  # cache digests read or computed by the task
    seconds: float = 0.0
    worker: str = ""
    waited: float = 0.0


def limit_threads(torch_threads: int | None = None) -> None:
    """This process's thread policy: torch intra-op threads (``torch_threads``, else
    ``ICL_VERIFY_TORCH_THREADS``, default 1) and the BLAS/LAPACK pools of numpy and scipy
    (``ICL_VERIFY_BLAS_THREADS``, default 1, through ``threadpoolctl``).  The models and the
    batched small-matrix algebra here are tiny: one thread per process is fastest, and a second
    thread per worker only oversubscribes the cores the other workers use (measured on 2 cores:
    czz24's S1 check 44.6 s with OpenBLAS's default two threads, 10.9 s with one)."""
    import torch
    from threadpoolctl import threadpool_limits

    n = (
        torch_threads
        if torch_threads is not None
        else int(os.environ.get("ICL_VERIFY_TORCH_THREADS", "1"))
    )
    if torch.get_num_threads() != n:
        torch.set_num_threads(n)
    threadpool_limits(limits=int(os.environ.get("ICL_VERIFY_BLAS_THREADS", "1")), user_api="blas")


@contextmanager
def torch_threads(n: int) -> Iterator[None]:
    """Run the body with ``n`` torch intra-op threads, restored afterwards (the experiments'
    ``run(preset, threads=...)``)."""
    import torch

    old = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(old)


def _worker_setup(torch_threads: int) -> None:
    limit_threads(torch_threads)


class ManagerBroker:
    """Claims and published cache entries shared by local worker processes (a
    :class:`multiprocessing.Manager` holds them; picklable proxies travel with each task)."""

    def __init__(self, claims: Any, published: Any, lock: Any) -> None:
        self.claims, self.published, self.lock = claims, published, lock

    def claim(self, digest: str) -> bool:
        with self.lock:
            if digest in self.claims:
                return False
            self.claims[digest] = os.getpid()
            return True

    def publish(self, digest: str, data: bytes) -> None:
        self.published[digest] = data

    def peek(self, digest: str) -> bytes | None:
        """The entry if some worker already published it in this run."""
        return self.published.get(digest)

    def release(self, digest: str) -> None:
        with self.lock:
            self.claims.pop(digest, None)

    def fetch(self, digest: str, timeout: float) -> bytes | None:
        """The entry another worker is computing, once published; ``None`` if its claim was
        released without one (it failed) or after ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            data = self.published.get(digest)
            if data is not None:
                return data
            if digest not in self.claims:
                return self.published.get(digest)
            time.sleep(0.05)
        return None


class DaskBroker:
    """The same protocol on a Dask cluster: a ``distributed.Lock`` per entry is the claim, a
    ``distributed.Variable`` carries the published bytes (through the scheduler, no shared disk)."""

    def __init__(self, run_id: str) -> None:
        self.run_id = run_id
        self._locks: dict[str, Any] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {"run_id": self.run_id}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.run_id, self._locks = state["run_id"], {}

    def _name(self, digest: str) -> str:
        return f"icl-verify-{self.run_id}-{digest}"

    def claim(self, digest: str) -> bool:
        from distributed import Lock

        lock = Lock(self._name(digest))
        if lock.acquire(blocking=False):
            self._locks[digest] = lock
            return True
        return False

    def publish(self, digest: str, data: bytes) -> None:
        from distributed import Variable

        Variable(self._name(digest)).set(data)

    def peek(self, digest: str) -> bytes | None:
        from distributed import Variable

        var: Any = Variable(self._name(digest))
        try:
            return var.get(timeout=0.05)
        except TimeoutError:
            return None

    def release(self, digest: str) -> None:
        lock = self._locks.pop(digest, None)
        if lock is not None:
            lock.release()

    def fetch(self, digest: str, timeout: float) -> bytes | None:
        from distributed import Lock, Variable

        var: Any = Variable(self._name(digest))  # sync API inside a worker (no event loop here)
        lock: Any = Lock(self._name(digest))
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                return var.get(timeout=0.2)
            except TimeoutError:
                if not lock.locked():
                    try:
                        return var.get(timeout=0.2)
                    except TimeoutError:
                        return None
        return None


#: How long a worker waits for an entry another worker is computing before computing it itself.
FETCH_TIMEOUT = 3600.0


def call_unit(
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    handed_out: Mapping[str, bytes],
    torch_threads: int = 1,
    broker: Any = None,
) -> UnitReturn:
    """Run ``fn(*args)`` on a worker with cache writes captured, not written.

    ``handed_out`` (cache-relative path -> packed bytes) are installed in the worker's memory cache
    first.  With a ``broker`` (:class:`ManagerBroker`, :class:`DaskBroker`) a cache entry missing
    from memory and disk is *claimed* before it is computed; a worker that finds it claimed by
    another waits for the bytes that worker publishes, so each model is trained once per run.
    Must run in a worker *process*: it swaps module globals of :mod:`sims.cache` for the duration
    of the task (the client never calls it).
    """
    from sims import cache

    limit_threads(torch_threads)
    memory: dict[str, Any] = cache._MEMORY  # noqa: SLF001 - the worker fills its own memory cache
    for rel, data in handed_out.items():
        digest = Path(rel).stem
        if digest not in memory:
            memory[digest] = cache.unpack_entry(data)
    before = set(memory)
    root = cache.cache_dir()
    disk = os.environ.get("ICL_VERIFY_CACHE", "").lower() not in ("off", "0", "none")
    captured: dict[str, bytes] = {}
    mine: set[str] = set()
    waited = [0.0]  # seconds spent in broker.fetch (another worker computing the entry)
    real_digest = cache._digest  # noqa: SLF001

    def capture(path: Path, data: bytes) -> None:
        try:
            rel = str(Path(path).relative_to(root))
        except ValueError:
            rel = Path(path).name
        captured[rel] = data
        digest = Path(path).stem
        if broker is not None and digest in mine:
            broker.publish(digest, data)

    def claiming_digest(namespace: str, key: Any, module: str | None) -> str:
        digest = real_digest(namespace, key, module)
        if broker is None or digest in memory:
            return digest
        path = root / namespace.replace(":", "_").replace("/", "_") / f"{digest}.pkl"
        if disk and path.exists():
            return digest
        data = broker.peek(digest)  # trained earlier in this run (on another worker)
        if data is not None:
            memory[digest] = cache.unpack_entry(data)
            return digest
        if broker.claim(digest):
            mine.add(digest)  # this worker computes it; capture() publishes it
            return digest
        t_wait = time.perf_counter()
        data = broker.fetch(digest, FETCH_TIMEOUT)
        waited[0] += time.perf_counter() - t_wait
        if data is not None:
            memory[digest] = cache.unpack_entry(data)
        return digest

    saved = cache._store_entry, cache._digest  # noqa: SLF001
    # cached() looks both names up at call time.  Not ``atomic_write_bytes``: a module imported
    # during the task (``from sims.cache import atomic_write_bytes``, e.g. sims.train's
    # checkpoints) would keep the capture for the worker's life, and its files would never reach
    # the disk (a run's resumed phase then restarted from step 0).
    cache._store_entry = capture  # noqa: SLF001
    cache._digest = claiming_digest  # noqa: SLF001
    cache._LOCK_ENTRIES[0] = False  # noqa: SLF001 - the broker claims; nothing is written here
    t0 = time.perf_counter()
    try:
        value = fn(*args)
    finally:
        cache._store_entry, cache._digest = saved  # noqa: SLF001
        cache._LOCK_ENTRIES[0] = True  # noqa: SLF001
        if broker is not None:
            for digest in mine:
                broker.release(digest)
    used = tuple(sorted(set(memory) - before))
    host = f"{os.uname().nodename}:{os.getpid()}"
    return UnitReturn(value, captured, used, time.perf_counter() - t0, host, waited[0])


def store_entries(entries: Mapping[str, bytes]) -> None:
    """Write cache entries returned by workers under this client's cache directory (atomically);
    a disabled or read-only cache is skipped."""
    from sims import cache

    if os.environ.get("ICL_VERIFY_CACHE", "").lower() in ("off", "0", "none"):
        return
    root = cache.cache_dir()
    for rel, data in entries.items():
        try:
            cache.atomic_write_bytes(root / rel, data)
        except OSError:
            pass


# ------------------------------------------------------------------------------ the runner
class Runner:
    """Submit tasks and collect them as they finish, on any of the executors."""

    def __init__(
        self, spec: ExecutorSpec, pool: Any = None, client: Any = None, broker: Any = None
    ) -> None:
        self.spec = spec
        self._pool = pool
        self._client = client
        self.broker = broker

    @property
    def n_workers(self) -> int:
        if self._client is not None:
            info = self._client.scheduler_info()
            return max(1, len(info.get("workers", {})))
        return self.spec.workers if self.spec.parallel else 1

    def submit(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        handed_out: Mapping[str, bytes] | None = None,
    ) -> Any:
        """A future for ``call_unit(fn, args, handed_out)`` (or a done future when serial)."""
        ho = dict(handed_out or {})
        if self._client is not None:
            return self._client.submit(
                call_unit, fn, args, ho, self.spec.torch_threads, self.broker, pure=False
            )
        if self._pool is not None:
            return self._pool.submit(call_unit, fn, args, ho, self.spec.torch_threads, self.broker)
        fut: cf.Future[UnitReturn] = cf.Future()
        t0 = time.perf_counter()
        try:  # serial: in this process, cache written by cached() itself as always
            fut.set_result(UnitReturn(fn(*args), seconds=time.perf_counter() - t0))
        except BaseException as exc:  # noqa: BLE001 - re-raised by .result()
            fut.set_exception(exc)
        return fut

    def wait_any(self, futures: Sequence[Any]) -> tuple[list[Any], list[Any]]:
        """(done, not done) once at least one of ``futures`` is done."""
        if self._client is not None:
            from distributed import wait

            res: Any = wait(list(futures), return_when="FIRST_COMPLETED")
            return list(res.done), list(res.not_done)
        done, rest = cf.wait(list(futures), return_when=cf.FIRST_COMPLETED)
        return list(done), list(rest)


@contextmanager
def executor(spec: ExecutorSpec) -> Iterator[Runner]:
    """A :class:`Runner` for ``spec``; the pool or cluster is shut down on exit."""
    if spec.kind == "serial":
        yield Runner(spec)
        return
    if spec.kind == "processes":
        ctx = multiprocessing.get_context("spawn")
        with (
            cf.ProcessPoolExecutor(
                max_workers=spec.workers,
                mp_context=ctx,
                initializer=_worker_setup,
                initargs=(spec.torch_threads,),
            ) as pool,
            ctx.Manager() as manager,
        ):
            broker = ManagerBroker(manager.dict(), manager.dict(), manager.Lock())
            yield Runner(spec, pool=pool, broker=broker)
        return
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ValueError(
            "Dask executors need the 'cluster' extra: pip install 'icl-verify[cluster]'"
        ) from exc
    if spec.kind == "dask-local":
        env = {
            "OMP_NUM_THREADS": str(spec.torch_threads),
            "MKL_NUM_THREADS": str(spec.torch_threads),
            "OPENBLAS_NUM_THREADS": os.environ.get("ICL_VERIFY_BLAS_THREADS", "1"),
        }
        with (
            LocalCluster(
                n_workers=spec.workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=":0",
                memory_limit=0,
                env=env,
            ) as cluster,
            Client(cluster) as client,
        ):
            yield Runner(spec, client=client, broker=DaskBroker(uuid.uuid4().hex[:12]))
        return
    with Client(spec.address) as client:
        yield Runner(spec, client=client, broker=DaskBroker(uuid.uuid4().hex[:12]))


def run_all(
    runner: Runner,
    tasks: Sequence[tuple[Callable[..., Any], tuple[Any, ...]]],
    on_done: Callable[[int, UnitReturn], None],
    *,
    hand_out: Callable[[int], Mapping[str, bytes]] | None = None,
    in_flight: int | None = None,
) -> None:
    """Run ``tasks`` (``(fn, args)`` pairs) on ``runner``; call ``on_done(i, ret)`` in the client as
    each finishes, in completion order.

    Tasks are submitted lazily, at most ``in_flight`` (default: twice the workers) at a time, so
    that ``hand_out(i)`` -- called when task ``i`` is submitted -- can give it cache entries that
    earlier tasks produced.  A task that raises re-raises here (check errors are values, not
    exceptions: see :func:`sims.verify.run_check_safely`).
    """
    limit = in_flight or 2 * runner.n_workers
    queue = list(range(len(tasks)))[::-1]
    pending: dict[Any, int] = {}
    while queue or pending:
        while queue and len(pending) < limit:
            i = queue.pop()
            fn, args = tasks[i]
            pending[runner.submit(fn, args, hand_out(i) if hand_out else None)] = i
        done, _ = runner.wait_any(list(pending))
        for fut in done:
            i = pending.pop(fut)
            on_done(i, fut.result())
