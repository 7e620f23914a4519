"""Where a match engine's cold compile goes: seconds per numba function, self and total.

Clears the engine's numba cache, then compiles it by playing four matches (as
``bench_match.py --cold`` does) while numba's event API records every ``numba:compile``
event.  A function's *total* is the time from the start to the end of its compile; its
*self* time leaves out the functions compiled while it was typed (its callees), so the
self times add up to the whole compile.  ``numba:llvm_lock`` gives the share of the time
spent in LLVM (optimisation and code generation); the rest is numba's own typing and
lowering.  The table lists the ``--top`` largest self times, summed over the copies of a
function (numba compiles one copy per signature: a literal argument such as ``f(x, 0)``
is a signature of its own), with the number of copies.  Process CPU time is printed too:
it is less sensitive than wall time to other work on a shared machine.

Run: ``python benchmarks/compile_profile.py --system d20 [--top 25]``.  With
``NUMBA_CACHE_DIR`` set, numba reads and writes its cache there only: the folder must be
empty (a fresh one), and the checkout's caches (the framework's and the dice kernels' are
shared by every engine) are left as they are.  Without it, the engine's cache files in the
checkout are removed first.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from bench_match import clear_cache, default_sides
from numba.core import event

from analyzer.games import match_engine, match_systems
from analyzer.match import prepare
from analyzer.match.runner import run_records


def function_times(buffer: list) -> list[tuple[str, float, float]]:
    """(qualified name, self seconds, total seconds) per compile, from START/END events."""
    rows: list[tuple[str, float, float]] = []
    stack: list[list] = []  # [name, start, seconds of nested compiles]
    for stamp, ev in buffer:
        if ev.is_start:
            dispatcher = ev.data["dispatcher"]
            name = getattr(dispatcher, "__qualname__", None) or str(dispatcher)
            stack.append([name, stamp, 0.0])
        elif stack:
            name, start, nested = stack.pop()
            total = stamp - start
            rows.append((name, total - nested, total))
            if stack:
                stack[-1][2] += total
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", default="rapture", choices=match_systems())
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    cache_dir = os.environ.get("NUMBA_CACHE_DIR")
    if cache_dir is None:
        clear_cache(args.system)
    elif any(Path(cache_dir).rglob("*.nbi")):
        sys.exit(f"error: NUMBA_CACHE_DIR {cache_dir} holds numba caches: use a fresh folder")
    engine = match_engine(args.system)
    side_a, side_b = default_sides(args.system)
    start = time.perf_counter()
    cpu_start = time.process_time()
    with (
        event.install_recorder("numba:compile") as compiles,
        event.install_recorder("numba:llvm_lock") as llvm,
    ):
        setup = prepare(args.system, str(side_a), str(side_b))
        run_records(engine, setup, 4, 1, threads=1)
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    llvm_seconds = sum(
        end[0] - begin[0] for begin, end in zip(llvm.buffer[::2], llvm.buffer[1::2], strict=False)
    )
    rows = function_times(compiles.buffer)
    per_name: dict[str, list[float]] = {}
    for name, own, total in rows:
        entry = per_name.setdefault(name, [0.0, 0.0, 0])
        entry[0] += own
        entry[1] += total
        entry[2] += 1
    print(
        f"{args.system}: cold compile {wall:.1f} s wall, {cpu:.1f} s CPU, {len(rows)} "
        f"function compiles, LLVM {llvm_seconds:.1f} s ({100 * llvm_seconds / wall:.0f}%)"
    )
    print(f"{'self s':>8} {'total s':>8} {'copies':>6}  function")
    ranked = sorted(per_name.items(), key=lambda item: -item[1][0])
    for name, (own, total, copies) in ranked[: args.top]:
        print(f"{own:8.2f} {total:8.2f} {copies:6d}  {name}")


if __name__ == "__main__":
    main()
