"""Hybrid: the published strength figures (README "Hybrid matches", docs/match-results.md)
at the working tree's defaults, each with its 95% Wilson interval.

Every figure is a mirror (each list against itself) with ``first=alternate`` on each
bundled scenario, side A's score (wins + draws / 2):

- ``random``: greedy vs random (400 matches, seed 2026), also with ``action_cards=true``;
- ``cards``: greedy vs greedy with ``action_cards=true`` (2,000, seed 2026);
- ``mirror``: greedy vs greedy, side A always in its own zone (the boards are turned onto
  themselves, so this is the fixed-edge mirror; 4,000, seed 2026): score and NV margin of
  A with its standard error;
- ``strong``: strong vs greedy (400, seed 11);
- ``invariants``: ``check_invariants`` over greedy vs greedy and random vs random (1,000
  each, seed 5): violations counted.

Run: ``python benchmarks/hybrid_figures.py [random cards mirror strong invariants]
[--threads 2] [--opt KEY=VALUE ...]`` (all parts if none is named).
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np

from analyzer.match import prepare
from analyzer.match.runner import run_records
from analyzer.stats import wilson_interval

ROOT = Path(__file__).resolve().parent.parent
LISTS = ("griffin-patrol", "scorpion-example")
SCENARIOS = ("laboratory_skirmish", "venom_vats")


def records(
    name: str,
    scenario: str,
    policies: tuple[str, str],
    n: int,
    seed: int,
    threads: int,
    options: dict[str, object],
) -> np.ndarray:
    from analyzer.games.hybrid.match.engine import ENGINE

    path = ROOT / "configs" / "hybrid" / "lists" / f"{name}.yaml"
    setup = prepare(
        "hybrid",
        path,
        path,
        policies=policies,
        options={"first": "alternate", **options},
        scenario=scenario,
    )
    rec, _urec = run_records(ENGINE, setup, n, seed, threads=threads)
    return rec


def line(label: str, rec: np.ndarray, margin: bool = False) -> str:
    winner = rec[:, 0]
    n = len(winner)
    w = int((winner == 1).sum())
    d = int((winner == 0).sum())
    score = (w + d / 2) / n
    lo, hi = wilson_interval(w + d / 2, n)
    text = f"{label}: {score:.3f} [{lo:.3f}, {hi:.3f}] ({n} matches, wins {w}, draws {d})"
    if margin:
        m = (rec[:, 1] - rec[:, 2]).astype(float)
        text += f"; NV margin of A {m.mean():+.2f}, SE {m.std(ddof=1) / math.sqrt(n):.2f}"
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", default=[])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--opt", action="append", default=None, help="KEY=VALUE")
    parser.add_argument("--scale", type=float, default=1.0, help="matches x this")
    args = parser.parse_args()
    parts = args.parts or ["random", "cards", "mirror", "strong", "invariants"]
    opts: dict[str, object] = dict(kv.split("=", 1) for kv in (args.opt or []))
    t = args.threads

    def n(k: int) -> int:
        return max(2, int(k * args.scale))

    for part in parts:
        t0 = time.perf_counter()
        for sc in SCENARIOS:
            for name in LISTS:
                tag = f"{part} {name} {sc}"
                if part == "random":
                    rec = records(name, sc, ("greedy", "random"), n(400), 2026, t, opts)
                    print(line(f"greedy vs random {tag}", rec), flush=True)
                    cards = {**opts, "action_cards": True}
                    rec = records(name, sc, ("greedy", "random"), n(400), 2026, t, cards)
                    print(line(f"greedy vs random, action cards, {tag}", rec), flush=True)
                elif part == "cards":
                    cards = {**opts, "action_cards": True}
                    rec = records(name, sc, ("greedy", "greedy"), n(2000), 2026, t, cards)
                    print(line(f"greedy mirror, action cards, {tag}", rec), flush=True)
                elif part == "mirror":
                    rec = records(name, sc, ("greedy", "greedy"), n(4000), 2026, t, opts)
                    print(line(f"greedy fixed-edge mirror {tag}", rec, True), flush=True)
                elif part == "strong":
                    rec = records(name, sc, ("strong", "greedy"), n(400), 11, t, opts)
                    print(line(f"strong vs greedy {tag}", rec, True), flush=True)
                elif part == "invariants":
                    chk = {**opts, "check_invariants": True}
                    for pols in (("greedy", "greedy"), ("random", "random")):
                        rec = records(name, sc, pols, n(1000), 5, t, chk)
                        bad = int(rec[:, 7].sum())  # contract.R_VIOLATIONS
                        print(f"invariants {pols} {tag}: {len(rec)} matches, {bad} violations")
                else:
                    raise SystemExit(f"unknown part {part!r}")
        print(f"({part}: {time.perf_counter() - t0:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
