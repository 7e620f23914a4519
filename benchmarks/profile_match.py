"""Play matches under ``perf`` with the numba kernels' symbols resolved.

numba does not tell ``perf`` where its JIT code lives, so samples in the kernels show as
bare addresses. This script hooks numba's cache loader, keeps each kernel library's ELF
object as it is loaded, and writes ``/tmp/perf-<pid>.map`` (the format ``perf`` reads
for JIT code) from the objects' symbol tables and the addresses the libraries were
loaded at. Functions inlined by LLVM count towards their caller.

Run (the kernels must be in numba's cache, e.g. after one ``analyzer match``)::

    perf record -F 2999 -g -o /tmp/match.perf python benchmarks/profile_match.py \\
        [--system d20] [--policy greedy]
    perf report -i /tmp/match.perf --no-children --sort sym

Needs ``pyelftools`` (in the ``dev`` extra).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time

import numba.core.codegen as codegen
from elftools.elf.elffile import ELFFile

_LOADED: list[tuple[object, bytes]] = []


def _capture_loads() -> None:
    """Keep the object code of every library numba loads from its cache."""
    original = codegen.CPUCodeLibrary._unserialize.__func__

    def load(cls, codegen_, state):
        library = original(cls, codegen_, state)
        if state[1] == "object":
            _LOADED.append((library, state[2][0]))
        return library

    codegen.CPUCodeLibrary._unserialize = classmethod(load)


def write_perf_map() -> int:
    """``/tmp/perf-<pid>.map`` for the loaded kernel libraries; returns the symbol count."""
    rows = []
    for library, obj in _LOADED:
        symbols = ELFFile(io.BytesIO(obj)).get_section_by_name(".symtab")
        functions = [
            s
            for s in symbols.iter_symbols()
            if s["st_info"]["type"] == "STT_FUNC" and s["st_size"] > 0
        ]
        base = {}  # section -> load address minus the symbol's offset in the object
        for s in functions:
            if s["st_info"]["bind"] == "STB_GLOBAL":
                address = library.get_pointer_to_function(s.name)
                if address:
                    base[s["st_shndx"]] = address - s["st_value"]
        for s in functions:
            if s["st_shndx"] in base:
                rows.append((base[s["st_shndx"]] + s["st_value"], s["st_size"], s.name))
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        out.writelines(f"{a:x} {size:x} {name}\n" for a, size, name in rows)
    return len(rows)


def engine_setup(system: str, policy: str, list_a: str | None, list_b: str | None):
    """The engine of ``system`` and a prepared match-up: ``policy`` on side A, the same on
    side B (greedy when ``policy`` is the engine's strongest), on the benchmark's sides."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bench_match import default_sides

    from analyzer.games import match_engine
    from analyzer.match import prepare

    engine = match_engine(system)
    if policy not in engine.policies:
        raise SystemExit(f"{system} has no policy {policy!r} (policies: {engine.policies})")
    other = "greedy" if policy == engine.policies[-1] and policy != "greedy" else policy
    side_policies = getattr(engine, "side_policies", None)
    if side_policies and other not in side_policies[1]:
        other = "greedy"
    setup = prepare(system, *default_sides(system, list_a, list_b), policies=(policy, other))
    return engine, setup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", default="rapture")
    parser.add_argument("--policy", default="greedy")
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--list-a", default=None)
    parser.add_argument("--list-b", default=None)
    args = parser.parse_args()

    _capture_loads()
    from analyzer.match.runner import run_records

    engine, setup = engine_setup(args.system, args.policy, args.list_a, args.list_b)
    run_records(engine, setup, 64, 1, threads=1)  # load the kernels
    print(f"{write_perf_map()} kernel symbols in /tmp/perf-{os.getpid()}.map")
    if not _LOADED:
        print("no kernel came from numba's cache: run it once more, then profile")
    start = time.perf_counter()
    run_records(engine, setup, args.matches, 2026, threads=1)
    print(f"{args.matches / (time.perf_counter() - start):.0f} matches/s under the profiler")


if __name__ == "__main__":
    main()
