"""d20 skirmish match engine: one rule per test on hand-built positions with scripted D20s,
then determinism, threads, trace replay and policy strength (``d20-skirmish.txt``)."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from analyzer.errors import InputError
from analyzer.games.d20.match import layout as L
from analyzer.games.d20.match.engine import ENGINE
from analyzer.games.d20.match.sandbox import Sandbox
from analyzer.match import prepare
from analyzer.match.contract import (
    MATCH_TASK,
    N_STANDARD,
    check_engine,
    record_width,
    unit_width,
)
from analyzer.match.runner import run_records, trace_events
from analyzer.rng import block_states

CARDS = """
system: d20
units:
  - {name: Gunner, skill: {shot: 4, hth: 2}, power: 5, dexterity: 3, intelligence: 5,
     physical_defense: 18, constitution: 30, movement: 12, points: 20,
     weapons: [{name: Rifle, reach: 60, power: 7}]}
  - {name: Target, skill: {shot: 2, hth: 4}, power: 5, dexterity: 2, intelligence: 5,
     physical_defense: 20, constitution: 40, movement: 12, points: 20,
     weapons: [{name: Club, reach: HtH, power: 3}]}
  - {name: Brawler, skill: {shot: 1, hth: 6}, force: 2, power: 9, dexterity: 2,
     intelligence: 3, physical_defense: 18, constitution: 30, movement: 12, points: 20,
     weapons: [{name: Maul, reach: HtH, power: 4}]}
  - {name: Hacker, skill: {shot: 2, hth: 2}, power: 4, dexterity: 3, intelligence: 10,
     physical_defense: 16, constitution: 20, movement: 10, points: 15,
     special: [infiltration], weapons: [{name: Pistol, reach: 20, power: 3}]}
  - {name: Slowpoke, skill: {shot: 2, hth: 2}, power: 4, dexterity: 2, intelligence: 4,
     physical_defense: 16, constitution: 20, movement: 6, points: 10,
     weapons: [{name: Pistol, reach: 20, power: 3}]}
"""
LIST_A = """
name: Test A
system: d20
units: [{unit: Gunner, count: 2}, {unit: Brawler}, {unit: Hacker}, {unit: Slowpoke}]
"""
LIST_B = """
name: Test B
system: d20
units: [{unit: Target, count: 2}, {unit: Brawler}, {unit: Gunner}]
"""
SCENARIO = """
name: Test ground
table: {width: 120, height: 120}
deployment: {kind: border}
turn_limit: 8
symmetric: false
objective: {kind: OBJ, dl: 15, terminal: {x: 100, y: 100, w: 4, d: 4, height: 2}}
elements:
  - {name: hedge, x: 45, y: 67, w: 10, d: 1, height: 1.5, cover: slight}
  - {name: rubble, x: 10, y: 10, w: 20, d: 20, kind: difficult}
  - {name: high wall, x: 90, y: 50, w: 10, d: 2, height: 4}
  - {name: tall wall, x: 70, y: 67, w: 10, d: 1, height: 4, cover: heavy}
