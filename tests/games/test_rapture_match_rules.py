"""Rapture match engine: one rule per test, on hand-built positions with scripted dice.

Each test places models on an empty battlefield (test cards below, not the sample data),
scripts the dice in rolling order, forces the reactions, runs one engine operation and
asserts the exact outcome.  Rulebook: ``rapture.txt``; sections are named per test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.errors import InputError
from analyzer.games.rapture.match import MatchOptions, prepare
from analyzer.games.rapture.match import layout as L
from analyzer.games.rapture.match.sandbox import Sandbox

UNITS = """
system: rapture
source: rule-test cards
units:
  - {name: Charger, type: hero, faction: Test, points: 20, hp: 2, mp: 5, ap: 3, rp: 3,
     ccs: 3, mms: 5, defense: 0, ini: 3, mov: 12, tec: 1, att: 4, rof: 0,
     morale_effects: [{box: 5, effect: escape}]}
  - {name: Helper, type: hero, faction: Test, points: 10, hp: 4, mp: 4, ap: 3, rp: 3,
     ccs: 4, mms: 5, defense: 0, ini: 1, mov: 12, tec: 1, att: 2, rof: 0}
  - {name: Gunner, type: hero, faction: Test, points: 20, hp: 6, mp: 5, ap: 3, rp: 3,
     ccs: 4, mms: 3, defense: 0, ini: 2, mov: 12, tec: 2, att: 3, rof: 3,
     weapon: {name: Rifle, range: 30}}
  - {name: Brute, type: hero, faction: Test, points: 30, hp: 8, mp: 6, ap: 3, rp: 3,
     ccs: 3, mms: 6, defense: 3, ini: 2, mov: 10, tec: 2, att: 4, rof: 0, base: 40}
  - {name: Victim, type: hero, faction: Test, points: 15, hp: 2, mp: 4, ap: 3, rp: 3,
     ccs: 3, mms: 5, defense: 0, ini: 1, mov: 12, tec: 2, att: 3, rof: 0}
  - {name: Big, type: hero, faction: Test, points: 100, hp: 1, ap: 3, rp: 3,
     ccs: 4, mms: 5, defense: 0, ini: 1, mov: 12, tec: 0, att: 1, rof: 0}
  - {name: Lea, type: leader, faction: Test, points: 12, hp: 3, mp: 4, ap: 3, rp: 2,
     ccs: 4, mms: 4, defense: 0, ini: 2, mov: 12, tec: 1, att: 2, rof: 0, apprentices: [App]}
  - {name: App, type: apprentice, faction: Test, leader: Lea, points: 6, hp: 2, ap: 2, rp: 1,
     ccs: 5, mms: 5, defense: 0, ini: 1, mov: 12, tec: 0, att: 1, rof: 0}
  - {name: Trio, type: squad, faction: Test, models: 3, points: 18, hp: 2, mp: 4, ap: 2, rp: 2,
     ccs: 4, mms: 5, defense: 1, ini: 1, mov: 10, tec: 0, att: 2, rof: 0}
