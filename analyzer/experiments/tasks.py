"""Tasks: the logical units of simulation, and the function workers run.

A *task* is everything that determines the counts of its blocks: a numba trial
kernel (by importable name), its integer parameter vectors, the order of first
activation, the number of outcomes and how outcomes map to a winner, the block
size and the *stream* (the leading part of the seed's spawn key).  Block ``b``
of a task is ``block_size`` trials seeded from
``SeedSequence(seed, spawn_key=(*stream, order, b))`` (see :mod:`analyzer.rng`),
so a block is computable on its own, on any worker, in any chunk.

Common random numbers: a metric gives the *same* stream to the task at the
same position in every cell of a sweep (e.g. stream ``(j,)`` for the duel
against the j-th opponent of the field), so block ``b`` of every cell starts
from the same generator state and before/after differences are paired.

A task's identity is a hash of its content (:func:`task_id`), not of the cell
or sweep that asked for it: two cells that need the same duel share its
blocks, and any change that could change a count (a stat, an option, the
kernel code) gives a new identity, so stored blocks are never stale.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import threading
from dataclasses import asdict, dataclass
from typing import Any, ClassVar

import numpy as np

#: Columns of a kernel task's block record: trials, wins of A, wins of B for the
#: duels where A acts first, then the same three for B first (draws are the rest).
KERNEL_COLUMNS = (
    "n_afirst",
    "win_a_afirst",
    "win_b_afirst",
    "n_bfirst",
    "win_a_bfirst",
    "win_b_bfirst",
)
#: Spawn-key element of each first-activation order.
ORDER_KEYS = {True: 0, False: 1}


def canonical_json(data: Any) -> str:
    """Deterministic JSON (sorted keys, no spaces) for hashing."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)


def digest(data: Any, length: int = 32) -> str:
    """Hex SHA-256 of the canonical JSON of ``data``, shortened to ``length`` characters."""
    return hashlib.sha256(canonical_json(data).encode()).hexdigest()[:length]


def function_name(func: Any) -> str:
    """``module:qualname`` of a module-level (numba) function, for shipping by name."""
    py = getattr(func, "py_func", func)
    return f"{py.__module__}:{py.__qualname__}"


@functools.cache
def resolve(name: str) -> Any:
    """The function named ``module:qualname`` (imported once per process)."""
    module, _, qualname = name.partition(":")
    obj: Any = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class KernelTask:
    """Blocks of a two-sided trial kernel: each trial ends in a draw or a win of A or B.

    ``params`` holds one int64 parameter vector per first-activation order in
    ``firsts`` (True: A acts first).  A block plays ``block_size`` trials split
    evenly over the orders.  An outcome index ``k`` of the kernel has winner
    ``k // winner_stride`` (0 draw, 1 A, 2 B), the layout of
    :class:`analyzer.duels.DuelSpace`.  ``runner`` optionally names a function
    ``runner(params, seed, task, first_block, sizes) -> counts[n_blocks, n_outcomes]``
    for engines with their own block loop; by default the kernel ``trial`` runs
    through :func:`analyzer.dice.simulate.simulate_block_counts`.
    """

    system: str
    trial: str
    firsts: tuple[bool, ...]
    params: tuple[tuple[int, ...], ...]
    n_outcomes: int
    winner_stride: int
    stream: tuple[int, ...]
    block_size: int
    runner: str | None = None
    label: str = ""

    width: ClassVar[int] = len(KERNEL_COLUMNS)
    columns: ClassVar[tuple[str, ...]] = KERNEL_COLUMNS

    def __post_init__(self) -> None:
        if len(self.firsts) != len(self.params) or not self.firsts:
            raise ValueError("one parameter vector per first-activation order")
        if self.block_size % len(self.firsts):
            raise ValueError("block_size must split evenly over the first-activation orders")

    def identity(self) -> dict[str, Any]:
        """What determines the counts (the label is a description only)."""
        data = asdict(self)
        data.pop("label")
        return data

    def run(self, seed: int, first_block: int, n_blocks: int) -> np.ndarray:
        """Counts (``n_blocks x width``) of ``n_blocks`` blocks from ``first_block`` on."""
        from analyzer.dice.simulate import simulate_block_counts

        out = np.zeros((n_blocks, self.width), dtype=np.int64)
        per_order = self.block_size // len(self.firsts)
        sizes = np.full(n_blocks, per_order, dtype=np.int64)
        for a_first, params in zip(self.firsts, self.params):
            key = (*self.stream, ORDER_KEYS[a_first])
            vector = np.asarray(params, dtype=np.int64)
            if self.runner is not None:
                counts = resolve(self.runner)(vector, seed, key, first_block, sizes)
            else:
                counts = simulate_block_counts(
                    resolve(self.trial),
                    vector,
                    0,
                    self.n_outcomes - 1,
                    seed,
                    key,
                    first_block,
                    sizes,
                )
            counts = np.asarray(counts, dtype=np.int64)
            winner = np.arange(counts.shape[1]) // self.winner_stride
            col = 0 if a_first else 3
            out[:, col] = counts.sum(axis=1)
            out[:, col + 1] = counts[:, winner == 1].sum(axis=1)
            out[:, col + 2] = counts[:, winner == 2].sum(axis=1)
        return out


def task_id(task: Any, code: str) -> str:
    """Content hash of a task together with the hash of the code that runs it."""
    return digest({"code": code, "task": task.identity()})


def block_id(task_hash: str, seed: int, block: int) -> str:
    """Name of one stored block: hash of (task content + code, seed, block index)."""
    return digest({"task": task_hash, "seed": seed, "block": block})


_KERNEL_LOCK = threading.Lock()


def _worker_threads() -> int | None:
    """Threads of the Dask worker running this task (None outside a worker)."""
    try:
        from distributed import get_worker

        return int(get_worker().state.nthreads)
    except (ImportError, ValueError, AttributeError):
        return None


def run_chunk(task: Any, seed: int, first_block: int, n_blocks: int) -> np.ndarray:
    """What a worker runs: counts of ``n_blocks`` consecutive blocks of ``task``.

    The numba kernels run the blocks of the chunk in parallel on at most one
    thread per block, and inside a Dask worker on at most as many threads as
    the worker has (1 in the embedded cluster: Dask, not numba, spreads the
    work over the cores).  Calls are serialised per process: numba's parallel
    layer must not be entered by two worker threads at once.  (A one-block
    parallel region on two threads costs several times the block itself on a
    busy machine, hence the cap.)
    """
    import numba

    limit = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    worker = _worker_threads()
    threads = max(1, min(n_blocks, limit, worker if worker is not None else limit))
    with _KERNEL_LOCK:
        previous = numba.get_num_threads()
        numba.set_num_threads(threads)
        try:
            return np.asarray(task.run(seed, first_block, n_blocks), dtype=np.int64)
        finally:
            numba.set_num_threads(previous)
