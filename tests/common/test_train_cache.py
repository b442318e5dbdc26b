"""The training loop is reproducible from its generator, resumes exactly, and the cache is
atomic."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from sims import cache
from sims.config import TrainConfig, parse_overrides
from sims.data import embed, sample_prompts
from sims.models.lsa import LSA
from sims.train import PlateauCosine, make_generator, minibatch_objective, train
from theory.settings import LinearRegressionICL

SETTING = LinearRegressionICL.isotropic(d=2, N=8)


def _objective(setting: LinearRegressionICL):
    def sampler(B: int, gen: torch.Generator):
        p = sample_prompts(setting, B, generator=gen)
        return embed(p.X, p.y, p.xq), p.yq

    return minibatch_objective(sampler, 32, half=True)


def _model(gen: torch.Generator) -> LSA:
    m = LSA(2)
    with torch.no_grad():  # small random start from the explicit generator
        m.W_KQ.copy_(0.1 * torch.randn(3, 3, generator=gen, dtype=torch.float64))
        m.W_PV.copy_(0.1 * torch.randn(3, 3, generator=gen, dtype=torch.float64))
    return m


def _run(
    cfg: TrainConfig, ckpt: Path | None = None, crash_at: int | None = None, **train_kwargs: Any
):
    """``train`` on the tiny LSA, interrupted at step ``crash_at`` if given; ``train_kwargs``
    (``callback``, ``stop``, ``lr_at``) go to :func:`train`."""
    gen = make_generator(cfg.seed)
    objective = _objective(SETTING)

    def maybe_crash(model, g, step):
        if step == crash_at:
            raise KeyboardInterrupt("simulated interruption")
        return objective(model, g, step)

    return train(_model(gen), maybe_crash, cfg, generator=gen, checkpoint=ckpt, **train_kwargs)


def test_same_seed_same_result_and_loss_decreases() -> None:
    cfg = TrainConfig(optimizer="sgd", lr=0.05, steps=60, log_every=5)
    a, b = _run(cfg), _run(cfg)
    for k in a.params:
        assert np.array_equal(a.params[k], b.params[k])
    assert np.array_equal(a.losses, b.losses)
    c = _run(dataclasses.replace(cfg, seed=1))
    assert not np.array_equal(a.params["W_KQ"], c.params["W_KQ"])
    assert a.losses[-5:].mean() < a.losses[:5].mean()


def test_checkpoint_resume_equals_uninterrupted(tmp_path: Path) -> None:
    cfg = TrainConfig(optimizer="adam", lr=0.01, steps=40, checkpoint_every=10, log_every=5)
    full = _run(cfg)
    ckpt = tmp_path / "run.pt"
    with pytest.raises(KeyboardInterrupt):
        _run(cfg, ckpt, crash_at=25)  # interrupted; last checkpoint at step 20
    assert ckpt.exists()
    resumed = _run(cfg, ckpt)
    for k in full.params:
        np.testing.assert_array_equal(resumed.params[k], full.params[k])
    np.testing.assert_array_equal(resumed.losses, full.losses)


def test_stop_hook_ends_training_where_the_criterion_first_holds() -> None:
    """``stop(trace)`` ends training after the first logging step where it holds; the parameters
    are those of an uninterrupted run of exactly that many steps (negative control: a criterion
    that never holds runs every step)."""
    cfg = TrainConfig(optimizer="sgd", lr=0.05, steps=60, log_every=5)
    gen = make_generator(cfg.seed)
    calls: list[int] = []

    def stop(trace: list[dict[str, float]]) -> bool:
        calls.append(int(trace[-1]["step"]))
        return trace[-1]["step"] >= 20

    res = train(
        _model(gen),
        _objective(SETTING),
        cfg,
        generator=gen,
        callback=lambda m, s: {"norm": float(m.W_KQ.norm())},
        stop=stop,
    )
    assert res.extra["stopped_at"] == 21 and calls == [0, 5, 10, 15, 20]
    short = _run(dataclasses.replace(cfg, steps=21))
    for k in short.params:
        np.testing.assert_array_equal(res.params[k], short.params[k])
    gen = make_generator(cfg.seed)
    never = train(
        _model(gen),
        _objective(SETTING),
        cfg,
        generator=gen,
        callback=lambda m, s: {},
        stop=lambda trace: False,
    )
    assert "stopped_at" not in never.extra
    np.testing.assert_array_equal(never.params["W_KQ"], _run(cfg).params["W_KQ"])


def test_lr_at_hook_sets_every_step_learning_rate() -> None:
    """``lr_at(step, trace)`` replaces the config's schedule: returning half the config's lr is the
    same run as a config with half the lr (plain SGD: bit for bit); returning the config's lr is
    the default run (negative control: the halved run differs from the default one)."""
    cfg = TrainConfig(optimizer="sgd", lr=0.05, steps=30, log_every=5)
    seen: list[int] = []

    def half(step: int, trace: list[dict[str, float]]) -> float:
        seen.append(step)
        return 0.5 * cfg.lr

    gen = make_generator(cfg.seed)
    res = train(_model(gen), _objective(SETTING), cfg, generator=gen, lr_at=half)
    assert seen == list(range(30))
    ref = _run(dataclasses.replace(cfg, lr=0.025))
    np.testing.assert_array_equal(res.params["W_KQ"], ref.params["W_KQ"])
    assert not np.array_equal(res.params["W_KQ"], _run(cfg).params["W_KQ"])
    gen = make_generator(cfg.seed)
    same = train(_model(gen), _objective(SETTING), cfg, generator=gen, lr_at=lambda s, t: cfg.lr)
    np.testing.assert_array_equal(same.params["W_KQ"], _run(cfg).params["W_KQ"])


def _plateau_trace(tau: float, steps: int = 4000, every: int = 20) -> list[dict[str, float]]:
    return [{"step": s, "inv": 1 - np.exp(-s / tau)} for s in range(0, steps, every)]


def _first_plateau(trace: list[dict[str, float]], trigger: float, window: int, min_steps: int):
    """Brute force: the first logged step whose two trailing windows' means differ by at most
    ``trigger`` times their mean magnitude."""
    for r in trace:
        t = r["step"]
        if t < max(min_steps, 2 * window):
            continue
        cur = np.mean([q["inv"] for q in trace if t - window < q["step"] <= t])
        prev = np.mean([q["inv"] for q in trace if t - 2 * window < q["step"] <= t - window])
        if abs(cur - prev) <= trigger * 0.5 * (abs(cur) + abs(prev)):
            return t
    return None


def test_plateau_cosine_holds_then_decays_from_the_plateau() -> None:
    """:class:`PlateauCosine` holds its lr until the traced invariant's two window means agree
    within ``trigger`` (the first such logged step, found by brute force here), then follows a
    cosine to ``floor`` over ``decay_steps``: pinned at the trigger, half way (lr (1 + floor)/2) and
    after the decay (floor lr).  A slower invariant triggers later; a schedule object reused on
    another run's trace finds that trace's trigger (its memo is per trace)."""
    sch = PlateauCosine(
        lr=0.02, trigger=0.015, window=500, min_steps=1000, decay_steps=800, floor=0.05
    )
    fast, slow = _plateau_trace(400.0), _plateau_trace(700.0)
    t_fast = _first_plateau(fast, 0.015, 500, 1000)
    t_slow = _first_plateau(slow, 0.015, 500, 1000)
    assert t_fast is not None and t_slow is not None and t_slow > t_fast > 1000
    assert sch.trigger_step(fast) == t_fast
    assert sch(t_fast, fast) == 0.02 and sch(t_fast - 100, fast) == 0.02
    assert sch(t_fast + 400, fast) == pytest.approx(0.02 * (1 + 0.05) / 2, rel=1e-12)
    assert sch(t_fast + 800, fast) == pytest.approx(0.02 * 0.05, rel=1e-12)
    assert sch(t_fast + 5000, fast) == pytest.approx(0.02 * 0.05, rel=1e-12)
    assert sch.trigger_step(slow) == t_slow  # the memo of the fast trace is not reused
    assert sch.trigger_step(fast[:10]) is None  # before min_steps: hold
    # growing a trace one record at a time (as in training) finds the same step
    grow: list[dict[str, float]] = []
    for r in fast:
        grow.append(r)
        sch(int(r["step"]), grow)
    assert sch.trigger_step(grow) == t_fast
    with pytest.raises(ValueError, match="floor"):
        PlateauCosine(lr=0.01, trigger=0.01, floor=2.0)
    with pytest.raises(ValueError, match="trigger"):
        PlateauCosine(lr=0.01, trigger=float("nan"))


def test_plateau_schedule_resumes_exactly(tmp_path: Path) -> None:
    """A run with a trace-reading schedule resumes from its checkpoint to the uninterrupted run's
    parameters (the trigger is recomputed from the checkpointed trace)."""
    cfg = TrainConfig(optimizer="adam", lr=0.01, steps=60, checkpoint_every=10, log_every=5)

    def go(ckpt: Path | None = None, crash_at: int | None = None):
        sch = PlateauCosine(lr=0.01, trigger=10.0, window=10, min_steps=20, decay_steps=20)
        inv = lambda m, s: {"inv": float(m.W_KQ.norm())}  # noqa: E731
        return _run(cfg, ckpt, crash_at, callback=inv, lr_at=sch)

    full = go()
    ckpt = tmp_path / "run.pt"
    with pytest.raises(KeyboardInterrupt):
        go(ckpt, crash_at=35)  # after the trigger (step 20); last checkpoint at step 30
    resumed = go(ckpt)
    for k in full.params:
        np.testing.assert_array_equal(resumed.params[k], full.params[k])
    np.testing.assert_array_equal(resumed.losses, full.losses)


def test_train_config_validation_and_overrides() -> None:
    with pytest.raises(ValueError, match="lr"):
        TrainConfig(lr=0.0)
    with pytest.raises(ValueError, match="optimizer"):
        TrainConfig(optimizer="lbfgs")
    cfg = parse_overrides(TrainConfig(), ["--steps=5", "--lr=1", "--betas=(0.5, 0.9)"])
    assert cfg.steps == 5 and cfg.lr == 1.0 and cfg.betas == (0.5, 0.9)
    with pytest.raises(ValueError, match="unknown field"):
        parse_overrides(TrainConfig(), ["--stepz=5"])
    with pytest.raises(ValueError, match="expected"):
        parse_overrides(TrainConfig(), ["--steps=fast"])


def test_cache_memory_disk_and_atomicity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ICL_VERIFY_CACHE", str(tmp_path))
    calls = []

    def compute() -> dict:
        calls.append(1)
        return {"x": np.arange(3)}

    a = cache.cached("unit", ("k", 1), compute)
    b = cache.cached("unit", ("k", 1), compute)
    assert a is b and len(calls) == 1
    files = list((tmp_path / "unit").glob("*.pkl"))
    assert len(files) == 1 and not list((tmp_path / "unit").glob("*.tmp"))
    cache.clear_memory()
    c = cache.cached("unit", ("k", 1), compute)  # from disk
    assert len(calls) == 1 and np.array_equal(c["x"], a["x"])
    cache.cached("unit", ("k", 2), compute)  # another key computes
    assert len(calls) == 2
    # a corrupt entry is recomputed, not crashed on
    cache.clear_memory()
    files[0].write_bytes(b"garbage")
    with pytest.warns(RuntimeWarning, match="unreadable"):
        cache.cached("unit", ("k", 1), compute)
    assert len(calls) == 3
    assert cache.unpack_entry(files[0].read_bytes())["x"].tolist() == [0, 1, 2]


def test_atomic_write_leaves_no_partial_file(tmp_path: Path) -> None:
    target = tmp_path / "out.bin"
    cache.atomic_write_bytes(target, b"old")

    with pytest.raises(TypeError):
        cache.atomic_write_bytes(target, None)  # type: ignore[arg-type]
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]
    assert os.path.getsize(target) == 3


def test_fingerprint_follows_the_import_closure_of_compute() -> None:
    """One paper's cached models are keyed by its own training code only, not other papers'."""
    names = {p.name for p in cache.module_closure("sims.zfb24.train")}
    assert {"settings.py", "lsa.py", "train.py", "data.py"} <= names
    assert "softmax_attention.py" not in names and "ltb.py" not in names
    hp = {p.name for p in cache.module_closure("sims.hpcy25.train")}
    assert "softmax_attention.py" in hp and "lsa.py" not in hp
    assert cache.module_fingerprint("sims.zfb24.train") != cache.module_fingerprint(
        "sims.hpcy25.train"
    )


def test_fingerprint_holds_the_entry_format_not_the_store() -> None:
    """The store (``sims/cache.py``: where and how entries are written) is not fingerprinted, so
    editing it retrains nothing; the entry format (``sims/cache_format.py``) is."""
    from pathlib import Path

    import sims.cache_format

    store, fmt = Path(cache.__file__).resolve(), Path(sims.cache_format.__file__).resolve()
    for m in ("sims.zfb24.train", "sims.hpcy25.train"):
        closure = cache.module_closure(m)
        assert store not in closure and fmt not in closure
        assert cache.module_fingerprint(m) == cache._hash_sources([*closure, fmt])
        assert cache.module_fingerprint(m) != cache._hash_sources([*closure, store])
    assert cache.pack_entry is sims.cache_format.pack_entry  # the public names stay


def test_cache_log_counts_computed_entries(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``ICL_VERIFY_CACHE_LOG``: one line per computed entry, none for a hit."""
    log = tmp_path / "log.txt"
    monkeypatch.setenv("ICL_VERIFY_CACHE", str(tmp_path / "c"))
    monkeypatch.setenv("ICL_VERIFY_CACHE_LOG", str(log))
    cache.clear_memory()
    assert cache.cached("ns_log", ("a", 1), lambda: 3) == 3
    assert cache.cached("ns_log", ("a", 1), lambda: 4) == 3  # a hit: not logged
    assert cache.cached("ns_log", ("b", 2), lambda: 5) == 5
    lines = log.read_text().splitlines()
    assert len(lines) == 2
    pid, ns, digest, secs, test = lines[0].split(maxsplit=4)
    assert "test_cache_log_counts_computed_entries" in test  # PYTEST_CURRENT_TEST
    assert int(pid) == os.getpid() and ns == "ns_log" and len(digest) == 24 and float(secs) >= 0


