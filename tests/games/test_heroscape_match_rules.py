# ruff: noqa: RUF005  (dice scripts are written roll by roll)
"""Rule tests of the Heroscape match engine: hand-built positions, scripted dice, exact
outcomes (``heroscape.txt``; the section of each rule in the test's docstring).

Combat dice are the sample die of ``configs/heroscape/dice.yaml``: faces 1-3 skulls,
4-5 shields, 6 blank (``SKULL``, ``SHIELD``, ``BLANK``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from analyzer.games.heroscape import units as hu
from analyzer.games.heroscape.match import layout as L
from analyzer.games.heroscape.match import scenario as S
from analyzer.games.heroscape.match.engine import ENGINE, kernels
from analyzer.games.heroscape.match.sandbox import BLANK, SHIELD, SKULL, Sandbox

K, H, B = SKULL, SHIELD, BLANK

# A 7 x 7 test battlefield: levels 1-3 and 6, water, toxic water and land, shadow, molten
# lava, a Height 7 wall, an overhang with a gap of 4, a lava field and 6 glyphs.
TEST_MAP = """\
name: Rule test field
rounds: 3
traps: {wounds: 1}
rows:
  - "1gA 1gA 1gA 1gA 1gA 1gA 1gA"
  - "1g 2g 3g 1w 1g 1t 1x"
  - "1g 1s 1g 1m 1g 1gW7 1g"
  - "1g 1g 1g 1g 1g^4 1g 1l"
  - "1g 1g 1g 1g 1g 1g 1g"
  - "1g 1g 6g 1g 1g 1g 1g"
  - "1gB 1gB 1gB 1gB 1gB 1gB 1gB"
glyphs:
  - {kind: astrid, row: 4, col: 0}
  - {kind: gerda, row: 4, col: 1}
  - {kind: dagmar, row: 4, col: 2}
  - {kind: ivor, row: 6, col: 6}
  - {kind: haukeland, row: 4, col: 4}
  - {kind: brooch, row: 4, col: 5, side: symbol}
"""
RIVER = """\
name: River
rounds: 3
rows:
  - "1gA 1gA 1gA 1gA 1gA"
  - "1{t} 1{t} 1{t} 1{t} 1{t}"
  - "1gB 1gB 1gB 1gB 1gB"
"""
EXTRA_CARDS = """
  - {name: Test Flyer, uniqueness: unique, kind: hero, figures: 1, life: 3, move: 6, range: 1,
     attack: 3, defense: 3, points: 50, height: 5, size: medium, species: Bird, class: Scout,
     personality: Wild, special_powers: [{name: Flying}], sample: [life]}
  - {name: Test Stealth, uniqueness: unique, kind: hero, figures: 1, life: 3, move: 6, range: 1,
     attack: 3, defense: 3, points: 50, height: 5, size: medium, species: Bird, class: Scout,
     personality: Wild, special_powers: [{name: Stealth Flying}], sample: [life]}
  - {name: Test Grenadier, uniqueness: unique, kind: hero, figures: 1, life: 3, move: 5,
     range: 5, attack: 2, defense: 3, points: 50, height: 5, size: medium, species: Human,
     class: Soldier, personality: Precise, sample: [life],
     special_powers: [{name: Grenade Special Attack, narrative: true,
                       text: "Range 5. Attack 3. Explosion 1."}]}
  - {name: Test Lancer, uniqueness: unique, kind: hero, figures: 1, life: 3, move: 5,
     range: 1, attack: 2, defense: 3, points: 50, height: 5, size: medium, species: Human,
     class: Soldier, personality: Precise, sample: [life],
     special_powers: [{name: Heat Beam Special Attack, narrative: true,
                       text: "Range 1. Attack 4. Line 3."}]}
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("hs")
    (d / "test_map.yaml").write_text(TEST_MAP)
    (d / "river.yaml").write_text(RIVER.format(t="w"))
    (d / "toxic_river.yaml").write_text(RIVER.format(t="t"))
    (d / "units.yaml").write_text(hu.UNITS_FILE.read_text() + EXTRA_CARDS)
    return d


