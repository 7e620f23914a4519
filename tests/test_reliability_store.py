"""Issue 21, sections 2 and 4: never a silently wrong table (block and pair-file checks), and
faults and concurrency (atomic writes, a full disk, the results-folder lock, temp files of
other processes, the recorded run state, a scheduler without workers or lost)."""

from __future__ import annotations

import errno
import json
import os
import subprocess
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from analyzer import outputs
from analyzer.analysis import compare as cmp
from analyzer.experiments.store import BlockStore, checksum, read_block
from tests.experiments.conftest import assert_same_table, d20_spec, serial
from tests.test_reliability_inputs import one_line_error
from tests.test_roll_contract import run_cli

__all__ = ["d20_spec"]  # the fixture, shared with the sweep tests

RAPTURE_LISTS = Path(__file__).resolve().parents[1] / "configs" / "rapture" / "lists"
TWO_LISTS = [RAPTURE_LISTS / "angels_vanguard.yaml", RAPTURE_LISTS / "icnun_raiders.yaml"]


def _blocks(out: Path) -> list[Path]:
    return sorted((out / "blocks").glob("*.parquet"))


def _parquet_bytes(counts: list[int]) -> bytes:
    sink = pa.BufferOutputStream()
    pq.write_table(pa.table({"count": pa.array(counts, type=pa.int64())}), sink)
    return sink.getvalue().to_pybytes()


def _dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


# ------------------------------------------------------------------ 2: blocks
def test_an_edited_block_is_caught_by_its_checksum_and_recomputed(d20_spec, tmp_path):
    out = tmp_path / "out"
    first = serial(d20_spec, out)
    victim = _blocks(out)[3]
    counts = read_block(victim.read_bytes()).tolist()
    counts[1] += 1000  # the 333 -> 1333, in a still valid Parquet file
    victim.write_bytes(_parquet_bytes(counts))
    again = serial(d20_spec, out)
    assert again.run.computed == 1 and again.run.reused == 63
    assert any("1 block file(s) failed their checksum" in n for n in again.run.notes)
    assert_same_table(first.results, again.results)


def test_random_bytes_ending_in_par1_are_discarded_like_a_torn_block(d20_spec, tmp_path):
    out = tmp_path / "out"
    first = serial(d20_spec, out)
    _blocks(out)[0].write_bytes(os.urandom(100) + b"PAR1")
    again = serial(d20_spec, out)
    assert again.run.computed == 1
    assert_same_table(first.results, again.results)


def test_impossible_counts_are_rejected_on_read():
    from analyzer.experiments.tasks import KERNEL_COLUMNS

    good = _parquet_bytes([10, 3, 4, 10, 2, 2])
    assert read_block(good, KERNEL_COLUMNS).tolist() == [10, 3, 4, 10, 2, 2]
    with pytest.raises(ValueError, match="more wins than duels"):
        read_block(_parquet_bytes([10, 8, 4, 10, 2, 2]), KERNEL_COLUMNS)
    with pytest.raises(ValueError, match="negative"):
        read_block(_parquet_bytes([10, -1, 4, 10, 2, 2]))
    with pytest.raises(ValueError, match="one per column"):
        read_block(_parquet_bytes([10, 3]), KERNEL_COLUMNS)
    assert read_block(good, KERNEL_COLUMNS, trials=20).tolist() == [10, 3, 4, 10, 2, 2]
    with pytest.raises(ValueError, match="21 duels in a block of 20"):
        read_block(_parquet_bytes([11, 3, 4, 10, 2, 2]), KERNEL_COLUMNS, trials=20)


def test_manifest_entries_carry_a_checksum_and_the_columns(d20_spec, tmp_path):
    out = tmp_path / "out"
    serial(d20_spec, out)
    with BlockStore(out) as store:
        entries = store.manifest()
    assert len(entries) == 64
    assert all(len(e["sha256"]) == 64 and e["columns"] for e in entries)
    assert {e["trials"] for e in entries} == {512}  # the spec's block_size


