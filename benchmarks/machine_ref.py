"""A fixed reference kernel: how fast this machine is right now, measured in the same run.

These machines are shared, and the same engine revision runs up to ~30% faster in one
quiet spell than in another (d20 at 788cebe: 15,037-22,430 greedy matches/s on 2 threads
in one day).  A benchmark that prints this reference beside its figures lets two runs in
different spells be compared: their figures divided by their references.

The kernel does what the match engines spend their time on: integer arithmetic, loads
from an L2-sized table and data-dependent branches (a xorshift stream picks the entries).
Its work never changes, so its rate is a property of the machine and the moment.
Run: ``python benchmarks/machine_ref.py [--threads 2] [--seconds 1]``.
"""

from __future__ import annotations

import argparse
import threading
import time

import numpy as np
from numba import njit

TABLE_SIZE = 1 << 14  # 64 KiB of int32: in L2, like an engine's per-match state
STEPS = 2_000_000  # one call: ~10 ms


@njit(cache=True, nogil=True)
def reference_steps(table: np.ndarray, steps: int, seed: int) -> int:
    """``steps`` xorshift draws, each a table load and a branch on the loaded value."""
    x = np.uint64(seed) | np.uint64(1)
    mask = np.uint64(table.shape[0] - 1)
    acc = 0
    for _ in range(steps):
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        v = table[int(x & mask)]
        if v & 1:
            acc += v
        else:
            acc ^= v >> 1
        table[int((x >> np.uint64(20)) & mask)] = acc & 0xFFFF
    return acc


def _table(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 1 << 16, TABLE_SIZE).astype(np.int32)


def reference_rate(threads: int = 1, seconds: float = 0.5) -> float:
    """Million reference steps per second per thread, ``threads`` running at once."""
    reference_steps(_table(0), 1000, 1)  # compile or load
    counts = [0] * threads

    def work(k: int) -> None:
        table = _table(k)
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            reference_steps(table, STEPS, k + 1)
            counts[k] += STEPS

    start = time.perf_counter()
    pool = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    wall = time.perf_counter() - start
    return sum(counts) / wall / threads / 1e6


def describe(threads: int, seconds: float = 0.5) -> str:
    """One line for a benchmark's output: the reference rate on 1 and on ``threads`` threads."""
    rates = [f"{reference_rate(t, seconds):.1f} on {t}" for t in sorted({1, threads})]
    return f"reference kernel: M steps/s per thread {', '.join(rates)} thread(s)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    print(describe(args.threads, args.seconds))


if __name__ == "__main__":
    main()
