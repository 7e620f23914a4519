"""d20 strength measurements on the sample mirror lists (``--first alternate``).

``python benchmarks/d20_ab.py SPEC N [SEED] [only=list,list] [scenarios=a,b] [search=S]``

SPEC ``fast``: greedy with ``greedy_search=fast`` against greedy with ``full`` (per
side: ``S_FAST + side``; each side fast in half of the matches); ``random``: greedy
against random; ``lookahead``: lookahead against greedy (each side in half).  Prints the
score of the first named player (win 1, draw 1/2) with its 95% Wilson CI per mirror
list and scenario, and pooled; ``search`` (fast, the engine's default since the sixth
round, or full) is the greedy search of both sides in ``random`` and ``lookahead``.

``python benchmarks/d20_ab.py speed PAIRS [SEED] [matches=256]``: greedy vs greedy with
``greedy_search=fast`` against ``full`` on the benchmark's default lists, in one process
on one thread, alternating runs of the same matches: the median paired speed-up (full's
time over fast's) per match and per activation, wall and thread CPU time, with quartiles
and the load average.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import numpy as np

from analyzer import paths
from analyzer.games.d20.match import layout as L
from analyzer.games.d20.match.engine import ENGINE
from analyzer.match import contract as C
from analyzer.match import prepare
from analyzer.match.runner import run_records
from analyzer.stats import wilson_interval

LISTS = ["chronos_strike_team", "genetic_hunters", "trooper_section"]
SCENARIOS = ["border_skirmish", "virus_raid"]


def side_file(name: str) -> str:
    return str(paths.system_config("d20", "lists") / f"{name}.yaml")


def score(rec: np.ndarray, side: int) -> float:
    """Wins plus half the draws of ``side`` (0: A, 1: B)."""
    win = rec[:, C.R_WINNER]
    return float((win == side + 1).sum() + 0.5 * (win == 0).sum())


def half(spec: str, name: str, scenario: str, n: int, seed: int, first: int, search: str) -> float:
    """The score of SPEC's first player in ``n`` matches where it plays side ``first``
    (``search``: the greedy search of both sides for ``random`` and ``lookahead``)."""
    f = side_file(name)
    opts = {"first": "alternate", "greedy_search": search}
    if spec == "fast":
        setup = prepare("d20", f, f, policies=("greedy", "greedy"), options=opts, scenario=scenario)
        sc = setup.arrays[3]
        sc[L.S_FAST + first] = 1.0
        sc[L.S_FAST + 1 - first] = 0.0
    else:
        strong, weak = ("greedy", "random") if spec == "random" else ("lookahead", "greedy")
        pols = (strong, weak) if first == 0 else (weak, strong)
        setup = prepare("d20", f, f, policies=pols, options=opts, scenario=scenario)
    rec, _ = run_records(ENGINE, setup, n, seed + first, threads=2)
    return score(rec, first)


def ladder(
    spec: str, n: int, seed: int, only: list[str], scenarios: list[str], search: str
) -> None:
    tot = 0.0
    cnt = 0
    for name in only:
        for scen in scenarios:
            s = half(spec, name, scen, n // 2, seed, 0, search)
            s += half(spec, name, scen, n - n // 2, seed, 1, search)
            lo, hi = wilson_interval(s, n)
            print(f"{spec} {name} mirror, {scen}: {s / n:.3f} [{lo:.3f}, {hi:.3f}] ({n} matches)")
            tot += s
            cnt += n
    lo, hi = wilson_interval(tot, cnt)
    print(f"{spec} pooled: {tot / cnt:.3f} [{lo:.3f}, {hi:.3f}] ({cnt} matches)", flush=True)


def speed(pairs: int, seed: int, matches: int) -> None:
    """Paired timing of fast against full greedy search (see the module docstring)."""
    a = side_file("chronos_strike_team")
    b = side_file("genetic_hunters")
    setups = {k: prepare("d20", a, b, options={"greedy_search": k}) for k in ("fast", "full")}
    for setup in setups.values():
        run_records(ENGINE, setup, 16, seed, threads=1)
    ratio: dict[str, list[float]] = {"match": [], "cpu_match": [], "act": [], "cpu_act": []}
    acts = {"fast": 0, "full": 0}
    load = [os.getloadavg()[0]]
    for p in range(pairs):
        t: dict[str, tuple[float, float, int]] = {}
        for k in ("fast", "full") if p % 2 == 0 else ("full", "fast"):
            w0, c0 = time.perf_counter(), time.thread_time()
            rec, _ = run_records(ENGINE, setups[k], matches, seed + p, threads=1)
            w1, c1 = time.perf_counter(), time.thread_time()
            na = int(rec[:, C.R_ACTIVATIONS].sum())
            t[k] = (w1 - w0, c1 - c0, na)
            acts[k] += na
        ratio["match"].append(t["full"][0] / t["fast"][0])
        ratio["cpu_match"].append(t["full"][1] / t["fast"][1])
        per = t["fast"][2] / t["full"][2]  # activations of fast per activation of full
        ratio["act"].append(t["full"][0] / t["fast"][0] * per)
        ratio["cpu_act"].append(t["full"][1] / t["fast"][1] * per)
        load.append(os.getloadavg()[0])
    print(
        f"{pairs} pairs of {matches} matches, one thread, load {min(load):.1f}-{max(load):.1f}; "
        f"activations per match: fast {acts['fast'] / (pairs * matches):.2f}, "
        f"full {acts['full'] / (pairs * matches):.2f}"
    )
    for key, label in (
        ("match", "per match, wall"),
        ("cpu_match", "per match, thread CPU"),
        ("act", "per activation, wall"),
        ("cpu_act", "per activation, thread CPU"),
    ):
        q = statistics.quantiles(ratio[key], n=4)
        print(
            f"fast over full {label}: {statistics.median(ratio[key]):.3f}x "
            f"(quartiles {q[0]:.3f}-{q[2]:.3f})"
        )


def main() -> None:
    args = [a for a in sys.argv[1:] if "=" not in a]
    kw = dict(a.split("=", 1) for a in sys.argv[1:] if "=" in a)
    spec = args[0]
    n = int(args[1])
    seed = int(args[2]) if len(args) > 2 else 2026
    if spec == "speed":
        speed(n, seed, int(kw.get("matches", 256)))
        return
    if spec not in ("fast", "random", "lookahead"):
        raise SystemExit(f"unknown spec {spec!r} (fast, random, lookahead, speed)")
    only = kw["only"].split(",") if "only" in kw else LISTS
    scenarios = kw["scenarios"].split(",") if "scenarios" in kw else SCENARIOS
    ladder(spec, n, seed, only, scenarios, kw.get("search", "fast"))


if __name__ == "__main__":
    main()
