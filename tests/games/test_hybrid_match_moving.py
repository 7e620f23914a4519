"""Hybrid match engine: Moving Mode's six Mastery Levels ("Moving") on hand-built boards
with scripted D10s (exact outcomes), and the greedy policy's use of them."""

from __future__ import annotations

import numpy as np

from analyzer.games.hybrid.match import layout as L
from analyzer.games.hybrid.match.engine import ENGINE
from analyzer.games.hybrid.match.sandbox import Sandbox
from analyzer.match.runner import run_records
from tests.games.test_hybrid_match_rules import (
    B_SENESCHAL,
    COLOSSUS,
    HYBRID,
    KNAVE,
    SENESCHAL,
    files,  # noqa: F401  (the module's fixture)
    setup_with,
)


def fresh(files) -> Sandbox:  # noqa: F811
    return Sandbox(setup_with(files))


def test_basic_move_adds_two_squares(files) -> None:  # noqa: F811
    """ "1 / Basic Move": +2 to Movement (7 + 2 = 9 squares forward)."""
    box = fresh(files)
    box.place(HYBRID, 5, 14, "north")
    assert box.cost(HYBRID, 5, 5, "north") == 9
    assert box.move(HYBRID, 5, 5, "north") == -1  # 9 > Movement 7
    assert box.move(HYBRID, 5, 5, "north", moving=1) == 9 and box.pos(HYBRID) == (5, 5)


def test_novice_move_shoves_an_enemy_aside(files) -> None:  # noqa: F811
    """ "2 / Novice Move": straight through an enemy's square, not through one in
    Defensive Combat, nor a Titan on a large base (the Hybrid is none)."""
    box = fresh(files)
    box.place(HYBRID, 5, 10, "north")
    box.place(KNAVE, 5, 9, "south")
    assert box.move(HYBRID, 5, 7, "north", moving=2) == 3 and box.pos(HYBRID) == (5, 7)
    box.place(HYBRID, 5, 10, "north")
    plain = box.cost(HYBRID, 5, 7, "north")
    assert plain > 3  # around him without the shove
    box.place(KNAVE, 5, 9, "south", mode="dc")
    assert box.move(HYBRID, 5, 7, "north", moving=2) == plain
    box.place(KNAVE, 0, 0, "south")
    box.place(COLOSSUS, 5, 8, "south")  # squares (5..6, 8..9)
    box.place(HYBRID, 5, 10, "north")
    assert box.move(HYBRID, 5, 6, "north", moving=2) != 4


def test_skilled_move_stops_the_enemy_for_the_round(files) -> None:  # noqa: F811
    """ "3 / Skilled Move": after at least one square, entering base contact stops the
    enemy: no Movement for the rest of the Round, though he still strikes; no effect on
    a Titan on a large base."""
    box = fresh(files)
    box.place(HYBRID, 5, 12, "north")
    box.place(KNAVE, 5, 8, "south")
    assert box.move(HYBRID, 5, 9, "north", moving=3, target=KNAVE) == 3
    assert box.stopped(KNAVE) == 3
    assert any("Skilled Move stops" in ln for ln in box.lines())
    box.script([10])  # his strike: a Critical Failure
    box.activate(KNAVE)
    assert box.pos(KNAVE) == (5, 8)
    assert any("Strike at" in ln for ln in box.lines())
    box = fresh(files)
    box.place(HYBRID, 5, 12, "north")
    box.place(COLOSSUS, 5, 7, "south")
    assert box.move(HYBRID, 5, 9, "north", moving=3, target=COLOSSUS) == 3
    assert box.stopped(COLOSSUS) == 0


