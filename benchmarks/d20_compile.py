"""Cold compile of the d20 match engine: wall and CPU seconds, in fresh processes.

On the shared 2-core machine the wall time of a compile moves with the load average (two
runs minutes apart differ by 2x); the CPU time of the compiling process (numba's compile
is single-threaded) moves far less, and at load ~1 the two agree.  Each run removes the
engine's numba cache, then a fresh process prepares the default match-up and plays four
matches (as ``bench_match.py --cold``); the script prints wall and CPU seconds per run
and the load average before it.

Run: ``python benchmarks/d20_compile.py [--runs 2]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

from bench_match import clear_cache, default_sides

CODE = """
import time
w, c = time.perf_counter(), time.process_time()
from analyzer.games import match_engine
from analyzer.match import prepare
from analyzer.match.runner import run_records
e = match_engine("d20")
s = prepare("d20", {a!r}, {b!r})
run_records(e, s, 4, 1, threads=1)
print(time.perf_counter() - w, time.process_time() - c)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    side_a, side_b = default_sides("d20")
    code = CODE.format(a=str(side_a), b=str(side_b))
    for run in range(args.runs):
        clear_cache("d20")
        load = os.getloadavg()[0]
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        wall, cpu = (float(x) for x in out.stdout.split()[-2:])
        print(f"run {run + 1}: cold compile {wall:.1f} s wall, {cpu:.1f} s CPU, load {load:.2f}")


if __name__ == "__main__":
    main()
