"""Roll-engine benchmark: Rapture melee with dodge (6 dice at 3+, DEF 2, TEC 2).

Measures in one process and one run, so the ratios are meaningful on a noisy
shared machine:

* a pure-Python loop (``random.randint`` per die),
* a numpy-vectorised implementation (whole arrays of dice, masks),
* the raw numpy d6 generation rate (``Generator.integers``),
* the project's numba kernel (``analyzer.dice.simulate`` + ``attack_trial``),
* the exact engine (one full distribution), and a warm ``analyzer roll --trials 0``.

Every implementation is checked against the exact distribution (5 SE) before it is timed.
Run: ``python benchmarks/bench_roll.py [--trials N]``.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np

from analyzer.dice.simulate import simulate_counts
from analyzer.games import get_mechanic
from analyzer.games.rapture.rolls import attack_trial

RAW = {"kind": "melee", "dice": 6, "skill": 3, "defense": 2, "dodge": 2}
ATT, HIT_AT, DEF, TEC = 6, 3, 2, 2


def pure_python(n: int, seed: int) -> np.ndarray:
    rng = random.Random(seed)
    counts = np.zeros(ATT + 1, dtype=np.int64)
    for _ in range(n):
        dodged = sum(rng.randint(1, 6) >= 4 for _ in range(TEC))
        hits = sum(rng.randint(1, 6) >= HIT_AT for _ in range(max(ATT - dodged, 0)))
        blocks = sum(rng.randint(1, 6) >= 5 for _ in range(DEF))
        counts[max(hits - blocks, 0)] += 1
    return counts


def numpy_vectorised(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    dodged = (rng.integers(1, 7, size=(n, TEC), dtype=np.int8) >= 4).sum(axis=1)
    attack = rng.integers(1, 7, size=(n, ATT), dtype=np.int8)
    kept = np.arange(ATT)[None, :] < (ATT - dodged)[:, None]
    hits = ((attack >= HIT_AT) & kept).sum(axis=1)
    blocks = (rng.integers(1, 7, size=(n, DEF), dtype=np.int8) >= 5).sum(axis=1)
    return np.bincount(np.maximum(hits - blocks, 0), minlength=ATT + 1)


def numpy_chunked(n: int, seed: int, chunk: int = 1 << 20) -> np.ndarray:
    """The vectorised version in cache-friendly chunks (its best case)."""
    total = np.zeros(ATT + 1, dtype=np.int64)
    for i, start in enumerate(range(0, n, chunk)):
        total += numpy_vectorised(min(chunk, n - start), seed + i)
    return total


def project_kernel(n: int, seed: int) -> np.ndarray:
    params = get_mechanic("rapture", "attack").prepare(RAW)
    encoded = get_mechanic("rapture", "attack").encode(params)
    return simulate_counts(attack_trial, encoded, 0, ATT, n, seed)


def check(counts: np.ndarray, exact: np.ndarray, label: str) -> None:
    n = counts.sum()
    se = np.sqrt(exact * (1 - exact) / n)
    worst = float(np.max(np.abs(counts / n - exact) / se))
    if worst > 5:
        raise SystemExit(f"{label}: off the exact distribution by {worst:.1f} SE")


def rate(fn: Callable[[int, int], np.ndarray], n: int, exact: np.ndarray, label: str) -> float:
    fn(min(n, 1000), 0)  # warm-up (compilation, caches)
    best = float("inf")
    for rep in range(3):
        start = time.perf_counter()
        counts = fn(n, rep + 1)
        best = min(best, time.perf_counter() - start)
        check(counts, exact, label)
    return n / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20_000_000)
    args = parser.parse_args()
    mech = get_mechanic("rapture", "attack")
    params = mech.prepare(RAW)
    exact = mech.exact(params).probs

    loops = 20_000
    start = time.perf_counter()
    for _ in range(loops):
        mech.exact(params)
    exact_us = (time.perf_counter() - start) / loops * 1e6

    python_rate = rate(pure_python, 100_000, exact, "pure python")
    numpy_rate = rate(numpy_chunked, 4_000_000, exact, "numpy")
    kernel_rate = rate(project_kernel, args.trials, exact, "kernel")
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    rng.integers(1, 7, size=50_000_000, dtype=np.int8)
    d6_rate = 50_000_000 / (time.perf_counter() - start)

    cmd = [
        sys.executable,
        "-m",
        "analyzer.cli",
        "roll",
        "rapture",
        "attack",
        "--dice",
        "6",
        "--skill",
        "3",
        "--defense",
        "2",
        "--dodge",
        "2",
        "--trials",
        "0",
    ]
    subprocess.run(cmd, check=True, capture_output=True)  # warm the numba cache
    cli_times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        cli_times.append(time.perf_counter() - start)

    print("Rapture melee with dodge: 6 dice at 3+, DEF 2, TEC 2")
    print(f"  pure Python loop      {python_rate:>14,.0f} attacks/s")
    print(f"  numpy vectorised      {numpy_rate:>14,.0f} attacks/s")
    print(f"  numpy raw d6          {d6_rate:>14,.0f} dice/s")
    print(f"  project kernel        {kernel_rate:>14,.0f} attacks/s")
    print(f"  kernel / numpy        {kernel_rate / numpy_rate:>14.1f}x   (floor 8x)")
    print(f"  kernel / pure Python  {kernel_rate / python_rate:>14.0f}x   (floor 250x)")
    print(f"  exact distribution    {exact_us:>14.1f} us      (floor < 100 us)")
    print(f"  warm CLI --trials 0   {min(cli_times):>14.2f} s")


if __name__ == "__main__":
    main()
