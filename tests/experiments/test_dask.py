"""Dask execution: embedded cluster, a real scheduler with two workers, SIGKILL and resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.experiments.cli import sweep
from analyzer.experiments.store import BlockStore
from analyzer.experiments.sweep import run_sweep
from tests.experiments.conftest import REPO, assert_same_table, serial, write_spec

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}


def test_embedded_cluster_with_one_and_two_workers_equals_serial(d20_spec, tmp_path):
    reference = serial(d20_spec, tmp_path / "serial", chunk=1, until_ci=0.03)
    for workers, chunk in ((1, None), (2, 3)):
        outcome = run_sweep(
            d20_spec,
            tmp_path / f"w{workers}",
            workers=workers,
            chunk=chunk,
            until_ci=0.03,
            charts=False,
            progress=False,
        )
        assert outcome.run.executor.startswith(f"embedded Dask cluster ({workers} worker")
        assert_same_table(outcome.results, reference.results)
        assert_same_table(outcome.differences, reference.differences)


def _stop(processes: list[subprocess.Popen]) -> None:
    """Terminate the processes this test started (by their own ids), then kill stragglers."""
    for proc in processes:
        if proc.poll() is None:
            proc.terminate()
    deadline = time.monotonic() + 15
    for proc in processes:
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def test_real_scheduler_and_two_workers_on_loopback(d20_spec, tmp_path):
    from distributed import Client

    scheduler_file = tmp_path / "scheduler.json"
    logs = tmp_path / "logs"
    logs.mkdir()
    processes: list[subprocess.Popen] = []

    def start(name: str, *args: str) -> None:
        log = (logs / f"{name}.log").open("w")
        processes.append(
            subprocess.Popen(
                [sys.executable, "-m", "dask", *args],
                env=ENV,
                cwd=tmp_path,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )

    try:
        start(
            "scheduler",
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--scheduler-file",
            str(scheduler_file),
        )
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() and time.monotonic() < deadline:
            assert processes[0].poll() is None, (logs / "scheduler.log").read_text()
            time.sleep(0.2)
        for i in range(2):
            start(
                f"worker{i}",
                "worker",
                "--scheduler-file",
                str(scheduler_file),
                "--nthreads",
                "1",
                "--no-dashboard",
                "--host",
                "127.0.0.1",
                "--name",
                f"sweep-test-{i}",
                "--local-directory",
                str(tmp_path / f"worker{i}"),
            )
        with Client(scheduler_file=str(scheduler_file), timeout="30s") as client:
            client.wait_for_workers(2, timeout=90)
            address = client.scheduler.address
        assert address.startswith("tcp://127.0.0.1:")

        out = tmp_path / "cluster"
        result = CliRunner().invoke(
            sweep,
            [str(d20_spec), "--scheduler", address, "--out", str(out), "--until-ci", "0.03"],
            catch_exceptions=False,
        )
        assert result.exit_code == 0, result.output
        assert f"Dask scheduler {address} (2 workers)" in result.output
        cluster = pd.read_parquet(out / "results.parquet")
        with Client(address) as client:  # both workers took part
            assert len(client.scheduler_info()["workers"]) == 2
    finally:
        _stop(processes[1:])
        _stop(processes[:1])
    assert all(p.poll() is not None for p in processes)

    reference = serial(d20_spec, tmp_path / "serial", until_ci=0.03)
    embedded = run_sweep(
        d20_spec, tmp_path / "embedded", workers=2, until_ci=0.03, charts=False, progress=False
    )
    assert_same_table(cluster, reference.results)
    assert_same_table(cluster, embedded.results)


KILL_SPEC = """\
name: kill
system: d20
metric: {kind: duel, a: Telepath, b: Trooper}
grid:
  opponent: {kind: unit, role: b, values: [Trooper, Brute, Telekinesist, Chronos SU]}