"""


def _write(tmp: Path, name: str, units: list[str]) -> Path:
    path = tmp / f"{name}.yaml"
    body = "\n".join(f"  - {{unit: {u}}}" for u in units)
    path.write_text(f"name: {name}\nsystem: rapture\npoints_limit: 200\nunits:\n{body}\n")
    return path


@pytest.fixture(scope="module")
def cards(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("rules")
    (tmp / "units.yaml").write_text(UNITS)
    return tmp


def box_for(tmp: Path, a: list[str], b: list[str], **options: object) -> Sandbox:
    setup = prepare(
        _write(tmp, "A", a),
        _write(tmp, "B", b),
        units=tmp / "units.yaml",
        options=MatchOptions(missions=False, **options),  # type: ignore[arg-type]
    )
    return Sandbox(setup)


# ------------------------------------------------------------------ reactions
def test_countershot_kills_the_charger_before_contact(cards: Path) -> None:
    # "Reaction: Countershot": MMS+1, and "If you disable an opposing unit with a
    # countershot, it is removed ... without being able to start its movement".
    box = box_for(cards, ["Charger", "Helper"], ["Gunner"])
    box.place("A", "Charger", 45, 30)
    box.place("A", "Helper", 10, 5)
    box.place("B", "Gunner", 45, 40)
    box.start()
    box.force("countershot")
    box.script([6, 6, 6])
    box.charge("A", "Charger", 45, 40 - 3.01)
    shot = box.events_of(L.EV_ATTACK)
    assert len(shot) == 1 and shot[0, 7] == 100 + L.RE_COUNTERSHOT
    assert shot[0, 8] == 3 and shot[0, 9] == 4  # 3 dice (ROF) at MMS 3+1
    assert not box.alive("A", "Charger")
    assert len(box.events_of(L.EV_MOVE)) == 0  # it never moved
    assert box.rp("B", "Gunner") == 1  # 2 RP paid
    assert box.vp("B") == 20  # the Charger's points (A still has the Helper: no bonus)
    assert box.dice_left() == 0


def test_charger_surviving_the_countershot_reaches_contact(cards: Path) -> None:
    box = box_for(cards, ["Charger"], ["Gunner"])
    box.place("A", "Charger", 45, 30)
    box.place("B", "Gunner", 45, 40)
    box.start()
    box.force("countershot")
    box.script([1, 1, 1])
    box.charge("A", "Charger", 45, 40 - 3.01)
    assert box.alive("A", "Charger")
    _, y = box.pos("A", "Charger")
    assert y == pytest.approx(40 - 3.01, abs=0.01)  # B2B (bases 1.5 + 1.5 cm)
    assert box.MI[box.model("A", "Charger"), L.MI_ENG] == 1
    assert box.ap("A", "Charger") == 2


def test_counterblow_only_by_survivors(cards: Path) -> None:
    # "Reaction: Counterblow": "Models that you need to remove as a casualty after the
    # original attack may not perform a counterblow. You will also not regain the costs."
    box = box_for(cards, ["Brute"], ["Victim", "Helper"])
    box.place("A", "Brute", 45, 40)
    box.place("B", "Victim", 45, 40 + 2.0 + 1.5 + 0.01)
    box.place("B", "Helper", 10, 85)
    box.start()
    box.force("counterblow")
    box.script([6, 6, 6, 6])  # 4 hits at 3+, no block dice (DEF 0): the Victim falls
    box.close_combat("A", "Brute", "B", "Victim")
    reactions = box.events_of(L.EV_REACTION)
    assert len(reactions) == 1 and reactions[0, 7] == L.RE_COUNTERBLOW
    assert not box.alive("B", "Victim")
    assert box.hp("A", "Brute") == 8
    kinds = box.events_of(L.EV_ATTACK)[:, 7]
    assert list(kinds) == [L.A_CC]  # no counterblow rolled
    assert box.dice_left() == 0


def test_counterblow_by_a_survivor_hits_at_ccs_plus_one(cards: Path) -> None:
    box = box_for(cards, ["Brute"], ["Victim"])
    box.place("A", "Brute", 45, 40)
    box.place("B", "Victim", 45, 40 + 2.0 + 1.5 + 0.01)
    box.start()
    box.force("counterblow")
    # Brute: 4 dice at 3+ all miss; Victim counterblows: 3 dice at 4+ (CCS 3 + 1) all hit;
    # Brute blocks with DEF 3 at 5+ and fails: 3 wounds.
    box.script([1, 1, 1, 1, 4, 4, 4, 1, 2, 3])
    box.close_combat("A", "Brute", "B", "Victim")
    attacks = box.events_of(L.EV_ATTACK)
    assert list(attacks[:, 7]) == [L.A_CC, 100 + L.RE_COUNTERBLOW]
    assert attacks[1, 9] == 4 and attacks[1, 10] == 3
    assert box.hp("A", "Brute") == 5
    assert box.rp("B", "Victim") == 1
    assert box.dice_left() == 0


def test_dodge_removes_attack_dice(cards: Path) -> None:
    # "Reaction: Dodge": TEC dice at 4+, each success removes one attack die.
    box = box_for(cards, ["Charger"], ["Victim"])
    box.place("A", "Charger", 45, 40)
    box.place("B", "Victim", 45, 43.01)
    box.start()
    box.force("dodge")
    box.script([4, 5, 6, 1])  # dodge 2 of 2; the attack keeps 2 of 4 dice: 6, 1
    box.close_combat("A", "Charger", "B", "Victim")
    dodge = box.events_of(L.EV_DODGE)
    assert dodge[0, 7] == 2 and dodge[0, 8] == 2
    attack = box.events_of(L.EV_ATTACK)[0]
    assert attack[8] == 2 and attack[10] == 1
    assert box.hp("B", "Victim") == 1
    assert box.rp("B", "Victim") == 2


def test_shelter_halves_close_combat_defense(cards: Path) -> None:
    # "1. Cover through Shelter Marker": DEF against close combat attacks halved, rounded down.
    box = box_for(cards, ["Charger"], ["Brute"])
    box.place("A", "Charger", 45, 40)
    box.place("B", "Brute", 45, 40 + 1.5 + 2.0 + 0.01)
    box.start()
    box.marker("B", "Brute", "shelter")
    box.force("none")
    box.script([6, 6, 6, 6, 6])  # 4 hits; 1 block die (3 // 2) blocks 1
    box.close_combat("A", "Charger", "B", "Brute")
    block = box.events_of(L.EV_BLOCK)[0]
    assert block[7] == 1 and block[8] == L.BLOCK_AT
    assert box.hp("B", "Brute") == 8 - 3


def test_shelter_against_ranged_attacks_and_seek_shelter(cards: Path) -> None:
    # "Reaction: Seek Shelter": 1 RP, Shelter Marker: +1 DEF, blocks at 4+ against shots.
    box = box_for(cards, ["Gunner"], ["Brute"])
    box.place("A", "Gunner", 45, 20)
    box.place("B", "Brute", 45, 40)
    box.start()
    box.force("seek shelter")
    box.script([6, 6, 6, 4, 4, 1, 1])  # 3 hits; 4 block dice at 4+: 2 blocked
    box.ranged("A", "Gunner", "B", "Brute")
    assert box.markers("B", "Brute", "shelter") == 1
    assert box.rp("B", "Brute") == 2
    block = box.events_of(L.EV_BLOCK)[0]
    assert block[7] == 4 and block[8] == L.SHELTER_BLOCK_AT and block[9] == 2
    assert box.hp("B", "Brute") == 7


# ------------------------------------------------------------ line of fire
@pytest.mark.parametrize(("odd", "to_brute", "to_helper"), [(True, 2, 1), (False, 1, 2)])
def test_line_of_fire_splits_even_and_odd_hits(
    cards: Path, odd: bool, to_brute: int, to_helper: int
) -> None:
    # "Getting into the Line of Fire": even hits to the target, odd hits to the opposing
    # model in the way closest to the target (option: which hits count as odd).
    box = box_for(cards, ["Gunner"], ["Helper", "Brute"], lof_odd_to_interposer=odd)
    box.place("A", "Gunner", 45, 20)
    box.place("B", "Helper", 45, 45)
    box.place("B", "Brute", 45, 33)
    box.start()
    assert box.line_of_fire("A", "Gunner", "B", "Helper") == box.model("B", "Brute")
    box.force("none")
    box.script([6, 6, 6, 1, 1, 1])  # 3 hits; the Brute's 3 block dice fail
    box.ranged("A", "Gunner", "B", "Helper")
    assert box.hp("B", "Brute") == 8 - to_brute
    assert box.hp("B", "Helper") == 4 - to_helper
    assert box.dice_left() == 0


# ---------------------------------------------------------------- cover, LoS
def test_cover_through_obstacles_and_the_b2b_exception(cards: Path) -> None:
    # "3. Cover through Obstacles" with examples C (attacker B2B with the piece: no cover)
    # and E (both B2B with the same piece: cover).
    box = box_for(cards, ["Gunner"], ["Helper"])
    box.terrain([("obstacle", 40, 32, 10, 2)])
    box.place("A", "Gunner", 45, 20)
    box.place("B", "Helper", 45, 45)
    box.start()
    assert box.sight("A", "Gunner", "B", "Helper") == 1
    box.place("A", "Gunner", 45, 32 - 1.5 - 0.01)
    box.start()
    assert box.sight("A", "Gunner", "B", "Helper") == 0
    box.place("B", "Helper", 45, 34 + 1.5 + 0.01)
    box.start()
    assert box.sight("A", "Gunner", "B", "Helper") == 1
    # the block roll gets +2 DEF: 0 + 2 dice
    box.force("none")
    box.script([6, 6, 6, 1, 1])
    box.ranged("A", "Gunner", "B", "Helper")
    block = box.events_of(L.EV_BLOCK)[0]
    assert block[7] == L.COVER_OBSTACLE and block[11] == 1


def test_buildings_block_line_of_sight(cards: Path) -> None:
    box = box_for(cards, ["Gunner"], ["Helper"])
    box.terrain([("building", 30, 30, 30, 10)])
    box.place("A", "Gunner", 45, 20)
    box.place("B", "Helper", 45, 45)
    box.start()
    assert box.sight("A", "Gunner", "B", "Helper") == -1
    box.place("A", "Gunner", 63.5, 20)  # partly hidden: part of the corridor passes the
    box.place("B", "Helper", 58, 55)  # building's corner: visible, with cover
    box.start()
    assert box.sight("A", "Gunner", "B", "Helper") == 1


def test_close_combats_block_line_of_sight(cards: Path) -> None:
    # "A LoS cannot be drawn through close combats"; other models do not block it (they
    # may get into the line of fire instead).
    box = box_for(cards, ["Gunner", "Charger"], ["Helper", "Brute"])
    box.place("A", "Gunner", 45, 20)
    box.place("B", "Helper", 45, 45)
    box.place("B", "Brute", 45, 32)
    box.place("A", "Charger", 10, 80)
    box.start()
    assert box.sight("A", "Gunner", "B", "Helper") == 0
    assert box.line_of_fire("A", "Gunner", "B", "Helper") == box.model("B", "Brute")
    box.place("A", "Charger", 45 + 2.0 + 1.5 + 0.01, 32)  # now the Brute is tied in combat
    box.start()
    assert box.sight("A", "Gunner", "B", "Helper") == -1
    assert box.line_of_fire("A", "Gunner", "B", "Helper") == -1


# --------------------------------------------------------------- morale
def test_escape_movement_and_rescue(cards: Path) -> None:
    # "Escape and Rescue": marking the Escape box gives the Escape Marker and an immediate
    # escape movement towards the own edge; an ally ending a move B2B rescues (+1 MP).
    box = box_for(cards, ["Charger", "Helper"], ["Gunner"])
    box.place("A", "Charger", 45, 40)
    box.place("A", "Helper", 36, 28)
    box.place("B", "Gunner", 45, 80)
    box.start()
    box.lose_mp("A", "Charger", 5, 1)
    assert box.markers("A", "Charger", "escape") == 1
    x, y = box.pos("A", "Charger")
    assert (x, y) == pytest.approx((45, 40 - 12))  # the unmodified MOV 12
    assert box.ap("A", "Charger") == 2  # "always costs 1 AP (if available)"
    box.move("A", "Helper", 45 - 3.0, 28)
    assert box.markers("A", "Charger", "escape") == 0
    assert box.mp_lost("A", "Charger") == 4


def test_escaping_off_the_battlefield_scores_for_the_side_that_erased_the_mp(
    cards: Path,
) -> None:
    box = box_for(cards, ["Charger", "Helper"], ["Gunner"])
    box.place("A", "Charger", 45, 8)
    box.place("A", "Helper", 10, 60)
    box.place("B", "Gunner", 45, 80)
    box.start()
    box.lose_mp("A", "Charger", 5, 1)
    assert box.status("A", "Charger") == 2  # escaped
    assert box.vp("B") == 20


def test_escape_marker_at_the_end_counts_as_casualty(cards: Path) -> None:
    box = box_for(cards, ["Charger", "Helper"], ["Gunner"])
    box.terrain([("building", 40, 20, 10, 5)])
    box.place("A", "Charger", 45, 27)  # the escape route is blocked by a building
    box.place("A", "Helper", 10, 60)
    box.place("B", "Gunner", 45, 80)
    box.start()
    box.lose_mp("A", "Charger", 5, 1)
    assert box.status("A", "Charger") == 0 and box.markers("A", "Charger", "escape") == 1
    box.end()
    assert box.status("A", "Charger") == 2
    assert box.vp("B") == 20


def test_retreat_costs_rp_and_mp_and_moves_half_mov(cards: Path) -> None:
    # "Action: Retreat": 1 RP and 3 MP, halved MOV (rounded down) in a straight line.
    box = box_for(cards, ["Brute"], ["Victim", "Helper"])
    box.place("A", "Brute", 45, 40)
    box.place("B", "Victim", 45, 43.51)
    box.place("B", "Helper", 10, 85)
    box.start()
    box.retreat("B", "Victim", 0.0, 1.0)
    assert box.rp("B", "Victim") == 2
    assert box.mp_lost("B", "Victim") == 3
    _, y = box.pos("B", "Victim")
    assert y == pytest.approx(43.51 + 12 // 2)  # halved MOV, whatever the base
    assert box.MI[box.model("B", "Victim"), L.MI_ENG] == 0


# ---------------------------------------------------- victory points, units
def test_thirty_point_bonus_once_for_100_points(cards: Path) -> None:
    # "End of the Game": disabled units score their points, plus 30 once at 100 points.
    box = box_for(cards, ["Gunner"], ["Big", "Helper", "Victim"])
    box.place("A", "Gunner", 45, 20)
    box.place("B", "Big", 45, 40)
    box.place("B", "Helper", 20, 40)
    box.place("B", "Victim", 70, 40)
    box.start()
    box.force("none")
    box.script([6, 1, 1])
    box.ranged("A", "Gunner", "B", "Big")
    assert box.vp("A") == 100 + 30
    box.script([6, 6, 1, 1])
    box.ranged("A", "Gunner", "B", "Victim")
    assert box.vp("A") == 100 + 30 + 15  # no second bonus


def test_band_leader_takes_the_band_with_it(cards: Path) -> None:
    # "Band": when the leader is removed as a casualty, the apprentices are removed too;
    # victory points for the leader and each apprentice.
    box = box_for(cards, ["Gunner"], ["Lea", "App", "Helper"])
    box.place("A", "Gunner", 45, 20)
    box.place("B", "Lea", 45, 40)
    box.place("B", "Lea", 48.01, 40, k=1)  # the apprentice (second model of the band)
    box.place("B", "Helper", 10, 80)
    box.start()
    box.force("none")
    box.script([6, 6, 6])
    box.ranged("A", "Gunner", "B", "Lea")
    assert not box.alive("B", "Lea") and not box.alive("B", "Lea", k=1)
    assert box.vp("A") == 12 + 6


def test_squad_attacks_roll_together(cards: Path) -> None:
    # "Squad": "Roll all hit rolls of models having the same target model as a single
    # attack"; one action, one AP for the squad.
    box = box_for(cards, ["Trio"], ["Brute"])
    box.place("B", "Brute", 45, 45)
    r = 1.5 + 2.0 + 0.01
    box.place("A", "Trio", 45, 45 - r, k=0)
    box.place("A", "Trio", 45 - r, 45, k=1)
    box.place("A", "Trio", 45 + r, 45, k=2)
    box.start()
    box.force("none")
    box.script([6] * 6 + [1, 1, 1])
    box.close_combat("A", "Trio", "B", "Brute")
    attack = box.events_of(L.EV_ATTACK)
    assert len(attack) == 1 and attack[0, 8] == 6 and attack[0, 12] == 3
    assert box.hp("B", "Brute") == 2
    assert box.ap("A", "Trio") == 1


# -------------------------------------------------------------- markers
def test_fire_damage_in_cleanup_and_poison_on_activation(cards: Path) -> None:
    # "Fire Marker": damage equal to their number in the cleanup phase, then one is removed.
    # "Poison Marker": activating loses 1 AP and one marker.
    box = box_for(cards, ["Gunner"], ["Helper"])
    box.place("A", "Gunner", 45, 20)
    box.place("B", "Helper", 45, 80)
    box.start()
    box.marker("A", "Gunner", "fire", 2, 1)
    box.cleanup()
    assert box.hp("A", "Gunner") == 4
    assert box.markers("A", "Gunner", "fire") == 1
    box.start()
    box.marker("A", "Gunner", "poison", 1, 1)
    box.script([])
    box.activate("A", "Gunner", "random")
    assert box.markers("A", "Gunner", "poison") == 0
    assert len(box.events_of(L.EV_POISON)) == 1


def test_radiation_lowers_ini_and_mov_once(cards: Path) -> None:
    box = box_for(cards, ["Gunner"], ["Helper"])
    box.place("A", "Gunner", 45, 20)
    box.place("B", "Helper", 45, 80)
    box.start()
    box.marker("A", "Gunner", "radiation", 2, 1)
    assert box.markers("A", "Gunner", "radiation") == 1
    assert box.stat("A", "Gunner", "ini") == 1 and box.stat("A", "Gunner", "mov") == 70


# ------------------------------------------------------------- movement
def test_small_obstacle_costs_five_cm(cards: Path) -> None:
    box = box_for(cards, ["Charger"], ["Helper"])
    box.place("A", "Charger", 45, 20)
    box.place("B", "Helper", 45, 85)
    box.start()
    box.move("A", "Charger", 45, 40)
    assert box.pos("A", "Charger")[1] == pytest.approx(32.0)  # the full MOV 12
    box2 = box_for(cards, ["Charger"], ["Helper"])
    box2.terrain([("obstacle", 40, 24, 10, 2)])
    box2.place("A", "Charger", 45, 20)
    box2.place("B", "Helper", 45, 85)
    box2.start()
    box2.move("A", "Charger", 45, 40)
    assert box2.pos("A", "Charger")[1] == pytest.approx(32.0 - 5.0)


def test_water_halves_the_move_and_wounds_on_a_one(cards: Path) -> None:
    box = box_for(cards, ["Gunner"], ["Helper"])
    box.terrain([("water", 30, 15, 30, 10)])
    box.place("A", "Gunner", 45, 20)
    box.place("B", "Helper", 45, 85)
    box.start()
    box.script([1])  # the water roll after the move
    box.move("A", "Gunner", 45, 40)
    assert box.pos("A", "Gunner")[1] == pytest.approx(20 + 12 / 2)
    assert box.hp("A", "Gunner") == 5


def test_failed_difficult_terrain_test_doubles_the_distance(cards: Path) -> None:
    box = box_for(cards, ["Charger"], ["Helper"])
    box.terrain([("difficult", 30, 22, 30, 20)])
    box.place("A", "Charger", 45, 20)
    box.place("B", "Helper", 45, 85)
    box.start()
    box.script([1])  # 5+ improved by TEC 1 is 4+: failed
    box.move("A", "Charger", 45, 40)
    # 2 cm before the piece, then 10 cm of movement at double cost: 5 cm inside
    assert box.pos("A", "Charger")[1] == pytest.approx(22 + 5.0)


def test_round_limit_two_moves(cards: Path) -> None:
    box = box_for(cards, ["Charger"], ["Helper"])
    box.place("A", "Charger", 45, 20)
    box.place("B", "Helper", 45, 85)
    box.start()
    box.move("A", "Charger", 45, 60)
    box.move("A", "Charger", 45, 60)
    n = box.op(17, box.unit("A", "Charger"), 0)  # OP_CANDIDATES, random
    kinds = set(box.C[:n, L.C_KIND].astype(int))
    assert L.A_MOVE not in kinds and L.A_CHARGE not in kinds
    assert box.ap("A", "Charger") == 1


def test_more_models_than_the_engine_holds_is_refused(tmp_path: Path) -> None:
    """The engine's scratch lists hold 48 models; a bigger match-up is refused up front."""
    (tmp_path / "units.yaml").write_text(
        UNITS
        + "  - {name: Mob, type: squad, faction: Test, models: 20, points: 50, hp: 1, mp: 4,\n"
        "     ap: 2, rp: 1, ccs: 5, mms: 5, defense: 0, ini: 1, mov: 10, tec: 0, att: 1,"
        " rof: 0}\n"
    )
    with pytest.raises(InputError, match="80 models in all; the match engine takes at most 48"):
        prepare(_write(tmp_path, "A", ["Mob", "Mob"]), _write(tmp_path, "B", ["Mob", "Mob"]),
                units=tmp_path / "units.yaml")  # fmt: skip


