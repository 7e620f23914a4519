"""Hybrid: strength of ``greedy_fast`` against the exact greedy on mirror match-ups.

Each list plays itself with ``first=alternate`` (the sides take Round 1's first turn in
turn), the fast greedy on side A in half of the runs and on side B in the other half, for
each seed; the fast side's wins, draws and losses are summed and its win rate among
decided games and its score (wins + draws / 2) are given with 95% Wilson intervals.

Run: ``python benchmarks/hybrid_fast_strength.py [--matches 1000] [--seeds 11 12]
[--lists griffin-patrol scorpion-example] [--scenario venom_vats]`` (one thread).
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from analyzer.match import prepare
from analyzer.match.runner import run_records

ROOT = Path(__file__).resolve().parent.parent


def wilson(k: float, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    z = 1.959964
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (mid - half, mid + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--seeds", type=int, nargs="+", default=[11, 12])
    parser.add_argument("--lists", nargs="+", default=["griffin-patrol", "scorpion-example"])
    parser.add_argument("--policy", default="greedy", help="both sides' policy")
    parser.add_argument("--scenario", default=None, help="the engine's default if not given")
    args = parser.parse_args()
    from analyzer.games.hybrid.match.engine import ENGINE

    total = [0, 0, 0]  # fast wins, draws, losses
    for name in args.lists:
        path = ROOT / "configs" / "hybrid" / "lists" / f"{name}.yaml"
        per = [0, 0, 0]
        for fast in ("a", "b"):
            options = {"greedy_fast": fast, "first": "alternate"}
            extra = {"scenario": args.scenario} if args.scenario else {}
            setup = prepare(
                "hybrid",
                path,
                path,
                policies=(args.policy, args.policy),
                options=options,
                **extra,
            )
            for seed in args.seeds:
                rec, _urec = run_records(ENGINE, setup, args.matches, seed, threads=1)
                winner = rec[:, 0]  # contract.R_WINNER: 0 draw, 1 A, 2 B
                mine = 1 if fast == "a" else 2
                w = int((winner == mine).sum())
                d = int((winner == 0).sum())
                per[0] += w
                per[1] += d
                per[2] += len(winner) - w - d
        for k in range(3):
            total[k] += per[k]
        report(name, per)
    report("all", total)


def report(name: str, wdl: list[int]) -> None:
    w, d, lo = wdl
    n = w + d + lo
    lo_w, hi_w = wilson(w, w + lo)
    score = (w + d / 2) / n
    lo_s, hi_s = wilson(w + d / 2, n)
    print(
        f"{name}: {n} matches, fast greedy wins {w}, draws {d}, losses {lo}; "
        f"win rate of decided {w / max(1, w + lo):.3f} [{lo_w:.3f}, {hi_w:.3f}], "
        f"score {score:.3f} [{lo_s:.3f}, {hi_s:.3f}]"
    )


if __name__ == "__main__":
    main()