def box(files: Path, a: list[str], b: list[str], scenario: str = "test_map", **opts) -> Sandbox:
    """A sandbox of army A (card names) against army B on a test battlefield."""
    for side, names in (("a", a), ("b", b)):
        body = "".join(f"  - unit: {n}\n" for n in names)
        (files / f"{side}.yaml").write_text(
            f"name: {side}\nsystem: heroscape\npoints_cap: 2000\nunits:\n{body}"
        )
    sides = ENGINE.load_sides(files / "a.yaml", files / "b.yaml", files / "units.yaml")
    setup = ENGINE.prepare(
        sides.cards,
        sides.lists,
        policies=("greedy", "greedy"),
        options=opts,
        scenario=str(files / f"{scenario}.yaml"),
    )
    return Sandbox(setup)


def attacks(sb: Sandbox) -> list[list[int]]:
    """(attacker, target, attack dice, defense dice, skulls, shields, wounds) of each attack."""
    return [list(map(int, r[3:10])) for r in sb.events() if r[0] == L.E_ATTACK]


def test_master_game_attack_examples(files: Path) -> None:
    """ "Master Game Attack Examples": SI-4X (Attack 2) on Cainak, who has height advantage
    (Defense 3 + 1 die): 2 skulls, 2 shields, no wound.  Cainak returns fire with 4 + 1
    dice: 3 skulls; SI-4X rolls 5 + 1 (Obfuscation Matrix counts as shadow): 2 shields,
    1 wound, and with Life 3 stays on the battlefield."""
    sb = box(files, ["Agent SI-4X"], ["Cainak, Private Eye"])
    sb.place(0, 3, 1)  # level 1
    sb.place(1, 1, 1)  # level 2
    sb.script([K, K, H, H, B, K])
    sb.attack(0, 1)
    sb.script([K, K, K, H, B, H, H, K, K, K, B])
    sb.attack(1, 0)
    assert attacks(sb) == [[0, 1, 2, 4, 2, 2, 0], [1, 0, 5, 6, 3, 2, 1]]
    assert sb.wounds(1) == 0 and sb.wounds(0) == 1 and sb.alive(0)
    assert sb.dice_left() == 0


def test_wounds_destroy_at_life_value(files: Path) -> None:
    """ "Destroying Figures": wound markers equal to the Life Value destroy the figure."""
    sb = box(files, ["Feral Troll"], ["Agent SI-4X"])
    sb.place(0, 4, 3)
    sb.place(1, 4, 4)
    sb.script([K, K, K, K, K] + [B] * 6)
    sb.attack(0, 1)
    assert not sb.alive(1) and sb.s[1, L.S_WOUNDS] == 3 and sb.s[0, L.S_DEALT] == 3
    assert sb.m[1][sb.hex_at(4, 4)] == -1


@pytest.mark.parametrize(
    ("where", "defense"),
    [((4, 3), 3), ((2, 1), 4), ((1, 6), 2), ((1, 5), 1)],
)
def test_terrain_defense(files: Path, where, defense) -> None:
    """ "Shadow" +1 (medium figure), "Toxic Land" -1, "Toxic Water" -2 on Cainak (3)."""
    sb = box(files, ["Cainak, Private Eye"], ["Agent SI-4X"])
    sb.place(0, *where)
    assert sb.defense(0) == defense


def test_defend_the_deep(files: Path) -> None:
    """Defend the Deep: +2 on a water space or against an attacker with height advantage."""
    sb = box(files, ["Gelryie Vanguards"], ["Agent SI-4X"])
    sb.place(0, 1, 3)  # water
    sb.place(1, 4, 3)
    assert sb.defense(0) == 4
    sb.place(2, 4, 6)
    assert sb.defense(2) == 2 and sb.defense(2, attacker_higher=True) == 4


