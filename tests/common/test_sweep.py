"""``icl-verify sweep``: the tidy table, validation before work, executors agree byte for byte,
resume after SIGKILL, the bound-vs-empirical plot.

Cheap ``base:*`` results and tiny grids only: the whole module runs in well under a minute.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sims.cli import main as cli_main
from sims.parallel import ExecutorSpec
from sims.sweep import SweepSpec, parse_grid, parse_seeds, plan, run_sweep

ROOT = Path(__file__).resolve().parents[2]
RID = "base:ols"  # checks: check_ols_mc (takes d, N) and check_ols_float (fixed: its own values)


GRID = ["N=6,8,12,16,20,24"]
SEEDS = (0, 1)
N_CELLS = 6 * 2 + 2  # check_ols_mc at every (N, seed), check_ols_float once per seed


def _spec(seeds: tuple[int, ...] = SEEDS, grid: list[str] | None = None) -> SweepSpec:
    return SweepSpec(target=RID, grid=parse_grid(RID, grid or GRID), seeds=seeds)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The serial, uninterrupted sweep every other executor and the resumed run must equal."""
    out = tmp_path_factory.mktemp("reference")
    run_sweep(_spec(), out, progress=False)
    return out


def test_parse_seeds_and_grid_types() -> None:
    assert parse_seeds("0-4") == (0, 1, 2, 3, 4)
    assert parse_seeds("3") == (3,)
    assert parse_seeds("1,5-6") == (1, 5, 6)
    for bad in ("4-2", "a", "1,1", "-1", ""):
        with pytest.raises(ValueError):
            parse_seeds(bad)
    assert parse_grid(RID, ["N=8,12", "d=2"]) == (("N", (8, 12)), ("d", (2,)))


