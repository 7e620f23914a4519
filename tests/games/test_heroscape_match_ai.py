"""Heroscape match engine: the line-of-sight cache and the greedy AI's engagement."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from analyzer.games.heroscape.match import scenario as S
from analyzer.games.heroscape.match.engine import ENGINE
from analyzer.match import prepare
from analyzer.match.runner import run_records
from analyzer.paths import system_config

LISTS = system_config("heroscape", "lists")
ATTACKS = 8  # record column of the attacks per match (engine.record_extras[0])


@pytest.fixture
def sight_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(S, "SIGHT_CACHE", tmp_path)
    monkeypatch.setattr(S, "_SIGHT_MEMO", {})
    return tmp_path


def test_sight_tables_are_cached_on_disk(sight_cache: Path) -> None:
    """The tables come back the same from memory, from the disk file, and recomputed
    when the file is damaged."""
    hx = S.load_scenario("highlands").hx
    heights = (4, 5, 9)
    fresh = S._compute_sight(hx, heights)
    first = S.sight_tables(hx, heights)
    files = list(sight_cache.glob("sight-*.npy"))
    assert len(files) == 1
    assert np.array_equal(first, fresh) and first.dtype == np.int64
    first[0, 0, 1] = 7  # callers get copies: the cache is not changed through them
    assert np.array_equal(S.sight_tables(hx, heights), fresh)
    S._SIGHT_MEMO.clear()
    assert np.array_equal(S.sight_tables(hx, heights), fresh)  # from the file
    files[0].write_bytes(b"not an array")
    S._SIGHT_MEMO.clear()
    assert np.array_equal(S.sight_tables(hx, heights), fresh)  # recomputed


def test_sight_cache_keeps_the_newest_files(
    sight_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(S, "SIGHT_CACHE_FILES", 2)
    hx = S.load_scenario("open_field").hx
    for heights in ((4,), (5,), (4, 5)):
        S.sight_tables(hx, heights)
    assert len(list(sight_cache.glob("sight-*.npy"))) == 2


@pytest.mark.parametrize("scenario", ["open_field", "highlands"])
def test_greedy_melee_mirror_engages(scenario: str) -> None:
    """All-melee mirror (Utgar Warband): greedy closes in and fights.  With the former
    default threat weight 0.5 both sides held back out of reach on the open field, and
    with the threat summed over every enemy card (``threat_cards=all``, the former
    reading) on the highlands: every match a draw without a single attack."""
    lists = LISTS / "utgar_warband.yaml"
    opts = {"first": "alternate"}
    setup = prepare("heroscape", lists, lists, scenario=scenario, options=opts)
    rec, _ = run_records(ENGINE, setup, 24, 2026, threads=1)
    assert (rec[:, ATTACKS] > 0).all()
    assert (rec[:, 0] != 0).sum() >= 20  # decided (not drawn) matches


def test_threat_of_one_card_breaks_the_highlands_standoff() -> None:
    """The option matters: with the threat summed over every enemy card the highlands
    Utgar mirror never attacks (the standoff the per-card threat removed)."""
    lists = LISTS / "utgar_warband.yaml"
    opts = {"first": "alternate", "threat_cards": "all"}
    setup = prepare("heroscape", lists, lists, scenario="highlands", options=opts)
    rec, _ = run_records(ENGINE, setup, 24, 2026, threads=1)
    assert (rec[:, ATTACKS] == 0).all()


@pytest.mark.parametrize("scenario", ["open_field", "highlands", "rumble_at_the_rift"])
def test_fixed_edge_mirror_is_fair(scenario: str) -> None:
    """Symmetry with fixed edges: side A always deploys in start zone A (the engine never
    swaps zones); in a mirror (Vydar Patrol both sides) with ``first=alternate`` the
    points-of-Life margin A - B is 0 within 5 standard errors on every sample map (with
    greedy's roles against a time victory off: ``tempo`` and ``hold`` 0, so both sides play
    alike on Rumble at the Rift)."""
    lists = LISTS / "vydar_patrol.yaml"
    opts = {"first": "alternate", "tempo": 0, "hold": 0}
    setup = prepare("heroscape", lists, lists, scenario=scenario, options=opts)
    rec, _ = run_records(ENGINE, setup, 400, 2027, threads=1)
    margin = (rec[:, 1] - rec[:, 2]).astype(float)
    se = margin.std(ddof=1) / np.sqrt(margin.size)
    assert se > 0  # matches were fought, so the check can fail
    assert abs(margin.mean()) <= 5 * se
    assert (rec[:, 3] == 0).sum() == 200  # first turns alternate


def test_strong_plan_choice_is_paired_against_greedy() -> None:
    """``paired_best``: a plan replaces greedy's (row 0) only by a paired mean gain above
    ``margin`` standard errors; with margin 0, the best mean gain wins."""
    from analyzer.games.heroscape.match.engine import kernels

    M = kernels()
    noisy = np.array([[0.0, 0.0, 0.0, 0.0], [40.0, -30.0, 35.0, -25.0], [1.0, 1.0, 1.0, 1.0]])
    assert M.paired_best(noisy, 0.0) == 1  # mean gain 5 beats 1
    assert M.paired_best(noisy, 1.0) == 2  # 5 +- 18 is not 1 SE clear; 1 +- 0 is
    assert M.paired_best(-noisy, 0.0) == 0  # no plan gains: greedy's


def test_kernel_cache_depends_on_every_imported_analyzer_module() -> None:
    """Every ``analyzer`` module that ``match_nb.py`` imports is compiled into the
    kernels, so it is hashed into the cache stamp (else an edit of a shared kernel such
    as ``paired_nb`` would leave stale machine code)."""
    import ast

    from analyzer.games.heroscape.match import engine

    tree = ast.parse((engine.PACKAGE_DIR / "match_nb.py").read_text())
    imported = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("analyzer.")
    }
    root = engine.PACKAGE_DIR.parents[3]
    files = {root / (mod.replace(".", "/") + ".py") for mod in imported}
    assert root / "analyzer/match/paired_nb.py" in files
    assert files <= set(engine.kernel_sources())


def test_trace_positions_at_a_player_turn(tmp_path: Path) -> None:
    """The trace PNG's figures: after Player Turn 0 every figure stands where it was
    placed, in its own start zone; after the first turn only the revealed card's figures
    have moved; at the end the survivors stand where their last move took them."""
    from analyzer.games.heroscape.match import layout as HL
    from analyzer.games.heroscape.match import render
    from analyzer.match.runner import trace_events

    lists = LISTS / "utgar_warband.yaml"
    setup = prepare("heroscape", lists, lists, scenario="highlands")
    events, _, _ = trace_events(ENGINE, setup, 0, 2026)
    events = events[events[:, 0] > 0]
    comp = setup.extra
    hx = comp.scenario.hx
    placed = render.positions_at(events, len(comp.fig_names), 0)
    assert sorted(placed) == list(range(len(comp.fig_names)))
    assert all(hx[h, HL.H_ZONE] == comp.fig_sides[i] + 1 for i, h in placed.items())
    first = render.positions_at(events, len(comp.fig_names), 1)
    card = next(int(r[4]) for r in events if r[0] == HL.E_TURN)
    moved = {i for i in placed if first.get(i) != placed[i]}
    assert moved and all(comp.card_names[card] == comp.fig_names[i] for i in moved)
    end = render.final_positions(events, len(comp.fig_names))
    assert len(end) < len(placed)  # figures were destroyed
    out = render.render(comp.scenario, tmp_path / "turn1.png", first, comp.fig_names,
                        comp.fig_sides)  # fmt: skip
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_strong_racing_drops_only_plans_far_behind() -> None:
    """``drop_behind``: after a batch, a plan more than ``drop`` standard errors of its
    paired gain below the leader's mean gets no more rollouts; greedy's plan (row 0) and
    plans within the margin stay."""
    from analyzer.games.heroscape.match.engine import kernels

    M = kernels()
    vals = np.array(
        [
            [0.0, 10.0, -10.0, 0.0],  # greedy's plan: kept whatever it scores
            [20.0, 30.0, 10.0, 20.0],  # the leader
            [-40.0, -30.0, -50.0, -40.0],  # 60 behind, paired SE 0: dropped
            [60.0, -10.0, 30.0, -10.0],  # 2.5 behind, paired SE 19: kept at 2 SE
        ]
    )
    alive = np.ones(4, dtype=np.bool_)
    M.drop_behind(vals, alive, 4, 2.0)
    assert alive.tolist() == [True, True, False, True]
    alive[:] = True
    M.drop_behind(-vals, alive, 4, 2.0)  # now plan 2 leads: 0 is kept, 1 and 3 dropped
    assert alive.tolist() == [True, False, True, False]


def _a_wins(lists: Path, policies: tuple[str, str], n: int, seed: int, **opts) -> np.ndarray:
    setup = prepare(
        "heroscape",
        lists,
        lists,
        scenario="rumble_at_the_rift",
        options={"first": "alternate", **opts},
        policies=policies,
    )
    rec, _ = run_records(ENGINE, setup, n, seed, threads=1)
    return (rec[:, 0] == 1).astype(float)


def _gain_se(new: np.ndarray, old: np.ndarray) -> tuple[float, float]:
    gain = float(new.mean() - old.mean())
    se = float(np.sqrt(new.var(ddof=1) / new.size + old.var(ddof=1) / old.size))
    return gain, se


def test_time_victory_side_holds() -> None:
    """Rumble at the Rift: COBRA (side B) wins at the end of Round 5, so greedy B holds
    (``hold`` 1: threat x 2, no pull toward the enemy): greedy A wins clearly less often
    than against a B that plays as on an open map (``hold`` 0; 0.42 -> 0.18 measured on
    the Utgar mirror, 400 matches), here more than 3 standard errors fewer."""
    lists = LISTS / "utgar_warband.yaml"
    held = _a_wins(lists, ("greedy", "greedy"), 300, 2026, tempo=0)
    open_ = _a_wins(lists, ("greedy", "greedy"), 300, 2026, tempo=0, hold=0)
    gain, se = _gain_se(open_, held)
    assert gain > 3 * se


def test_even_targets_pursue_the_elimination() -> None:
    """Side A must destroy every COBRA figure before the end of Round 5: with every Life
    of B's figures worth the same (``even_targets``), greedy A beats random more often
    than when it prefers the most points per Life (0.60 -> 0.72 measured on the Vydar
    Patrol mirror, 400 matches), here by more than 2 standard errors."""
    lists = LISTS / "vydar_patrol.yaml"
    even = _a_wins(lists, ("greedy", "random"), 400, 7)
    points = _a_wins(lists, ("greedy", "random"), 400, 7, even_targets=False)
    gain, se = _gain_se(even, points)
    assert gain > 2 * se
