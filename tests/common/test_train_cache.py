"""The training loop is reproducible from its generator, resumes exactly, and the cache is atomic."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import numpy as np
import pytest
import torch

from sims import cache
from sims.config import TrainConfig, parse_overrides
from sims.data import embed, sample_prompts
from sims.models.lsa import LSA
from sims.train import make_generator, minibatch_objective, train
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


def _run(cfg: TrainConfig, ckpt: Path | None = None, crash_at: int | None = None):
    gen = make_generator(cfg.seed)
    objective = _objective(SETTING)

    def maybe_crash(model, g, step):
        if step == crash_at:
            raise KeyboardInterrupt("simulated interruption")
        return objective(model, g, step)

    return train(_model(gen), maybe_crash, cfg, generator=gen, checkpoint=ckpt)


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
    names = {p.name for p in cache.module_closure("sims.experiments.lsa_flow")}
    assert {"lsa_flow.py", "lsa.py", "train.py", "data.py"} <= names
    assert "softmax_attention.py" not in names and "ltb.py" not in names
    hp = {p.name for p in cache.module_closure("sims.experiments.softmax_multihead")}
    assert "softmax_attention.py" in hp and "lsa.py" not in hp
    assert cache.module_fingerprint("sims.experiments.lsa_flow") != cache.module_fingerprint(
        "sims.experiments.softmax_multihead"
    )


def test_cache_key_changes_when_compute_module_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The digest uses the fingerprint of compute's module (negative control: another module)."""
    a = cache._digest("ns", ("k",), "sims.experiments.lsa_flow")
    b = cache._digest("ns", ("k",), "sims.experiments.lsa_flow")
    c = cache._digest("ns", ("k",), "sims.experiments.softmax_multihead")
    d = cache._digest("ns", ("k",), None)  # defined outside sims: the global fingerprint
    assert a == b and len({a, c, d}) == 3


def test_torch_psd_sqrt_uses_the_backend_rank_cut() -> None:
    from sims import data
    from theory.common import backend

    assert data.RANK_RTOL == backend.RANK_RTOL
