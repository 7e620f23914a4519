"""Degenesis speed against an earlier revision whose card file no longer loads with today's
``configs/degenesis/units.yaml`` (new TRAIT effects): ``bench_match_revisions.py``'s paired
runs, the base engine given the units file of its own commit (``git show REV:...``).

Run: ``python benchmarks/degenesis_bench_revisions.py --base <rev> [--policy greedy]
[--scenario S] [--matches 256] [--pairs 20]``.
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import time

from bench_match import default_sides
from bench_match_revisions import ROOT, Engine, base_folder, paired_runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True)
    parser.add_argument("--policy", default="greedy")
    parser.add_argument("--scenario", default=None)
    parser.add_argument("--matches", type=int, default=256)
    parser.add_argument("--pairs", type=int, default=20)
    args = parser.parse_args()
    folder = base_folder(args.base)
    units = folder / "degenesis_units.yaml"
    units.write_text(
        subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{args.base}:configs/degenesis/units.yaml"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    sys.path.insert(0, str(folder))
    sides = [str(p) for p in default_sides("degenesis", None, None)]
    other = args.policy if args.policy in ("greedy", "random") else "greedy"
    engines = {
        n: Engine(p, "degenesis") for n, p in (("base", "analyzer_base"), ("new", "analyzer"))
    }
    setups = {}
    t0 = time.perf_counter()
    for name, engine in engines.items():
        match = importlib.import_module(f"{engine.package}.match")
        extra = {"scenario": args.scenario} if args.scenario else {}
        setups[name] = match.prepare(
            "degenesis", *sides, units=units if name == "base" else None,
            policies=(args.policy, other), **extra,
        )  # fmt: skip
        engine.run(setups[name], 64, 1)  # compile or load, warm up
    print(f"engines ready in {time.perf_counter() - t0:.0f} s (base: {args.base})")
    paired_runs(engines, setups, args.pairs, args.matches, f"degenesis {args.policy}")


if __name__ == "__main__":
    main()