# ------------------------------------------- the rulebook's worked examples
def sample_box(tmp: Path, a: list[str], b: list[str], **options: object) -> Sandbox:
    """A sandbox with the sample cards (``configs/rapture/units.yaml``)."""
    setup = prepare(
        _write(tmp, "A", a),
        _write(tmp, "B", b),
        options=MatchOptions(missions=False, **options),  # type: ignore[arg-type]
    )
    return Sandbox(setup)


def _eleanor(tmp: Path, pieces: list[tuple[str, float, float, float, float]]) -> Sandbox:
    box = sample_box(tmp, ["Eleanor"], ["Kyenar"])
    box.terrain(pieces)
    box.place("A", "Eleanor", 45, 20)
    box.place("B", "Kyenar", 10, 85)
    box.start()
    return box


def test_eleanor_water_example_a(tmp_path: Path) -> None:
    # "Bodies of Water", Example A: MOV 15, water after 1 cm: 14 cm left, halved: "she can
    # still move 7 cm"; then 1D6 for the wound.
    box = _eleanor(tmp_path, [("water", 30, 21, 30, 30)])
    box.script([2])
    box.move("A", "Eleanor", 45, 60)
    assert box.pos("A", "Eleanor")[1] == pytest.approx(20 + 1 + 7)
    assert len(box.events_of(L.EV_WATER)) == 1 and box.hp("A", "Eleanor") == 7


