"""Match-engine benchmark: full matches per second and time per activation, any engine.

Measured in one process and one run, after the kernels are compiled (or loaded from the
cache) and warmed up:

* **greedy vs greedy** on two sample lists: matches per second and the time per
  activation (wall time divided by the activations played, and CPU time per activation =
  wall time x threads / activations);
* the same-run baselines: **random vs random** (the engine without the AI's scoring) and
  the engine's **strongest policy vs greedy** (a small sample);
* 1 thread against ``--threads`` threads (blocks of matches on Python threads, GIL
  released), so the scaling is visible on a busy shared machine.

Correctness is checked before timing: invariants on 300 matches (no violation) and the
same records with 1 and with ``--threads`` threads.  A fixed reference kernel
(``machine_ref.py``) is timed beside the figures: the same revision runs up to ~30% faster
in one quiet spell than in another on these shared machines, and the reference says which
spell a figure comes from.  ``--cold`` first times a cold compile of the engine in a fresh
process (its numba cache removed), playing greedy matches; every policy's kernels are
compiled or loaded before timing.
Run: ``python benchmarks/bench_match.py [--system d20] [--matches N] [--threads T]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import machine_ref  # benchmarks/ is on sys.path when this file runs
import numpy as np

from analyzer import paths
from analyzer.games import match_engine, match_systems
from analyzer.match import contract as C
from analyzer.match import prepare
from analyzer.match.runner import run_records

#: The default match-up of each system (two sample lists near the same points).
DEFAULT_LISTS = {
    "rapture": ("angels_vanguard", "survivors_snipers"),
    "d20": ("chronos_strike_team", "genetic_hunters"),
}


def default_sides(
    system: str, list_a: str | None = None, list_b: str | None = None
) -> tuple[Path, Path]:
    """The two side files a benchmark plays: those given, else the system's default match-up
    (``DEFAULT_LISTS``, or the engine's sample sides, e.g. a roster and a hostile force)."""
    names = DEFAULT_LISTS.get(system)
    if names:
        folder = paths.system_config(system, "lists")
        default = (folder / f"{names[0]}.yaml", folder / f"{names[1]}.yaml")
    else:
        default = C.sample_sides(match_engine(system))
    return Path(list_a or default[0]), Path(list_b or default[1])


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


def timed(engine, setup, matches: int, threads: int, seed: int) -> tuple[float, int]:
    """Wall time of ``matches`` matches and the activations they played."""
    start = time.perf_counter()
    rec, _ = run_records(engine, setup, matches, seed, threads=threads)
    return time.perf_counter() - start, int(rec[:, C.R_ACTIVATIONS].sum())


def clear_cache(system: str) -> None:
    """Remove the numba cache files of every kernel source of ``system``'s engine."""
    for source in match_engine(system).kernel_sources():
        for pattern in ("*.nbi", "*.nbc"):
            for path in (source.parent / "__pycache__").glob(pattern):
                path.unlink()


def cold_compile(system: str, lists: tuple[str, str]) -> float:
    """Seconds for a fresh process to compile the engine with its numba cache removed
    (greedy matches: an engine's strong policy may have an entry kernel of its own)."""
    clear_cache(system)
    code = (
        "import time; t = time.perf_counter()\n"
        "from analyzer.games import match_engine\nfrom analyzer.match import prepare\n"
        "from analyzer.match.runner import run_records\n"
        f"e = match_engine({system!r})\n"
        f"s = prepare({system!r}, {str(lists[0])!r}, {str(lists[1])!r})\n"
        "run_records(e, s, 4, 1, threads=1); print(time.perf_counter() - t)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", default="rapture", choices=match_systems())
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument(
        "--threads", type=int, default=int(os.environ.get("NUMBA_NUM_THREADS", os.cpu_count() or 2))
    )
    parser.add_argument("--list-a", default=None)
    parser.add_argument("--list-b", default=None)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cold", action="store_true", help="time a cold compile first")
    args = parser.parse_args()
    engine = match_engine(args.system)
    lists = default_sides(args.system, args.list_a, args.list_b)
    if args.cold:
        print(f"cold compile of the {args.system} engine: {cold_compile(args.system, lists):.1f} s")

    t0 = time.perf_counter()
    strong = engine.policies[-1]
    setups = {
        pols: prepare(args.system, *lists, policies=pols)
        for pols in (("greedy", "greedy"), ("random", "random"), (strong, "greedy"))
    }
    for setup in setups.values():  # compile or load every entry kernel (the strong policy
        run_records(engine, setup, 4, 1, threads=1)  # may have its own), warm up
    print(f"set-up and kernels ready in {time.perf_counter() - t0:.1f} s")

    greedy = setups["greedy", "greedy"]
    rec1, u1 = run_records(engine, greedy, 300, 7, threads=1, check=True)
    rec2, u2 = run_records(engine, greedy, 300, 7, threads=args.threads, check=True)
    if rec1[:, C.R_VIOLATIONS].sum() or not (np.array_equal(rec1, rec2) and np.array_equal(u1, u2)):
        raise SystemExit("correctness check failed: invariant violations or thread dependence")

    print(machine())
    print(machine_ref.describe(args.threads))
    a, b = greedy.points
    print(
        f"{args.system} lists: {greedy.list_names[0]} ({a} pts) vs {greedy.list_names[1]} "
        f"({b} pts); {args.matches:,} matches per figure"
    )
    rows = []
    for (pa, pb), setup in setups.items():
        n = args.matches if pa != strong or strong == "greedy" else max(args.matches // 200, 50)
        for threads in sorted({1, args.threads}):
            wall, acts = timed(engine, setup, n, threads, args.seed)
            rows.append((f"{pa} vs {pb}", threads, n / wall, 1e6 * wall / acts,
                         1e6 * wall * threads / acts))  # fmt: skip
    print(
        f"{'policies':22s} {'threads':>7s} {'matches/s':>10s} {'us/activation':>14s} "
        f"{'cpu us/activation':>18s}"
    )
    for label, threads, rate, per, cpu in rows:
        print(f"{label:22s} {threads:7d} {rate:10.0f} {per:14.2f} {cpu:18.2f}")


if __name__ == "__main__":
    main()
