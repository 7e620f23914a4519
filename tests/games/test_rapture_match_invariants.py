"""Rapture match engine: invariants over thousands of matches, determinism, fairness, AI.

The engine checks its invariants after every action when asked (``check_invariants``):
AP/RP never negative, round limits, at most one activation per unit and round, no
overlapping bases, removed units have no models left, victory points add up (recounted
from the casualties' credits, bonuses and missions).  Any violation is counted per match.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from analyzer import paths
from analyzer.games.rapture.match import layout as L
from analyzer.games.rapture.match.engine import ENGINE, EXTRA_COLUMN
from analyzer.match import contract as C
from analyzer.match import play_matches, prepare
from analyzer.match.runner import run_records
from analyzer.stats import wilson_interval

LISTS = paths.system_config("rapture", "lists")
ROOT = paths.PROJECT_ROOT


def _setup(a: str, b: str, pa: str, pb: str, scenario: str | None = None, **kw: object):
    return prepare(
        "rapture",
        LISTS / f"{a}.yaml",
        LISTS / f"{b}.yaml",
        policies=(pa, pb),
        scenario=scenario,
        options={"check_invariants": True, **kw},
    )


def _records(setup, n: int, seed: int, threads: int | None = 2):
    return run_records(ENGINE, setup, n, seed=seed, threads=threads)


CREDIT = C.N_UNIT_STANDARD  # the unit extra "credit": the side credited with its VP


@pytest.mark.parametrize(
    ("a", "b", "scenario", "n"),
    [
        ("angels_vanguard", "icnun_hunters", None, 1500),
        ("survivors_patrol", "angels_band", "crossroads", 1000),
        ("icnun_raiders", "survivors_snipers", "river", 1000),
    ],
)
def test_random_matches_keep_the_invariants(a: str, b: str, scenario: str | None, n: int) -> None:
    setup = _setup(a, b, "random", "random", scenario)
    rec, urec = _records(setup, n, seed=11, threads=2)
    assert rec[:, C.R_VIOLATIONS].sum() == 0
    rounds = rec[:, C.R_ROUNDS]
    assert rounds.min() >= 1 and rounds.max() <= L.LAST_ROUND
    ended_by_rounds = rec[:, C.R_END] == L.END_ROUNDS
    assert np.all(rounds[ended_by_rounds] == L.LAST_ROUND)
    # a wiped-out side has no unit left on the battlefield at the end
    sides = np.array([u.side for u in setup.units])
    for code, side in ((L.END_WIPEOUT_A, 0), (L.END_WIPEOUT_B, 1)):
        rows = rec[:, C.R_END] == code
        assert np.all(urec[rows][:, sides == side, C.U_STATUS] != 0)
    assert np.all(rec[:, C.R_SCORE_A] >= 0) and np.all(rec[:, C.R_SCORE_B] >= 0)
    # every disabled unit was credited to the opponent or to nobody, never to its own side
    credit = urec[:, :, CREDIT]
    assert np.all((credit == -1) | (credit == 1 - sides[None, :]))


def test_greedy_and_lookahead_matches_keep_the_invariants() -> None:
    setup = _setup("angels_vanguard", "survivors_patrol", "greedy", "greedy", "crossroads")
    rec, _ = _records(setup, 600, seed=3, threads=2)
    assert rec[:, C.R_VIOLATIONS].sum() == 0
    setup = _setup(
        "icnun_hunters",
        "angels_band",
        "lookahead",
        "greedy",
        lookahead_k=3,
        lookahead_depth=2,
        lookahead_rollouts=1,
    )
    rec, _ = _records(setup, 24, seed=3, threads=2)
    assert rec[:, C.R_VIOLATIONS].sum() == 0
    assert rec[:, EXTRA_COLUMN["actions"]].min() > 0


_THREADS_SCRIPT = textwrap.dedent(
    """
    import hashlib
    from analyzer import paths
    from analyzer.games.rapture.match.engine import ENGINE
    from analyzer.match import prepare
    from analyzer.match.runner import run_records
    lists = paths.system_config("rapture", "lists")
    setup = prepare("rapture", lists / "survivors_snipers.yaml", lists / "angels_vanguard.yaml",
                    policies=("greedy", "random"))
    rec, urec = run_records(ENGINE, setup, 256, seed=21)
    print(hashlib.sha256(rec.tobytes() + urec.tobytes()).hexdigest())
    """
)


def test_numba_num_threads_does_not_change_results() -> None:
    digests = []
    for threads in ("1", "2"):
        env = {**os.environ, "NUMBA_NUM_THREADS": threads, "PYTHONPATH": str(ROOT)}
        out = subprocess.run(
            [sys.executable, "-c", _THREADS_SCRIPT],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
        digests.append(out.stdout.strip().splitlines()[-1])
    assert digests[0] == digests[1]


def test_mirror_match_is_even() -> None:
    # sides swap deployment edges every other match and the first activation follows the
    # rules (ties rolled off): A and B must win equally often.  A 99% Wilson interval (the
    # seed is fixed, so the test is deterministic; a fair engine fails a 95% test at one
    # seed in twenty).
    setup = _setup("survivors_patrol", "survivors_patrol", "greedy", "greedy")
    rec, _ = _records(setup, 3000, seed=2026, threads=2)
    wins_a = int((rec[:, C.R_WINNER] == 1).sum())
    decisive = int((rec[:, C.R_WINNER] != 0).sum())
    lo, hi = wilson_interval(wins_a, decisive, z=2.5758293035489)
    assert lo <= 0.5 <= hi, (wins_a, decisive)
    assert decisive > 1000


@pytest.mark.parametrize("scenario", [None, "crossroads", "river"])
def test_fixed_edge_mirror_has_no_vp_margin(scenario: str | None) -> None:
    # "Deploy Your Battlegroups": deployment is drawn in each side's own frame (B's is A's
    # turned 180 degrees), so with the edges fixed a mirror match has no edge bias: the
    # VP margin A - B is 0 within its 95% interval (fixed seed: deterministic).  Before
    # the fix the squad-mates were offset in board coordinates: margin about -4 VP.
    # 16,000 matches over four seeds (4,000 at seed 2027 until 2026-12-08: with
    # ``greedy_search=lazy`` that one sample gave +2.27 VP, SE 1.01, on generated terrain,
    # while seeds 2028-2030 gave +0.28, -1.06 and -0.76; a 95% test of one sample fails
    # one fair engine in twenty).
    setup = _setup(
        "survivors_patrol",
        "survivors_patrol",
        "greedy",
        "greedy",
        scenario,
        swap_edges=False,
        first="alternate",
    )
    margins = []
    for seed in (2027, 2028, 2029, 2030):
        rec, _ = _records(setup, 4000, seed=seed, threads=2)
        assert not rec[:, C.R_VIOLATIONS].any()
        margins.append((rec[:, C.R_SCORE_A] - rec[:, C.R_SCORE_B]).astype(float))
    d = np.concatenate(margins)
    se = d.std(ddof=1) / np.sqrt(len(d))
    assert abs(d.mean()) <= 1.96 * se, (d.mean(), se)


def test_alternate_first_crosses_edges() -> None:
    # first=alternate (A first in even matches) with swap_edges: the edges swap every
    # second pair of matches, so every 4 matches play each (first player, edge) pairing once
    setup = _setup("angels_vanguard", "angels_vanguard", "random", "random", first="alternate")
    rec, _ = _records(setup, 64, seed=3, threads=1)
    k = np.arange(64)
    assert np.array_equal(rec[:, C.R_FIRST], k % 2)
    assert np.array_equal(rec[:, EXTRA_COLUMN["edges_swapped"]], (k // 2) % 2)
    # other first modes keep the swap in odd matches
    rec, _ = _records(_setup("angels_vanguard", "angels_vanguard", "random", "random"), 8, 3)
    assert np.array_equal(rec[:, EXTRA_COLUMN["edges_swapped"]], np.arange(8) % 2)


def test_result_object_and_json() -> None:
    res = play_matches(
        "rapture",
        LISTS / "angels_band.yaml",
        LISTS / "icnun_hunters.yaml",
        matches=200,
        seed=1,
        scenario="river",
        threads=2,
    )
    doc = json.loads(json.dumps(res.to_dict()))
    total = sum(doc["results"][k]["count"] for k in ("a_wins", "draws", "b_wins"))
    assert total == 200
    lo, hi = doc["results"]["a_wins"]["ci95"]
    assert lo <= doc["results"]["a_wins"]["rate"] <= hi
    assert sum(doc["end_reasons"].values()) == 200
    assert {u["unit"] for u in doc["units"]} >= {"Danai", "Kyenar"}
    assert doc["invariant_violations"] == 0
    assert doc["score"]["name"] == "VP"
    extras = doc["extras"]
    assert sum(m["drawn"] for m in extras["missions"]) == 2 * 200
    assert 0 <= extras["bonus_30"]["a"]["rate"] <= 1 and extras["actions_mean"] > 0


def test_views_compiled_with_fixed_extents_reject_an_array_of_another_shape() -> None:
    """The views fix the layout's column counts as constants; a context whose arrays have
    other extents is refused instead of being read with the wrong strides."""
    from numba import njit

    from analyzer.games.rapture.match import context_nb as ctx

    @njit
    def check(X):  # type: ignore[no-untyped-def]
        ctx.check_extents(X)

    X = np.zeros(ctx.X_SIZE, dtype=np.int64)
    for k in range(ctx.N_ARRAYS):
        for d in range(6):
            if ctx.FIXED[k, d] >= 0:
                X[ctx.SLOT * k + 1 + d] = ctx.FIXED[k, d]
    check(X)
    X[ctx.SLOT * ctx.K_MI + 2] = L.MI_COLS + 1
    with pytest.raises(ValueError, match="layout's shape"):
        check(X)
