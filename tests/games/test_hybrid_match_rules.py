"""Hybrid match engine: one rule per test on hand-built boards with scripted D10s (exact
outcomes, the rulebook's printed examples among them), then whole matches
(``hybrid.txt``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from analyzer.games.hybrid.match import layout as L
from analyzer.games.hybrid.match.engine import ENGINE
from analyzer.games.hybrid.match.sandbox import Sandbox
from analyzer.match.contract import R_WINNER
from analyzer.match.runner import run_records
from analyzer.stats import wilson_interval

# Test cards: the rulebook's figures where it prints them (Hybrid NV 3, Fused Weapons +2;
# Seneschal NV 4, Combined Weapon +1 in Firing, Combined Attack/3), the rest invented.
CARDS = """
system: hybrid
units:
  - {name: Hybrid, points: 12, rank: 1, nv: 3, oc: 4, dc: 2, f: "-", mv: 3, movement: 7,
     equipment: [{name: Fused Weapons, offensive: 2}], aptitudes: [Mutation/1]}
  - {name: Seneschal, points: 28, rank: 2, nv: 4, oc: 6, dc: 6, f: 3, mv: 4, movement: 7,
     equipment: [{name: Combined Weapon, offensive: 1, firing: 1, ranged: true}],
     aptitudes: [Combined Attack/3]}
  - {name: Brute, points: 38, rank: 3, nv: 6, oc: 5, dc: 3, f: "-", mv: 3, movement: 6,
     base: large, aptitudes: [Brutish Strength/2, Frenzy/1]}
  - {name: Pest, points: 4, rank: 0, nv: 1, oc: 3, dc: 1, f: "-", mv: 4, movement: 9,
     aptitudes: [Sacrifice/1, Puny]}
  - {name: Sniper, points: 40, rank: 3, nv: 5, oc: 2, dc: 4, f: 6, mv: 3, movement: 6,
     equipment: [{name: Crossbow, firing: 1, ranged: true}],
     aptitudes: [Eye of the Lynx/2, Aura/3, Armour-Piercing Shot/3]}
  - {name: Knave, points: 15, rank: 1, nv: 4, oc: 4, dc: 3, f: "-", mv: 3, movement: 7,
     aptitudes: [Duellist/2, Felon/2, Conviction/1, Prestige/1]}
  - {name: Shell, points: 15, rank: 1, nv: 4, oc: 3, dc: 3, f: "-", mv: 3, movement: 7,
     aptitudes: [Dorsal Protection/1, Velocity/2]}
  - {name: Colossus, points: 50, rank: 3, nv: 6, oc: 5, dc: 3, f: "-", mv: 3, movement: 6,
     base: large, aptitudes: [Titan]}
"""
LIST_A = """
name: Test A
system: hybrid
rank_total: 30
max_warriors: 10
units: [{unit: Hybrid}, {unit: Seneschal}, {unit: Brute}, {unit: Pest}, {unit: Sniper}]
"""
LIST_B = """
name: Test B
system: hybrid
rank_total: 30
max_warriors: 10
units: [{unit: Hybrid}, {unit: Knave}, {unit: Shell}, {unit: Colossus}, {unit: Seneschal},
        {unit: Pest}]
"""
# an open 16 x 16 board with a wall line, a door, a column and rockfall
MISSION = """
name: Test ground
rounds: 10
symmetric: false
map:
  - "................"
  - "................"
  - "................"
  - "................"
  - "................"
  - "................"
  - "................"
  - "................"
  - "................"
  - "................"
  - "................"
  - "................"
  - "................"
  - "................"
  - "................"
  - "................"