"""
A0, A1, A_BRAWL, A_HACK, A_SLOW = 0, 1, 2, 3, 4
B0, B1, B_BRAWL, B_GUN = 5, 6, 7, 8
LISTS = Path(__file__).resolve().parents[2] / "configs" / "d20" / "lists"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return write_files(tmp_path_factory.mktemp("d20m"))


def write_files(d):
    """The test cards, the two lists and the test ground (elimination, virus) in ``d``."""
    (d / "units.yaml").write_text(CARDS)
    (d / "a.yaml").write_text(LIST_A)
    (d / "b.yaml").write_text(LIST_B)
    (d / "scen.yaml").write_text(SCENARIO.replace("OBJ", "elimination"))
    (d / "virus.yaml").write_text(SCENARIO.replace("OBJ", "virus"))
    return d


def make(files, scenario="scen.yaml", **options):
    sides = ENGINE.load_sides(files / "a.yaml", files / "b.yaml", files / "units.yaml")
    setup = ENGINE.prepare(
        sides.cards,
        sides.lists,
        policies=("greedy", "greedy"),
        options=options,
        scenario=str(files / scenario),
    )
    return Sandbox(setup)


def event_rows(box, kind):
    return [r for r in box.events() if r[0] == kind]


def test_engine_contract():
    check_engine(ENGINE)
    assert ENGINE.first_modes[:2] == ("rules", "alternate")
    with pytest.raises(InputError, match="border_skirmish"):
        ENGINE.prepare(
            {}, (None, None), policies=("greedy", "greedy"), options={}, scenario="nowhere"
        )


# ------------------------------------------------------------------ 3.2 Shots, Cover
def test_shot_in_slight_cover(files):
    """Shot 4 + Dex 3 + Power 7 + D20 12 = 26 vs PD 20 + slight cover 1: 5 CP."""
    box = make(files)
    box.place(A0, 50, 40, facing=90)
    box.place(B0, 50, 70, facing=-90)
    assert box.sight(A0, B0) == 1
    box.script([12])
    box.shoot(A0, B0)
    assert box.cp(B0) == 35
    shot = event_rows(box, L.E_SHOT)[0]
    assert (shot[6], shot[7], shot[8], shot[9]) == (12, 26, 21, 5)


def test_shot_in_the_back_and_miss_on_equal(files):
    box = make(files)
    box.place(A0, 20, 40, facing=90)
    box.place(B0, 20, 70, facing=90)  # looking away: A0 starts in its rear arc
    box.script([12, 6])
    box.shoot(A0, B0)
    assert box.cp(B0) == 40 - 7  # 27 vs 20
    box.start_from(A0, 20, 90)  # began its turn in front of the target: no bonus
    box.shoot(A0, B0)  # 4 + 3 + 7 + 6 = 20 vs 20: equal misses
    assert box.cp(B0) == 33


def test_watchful_gives_one_pd(files):
    box = make(files)
    box.place(A0, 20, 40, facing=90)
    box.place(B0, 20, 70, facing=-90, mode="watchful")
    box.script([12])
    box.shoot(A0, B0)
    assert box.cp(B0) == 40 - 5  # 26 vs 21


def test_front_arc_and_reach(files):
    box = make(files)
    box.place(A0, 20, 40, facing=-90)  # facing away
    box.place(B0, 20, 70, facing=-90)
    assert box.sight(A0, B0) == -1
    box.place(A0, 20, 40, facing=90)
    assert box.sight(A0, B0) == 0
    box.place(B0, 20, 103, facing=-90)  # 63 - 2.5 = 60.5 cm edge to edge > Reach 60
    assert box.sight(A0, B0) == -1


def test_sightline_blocked_by_a_friend_not_by_one_enemy(files):
    box = make(files)
    box.place(A0, 20, 40, facing=90)
    box.place(B0, 20, 70, facing=-90)
    box.place(A1, 20, 55, facing=90)
    assert box.sight(A0, B0) == -1
    box.place(A1, 60, 20)
    box.place(B_BRAWL, 20, 55)
    assert box.sight(A0, B0) == 0


def test_two_stands_stand_to_stand_block_the_same_size_behind(files):
    box = make(files)
    box.place(A0, 20, 40, facing=90)
    box.place(B0, 20, 70, facing=-90)
    box.place(B1, 19.0, 55)
    box.place(B_BRAWL, 21.5, 55)  # in contact with B1, both on the axis
    assert box.sight(A0, B0) == -1


@pytest.mark.parametrize("shooter_side", [0, 1])
def test_two_large_stands_block_whichever_is_near_the_axis(shooter_side):
    """ "Two figurines placed stand to stand interrupt the sightline on a figurine with the
    same size stand located behind them", whatever the figurines' order: the Genetic SU
    shoots the other Genetic SU 30 cm away along x = 60 (border_skirmish, no element in the
    way);
    the enemy Maïnomaï (large stand, 2.5 cm) stands 2 cm off the axis, over it, and the
    shooter's own Maïnomaï touches it 7.05 cm off the axis.  Neither blocks alone (an
    enemy; a friend off the axis); the pair does.  The pair used to be looked at only from
    its lower index (``q > m``), so with the near one the higher index (shooter side A)
    the sightline was open: the greedy's choices were not point-symmetric."""
    box = genetic_box()
    me, you = (1, 4) if shooter_side == 0 else (4, 1)
    near, far = (3, 0) if shooter_side == 0 else (0, 3)
    y0, y1 = (35.0, 65.0) if shooter_side == 0 else (65.0, 35.0)
    box.place(me, 60, y0, facing=90 if shooter_side == 0 else -90)
    box.place(you, 60, y1)
    box.place(near, 62.0, 50)
    assert box.sight(me, you) == 0  # one enemy over the axis does not block
    box.place(far, 67.5, 50)  # 0.5 cm apart: not stand to stand
    assert box.sight(me, you) == 0
    box.place(far, 67.05, 50)  # in contact
    assert box.sight(me, you) == -1


def test_an_element_higher_than_the_target_blocks(files):
    box = make(files)
    box.place(A0, 75, 40, facing=90)
    box.place(B0, 75, 75, facing=-90)  # behind the 4 cm tall wall: higher than 3 cm
    assert box.sight(A0, B0) == -1


def test_no_shooting_into_a_hth(files):
    box = make(files)
    box.place(A0, 20, 40, facing=90)
    box.place(B0, 20, 70, facing=-90)
    box.place(A_BRAWL, 22.5, 70)  # in contact with B0
    assert box.sight(A0, B0) == -1


# ------------------------------------------------------------------ 3.3 HtH
def test_hth_blow_with_synergy_capped_at_three(files):
    """HtH 6 + Force 2 + Maul 4 + synergy 3 (4 friends, capped) + D20 10 = 25 vs PD 20."""
    box = make(files)
    box.place(A_BRAWL, 50, 50)
    box.place(B0, 52.5, 50, facing=180)
    for i in (A0, A1, A_HACK, A_SLOW):  # hand-built: four stands touching both
        box.place(i, 51.25, 52.1)
    box.script([10])
    box.blow(A_BRAWL, B0)
    blow = event_rows(box, L.E_BLOW)[0]
    assert (blow[7], blow[8], blow[9], blow[11]) == (25, 20, 5, 3)
    assert box.cp(B0) == 35


