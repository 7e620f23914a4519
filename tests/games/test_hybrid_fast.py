"""Hybrid match engine: greedy's fast search (option ``greedy_fast``).

:func:`match_nb.estimate` must be a lower bound of the exact Movement costs
(:func:`match_nb.reach`) of every anchor and facing, and :func:`match_nb.astar` must give
the exact least cost of its goal (or none beyond its limit) with a path of parents back to
where the warrior stands; the fast greedy must keep greedy's strength (fixed seeds, SE
tolerances)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from analyzer.games.hybrid.match import layout as L
from analyzer.games.hybrid.match import match_nb as M
from analyzer.games.hybrid.match.engine import ENGINE
from analyzer.games.hybrid.match.sandbox import Sandbox
from analyzer.match import prepare
from analyzer.match.runner import run_records
from analyzer.paths import system_config

LISTS = system_config("hybrid", "lists")
GRIFFIN = LISTS / "griffin-patrol.yaml"
SCORPION = LISTS / "scorpion-example.yaml"


def scatter(box: Sandbox, rng: np.random.Generator) -> None:
    """Every warrior on a random free spot of the board (his whole base), random facing."""
    fi, mp = box.arrays[0], box.arrays[1]
    h, w = mp.shape
    for i in range(fi.shape[0]):
        z = int(fi[i, L.F_SIZE])
        for _ in range(500):
            x = int(rng.integers(0, w - z + 1))
            y = int(rng.integers(0, h - z + 1))
            sq = mp[y : y + z, x : x + z]
            if np.isin(sq, (L.C_WALL, L.C_COLUMN, L.C_LOCKED)).any():
                continue
            if box.occ[y : y + z, x : x + z].any():
                continue
            box.place(i, x, y, L.FACING_NAMES[int(rng.integers(0, 4))])
            break


@pytest.mark.parametrize("scenario", ["laboratory_skirmish", "venom_vats"])
def test_estimate_bounds_and_astar_matches_reach(scenario: str) -> None:
    setup = prepare("hybrid", GRIFFIN, SCORPION, scenario=scenario)
    rng = np.random.default_rng(7)
    checked = 0
    for _trial in range(12):
        box = Sandbox(setup)
        scatter(box, rng)
        fi, mp, _obj, sc, _tab = box.arrays
        h, w = mp.shape
        nb = np.zeros(M.MAXB, dtype=np.int64)
        for i in range(fi.shape[0]):
            if box.s[i, L.S_ALIVE] == 0:
                continue
            budget = 9
            z = int(fi[i, L.F_SIZE])
            M.reach(fi, mp, box.cell, sc, box.s, box.occ, box.wk, nb, i, budget, 0, 0)
            exact = {}
            for y in range(h - z + 1):
                for x in range(w - z + 1):
                    for f in range(4):
                        exact[(x, y, f)] = int(M.cost_to(box.wk, w, x, y, f)[0])
            M.estimate(fi, mp, box.cell, sc, box.s, box.occ, box.wk, nb, i, budget)
            for (x, y, f), c in exact.items():
                if c <= budget:
                    assert int(M.cost_to(box.wk, w, x, y, f)[0]) <= c, (i, x, y, f)
            x0, y0 = int(box.s[i, L.S_X]), int(box.s[i, L.S_Y])
            start = int(M.sidx(w, x0, y0, box.s[i, L.S_FACE], 0))
            for (x, y, f), c in exact.items():
                if abs(x - x0) > 4 or abs(y - y0) > 4 or (x + y + f) % 3 != 0:
                    continue  # a sample of the goals near him
                goal = int(M.sidx(w, x, y, f, 0))
                for limit in (5, budget):
                    cost, st = M.astar(fi, sc, box.s, box.wk, nb, i, goal, limit)
                    if c <= limit:
                        assert (cost, st // M.NFLAG) == (c, goal // M.NFLAG), (i, x, y, f)
                        par = box.wk[M.W_PAR].view(np.int32)
                        k, n = st, 0
                        while par[k] >= 0 and n < 64:
                            k, n = int(par[k]), n + 1
                        assert k == start  # a path back to where he stands
                    else:
                        assert st < 0
                    checked += 1
    assert checked > 500


def score(rec: np.ndarray, side: int) -> float:
    winner = rec[:, 0]
    return float(((winner == side + 1).sum() + 0.5 * (winner == 0).sum()) / len(winner))


def test_fast_greedy_keeps_greedy_strength() -> None:
    """The fast greedy against the exact one on a mirror (first turn alternating, fast on
    side A then on side B): the score within 4 standard errors of 0.5; against random
    at least 0.90."""
    n = 600
    total = 0.0
    for fast, side in (("a", 0), ("b", 1)):
        setup = prepare(
            "hybrid", GRIFFIN, GRIFFIN, options={"greedy_fast": fast, "first": "alternate"}
        )
        rec, _u = run_records(ENGINE, setup, n, 31, threads=1)
        total += score(rec, side)
    mean = total / 2
    assert abs(mean - 0.5) < 4 * math.sqrt(0.25 / (2 * n))
    setup = prepare(
        "hybrid",
        SCORPION,
        SCORPION,
        policies=("greedy", "random"),
        options={"greedy_fast": "a", "first": "alternate"},
    )
    rec, _u = run_records(ENGINE, setup, 200, 32, threads=1)
    assert score(rec, 0) >= 0.90


def test_strong_side_plays_the_exact_greedy_in_its_rollouts() -> None:
    """``greedy_fast`` leaves a strong side alone: it ranks the exact greedy's plans and
    its own warriors play the exact greedy in its rollouts, so setting its side's bit
    changes nothing (``a`` = ``none``, ``both`` = ``b``), while the greedy enemy's bit
    does change the records.  40 matches: the code before the fix (fast rollouts for the
    strong side) gives records different from ``none`` here, which 6 matches did not."""

    def records(fast: str) -> tuple[np.ndarray, np.ndarray]:
        setup = prepare(
            "hybrid",
            GRIFFIN,
            GRIFFIN,
            policies=("strong", "greedy"),
            options={"greedy_fast": fast, "first": "alternate", "lookahead_rollouts": 2},
        )
        return run_records(ENGINE, setup, 40, 41, threads=1)

    none, a, b, both = (records(f) for f in ("none", "a", "b", "both"))
    assert all(np.array_equal(x, y) for x, y in zip(none, a, strict=True))
    assert all(np.array_equal(x, y) for x, y in zip(b, both, strict=True))
    assert not np.array_equal(none[0], b[0]) or not np.array_equal(none[1], b[1])
