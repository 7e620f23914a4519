"""Run a sweep: schedule the missing blocks, store each finished one, adapt, resume.

Each cell needs blocks ``0 .. target - 1`` of each of its tasks (``target`` =
the sweep's trials in blocks).  Blocks already in the results folder are
reused; the others are submitted in chunks of consecutive blocks to the
executor and stored one file per block as they finish.  With a precision
target (``--until-ci W``) a cell whose blocks are all there is evaluated: if
the 95% CI half-width of its headline quantity is above ``W`` (and the cap
allows), its target grows and the new blocks are submitted.  The decision
depends only on the cell's own blocks ``0 .. target - 1``, which are the same
whoever computed them, so the number of trials per cell (and the final table)
is the same for any executor, chunking or interruption.
"""

from __future__ import annotations

import math
import os
import platform
import shutil
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.experiments.executor import (
    WORKER_TIMEOUT,
    DaskExecutor,
    Job,
    SerialExecutor,
    make_executor,
)
from analyzer.experiments.spec import SweepPlan
from analyzer.experiments.store import SWEEP, BlockStore, atomic_write_json
from analyzer.experiments.tasks import block_id, task_id
from analyzer.outputs import OutputError
from analyzer.provenance import versions
from analyzer.stats import Z95

#: Largest growth of a cell's blocks in one adaptive step.
MAX_GROWTH = 4
#: Default number of chunks per worker when the chunk size is automatic.
CHUNKS_PER_WORKER = 8
MAX_AUTO_CHUNK = 32


class SweepInterrupted(AnalyzerError):
    """Ctrl-C or SIGTERM during a run; the finished blocks are kept."""


