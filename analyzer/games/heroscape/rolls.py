"""Heroscape roll mechanics: Master Game attacks, initiative and the 20-sided die rolls.

Rulebook: ``heroscape.txt``.  Each mechanic cites the sections it encodes.  The
combat die's faces are sample data read from ``configs/heroscape/dice.yaml`` when
a mechanic is prepared, and reported in the parameters as ``combat_die``.

Combat dice are encoded for the trial kernels as faces ``1..sides`` of a fair die:
faces ``1..skull`` are skulls, the next ``shield`` faces are shields, the rest blank.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from analyzer.config.yaml_io import ConfigError, load_yaml
from analyzer.dice import exact as ex
from analyzer.dice.mechanic import Mechanic, Option, Params
from analyzer.dice.random_nb import count_at_most, roll_die
from analyzer.dice.simulate import trial_kernel
from analyzer.errors import InputError
from analyzer.games.heroscape import rules
from analyzer.paths import system_config

#: The combat die definition read at mechanic-preparation time (tests may point it elsewhere).
DICE_FILE = system_config("heroscape", "dice.yaml")
HEIGHT_SIDES = ("none", "attacker", "defender")
TERRAIN_KINDS = tuple(rules.TERRAIN_DEFENSE)
MAX_DICE = rules.MAX_DICE
D20_FACES = np.arange(1, rules.D20_SIDES + 1)


# ------------------------------------------------------------------ dice data
def _line(node: Any, key: str | None = None) -> int:
    """1-based line of ``key`` in a ruamel mapping (or of the node itself)."""
    try:
        if key is not None and key in node:
            return int(node.lc.key(key)[0]) + 1
        return int(node.lc.line) + 1
    except (AttributeError, TypeError):
        return 0


def load_combat_die(path: str | Path | None = None) -> dict[str, int]:
    """Face counts ``{"skull": s, "shield": h, "blank": b}`` of the combat die in ``dice.yaml``.

    Raises :class:`ConfigError` (``path:line: field: message``) on a malformed file.
    The parsed file is cached until the file changes (duels load it many times).
    """
    path = Path(DICE_FILE if path is None else path)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = -1  # let the loader report the unreadable file
    return dict(_load_combat_die(path, stamp))


@functools.lru_cache(maxsize=16)
def _load_combat_die(path: Path, stamp: int) -> dict[str, int]:
    doc = load_yaml(path)
    if not isinstance(doc, dict) or "combat_die" not in doc:
        raise ConfigError(f"{path}:{_line(doc)}: combat_die: missing (a mapping of face counts)")
    die = doc["combat_die"]
    if not isinstance(die, dict):
        raise ConfigError(f"{path}:{_line(doc, 'combat_die')}: combat_die: must be a mapping")
    unknown = [str(k) for k in die if k not in rules.COMBAT_DIE_FACES]
    if unknown:
        raise ConfigError(
            f"{path}:{_line(die, unknown[0])}: combat_die.{unknown[0]}: unknown face "
            f"(expected {', '.join(rules.COMBAT_DIE_FACES)})"
        )
    faces: dict[str, int] = {}
    for face in rules.COMBAT_DIE_FACES:
        if face not in die:
            raise ConfigError(f"{path}:{_line(die)}: combat_die.{face}: missing face count")
        count = die[face]
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ConfigError(
                f"{path}:{_line(die, face)}: combat_die.{face}: "
                f"must be a whole number >= 0 (got {count!r})"
            )
        faces[face] = int(count)
    sides = sum(faces.values())
    if not 1 <= sides <= 1024:
        raise ConfigError(
            f"{path}:{_line(doc, 'combat_die')}: combat_die: the die needs 1..1024 faces "
            f"(got {sides})"
        )
    return faces


def _die_params(p: Params) -> tuple[int, int, int]:
    """(sides, skull faces, shield faces) of the combat die recorded in the params."""
    die = p["combat_die"]
    return sum(die.values()), die["skull"], die["shield"]


@njit(cache=True, inline="always")
def count_between(state, n_dice, sides, low, high):  # pragma: no cover - numba
    """Roll ``n_dice`` dice with ``sides`` faces, count those showing ``low..high``."""
    hits = 0
    for _ in range(n_dice):
        face = roll_die(state, sides)
        if low <= face <= high:
            hits += 1
    return hits


# --------------------------------------------------------------------- attack
ATTACK_OPTIONS = (
    Option(
        "attack",
        int,
        "attacker's Attack Value (combat dice rolled for skulls)",
        required=True,
        minimum=0,
        maximum=MAX_DICE,
    ),
    Option(
        "defense",
        int,
        "defender's Defense Value (combat dice rolled for shields)",
        required=True,
        minimum=0,
        maximum=MAX_DICE,
    ),
    Option("height", HEIGHT_SIDES, "figure with height advantage (1 extra die)", default="none"),
    Option(
        "extreme-height",
        bool,
        "height advantage of more than 10 levels: 2 extra dice instead of 1",
        default=False,
    ),
    Option(
        "terrain",
        TERRAIN_KINDS,
        "defender's space: shadow +1, toxic-land -1, toxic-water -2 Defense Value",
        default="none",
    ),
    Option(
        "auto-shields",
        int,
        "automatic shields added to the defense roll (Nanite Shielding: 1)",
        default=0,
        minimum=0,
        maximum=MAX_DICE,
    ),
    Option(
        "special",
        bool,
        "special attack: attack dice not modified by height advantage or Glyphs",
        default=False,
    ),
    Option(
        "auto-skulls",
        int,
        "skulls added to a normal attack (Bloodcursed Blade: 1)",
        default=0,
        minimum=0,
        maximum=MAX_DICE,
    ),
    Option(
        "reroll-one",
        bool,
        "re-roll 1 attack die that did not show a skull (Gulløx Wing Render)",
        default=False,
    ),
    Option(
        "extra-wounds",
        int,
        "wounds added if the normal attack wounds (Nanotoxin Coating 1, Whetstone of Venom 2)",
        default=0,
        minimum=0,
        maximum=MAX_DICE,
    ),
)


def _check_attack(p: Params) -> Params:
    if p["extreme_height"] and p["height"] == "none":
        raise InputError("--extreme-height needs --height attacker or --height defender")
    if p["special"]:
        for key, name in (
            ("auto_skulls", "auto-skulls"),
            ("reroll_one", "reroll-one"),
            ("extra_wounds", "extra-wounds"),
        ):
            if p[key]:
                raise InputError(
                    f"--{name} only applies to a normal attack (the attack dice of a special "
                    "attack cannot be modified by any game effect except their own text)"
                )
    return p


def attack_dice(p: Params) -> Params:
    """Dice rolled by each side and the combat die used.

    Rules: "Resolving a Master Game Attack" (Attack/Defense Value dice; a special attack
    cannot be modified by height advantage, while the defender rolls its extra dice even
    against a special attack), "Height Advantage" (1 die, 2 when more than 10 levels
    above), "Shadow"/"Toxic Land"/"Toxic Water" (Defense Value +1/-1/-2).  The terrain
    changes the Defense Value, which cannot go below 0, before height-advantage dice are
    added (they are extra dice, not part of the Defense Value).
    """
    bonus = (
        rules.EXTREME_HEIGHT_ADVANTAGE_DICE if p["extreme_height"] else rules.HEIGHT_ADVANTAGE_DICE
    )
    dice = p["attack"] + (bonus if p["height"] == "attacker" and not p["special"] else 0)
    defense_value = max(p["defense"] + rules.TERRAIN_DEFENSE[p["terrain"]], 0)
    defense_dice = defense_value + (bonus if p["height"] == "defender" else 0)
    return {
        "combat_die": load_combat_die(),
        "attack_dice": dice,
        "defense_value": defense_value,
        "defense_dice": defense_dice,
    }


def skull_distribution(dice: int, p_skull: float, reroll_one: bool) -> ex.Distribution:
    """Skulls among ``dice`` combat dice, optionally re-rolling 1 die that is not a skull."""
    skulls = ex.binomial(dice, p_skull)
    if not reroll_one or dice == 0:
        return skulls
    second_try = ex.binomial(1, p_skull)
    return ex.mixture(
        skulls, lambda k: ex.point(k) if k == dice else ex.add(ex.point(k), second_try)
    )


def _attack_exact(p: Params) -> ex.Distribution:
    sides, skull, shield = _die_params(p)
    skulls = skull_distribution(p["attack_dice"], skull / sides, p["reroll_one"])
    shields = ex.binomial(p["defense_dice"], shield / sides)
    net = ex.subtract(
        ex.add(skulls, ex.point(p["auto_skulls"])), ex.add(shields, ex.point(p["auto_shields"]))
    )
    wounds = net.map(lambda d: np.maximum(d, 0)).map(
        lambda w: np.where(w > 0, w + p["extra_wounds"], 0)
    )
    return wounds.widen(0, p["attack_dice"] + p["auto_skulls"] + p["extra_wounds"])


def _attack_encode(p: Params) -> np.ndarray:
    sides, skull, shield = _die_params(p)
    return np.array(
        [
            sides,
            skull,
            shield,
            p["attack_dice"],
            p["defense_dice"],
            p["auto_skulls"],
            p["auto_shields"],
            int(p["reroll_one"]),
            p["extra_wounds"],
        ]
    )


@trial_kernel
def attack_trial(state, p):  # pragma: no cover - numba
    """One attack: attack dice (with an optional re-roll), defense dice, extra wounds."""
    sides = p[0]
    skull_faces = p[1]
    dice = p[3]
    skulls = count_at_most(state, dice, sides, skull_faces)
    if p[7] != 0 and skulls < dice and roll_die(state, sides) <= skull_faces:
        skulls += 1
    shields = count_between(state, p[4], sides, skull_faces + 1, skull_faces + p[2])
    wounds = max(skulls + p[5] - shields - p[6], 0)
    if wounds > 0:
        wounds += p[8]
    return wounds


ATTACK = Mechanic(
    system="heroscape",
    name="attack",
    example={"attack": 3, "defense": 2, "height": "attacker"},
    summary="Wounds from a Master Game attack: skulls minus shields, never below 0.",
    rules=(
        '"Resolving a Master Game Attack", "Height Advantage", "Shadow", "Toxic Land", '
        '"Toxic Water", "Nanite Shielding", "Bloodcursed Blade", "Gulløx Wing Render", '
        '"Nanotoxin Coating", "Whetstone of Venom"'
    ),
    options=ATTACK_OPTIONS,
    check=_check_attack,
    extra_params=attack_dice,
    exact=_attack_exact,
    encode=_attack_encode,
    trial=attack_trial,
    events={"p_wound": lambda p, o: o > 0},
)


# ------------------------------------------------------------ 20-sided die
def _d20_exact(p: Params) -> ex.Distribution:
    result = D20_FACES + rules.LODIN_BONUS * p["lodin"]
    return ex.binomial(1, float(np.mean(result >= p["at_least"])))


@trial_kernel
def d20_trial(state, p):  # pragma: no cover - numba
    """1 if the d20 plus a modifier p[1] shows at least p[0]."""
    return 1 if roll_die(state, rules.D20_SIDES) + p[1] >= p[0] else 0


LODIN = Option(
    "lodin", bool, "add 1 to the 20-sided die (Glyph of Lodin, Lucky 20-Sider)", default=False
)
_CHECK_LIST = ", ".join(f"{k} {v}" for k, v in rules.D20_CHECKS.items())

D20 = Mechanic(
    system="heroscape",
    name="d20",
    example={"at_least": 16},
    summary="A 20-sided die check for Glyphs, terrain and powers: 1 if the roll is high enough.",
    rules=(
        '"Gather Your Components" (the 20-sided die), "Glyph of Lodin"; thresholds: '
        '"Molten Lava", "Glyph of Mitonsoul", "Glyph of Nilrend", "Glyph of Oreld", '
        '"Treasure Glyph Traps", "Bolt of the Witherwood"'
    ),
    options=(
        Option(
            "at-least",
            int,
            f"succeed on this result or higher ({_CHECK_LIST})",
            required=True,
            minimum=1,
            maximum=rules.D20_SIDES,
        ),
        LODIN,
    ),
    exact=_d20_exact,
    encode=lambda p: np.array([p["at_least"], rules.LODIN_BONUS * p["lodin"]]),
    trial=d20_trial,
)


# ---------------------------------------------------------------- initiative
def _initiative_exact(p: Params) -> ex.Distribution:
    """Ties are rerolled, so P(Initiative) = P(win) / (P(win) + P(lose)) for one roll each."""
    mine = D20_FACES[:, None] + p["bonus"]
    theirs = D20_FACES[None, :] + p["enemy_bonus"]
    win = float(np.mean(mine > theirs))
    lose = float(np.mean(mine < theirs))
    return ex.binomial(1, win / (win + lose))


@trial_kernel
def initiative_trial(state, p):  # pragma: no cover - numba
    """Both players roll the d20 plus their bonus; ties reroll; 1 if the first player wins."""
    while True:
        mine = roll_die(state, rules.D20_SIDES) + p[0]
        theirs = roll_die(state, rules.D20_SIDES) + p[1]
        if mine != theirs:
            return 1 if mine > theirs else 0


INITIATIVE = Mechanic(
    system="heroscape",
    name="initiative",
    example={"bonus": 1},
    summary="Roll for Initiative: 1 if you roll higher (ties reroll), 0 otherwise.",
    rules='"2. Roll For Initiative", "Glyph of Dagmar (Initiative +8)", "Glyph of Lodin"',
    options=(
        Option(
            "bonus",
            int,
            "added to your initiative roll (Glyph of Dagmar 8, Glyph of Lodin 1)",
            default=0,
            minimum=0,
            maximum=MAX_DICE,
        ),
        Option(
            "enemy-bonus",
            int,
            "added to the opponent's initiative roll",
            default=0,
            minimum=0,
            maximum=MAX_DICE,
        ),
    ),
    exact=_initiative_exact,
    encode=lambda p: np.array([p["bonus"], p["enemy_bonus"]]),
    trial=initiative_trial,
)


# -------------------------------------------------------------------- terrain
def _lava_exact(p: Params) -> ex.Distribution:
    sides, skull, _ = _die_params(p)
    return ex.binomial(1, skull / sides).map(lambda s: s * rules.LAVA_FIELD_WOUNDS)


@trial_kernel
def lava_field_trial(state, p):  # pragma: no cover - numba
    """One combat die: p[2] wounds on a skull (faces 1..p[1] of p[0])."""
    return p[2] if roll_die(state, p[0]) <= p[1] else 0


LAVA_FIELD = Mechanic(
    system="heroscape",
    name="lava-field",
    example={},
    summary="Lava field (end of round) or cooling lava (start of turn): 1 wound on a skull.",
    rules='"Lava Field", "Cooling Lava"',
    options=(),
    extra_params=lambda p: {"combat_die": load_combat_die()},
    exact=_lava_exact,
    encode=lambda p: np.array([*_die_params(p)[:2], rules.LAVA_FIELD_WOUNDS]),
    trial=lava_field_trial,
    events={"p_wound": lambda p, o: o > 0},
)


def thin_ice_wounds(result: np.ndarray, height: int) -> np.ndarray:
    """ "Thin Ice": result <= height is 1 wound, a result of 1 is 2 wounds."""
    return np.where(
        result == rules.THIN_ICE_DOUBLE_RESULT,
        rules.THIN_ICE_DOUBLE_WOUNDS,
        np.where(result <= height, rules.THIN_ICE_WOUNDS, 0),
    )


def _thin_ice_exact(p: Params) -> ex.Distribution:
    result = D20_FACES + rules.LODIN_BONUS * p["lodin"]
    wounds = thin_ice_wounds(result, p["height"])
    return ex.one_die(wounds).widen(0, rules.THIN_ICE_DOUBLE_WOUNDS)


@trial_kernel
def thin_ice_trial(state, p):  # pragma: no cover - numba
    """d20 plus modifier p[1] against height p[0]; p[2] wounds at most the height, p[4] on p[3]."""
    result = roll_die(state, rules.D20_SIDES) + p[1]
    if result == p[3]:
        return p[4]
    return p[2] if result <= p[0] else 0


THIN_ICE = Mechanic(
    system="heroscape",
    name="thin-ice",
    example={"height": 4},
    summary="Wounds from ending a move on thin ice (0, 1, or 2 on a roll of 1).",
    rules='"Thin Ice" (d20 <= figure height: 1 wound; a 1: 2 wounds), "Glyph of Lodin"',
    options=(
        Option("height", int, "the figure's Height", required=True, minimum=1, maximum=MAX_DICE),
        LODIN,
    ),
    exact=_thin_ice_exact,
    encode=lambda p: np.array(
        [
            p["height"],
            rules.LODIN_BONUS * p["lodin"],
            rules.THIN_ICE_WOUNDS,
            rules.THIN_ICE_DOUBLE_RESULT,
            rules.THIN_ICE_DOUBLE_WOUNDS,
        ]
    ),
    trial=thin_ice_trial,
    events={"p_wound": lambda p, o: o > 0},
)


def _wellspring_exact(p: Params) -> ex.Distribution:
    result = D20_FACES + rules.LODIN_BONUS * p["lodin"]
    change = np.where(
        result >= rules.WELLSPRING_HEAL_AT,
        -1,
        np.where(result <= rules.WELLSPRING_HURT_AT_MOST, rules.WELLSPRING_WOUNDS, 0),
    )
    return ex.one_die(change).widen(-1, rules.WELLSPRING_WOUNDS)


@trial_kernel
def wellspring_trial(state, p):  # pragma: no cover - numba
    """d20 plus p[0]: -1 (heal) at p[1] or more, p[3] wounds at p[2] or less, else 0."""
    result = roll_die(state, rules.D20_SIDES) + p[0]
    if result >= p[1]:
        return -1
    return p[3] if result <= p[2] else 0


WELLSPRING = Mechanic(
    system="heroscape",
    name="wellspring",
    example={},
    summary="Hero on Wellspring water: -1 (removes 1 Wound Marker), 0, or 2 wounds.",
    rules='"Wellspring Water" (12 or higher: remove 1 wound; 1 or 2: 2 wounds), "Glyph of Lodin"',
    options=(LODIN,),
    exact=_wellspring_exact,
    encode=lambda p: np.array(
        [
            rules.LODIN_BONUS * p["lodin"],
            rules.WELLSPRING_HEAL_AT,
            rules.WELLSPRING_HURT_AT_MOST,
            rules.WELLSPRING_WOUNDS,
        ]
    ),
    trial=wellspring_trial,
    events={"p_heal": lambda p, o: o < 0, "p_wound": lambda p, o: o > 0},
)


# ------------------------------------------------------------------- glyphs
def _scarab_exact(p: Params) -> ex.Distribution:
    result = D20_FACES + rules.LODIN_BONUS * p["lodin"]
    taken = np.where(result >= rules.SCARAB_ALL_AT, 0, p["wounds"] - 1)
    return ex.one_die(taken).widen(0, p["wounds"] - 1)


@trial_kernel
def scarab_trial(state, p):  # pragma: no cover - numba
    """d20 plus p[1]: all p[0] wounds ignored at p[2] or more, otherwise 1 ignored."""
    return 0 if roll_die(state, rules.D20_SIDES) + p[1] >= p[2] else p[0] - 1


SCARAB = Mechanic(
    system="heroscape",
    name="scarab",
    example={"wounds": 3},
    summary="Wounds still taken after the Scarab of Invulnerability roll.",
    rules='"Scarab of Invulnerability" (1-15: ignore 1 wound, 16+: ignore all), "Glyph of Lodin"',
    options=(
        Option(
            "wounds",
            int,
            "wounds just received",
            required=True,
            minimum=1,
            maximum=MAX_DICE,
        ),
        LODIN,
    ),
    exact=_scarab_exact,
    encode=lambda p: np.array([p["wounds"], rules.LODIN_BONUS * p["lodin"], rules.SCARAB_ALL_AT]),
    trial=scarab_trial,
    events={"p_no_wound": lambda p, o: o == 0},
)


def vial_penalty(p: Params) -> Params:
    """ "Oops!": 5 per wound the figure has, at most 20."""
    return {"penalty": min(rules.VIAL_PENALTY_PER_WOUND * p["wounds"], rules.VIAL_MAX_PENALTY)}


def _vial_exact(p: Params) -> ex.Distribution:
    result = D20_FACES + rules.LODIN_BONUS * p["lodin"] - p["penalty"]
    return ex.binomial(1, float(np.mean(result <= rules.VIAL_DROP_AT_MOST)))


@trial_kernel
def vial_drop_trial(state, p):  # pragma: no cover - numba
    """d20 plus p[0] minus p[1]: 1 (dropped) when the result is p[2] or less."""
    return 1 if roll_die(state, rules.D20_SIDES) + p[0] - p[1] <= p[2] else 0


VIAL_DROP = Mechanic(
    system="heroscape",
    name="vial-drop",
    example={"wounds": 2},
    summary="Scenario 2 Veteran: 1 if a wounded figure drops the Nanite Vial, 0 if it keeps it.",
    rules=(
        'Scenario 2 "Mission Critical", Veteran "Oops!" (d20 - 5 per wound, max -20; '
        'drop on 5 or less), "Glyph of Lodin"'
    ),
    options=(
        Option(
            "wounds",
            int,
            "wounds the figure has (including the ones just taken)",
            required=True,
            minimum=1,
            maximum=MAX_DICE,
        ),
        LODIN,
    ),
    extra_params=vial_penalty,
    exact=_vial_exact,
    encode=lambda p: np.array(
        [rules.LODIN_BONUS * p["lodin"], p["penalty"], rules.VIAL_DROP_AT_MOST]
    ),
    trial=vial_drop_trial,
)

MECHANICS = {
    m.name: m
    for m in (ATTACK, D20, INITIATIVE, LAVA_FIELD, THIN_ICE, WELLSPRING, SCARAB, VIAL_DROP)
}