def test_climbing_and_descending_costs(files: Path) -> None:
    """ "Moving Through Overhangs" captions: 3 spaces to move up a 2-level ledge (1 per level
    and 1 for the space), 1 to get down."""
    sb = box(files, ["Scarlett"], ["Agent SI-4X"])
    sb.place(0, 2, 2)  # level 1, next to the level-3 space (1, 2)
    assert sb.cost(0, 1, 2) == 3
    assert sb.cost(0, 1, 1) == 2  # one level up
    sb2 = box(files, ["Scarlett"], ["Agent SI-4X"])
    sb2.place(0, 1, 2)
    assert sb2.cost(0, 2, 2) == 1


def test_water_stops_unless_swim_and_toxic_water_does_not(files: Path) -> None:
    """ "Water": entering it ends the move; Swim: no; "Toxic Water": figures do not stop."""
    sb = box(files, ["Scarlett"], ["Agent SI-4X"], scenario="river")
    sb.place(0, 0, 2)
    assert sb.cost(0, 1, 2) == 1 and sb.cost(0, 2, 2) == -1
    sw = box(files, ["Gelryie Vanguards"], ["Agent SI-4X"], scenario="river")
    sw.place(0, 0, 2)
    assert sw.cost(0, 2, 2) == 2
    tx = box(files, ["Scarlett"], ["Agent SI-4X"], scenario="toxic_river")
    tx.place(0, 0, 2)
    assert tx.cost(0, 2, 2) == 2


def test_overhang_gap_and_obstacles(files: Path) -> None:
    """ "Overhangs": a figure taller than the gap cannot pass; "Obstacles" are never entered."""
    sb = box(files, ["Dorim the Bulkhead Brawler", "Scarlett"], ["Agent SI-4X"])
    sb.place(0, 3, 3)
    sb.place(1, 4, 3)
    assert sb.cost(0, 3, 4) == 1  # Height 4 under a gap of 4
    assert sb.cost(1, 3, 4) == -1  # Height 5
    assert sb.cost(0, 2, 5) == -1  # the wall


def test_wall_blocks_line_of_sight() -> None:
    """ "Line of Sight" (the stated geometry): a Height 7 wall between two Height 5 figures
    on level 1 blocks it; nothing between them does not."""
    scen_text = 'name: w\nrounds: 1\nrows:\n  - "1gA 1g 1gW7 1g 1gB"\n  - "1gA 1g 1g 1g 1gB"\n'
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "w.yaml"
        p.write_text(scen_text)
        scen = S.load_scenario(str(p))
    los = S.sight_tables(scen.hx, (5,))[0]
    assert los[0, 4] == 0 and los[5, 9] == 1 and los[0, 1] == 1


def test_molten_lava_ends_the_move_and_a_20_survives(files: Path) -> None:
    """ "Molten Lava": entering ends the move; d20 1-19 destroyed, 20 survives."""
    sb = box(files, ["Scarlett", "Dorim the Bulkhead Brawler"], ["Agent SI-4X"])
    sb.place(0, 3, 3)
    sb.place(1, 3, 2)
    assert sb.cost(0, 1, 4) > 0 and sb.cost(0, 2, 3) == 1
    sb.script([19])
    assert sb.move(0, 2, 3) and not sb.alive(0)
    sb.script([20])
    assert sb.move(1, 2, 3) and sb.alive(1)


def test_falling_damage(files: Path) -> None:
    """Falling (stated reading): a drop of at least the figure's height rolls 1 combat
    die, a skull is 1 wound; the option ``falling=false`` turns it off."""
    sb = box(files, ["Scarlett"], ["Agent SI-4X"])
    sb.place(0, 5, 2)  # level 6, Scarlett Height 5
    sb.script([K])
    assert sb.move(0, 5, 3) and sb.wounds(0) == 1
    off = box(files, ["Scarlett"], ["Agent SI-4X"], falling=False)
    off.place(0, 5, 2)
    off.script([K])
    assert off.move(0, 5, 3) and off.wounds(0) == 0 and off.dice_left() == 1


