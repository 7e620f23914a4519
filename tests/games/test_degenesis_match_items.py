"""Degenesis: Clan Wars mission engine, round 7 (issue 19): ITEMS changing hands ("Pick Up",
"Trade", "Drop", carrying the DEAD), the sample cards' ACTIVE TRAITS (Patch Up, Data
Stream, Overload, Verdict, Execution, the Trapper's Snare) and the Spider's Harrowing, and
the ARCANA modes played since (VI's FLIP a FLESHWOUND / revert a STAGE, IV by the
OPERATIVES, 0 by the HOSTILE).  One rule per test on hand-built states with scripted dice.

The bundled sample cards (``configs/degenesis/units.yaml``) on the test ground of
``test_degenesis_match_rules.py``.  Dice faces by position 1..6 (``dice.yaml``): WHITE 1-2
BLANK, 3-5 one SUCCESS, 6 two; BLACK 1 BOTCH, 2 BLANK, 3 one, 4-5 two, 6 three; FATAL 1-2
BOTCH, 3 two, 4-5 three, 6 four.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from analyzer.games.degenesis.match import layout as L
from analyzer.games.degenesis.match import match_nb as M
from analyzer.games.degenesis.match.engine import ENGINE
from analyzer.games.degenesis.match.sandbox import Sandbox
from analyzer.match.runner import run_records
from tests.games.test_degenesis_match_rules import MISSION, make_setup  # the test ground

ROSTER = "name: Corebox\nsystem: degenesis\nside: roster\nunits: [{unit: Timur}, {unit: Pluto}, {unit: Echo}, {unit: Feuerbach}]\n"  # noqa: E501
HOSTILE = """name: Nest
system: degenesis
side: hostile
units: [{unit: Swarmer, count: 2}, {unit: Cackler}, {unit: Trapper}, {unit: The Spider}]
"""
TIMUR, PLUTO, ECHO, FEUERBACH, SWARMER, SWARMER2, CACKLER, TRAPPER, SPIDER = range(9)
# the ROSTER's item list (its WEAPONS in ROSTER order; Judge's Coat is WORN ARMOR)
RIFLE, BONE_SAW, SCRAP_HAMMER, NAIL_GUN, STREAM_PISTOL, SHOCK_BATON, JUDGES_HAMMER, REVOLVER = (
    range(8)
)
ECHO_REVOLVER = 5  # Echo's options: Pistol, Baton, BARE HANDED, Bone Saw, Nail Gun, Revolver


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path | None]:
    d = tmp_path_factory.mktemp("degenesis_items")
    out = {}
    for name, text in (("roster", ROSTER), ("hostile", HOSTILE), ("mission", MISSION)):
        out[name] = d / f"{name}.yaml"
        out[name].write_text(text)
    out["units"] = None  # the bundled sample cards
    return out


@pytest.fixture()
def box(files) -> Sandbox:
    return Sandbox(make_setup(files))


def kinds(box: Sandbox, kind: int) -> list[np.ndarray]:
    return [row for row in box.events() if row[0] == kind]


def test_the_item_list_and_the_options_for_others_items(box) -> None:
    """ "Items Breakdown": an ITEM "may only be used by OPERATIVES who share its CULT"; one
    without a CULT symbol by any: Echo gets options for the Bone Saw, the Nail Gun and the
    Revolver (not the Fungicide Rifle, the Scrap Hammer, the Judge's Hammer)."""
    comp = box.setup.extra
    assert [n.split(" (")[0] for n in comp.item_names] == [
        "Fungicide Rifle", "Bone Saw", "Scrap Hammer", "Nail Gun", "Stream Pistol",
        "Shock Baton", "Judge's Hammer", "Revolver",
    ]  # fmt: skip
    assert comp.option_names[ECHO][3:6] == ["Bone Saw", "Nail Gun", "Revolver"]
    un = box.arrays[0]
    assert un[ECHO, L.U_ITEMS] == (1 << STREAM_PISTOL) | (1 << SHOCK_BATON)
    assert un[FEUERBACH, L.U_LOAD] == 1 and un[FEUERBACH, L.U_BODY] == 3  # the WORN Coat
    assert un[ECHO, L.U_BODY] == 2


def test_a_dead_operative_drops_its_items_and_another_picks_up_and_uses_one(box) -> None:
    """ "Items": "When an OPERATIVE DIES, all of their ITEMS are DROPPED on their TILE" (not
    the WORN ARMOR); "Pick Up": the ACTION grants the ENEMIES on the TILE a SUCKER PUNCH;
    the Revolver then ATTACKS with Echo's FOCUS POOL + its HANDLING POOL."""
    box.place(FEUERBACH, (0, 2), wounds=5)  # all 3 POTENTIALS FLIPPED, the last FLESHWOUND
    box.place(ECHO, (0, 2))
    box.place(SWARMER, (0, 2), revealed=True)
    box.script([6, 6])  # 4 SUCCESSES vs DEFENSE 2 + Stern 1 + Judge's Coat 1
    box.attack(SWARMER, 0, FEUERBACH)
    assert box.on(FEUERBACH) == L.ON_DEAD and box.carry(FEUERBACH) == 0
    assert box.item_at(JUDGES_HAMMER) == (0, 2) and box.item_at(REVOLVER) == (0, 2)
    box.script([1, 1])  # the SUCKER PUNCH: 0 SUCCESSES
    box.play(M.C_PICKUP, ECHO, 1 << REVOLVER, -1)
    assert box.stat(L.G_PUNCHES) == 1 and box.dice_used() == 2
    assert box.carry(ECHO) == (1 << STREAM_PISTOL) | (1 << SHOCK_BATON) | (1 << REVOLVER)
    assert box.item_at(REVOLVER) is None and box.item_at(JUDGES_HAMMER) == (0, 2)
    # WHITE 3 (Echo) + BLACK 1 + 1 (Revolver): 1 SUCCESS + Archive 1 = 2 vs DEFENSE 1
    box.script([3, 1, 1, 2, 2])
    box.attack(ECHO, ECHO_REVOLVER, SWARMER)
    assert box.on(SWARMER) == L.ON_RESERVE and box.dice_used() == 5


def test_pick_up_stops_at_the_encumbrance_limit(box) -> None:
    """ "Items": "OPERATIVES cannot PICK UP an ITEM that would take them over their
    ENCUMBRANCE LIMIT" of 5: Echo (2 ITEMS) takes 3 of the 4 on the TILE, in item order."""
    box.place(ECHO, (1, 1))
    for i in (RIFLE, BONE_SAW, JUDGES_HAMMER, REVOLVER):
        box.g[L.G_ITEM_AT + i] = box.tile((1, 1))
    box.play(M.C_PICKUP, ECHO, (1 << 8) - 1, -1)
    want = (1 << STREAM_PISTOL) | (1 << SHOCK_BATON) | (1 << RIFLE) | (1 << BONE_SAW)
    assert box.carry(ECHO) == want | (1 << JUDGES_HAMMER)
    assert box.item_at(REVOLVER) == (1, 1) and box.dice_used() == 0


def test_trade_moves_an_item_with_its_face_and_provokes(box) -> None:
    """ "Trade": with a willing partner on the TILE, giving or receiving; "The ITEMS
    maintain their current face orientation"; the trading unit grants a SUCKER PUNCH."""
    box.place(TIMUR, (1, 1))
    box.place(PLUTO, (1, 1))
    box.place(SWARMER, (1, 1), revealed=True)
    box.st[TIMUR, L.S_FLIPPED] = 1 << BONE_SAW  # the Bone Saw is BOTCHED
    box.script([1, 1])
    box.play(M.C_TRADE, TIMUR, PLUTO, BONE_SAW)  # Timur gives it
    assert box.stat(L.G_PUNCHES) == 1
    assert box.carry(TIMUR) == 1 << RIFLE
    assert box.carry(PLUTO) & (1 << BONE_SAW) and box.flipped(PLUTO) == 1 << BONE_SAW
    assert box.flipped(TIMUR) == 0
    box.play(M.C_TRADE, TIMUR, PLUTO, NAIL_GUN)  # Timur takes the Nail Gun (no PUNCH left)
    assert box.carry(TIMUR) == (1 << RIFLE) | (1 << NAIL_GUN)
    assert box.carry(PLUTO) == (1 << SCRAP_HAMMER) | (1 << BONE_SAW)
    assert box.stat(L.G_PUNCHES) == 1


def test_drop_is_free_of_sucker_punches_and_keeps_the_face(box) -> None:
    """ "Drop": a FREE ACTION (no SUCKER PUNCH: the rulebook grants them for leaving, RANGED
    ATTACKS, PICK UP and TRADE); the BOTCH face stays with the ITEM on the TILE."""
    box.place(ECHO, (1, 1))
    box.place(PLUTO, (1, 1), side="primal")
    box.place(SWARMER, (1, 1), revealed=True)
    box.st[ECHO, L.S_FLIPPED] = 1 << SHOCK_BATON
    box.play(M.C_DROP, ECHO, SHOCK_BATON)
    assert box.dice_used() == 0 and box.stat(L.G_PUNCHES) == 0
    assert box.item_at(SHOCK_BATON) == (1, 1) and box.flipped(ECHO) == 0
    box.script([1, 1])
    box.play(M.C_PICKUP, PLUTO, 1 << SHOCK_BATON, -1)
    assert box.flipped(PLUTO) == 1 << SHOCK_BATON


def test_carrying_a_dead_comrade(box) -> None:
    """ "Items": "OPERATIVES can CARRY the bodies of DEAD comrades – this counts as 2 ITEMS
    ..., or 3 if the DEAD OPERATIVE was wearing an ARMOR ITEM": Echo (2 ITEMS) carries
    Feuerbach (Judge's Coat: 3) and the body goes where she MOVES; with a third ITEM she
    could not."""
    box.place(ECHO, (0, 2))
    box.place(FEUERBACH, (0, 2), wounds=6)
    box.st[FEUERBACH, L.S_ON] = L.ON_DEAD
    box.st[FEUERBACH, L.S_CARRY] = 0
    box.g[L.G_ITEM_AT + REVOLVER] = box.tile((0, 2))
    box.play(M.C_PICKUP, ECHO, 1 << REVOLVER, -1)  # 3 ITEMS now
    box.play(M.C_PICKUP, ECHO, 0, FEUERBACH)
    assert box.st[ECHO, L.S_BODY] == 0  # 3 + 3 > 5
    box.play(M.C_DROP, ECHO, REVOLVER)
    box.play(M.C_PICKUP, ECHO, 0, FEUERBACH)
    assert box.st[ECHO, L.S_BODY] == FEUERBACH + 1
    assert box.st[FEUERBACH, L.S_CARRIER] == ECHO + 1
    box.move(ECHO, (1, 2))
    assert box.at(FEUERBACH) == (1, 2)
    box.play(M.C_DROP, ECHO, -1)
    box.move(ECHO, (1, 1))
    assert box.at(FEUERBACH) == (1, 2) and box.st[FEUERBACH, L.S_CARRIER] == 0


def test_a_clanner_discards_an_item_after_the_sucker_punch(box) -> None:
    """ "Pick Up": "CLANNERS instead PICK UP, DISCARD, or FLIP 1 UNCARRIED ITEM", granting
    the OPERATIVES on the TILE a SUCKER PUNCH: a hit kills the Swarmer first (the ITEM
    stays), a miss lets the next one DISCARD it."""
    box.place(PLUTO, (1, 1))  # FOCUS: the Nail Gun, 2 + 1 WHITE
    box.place(SWARMER, (1, 1), revealed=True)
    box.place(SWARMER2, (1, 1), revealed=True)
    box.g[L.G_ITEM_AT + REVOLVER] = box.tile((1, 1))
    box.script([6, 1, 1])  # 2 SUCCESSES vs DEFENSE 1: the Swarmer dies
    box.play(M.C_DISCARD, SWARMER, REVOLVER)
    assert box.on(SWARMER) == L.ON_RESERVE and box.item_at(REVOLVER) == (1, 1)
    box.st[PLUTO, L.S_PUNCH] = 0
    box.script([1, 1, 1])
    box.play(M.C_DISCARD, SWARMER2, REVOLVER)
    assert box.item_at(REVOLVER) == -2 and box.stat(L.G_PUNCHES) == 2


# --------------------------------------------------------------------- ACTIVE TRAITS
def test_patch_up_flips_a_fleshwound_only_unopposed(box) -> None:
    """Patch Up: "If Timur is UNOPPOSED, FLIP 1 of his FLESHWOUNDS or that of an ALLY on his
    TILE"; after TRAUMA the FLESHWOUND FLIPPED back shows a POTENTIAL again."""
    box.place(TIMUR, (1, 1))
    box.place(ECHO, (1, 1), wounds=1)
    box.place(SWARMER, (1, 1), revealed=True)
    box.play(M.C_HEAL, TIMUR, ECHO)
    assert box.wounds(ECHO) == 1  # OPPOSED
    box.st[SWARMER, L.S_ON] = L.ON_RESERVE
    box.st[SWARMER, L.S_TILE] = -1
    box.play(M.C_HEAL, TIMUR, ECHO)
    assert box.wounds(ECHO) == 0 and box.dice_used() == 0
    box.st[TIMUR, L.S_WOUNDS] = 3  # 1 TRAUMA + 1 FLESHWOUND of 2 POTENTIALS
    box.st[TIMUR, L.S_TRAUMA] = 1
    box.play(M.C_HEAL, TIMUR, TIMUR)
    assert box.wounds(TIMUR) == 2 and int(box.st[TIMUR, L.S_TRAUMA]) == 1
    box.play(M.C_HEAL, TIMUR, TIMUR)  # no FLESHWOUND left to FLIP
    assert box.wounds(TIMUR) == 2
    assert [int(r[6]) for r in kinds(box, L.E_HEAL)] == [0, 2]
    box.place(SWARMER, (1, 1), revealed=True)  # the next WOUND FLIPS Splaying, no TRAUMA
    box.script([6, 6])
    box.attack(SWARMER, 0, TIMUR)
    assert box.wounds(TIMUR) == 3 and int(box.st[TIMUR, L.S_TRAUMA]) == 1


def test_data_stream_reveals_within_3_without_a_roll(box) -> None:
    """Data Stream: "REVEAL a THREAT WITHIN 3" (no ROLL, no LINE OF SIGHT named)."""
    box.place(ECHO, (0, 0))
    box.place(SWARMER, (0, 3))
    box.place(CACKLER, (3, 5))
    box.play(M.C_REVEAL, ECHO, box.tile((0, 3)))
    box.play(M.C_REVEAL, ECHO, box.tile((3, 5)))  # 8 BORDERS away
    assert box.revealed(SWARMER) and not box.revealed(CACKLER) and box.dice_used() == 0
    box.place(ECHO, (0, 0), side="primal")
    box.place(SWARMER2, (0, 1))
    box.play(M.C_REVEAL, ECHO, box.tile((0, 1)))  # a FOCUS TRAIT
    assert not box.revealed(SWARMER2)


def test_overload_stuns_an_enemy_on_the_tile(box) -> None:
    """Overload: "STUN an ENEMY on Echo's TILE" ("Stun": no ACTIONS, DEFENSE -2)."""
    box.place(ECHO, (1, 1), side="primal")
    box.place(SWARMER, (1, 1), revealed=True)
    box.place(SWARMER2, (1, 2), revealed=True)
    box.play(M.C_STUN, ECHO, SWARMER2)
    box.play(M.C_STUN, ECHO, SWARMER)
    assert box.stunned(SWARMER) and not box.stunned(SWARMER2) and box.dice_used() == 0


def test_verdict_lowers_the_defense_for_the_round(box) -> None:
    """Verdict: "An ENEMY WITHIN 2 takes DEFENSE -1 this ROUND": the Cackler's DEFENSE 3 is
    2 against the Revolver (WHITE 2, BLACK 1 + 1; Hammer of Justice SUCCESS +1)."""
    box.place(FEUERBACH, (0, 0))
    box.place(CACKLER, (0, 2), revealed=True)
    box.play(M.C_VERDICT, FEUERBACH, CACKLER)
    assert int(box.st[CACKLER, L.S_DEFMOD]) == 1
    box.script([3, 1, 2, 2])  # 1 SUCCESS + 1 = 2
    box.attack(FEUERBACH, 1, CACKLER)
    assert box.on(CACKLER) == L.ON_RESERVE
    assert int(kinds(box, L.E_ATTACK)[-1][8]) == 2


def test_execution_adds_success_against_a_wounded_enemy(box) -> None:
    """Execution: "MELEE ATTACK with SUCCESS +2 against a WOUNDED ENEMY": the Spider in
    STAGE II (DEFENSE 2) is hit by the dice that miss it with a plain ATTACK; an unWOUNDED
    ENEMY cannot be its TARGET."""
    box.place(FEUERBACH, (1, 1), side="primal")
    box.place(SPIDER, (1, 1), revealed=True, wounds=1)
    blanks = [1, 1, 2, 2, 2, 1]  # WHITE 2, BLACK 3 BLANK, the FATAL BOTCH SECURED (Iron Will)
    box.script(blanks)
    box.attack(FEUERBACH, 0, SPIDER)  # the Judge's Hammer: 0 + Hammer of Justice 1 < 2
    assert box.wounds(SPIDER) == 1
    box.script(blanks)
    box.play(M.C_EXECUTE, FEUERBACH, 0, SPIDER)  # 0 + 1 + 2 = 3
    assert box.wounds(SPIDER) == 2
    assert [int(r[7]) for r in kinds(box, L.E_ATTACK)] == [1, 3]
    box.place(CACKLER, (1, 1), revealed=True)
    box.script(blanks)
    box.play(M.C_EXECUTE, FEUERBACH, 0, CACKLER)
    assert box.dice_used() == 0  # not WOUNDED: no ATTACK


def test_snare_stops_moves_for_the_round(box) -> None:
    """The Trapper's Snare: "An OPERATIVE WITHIN 1 cannot MOVE this ROUND" (an EXIT is a
    MOVE ACTION too); the THREAT using it is REVEALED."""
    box.place(TRAPPER, (0, 1))
    box.place(TIMUR, (0, 0))
    box.place(ECHO, (2, 0))
    box.play(M.C_SNARE, TRAPPER, ECHO)  # 3 BORDERS: out of reach
    box.play(M.C_SNARE, TRAPPER, TIMUR)
    assert box.revealed(TRAPPER)
    assert int(box.st[TIMUR, L.S_SNARED]) == 1 and int(box.st[ECHO, L.S_SNARED]) == 0
    box.move(TIMUR, (1, 0))
    box.leave(TIMUR)  # the OSP: a RETREAT would be a MOVE ACTION
    box.move(ECHO, (3, 0))
    assert box.at(TIMUR) == (0, 0) and box.on(TIMUR) == L.ON_FIELD and box.at(ECHO) == (3, 0)


def test_harrowing_flips_an_operative_before_the_spiders_action(box) -> None:
    """Harrowing: "Before any ACTION by the Spider, FLIP an OPERATIVE WITHIN 2"."""
    box.place(SPIDER, (0, 2), revealed=True)
    box.place(ECHO, (0, 0))
    box.place(TIMUR, (3, 5))
    box.play(M.C_MOVE, SPIDER, box.tile((1, 2)))
    assert int(box.st[ECHO, L.S_SIDE]) == 1 and int(box.st[TIMUR, L.S_SIDE]) == 0
    assert box.at(SPIDER) == (1, 2) and len(kinds(box, L.E_TRAIT)) == 1


# --------------------------------------------------------------------- ARCANA
def test_vi_flips_a_fleshwound_when_it_shows_a_potential_again(files) -> None:
    """ "VI – The Healer: Flip a FLESHWOUND": the OPERATIVES play it at the start of a TURN
    when the POTENTIAL coming back changes the profile (Timur's Splaying, SUCCESS +1), not
    for Caregiver (text only): the card is kept to NEGATE a WOUND that would kill."""
    box = Sandbox(make_setup(files, arcana=True))
    box.place(TIMUR, (1, 1), side="primal", wounds=1)  # Caregiver FLIPPED
    box.hand(0, [L.A_HEALER])
    box.begin(TIMUR)
    assert box.wounds(TIMUR) == 1 and box.holding(0) == [L.A_HEALER]
    box.st[TIMUR, L.S_WOUNDS] = 2  # Splaying FLIPPED too
    box.begin(TIMUR)
    assert box.wounds(TIMUR) == 1 and box.holding(0) == []


def test_vi_reverts_a_champion_on_its_last_stage(files) -> None:
    """ "VI – The Healer: ... revert a CHAMPION to its previous STAGE": the HOSTILE plays
    it at the start of a REACTION PHASE on a CHAMPION one WOUND from DEATH."""
    box = Sandbox(make_setup(files, arcana=True))
    box.place(SPIDER, (3, 5), revealed=True, wounds=1)
    box.place(TIMUR, (0, 0))
    box.hand(1, [L.A_HEALER])
    box.react()
    assert box.wounds(SPIDER) == 1 and box.holding(1) == [L.A_HEALER]  # STAGE II: kept
    box.st[SPIDER, L.S_WOUNDS] = 2
    box.react()
    assert box.holding(1) == [] and box.wounds(SPIDER) == 1
    assert int(kinds(box, L.E_HEAL)[0][5]) == L.HEAL_HEALER_STAGE


def test_iv_played_by_the_operatives_moves_the_enemy_off_their_tile(files) -> None:
    """ "IV – The Ruler: MOVE an ENEMY 3 TILES ignoring MOVE PENALTIES", by the OPERATIVES
    at the start of a TURN on the ENEMY sharing the OPERATIVE's TILE: to the TILE farthest
    from them (the first in TILE order of those 3 BORDERS away: r0c3, a climb it ignores);
    it leaves a TILE with an OPERATIVE, who gets a SUCKER PUNCH."""
    box = Sandbox(make_setup(files, arcana=True))
    box.place(ECHO, (0, 0))
    box.place(SWARMER, (0, 0), revealed=True)
    box.hand(0, [L.A_RULER])
    box.script([1, 1, 1, 1, 1, 1])  # Echo's Stream Pistol: 2 BOTCHES (Steady Aim SECURES 1)
    box.begin(ECHO)
    assert box.at(SWARMER) == (0, 3) and box.holding(0) == []
    assert box.stat(L.G_PUNCHES) == 1 and box.flipped(ECHO) == 1 << STREAM_PISTOL


def test_0_played_by_the_hostile(files) -> None:
    """ "0 – The Adventurer: You and your ALLIES ignore MOVE PENALTIES this ROUND", played by
    the HOSTILE for a MOVE only it makes possible (the Cackler, MOVE 2, over the rise into
    HARD TERRAIN: 4 with the penalties)."""
    box = Sandbox(make_setup(files, arcana=True))
    box.place(CACKLER, (0, 2), revealed=True)
    box.place(TIMUR, (3, 0))
    box.hand(1, [L.A_ADVENTURER])
    box.play(M.C_MOVE, CACKLER, box.tile((0, 4)), 1)
    assert box.at(CACKLER) == (0, 4) and box.holding(1) == []
    assert box.stat(L.G_ADVENTURER + 1) == 1


def test_random_missions_keep_the_item_invariants(files) -> None:
    """Random OPERATIVES PICK UP, TRADE, DROP and CARRY bodies, random CLANNERS DISCARD:
    every ITEM stays in one place (one CARRIER, or one TILE), over many missions."""
    setup = make_setup(files, policies=("random", "random"), arcana=True, check_invariants=True)
    rec, _ = run_records(ENGINE, setup, 300, seed=11)
    assert int(rec[:, 7].sum()) == 0
