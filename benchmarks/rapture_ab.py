"""Rapture strength ladder on the six sample mirror lists (``--first alternate``).

``python benchmarks/rapture_ab.py SPEC N [SEED] [only=list,list] [option=value ...]``

SPEC ``winprob`` / ``woundkill`` / ``both``: greedy with the option(s) against greedy
without (per side, each side with them in half of the matches); ``fast`` / ``nearest``:
greedy's fast / nearest search against its full search (``greedy_search``, per side);
``search`` with ``a=3 b=2``: greedy with ``greedy_search`` value a (``compile.SEARCHES``:
0 full, 1 fast, 2 nearest, 3 lazy) against value b;
``random``: greedy against random; ``lookahead``: lookahead against greedy (each side in
half).  Prints the score of the first named player (win 1, draw 1/2) with its 95% Wilson
CI per list.

``python benchmarks/rapture_ab.py speed PAIRS [SEED] [matches=256] [variant=1] [base=0]``:
greedy vs greedy with ``greedy_search`` value variant (1 fast, 2 nearest, 3 lazy) against
value base (0 full) on the benchmark's default lists, in one process on one thread,
alternating runs of the same matches: the median paired speed-up (base's time over the
variant's; printed as "fast" and "full") per match and per activation, wall and thread CPU
time, with quartiles and the load average.
"""

from __future__ import annotations

import math
import os
import statistics
import sys
import time

import numpy as np

from analyzer import paths
from analyzer.games.rapture.match import engine as E
from analyzer.games.rapture.match import layout as L
from analyzer.match import contract as C
from analyzer.match import prepare
from analyzer.match.runner import run_records

LISTS = [
    "angels_band",
    "angels_vanguard",
    "icnun_hunters",
    "icnun_raiders",
    "survivors_patrol",
    "survivors_snipers",
]
SLOTS = {
    "winprob": [L.O_AI_WINPROB0],
    "woundkill": [L.O_AI_WOUNDKILL0],
    "both": [L.O_AI_WINPROB0, L.O_AI_WOUNDKILL0],
    "fast": [L.O_AI_FAST0],
    "nearest": [L.O_AI_FAST0],
}
#: the value written into the scored player's slots (the other side's get 0: ``full``
#: for ``fast`` and ``nearest``, i.e. ``greedy_search`` 1 and 2 against 0)
VALUES = {"nearest": 2}
SEARCH = [2, 0]


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def quartiles(xs: list[float]) -> str:
    q = statistics.quantiles(xs, n=4)
    return f"{statistics.median(xs):.3f}x (quartiles {q[0]:.3f}-{q[2]:.3f})"


def speed(pairs: int, seed: int, matches: int, variant: int = 1, base: int = 0) -> None:
    """Paired timing of fast against full greedy search (see the module docstring);
    ``variant`` is the value of the fast search's slots (1: ``greedy_search=fast``)."""
    from bench_match import default_sides

    a, b = default_sides("rapture")
    setups = {k: prepare("rapture", a, b, options={"greedy_search": k}) for k in ("fast", "full")}
    setups["fast"].arrays[5][L.O_AI_FAST0 : L.O_AI_FAST0 + 2] = variant
    setups["full"].arrays[5][L.O_AI_FAST0 : L.O_AI_FAST0 + 2] = base
    for k in setups:  # compile or load the kernels before timing
        run_records(E.ENGINE, setups[k], 64, seed, threads=1)
    ratio: dict[str, list[float]] = {"match": [], "act": [], "cpu_match": [], "cpu_act": []}
    acts = {"fast": 0, "full": 0}
    for p in range(pairs):
        t: dict[str, tuple[float, float, int]] = {}
        for k in ("fast", "full") if p % 2 == 0 else ("full", "fast"):
            w0, c0 = time.perf_counter(), time.thread_time()
            rec, _ = run_records(E.ENGINE, setups[k], matches, seed + p, threads=1)
            t[k] = (
                time.perf_counter() - w0,
                time.thread_time() - c0,
                int(rec[:, C.R_ACTIVATIONS].sum()),
            )
            acts[k] += t[k][2]
        ratio["match"].append(t["full"][0] / t["fast"][0])
        ratio["cpu_match"].append(t["full"][1] / t["fast"][1])
        per = t["fast"][2] / t["full"][2]  # activations of fast per activation of full
        ratio["act"].append(t["full"][0] / t["fast"][0] * per)
        ratio["cpu_act"].append(t["full"][1] / t["fast"][1] * per)
    print(f"{pairs} pairs of {matches} matches, load {os.getloadavg()}")
    print(f"per match: wall {quartiles(ratio['match'])}, CPU {quartiles(ratio['cpu_match'])}")
    print(f"per activation: wall {quartiles(ratio['act'])}, CPU {quartiles(ratio['cpu_act'])}")
    print(
        f"activations per match: fast {acts['fast'] / (pairs * matches):.2f}, "
        f"full {acts['full'] / (pairs * matches):.2f}"
    )


def main() -> None:
    spec, n = sys.argv[1], int(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 2026
    extra: dict[str, object] = dict(a.split("=", 1) for a in sys.argv[4:])
    extra = {k: int(v) if isinstance(v, str) and v.isdigit() else v for k, v in extra.items()}
    only = extra.pop("only", "")
    if spec == "speed":
        speed(
            n,
            seed,
            int(extra.pop("matches", 256)),
            int(extra.pop("variant", 1)),
            int(extra.pop("base", 0)),
        )
        return
    SEARCH[:] = [int(extra.pop("a", 2)), int(extra.pop("b", 0))]
    opts = {"first": "alternate", **extra}
    for name in [x for x in LISTS if not only or x in only.split(",")]:
        f = paths.system_config("rapture", "lists") / f"{name}.yaml"
        t0 = time.time()
        scores = []
        for flip in (0, 1):  # flip 1: the scored player is side B
            if spec == "search":  # greedy_search value a against b (layout.O_AI_FAST0)
                setup = prepare("rapture", f, f, options=opts)
                setup.arrays[5][L.O_AI_FAST0 + flip] = SEARCH[0]
                setup.arrays[5][L.O_AI_FAST0 + 1 - flip] = SEARCH[1]
            elif spec in SLOTS:
                setup = prepare("rapture", f, f, options=opts)
                for slot in SLOTS[spec]:
                    setup.arrays[5][slot + flip] = VALUES.get(spec, 1)  # OPT, per side
                    setup.arrays[5][slot + 1 - flip] = 0
            else:
                first, other = ("greedy", "random") if spec == "random" else (spec, "greedy")
                pols = (other, first) if flip else (first, other)
                setup = prepare("rapture", f, f, policies=pols, options=opts)
            rec, _ = run_records(E.ENGINE, setup, n // 2, seed + flip, threads=2)
            w = rec[:, C.R_WINNER]
            scores.append(np.where(w == 0, 0.5, np.where(w == 1 + flip, 1.0, 0.0)))
        s = np.concatenate(scores)
        p = float(s.mean())
        lo, hi = wilson(p, len(s))
        rate = len(s) / (time.time() - t0)
        print(f"{name:18s} {p:.3f} [{lo:.3f}, {hi:.3f}] n={len(s)} {rate:.0f}/s", flush=True)


if __name__ == "__main__":
    main()