@pytest.mark.parametrize(
    "grid,needle",
    [
        (["N=8,abc"], "expected an integer"),  # a value of the wrong type
        (["M=8"], "'M'"),  # an unknown key
        (["N="], "empty"),  # an empty grid
        (["N=8", "N=12"], "twice"),  # a key given twice
        (["N8"], "KEY=V1"),  # not KEY=values
        (["seed=1,2"], "--seeds"),  # seeds go through --seeds
    ],
)
def test_bad_grid_exits_2_before_any_work(
    grid: list[str], needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["sweep", RID, "--out", str(tmp_path / "out"), "--jobs", "1"]
    for g in grid:
        argv += ["--grid", g]
    assert cli_main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert not (tmp_path / "out").exists()  # nothing was started


def test_bad_seeds_plot_and_preset_exit_2(tmp_path: Path) -> None:
    out = str(tmp_path / "out")
    assert cli_main(["sweep", RID, "--grid", "N=8", "--seeds", "2-1", "--out", out]) == 2
    assert cli_main(["sweep", RID, "--grid", "N=8", "--plot", "d", "--out", out]) == 2
    assert cli_main(["sweep", "--preset", "zfb24:nope", "--grid", "lr=0.1", "--out", out]) == 2
    assert cli_main(["sweep", "--preset", "zfb24:smoke", "--grid", "lr=x", "--out", out]) == 2
    assert cli_main(["sweep", "--preset", "zfb24:smoke", "--grid", "lrr=1", "--out", out]) == 2
    assert not (tmp_path / "out").exists()


def test_plan_runs_a_fixed_check_once_per_seed_after_the_grid() -> None:
    cells, layout = plan(_spec())
    by_check = {c.check: 0 for c in cells}
    for c in cells:
        by_check[c.check] += 1
    assert by_check == {
        "numerics.baselines.ridge:check_ols_mc": 12,  # 6 N values x 2 seeds
        "numerics.baselines.ridge:check_ols_float": 2,
    }  # once per seed
    assert len(cells) == N_CELLS and len(layout) == 12 + 2  # the fixed check: one entry a seed
    assert [(point, seed) for point, seed, _ in layout[-2:]] == [((), 0), ((), 1)]
    assert all(c.check.endswith("check_ols_mc") for _, _, cs in layout[:-2] for c in cs)


def test_table_columns_rows_and_summary(reference: Path) -> None:
    doc = json.loads((reference / "sweep.json").read_text())
    assert doc["columns"] == [
        "result",
        "check",
        "row",
        "index",
        "kind",
        "N",
        "seed",
        "predicted",
        "observed",
        "tolerance",
        "se",
        "status",
        "distances",
        "fixed",
    ]
    rows = doc["rows"]
    assert all(r["distances"] is None for r in rows)  # no row of base:ols names alternatives
    # per grid point and seed: 1 MC row; the 4 FLOAT rows of the fixed check once per seed,
    # after the grid's, with N empty and the reason and setting they ran at
    assert len(rows) == 6 * 2 + 2 * 4
    own = [r for r in rows if r["fixed"]]
    assert rows[-8:] == own and {r["seed"] for r in own} == set(SEEDS)
    assert all(r["N"] is None and r["kind"] == "FLOAT" for r in own)
    assert all("not a setting: runs at d=3, N=12, sigma2=0.49" in r["fixed"] for r in own)
    assert all(r["fixed"] is None for r in rows[:-8])
    with (reference / "sweep.csv").open() as fh:
        table = list(csv.DictReader(fh))
    assert len(table) == len(rows) and list(table[0]) == doc["columns"]
    mc = [r for r in rows if r["kind"] == "MC"]
    assert {(r["N"], r["seed"]) for r in mc} == {(n, s) for n in (8, 12, 16, 20, 24) for s in SEEDS}
    assert all(r["se"] > 0 and r["status"] == "pass" for r in mc)
    # N = 6 = d + 3: the squared error has infinite variance, so the MC row is skipped (named)
    at6 = [r for r in rows if r["N"] == 6 and r["row"].startswith("OLS risk")]
    assert len(at6) == 2 and all(r["status"] == "skipped" for r in at6)
    pred = {r["N"]: r["predicted"] for r in mc}
    assert pred[8] == pytest.approx(0.49 * (1 + 3 / 4)) and pred[12] == pytest.approx(0.67375)
    assert [p["pass"] for p in doc["summary"]] == [0] + [2] * 5 + [8]
    assert [p["fixed"] for p in doc["summary"]] == [False] * 6 + [True]


def test_sweep_prints_the_checks_row_table_and_summary_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``sweep`` prints what ``check`` prints (the shared table of :mod:`sims.console`, with the
    grid keys and the seed as columns) and the same one-line summary, not counts per point."""
    argv = ["sweep", RID, "--grid", "N=6,9", "--out", str(tmp_path), "--jobs", "1"]
    assert cli_main(argv) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.split()[:3] == ["status", "kind", "row"])
    assert lines[head].split()[3:] == ["N", "seed", "error"]
    table = lines[head + 1 : head + 3]  # 2 points x 1 MC row, seed 0
    assert [line.split()[0] for line in table].count("skipped") == 1  # N = 6 = d + 3
    assert sum(line.split()[:2] == ["pass", "MC"] for line in table) == 1
    # the fixed check's 4 FLOAT rows: once, apart, titled with its own setting (as `check` does)
    own = next(i for i, line in enumerate(lines) if line.startswith("runs at the paper's setting"))
    assert own == head + 3 and "sigma2=0.49" in " ".join(lines[own : own + 2])
    fixed_head = next(
        i for i in range(own, len(lines)) if lines[i].split()[:3] == ["status", "kind", "row"]
    )
    assert lines[fixed_head].split()[3:] == ["seed", "error"]
    assert [line.split()[:2] for line in lines[fixed_head + 1 : fixed_head + 5]] == [
        ["pass", "FLOAT"]
    ] * 4
    assert sum("ols_risk(" in line for line in lines) == 4  # not repeated per grid point
    assert "PASS: 1 skipped (the OLS squared error has infinite variance" in out
    assert "5 pass" in out and ": 0 pass" not in out  # no per-point counts any more
    assert f"Table: {tmp_path / 'sweep.csv'}" in out


def test_seed_changes_the_table_negative_control(tmp_path: Path, reference: Path) -> None:
    grid = ["N=8"]
    run_sweep(_spec((0,), grid), tmp_path / "a", progress=False)
    run_sweep(_spec((5,), grid), tmp_path / "c", progress=False)
    a = json.loads((tmp_path / "a" / "sweep.json").read_text())
    ref = json.loads((reference / "sweep.json").read_text())
    same = [r for r in ref["rows"] if r["N"] in (8, None) and r["seed"] == 0]  # with the fixed
    assert a["rows"] == same  # the same cell gives the same rows
    c = json.loads((tmp_path / "c" / "sweep.json").read_text())
    obs_a = [r["observed"] for r in a["rows"] if r["kind"] == "MC"]
    assert obs_a != [r["observed"] for r in c["rows"] if r["kind"] == "MC"]


def test_processes_give_byte_identical_sweep_json(tmp_path: Path, reference: Path) -> None:
    run_sweep(
        _spec(),
        tmp_path / "jobs",
        progress=False,
        executor_spec=ExecutorSpec(kind="processes", workers=2),
    )
    assert (reference / "sweep.json").read_bytes() == (
        tmp_path / "jobs" / "sweep.json"
    ).read_bytes()
    assert (reference / "sweep.csv").read_bytes() == (tmp_path / "jobs" / "sweep.csv").read_bytes()


def test_dask_local_cluster_gives_byte_identical_sweep_json(
    tmp_path: Path, reference: Path
) -> None:
    pytest.importorskip("distributed")
    run_sweep(
        _spec(),
        tmp_path / "dask",
        progress=False,
        executor_spec=ExecutorSpec(kind="dask-local", workers=2),
    )
    assert (reference / "sweep.json").read_bytes() == (
        tmp_path / "dask" / "sweep.json"
    ).read_bytes()
    timing = json.loads((tmp_path / "dask" / "timings.json").read_text())
    assert "LocalCluster, 2 workers" in timing["executor"]


def test_plot_is_saved_next_to_the_table(tmp_path: Path) -> None:
    from matplotlib.figure import Figure

    from sims.figures.sweep import bound_vs_empirical, series
    from sims.sweep import read_table

    run_sweep(_spec((0,), ["N=8,12"]), tmp_path, progress=False, plot=["N"], loglog=True)
    assert (tmp_path / "sweep_N.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = read_table(tmp_path)
    fig = bound_vs_empirical(rows, x="N", loglog=True)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    legend = ax.get_legend()
    assert legend is not None
    labels = [t.get_text() for t in legend.get_texts()]
    assert len(labels) == 2 and all("slope" in t for t in labels)  # only the row varying in N
    s = series(rows, "N")[("numerics.baselines.ridge:check_ols_mc", 0)]
    assert list(s["x"]) == [8.0, 12.0] and (s["se"] > 0).all()
    with pytest.raises(ValueError):
        bound_vs_empirical(rows, x="N", row="no such row")


def _env(cache_dir: Path) -> dict[str, str]:
    return {
        **os.environ,
        "ICL_VERIFY_CACHE": str(cache_dir),
        "MPLBACKEND": "Agg",
        "ICL_VERIFY_TORCH_THREADS": "1",
    }


@pytest.mark.slow
def test_sweep_killed_then_resumed_equals_uninterrupted(tmp_path: Path, reference: Path) -> None:
    cmd = [
        sys.executable,
        "-m",
        "sims.cli",
        "sweep",
        RID,
        "--grid",
        GRID[0],
        "--seeds",
        ",".join(map(str, SEEDS)),
        "--jobs",
        "1",
    ]
    killed = tmp_path / "killed"
    proc = subprocess.Popen(
        [*cmd, "--out", str(killed)],
        cwd=ROOT,
        env=_env(tmp_path / "cache"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    cells = killed / ".cells"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if cells.is_dir() and len(list(cells.glob("*.json"))) >= 3:
            break
        time.sleep(0.01)
    assert proc.poll() is None, "the sweep finished before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done = len(list(cells.glob("*.json")))
    assert 3 <= done < N_CELLS and not (killed / "sweep.json").exists()
    for cell in cells.glob("*.json"):  # never half-written (a SIGKILL may leave a .tmp beside)
        json.loads(cell.read_text())
    run_sweep(_spec(), killed, progress=False, resume=True)
    assert not [p for p in killed.rglob("*.tmp")]
    resumed = json.loads((killed / "timings.json").read_text())
    assert resumed["cells_resumed"] == done and resumed["cells_run"] == N_CELLS - done
    assert (killed / "sweep.json").read_bytes() == (reference / "sweep.json").read_bytes()


def test_sweep_plot_artists_are_talk_ready() -> None:
    """Labels from the rows' own text (no check paths), INFO rows never drawn, a matrix row drawn
    as its relative distance to the prediction, integer ticks for an integer key, slopes only on
    log-log axes, the fixed setting under the title.  Artists, not pixels."""
    from matplotlib.ticker import MaxNLocator

    from sims.figures.sweep import bound_vs_empirical

    def row(N: int, name: str, kind: str, pred: object, obs: object, index: int) -> dict:
        return {
            "result": "zfb24:thm4",
            "check": "sims.zfb24.sec4_1_convergence:check_thm4_train_sgd",
            "row": name,
            "index": index,
            "kind": kind,
            "N": N,
            "seed": 0,
            "predicted": pred,
            "observed": obs,
            "tolerance": 0.05,
            "se": None,
            "status": "info" if kind == "INFO" else "pass",
        }

    rows = []
    for N in (4, 5, 6):
        g = [[1.0 / N, 0.0], [0.0, 2.0 / N]]
        rows.append(row(N, f"P = Γ⁻¹ at N={N}", "TRAIN", g, [[1.01 / N, 0.0], [0.0, 2.0 / N]], 0))
        rows.append(row(N, "balancedness under SGD: not conserved", "INFO", 0.0, -2.0, 1))
    fig = bound_vs_empirical(rows, x="N", setting="d=2, spectrum=0.5,2")
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["P = Γ⁻¹: relative distance to the prediction (observed ±2 se)"]
    assert not any("check_" in t or "sims." in t for t in labels)
    assert all("slope" not in t for t in labels)  # linear axes: no slope
    assert ax.get_xlabel() == "context length $N$" and "observed" in ax.get_ylabel()
    assert "d=2, spectrum=0.5,2" in ax.get_title()
    assert isinstance(ax.xaxis.get_major_locator(), MaxNLocator)
    ticks = [t for t in ax.get_xticks() if 4 <= t <= 6]
    assert ticks and all(float(t).is_integer() for t in ticks)


def test_sweep_plot_draws_a_matrix_row_against_each_named_alternative() -> None:
    """A trained matrix row naming alternatives: the relative distance of the observed value to
    the prediction and to each named alternative (the table's ``distances``, the check's own
    measure), one legend entry each, and the tolerance as a line; labels name the alternatives,
    not code.  Without ``distances`` no alternative is drawn (a plain matrix row)."""
    from sims.figures.sweep import bound_vs_empirical, series
    from sims.sweep import distances_of

    def row(N: int, units: dict[str, float], err: float) -> dict:
        ev = {
            "tolerance": 0.05,
            "error_in_tolerance_units": err,
            "details": {"alternatives": [{"name": k, "units": v} for k, v in units.items()]},
        }
        g = [[1.0 / N, 0.0], [0.0, 2.0 / N]]
        return {
            "result": "zfb24:thm4",
            "check": "sims.zfb24.sec4_1_convergence:check_thm4_train",
            "row": f"P = Γ⁻¹ at N={N}",
            "index": 0,
            "kind": "TRAIN",
            "N": N,
            "seed": 0,
            "predicted": g,
            "observed": [[1.01 / N, 0.0], [0.0, 2.0 / N]],
            "tolerance": 0.05,
            "se": None,
            "status": "pass",
            "distances": distances_of(ev),
        }

    rows = [row(N, {"Γ with N → N+1": 3.0 + N, "Λ⁻¹": 20.0}, 0.2) for N in (4, 6, 8)]
    s = series(rows, "N")[("sims.zfb24.sec4_1_convergence:check_thm4_train", 0)]
    assert list(s["observed"]) == pytest.approx([0.01] * 3)  # 0.2 units x 0.05, the row's own
    assert list(s["alternatives"]["Γ with N → N+1"]) == pytest.approx([0.35, 0.45, 0.55])
    assert list(s["alternatives"]["Λ⁻¹"]) == pytest.approx([1.0] * 3)
    ax = bound_vs_empirical(rows, x="N").axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "P = Γ⁻¹: relative distance to Γ with N → N+1" in labels
    assert "P = Γ⁻¹: relative distance to Λ⁻¹" in labels
    assert "P = Γ⁻¹: tolerance" in labels
    assert "P = Γ⁻¹: relative distance to the prediction (observed ±2 se)" in labels
    assert not any("check_" in t or "sims." in t for t in labels)
    assert "named alternative" in ax.get_ylabel()
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    assert list(lines["P = Γ⁻¹: relative distance to Λ⁻¹"].get_ydata()) == pytest.approx([1.0] * 3)
    assert set(lines["P = Γ⁻¹: tolerance"].get_ydata()) == {0.05}
    plain = bound_vs_empirical([{**r, "distances": None} for r in rows], x="N").axes[0]
    assert not [t for t in plain.get_legend().get_texts() if "Λ⁻¹" in t.get_text()]


def test_sweep_plot_states_the_whole_setting() -> None:
    """A plot's title states every key of the result's Setting: the swept key on the axis, the
    ``--set`` values, and the defaults neither named (base:ols reads d, N and σ²)."""
    from sims.sweep import defaults_held, shown

    spec = SweepSpec(target="base:ols", grid=(("N", (8, 10)),), fixed=(("d", 3),))
    assert defaults_held(spec) == (("sigma2", 0.49),)
    assert shown(0.49) == "0.49" and shown((0.5, 1.0, 2.0)) == "0.5,1,2"
    preset = SweepSpec(target="hpcy25:h2", grid=(("steps", (10,)),), preset=True)
    assert defaults_held(preset) == ()
