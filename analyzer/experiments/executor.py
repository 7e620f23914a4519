"""Where chunks of blocks run: in this process (serial) or on Dask (``dask.distributed``).

Both executors take jobs (a task and a range of its blocks) and hand back
finished jobs with their counts in completion order; nothing else about them
matters to the results, which depend only on the blocks (see
:mod:`analyzer.experiments.tasks`).

* :class:`SerialExecutor` (``--workers 0``): runs each job when asked for a
  result; the numba kernels use all threads over the blocks of a chunk.
* :class:`DaskExecutor`: with a scheduler address (``--scheduler
  tcp://HOST:PORT``, or Dask's own ``scheduler-address`` config /
  ``DASK_SCHEDULER_ADDRESS``) it connects to a running cluster of ``dask
  scheduler`` + ``dask worker`` processes; otherwise it starts an embedded
  :class:`distributed.LocalCluster` of ``--workers`` single-threaded worker
  processes on this machine and stops it afterwards.
"""

from __future__ import annotations

import logging
import os
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.experiments.tasks import run_chunk


@dataclass(frozen=True)
class Job:
    """Blocks ``first .. first + n - 1`` of the task ``task_hash``."""

    task_hash: str
    task: Any
    seed: int
    first: int
    n: int


def default_workers() -> int:
    """Cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


class SerialExecutor:
    """Runs jobs one after the other in this process (debugging, tiny sweeps)."""

    description = "serial (this process)"
    workers = 1

    def __init__(self) -> None:
        self._queue: deque[Job] = deque()

    def submit(self, job: Job) -> None:
        self._queue.append(job)

    def pending(self) -> int:
        return len(self._queue)

    def next_completed(self, stop: Callable[[], bool] | None = None) -> tuple[Job, np.ndarray]:
        if stop is not None and stop():
            raise KeyboardInterrupt
        job = self._queue.popleft()
        return job, run_chunk(job.task, job.seed, job.first, job.n)

    def close(self) -> None:
        self._queue.clear()


#: Seconds a sweep waits for the first worker to join a scheduler (``--worker-timeout``).
WORKER_TIMEOUT = 300.0


class SchedulerLost(AnalyzerError):
    """The Dask scheduler went away mid-run (finished blocks are kept)."""


class DaskExecutor:
    """Jobs as Dask futures on an embedded local cluster or a running scheduler."""

    def __init__(
        self,
        workers: int | None = None,
        scheduler: str | None = None,
        worker_timeout: float = WORKER_TIMEOUT,
    ) -> None:
        import dask
        from distributed import Client, LocalCluster, as_completed

        address = scheduler or dask.config.get("scheduler-address", None)
        self.cluster: Any = None
        self._quiet: dict[str, int] = {}
        if address:
            try:
                self.client = Client(address, timeout="20s")
            except (OSError, TimeoutError) as err:
                raise AnalyzerError(
                    f"cannot reach the Dask scheduler at {address}: {err}"
                ) from None
            self.address = address
            self.workers = len(self.client.scheduler_info().get("workers", {}))
            if not self.workers:
                self._wait_for_workers(worker_timeout)
            self.description = f"Dask scheduler {address} ({self.workers} workers)"
        else:
            n = workers if workers is not None else default_workers()
            if n < 1:
                raise AnalyzerError(f"--workers must be >= 0 (got {n})")
            self._quiet = _quiet_dask_logs()
            with _children_ignore_sigint():
                self.cluster = LocalCluster(
                    n_workers=n,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    # the workers' own logs (a heartbeat that fails while the cluster
                    # shuts down on Ctrl-C prints a traceback at ERROR); task errors
                    # still reach this process through the futures
                    silence_logs=logging.CRITICAL,
                )
            self.client = Client(self.cluster)
            self.address = str(self.cluster.scheduler_address)
            self.workers = n
            self.description = f"embedded Dask cluster ({n} worker processes)"
        self._completed = as_completed([])
        self._jobs: dict[str, Job] = {}
        self._futures: dict[str, Any] = {}

    def _wait_for_workers(self, timeout: float) -> None:
        """A scheduler without workers: say so, wait up to ``timeout`` s, else one line."""
        import sys

        print(
            f"waiting for a Dask worker to join the scheduler at {self.address} "
            f"(up to {timeout:g} s; --worker-timeout)",
            file=sys.stderr,
            flush=True,
        )
        try:
            self.client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            self.client.close()
            raise AnalyzerError(
                f"no Dask worker joined the scheduler at {self.address} within {timeout:g} s "
                "(start one: dask worker ADDRESS; or give a longer --worker-timeout)"
            ) from None
        self.workers = len(self.client.scheduler_info().get("workers", {}))

    def _lost(self) -> SchedulerLost:
        logging.getLogger("distributed.client").setLevel(logging.CRITICAL)  # its reconnect log
        return SchedulerLost(
            f"lost the Dask scheduler at {self.address}; the finished blocks are kept: "
            "run the same command again (with a running scheduler) to resume"
        )

    def submit(self, job: Job) -> None:
        future = self.client.submit(
            run_chunk,
            job.task,
            job.seed,
            job.first,
            job.n,
            key=f"sweep-{job.task_hash[:16]}-{job.seed}-{job.first}-{job.n}",
            pure=False,
        )
        key = str(future.key)
        self._jobs[key] = job
        self._futures[key] = future
        self._completed.add(future)

    def pending(self) -> int:
        return len(self._jobs)

    def next_completed(self, stop: Callable[[], bool] | None = None) -> tuple[Job, np.ndarray]:
        """The next finished job; ``stop()`` is polled while waiting (KeyboardInterrupt if true)."""
        from distributed import CancelledError
        from distributed.comm import CommClosedError

        while not self._completed.has_ready():
            if stop is not None and stop():
                raise KeyboardInterrupt
            if self.client.status in ("closing", "closed", "failed"):
                raise self._lost()
            time.sleep(0.02)
        future = next(self._completed)
        job = self._jobs.pop(str(future.key))
        self._futures.pop(str(future.key), None)
        try:
            result = future.result()
        except ModuleNotFoundError as err:
            raise AnalyzerError(
                f"a Dask worker cannot import {err.name!r}: install the analyzer package "
                "(same version) on every worker"
            ) from None
        except (CancelledError, CommClosedError, OSError, TimeoutError):
            if self.client.status == "running" and future.status == "error":
                raise  # the task itself failed: not a lost scheduler
            raise self._lost() from None
        return job, np.asarray(result, dtype=np.int64)

    def close(self) -> None:
        if self.cluster is not None:  # the embedded scheduler logs in this process: hush it
            for name in self._quiet:
                logging.getLogger(name).setLevel(logging.CRITICAL + 10)
        try:
            if self._futures and self.client.status == "running":
                self.client.cancel(list(self._futures.values()))
            self.client.close()
            if self.cluster is not None:
                self.cluster.close()
        except (OSError, TimeoutError, RuntimeError):  # a scheduler already gone: nothing to stop
            pass
        self._futures.clear()
        self._jobs.clear()
        for name, level in self._quiet.items():
            logging.getLogger(name).setLevel(level)
        self._quiet = {}


@contextmanager
def _children_ignore_sigint() -> Iterator[None]:
    """Worker processes started here ignore Ctrl-C (inherited through exec).

    Ctrl-C on a terminal reaches the whole process group; the sweep process
    handles it (keeps the finished blocks, stops the cluster), the workers
    must not die first with tracebacks of their own.
    """
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: nothing to do
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _quiet_dask_logs() -> dict[str, int]:
    """Silence the embedded scheduler's INFO chatter (in this process); old levels returned."""
    names = ("distributed", "distributed.scheduler", "distributed.nanny", "distributed.core")
    levels = {name: logging.getLogger(name).level for name in names}
    for name in names:
        logging.getLogger(name).setLevel(logging.WARNING)
    return levels


#: Most worker processes an embedded cluster may start (each is a Python process).
MAX_WORKERS = 256


def _configured_scheduler() -> str | None:
    import dask

    return dask.config.get("scheduler-address", None)


def make_executor(
    workers: int | None, scheduler: str | None, worker_timeout: float = WORKER_TIMEOUT
) -> SerialExecutor | DaskExecutor:
    """``--workers 0``: serial; ``--workers N``: an embedded Dask cluster of N processes;
    ``--scheduler``: that cluster.  Neither: Dask's configured ``scheduler-address`` if
    there is one, else serial, in this process: on one machine the embedded cluster's
    start-up and per-process kernel loading cost more than they bring (the README's
    sweep of 966 blocks: 17 s serial, 42 s on a 2-process cluster, 2 cores)."""
    if workers is not None and not 0 <= workers <= MAX_WORKERS:
        raise AnalyzerError(f"--workers must be from 0 to {MAX_WORKERS} (got {workers})")
    if scheduler is None and (workers == 0 or (workers is None and not _configured_scheduler())):
        return SerialExecutor()
    return DaskExecutor(workers, scheduler, worker_timeout)
