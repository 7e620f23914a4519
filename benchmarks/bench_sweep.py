"""Sweep benchmark: throughput with 1 vs 2 local Dask workers, and the overhead per block.

Measured in one process and one run (ratios, not absolute times, are the point
on a noisy shared machine):

* **Throughput**: a heroscape duel sweep (8 duels x 16 blocks of 65,536 duels)
  on an embedded ``LocalCluster`` with 1 and with 2 single-threaded worker
  processes, clusters started and kernels warmed up beforehand, each timed
  ``--repeat`` times into fresh result folders (best time kept, runs of the two
  sizes interleaved).  The ratio ``T(1 worker) / T(2 workers)`` is the speed-up
  (aim: >= 1.8 on 2 cores).
  Dask's task stream and the workers' CPU clocks tell apart the executor
  (fraction of the wall time both workers spend computing) from the machine
  (CPU actually granted by the OS when other processes compete for the cores).
* **Overhead per block**: a d20 sweep of 2,000 blocks of 2 duels each (so the
  duels themselves cost nothing): wall time per block in serial mode, on the
  2-worker cluster with the automatic chunk size, and with one Dask task per
  block (``--chunk 1``, the worst case); plus the store's own cost (one Parquet
  file, ``os.replace`` and a manifest line) per block.

A plain-Python burn in 1 vs 2 processes measures what the machine allows at
the time (another session's load takes cores away); the sweep's speed-up is
also reported relative to it.  Correctness is checked before timing: the
1-worker, 2-worker and serial tables must be identical.
Run: ``python benchmarks/bench_sweep.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.experiments.executor import DaskExecutor, SerialExecutor
from analyzer.experiments.store import BlockStore
from analyzer.experiments.sweep import run_sweep

THROUGHPUT = """\
name: bench-throughput
system: heroscape
metric: {kind: duel, a: Agent SI-4X, b: Scarlett}
grid:
  defense: {kind: stat, unit: Agent SI-4X, field: defense, values: [4, 5]}
  opponent:
    kind: unit
    role: b
    values: [Scarlett, "Cainak, Private Eye", Bok-Bur-Na, Destro]
trials: 1048576
block_size: 65536
exact: false
"""

OVERHEAD = """\
name: bench-overhead
system: d20
metric: {kind: duel, a: Telepath, b: Trooper}
grid:
  opponent: {kind: unit, role: b, values: [Trooper, Brute, Telekinesist, Chronos SU]}
