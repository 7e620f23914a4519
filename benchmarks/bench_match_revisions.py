"""Match-engine speed of the working tree against an earlier git revision, in one process,
for any engine (``--system``, default rapture).

These machines are shared and noisy: two runs of the same code minutes apart can differ
by 30%. So both engines run in the same process, alternating short runs of the same
matches, and the figure is the median of the paired ratios (with its quartiles) of the
time per activation, wall and CPU time of the thread.

The older revision's ``analyzer`` package is exported with ``git archive`` into
``/tmp/analyzer_base_<commit>`` and renamed ``analyzer_base`` (its imports rewritten), so
both can be imported side by side; its kernels compile once into that folder's numba
cache, which the next run against the same commit reuses. Results of the two engines are
compared as well: "identical" means the same records for every seed of the run.

Run: ``python benchmarks/bench_match_revisions.py --base <rev> [--system rapture]
[--policy greedy] [--scenario S] [--matches 256] [--pairs 20]``.
"""

from __future__ import annotations

import argparse
import importlib
import re
import statistics
import subprocess
import sys
import tarfile
import time
from io import BytesIO
from pathlib import Path

import numpy as np
from bench_match import default_sides

ROOT = Path(__file__).resolve().parent.parent


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


def base_folder(rev: str) -> Path:
    """The exported ``analyzer_base`` of ``rev`` (by its commit hash), exported once."""
    sha = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", rev], check=True, capture_output=True, text=True
    ).stdout.strip()
    folder = Path(f"/tmp/analyzer_base_{sha[:12]}")
    if not (folder / "analyzer_base").is_dir():
        folder.mkdir(exist_ok=True)
        export_base(sha, folder)
    return folder


class Engine:
    """One revision's match engine of ``system`` behind the same two calls.

    Rapture revisions before the shared match framework expose ``prepare`` /
    ``run_records`` in ``games.rapture.match`` and write the kernel's own record layout;
    later ones go through ``analyzer.match``, and their contract records are turned back
    into the kernel's with ``engine.rapture_layout`` so that records compare column for
    column with the old ones.
    """

    def __init__(self, package: str, system: str) -> None:
        self.package = package
        self.system = system
        own = importlib.import_module(f"{package}.games.{system}.match")
        self.old = system == "rapture" and hasattr(own, "run_records")

    def prepare(
        self, side_a: str, side_b: str, policies: tuple[str, str], scenario: str | None
    ) -> object:
        if self.old:
            old = importlib.import_module(f"{self.package}.games.rapture.match")
            options = old.MatchOptions(policy_a=policies[0], policy_b=policies[1])
            return old.prepare(side_a, side_b, options=options)
        match = importlib.import_module(f"{self.package}.match")
        extra = {"scenario": scenario} if scenario else {}
        return match.prepare(self.system, side_a, side_b, policies=policies, **extra)

    def run(self, setup: object, matches: int, seed: int) -> tuple[np.ndarray, np.ndarray, int]:
        """The records (Rapture: in the kernel's layout) and the activations played."""
        if self.old:
            old = importlib.import_module(f"{self.package}.games.rapture.match")
            rec, urec = old.run_records(setup, matches, seed, threads=1)
            return rec, urec, int(rec[:, old.match_nb.R_ACTIVATIONS].sum())
        runner = importlib.import_module(f"{self.package}.match.runner")
        module = importlib.import_module(f"{self.package}.games.{self.system}.match.engine")
        rec, urec = runner.run_records(module.ENGINE, setup, matches, seed, threads=1)
        activations = int(rec[:, 6].sum())  # contract.R_ACTIVATIONS
        if self.system == "rapture":
            rec, urec = module.rapture_layout(rec, urec)
        return rec, urec, activations


def paired_runs(engines: dict, setups: dict, pairs: int, matches: int, label: str) -> None:
    """Play ``pairs`` alternating runs of ``matches`` on one thread with the ``base`` and
    ``new`` engines (each with ``run(setup, matches, seed) -> (rec, urec, activations)``)
    and print the median paired speed-up of the time per activation, wall and CPU time of
    the thread, with quartiles, the speed-up per match (the one to quote when the records
    differ: a change of play changes the activations per match too), and whether the
    records were identical."""
    ratios: list[float] = []
    cpu_ratios: list[float] = []
    match_ratios: list[float] = []
    run_wall: dict[str, float] = {}
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
            run_wall[name] = wall
            records[name] = (rec, urec)
        ratios.append(per_act["base"][-1] / per_act["new"][-1])
        match_ratios.append(run_wall["base"] / run_wall["new"])
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
    q1, median, q3 = statistics.quantiles(match_ratios, n=4)
    print(f"{label}, per match (wall): speed-up {median:.3f}x (quartiles {q1:.3f}-{q3:.3f})")
    print("records:", "identical" if identical else "different (the engines play differently)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="git revision to compare against")
    parser.add_argument("--system", default="rapture")
    parser.add_argument(
        "--policy", default="greedy", help="side A's policy; side B plays greedy or random"
    )
    parser.add_argument("--scenario", default=None, help="the engine's default if not given")
    parser.add_argument("--matches", type=int, default=256, help="matches per run")
    parser.add_argument("--pairs", type=int, default=20, help="pairs of runs")
    parser.add_argument("--list-a", default=None, help="side A's file (default: the sample)")
    parser.add_argument("--list-b", default=None, help="side B's file (default: the sample)")
    args = parser.parse_args()

    sides = [str(path) for path in default_sides(args.system, args.list_a, args.list_b)]
    sys.path.insert(0, str(base_folder(args.base)))
    engines = {
        name: Engine(package, args.system)
        for name, package in (("base", "analyzer_base"), ("new", "analyzer"))
    }
    other = args.policy if args.policy in ("greedy", "random") else "greedy"
    setups = {}
    t0 = time.perf_counter()
    for name, engine in engines.items():
        setups[name] = engine.prepare(*sides, (args.policy, other), args.scenario)
        engine.run(setups[name], 64, 1)  # compile or load, warm up
    print(f"engines ready in {time.perf_counter() - t0:.0f} s (base: {args.base})")
    where = f" on {args.scenario}" if args.scenario else ""
    paired_runs(engines, setups, args.pairs, args.matches, f"{args.system} {args.policy}{where}")


if __name__ == "__main__":
    main()