def test_a_block_whose_duels_miss_its_trials_is_recomputed(d20_spec, tmp_path):
    """Edited counts with the checksum rewritten to match still fail the trials check."""
    out = tmp_path / "out"
    first = serial(d20_spec, out)
    victim = _blocks(out)[0]
    counts = read_block(victim.read_bytes()).tolist()
    counts[0] += 1000
    edited = _parquet_bytes(counts)
    victim.write_bytes(edited)
    manifest = out / "manifest.jsonl"
    lines = [json.loads(line) for line in manifest.read_text(encoding="utf-8").splitlines()]
    for entry in lines:
        if entry["block"] == victim.stem:
            entry["sha256"] = checksum(edited)
    manifest.write_text("".join(json.dumps(e) + "\n" for e in lines), encoding="utf-8")
    again = serial(d20_spec, out)
    assert again.run.computed == 1
    assert_same_table(first.results, again.results)


# ------------------------------------------------------------------ 2: pair files
@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pairs")
    return folder, cmp.compare_lists("rapture", TWO_LISTS, 32, 5, out_dir=folder)


@pytest.mark.parametrize("damage", ["truncate", "edit", "old_format"])
def test_a_damaged_pair_file_is_recomputed_with_a_warning(compared, damage, capsys):
    folder, result = compared
    (pair_file,) = (folder / "pairs").glob("*.json")
    stored = json.loads(pair_file.read_text(encoding="utf-8"))
    if damage == "truncate":
        pair_file.write_text(pair_file.read_text(encoding="utf-8")[:25], encoding="utf-8")
    elif damage == "edit":
        edited = {
            **stored,
            "result": {**stored["result"], "a_wins": stored["result"]["a_wins"] + 5},
        }
        pair_file.write_text(json.dumps(edited), encoding="utf-8")
    else:
        pair_file.write_text(json.dumps(stored["result"]), encoding="utf-8")
    capsys.readouterr()
    again = cmp.compare_lists("rapture", TWO_LISTS, 32, 5, out_dir=folder)
    assert "recomputing this pairing" in capsys.readouterr().err
    assert again.to_dict() == result.to_dict()
    assert json.loads(pair_file.read_text(encoding="utf-8")) == stored  # rewritten whole
    assert not list((folder / "pairs").glob(".*.tmp"))


# ------------------------------------------------------------------ 4: atomic writes
def test_a_failed_write_keeps_the_old_file_and_leaves_no_temp_file(tmp_path):
    path = tmp_path / "value.csv"
    path.write_text("old\n", encoding="utf-8")

    def disk_full(tmp: Path) -> None:
        tmp.write_text("half a ta", encoding="utf-8")
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(outputs.OutputError, match=f"cannot write {path}: No space left"):
        outputs.atomic_write(path, disk_full)
    assert path.read_text(encoding="utf-8") == "old\n"
    assert list(tmp_path.iterdir()) == [path]