zones_a: [{ranks: [0, 1, 2, 3, 4], rect: [0, 12, 15, 15]}]
zones_b: [{ranks: [0, 1, 2, 3, 4], rect: [0, 0, 15, 3]}]
"""
HYBRID, SENESCHAL, BRUTE, PEST, SNIPER = 0, 1, 2, 3, 4
B_HYBRID, KNAVE, SHELL, COLOSSUS, B_SENESCHAL, B_PEST = 5, 6, 7, 8, 9, 10


def write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / name
    path.write_text(text)
    return path


def board(rows: list[str] | None = None) -> str:
    if rows is None:
        return MISSION
    head = MISSION.split("map:")[0]
    tail = "zones_a:" + MISSION.split("zones_a:")[1]
    return head + "map:\n" + "".join(f'  - "{r}"\n' for r in rows) + tail


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("hybrid")
    return {
        "cards": write(tmp, "cards.yaml", CARDS),
        "a": write(tmp, "a.yaml", LIST_A),
        "b": write(tmp, "b.yaml", LIST_B),
        "mission": write(tmp, "mission.yaml", MISSION),
        "tmp": tmp,
    }


def setup_with(files, mission: Path | None = None, policies=("greedy", "greedy"), **opts):
    sides = ENGINE.load_sides(files["a"], files["b"], files["cards"])
    return ENGINE.prepare(
        sides.cards,
        sides.lists,
        policies=policies,
        options=opts,
        scenario=str(mission or files["mission"]),
    )


@pytest.fixture
def box(files) -> Sandbox:
    return Sandbox(setup_with(files))


def rows_with(*marks: tuple[int, int, str]) -> list[str]:
    grid = [["."] * 16 for _ in range(16)]
    for x, y, c in marks:
        grid[y][x] = c
    return ["".join(r) for r in grid]


def box_on(files, name: str, *marks: tuple[int, int, str]) -> Sandbox:
    path = write(files["tmp"], name, board(rows_with(*marks)))
    return Sandbox(setup_with(files, path))


# ------------------------------------------------------------------ Natural Roll / strikes
def test_hybrid_strikes_at_sl_5_and_6_from_the_rear(box: Sandbox) -> None:
    """ "Natural Roll" Examples 1 and 2: NV 3 + Fused Weapons +2 = SL 5; from the rear 6."""
    box.place(HYBRID, 5, 5, "north")
    box.place(B_HYBRID, 5, 4, "south")
    box.script([5])
    box.strike(HYBRID, B_HYBRID, 1)
    assert box.wounds(B_HYBRID) == 1
    box.script([6])
    box.strike(HYBRID, B_HYBRID, 1)
    assert box.wounds(B_HYBRID) == 1  # 6 > SL 5: missed
    box.place(B_HYBRID, 5, 4, "north", wounds=1)  # his back to the attacker
    box.script([6])
    box.strike(HYBRID, B_HYBRID, 1)
    assert box.wounds(B_HYBRID) == 2
    assert "SL 6" in box.lines()[-2]


def test_perfect_success_adds_a_wound_and_critical_failure_always_fails(box: Sandbox) -> None:
    """ "Perfect Success and Critical Failure": a 1 inflicts two wounds; a 10 fails even at
    an SL beyond 10 (Heroic Strike: 3 wounds on a 1)."""
    box.place(SENESCHAL, 5, 5, "north")
    box.place(COLOSSUS, 5, 3, "south")
    box.script([1])
    box.strike(SENESCHAL, COLOSSUS, 1)
    assert box.wounds(COLOSSUS) == 2
    box.script([1])
    box.strike(SENESCHAL, COLOSSUS, 6)
    assert box.wounds(COLOSSUS) == 5
    box.place(COLOSSUS, 5, 3, "north", wounds=0)  # rear: SL 4 + 1 + 1 + 2 (Expert) = 8
    box.script([10])
    box.strike(SENESCHAL, COLOSSUS, 4)
    assert box.wounds(COLOSSUS) == 0


def test_novice_strike_ignores_one_wound(box: Sandbox) -> None:
    """ "2 / Novice Strike" Comment: NV 4 with two wounds strikes at 3 (+1 weapon here)."""
    box.place(SENESCHAL, 5, 5, "north", wounds=2)
    box.place(B_HYBRID, 5, 4, "south")
    box.script([4])
    box.strike(SENESCHAL, B_HYBRID, 2)
    assert box.wounds(B_HYBRID) == 1 and "SL 4" in box.lines()[0]
    box.script([4])
    box.strike(SENESCHAL, B_HYBRID, 1)  # Basic Strike: SL 3
    assert box.wounds(B_HYBRID) == 1


def test_skilled_strike_second_strike_expert_and_master(box: Sandbox) -> None:
    """ "3 / Skilled Strike": a second strike after a hit; "4 / Expert Strike" +2;
    "5 / Master Strike": 2D10, the better die kept."""
    box.place(SENESCHAL, 5, 5, "north")
    box.place(COLOSSUS, 5, 3, "south")
    box.script([2, 3])
    box.strike(SENESCHAL, COLOSSUS, 3)
    assert box.wounds(COLOSSUS) == 2 and box.dice_used() == 2
    box.script([6, 3])
    box.strike(SENESCHAL, COLOSSUS, 3)  # a miss: no second strike
    assert box.wounds(COLOSSUS) == 2 and box.dice_used() == 1
    box.script([7])
    box.strike(SENESCHAL, COLOSSUS, 4)  # SL 5 + 2 = 7
    assert box.wounds(COLOSSUS) == 3
    box.script([9, 4])
    box.strike(SENESCHAL, COLOSSUS, 5)  # keeps the 4
    assert box.wounds(COLOSSUS) == 4


# ------------------------------------------------------------------ Defensive Combat
def test_basic_parry_and_no_parry_from_the_rear(box: Sandbox) -> None:
    """ "Defensive Combat": a successful parry avoids the wound, not against the rear."""
    box.place(HYBRID, 5, 5, "north")
    box.place(B_SENESCHAL, 5, 4, "south", mode="dc")
    box.option(L.S_POL_B, L.POL_GREEDY)
    box.script([3, 2])  # hit, parried (greedy picks a level whose SL >= 2)
    box.strike(HYBRID, B_SENESCHAL, 1)
    assert box.wounds(B_SENESCHAL) == 0 or box.wounds(HYBRID) > 0
    box.place(B_SENESCHAL, 5, 4, "north", mode="dc")
    box.script([3, 1])
    box.strike(HYBRID, B_SENESCHAL, 1)
    assert box.wounds(B_SENESCHAL) == 1 and box.dice_used() == 1
    assert box.mode(B_SENESCHAL) == L.M_NONE  # a wound switches the Mode off


def test_parry_levels_with_a_random_defender_forced(files) -> None:
    """Novice Parry: the attacker's Critical Failure wounds him; Skilled Parry: a
    counter-blow; Heroic Parry: still parrying after a wound."""
    box = Sandbox(setup_with(files))
    box.place(HYBRID, 5, 5, "north")
    # Seneschal DC 6: only Heroic is legal when locked in it
    box.place(B_SENESCHAL, 5, 4, "south", mode="dc", level=6)
    box.script([1, 9])  # Perfect Success strike, parry fails: 2 wounds
    box.strike(HYBRID, B_SENESCHAL, 1)
    assert box.wounds(B_SENESCHAL) == 2 and box.mode(B_SENESCHAL) == L.M_DC
    box.script([3, 1])  # parried at SL 4 - 2 = 2
    box.strike(HYBRID, B_SENESCHAL, 1)
    assert box.wounds(B_SENESCHAL) == 2
    lines = box.lines()
    assert any("Heroic Parry: D10 1 vs SL 2: Perfect Success" in ln for ln in lines)


def test_greedy_defender_novice_and_skilled_parry(files) -> None:
    box = Sandbox(setup_with(files))
    box.place(HYBRID, 5, 5, "north")
    box.place(B_HYBRID, 5, 4, "south", mode="dc")  # DC 2: Basic or Novice
    box.script([10])  # Critical Failure: with Novice Parry chosen, the attacker is wounded
    box.strike(HYBRID, B_HYBRID, 1)
    novice = any("Novice Parry" in ln for ln in box.lines()) or box.wounds(HYBRID) == 1
    assert box.wounds(B_HYBRID) == 0 and novice


# ------------------------------------------------------------------ Firing
def test_seneschal_fires_at_sl_3_with_two_wounds(box: Sandbox) -> None:
    """ "Natural Roll" FAQ example: SL = 4 (NV) - 2 (wounds) + 1 (Combined Weapon) = 3."""
    box.place(SENESCHAL, 5, 10, "north", wounds=2)
    box.place(B_HYBRID, 5, 5, "south")
    box.script([3])
    box.fire(SENESCHAL, B_HYBRID, 1)
    assert box.wounds(B_HYBRID) == 1 and "SL 3" in box.lines()[0]
    box.script([4])
    box.fire(SENESCHAL, B_HYBRID, 1)
    assert box.wounds(B_HYBRID) == 1


def test_rockfall_costs_one_per_square_and_large_targets_give_one(files) -> None:
    """ "Firing": -1 per rockfall square on the line (the Purifier's -3 example), +1 at a
    large base; a Titan's +1 is not added on top ("Titan"); Velocity/X: -X."""
    rocks = [(x, y, "R") for x in (5, 6) for y in (7, 8, 9)]
    box = box_on(files, "rocks.yaml", *rocks)
    box.place(SNIPER, 5, 11, "north")
    box.place(COLOSSUS, 5, 4, "south")
    assert box.sight(SNIPER, COLOSSUS) == 3
    box.script([4])
    box.fire(SNIPER, COLOSSUS, 1)  # 5 + 1 + 1 (large Titan) - 3 = 4
    assert box.wounds(COLOSSUS) == 1 and "SL 4" in box.lines()[0]
    box.place(SHELL, 8, 5, "south")
    box.place(SNIPER, 8, 11, "north")
    box.script([4])
    box.fire(SNIPER, SHELL, 1)  # 5 + 1 - 2 (Velocity/2) = 4
    assert box.wounds(SHELL) == 1


def test_basic_firing_needs_sight_and_a_free_square_novice_fires_anywhere(box: Sandbox) -> None:
    """ "1 / Basic Firing": in the field of vision, not in base contact; "2 / Novice
    Firing": any direction, even in contact."""
    box.place(SNIPER, 5, 10, "north")
    box.place(B_HYBRID, 5, 12, "south")  # behind him
    box.script([1])
    box.fire(SNIPER, B_HYBRID, 1)
    assert box.wounds(B_HYBRID) == 0 and box.dice_used() == 0
    box.fire(SNIPER, B_HYBRID, 2)
    assert box.wounds(B_HYBRID) == 2  # Perfect Success
    box.place(B_HYBRID, 5, 9, "south", wounds=0)
    box.script([2])
    box.fire(SNIPER, B_HYBRID, 1)
    assert box.dice_used() == 0  # in contact: no Basic Firing
    box.fire(SNIPER, B_HYBRID, 2)
    assert box.wounds(B_HYBRID) == 1


def test_field_of_vision_range_and_eye_of_the_lynx(box: Sandbox) -> None:
    """ "Sight Range": 8 squares; "Eye of the Lynx/2": 10.  Field of vision: 90 degrees."""
    box.place(SENESCHAL, 5, 15, "north")
    box.place(SNIPER, 6, 15, "north")
    box.place(B_HYBRID, 5, 6, "south")
    box.place(KNAVE, 6, 5, "south")
    assert box.sight(SENESCHAL, B_HYBRID) == -1  # 9 squares away
    assert box.sight(SNIPER, KNAVE) == 0  # 10 squares with Eye of the Lynx/2
    box.place(B_HYBRID, 0, 12, "south")
    assert box.sight(SENESCHAL, B_HYBRID) == -1  # outside the 90-degree triangle
    assert box.sight(SENESCHAL, B_HYBRID, fov=False) == 0


def test_expert_firing_past_one_warrior_and_puny_does_not_hide(box: Sandbox) -> None:
    """ "4 / Expert Firing": past one warrior; a friend in the way blocks the other
    levels; "Puny": a Puny warrior hides only a Puny one."""
    box.place(SNIPER, 5, 12, "north")
    box.place(HYBRID, 5, 9, "north")
    box.place(B_HYBRID, 5, 6, "south")
    assert box.sight(SNIPER, B_HYBRID) == 100
    box.script([2])
    box.fire(SNIPER, B_HYBRID, 1)
    assert box.dice_used() == 0
    box.fire(SNIPER, B_HYBRID, 4)
    assert box.wounds(B_HYBRID) == 1
    box.place(HYBRID, 0, 15, "north")
    box.place(PEST, 5, 9, "north")
    assert box.sight(SNIPER, B_HYBRID) == 0
    box.place(B_PEST, 5, 6, "south")
    box.place(B_HYBRID, 0, 0, "south")
    assert box.sight(SNIPER, B_PEST) == 100


def test_armour_piercing_shot_hits_the_warrior_behind(box: Sandbox) -> None:
    """ "Armour-Piercing Shot/3": a second Firing roll at a warrior up to 3 squares behind."""
    box.place(SNIPER, 5, 12, "north")
    box.place(B_HYBRID, 5, 8, "south")
    box.place(KNAVE, 5, 6, "south")
    box.script([3, 3])
    box.fire(SNIPER, B_HYBRID, 1)
    assert box.wounds(B_HYBRID) == 1 and box.wounds(KNAVE) == 1
    assert "Armour-Piercing Shot" in box.lines()[-1] or any(
        "Armour-Piercing" in ln for ln in box.lines()
    )


# ------------------------------------------------------------------ Movement
def test_movement_costs_printed_examples(box: Sandbox) -> None:
    """ "Special Movements": an about-face costs 1 (Movement 5: about-face, then 4
    squares); a side-step or a retreat 2 per square; the first 90-degree turn free, the
    next 1.  The search finds the cheapest way: 3 squares east facing north cost 4
    (free turn, 3 forward, 1 turn), not the side-step's 6."""
    box.place(HYBRID, 8, 8, "north")
    assert box.cost(HYBRID, 8, 12, "south") == 5
    assert box.cost(HYBRID, 8, 9, "north") == 2  # one square retreating
    assert box.cost(HYBRID, 9, 8, "north") == 2  # one side-step
    assert box.cost(HYBRID, 11, 8, "north") == 4
    assert box.cost(HYBRID, 11, 7, "north") == 4  # a diagonal, 2 forward, 1 turn
    assert box.cost(HYBRID, 8, 10, "north") == 4
    assert box.cost(HYBRID, 8, 8, "east") == 0
    assert box.cost(HYBRID, 10, 8, "east") == 2  # free turn, then 2 forward
    assert box.cost(HYBRID, 10, 7, "north") == 3  # 1 north, turn, 2 east, turn (1)


def test_rockfall_and_doors(files) -> None:
    """ "Rockfall": +1 per square, never ending on it; "Opening and closing doors": +1
    (free in Moving Mode), never by a Puny warrior."""
    wall = [(x, 7, "#") for x in range(16) if x != 2] + [(2, 7, "D")]
    wall += [(x, 4, "R") for x in range(3, 8)]
    box = box_on(files, "terrain.yaml", *wall)
    box.place(HYBRID, 5, 6, "north")
    assert box.cost(HYBRID, 5, 3, "north") == 4  # across rockfall
    assert box.cost(HYBRID, 5, 4, "north") == -1  # cannot end on it
    box.place(HYBRID, 2, 8, "north")
    assert box.cost(HYBRID, 2, 6, "north") == 3
    assert box.cost(HYBRID, 2, 6, "north", moving=1) == 2
    assert box.move(HYBRID, 2, 6, "north") == 3 and box.pos(HYBRID) == (2, 6)
    assert any("opens the door" in ln for ln in box.lines())
    box.place(PEST, 3, 9, "north")
    assert box.cost(PEST, 3, 6, "north") == 3  # diagonally through the opened door, no penalty
    box2 = box_on(files, "terrain2.yaml", *wall)
    box2.place(PEST, 2, 8, "north")
    assert box2.cost(PEST, 2, 6, "north") == -1


def test_diagonal_past_a_column_costs_two(files) -> None:
    """Diagonal 1, past a corner 2 ("Special Movements"); "Puny": no diagonal penalty."""
    box = box_on(files, "column.yaml", (9, 7, "O"))
    box.place(HYBRID, 8, 8, "north")
    assert box.cost(HYBRID, 9, 7, "north") == -1
    assert box.cost(HYBRID, 9, 6, "north") == 3  # 1 forward, then diagonally past the column
    box.place(PEST, 8, 13, "north")
    box.place(HYBRID, 8, 8, "north")
    box.place(PEST, 8, 8, "north")
    box.place(HYBRID, 0, 0, "north")
    assert box.cost(PEST, 9, 6, "north") == 2
    box.place(HYBRID, 4, 8, "north")
    assert box.cost(HYBRID, 5, 7, "north") == 1


def test_wounds_lower_movement_and_levels(box: Sandbox) -> None:
    """ "Movement and Wounds": Movement 7 with two wounds is 5; levels drop, not below 1."""
    box.place(HYBRID, 8, 8, "north", wounds=2)
    assert box.cost(HYBRID, 8, 3, "north") == 5
    box.place(HYBRID, 8, 8, "north", wounds=2)
    assert box.move(HYBRID, 8, 2, "north") == -1
    assert box.move(HYBRID, 8, 3, "north") == 5 and box.pos(HYBRID) == (8, 3)


def test_friends_are_crossed_enemies_are_not(box: Sandbox) -> None:
    """ "Moving over friendly figurines" and "Forbidden Movements"."""
    box.place(HYBRID, 8, 8, "north")
    box.place(SENESCHAL, 8, 7, "north")
    assert box.cost(HYBRID, 8, 6, "north") == 2
    box.place(SENESCHAL, 0, 0, "north")
    box.place(B_HYBRID, 8, 7, "south")
    assert box.cost(HYBRID, 8, 6, "north") > 2


# ------------------------------------------------------------------ Aptitudes
def test_combined_attack_uses_the_printed_nv_and_cannot_be_parried(box: Sandbox) -> None:
    """ "Combined Attack/3": one die against the printed NV (4), no parry, once per Round."""
    box.place(SENESCHAL, 5, 5, "north", wounds=2)
    box.place(B_SENESCHAL, 5, 4, "south", mode="dc", level=6)
    box.script([9, 4])  # the strike misses, the Combined Attack hits at SL 4
    box.strike(SENESCHAL, B_SENESCHAL, 1, combined=True)
    assert box.wounds(B_SENESCHAL) == 1 and box.dice_used() == 2
    assert "Combined Attack" in box.lines()[-2]


def test_brutish_strength_against_a_wall(files) -> None:
    """ "Brutish Strength/2" example: Seneschal against a wall takes 2 more wounds."""
    box = box_on(files, "wall.yaml", *[(x, 3, "#") for x in range(16)])
    box.place(BRUTE, 5, 5, "north")
    box.place(B_SENESCHAL, 5, 4, "south")
    box.script([3])
    box.strike(BRUTE, B_SENESCHAL, 1)
    assert box.wounds(B_SENESCHAL) == 3 and box.pos(B_SENESCHAL) == (5, 4)
    box.place(B_SENESCHAL, 6, 6, "south", wounds=0)
    box.place(BRUTE, 5, 7, "north")
    box.script([3])
    box.strike(BRUTE, B_SENESCHAL, 1)
    assert box.pos(B_SENESCHAL) == (6, 4) and box.wounds(B_SENESCHAL) == 1


def test_brutish_strength_knocks_back_even_when_parried(box: Sandbox) -> None:
    box.place(BRUTE, 5, 8, "north")
    box.place(B_HYBRID, 5, 7, "south", mode="dc")
    box.script([3, 1, 1])
    box.strike(BRUTE, B_HYBRID, 1)
    assert box.wounds(B_HYBRID) == 0 and box.pos(B_HYBRID) == (5, 5)


def test_sacrifice_ignores_defensive_combat(box: Sandbox) -> None:
    """ "Sacrifice/1": the Pest dies, the target takes 1 wound, no parry."""
    box.place(PEST, 5, 5, "north")
    box.place(B_HYBRID, 5, 4, "south", mode="dc")
    box.sacrifice(PEST, B_HYBRID)
    assert not box.alive(PEST) and box.wounds(B_HYBRID) == 1 and box.dice_used() == 0


def test_duellist_felon_conviction_prestige(box: Sandbox) -> None:
    """ "Duellist/2": a 2 is a Perfect Success; "Felon/2": +3 from the rear in all;
    "Prestige/1": +1 until wounded; "Conviction/1": no leader on side B, no bonus."""
    box.place(KNAVE, 5, 5, "south")
    box.place(HYBRID, 5, 6, "north")
    box.script([2])
    box.strike(KNAVE, HYBRID, 1)
    assert box.wounds(HYBRID) == 2
    assert "SL 5" in box.lines()[0]  # NV 4 + Prestige 1
    box.place(HYBRID, 5, 6, "south", wounds=0)
    box.script([8])
    box.strike(KNAVE, HYBRID, 1)  # 4 + 1 + 1 (rear) + 2 (Felon) = 8
    assert box.wounds(HYBRID) == 1


def test_dorsal_protection_cancels_the_rear_bonus(box: Sandbox) -> None:
    """ "Dorsal Protection/1": no +1 from the rear, -1 instead."""
    box.place(HYBRID, 5, 6, "north")
    box.place(SHELL, 5, 5, "north")
    box.script([5])
    box.strike(HYBRID, SHELL, 1)  # 5 - 1 = 4
    assert box.wounds(SHELL) == 0
    box.script([4])
    box.strike(HYBRID, SHELL, 1)
    assert box.wounds(SHELL) == 1


def test_frenzy_after_a_melee_kill(box: Sandbox) -> None:
    """ "Frenzy/1": +1 to Offensive Combat after each enemy killed in melee."""
    box.place(BRUTE, 5, 8, "north")
    box.place(B_PEST, 5, 7, "south")
    box.script([2])
    box.strike(BRUTE, B_PEST, 1)
    assert not box.alive(B_PEST)
    box.place(B_HYBRID, 5, 7, "south")
    box.script([7])
    box.strike(BRUTE, B_HYBRID, 1)  # 6 + 1 (Frenzy) = 7
    assert box.wounds(B_HYBRID) >= 1


def test_titan_cannot_move_diagonally(box: Sandbox) -> None:
    """ "Titan": no diagonal movement, a free turn on each square."""
    box.place(COLOSSUS, 6, 6, "north")
    assert box.cost(COLOSSUS, 7, 5, "north") == 2  # 1 north, turn, 1 east, turn: turns free
    box.place(BRUTE, 10, 10, "north")
    assert box.cost(BRUTE, 11, 9, "north") == 1


# ------------------------------------------------------------------ rounds, matches
def test_a_round_activates_every_living_warrior_once(files) -> None:
    """ "Activation": alternating activations over both sequences; every warrior once."""
    box = Sandbox(setup_with(files, policies=("random", "random")))
    spots = [(1, 14), (3, 14), (5, 13), (7, 14), (9, 14)]
    spots += [(1, 1), (3, 1), (5, 1), (7, 0), (11, 1), (13, 1)]
    for i, (x, y) in enumerate(spots):
        box.place(i, x, y, "north" if i < 5 else "south")
    box.play_round()
    assert int(box.g[L.G_ACT]) == 11
    assert box.violations() == 0
    lines = box.lines()
    assert lines[0].startswith("=== Round 1: Activation Roll")
    assert sum(ln.startswith("- ") for ln in lines) == 11


def test_strong_with_one_plan_plays_exactly_as_greedy(files) -> None:
    """``lookahead_k=1`` leaves the strong policy greedy's plan alone (no rollout, no draw
    from the match generator): the same records as greedy, plan for plan.  The strong
    policy ranks the exact greedy's plans, so side A's greedy is the exact one here
    (``greedy_fast=b``: B's greedy is the fast default's in both)."""
    greedy = setup_with(files, policies=("greedy", "greedy"), greedy_fast="b")
    strong = setup_with(
        files, policies=("strong", "greedy"), lookahead_k=1, lookahead_order=False, greedy_fast="b"
    )
    a, ua = run_records(ENGINE, greedy, 40, seed=8, threads=1)
    b, ub = run_records(ENGINE, strong, 40, seed=8, threads=1)
    assert np.array_equal(a, b) and np.array_equal(ua, ub)
    tried = setup_with(
        files, policies=("strong", "greedy"), lookahead_k=3, lookahead_margin=0,
        lookahead_order=False, lookahead_rollouts=4, lookahead_depth=4,
    )  # fmt: skip
    c, _ = run_records(ENGINE, tried, 40, seed=8, threads=1)
    assert not np.array_equal(a, c)  # with rollouts and no margin it does leave greedy
    ordered = setup_with(files, policies=("strong", "greedy"), lookahead_k=1, lookahead_rollouts=4)
    d, _ = run_records(ENGINE, ordered, 40, seed=8, threads=1)
    assert not np.array_equal(a, d)  # the sequence search alone changes some Rounds


def strong_box(files) -> Sandbox:
    """A mid-fight position for the strong policy (side A strong, B greedy)."""
    box = Sandbox(setup_with(files, policies=("strong", "greedy"), lookahead_rollouts=6))
    for i, (x, y, f) in enumerate(
        [(5, 9, "north"), (7, 9, "north"), (9, 10, "north"), (3, 10, "north"), (11, 11, "north")]
    ):
        box.place(i, x, y, f)
    for i, (x, y, f) in enumerate(
        [(5, 6, "south"), (8, 6, "south"), (10, 6, "south"), (12, 3, "south"), (3, 5, "south"),
         (6, 4, "south")]
    ):  # fmt: skip
        box.place(5 + i, x, y, f)
    box.seq[0, :5] = [1, 0, 2, 3, 4]
    box.seq[2, :5] = [1, 0, 2, 3, 4]
    box.seq[3, :6] = [6, 5, 7, 9, 10, 8]  # A's guess of B's order (public positions)
    return box


def test_strong_never_reads_the_enemy_secret_sequence(files) -> None:
    """ "Activation": each player's sequence is secret. The strong policy's rollouts play
    the enemy's order it guessed at the Round's start (``seq[2 + enemy]``): changing the
    enemy's real sequence cannot change its decision."""
    outcomes = []
    for real_b in ([6, 5, 7, 9, 10, 8], [8, 10, 9, 7, 5, 6]):
        box = strong_box(files)
        box.seq[1, :6] = real_b
        box.activate(1, "strong")
        outcomes.append((box.s.copy(), box.lines()))
    assert np.array_equal(outcomes[0][0], outcomes[1][0])
    assert outcomes[0][1] == outcomes[1][1]


def test_strong_sequence_search_keeps_every_warrior_once(files) -> None:
    """The strong side's searched Activation Sequence is a permutation of its living
    warriors, and the Round activates each warrior at most once, every survivor once
    ("Activation")."""
    box = strong_box(files)
    box.play_round()
    order = [int(k) for k in box.seq[0] if k >= 0]
    assert sorted(order) == [0, 1, 2, 3, 4]
    ev = box.events()
    acted = [int(row[3]) for row in ev if row[0] == L.E_ACTIVATE]
    assert len(acted) == len(set(acted)) == int(box.g[L.G_ACT])
    assert {i for i in range(11) if box.alive(i)} <= set(acted)
    assert box.violations() == 0


def test_greedy_beats_random_on_mirror_lists() -> None:
    """Policy strength on the sample Griffin mirror (a regression floor, 5-SE margins)."""
    from analyzer.match import prepare

    lists = sorted(Path("configs/hybrid/lists").glob("*.yaml"))
    setup = prepare(
        "hybrid", lists[0], lists[0], policies=("greedy", "random"), options={"first": "alternate"}
    )
    rec, _ = run_records(ENGINE, setup, 400, seed=3, threads=2)
    score = float((rec[:, R_WINNER] == 1).sum() + 0.5 * (rec[:, R_WINNER] == 0).sum())
    lo, _ = wilson_interval(score, 400)
    assert lo > 0.8, score / 400


def test_same_seed_same_records(files) -> None:
    setup = setup_with(files, policies=("greedy", "random"))
    a, ua = run_records(ENGINE, setup, 50, seed=4, threads=1)
    b, ub = run_records(ENGINE, setup, 50, seed=4, threads=2)
    assert np.array_equal(a, b) and np.array_equal(ua, ub)


def test_both_bundled_missions_deploy_and_render(tmp_path: Path) -> None:
    """The bundled missions compile (deployment fits, B mirrors A) and draw as PNGs."""
    from analyzer.games.hybrid.match.compile import bundled_scenarios
    from analyzer.games.hybrid.match.render import render_board
    from analyzer.match import prepare

    lists = sorted(Path("configs/hybrid/lists").glob("*.yaml"))
    assert {"laboratory_skirmish", "venom_vats"} <= set(bundled_scenarios())
    for name in ("laboratory_skirmish", "venom_vats"):
        setup = prepare("hybrid", lists[0], lists[0], scenario=name)
        fi, mp = setup.arrays[0], setup.arrays[1]
        h, w = mp.shape
        half = fi.shape[0] // 2
        for k in range(half):  # the mirror: B's warrior k stands where A's is, turned
            z = fi[k, L.F_SIZE]
            assert fi[half + k, L.F_X0] == w - z - fi[k, L.F_X0]
            assert fi[half + k, L.F_Y0] == h - z - fi[k, L.F_Y0]
        png = render_board(setup, tmp_path / f"{name}.png")
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