def test_eleanor_water_example_b(tmp_path: Path) -> None:
    # Example B: starting in water, the whole MOV is halved: "Eleanor can only move 7.5 cm".
    box = _eleanor(tmp_path, [("water", 30, 10, 30, 40)])
    box.script([2])
    box.move("A", "Eleanor", 45, 60)
    assert box.pos("A", "Eleanor")[1] == pytest.approx(20 + 7.5)


def test_eleanor_difficult_terrain_example_a(tmp_path: Path) -> None:
    # "Difficult Terrain", Example A: difficult terrain after 4 cm, 11 cm left; the test
    # (5+ improved by TEC 2 to 3+) fails on a 2: "can therefore only cover 5.5 cm".
    box = _eleanor(tmp_path, [("difficult", 30, 24, 30, 20)])
    box.script([2])
    box.move("A", "Eleanor", 45, 60)
    test = box.events_of(L.EV_DIFFICULT)
    assert len(test) == 1 and test[0, 7] == 2 and test[0, 8] == 3 and test[0, 9] == 0
    assert box.pos("A", "Eleanor")[1] == pytest.approx(20 + 4 + 5.5)


def test_eleanor_difficult_terrain_example_b(tmp_path: Path) -> None:
    # Example B: starting in difficult terrain, the test fails: the 3.5 cm to its end count
    # double (7 cm), "move the remaining 8 cm" on the road.
    box = _eleanor(tmp_path, [("difficult", 30, 10, 30, 13.5)])
    box.script([2])
    box.move("A", "Eleanor", 45, 60)
    assert box.pos("A", "Eleanor")[1] == pytest.approx(20 + 3.5 + 8)