def test_a_full_disk_during_a_sweep_is_one_line(d20_spec, tmp_path, monkeypatch, capsys):
    out = tmp_path / "out"

    def full(src: object, dst: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(outputs.os, "replace", full)
    code, _, err = run_cli(["sweep", str(d20_spec), "--workers", "0", "--out", str(out)], capsys)
    one_line_error(code, err, "No space left on device")
    assert not list(out.rglob("*.tmp"))


# ------------------------------------------------------------------ 4: lock and temp files
def test_a_second_run_on_the_same_folder_refuses_in_one_line(d20_spec, tmp_path, capsys):
    out = tmp_path / "out"
    holder = BlockStore(out)
    try:
        code, _, err = run_cli(
            ["sweep", str(d20_spec), "--workers", "0", "--out", str(out)], capsys
        )
        one_line_error(code, err, f"{out} is in use by another run (pid {os.getpid()})")
    finally:
        holder.close()
    code, _, err = run_cli(["sweep", str(d20_spec), "--workers", "0", "--out", str(out)], capsys)
    assert code == 0, err
    with BlockStore(out) as store:
        names = [e["block"] for e in store.manifest()]
    assert len(names) == len(set(names)) == 64


def test_a_second_compare_on_the_same_folder_refuses_in_one_line(tmp_path, capsys):
    out = tmp_path / "cmp"
    out.mkdir()
    holder = outputs.lock_folder(out)
    command = ["compare", "rapture", "--lists", *map(str, TWO_LISTS), "--matches", "4",
               "--out", str(out)]  # fmt: skip
    try:
        code, _, err = run_cli(command, capsys)
        one_line_error(code, err, f"{out} is in use by another run (pid {os.getpid()})")
        assert not (out / "pairs").exists() or not list((out / "pairs").iterdir())
    finally:
        holder.close()
    code, _, err = run_cli(command, capsys)
    assert code == 0, err
    assert len(list((out / "pairs").glob("*.json"))) == 1


def test_only_temp_files_of_dead_processes_are_removed(tmp_path):
    blocks = tmp_path / "out" / "blocks"
    blocks.mkdir(parents=True)
    live = blocks / f".x.parquet.{os.getppid()}.tmp"
    dead = blocks / f".y.parquet.{_dead_pid()}.tmp"
    for path in (live, dead):
        path.write_bytes(b"mid-write")
    BlockStore(tmp_path / "out").close()
    assert live.exists() and not dead.exists()


def test_a_run_whose_process_is_gone_is_recorded_as_interrupted(d20_spec, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "sweep.json").write_text(
        json.dumps({"runs": [{"run": "killed", "status": "running", "pid": _dead_pid()}]}),
        encoding="utf-8",
    )
    serial(d20_spec, out)
    runs = json.loads((out / "sweep.json").read_text(encoding="utf-8"))["runs"]
    assert [r["status"] for r in runs] == ["interrupted", "finished"]


# ------------------------------------------------------------------ 4: scheduler
@pytest.fixture
def empty_scheduler():
    from distributed import LocalCluster

    cluster = LocalCluster(n_workers=0, processes=False, protocol="tcp", dashboard_address=None)
    yield cluster
    cluster.close()


def test_a_scheduler_without_workers_says_so_and_times_out(
    d20_spec, tmp_path, empty_scheduler, capsys
):
    address = empty_scheduler.scheduler_address
    code, _, err = run_cli(
        ["sweep", str(d20_spec), "--scheduler", address, "--worker-timeout", "1",
         "--out", str(tmp_path / "out")],
        capsys,
    )  # fmt: skip
    assert code == 2 and "Traceback" not in err
    first, last = err.strip().splitlines()
    assert first.startswith(f"waiting for a Dask worker to join the scheduler at {address}")
    assert last.startswith("error: no Dask worker joined the scheduler")
    assert not (tmp_path / "out").exists()  # no results folder left for a run that never ran


def test_an_unreachable_scheduler_leaves_no_results_folder(d20_spec, tmp_path, capsys):
    out = tmp_path / "out"
    code, _, err = run_cli(
        ["sweep", str(d20_spec), "--scheduler", "tcp://127.0.0.1:9", "--out", str(out)], capsys
    )
    one_line_error(code, err, "cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    assert not out.exists()


def test_a_lost_scheduler_is_one_error_with_the_resume_hint(monkeypatch):
    import time

    from distributed import LocalCluster

    from analyzer.experiments import executor as ex

    cluster = LocalCluster(n_workers=1, processes=False, protocol="tcp", dashboard_address=None)
    dask = ex.DaskExecutor(scheduler=cluster.scheduler_address, worker_timeout=5)
    monkeypatch.setattr(ex, "run_chunk", lambda *args: time.sleep(20))
    dask.submit(ex.Job("0" * 16, None, 1, 0, 1))
    cluster.close()
    with pytest.raises(ex.SchedulerLost, match="run the same command again"):
        dask.next_completed()
    dask.close()  # nothing left to stop: no error


def test_a_second_ctrl_c_during_shutdown_still_records_interrupted(d20_spec, tmp_path, monkeypatch):
    from analyzer.experiments import runner
    from analyzer.experiments.executor import SerialExecutor
    from analyzer.experiments.sweep import run_sweep

    class CtrlCTwice(SerialExecutor):
        def next_completed(self, stop=None):
            raise KeyboardInterrupt  # the first Ctrl-C

        def close(self):
            raise KeyboardInterrupt  # the second, while the executor shuts down

    monkeypatch.setattr(runner, "make_executor", lambda *args: CtrlCTwice())
    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt):
        run_sweep(d20_spec, out, charts=False, progress=False)
    runs = json.loads((out / "sweep.json").read_text(encoding="utf-8"))["runs"]
    assert runs[-1]["status"] == "interrupted"
    BlockStore(out).close()  # the folder's lock was released