def test_gun_as_a_club_and_back_attack_turns_defender(files):
    box = make(files)
    box.place(A0, 50, 50)  # Gunner: no HtH weapon, the rifle as a club is Power 1
    box.place(B0, 52.5, 50, facing=0)  # looks away from A0
    box.script([15])
    box.blow(A0, B0)
    blow = event_rows(box, L.E_BLOW)[0]
    assert (blow[5], blow[7], blow[10]) == (1, 2 + 1 + 1 + 15, 1)  # +1 in the back
    assert box.cp(B0) == 40 - (19 - 20 if 19 > 20 else 0)
    assert abs(abs(box.facing(B0)) - 180) < 1e-6  # turned to face the attacker


def test_retreat_test_won_and_lost(files):
    box = make(files)
    box.place(A0, 50, 50, facing=0)
    box.place(B_BRAWL, 52.5, 50, facing=180)
    box.place(B0, 50, 52.5, facing=-90)
    box.script([5, 15])  # 2 + 5 = 7 vs Brawler's 8 + 15 = 23 (owner picks the best HtH)
    assert not box.retreat(A0, kind=0)
    assert box.pos(A0) == (50, 50)
    test = event_rows(box, L.E_RETREAT)[0]
    assert (test[4], test[5], test[6]) == (B_BRAWL, 7, 23)
    box.script([11, 5])  # 13 vs 13: a draw fails ("the result is higher")
    assert not box.retreat(A0, kind=0)
    box.script([20, 1])  # 22 vs 9: backs away Movement 12 + 5 cm
    assert box.retreat(A0, kind=0)
    x, y = box.pos(A0)
    assert np.hypot(x - 50, y - 50) == pytest.approx(17, abs=0.05)


def test_fighting_retreat_halves_movement_and_skill(files):
    box = make(files)
    box.place(A0, 50, 50, facing=0)
    box.place(B0, 52.5, 50, facing=180)
    box.script([20, 1, 10])
    assert box.retreat(A0, kind=1)
    assert box.pos(A0)[0] == pytest.approx(44, abs=0.05)
    shot = event_rows(box, L.E_SHOT)[0]
    assert shot[7] == 2 + 3 + 7 + 10  # Skill 4 halved = 2
    assert shot[10] & 2


# ------------------------------------------------------------------ 3.1 Movements
def test_difficult_terrain_halves_and_stops_inside(files):
    box = make(files)
    box.place(A0, 5, 20)
    box.move(A0, 60, 20)  # 5 cm to the rubble, then 7 cm of Movement = 3.5 cm inside
    assert box.pos(A0) == pytest.approx((13.5, 20))
    assert event_rows(box, L.E_MOVE)[0][9] == 1


def test_climbing_refused_at_half_the_movement(files):
    box = make(files)
    box.place(A_SLOW, 95, 44)  # Movement 6: the 4 cm wall is not under 3 cm
    box.move(A_SLOW, 95, 60)
    _x, y = box.pos(A_SLOW)
    assert y == pytest.approx(50 - 1.25, abs=0.05)
    box.move(A_SLOW, 95, 60)  # climbs it at its next turn
    assert box.pos(A_SLOW)[1] == pytest.approx(52 + 1.3, abs=0.05)
    box.place(A_SLOW, 110, 20)
    box.place(A0, 95, 44)  # Movement 12: 4 < 6 climbs over, as difficult terrain
    box.move(A0, 95, 70)  # 6 cm to the wall, 2 cm across it cost 4, 2 cm beyond
    assert box.pos(A0)[1] == pytest.approx(54, abs=0.05)


def trooper_box(scenario="virus_raid"):
    """The sample cards (Trooper section vs Chronos strike team) on a sample scenario."""
    sides = ENGINE.load_sides(
        LISTS / "trooper_section.yaml", LISTS / "chronos_strike_team.yaml", None
    )
    return Sandbox(
        ENGINE.prepare(
            sides.cards, sides.lists, policies=("greedy", "greedy"), options={}, scenario=scenario
        )
    )


BRUTE = 4  # Trooper section: Troopers 0-3, Brute 4 (Movement 14); server racks: element 0


def test_a_climb_ends_beyond_the_element_however_short_the_move():
    """ "Climbs it at its next turn": the Brute (Movement 14) stops at the foot of the 8 cm
    server racks (x 40-50, y 30-33), then climbs them even toward a point on them, and
    lands with its stand (1.25 cm) clear of them: y = 33 + 1.25 + 0.05."""
    box = trooper_box()
    box.place(BRUTE, 45, 20)
    box.move(BRUTE, 45, 40)
    assert box.pos(BRUTE) == pytest.approx((45, 30 - 1.25 - 0.01), abs=1e-6)
    assert box.s[BRUTE, L.S_CLIMB] == 1
    box.move(BRUTE, 45, 31)  # on the racks
    assert box.pos(BRUTE) == pytest.approx((45, 34.3), abs=1e-6)
    assert [r[9] for r in event_rows(box, L.E_MOVE)] == [2, 3]
    assert box.s[BRUTE, L.S_CLIMB] == 0


