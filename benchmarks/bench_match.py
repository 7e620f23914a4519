"""Match-engine benchmark: full Rapture matches per second and time per activation.

Measured in one process and one run, after the kernels are compiled (or loaded from the
cache) and warmed up:

* **greedy vs greedy** on two sample battlegroups near 100 points (the sample lists are
  86-96 points; the defaults are the two largest): matches per second and the time per
  activation (wall time divided by the activations played, and CPU time per activation =
  wall time x threads / activations);
* the same-run baselines: **random vs random** (the engine without the AI's scoring) and
  **lookahead vs greedy** (a small sample);
* 1 thread against ``--threads`` threads (blocks of matches on Python threads, GIL
  released), so the scaling is visible on a busy shared machine.

Correctness is checked before timing: invariants on 300 matches (no violation) and the
same records with 1 and with ``--threads`` threads.
Run: ``python benchmarks/bench_match.py [--matches N] [--threads T]``.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from analyzer import paths
from analyzer.games.rapture.match import MatchOptions, prepare, run_records
from analyzer.games.rapture.match import match_nb as M

LISTS = paths.system_config("rapture", "lists")


def machine() -> str:
    """The CPU model, core count and load average, so a figure says where it was measured."""
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as info:
            model = next(line.split(":", 1)[1].strip() for line in info if "model name" in line)
    except (OSError, StopIteration):
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"machine: {model}, {os.cpu_count()} cores, load average {load:.2f} before timing"


def timed(setup, matches: int, threads: int, seed: int) -> tuple[float, int]:
    """Wall time of ``matches`` matches and the activations they played."""
    start = time.perf_counter()
    rec, _ = run_records(setup, matches, seed, threads=threads)
    return time.perf_counter() - start, int(rec[:, M.R_ACTIVATIONS].sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument(
        "--threads", type=int, default=int(os.environ.get("NUMBA_NUM_THREADS", os.cpu_count() or 2))
    )
    parser.add_argument("--list-a", default=str(LISTS / "angels_vanguard.yaml"))
    parser.add_argument("--list-b", default=str(LISTS / "survivors_snipers.yaml"))
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    t0 = time.perf_counter()
    greedy = prepare(
        args.list_a, args.list_b, options=MatchOptions(policy_a="greedy", policy_b="greedy")
    )
    randoms = prepare(
        args.list_a, args.list_b, options=MatchOptions(policy_a="random", policy_b="random")
    )
    look = prepare(
        args.list_a, args.list_b, options=MatchOptions(policy_a="lookahead", policy_b="greedy")
    )
    run_records(greedy, 64, 1, threads=1)  # compile or load from the cache, warm up
    print(f"set-up and kernels ready in {time.perf_counter() - t0:.1f} s")

    checked = prepare(args.list_a, args.list_b, options=MatchOptions(check_invariants=True))
    rec1, u1 = run_records(checked, 300, 7, threads=1)
    rec2, u2 = run_records(checked, 300, 7, threads=args.threads)
    if rec1[:, M.R_VIOL].sum() or not (np.array_equal(rec1, rec2) and np.array_equal(u1, u2)):
        raise SystemExit("correctness check failed: invariant violations or thread dependence")

    print(machine())
    a, b = greedy.comp.list_points
    print(
        f"lists: {greedy.comp.list_names[0]} ({a} pts) vs {greedy.comp.list_names[1]} "
        f"({b} pts); {args.matches:,} matches per figure"
    )
    rows = []
    for label, setup, n in (
        ("greedy vs greedy", greedy, args.matches),
        ("random vs random", randoms, args.matches),
        ("lookahead vs greedy", look, max(args.matches // 200, 50)),
    ):
        for threads in sorted({1, args.threads}):
            wall, acts = timed(setup, n, threads, args.seed)
            rows.append((label, threads, n / wall, 1e6 * wall / acts, 1e6 * wall * threads / acts))
    print(
        f"{'policies':22s} {'threads':>7s} {'matches/s':>10s} {'us/activation':>14s} "
        f"{'cpu us/activation':>18s}"
    )
    for label, threads, rate, per, cpu in rows:
        print(f"{label:22s} {threads:7d} {rate:10.0f} {per:14.2f} {cpu:18.2f}")


if __name__ == "__main__":
    main()
