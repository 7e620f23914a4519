"""Digests of Heroscape match records over maps, lists and policies (bit-identity check).

Pure speed or compile changes must leave every digest unchanged; run before and after:
``python benchmarks/heroscape_digest.py [--matches 200]``.  Each line is one
configuration (map, side A list, side B list, policies) and the SHA-256 of its records.
"""

from __future__ import annotations

import argparse
import hashlib
import time

from analyzer import paths
from analyzer.games import match_engine
from analyzer.match import prepare
from analyzer.match.runner import run_records

CONFIGS = [
    ("open_field", "vydar_patrol", "utgar_warband", "greedy", "greedy"),
    ("open_field", "rumble_at_the_rift", "utgar_warband", "random", "greedy"),
    ("highlands", "utgar_warband", "utgar_warband", "greedy", "greedy"),
    ("highlands", "rumble_at_the_rift", "vydar_patrol", "greedy", "random"),
    ("rumble_at_the_rift", "vydar_patrol", "vydar_patrol", "greedy", "greedy"),
    ("rumble_at_the_rift", "rumble_at_the_rift", "utgar_warband", "greedy", "greedy"),
    ("rumble_at_the_rift", "utgar_warband", "rumble_at_the_rift", "random", "random"),
]
STRONG = [("open_field", "vydar_patrol", "utgar_warband", "strong", "greedy")]


def digest(scenario: str, a: str, b: str, pa: str, pb: str, matches: int, seed: int) -> str:
    folder = paths.system_config("heroscape", "lists")
    setup = prepare(
        "heroscape",
        str(folder / f"{a}.yaml"),
        str(folder / f"{b}.yaml"),
        policies=(pa, pb),
        scenario=scenario,
        options={"strong_rollouts": 4} if "strong" in (pa, pb) else {},
    )
    rec, urec = run_records(match_engine("heroscape"), setup, matches, seed, threads=1)
    h = hashlib.sha256(rec.tobytes())
    h.update(urec.tobytes())
    return h.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--strong", type=int, default=4, help="matches of the strong config")
    args = parser.parse_args()
    for cfg in CONFIGS:
        t0 = time.perf_counter()
        d = digest(*cfg, args.matches, args.seed)
        print(" ".join(cfg), d, f"({time.perf_counter() - t0:.1f} s)", flush=True)
    for cfg in STRONG:
        print(" ".join(cfg), digest(*cfg, args.strong, args.seed), flush=True)


if __name__ == "__main__":
    main()