def test_base_counts_option_takes_the_base_off(tmp_path: Path) -> None:
    # the other reading, kept as ``base_counts=true``: MOV 15 less the 3 cm base
    box = sample_box(tmp_path, ["Eleanor"], ["Kyenar"], base_counts=True)
    box.place("A", "Eleanor", 45, 20)
    box.place("B", "Kyenar", 10, 85)
    box.start()
    box.move("A", "Eleanor", 45, 60)
    assert box.pos("A", "Eleanor")[1] == pytest.approx(20 + 12)


@pytest.mark.parametrize("base_counts", [False, True])
def test_sample_retreat_moves_halved_mov_rounded_down(tmp_path: Path, base_counts: bool) -> None:
    # "Action: Retreat": "halved MOV (rounded down)": Eleanor (MOV 15) 7 cm, Hilde (12) 6 cm
    box = sample_box(tmp_path, ["Eleanor", "Hilde"], ["Kyenar"], base_counts=base_counts)
    box.place("B", "Kyenar", 45, 45)
    box.place("A", "Eleanor", 45, 45 - 3.01)
    box.place("A", "Hilde", 45 + 3.01, 45)
    box.start()
    box.retreat("A", "Eleanor", 0.0, -1.0)
    box.retreat("A", "Hilde", 1.0, 0.0)
    assert box.pos("A", "Eleanor")[1] == pytest.approx(45 - 3.01 - 7)
    assert box.pos("A", "Hilde")[0] == pytest.approx(45 + 3.01 + 6)


@pytest.mark.parametrize("base_counts", [False, True])
def test_sample_escape_moves_the_unmodified_mov(tmp_path: Path, base_counts: bool) -> None:
    # "Escape and Rescue": "performed with the unit's unmodified movement value (MOV)"
    box = sample_box(tmp_path, ["Eleanor", "Hilde"], ["Kyenar"], base_counts=base_counts)
    box.place("A", "Eleanor", 45, 50)
    box.place("A", "Hilde", 10, 60)
    box.place("B", "Kyenar", 45, 85)
    box.start()
    box.marker("A", "Eleanor", "escape", 1, 1)
    assert box.markers("A", "Eleanor", "escape") == 1
    assert box.pos("A", "Eleanor") == pytest.approx((45, 50 - 15))


