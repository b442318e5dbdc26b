"""No silent wrong answer on bad input at the command line; safe loading; files that survive a kill.

* the CLI: an unknown id or slug exits 2 with ``difflib`` suggestions; a bad ``--set`` (wrong type,
  out of the domain of an assumption, unknown key) exits 2 with one line naming the key;
* checkpoints load with ``weights_only=True``; a truncated checkpoint or cache entry is detected,
  warned about and recomputed, never loaded;
* ``icl-verify report`` and training killed with SIGKILL mid-run and resumed give the files of an
  uninterrupted run, with no half-written file left behind.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
import torch

from sims import cache
from sims.cli import main as cli_main
from sims.config import TrainConfig
from sims.train import load_checkpoint, make_generator, train

ROOT = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------------------------------- CLI
@pytest.mark.parametrize(
    "argv",
    [
        ["check", "zfb24:thm44"],
        ["show", "zfb24:thm44"],
        ["report", "--only", "zfb24:thm44", "--no-figures"],
    ],
)
def test_unknown_id_exits_2_with_suggestions(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if argv[0] == "report":
        argv = [*argv, "--out", str(tmp_path)]
    assert cli_main(argv) == 2
    err = capsys.readouterr().err
    assert "zfb24:thm44" in err and "did you mean" in err and "zfb24:thm4" in err


@pytest.mark.parametrize(
    "option,needle",
    [
        ("N=abc", "N='abc': expected"),  # wrong type
        ("N=-3", "N"),  # out of the domain (prompt length >= 1)
        ("NN=3", "'NN'"),  # unknown key
        ("N", "key=value"),  # not key=value
    ],
)
def test_bad_set_exits_2_with_one_line_naming_the_key(
    option: str, needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["check", "zfb24:thm4", "--set", option]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and needle in err and "Traceback" not in err, err


def test_python_m_sims_unknown_slug_and_bad_override_exit_2() -> None:
    from sims.__main__ import main as sims_main

    assert sims_main(["lsaflow", "smoke"]) == 2
    assert sims_main(["zfb24", "smoke", "--steps=fast"]) == 2


# -------------------------------------------------------------------------- safe loading
def _tiny(seed: int = 0) -> tuple[torch.nn.Module, TrainConfig]:
    torch.manual_seed(seed)  # test-local: the model's initial weights
    model = torch.nn.Linear(3, 1, dtype=torch.float64)
    cfg = TrainConfig(steps=40, lr=0.05, log_every=5, checkpoint_every=10, seed=seed)
    return model, cfg


def _objective(model: torch.nn.Module, gen: torch.Generator, step: int) -> torch.Tensor:
    x = torch.randn(16, 3, generator=gen, dtype=torch.float64)
    y = x @ torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)
    return ((model(x)[:, 0] - y) ** 2).mean()


def test_checkpoint_is_weights_only_and_a_truncated_one_restarts(tmp_path: Path) -> None:
    ckpt = tmp_path / "run.pt"
    model, cfg = _tiny()
    ref = train(model, _objective, cfg, generator=make_generator(0))
    model, cfg = _tiny()
    train(model, _objective, cfg, generator=make_generator(0), checkpoint=ckpt)
    state = torch.load(ckpt, weights_only=True)  # plain tensors and containers only
    assert state["step"] == 40
    data = ckpt.read_bytes()
    ckpt.write_bytes(data[: len(data) // 2])  # truncated on purpose
    with pytest.warns(RuntimeWarning, match="unreadable"):
        assert load_checkpoint(ckpt) is None
    assert not ckpt.exists()
    ckpt.write_bytes(data[: len(data) // 3])
    model, cfg = _tiny()
    with pytest.warns(RuntimeWarning, match="restarts from step 0"):
        again = train(model, _objective, cfg, generator=make_generator(0), checkpoint=ckpt)
    for k in ref.params:  # restarted from scratch: the uninterrupted run, bit for bit
        np.testing.assert_array_equal(again.params[k], ref.params[k])


def test_truncated_cache_entry_is_recomputed_not_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ICL_VERIFY_CACHE", str(tmp_path))
    cache.clear_memory()
    calls: list[int] = []

    def compute() -> dict[str, float]:
        calls.append(1)
        return {"value": 1.5}

    assert cache.cached("reliability", ("k", 1), compute) == {"value": 1.5}
    (entry,) = list((tmp_path / "reliability").glob("*.pkl"))
    data = entry.read_bytes()
    for bad in (data[: len(data) - 3], data[:10], data[:-1] + bytes([data[-1] ^ 1])):
        entry.write_bytes(bad)
        cache.clear_memory()
        with pytest.warns(RuntimeWarning, match="unreadable"):
            assert cache.cached("reliability", ("k", 1), compute) == {"value": 1.5}
        assert cache.unpack_entry(entry.read_bytes()) == {"value": 1.5}  # rewritten whole
    assert len(calls) == 4
    cache.clear_memory()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cache.cached("reliability", ("k", 1), compute) == {"value": 1.5}
    assert len(calls) == 4  # an intact entry is loaded, not recomputed
    cache.clear_memory()


# ---------------------------------------------------------------------------- kill safety
def _env(cache_dir: Path) -> dict[str, str]:
    return {
        **os.environ,
        "ICL_VERIFY_CACHE": str(cache_dir),
        "MPLBACKEND": "Agg",
        "ICL_VERIFY_TORCH_THREADS": "1",
    }


def _no_temp_files(root: Path) -> None:
    left = [p for p in root.rglob("*") if p.name.endswith(".tmp")]
    assert not left, f"half-written files left behind: {left}"


@pytest.mark.slow
def test_report_killed_mid_run_then_resumed_equals_uninterrupted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The killed run is a real process (SIGKILL); the resumed and the uninterrupted runs are the
    same command in process (``sims.cli.main``), on the same cache."""
    ids = [
        "base:isserlis",
        "base:wishart",
        "base:sample-cov",
        "base:gd",
        "base:gd-beta",
        "base:dgd",
        "base:ols",
    ]
    cmd = [
        sys.executable,
        "-m",
        "sims.cli",
        "report",
        "--quick",
        "--no-figures",
        "--jobs",
        "1",
        "--only",
        *ids,
    ]
    env = _env(tmp_path / "cache")
    killed = tmp_path / "killed"
    proc = subprocess.Popen(
        [*cmd, "--out", str(killed)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    partial = killed / ".partial"
    while time.monotonic() < deadline and proc.poll() is None:
        if partial.is_dir() and len(list(partial.glob("*.json"))) >= 2:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the report finished before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done_before = len(list(partial.glob("*.json")))
    assert 2 <= done_before < len(ids) and not (killed / "results.json").exists()
    for part in partial.glob("*.json"):  # never half-written (a SIGKILL may leave a .tmp beside)
        json.loads(part.read_text())
    monkeypatch.setenv("ICL_VERIFY_CACHE", env["ICL_VERIFY_CACHE"])
    cache.clear_memory()
    assert cli_main([*cmd[3:], "--out", str(killed), "--resume"]) == 0
    clean = tmp_path / "clean"
    assert cli_main([*cmd[3:], "--out", str(clean)]) == 0
    assert json.loads((killed / "results.json").read_text()) == json.loads(
        (clean / "results.json").read_text()
    )
    _no_temp_files(killed)


_TRAIN_SCRIPT = textwrap.dedent("""
    import sys, time
    import numpy as np, torch
    from sims.config import TrainConfig
    from sims.train import make_generator, train

    def run(ckpt, out, slow):
        with torch.random.fork_rng():  # the initial weights, without reseeding the caller
            torch.manual_seed(0)
            model = torch.nn.Linear(3, 1, dtype=torch.float64)

        def objective(model, gen, step):
            time.sleep(slow)
            x = torch.randn(16, 3, generator=gen, dtype=torch.float64)
            y = x @ torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)
            return ((model(x)[:, 0] - y) ** 2).mean()

        cfg = TrainConfig(steps=300, lr=0.02, log_every=7, checkpoint_every=5, seed=0)
        res = train(model, objective, cfg, generator=make_generator(0),
                    checkpoint=None if ckpt == "-" else ckpt)
        np.savez(out, losses=res.losses, steps=res.steps, **res.params)

    if __name__ == "__main__":
        run(sys.argv[1], sys.argv[2], float(sys.argv[3]))
""")


@pytest.mark.slow
def test_training_killed_mid_run_then_resumed_equals_uninterrupted(tmp_path: Path) -> None:
    """The killed run is a real process (SIGKILL mid-run); the resumed and the uninterrupted runs
    call the same script's ``run`` in process (a process start is ~3 s of torch imports)."""
    import importlib.util

    script = tmp_path / "train_tiny.py"
    script.write_text(_TRAIN_SCRIPT)
    env = _env(tmp_path / "cache")
    ckpt = tmp_path / "ckpt.pt"
    proc = subprocess.Popen(
        [sys.executable, str(script), str(ckpt), str(tmp_path / "a.npz"), "0.01"], cwd=ROOT, env=env
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None and not ckpt.exists():
        time.sleep(0.02)
    time.sleep(0.3)
    assert proc.poll() is None, "training finished before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    step = torch.load(ckpt, weights_only=True)["step"]  # the checkpoint is whole
    assert 0 < step < 300
    spec = importlib.util.spec_from_file_location("train_tiny", script)
    assert spec is not None and spec.loader is not None
    tiny = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tiny)
    tiny.run(str(ckpt), str(tmp_path / "a.npz"), 0.0)  # resumed from the checkpoint
    tiny.run("-", str(tmp_path / "b.npz"), 0.0)  # uninterrupted, from step 0
    a, b = np.load(tmp_path / "a.npz"), np.load(tmp_path / "b.npz")
    assert sorted(a.files) == sorted(b.files)
    for k in a.files:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)
    _no_temp_files(tmp_path)
