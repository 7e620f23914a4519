"""Hybrid: greedy with engine options (``--opt``, default none: the working tree's
defaults) against an earlier revision's greedy with its own (``--base-opt``, default none:
that revision's defaults), paired in one process (``bench_match_revisions.py``'s runs;
that script passes no options).

When the two play differently (e.g. ``greedy_fast=both`` against a revision whose default
was the exact greedy) the records differ on purpose, so the figure to quote is the
speed-up per match as well as per activation; with the same play on both sides (e.g.
``--base-opt greedy_fast=both`` against the fast default) "identical" is printed.

Run: ``python benchmarks/hybrid_fast_ab.py --base 5ae4372 [--opt greedy_fast=both]
[--base-opt greedy_fast=both] [--matches 256] [--pairs 12]``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time

from bench_match import default_sides
from bench_match_revisions import Engine, base_folder, paired_runs


class OptEngine(Engine):
    """An :class:`Engine` whose setups are compiled with the given engine options."""

    def __init__(self, package: str, system: str, options: dict[str, str]) -> None:
        super().__init__(package, system)
        self.options = options

    def prepare(self, side_a, side_b, policies, scenario):  # type: ignore[no-untyped-def]
        match = importlib.import_module(f"{self.package}.match")
        extra = {"scenario": scenario} if scenario else {}
        return match.prepare(
            self.system, side_a, side_b, policies=policies, options=self.options, **extra
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True)
    parser.add_argument("--opt", action="append", default=None, help="KEY=VALUE (new only)")
    parser.add_argument("--base-opt", action="append", default=None, help="KEY=VALUE (base)")
    parser.add_argument("--policy", default="greedy")
    parser.add_argument("--matches", type=int, default=256)
    parser.add_argument("--pairs", type=int, default=12)
    parser.add_argument("--scenario", default=None, help="the engine's default if not given")
    args = parser.parse_args()
    options = dict(kv.split("=", 1) for kv in (args.opt or []))
    base_options = dict(kv.split("=", 1) for kv in (args.base_opt or []))
    sides = [str(path) for path in default_sides("hybrid")]
    sys.path.insert(0, str(base_folder(args.base)))
    engines = {
        "base": OptEngine("analyzer_base", "hybrid", base_options),
        "new": OptEngine("analyzer", "hybrid", options),
    }
    setups = {}
    t0 = time.perf_counter()
    for name, engine in engines.items():
        setups[name] = engine.prepare(*sides, (args.policy, "greedy"), args.scenario)
        engine.run(setups[name], 64, 1)
    print(
        f"engines ready in {time.perf_counter() - t0:.0f} s "
        f"(base: {args.base} {base_options}, new: {options})"
    )
    where = f" on {args.scenario}" if args.scenario else ""
    label = f"hybrid {args.policy}{where} base {base_options} new {options}"
    paired_runs(engines, setups, args.pairs, args.matches, label)


if __name__ == "__main__":
    main()