def test_ordinary_move_stops_short_of_an_enemy_a_charge_ends_b2b(tmp_path: Path) -> None:
    # "If you are planning on moving into close combat ... you have to call it beforehand":
    # a move not called as a charge may not touch an opposing base; it stops short, the
    # model is not in close combat and may be shot.  A charge ends B2B ("As soon as the
    # base of your model touches a base of an opposing model, your movement action ends").
    box = sample_box(tmp_path, ["Hilde"], ["Kyenar"])
    box.place("A", "Hilde", 45, 30)
    box.place("B", "Kyenar", 45, 40)
    box.start()
    box.move("A", "Hilde", 45, 50)
    gap = 40 - box.pos("A", "Hilde")[1] - 3.0
    assert gap == pytest.approx(L.KEEP_GAP, abs=1e-6) and gap > L.CONTACT
    assert box.MI[box.model("A", "Hilde"), L.MI_ENG] == 0
    box2 = sample_box(tmp_path, ["Hilde"], ["Kyenar"])
    box2.place("A", "Hilde", 45, 30)
    box2.place("B", "Kyenar", 45, 40)
    box2.start()
    box2.force("none")
    box2.charge("A", "Hilde", 45, 40)
    assert 40 - box2.pos("A", "Hilde")[1] - 3.0 < L.CONTACT
    assert box2.MI[box2.model("A", "Hilde"), L.MI_ENG] == 1


# ------------------------------------------- a unit's own models, allies in the way
def _no_overlap(box: Sandbox) -> None:
    alive = [m for m in range(box.MF.shape[0]) if box.MI[m, L.MI_ALIVE] == 1]
    r = box.setup.comp.SF[:, L.SF_R]
    for i, a in enumerate(alive):
        for b in alive[i + 1 :]:
            d = float(((box.MF[a, :2] - box.MF[b, :2]) ** 2).sum() ** 0.5)
            assert d >= r[a] + r[b] - 1e-6, (a, b, d)


def test_band_leader_moves_through_its_apprentice(cards: Path) -> None:
    # "You first move your leader. Afterwards you have to bring the apprentices in
    # formation ... apprentices can always be positioned anew within the formation":
    # an apprentice standing in front does not block its leader.
    box = box_for(cards, ["Lea", "App"], ["Helper"])
    box.place("A", "Lea", 45, 40)
    box.place("A", "Lea", 45, 43.01, k=1)
    box.place("B", "Helper", 10, 85)
    box.start()
    box.move("A", "Lea", 45, 70)
    assert box.pos("A", "Lea") == pytest.approx((45, 52))  # the full MOV 12
    assert box.ap("A", "Lea") == 2
    m, a = box.model("A", "Lea"), box.model("A", "Lea", 1)
    d = float(((box.MF[m, :2] - box.MF[a, :2]) ** 2).sum() ** 0.5)
    assert d == pytest.approx(3.01, abs=0.02)  # the apprentice B2B with its leader
    _no_overlap(box)


def test_squad_moves_across_its_own_row(cards: Path) -> None:
    # "Squad: You measure for every model separately and move it separately. At the end
    # of a movement action all models have to be in formation": a squad moving along its
    # own row moves as a formation, every model its full MOV 10.
    box = box_for(cards, ["Trio"], ["Helper"])
    for k, x in enumerate((40.0, 44.0, 48.0)):
        box.place("A", "Trio", x, 40, k=k)
    box.place("B", "Helper", 10, 85)
    box.start()
    box.move("A", "Trio", 60, 40)
    xs = sorted(box.pos("A", "Trio", k)[0] for k in range(3))
    assert xs == pytest.approx([50.0, 54.0, 58.0])
    _no_overlap(box)


def test_path_goes_around_an_allied_model(cards: Path) -> None:
    # "Movement does not have to be performed in a straight line"; models cannot be moved
    # through: a hero with an ally touching in front walks around it, its full MOV 12.
    box = box_for(cards, ["Charger", "Helper"], ["Gunner"])
    box.place("A", "Charger", 45, 40)
    box.place("A", "Helper", 45, 43.01)
    box.place("B", "Gunner", 10, 85)
    box.start()
    box.move("A", "Charger", 45, 70)
    _, y = box.pos("A", "Charger")
    assert y > 40 + 9  # the detour around the 3 cm bases costs under 3 cm
    mv = box.events_of(L.EV_MOVE)
    assert len(mv) == 1
    assert box.ap("A", "Charger") == 2
    _no_overlap(box)


# ------------------------------- printed combat examples with the sample cards
def _has_lines(box: Sandbox, expected: list[str]) -> None:
    """Every expected play-by-play line appears, in this order (other lines may come between)."""
    lines = [line.split("] ", 1)[-1].strip() for line in box.lines()]  # no "[r1]" prefix
    at = 0
    for want in expected:
        found = [i for i in range(at, len(lines)) if lines[i] == want]
        assert found, f"{want!r} not in {lines[at:]}"
        at = found[0] + 1


def test_raziel_attacks_kyenar_with_scale_skin(tmp_path: Path) -> None:
    # "Action: Close Combat Attack", Example: CCS 3+, 6 ATT, "6 2 1 5 3 3 which corresponds
    # to 4 hits"; Kyenar DEF 1 rolls a 5: 1 blocked, 3 damage; "Scale Skin" reduces it by 1:
    # "the defending player has to mark 2 of Kyenar's HP".
    box = sample_box(tmp_path, ["Raziel"], ["Kyenar"])
    box.place("A", "Raziel", 45, 40)
    box.place("B", "Kyenar", 45, 40 + 2.0 + 1.5 + 0.01)  # 40 mm and 30 mm bases, B2B
    box.start()
    box.force("none")
    box.script([6, 2, 1, 5, 3, 3, 5])
    box.close_combat("A", "Raziel", "B", "Kyenar")
    _has_lines(
        box,
        [
            "close combat attack: A:Raziel -> B:Kyenar: 6 dice at 3+ [6 2 1 5 3 3] = 4 hits",
            "block: B:Kyenar 1 dice at 5+ [5] = 1 blocked, damage -1",
            "B:Kyenar takes 2 wound(s), 6 HP left",
        ],
    )
    assert box.hp("B", "Kyenar") == 8 - 2
    assert box.ap("A", "Raziel") == 2
    assert box.dice_left() == 0