def test_expert_move_needs_sight_and_gives_minus_two(files) -> None:  # noqa: F811
    """ "4 / Expert Move": the target must be on the line of sight at the declaration;
    the victim is stopped and takes -2 on all Natural Rolls (the Knave's SL 4 + Prestige
    1 = 5 becomes 3: a 4 fails)."""
    box = fresh(files)
    box.place(SENESCHAL, 5, 12, "south")  # his back to the Knave: not seen
    box.place(KNAVE, 5, 8, "south")
    assert box.move(SENESCHAL, 5, 9, "north", moving=4, target=KNAVE) >= 0
    assert box.stopped(KNAVE) == 0
    box = fresh(files)
    box.place(SENESCHAL, 5, 12, "north")
    box.place(KNAVE, 5, 8, "south")
    assert box.move(SENESCHAL, 5, 9, "north", moving=4, target=KNAVE) == 3
    assert box.stopped(KNAVE) == 4
    box.script([4])
    box.strike(KNAVE, SENESCHAL, level=1)
    assert "D10 4 vs SL 3: failure" in box.lines()[-1]
    assert box.wounds(SENESCHAL) == 0


def test_master_move_minus_two_to_strikes_and_shots(files) -> None:  # noqa: F811
    """ "5 / Master Move": -2 to the SL of enemies striking or firing at him (Knave SL 5
    -> 3, Seneschal firing SL 4 + 1 -> 3: a 4 fails; without it, a 4 wounds)."""
    for mode, level, wounded in (("move", 5, 0), ("none", 0, 1)):
        box = fresh(files)
        box.place(HYBRID, 5, 8, "north", mode=mode, level=level)
        box.place(KNAVE, 5, 7, "south")
        box.script([4])
        box.strike(KNAVE, HYBRID, level=1)
        assert box.wounds(HYBRID) == wounded
        box.place(KNAVE, 0, 0, "south")
        box.place(HYBRID, 5, 8, "north", mode=mode, level=level)
        box.place(B_SENESCHAL, 5, 4, "south")
        box.script([4])
        box.fire(B_SENESCHAL, HYBRID, level=1)
        assert box.wounds(HYBRID) == wounded
        assert f"vs SL {3 if level == 5 else 5}" in box.lines()[-2 if wounded else -1]


def test_heroic_move_runs_on_at_the_end_of_the_round_unless_stopped(files) -> None:  # noqa: F811
    """ "6 / Heroic Move": at the end of the Round a further movement of his current NV
    (3) squares, here straight toward the enemy; none when stopped by Skilled Move."""
    for stopped, end in ((0, (5, 11)), (3, (5, 14))):
        box = fresh(files)
        box.place(HYBRID, 5, 14, "north", mode="move", level=6)
        box.place(KNAVE, 5, 2, "south")
        box.s[HYBRID, L.S_STOPPED] = stopped
        box.seq[:, :] = -1
        box.seq[0, 0] = HYBRID
        box.seq[1, 0] = KNAVE
        box.end_of_round_moves()
        assert box.pos(HYBRID) == end
        assert any("Heroic Move" in ln for ln in box.lines()) == (stopped == 0)


def test_greedy_stops_an_enemy_it_cannot_strike(files) -> None:  # noqa: F811
    """A warrior with no Offensive Combat (set to 0 here) closes on an enemy yet to act by
    Skilled Move (the Hybrid's Moving Mode 3) and stops him; with ``moving_levels=none``
    he does not."""
    for levels, expect in (("both", 3), ("none", 0)):
        box = Sandbox(setup_with(files, moving_levels=levels))
        box.arrays[0][HYBRID, L.F_OC] = 0
        box.place(HYBRID, 5, 12, "north")
        box.place(KNAVE, 5, 8, "south")
        box.activate(HYBRID)
        assert box.stopped(KNAVE) == expect
        if expect:
            assert box.mode(HYBRID) == L.M_MOVE and box.s[HYBRID, L.S_LEVEL] == 3


def test_moving_levels_keep_the_invariants(files) -> None:  # noqa: F811
    """Whole matches with every level available keep the invariants (no violation)."""
    setup = setup_with(files, check_invariants=True)
    rec, _ = run_records(ENGINE, setup, 30, seed=5, threads=1)
    assert np.all(rec[:, 7] == 0)
