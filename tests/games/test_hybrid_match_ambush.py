"""Hybrid match engine: Skilled Firing ambushes ("3 / Skilled Firing"),
Infiltration/X's end-of-Round move and closing doors on hand-built boards with scripted D10s (exact
outcomes)."""

from __future__ import annotations

from analyzer.games.hybrid.match import layout as L
from analyzer.games.hybrid.match.sandbox import Sandbox
from tests.games.test_hybrid_match_rules import (
    B_HYBRID,
    B_SENESCHAL,
    HYBRID,
    KNAVE,
    SENESCHAL,
    SNIPER,
    board,
    files,  # noqa: F401  (the module's fixture)
    setup_with,
    write,
)

L_SHOOTER = B_SENESCHAL


def _board(files, rows: list[str]):  # noqa: F811
    return write(files["tmp"], "doors.yaml", board(rows))


def fresh(files) -> Sandbox:  # noqa: F811
    return Sandbox(setup_with(files))


def test_skilled_firing_needs_no_enemy_in_sight(files) -> None:  # noqa: F811
    """Skilled Firing only with no opponent on the line of sight; counters are numbered
    in the order the ambushes are declared."""
    box = fresh(files)
    box.place(SENESCHAL, 11, 12, "north")
    box.place(KNAVE, 11, 8, "south")  # in front, 4 squares: seen
    assert box.ambush(SENESCHAL) == 0 and box.in_ambush(SENESCHAL) == 0
    box.place(KNAVE, 11, 15, "north")  # behind him: not seen
    assert box.ambush(SENESCHAL) == 1
    box.place(SNIPER, 1, 14, "north")
    assert box.ambush(SNIPER) == 2
    assert box.mode(SENESCHAL) == L.M_FIRE


def test_ambush_fires_at_an_enemy_coming_into_view_and_a_miss_ends_it(files) -> None:  # noqa: F811
    """The Hybrid walks south from (7, 0) and comes into the Seneschal's view on (7, 4):
    one D10 at SL 5 (NV 4 + Combined Weapon 1); a 2 wounds him without killing, so the
    Seneschal leaves Skilled Firing and the Hybrid walks on."""
    box = fresh(files)
    box.place(SENESCHAL, 11, 12, "north")
    box.place(B_HYBRID, 7, 0, "south")
    assert box.ambush(SENESCHAL) == 1
    box.script([2])
    assert box.move(B_HYBRID, 7, 6, "south") == 6
    assert box.wounds(B_HYBRID) == 1 and box.pos(B_HYBRID) == (7, 6)
    assert box.in_ambush(SENESCHAL) == 0 and box.dice_used() == 1
    text = "\n".join(box.lines())
    assert "ambush" in text and "leaves Skilled Firing (missed)" in text


def test_first_counter_fires_first_and_a_kill_keeps_the_ambush(files) -> None:  # noqa: F811
    """Two ambushers see the Hybrid at once on (7, 4): counter #1 (the Sniper) fires
    first and misses (9 vs SL 6) and leaves; #2 (the Seneschal) fires at the same
    target, kills him (2 vs SL 5, his third wound) and stays in ambush."""
    box = fresh(files)
    box.place(SNIPER, 1, 14, "north")
    box.place(SENESCHAL, 11, 12, "north")
    box.place(B_HYBRID, 7, 0, "south", wounds=2)
    assert box.ambush(SNIPER) == 1 and box.ambush(SENESCHAL) == 2
    box.script([9, 2])
    assert box.move(B_HYBRID, 7, 5, "south") == 5  # Movement 7 less two wounds
    assert not box.alive(B_HYBRID) and box.dice_used() == 2
    assert box.in_ambush(SNIPER) == 0 and box.in_ambush(SENESCHAL) == 2
    shots = [r for r in box.events() if r[0] == L.E_SHOT]
    assert [int(r[3]) for r in shots] == [SNIPER, SENESCHAL]
    assert not (box.occ == B_HYBRID + 1).any()  # off the board where he fell


def test_an_enemy_ending_in_contact_ends_the_ambush(files) -> None:  # noqa: F811
    """An enemy who ends his movement in base contact removes the counter (from behind:
    no shot)."""
    box = fresh(files)
    box.place(SENESCHAL, 11, 12, "north")
    box.place(KNAVE, 11, 15, "north")
    assert box.ambush(SENESCHAL) == 1
    box.move(KNAVE, 11, 13, "north")
    assert box.in_ambush(SENESCHAL) == 0 and box.dice_used() == 0
    assert "an enemy in base contact" in "\n".join(box.lines())


def test_a_wound_ends_the_ambush(files) -> None:  # noqa: F811
    box = fresh(files)
    box.place(SENESCHAL, 11, 12, "north")
    box.place(B_HYBRID, 11, 13, "north")  # behind him, in contact: no ambush then
    assert box.ambush(SENESCHAL) == 0
    box.place(B_HYBRID, 10, 12, "east")  # beside him, in contact
    assert box.ambush(SENESCHAL) == 0
    box.place(B_HYBRID, 11, 15, "north")
    assert box.ambush(SENESCHAL) == 1
    box.place(B_HYBRID, 11, 13, "north")
    box.script([2])
    box.strike(B_HYBRID, SENESCHAL, 1)
    assert box.wounds(SENESCHAL) == 1 and box.in_ambush(SENESCHAL) == 0


