"""Calls per activation between the kernels, from the last ``count_instructions.py`` run.

``count_instructions.py --system d20`` leaves callgrind's output (``--dump-instr=yes``) and
the kernels' symbol table in ``$TMPDIR/analyzer_callgrind/d20/``; this script reads the
``calls=`` lines of that output, names caller and callee by the symbol table and prints the
calls per activation of each pair, most frequent first (e.g. ``best_move -> sight``).
Calls LLVM inlined do not appear.  Any system's folder can be read with ``--system``.

Run: ``python benchmarks/count_instructions.py --system d20`` first, then
``python benchmarks/d20_callgraph.py [--activations N] [--top 40]`` (``N``: the
activations that run printed, for the per-activation figures).
"""

from __future__ import annotations

import argparse
import bisect
import collections
import re
import tempfile
from pathlib import Path


def symbols(path: Path) -> tuple[list[int], list[tuple[int, int, str]]]:
    table = []
    for line in path.read_text().splitlines():
        addr, size, name = line.split(None, 2)
        table.append((int(addr, 16), int(size, 16), name.strip()))
    table.sort()
    return [t[0] for t in table], table


def short(name: str) -> str:
    m = re.search(r"match_nb\d+(\w+?)B\d", name)
    return m.group(1) if m else name[:40]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", default="d20")
    parser.add_argument("--activations", type=int, default=1)
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    work = Path(tempfile.gettempdir()) / "analyzer_callgrind" / args.system
    starts, table = symbols(work / "symbols.map")

    def name_of(addr: int) -> str | None:
        k = bisect.bisect_right(starts, addr) - 1
        if k >= 0 and addr < table[k][0] + table[k][1]:
            return short(table[k][2])
        return None

    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    last = 0
    pending: tuple[int, int | None] | None = None
    with next(work.glob("callgrind.out.*")).open() as out:
        for line in out:
            if line.startswith("calls="):
                fields = line.split()
                target = fields[1]
                pending = (int(fields[0][6:]), int(target, 16) if target.startswith("0x") else None)
                continue
            if line and line[0] in "0123456789+-*":
                pos = line.split()[0]
                if pos.startswith("0x"):
                    last = int(pos, 16)
                elif pos[0] in "+-":
                    last += int(pos)
                if pending is not None:
                    n, target_addr = pending
                    pending = None
                    if target_addr is not None:
                        callee, caller = name_of(target_addr), name_of(last)
                        if callee and caller:
                            counts[(caller, callee)] += n
    for (caller, callee), n in counts.most_common(args.top):
        print(f"{n / args.activations:9.2f}  {caller} -> {callee}")


if __name__ == "__main__":
    main()
