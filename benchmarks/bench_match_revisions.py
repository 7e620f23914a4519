"""Match-engine speed of the working tree against an earlier git revision, in one process.

These machines are shared and noisy: two runs of the same code minutes apart can differ
by 30%. So both engines run in the same process, alternating short runs of the same
matches, and the figure is the median of the paired ratios (with its quartiles).

The older revision's ``analyzer`` package is exported with ``git archive`` into a
temporary folder and renamed ``analyzer_base`` (its imports rewritten), so both can be
imported side by side; its kernels compile once into that folder's numba cache (about
80 s). Results of the two engines are compared as well: "identical" means the same
records for every seed of the run.

Run: ``python benchmarks/bench_match_revisions.py --base <rev> [--policy greedy]
[--matches 256] [--pairs 20]``.
"""

from __future__ import annotations

import argparse
import importlib
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

import numpy as np

from analyzer import paths

ROOT = Path(__file__).resolve().parent.parent
LISTS = paths.system_config("rapture", "lists")


def export_base(rev: str, folder: Path) -> None:
    """``analyzer`` at ``rev`` as the package ``analyzer_base`` in ``folder``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", rev, "analyzer"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    (folder / "analyzer").rename(folder / "analyzer_base")
    (folder / "configs").symlink_to(ROOT / "configs")
    for path in (folder / "analyzer_base").rglob("*.py"):
        text = path.read_text()
        text = re.sub(r"\banalyzer\.", "analyzer_base.", text)
        text = re.sub(r"\bfrom analyzer import\b", "from analyzer_base import", text)
        path.write_text(text)


class Engine:
    """One revision's Rapture engine behind the same two calls, old API or new.

    Revisions before the shared match framework expose ``prepare`` / ``run_records`` in
    ``games.rapture.match`` and write the kernel's own record layout; later ones go
    through ``analyzer.match`` and the contract's layout, turned back into the kernel's
    with ``engine.rapture_layout`` so that records compare column for column.
    """

    def __init__(self, package: str) -> None:
        self.package = package
        self.old = hasattr(importlib.import_module(f"{package}.games.rapture.match"), "run_records")

    def prepare(self, list_a: str, list_b: str, policies: tuple[str, str]) -> object:
        if self.old:
            old = importlib.import_module(f"{self.package}.games.rapture.match")
            options = old.MatchOptions(policy_a=policies[0], policy_b=policies[1])
            return old.prepare(list_a, list_b, options=options)
        match = importlib.import_module(f"{self.package}.match")
        return match.prepare("rapture", list_a, list_b, policies=policies)

    def run(self, setup: object, matches: int, seed: int) -> tuple[np.ndarray, np.ndarray, int]:
        """Records in the kernel's layout and the activations played."""
        if self.old:
            old = importlib.import_module(f"{self.package}.games.rapture.match")
            rec, urec = old.run_records(setup, matches, seed, threads=1)
            return rec, urec, int(rec[:, old.match_nb.R_ACTIVATIONS].sum())
        runner = importlib.import_module(f"{self.package}.match.runner")
        engine = importlib.import_module(f"{self.package}.games.rapture.match.engine")
        rec, urec = runner.run_records(engine.ENGINE, setup, matches, seed, threads=1)
        own, own_u = engine.rapture_layout(rec, urec)
        return own, own_u, int(rec[:, 6].sum())  # contract.R_ACTIVATIONS


def paired_runs(engines: dict, setups: dict, pairs: int, matches: int, label: str) -> None:
    """Play ``pairs`` alternating runs of ``matches`` on one thread with the ``base`` and
    ``new`` engines (each with ``run(setup, matches, seed) -> (rec, urec, activations)``)
    and print the median paired speed-up of the time per activation, wall and CPU time of
    the thread, with quartiles, and whether the records were identical."""
    ratios: list[float] = []
    cpu_ratios: list[float] = []
    per_act: dict[str, list[float]] = {"base": [], "new": []}
    cpu_per_act: dict[str, list[float]] = {"base": [], "new": []}
    identical = True
    for k in range(pairs):
        order = ("base", "new") if k % 2 == 0 else ("new", "base")
        records = {}
        for name in order:
            start = time.perf_counter()
            cpu_start = time.thread_time()  # one thread: the matches run on this one
            rec, urec, activations = engines[name].run(setups[name], matches, 1000 + k)
            cpu = time.thread_time() - cpu_start
            wall = time.perf_counter() - start
            per_act[name].append(1e6 * wall / activations)
            cpu_per_act[name].append(1e6 * cpu / activations)
            records[name] = (rec, urec)
        ratios.append(per_act["base"][-1] / per_act["new"][-1])
        cpu_ratios.append(cpu_per_act["base"][-1] / cpu_per_act["new"][-1])
        identical &= all(
            np.array_equal(a, b) for a, b in zip(records["base"], records["new"], strict=True)
        )
    q1, median, q3 = statistics.quantiles(ratios, n=4)
    print(
        f"{label}: base {statistics.median(per_act['base']):.2f} us/activation, "
        f"new {statistics.median(per_act['new']):.2f} us/activation; speed-up "
        f"{median:.3f}x (quartiles {q1:.3f}-{q3:.3f}, {pairs} pairs of "
        f"{matches} matches, one thread)"
    )
    q1, median, q3 = statistics.quantiles(cpu_ratios, n=4)
    print(
        f"{label}, CPU time of the thread (leaves out time the virtual machine's host "
        f"took the core away): speed-up {median:.3f}x (quartiles {q1:.3f}-{q3:.3f})"
    )
    print("records:", "identical" if identical else "different (the engines play differently)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="git revision to compare against")
    parser.add_argument("--policy", default="greedy", choices=("greedy", "random", "lookahead"))
    parser.add_argument("--matches", type=int, default=256, help="matches per run")
    parser.add_argument("--pairs", type=int, default=20, help="pairs of runs")
    parser.add_argument("--list-a", default=str(LISTS / "angels_vanguard.yaml"))
    parser.add_argument("--list-b", default=str(LISTS / "survivors_snipers.yaml"))
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="analyzer_base_"))
    export_base(args.base, folder)
    sys.path.insert(0, str(folder))
    engines = {"base": Engine("analyzer_base"), "new": Engine("analyzer")}
    other = "greedy" if args.policy == "lookahead" else args.policy
    setups = {}
    t0 = time.perf_counter()
    for name, engine in engines.items():
        setups[name] = engine.prepare(args.list_a, args.list_b, (args.policy, other))
        engine.run(setups[name], 64, 1)  # compile or load, warm up
    print(f"engines ready in {time.perf_counter() - t0:.0f} s (base: {args.base})")

    paired_runs(engines, setups, args.pairs, args.matches, args.policy)


if __name__ == "__main__":
    main()