def test_a_diagonal_climb_lands_clear_of_the_element():
    """From the foot at (45, 28.75) at 45 degrees: the stand clears the racks' box grown by
    its radius (y 33 + 1.25) after 5.5 cm, + 0.05 cm: (50.54, 34.29) (it used to land at
    the element's edge + 1.3 cm along the move, the stand still over the racks)."""
    box = trooper_box()
    box.place(BRUTE, 45, 28.75)
    box.s[BRUTE, L.S_CLIMB] = 1
    box.move(BRUTE, 55, 38.75)
    d = 5.5 + 0.05 / np.sqrt(2)
    assert box.pos(BRUTE) == pytest.approx((45 + d, 28.75 + d), abs=1e-6)


def test_a_climb_with_its_landing_taken_waits_at_the_foot():
    """A stand on the landing: the climb does not happen (no backing off onto the near
    side); the Brute stays at the foot, still to climb, and climbs once the way is free."""
    box = trooper_box()
    box.place(BRUTE, 45, 28.75)
    box.s[BRUTE, L.S_CLIMB] = 1
    box.place(0, 45, 35)
    box.move(BRUTE, 45, 40)
    assert box.pos(BRUTE) == (45, 28.75)
    assert box.s[BRUTE, L.S_CLIMB] == 1
    box.place(0, 30, 20)
    box.move(BRUTE, 45, 40)
    assert box.pos(BRUTE) == pytest.approx((45, 34.3), abs=1e-6)


def test_two_figurines_at_the_two_feet_of_one_element_both_climb():
    """Issue 14's AI nit: Trooper 0 at the north foot of the racks and the Brute at the
    south foot, each to climb at this turn ("climbs it at its next turn"): the straight
    landing of each is the other's place.  The climb candidates one stand's width to
    either side let Trooper 0 land beside the Brute, then the Brute climbs straight
    (before, both stayed at their feet, each blocking the other, turn after turn)."""
    box = trooper_box()
    r0 = float(box.arrays[1][0, L.R_RADIUS])
    box.place(0, 45, 33 + r0 + 0.01, facing=-90)
    box.s[0, L.S_CLIMB] = 1
    box.place(BRUTE, 45, 28.75)
    box.s[BRUTE, L.S_CLIMB] = 1
    box.movement_phase(0)
    stops = {r[3]: r[9] for r in event_rows(box, L.E_MOVE) if r[3] in (0, BRUTE)}
    assert stops == {0: 3, BRUTE: 3}
    assert box.pos(0)[1] < 30 - r0
    assert box.pos(BRUTE)[1] > 33 + 1.25
    assert box.s[0, L.S_CLIMB] == 0 and box.s[BRUTE, L.S_CLIMB] == 0


def test_a_move_cut_short_by_a_stand_is_not_a_stop_at_the_foot():
    """A walk toward the racks that backs off from a stand ends short of their foot: an
    ordinary stop (code 0), no climb at the next turn."""
    box = trooper_box()
    box.place(0, 45, 27.5)  # a Trooper at the foot
    box.place(BRUTE, 45, 15)
    box.move(BRUTE, 45, 40)
    x, y = box.pos(BRUTE)
    assert x == 45 and y < 27.5 - 2.5 and y > 27.5 - 2.5 - 0.25
    assert event_rows(box, L.E_MOVE)[0][9] == 0
    assert box.s[BRUTE, L.S_CLIMB] == 0


def test_greedy_brute_at_the_foot_climbs_toward_the_terminal():
    """Alone with a far enemy, the greedy Attacker's Brute at the racks' foot climbs them
    on its next movement phase and ends beyond them (toward the terminal at 57-63, 42-48)."""
    box = trooper_box()
    box.set_attacker(0)
    box.place(BRUTE, 45, 28.75)
    box.s[BRUTE, L.S_CLIMB] = 1
    box.place(6, 110, 85)
    box.movement_phase(0)
    x, y = box.pos(BRUTE)
    assert x > 45 and y > 30 and (x > 50 + 1.25 or y > 33 + 1.25), (x, y)
    assert [r[9] for r in event_rows(box, L.E_MOVE)] == [3]


#: The test ground's header (table, turn limit) with two 8 cm walls, the second at y Y2.
TWO_WALLS = (
    SCENARIO.split("elements:")[0].replace("OBJ", "elimination")
    + """elements:
  - {name: first wall, x: 40, y: 30, w: 10, d: 2, height: 8, cover: heavy}
  - {name: second wall, x: 40, y: Y2, w: 10, d: 2, height: 8, cover: heavy}
"""
)