trials: 65536
block_size: 128
seed: 5
exact: false
"""


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "analyzer.experiments", *args]


def test_sigkill_mid_run_then_resume_computes_no_block_twice(tmp_path):
    spec = write_spec(tmp_path, KILL_SPEC)
    out = tmp_path / "out"
    total = 4 * 512
    proc = subprocess.Popen(
        _cli(str(spec), "--workers", "0", "--chunk", "1", "--out", str(out), "--no-charts"),
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    manifest = out / "manifest.jsonl"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if manifest.exists() and manifest.read_bytes().count(b"\n") >= 150:
                break
            time.sleep(0.02)
        assert proc.poll() is None, "the sweep ended before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    before = {p.name: p.stat().st_mtime_ns for p in (out / "blocks").glob("*.parquet")}
    assert 150 <= len(before) < total

    resumed = subprocess.run(
        _cli(str(spec), "--workers", "2", "--out", str(out), "--no-charts"),
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert resumed.returncode == 0, resumed.stderr
    kept = len(before)
    assert f"blocks: {total - kept} computed, {kept} reused" in resumed.stdout
    assert "%|" not in resumed.stderr  # no progress bar when stderr is not a terminal
    after = {p.name: p.stat().st_mtime_ns for p in (out / "blocks").glob("*.parquet")}
    assert len(after) == total
    assert all(after[name] == mtime for name, mtime in before.items())  # none rewritten
    names = [e["block"] for e in BlockStore(out).manifest()]
    assert len(names) == len(set(names)) == total

    fresh = serial(spec, tmp_path / "fresh")
    assert_same_table(pd.read_parquet(out / "results.parquet"), fresh.results)


@pytest.mark.parametrize("flag", ["--progress", "--no-progress"])
def test_progress_bar_on_request(d20_spec, tmp_path, flag):
    result = CliRunner().invoke(
        sweep, [str(d20_spec), "--workers", "0", "--out", str(tmp_path), "--no-charts", flag]
    )
    assert result.exit_code == 0, result.output
    assert ("sweep d20-duel" in result.stderr) == (flag == "--progress")


def test_cli_writes_tables_and_charts(d20_spec, tmp_path):
    out: Path = tmp_path / "out"
    result = CliRunner().invoke(
        sweep, [str(d20_spec), "--workers", "0", "--out", str(out), "--format", "csv"]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].startswith("sweep,system,metric,cell,pd,opponent,quantity")
    for name in ("results.parquet", "results.csv", "differences.csv", "monotonicity.csv"):
        assert (out / name).stat().st_size > 0
    charts = sorted(p.name for p in (out / "charts").glob("*.png"))
    assert charts == ["heatmap_pd_opponent.png", "lines_pd.png"]


@pytest.mark.parametrize("workers", ["0", "2"])
def test_ctrl_c_stops_cleanly_and_the_rerun_finishes(tmp_path, workers):
    """Ctrl-C on a terminal signals the whole process group (sweep and Dask workers)."""
    spec = write_spec(tmp_path, KILL_SPEC)
    out = tmp_path / "out"
    proc = subprocess.Popen(
        _cli(str(spec), "--workers", workers, "--chunk", "1", "--out", str(out), "--no-charts"),
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal job
    )
    manifest = out / "manifest.jsonl"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if manifest.exists() and manifest.read_bytes().count(b"\n") >= 100:
                break
            time.sleep(0.02)
        assert proc.poll() is None, "the sweep ended before it could be interrupted"
        os.killpg(proc.pid, signal.SIGINT)  # the group this test created, like Ctrl-C
        stdout, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    assert proc.returncode == 130, (stdout[-400:], err[-400:])
    assert "interrupted:" in err and "run the same command again to resume" in err
    assert "Traceback" not in err
    saved = len(list((out / "blocks").glob("*.parquet")))
    runs = json.loads((out / "sweep.json").read_text())["runs"]
    assert runs[-1]["status"] == "interrupted" and runs[-1]["computed"] == saved
    resumed = serial(spec, out)
    assert resumed.run.computed == 4 * 512 - saved and resumed.run.reused == saved