def test_hilde_counterblows_raziel(tmp_path: Path) -> None:
    # "Reaction: Counterblow", Example: Raziel attacks Hilde (1 AP), Hilde counterblows
    # (2 RP) after surviving; CCS 3+ becomes 4+, 4 ATT: "4 4 2 1, which corresponds to 2
    # hits"; Raziel DEF 3 rolls "5 2 1": 1 blocked, "Raziel receives 1 wound".  (The rolls
    # of Raziel's own attack are not printed: here 4 hits, Hilde (DEF 2) blocks none.)
    box = sample_box(tmp_path, ["Raziel"], ["Hilde"])
    box.place("A", "Raziel", 45, 40)
    box.place("B", "Hilde", 45, 40 + 2.0 + 1.5 + 0.01)
    box.start()
    box.force("counterblow")
    box.script([6, 2, 1, 5, 3, 3, 1, 2, 4, 4, 2, 1, 5, 2, 1])  # attack, block; counterblow
    box.close_combat("A", "Raziel", "B", "Hilde")
    _has_lines(
        box,
        [
            "reaction: B:Hilde (B:Hilde) counterblow, 2 RP",
            "close combat attack: A:Raziel -> B:Hilde: 6 dice at 3+ [6 2 1 5 3 3] = 4 hits",
            "B:Hilde takes 4 wound(s), 4 HP left",
            "counterblow: B:Hilde -> A:Raziel: 4 dice at 4+ [4 4 2 1] = 2 hits",
            "block: A:Raziel 3 dice at 5+ [5 2 1] = 1 blocked",
            "A:Raziel takes 1 wound(s), 9 HP left",
        ],
    )
    assert box.hp("A", "Raziel") == 10 - 1
    assert box.ap("A", "Raziel") == 2 and box.rp("B", "Hilde") == 3 - 2
    assert box.dice_left() == 0


def test_leyra_shoots_lincoln(tmp_path: Path) -> None:
    # "Action: Ranged Attack", Example: Leyra (MMS 3+, 4 ROF) rolls "5 4 1 3, which
    # corresponds to 3 hits"; Lincoln (DEF 2) rolls "a 5 and a 1": 1 blocked, "he receives
    # 2 wounds".
    box = sample_box(tmp_path, ["Leyra"], ["Lincoln"])
    box.place("A", "Leyra", 45, 20)
    box.place("B", "Lincoln", 45, 40)  # 17 cm between the bases: in range (25 cm)
    box.start()
    box.force("none")
    box.script([5, 4, 1, 3, 5, 1])
    box.ranged("A", "Leyra", "B", "Lincoln")
    _has_lines(
        box,
        [
            "ranged attack: A:Leyra -> B:Lincoln: 4 dice at 3+ [5 4 1 3] = 3 hits",
            "block: B:Lincoln 2 dice at 5+ [5 1] = 1 blocked",
            "B:Lincoln takes 2 wound(s), 6 HP left",
        ],
    )
    assert box.hp("B", "Lincoln") == 8 - 2
    assert box.dice_left() == 0


def test_noelle_countershoots_kyenar_at_mms_four(tmp_path: Path) -> None:
    # "Reaction: Countershot", Example: "Kyenar is planning to move B2B with Noelle. Noelle
    # performs a countershot ... Noelle's MMS is 3+ ... Noelle countershoots with a MMS of
    # 4+."  (The rolls are not printed: here 4 3 6, 2 hits, Kyenar blocks none, Scale Skin.)
    box = sample_box(tmp_path, ["Kyenar"], ["Noelle"])
    box.place("A", "Kyenar", 45, 30)
    box.place("B", "Noelle", 45, 40)
    box.start()
    box.force("countershot")
    box.script([4, 3, 6, 1])
    box.charge("A", "Kyenar", 45, 40)
    _has_lines(
        box,
        [
            "reaction: B:Noelle (B:Noelle) countershot, 2 RP",
            "countershot: B:Noelle -> A:Kyenar: 3 dice at 4+ [4 3 6] = 2 hits",
            "block: A:Kyenar 1 dice at 5+ [1] = 0 blocked, damage -1",
            "A:Kyenar takes 1 wound(s), 7 HP left",
        ],
    )
    assert box.rp("B", "Noelle") == 3 - 2
    assert box.MI[box.model("A", "Kyenar"), L.MI_ENG] == 1  # it survives and reaches her
    assert box.dice_left() == 0


def _duel(tmp: Path, leyra: tuple[float, float], noelle: tuple[float, float]) -> Sandbox:
    """Leyra (side A) and Noelle (side B) on one level with one obstacle, y 32-34 cm."""
    box = sample_box(tmp, ["Leyra"], ["Noelle"])
    box.terrain([("obstacle", 40, 32, 10, 2)])
    box.place("A", "Leyra", *leyra)
    box.place("B", "Noelle", *noelle)
    box.start()
    return box


def _block_dice_of_a_shot(box: Sandbox, side: str, name: str, tside: str, tname: str) -> int:
    """DEF dice of the target's block roll against one ranged attack (all dice hit)."""
    box.force("none")
    box.script([6] * 4 + [1] * 8)
    box.ranged(side, name, tside, tname)
    return int(box.events_of(L.EV_BLOCK)[-1, 7])


B2B_BELOW = 32 - 1.5 - 0.01  # a 30 mm base touching the obstacle's near side (y 32)
B2B_ABOVE = 34 + 1.5 + 0.01  # ... and its far side (y 34)


def test_cover_example_a_partly_blocked_sight_gives_two_def(tmp_path: Path) -> None:
    # "3. Cover through Obstacles", Example A: Noelle's LoS to Raziel "is blocked by an
    # obstacle, but not completely interrupted. Therefore unit R gets a bonus of +2 DEF".
    box = sample_box(tmp_path, ["Noelle"], ["Raziel"])
    box.terrain([("obstacle", 30, 29, 15, 2)])  # covers the left half of the corridor
    box.place("A", "Noelle", 45, 15)
    box.place("B", "Raziel", 45, 45)
    box.start()
    assert box.sight("A", "Noelle", "B", "Raziel") == 1
    assert _block_dice_of_a_shot(box, "A", "Noelle", "B", "Raziel") == 3 + 2


def test_cover_example_b_an_obstacle_between_covers_both_ways(tmp_path: Path) -> None:
    # Example B: L behind cover gets +2 against N; "If unit L makes a ranged attack on unit N
    # in the next turn, unit N also gets a +2 bonus on its DEF."
    box = _duel(tmp_path, (45, 45), (45, 20))
    assert box.sight("B", "Noelle", "A", "Leyra") == 1
    assert box.sight("A", "Leyra", "B", "Noelle") == 1