def test_leaving_engagement_and_flying(files: Path) -> None:
    """Leaving engagement: each enemy left rolls ``leaving_dice`` (1) die, skull = 1 wound;
    "Flying": all engaged enemies attack when it starts to fly; "Stealth Flying": none."""
    for name, expected in (("Scarlett", 1), ("Test Flyer", 1), ("Test Stealth", 0)):
        sb = box(files, [name], ["Agent SI-4X"])
        sb.place(0, 4, 3)
        sb.place(1, 4, 2)
        sb.script([K])
        assert sb.move(0, 4, 6)
        assert sb.wounds(0) == expected, name


def test_flying_passes_over_figures_obstacles_and_water(files: Path) -> None:
    """ "Flying": 1 per space, over figures, obstacles and water, ignoring elevations."""
    sb = box(files, ["Test Flyer", "Scarlett"], ["Agent SI-4X"], scenario="river")
    sb.place(0, 0, 2)
    sb.place(1, 0, 2 + 1)
    assert sb.cost(0, 2, 2) == 2
    assert sb.cost(1, 2, 3) == -1


def test_engaged_figures_attack_only_engaged_enemies(files: Path) -> None:
    """ "Engagement": an engaged figure can target only figures it is engaged with."""
    sb = box(files, ["Scarlett"], ["Agent SI-4X", "Cainak, Private Eye"])
    sb.place(0, 4, 3)
    sb.place(1, 3, 1)
    sb.place(2, 4, 2)
    assert sb.can_target(0, 2) and not sb.can_target(0, 1)
    sb.place(0, 4, 6)  # off the old space: rebuild
    sb.m[1][sb.hex_at(4, 3)] = -1
    assert sb.can_target(0, 2) and sb.can_target(0, 1)


def test_glyphs_astrid_gerda_ivor(files: Path) -> None:
    """ "Permanent Power Glyphs": Astrid +1 Attack, Gerda +1 Defense, Ivor +4 Range (Range 4
    or more) for the Army of the figure standing on them."""
    sb = box(
        files, ["Scarlett", "Agent SI-4X"], ["Cainak, Private Eye", "Dorim the Bulkhead Brawler"]
    )
    sb.place(0, 3, 3)
    sb.place(2, 3, 4)
    sb.place(1, 4, 0)  # A on Astrid
    sb.place(3, 4, 1)  # B on Gerda
    sb.script([B] * 4 + [B] * 5)
    sb.attack(0, 2)
    assert attacks(sb)[0][2:4] == [4, 4]  # Scarlett 3 + 1, Cainak 3 + 1
    far = box(files, ["Scarlett"], ["Agent SI-4X"])
    far.place(0, 0, 0)
    far.place(1, 6, 5)  # 8 spaces away, SI-4X Range 5
    assert not far.can_target(1, 0)
    far.place(1, 6, 6)  # on the Glyph of Ivor: Range 9
    far.m[1][far.hex_at(6, 5)] = -1
    assert far.can_target(1, 0)


def test_dagmar_and_initiative_ties(files: Path) -> None:
    """ "Roll For Initiative": the highest d20 goes first, ties reroll; Dagmar adds 8."""
    sb = box(files, ["Scarlett"], ["Agent SI-4X"])
    sb.place(0, 0, 0)
    sb.place(1, 6, 0)
    sb.script([7, 7, 3, 12])
    assert sb.initiative() == 1
    sb.place(0, 4, 2)  # A on Dagmar
    sb.m[1][sb.hex_at(0, 0)] = -1
    sb.script([5, 12])
    assert sb.initiative() == 0