trials: 1000
block_size: 2
exact: false
"""


def _spec(folder: Path, name: str, text: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def _timed(spec: Path, out: Path, executor, chunk: int | None = None) -> tuple[float, pd.DataFrame]:
    shutil.rmtree(out, ignore_errors=True)
    outcome = run_sweep(spec, out, executor=executor, chunk=chunk, charts=False, progress=False)
    assert outcome.run.reused == 0
    return outcome.run.elapsed, outcome.results


def _burn(n: int) -> int:
    x = 0
    for i in range(n):
        x += i
    return x


def machine_speedup(work: int = 20_000_000) -> float:
    """What this machine allows right now: 2 units of pure-Python work, 1 vs 2 processes."""
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.map(_burn, [1000, 1000])  # started
        start = time.perf_counter()
        pool.map(_burn, [work], chunksize=1)
        pool.map(_burn, [work], chunksize=1)
        one = time.perf_counter() - start
        start = time.perf_counter()
        pool.map(_burn, [work, work], chunksize=1)
        two = time.perf_counter() - start
    return one / two


def _cpu_seconds() -> float:
    import psutil

    times = psutil.Process().cpu_times()
    return float(times.user + times.system)


def _profiled(spec: Path, out: Path, executor: DaskExecutor) -> dict[str, float]:
    """One timed run with the workers' CPU seconds and Dask's record of compute intervals."""
    from distributed import get_task_stream

    client = executor.client
    before = client.run(_cpu_seconds)
    with get_task_stream(client=client) as stream:
        seconds, _ = _timed(spec, out, executor, chunk=2)
    after = client.run(_cpu_seconds)
    computing = sum(
        s["stop"] - s["start"]
        for task in stream.data
        for s in task["startstops"]
        if s["action"] == "compute"
    )
    cpu = sum(after[w] - before[w] for w in after)
    return {"wall": seconds, "busy": computing / (executor.workers * seconds), "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-sweep-"))
    try:
        throughput = _spec(work, "throughput", THROUGHPUT)
        overhead = _spec(work, "overhead", OVERHEAD)
        warm = _spec(work, "warm", THROUGHPUT.replace("trials: 1048576", "trials: 131072"))
        clusters = {n: DaskExecutor(workers=n) for n in (1, 2)}
        try:
            for executor in clusters.values():  # kernels loaded in every worker
                _timed(warm, work / "warm", executor)
            _timed(overhead, work / "warm", clusters[2])
            times: dict[int, list[float]] = {1: [], 2: []}
            tables: dict[int, pd.DataFrame] = {}
            for _ in range(args.repeat):
                for n, executor in clusters.items():
                    seconds, table = _timed(throughput, work / f"t{n}", executor, chunk=2)
                    times[n].append(seconds)
                    tables[n] = table
            pd.testing.assert_frame_equal(tables[1], tables[2], check_exact=True)
            _, serial_table = _timed(throughput, work / "serial", SerialExecutor(), chunk=2)
            pd.testing.assert_frame_equal(tables[1], serial_table, check_exact=True)

            blocks_t = int(tables[1]["blocks"].iloc[0]) * 8
            duels = blocks_t * 65536
            best = {n: min(t) for n, t in times.items()}
            print(f"throughput sweep: {blocks_t} blocks, {duels:,} duels (tables identical)")
            for n in (1, 2):
                print(
                    f"  {n} worker{'s' if n > 1 else ' '}: best {best[n]:6.2f} s "
                    f"({duels / best[n] / 1e6:5.2f} M duels/s; runs "
                    + ", ".join(f"{t:.2f}" for t in times[n])
                    + ")"
                )
            print(f"  speed-up 1 -> 2 workers: {best[1] / best[2]:.2f}x (aim >= 1.8x)")
            machine = max(machine_speedup() for _ in range(2))
            print(
                f"  the machine itself now: {machine:.2f}x for 2 processes of plain Python "
                f"(other load); sweep / machine = {best[1] / best[2] / machine:.0%}"
            )
            profile = {n: _profiled(throughput, work / f"p{n}", clusters[n]) for n in (1, 2)}
            for n in (1, 2):
                p = profile[n]
                print(
                    f"  {n} worker{'s' if n > 1 else ' '}: workers computing "
                    f"{p['busy']:.0%} of the wall time; "
                    f"CPU granted {p['cpu'] / p['wall']:.2f} cores; "
                    f"{p['cpu'] / duels * 1e6:.2f} CPU-us per duel"
                )
            idle = 2 * profile[2]["busy"] / profile[1]["busy"]
            print(f"  projected speed-up on an idle machine (2 x busy fraction ratio): {idle:.2f}x")

            n_blocks = 4 * 500
            rows = []
            seconds, _ = _timed(overhead, work / "o-serial", SerialExecutor(), chunk=1)
            rows.append(("serial (this process)", seconds))
            seconds, _ = _timed(overhead, work / "o-auto", clusters[2])
            rows.append(("2 Dask workers, automatic chunks", seconds))
            seconds, _ = _timed(overhead, work / "o-one", clusters[2], chunk=1)
            rows.append(("2 Dask workers, 1 block per task", seconds))
        finally:
            for executor in clusters.values():
                executor.close()

        store = BlockStore(work / "store")
        start = time.perf_counter()
        for i in range(500):
            store.write(f"b{i}", np.arange(6), {"index": i}, tuple(f"c{k}" for k in range(6)))
        store_ms = (time.perf_counter() - start) / 500 * 1e3
        store.close()
        print(f"overhead per block ({n_blocks} blocks of 2 duels):")
        for label, seconds in rows:
            print(f"  {label:34s} {seconds / n_blocks * 1e3:6.2f} ms/block ({seconds:.2f} s)")
        print(f"  store alone (Parquet + os.replace + manifest) {store_ms:6.2f} ms/block")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