class StopRequest:
    """Ctrl-C / SIGTERM during a run: finish the block being stored, then stop.

    The handlers only set a flag that the scheduling loop checks between jobs,
    so a signal can neither cut a block's bookkeeping in half nor be lost in
    a C extension that swallows a KeyboardInterrupt raised inside it.  A second
    signal raises KeyboardInterrupt at once.  Only installed in the main thread.
    """

    def __init__(self) -> None:
        self.requested = False
        self._previous: dict[int, Any] = {}

    def __call__(self) -> bool:
        return self.requested

    def _handle(self, signum: int, frame: Any) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    def __enter__(self) -> StopRequest:
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._previous[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        self._previous.clear()


@dataclass
class SweepRun:
    """A finished run: blocks per cell and access to their counts."""

    plan: SweepPlan
    store: BlockStore
    task_hashes: list[list[str]]
    targets: list[int]
    target_met: list[bool | None]
    computed: int = 0
    reused: int = 0
    elapsed: float = 0.0
    executor: str = ""
    run_id: str = ""
    notes: list[str] = field(default_factory=list)

    def counts(self, cell: int) -> list[np.ndarray]:
        """Per task of ``cell``: its block counts (``blocks x width``), block 0 first."""
        seed = self.plan.seed
        return [
            np.stack([self.store.read(block_id(th, seed, b)) for b in range(self.targets[cell])])
            for th in self.task_hashes[cell]
        ]


def next_target(current: int, half_width: float, goal: float, cap: int) -> int:
    """Blocks to reach ``goal`` from ``current`` blocks at ``half_width`` (SE ~ 1/sqrt(n))."""
    if not math.isfinite(half_width):
        return min(cap, current * 2)
    needed = current * (half_width / goal) ** 2 * 1.05  # may overflow to inf: capped below
    grown = MAX_GROWTH * current if needed > MAX_GROWTH * current else math.ceil(needed)
    return min(cap, max(current + 1, grown))


def auto_chunk(missing: int, workers: int) -> int:
    """Consecutive blocks per job: a few jobs per worker, at most :data:`MAX_AUTO_CHUNK`."""
    return max(1, min(MAX_AUTO_CHUNK, math.ceil(missing / (CHUNKS_PER_WORKER * max(workers, 1)))))


class BlockProgress:
    """Blocks computed, as a bar (terminal) or status lines (else); see :mod:`analyzer.progress`.

    ``enabled``: None picks by the terminal, True forces the bar, False is silent.  A
    precision target (``until_ci``) asks for more blocks while planned ones are still
    running: those are queued for a next round ("more blocks for the CI target, round
    2") so that the bar's percentage never falls back.  One instance can span several
    :func:`execute` calls (``fair-cost`` passes its own, relabelled per cost).
    """

    def __init__(self, enabled: bool | None, label: str) -> None:
        from analyzer.progress import progress_bar

        self.label = label
        self.round = 1
        self.queued = 0  # blocks asked for after the current round's total was set
        self.relabelled = False  # described anew: the next blocks are a new piece of work
        self.bar = progress_bar(0, "block", label, force=enabled) if enabled is not False else None

    def describe(self, label: str) -> None:
        """A new label: the next blocks are a new piece of work (e.g. another cost)."""
        self.label, self.relabelled, self.round = label, True, 1
        if self.bar is not None:
            self.bar.set_description(label, refresh=False)

    def grow(self, n: int) -> None:
        if not n or self.bar is None:
            return
        if self.relabelled:
            self.bar.reset(total=n)
            self.relabelled = False
        elif not self.bar.total:
            self.bar.total = n
        else:
            self.queued += n
        self.bar.refresh()

    def update(self, n: int) -> None:
        if self.bar is None:
            return
        self.bar.update(n)
        while self.queued and self.bar.n >= self.bar.total:
            overflow = self.bar.n - self.bar.total
            self.round += 1
            self.bar.reset(total=self.queued)
            self.queued = 0
            self.bar.set_description(
                f"{self.label} (more blocks for the CI target, round {self.round})"
            )
            self.bar.update(overflow)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def execute(
    plan: SweepPlan,
    out_dir: str | Path,
    workers: int | None = None,
    scheduler: str | None = None,
    chunk: int | None = None,
    progress: bool | BlockProgress | None = None,
    executor: SerialExecutor | DaskExecutor | None = None,
    worker_timeout: float = WORKER_TIMEOUT,
) -> SweepRun:
    """Compute every missing block of ``plan`` into ``out_dir``; the run's blocks and stats.

    ``progress``: None shows a bar on a terminal and status lines otherwise, True
    forces the bar, False is silent; a :class:`BlockProgress` is used (and left open).
    ``executor`` overrides ``workers``/``scheduler`` (an executor passed in is not closed).
    """
    if chunk is not None and chunk < 1:
        raise AnalyzerError(f"--chunk must be >= 1 (got {chunk})")
    fresh = not Path(out_dir).exists()  # removed again if no executor ever started
    store = BlockStore(out_dir)
    run_id = f"{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}"
    seed = plan.seed
    tasks: dict[str, Any] = {}
    cell_tasks: list[list[str]] = []
    for cell in plan.cells:
        hashes = []
        for task in cell.plan.tasks:
            th = task_id(task, plan.code_hash)
            tasks.setdefault(th, task)
            hashes.append(th)
        cell_tasks.append(hashes)
    cells_of: dict[str, list[int]] = {th: [] for th in tasks}
    for i, hashes in enumerate(cell_tasks):
        for th in dict.fromkeys(hashes):
            cells_of[th].append(i)

    n_cells = len(plan.cells)
    targets = [plan.initial_blocks] * n_cells
    met: list[bool | None] = [None] * n_cells
    done = [False] * n_cells
    prefix = dict.fromkeys(tasks, 0)
    requested = dict.fromkeys(tasks, 0)
    computed_now: set[tuple[str, int]] = set()
    used: set[tuple[str, int]] = set()
    header = _header(plan, tasks, store, run_id)
    own = executor is None
    started = time.perf_counter()
    if isinstance(progress, BlockProgress):
        bar, own_bar = progress, False
    else:
        bar, own_bar = BlockProgress(progress, f"sweep {plan.name}"), True
    status = "failed"
    run = SweepRun(plan, store, cell_tasks, targets, met, run_id=run_id)
    stop = StopRequest()
    try:
        stop.__enter__()
        if executor is None:
            executor = make_executor(workers, scheduler, worker_timeout)
        ex = executor
        header["runs"][-1]["executor"] = ex.description
        atomic_write_json(store.root / SWEEP, header)

        def available(th: str, b: int) -> bool:
            return (th, b) in computed_now or store.has(block_id(th, seed, b))

        def advance(th: str) -> None:
            b = prefix[th]
            while b < requested[th] and available(th, b):
                b += 1
            prefix[th] = b

        pending_jobs: list[Job] = []
        size = [chunk or 0]

        def request(th: str, upto: int) -> None:
            if requested[th] >= upto:
                return
            missing = [b for b in range(requested[th], upto) if not available(th, b)]
            requested[th] = upto
            advance(th)
            for first, n in _runs(missing, size[0] or MAX_AUTO_CHUNK):
                pending_jobs.append(Job(th, tasks[th], seed, first, n))

        def flush() -> None:
            bar.grow(sum(j.n for j in pending_jobs))
            for job in pending_jobs:
                ex.submit(job)
            pending_jobs.clear()

        def ready(i: int) -> bool:
            return all(prefix[th] >= targets[i] for th in cell_tasks[i])

        def evaluate(i: int) -> None:
            while ready(i):
                if plan.until_ci is None:
                    done[i] = True
                    return
                estimate = _headline(plan, run, i)
                half = Z95 * estimate.se
                if half <= plan.until_ci or targets[i] >= plan.cap_blocks:
                    met[i] = bool(half <= plan.until_ci)
                    done[i] = True
                    return
                targets[i] = next_target(targets[i], half, plan.until_ci, plan.cap_blocks)
                for th in cell_tasks[i]:
                    request(th, targets[i])

        if not chunk:
            need = {th: max(targets[i] for i in cells_of[th]) for th in tasks}
            missing = sum(1 for th, n in need.items() for b in range(n) if not available(th, b))
            size[0] = auto_chunk(missing, ex.workers)
        for i in range(n_cells):
            for th in cell_tasks[i]:
                request(th, targets[i])
        for i in range(n_cells):
            evaluate(i)
        flush()
        while ex.pending():
            job, counts = ex.next_completed(stop)
            for k in range(job.n):
                b = job.first + k
                store.write(
                    block_id(job.task_hash, seed, b),
                    counts[k],
                    {
                        "task": job.task_hash,
                        "index": b,
                        "seed": seed,
                        "run": run_id,
                        "trials": getattr(job.task, "block_size", None),
                    },
                    _columns(job.task, counts.shape[1]),
                )
                computed_now.add((job.task_hash, b))
            bar.update(job.n)
            advance(job.task_hash)
            for i in cells_of[job.task_hash]:
                if not done[i]:
                    evaluate(i)
            flush()
            if stop():
                raise KeyboardInterrupt
        if not all(done):  # pragma: no cover - a scheduling bug, not a user error
            raise RuntimeError("sweep finished with cells still waiting for blocks")
        for i in range(n_cells):
            for th in cell_tasks[i]:
                used.update((th, b) for b in range(targets[i]))
        run.computed = len(computed_now)
        run.reused = len(used - computed_now)
        status = "finished"
    except KeyboardInterrupt:
        status = "interrupted"
        run.computed = store.files_on_disk() - store.initial
        raise SweepInterrupted(
            f"interrupted: {run.computed} new blocks saved in {store.root}; "
            "run the same command again to resume"
        ) from None
    finally:
        # the run's real state first: a second Ctrl-C while Dask shuts down cannot lose it
        run.elapsed = time.perf_counter() - started
        run.executor = executor.description if executor is not None else ""
        header["runs"][-1].update(
            status=status,
            computed=run.computed if status == "interrupted" else len(computed_now),
            reused=run.reused,
            seconds=round(run.elapsed, 3),
        )
        try:
            atomic_write_json(store.root / SWEEP, header)
        except OutputError:  # e.g. the disk is full: the error that got here is the news
            if status == "finished":
                raise
        finally:
            stop.__exit__()
            if own_bar:
                bar.close()
            try:
                if own and executor is not None:
                    executor.close()
            finally:
                store.close()
                if fresh and executor is None:  # e.g. an unreachable scheduler
                    shutil.rmtree(store.root, ignore_errors=True)
    if store.discarded:
        run.notes.append(f"discarded {store.discarded} torn block file(s) from an earlier crash")
    if store.corrupted:
        run.notes.append(
            f"warning: {store.corrupted} block file(s) failed their checksum or count check "
            "and were recomputed"
        )
    return run


def _runs(blocks: list[int], size: int) -> Iterator[tuple[int, int]]:
    """Consecutive runs of ``blocks`` as (first, n), each at most ``size`` long."""
    i = 0
    while i < len(blocks):
        j = i
        while j + 1 < len(blocks) and blocks[j + 1] == blocks[j] + 1 and j + 1 - i < size:
            j += 1
        yield blocks[i], j - i + 1
        i = j + 1


def _columns(task: Any, width: int) -> tuple[str, ...]:
    names = tuple(getattr(task, "columns", ()))
    return names if len(names) == width else tuple(f"c{k}" for k in range(width))


def _headline(plan: SweepPlan, run: SweepRun, cell: int) -> Any:
    sums = [c.sum(axis=0) for c in run.counts(cell)]
    quantity = plan.metric.quantities[0]
    return plan.cells[cell].plan.estimate(sums)[quantity]


def _header(plan: SweepPlan, tasks: dict[str, Any], store: BlockStore, run_id: str) -> dict:
    """``sweep.json``: the spec and its hashes, the tasks, and the log of runs."""
    previous: list[dict[str, Any]] = []
    path = store.root / SWEEP
    if path.exists():
        import json

        try:
            previous = list(json.loads(path.read_text()).get("runs", []))
        except (ValueError, AttributeError, OSError):
            previous = []
    for earlier in previous:  # this run holds the folder's lock: no earlier one still runs
        if isinstance(earlier, dict) and earlier.get("status") == "running":
            earlier["status"] = "interrupted"
    return {
        "name": plan.name,
        "system": plan.system,
        "spec_file": str(plan.path),
        "spec": plan.spec.model_dump(mode="json"),
        "spec_hash": plan.spec_hash,
        "rules_hash": plan.rules_hash,
        "code_hash": plan.code_hash,
        "seed": plan.seed,
        "block_size": plan.block_size,
        "inputs": [str(p) for p in plan.inputs],
        "versions": {**versions(), "python": platform.python_version()},
        "tasks": {th: getattr(t, "label", "") for th, t in tasks.items()},
        "runs": [
            *previous,
            {"run": run_id, "status": "running", "pid": os.getpid(), "started": time.time()},
        ],
    }