def test_cover_example_c_attacker_b2b_with_the_obstacle(tmp_path: Path) -> None:
    # Example C: "Since unit L is B2B with the terrain piece and can see unit N, unit N does
    # not get a bonus on its DEF. When unit N makes a ranged attack on unit L, unit L
    # receives a +2 bonus to its DEF".
    box = _duel(tmp_path, (45, B2B_BELOW), (45, 50))
    assert box.sight("A", "Leyra", "B", "Noelle") == 0
    assert box.sight("B", "Noelle", "A", "Leyra") == 1
    assert _block_dice_of_a_shot(box, "A", "Leyra", "B", "Noelle") == 1  # DEF 1, no bonus
    box.start()
    assert _block_dice_of_a_shot(box, "B", "Noelle", "A", "Leyra") == 1 + 2


def test_cover_example_d_touching_an_obstacle_outside_the_sight_line(tmp_path: Path) -> None:
    # Example D: "Unit L is standing B2B at an obstacle. Since the Line of Sight of unit N is
    # not interrupted by the obstacle, it does not provide cover for unit L."
    box = _duel(tmp_path, (45, B2B_ABOVE), (45, 55))  # Noelle shoots from the open side
    assert box.sight("B", "Noelle", "A", "Leyra") == 0
    assert _block_dice_of_a_shot(box, "B", "Noelle", "A", "Leyra") == 1


def test_cover_example_e_both_b2b_with_the_same_obstacle(tmp_path: Path) -> None:
    # Example E: "Unit N is in B2B with the same cover as unit L. Since the cover is between
    # the two models, unit L gets a bonus on its DEF. Same applies to unit N".
    box = _duel(tmp_path, (45, B2B_ABOVE), (45, B2B_BELOW))
    assert box.sight("B", "Noelle", "A", "Leyra") == 1
    assert box.sight("A", "Leyra", "B", "Noelle") == 1
    assert _block_dice_of_a_shot(box, "B", "Noelle", "A", "Leyra") == 1 + 2
    box.start()
    assert _block_dice_of_a_shot(box, "A", "Leyra", "B", "Noelle") == 1 + 2


# ------------------------------------------------- a squad action, one target unit
def _targets(box: Sandbox) -> list[tuple[int, int]]:
    """(target model, dice) of every attack roll, in rolling order."""
    return [(int(e[6]), int(e[8])) for e in box.events_of(L.EV_ATTACK)]


def test_squad_close_combat_attacks_only_the_target_unit(cards: Path) -> None:
    # "Squad: Models of your squad may attack different models of a target unit with which
    # they are B2B": a model touching the target unit's other model attacks that one; a model
    # touching only another unit does not attack (one action, one target unit).
    box = box_for(cards, ["Trio"], ["Trio", "Victim"])
    gap = 1.5 + 1.5 + 0.01
    for k, x in enumerate((45.0, 60.0)):
        box.place("B", "Trio", x, 45, k=k)
        box.place("A", "Trio", x, 45 - gap, k=k)
    box.place("B", "Trio", 80, 80, k=2)
    box.place("B", "Victim", 30, 45)
    box.place("A", "Trio", 30, 45 - gap, k=2)  # B2B with the Victim only
    box.start()
    box.force("none")
    box.script([1] * 6)
    box.close_combat("A", "Trio", "B", "Trio")
    b0, b1 = box.model("B", "Trio", 0), box.model("B", "Trio", 1)
    assert _targets(box) == [(b0, 2), (b1, 2)]
    assert box.ap("A", "Trio") == 1
    assert box.dice_left() == 2  # nobody rolled at the Victim


def test_squad_ranged_attack_shoots_only_the_target_unit(tmp_path: Path) -> None:
    # "Squad: Models of your squad may attack different models of a target band or squad
    # with a ranged attack ... The targets have to be located in their respective LoS and
    # range": a model that cannot reach the declared model shoots another model of the
    # target unit, never a model of another unit (Raziel, closer to it).
    box = sample_box(tmp_path, ["Railgun Squad"], ["Phalanx", "Raziel"])
    for k, x in enumerate((20.0, 24.0, 28.0)):
        box.place("A", "Railgun Squad", x, 45, k=k)
    box.place("B", "Phalanx", 65, 45, k=0)  # 42 cm from the first model's base: out of range
    box.place("B", "Phalanx", 58, 38, k=1)  # in range of every model
    box.place("B", "Phalanx", 85, 85, k=2)
    box.place("B", "Raziel", 5, 45)
    box.start()
    box.force("none")
    box.script([1] * 6)
    box.ranged("A", "Railgun Squad", "B", "Phalanx", k=1)
    p0, p1 = box.model("B", "Phalanx", 0), box.model("B", "Phalanx", 1)
    assert _targets(box) == [(p1, 2), (p0, 4)]  # the first model's roll comes first
    assert box.hp("B", "Raziel") == 10
    assert box.dice_left() == 0


def test_band_models_may_attack_different_units(cards: Path) -> None:
    # "Band: ... Your leader and apprentices may attack different models of different target
    # units with a ranged attack" and "different models of a target unit with which they
    # are B2B" in close combat: each band model's attack is its own action, at its own cost.
    box = box_for(cards, ["Lea", "App"], ["Helper", "Victim"])
    box.place("A", "Lea", 45, 40)
    box.place("A", "Lea", 48.01, 40, k=1)  # the apprentice
    box.place("B", "Helper", 45, 43.01)  # B2B with the leader only
    box.place("B", "Victim", 51.02, 40)  # B2B with the apprentice only
    box.start()
    box.force("none")
    box.script([1] * 3)
    box.close_combat("A", "Lea", "B", "Helper")
    box.close_combat("A", "Lea", "B", "Victim", k=1)
    assert _targets(box) == [(box.model("B", "Helper"), 2), (box.model("B", "Victim"), 1)]
    assert box.ap("A", "Lea") == 2 and box.ap("A", "Lea", k=1) == 1
    assert box.dice_left() == 0