def walls_box(tmp_path, y2, first_row):
    """The Gunner (Movement 12, stand 1.25 cm) at the foot of the first of two 8 cm walls
    (too high to climb over: a stop at the foot, a climb next turn); ``first_row``: the
    row of the first wall among the elements (both orders are played)."""
    text = TWO_WALLS.replace("Y2", str(y2))
    if first_row == 1:
        lines = text.splitlines()
        lines[-2], lines[-1] = lines[-1], lines[-2]
        text = "\n".join(lines) + "\n"
    (tmp_path / "units.yaml").write_text(CARDS)
    (tmp_path / "a.yaml").write_text(LIST_A)
    (tmp_path / "b.yaml").write_text(LIST_B)
    (tmp_path / "walls.yaml").write_text(text)
    box = make(tmp_path, scenario="walls.yaml")
    box.place(A0, 45, 30 - 1.25 - 0.01)
    box.s[A0, L.S_CLIMB] = first_row + 1
    return box


@pytest.mark.parametrize("first_row", [0, 1])
def test_a_climb_onto_a_second_high_element_waits_at_the_foot(tmp_path, first_row):
    """A second 8 cm wall 1 cm beyond the first (y 33-35): the climb's landing (y 32 + 1.25
    + 0.05) would put the stand on it and the move's line enters it, so the climb does not
    happen, whatever the elements' order: the Gunner stays at the foot, still to climb.
    (It used to stand on the first wall at the second one's foot, or land on the second.)"""
    box = walls_box(tmp_path, 33, first_row)
    box.move(A0, 45, 45)
    assert box.pos(A0) == pytest.approx((45, 30 - 1.25 - 0.01))
    assert box.s[A0, L.S_CLIMB] == first_row + 1
    assert event_rows(box, L.E_MOVE)[0][9] == 2


@pytest.mark.parametrize("first_row", [0, 1])
def test_a_climb_lands_between_two_elements_with_room(tmp_path, first_row):
    """The second wall 4.5 cm beyond the first (y 36.5-38.5): room for the stand, which
    lands clear of the first wall (y 32 + 1.25 + 0.05 = 33.3), short of the second."""
    box = walls_box(tmp_path, 36.5, first_row)
    box.move(A0, 45, 45)
    assert box.pos(A0) == pytest.approx((45, 33.3), abs=1e-6)
    assert event_rows(box, L.E_MOVE)[0][9] == 3


def sample_box(list_a, list_b, scenario, **options):
    """A greedy-vs-greedy sandbox of two sample lists (``configs/d20/lists``) on a scenario."""
    sides = ENGINE.load_sides(LISTS / list_a, LISTS / list_b, None)
    return Sandbox(
        ENGINE.prepare(
            sides.cards,
            sides.lists,
            policies=("greedy", "greedy"),
            options=options,
            scenario=scenario,
        )
    )


def raid_box(**options):
    """The sample Chronos strike team (A) vs Genetic hunters (B) on the virus raid."""
    return sample_box("chronos_strike_team.yaml", "genetic_hunters.yaml", "virus_raid", **options)


@pytest.mark.parametrize(("climb_next", "climbs"), [("must", True), ("may", False)])
def test_a_figurine_at_the_foot_climbs_at_its_next_turn(climb_next, climbs):
    """ "3.1 Movements": a figurine stopped at the foot "climbs it at its next turn"
    (``climb_next`` = must).  Turn 4 of virus raid match 5 (seed 2026): the Attacker's Brute
    at the foot of B's server racks (x 70-80, y 57-60) facing the Chronos team beyond
    them; with ``climb_next`` = may (the old behaviour) the greedy Brute stays behind
    the racks (it did so from turn 4 to turn 7)."""
    box = raid_box(climb_next=climb_next)
    brute = 6
    box.set_attacker(1)
    for i, (x, y) in enumerate([(41.8, 41.3), (45.7, 18.1), (42.0, 28.7), (48.2, 15.7)]):
        box.place(i, x, y, facing=45)
    box.place(4, 82.5, 55.1, facing=-135)  # Maïnomaï
    box.place(5, 74.1, 74.9, facing=-135)  # Genetic SU
    box.place(brute, 72.6, 61.3, facing=-135)
    box.s[brute, L.S_CLIMB] = 2  # row 1: the point image of the racks (row 0)
    box.movement_phase(1)
    moves = [r for r in event_rows(box, L.E_MOVE) if r[3] == brute]
    if climbs:
        assert [r[9] for r in moves] == [3]
        assert box.pos(brute)[1] < 57 - 1.25
    else:
        assert box.pos(brute) == (72.6, 61.3)


def genetic_box(**options):
    """The sample Genetic hunters mirror on border_skirmish: A's Maïnomaï 0 (impulsive,
    Movement 15, large stand 2.5 cm), B's Maïnomaï 3 and Brute 5; the building (8 cm, x
    4-20, y 52-66) is element 6, too high for the Maïnomaï to climb over (16 >= 15)."""
    return sample_box("genetic_hunters.yaml", "genetic_hunters.yaml", "border_skirmish", **options)