def test_infiltration_moves_in_offensive_combat_and_strikes(files) -> None:  # noqa: F811
    """Infiltration/3 at the end of the Round in the state of the activation (Offensive
    Combat): the Hybrid walks 3 squares into contact behind the enemy and strikes him
    from the rear (a 1: Perfect Success); the Aptitude is then lost (the FAQ)."""
    box = fresh(files)
    box.arrays[0][B_HYBRID, L.F_INFILTRATION] = 3
    box.place(B_HYBRID, 5, 5, "south", mode="oc")
    box.place(HYBRID, 5, 9, "south")  # his back to the infiltrator: he does not see him
    box.seq[1, 0] = B_HYBRID
    box.g[L.G_FIRST] = 1
    box.script([1, 1, 1, 1])
    box.infiltration_moves()
    assert box.pos(B_HYBRID) == (5, 8) and box.facing(B_HYBRID) == "south"
    assert box.wounds(HYBRID) >= 2
    assert box.s[B_HYBRID, L.S_INFIL_LOST] == 1
    strikes = [r for r in box.events() if r[0] == L.E_STRIKE]
    assert strikes and int(strikes[0][10]) & 1  # from the rear
    box.place(B_HYBRID, 5, 5, "south", mode="oc")
    box.infiltration_moves()  # lost: no more moves
    assert box.pos(B_HYBRID) == (5, 5)


def test_infiltration_without_a_strike_walks_toward_the_enemy_until_seen(files) -> None:  # noqa: F811
    """Out of Offensive Combat the move goes X squares toward the enemy; coming into an
    enemy's line of sight loses the Aptitude for the rest of the game."""
    box = fresh(files)
    box.arrays[0][B_HYBRID, L.F_INFILTRATION] = 3
    box.place(B_HYBRID, 5, 0, "south")
    box.place(HYBRID, 5, 12, "north")  # facing him, 12 squares away: out of sight range
    box.seq[1, 0] = B_HYBRID
    box.g[L.G_FIRST] = 1
    box.infiltration_moves()
    assert box.pos(B_HYBRID)[1] == 3  # 3 squares nearer: 9 away, still unseen
    assert box.s[B_HYBRID, L.S_INFIL_LOST] == 0
    box.infiltration_moves()
    assert box.pos(B_HYBRID)[1] == 6 and box.s[B_HYBRID, L.S_INFIL_LOST] == 1
    box.infiltration_moves()
    assert box.pos(B_HYBRID)[1] == 6


def test_greedy_closes_a_door_that_hides_him_from_a_shooter(files) -> None:  # noqa: F811
    """ "Opening and closing doors": 1 Movement closes an opened door beside the warrior;
    greedy does it when the door hides him from an enemy shooter; not without Movement
    left, nor a door a Titan smashed."""
    rows = ["." * 16] * 8 + ["#######D########"] + ["." * 16] * 7
    box = Sandbox(setup_with(files, _board(files, rows)))
    box.place(SENESCHAL, 7, 9, "north")
    box.place(L_SHOOTER, 7, 4, "south")
    box.cell[8, 7] = 1  # opened
    assert box.sight(L_SHOOTER, SENESCHAL) >= 0
    assert box.close_doors(SENESCHAL, 0) == 0 and box.door_open(7, 8)
    box.cell[8, 7] = 3  # smashed by a Titan
    assert box.close_doors(SENESCHAL, 2) == 0
    box.cell[8, 7] = 1
    assert box.close_doors(SENESCHAL, 2) == 1 and not box.door_open(7, 8)
    assert box.sight(L_SHOOTER, SENESCHAL) == -1
    assert "closes the door at (7, 8)" in "\n".join(box.lines())
    box.cell[8, 7] = 1
    box.place(L_SHOOTER, 0, 0, "north")  # out of sight: no reason to close it
    assert box.close_doors(SENESCHAL, 2) == 0 and box.door_open(7, 8)


# ------------------------------------------------------------------ greedy seeking (AI)
def test_ambush_spot_doubles_with_the_enemy_ahead(files) -> None:  # noqa: F811
    """ambush_seek: the Seneschal's square-blind ambush worth (0.4 x his Basic Firing
    value at the Hybrid, 10 squares off: within sight 8 + the Hybrid's Movement 7) is
    doubled where the Hybrid stands ahead of him, kept facing away; out of reach
    (8 + 6 < 15 squares) both are nothing."""
    box = fresh(files)
    box.place(SENESCHAL, 8, 12, "north")
    box.place(B_HYBRID, 8, 2, "south")
    worth = box.ambush_spot(SENESCHAL, anywhere=True)
    assert worth > 0 and abs(box.ambush_spot(SENESCHAL) - 2 * worth) <= 1
    box.place(SENESCHAL, 8, 12, "south")
    assert box.ambush_spot(SENESCHAL) == worth == box.ambush_spot(SENESCHAL, anywhere=True)
    box.place(B_HYBRID, 8, 0, "south")
    box.place(SENESCHAL, 8, 15, "north")  # 15 squares: still within 8 + 7
    assert abs(box.ambush_spot(SENESCHAL) - 2 * worth) <= 1
    box.arrays[0][B_HYBRID, L.F_MOVE] = 6  # 8 + 6 < 15
    assert box.ambush_spot(SENESCHAL) == 0 == box.ambush_spot(SENESCHAL, anywhere=True)
