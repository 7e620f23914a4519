"""Degenesis: Clan Wars mission engine: one rule per test on hand-built states with scripted
dice (``degenesis-clan-wars.txt``), the rulebook's worked examples, then the engine as a
whole (the outcome vocabulary, edges, the policy ladder's direction).

Dice faces are ``configs/degenesis/dice.yaml`` (sample data), scripted by position 1..6:
WHITE 1-2 BLANK, 3-5 one SUCCESS, 6 two; BLACK 1 BOTCH, 2 BLANK, 3 one, 4-5 two, 6 three.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from analyzer.games.degenesis.match import compile as C
from analyzer.games.degenesis.match import layout as L
from analyzer.games.degenesis.match.engine import ENGINE
from analyzer.games.degenesis.match.sandbox import Sandbox
from analyzer.match.options import check_match_options
from analyzer.match.runner import run_records, trace_events

CARDS = """
system: degenesis
units:
  - name: Tester
    kind: operative
    points: 20
    cult: Judges
    concept: IV The Ruler
    focus: {pool: {white: 2}, defense: 2}
    primal: {pool: {white: 1, black: 1}, defense: 1}
    potentials:
      - {name: Guard, cult: Judges, abilities: {defense: 1}}
      - {name: Spare, cult: Judges}
    items:
      - {name: Pistol, side: neutral, attack: {black: 1}, range: 2, keywords: [ranged]}
      - {name: Sprayer, side: focus, attack: {white: 1}, range: 2, keywords: [ranged],
         traits: [{name: Spray, abilities: {area_attack: 1}}]}
      - {name: Zapper, side: neutral, attack: {white: 1}, range: 0, keywords: [melee],
         traits: [{name: Zap, abilities: {stun: 1}}]}
  - {name: Grunt, kind: legion, points: 2, rank: 1, attack: {white: 1}, defense: 1, range: 0}
  - {name: Runt, kind: legion, points: 2, rank: 1, attack: {white: 1}, defense: 1, range: 0}
  - {name: Brute, kind: legion, points: 4, rank: 2, attack: {white: 2}, defense: 2, range: 0,
     trait: {name: Gorge, abilities: {dirty_fighting: 1}}}
  - {name: Sniper, kind: legion, points: 3, rank: 2, attack: {white: 1}, defense: 1, range: 2}
  - name: Boss
    kind: champion
    points: 8
    stages:
      - {attack: {white: 1}, defense: 3, range: 0}
      - {attack: {white: 2}, defense: 1, range: 1}
  - name: Twin
    kind: operative
    points: 20
    cult: Judges
    concept: IV The Ruler
    focus: {pool: {white: 2}, defense: 2}
    primal: {pool: {white: 2}, defense: 2}
    potentials: [{name: Spare, cult: Judges}]
  - name: Fixer
    kind: operative
    points: 20
    cult: Judges
    concept: IV The Ruler
    focus: {pool: {white: 2}, defense: 2}
    primal: {pool: {white: 1}, defense: 1}
    potentials: [{name: Spare, cult: Judges}]
    items:
      - {name: Flamer, side: focus, attack: {black: 1}, range: 2, keywords: [ranged],
         botch_trait: {name: Clog, active: true, effect: flip_this_item_back}}
      - {name: Club, side: primal, attack: {black: 1}, range: 0, keywords: [melee],
         botch_trait: {name: Bent, effect: empty_handling_pool}}
  - name: Tinker
    kind: operative
    points: 20
    cult: Judges
    concept: IV The Ruler
    focus:
      pool: {white: 2}
      defense: 2
      traits: [{name: Rig, active: true, effect: flip_own_item_back}]
    primal:
      pool: {white: 1}
      defense: 1
      traits: [{name: Whirl, active: true, effect: pool_attack, abilities: {area_attack: 1}}]
    potentials: [{name: Spare, cult: Judges}]
    items:
      - {name: Gun, side: primal, attack: {black: 1}, range: 1, keywords: [ranged]}
      - {name: Lance, side: neutral, attack: {black: 1}, range: 1, keywords: [melee],
         botch_trait: {name: Warped, effect: empty_handling_pool}}
"""
ROSTER = "name: Solo\nsystem: degenesis\nside: roster\nunits: [{unit: Tester}]\n"
HOSTILE = """name: Nest
system: degenesis
side: hostile
units: [{unit: Grunt, count: 2}, {unit: Brute}, {unit: Sniper}, {unit: Boss}]
"""
# r0: flat, a rise (1) and HARD TERRAIN; r1: a HIGHER HARD TILE; r2: a cliff (2) and a
# hole; r3: a tower (3) between flat TILES.
MISSION = """name: Test ground
designed: designed for the tests
kind: extraction
rounds: 4
need: 1
field:
  - "0O  0   0   1   0h  0S"
  - "0   0   0   1h  0   0"
  - "0   2   0   0   .   0X"
  - "0   0   0   3   0   0"