def test_haukeland_heals_and_leaves(files: Path) -> None:
    """ "Glyph of Haukeland": remove up to 3 Wound Markers from across your figures; a
    temporary glyph is then removed from the game."""
    sb = box(files, ["Dorim the Bulkhead Brawler", "Feral Troll"], ["Agent SI-4X"])
    sb.place(0, 3, 3)
    sb.place(1, 0, 6)
    sb.s[0, L.S_WOUNDS] = 1
    sb.s[1, L.S_WOUNDS] = 4
    assert sb.move(0, 4, 4)
    assert sb.wounds(0) + sb.wounds(1) == 2
    assert sb.m[2][4, L.GS_HEX] == -1


def test_treasure_glyph_trap_and_pick_up(files: Path) -> None:
    """ "Treasure Glyph Traps": d20 1-5 sets off the trap (scenario: 1 wound), the glyph
    stays symbol side up; 6+ picks it up.  Only Unique Heroes pick up Treasure Glyphs.
    The Brooch of Shielding then spares its carrier leaving engagement attacks."""
    sb = box(files, ["Scarlett"], ["Agent SI-4X"])
    sb.place(0, 3, 5)
    sb.script([3])
    assert sb.move(0, 4, 5) and sb.wounds(0) == 1 and sb.s[0, L.S_TREASURE] == 0
    assert sb.move(0, 3, 5)
    sb.script([10])
    assert sb.move(0, 4, 5) and sb.s[0, L.S_TREASURE] == 6
    sb.place(1, 4, 6)
    sb.script([K])
    assert sb.move(0, 4, 3) and sb.wounds(0) == 1 and sb.dice_left() == 1
    sq = box(files, ["Ranoc Vipers"], ["Agent SI-4X"])
    sq.place(0, 3, 5)
    sq.script([10])
    assert sq.move(0, 4, 5) and sq.s[0, L.S_TREASURE] == 0 and sq.dice_left() == 1


def test_double_attack_and_double_space(files: Path) -> None:
    """Double Attack (Queen Maladrix, "Simultaneous Effects"): an additional normal attack.
    "Double-Space Figures": the back end enters the space the leading end just left."""
    sb = box(files, ["Queen Maladrix the Conqueror"], ["Feral Troll"])
    sb.place(0, 4, 2, tail=(4, 3))
    sb.place(1, 5, 4)
    sb.script([B] * 40)
    sb.turn(0)
    assert len(attacks(sb)) == 2
    mv = box(files, ["Queen Maladrix the Conqueror"], ["Feral Troll"])
    mv.place(0, 4, 2, tail=(4, 3))
    mv.place(1, 0, 6)
    assert mv.move(0, 5, 0)  # 2 spaces on (4,1)-(5,0) or (5,1)-(5,0)
    dist = mv.arrays[1]
    head, tail = int(mv.s[0, L.S_HEX]), int(mv.s[0, L.S_TAIL])
    assert mv.where(0) == (5, 0) and dist[head, tail] == 1
    assert dist[tail, mv.hex_at(4, 2)] == 1  # the space the leading end just left
    assert mv.m[1][mv.hex_at(4, 3)] == -1 and mv.violations() == 0


def test_explosion_special_attack(files: Path) -> None:
    """ "Explosion X": one attack roll for the target and every figure adjacent to it
    (friend or foe); each defends separately, the target first; not modified by height."""
    sb = box(files, ["Test Grenadier", "Scarlett"], ["Agent SI-4X", "Cainak, Private Eye"])
    sb.place(0, 5, 2)  # level 6: no extra die for a special attack
    sb.place(2, 3, 3)
    sb.place(3, 3, 2)
    sb.place(1, 0, 0)
    sb.script([K, K, K] + [B] * 6 + [H, B, B])  # SI-4X: 5 + 1 dice, Cainak 3
    sb.special(0, 2)
    got = attacks(sb)
    assert [r[:2] for r in got] == [[0, 2], [0, 3]]
    assert got[0][2:4] == [3, 6] and got[0][6] == 3 and got[1][6] == 2 and sb.dice_left() == 0
    assert not sb.alive(2) and sb.wounds(3) == 2


