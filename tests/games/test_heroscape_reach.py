"""``reach`` of single-space figures from bit sets (``reach_bits`` and ``walk_prev``) gives
what the space-by-space expansion (``reach_scan``) gives: the same costs, the same spaces
reached and, to every destination, the same path (its leaving engagement attacks and falls
follow the path)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from analyzer import paths
from analyzer.games.heroscape import units as hu
from analyzer.games.heroscape.match import layout as L
from analyzer.games.heroscape.match.engine import kernels
from analyzer.games.heroscape.match.sandbox import Sandbox
from analyzer.match import prepare
from tests.games.test_heroscape_match_rules import EXTRA_CARDS, TEST_MAP, box

W_COST, W_PREV, W_SEEN = 0, 1, 18  # match_nb's wk rows


def _path(wk: np.ndarray, start: int, h: int) -> list[int]:
    out = [h]
    while out[-1] != start:
        out.append(int(wk[W_PREV, out[-1]]))
        assert len(out) <= wk.shape[1]
    return out


def _compare(sb: Sandbox, rng: np.random.Generator, trials: int) -> int:
    """Random placements of the single-space figures; returns the spaces compared."""
    M = kernels()
    st, m = sb.arrays, sb.m
    hx, fi = st[0], st[4]
    s, occ, wk = m[0], m[1], m[8]
    nh = hx.shape[0]
    nw = (nh + 63) // 64
    singles = np.flatnonzero(fi[:, L.F_DOUBLE] == 0)
    free = np.flatnonzero(hx[:, L.H_OBSTACLE] <= 0)
    compared = 0
    for _ in range(trials):
        occ[:] = -1
        s[:, L.S_ALIVE] = 0
        s[:, L.S_HEX] = -1
        s[:, L.S_TAIL] = -1
        placed = rng.choice(free, size=len(singles), replace=False)
        for i, h in zip(singles, placed, strict=True):
            s[i, L.S_ALIVE] = 1
            s[i, L.S_HEX] = h
            occ[h] = i
        for i in singles:
            start = int(s[i, L.S_HEX])
            assert M.reach_scan(st, m, i) == start
            cost = wk[W_COST, :nh].copy()
            seen = wk[W_SEEN, : 2 * nw].copy()
            prev = wk[W_PREV, :nh].copy()
            assert M.reach_bits(st, m, i) == start
            np.testing.assert_array_equal(wk[W_COST, :nh], cost)
            np.testing.assert_array_equal(wk[W_SEEN, : 2 * nw], seen)
            if fi[i, L.F_POWERS] & L.P_FLYING:
                continue  # a flyer's path is not used (move_to)
            for h in np.flatnonzero(cost <= fi[i, L.F_MOVE]):
                if h == start:
                    continue
                wk[W_PREV, :nh] = -7
                M.walk_prev(st, m, i, h)
                got = _path(wk, start, int(h))
                wk[W_PREV, :nh] = prev
                assert got == _path(wk, start, int(h))
                compared += 1
    return compared


@pytest.mark.parametrize("scenario", ["open_field", "highlands", "rumble_at_the_rift"])
def test_reach_bits_equals_the_scan_on_the_shipped_maps(scenario: str) -> None:
    folder = paths.system_config("heroscape", "lists")
    setup = prepare(
        "heroscape",
        str(folder / "vydar_patrol.yaml"),
        str(folder / "utgar_warband.yaml"),
        policies=("greedy", "greedy"),
        scenario=scenario,
    )
    n = _compare(Sandbox(setup), np.random.default_rng(17), 12)
    assert n > 500


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("hs_reach")
    (d / "test_map.yaml").write_text(TEST_MAP)
    (d / "units.yaml").write_text(hu.UNITS_FILE.read_text() + EXTRA_CARDS)
    return d


def test_reach_bits_equals_the_scan_on_the_rule_test_field(files: Path) -> None:
    """Levels 1-6, water, toxic water, molten lava, a wall, an overhang (gap 4) and
    Power Glyphs; walkers, swimmers, flyers and squads."""
    sb = box(
        files,
        ["Test Flyer", "Test Grenadier", "Gelryie Vanguards", "Scarlett"],
        ["Test Stealth", "Feral Troll", "Agent SI-4X", "Elites of Ullar"],
    )
    n = _compare(sb, np.random.default_rng(5), 40)
    assert n > 200