"""
TESTER, GRUNT1, GRUNT2, BRUTE, SNIPER, BOSS = range(6)
PISTOL, SPRAYER, ZAPPER, BARE = range(4)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("degenesis")
    out = {}
    for name, text in (("units", CARDS), ("roster", ROSTER), ("hostile", HOSTILE),
                       ("mission", MISSION)):  # fmt: skip
        out[name] = d / f"{name}.yaml"
        out[name].write_text(text)
    return out


def make_setup(files, roster=None, hostile=None, policies=("greedy", "greedy"), **opts):
    """A prepared match-up of the test cards; the scripted-dice tests of the other rules
    play without the APOCALYPTIC TAROT unless asked (``arcana=True``)."""
    opts.setdefault("arcana", False)
    sides = ENGINE.load_sides(roster or files["roster"], hostile or files["hostile"],
                              files["units"])  # fmt: skip
    return ENGINE.prepare(sides.cards, sides.lists, policies=policies,
                          options=check_match_options(ENGINE, opts),
                          scenario=str(files["mission"]))  # fmt: skip


@pytest.fixture()
def box(files) -> Sandbox:
    return Sandbox(make_setup(files))


def attacks(box: Sandbox) -> list[np.ndarray]:
    return [row for row in box.events() if row[0] == L.E_ATTACK]


# --------------------------------------------------------------------- attacks and health
def test_an_attack_wounds_when_the_roll_reaches_the_defense(box) -> None:
    """ "Attack (Operative)": POOL + HANDLING POOL against the TARGET's DEFENSE; a LEGION
    dies at one WOUND and returns to the LEGION RESERVE ("The Hostile")."""
    box.place(TESTER, (0, 0))
    box.place(GRUNT1, (0, 2), revealed=True)
    box.script([1, 1, 2])  # WHITE 0 + 0, BLACK BLANK: 0 < DEFENSE 1
    box.attack(TESTER, PISTOL, GRUNT1)
    assert box.on(GRUNT1) == L.ON_FIELD and box.dice_used() == 3
    box.script([3, 1, 2])  # 1 SUCCESS: reaches DEFENSE 1
    box.attack(TESTER, PISTOL, GRUNT1)
    assert box.on(GRUNT1) == L.ON_RESERVE and box.at(GRUNT1) is None
    assert [int(r[7]) for r in attacks(box)] == [0, 1]  # the totals rolled
    box.spawn(GRUNT1, (0, 5))  # "Spawn": a LEGION in the reserve SPAWNS again, as a THREAT
    assert box.on(GRUNT1) == L.ON_FIELD and not box.revealed(GRUNT1)


def test_a_botch_fails_and_flips_the_item_used(box) -> None:
    """ "Dice Rolls": a BOTCH fails whatever the SUCCESSES and FLIPS the ITEM used."""
    box.place(TESTER, (0, 0))
    box.place(GRUNT1, (0, 1), revealed=True)
    box.script([6, 6, 1])  # 4 SUCCESSES, but the BLACK die BOTCHES (no SECURE)
    box.attack(TESTER, PISTOL, GRUNT1)
    assert box.on(GRUNT1) == L.ON_FIELD
    assert box.flipped(TESTER) == 1 << PISTOL and box.stat(L.G_BOTCHES) == 1


def test_health_and_wounds_example(files) -> None:
    """ "Gameplay Example: Health and Wounds": two POTENTIALS, FLIPPED by the first two
    WOUNDS (a FLIPPED POTENTIAL's ABILITY is lost), two TRAUMAS, DEAD at the fourth."""
    box = Sandbox(make_setup(files))
    box.place(TESTER, (0, 0), side="primal")
    box.place(BRUTE, (0, 0), revealed=True)
    defenses = []
    for expected in (1, 2, 3, 4):
        box.script([6, 6])  # the Brute's 2 WHITE dice: 4 SUCCESSES
        box.attack(BRUTE, 0, TESTER)
        defenses.append(int(attacks(box)[-1][8]))
        assert box.wounds(TESTER) == expected
    # PRIMAL DEFENSE 1 + Guard 1 while Guard is face-up (Spare FLIPS first), then 1
    assert defenses == [2, 2, 1, 1]
    assert box.on(TESTER) == L.ON_DEAD and box.stat(L.G_LOST) == 1
    assert box.stat(L.G_END) == L.END_DEPLETED and box.stat(L.G_WINNER) == 2


def test_a_champion_steps_through_its_stages(box) -> None:
    """ "Champions": each WOUND FLIPS to the next STAGE (its DEFENSE), the last one DIES."""
    box.place(TESTER, (0, 0))
    box.place(BOSS, (0, 1), revealed=True)
    box.script([6, 3, 2])  # 3 SUCCESSES vs STAGE I DEFENSE 3
    box.attack(TESTER, PISTOL, BOSS)
    assert box.wounds(BOSS) == 1 and box.on(BOSS) == L.ON_FIELD
    box.script([3, 1, 2])  # 1 SUCCESS vs STAGE II DEFENSE 1
    box.attack(TESTER, PISTOL, BOSS)
    assert box.on(BOSS) == L.ON_DEAD and [int(r[8]) for r in attacks(box)] == [3, 1]


def test_stun_does_not_wound_and_lowers_defense(box) -> None:
    """ "Stun": a successful ATTACK does not WOUND; no ACTIONS this ROUND, DEFENSE -2 (and a
    STUNNED unit makes no SUCKER PUNCH)."""
    box.place(TESTER, (0, 0))
    box.place(BRUTE, (0, 0), revealed=True)
    box.script([6, 3, 2])  # FOCUS 2 WHITE + Zapper 1 WHITE: 3 vs DEFENSE 2
    box.attack(TESTER, ZAPPER, BRUTE)
    assert box.on(BRUTE) == L.ON_FIELD and box.stunned(BRUTE)
    box.script([3, 1, 2])  # 1 SUCCESS reaches DEFENSE 2 - 2 = 0 and WOUNDS
    box.attack(TESTER, PISTOL, BRUTE)
    assert int(attacks(box)[-1][8]) == 0
    assert box.stat(L.G_PUNCHES) == 0  # the Pistol is RANGED, but the Brute is STUNNED


# --------------------------------------------------------------------- area attacks
def test_area_attack_example(files, tmp_path) -> None:
    """ "Gameplay Example: Area Attack": Timur's Fungicide Rifle rolls 3 against two
    Cackler THREATS (DEFENSE 3, +2 as THREATS): both survive; a REVEALED one is hit."""
    roster = tmp_path / "timur.yaml"
    roster.write_text("name: T\nsystem: degenesis\nside: roster\nunits: [{unit: Timur}]\n")
    hostile = tmp_path / "cacklers.yaml"
    hostile.write_text(
        "name: C\nsystem: degenesis\nside: hostile\nunits: [{unit: Cackler, count: 3}]\n"
    )
    sides = ENGINE.load_sides(roster, hostile, None)  # the bundled cards
    setup = ENGINE.prepare(sides.cards, sides.lists, policies=("greedy", "greedy"),
                           options=check_match_options(ENGINE, {"arcana": False}),
                           scenario=str(files["mission"]))  # fmt: skip
    box = Sandbox(setup)
    box.place(0, (0, 0))
    box.place(1, (0, 2))
    box.place(2, (0, 2))
    # Fungicide Rifle in FOCUS: WHITE 2 + 1, BLACK 1 + 1, Splaying SUCCESS +1
    box.script([3, 1, 1, 3, 2])  # 1 + 0 + 0, 1 + 0: 2 SUCCESSES + 1 = 3
    box.area(0, 0, (0, 2))
    rolled = attacks(box)
    assert [int(r[7]) for r in rolled] == [3, 3] and [int(r[8]) for r in rolled] == [5, 5]
    assert box.on(1) == L.ON_FIELD and box.on(2) == L.ON_FIELD
    box.place(3, (0, 2), revealed=True)
    box.script([3, 1, 1, 3, 2])
    box.area(0, 0, (0, 2))
    assert box.on(3) == L.ON_RESERVE and box.on(1) == L.ON_FIELD


def test_hard_terrain_adds_hidden_against_area_attacks(box) -> None:
    """ "Hard Terrain": HIDDEN +1; "Hidden": DEFENSE +1 against AREA ATTACKS."""
    box.place(TESTER, (0, 2))
    box.place(GRUNT1, (0, 4), revealed=True)  # r0c4 is HARD TERRAIN
    box.script([3, 1, 1])  # 1 SUCCESS vs DEFENSE 1 + 1
    box.area(TESTER, SPRAYER, (0, 4))
    assert int(attacks(box)[-1][8]) == 2 and box.on(GRUNT1) == L.ON_FIELD


@pytest.mark.parametrize("literal", [False, True])
def test_a_melee_attack_reaches_hard_terrain_on_its_own_tile(files, literal) -> None:
    """ "Hidden": the DISTANCE to a TARGET in HARD TERRAIN is modified by +1; on the
    attacker's own TILE it stays 0 (``hidden_on_tile`` false), so a greedy OPERATIVE in
    PRIMAL, OPPOSED there, strikes with a RANGE 0 option instead of taking no ACTION.  The
    literal reading (``hidden_on_tile`` true) leaves it only its RANGED Pistol."""
    box = Sandbox(make_setup(files, hidden_on_tile=literal))
    box.place(TESTER, (0, 4), side="primal", edges=1)  # r0c4 is HARD TERRAIN
    box.place(GRUNT1, (0, 4), revealed=True)
    box.script([3] * 40)
    box.turn(TESTER)
    melee = [r for r in attacks(box) if r[3] == TESTER and int(r[6]) in (ZAPPER, BARE)]
    assert bool(melee) != literal
    assert literal or int(melee[0][4]) == GRUNT1


def test_each_card_in_the_reserve_may_spawn(files, tmp_path) -> None:
    """ "Spawn": "an available THREAT": two cards of the same points and kind (Grunt, Runt)
    are both offered (one candidate per card, not per points), and the greedy HOSTILE's
    tie between them is drawn at random: over 20 generators the Runt spawns too."""
    hostile = tmp_path / "pair.yaml"
    hostile.write_text("name: Pair\nsystem: degenesis\nside: hostile\n"
                       "units: [{unit: Grunt}, {unit: Runt}]\n")  # fmt: skip
    setup = make_setup(files, hostile=hostile)
    spawned = set()
    for seed in range(20):
        box = Sandbox(setup)
        box.rng[:4] = np.random.default_rng(seed).integers(1, 2**63, 4).astype(np.uint64)
        box.place(TESTER, (3, 0))
        box.react()
        spawned |= {int(r[3]) for r in box.events() if r[0] == L.E_SPAWN}
    assert spawned == {1, 2}  # the Grunt (unit 1) and the Runt (unit 2)


# --------------------------------------------------------------------- sucker punches
def test_leaving_a_tile_with_enemies_grants_sucker_punches(box) -> None:
    """ "Move" / "Sucker Punch": each ENEMY on the TILE left makes a FREE ATTACK, once per
    ROUND; DIRTY FIGHTING +1 (the Brute) gives a second one."""
    box.place(TESTER, (0, 0))
    box.place(GRUNT1, (0, 0), revealed=True)
    box.place(BRUTE, (0, 0), revealed=True)
    box.script([1, 1, 1])  # Grunt 1 WHITE, Brute 2 WHITE: all miss
    box.move(TESTER, (0, 1))
    assert box.stat(L.G_PUNCHES) == 2 and box.at(TESTER) == (0, 1)
    box.place(TESTER, (0, 0))
    box.script([1, 1])
    box.move(TESTER, (0, 1))
    assert box.stat(L.G_PUNCHES) == 3  # the Brute's second; the Grunt has used its one


def test_a_ranged_attack_provokes_sucker_punches_and_a_melee_one_does_not(box) -> None:
    box.place(TESTER, (0, 0))
    box.place(GRUNT1, (0, 0), revealed=True)
    box.place(GRUNT2, (0, 1), revealed=True)
    box.script([1, 1, 1])  # Zapper (MELEE): no SUCKER PUNCH; misses
    box.attack(TESTER, ZAPPER, GRUNT1)
    assert box.stat(L.G_PUNCHES) == 0
    box.script([6, 1, 1, 2])  # the Grunt's punch first (2 vs DEFENSE 3: miss), then the Pistol
    box.attack(TESTER, PISTOL, GRUNT2)
    assert box.stat(L.G_PUNCHES) == 1 and box.dice_used() == 4


def test_a_sucker_punch_that_kills_cancels_the_attack(files) -> None:
    """``punch_first``: the SUCKER PUNCH is "immediate", resolved before the ATTACK."""
    box = Sandbox(make_setup(files))
    box.place(TESTER, (0, 0), wounds=3)
    box.place(BRUTE, (0, 0), revealed=True)
    box.place(GRUNT2, (0, 1), revealed=True)
    box.script([6, 6])  # the Brute's punch: 4 vs DEFENSE 2, the last WOUND
    box.attack(TESTER, PISTOL, GRUNT2)
    assert box.on(TESTER) == L.ON_DEAD and box.on(GRUNT2) == L.ON_FIELD


# --------------------------------------------------------------------- threats
def test_an_operative_moving_onto_a_threat_is_ambushed(box) -> None:
    """ "Ambush" during a MOVE: the THREAT is REVEALED and ATTACKS; the MOVE ends there
    (``ambush_stops_move``)."""
    box.place(TESTER, (0, 0))
    box.place(GRUNT1, (0, 1))
    box.script([1])  # the Grunt's ATTACK misses
    box.move(TESTER, (0, 2))
    assert box.at(TESTER) == (0, 1) and box.revealed(GRUNT1)
    assert box.stat(L.G_AMBUSHES) == 1 and box.dice_used() == 1


def test_ambush_example(files, tmp_path) -> None:
    """ "Gameplay Example: Ambush": in a REACTION PHASE the HOSTILE spends an EDGE to MOVE
    a THREAT into the OPERATIVE's TILE; it is REVEALED and ATTACKS."""
    hostile = tmp_path / "brute.yaml"
    hostile.write_text("name: B\nsystem: degenesis\nside: hostile\nunits: [{unit: Brute}]\n")
    box = Sandbox(make_setup(files, hostile=hostile))
    box.place(TESTER, (1, 1), side="primal")
    box.place(0 + 1, (0, 1))  # the Brute, a THREAT next to the Tester
    box.script([6, 6])
    box.react()  # the EDGE handed back is stored (SCHEMING AREA 1) and spent
    assert box.at(1) == (1, 1) and box.revealed(1) and box.stat(L.G_AMBUSHES) == 1
    assert box.wounds(TESTER) == 1 and box.stat(L.G_STORED) == 0


def test_scout_reveals_one_threat_plus_one_per_success_above(box) -> None:
    """ "Scout": FOCUS against the DISTANCE; success REVEALS 1 + the SUCCESSES above."""
    box.place(TESTER, (0, 0))
    for u in (GRUNT1, GRUNT2, BRUTE):
        box.place(u, (0, 2))
    box.script([3, 1])  # 1 < DISTANCE 2
    box.scout(TESTER, (0, 2))
    assert not any(box.revealed(u) for u in (GRUNT1, GRUNT2, BRUTE))
    box.script([3, 3])  # 2: one THREAT
    box.scout(TESTER, (0, 2))
    assert sum(box.revealed(u) for u in (GRUNT1, GRUNT2, BRUTE)) == 1
    box.script([6, 6])  # 4: 1 + 2, the other two
    box.scout(TESTER, (0, 2))
    assert all(box.revealed(u) for u in (GRUNT1, GRUNT2, BRUTE))
    assert box.stat(L.G_SCOUTS) == 3


def test_scouting_reveals_a_random_token_of_the_tile(files) -> None:
    """ "Scout": "REVEAL a THREAT TOKEN on the chosen TILE": the tokens look alike, so the
    one REVEALED is drawn at random, not the first listed unit (20 generators: both)."""
    seen = set()
    for seed in range(20):
        box = Sandbox(make_setup(files))
        box.rng[:4] = np.random.default_rng(seed).integers(1, 2**63, 4).astype(np.uint64)
        box.place(TESTER, (0, 0))
        box.place(GRUNT1, (0, 2))
        box.place(BRUTE, (0, 2))
        box.script([6, 1])  # FOCUS 2 WHITE: 2 SUCCESSES vs DIFFICULTY 2: 1 REVEAL
        box.scout(TESTER, (0, 2))
        assert box.revealed(GRUNT1) + box.revealed(BRUTE) == 1
        seen.add(GRUNT1 if box.revealed(GRUNT1) else BRUTE)
    assert seen == {GRUNT1, BRUTE}


def test_scouting_hard_terrain_is_one_harder(box) -> None:
    box.place(TESTER, (0, 2))
    box.place(GRUNT1, (0, 4))  # HARD TERRAIN, DISTANCE 2
    box.script([3, 3])  # 2 < 2 + 1
    box.scout(TESTER, (0, 4))
    assert not box.revealed(GRUNT1)


# --------------------------------------------------------------------- the field
def test_movement_example(box) -> None:
    """ "Movement Example": (1) MOVE 2 across flat TILES; (2) after one flat BORDER the climb
    costs 2 and does not fit; (3) a HIGHER HARD TERRAIN TILE next door is entered anyway
    ("a unit must always be able to MOVE 1")."""
    box.place(TESTER, (0, 0))
    box.move(TESTER, (0, 2))
    assert box.at(TESTER) == (0, 2)
    box.place(TESTER, (0, 1))
    box.move(TESTER, (0, 3))
    assert box.at(TESTER) == (0, 1)
    box.place(TESTER, (1, 2))
    box.move(TESTER, (1, 3))
    assert box.at(TESTER) == (1, 3)


def test_cliffs_cannot_be_crossed(files) -> None:
    """ "Elevation": BORDERS with more than 1 difference in ELEVATION are impassable."""
    _, tables, _ = C.load_mission(str(files["mission"]))
    cells = tables.field.cells
    low, cliff = cells.index((2, 0)), cells.index((2, 1))
    assert C.entry_cost(tables.field.fld, low, cliff, True) == -1
    for m in range(1, L.MAX_MOVE + 1):
        assert tables.mv[(L.MAX_MOVE + m - 1) * len(cells) + low, cliff] == -1
    assert tables.dist[low, cliff] == 1  # still WITHIN 1


def test_line_of_sight_example(files) -> None:
    """ "Gameplay Example: Line of Sight": blocked by a TILE higher than both ends and by the
    absence of TILES; firing uphill is fine."""
    _, tables, _ = C.load_mission(str(files["mission"]))
    t = tables.field.cells.index
    los = tables.los
    assert los[t((3, 2)), t((3, 4))] == 0  # the tower between them
    assert los[t((3, 2)), t((3, 3))] == 1  # uphill onto the tower
    assert los[t((1, 4)), t((3, 4))] == 0  # across the hole
    assert los[t((0, 0)), t((0, 5))] == 0  # the rise r0c3 is higher than both
    assert los[t((3, 0)), t((3, 2))] == 1


# --------------------------------------------------------------------- rounds and edges
@pytest.mark.parametrize(("size", "edges"), [(1, 3), (2, 2), (3, 1), (4, 1)])
def test_edges_by_roster_size(files, tmp_path, size, edges) -> None:
    """ "Rounds": 1 OPERATIVE 3 EDGES, 2 two each, 3-4 one each; the SCHEMING AREA holds
    as many EDGES as OPERATIVES ("Turns: Reaction Phase")."""
    names = ["Timur", "Pluto", "Echo", "Feuerbach"][:size]
    roster = tmp_path / "r.yaml"
    roster.write_text("name: R\nsystem: degenesis\nside: roster\nunits: ["
                      + ", ".join(f"{{unit: {n}}}" for n in names) + "]\n")  # fmt: skip
    sides = ENGINE.load_sides(roster, ENGINE.sample_sides()[1], None)
    setup = ENGINE.prepare(sides.cards, sides.lists, policies=("greedy", "greedy"),
                           options=check_match_options(ENGINE, {}))  # fmt: skip
    ms = setup.arrays[-1]
    assert (ms[L.M_EDGES], ms[L.M_CAP]) == (edges, size)


def test_round_example_stored_edges_are_capped(files, tmp_path) -> None:
    """ "Gameplay Example: Round": 2 EDGES stored and 3 OPERATIVES: after a TURN the
    HOSTILE holds 3 and cannot store more; an excess EDGE is DISCARDED."""
    box = Sandbox(make_setup(files, policies=("greedy", "greedy")))
    box.set_option(L.M_CAP, 3)
    box.place(TESTER, (0, 0))  # nothing for the HOSTILE to do: all its units in reserve
    box.g[L.G_STORED] = 3
    box.st[GRUNT1:, L.S_ON] = L.ON_DEAD  # no SPAWNS possible
    box.react()
    assert box.stat(L.G_STORED) == 3


def test_exit_point_extracts(box) -> None:
    """ "Exit Points": a MOVE ACTION on the EXIT POINT leaves the FIELD; the extraction's
    need is met (mission success)."""
    box.place(TESTER, (2, 5))
    box.leave(TESTER)
    assert box.on(TESTER) == L.ON_LEFT and box.stat(L.G_DONE) == 1
    assert box.stat(L.G_END) == L.END_EXTRACTED and box.stat(L.G_WINNER) == 1


def test_sandbox_state_keeps_the_invariants(box) -> None:
    box.place(TESTER, (0, 0))
    box.place(GRUNT1, (0, 1))
    assert box.violations() == 0
    box.st[GRUNT1, L.S_WOUNDS] = 5
    assert box.violations() == 1


# --------------------------------------------------------------------- whole missions
def test_bad_mission_tokens_are_one_line(tmp_path, files) -> None:
    from analyzer.config.yaml_io import ConfigError

    bad = tmp_path / "bad.yaml"
    bad.write_text(MISSION.replace("0X", "0Q"))
    with pytest.raises(ConfigError, match=r"bad.yaml: field\[2\]: token '0Q'"):
        C.load_mission(str(bad))


def test_the_outcome_is_mission_success_or_failure(files) -> None:
    setup = make_setup(files)
    rec, _ = run_records(ENGINE, setup, 300, seed=3, threads=1, check=True)
    assert set(np.unique(rec[:, 0])) <= {1, 2} and rec[:, 7].sum() == 0
    success = rec[:, 5] <= L.END_HUNTED
    assert np.array_equal(rec[:, 0] == 1, success)
    assert np.all(rec[success, 1] >= 1)  # an extraction needs 1 extracted here


def test_policy_ladder_moves_success_the_right_way() -> None:
    """Greedy OPERATIVES succeed more than random ones; a greedy HOSTILE stops them more
    than a random one (bundled sample sides, mission pipeline_extraction)."""
    sides = ENGINE.load_sides(*ENGINE.sample_sides(), None)
    rate = {}
    for pols in (("random", "greedy"), ("greedy", "greedy"), ("greedy", "random")):
        setup = ENGINE.prepare(sides.cards, sides.lists, policies=pols,
                               options=check_match_options(ENGINE, {}))  # fmt: skip
        rec, _ = run_records(ENGINE, setup, 1000, seed=8, threads=2)
        rate[pols] = (rec[:, 0] == 1).mean()
    se = 0.5 / np.sqrt(1000)
    assert rate[("greedy", "greedy")] > rate[("random", "greedy")] + 5 * se
    assert rate[("greedy", "random")] > rate[("greedy", "greedy")] + 5 * se


def test_rollout_operatives_beat_greedy_operatives() -> None:
    """The rollout OPERATIVES succeed more often than greedy ones against the greedy
    HOSTILE (mission pipeline_extraction, by more than 5 SE; 5 ROUNDS since the
    OPERATIVES stopped seeing through THREAT tokens: about 76% against 64%)."""
    sides = ENGINE.load_sides(*ENGINE.sample_sides(), None)
    rate = {}
    for pols, n in ((("greedy", "greedy"), 2000), (("rollout", "greedy"), 1000)):
        setup = ENGINE.prepare(sides.cards, sides.lists, policies=pols,
                               options=check_match_options(ENGINE, {}))  # fmt: skip
        rec, _ = run_records(ENGINE, setup, n, seed=9, threads=2)
        rate[pols] = ((rec[:, 0] == 1).mean(), n)
    (strong, n_s), (greedy, n_g) = rate[("rollout", "greedy")], rate[("greedy", "greedy")]
    se = np.sqrt(strong * (1 - strong) / n_s + greedy * (1 - greedy) / n_g)
    assert strong > greedy + 5 * se, (strong, greedy)


def test_each_bundled_mission_renders_to_png(tmp_path) -> None:
    from analyzer.games.degenesis.match.render import render_field

    for name in C.bundled_missions():
        out = render_field(name, tmp_path / f"{name}.png")
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_rollout_policy_is_deterministic_and_plays_missions() -> None:
    """The rollout policy (common random numbers from the match generator): the same
    records for 1 and 2 threads, every mission ended with a reason."""
    sides = ENGINE.load_sides(*ENGINE.sample_sides(), None)
    setup = ENGINE.prepare(sides.cards, sides.lists, policies=("rollout", "greedy"),
                           options=check_match_options(ENGINE, {"rollouts": 2}),
                           scenario="spider_hunt")  # fmt: skip
    a, _ = run_records(ENGINE, setup, 24, seed=4, threads=1, check=True)
    b, _ = run_records(ENGINE, setup, 24, seed=4, threads=2)
    assert np.array_equal(a[:, :7], b[:, :7]) and a[:, 7].sum() == 0
    assert set(np.unique(a[:, 0])) <= {1, 2}


def test_difficulty_report_table_chart_and_fair_size(tmp_path) -> None:
    from analyzer.games.degenesis.match import difficulty as D

    result = D.difficulty_report(tmp_path, n=40, seed=5)
    cells = result["cells"]
    assert len(cells) == len(C.bundled_missions()) * 2 * 5  # 2 rosters, 5 force sizes
    assert all(c.ci95[0] <= c.rate <= c.ci95[1] for c in cells)
    assert (tmp_path / "difficulty.png").read_bytes()[:4] == b"\x89PNG"
    assert "success [95% CI]" in (tmp_path / "difficulty.txt").read_text()
    made = [D.Cell("m", "r", "h", u, s, 10) for u, s in ((2, 9), (4, 7), (6, 3), (8, 1))]
    assert D.fair_size(made) == pytest.approx(4 + (0.7 - 0.5) / 0.4 * 2)
    assert D.fair_size(made[:2]) is None


# --------------------------------------------------------------------- the tarot
def arcana_box(files, **opts) -> Sandbox:
    """A sandbox playing the APOCALYPTIC TAROT (no OVERCOMMITS unless asked)."""
    opts.setdefault("overcommit", False)
    return Sandbox(make_setup(files, arcana=True, **opts))


def played(box: Sandbox) -> list[tuple[int, int, int]]:
    """(side, ARCANA, NEGATED) of every ARCANA played, in order."""
    return [(int(r[2]), int(r[3]), int(r[5])) for r in box.events() if r[0] == L.E_ARCANA]


def test_the_creator_adds_three_successes_after_a_failed_roll(files) -> None:
    """ "I – The Creator: After a ROLL, SUCCESS +3": played when it turns a failure into a
    success (1 + 3 = 4 vs DEFENSE 2), kept when the ROLL succeeds on its own."""
    box = arcana_box(files)
    box.place(TESTER, (0, 0))
    box.place(BRUTE, (0, 1), revealed=True)
    box.place(GRUNT1, (0, 1), revealed=True)
    box.hand(0, [L.A_CREATOR])
    box.script([6, 6, 2])  # 4 SUCCESSES vs the Grunt's DEFENSE 1: no need
    box.attack(TESTER, PISTOL, GRUNT1)
    assert box.holding(0) == [L.A_CREATOR] and box.on(GRUNT1) == L.ON_RESERVE
    box.script([1, 1, 3])  # 1 SUCCESS vs the Brute's DEFENSE 2
    box.attack(TESTER, PISTOL, BRUTE)
    assert played(box) == [(0, L.A_CREATOR, 0)] and box.holding(0) == []
    assert int(attacks(box)[-1][7]) == 4 and box.on(BRUTE) == L.ON_RESERVE


def test_the_mentor_secures_three_botches_after_a_roll(files) -> None:
    """ "II – The Mentor: After a ROLL, SECURE 3": a BOTCHED ROLL counts its BOTCH as a
    BLANK: 4 SUCCESSES hit, the ITEM is not FLIPPED."""
    box = arcana_box(files)
    box.place(TESTER, (0, 0))
    box.place(GRUNT1, (0, 1), revealed=True)
    box.hand(0, [L.A_MENTOR])
    box.script([6, 6, 1])  # 4 SUCCESSES and a BLACK BOTCH
    box.attack(TESTER, PISTOL, GRUNT1)
    assert played(box) == [(0, L.A_MENTOR, 0)]
    assert box.flipped(TESTER) == 0 and box.on(GRUNT1) == L.ON_RESERVE


def test_the_abomination_botches_a_successful_roll_and_the_mentor_answers(files) -> None:
    """ "XII – The Abomination: After a ROLL, add 3 BOTCHES": the HOSTILE turns a hit into
    a BOTCH (the ITEM FLIPS); a SECURE 3 (II The Mentor) cancels the 3 BOTCHES."""
    box = arcana_box(files)
    box.place(TESTER, (0, 0))
    box.place(GRUNT1, (0, 1), revealed=True)
    box.hand(1, [L.A_ABOMINATION])
    box.script([6, 6, 2])  # 4 SUCCESSES
    box.attack(TESTER, PISTOL, GRUNT1)
    assert played(box) == [(1, L.A_ABOMINATION, 0)] and int(attacks(box)[-1][7]) == -1
    assert box.flipped(TESTER) == 1 << PISTOL and box.on(GRUNT1) == L.ON_FIELD
    box = arcana_box(files)
    box.place(TESTER, (0, 0))
    box.place(GRUNT1, (0, 1), revealed=True)
    box.hand(0, [L.A_MENTOR])
    box.hand(1, [L.A_ABOMINATION])
    box.script([6, 6, 2])
    box.attack(TESTER, PISTOL, GRUNT1)
    assert played(box) == [(1, L.A_ABOMINATION, 0), (0, L.A_MENTOR, 0)]
    assert box.flipped(TESTER) == 0 and box.on(GRUNT1) == L.ON_RESERVE


def test_the_traditionalist_negates_an_arcana(files) -> None:
    """ "VII – The Traditionalist: After an ARCANA is played, NEGATE it": the Creator's +3
    is lost; both cards go back into the deck."""
    box = arcana_box(files)
    box.place(TESTER, (0, 0))
    box.place(BRUTE, (0, 1), revealed=True)
    box.hand(0, [L.A_CREATOR])
    box.hand(1, [L.A_TRADITIONALIST])
    box.script([1, 1, 3])  # 1 SUCCESS vs DEFENSE 2
    box.attack(TESTER, PISTOL, BRUTE)
    assert played(box) == [(0, L.A_CREATOR, 1)]
    assert box.holding(0) == [] and box.holding(1) == [] and box.on(BRUTE) == L.ON_FIELD
    assert box.stat(L.G_ARCANA) == 2


def test_the_healer_negates_a_lethal_wound_and_a_champions_wound(files) -> None:
    """ "VI – The Healer: ... NEGATE a WOUND": kept on a WOUND that does not kill the
    OPERATIVE, played on the one that would; the HOSTILE plays it for its CHAMPION."""
    box = arcana_box(files)
    box.place(TESTER, (0, 0), wounds=2)
    box.place(BRUTE, (0, 0), revealed=True)
    box.hand(0, [L.A_HEALER])
    box.script([6, 6])  # 4 SUCCESSES: a WOUND (health 4)
    box.attack(BRUTE, 0, TESTER)
    assert box.wounds(TESTER) == 3 and box.holding(0) == [L.A_HEALER]
    box.script([6, 6])
    box.attack(BRUTE, 0, TESTER)
    assert box.wounds(TESTER) == 3 and box.on(TESTER) == L.ON_FIELD
    assert played(box) == [(0, L.A_HEALER, 0)] and box.stat(L.G_LOST) == 0
    box = arcana_box(files)
    box.place(TESTER, (0, 0))
    box.place(BOSS, (0, 1), revealed=True)
    box.hand(1, [L.A_HEALER])
    box.script([6, 3, 2])  # 3 SUCCESSES vs STAGE I DEFENSE 3
    box.attack(TESTER, PISTOL, BOSS)
    assert box.wounds(BOSS) == 0 and played(box) == [(1, L.A_HEALER, 0)]


def test_the_seeker_fetches_a_chosen_arcana_from_the_deck(files) -> None:
    """ "V – The Seeker: Choose an ARCANA then DRAW it": the OPERATIVES' first wish (VI The
    Healer) is in the HOSTILE's hand, so they take II The Mentor; the Seeker goes back."""
    box = arcana_box(files)
    box.hand(0, [L.A_SEEKER])
    box.hand(1, [L.A_HEALER])
    box.seek()
    assert box.holding(0) == [L.A_MENTOR] and box.holding(1) == [L.A_HEALER]
    assert played(box) == [(0, L.A_SEEKER, 0)]


def test_overcommit_adds_a_die_and_the_other_side_draws(files) -> None:
    """ "Overcommitting": before a ROLL with an even chance (2 WHITE + 1 BLACK vs DEFENSE
    3: 59%) the greedy AI adds 1 DIE (the WHITE: no BOTCH face; 4 dice are ROLLED) and the
    HOSTILE DRAWS 1 ARCANA after the ROLL; a likely ROLL (82%) is not OVERCOMMITTED."""
    box = arcana_box(files, overcommit=True)
    box.place(TESTER, (0, 0))
    box.place(GRUNT1, (0, 1), revealed=True)
    box.place(BOSS, (0, 1), revealed=True)
    box.script([6, 6, 6])  # vs the Grunt's DEFENSE 1 (chance above 65%): 3 dice
    box.attack(TESTER, PISTOL, GRUNT1)
    assert box.dice_used() == 3 and box.stat(L.G_OVERCOMMITS) == 0 and box.holding(1) == []
    box.script([6, 3, 1, 2])  # 3 WHITE dice 2 + 1 + 0, the BLACK BLANK: 3 SUCCESSES
    box.attack(TESTER, PISTOL, BOSS)
    assert box.dice_used() == 4 and box.wounds(BOSS) == 1
    over = [r for r in box.events() if r[0] == L.E_OVERCOMMIT]
    assert [(int(r[3]), int(r[4])) for r in over] == [(TESTER, 0)]
    assert len(box.holding(1)) == 1 and box.holding(0) == [] and box.stat(L.G_DRAWS) == 1


def test_concept_arcana_are_dealt_and_a_shared_concept_draws(files, tmp_path) -> None:
    """ "The Tarot": each OPERATIVE is dealt its CONCEPT's ARCANA (IV The Ruler); of two
    sharing a CONCEPT one DRAWS from the deck instead (another card)."""
    roster = tmp_path / "two.yaml"
    roster.write_text(
        "name: Two\nsystem: degenesis\nside: roster\nunits: [{unit: Tester}, {unit: Twin}]\n"
    )
    setup = make_setup(files, roster=roster, arcana=True)
    for k in range(5):
        events, _, _ = trace_events(ENGINE, setup, k, 3)
        dealt = [int(r[3]) for r in events if r[0] == L.E_DRAW and r[4] == L.DRAW_CONCEPT]
        assert dealt[0] == 4 and len(dealt) == 2 and dealt[1] not in (4, -1)


def test_the_mediator_stops_ambushes_and_sucker_punches_for_the_round(files) -> None:
    """ "VIII – The Mediator: You and your ALLIES cannot be ATTACKED during AMBUSHES or
    SUCKER PUNCHES this ROUND": played on the first AMBUSH; the SUCKER PUNCH after it in
    the same ROUND is stopped too, no die is rolled."""
    box = arcana_box(files)
    box.place(TESTER, (0, 0))
    box.place(BRUTE, (0, 1))  # a THREAT
    box.hand(0, [L.A_MEDIATOR])
    box.script([6, 6, 6, 6])
    box.move(TESTER, (0, 1))  # AMBUSHED on (0, 1): the MOVE ends there
    assert box.revealed(BRUTE) and played(box) == [(0, L.A_MEDIATOR, 0)]
    box.move(TESTER, (0, 0))  # leaving the Brute's TILE: its SUCKER PUNCH is stopped
    assert box.dice_used() == 0 and box.wounds(TESTER) == 0 and box.at(TESTER) == (0, 0)
    assert box.stat(L.G_AMBUSHES) == 1 and box.stat(L.G_PUNCHES) == 0


def test_the_conqueror_attacks_twice_for_each_attack_this_round(files) -> None:
    """ "XI – The Conqueror: You or an ALLY may ATTACK twice for each ATTACK this ROUND":
    played on the side's first ATTACK ACTION, each ATTACK ACTION of the ROUND is two
    ROLLS; a new ROUND ends it; the second is not made at a TARGET already removed."""
    box = Sandbox(make_setup(files, arcana=True, overcommit=False))
    box.hand(0, [11])
    box.hand(1, [])
    box.place(TESTER, (0, 0))
    box.place(BOSS, (0, 2), revealed=True)
    box.script([6, 6, 2, 1, 1, 2])  # Pistol: 2 WHITE + 1 BLACK: 4 SUCCESSES, then 0
    box.attack(TESTER, PISTOL, BOSS)
    assert len(attacks(box)) == 2 and box.wounds(BOSS) == 1 and box.holding(0) == []
    box.script([6, 6, 2, 6, 6, 2])  # the same ROUND: two more ROLLS, the Boss's 2 STAGES
    box.attack(TESTER, PISTOL, BOSS)
    assert len(attacks(box)) == 3 and box.on(BOSS) == L.ON_DEAD  # dead after the first
    box.place(BOSS, (0, 2), revealed=True)
    box.round()  # a new ROUND (the Tester has no EDGES: no TURN)
    n = len(attacks(box))
    box.script([1, 1, 2])
    box.attack(TESTER, PISTOL, BOSS)
    assert len(attacks(box)) == n + 1


def test_the_heretic_flips_an_item_at_the_start_of_a_turn(files) -> None:
    """ "X – The Heretic: FLIP an ITEM": the OPERATIVES FLIP the acting OPERATIVE's
    BOTCHED Pistol back; the HOSTILE FLIPS its best operational WEAPON to the BOTCH face."""
    box = Sandbox(make_setup(files, arcana=True, overcommit=False))
    box.hand(0, [10])
    box.hand(1, [])
    box.place(TESTER, (3, 5), edges=1)
    box.st[TESTER, L.S_FLIPPED] = 1 << PISTOL  # the Pistol is item 0
    box.turn(TESTER)
    assert box.flipped(TESTER) & (1 << PISTOL) == 0 and box.holding(0) == []
    box = Sandbox(make_setup(files, arcana=True, overcommit=False))
    box.hand(0, [])
    box.hand(1, [10])
    box.place(TESTER, (3, 5), edges=1)
    box.turn(TESTER)
    assert box.flipped(TESTER) != 0 and box.holding(1) == []


def test_the_hermit_stops_attacks_from_outside_the_tile(files) -> None:
    """ "IX – The Hermit: You or an ALLY cannot be ATTACKED from outside their TILE this
    ROUND": kept while a WOUND would not kill, played on the ATTACK that could (the
    ATTACK is lost, no die rolled); from then on the OPERATIVE is out of RANGE."""
    box = arcana_box(files)
    box.place(TESTER, (0, 0), wounds=2)
    box.place(SNIPER, (0, 2), revealed=True)
    box.hand(0, [L.A_HERMIT])
    box.script([6])  # the Sniper's WHITE die: 2 SUCCESSES vs DEFENSE 2 (no POTENTIAL up)
    box.attack(SNIPER, 0, TESTER)
    assert box.dice_used() == 1 and box.holding(0) == [L.A_HERMIT] and box.wounds(TESTER) == 3
    box.script([6])
    box.attack(SNIPER, 0, TESTER)
    assert box.dice_used() == 0 and box.wounds(TESTER) == 3
    assert played(box) == [(0, L.A_HERMIT, 0)] and box.stat(L.G_ATTACKS) == 1


# --------------------------------------------------------------------- hidden information
ACTION_EVENTS = (L.E_MOVE, L.E_ATTACK, L.E_SCOUT, L.E_FLIP, L.E_EXIT, L.E_PASS)


def first_action(files, token: int, op_cell, token_cell, revealed=False, **opts) -> tuple:
    """The greedy OPERATIVE's first ACTION of a TURN (its event; the dice all miss), with
    unit ``token`` on ``token_cell`` (a THREAT unless ``revealed``)."""
    box = Sandbox(make_setup(files, **opts))
    box.place(TESTER, op_cell)
    box.place(token, token_cell, revealed=revealed)
    box.script([1] * 40)
    box.turn(TESTER)
    row = next(r for r in box.events() if r[0] in ACTION_EVENTS and r[2] == 0)
    if row[0] == L.E_ATTACK:  # unit, TILE, option, AREA (not the unit hit: it is the token)
        return (L.E_ATTACK, int(row[3]), int(row[5]), int(row[6]), int(row[10]))
    return tuple(int(x) for x in row[:8])


CELLS = [(r, c) for r in range(4) for c in range(6) if (r, c) not in ((2, 4), (0, 0))]


def test_a_threat_token_s_identity_never_changes_the_operatives_choice(files) -> None:
    """ "Threats": the tokens look alike, so the OPERATIVES' greedy choice (MOVES by the
    expected harm, AREA ATTACKS on a THREAT's TILE) is the same whichever unit is under a
    token: the Grunt (MELEE) or the Sniper (RANGE 2), on every TILE, the OPERATIVE at the
    OSP or beside the token.  Control: REVEALED, the two change the choice somewhere (the
    harm estimate reads the unit), so the positions can tell a leak."""
    differs = 0
    for cell in CELLS:
        for op in ((0, 0), (cell[0], max(cell[1] - 1, 0))):
            if op == cell or (op not in CELLS and op != (0, 0)):
                continue
            seen = {first_action(files, u, op, cell) for u in (GRUNT1, SNIPER)}
            assert len(seen) == 1, (cell, op, seen)
            shown = {first_action(files, u, op, cell, revealed=True) for u in (GRUNT1, SNIPER)}
            differs += len(shown) > 1
    assert differs > 0


# --------------------------------------------------------------------- retreat
def test_leaving_by_the_osp_is_a_retreat_and_the_mission_fails(box) -> None:
    """ "Retreat": an OPERATIVE leaving the FIELD by the EXIT POINT at the OSP ends the
    MISSION in failure at once (after the SUCKER PUNCHES of the ENEMIES on the TILE: the
    Grunt misses); it does not count as extracted."""
    box.place(TESTER, (0, 0))
    box.place(GRUNT1, (0, 0), revealed=True)
    box.script([1])  # the Grunt's SUCKER PUNCH: 0 SUCCESSES
    box.leave(TESTER)
    assert box.on(TESTER) == L.ON_LEFT and box.stat(L.G_PUNCHES) == 1
    assert box.stat(L.G_END) == L.END_RETREAT and box.stat(L.G_WINNER) == 2
    assert box.stat(L.G_DONE) == 0
    assert any("RETREATS by the OSP" in line for line in box.lines())


def test_random_operatives_may_retreat_and_the_option_turns_it_off(files) -> None:
    """The random OPERATIVES draw a RETREAT among their ACTIONS at the OSP (some missions
    end so); ``retreat=false`` removes it; the greedy ones never RETREAT (300 missions)."""
    ends = {}
    for pols, retreat in ((("random", "greedy"), True), (("random", "greedy"), False),
                          (("greedy", "greedy"), True)):  # fmt: skip
        setup = make_setup(files, policies=pols, retreat=retreat)
        rec, _ = run_records(ENGINE, setup, 300, seed=6, threads=1)
        ends[pols, retreat] = int((rec[:, 5] == L.END_RETREAT).sum())
    assert ends[("random", "greedy"), True] > 0
    assert ends[("random", "greedy"), False] == 0
    assert ends[("greedy", "greedy"), True] == 0


# --------------------------------------------------------------------- ARCANA 0 and III
def test_the_adventurer_lets_the_operatives_ignore_move_penalties(files) -> None:
    """ "0 – The Adventurer: You and your ALLIES ignore MOVE PENALTIES this ROUND".  With
    MOVE 2, r0c1 -> r0c3 costs 3 (the climb onto the rise) and is not a MOVE; the greedy
    OPERATIVE holding the card plays it for that MOVE, and its second MOVE of the ROUND
    (r0c3 -> r0c5 through HARD TERRAIN, also 3) needs no second card."""
    box = arcana_box(files)
    box.place(TESTER, (0, 1))
    box.move(TESTER, (0, 3))  # without the card: no such MOVE
    assert box.at(TESTER) == (0, 1)
    box.hand(0, [L.A_ADVENTURER])
    box.hand(1, [])
    box.turn(TESTER)
    assert played(box) == [(0, L.A_ADVENTURER, 0)] and box.holding(0) == []
    moves = [(int(r[4]), int(r[5])) for r in box.events() if r[0] == L.E_MOVE]
    r0 = [box.tile((0, c)) for c in range(6)]
    assert moves == [(r0[1], r0[3]), (r0[3], r0[5])]
    assert box.stat(L.G_ADVENTURER) == 1
    box.round()  # a ROUND ends: the penalties are back (no card held, none played)
    assert box.stat(L.G_ADVENTURER) == 0 and len(played(box)) == 1


def test_the_martyr_changes_the_target_to_an_ally(files) -> None:
    """ "III – The Martyr: After an ATTACK is ROLLED against you or an ALLY, change the
    TARGET; the TARGET must be valid and cannot be an ENEMY": the HOSTILE plays it when
    the ROLL (4 SUCCESSES) would WOUND its CHAMPION, onto the REVEALED Grunt on the same
    TILE (a valid TARGET); the Grunt dies, the Boss is untouched.  A THREAT token is not a
    valid TARGET: then the card stays in hand and the Boss is WOUNDED."""
    box = arcana_box(files)
    box.place(TESTER, (0, 0))
    box.place(BOSS, (0, 2), revealed=True)
    box.place(GRUNT1, (0, 2), revealed=True)
    box.hand(0, [])
    box.hand(1, [L.A_MARTYR])
    box.script([6, 6, 2])  # Pistol: 2 WHITE + 1 BLACK: 4 SUCCESSES vs DEFENSE 3
    box.attack(TESTER, PISTOL, BOSS)
    assert played(box) == [(1, L.A_MARTYR, 0)] and box.holding(1) == []
    assert box.wounds(BOSS) == 0 and box.on(GRUNT1) == L.ON_RESERVE
    hit = attacks(box)[-1]
    assert int(hit[4]) == GRUNT1 and int(hit[9]) == 1
    box = arcana_box(files)
    box.place(TESTER, (0, 0))
    box.place(BOSS, (0, 2), revealed=True)
    box.place(GRUNT1, (0, 2))  # a THREAT
    box.hand(0, [])
    box.hand(1, [L.A_MARTYR])
    box.script([6, 6, 2])
    box.attack(TESTER, PISTOL, BOSS)
    assert played(box) == [] and box.holding(1) == [L.A_MARTYR] and box.wounds(BOSS) == 1


# --------------------------------------------------------------------- BOTCH TRAITS
FIXER, TINKER, F_GRUNT = 0, 1, 2
FLAMER, CLUB, F_BARE = 0, 1, 2


@pytest.fixture(scope="module")
def fix_setup(files, tmp_path_factory):
    """The Fixer and the Tinker against the test force (units 0, 1; the first Grunt 2)."""
    roster = tmp_path_factory.mktemp("fix") / "fix.yaml"
    roster.write_text(
        "name: Fix\nsystem: degenesis\nside: roster\nunits: [{unit: Fixer}, {unit: Tinker}]\n"
    )
    return make_setup(files, roster=roster)


def test_botch_traits_and_jury_rig_say_which_items_an_action_flips_back(files, fix_setup) -> None:
    """ "Items Breakdown": the BOTCH TRAIT "states how the ITEM can be returned to the
    operational side".  The Flamer's ACTIVE Clog (FLIP this ITEM back) is an ACTION while
    in FOCUS (its colour: no benefit from an ITEM off its side); the Tinker's ACTIVE FOCUS
    TRAIT Rig FLIPS any of its WEAPONS back, not in PRIMAL.  The Club's Bent (HANDLING POOL
    empty) is BARE HANDED's ATTACK and played as such; the Lance's (NEUTRAL, RANGE 1) is not
    and is listed as not modelled."""
    prof = fix_setup.arrays[1]
    focus, primal = 0, L.MAX_LEVELS
    assert prof[FIXER * L.ROWS + focus, L.F_FIX] == 0b01
    assert prof[FIXER * L.ROWS + primal, L.F_FIX] == 0
    # Rig: its own Gun and Lance (bits 2, 3 of the ROSTER's item list) and the Fixer's
    # Flamer and Club, which it may CARRY and use (no CULT: "Items Breakdown")
    assert prof[TINKER * L.ROWS + focus, L.F_FIX] == 0b1111
    assert prof[TINKER * L.ROWS + primal, L.F_FIX] == 0
    cards, _ = ENGINE.load_cards(files["units"])
    assert C.not_modelled(cards["Fixer"]) == ["Fixer: Spare"]  # a POTENTIAL without effect
    assert C.not_modelled(cards["Tinker"]) == ["Tinker: Spare", "Tinker: Warped"]
    sample, _ = ENGINE.load_cards(None)
    listed = [x for c in sample.values() for x in C.not_modelled(c)]
    assert not {"Pluto: Jury-Rig", "Pluto: Bent Shaft", "Timur: Clogged Nozzle"} & set(listed)
    assert "Timur: Triage Frenzy" in listed and "Pluto: Scrap Storm" not in listed
    assert not {"Echo: Overload", "Timur: Patch Up", "Trapper: Snare"} & set(listed)


def test_a_botched_item_is_flipped_back_by_an_action_then_used(fix_setup) -> None:
    """The greedy Fixer in FOCUS, its Flamer BOTCHED and a REVEALED Grunt on the next
    TILE: the first ACTION FLIPS the Flamer back (Clog), the second ATTACKS with it (2 WHITE
    + 1 BLACK die, 1 SUCCESS each: 3 vs DEFENSE 1, the Grunt dies)."""
    box = Sandbox(fix_setup)
    box.place(FIXER, (0, 2))
    box.place(F_GRUNT, (0, 3), revealed=True)
    box.st[FIXER, L.S_FLIPPED] = 1 << FLAMER
    box.script([3] * 10)
    box.turn(FIXER)
    acts = [
        (int(r[0]), int(r[3]), int(r[4]))
        for r in box.events()
        if r[0] in (*ACTION_EVENTS, L.E_FIXED)
    ]
    assert acts[0] == (L.E_FIXED, FIXER, FLAMER)
    assert acts[1][0] == L.E_ATTACK and box.flipped(FIXER) == 0
    assert box.on(F_GRUNT) == L.ON_RESERVE
    assert any("FLIPS Flamer (Fixer) back" in line for line in box.lines())


def test_no_flip_back_off_the_item_s_side_or_without_a_trait(fix_setup) -> None:
    """In PRIMAL the Fixer cannot use Clog (the Flamer is a FOCUS ITEM) and the BOTCHED
    Club has no ACTION to FLIP it back (Bent): over 200 random TURNS from PRIMAL an ITEM is
    FLIPPED back only after a FLIP to FOCUS, and only the Flamer; from FOCUS some TURNS
    FLIP it back at once (the random policy draws it among the ACTIONS)."""
    first = {"primal": 0, "focus": 0}
    later = 0
    for side in ("primal", "focus"):
        for seed in range(200):
            box = Sandbox(fix_setup)
            box.set_option(L.M_POL_A, L.POL_RANDOM)
            box.rng[:4] = np.array([seed + 1, 2 * seed + 7, 3, 5], dtype=np.uint64)
            box.place(FIXER, (0, 0), side=side)
            box.st[FIXER, L.S_FLIPPED] = (1 << FLAMER) | (1 << CLUB)
            box.script([3] * 20)
            box.turn(FIXER)
            acts = [r for r in box.events() if r[0] in (*ACTION_EVENTS, L.E_FIXED)]
            for i, r in enumerate(acts):
                if r[0] != L.E_FIXED:
                    continue
                # the Club stays BOTCHED (CARRIED, or DROPPED with its face: a FREE ACTION)
                club = (box.flipped(FIXER) | box.stat(L.G_GFLIP)) & (1 << CLUB)
                assert int(r[4]) == FLAMER and club
                if i == 0:
                    first[side] += 1
                else:
                    assert side == "focus" or (acts[0][0] == L.E_FLIP and acts[0][4] == 0)
                    later += 1
    assert first["primal"] == 0 and first["focus"] > 0 and later > 0


# --------------------------------------------------------------------- ARCANA IV
def ruler_reach(box: Sandbox, cell) -> dict[int, int]:
    """The TILES a MOVE 3 without MOVE PENALTIES reaches from ``cell``: their DISTANCE to
    the EXIT POINT r2c5 (the Tester's goal)."""
    fld, dist, mv, ms = box.arrays[4], box.arrays[5], box.arrays[7], box.arrays[8]
    nt, here, goal = int(ms[L.M_NTILES]), box.tile(cell), box.tile((2, 5))
    row = (L.RULER_MOVE - 1) * nt + here
    assert fld.shape[0] == nt
    return {t: int(dist[t, goal]) for t in range(nt) if t != here and mv[row, t] >= 0}


def test_the_ruler_moves_an_operative_three_tiles_away_from_its_goal(files) -> None:
    """ "IV – The Ruler: MOVE an ENEMY 3 TILES ignoring MOVE PENALTIES": the HOSTILE plays
    it at the start of the Tester's TURN one BORDER from the EXIT POINT: the Tester MOVES
    (a MOVE 3, no penalties) to a TILE farthest from the EXIT POINT it can reach, then
    takes its TURN.  From the OSP corner no TILE is 2 BORDERS farther: the card is kept."""
    box = arcana_box(files)
    box.place(TESTER, (1, 5))
    box.hand(0, [])
    box.hand(1, [L.A_RULER])
    box.script([1] * 40)
    reach = ruler_reach(box, (1, 5))
    box.turn(TESTER)
    assert played(box) == [(1, L.A_RULER, 0)] and box.holding(1) == []
    first = next(r for r in box.events() if r[0] == L.E_MOVE)
    assert int(first[3]) == TESTER and int(first[4]) == box.tile((1, 5))
    assert reach[int(first[5])] == max(reach.values()) >= 1 + 2
    box = arcana_box(files)
    box.place(TESTER, (0, 0))
    box.hand(0, [])
    box.hand(1, [L.A_RULER])
    box.script([1] * 40)
    box.turn(TESTER)
    assert played(box) == [] and box.holding(1) == [L.A_RULER]


def test_the_ruler_s_move_provokes_sucker_punches_and_ambushes(files) -> None:
    """The Ruler's MOVE is a MOVE: leaving a TILE with a REVEALED ENEMY grants its SUCKER
    PUNCH (the Grunt's 1 WHITE die misses), and a THREAT on the TILE reached AMBUSHES the
    Tester (a THREAT's TILE counts 2 BORDERS farther, so it is the one chosen)."""
    box = arcana_box(files)
    box.place(TESTER, (1, 5))
    box.place(GRUNT1, (1, 5), revealed=True)
    reach = ruler_reach(box, (1, 5))
    far = max(reach.values())
    near = [t for t, d in reach.items() if d == far - 1]
    box.place(GRUNT2, box.cells[near[0]])  # a THREAT one BORDER short of the farthest
    box.hand(0, [])
    box.hand(1, [L.A_RULER])
    box.script([1] * 40)
    box.turn(TESTER)
    assert played(box) == [(1, L.A_RULER, 0)]
    assert box.stat(L.G_PUNCHES) >= 1 and box.stat(L.G_AMBUSHES) >= 1
    amb = next(r for r in box.events() if r[0] == L.E_AMBUSH)
    assert int(amb[3]) == GRUNT2 and int(amb[4]) == TESTER


def test_the_conqueror_doubles_free_attacks_while_in_force(files) -> None:
    """ "XI – The Conqueror: You or an ALLY may ATTACK twice for each ATTACK this ROUND":
    with the HOSTILE's XI in force this ROUND, the Grunt's SUCKER PUNCH on the Tester
    leaving its TILE is two ATTACKS (one SUCKER PUNCH spent, two 1-WHITE-die ROLLS, both
    miss); without it, one."""
    for in_force, rolls in ((1, 2), (0, 1)):
        box = arcana_box(files)
        box.place(TESTER, (0, 0))
        box.place(GRUNT1, (0, 0), revealed=True)
        box.hand(0, [])
        box.hand(1, [])
        box.g[L.G_CONQUEROR + 1] = in_force
        box.script([1, 1, 1])
        box.move(TESTER, (0, 1))
        hits = [r for r in attacks(box) if int(r[3]) == GRUNT1]
        assert len(hits) == rolls and box.dice_used() == rolls
        assert box.stat(L.G_PUNCHES) == 1 and box.at(TESTER) == (0, 1)


# --------------------------------------------------------------------- ACTIVE TRAITS
def test_an_active_trait_attack_is_an_option_of_its_side(fix_setup, files) -> None:
    """ "Active Traits": an ACTIVE TRAIT that is an ATTACK (``pool_attack``, the sample
    Scrap Storm: "MELEE AREA ATTACK with the PRIMAL POOL") is an ACTION with the side's
    POOL, RANGE 0: the Tinker's PRIMAL Whirl (option 3, after BARE HANDED; then the
    Fixer's Flamer and Club it may use once it CARRIES them, and the FOCUS POOL for
    SCOUTING at 6) is usable in PRIMAL only; as an AREA ATTACK on its own TILE
    its 1 WHITE die (1 SUCCESS) hits both REVEALED Grunts (DEFENSE 1): both die."""
    prof, opt = fix_setup.arrays[1], fix_setup.arrays[2]
    focus, primal = TINKER * L.ROWS, TINKER * L.ROWS + L.MAX_LEVELS
    assert prof[focus, L.F_NOPT] == prof[primal, L.F_NOPT] == 6
    assert prof[focus, L.F_SCOUT] == focus * L.MAX_OPT + 6
    assert fix_setup.extra.option_names[TINKER][4:6] == ["Flamer", "Club"]
    whirl = 3
    assert opt[primal * L.MAX_OPT + whirl, L.O_USABLE] == 1
    assert opt[focus * L.MAX_OPT + whirl, L.O_USABLE] == 0
    assert opt[primal * L.MAX_OPT + whirl, L.O_AREA] == 1
    assert opt[primal * L.MAX_OPT + whirl, L.O_RANGE] == 0
    assert fix_setup.extra.option_names[TINKER][whirl] == "Whirl"
    box = Sandbox(fix_setup)
    box.place(TINKER, (0, 2), side="primal")
    box.place(F_GRUNT, (0, 2), revealed=True)
    box.place(F_GRUNT + 1, (0, 2), revealed=True)
    box.script([3])
    box.area(TINKER, whirl, (0, 2))
    assert box.dice_used() == 1
    assert box.on(F_GRUNT) == L.ON_RESERVE and box.on(F_GRUNT + 1) == L.ON_RESERVE


def test_overcommitting_for_secure_when_it_gives_the_higher_chance(files) -> None:
    """ "Overcommitting": "Gain SECURE 1 on their ROLL".  The Tester in PRIMAL (1 WHITE +
    1 BLACK, the Pistol's BLACK: 57% against the Boss's DEFENSE 3) OVERCOMMITS, and SECURE
    1 (71%) beats a WHITE DIE (63%): it takes SECURE 1.  The dice WHITE 2, BLACK BOTCH,
    BLACK 3: the BOTCH is ignored, 5 SUCCESSES WOUND the Boss, the Pistol is not FLIPPED;
    the HOSTILE DRAWS 1 ARCANA after the ROLL."""
    box = arcana_box(files, overcommit=True)
    box.place(TESTER, (0, 0), side="primal")
    box.place(BOSS, (0, 2), revealed=True)
    box.hand(0, [])
    box.hand(1, [])
    box.script([6, 1, 6])
    box.attack(TESTER, PISTOL, BOSS)
    over = [(int(r[3]), int(r[4])) for r in box.events() if r[0] == L.E_OVERCOMMIT]
    assert over == [(TESTER, L.OVER_SECURE)]
    assert box.dice_used() == 3 and box.wounds(BOSS) == 1 and box.flipped(TESTER) == 0
    assert len(box.holding(1)) == 1
    assert any("OVERCOMMITS: SECURE 1" in line for line in box.lines())