def test_line_special_attack(files: Path) -> None:
    """ "Line X": X spaces in a straight line from a space next to the attacker; every figure
    on them in line of sight is affected, closest first."""
    sb = box(files, ["Test Lancer"], ["Agent SI-4X", "Cainak, Private Eye", "Scarlett"])
    sb.place(0, 4, 0)
    sb.place(1, 4, 1)
    sb.place(2, 4, 3)
    sb.place(3, 4, 4)  # 4 spaces away: outside Line 3
    sb.script([K, K, K, B] + [B] * 5 + [B] * 3)
    sb.special(0, -1, 0)
    got = attacks(sb)
    assert [r[1] for r in got] == [1, 2] and not sb.alive(1) and sb.wounds(2) == 3


def test_nanite_shielding_and_nanotoxin(files: Path) -> None:
    """ "Nanite Shielding": 1 automatic shield, once a round; "Nanotoxin Coating": +1 wound
    after wounding an adjacent figure with a normal attack, once a round."""
    sb = box(files, ["Destro"], ["Feral Troll"])
    sb.place(0, 4, 3)
    sb.place(1, 4, 4)
    sb.script([K, K, B] + [B, B, B])
    sb.attack(0, 1)
    assert sb.wounds(1) == 3
    sb.script([K, K, B, B, B] + [B, B, B, B])
    sb.attack(1, 0)
    assert sb.wounds(0) == 1
    sb.end_round()
    assert sb.s[0, L.S_NANITE] == 0 and sb.s[0, L.S_NANOTOX] == 0


def test_scoring_examples(files: Path) -> None:
    """ "Scoring": Dorim 100 points / 5 Life with 3 wounds scores 40; 5 Elites of Ullar on
    the battlefield, 3 wounded, are 7 Life at 17.5 points: 122.5."""
    sb = box(files, ["Dorim the Bulkhead Brawler"], ["Elites of Ullar", "Elites of Ullar"])
    sb.place(0, 0, 0)
    sb.s[0, L.S_WOUNDS] = 3
    assert sb.score(0) == 40.0
    for i, col in zip(range(1, 6), range(5), strict=True):
        sb.place(i, 6, col)
    sb.s[1:4, L.S_WOUNDS] = 1
    assert sb.score(1) == 122.5


def test_lava_field_at_the_end_of_the_round(files: Path) -> None:
    """ "Lava Field": at the end of the round a figure on it rolls 1 combat die; skull = 1."""
    sb = box(files, ["Scarlett"], ["Agent SI-4X"])
    sb.place(0, 3, 6)
    sb.place(1, 6, 0)
    sb.script([K])
    sb.end_round()
    assert sb.wounds(0) == 1


def test_order_markers_on_own_cards_only(files: Path) -> None:
    """ "Place Order Markers": 1, 2, 3 and X on the side's own Army Cards (greedy and random)."""
    sb = box(files, ["Scarlett", "Destro"], ["Agent SI-4X", "Feral Troll"])
    for i, where in enumerate([(0, 0), (0, 1), (6, 0), (6, 1)]):
        sb.place(i, *where)
    own = {int(c) for c in np.flatnonzero(sb.arrays[6][:, L.C_SIDE] == 1)}
    for pol in ("greedy", "random", "strong"):
        assert set(sb.markers(1, pol)) <= own


def test_a_squad_activates_up_to_its_silhouettes(files: Path) -> None:
    """ "Move Figures": a Common card moves up to the figures it shows (3 of 6 Vipers)."""
    sb = box(files, ["Ranoc Vipers", "Ranoc Vipers"], ["Agent SI-4X"])
    for i in range(6):
        sb.place(i, 0, i)
    sb.place(6, 6, 3)
    sb.turn(0, "greedy")
    moves = [r for r in sb.events() if r[0] == L.E_MOVE]
    assert len(moves) == 3