def test_cache_key_changes_when_compute_module_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The digest uses the fingerprint of compute's module (negative control: another module)."""
    a = cache._digest("ns", ("k",), "sims.zfb24.train")
    b = cache._digest("ns", ("k",), "sims.zfb24.train")
    c = cache._digest("ns", ("k",), "sims.hpcy25.train")
    d = cache._digest("ns", ("k",), None)  # defined outside sims: the global fingerprint
    assert a == b and len({a, c, d}) == 3


_CONTENDER = """
import sys, time
from pathlib import Path
from sims import cache

def compute():
    Path(sys.argv[1]).touch()  # tells the test this process is computing
    time.sleep(3.0)
    return 7

assert cache.cached("ns_lock", ("k",), compute, lock=sys.argv[2] == "1") == 7
"""


@pytest.mark.parametrize("lock", [True, False], ids=["locked", "control-unlocked"])
def test_two_processes_compute_an_entry_once(tmp_path: Path, lock: bool) -> None:
    """A process that misses an entry another process is computing waits and reads it (one
    computation in the log); negative control: ``lock=False``, both compute."""
    import subprocess
    import sys
    import time

    log, started = tmp_path / "log.txt", tmp_path / "started"
    env = {**os.environ, "ICL_VERIFY_CACHE": str(tmp_path / "c"), "ICL_VERIFY_CACHE_LOG": str(log)}
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).resolve().parents[2]), *sys.path])
    argv = [sys.executable, "-c", _CONTENDER, str(started), "1" if lock else "0"]
    first = subprocess.Popen(argv, env=env)
    deadline = time.monotonic() + 60
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert started.exists(), "the first process never started computing"
    second = subprocess.run(argv, env=env, timeout=120, check=False)
    assert first.wait(timeout=120) == 0 and second.returncode == 0
    computed = log.read_text().splitlines()
    assert len(computed) == (1 if lock else 2), computed


def test_a_nested_entry_takes_no_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process holding an entry's lock computes a nested entry without waiting for its lock
    (so two processes never wait on each other); the outer entry's lock file exists."""
    monkeypatch.setenv("ICL_VERIFY_CACHE", str(tmp_path))
    cache.clear_memory()
    inner = lambda: cache.cached("ns_inner", ("i",), lambda: 2)  # noqa: E731
    assert cache.cached("ns_outer", ("o",), lambda: inner() + 1) == 3
    assert len(list((tmp_path / "ns_outer").glob("*.lock"))) == 1
    assert not list((tmp_path / "ns_inner").glob("*.lock"))
    assert cache.cached("ns_inner", ("j",), lambda: 4) == 4  # not nested: locked
    assert len(list((tmp_path / "ns_inner").glob("*.lock"))) == 1