@pytest.mark.parametrize("blocked", ["round", "wait"])
def test_impulsive_figurine_whose_climb_cannot_land_goes_round(blocked):
    """Turn 4 of border_skirmish match 3 (Genetic mirror, seed 2026): A's Maïnomaï waits at
    the building's south-east corner to climb it, straight at the nearest enemy, B's Brute
    at the north foot, which takes the landing.  It used to "move" 0 cm to the same spot,
    still at the foot, turn after turn; now (``impulsive_move``) neither side landing can
    land (the left one is taken too, the right one does not cross the building), so it
    goes round by the corner (through the pond: stopped in difficult terrain), nearer the
    Brute, and no longer waits to climb (``impulsive_blocked`` = wait: the behaviour
    before, it stays at the foot, still to climb)."""
    box = genetic_box(impulsive_blocked=blocked)
    box.place(0, 20.5, 49.5, facing=90)
    box.s[0, L.S_CLIMB] = 7  # row 6, the building
    box.place(3, 99.1, 70.5, facing=-90)
    box.place(5, 13.6, 67.3, facing=-90)
    gap0 = np.hypot(20.5 - 13.6, 49.5 - 67.3)
    box.movement_phase(0)
    moves = [r for r in event_rows(box, L.E_MOVE) if r[3] == 0]
    if blocked == "wait":
        assert [r[9] for r in moves] == [2]
        assert box.pos(0) == (20.5, 49.5)
        assert box.s[0, L.S_CLIMB] == 7
        return
    assert [r[9] for r in moves] == [1]  # stopped in the pond, not at the foot
    x, y = box.pos(0)
    assert (x, y) == pytest.approx((23.883, 61.467), abs=1e-3)
    assert np.hypot(x - 13.6, y - 67.3) < gap0 - 5.0
    assert box.s[0, L.S_CLIMB] == 0


def test_impulsive_figurine_climbs_beside_a_taken_landing():
    """The Maïnomaï at the building's south foot (12, 49.5), to climb it; B's Brute stands
    on the straight landing (12, 68.9): it climbs to the landing one stand's width plus
    0.4 cm to the right (17.4, 68.6), its stand clear of the building (y 66 + 2.5 + 0.05
    along the line), the nearer of the two to the Brute that can land."""
    box = genetic_box()
    box.place(0, 12.0, 49.5, facing=90)
    box.s[0, L.S_CLIMB] = 7
    box.place(3, 99.1, 70.5, facing=-90)
    box.place(5, 12.0, 68.9, facing=-90)
    box.movement_phase(0)
    assert [r[9] for r in event_rows(box, L.E_MOVE) if r[3] == 0] == [3]
    x, y = box.pos(0)
    assert y == pytest.approx(68.548, abs=1e-3)
    assert x == pytest.approx(12.0 + 5.4 * (68.548 - 49.5) / (68.6 - 49.5), abs=1e-2)
    assert box.s[0, L.S_CLIMB] == 0


def test_watchful_moves_half(files):
    box = make(files)
    box.place(A0, 60, 40)
    box.move(A0, 60, 80, mode="watchful")
    assert box.pos(A0)[1] == pytest.approx(46)


def test_ready_to_shoot_fires_at_the_first_enemy_entering(files):
    box = make(files)
    box.place(A0, 60, 20, facing=90, mode="ready")
    box.place(B0, 60, 92, facing=-90)  # 69.5 cm edge to edge: out of Reach
    box.place(B1, 64, 92, facing=-90)
    box.script([12, 12])
    box.move(B0, 60, 70)  # enters the 60 cm Reach: shot at once
    assert box.cp(B0) == 40 - 6
    assert event_rows(box, L.E_SHOT)[0][10] & 4
    box.move(B1, 64, 70)  # the ready figurine fired at its first target only
    assert box.cp(B1) == 40 and box.dice_used() == 1


def test_take_cover_only_within_five_cm(files):
    box = make(files)
    box.place(B_GUN, 75, 100, facing=-90)
    box.place(A0, 83, 63, facing=90)  # in the Gunner's sight; the wall's shadow 5 cm away
    assert box.take_cover(A0)
    x, y = box.pos(A0)
    assert np.hypot(x - 83, y - 63) <= 5.0 + 1e-6
    assert box.sight(B_GUN, A0) == -1
    box.place(A1, 87, 61, facing=90)  # no protecting point within 5 cm
    assert not box.take_cover(A1)
    assert box.pos(A1) == (87, 61)


def test_idle_turns_make_the_greedy_figurine_close_in(files):
    """AI, not a rule: a figurine that has begun turns without a shot, blow or work weighs
    the approach more (``S_IDLE``), so it leaves a safe spot out of everyone's Reach."""
    moved = []
    for idle in (0, L.IDLE_CAP):
        box = make(files)
        box.place(A_HACK, 60, 20, facing=90)  # Pistol 20 cm; the Gunner's Rifle 60 cm
        box.place(B_GUN, 60, 90, facing=-90)
        box.s[A_HACK, L.S_IDLE] = idle
        box.movement_phase(0)
        moved.append(box.pos(A_HACK))
    assert moved[0] == (60, 20)  # fresh: stays out of the Rifle's threat
    assert moved[1] == pytest.approx((60, 30))  # idle: its full 10 cm Movement at the enemy