def test_map_renderer_writes_a_png(tmp_path: Path) -> None:
    """The PNG renderer draws every bundled map (start zones, glyphs, figures)."""
    from analyzer.games.heroscape.match import render

    events = np.zeros((3, L.EV_COLS), dtype=np.int64)
    events[0, [0, 3, 5]] = [L.E_MOVE, 0, 7]
    events[1, [0, 3, 5]] = [L.E_MOVE, 1, 9]
    events[2, [0, 3]] = [L.E_DESTROYED, 1]
    assert render.final_positions(events, 2) == {0: 7}
    for name in ("open_field", "highlands", "rumble_at_the_rift"):
        out = render.render(S.load_scenario(name), tmp_path / f"{name}.png", {0: 7}, ["X"], [0])
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _adjacent_free(sb: Sandbox, to: tuple[int, int], options) -> tuple[int, int]:
    dist = sb.arrays[1]
    return next(rc for rc in options if dist[sb.hex_at(*rc), sb.hex_at(*to)] == 1)


def test_charge_adds_an_attack_die_until_the_next_order_marker(files: Path) -> None:
    """Charge!!! (the card text is not printed; the reading of docs/rules-choices.md):
    Dorim moves and ends engaged with an enemy he was not adjacent to, so until his player
    reveals the next Order Marker ("Destroyed Figures": the effect lasts "until the next
    time his controlling player reveals an Order Marker") friendly normal attacks roll 1
    more die: Dorim 4 + 1, Scarlett 3 + 1; the enemy's attacks do not."""
    sb = box(files, ["Dorim the Bulkhead Brawler", "Scarlett"], ["Feral Troll"])
    sb.place(0, 5, 3)
    sb.place(1, 6, 6)
    sb.place(2, 4, 6)
    assert sb.m[3][L.G_CHARGE] == 0
    assert sb.move(0, *_adjacent_free(sb, (4, 6), [(5, 5), (5, 6), (3, 5), (3, 6)]))
    assert sb.m[3][L.G_CHARGE] == 1 and sb.m[3][L.G_CHARGE + 1] == 0
    assert [r[3] for r in sb.events() if r[0] == L.E_CHARGE] == [0]
    sb.script([B] * 40)
    sb.attack(0, 2)
    sb.attack(1, 2)
    sb.attack(2, 0)
    assert [a[2] for a in attacks(sb)] == [5, 4, 5]  # Feral Troll: Attack 5, no Charge!!!


def test_charge_not_from_engagement_and_ended_by_the_next_marker(files: Path) -> None:
    """No Charge!!! when Dorim was already adjacent to the enemy he ends engaged with, nor
    with ``charge=false`` (then listed as not modelled); a round's Order Marker reveal
    ends a Charge!!! in effect."""
    sb = box(files, ["Dorim the Bulkhead Brawler"], ["Feral Troll"])
    sb.place(1, 4, 6)
    first, second = [
        rc for rc in [(5, 5), (5, 6), (3, 5), (3, 6)]
        if sb.arrays[1][sb.hex_at(*rc), sb.hex_at(4, 6)] == 1
    ][:2]  # fmt: skip
    sb.place(0, *first)
    assert sb.move(0, *second)
    assert sb.m[3][L.G_CHARGE] == 0
    off = box(files, ["Dorim the Bulkhead Brawler"], ["Feral Troll"], charge=False)
    off.place(0, 5, 3)
    off.place(1, 4, 6)
    assert off.move(0, *first)
    assert off.m[3][L.G_CHARGE] == 0
    assert "Dorim the Bulkhead Brawler: Charge!!!" in off.setup.extra.unmodelled
    rd = box(files, ["Dorim the Bulkhead Brawler"], ["Feral Troll"])
    rd.place(0, *first)
    rd.place(1, 4, 6)
    rd.m[3][L.G_CHARGE] = 1
    rd._op(kernels().OP_ROUND)
    assert not [r for r in rd.events() if r[0] == L.E_CHARGE]
    assert rd.m[3][L.G_CHARGE] == 0 and rd.m[3][L.G_TURNS] > 0
