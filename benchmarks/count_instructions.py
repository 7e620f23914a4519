"""Instructions per activation of the match engine, counted by valgrind (deterministic).

Timings on these shared machines move by 30% from one run to the next; an instruction
count does not move at all, so a change of a few per cent is visible at once.  This script
runs ``--matches`` matches under ``valgrind --tool=callgrind`` with counting switched on
only around the matches (callgrind's client requests, through a small C helper built with
gcc), and prints the instructions per activation and the share of each kernel function
(the perf map of :mod:`profile_match` names the JIT code).  With ``--branches`` callgrind
also simulates a simple branch predictor: its miss counts are rough, but they rank the
functions whose branches are hard to predict.

Fewer instructions is not the same as less time: removed instructions are often cheap ones
(reloads, spills) while mispredicted branches cost far more, so confirm a gain with
``bench_match_revisions.py``.  Valgrind's virtual CPU has no AVX-512, so the kernels are
compiled for a fixed CPU (``haswell``) into their own numba cache, keyed by the sources.

Run: ``python benchmarks/count_instructions.py [--system rapture] [--matches 300]
[--policy greedy] [--branches]`` (needs valgrind and its headers, gcc and pyelftools).
"""

from __future__ import annotations

import argparse
import bisect
import collections
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = Path(tempfile.gettempdir()) / "analyzer_callgrind"
CPU = {
    "NUMBA_CPU_NAME": "haswell",
    "NUMBA_CPU_FEATURES": "+64bit,+avx,+avx2,+bmi,+bmi2,+cmov,+cx16,+f16c,+fma,+fxsr,+lzcnt,"
    "+mmx,+movbe,+popcnt,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+xsave",
}
HELPER = """#include <valgrind/callgrind.h>
void start(void) {
    CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION; CALLGRIND_TOGGLE_COLLECT;
}
void stop(void) { CALLGRIND_TOGGLE_COLLECT; CALLGRIND_DUMP_STATS_AT("matches"); }
"""


def play(system: str, matches: int, policy: str, toggle: str | None, symbols: str | None) -> None:
    """Load the kernels, then play the matches (between the helper's start and stop)."""
    import ctypes

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import profile_match

    profile_match._capture_loads()
    from analyzer.match import contract as C
    from analyzer.match.runner import run_records

    engine, setup = profile_match.engine_setup(system, policy, None, None)
    run_records(engine, setup, 8, 1, threads=1)  # compile or load
    if symbols:
        profile_match.write_perf_map()
        os.replace(f"/tmp/perf-{os.getpid()}.map", symbols)
    helper = ctypes.CDLL(toggle) if toggle else None
    if helper:
        helper.start()
    rec, _ = run_records(engine, setup, matches, 2026, threads=1)
    if helper:
        helper.stop()
    print(f"activations {int(rec[:, C.R_ACTIVATIONS].sum())}")


def demangle(name: str) -> str:
    """``module.function`` of a numba symbol (``_ZN<len><part>...``)."""
    parts, i = [], 3
    while i < len(name) and name[i].isdigit():
        j = i
        while name[j].isdigit():
            j += 1
        size = int(name[i:j])
        parts.append(name[j : j + size])
        i = j + size
    return ".".join(parts[-2:]) if parts else name[:60]


def costs(profile: Path, symbols: Path) -> tuple[list[str], list[int], dict[str, list[int]]]:
    """Self cost of every kernel function, from callgrind's per-instruction output."""
    table = sorted(
        (int(a, 16), int(s, 16), n.strip())
        for a, s, n in (line.split(" ", 2) for line in symbols.read_text().splitlines())
    )
    starts = [row[0] for row in table]
    events: list[str] = []
    totals: list[int] = []
    per: dict[str, list[int]] = collections.defaultdict(lambda: [0] * len(events))
    last = 0
    call_line = False
    for line in profile.read_text().splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
            totals = [0] * len(events)
        elif line.startswith("calls="):
            call_line = True  # the next line is the call's inclusive cost
        elif line and line[0] in "0123456789+-*":
            fields = line.split()
            if len(fields) < 3:
                continue
            p = fields[0]
            if p.startswith("0x"):
                last = int(p, 16)
            elif p[0] in "+-":
                last += int(p)
            if call_line:
                call_line = False
                continue
            values = [int(v) for v in fields[2:]]
            k = bisect.bisect_right(starts, last) - 1
            inside = k >= 0 and last < table[k][0] + table[k][1]
            name = demangle(table[k][2]) if inside else "(outside the kernels)"
            for e, v in enumerate(values):
                per[name][e] += v
                totals[e] += v
    return events, totals, per


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--system", default="rapture")
    parser.add_argument("--policy", default="greedy")
    parser.add_argument("--branches", action="store_true", help="simulate branch prediction")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--child", nargs=2, metavar=("TOGGLE", "SYMBOLS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        toggle, symbols = args.child
        play(args.system, args.matches, args.policy, toggle or None, symbols or None)
        return

    WORK.mkdir(exist_ok=True)
    helper = WORK / "toggle.so"
    if not helper.exists():
        (WORK / "toggle.c").write_text(HELPER)
        subprocess.run(
            ["gcc", "-O2", "-shared", "-fPIC", "-o", str(helper), str(WORK / "toggle.c")],
            check=True,
        )
    games = ROOT / "analyzer" / "games"
    sources = sorted(  # the numba cache is keyed on them; other systems' files do not count
        p
        for p in (ROOT / "analyzer").rglob("*.py")
        if p.parent == games
        or games not in p.parents
        or args.system in p.relative_to(games).parts[:1]
    )
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()[:16]
    env = {**os.environ, **CPU, "NUMBA_CACHE_DIR": str(WORK / f"cache-{args.system}-{digest}")}
    work = WORK / args.system  # one folder per system, so two systems can be counted at once
    work.mkdir(exist_ok=True)
    me = [sys.executable, __file__, "--system", args.system, "--policy", args.policy]
    subprocess.run(  # compile (or load) natively first
        [*me, "--matches", "8", "--child", "", ""], env=env, check=True, stdout=subprocess.DEVNULL
    )
    symbols = work / "symbols.map"
    out = work / "callgrind.out"
    for old in work.glob("callgrind.out*"):
        old.unlink()
    valgrind = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--instr-atstart=no"]
    valgrind += ["--dump-instr=yes", f"--callgrind-out-file={out}"]
    if args.branches:
        valgrind.append("--branch-sim=yes")
    run = subprocess.run(
        [*valgrind, *me, "--matches", str(args.matches), "--child", str(helper), str(symbols)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    activations = int(run.stdout.split("activations")[-1])
    events, totals, per = costs(next(work.glob("callgrind.out.*")), symbols)
    print(
        f"{args.system} {args.policy}, {args.matches} matches, {activations:,} activations: "
        f"{totals[0]:,} instructions, {totals[0] / activations:,.0f} per activation"
    )
    if args.branches:
        miss = events.index("Bcm")
        print(f"simulated branch misses: {totals[miss] / activations:,.0f} per activation")
    key = events.index("Bcm") if args.branches else 0
    for name, values in sorted(per.items(), key=lambda kv: -kv[1][key])[: args.top]:
        line = f"{100 * values[0] / totals[0]:6.2f}% {values[0] / activations:9,.0f}  {name}"
        if args.branches:
            line += f"   branch misses {values[miss] / activations:7,.1f}/activation"
        print(line)


if __name__ == "__main__":
    main()