# ------------------------------------------------------------------ 3.5, Who starts ?
def test_virus_takes_dl_minus_intelligence_turns(files):
    box = make(files, scenario="virus.yaml")
    box.set_attacker(0)
    box.place(A_HACK, 98.5, 102)  # in front of the DL 15 computer; Intelligence 10
    box.place(B0, 10, 110)
    for turn in range(5):
        box.s[:, L.S_DONE] = 0
        box.action_phase(0)
        assert box.g[L.G_OBJDONE] == (1 if turn == 4 else 0)
    act = event_rows(box, L.E_ACTION)[-1]
    assert (act[5], act[6]) == (5, 5)
    box2 = make(files, scenario="virus.yaml")
    box2.set_attacker(0)
    box2.place(A_HACK, 98.5, 102)
    box2.place(A0, 102, 98.5)
    box2.place(A1, 105.5, 102)  # two helpers: +2, 3 turns
    box2.place(B0, 10, 110)
    box2.g[L.G_PROGRESS] = 2  # (greedy helpers work on the phase they end the work)
    box2.action_phase(0)
    act = event_rows(box2, L.E_ACTION)[0]
    assert (act[3], act[4], act[5], act[6]) == (3, A_HACK, 3, 3)
    assert box2.g[L.G_OBJDONE] == 1


@pytest.mark.parametrize(("progress", "workers"), [(0, 1), (1, 4), (3, 2)])
def test_greedy_helpers_work_only_on_the_phase_they_end_it(files, progress, workers):
    """AI, not a rule: the turns of work count whoever works, and helpers (+1 each, up to
    +3, "Action Synergy on objects") only shorten the work on the phase it ends.  Five
    Attackers in front of the DL 15 computer: the Hacker (Intelligence 10) leads; after
    0 turns no help ends it now (15 - 10 - 3 = 2 > 1): he works alone and the others
    keep their actions; after 1 turn three helpers end it (the Gunners 5 and the Slowpoke
    4; the Brawler, Intelligence 3, does not work); after 3 turns one helper does."""
    box = make(files, scenario="virus.yaml")
    box.set_attacker(0)
    box.g[L.G_PROGRESS] = progress
    spots = [(98.5, 102), (102, 98.5), (105.5, 102), (102, 105.5), (98.5, 98.5)]
    for i, (x, y) in zip((A_HACK, A0, A1, A_SLOW, A_BRAWL), spots, strict=True):
        box.place(i, x, y)
    box.place(B0, 10, 110)
    box.action_phase(0)
    act = event_rows(box, L.E_ACTION)[0]
    assert (act[3], act[4]) == (workers, A_HACK)
    assert box.g[L.G_OBJDONE] == (0 if progress == 0 else 1)
    working = [i for i in (A_HACK, A0, A1, A_SLOW, A_BRAWL) if box.s[i, L.S_ACTED] == 1]
    assert working == [A_HACK, A0, A1, A_SLOW][:workers]
    assert box.s[A_BRAWL, L.S_ACTED] == 0


def test_greedy_does_not_work_on_a_virus_it_cannot_finish(files):
    """AI: on the last turn (8 of 8) the Hacker alone needs 15 - 10 = 5 turns: the virus
    cannot be in by the turn limit, so the greedy Attacker does not work (it may act);
    with 5 turns left it works."""
    for turn, works in ((8, False), (4, True)):
        box = make(files, scenario="virus.yaml")
        box.set_attacker(0)
        box.g[L.G_TURN] = turn
        box.place(A_HACK, 98.5, 102)
        box.place(B0, 10, 110)
        box.action_phase(0)
        assert len(event_rows(box, L.E_ACTION)) == (1 if works else 0)
        assert box.g[L.G_PROGRESS] == (1 if works else 0)


def test_who_starts_bonus_and_reroll(files):
    box = make(files)
    box.script([10, 11, 5, 3])  # A has one infiltration figurine: 11 vs 11, again 6 vs 3
    assert box.rolloff() == (0, 6, 3)


def test_checker_finds_overlaps(files):
    box = make(files)
    box.place(A0, 50, 50)
    box.place(B0, 51, 50)
    assert box.violations() >= 1


# ------------------------------------------------------------------ whole matches
def sample_setup(pa="greedy", pb="greedy", scenario=None, **options):
    sides = ENGINE.load_sides(
        LISTS / "chronos_strike_team.yaml", LISTS / "genetic_hunters.yaml", None
    )
    return ENGINE.prepare(
        sides.cards, sides.lists, policies=(pa, pb), options=options, scenario=scenario
    )


def mirror_setup(pa, pb, scenario=None, **options):
    sides = ENGINE.load_sides(
        LISTS / "chronos_strike_team.yaml", LISTS / "chronos_strike_team.yaml", None
    )
    return ENGINE.prepare(
        sides.cards, sides.lists, policies=(pa, pb), options=options, scenario=scenario
    )


def test_same_seed_same_records_and_no_violations():
    setup = sample_setup(scenario="virus_raid")
    r1, u1 = run_records(ENGINE, setup, 300, 7, threads=1, check=True)
    r2, u2 = run_records(ENGINE, setup, 300, 7, threads=1, check=True)
    assert np.array_equal(r1, r2) and np.array_equal(u1, u2)
    assert r1[:, 7].sum() == 0
    r3, _ = run_records(ENGINE, setup, 300, 8, threads=1)
    assert not np.array_equal(r1, r3)


