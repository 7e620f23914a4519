"""d20 match-engine speed of the working tree against an earlier git revision, in one process.

The d20 counterpart of ``bench_match_revisions.py`` (which plays Rapture): the older
revision's ``analyzer`` is exported as ``analyzer_base`` (``export_base``), both engines
play the same matches in alternating short runs on one thread, and the figure is the
median of the paired ratios of the time per activation (with its quartiles), wall and
CPU time of the thread.  "identical" means the same match and unit records for every
seed of the run.

The export is kept in ``/tmp/d20_base_<rev>`` so that its numba cache (a cold compile,
about a minute) is reused by the next run against the same revision.

Run: ``python benchmarks/bench_d20_revisions.py --base <rev> [--policy greedy]
[--scenario border_skirmish] [--matches 512] [--pairs 20]``.
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from bench_match_revisions import ROOT, export_base, paired_runs

from analyzer import paths

LISTS = paths.system_config("d20", "lists")


def base_folder(rev: str) -> Path:
    """The exported ``analyzer_base`` of ``rev`` (by its commit hash), exported once."""
    sha = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", rev], check=True, capture_output=True, text=True
    ).stdout.strip()
    folder = Path(f"/tmp/d20_base_{sha[:12]}")
    if not (folder / "analyzer_base").is_dir():
        folder.mkdir(exist_ok=True)
        export_base(sha, folder)
    return folder


class Engine:
    """One revision's d20 engine through the match framework."""

    def __init__(self, package: str) -> None:
        self.match = importlib.import_module(f"{package}.match")
        self.runner = importlib.import_module(f"{package}.match.runner")
        self.engine = importlib.import_module(f"{package}.games.d20.match.engine").ENGINE

    def prepare(self, list_a: str, list_b: str, policies: tuple[str, str], scenario: str):
        return self.match.prepare("d20", list_a, list_b, policies=policies, scenario=scenario)

    def run(self, setup: object, matches: int, seed: int) -> tuple[np.ndarray, np.ndarray, int]:
        """The records and the activations played."""
        rec, urec = self.runner.run_records(self.engine, setup, matches, seed, threads=1)
        return rec, urec, int(rec[:, 6].sum())  # contract.R_ACTIVATIONS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="git revision to compare against")
    parser.add_argument("--policy", default="greedy", choices=("greedy", "random", "lookahead"))
    parser.add_argument("--scenario", default="border_skirmish")
    parser.add_argument("--matches", type=int, default=512, help="matches per run")
    parser.add_argument("--pairs", type=int, default=20, help="pairs of runs")
    parser.add_argument("--list-a", default=str(LISTS / "chronos_strike_team.yaml"))
    parser.add_argument("--list-b", default=str(LISTS / "genetic_hunters.yaml"))
    args = parser.parse_args()

    sys.path.insert(0, str(base_folder(args.base)))
    engines = {"base": Engine("analyzer_base"), "new": Engine("analyzer")}
    other = "greedy" if args.policy == "lookahead" else args.policy
    setups = {}
    t0 = time.perf_counter()
    for name, engine in engines.items():
        setups[name] = engine.prepare(args.list_a, args.list_b, (args.policy, other), args.scenario)
        engine.run(setups[name], 16, 1)  # compile or load, warm up
    print(f"engines ready in {time.perf_counter() - t0:.0f} s (base: {args.base})")

    paired_runs(engines, setups, args.pairs, args.matches, f"{args.policy} on {args.scenario}")


if __name__ == "__main__":
    main()
