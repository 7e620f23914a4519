"""Degenesis policy ladder: mission success (95% Wilson CI) for every pair of policies
(OPERATIVES x HOSTILE: random, greedy, rollout) on each bundled mission, the corebox
ROSTER against the Cockroach nest (sample data).

Run: ``python benchmarks/degenesis_ladder.py [--matches N] [--rollout-matches M]``.
"""

from __future__ import annotations

import argparse
import time

from analyzer.games import match_engine
from analyzer.games.degenesis.match import compile as C
from analyzer.match import prepare
from analyzer.match.runner import run_records
from analyzer.stats import wilson_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--rollout-matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    engine = match_engine("degenesis")
    roster, hostile = engine.sample_sides()
    print(f"{'mission':20s} {'operatives':>10s} {'hostile':>8s} {'n':>5s}  success [95% CI]")
    for mission in C.bundled_missions():
        for pa in engine.policies:
            for pb in engine.policies:
                setup = prepare("degenesis", roster, hostile, policies=(pa, pb), scenario=mission)
                n = args.rollout_matches if "rollout" in (pa, pb) else args.matches
                start = time.perf_counter()
                rec, _ = run_records(engine, setup, n, args.seed)
                wins = int((rec[:, 0] == 1).sum())
                lo, hi = wilson_interval(wins, n)
                rate = n / (time.perf_counter() - start)
                print(f"{mission:20s} {pa:>10s} {pb:>8s} {n:5d}  {100 * wins / n:5.1f}% "
                      f"[{100 * lo:5.1f}, {100 * hi:5.1f}]  ({rate:.0f}/s)")  # fmt: skip


if __name__ == "__main__":
    main()