def test_unit_scores_add_up_to_the_side_score():
    """Each figurine's score column is its CP-weighted points left (rounded down), so a
    side's units add up to its score less at most one point per figurine of rounding."""
    setup = sample_setup()
    rec, urec = run_records(ENGINE, setup, 200, 4, threads=1)
    for side, col in ((0, 1), (1, 2)):
        units = [k for k, u in enumerate(setup.units) if u.side == side]
        total = urec[:, units, 3].sum(axis=1)
        assert np.all(rec[:, col] - total >= 0)
        assert np.all(rec[:, col] - total < len(units))
    assert rec[:, 1].max() > 0 and rec[:, 2].max() > 0


def test_two_threads_on_pieces_match_one():
    setup = sample_setup()
    n = 400
    one, uone = run_records(ENGINE, setup, n, 3, threads=1)
    state = block_states(3, 1, (MATCH_TASK,))[0]
    rec = np.zeros((n, record_width(ENGINE)), dtype=np.int64)
    urec = np.zeros((n, len(setup.units), unit_width(ENGINE)), dtype=np.int64)

    def piece(first, count):
        ENGINE.run_block(
            setup.arrays,
            state,
            first,
            count,
            rec[first : first + count],
            urec[first : first + count],
            False,
            None,
        )

    threads = [
        threading.Thread(target=piece, args=(0, 150)),
        threading.Thread(target=piece, args=(150, 250)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert np.array_equal(rec, one) and np.array_equal(urec, uone)


def test_trace_replays_the_record():
    setup = sample_setup(scenario="virus_raid", pa="random")
    recs, urecs = run_records(ENGINE, setup, 40, 11, threads=1, check=True)
    for k in (0, 17, 39):
        events, rec, urec = trace_events(ENGINE, setup, k, 11)
        assert np.array_equal(rec, recs[k]) and np.array_equal(urec, urecs[k])
        lines = ENGINE.render_trace(setup, events)
        assert lines[-1].startswith("=== End")


def test_greedy_beats_random_on_mirror_lists():
    setup = mirror_setup("greedy", "random", first="alternate")
    rec, _ = run_records(ENGINE, setup, 400, 5, threads=2)
    wins = (rec[:, 0] == 1).sum() + 0.5 * (rec[:, 0] == 0).sum()
    assert wins / len(rec) > 0.8


@pytest.mark.parametrize("scenario", ["border_skirmish", "virus_raid"])
def test_mirror_with_fixed_edges_has_no_deployment_bias(scenario):
    """Side A always deploys from the same border or corner (the engine never swaps the
    frames: B's is A's turned through 180 degrees); with the same list on both sides and
    the first player alternated, the score margin is 0 within 5 standard errors."""
    setup = mirror_setup("greedy", "greedy", scenario=scenario, first="alternate")
    rec, _ = run_records(ENGINE, setup, 600, 21, threads=1)
    margin = (rec[:, 1] - rec[:, 2]).astype(float)
    se = margin.std(ddof=1) / np.sqrt(len(margin))
    assert se > 0.0
    assert abs(margin.mean()) <= 5.0 * se


def test_trace_names_a_won_retreat_as_a_retreat_not_a_normal_move():
    """Rule "Retreat": the move after a won retreat test is the retreat itself."""
    from analyzer import paths
    from analyzer.match import prepare, trace_match

    lists = sorted(paths.system_config("d20", "lists").glob("*.yaml"))
    setup = prepare("d20", lists[0], lists[1], policies=("random", "random"), options={})
    lines = trace_match("d20", setup, 0, 1)
    won = [n for n, line in enumerate(lines) if "retreat test" in line and "succeeds" in line]
    assert won  # match 0 of seed 1 has one (B's Maïnomaï backs away shooting)
    for n in won:
        mover = lines[n].split(" tries")[0].strip()
        move = lines[n + 1].strip()
        assert move.startswith(f"{mover}: flees") or move.startswith(f"{mover}: backs away")


@pytest.mark.slow
def test_greedy_attacker_inserts_the_virus_in_the_trooper_mirror():
    """AI: in the Trooper mirror on the virus raid (DL 15, Intelligence 5: 10 turns alone,
    7 with three helpers, turn limit 10) the greedy Attacker used to rush every figurine
    to the computer, where all worked and were shot: the virus was never in (0 of 2,000
    matches, seed 2026, first player alternated) and the Attacker won 16.  Now one leads
    the work early, the helpers fight until the phase their help ends it, and the
    Attacker deploys at the front of its corner."""
    sides = [LISTS / "trooper_section.yaml"] * 2
    setup = prepare("d20", *sides, policies=("greedy", "greedy"), scenario="virus_raid",
                    options={"first": "alternate"})  # fmt: skip
    rec, _ = run_records(ENGINE, setup, 2000, 2026, threads=2)
    done = int(rec[:, N_STANDARD + 1].sum())
    attacker_wins = int((rec[:, 0] == rec[:, N_STANDARD] + 1).sum())
    assert done >= 5
    assert attacker_wins >= 100
